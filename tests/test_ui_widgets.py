"""The widget layer without a browser: views ask the engine, and page input is validated."""

from __future__ import annotations

import html
import json
import re

import pytest

import spades_tutor as st
from spades_tutor.quiz import LegalPlaysItem, NilSafeItem, QuizItem, ScoreItem, TrickWinnerItem, TrumpOrderItem, kinds
from spades_tutor.session.progress import Progress
from spades_tutor.session.settings import Settings
from spades_tutor.ui import errors
from spades_tutor.ui.cards import CardsWidget, hand_view, trick_view
from spades_tutor.ui.quiz_view import QuizView
from spades_tutor.ui.storage import MAX_STORED, BrowserStore

JOKERS = st.Rules.preset("jokers")
N, E, S, W = st.Seat


def test_hand_view_sorts_trumps_together_and_names_every_card() -> None:
    view = hand_view(JOKERS, "3C AH LJ 5S BJ 2S")
    assert view.cards == ["BJ", "LJ", "5♠", "2♠", "A♥", "3♣"]
    assert view.names == [
        "big joker",
        "little joker",
        "five of spades",
        "two of spades",
        "ace of hearts",
        "three of clubs",
    ]
    assert view.groups[:4] == ["trumps"] * 4 and view.groups[4] != view.groups[5]


def test_page_selection_is_validated_against_the_cards_on_show() -> None:
    view = hand_view(JOKERS, "AS KH BJ", selectable="many")
    view.selected = ["A♠", "Q♣", "A♠", 7, "BJ"]  # a card not on show, a duplicate, a non-string
    assert view.selected == ["A♠", "BJ"]
    one = hand_view(JOKERS, "AS KH BJ", selectable="one")
    one.selected = ["A♠", "K♥"]
    assert one.selected == ["K♥"]
    none = hand_view(JOKERS, "AS KH", selectable="none")
    none.selected = ["A♠"]
    assert none.selected == []


def test_selectable_mode_must_be_known() -> None:
    with pytest.raises(Exception, match="selectable"):
        CardsWidget(selectable="all")


def test_trick_view_places_cards_by_seat_and_marks_the_winner() -> None:
    trick = st.Trick.complete(JOKERS, W, st.cards("KH 5S AH 3H"))
    view = trick_view(trick)
    assert view.arrangement == "table"
    assert view.seats == ["W", "N", "E", "S"] and view.cards == ["K♥", "5♠", "A♥", "3♥"]
    assert view.winner == "N" and view.leader == "W"


def test_legal_plays_quiz_accepts_the_engines_answer_and_explains_the_rest() -> None:
    item = LegalPlaysItem(JOKERS, hand=st.cards("LJ 9S AH 4H 5C"), trick=st.cards("KH"), seat=S)
    seen = []
    view = QuizView(item, lambda i, fb, attempt: seen.append(fb.correct))
    assert view.picker is not None
    view.picker.selected = ["A♥", "4♥"]
    feedback = view.check()
    assert feedback.correct and seen == [True]
    assert view.check_button.disabled and view.picker.disabled
    assert view.picker.marks["LJ"] == "illegal" and view.picker.marks["A♥"] == "legal"
    assert "little joker counts as a spade" in view.detail.value


def test_legal_plays_quiz_wrong_answer_shows_the_right_one_and_the_rule() -> None:
    item = LegalPlaysItem(JOKERS, hand=st.cards("LJ 9S AH 4H 5C"), trick=st.cards("KH"), seat=S)
    view = QuizView(item)
    assert view.picker is not None
    view.picker.selected = ["LJ"]
    feedback = view.check()
    assert not feedback.correct
    assert "A♥ 4♥" in view.result.value and "Not quite" in view.result.value
    assert "follow suit" in view.result.value


