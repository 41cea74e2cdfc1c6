"""Who wins the trick: choose the winning card.

Levels:
    1. no trump in the trick: the highest card of the suit led wins;
    2. trumps in the trick, but not a fight between a joker (2♦) and other trumps;
    3. two or more trumps including a joker or the 2♦ (regular Spades: a side
       suit led and trumped twice).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...engine import (
    Card,
    Rules,
    Seat,
    SpadesError,
    Trick,
    cards,
    explain_trick,
    trick_winner,
)
from ..base import (
    Feedback,
    FeedbackView,
    PickCards,
    PositionReader,
    QuizItem,
    ViewSpec,
    _check_cards,
    _parse_selection,
    right_and_wrong,
)
from ..seeded import (
    MAX_ROUNDS,
    _choice,
    _extras,
    _play_through,
    _rng,
)
from . import register


@register
@dataclasses.dataclass(frozen=True, eq=False)
class TrickWinnerItem(QuizItem):
    """Which card wins this trick?"""

    kind: ClassVar[str] = "trick-winner"
    title: ClassVar[str] = "Who wins the trick?"
    order: ClassVar[int] = 20
    levels: ClassVar[Mapping[int, str]] = {
        1: "No trump was played: the highest card of the suit led wins.",
        2: "A trump was played.",
        3: "Two or more trumps, jokers among them.",
    }
    position_keys: ClassVar[tuple[frozenset[str], frozenset[str]]] = (
        frozenset({"trick"}),
        frozenset({"leader"}),
    )
    rules: Rules
    trick: tuple[Card, ...]
    leader: Seat = Seat.WEST
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        _check_cards(self.rules, "a trick", self.trick, most=4)

    @property
    def prompt(self) -> str:
        return f"{self.leader} led. Which card wins this trick?"

    def answer(self) -> Card:
        return self.trick[trick_winner(self.rules, self.trick)]

    @property
    def winner(self) -> Seat:
        return Seat((self.leader + trick_winner(self.rules, self.trick)) % 4)

    def as_trick(self) -> Trick:
        return Trick.complete(self.rules, self.leader, self.trick)

    def check(self, response: Any) -> Feedback:
        chosen = _parse_selection(response)
        right = self.answer()
        correct = chosen == (right,)
        return Feedback(correct, f"{right} ({self.winner})", (explain_trick(self.rules, self.trick),))

    def position(self) -> dict[str, Any]:
        return {"trick": str(cards(self.trick)), "leader": self.leader.letter}

    @classmethod
    def generate(cls, rules: Rules, seed: int, difficulty: int) -> TrickWinnerItem:
        return _trick_winner(rules, seed, difficulty)

    @classmethod
    def from_position(cls, rules: Rules, data: Mapping[str, Any], **common: Any) -> TrickWinnerItem:
        return cls(rules, trick=cards(data["trick"]), leader=Seat.parse(data.get("leader", "W")), **common)

    @classmethod
    def lesson_position(cls, rules: Rules, block: PositionReader) -> dict[str, Any]:
        leader: Seat = block.value("leader", Seat.WEST)
        return {"trick": block.cards("trick", 4, 2), "leader": leader.letter}

    def view(self) -> ViewSpec:
        return ViewSpec((PickCards(self.trick, "one", "the trick: choose the winning card", leader=self.leader),))

    def feedback_view(self, feedback: Feedback, selected: tuple[str, ...] = ()) -> FeedbackView:
        return FeedbackView(right_and_wrong(self.answer(), selected), winner=self.winner.letter)


def _trick_level(rules: Rules, trick: Sequence[Card]) -> int:
    """1: no trump; 3: two or more trumps with a joker/2♦ among them (regular Spades:
    a side suit trumped twice); 2: any other trick with a trump in it."""
    trumps = [c for c in trick if rules.is_trump(c)]
    if not trumps:
        return 1
    extras = _extras(rules)
    if len(trumps) >= 2:
        if extras and any(c in extras for c in trumps):
            return 3
        if not extras and not rules.is_trump(trick[0]):
            return 3
    return 2


def _trick_winner(rules: Rules, seed: int, difficulty: int) -> TrickWinnerItem:
    rng = _rng("trick-winner", seed, difficulty)
    for _ in range(MAX_ROUNDS):
        rnd = _play_through(rules, rng, False, lambda _rnd: None)
        found = [t for t in rnd.tricks if _trick_level(rules, t.cards) == difficulty]
        if found:
            trick = _choice(rng, found)
            return TrickWinnerItem(rules, trick=trick.cards, leader=trick.leader, seed=seed, difficulty=difficulty)
    raise SpadesError(  # pragma: no cover - every level turns up in the first few rounds
        f"no trick of difficulty {difficulty} found for seed {seed} in {rules.name}"
    )
