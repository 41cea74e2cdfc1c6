"""The app shell in Python: pages, the rule-set picker, saved progress, errors shown."""

from __future__ import annotations

import json

import pytest
from test_quiz_kinds import answer_as_given  # 0 in every number box, nothing chosen: checked as it stands

from spades_tutor import Rules
from spades_tutor.session.progress import Progress
from spades_tutor.ui import errors
from spades_tutor.ui.app import App


@pytest.fixture
def app() -> App:
    a = App()
    yield a
    errors.remove_sink(a.show_error)


def test_home_page_offers_learn_quiz_and_the_rule_set_picker(app: App) -> None:
    assert app.nav.value == "Home"
    assert app.page.children == (app.home,)
    assert [n for _, n in app.picker.preset.options] == [
        "jokers",
        "deuces-high",
        "two-of-spades-third",
        "bicycle",
        "classic",
    ]


def test_picking_a_rule_set_changes_the_rules_everywhere(app: App) -> None:
    app.picker.preset.value = "deuces-high"
    assert app.rules.name == "deuces-high"
    assert "2♦" in app.picker.summary.value
    app.picker.nil.value = False
    assert app.rules.nil is False and app.rules.blind_nil == "off"
    app.picker.mercy.value = True
    assert app.rules.mercy == -200


def test_progress_is_saved_only_after_the_browser_sent_what_it_had(app: App) -> None:
    app.picker.preset.value = "classic"
    assert app.store.value == ""  # nothing written before the page's storage arrived
    stored = Progress()
    stored.record("score", "jokers", "score:jokers:1", True)
    stored.reach("01-the-deck", 3)
    app.store.value = stored.to_json()
    app.store.loaded = True
    # the stored answers come first; the rule set picked before loading is kept by the stored one
    assert app.progress.answered == 1 and app.progress.lessons["01-the-deck"] == 3
    app.picker.preset.value = "bicycle"
    saved = json.loads(app.store.value)
    assert saved["settings"]["preset"] == "bicycle" and len(saved["answers"]) == 1


def test_a_failing_callback_shows_a_message_and_the_app_keeps_working(app: App) -> None:
    def broken() -> None:
        raise RuntimeError("boom")

    errors.guarded(broken)()
    assert app.error.children, "the error banner is shown"
    banner = app.error.children[0]
    assert "went wrong" in banner.children[0].value
    banner.children[1].click()  # Dismiss
    assert app.error.children == ()
    app.nav.value = "Home"
    assert app.page.children == (app.home,)


def test_quiz_yourself_counts_its_own_answers_not_the_lessons(app: App) -> None:
    from spades_tutor.lessons import load_lessons

    lesson = load_lessons()[0]
    app.picker.retry.value = False  # one try: each check is an answer
    app.nav.value = "Learn"
    app.learn.open(lesson)
    player = app.learn.player
    answered = 0
    for step in range(len(lesson.steps)):
        player.go(step)
        for view in player.quizzes:
            answer_as_given(view)
            if view.check() is not None:
                answered += 1
    assert answered and app.progress.only("lesson").answered == answered
    app.nav.value = "Quiz yourself"
    assert "Score 0 / 0" in app.quiz.board.value  # the first visit starts from nothing
    view = app.quiz.view
    assert view is not None
    answer_as_given(view)
    feedback = view.check()
    assert feedback is not None
    assert f"Score {int(feedback.correct)} / 1" in app.quiz.board.value
    assert app.progress.only("quiz").answered == 1 and app.progress.answered == answered + 1


