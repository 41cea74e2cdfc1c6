"""A wrong answer in a step that teaches a mistake is told that mistake, and no other.

The positions are the lessons' own (lesson 2's hearts, lesson 4's joker lead, lesson 11's
hand, lesson 12's renege) and the sure-tricks hands a new user met; then, over generated
items, no diagnosis names a card the item does not show.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import spades_tutor as st
from spades_tutor.lessons import load_lessons
from spades_tutor.quiz import generate
from spades_tutor.quiz.base import QuizItem
from spades_tutor.quiz.kinds.score import ScoreItem
from spades_tutor.quiz.kinds.sure_tricks import SureTricksItem
from spades_tutor.quiz.misconceptions import AnyOf, premises

LESSONS = {lesson.number: lesson for lesson in load_lessons()}
JOKERS = st.Rules.preset("jokers")


def lesson_quiz(number: int, step: int, index: int = 0, rules: st.Rules = JOKERS) -> QuizItem:
    """The ``index``-th quiz of a lesson step (both counted from 1 and 0), as the player shows it in ``rules``."""
    lesson = LESSONS[number]
    quizzes = [b for b in lesson.steps[step - 1].blocks if b.kind == "quiz"]
    return quizzes[index].resolve(lesson, rules).quiz_item()


def test_lesson_2_a_side_ace_chosen_as_the_highest_trump_is_named_whichever_ace() -> None:
    item = lesson_quiz(2, 3)
    assert {str(c) for c in item.choices} == {"A♥", "K♠", "Q♠", "A♦"}  # type: ignore[attr-defined]
    side_ace = "A side ace is not a trump: only cards that count as spades are, and any trump beats it."
    assert item.check("AH").diagnosis == side_ace
    assert item.check("AD").diagnosis == side_ace


def test_lesson_4_a_joker_chosen_as_a_lead_before_spades_are_broken_is_named_a_spade() -> None:
    item = lesson_quiz(4, 2)
    assert not item.check("LJ 8H 3D").correct
    assert item.check("LJ 8H 3D").diagnosis == (
        "The little joker counts as a spade: it may not be led before spades are broken."
    )


def test_lesson_11_three_top_trumps_counted_sure_is_named_not_a_side_ace() -> None:
    item = lesson_quiz(
        11,
        next(
            i
            for i, s in enumerate(LESSONS[11].steps, 1)
            if any(b.kind == "quiz" and b.quiz_kind == "sure-tricks" for b in s.blocks)
        ),
    )
    assert item.answer() == 2
    assert item.check(3).diagnosis == (
        "Not all of the big joker, the A♠ and the K♠ are sure: a higher trump is still out, and it can take one of them."
    )


def test_lesson_12_trumping_instead_of_following_is_named_the_renege() -> None:
    item = lesson_quiz(12, 1)
    renege = "You must follow suit while you hold a heart: playing the 4♠ instead of the 7♥ is a renege."
    assert item.check("4S").diagnosis == renege
    assert item.check("7H 4S").diagnosis == renege
    assert item.check("7H").correct


def test_a_sure_tricks_hand_without_the_ace_of_spades_is_not_told_about_the_ace() -> None:
    item = SureTricksItem(JOKERS, hand=st.cards("BJ LJ 6S 9H 4C"))
    assert item.answer() == 2
    assert item.check(1).diagnosis is None  # no belief about the cards held gives 1
    held = SureTricksItem(JOKERS, hand=st.cards("AS 6S 9H 4C"))
    assert held.answer() == 0 and held.check(1).diagnosis is not None and "A♠" in held.check(1).diagnosis


# --- a wrong score names its box ---------------------------------------------------------------------


def test_a_wrong_score_names_the_box_and_why() -> None:
    item = ScoreItem(
        JOKERS,
        bids=dict(zip(st.Seat, map(st.Bid, (4, 3, 3, 3)), strict=True)),
        tricks=dict(zip(st.Seat, (4, 3, 4, 2), strict=True)),
        bags={st.Team.NS: 9, st.Team.EW: 0},
    )
    right = item.answer()
    assert right[st.Team.NS] == (71 - 100, 0)
    fb = item.check({"NS": (-29, 10), "EW": right[st.Team.EW]})
    assert fb.diagnosis == (
        "The North–South “bags after” box is not right: North–South end with 0 bags (9 before the hand, 1 this "
        "hand: 10 reach the limit of 10, which the penalty takes off)."
    )
    fb = item.check({"NS": (71, 10), "EW": (-60, 0)})
    assert fb.diagnosis is not None and fb.diagnosis.startswith("You forgot the bag penalty")
    assert fb.diagnosis.endswith("It shows in the North–South points box and the North–South “bags after” box.")


# --- over generated items: a diagnosis names only the cards shown -------------------------------------

CARD = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]|\b(?:big|little) joker\b")
CARD_KINDS = ("sure-tricks", "legal-plays", "may-lead", "trick-winner", "highest-trump", "trump-order", "first-leader")


def shown_cards(item: Any) -> set[str]:
    cards: set[st.Card] = set()
    for name in ("hand", "trick", "choices"):
        cards.update(getattr(item, name, ()) or ())
    if getattr(item, "card", None) is not None:
        cards.add(item.card)
    for _, trick in getattr(item, "earlier", ()):
        cards.update(trick)
    words = {str(c) for c in cards}
    words |= {"big joker" for c in cards if c == st.BIG_JOKER} | {"little joker" for c in cards if c == st.LITTLE_JOKER}
    return words


@pytest.mark.slow
@pytest.mark.parametrize("kind", CARD_KINDS)
def test_no_diagnosis_names_a_card_the_item_does_not_show(kind: str) -> None:
    named = 0
    for preset in ("jokers", "classic", "deuces-high"):
        rules = st.Rules.preset(preset)
        for seed in range(30):
            for level in (1, 2, 3):
                item = generate(kind, rules, seed, difficulty=level)
                for wrong in premises(item).values():
                    for answer in wrong.answers if isinstance(wrong, AnyOf) else (wrong,):
                        if answer is None:
                            continue
                        response = " ".join(map(str, answer)) if isinstance(answer, (tuple, frozenset)) else answer
                        said = item.check(response).diagnosis
                        if said is None:
                            continue
                        named += 1
                        stray = set(CARD.findall(said)) - shown_cards(item)
                        assert not stray, (preset, seed, level, said)
    assert named > 0