def test_trick_winner_quiz_marks_right_and_wrong_cards() -> None:
    item = TrickWinnerItem(JOKERS, trick=st.cards("KH 2S AH LJ"), leader=W)
    view = QuizView(item)
    assert view.picker is not None
    view.picker.selected = ["A♥"]
    feedback = view.check()
    assert not feedback.correct
    assert view.picker.marks == {"LJ": "right", "A♥": "wrong"}
    assert view.picker.winner == "S"  # W led, so the 4th card is South's
    assert "second-highest trump" in view.result.value


def test_trump_order_quiz_takes_the_click_order() -> None:
    item = TrumpOrderItem(JOKERS, choices=st.cards("AS BJ 2S LJ"))
    view = QuizView(item)
    assert view.picker is not None and view.picker.selectable == "order"
    view.picker.selected = ["BJ", "LJ", "A♠", "2♠"]
    assert view.check().correct


def test_score_quiz_reads_points_and_bags_for_each_team() -> None:
    item = ScoreItem(
        JOKERS,
        bids={N: st.NIL, S: st.Bid(2), E: st.Bid(5), W: st.Bid(4)},
        tricks={N: 1, S: 1, E: 6, W: 5},
    )
    view = QuizView(item)
    assert view.numbers is not None
    # what the page sends as the learner types: texts, validated by the widget
    view.numbers._page_message(view.numbers, {"values": {"N–S-points": "-119", "N–S-bags": "1"}})
    view.numbers._page_message(view.numbers, {"values": {"E–W-points": "92", "E–W-bags": "2"}})
    assert view.check().correct
    assert "failed nil" in view.detail.value
    assert view.numbers.disabled


@pytest.mark.parametrize(
    "item, message",
    [
        (LegalPlaysItem(JOKERS, hand=st.cards("LJ 9S AH 4H 5C"), trick=st.cards("KH"), seat=S), "Choose a card first."),
        (TrickWinnerItem(JOKERS, trick=st.cards("KH 2S AH LJ"), leader=W), "Choose a card first."),
        (TrumpOrderItem(JOKERS, choices=st.cards("AS BJ 2S LJ")), "Choose a card first."),
        (NilSafeItem(JOKERS, hand=st.cards("2C 3C 4C 5C 6C 3D 4D 5D 3H 4H 5H 6H 7H")), "Choose yes or no first."),
    ],
)
def test_check_with_nothing_chosen_asks_for_an_answer_and_grades_nothing(item: QuizItem, message: str) -> None:
    seen = []
    view = QuizView(item, lambda i, fb, attempt: seen.append(fb.correct))
    assert view.check() is None
    assert message in view.result.value and "Not quite" not in view.result.value
    assert seen == [] and view.feedback is None and not view.check_button.disabled  # not counted, not locked
    if view.picker is not None:
        assert not view.picker.disabled
        view.picker.selected = [view.picker.cards[0]]
    else:
        assert view._choice is not None and not view._choice.disabled
        view._choice.value = "yes"
    feedback = view.check()
    assert feedback is not None and seen == [feedback.correct] and view.check_button.disabled
    assert view.check() is feedback and len(seen) == 1  # a second click is not a second answer


def test_a_score_is_explained_once() -> None:
    item = ScoreItem(
        JOKERS,
        bids={N: st.NIL, S: st.Bid(2), E: st.Bid(5), W: st.Bid(4)},
        tricks={N: 1, S: 1, E: 6, W: 5},
    )
    view = QuizView(item)
    assert view.numbers is not None
    assert view.check() is None and "Type a number in each box first." in view.result.value  # empty: not graded
    view.numbers.set(**dict.fromkeys(view.numbers.values, 0))
    feedback = view.check()
    assert feedback is not None and not feedback.correct
    shown = html.unescape(view.result.value + view.detail.value)
    for lines in feedback.detail.values():
        for line in lines.split("; "):
            assert shown.count(line) == 1, line


