"""Quiz items: a position, a question, and an answer the engine computes and explains.

No item carries a hand-written answer. Each kind states its position; ``answer()``
asks the engine, and ``check(response)`` returns ``Feedback`` with the right
answer and the rule that decides it.

>>> import spades_tutor as st
>>> item = LegalPlaysItem(st.Rules.preset("jokers"), hand=st.cards("LJ 9S AH 4H"), trick=st.cards("KH"))
>>> item.answer()
(Card.parse('A♥'), Card.parse('4♥'))
>>> fb = item.check(st.cards("AH 4H LJ"))
>>> fb.correct
False
>>> print(fb.detail["LJ"])
You must follow suit: a heart was led and you hold A♥ 4♥. The little joker counts as a spade, not a heart.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from ..engine import (
    Bid,
    Card,
    Rules,
    Seat,
    SpadesError,
    Team,
    Trick,
    cards,
    explain_sure_tricks,
    explain_trick,
    legal_plays,
    nil_advice,
    score_hand,
    sure_tricks,
    trick_winner,
    why_illegal,
)

__all__ = [
    "ITEM_KINDS",
    "Feedback",
    "HighestTrumpItem",
    "LegalPlaysItem",
    "NilSafeItem",
    "QuizItem",
    "ScoreItem",
    "SureTricksItem",
    "TrickWinnerItem",
    "TrumpOrderItem",
    "item_from_dict",
]


@dataclasses.dataclass(frozen=True)
class Feedback:
    """What a learner sees after answering."""

    correct: bool
    answer: str  # the right answer, in words
    explanation: tuple[str, ...]  # the rule(s) that decide it, from the engine
    detail: Mapping[str, str] = dataclasses.field(default_factory=dict)  # per card or per team

    def __str__(self) -> str:
        head = "Right!" if self.correct else f"Not quite. The answer: {self.answer}."
        return " ".join((head, *self.explanation))


class QuizItem:
    """Base class: a kind name, a rule set, a prompt, an engine-computed answer."""

    kind: ClassVar[str] = ""
    rules: Rules
    seed: int | None
    difficulty: int

    @property
    def prompt(self) -> str:
        raise NotImplementedError

    def answer(self) -> Any:
        raise NotImplementedError

    def check(self, response: Any) -> Feedback:
        raise NotImplementedError

    def position(self) -> dict[str, Any]:
        """The position as plain data (cards as text), without the answer."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "preset": self.rules.name,
            "flags": {k: v for k, v in self.rules.flags().items() if not isinstance(v, tuple)},
            "seed": self.seed,
            "difficulty": self.difficulty,
            **self.position(),
        }

    @property
    def key(self) -> str:
        """A short id for progress records: kind, rule set and seed (or position)."""
        tail = str(self.seed) if self.seed is not None else str(abs(hash(repr(sorted(self.position().items())))))
        return f"{self.kind}:{self.rules.name}:{tail}"


def _card_list(items: Iterable[Card]) -> str:
    return " ".join(str(c) for c in items) or "none"


def _parse_selection(response: Any) -> tuple[Card, ...]:
    if isinstance(response, Card):
        return (response,)
    return cards(response)


@dataclasses.dataclass(frozen=True, eq=False)
class LegalPlaysItem(QuizItem):
    """Select every card you may play."""

    kind: ClassVar[str] = "legal-plays"
    rules: Rules
    hand: tuple[Card, ...]
    trick: tuple[Card, ...] = ()
    spades_broken: bool = False
    seat: Seat = Seat.SOUTH
    seed: int | None = None
    difficulty: int = 1

    @property
    def prompt(self) -> str:
        if self.trick:
            where = f"{_card_list(self.trick)} {'has' if len(self.trick) == 1 else 'have'} been played to this trick"
        else:
            where = "you are leading to this trick"
        broken = "Spades are broken." if self.spades_broken else "Spades are not broken yet."
        return f"{where[0].upper()}{where[1:]}. {broken} Select every card you may play."

    def answer(self) -> tuple[Card, ...]:
        return legal_plays(self.rules, self.hand, self.trick, self.spades_broken)

    def reasons(self) -> dict[str, str]:
        """For each card of the hand: why it may not be played, or that it may."""
        out: dict[str, str] = {}
        for card in self.hand:
            why = why_illegal(self.rules, self.hand, card, self.trick, self.spades_broken)
            out[str(card)] = str(why) if why is not None else f"{card} may be played."
        return out

    def check(self, response: Any) -> Feedback:
        chosen = set(_parse_selection(response))
        right = self.answer()
        correct = chosen == set(right)
        explanation = []
        illegal = [c for c in self.hand if c not in right]
        if illegal:
            explanation.append(str(why_illegal(self.rules, self.hand, illegal[0], self.trick, self.spades_broken)))
        elif self.trick:
            led = self.rules.suit_of(self.trick[0])
            explanation.append(f"You hold no card that counts as a {led.singular}, so you may play any card.")
        elif self.spades_broken:
            explanation.append("Spades are broken, so you may lead any card.")
        else:
            explanation.append("You hold nothing but trumps, so you may lead one even though spades are not broken.")
        return Feedback(correct, _card_list(right), tuple(explanation), self.reasons())

    def position(self) -> dict[str, Any]:
        return {
            "hand": str(cards(self.hand)),
            "trick": str(cards(self.trick)),
            "spades_broken": self.spades_broken,
            "seat": self.seat.letter,
        }


