"""What one hand is worth, measured: ``hand_odds(rules, hand, seat, deals, seed, nil)`` -> ``HandOdds``.

The hand is dealt to its seat ``deals`` times; each time the rest of the rule set's deck is
shuffled and dealt to the other three seats, and the heuristic bots (``HeuristicPolicy``, the
batched twin of ``bots.HeuristicBot``) bid and play all four seats in the batched simulator.
The hand's own seat plays the bot's bid (never nil: where the bot would bid nil, it bids what
it would bid if nil were not allowed), or plays nil when ``nil=True``. Deal ``d`` depends only
on ``(rules, hand, seat, seed, d, dealer)``; by default each deal draws its own dealer, so the
hand is measured from every position at the table.

Points come from the engine's scoring (``score_hand``'s per-side step; the side's points in a
fresh game, no bags before): for each bid the play was measured for, with the partner's bid and
the tricks as they were in each deal. Intervals are 95%: Wilson for proportions, normal for means.

Two valuations (``VALUATIONS``) say what a bag is worth. ``"hand"``: the hand's own score, a bag
scoring its point and the bag penalty coming off only in the hand that reaches the limit (right
when the game can end before the count comes round again). ``"game"``: points over the game, each
bag also charged its share of the penalty it brings nearer, ``bag_penalty / bag_limit`` (10 points
of 100 for 10 bags), as a penalty reached later is still paid; a penalty reached this hand is not
charged twice. ``bid_odds`` measures a hand's number bids and its nil together, by ``"game"``.

>>> import spades_tutor as st
>>> rules = st.Rules.preset("jokers")
>>> odds = hand_odds(rules, st.cards("BJ AS KS QH 9H 5H KC 8C 4C 7D 6D 3D 3C"), deals=200, seed=1)
>>> sum(odds.seat_tricks) == 200 and odds.chance_at_least(st.sure_trick_count(rules, odds.hand)) == 1.0
True
>>> odds == hand_odds(rules, odds.hand, deals=200, seed=1)
True
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from statistics import NormalDist
from typing import TYPE_CHECKING, Literal, overload

import numpy as np
import numpy.typing as npt

from ..engine import BLIND_NIL, Bid, CardsLike, DealError, Hand, Rules, Seat, cards, full_pack
from ..engine.errors import SpadesError
from ..engine.scoring import HandScore, score_side
from ..engine.text import how_often, likely, signed_points
from .card_tables import bid_options_after, card_tables
from .heuristic import HeuristicPolicy
from .intervals import CONFIDENCE, wilson
from .simulate import DEFAULT_BATCH_SIZE
from .table import Table, bid_out, play_out
from .words import DEAL, DEALER, choose_many, round_words

__all__ = [
    "JUDGES",
    "PERFECT_NODES",
    "PERFECT_WORKERS",
    "VALUATIONS",
    "BidOdds",
    "HandOdds",
    "PerfectOdds",
    "bag_cost",
    "bid_odds",
    "game_points",
    "hand_odds",
    "hands_odds",
    "nil_made_counts",
    "valuation_words",
]

#: what a bag is worth (see the module docstring): the hand's own score, or points over the game
VALUATIONS = ("hand", "game")
#: how ``hand_odds`` plays each deal (``judge``): the heuristic bots at every seat, or perfect play
JUDGES = ("bots", "perfect")
#: the most search nodes ``judge="perfect"`` spends on one deal (two to three seconds on one core): a deal
#: the solver has not settled by then is counted as undecided and left out of every figure
PERFECT_NODES = 10_000_000
#: threads the perfect judge solves deals in (one core each: the compiled search lets go of the GIL)
PERFECT_WORKERS = 2


def bag_cost(rules: Rules) -> float:
    """What one bag costs over a game: its share of the penalty it brings nearer (``bag_penalty / bag_limit``).

    >>> import spades_tutor as st
    >>> bag_cost(st.Rules.preset("jokers")), bag_cost(st.Rules.preset("jokers", bag_limit=5, bag_penalty=50))
    (10.0, 10.0)
    """
    return rules.bag_penalty / rules.bag_limit


def game_points(rules: Rules, score: HandScore) -> float:
    """A side's hand valued over the game: its points with each bag taken charged ``bag_cost`` and the
    penalty this hand reached (if any) not charged again (its bags paid for it).

    >>> import spades_tutor as st
    >>> rules = st.Rules.preset("jokers")
    >>> bids, bags = {st.Seat.NORTH: 4, st.Seat.EAST: 2, st.Seat.SOUTH: 3, st.Seat.WEST: 1}, {st.Team.NS: 8}
    >>> greedy = st.score_hand(rules, bids, {st.Seat.NORTH: 5, st.Seat.EAST: 2, st.Seat.SOUTH: 4, st.Seat.WEST: 2}, bags)
    >>> greedy[st.Team.NS].points, game_points(rules, greedy[st.Team.NS])
    (-28, 52.0)
    """
    kept = sum(line.points for line in score.lines if line.kind != "penalty")
    return kept - score.new_bags * bag_cost(rules)


def valuation_words(rules: Rules, valuation: str) -> str:
    """What a bag counts for under ``valuation``, in a learner's words.

    >>> import spades_tutor as st
    >>> print(valuation_words(st.Rules.preset("jokers"), "game"))
    points over the game: a bag scores 1 but brings the 100-point penalty for 10 bags a tenth nearer, so it counts −9
    """
    if valuation == "hand":
        return (
            f"this hand's own score: a bag scores 1, and the {rules.bag_penalty}-point penalty counts only "
            f"in the hand that reaches {rules.bag_limit} bags"
        )
    if valuation == "game":
        share = "a tenth" if rules.bag_limit == 10 else f"1/{rules.bag_limit} of the way"
        return (
            f"points over the game: a bag scores 1 but brings the {rules.bag_penalty}-point penalty for "
            f"{rules.bag_limit} bags {share} nearer, so it counts {signed_points(1 - bag_cost(rules))}"
        )
    raise SpadesError(f"valuation must be one of {', '.join(VALUATIONS)}, not {valuation!r}")


_ONE = np.uint64(1)
_LOW6 = np.uint64(63)
_Z = NormalDist().inv_cdf(1 - (1 - CONFIDENCE) / 2)


def _interval(values: tuple[float, float]) -> tuple[float, float]:
    return float(values[0]), float(values[1])


class _BestBid:
    """The best of the bids measured, for a result with ``points`` and ``points_interval`` by bid."""

    if TYPE_CHECKING:  # a dataclass field or a cached property in each result

        @property
        def points(self) -> dict[int, float]: ...

        @property
        def points_interval(self) -> dict[int, tuple[float, float]]: ...

    @property
    def best_bid(self) -> int:
        """The measured bid with the most expected points for the side (0 = nil; ties: the lower bid,
        nil first)."""
        return max(sorted(self.points), key=lambda b: self.points[b])

    @property
    def best_points(self) -> float:
        return self.points[self.best_bid]

    @property
    def best_points_interval(self) -> tuple[float, float]:
        return self.points_interval[self.best_bid]


@dataclasses.dataclass(frozen=True)
class HandOdds(_BestBid):
    """One hand played ``deals`` times by the heuristic bots (see ``hand_odds``).

    ``seat_tricks[k]`` / ``team_tricks[k]``: in how many deals the seat / its side took ``k``
    tricks (k = 0..13). ``bids[k]``: in how many deals the seat bid ``k`` (0 = nil).
    ``outcomes``: each distinct ``(tricks, partner's bid, partner's blind nil, partner's tricks,
    deals)`` seen, the deals being how often. ``points[b]``: the side's mean points had the seat bid ``b`` (only the bids the play was
    measured for: 1..13, or nil alone when ``nil`` is true), valued by ``valuation``; at a table with a
    least team bid, a number bid under what the table lets the seat bid in a deal (its partner bid first)
    counts there as the least bid it lets the seat make, as the engine would have it;
    ``points_interval[b]`` its 95% interval. Equal seeds give equal results.
    """

    rules: Rules
    hand: Hand
    seat: Seat
    nil: bool
    deals: int
    seed: int
    dealer: Seat | None
    seat_tricks: tuple[int, ...]
    team_tricks: tuple[int, ...]
    bids: tuple[int, ...]
    outcomes: tuple[tuple[int, int, bool, int, int], ...]
    points: dict[int, float] = dataclasses.field(hash=False)
    points_interval: dict[int, tuple[float, float]] = dataclasses.field(hash=False)
    #: what a bag is worth in ``points`` (``VALUATIONS``)
    valuation: str = "hand"

    # --- proportions -----------------------------------------------------------------------

    def chance_at_least(self, tricks: int) -> float:
        """The share of deals in which the seat took ``tricks`` tricks or more."""
        return sum(self.seat_tricks[max(0, tricks) :]) / self.deals

    @property
    def p_zero(self) -> float:
        """The share of deals in which the seat took no trick."""
        return self.seat_tricks[0] / self.deals

    @property
    def p_zero_interval(self) -> tuple[float, float]:
        low, high = wilson(self.seat_tricks[0], self.deals)
        return _interval((low[0], high[0]))

    @property
    def p_nil_made(self) -> float | None:
        """P(nil made) when the seat played nil (a nil is made by taking no trick); else None."""
        return self.p_zero if self.nil else None

    @property
    def p_nil_made_interval(self) -> tuple[float, float] | None:
        return self.p_zero_interval if self.nil else None

    # --- means -----------------------------------------------------------------------------

    @property
    def mean_tricks(self) -> float:
        return _mean(self.seat_tricks)

    @property
    def mean_tricks_interval(self) -> tuple[float, float]:
        return _mean_interval(self.seat_tricks)

    @property
    def mean_team_tricks(self) -> float:
        return _mean(self.team_tricks)

    @property
    def mean_team_tricks_interval(self) -> tuple[float, float]:
        return _mean_interval(self.team_tricks)

    # --- words -----------------------------------------------------------------------------

    def sentence(self) -> str:
        """The result in one sentence.

        >>> import spades_tutor as st
        >>> hand = "QS 7S 3S KH 9H 4H AC 10C 6C 2C JD 7D 3D"
        >>> print(hand_odds(st.Rules.preset("classic"), hand, deals=100, nil=True))
        nil made in about 28% of the deals of this hand (likely between 20% and 37%)
        >>> print(hand_odds(st.Rules.preset("classic"), hand, deals=100))  # doctest: +NORMALIZE_WHITESPACE
        about 2.8 tricks on average over the deals of this hand (likely between 2.6 and 3.0); best bid 2, worth
        about +46 points to the side (likely between +38 and +54); no trick taken almost never (in fewer than 1 in
        100 of the deals; likely between 0% and 4%)

        How many deals, and from which seed, is said behind "How was this measured?" (``deals``, ``seed``).
        """
        low, high = self.p_zero_interval
        if self.nil:
            return "nil made " + how_often(self.p_zero, low, high, of="the deals of this hand")
        t_low, t_high = self.mean_tricks_interval
        b_low, b_high = self.best_points_interval
        return (
            f"about {self.mean_tricks:.1f} tricks on average over the deals of this hand "
            f"({likely(f'{t_low:.1f}', f'{t_high:.1f}')}); best bid {self.best_bid}, worth about "
            f"{signed_points(self.best_points)} points to the side ({likely(signed_points(b_low), signed_points(b_high))}); "
            f"no trick taken {how_often(self.p_zero, low, high)}"
        )

    def __str__(self) -> str:
        return self.sentence()


@dataclasses.dataclass(frozen=True)
class BidOdds(_BestBid):
    """Every bid a hand can make, measured over the same deals (``bid_odds``): the number bids played
    once (``number``: the side's points had the seat bid 1..13) and, at a table that plays nil, the
    hand played as a nil (``nil``). ``points[0]`` is the nil's. A bid is right when its 95% interval
    overlaps the best bid's (``accepted``): the bids the measurement cannot tell from the best.
    """

    number: HandOdds
    nil: HandOdds | None

    @functools.cached_property
    def points(self) -> dict[int, float]:
        return {**(self.nil.points if self.nil is not None else {}), **self.number.points}

    @functools.cached_property
    def points_interval(self) -> dict[int, tuple[float, float]]:
        return {**(self.nil.points_interval if self.nil is not None else {}), **self.number.points_interval}

    @property
    def rules(self) -> Rules:
        return self.number.rules

    @property
    def deals(self) -> int:
        return self.number.deals

    @property
    def valuation(self) -> str:
        return self.number.valuation

    def close(self, bid: int) -> bool:
        """Whether ``bid``'s 95% interval overlaps the best bid's (the best bid is close to itself)."""
        low, high = self.points_interval[bid]
        best_low, best_high = self.best_points_interval
        return low <= best_high and high >= best_low

    @functools.cached_property
    def accepted(self) -> tuple[int, ...]:
        """The bids counted right, lowest first (0 = nil): those ``close`` to the best."""
        return tuple(b for b in sorted(self.points) if self.close(b))

    def sentence(self) -> str:
        """The best bid and what it is worth, with the nil's made-rate where nil was measured.

        >>> import spades_tutor as st
        >>> hand = "QS 7S 3S KH 9H 4H AC 10C 6C 2C JD 7D 3D"
        >>> print(bid_odds(st.Rules.preset("classic"), hand, deals=100))  # doctest: +NORMALIZE_WHITESPACE
        best bid 2: about +34 points to the side on average over the deals of this hand (likely between +26 and
        +41); nil made in about 28% of them (likely between 20% and 37%), worth about −45 (likely between −66 and −24)
        """
        low, high = self.best_points_interval
        out = (
            f"best bid {bid_word(self.best_bid)}: about {signed_points(self.best_points)} points to the side on average "
            f"over the deals of this hand ({likely(signed_points(low), signed_points(high))})"
        )
        if self.nil is not None:
            made_low, made_high = self.nil.p_zero_interval
            nil_low, nil_high = self.nil.points_interval[0]
            out += (
                f"; nil made {how_often(self.nil.p_zero, made_low, made_high, of='them')}, "
                f"worth about {signed_points(self.nil.points[0])} ({likely(signed_points(nil_low), signed_points(nil_high))})"
            )
        return out

    def __str__(self) -> str:
        return self.sentence()


def bid_word(bid: int) -> str:
    """A bid as a learner reads it: ``'nil'`` for 0, else the number."""
    return "nil" if bid == 0 else str(bid)


def _mean(counts: tuple[int, ...]) -> float:
    return sum(k * c for k, c in enumerate(counts)) / sum(counts)


def _mean_interval(counts: tuple[int, ...]) -> tuple[float, float]:
    values = np.repeat(np.arange(len(counts), dtype=float), counts)
    low, high = _normal_interval(values)
    return max(0.0, low), min(13.0, high)


def _normal_interval(values: npt.NDArray[np.float64]) -> tuple[float, float]:
    mean = float(values.mean())
    half = _Z * float(values.std(ddof=1)) / math.sqrt(len(values)) if len(values) > 1 else float("inf")
    return mean - half, mean + half


# --- the simulation ---------------------------------------------------------------------------


class SeatBidsPolicy:
    """``HeuristicPolicy`` at every seat, except that ``seat`` bids nil (``nil``) or a number."""

    name = "heuristic"

    def __init__(self, seat: int, nil: bool, nil_defence: str = "strong") -> None:
        self.inner = HeuristicPolicy(nil_defence)
        self.seat = seat
        self.nil = nil

    def bid(self, table: Table, position: int) -> tuple[npt.NDArray[np.integer], npt.NDArray[np.bool_]]:
        n = len(table)
        at_seat = (table.dealer + 1 + position) % 4 == self.seat
        tricks = np.zeros(n, dtype=np.int8)
        blind = np.zeros(n, dtype=bool)
        rest = np.flatnonzero(~at_seat)
        if len(rest):
            tricks[rest], blind[rest] = self.inner.bid(_rows(table, rest), position)
        mine = np.flatnonzero(at_seat)
        if len(mine) and not self.nil:
            tricks[mine] = self._own_bid(table, mine, position)
        return tricks, blind

    def _own_bid(self, table: Table, rows: npt.NDArray[np.intp], position: int) -> npt.NDArray[np.integer]:
        """The bot's bid for the seat, never nil. The bot bids from its hand (the same in every deal of
        a hand, ``hands_odds`` playing several) and, from the third bid on, its partner's bid: so one
        deal per hand and partner's bid is asked."""
        partner = table.bids[rows, (self.seat + 2) % 4]  # still 0 where the partner bids later
        held = table.dealt[rows, self.seat]
        keys = np.stack([held, partner.astype(np.uint64)], axis=1)
        _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
        asked = rows[first]
        number, _ = self.inner.bid(_rows(table, asked), position)
        if (number == 0).any():  # it would bid nil: what it bids were nil not allowed
            again, _ = self.inner.bid(_rows(table, asked, _without_nil(table.rules)), position)
            number = np.where(number == 0, again, number)
        return number[inverse.reshape(-1)]

    def play(self, table: Table, legal: npt.NDArray[np.uint64]) -> npt.NDArray[np.intp]:
        return self.inner.play(table, legal)


