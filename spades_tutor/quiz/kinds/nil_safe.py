"""Is nil safe: would a nil bid be safe with this hand?

The answer is measured, not guessed. The judge today is the computer players: the hand is
played as a nil ``NIL_DEALS`` times (``hand_odds(..., nil=True)``, seed ``NIL_SEED``, so the same
hand always gives the same answer) with the heuristic bots in all four seats, the opponents
defending as strong players do (``bots.playing``, rule 3) and the partner covering the nil. The
explanation says so in words (``NilJudgement.sentence``); a second judge, perfect play by the
solver, would add its own ``NilJudgement`` line after it.

The verdict reads the same rounded figures the learner sees: the nil is **safe** when the
whole 95% interval is at ``SAFE`` (80%) or above; risky when the rate and its interval are at
``RISKY`` (50%) or below, a gamble between. A hand whose interval reaches both sides of 80% is
"a gamble": the deals measured cannot tell it from the line, so its answer is "not safe", and
the generator never asks such a hand (nor one straddling 50%).

Levels (the generator's own seeded stream picks "yes" or "no" for each block of four seeds,
two of each in a shuffled order, then draws hands until one's measured rate fits the level, so
answers are balanced but follow no pattern a learner can use):
    1. clear hands: made in 90% or more, or in 25% or less;
    2. plain hands: made in 80–89%, or in 26–50%;
    3. borderline hands: made in 80–89% (just safe), or in 51–79% (a gamble: not safe).

The explanation quotes the measurement, its judge and the rules of thumb (``nil_advice``), each
true for the hand shown and none promising more than the measurement shows.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ...engine import (
    Card,
    Rank,
    Rules,
    Suit,
    cards,
    nil_advice,
    sure_trick_count,
)
from ...engine.hand_eval import HIGH_TRUMPS_FOR_NIL, MANY_TRUMPS_FOR_NIL
from ...engine.text import how_often, number
from ...measured import how_measured
from ..ahead import AHEAD, Ahead
from ..base import (
    Choice,
    Feedback,
    PositionReader,
    QuizItem,
    ShowCards,
    ViewSpec,
    check_cards,
)
from ..misconceptions import Misconception
from ..seeded import quiz_rng, random_hands
from . import register

if TYPE_CHECKING:
    from ...lab.odds import HandOdds

__all__ = [
    "NIL_DEALS",
    "NIL_SEED",
    "RISKY",
    "SAFE",
    "NilJudgement",
    "NilSafeItem",
    "nil_levels",
    "nil_odds",
    "nil_verdict",
    "straddles",
]

#: a nil made this often or more is safe; this often or less, risky
SAFE = 0.80
RISKY = 0.50
#: the measurement: how many deals, from which seed (fixed: a hand's answer never changes)
NIL_DEALS = 400
NIL_SEED = 0
#: each level's bands of the measured rate in whole percent as shown, for "yes" and for "no":
#: (low, high), low <= rate < high
BANDS: Mapping[int, Mapping[bool, tuple[int, int]]] = {
    1: {True: (90, 101), False: (0, 26)},
    2: {True: (80, 90), False: (26, 51)},
    3: {True: (80, 90), False: (51, 80)},
}
#: the generator screens hands a batch at a time with a short measurement, then measures in full
#: only those whose short rate is within ``SCREEN_SLACK`` of the level's band
SCREEN_HANDS = 16
SCREEN_DEALS = 40
SCREEN_SLACK = 0.15
#: after this many full measurements a hand with the wanted answer outside the level's band will do
MAX_MEASURED = 24


@functools.lru_cache(maxsize=4096)
def _measured(rules: Rules, hand: tuple[Card, ...]) -> tuple[float, float, float]:
    """How often the bots made a nil with ``hand`` (sorted by index), with its interval; taken from
    what the generator measured ahead where it did."""
    ahead = _AHEAD.take((rules, hand))
    if ahead is not None:
        return ahead
    from ...lab.odds import hand_odds

    return _rate(hand_odds(_nil_rules(rules), hand, deals=NIL_DEALS, seed=NIL_SEED, nil=True))


def _rate(odds: HandOdds) -> tuple[float, float, float]:
    low, high = odds.p_zero_interval
    return odds.p_zero, low, high


#: hands the generator measured together, until ``_measured`` asks for them
_AHEAD: Ahead[tuple[float, float, float]] = Ahead()


@functools.lru_cache(maxsize=32)
def _measured_together(rules: Rules, hands: tuple[tuple[Card, ...], ...]) -> tuple[tuple[float, float, float], ...]:
    """``_measured`` for each of ``hands``, played in one batch (each result the same)."""
    from ...lab.odds import hands_odds

    return tuple(_rate(odds) for odds in hands_odds(_nil_rules(rules), hands, deals=NIL_DEALS, seed=NIL_SEED, nil=True))


def _measure_ahead(rules: Rules, hands: Sequence[Sequence[Card]]) -> None:
    """``hands`` measured together and left for ``_measured``."""
    keys = tuple(tuple(sorted(hand, key=lambda c: c.index)) for hand in hands)
    if keys:
        for key, rate in zip(keys, _measured_together(rules, keys), strict=True):
            _AHEAD.put((rules, key), rate)


def _nil_rules(rules: Rules) -> Rules:
    """The rule set a nil is measured at (a table without nil is judged as if it allowed nil)."""
    return rules if rules.nil else dataclasses.replace(rules, nil=True)


def nil_odds(rules: Rules, hand: Sequence[Card]) -> tuple[float, float, float]:
    """How often the bots made a nil with ``hand``: (rate, 95% interval low, high), cached per hand."""
    return _measured(rules, tuple(sorted(hand, key=lambda c: c.index)))


def nil_levels(p: float) -> set[int]:
    """The levels whose bands hold a rate ``p`` (as shown, in whole percent; none for a rate no level asks)."""
    shown = _pct(p)
    return {level for level, bands in BANDS.items() for lo, hi in bands.values() if lo <= shown < hi}


def straddles(low: int, high: int) -> bool:
    """Whether a 95% interval (whole percent, as shown) reaches both sides of a verdict's line:
    80% (safe or not) or 50% (risky or a gamble). Such a hand's verdict would be sampling noise."""
    return low < _pct(SAFE) <= high or low <= _pct(RISKY) < high


