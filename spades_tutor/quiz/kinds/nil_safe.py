"""Is nil safe: would a nil bid be safe with this hand?

Levels (the answers are balanced: even seeds ask about a safe hand, odd seeds a risky one):
    1. obvious: the top trump, or three problems or more / a clean hand with
       no side king and at most two (low) trumps;
    2. one or two plain problems (a side ace, a high natural spade) / a safe
       hand with one guarded king or three low trumps;
    3. one subtle problem (an unguarded king, exactly four low trumps, a lone
       little joker, 2♦ or high 2♠) / safe although it holds two guarded kings,
       or a king and three trumps.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...engine import (
    Card,
    Rank,
    Rules,
    cards,
    nil_advice,
)
from ..base import (
    Choice,
    Feedback,
    PositionReader,
    QuizItem,
    ShowCards,
    ViewSpec,
    _check_cards,
)
from ..seeded import (
    MAX_DEALS,
    _hands,
    _rng,
    _tricky,
)
from . import register


@register
@dataclasses.dataclass(frozen=True, eq=False)
class NilSafeItem(QuizItem):
    """Is a nil bid safe with this hand?"""

    kind: ClassVar[str] = "nil-safe"
    title: ClassVar[str] = "Is nil safe?"
    order: ClassVar[int] = 70
    levels: ClassVar[Mapping[int, str]] = {
        1: "Obvious hands.",
        2: "One or two plain problems, or an ordinary safe hand.",
        3: "One subtle problem, or safe although it looks risky.",
    }
    position_keys: ClassVar[tuple[frozenset[str], frozenset[str]]] = (
        frozenset({"hand"}),
        frozenset(),
    )
    rules: Rules
    hand: tuple[Card, ...]
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        _check_cards(self.rules, "a nil-safe hand", self.hand)

    @property
    def prompt(self) -> str:
        if not self.rules.nil:
            return "This table plays without nil, but judge the hand anyway: would a nil bid be safe with it?"
        return "Is a nil bid safe with this hand?"

    def answer(self) -> bool:
        return nil_advice(self.rules, self.hand).safe

    def check(self, response: Any) -> Feedback:
        if isinstance(response, str):
            given: bool | None = {"yes": True, "no": False, "true": True, "false": False, "y": True, "n": False}.get(
                response.strip().lower()
            )
        elif isinstance(response, bool):
            given = response
        else:
            given = None
        advice = nil_advice(self.rules, self.hand)
        return Feedback(given == advice.safe, "yes" if advice.safe else "no", advice.reasons)

    def position(self) -> dict[str, Any]:
        return {"hand": str(cards(self.hand))}

    @classmethod
    def generate(cls, rules: Rules, seed: int, difficulty: int) -> NilSafeItem:
        return _nil_safe(rules, seed, difficulty)

    @classmethod
    def offered(cls, rules: Rules) -> bool:
        return rules.nil

    @classmethod
    def from_position(cls, rules: Rules, data: Mapping[str, Any], **common: Any) -> NilSafeItem:
        return cls(rules, hand=cards(data["hand"]), **common)

    @classmethod
    def lesson_position(cls, rules: Rules, block: PositionReader) -> dict[str, Any]:
        if not rules.nil:
            raise block.error("a nil question in a rule set without nil")
        return {"hand": block.cards("hand", 13, 13)}

    def view(self) -> ViewSpec:
        choice = Choice(("yes", "no"), "Nil safe?", "Choose yes or no first.")
        return ViewSpec((ShowCards(self.hand, "the hand"), choice))


def _nil_level(rules: Rules, hand: Sequence[Card]) -> int:
    """How hard the nil question is for this hand (the answer itself comes from the engine)."""
    advice = nil_advice(rules, hand)
    order = rules.trump_order()
    trumps = [c for c in hand if rules.is_trump(c)]
    side = [c for c in hand if not rules.is_trump(c)]
    if advice.safe:
        kings = sum(1 for c in side if c.rank == Rank.KING)
        if kings >= 2 or (kings and len(trumps) >= 3):
            return 3  # looks risky, yet every king is guarded and every trump low
        if not kings and len(trumps) <= 2:
            return 1
        return 2
    problems = len(advice.reasons)
    if order[0] in hand or problems >= 3:
        return 1
    if problems == 1:
        high = [c for c in order[:5] if c in hand]
        tricky = set(_tricky(rules))
        unguarded_king = any(
            c.rank == Rank.KING and sum(1 for d in side if d.suit == c.suit and d.rank < c.rank) < 2 for c in side
        )
        subtle_trump = len(high) == 1 and (high[0] in tricky)
        if unguarded_king or subtle_trump or (not high and len(trumps) >= 4):
            return 3
    return 2


def _nil_safe(rules: Rules, seed: int, difficulty: int) -> NilSafeItem:
    rng = _rng("nil-safe", seed, difficulty)
    want_safe = seed % 2 == 0  # consecutive seeds alternate yes and no
    second_best: tuple[Card, ...] | None = None
    last: tuple[Card, ...] = ()
    for n, hand in enumerate(_hands(rules, rng)):
        last = hand
        if nil_advice(rules, hand).safe == want_safe:
            if _nil_level(rules, hand) == difficulty:
                return NilSafeItem(rules, hand=rules.sort_hand(hand), seed=seed, difficulty=difficulty)
            if second_best is None:
                second_best = hand
        if n >= 4 * MAX_DEALS:
            break
    # not reached in practice: the wanted answer and level turn up within a few hundred hands
    chosen = second_best if second_best is not None else last
    return NilSafeItem(rules, hand=rules.sort_hand(chosen), seed=seed, difficulty=difficulty)
