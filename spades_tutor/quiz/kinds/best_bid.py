"""What would you bid: a hand at South, the dealer named, and a bid to give: nil (typed 0) or 1 to 13.

The answer is measured: the hand is played ``BID_DEALS`` times by the heuristic bots
(``bid_odds``: ``hand_odds`` for the number bids and, where the table plays nil, again as a
nil; seed ``BID_SEED``, the dealer fixed), and each bid is judged by the side's expected
points over the game (``valuation_words``: a bag scores its point but brings the bag penalty
a ``bag_limit``-th nearer). The best bid scores most. A bid is right when its 95% interval
overlaps the best bid's: the measurement cannot tell it from the best. The feedback says so
in words ("3 scores about as well as 2: +40 against +43") and plots what every bid scores,
with its 95% interval (``bid_plot``). The judge is the heuristic bots' play, and the feedback
says so. (Blind nil is not asked: the hand is seen before the bid.)

Levels (by how many trumps the hand holds, the hardest thing to value):
    1. two trumps or fewer;
    2. three or four trumps;
    3. five trumps or more.

Items are chosen so that a level has no answer right on most of its items: each seed draws the
best bid to find from its level's ``TARGETS`` (nil only at a table that plays it), and hands are
drawn until one whose measured best bid is that target is also clear (``clear``: at most the
level's ``MAX_ACCEPTED`` bids counted right). ``likely_tricks`` screens the hands first, then half
the measurement (the number bids, or the nil) before the other half, so that few are measured; after ``MAX_MEASURED`` hands the first clear one is taken whatever its best bid (after
``FALLBACK_AFTER`` times as many, the one with the fewest bids counted right: a house rule can make every bid score alike).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ...engine import Card, Rank, Rules, Seat, Suit, cards, likely_tricks, nil_advice, sure_trick_count
from ...engine.round import uniform_below
from ...engine.text import how_often, likely, signed, signed_points
from ...measured import how_measured
from ..ahead import AHEAD, Ahead
from ..base import (
    Caption,
    Feedback,
    FeedbackView,
    NumberField,
    Numbers,
    Plot,
    PositionReader,
    QuizItem,
    ShowCards,
    ViewSpec,
    check_cards,
    whole_answer,
)
from ..misconceptions import Misconception
from ..seeded import quiz_rng, random_hands, shuffled_copy
from . import register

if TYPE_CHECKING:
    from ...lab.odds import BidOdds, HandOdds

__all__ = ["BID_DEALS", "BID_SEED", "BID_VALUATION", "JUDGE", "MAX_ACCEPTED", "TARGETS", "BestBidItem"]

BID_DEALS = 400
BID_SEED = 0
#: what a bag is worth when bids are compared (``lab.odds.VALUATIONS``): points over the game
BID_VALUATION = "game"
#: who decided, in the feedback's words
JUDGE = "the computer players"
#: per level, a generated item counts at most this many bids right (more: the measurement cannot pick
#: an answer); hands with more trumps score alike over more bids, so two would let one answer game a level
MAX_ACCEPTED: dict[int, int] = {1: 2, 2: 1, 3: 1}
#: the best bids a level's items are drawn to have (0 = nil, only where the table plays nil)
TARGETS: dict[int, tuple[int, ...]] = {1: (0, 1, 2, 3), 2: (0, 2, 3, 4), 3: (3, 4, 5, 6)}
#: hands measured for one item before the generator settles for a clear one with another best bid
MAX_MEASURED = 16
#: a table where no hand is clear after this many times ``MAX_MEASURED`` hands gets the narrowest found
FALLBACK_AFTER = 4
#: a nil is screened out when ``likely_tricks`` expects more tricks than this
NIL_MOST_LIKELY = 1.5
#: or when it is made less often than this (a nil made half the time is worth nothing on average)
NIL_LEAST_MADE = 0.5


@functools.lru_cache(maxsize=4096)
def _played(rules: Rules, hand: tuple[Card, ...], dealer: Seat, nil: bool) -> HandOdds:
    """The hand played with a number bid, or as a nil: half of ``bid_odds`` (the generator screens
    a hand by the half that can rule it out, and measures the other half only if it passes); taken
    from what the generator measured ahead where it did."""
    ahead = _AHEAD.take((rules, hand, dealer, nil))
    if ahead is not None:
        return ahead
    from ...lab.odds import hand_odds  # the simulator loads only when a hand is measured

    return hand_odds(rules, hand, Seat.SOUTH, BID_DEALS, BID_SEED, nil=nil, dealer=dealer, valuation=BID_VALUATION)


#: halves the generator measured together, until ``_played`` asks for them
_AHEAD: Ahead[HandOdds] = Ahead()


@functools.lru_cache(maxsize=32)
def _played_together(
    rules: Rules, hands: tuple[tuple[Card, ...], ...], dealer: Seat, nil: bool
) -> tuple[HandOdds, ...]:
    """``_played`` for each of ``hands``, played in one batch (each result the same)."""
    from ...lab.odds import hands_odds

    return hands_odds(rules, hands, Seat.SOUTH, BID_DEALS, BID_SEED, nil=nil, dealer=dealer, valuation=BID_VALUATION)


def _played_ahead(rules: Rules, hands: Sequence[tuple[Card, ...]], dealer: Seat, nil: bool) -> tuple[HandOdds, ...]:
    """``hands``' half measured together and left for ``_played``."""
    if not hands:
        return ()
    together = _played_together(rules, tuple(hands), dealer, nil)
    for hand, odds in zip(hands, together, strict=True):
        _AHEAD.put((rules, hand, dealer, nil), odds)
    return together


