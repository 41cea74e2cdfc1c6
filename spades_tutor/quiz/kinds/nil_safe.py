"""Is nil safe: would a nil bid be safe with this hand?

The answer is measured, not guessed: the hand is played as a nil ``NIL_DEALS`` times by the
heuristic bots (``hand_odds(..., nil=True)``, seed ``NIL_SEED``, so the same hand always
gives the same answer) and the nil is **safe** when it was made in ``SAFE`` (80%) of the
deals or more (the point estimate; the 95% interval is quoted beside it). At ``RISKY``
(50%) or less it is risky; between the two it is a gamble, and not safe either.

Levels (the generator's own seeded stream picks "yes" or "no" first, then draws hands
until one's measured rate fits the level, so answers are balanced but follow no pattern
in the seed):
    1. clear hands: made in 90% or more, or in 25% or less;
    2. plain hands: made in 80–90%, or in 25–50%;
    3. borderline hands: made in 80–88% (just safe), or in 50–80% (a gamble: not safe).

The explanation quotes the measurement and the rules of thumb (``nil_advice``), each
true for the hand shown.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...engine import (
    Card,
    Rank,
    Rules,
    Suit,
    cards,
    nil_advice,
    sure_trick_count,
)
from .. import misconceptions as catalogue
from ..base import (
    Choice,
    Feedback,
    PositionReader,
    QuizItem,
    ShowCards,
    ViewSpec,
    _check_cards,
)
from ..seeded import _hands, _rng
from . import register

__all__ = ["NIL_DEALS", "NIL_SEED", "RISKY", "SAFE", "NilSafeItem", "nil_levels", "nil_odds"]

#: a nil made this often or more is safe; this often or less, risky
SAFE = 0.80
RISKY = 0.50
#: the measurement: how many deals, from which seed (fixed: a hand's answer never changes)
NIL_DEALS = 400
NIL_SEED = 0
#: each level's bands of the measured rate, for "yes" and for "no": (low, high), low <= p < high
BANDS: Mapping[int, Mapping[bool, tuple[float, float]]] = {
    1: {True: (0.90, 1.01), False: (0.0, 0.2501)},
    2: {True: (SAFE, 0.90), False: (0.2501, RISKY + 0.0001)},
    3: {True: (SAFE, 0.88), False: (RISKY + 0.0001, SAFE)},
}
#: the generator screens hands a batch at a time with a short measurement, then measures in full
#: only those whose short rate is within ``SCREEN_SLACK`` of the level's band
SCREEN_HANDS = 16
SCREEN_DEALS = 40
SCREEN_SLACK = 0.15
#: after this many full measurements a hand with the wanted answer outside the level's band will do
MAX_MEASURED = 12


@functools.lru_cache(maxsize=4096)
def _measured(rules: Rules, hand: tuple[Card, ...]) -> tuple[float, float, float]:
    from ...lab.odds import hand_odds

    odds = hand_odds(_nil_rules(rules), hand, deals=NIL_DEALS, seed=NIL_SEED, nil=True)
    low, high = odds.p_zero_interval
    return odds.p_zero, low, high


def _nil_rules(rules: Rules) -> Rules:
    """The rule set a nil is measured at (a table without nil is judged as if it allowed nil)."""
    return rules if rules.nil else dataclasses.replace(rules, nil=True)


def nil_odds(rules: Rules, hand: Sequence[Card]) -> tuple[float, float, float]:
    """How often the bots made a nil with ``hand``: (rate, 95% interval low, high), cached per hand."""
    return _measured(rules, tuple(sorted(hand, key=lambda c: c.index)))


def nil_levels(p: float) -> set[int]:
    """The levels whose bands hold a rate ``p`` (none for a rate no level asks)."""
    return {level for level, bands in BANDS.items() for lo, hi in bands.values() if lo <= p < hi}


@register
@dataclasses.dataclass(frozen=True, eq=False)
class NilSafeItem(QuizItem):
    """Is a nil bid safe with this hand?"""

    kind: ClassVar[str] = "nil-safe"
    title: ClassVar[str] = "Is nil safe?"
    misconceptions: ClassVar[tuple[catalogue.Misconception, ...]] = catalogue.NIL_SAFE
    order: ClassVar[int] = 70
    levels: ClassVar[Mapping[int, str]] = {
        1: "Clear hands: nil made in 90% of deals or more, or in 25% or less.",
        2: "Plain hands: nil made in 80–90% of deals, or in 25–50%.",
        3: "Borderline hands: nil made in 80–88% of deals (just safe), or in 50–80% (a gamble).",
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

    def odds(self) -> tuple[float, float, float]:
        """The measured nil: (rate, 95% interval low, high)."""
        return nil_odds(self.rules, self.hand)

    def answer(self) -> bool:
        return self.odds()[0] >= SAFE

    def reasons(self) -> tuple[str, ...]:
        """The measurement, then the rules of thumb, each true for this hand."""
        p, low, high = self.odds()
        verdict = (
            f"safe ({_pct(SAFE)}% or more)"
            if p >= SAFE
            else f"risky ({_pct(RISKY)}% or less)"
            if p <= RISKY
            else f"a gamble, not safe (below {_pct(SAFE)}%, above {_pct(RISKY)}%)"
        )
        measured = (
            f"Nil made in {_pct(p)}% of {NIL_DEALS} deals of this hand (95% interval {_pct(low)}–{_pct(high)}%), "
            f"the heuristic bots playing all four seats: {verdict}."
        )
        advice = nil_advice(self.rules, self.hand)
        thumbs = list(advice.reasons) if not advice.safe else []
        thumbs += _long_suits(self.rules, self.hand)
        if not thumbs:
            return (measured, "Rules of thumb: " + advice.reasons[0])
        lines = [measured, *(f"Rule of thumb: {r}" for r in thumbs)]
        if p >= SAFE:
            lines.append("Here those dangers cost less than they seem: the others usually take those tricks first.")
        return tuple(lines)

    def given(self, response: Any) -> bool | None:
        if isinstance(response, str):
            return {"yes": True, "no": False, "true": True, "false": False, "y": True, "n": False}.get(
                response.strip().lower()
            )
        if isinstance(response, bool):
            return response
        return None

    def check(self, response: Any) -> Feedback:
        given = self.given(response)
        safe = self.answer()
        correct = given == safe
        diagnosis = None if correct else self.diagnose(response)
        return Feedback(correct, "yes" if safe else "no", self.reasons(), diagnosis=diagnosis)

    def hint(self) -> str:
        return (
            "A nil fails on the first trick its bidder takes. Look for cards that may be forced to win: "
            "high trumps, high cards in a short suit, and too few low cards to play under the others."
        )

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


def _pct(p: float) -> int:
    return round(100 * p)


_HONOURS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK)


def _long_suits(rules: Rules, hand: Sequence[Card]) -> list[str]:
    """A side suit of five cards or more holding two honours: once the others have run out of it,
    each of those honours may be left to win (the rules of thumb for single cards miss it)."""
    out = []
    for suit in (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS):
        held = sorted((c for c in hand if not rules.is_trump(c) and c.suit == suit), key=lambda c: -c.rank)
        high = [c for c in held if c.rank in _HONOURS]
        if len(held) >= 5 and len(high) >= 2:
            out.append(
                f"{len(held)} {suit.plural} with {' '.join(str(c) for c in high)}: once the others have no "
                f"{suit.plural} left, your high {suit.plural} can be left to win tricks."
            )
    return out


def _worth_measuring(rules: Rules, hand: Sequence[Card], want_safe: bool, difficulty: int) -> bool:
    """A cheap filter (never the answer): skip hands the measurement would surely not fit."""
    order = rules.trump_order()
    sure = sure_trick_count(rules, hand) > 0 or order[0] in hand
    problems = 0 if nil_advice(rules, hand).safe else len(nil_advice(rules, hand).reasons)
    if want_safe:
        return not sure and problems <= (1 if difficulty == 1 else 2)
    if difficulty == 1:
        return sure or problems >= 2
    return not sure and problems <= 2


def _nil_safe(rules: Rules, seed: int, difficulty: int) -> NilSafeItem:
    from ...lab.odds import nil_made_counts  # the simulator loads only when a nil is measured

    rng = _rng("nil-safe", seed, difficulty)
    want_safe = rng.random() < 0.5  # the seeded stream, not the seed's parity, picks the answer
    lo, hi = BANDS[difficulty][want_safe]
    fallback: tuple[Card, ...] | None = None
    measured = 0
    hands = _hands(rules, rng)
    while True:
        batch: list[tuple[Card, ...]] = []
        while len(batch) < SCREEN_HANDS:
            hand = next(hands)
            if _worth_measuring(rules, hand, want_safe, difficulty):
                batch.append(hand)
        screened = nil_made_counts(_nil_rules(rules), list(batch), deals=SCREEN_DEALS, seed=NIL_SEED)
        for hand, made in zip(batch, screened, strict=True):
            if not lo - SCREEN_SLACK <= made / SCREEN_DEALS < hi + SCREEN_SLACK:
                continue
            p = nil_odds(rules, hand)[0]  # the measurement that decides
            measured += 1
            if lo <= p < hi:
                return NilSafeItem(rules, hand=rules.sort_hand(hand), seed=seed, difficulty=difficulty)
            if fallback is None and (p >= SAFE) == want_safe and not RISKY < p < SAFE:
                fallback = hand  # the wanted answer, not borderline: used if the level's band is rare
        if measured >= MAX_MEASURED and fallback is not None:
            return NilSafeItem(rules, hand=rules.sort_hand(fallback), seed=seed, difficulty=difficulty)