def test_number_fields_refuse_what_is_not_a_whole_number_within_bounds() -> None:
    from spades_tutor.ui.numbers import Field, NumberFields

    fields = NumberFields([Field("points", "points:"), Field("bags", "bags after:", min=0, max=99)])
    send = fields._page_message
    send(fields, {"values": {"points": " -130 ", "bags": "3"}})
    assert (fields["points"], fields["bags"]) == (-130, 3)
    for bad in ("", "-", "2.5", "1e3", "abc", "100", "-1", True, None, [4]):
        send(fields, {"values": {"bags": bad}})
        assert fields["bags"] == 3, bad
    send(fields, {"values": {"bags": 7, "unknown": "5"}})
    assert fields.values == {"points": -130, "bags": 7}
    send(fields, "not a dict")
    fields.disabled = True  # after "Check answer": nothing changes the answer given
    send(fields, {"values": {"points": "10"}})
    assert fields["points"] == -130
    with pytest.raises(ValueError, match="bags after: 100 is out of bounds"):
        fields.set(bags=100)


def test_number_fields_refuse_a_state_the_page_syncs_directly() -> None:
    """A hostile page may sync ``values`` as widget state instead of sending an edit: only the fields'
    keys, each a whole number within bounds or empty, are kept; after the check nothing changes."""
    import traitlets

    from spades_tutor.ui.numbers import Field, NumberFields

    fields = NumberFields([Field("points", "points:"), Field("bags", "bags after:", min=0, max=99)])
    assert fields.values == {"points": None, "bags": None} and fields.empty == ["points:", "bags after:"]
    fields.set_state({"values": {"points": 40, "bags": 3, "evil": "<b>x</b>"}})
    assert fields.values == {"points": 40, "bags": 3}
    for hostile in ({"points": "abc"}, {"bags": 100}, {"bags": -1}, {"points": True}, {"points": 2.5}, {}):
        fields.set_state({"values": hostile})
        assert fields.values == {"points": 40, "bags": 3}, hostile
    for not_a_dict in ("x", None, [1]):
        with pytest.raises(traitlets.TraitError):  # refused by the trait itself
            fields.set_state({"values": not_a_dict})
        assert fields.values == {"points": 40, "bags": 3}, not_a_dict
    fields.disabled = True
    fields.set_state({"values": {"points": 70}})
    assert fields["points"] == 40


def test_progress_counts_score_and_streak_and_survives_json() -> None:
    p = Progress()
    for right in (True, True, False, True, True, True):
        p.record("legal-plays", "jokers", "legal-plays:jokers:1", right)
    p.reach("03-following-suit", 2)
    p.settings = Settings(preset="deuces-high", four_colour=True)
    assert (p.correct, p.answered, p.streak, p.best_streak) == (5, 6, 3, 3)
    again = Progress.from_json(p.to_json())
    assert again == p
    assert again.settings.rules().name == "deuces-high"
    rows = p.to_csv().splitlines()
    assert rows[0] == "time,kind,preset,item,correct,source,try" and len(rows) == 7 and rows[3].endswith(",no,quiz,1")


def test_progress_keeps_lesson_answers_apart_from_quiz_answers() -> None:
    p = Progress()
    p.record("legal-plays", "jokers", "legal-plays:jokers:1/1", True, source="quiz")
    for right in (True, True, False):
        p.record("trump-order", "jokers", "trump-order:jokers:ab12", right, source="lesson")
    p.record("score", "jokers", "score:jokers:2/1", False, source="quiz")
    quiz, lesson = p.only("quiz"), p.only("lesson")
    assert (quiz.correct, quiz.answered, quiz.streak, quiz.best_streak) == (1, 2, 0, 1)
    assert (lesson.correct, lesson.answered, lesson.streak, lesson.best_streak) == (2, 3, 0, 2)
    again = Progress.from_json(p.to_json())
    assert again == p and [a.source for a in again.answers] == ["quiz", "lesson", "lesson", "lesson", "quiz"]
    assert [row.split(",")[5] for row in p.to_csv().splitlines()[1:]] == [a.source for a in p.answers]
    with pytest.raises(ValueError, match="source"):
        p.record("score", "jokers", "score:jokers:2/1", False, source="evil")
    # rows saved before answers had a source were the quiz page's; an unknown source is dropped
    old = json.loads(p.to_json())
    old["answers"] = [[1.0, "score", "jokers", "score:jokers:1/1", True], [2.0, "score", "jokers", "x", True, "evil"]]
    assert [a.source for a in Progress.from_json(json.dumps(old)).answers] == ["quiz"]