def _half_allows(half: HandOdds, target: int) -> bool:
    """Whether the screening half leaves ``target`` possible as the best bid: for nil, a nil made at
    least half the time (worth less than nothing otherwise); for a number, the best number bid."""
    if target == 0:
        return half.p_zero >= NIL_LEAST_MADE
    points = half.points
    return max(sorted(points), key=lambda b: points[b]) == target


def _measure_ahead(rules: Rules, hands: Sequence[tuple[Card, ...]], dealer: Seat, target: int, measured: int) -> None:
    """What ``generate`` will ask of ``hands`` (the next candidates, ``measured`` hands measured before
    them), measured together: the half that can rule a hand out, then the other half of the hands it
    leaves (of every hand from the ``MAX_MEASURED``-th on, which is not ruled out)."""
    keys = [_sorted(hand) for hand in hands]
    screen = target == 0
    halves = _played_ahead(rules, keys, dealer, screen)
    if screen or rules.nil:  # the other half: the number bids after a nil screen, else the nil (where played)
        left = [
            key
            for n, (key, half) in enumerate(zip(keys, halves, strict=True))
            if measured + n + 1 >= MAX_MEASURED or _half_allows(half, target)
        ]
        _played_ahead(rules, left, dealer, not screen)


def _sorted(hand: Sequence[Card]) -> tuple[Card, ...]:
    """A hand as the measurements are keyed: its cards in index order."""
    return tuple(sorted(hand, key=lambda c: c.index))


@functools.lru_cache(maxsize=4096)
def _measured(rules: Rules, hand: tuple[Card, ...], dealer: Seat) -> BidOdds:
    """``bid_odds(rules, hand, dealer=dealer)``, its halves cached."""
    from ...lab.odds import BidOdds

    return BidOdds(_played(rules, hand, dealer, False), _played(rules, hand, dealer, True) if rules.nil else None)


# --- the kind's wrong beliefs: a wrong answer one of them gives is named (``QuizItem.misconceptions``) ---


# The best bid is a measurement (``BestBidItem.bids``); a premise is named only for a bid outside
# the accepted ones, and only on the side it describes: an under-bid is below every number bid
# counted right, an over-bid above every bid counted right (nil counting as 0), a nil missed is a
# number bid where nil scores best, a nil reached for is nil where it is not counted right.


def _whole_pts(value: float) -> str:
    return signed(round(value) + 0)


def _under(item: Any, bid: int) -> int | None:
    """``bid`` if it is an under-bid: a number below every number bid counted right."""
    numbers = [b for b in item.accepted() if b > 0]
    return bid if numbers and 1 <= bid < min(numbers) else None


def _over(item: Any, bid: int) -> int | None:
    """``bid`` if it is an over-bid: a number above every bid counted right."""
    return bid if 1 <= bid <= 13 and bid > max(item.accepted()) else None


def _mean(counts: Sequence[int]) -> float:
    return sum(k * n for k, n in enumerate(counts)) / max(1, sum(counts))


def _best_number(item: Any) -> int:
    """The number bid that scores most (a player who never thinks of nil bids it)."""
    points = item.odds().points
    return max(sorted(points), key=lambda b: points[b])  # type: ignore[no-any-return]