@functools.lru_cache(maxsize=32)
def _without_nil(rules: Rules) -> Rules:
    return dataclasses.replace(rules, nil=False)


def _rows(table: Table, rows: npt.NDArray[np.intp], rules: Rules | None = None) -> Table:
    """A table of some of ``table``'s deals as they stand (for bidding: the bids so far are copied)."""
    part = Table(
        table.rules if rules is None else rules,
        table.tables,
        table.words[rows],
        table.dealer[rows],
        table.dealt[rows],
        table.hands[rows],
        table.dealt_cards[rows],
    )
    part.bids[:] = table.bids[rows]
    part.blind[:] = table.blind[rows]
    return part


def _deal_table(rules: Rules, hand: Hand, seat: int, words: npt.NDArray[np.uint64], dealer: int | None) -> Table:
    """``hand`` to ``seat``; the rest of the deck shuffled by each deal's words and dealt to the others."""
    t = card_tables(rules)
    n = len(words)
    mine = {c.index for c in hand}
    unseen = np.array([c.index for c in rules.deck() if c.index not in mine], dtype=np.intp)  # Card.index
    keys = (words[:, DEAL : DEAL + len(unseen)] & ~_LOW6) | np.arange(len(unseen), dtype=np.uint64)
    shuffled = unseen[np.argsort(keys, axis=1)]  # (n, 39), dealt one at a time from the seat's left
    others = [(seat + k) % 4 for k in (1, 2, 3)]

    def masks(bit_of_card: npt.NDArray[np.integer]) -> npt.NDArray[np.uint64]:
        out = np.zeros((n, 4), dtype=np.uint64)
        out[:, seat] = np.uint64(sum(1 << int(bit_of_card[c.index]) for c in hand))
        bits = (_ONE << bit_of_card[shuffled].astype(np.uint64)).reshape(n, 13, 3)
        out[:, others] = np.bitwise_or.reduce(bits, axis=1)
        return out

    dealt = masks(t.bit_of_card)  # display bits, for play
    index_masks = masks(np.arange(54))  # Card.index bits, as ``Table.dealt_cards`` holds them
    fixed = dealer is not None
    dealers = np.full(n, dealer, dtype=np.intp) if fixed else choose_many(words[:, DEALER], 4).astype(np.intp)
    return Table(rules, t, words, dealers, dealt, dealt.copy(), index_masks)


