"""Highest trump: pick the highest trump among these cards.

Levels:
    1. three trumps far apart (at least three places between them);
    2. three trumps and a side ace or king as a decoy;
    3. the close calls at the top: big joker against little joker, 2♦ / 2♠ / A♠
       in deuces-high, the 2♠ in two-of-spades-third (plus a decoy, or the 2♠
       where it is the lowest trump, and often a lower trump).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from ...engine import (
    Card,
    Rank,
    Rules,
    SpadesError,
    Suit,
    cards,
)
from ..base import (
    Feedback,
    FeedbackView,
    PickCards,
    PositionReader,
    QuizItem,
    ViewSpec,
    card_list,
    check_cards,
    extra_trumps_note,
    parse_selection,
    right_and_wrong,
)
from ..misconceptions import RULE_CHANGES, TRUMP_BELIEFS, AnyOf, Misconception, changed
from ..seeded import (
    coin_flip,
    far_apart,
    pick_from,
    quiz_rng,
    sample,
    shuffled_copy,
    tricky_cards,
    uniform_between,
)
from . import register

# --- the kind's wrong beliefs: a wrong answer one of them gives is named (``QuizItem.misconceptions``) ---


def _highest_under(item: Any, rules: Rules) -> tuple[Card, ...] | None:
    trumps = [c for c in item.choices if rules.is_trump(c)]
    if not trumps:
        return None
    order = rules.trump_order()
    return (min(trumps, key=order.index),)


def _side_ace_chosen(item: Any) -> AnyOf | None:
    """Deviation: a side ace taken for the highest trump (whichever of the aces shown is chosen)."""
    aces = [c for c in item.choices if c.rank == Rank.ACE and not item.rules.is_trump(c)]
    return AnyOf(frozenset((c,) for c in aces)) if aces else None


MISCONCEPTIONS: tuple[Misconception, ...] = (
    *(changed(name, _highest_under) for name in TRUMP_BELIEFS),
    Misconception("side-ace-trump", _side_ace_chosen, lambda item: RULE_CHANGES["side-ace-trump"].says(item.rules)),
)


@register
@dataclasses.dataclass(frozen=True, eq=False)
class HighestTrumpItem(QuizItem):
    """Pick the highest trump among these cards."""

    kind: ClassVar[str] = "highest-trump"
    title: ClassVar[str] = "Highest trump"
    order: ClassVar[int] = 30
    levels: ClassVar[Mapping[int, str]] = {
        1: "Three trumps far apart.",
        2: "Three trumps and a side card that is not a trump.",
        3: "Close calls at the top of the trump order.",
    }
    position_keys: ClassVar[tuple[frozenset[str], frozenset[str]]] = (
        frozenset({"choices"}),
        frozenset(),
    )
    misconceptions: ClassVar[tuple[Misconception, ...]] = MISCONCEPTIONS
    rules: Rules
    choices: tuple[Card, ...]
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        check_cards(self.rules, "a highest-trump question", self.choices)
        if not any(self.rules.is_trump(c) for c in self.choices):
            raise SpadesError(f"a highest-trump question needs at least one trump among {card_list(self.choices)}")

    @property
    def prompt(self) -> str:
        return "Which of these cards is the highest trump?"

    def answer(self) -> Card:
        return min((c for c in self.choices if self.rules.is_trump(c)), key=lambda c: self.rules.trump_order().index(c))

    def check(self, response: Any) -> Feedback:
        chosen = parse_selection(response)
        right = self.answer()
        detail = {str(c): f"{c}: {self.rules.trump_position(c)}" for c in self.choices}
        because = f"{self.rules.card_name(right)[0].upper()}{self.rules.card_name(right)[1:]} is {self.rules.trump_position(right)}."
        correct = chosen == (right,)
        diagnosis = None if correct else self.diagnose(response)
        return Feedback(correct, str(right), (because,), detail, diagnosis)

    def given(self, response: Any) -> tuple[Card, ...] | None:
        return parse_selection(response)

    def hint(self) -> str:
        return (
            f"In {self.rules.title}, {extra_trumps_note(self.rules)}. Think which trumps rank above the A♠ here, "
            "and in what order."
        )

    def position(self) -> dict[str, Any]:
        return {"choices": str(cards(self.choices))}

    # --- answers to try: the kind's own candidates for the checks every kind passes ---------------

    def right_forms(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        yield from (right, str(right), right.letters.lower(), [right])

    def wrong_answers(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        for card in self.choices:
            if card != right:
                yield card
                yield card.letters
        yield (right, *[c for c in self.choices if c != right][:1])
        higher = [c for c in self.rules.trump_order() if c not in self.choices]
        yield higher[0]  # a higher trump that is not among the choices

    def likely_answers(self, rng: random.Random) -> Iterator[Any]:
        yield from (str(c) for c in self.choices)

    @classmethod
    def generate(cls, rules: Rules, seed: int, difficulty: int) -> HighestTrumpItem:
        return _highest_trump(rules, seed, difficulty)

    @classmethod
    def from_position(cls, rules: Rules, data: Mapping[str, Any], **common: Any) -> HighestTrumpItem:
        return cls(rules, choices=cards(data["choices"]), **common)

    @classmethod
    def lesson_position(cls, rules: Rules, block: PositionReader) -> dict[str, Any]:
        return {"choices": block.cards("choices", len(rules.deck()), 2)}

    def view(self) -> ViewSpec:
        return ViewSpec((PickCards(self.choices, "one", "choose the highest trump", sort=False),))

    def feedback_view(self, feedback: Feedback, selected: tuple[str, ...] = ()) -> FeedbackView:
        return FeedbackView(right_and_wrong(self.answer(), selected))


def _decoys(rules: Rules) -> list[Card]:
    """High side cards that are not trumps: side aces and kings."""
    return [
        c for c in rules.deck() if not rules.is_trump(c) and c.rank in (Rank.ACE, Rank.KING) and c.suit != Suit.SPADES
    ]


def _close_window(rules: Rules, rng: random.Random, size: int) -> list[Card]:
    """``size`` adjacent trumps near the top, containing a surprising one if the rules have any."""
    order = rules.trump_order()
    tricky = set(tricky_cards(rules))
    top = min(len(order), 6)
    windows = [list(order[i : i + size]) for i in range(0, top - size + 1)]
    good = [w for w in windows if tricky & set(w)] or windows
    return pick_from(rng, good)


def _highest_trump(rules: Rules, seed: int, difficulty: int) -> HighestTrumpItem:
    rng = quiz_rng("highest-trump", seed, difficulty)
    order = rules.trump_order()
    if difficulty == 1:
        choices = [order[i] for i in far_apart(rng, len(order), 3, 3)]
    elif difficulty == 2:
        choices = [order[i] for i in sorted(sample(rng, range(len(order)), 3))]
        choices.append(pick_from(rng, _decoys(rules)))
    else:
        choices = _close_window(rules, rng, uniform_between(rng, 2, 3))
        low_two = order[-1] if order[-1].rank == Rank.TWO else None
        traps: list[Card] = [c for c in _decoys(rules) if c.rank == Rank.ACE]
        if low_two is not None and low_two not in choices:
            traps.append(low_two)  # a 2 that is the lowest trump here
        choices.append(pick_from(rng, traps))
        lower = [c for c in order[6:] if c not in choices]
        if lower and coin_flip(rng, 0.6):
            choices.append(pick_from(rng, lower))  # a lower trump beside the close call
    shown = shuffled_copy(rng, choices)
    best = min((c for c in shown if rules.is_trump(c)), key=order.index)
    if shown[0] == best:  # do not always put the answer first
        shown.append(shown.pop(0))
    return HighestTrumpItem(rules, choices=tuple(shown), seed=seed, difficulty=difficulty)