def _nil_missed(item: Any) -> int | None:
    """Deviation: the best number bid, where nil scores best and that number is not counted right."""
    if item.answer() != 0:
        return None
    bid = _best_number(item)
    return None if bid in item.accepted() else bid


def _nil_missed_says(item: Any) -> str:
    bids = item.bids()
    bid = _best_number(item)
    return (
        f"This hand is worth more as a nil: the bots made the nil {_often(bids)}, "
        f"{_whole_pts(bids.points[0])} points to the side on average, against {_whole_pts(bids.points[bid])} for a bid "
        f"of {bid}, the best number."
    )


def _nil_reached(item: Any) -> int | None:
    """Deviation: nil bid because the hand holds no sure trick, where nil is not counted right."""
    if not item.rules.nil or 0 in item.accepted() or sure_trick_count(item.rules, item.hand) > 0:
        return None
    return 0


def _nil_reached_says(item: Any) -> str:
    bids = item.bids()
    best = bids.best_bid
    return (
        f"Holding no sure trick does not make a nil pay: the bots made this nil {_often(bids)}, "
        f"{_whole_pts(bids.points[0])} points to the side on average, against {_whole_pts(bids.points[best])} "
        f"for a bid of {best}."
    )


def _sure_only(item: Any) -> int | None:
    """Deviation: only the sure tricks bid (the engine's count), an under-bid."""
    return _under(item, sure_trick_count(item.rules, item.hand))


def _sure_only_says(item: Any) -> str:
    return (
        f"You bid only the sure tricks: high side cards and spare trumps win tricks too. This hand took "
        f"{_mean(item.odds().seat_tricks):.1f} tricks on average in the deals measured."
    )


def _high_cards(item: Any) -> int | None:
    """Deviation: every ace, every king and every trump above the K♠ counted as a trick, an over-bid."""
    order = item.rules.trump_order()
    king = order.index(Card(Rank.KING, Suit.SPADES)) if Card(Rank.KING, Suit.SPADES) in order else 0
    high = [
        c
        for c in item.hand
        if (item.rules.is_trump(c) and order.index(c) <= king) or (not c.is_joker and c.rank in (Rank.ACE, Rank.KING))
    ]
    return _over(item, len(high)) if high else None


def _high_cards_says(item: Any) -> str:
    return (
        "Not every ace, king and high trump is a trick: a king loses to its ace, a side card to a trump, a "
        f"trump to a higher one. This hand took {_mean(item.odds().seat_tricks):.1f} tricks on average in "
        "the deals measured."
    )


def _side_tricks(item: Any) -> int | None:
    """Deviation: the side's tricks bid, as if partner's were this hand's, an over-bid."""
    return _over(item, round(_mean(item.odds().team_tricks)))


def _side_tricks_says(item: Any) -> str:
    odds = item.odds()
    return (
        f"That is about what your side takes together ({_mean(odds.team_tricks):.1f} tricks on average): "
        f"bid your own hand's tricks ({_mean(odds.seat_tricks):.1f}); your partner bids theirs."
    )


MISCONCEPTIONS: tuple[Misconception, ...] = (
    Misconception("nil-missed", _nil_missed, _nil_missed_says),
    Misconception("nil-without-sure-trick", _nil_reached, _nil_reached_says),
    Misconception("sure-tricks-only", _sure_only, _sure_only_says),
    Misconception("every-high-card", _high_cards, _high_cards_says),
    Misconception("side-tricks", _side_tricks, _side_tricks_says),
)