def _check(rules: Rules, hand: CardsLike, seat: Seat | str, deals: int, seed: int, nil: bool) -> tuple[Hand, Seat]:
    held = cards(hand)
    where = Seat.parse(seat)
    problems = []
    size = len(rules.deck()) // 4
    if len(held) != size:
        problems.append(f"it has {len(held)} cards, not {size}")
    seen: set[int] = set()
    for c in held:
        if c.index in seen:
            problems.append(f"{c} is in it twice")
        seen.add(c.index)
        if not rules.in_deck(c):
            problems.append(f"{c} is not in the {rules.name} deck")
    if problems:
        raise DealError(f"not a hand for {where.label} ({held}): " + "; ".join(problems))
    for name, value, least in (("deals", deals, 1), ("seed", seed, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise SpadesError(f"{name} must be a whole number {least} or more, not {value!r}")
    if nil and not rules.nil:
        raise SpadesError(f"the {rules.name} rule set does not allow nil, so the hand cannot play nil")
    return held, where


# the side's points per (rule set, candidate bids) and outcome: a hand's deals repeat the same
# few hundred outcomes, and so do the hands after it (at most 14 * 14 * 2 * 14 outcomes a rule set)
_POINTS: dict[tuple[Rules, tuple[int, ...], str], dict[tuple[int, int, bool, int, int], tuple[float, ...]]] = {}


def _side_points(
    rules: Rules,
    candidates: tuple[int, ...],
    valuation: str,
    took: int,
    partner_bid: int,
    partner_blind: bool,
    partner_took: int,
    least: int = 0,
) -> tuple[float, ...]:
    """The side's points, in a fresh game, had the seat bid each of ``candidates`` (0 = nil), valued
    by ``valuation``. ``least``: the least number bid the table let the seat make in the deal (a least
    team bid, ``min_team_bid``, binding the partner who bids second): a number bid under it is the
    bid the engine would have taken instead, ``least`` itself.

    Scored by ``score_hand``'s own per-side step (``score_side``: the same lines and points, a
    quarter of the time, as it skips the other side and the parsing); the other side's bids
    and tricks never change this side's points."""
    me, partner = Seat.NORTH, Seat.SOUTH
    p_bid = BLIND_NIL if partner_blind else Bid(partner_bid)
    tricks = {me: took, partner: partner_took}
    scores = [
        score_side(rules, me.team, {me: Bid(max(b, least) if b else 0), partner: p_bid}, tricks, 0) for b in candidates
    ]
    if valuation == "game":
        return tuple(game_points(rules, score) for score in scores)
    return tuple(float(score.points) for score in scores)


@overload
def hand_odds(
    rules: Rules,
    hand: CardsLike,
    seat: Seat | str = ...,
    deals: int = ...,
    seed: int = ...,
    nil: bool = ...,
    *,
    dealer: Seat | str | None = ...,
    batch_size: int = ...,
    valuation: str = ...,
    nil_defence: str = ...,
    judge: Literal["bots"] = ...,
) -> HandOdds: ...


@overload
def hand_odds(
    rules: Rules,
    hand: CardsLike,
    seat: Seat | str = ...,
    deals: int = ...,
    seed: int = ...,
    nil: bool = ...,
    *,
    dealer: Seat | str | None = ...,
    valuation: str = ...,
    judge: Literal["perfect"],
    node_budget: int = ...,
    progress: Callable[[int, int], None] | None = ...,
    workers: int = ...,
) -> PerfectOdds: ...


def hand_odds(
    rules: Rules,
    hand: CardsLike,
    seat: Seat | str = Seat.SOUTH,
    deals: int = 1000,
    seed: int = 0,
    nil: bool = False,
    *,
    dealer: Seat | str | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    valuation: str = "hand",
    nil_defence: str = "strong",
    judge: str = "bots",
    node_budget: int = PERFECT_NODES,
    progress: Callable[[int, int], None] | None = None,
    workers: int = PERFECT_WORKERS,
) -> HandOdds | PerfectOdds:
    """Play ``hand`` at ``seat`` ``deals`` times against random unseen cards (see the module docstring).

    ``nil=True``: the seat bids and plays nil. ``dealer`` fixes the dealer (default: each deal
    draws its own). ``valuation`` (``VALUATIONS``) says what a bag is worth in ``points``.
    ``nil_defence``: how the opponents defend against a nil (``HeuristicBot``'s ``"strong"`` default,
    or the earlier ``"plain"`` defence, for comparison). A hand that is not ``len(deck) // 4``
    distinct cards of the rule set's deck raises ``DealError`` (a ``ValueError``) naming what is wrong.

    ``judge`` (``JUDGES``): ``"bots"`` plays every deal with the heuristic bots (``HandOdds``);
    ``"perfect"`` solves each of the same deals double dummy (``PerfectOdds``: the side's most tricks,
    each number bid's points, or whether the nil survives perfect defence), spending at most
    ``node_budget`` solver nodes on a deal and calling ``progress(done, deals)`` after each, the deals
    shared by ``workers`` threads (the result is the same for any number).

    >>> import spades_tutor as st
    >>> hand_odds(st.Rules.preset("jokers"), "AS KS", deals=10)
    Traceback (most recent call last):
    ...
    spades_tutor.engine.errors.DealError: not a hand for South (A♠ K♠): it has 2 cards, not 13
    """
    if judge == "perfect":
        return _perfect_odds(rules, hand, seat, deals, seed, nil, dealer, valuation, node_budget, progress, workers)
    if judge != "bots":
        raise SpadesError(f"judge must be one of {', '.join(JUDGES)}, not {judge!r}")
    (odds,) = hands_odds(
        rules,
        [hand],
        seat,
        deals,
        seed,
        nil,
        dealer=dealer,
        batch_size=batch_size,
        valuation=valuation,
        nil_defence=nil_defence,
    )
    return odds


def hands_odds(
    rules: Rules,
    hands: Sequence[CardsLike],
    seat: Seat | str = Seat.SOUTH,
    deals: int = 1000,
    seed: int = 0,
    nil: bool = False,
    *,
    dealer: Seat | str | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    valuation: str = "hand",
    nil_defence: str = "strong",
) -> tuple[HandOdds, ...]:
    """``hand_odds`` for each of ``hands``, all played in one batch: each result equals
    ``hand_odds(rules, hand, ...)`` with the same arguments (every hand meets the same deals' words, and
    the bots decide each deal from its own row), for a fraction of the time of one call per hand (a quiz
    measures several candidate hands at once). ``batch_size`` counts deals per hand.

    >>> import spades_tutor as st
    >>> rules = st.Rules.preset("classic")
    >>> hands = ["QS 7S 3S KH 9H 4H AC 10C 6C 2C JD 7D 3D", "AS KS QS AH KH AC KC AD KD QD JD 10D 9D"]
    >>> together = hands_odds(rules, hands, deals=100)
    >>> [odds.mean_tricks for odds in together]
    [2.76, 9.94]
    >>> together == tuple(hand_odds(rules, hand, deals=100) for hand in hands)
    True
    """
    checked = [_check(rules, hand, seat, deals, seed, nil) for hand in hands]
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise SpadesError(f"batch_size must be a whole number 1 or more, not {batch_size!r}")
    if valuation not in VALUATIONS:
        raise SpadesError(f"valuation must be one of {', '.join(VALUATIONS)}, not {valuation!r}")
    if not checked:
        return ()
    where = checked[0][1]
    fixed = None if dealer is None else int(Seat.parse(dealer))
    me, partner = int(where), (int(where) + 2) % 4
    k = len(checked)
    taken_me, taken_partner, bid_me, bid_partner, blind_partner, dealers = [], [], [], [], [], []
    for start in range(0, deals, batch_size):
        n = min(batch_size, deals - start)
        words = round_words(seed, start, n)
        table = _joined([_deal_table(rules, held, me, words, fixed) for held, _where in checked])
        play_out(table, SeatBidsPolicy(me, nil, nil_defence))
        # each (k * n,) column back to (k, n): a hand's deals are a row
        taken_me.append(table.taken[:, me].reshape(k, n))
        taken_partner.append(table.taken[:, partner].reshape(k, n))
        bid_me.append(table.bids[:, me].reshape(k, n))
        bid_partner.append(table.bids[:, partner].reshape(k, n))
        blind_partner.append(table.blind[:, partner].reshape(k, n))
        dealers.append(table.dealer.reshape(k, n))
    took = np.concatenate(taken_me, axis=1).astype(np.intp)
    p_took = np.concatenate(taken_partner, axis=1).astype(np.intp)
    bids = np.concatenate(bid_me, axis=1).astype(np.intp)
    p_bid = np.concatenate(bid_partner, axis=1).astype(np.intp)
    p_blind = np.concatenate(blind_partner, axis=1).astype(np.intp)
    least = _least_bids(rules, me, np.concatenate(dealers, axis=1).astype(np.intp), p_bid, p_blind)
    return tuple(
        _hand_result(
            rules,
            held,
            where,
            nil,
            deals,
            seed,
            fixed,
            valuation,
            took[i],
            p_took[i],
            bids[i],
            p_bid[i],
            p_blind[i],
            least[i],
        )
        for i, (held, _where) in enumerate(checked)
    )


def _least_bids(
    rules: Rules,
    me: int,
    dealer: npt.NDArray[np.intp],
    p_bid: npt.NDArray[np.intp],
    p_blind: npt.NDArray[np.intp] | None = None,
) -> npt.NDArray[np.intp]:
    """The least number bid the seat ``me`` may make in each deal, where the table binds it (a least team
    bid, ``min_team_bid``, and the partner bid before the seat): the least the engine's ``legal_bids``
    offers it there (``card_tables.bid_options_after``); else 0. A partner's nil frees the team of it, and
    a seat bidding first leaves the raise to the partner (the bots raise).

    >>> import numpy as np, spades_tutor as st
    >>> rules = st.Rules.preset("jokers", min_team_bid=4)
    >>> _least_bids(rules, 2, np.array([3, 3, 1, 0]), np.array([1, 0, 3, 9])).tolist()  # South; dealers W W E N
    [3, 0, 0, 0]
    """
    least = np.zeros_like(p_bid)
    if not rules.min_team_bid:
        return least
    blind = np.zeros_like(p_bid) if p_blind is None else p_blind
    position = (me - dealer - 1) % 4  # the seat's place in the bidding: 2 or 3 after its partner
    keys = np.stack([position, p_bid, blind], axis=-1).reshape(-1, 3)
    for pos, bid, bl in np.unique(keys[keys[:, 0] >= 2], axis=0).tolist():
        offered = bid_options_after(rules, pos, (bid, bool(bl)))
        low = min(t for t, b in offered if t > 0 and not b)
        if low > 1:  # 1 is no bound at all
            least[(position == pos) & (p_bid == bid) & (blind == bl)] = low
    return least


def _joined(parts: list[Table]) -> Table:
    """The tables' rounds as one table, in order (the rounds of one ``_deal_table`` are consecutive)."""
    if len(parts) == 1:
        return parts[0]
    return Table(
        parts[0].rules,
        parts[0].tables,
        np.concatenate([p.words for p in parts]),
        np.concatenate([p.dealer for p in parts]),
        np.concatenate([p.dealt for p in parts]),
        np.concatenate([p.hands for p in parts]),
        np.concatenate([p.dealt_cards for p in parts]),
    )


def _hand_result(
    rules: Rules,
    held: Hand,
    where: Seat,
    nil: bool,
    deals: int,
    seed: int,
    fixed: int | None,
    valuation: str,
    took: npt.NDArray[np.intp],
    p_took: npt.NDArray[np.intp],
    bids: npt.NDArray[np.intp],
    p_bid: npt.NDArray[np.intp],
    p_blind: npt.NDArray[np.intp],
    least: npt.NDArray[np.intp],
) -> HandOdds:
    """One hand's ``HandOdds`` from its deals' tricks and bids (the seat's and its partner's), and the
    least number bid the table let the seat make in each (``_least_bids``)."""
    candidates = (0,) if nil else tuple(range(1, 14))
    # each distinct (tricks, partner's bid, partner's blind, partner's tricks, least bid) is scored once
    keys = np.stack([took, p_bid, p_blind, p_took, least], axis=1)
    distinct, inverse, often = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    cache = _POINTS.setdefault((rules, candidates, valuation), {})
    per_key = np.empty((len(distinct), len(candidates)), dtype=np.float64)
    seen: dict[tuple[int, int, bool, int], int] = {}  # the outcomes, whatever the least bid
    for i, (a, b, c, d, e) in enumerate(distinct.tolist()):
        key = (a, b, bool(c), d, e)
        seen[key[:4]] = seen.get(key[:4], 0) + int(often[i])
        points_of = cache.get(key)
        if points_of is None:
            points_of = cache[key] = _side_points(rules, candidates, valuation, *key)
        per_key[i] = points_of
    per_deal = per_key[inverse.reshape(-1)]  # (deals, candidates)
    points = {b: float(per_deal[:, i].mean()) for i, b in enumerate(candidates)}
    intervals = {b: _normal_interval(per_deal[:, i]) for i, b in enumerate(candidates)}
    return HandOdds(
        rules=rules,
        hand=held,
        seat=where,
        nil=nil,
        deals=deals,
        seed=seed,
        dealer=None if fixed is None else Seat(fixed),
        seat_tricks=_counts(took),
        team_tricks=_counts(took + p_took),
        bids=_counts(bids),
        outcomes=tuple((a, b, c, d, k) for (a, b, c, d), k in seen.items()),
        points=points,
        points_interval=intervals,
        valuation=valuation,
    )


def _counts(values: npt.NDArray[np.intp]) -> tuple[int, ...]:
    return tuple(int(c) for c in np.bincount(values, minlength=14))


def nil_made_counts(
    rules: Rules, hands: list[CardsLike], seat: Seat | str = Seat.SOUTH, deals: int = 100, seed: int = 0
) -> tuple[int, ...]:
    """For each hand, in how many of ``deals`` deals a nil with it was made: all the hands played in
    one batch (a quiz screens many hands quickly). Each count equals
    ``hand_odds(rules, hand, seat, deals, seed, nil=True).seat_tricks[0]``.

    >>> import spades_tutor as st
    >>> rules = st.Rules.preset("classic")
    >>> hands = ["QS 7S 3S KH 9H 4H AC 10C 6C 2C JD 7D 3D", "AS KS QS AH KH AC KC AD KD QD JD 10D 9D"]
    >>> nil_made_counts(rules, hands, deals=100)
    (28, 0)
    """
    checked = [_check(rules, hand, seat, deals, seed, True) for hand in hands]
    if not checked:
        return ()
    me = int(checked[0][1])
    words = round_words(seed, 0, deals)
    table = _joined([_deal_table(rules, held, me, words, None) for held, _ in checked])
    play_out(table, SeatBidsPolicy(me, True))
    made = (table.taken[:, me] == 0).reshape(len(checked), deals).sum(axis=1)
    return tuple(int(m) for m in made)


def bid_odds(
    rules: Rules,
    hand: CardsLike,
    seat: Seat | str = Seat.SOUTH,
    deals: int = 400,
    seed: int = 0,
    *,
    dealer: Seat | str | None = None,
    valuation: str = "game",
) -> BidOdds:
    """The hand's number bids and (at a table that plays nil) its nil, measured by ``hand_odds`` over
    the same deals and valued by ``valuation`` (points over the game by default: see the module docstring)."""
    number = hand_odds(rules, hand, seat, deals, seed, dealer=dealer, valuation=valuation)
    nil = hand_odds(rules, hand, seat, deals, seed, nil=True, dealer=dealer, valuation=valuation) if rules.nil else None
    return BidOdds(number, nil)


# --- judgement by perfect play ---------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class PerfectOdds(_BestBid):
    """One hand judged by perfect play (``hand_odds(..., judge="perfect")``): the deals are the bots'
    (deal ``d`` is the same deal ``hand_odds`` gives the bots), and each is solved double dummy, every
    hand known to both sides and each side playing its best from the first lead (spades not broken).

    Number bids (``nil`` false): ``team_tricks[k]``: in how many solved deals the side's most tricks
    against best defence are ``k``. ``points[b]``: the side's mean points over the solved deals had the
    seat bid ``b`` (1..13), the partner bidding what the bots bid for it (a number: nil is not offered
    to it, so the side plays one contract and its tricks are the solver's), valued by ``valuation``; at
    a table with a least team bid a number bid under what the table lets the seat bid counts as the
    least it lets it bid, as in ``HandOdds``. Nil (``nil`` true): ``nil_made``: in how many solved deals
    the nil survives the opponents' best defence, the partner helping it. ``outcomes``: each distinct
    ``(the side's tricks, the partner's bid, deals)`` of the solved deals (number bids only).

    ``undecided``: the deals the solver did not settle within ``node_budget`` nodes each; they are left
    out of every figure and said in the sentence, except the nil's interval, which counts them either way. ``nodes``: the solver's nodes over all the deals.
    Equal arguments give equal results (the budget counts nodes, not seconds).
    """

    rules: Rules
    hand: Hand
    seat: Seat
    nil: bool
    deals: int
    seed: int
    dealer: Seat | None
    team_tricks: tuple[int, ...]
    nil_made: int
    undecided: int
    nodes: int
    node_budget: int
    outcomes: tuple[tuple[int, int, int], ...]
    points: dict[int, float] = dataclasses.field(hash=False)
    points_interval: dict[int, tuple[float, float]] = dataclasses.field(hash=False)
    valuation: str = "hand"
    judge: str = "perfect"

    @property
    def solved(self) -> int:
        """The deals the solver settled (every figure is over these)."""
        return self.deals - self.undecided

    @property
    def mean_team_tricks(self) -> float:
        return _mean(self.team_tricks)

    @property
    def mean_team_tricks_interval(self) -> tuple[float, float]:
        return _mean_interval(self.team_tricks)

    def chance_team_at_least(self, tricks: int) -> float:
        """The share of solved deals in which the side can take ``tricks`` tricks or more."""
        return sum(self.team_tricks[max(0, tricks) :]) / self.solved

    @property
    def p_nil_made(self) -> float | None:
        """The share of solved deals in which the nil survives perfect defence (None: not a nil)."""
        return self.nil_made / self.solved if self.nil and self.solved else None

    @property
    def p_nil_made_interval(self) -> tuple[float, float] | None:
        """The 95% interval of the share of all the deals in which the nil survives, the undecided deals
        counted either way: from Wilson's low end with them all broken to its high end with them all
        survived (so deals too long to settle widen the interval instead of biasing it)."""
        if not self.nil:
            return None
        low, _ = wilson(self.nil_made, self.deals)
        _, high = wilson(self.nil_made + self.undecided, self.deals)
        return _interval((low[0], high[0]))

    def sentence(self) -> str:
        """The result in one sentence, with the deals left undecided.

        >>> import spades_tutor as st
        >>> hand = "QS 7S 3S KH 9H 4H AC 10C 6C 2C JD 7D 3D"
        >>> print(hand_odds(st.Rules.preset("classic"), hand, deals=20, nil=True, judge="perfect"))
        against perfect defence the nil survives in 8 of the 20 deals of this hand (40%; likely between 22% and 61%)
        """
        unsettled = f"; {self.undecided} of {self.deals} deals too long to settle, left out" if self.undecided else ""
        if not self.solved:
            return f"no deal of this hand settled by perfect play within {self.node_budget:,} nodes a deal"
        if self.nil:
            p = self.p_nil_made or 0.0
            low, high = self.p_nil_made_interval or (0.0, 0.0)
            either = f", the {self.undecided} too long to settle counted either way" if self.undecided else ""
            return (
                f"against perfect defence the nil survives in {self.nil_made} of the {self.solved} deals of this "
                f"hand settled ({p:.0%}; {likely(f'{low:.0%}', f'{high:.0%}')} of all {self.deals}{either})"
                if self.undecided
                else f"against perfect defence the nil survives in {self.nil_made} of the {self.deals} deals of "
                f"this hand ({p:.0%}; {likely(f'{low:.0%}', f'{high:.0%}')})"
            )
        t_low, t_high = self.mean_team_tricks_interval
        b_low, b_high = self.best_points_interval
        return (
            f"with perfect play the side takes about {self.mean_team_tricks:.1f} tricks over the {self.solved} deals "
            f"of this hand ({likely(f'{t_low:.1f}', f'{t_high:.1f}')}); best bid {self.best_bid}, worth about "
            f"{signed_points(self.best_points)} points to the side ({likely(signed_points(b_low), signed_points(b_high))})"
            f"{unsettled}"
        )

    def __str__(self) -> str:
        return self.sentence()


def _perfect_odds(
    rules: Rules,
    hand: CardsLike,
    seat: Seat | str,
    deals: int,
    seed: int,
    nil: bool,
    dealer: Seat | str | None,
    valuation: str,
    node_budget: int,
    progress: Callable[[int, int], None] | None,
    workers: int,
) -> PerfectOdds:
    """``hand_odds(..., judge="perfect")``: the bots' deals (and, for number bids, the partner's bid as
    the bots make it, nil not offered), each solved double dummy by ``solver``."""
    from ..engine import Round
    from ..solver import Budget, Position, make_nil, ready, solve

    held, where = _check(rules, hand, seat, deals, seed, nil)
    if valuation not in VALUATIONS:
        raise SpadesError(f"valuation must be one of {', '.join(VALUATIONS)}, not {valuation!r}")
    for name, value in (("node_budget", node_budget), ("workers", workers)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise SpadesError(f"{name} must be a whole number 1 or more, not {value!r}")
    fixed = None if dealer is None else int(Seat.parse(dealer))
    me, partner = int(where), (int(where) + 2) % 4
    # the bidding on a table without nil: the partner bids a number, so the side plays one contract
    table = _deal_table(_without_nil(rules), held, me, round_words(seed, 0, deals), fixed)
    if not nil:
        bid_out(table, SeatBidsPolicy(me, False))
    budget = Budget(nodes=node_budget)
    team = where.team
    solved_tricks: list[int] = []
    solved_rows: list[int] = []
    made = undecided = nodes = 0

    def judged(d: int) -> tuple[int | None, int]:
        """Deal ``d``: whether the nil survives (1 or 0) or the side's most tricks, None if unsettled;
        and the nodes spent. Each deal its own search: tables kept from one deal to the next cost nodes
        (the other deals' hints mislead the move order: +10% on the side's tricks, +65% on nils)."""
        masks = [int(m) for m in table.dealt_cards[d]]  # bit Card.index, as BatchResult.hand reads them
        hands = {Seat(s): [c for c in full_pack() if masks[s] >> c.index & 1] for s in range(4)}
        pos = Position.from_round(Round.from_hands(rules, hands, Seat(int(table.dealer[d]))))
        if nil:
            answer = make_nil(pos, where, budget=budget)
            return (None if answer.holds is None else int(answer.holds)), answer.nodes
        result = solve(pos, team, with_cards=False, budget=budget)
        return (result.value if result.exact else None), result.nodes

    ready()  # the compiled search loaded once, before the threads ask it
    outcome: list[tuple[int | None, int]] = []
    with ThreadPoolExecutor(max(1, min(workers, deals))) as pool:  # the compiled search lets go of the GIL
        for d, deal_result in enumerate(pool.map(judged, range(deals))):
            outcome.append(deal_result)
            if progress is not None:
                progress(d + 1, deals)
    for d, (settled, spent) in enumerate(outcome):
        nodes += spent
        if settled is None:
            undecided += 1
        elif nil:
            made += settled
        else:
            solved_tricks.append(settled)
            solved_rows.append(d)
    points: dict[int, float] = {}
    intervals: dict[int, tuple[float, float]] = {}
    outcomes: dict[tuple[int, int], int] = {}
    if solved_rows:
        rows = np.array(solved_rows, dtype=np.intp)
        took = np.array(solved_tricks, dtype=np.intp)
        p_bid = table.bids[rows, partner].astype(np.intp)
        least = _least_bids(rules, me, table.dealer[rows].astype(np.intp), p_bid)
        candidates = tuple(range(1, 14))
        cache = _POINTS.setdefault((rules, candidates, valuation), {})
        per_deal = np.empty((len(rows), len(candidates)), dtype=np.float64)
        for i, (t, b, low) in enumerate(zip(took.tolist(), p_bid.tolist(), least.tolist(), strict=True)):
            outcomes[t, b] = outcomes.get((t, b), 0) + 1
            key = (t, b, False, 0, low)  # the side's tricks all counted as the seat's: one contract
            got = cache.get(key)
            if got is None:
                got = cache[key] = _side_points(rules, candidates, valuation, *key)
            per_deal[i] = got
        points = {b: float(per_deal[:, i].mean()) for i, b in enumerate(candidates)}
        intervals = {b: _normal_interval(per_deal[:, i]) for i, b in enumerate(candidates)}
    return PerfectOdds(
        rules=rules,
        hand=held,
        seat=where,
        nil=nil,
        deals=deals,
        seed=seed,
        dealer=None if fixed is None else Seat(fixed),
        team_tricks=_counts(np.array(solved_tricks, dtype=np.intp)) if not nil else (0,) * 14,
        nil_made=made,
        undecided=undecided,
        nodes=nodes,
        node_budget=node_budget,
        outcomes=tuple((t, b, k) for (t, b), k in sorted(outcomes.items())),
        points=points,
        points_interval=intervals,
        valuation=valuation,
    )
