"""Sure tricks: how many tricks this hand takes whatever the others hold.

Levels (each level's shapes come up about equally often):
    1. the top trump alone, or no high trump at all;
    2. a run from the top of two or more, or high trumps without the top one;
    3. more sure tricks than the run from the top, found by counting the higher
       trumps that are out, each able to take one lower trump (A♠ K♠ Q♠ with both
       jokers out counts 1, LJ A♠ K♠ counts 2); a gap under the top (BJ and A♠
       without the little joker counts 1); a run through the 2♦ / 2♠; or several
       high trumps and still none sure.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from ...engine import (
    LITTLE_JOKER,
    Card,
    Rank,
    Rules,
    Suit,
    cards,
    explain_sure_tricks,
    sure_trick_count,
    sure_tricks,
)
from ...engine.text import and_list
from ..base import (
    Feedback,
    NumberField,
    Numbers,
    PositionReader,
    QuizItem,
    ShowCards,
    ViewSpec,
    check_cards,
    whole_answer,
)
from ..misconceptions import ACE_OF_SPADES, TRUMP_BELIEFS, TWO_OF_DIAMONDS, TWO_OF_SPADES, Misconception, changed, the
from ..seeded import (
    MAX_DEALS,
    balanced_pick,
    quiz_rng,
    random_hands,
    tricky_cards,
)
from . import register

# --- the kind's wrong beliefs: a wrong answer one of them gives is named (``QuizItem.misconceptions``) ---


def _run_from_top(item: Any) -> int:
    """Only the unbroken run from the top counted (the engine's ``sure_tricks``)."""
    return len(sure_tricks(item.rules, item.hand))


def _side_aces_counted(item: Any) -> int | None:
    """Deviation: the engine's count plus the hand's side aces."""
    aces = sum(1 for c in item.hand if c.rank == Rank.ACE and not item.rules.is_trump(c))
    return item.answer() + aces if aces else None


def _every_trump_counted(item: Any) -> int | None:
    """Deviation: every trump of the hand counted sure, as if none could be captured."""
    trumps = [c for c in item.hand if item.rules.is_trump(c)]
    return len(trumps) if trumps else None


#: the card each belief about the trump order is about: a sure-tricks hand must hold it for the
#: belief to be named (the count also depends on the trumps that are out, which a learner cannot see)
_BELIEF_CARD = {
    "jokers-swapped": LITTLE_JOKER,
    "deuce-as-diamond": TWO_OF_DIAMONDS,
    "two-of-spades-low": TWO_OF_SPADES,
    "ace-of-spades-highest": ACE_OF_SPADES,
}


def _sure_under_belief(name: str) -> Misconception:
    card = _BELIEF_CARD[name]

    def count(item: Any, rules: Rules) -> int | None:
        return sure_trick_count(rules, item.hand) if card in item.hand else None

    if name == "jokers-swapped":  # the little joker held, the big one out
        return changed(
            name,
            count,
            lambda item: "The little joker is not the highest trump: a higher trump is still out, and it can take it.",
        )
    return changed(name, count)


def _high_trumps(item: Any) -> tuple[list[Card], list[Card]]:
    """The hand's trumps from the top down to the K♠, and the trumps out above the lowest of them."""
    order = item.rules.trump_order()
    king = Card(Rank.KING, Suit.SPADES)
    top = order[: order.index(king) + 1] if king in order else order[:1]
    held = [c for c in top if c in item.hand]
    if not held:
        return [], []
    out = [c for c in order[: order.index(held[-1])] if c not in item.hand]
    return held, out


def _high_trumps_counted(item: Any) -> int | None:
    """Deviation: every high trump held (down to the K♠) counted sure, the trumps out above them forgotten."""
    held, out = _high_trumps(item)
    return len(held) if held and out else None


def _high_trumps_says(item: Any) -> str:
    held, out = _high_trumps(item)
    names = and_list(the(c) for c in held)
    if len(out) == 1:
        return f"Not all of {names} are sure: a higher trump is still out, and it can take one of them."
    return f"Not all of {names} are sure: {len(out)} higher trumps are still out, and each can take one of them."


MISCONCEPTIONS: tuple[Misconception, ...] = (
    *(_sure_under_belief(name) for name in TRUMP_BELIEFS),
    Misconception("high-trumps-sure", _high_trumps_counted, _high_trumps_says),
    Misconception(
        "side-aces-sure",
        _side_aces_counted,
        lambda item: "A side ace is not a sure trick: a player void in its suit may trump it.",
    ),
    Misconception(
        "run-from-top-only",
        _run_from_top,
        lambda item: (
            "More than the run from the top is sure: each higher trump still out can capture only one of yours."
        ),
    ),
    Misconception(
        "every-trump-sure",
        _every_trump_counted,
        lambda item: "Not every trump is sure: each higher trump still out can capture one of yours.",
    ),
)


@register
@dataclasses.dataclass(frozen=True, eq=False)
class SureTricksItem(QuizItem):
    """How many sure tricks does this hand hold?"""

    kind: ClassVar[str] = "sure-tricks"
    title: ClassVar[str] = "Sure tricks"
    order: ClassVar[int] = 60
    levels: ClassVar[Mapping[int, str]] = {
        1: "The top trump alone, or no high trump at all.",
        2: "A run of top trumps, or high trumps without the top one.",
        3: "Counting the higher trumps that are out, gaps in the run, and the surprising trumps of the rule set.",
    }
    position_keys: ClassVar[tuple[frozenset[str], frozenset[str]]] = (
        frozenset({"hand"}),
        frozenset(),
    )
    misconceptions: ClassVar[tuple[Misconception, ...]] = MISCONCEPTIONS
    rules: Rules
    hand: tuple[Card, ...]
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        check_cards(self.rules, "a sure-tricks hand", self.hand)

    @property
    def prompt(self) -> str:
        return "How many sure tricks does this hand hold?"

    def answer(self) -> int:
        return sure_trick_count(self.rules, self.hand)

    def check(self, response: Any) -> Feedback:
        try:
            given = whole_answer(response)
        except (TypeError, ValueError):
            given = -1
        right = self.answer()
        correct = given == right
        diagnosis = None if correct else self.diagnose(response)
        return Feedback(correct, str(right), (explain_sure_tricks(self.rules, self.hand),), diagnosis=diagnosis)

    def given(self, response: Any) -> int | None:
        try:
            return whole_answer(response)
        except (TypeError, ValueError):
            return None

    def hint(self) -> str:
        return (
            "A sure trick wins whatever the others hold and however they play. Count trumps from the top; "
            "each higher trump still out can take only one of yours."
        )

    def position(self) -> dict[str, Any]:
        return {"hand": str(cards(self.hand))}

    # --- answers to try: the kind's own candidates for the checks every kind passes ---------------

    def right_forms(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        yield from (right, str(right), f" {right} ")

    def wrong_answers(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        for n in range(14):
            if n != right:
                yield n
                yield str(n)

    def likely_answers(self, rng: random.Random) -> Iterator[Any]:
        yield from range(0, 8)

    @classmethod
    def generate(cls, rules: Rules, seed: int, difficulty: int) -> SureTricksItem:
        return _sure_tricks(rules, seed, difficulty)

    @classmethod
    def from_position(cls, rules: Rules, data: Mapping[str, Any], **common: Any) -> SureTricksItem:
        return cls(rules, hand=cards(data["hand"]), **common)

    @classmethod
    def lesson_position(cls, rules: Rules, block: PositionReader) -> dict[str, Any]:
        return {"hand": block.cards("hand", 13)}

    def view(self) -> ViewSpec:
        count = NumberField("count", "Sure tricks:", min=0, max=13, width=4)
        return ViewSpec((ShowCards(self.hand, "the hand"), Numbers((count,), _count_response)))


def _count_response(values: Mapping[str, int]) -> int:
    return values["count"]


def _sure_shape(rules: Rules, hand: Sequence[Card]) -> str:
    """What the sure-tricks question tests for this hand; ``_SURE_LEVELS`` groups the shapes by level."""
    order = rules.trump_order()
    held = set(hand)
    run = len(sure_tricks(rules, hand))  # the top trumps held: each sure on its own
    count = sure_trick_count(rules, hand)
    near = [i for i in range(min(6, len(order))) if order[i] in held]
    tricky = set(tricky_cards(rules))
    if count > run:
        return "counted"  # sure of more than the run: count the higher trumps that are out
    if run >= 1 and any(run < i <= 5 for i in near):
        return "gap"  # the cards after the gap are not sure
    if run >= 2 and any(c in tricky and not c.is_joker for c in order[:run]):
        return "tricky-run"  # a run through the 2♦ or a high 2♠
    if run == 0 and sum(1 for i in near if 1 <= i <= 4) >= 2:
        return "strong-no-top"  # strong trumps, yet the top one is missing
    if run >= 2:
        return "run"
    if run == 0 and any(i in (1, 2) for i in near):
        return "no-top"
    return "top-alone" if run == 1 else "no-high"


_SURE_LEVELS: dict[int, tuple[str, ...]] = {
    1: ("top-alone", "no-high"),
    2: ("run", "no-top"),
    3: ("counted", "gap", "tricky-run", "strong-no-top"),
}


def _sure_tricks(rules: Rules, seed: int, difficulty: int) -> SureTricksItem:
    rng = quiz_rng("sure-tricks", seed, difficulty)
    shapes = _SURE_LEVELS[difficulty]
    if not any(not c.is_joker for c in tricky_cards(rules)):
        shapes = tuple(s for s in shapes if s != "tricky-run")
    wanted = balanced_pick("sure-tricks", seed, difficulty, shapes)  # level 1 is half 0s, half 1s
    second_best: tuple[Card, ...] | None = None
    for n, hand in enumerate(random_hands(rules, rng)):
        shape = _sure_shape(rules, hand)
        if shape == wanted or (n >= MAX_DEALS and shape in shapes):
            return SureTricksItem(rules, hand=rules.sort_hand(hand), seed=seed, difficulty=difficulty)
        if second_best is None and shape in shapes:
            second_best = hand
        if n >= 4 * MAX_DEALS and second_best is not None:
            return SureTricksItem(rules, hand=rules.sort_hand(second_best), seed=seed, difficulty=difficulty)
    raise AssertionError("unreachable")  # pragma: no cover - random_hands never ends