@dataclasses.dataclass(frozen=True, eq=False)
class TrickWinnerItem(QuizItem):
    """Which card wins this trick?"""

    kind: ClassVar[str] = "trick-winner"
    rules: Rules
    trick: tuple[Card, ...]
    leader: Seat = Seat.WEST
    seed: int | None = None
    difficulty: int = 1

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


@dataclasses.dataclass(frozen=True, eq=False)
class HighestTrumpItem(QuizItem):
    """Pick the highest trump among these cards."""

    kind: ClassVar[str] = "highest-trump"
    rules: Rules
    choices: tuple[Card, ...]
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        if not any(self.rules.is_trump(c) for c in self.choices):
            raise SpadesError(f"a highest-trump question needs at least one trump among {_card_list(self.choices)}")

    @property
    def prompt(self) -> str:
        return "Which of these cards is the highest trump?"

    def answer(self) -> Card:
        return min((c for c in self.choices if self.rules.is_trump(c)), key=lambda c: self.rules.trump_order().index(c))

    def check(self, response: Any) -> Feedback:
        chosen = _parse_selection(response)
        right = self.answer()
        detail = {str(c): f"{c}: {self.rules.trump_position(c)}" for c in self.choices}
        because = f"{self.rules.card_name(right)[0].upper()}{self.rules.card_name(right)[1:]} is {self.rules.trump_position(right)}."
        return Feedback(chosen == (right,), str(right), (because,), detail)

    def position(self) -> dict[str, Any]:
        return {"choices": str(cards(self.choices))}


@dataclasses.dataclass(frozen=True, eq=False)
class TrumpOrderItem(QuizItem):
    """Put these trumps in order, highest first."""

    kind: ClassVar[str] = "trump-order"
    rules: Rules
    choices: tuple[Card, ...]
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        not_trumps = [c for c in self.choices if not self.rules.is_trump(c)]
        if not_trumps:
            raise SpadesError(
                f"{_card_list(not_trumps)} {'is' if len(not_trumps) == 1 else 'are'} not trumps in {self.rules.name}"
            )

    @property
    def prompt(self) -> str:
        return "Put these trumps in order, highest first."

    def answer(self) -> tuple[Card, ...]:
        order = self.rules.trump_order()
        return tuple(sorted(self.choices, key=order.index))

    def check(self, response: Any) -> Feedback:
        chosen = _parse_selection(response)
        right = self.answer()
        explanation = tuple(f"{c} is {self.rules.trump_position(c)}." for c in right)
        return Feedback(chosen == right, _card_list(right), explanation)

    def position(self) -> dict[str, Any]:
        return {"choices": str(cards(self.choices))}


def _team_answer(response: Mapping[Any, Any]) -> dict[Team, tuple[int, int]]:
    out: dict[Team, tuple[int, int]] = {}
    for team, value in response.items():
        points, bags = value
        out[Team.parse(team)] = (int(points), int(bags))
    return out


@dataclasses.dataclass(frozen=True, eq=False)
class ScoreItem(QuizItem):
    """Enter each team's points for the hand and its bag count after it."""

    kind: ClassVar[str] = "score"
    rules: Rules
    bids: Mapping[Seat, Bid]
    tricks: Mapping[Seat, int]
    bags: Mapping[Team, int] = dataclasses.field(default_factory=lambda: {Team.NS: 0, Team.EW: 0})
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        score_hand(self.rules, self.bids, self.tricks, self.bags)  # validates the position

    @property
    def prompt(self) -> str:
        return "Score this hand: enter each team's points for the hand and its bags after it."

    def answer(self) -> dict[Team, tuple[int, int]]:
        scores = score_hand(self.rules, self.bids, self.tricks, self.bags)
        return {t: (s.points, s.bags) for t, s in scores.items()}

    def check(self, response: Any) -> Feedback:
        scores = score_hand(self.rules, self.bids, self.tricks, self.bags)
        try:
            given = _team_answer(response)
        except (TypeError, ValueError):
            given = {}
        right = {t: (s.points, s.bags) for t, s in scores.items()}
        correct = all(given.get(t) == right[t] for t in Team)
        detail = {t.short: "; ".join(str(line) for line in s.lines) or "nothing scored" for t, s in scores.items()}
        words = ", ".join(f"{t.label} {p:+d} with {b} bag{'s' if b != 1 else ''}" for t, (p, b) in right.items())
        explanation = tuple(f"{t.label}: {detail[t.short]}." for t in Team)
        return Feedback(correct, words, explanation, detail)

    def position(self) -> dict[str, Any]:
        return {
            "bids": {s.letter: Bid.parse(b).to_json() for s, b in self.bids.items()},
            "tricks": {s.letter: n for s, n in self.tricks.items()},
            "bags": {t.short: n for t, n in self.bags.items()},
        }