@pytest.mark.parametrize(
    "stored",
    [
        "",
        "not json",
        "[]",
        json.dumps({"format": "other"}),
        json.dumps(
            {
                "format": "spades-tutor/progress",
                "answers": [[1, 2, 3]],
                "lessons": {"x": "y"},
                "settings": {"preset": "evil"},
            }
        ),
    ],
)
def test_malformed_stored_progress_gives_fresh_progress(stored: str) -> None:
    p = Progress.from_json(stored)
    assert p.answered == 0 and p.lessons == {} and p.settings.preset == "jokers"


def test_browser_store_ignores_oversized_values() -> None:
    store = BrowserStore()
    store.value = "x" * (MAX_STORED + 1)
    assert store.value == ""
    store.value = '{"ok": 1}'
    assert store.value == '{"ok": 1}'


def test_guarded_callback_reports_a_friendly_message_and_returns() -> None:
    seen: list[str] = []
    sink = lambda message, exc: seen.append(message)  # noqa: E731
    errors.add_sink(sink)
    try:

        @errors.guarded
        def boom() -> None:
            raise RuntimeError("internal detail")

        assert boom() is None
        assert seen and "internal detail" not in seen[0] and "carry on" in seen[0]

        @errors.guarded
        def engine_error() -> None:
            st.Card.parse("1x")

        engine_error()
        assert "'1x'" in seen[-1]
    finally:
        errors.remove_sink(sink)


ASCII_MINUS = re.compile(r"(?<![\w–-])-\d")  # "-80", but not "E–W 2" or a range "1-3"


def test_scores_are_written_with_one_minus_sign_everywhere() -> None:
    from spades_tutor.quiz.generators import generate
    from spades_tutor.ui.lesson_player import score_lines_html

    negative = 0
    for seed in range(1, 40):
        item = generate("score", JOKERS, seed, 3)
        view = QuizView(item)
        view.check()
        assert isinstance(item, ScoreItem)
        shown = view.result.value + view.detail.value + score_lines_html(st.score_hand(JOKERS, item.bids, item.tricks))
        assert not ASCII_MINUS.search(shown), shown
        negative += "−" in shown
    assert negative, "some hands lose points"
    mercy = st.Rules.preset("jokers", mercy=-200)
    _, sentence = st.explain_game(mercy, {st.Team.NS: 120, st.Team.EW: -230})
    assert sentence == "East–West fell to −230, at or below −200, and lose."
    assert "a team at −200 loses" in mercy.describe()
    # and a learner may type either sign back
    from spades_tutor.ui.numbers import Field, NumberFields

    fields = NumberFields([Field("points", "Points:")])
    fields._page_message(fields, {"values": {"points": "−130"}})
    assert fields.values == {"points": -130}


@pytest.mark.parametrize("level", [0, 4, "3", True, 2.0, None])
def test_a_stored_quiz_level_the_page_does_not_offer_is_left_at_easy_with_a_note(level: object) -> None:
    notes: list[str] = []
    assert Settings.from_data({"quiz_level": level}, notes).quiz_level == 1
    assert notes and "quiz level" in notes[0]
    assert Settings.from_data({"quiz_level": 3}).quiz_level == 3


