"""A lesson's ending, played out by the learner against the solver's defence.

An ``ending`` block sets the last tricks of a hand with every card known and a goal; the solver
proves which cards reach it (the block is refused where none or every card does). The learner
plays their seat; partner and the opponents play the solver's best. Each finished trick stays on
the table until the learner goes on; the end says how the goal went and which cards reach it; what
the step says after the ending waits until it has been played to its end.
"""

from __future__ import annotations

import html
from pathlib import Path

import ipywidgets as w
import pytest

import spades_tutor as st
from spades_tutor.lessons import LessonError, parse_lesson, validate_lesson
from spades_tutor.lessons import parts as lesson_parts
from spades_tutor.solver import set_contract
from spades_tutor.ui.ending_view import EndingView
from spades_tutor.ui.lesson_player import LessonPlayer

C = st.Card.parse
RULES = st.Rules.preset("jokers")

ENDING = """```ending
preset: any deck
N: 10H 8C 9D
E: 3H 5S QD
S: AH 7C 6D
W: AC KD 4H
leader: S
spades_broken: true
tricks: N 4, E 2, S 3, W 1
goal: set_contract 6
label: Three tricks left
```"""


def lesson_text(ending: str = ENDING, front: str = "") -> str:
    return f"# Demo\n{front}\n---\n\n## The end\n\nSet them.\n\n{ending}\n\nThe answer: cash the ace of hearts now.\n"


def demo(tmp_path: Path, ending: str = ENDING, front: str = "") -> st.lessons.Lesson:  # type: ignore[name-defined]
    return parse_lesson(lesson_text(ending, front), tmp_path / "01-demo.md")


def words(player: LessonPlayer) -> str:
    """What the step shows in HTML, as read (hidden boxes included)."""
    out: list[str] = []

    def walk(widget: w.Widget) -> None:
        if isinstance(widget, w.HTML):
            out.append(html.unescape(widget.value))
        for child in getattr(widget, "children", ()):
            walk(child)

    walk(player.body)
    return " ".join(out)


def play_out(view: EndingView, first: str) -> None:
    """The learner plays ``first``, then whatever card is legal at each turn, going on past each trick."""
    view.play(first)
    while not view.over:
        view.go_on()
        if view.legal():
            view.play(view.legal()[0])


def test_the_block_builds_the_position_the_goal_and_the_solvers_answers_in_every_deck(tmp_path: Path) -> None:
    lesson = demo(tmp_path)
    (block,) = lesson.blocks("ending")
    assert validate_lesson(lesson) == []
    for name in st.Rules.preset_names():
        shown = block.resolve(lesson, st.Rules.preset(name))
        puzzle = shown.ending()
        pos = puzzle.position
        assert puzzle.rules_name == name and puzzle.learner is st.Seat.SOUTH and pos.tricks_left == 3
        # the answers are the solver's: every card that keeps the set against best defence
        assert puzzle.answers == tuple(c for c in pos.legal_plays() if set_contract(pos.play(c), st.Team.NS, 6).holds)
        assert puzzle.answers == (C("AH"),)
        caption, part = shown.view()
        assert isinstance(caption, lesson_parts.Caption) and caption.text == "Three tricks left"
        assert isinstance(part, lesson_parts.Ending) and part.puzzle == puzzle


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (("goal: set_contract 6", "goal: win_everything 6"), "goal: 'win_everything' is not a goal; the goals are"),
        (("goal: set_contract 6", "goal: set_contract six"), "write a whole number, not 'six'"),
        (("tricks: N 4, E 2, S 3, W 1", "tricks: N 4, E 2, S 3"), "give the tricks taken so far"),
        (("W: AC KD 4H", "W: AC KD"), "W"),
        (("N: 10H 8C 9D", "N: 10H 8C 9D 2D 3D 4D"), "N: 6 cards, where a N here has 0 to 5"),
        (("S: AH 7C 6D", "S: AH 7C BJ"), "BJ is not in the classic deck"),
        # every lead keeps East–West to their 6 when they have only 2 so far: nothing to decide
        (("tricks: N 4, E 2, S 3, W 1", "tricks: N 5, E 1, S 3, W 1"), "every card reaches the goal here"),
        (("goal: set_contract 6", "goal: set_contract 3"), "no card reaches the goal here"),
    ],
)
def test_a_wrong_ending_is_refused_naming_its_line(tmp_path: Path, change: tuple[str, str], said: str) -> None:
    text = ENDING.replace(*change)
    try:
        lesson = demo(tmp_path, text)
    except LessonError as e:  # refused as it is read
        assert said in str(e) and "01-demo.md:" in str(e)
        return
    problems = validate_lesson(lesson)
    assert problems and all("01-demo.md:" in p for p in problems), problems
    assert any(said in p for p in problems), problems