def nil_verdict(rate: int, low: int, high: int) -> tuple[bool, str]:
    """(safe, the verdict in words) from the figures as shown: the rate and its 95% interval in
    whole percent. Safe only when the whole interval is at 80% or above.

    >>> nil_verdict(80, 76, 84)
    (False, 'a gamble, not safe: its likely range, 76% to 84%, reaches both sides of 80%, so these deals cannot show the nil safe')
    >>> nil_verdict(84, 80, 87)[0], nil_verdict(50, 45, 55)[1]
    (True, 'not safe: 50% is below 80%, risky or a gamble (its likely range, 45% to 55%, reaches both sides of 50%)')
    >>> nil_verdict(0, 0, 1)[1]
    'risky: made almost never, and its whole likely range is 50% or less'
    """
    safe, risky = _pct(SAFE), _pct(RISKY)
    if low >= safe:
        return True, f"safe: even the low end of its likely range, {low}%, is {safe}% or more"
    if high >= safe:
        return False, (
            f"a gamble, not safe: its likely range, {low}% to {high}%, reaches both sides of {safe}%, "
            "so these deals cannot show the nil safe"
        )
    if high <= risky:
        if rate <= 0:  # the figure beside it says "almost never", not "0%"
            return False, f"risky: made almost never, and its whole likely range is {risky}% or less"
        return False, f"risky: {rate}% and its whole likely range are {risky}% or less"
    if low > risky:
        return False, f"a gamble, not safe: {rate}% is below {safe}% and above {risky}%"
    return False, (
        f"not safe: {rate}% is below {safe}%, risky or a gamble "
        f"(its likely range, {low}% to {high}%, reaches both sides of {risky}%)"
    )


@dataclasses.dataclass(frozen=True)
class NilJudgement:
    """One judge's measurement of a nil: who judged, how, and the figures as shown.

    Today the computer players are the only judge; a second one (perfect play by the solver)
    is another ``NilJudgement`` with its own ``judge`` and ``how``, shown after the first.
    """

    judge: str  # "the computer players"
    how: str  # how the judge played the hand, in plain words
    deals: int
    rate: float  # the share of deals in which the nil was made
    low: float  # its 95% interval
    high: float
    seed: int | None = None  # the measurement's seed (said only behind "How was this measured?")
    players: str = ""  # who played the deals, for the disclosure ("": the judge)

    @property
    def shown(self) -> tuple[int, int, int]:
        """The rate and its interval in whole percent, exactly as the learner reads them."""
        return _pct(self.rate), _pct(self.low), _pct(self.high)

    def verdict(self) -> tuple[bool, str]:
        return nil_verdict(*self.shown)

    def figure(self) -> str:
        """The figure in plain words: "Nil made in about 28% of the deals of this hand (likely between
        20% and 37%)", or "almost never" / "almost always" where it rounds to 0% or 100%."""
        return "Nil made " + how_often(self.rate, self.low, self.high, of="the deals of this hand")

    def sentence(self) -> str:
        return f"Judged by {self.judge}: {self.how}."

    def method(self) -> tuple[str, ...]:
        """How the figure was measured: the deals, who played them, the seed, the interval."""
        return how_measured(deals=self.deals, what="of this hand", players=self.players or self.judge, seed=self.seed)


