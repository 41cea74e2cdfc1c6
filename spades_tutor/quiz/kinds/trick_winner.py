"""Who wins the trick: choose the winning card.

Levels:
    1. no trump in the trick: the highest card of the suit led wins;
    2. trumps in the trick, but not a fight between a joker (2♦) and other trumps;
    3. two or more trumps fight, the close calls among them: the big joker against
       the little one, a joker led into players void in spades, the 2♦ / 2♠ / A♠
       without a joker (a joker wins about half of them, never all); regular
       Spades: a side suit trumped twice, or the A♠ or 2♠ in a fight.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from ...engine import (
    BIG_JOKER,
    LITTLE_JOKER,
    Card,
    Rank,
    Rules,
    Seat,
    SpadesError,
    Suit,
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
    check_cards,
    extra_trumps_note,
    parse_selection,
    right_and_wrong,
)
from ..misconceptions import Misconception, trick_misconceptions
from ..seeded import (
    MAX_ROUNDS,
    extra_trumps_of,
    pick_from,
    play_through,
    quiz_rng,
    tricky_cards,
)
from . import register

# --- the kind's wrong beliefs: a wrong answer one of them gives is named (``QuizItem.misconceptions``) ---


MISCONCEPTIONS: tuple[Misconception, ...] = trick_misconceptions(lambda item: item.trick, lambda item, card: (card,))


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
        3: "Trumps fight: big against little joker, a joker led into a void, the 2♦ / 2♠ / A♠.",
    }
    position_keys: ClassVar[tuple[frozenset[str], frozenset[str]]] = (
        frozenset({"trick"}),
        frozenset({"leader"}),
    )
    misconceptions: ClassVar[tuple[Misconception, ...]] = MISCONCEPTIONS
    rules: Rules
    trick: tuple[Card, ...]
    leader: Seat = Seat.WEST
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        check_cards(self.rules, "a trick", self.trick, most=4)

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
        chosen = parse_selection(response)
        right = self.answer()
        correct = chosen == (right,)
        diagnosis = None if correct else self.diagnose(response)
        return Feedback(
            correct, f"{right} ({self.winner})", (explain_trick(self.rules, self.trick),), diagnosis=diagnosis
        )

    def given(self, response: Any) -> tuple[Card, ...] | None:
        return parse_selection(response)

    def hint(self) -> str:
        return (
            f"Look for trumps first ({extra_trumps_note(self.rules)}): the highest trump played wins. With no trump "
            "in the trick, the highest card of the suit led wins; a card of another suit never does."
        )

    def position(self) -> dict[str, Any]:
        return {"trick": str(cards(self.trick)), "leader": self.leader.letter}

    # --- answers to try: the kind's own candidates for the checks every kind passes ---------------

    def right_forms(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        yield from (right, str(right), right.letters.lower(), [right])

    def wrong_answers(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        for card in self.trick:
            if card != right:
                yield card
                yield str(card)
        yield (right, *[c for c in self.trick if c != right][:1])  # two cards
        yield next(c for c in self.rules.deck() if c not in self.trick)

    def likely_answers(self, rng: random.Random) -> Iterator[Any]:
        yield from (str(c) for c in self.trick)

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


def _close_calls(rules: Rules) -> frozenset[Card]:
    """Trumps whose place a newcomer gets wrong: the 2♦ and 2♠ where they rank high, the A♠, a lowest 2♠."""
    order = rules.trump_order()
    close = {c for c in tricky_cards(rules) if not c.is_joker}
    close |= {c for c in order if c.suit == Suit.SPADES and c.rank in (Rank.ACE, Rank.TWO)}
    return frozenset(close)


def trick_level(rules: Rules, trick: Sequence[Card]) -> int:
    """1: no trump; 3: two or more trumps with a joker, the 2♦, the 2♠ or the A♠ among them (or, in
    regular Spades, a side suit trumped twice); 2: any other trick with a trump in it."""
    trumps = [c for c in trick if rules.is_trump(c)]
    if not trumps:
        return 1
    if len(trumps) >= 2:
        special = extra_trumps_of(rules) | _close_calls(rules)
        if any(c in special for c in trumps) or not rules.is_trump(trick[0]):
            return 3
    return 2


def _trick_case(rules: Rules, trick: Sequence[Card]) -> str:
    """Which level-3 fight a trick is: both jokers, a joker led into players void in spades,
    or trumps fighting without a joker ('' for a trick of another level)."""
    if trick_level(rules, trick) != 3:
        return ""
    if BIG_JOKER in trick and LITTLE_JOKER in trick:
        return "big-little"
    if trick[0].is_joker and any(not rules.is_trump(c) for c in trick[1:]):
        return "joker-led-void"
    if not any(c.is_joker for c in trick):
        return "no-joker"
    return "joker"


#: the level-3 fights, drawn in turn (a joker wins the first two, never the third)
_CASES = ("big-little", "joker-led-void", "no-joker", "no-joker")


def _trick_winner(rules: Rules, seed: int, difficulty: int) -> TrickWinnerItem:
    rng = quiz_rng("trick-winner", seed, difficulty)
    case = pick_from(rng, _CASES if rules.jokers else ("no-joker",)) if difficulty == 3 else ""
    fallback = None
    for attempt in range(MAX_ROUNDS):
        rnd = play_through(rules, rng, False, lambda _rnd: None)
        found = [t for t in rnd.tricks if trick_level(rules, t.cards) == difficulty]
        if case:
            fallback = fallback or (found[0] if found else None)
            found = [t for t in found if _trick_case(rules, t.cards) == case]
            if not found and attempt >= MAX_ROUNDS // 4 and fallback is not None:
                found = [fallback]
        if found:
            trick = pick_from(rng, found)
            return TrickWinnerItem(rules, trick=trick.cards, leader=trick.leader, seed=seed, difficulty=difficulty)
    raise SpadesError(  # pragma: no cover - every level turns up in the first few rounds
        f"no trick of difficulty {difficulty} found for seed {seed} in {rules.name}"
    )