@register
@dataclasses.dataclass(frozen=True, eq=False)
class BestBidItem(QuizItem):
    """What would you bid with this hand (South, the dealer given)?"""

    kind: ClassVar[str] = "best-bid"
    title: ClassVar[str] = "What would you bid?"
    misconceptions: ClassVar[tuple[Misconception, ...]] = MISCONCEPTIONS
    order: ClassVar[int] = 80
    levels: ClassVar[Mapping[int, str]] = {
        1: "Hands with two trumps or fewer.",
        2: "Hands with three or four trumps.",
        3: "Hands with five trumps or more.",
    }
    position_keys: ClassVar[tuple[frozenset[str], frozenset[str]]] = (
        frozenset({"hand"}),
        frozenset({"dealer"}),
    )
    rules: Rules
    hand: tuple[Card, ...]
    dealer: Seat = Seat.WEST
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        check_cards(self.rules, "a hand to bid", self.hand, least=13, most=13)

    @property
    def prompt(self) -> str:
        return f"You sit South and {_dealt(self.dealer)}. What would you bid ({_choices(self.rules)})?"

    def _key(self) -> tuple[Card, ...]:
        return _sorted(self.hand)

    def may_be(self, target: int) -> bool:
        """Whether half the measurement leaves ``target`` possible as the best bid (``_half_allows``)."""
        return _half_allows(_played(self.rules, self._key(), self.dealer, target == 0), target)

    def bids(self) -> BidOdds:
        """Every bid measured: the number bids and, where the table plays nil, the nil (cached per rule
        set, hand and dealer)."""
        return _measured(self.rules, self._key(), self.dealer)

    def odds(self) -> HandOdds:
        """The hand played with a number bid (the tricks it took, the side's points per bid 1..13)."""
        return self.bids().number

    def answer(self) -> int:
        """The best bid (0 = nil)."""
        return self.bids().best_bid

    def accepted(self) -> tuple[int, ...]:
        """The bids counted right (0 = nil): those whose 95% interval overlaps the best bid's."""
        return self.bids().accepted

    def clear(self) -> bool:
        """Whether the measurement picks out an answer: at most the level's ``MAX_ACCEPTED`` bids counted right."""
        return len(self.accepted()) <= MAX_ACCEPTED.get(self.difficulty, 1)

    def check(self, response: Any) -> Feedback:
        given = self.given(response)
        bids = self.bids()
        accepted = self.accepted()
        best = bids.best_bid
        others = [b for b in accepted if b != best]
        right = f"{_word(best)} (or {_or(others)})" if others else _word(best)
        lines = [
            f"Judged by {JUDGE}: they played this hand from South ({_dealt(self.dealer)}) against shuffled "
            f"cards, each bid valued as {_valuation(self.rules)}.",
            f"{_cap(_word(best))} scores best: about {_pts(bids.points[best])} points to the side on average "
            f"({_likely(bids, best)}){_made(bids, best)}.",
        ]
        for b in others:
            lines.append(
                f"{_cap(_word(b))} scores about as well as {_word(best)}: {_pts(bids.points[b])} against "
                f"{_pts(bids.points[best])}; their likely ranges overlap ({_span(bids, b)} and "
                f"{_span(bids, best)}), so {_word(b)} counts as right too."
            )
        if bids.nil is not None and 0 not in accepted and given != 0:
            lines.append(f"Nil scores {_worth(bids, 0)}{_made(bids, 0)}.")
        if given is not None and given in bids.points and given not in accepted:
            digits = _digits_apart(bids, given)
            lines.append(
                f"{'Your nil' if given == 0 else f'Your bid of {given}'} scores about {_pts(bids.points[given], digits)} "
                f"({_likely(bids, given, digits)}){_made(bids, given)}: its likely range lies wholly below "
                f"{_word(best)}'s ({_span(bids, best, digits)}), so it counts as wrong."
            )
        elif given == 0 and not self.rules.nil:
            lines.append("This table plays without nil: bid 1 to 13.")
        if self.rules.min_team_bid:
            lines.append(_team_minimum(self.rules, self.dealer))
        correct = given is not None and given in accepted
        diagnosis = None if correct else self.diagnose(response)
        return Feedback(correct, right, tuple(lines), diagnosis=diagnosis, measured=self.method())

    def method(self) -> tuple[str, ...]:
        """How the bids were measured (the feedback's "How was this measured?"): the deals, the
        players, the seed, how a bid counts as right, the interval."""
        nil = (
            " Where the table plays nil, the hand was played again as a nil over the same deals."
            if self.rules.nil
            else ""
        )
        return how_measured(
            deals=self.bids().deals,
            what="of this hand",
            seed=BID_SEED,
            more=(
                f"Each bid's figure is the side's points on average over those deals, had South bid it.{nil}",
                "A bid counts as right when its likely range overlaps the best bid's: these deals cannot tell "
                "it from the best.",
            ),
        )

    def given(self, response: Any) -> int | None:
        """A bid read from a response: 0 (or the word nil) for nil, else a whole number."""
        if isinstance(response, str) and response.strip().lower() == "nil":
            return 0
        try:
            return whole_answer(response)
        except (TypeError, ValueError):
            return None

    def feedback_view(self, feedback: Feedback, selected: tuple[str, ...] = ()) -> FeedbackView:
        return FeedbackView(plot=points_plot(self.bids(), self.accepted()))

    def hint(self) -> str:
        nil = (
            " A hand that can take no trick may score most as a nil: a nil made is worth "
            f"{self.rules.nil_value}, failed it costs as much."
            if self.rules.nil
            else ""
        )
        return (
            "Count the tricks the hand should take: high trumps, side aces and kings that can win before "
            "they are trumped, and extra trumps to ruff a short suit. A set costs more than a bag, but a "
            f"bag costs too: it brings the bag penalty nearer.{nil}"
        )

    def position(self) -> dict[str, Any]:
        return {"hand": str(cards(self.hand)), "dealer": self.dealer.name}

    # --- answers to try: the kind's own candidates for the checks every kind passes ---------------

    def wrong_answers(self, rng: random.Random) -> Iterator[Any]:
        for n in range(14):
            if n not in self.accepted():
                yield n
                yield str(n)
        yield "a few"

    def likely_answers(self, rng: random.Random) -> Iterator[Any]:
        yield from range(0, 14)  # 0: nil

    @classmethod
    def generate(cls, rules: Rules, seed: int, difficulty: int) -> BestBidItem:
        """A hand of the level whose measured best bid is the seed's target, and clear (see the module)."""
        rng = quiz_rng("best-bid", seed, difficulty)
        dealer = tuple(Seat)[uniform_below(rng, 4)]
        target = _target(rules, seed, difficulty)
        fallback: BestBidItem | None = None  # the first of the fewest bids counted right
        measured = 0
        candidates = (
            rules.sort_hand(hand)
            for hand in random_hands(rules, rng)
            if _bid_level(rules, hand) == difficulty and _may_be(rules, hand, target)
        )
        for size in itertools.chain(AHEAD, itertools.repeat(AHEAD[-1])):
            chunk = list(itertools.islice(candidates, size))  # (the hands never end)
            _measure_ahead(rules, chunk, dealer, target, measured)  # the same answers, a batch at a time
            for hand in chunk:
                item = cls(rules, hand=hand, dealer=dealer, seed=seed, difficulty=difficulty)
                measured += 1
                if not item.may_be(target) and measured < MAX_MEASURED:
                    continue
                if item.clear() and item.answer() == target:
                    return item
                if fallback is None or len(item.accepted()) < len(fallback.accepted()):
                    fallback = item
                # a target this rule set rarely gives: a clear item; a table where every bid scores alike
                # (house rules can make it so): the narrowest found
                if (measured >= MAX_MEASURED and fallback.clear()) or measured >= FALLBACK_AFTER * MAX_MEASURED:
                    return fallback
        raise AssertionError("unreachable: the hands never end")

    @classmethod
    def from_position(cls, rules: Rules, data: Mapping[str, Any], **common: Any) -> BestBidItem:
        dealer = Seat.parse(data.get("dealer", "W"))
        return cls(rules, hand=cards(data["hand"]), dealer=dealer, **common)

    @classmethod
    def lesson_position(cls, rules: Rules, block: PositionReader) -> dict[str, Any]:
        return {"hand": block.cards("hand", 13, 13), "dealer": Seat.parse(block.value("dealer", "W")).name}

    def view(self) -> ViewSpec:
        nil = self.rules.nil
        bid = NumberField("bid", "Your bid:", min=0 if nil else 1, max=13, width=4)
        return ViewSpec(
            (
                Caption(f"South's hand; {_dealt(self.dealer)}." + (" Type 0 to bid nil." if nil else "")),
                ShowCards(self.hand, "the hand"),
                Numbers((bid,), _bid_response),
            )
        )