def test_answer_widgets_say_which_page_edit_they_have_read() -> None:
    """The page shows the kernel's values only once they answer its last edit (static/numbers.js, cards.js)."""
    from spades_tutor.ui.cards import CardsWidget
    from spades_tutor.ui.numbers import Field, NumberFields

    fields = NumberFields([Field("points", "points:")])
    fields._page_message(fields, {"values": {"points": "40"}, "seq": 1})
    assert (fields["points"], fields.seq) == (40, 1)
    fields._page_message(fields, {"values": {"points": "forty"}, "seq": 2})  # refused, but read
    assert (fields["points"], fields.seq) == (40, 2)
    for hostile in (True, -1, 2**60, "3", 2.0, None):
        fields._page_message(fields, {"values": {"points": "41"}, "seq": hostile})
        assert fields.seq == 2, hostile
    assert fields["points"] == 41

    chooser = CardsWidget(cards=["A♠", "K♥"], selectable="many")
    chooser._page_message(chooser, {"selected": ["A♠"], "seq": 1})
    chooser._page_message(chooser, {"selected": ["A♠", "K♥", "Q♦"], "seq": 2})
    assert (chooser.selected, chooser.seq) == (["A♠", "K♥"], 2)


# --- a second try before the answer is shown -----------------------------------------------------


def _following() -> LegalPlaysItem:
    return LegalPlaysItem(JOKERS, hand=st.cards("LJ 9S AH 4H 5C"), trick=st.cards("KH"), seat=S)


def test_a_wrong_first_try_says_try_again_with_a_hint_and_keeps_the_question_open() -> None:
    item = _following()
    seen: list[tuple[bool, int]] = []
    view = QuizView(item, lambda i, fb, attempt: seen.append((fb.correct, attempt)), retries=1)
    assert view.picker is not None
    view.picker.selected = ["LJ"]
    assert view.check() is None and view.retrying and view.tries == 1
    shown = html.unescape(view.result.value + view.detail.value)
    assert "Not quite — try again" in shown and item.hint() in shown
    wrong = item.check(["LJ"])
    assert "The answer" not in shown and "A♥ 4♥" not in shown  # the answer is not given away
    assert not any(line in shown for line in wrong.explanation)  # nor the explanation, kept for the last try
    # the mistake is named (the joker played while holding hearts), but not the cards that follow suit
    head = shown.split("Hint:")[0]
    assert "You must follow suit while you hold a heart." in head and "instead of" not in head
    assert seen == [] and view.feedback is None  # not scored yet
    # the choice stays editable, nothing is marked, and Check is offered again
    assert not view.picker.disabled and view.picker.marks == {} and view.picker.selected == ["LJ"]
    assert not view.check_button.disabled and view.check_button.description == "Check again"
    view.picker.selected = ["A♥", "4♥"]
    feedback = view.check()
    assert feedback is not None and feedback.correct and seen == [(True, 2)]
    assert "Right on the second try" in view.result.value and view.picker.disabled and view.check_button.disabled
    assert view.picker.marks["LJ"] == "illegal" and view.check() is feedback and len(seen) == 1


def test_a_wrong_second_try_shows_the_answer_and_the_rule() -> None:
    seen: list[tuple[bool, int]] = []
    view = QuizView(_following(), lambda i, fb, attempt: seen.append((fb.correct, attempt)), retries=1)
    assert view.picker is not None
    view.picker.selected = ["LJ"]
    assert view.check() is None
    view.picker.selected = ["5♣"]
    feedback = view.check()
    assert feedback is not None and not feedback.correct and seen == [(False, 2)]
    assert "The answer: <b>A♥ 4♥</b>" in view.result.value and "follow suit" in view.result.value
    assert "try again" not in view.result.value and view.picker.disabled


def test_the_same_answer_again_is_not_a_second_try() -> None:
    seen: list[tuple[bool, int]] = []
    view = QuizView(_following(), lambda i, fb, attempt: seen.append((fb.correct, attempt)), retries=1)
    assert view.picker is not None
    view.picker.selected = ["LJ"]
    view.check()
    assert view.check() is None  # a double click on Check
    assert "the answer you gave" in view.result.value and "try again" in view.result.value
    assert view.tries == 1 and view.retrying and seen == []
    view.picker.selected = ["A♥", "4♥"]
    assert view.check() is not None and seen == [(True, 2)]


