"""A non-default rule set, from a link or Home's builder, followed by every page: lesson 9 says its
target, Play's whole game is to it, the quiz's questions are in it, the puzzles start from it."""

from __future__ import annotations

import html
from collections.abc import Iterator
from typing import Any

import ipywidgets as w

from spades_tutor.engine import Rules
from spades_tutor.session.progress import Progress
from spades_tutor.ui import errors
from spades_tutor.ui.app import App

LINK = "1.jokers.n0.t300.bl5.mb4.tb50"
TABLE = Rules.preset("jokers", nil=False, target=300, bag_limit=5, min_team_bid=4, ten_bid_bonus=50)


def _texts(widget: Any) -> Iterator[str]:
    if isinstance(widget, (w.HTML, w.HTMLMath, w.Label)):
        yield str(widget.value)
    for child in getattr(widget, "children", ()):
        yield from _texts(child)


def _lesson_9_text(app: App) -> str:
    lesson = next(x for x in app.learn.lessons if x.number == 9)
    app.learn.open(lesson)
    player = app.learn.player
    assert player is not None
    text = []
    for step in range(len(player.lesson.steps)):
        player.go(step)
        text.extend(_texts(player.widget))
    return "\n".join(text)


def test_a_rules_link_reaches_every_page() -> None:
    app = App(query=f"page=learn&lesson=9&rules={LINK}")
    try:
        app.store.loaded = True
        assert app.rules == TABLE
        prose = _lesson_9_text(app)
        assert "First to 300" in prose and "300 points or more" in prose and "Both teams over 300" in prose
        assert "Both teams reached 300; North–South win" in prose  # the example judged at the table's target
        # the closing hand starts just short of 300 and is scored and judged at this table
        assert "North–South have 265 points and East–West 240" in prose
        assert "North–South score +51 and reach 316; East–West score +70 and reach 310." in prose
        assert "Your table plays without this rule: only reaching 300 ends its games." in prose
        app.nav.value = "Play"
        assert app.play.mode.options[1] == "Game to 300" and app.play.rules == TABLE
        app.nav.value = "Quiz yourself"
        view = app.quiz.view
        assert view is not None and view.item.rules == TABLE
        app.nav.value = "Puzzles"
        assert app.puzzles.rules_name == "jokers"
    finally:
        errors.remove_sink(app.show_error)


def test_home_builder_sets_every_flag_and_pages_follow() -> None:
    app = App(query="page=home")
    try:
        app.store.loaded = True
        picker = app.picker
        picker.nil.value = False
        picker.numbers["target"].set(target=300)
        picker.numbers["bag_limit"].set(bag_limit=5)
        picker.numbers["min_team_bid"].set(min_team_bid=4)
        picker.numbers["ten_bid_bonus"].set(ten_bid_bonus=50)
        assert app.rules == TABLE
        assert app.settings.to_link() == LINK
        for flag, value in (("nil_value", 50), ("trick_points", 5), ("bag_penalty", 50), ("blind_nil_behind", 200)):
            picker.numbers[flag].set(**{flag: value})
            assert getattr(app.rules, flag) == value
        picker.options["renege_penalty"].value = "set"
        picker.options["failed_nil_tricks"].value = "partner"
        picker.options["first_lead"].value = "two-of-clubs"
        picker.mercy.value = True
        picker.numbers["mercy"].set(mercy=-300)
        rules = app.rules
        assert (rules.renege_penalty, rules.failed_nil_tricks, rules.first_lead, rules.mercy) == (
            "set",
            "partner",
            "two-of-clubs",
            -300,
        )
        app.nav.value = "Play"
        assert app.play.mode.options[1] == "Game to 300"
        # saved and read back whole
        back = Progress.from_json(app.progress.to_json())
        assert back.settings.rules() == rules
        # a pack without the 2♣ cannot have the 2♣ lead: refused with a note, the preset still taken
        picker.preset.value = "bicycle"
        assert app.rules.name == "bicycle" and app.rules.target == 500
        assert "not used" in picker.note.value
    finally:
        errors.remove_sink(app.show_error)


def test_a_hostile_page_value_changes_nothing() -> None:
    app = App(query="page=home")
    try:
        app.store.loaded = True
        numbers = app.picker.numbers["target"]
        numbers.values = {**numbers.values, "target": "9999999"}  # as a hostile sync would send
        assert app.rules.target == 500
        numbers.values = {**numbers.values, "target": 0}
        assert app.rules.target == 500
    finally:
        errors.remove_sink(app.show_error)