def test_reset_progress_asks_first_and_forgets_only_when_confirmed(app: App) -> None:
    app.nav.value = "Quiz yourself"
    quiz = app.quiz
    stored = Progress()
    stored.record("score", "jokers", "score:jokers:1/1", True)
    stored.reach("01-the-deck", 3)
    app.store.value = stored.to_json()
    app.store.loaded = True
    assert "Score 1 / 1" in quiz.board.value
    quiz.reset.click()
    assert app.progress.answered == 1 and app.progress.lessons == {"01-the-deck": 3}  # nothing forgotten yet
    assert quiz.reset_row.children == (quiz.reset_question, quiz.reset_answers)
    assert quiz.reset_answers.children == (quiz.confirm_reset, quiz.cancel_reset)
    quiz.cancel_reset.click()
    assert app.progress.answered == 1 and quiz.reset_row.children == (quiz.reset_links,)
    assert json.loads(app.store.value)["answers"]
    quiz.reset.click()
    quiz.confirm_reset.click()
    assert app.progress.answered == 0 and app.progress.lessons == {} and "Score 0 / 0" in quiz.board.value
    assert json.loads(app.store.value)["answers"] == [] and quiz.reset_row.children == (quiz.reset_links,)


def test_the_quiz_level_is_kept_when_the_rule_set_changes_and_after_a_reload(app: App) -> None:
    app.store.loaded = True  # the browser has sent what it had: nothing
    app.nav.value = "Quiz yourself"
    app.quiz.difficulty.value = 3
    assert "Tricky" in app.quiz.seed_line.value
    app.nav.value = "Home"
    app.picker.preset.value = "classic"
    app.picker.nil.value = False
    app.nav.value = "Quiz yourself"
    assert app.quiz.difficulty.value == 3 and "Tricky" in app.quiz.seed_line.value
    assert app.quiz.item is not None and app.quiz.item.difficulty == 3 and app.quiz.item.rules.name == "classic"
    app.picker.preset.value = "bicycle"  # saved with the settings
    again = App(query="page=quiz")
    try:
        again.store.value = app.store.value
        again.store.loaded = True
        assert again.quiz.difficulty.value == 3 and again.settings.preset == "bicycle"
        assert again.quiz.item is not None and again.quiz.item.difficulty == 3
    finally:
        errors.remove_sink(again.show_error)


def test_rules_picked_before_the_saved_progress_arrives_are_kept_and_saved(app: App) -> None:
    saved = Progress()
    saved.record("score", "classic", "score:classic:1/1", True)
    saved.settings.quiz_level = 2
    app.picker.preset.value = "bicycle"  # the learner is quicker than the browser's storage
    app.store.value = saved.to_json()
    app.store.loaded = True
    assert app.settings.preset == "bicycle" and app.picker.preset.value == "bicycle"
    assert app.settings.quiz_level == 2 and app.progress.answered == 1  # the rest of the record is kept
    assert json.loads(app.store.value)["settings"]["preset"] == "bicycle"


def test_the_tab_title_names_the_page_and_the_lesson_open(app: App) -> None:
    assert app.landmarks.title == "Home · Spades with Jokers tutor"
    app.show("Quiz yourself")
    assert app.landmarks.title == "Quiz yourself · Spades with Jokers tutor"
    app.show("Learn")
    lesson = next(x for x in app.learn.lessons if x.number == 3)
    app.learn.open(lesson)
    assert app.landmarks.title == f"Lesson 3: {lesson.title} · Spades with Jokers tutor"
    app.learn.show_list()
    assert app.landmarks.title == "Learn · Spades with Jokers tutor"


def test_the_header_is_outside_main_and_notes_errors_and_the_page_inside_it(app: App) -> None:
    assert app.header in app.widget.children and app.main in app.widget.children
    assert list(app.main.children) == [app.notes, app.error, app.page]
    assert "st-main" in app.main._dom_classes and app.landmarks.main == "st-main"