def test_the_learner_plays_against_the_solver_and_each_trick_stays_until_they_go_on(tmp_path: Path) -> None:
    player = LessonPlayer(demo(tmp_path), RULES, seed=1)
    (view,) = player.asking
    assert isinstance(view, EndingView) and player.quizzes == []
    assert set(view.legal()) == {C("AH"), C("7C"), C("6D")} and view.picker is not None
    assert view.picker.marks == {str(C(c)): "legal" for c in ("AH", "7C", "6D")}
    # what follows the ending waits for it
    (held,) = player.held
    assert not held.shown and "Play the ending out: the explanation follows it." in words(player)
    # the common mistake: the club; West wins it, and the trick stays on the table
    view.play("7C")
    assert view.last is not None and view.last.cards == st.cards("7C AC 8C 3H") and view.last.winner is st.Seat.WEST
    assert view.legal() == () and "West wins the trick." in view.text()
    assert view.on_button.layout.display is None and view.play_button.layout.display == "none"
    view.play("AH")  # no card is played while the trick is shown
    assert view.pos.tricks_left == 2
    view.go_on()  # West leads; North and East play; the learner is to act
    assert view.last is None and view.pos.to_act is st.Seat.SOUTH and len(view.on_table) == 3
    # a card that may not be played is refused with the engine's reason
    view.play("6D")
    assert "may not be played here" in view.said and "follow suit" in view.said and view.pos.tricks_left == 2
    play_out(view, view.legal()[0])
    assert view.over and view.feedback is not None and not view.feedback.correct
    assert "E–W end with 6 tricks: their 6 is made." in view.said and "ace of hearts" in view.said
    assert held.shown and player.answers == [False]
    assert view.again.layout.display is None
    # played again, the right way: set, said so; the lesson's summary keeps the first play
    view.restart()
    play_out(view, "AH")
    assert view.feedback is not None and view.feedback.correct and view.attempt == 2
    assert "Well played. E–W end with 5 tricks: their 6 is set." in view.said and "only card that works" in view.said
    assert player.answers == [False]
    phrases = view.tricks_said()
    assert len(phrases) == 3 and phrases[0].startswith("after your ace of hearts")


def test_a_card_the_page_sends_that_is_not_the_learners_plays_nothing(tmp_path: Path) -> None:
    player = LessonPlayer(demo(tmp_path), RULES, seed=1)
    (view,) = player.asking
    assert isinstance(view, EndingView) and view.picker is not None
    view.picker.selected = [
        str(C("AC")),
        str(C("BJ")),
        7,
    ]  # West's card, a card not in play, not a card: filtered by the widget
    view._play_chosen()
    assert view.pos.tricks_left == 3 and view.said == "Choose a card from your hand first."
    view.play("AC")  # asked directly for a card South does not hold
    assert view.pos.tricks_left == 3 and view.said == "The ace of clubs is not in your hand."
    view.picker.selected = [str(C("AH"))]
    view._play_chosen()
    assert view.last is not None and view.last.cards[0] == C("AH")


def test_a_lesson_that_asks_its_questions_passed_holds_next_until_the_ending_is_reached(tmp_path: Path) -> None:
    lesson = demo(tmp_path, front="\npass: questions\n")
    assert lesson.must_pass
    player = LessonPlayer(lesson, RULES, seed=1)
    (view,) = player.asking
    assert isinstance(view, EndingView)
    assert player.next.disabled and player.open_questions() == [view]
    play_out(view, "6D")
    assert view.feedback is not None and not view.feedback.correct and player.next.disabled
    view.restart()
    play_out(view, "AH")
    assert not player.next.disabled and player.open_questions() == []