@functools.lru_cache(maxsize=64)
def _team_minimum(rules: Rules, dealer: Seat) -> str:
    """At a table with a least team bid: how it binds North–South with this dealer, in the engine's words
    (``Round.team_minimum_words`` as North–South's first bidder hears it), and how the measurement counts a
    bid under it."""
    from ...engine import Round

    rnd = Round.deal(rules, seed=0, dealer=dealer)
    while rnd.to_act not in (Seat.NORTH, Seat.SOUTH):
        rnd.bid(rnd.legal_bids()[0])
    words = rnd.team_minimum_words() or ""
    if rnd.to_act is Seat.NORTH:
        words += (
            " Where North's bid leaves South a least bid, a bid under it is counted, in that deal, as the least"
            " bid South may make."
        )
    return words


def _dealt(dealer: Seat) -> str:
    return "you dealt" if dealer == Seat.SOUTH else f"{dealer.label} dealt"


def _bid_response(values: Mapping[str, int]) -> int:
    return values["bid"]


def _bid_level(rules: Rules, hand: Sequence[Card]) -> int:
    trumps = sum(1 for c in hand if rules.is_trump(c))
    return 1 if trumps <= 2 else 2 if trumps <= 4 else 3


def _choices(rules: Rules) -> str:
    return "nil, typed 0, or 1 to 13" if rules.nil else "1 to 13"