@dataclasses.dataclass(frozen=True, eq=False)
class SureTricksItem(QuizItem):
    """How many sure tricks does this hand hold?"""

    kind: ClassVar[str] = "sure-tricks"
    rules: Rules
    hand: tuple[Card, ...]
    seed: int | None = None
    difficulty: int = 1

    @property
    def prompt(self) -> str:
        return "How many sure tricks does this hand hold?"

    def answer(self) -> int:
        return len(sure_tricks(self.rules, self.hand))

    def check(self, response: Any) -> Feedback:
        try:
            given = int(response)
        except (TypeError, ValueError):
            given = -1
        right = self.answer()
        return Feedback(given == right, str(right), (explain_sure_tricks(self.rules, self.hand),))

    def position(self) -> dict[str, Any]:
        return {"hand": str(cards(self.hand))}


@dataclasses.dataclass(frozen=True, eq=False)
class NilSafeItem(QuizItem):
    """Is a nil bid safe with this hand?"""

    kind: ClassVar[str] = "nil-safe"
    rules: Rules
    hand: tuple[Card, ...]
    seed: int | None = None
    difficulty: int = 1

    @property
    def prompt(self) -> str:
        return "Is a nil bid safe with this hand?"

    def answer(self) -> bool:
        return nil_advice(self.rules, self.hand).safe

    def check(self, response: Any) -> Feedback:
        if isinstance(response, str):
            given: bool | None = {"yes": True, "no": False, "true": True, "false": False}.get(response.strip().lower())
        elif isinstance(response, bool):
            given = response
        else:
            given = None
        advice = nil_advice(self.rules, self.hand)
        return Feedback(given == advice.safe, "yes" if advice.safe else "no", advice.reasons)

    def position(self) -> dict[str, Any]:
        return {"hand": str(cards(self.hand))}


ITEM_KINDS: dict[str, type[QuizItem]] = {
    cls.kind: cls
    for cls in (
        LegalPlaysItem,
        TrickWinnerItem,
        HighestTrumpItem,
        TrumpOrderItem,
        ScoreItem,
        SureTricksItem,
        NilSafeItem,
    )
}


def item_from_dict(data: Mapping[str, Any]) -> QuizItem:
    """Rebuild an item from ``to_dict()`` output (or a lesson's quiz block)."""
    kind = data.get("kind")
    if kind not in ITEM_KINDS:
        raise SpadesError(f"unknown quiz kind {kind!r}; the kinds are {', '.join(ITEM_KINDS)}")
    rules = Rules.preset(str(data.get("preset", "jokers")), **dict(data.get("flags", {})))
    common: dict[str, Any] = {"seed": data.get("seed"), "difficulty": int(data.get("difficulty", 1))}
    if kind == "legal-plays":
        return LegalPlaysItem(
            rules,
            hand=cards(data["hand"]),
            trick=cards(data.get("trick", "")),
            spades_broken=bool(data.get("spades_broken", False)),
            seat=Seat.parse(data.get("seat", "S")),
            **common,
        )
    if kind == "trick-winner":
        return TrickWinnerItem(rules, trick=cards(data["trick"]), leader=Seat.parse(data.get("leader", "W")), **common)
    if kind == "highest-trump":
        return HighestTrumpItem(rules, choices=cards(data["choices"]), **common)
    if kind == "trump-order":
        return TrumpOrderItem(rules, choices=cards(data["choices"]), **common)
    if kind == "score":
        return ScoreItem(
            rules,
            bids={Seat.parse(s): Bid.parse(b) for s, b in data["bids"].items()},
            tricks={Seat.parse(s): int(n) for s, n in data["tricks"].items()},
            bags={Team.parse(t): int(n) for t, n in data.get("bags", {}).items()} or {Team.NS: 0, Team.EW: 0},
            **common,
        )
    if kind == "sure-tricks":
        return SureTricksItem(rules, hand=cards(data["hand"]), **common)
    return NilSafeItem(rules, hand=cards(data["hand"]), **common)