def test_play_says_who_won_each_trick_in_its_live_status_line() -> None:
    from spades_tutor.engine import Phase
    from spades_tutor.ui.play_page import PLAYER, PlayPage

    play = PlayPage(Rules.preset("jokers"))
    assert "st-live" in play.status._dom_classes
    play.new_game(seed=7)
    game = play.game
    assert game is not None
    while game.round.phase is Phase.BIDDING:
        play.bid_choice.value = play.bid_choice.options[2][1]
        play.bid()
    for _ in range(13):  # South plays its first legal card until the hand is over
        rnd = game.round
        if rnd.to_act != PLAYER or rnd.phase is not Phase.PLAYING:
            break
        play.play(rnd.legal_plays()[0])
        while play.holding is not None:  # the trick kept on the table: the learner goes on
            play.go_on()
    winners = [t.winner for t in rnd.tricks]
    said = [line for line in play.log if "the trick" in line]
    assert len(said) == len(winners) >= 1
    for line, winner in zip(said, winners, strict=True):
        assert line == ("You win the trick." if winner == PLAYER else f"{winner} wins the trick.")


def _trick_question(app: App) -> tuple[str, str]:
    """Quiz yourself set to "who wins the trick": (the winning card's text, a losing card's text)."""
    app.nav.value = "Quiz yourself"
    app.quiz.kind.value = "trick-winner"
    item, view = app.quiz.item, app.quiz.view
    assert item is not None and view is not None and view.picker is not None
    right = str(item.answer())
    return right, next(c for c in view.picker.cards if c != right)


def test_a_question_right_on_the_second_try_is_scored_and_saved_as_the_second(app: App) -> None:
    app.store.loaded = True  # the browser has sent what it had: nothing
    assert app.settings.retries == 1 and app.picker.retry.value  # a second try unless the learner says not
    right, wrong = _trick_question(app)
    view = app.quiz.view
    assert view is not None and view.picker is not None and view.retries == 1
    view.picker.selected = [wrong]
    view.check_button.click()
    assert view.retrying and app.progress.answered == 0 and "Score 0 / 0" in app.quiz.board.value
    view.picker.selected = [right]
    view.check_button.click()
    assert [(a.correct, a.attempt) for a in app.progress.answers] == [(True, 2)]
    assert "Score 1 / 1" in app.quiz.board.value
    assert "right first try 0, on the second try 1" in app.quiz.board.value
    saved = Progress.from_json(app.store.value)
    assert [(a.correct, a.attempt, a.source) for a in saved.answers] == [(True, 2, "quiz")]
    assert saved.to_csv().splitlines()[1].endswith(",yes,quiz,2")
    # the next question, right at once, is a first try
    app.quiz.next_button.click()  # another "who wins the trick"
    assert app.quiz.item is not None and app.quiz.view is not None and app.quiz.view.picker is not None
    app.quiz.view.picker.selected = [str(app.quiz.item.answer())]
    app.quiz.view.check_button.click()
    assert [a.attempt for a in app.progress.answers] == [2, 1]
    assert "Score 2 / 2" in app.quiz.board.value and "right first try 1, on the second try 1" in app.quiz.board.value


def test_with_the_second_try_turned_off_a_wrong_answer_is_scored_at_once_and_the_choice_is_kept(app: App) -> None:
    app.store.loaded = True
    app.picker.retry.value = False
    assert app.settings.retries == 0 and json.loads(app.store.value)["settings"]["retries"] == 0
    _right, wrong = _trick_question(app)
    view = app.quiz.view
    assert view is not None and view.picker is not None and view.retries == 0
    view.picker.selected = [wrong]
    view.check_button.click()
    assert view.feedback is not None and [(a.correct, a.attempt) for a in app.progress.answers] == [(False, 1)]
    # lessons follow the setting too
    from spades_tutor.lessons import load_lessons

    lesson = next(x for x in load_lessons() if any(b.kind == "quiz" for s in x.steps for b in s.blocks))
    app.nav.value = "Learn"
    app.learn.open(lesson)
    assert app.learn.player is not None and app.learn.player.retries == 0
    app.picker.retry.value = True
    assert app.learn.player.retries == 1
    step = next(i for i, s in enumerate(lesson.steps) if any(b.kind == "quiz" for b in s.blocks))
    app.learn.player.go(step)
    assert app.learn.player.quizzes and all(q.retries == 1 for q in app.learn.player.quizzes)
    # and a reload reads the setting back
    again = App()
    try:
        app.picker.retry.value = False
        again.store.value = app.store.value
        again.store.loaded = True
        assert again.settings.retries == 0 and not again.picker.retry.value
    finally:
        errors.remove_sink(again.show_error)