def _may_be(rules: Rules, hand: Sequence[Card], target: int) -> bool:
    """A cheap screen before measuring: could ``target`` be this hand's best bid? A nil needs a hand
    with no sure trick and no card ``nil_advice`` calls a certain loser; a number bid needs the
    ``likely_tricks`` estimate within a trick of it."""
    estimate = sum(t.value for t in likely_tricks(rules, hand))
    if target == 0:
        return (
            estimate <= NIL_MOST_LIKELY
            and sure_trick_count(rules, hand) == 0
            and not nil_advice(rules, hand).impossible
        )
    return abs(estimate - target) <= 1


def _target(rules: Rules, seed: int, difficulty: int) -> int:
    """The best bid seed ``seed`` looks for: each run of ``len(targets)`` seeds asks every target of the
    level once, in an order shuffled per run (so a level's answers are balanced, not a visible cycle)."""
    targets = tuple(t for t in TARGETS[difficulty] if rules.nil or t > 0)
    run, place = divmod(seed, len(targets))
    return shuffled_copy(quiz_rng("best-bid/targets", run, difficulty), targets)[place]


def _or(items: Sequence[int]) -> str:
    words = [_word(i) for i in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _word(bid: int) -> str:
    return "nil" if bid == 0 else str(bid)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _pts(value: float, digits: int = 0) -> str:
    """Points as the feedback writes them: ``'+43'``, ``'−2'`` (a real minus sign, never ``'−0'``)."""
    return signed_points(value, digits)


def _span(bids: BidOdds, bid: int, digits: int = 0) -> str:
    low, high = bids.points_interval[bid]
    return f"{_pts(low, digits)} to {_pts(high, digits)}"


def _likely(bids: BidOdds, bid: int, digits: int = 0) -> str:
    """A bid's measured points as a learner reads their interval: "likely between +26 and +41"."""
    low, high = bids.points_interval[bid]
    return likely(_pts(low, digits), _pts(high, digits))


def _digits_apart(bids: BidOdds, bid: int) -> int:
    """The fewest decimals that show ``bid``'s interval ending below the best bid's (whole points
    almost always; rounded, two ends a fraction of a point apart could print as one)."""
    high, best_low = bids.points_interval[bid][1], bids.best_points_interval[0]
    return next((d for d in (0, 1, 2) if round(high, d) < round(best_low, d)), 3)


def _worth(bids: BidOdds, bid: int) -> str:
    return f"about {_pts(bids.points[bid])} ({_likely(bids, bid)})"


def _made(bids: BidOdds, bid: int) -> str:
    """For nil: how often it was made, as measured."""
    if bid != 0 or bids.nil is None:
        return ""
    return f", made {_often(bids)}"


def _often(bids: BidOdds) -> str:
    """How often the nil was made, as measured: "in about 28% of the deals (likely between 20% and
    37%)", or "almost never" / "almost always" where it rounds to 0% or 100%."""
    assert bids.nil is not None
    low, high = bids.nil.p_zero_interval
    return how_often(bids.nil.p_zero, low, high)


def _valuation(rules: Rules) -> str:
    from ...lab.odds import valuation_words

    return valuation_words(rules, BID_VALUATION)


def points_plot(odds: BidOdds, accepted: Sequence[int]) -> Plot:
    """What each bid scores (the side's mean points and 95% interval, as ``odds`` measured them),
    the accepted bids highlighted and the best marked; named by its one-line reading."""
    from ...lab.bid_plot import BID_PLOT_HEIGHT, bid_key, bid_reading, bid_spec

    return Plot(bid_spec(odds, accepted), bid_reading(odds, accepted), BID_PLOT_HEIGHT, bid_key(odds, accepted))