#: who played the deals, for "How was this measured?"
BOTS_PLAYERS = (
    "the computer players: the heuristic bots you play against on the Play page, in all four seats, the "
    "opponents defending against the nil and the partner covering it"
)
#: the judge who decides today (plain words for a learner)
BOTS_JUDGE = "the computer players"
BOTS_HOW = (
    "they play all four seats, the unseen cards shuffled for each deal. The opponents defend as strong players do: they lead low in the suits the nil bidder still holds, "
    "stay under the nil bidder's card when it is winning, and throw their own high cards once the nil "
    "bidder has played under another. The partner covers the nil by playing high"
)


# --- the kind's wrong beliefs: a wrong answer one of them gives is named (``QuizItem.misconceptions``) ---


# The answer is a measurement (``NilSafeItem.odds``); each premise is a judgement the hand's cards
# invite, and is named only where it gives the wrong answer.


def _sure_nil(item: Any) -> bool | None:
    """Believed: a sure trick can be ducked. The engine's count says it cannot."""
    return True if sure_trick_count(item.rules, item.hand) > 0 else None


def _sure_nil_says(item: Any) -> str:
    n = sure_trick_count(item.rules, item.hand)
    return (
        f"This hand is sure of {number(n)} trick{'s' if n > 1 else ''} whatever the others hold: "
        "a nil holding a sure trick always fails."
    )


def _side_dangers(item: Any) -> list[str]:
    """The engine's warnings about this hand's side aces and unguarded kings."""
    side = [str(c) for c in item.hand if not item.rules.is_trump(c)]
    return [r for r in nil_advice(item.rules, item.hand).reasons if r.split(" ", 1)[0] in side]


def _low_trumps(item: Any) -> bool:
    order = item.rules.trump_order()
    trumps = [c for c in item.hand if item.rules.is_trump(c)]
    return (
        sure_trick_count(item.rules, item.hand) == 0
        and all(order.index(c) >= HIGH_TRUMPS_FOR_NIL for c in trumps)
        and len(trumps) < MANY_TRUMPS_FOR_NIL
    )


def _trumps_only(item: Any) -> bool | None:
    """Believed: only trumps take a nil's tricks. With low trumps, the side cards are forgotten."""
    return True if _low_trumps(item) and _side_dangers(item) else None


def _trumps_only_says(item: Any) -> str:
    return f"Low trumps are not all a nil needs: {_side_dangers(item)[0]}"


def _looks_alone(item: Any) -> bool | None:
    """Believed: one warning card sinks the nil, whatever the measurement says."""
    advice = nil_advice(item.rules, item.hand)
    return False if not advice.safe and not advice.impossible else None


def _looks_alone_says(item: Any) -> str:
    judge = item.judgements()[0]  # the judge who decides, and its figures as shown
    return (
        f"A card that looks dangerous does not sink this nil by itself: {judge.judge} made it "
        f"{how_often(judge.rate, judge.low, judge.high)}; the others usually take those tricks first."
    )


MISCONCEPTIONS: tuple[Misconception, ...] = (
    Misconception("sure-trick-nil", _sure_nil, _sure_nil_says),
    Misconception("trumps-only-for-nil", _trumps_only, _trumps_only_says),
    Misconception("one-card-sinks-nil", _looks_alone, _looks_alone_says),
)