def test_a_lesson_quiz_right_on_the_second_try_is_recorded_as_the_lessons_second_try(app: App) -> None:
    from spades_tutor.lessons import load_lessons
    from spades_tutor.quiz import TrickWinnerItem

    app.store.loaded = True
    lesson, step = next(
        (x, i)
        for x in load_lessons()
        for i, s in enumerate(x.steps)
        if any(b.kind == "quiz" and b.quiz_kind == "trick-winner" and not b.generated for b in s.blocks)
    )
    app.nav.value = "Learn"
    app.learn.open(lesson, step)
    player = app.learn.player
    assert player is not None
    view = next(q for q in player.quizzes if isinstance(q.item, TrickWinnerItem))
    assert view.retries == 1 and view.picker is not None
    right = str(view.item.answer())
    view.picker.selected = [next(c for c in view.picker.cards if c != right)]
    view.check_button.click()
    assert view.retrying and app.progress.answered == 0
    view.picker.selected = [right]
    view.check_button.click()
    assert [(a.correct, a.attempt, a.source) for a in app.progress.answers] == [(True, 2, "lesson")]


def test_practice_what_i_miss_serves_the_kind_just_missed_at_the_level_reached(app: App) -> None:
    from spades_tutor.quiz import kinds
    from spades_tutor.quiz.mastery import mastery
    from spades_tutor.ui.app import DIFFICULTY_NAMES

    offered = [cls.kind for cls in kinds.kinds() if cls.offered(app.rules)]
    stored = Progress()
    for kind in offered:  # every kind right three times running: each up to Medium, and well on the way
        for seed in range(3):
            stored.record(kind, "jokers", f"{kind}:jokers:{seed}/1", True)
    app.store.value = stored.to_json()
    app.store.loaded = True
    app.picker.retry.value = False  # one try: a wrong answer is a miss at once
    _trick_question(app)
    app.quiz.difficulty.value = 2
    view = app.quiz.view
    assert view is not None and view.picker is not None and app.quiz.item is not None
    assert app.quiz.item.kind == "trick-winner" and app.quiz.item.difficulty == 2
    picked = next(c for c in view.picker.cards if c != str(app.quiz.item.answer()))
    view.picker.selected = [picked]
    view.check_button.click()
    assert [(a.kind, a.correct) for a in app.progress.answers[-1:]] == [("trick-winner", False)]
    table = mastery(app.progress.answers, kinds=offered)
    assert table["trick-winner"].box == 1 and table["trick-winner"].level == 2

    served = []
    for start in range(20):
        app.quiz.seed = start * 7
        app.quiz.practice_button.click()  # one click, a question
        item = app.quiz.item
        assert item is not None and app.quiz.practising
        assert item.difficulty == table[item.kind].level  # the level served follows mastery
        line = app.quiz.seed_line.value
        assert "Practice what I miss" in line and ("missed last time" in line) == (item.kind == "trick-winner")
        assert line.endswith(f" · {DIFFICULTY_NAMES[item.difficulty]}</div>")  # the level served is the one shown
        served.append(item.kind)
    # the missed kind (box 1) far outweighs the eleven others (box 4): a uniform draw would give it 1 in 12
    assert served.count("trick-winner") >= 14, served
    # "Next question" goes on practising; a kind picked from the menu ends it
    app.quiz.next_button.click()
    assert app.quiz.practising
    app.quiz.kind.value = "score"
    assert not app.quiz.practising and app.quiz.item is not None and app.quiz.item.kind == "score"
    assert app.quiz.item.difficulty == 2 and "Practice" not in app.quiz.seed_line.value