def test_a_right_first_try_is_scored_as_the_first() -> None:
    seen: list[tuple[bool, int]] = []
    view = QuizView(_following(), lambda i, fb, attempt: seen.append((fb.correct, attempt)), retries=1)
    assert view.picker is not None
    view.picker.selected = ["A♥", "4♥"]
    assert view.check() is not None and seen == [(True, 1)] and "✓ Right!" in view.result.value


def test_with_no_retry_a_wrong_answer_is_shown_at_once() -> None:
    seen: list[tuple[bool, int]] = []
    view = QuizView(_following(), lambda i, fb, attempt: seen.append((fb.correct, attempt)), retries=0)
    assert view.picker is not None
    view.picker.selected = ["LJ"]
    feedback = view.check()
    assert feedback is not None and not feedback.correct and seen == [(False, 1)]
    assert "A♥ 4♥" in view.result.value and "try again" not in view.result.value and view.picker.disabled
    with pytest.raises(ValueError, match="retries"):
        QuizView(_following(), retries=2)


@pytest.mark.parametrize("kind", [k for k in kinds.names() if k not in ("nil-safe", "best-bid")])
@pytest.mark.parametrize("preset", ["jokers", "deuces-high", "classic"])
def test_no_kind_gives_its_answer_away_on_a_wrong_first_try(kind: str, preset: str) -> None:
    from spades_tutor.quiz.generators import generate

    rules = st.Rules.preset(preset)
    missed = 0
    for seed in range(1, 30):
        item = generate(kind, rules, seed, 1 + seed % 3)
        view = QuizView(item, retries=1)
        view.missing = lambda: ""  # answer as given: nothing chosen, or 0 in every number
        if view.numbers is not None:
            view.numbers.set(**dict.fromkeys(view.numbers.values, 0))
        wrong = item.check(view.response())
        if wrong.correct:  # 0 sure tricks is right for some hands
            continue
        missed += 1
        assert view.check() is None and view.retrying
        shown = html.unescape(view.result.value + view.detail.value)
        assert item.hint() and item.hint() in shown and "try again" in shown
        assert "The answer" not in shown and f"<b>{wrong.answer}</b>" not in shown
        assert not any(line in shown for line in wrong.explanation), (item.hint(), wrong.explanation)
        if view.picker is not None:
            assert view.picker.marks == {} and view.picker.winner == "" and not view.picker.disabled
        if missed == 3:
            break
    assert missed == 3


def test_a_plot_is_drawn_in_two_forms_of_one_figure() -> None:
    """plot_box.draw: plotly's own form (JupyterLab's plotly extension draws it, on the hub or Binder)
    and an HTML form that loads plotly from the app's server when a page first draws a plot; both hold
    the same figure, and no label can end the HTML form's script."""
    import ipywidgets as w

    from spades_tutor.lab.plots import MIME
    from spades_tutor.ui.plot_box import PLOTLY_SCRIPT, draw

    spec = {
        "data": [{"type": "bar", "x": ["</script><img src=x onerror=alert(1)>", "b"], "y": [1, 2]}],
        "layout": {"title": {"text": "A & B"}},
    }
    slot = w.Output()
    draw(slot, spec, height=300)
    (output,) = slot.outputs
    bundle = output["data"]
    assert set(bundle) == {MIME, "text/html"}
    page = bundle["text/html"]
    figure = re.search(r'<script type="application/json">(.*?)</script>', page, re.S)
    assert figure is not None and json.loads(figure.group(1)) == bundle[MIME]
    assert bundle[MIME]["data"] == spec["data"] and bundle[MIME]["layout"]["height"] == 300
    assert page.count("</script>") == 2 and "<img" not in page  # the label stays inside the JSON
    assert 'style="width:100%;height:300px"' in page
    assert f'"{PLOTLY_SCRIPT}?v=' in page