@register
@dataclasses.dataclass(frozen=True, eq=False)
class NilSafeItem(QuizItem):
    """Is a nil bid safe with this hand?"""

    kind: ClassVar[str] = "nil-safe"
    title: ClassVar[str] = "Is nil safe?"
    misconceptions: ClassVar[tuple[Misconception, ...]] = MISCONCEPTIONS
    order: ClassVar[int] = 70
    levels: ClassVar[Mapping[int, str]] = {
        1: "Clear hands: nil made in 90% of deals or more, or in 25% or less.",
        2: "Plain hands: nil made in 80–89% of deals, or in 26–50%.",
        3: "Borderline hands: nil made in 80–89% of deals (just safe), or in 51–79% (a gamble).",
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
        check_cards(self.rules, "a nil-safe hand", self.hand)

    @property
    def prompt(self) -> str:
        if not self.rules.nil:
            return "This table plays without nil, but judge the hand anyway: would a nil bid be safe with it?"
        return "Is a nil bid safe with this hand?"

    def odds(self) -> tuple[float, float, float]:
        """The measured nil: (rate, 95% interval low, high)."""
        return nil_odds(self.rules, self.hand)

    def judgements(self) -> tuple[NilJudgement, ...]:
        """The judges of this nil, the deciding one first (today only the computer players)."""
        p, low, high = self.odds()
        return (NilJudgement(BOTS_JUDGE, BOTS_HOW, NIL_DEALS, p, low, high, NIL_SEED, BOTS_PLAYERS),)

    def answer(self) -> bool:
        return self.judgements()[0].verdict()[0]

    def reasons(self) -> tuple[str, ...]:
        """The measurement and its verdict, who judged, then the rules of thumb, each true for this hand."""
        judges = self.judgements()
        safe, words = judges[0].verdict()
        lines = [f"{judges[0].figure()}: {words}.", judges[0].sentence()]
        for other in judges[1:]:  # a second judge's figure, beside the one that decides
            lines += [f"{other.figure()}: {other.verdict()[1]}.", other.sentence()]
        advice = nil_advice(self.rules, self.hand)
        thumbs = list(advice.reasons) if not advice.safe else []
        thumbs += _long_suits(self.rules, self.hand)
        if not thumbs:
            if safe:
                return (*lines, "Rules of thumb: " + advice.reasons[0])
            return (
                *lines,
                "Rules of thumb see no danger here (no sure trick, no high trump, few trumps, no side ace "
                "or unguarded king), yet the measurement shows the nil is set too often: the opponents can "
                "still force a middle card to win.",
            )
        lines += [f"Rule of thumb: {r}" for r in thumbs]
        if safe:
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
        method = tuple(dict.fromkeys(line for judge in self.judgements() for line in judge.method()))
        return Feedback(correct, "yes" if safe else "no", self.reasons(), diagnosis=diagnosis, measured=method)

    def hint(self) -> str:
        return (
            "A nil fails on the first trick its bidder takes. Look for cards that may be forced to win: "
            "high trumps, high cards in a short suit, and too few low cards to play under the others."
        )

    def position(self) -> dict[str, Any]:
        return {"hand": str(cards(self.hand))}

    # --- answers to try: the kind's own candidates for the checks every kind passes ---------------

    def right_forms(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        yield right
        yield "yes" if right else "no"
        yield "YES " if right else " No"

    def wrong_answers(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        yield not right
        yield "no" if right else "yes"

    def likely_answers(self, rng: random.Random) -> Iterator[Any]:
        yield from ("yes", "no")

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


def _wanted(seed: int, difficulty: int) -> bool:
    """Whether the item of ``seed`` should be safe: each block of four seeds holds two of each
    answer, in an order its own seeded stream shuffles (no constant answer fits most items)."""
    block = quiz_rng("nil-safe-block", seed // 4, difficulty)
    answers = [True, True, False, False]
    block.shuffle(answers)
    return answers[seed % 4]


def _fits(shown: tuple[int, int, int], lo: int, hi: int) -> bool:
    rate, low, high = shown
    return lo <= rate < hi and not straddles(low, high)


def _nil_safe(rules: Rules, seed: int, difficulty: int) -> NilSafeItem:
    from ...lab.odds import nil_made_counts  # the simulator loads only when a nil is measured

    rng = quiz_rng("nil-safe", seed, difficulty)
    want_safe = _wanted(seed, difficulty)
    lo, hi = BANDS[difficulty][want_safe]
    fallback: tuple[Card, ...] | None = None
    measured = 0
    hands = random_hands(rules, rng)
    sizes = itertools.chain(AHEAD, itertools.repeat(AHEAD[-1]))
    while True:
        batch: list[tuple[Card, ...]] = []
        while len(batch) < SCREEN_HANDS:
            hand = next(hands)
            if _worth_measuring(rules, hand, want_safe, difficulty):
                batch.append(hand)
        screened = nil_made_counts(_nil_rules(rules), list(batch), deals=SCREEN_DEALS, seed=NIL_SEED)
        passed = [
            hand
            for hand, made in zip(batch, screened, strict=True)
            if lo / 100 - SCREEN_SLACK <= made / SCREEN_DEALS < hi / 100 + SCREEN_SLACK
        ]
        upto = 0
        for n, hand in enumerate(passed):
            if n == upto:  # the next few measured together: the same answers, a batch at a time
                upto = n + next(sizes)
                _measure_ahead(rules, passed[n:upto])
            shown = tuple(_pct(x) for x in nil_odds(rules, hand))  # the measurement that decides
            measured += 1
            if _fits(shown, lo, hi):  # type: ignore[arg-type]
                return NilSafeItem(rules, hand=rules.sort_hand(hand), seed=seed, difficulty=difficulty)
            rate, low, high = shown
            safe = nil_verdict(rate, low, high)[0]
            if fallback is None and safe == want_safe and not straddles(low, high) and not 50 < rate < 80:
                fallback = hand  # the wanted answer, not borderline: used if the level's band is rare
        if measured >= MAX_MEASURED and fallback is not None:
            return NilSafeItem(rules, hand=rules.sort_hand(fallback), seed=seed, difficulty=difficulty)