def test_a_bad_rules_link_gets_a_note_and_the_usual_rules() -> None:
    app = App(query="rules=1.jokers.t0")
    try:
        assert app.rules == Rules.preset("jokers")
    finally:
        errors.remove_sink(app.show_error)


def test_every_quiz_kind_draws_in_the_table_rules() -> None:
    """Questions drawn in a rule set with a least team bid, a bonus for 10 and no nil are in it."""
    from spades_tutor.quiz import kinds
    from spades_tutor.quiz.generators import generate

    for kind in kinds.offered(TABLE):
        for seed in range(12):
            for level in (1, 2, 3):
                item = generate(kind, TABLE, seed, level)
                assert item.rules == TABLE, kind


def test_every_lesson_step_shows_in_the_table_rules() -> None:
    app = App(query=f"rules={LINK}")
    try:
        for lesson in app.learn.lessons:
            app.learn.open(lesson)
            player = app.learn.player
            assert player is not None
            for step in range(len(player.lesson.steps)):
                player.go(step)
                text = "\n".join(_texts(player.widget))
                assert "could not be shown" not in text, (lesson.number, step)
    finally:
        errors.remove_sink(app.show_error)


def test_the_glossary_follows_the_table_rules() -> None:
    app = App(query=f"page=glossary&rules={LINK}")
    try:
        assert app.glossary.rules == TABLE
        text = "\n".join(_texts(app.glossary.widget))
        assert "Every 5 bags a team gathers cost it 100 points" in text
    finally:
        errors.remove_sink(app.show_error)


def test_the_lab_starts_from_the_learners_rule_set() -> None:
    app = App(query="page=lab&rules=1.bicycle.t300")
    try:
        # the learner's table (bicycle to 300) first, against regular Spades; bicycle as it stands is a choice too
        assert (app.lab.first.value, app.lab.second.value) == ("table", "classic")
        assert app.lab.rules_of("table") == Rules.preset("bicycle", target=300)
        assert "bicycle" in dict((v, k) for k, v in app.lab.first.options)
    finally:
        errors.remove_sink(app.show_error)


def test_a_preset_link_over_saved_house_rules_it_cannot_play_keeps_the_preset() -> None:
    app = App(query="preset=bicycle")
    try:
        stored = Progress()
        stored.settings.house = {"first_lead": "two-of-clubs", "target": 300}
        app.store.value = stored.to_json()
        app.store.loaded = True
        assert app.rules == Rules.preset("bicycle")
    finally:
        errors.remove_sink(app.show_error)


def test_the_puzzles_and_the_lab_say_which_rules_they_use() -> None:
    """Puzzles play the deck and trumps of their rule set and, at a table without nil, set no nil goal; the
    Joker lab plays and scores the learner's whole table. Each page says which rules it uses."""
    app = App(query=f"page=puzzles&rules={LINK}")
    try:
        app.store.loaded = True
        puzzles = "\n".join(_texts(app.puzzles.widget))
        assert "deck and trumps of the rule set it names" in puzzles and "house rules" in puzzles
        assert "At a table that plays without nil, no puzzle offered has a nil" in puzzles
        # a puzzle's goal counts tricks: the learner's house rules change no trick of it; this table has no nil
        puzzle = app.puzzles.puzzle
        assert puzzle.rules == Rules.preset(puzzle.rules.name)
        assert not app.puzzles.nil and not puzzle.goal.rule.about_nil
        for _ in range(3):
            app.puzzles.new_puzzle()
            assert not app.puzzles.puzzle.goal.rule.about_nil
        app.picker.nil.value = True  # the learner's table takes nil up: the puzzles may set nil goals again
        assert app.puzzles.nil
        app.picker.nil.value = False
        assert not app.puzzles.nil
        app.nav.value = "Joker lab"
        lab = "\n".join(_texts(app.lab.widget))
        assert "your own table with its house rules (“Your table” in the menus)" in lab
        assert "house rules are not used" not in lab
        # the learner's whole rule set is the lab's first choice, named in the engine's words
        view = app.lab
        assert view.first.value == "table" and view.rules_of(view.first.value) == TABLE
        assert view.first.label == f"Your table ({TABLE.title}, your house rules)"
        assert html.escape(f"Your table: {TABLE.describe()}") in view.table_note.value
        # and it follows the learner's rules when they change
        app.picker.numbers["target"].set(target=250)
        assert view.rules_of("table").target == 250 and view.first.value == "table"
        assert "game to 250" in view.table_note.value
    finally:
        errors.remove_sink(app.show_error)
