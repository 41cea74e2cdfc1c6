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
You must follow suit: a heart was led and you hold A♥ and 4♥. The little joker counts as a spade, not a heart.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
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
    sure_trick_count,
    trick_winner,
    why_illegal,
)
from ..engine.text import signed

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
        """A short id for progress records: kind, rule set and seed (or position).

        Stable across sessions and machines: ``'legal-plays:jokers:7/2'`` for the item
        ``generate('legal-plays', rules, 7, difficulty=2)`` makes; house-rule flags add a
        short digest to the rule set (``'score:jokers+1a2b3c:7/3'``); an item without a
        seed is named by a digest of its position.
        """
        flags = {k: v for k, v in self.rules.flags().items() if not isinstance(v, tuple)}
        rules = self.rules.name + (f"+{_digest(flags)[:6]}" if flags else "")
        tail = f"{self.seed}/{self.difficulty}" if self.seed is not None else _digest(self.position())
        return f"{self.kind}:{rules}:{tail}"


def _digest(data: Any) -> str:
    """A stable short hash of plain data (``hash()`` changes from one Python process to the next)."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha1(text.encode()).hexdigest()[:10]


def _card_list(items: Iterable[Card]) -> str:
    return " ".join(str(c) for c in items) or "none"


def _parse_selection(response: Any) -> tuple[Card, ...] | None:
    """Cards from a learner's response, or None if it is not cards at all (never raises)."""
    if isinstance(response, Card):
        return (response,)
    if isinstance(response, (bytes, bytearray, Mapping)) or not isinstance(response, (str, Iterable)):
        return None
    try:
        return tuple(cards(response))
    except (SpadesError, TypeError):
        return None


def _check_cards(rules: Rules, what: str, items: Iterable[Card], *, least: int = 1, most: int = 13) -> None:
    """A position's cards must be distinct cards of the rule set's deck, and not too few or many."""
    items = tuple(items)
    if not least <= len(items) <= most:
        span = f"{least} to {most}" if least != most else str(least)
        raise SpadesError(f"{what} needs {span} cards, not {len(items)} ({_card_list(items)})")
    stray = [c for c in items if not rules.in_deck(c)]
    if stray:
        raise SpadesError(
            f"{what}: {_card_list(stray)} {'is' if len(stray) == 1 else 'are'} not in the {rules.name} deck"
        )
    if len(set(items)) != len(items):
        raise SpadesError(f"{what}: a card appears twice in {_card_list(items)}")


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

    def __post_init__(self) -> None:
        _check_cards(self.rules, "a legal-plays hand", self.hand)
        _check_cards(self.rules, "the trick so far", self.trick, least=0, most=3)
        both = set(self.hand) & set(self.trick)
        if both:
            raise SpadesError(f"{_card_list(both)} cannot be both in the hand and in the trick")

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
        chosen = _parse_selection(response)
        right = self.answer()
        correct = chosen is not None and set(chosen) == set(right)
        illegal = [c for c in self.hand if c not in right]
        rules = self.rules
        if illegal:
            because = str(why_illegal(rules, self.hand, illegal[0], self.trick, self.spades_broken))
        elif self.trick:
            led = rules.suit_of(self.trick[0])
            if any(rules.suit_of(c) == led for c in self.hand):
                because = f"Every card you hold counts as a {led.singular}, the suit led, so you may play any of them."
            else:
                because = f"You hold no card that counts as a {led.singular}, so you may play any card."
        elif self.spades_broken:
            because = "Spades are broken, so you may lead any card."
        elif all(rules.is_trump(c) for c in self.hand):
            because = "You hold nothing but trumps, so you may lead one even though spades are not broken."
        else:
            because = "You hold no trump, so you may lead any card."
        return Feedback(correct, _card_list(right), (because,), self.reasons())

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


@dataclasses.dataclass(frozen=True, eq=False)
class HighestTrumpItem(QuizItem):
    """Pick the highest trump among these cards."""

    kind: ClassVar[str] = "highest-trump"
    rules: Rules
    choices: tuple[Card, ...]
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        _check_cards(self.rules, "a highest-trump question", self.choices)
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
        _check_cards(self.rules, "a trump-order question", self.choices, most=len(self.rules.trump_order()))
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