def test_one_click_on_practice_what_i_miss_serves_the_kind_just_missed(app: App) -> None:
    app.store.loaded = True
    right, wrong = _trick_question(app)  # a first visit: "who wins the trick", missed, then right on the second try
    view = app.quiz.view
    assert view is not None and view.picker is not None
    view.picker.selected = [wrong]
    view.check_button.click()
    view.picker.selected = [right]
    view.check_button.click()
    assert [(a.kind, a.correct, a.attempt) for a in app.progress.answers] == [("trick-winner", True, 2)]
    app.quiz.kind.value = "score"  # the menu moves on to another kind, unanswered
    for _ in range(5):
        app.quiz.practice_button.click()
        assert app.quiz.item is not None and app.quiz.item.kind == "trick-winner" and app.quiz.item.difficulty == 1
        assert "Who wins the trick?, missed last time" in app.quiz.seed_line.value


def known_but_one(app: App, target: str) -> Progress:
    """Every kind offered but ``target`` answered right four times (box 5, not due for 15 answers), the
    last round within the last eleven answers; ``target`` never asked: the practice serves it first."""
    from spades_tutor.quiz import kinds

    stored = Progress()
    others = [cls.kind for cls in kinds.kinds() if cls.offered(app.rules) and cls.kind != target]
    for n in range(4):
        for kind in others:
            stored.record(kind, "jokers", f"{kind}:jokers:{n}/1", True)
    return stored


def test_while_practising_the_level_menu_rises_after_a_run_of_right_first_tries(app: App) -> None:
    from test_quiz_kinds import answer_through_the_view

    from spades_tutor.quiz.mastery import RISE_RUN, mastery

    app.store.value = known_but_one(app, "trick-winner").to_json()
    app.store.loaded = True
    app.picker.retry.value = False
    app.nav.value = "Quiz yourself"
    assert app.quiz.difficulty.value == 1
    app.quiz.practice_button.click()
    right = 0
    for _ in range(200):  # other kinds are skipped ("Next question"), unanswered
        item, view = app.quiz.item, app.quiz.view
        assert item is not None and view is not None and app.quiz.practising
        assert app.quiz.difficulty.value == item.difficulty  # the menu names the level asked at
        if item.kind == "trick-winner":
            assert item.difficulty == 1
            answer_through_the_view(view)
            view.check_button.click()
            right += 1
            if right == RISE_RUN:
                break
            assert app.quiz.difficulty.value == 1 and "→" not in app.quiz.seed_line.value
        app.quiz.next_button.click()
    assert right == RISE_RUN
    assert mastery(app.progress.answers, kinds=("trick-winner",))["trick-winner"].level == 2
    # at once, before the next question: the menu and the line under the question say Medium
    assert app.quiz.practising and app.quiz.difficulty.value == 2 and app.settings.quiz_level == 2
    line = app.quiz.seed_line.value
    assert f"Easy → Medium next in Who wins the trick? ({RISE_RUN} right first tries in a row)" in line
    for _ in range(200):
        app.quiz.next_button.click()
        item = app.quiz.item
        assert item is not None and app.quiz.difficulty.value == item.difficulty
        if item.kind == "trick-winner":
            assert item.difficulty == 2  # and the next question of the kind is asked at Medium
            break
    else:
        raise AssertionError("the practice never came back to the kind")
    # a level picked by hand ends the practice and is the one asked
    app.quiz.difficulty.value = 3
    assert not app.quiz.practising and app.quiz.item is not None and app.quiz.item.difficulty == 3
    assert app.settings.quiz_level == 3 and "Practice" not in app.quiz.seed_line.value


def test_the_saved_settings_arriving_unchanged_do_not_redraw_the_lesson_step_shown() -> None:
    # a learner may focus or choose a card before the browser has sent the saved record; the same
    # settings arriving must leave the step (and that choice) as it is, and other settings redraw it
    from spades_tutor.lessons import load_lessons

    lesson = next(x for x in load_lessons() if x.number == 3)
    step = next(i for i, s in enumerate(lesson.steps) for b in s.blocks if b.kind == "quiz")
    app = App(query=f"lesson=3&step={step + 1}")
    try:
        player = app.learn.player
        assert player is not None and player.quizzes
        view = player.quizzes[0]
        assert view.picker is not None
        chosen = [view.picker.cards[0]]
        view.picker.selected = chosen
        shown = player.body.children
        app.store.loaded = True  # the browser had nothing: the default settings, as before
        assert player.quizzes[0] is view and view.picker.selected == chosen
        assert player.body.children == shown
        app.picker.preset.value = "classic"  # other rules: the step is drawn again in them
        assert player.quizzes[0] is not view and player.rules.name == "classic"
    finally:
        errors.remove_sink(app.show_error)


def test_a_table_without_nil_is_asked_no_nil_question(app: App) -> None:
    quiz = app.quiz
    quiz.show()
    quiz.kind.value = "nil-safe"
    assert quiz.item is not None and quiz.item.kind == "nil-safe"
    app.picker.nil.value = False
    # the menu drops the kind the table does not play, and the question on show is redrawn
    assert not quiz.asks("nil-safe") and quiz.kind.value == "mixed"
    assert quiz.item.kind != "nil-safe" and quiz.item.rules.nil is False
    drawn = set()
    for _ in range(60):
        quiz.next_item()
        drawn.add(quiz.item.kind)
    assert "nil-safe" not in drawn and len(drawn) >= 8  # every kind mixed, but the nil one
    # a kind the table still plays stays picked when the rules change
    quiz.kind.value = "score"
    app.picker.preset.value = "classic"
    assert quiz.kind.value == "score" and quiz.item.kind == "score"
    app.picker.nil.value = True
    assert quiz.asks("nil-safe") and quiz.kind.value == "score"


def test_saved_rules_without_nil_replace_a_nil_question_drawn_before_they_arrived(app: App) -> None:
    quiz = app.quiz
    quiz.kind.value = "nil-safe"
    stored = Progress()
    stored.settings.nil = False
    app.store.value = stored.to_json()
    app.store.loaded = True
    assert app.rules.nil is False
    assert not quiz.asks("nil-safe") and quiz.item is not None and quiz.item.kind != "nil-safe"


def test_no_menu_or_row_of_buttons_lets_the_page_clear_its_choice(app: App) -> None:
    """A null index from the page (its own menus never send one) leaves every made choice as it was,
    on every page, and sends the choice back so the page shows it again; so do labels sent for the
    options; nothing fails."""
    from ipywidgets.widgets.widget_selection import _Selection

    from spades_tutor.ui.choices import KeepsChoice
    from spades_tutor.ui.storage import PAGES
    from spades_tutor.ui.tree import widget_tree

    shown: list[str] = []
    errors.add_sink(lambda text, _exc: shown.append(text))
    checked = 0
    for name in PAGES:
        app.nav.value = name
        menus = [x for x in widget_tree([app.widget]) if isinstance(x, _Selection)]
        assert len(menus) >= 1  # the page's tabs, at least
        for menu in menus:
            assert isinstance(menu, KeepsChoice), f"{type(menu).__name__} {menu.description!r} on {name}"
            if menu.index is None:
                continue  # nothing chosen yet (an unanswered question): nothing to keep
            before = menu.value
            sent: list[dict] = []
            menu._send = lambda msg, buffers=None, sent=sent: sent.append(msg)  # type: ignore[method-assign]
            menu.set_state({"index": None})
            assert menu.value == before, f"{menu.description!r} on {name}"
            assert {"method": "update", "state": {"index": menu.index}, "buffer_paths": []} in sent
            # nor replace its options' labels (which would name one choice and make another)
            labels = menu._options_labels
            menu.set_state({"_options_labels": ["<b>x</b>"] * (len(labels) + 1)})
            assert menu._options_labels == labels and menu.value == before
            assert {"method": "update", "state": {"_options_labels": labels}, "buffer_paths": []} in sent
            checked += 1
        assert app.nav.value == name
    assert checked >= 14 and shown == []  # every page's menus, and no error shown