_WHOLE = re.compile(r"[+-]?\d{1,6}")


def _whole(value: Any) -> int:
    """A whole number a learner typed: an int, or text such as ``'-119'`` (never a bool or 71.5)."""
    if isinstance(value, bool):
        raise TypeError("a yes/no is not a number")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        text = value.strip().replace("−", "-")  # the minus sign some keyboards produce
        if _WHOLE.fullmatch(text):
            return int(text)
    raise ValueError(f"not a whole number: {value!r}")


def _team_answer(response: Any) -> dict[Team, tuple[int, int]]:
    """``{team: (points, bags)}`` (or ``{team: {"points": …, "bags": …}}``) from a response; raises on anything else."""
    if not isinstance(response, Mapping):
        raise TypeError("a score answer maps each team to its points and bags")
    out: dict[Team, tuple[int, int]] = {}
    for team, value in response.items():
        if isinstance(value, Mapping):
            points, bags = value["points"], value["bags"]
        elif isinstance(value, (list, tuple)) and len(value) == 2:
            points, bags = value
        else:
            raise TypeError(f"not points and bags: {value!r}")
        key = Team.parse(team) if isinstance(team, (str, Team)) else None
        if key is None or key in out:
            raise ValueError(f"not a team, or a team given twice: {team!r}")
        out[key] = (_whole(points), _whole(bags))
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
        rules = self.rules
        for seat, value in self.bids.items():
            bid = Bid.parse(value)
            if bid.blind and rules.blind_nil == "off":
                raise SpadesError(f"{Seat(seat)} bids blind nil, which the {rules.name} rules here do not allow")
            if bid.is_nil and not rules.nil:
                raise SpadesError(f"{Seat(seat)} bids nil, but this table plays without nil")
            if not bid.is_nil and not 1 <= bid.tricks <= 13:
                raise SpadesError(f"{Seat(seat)} bids {bid.tricks}: a bid is 1 to 13 tricks or nil")
        for team, n in self.bags.items():
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < rules.bag_limit:
                raise SpadesError(f"{Team.parse(team)} bags before the hand: {n!r} is not 0 to {rules.bag_limit - 1}")
        score_hand(rules, self.bids, self.tricks, self.bags)  # validates the rest of the position

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
        except (TypeError, ValueError, KeyError):  # SpadesError is a ValueError
            given = {}
        right = {t: (s.points, s.bags) for t, s in scores.items()}
        correct = all(given.get(t) == right[t] for t in Team)
        detail = {t.short: "; ".join(str(line) for line in s.lines) or "nothing scored" for t, s in scores.items()}
        words = ", ".join(f"{t.label} {signed(p)} with {b} bag{'s' if b != 1 else ''}" for t, (p, b) in right.items())
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

    def __post_init__(self) -> None:
        _check_cards(self.rules, "a sure-tricks hand", self.hand)

    @property
    def prompt(self) -> str:
        return "How many sure tricks does this hand hold?"

    def answer(self) -> int:
        return sure_trick_count(self.rules, self.hand)

    def check(self, response: Any) -> Feedback:
        try:
            given = _whole(response)
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
    """Rebuild an item from ``to_dict()`` output (or a lesson's quiz block).

    Anything malformed raises ``SpadesError`` (a ``ValueError``) naming what is wrong.
    """
    if not isinstance(data, Mapping):
        raise SpadesError(f"a quiz item is a mapping of its fields, not {type(data).__name__}")
    kind = data.get("kind")
    if kind not in ITEM_KINDS:
        raise SpadesError(f"unknown quiz kind {kind!r}; the kinds are {', '.join(ITEM_KINDS)}")
    try:
        return _item_from_dict(kind, data)
    except SpadesError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError) as e:
        raise SpadesError(f"malformed {kind} quiz item ({type(e).__name__}: {e})") from e


def _item_from_dict(kind: str, data: Mapping[str, Any]) -> QuizItem:
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
