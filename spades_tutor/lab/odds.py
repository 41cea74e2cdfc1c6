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
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

from ..engine import BLIND_NIL, Bid, CardsLike, DealError, Hand, Rules, Seat, cards
from ..engine.errors import SpadesError
from ..engine.scoring import _score_team
from .experiments import CONFIDENCE, wilson
from .heuristic import HeuristicPolicy
from .simulate import DEFAULT_BATCH_SIZE
from .table import Table, play_out
from .tables import card_tables
from .words import DEAL, DEALER, choose_many, round_words

__all__ = ["HandOdds", "hand_odds", "nil_made_counts"]

_ONE = np.uint64(1)
_LOW6 = np.uint64(63)
_Z = NormalDist().inv_cdf(1 - (1 - CONFIDENCE) / 2)


def _interval(values: tuple[float, float]) -> tuple[float, float]:
    return float(values[0]), float(values[1])


@dataclasses.dataclass(frozen=True)
class HandOdds:
    """One hand played ``deals`` times by the heuristic bots (see ``hand_odds``).

    ``seat_tricks[k]`` / ``team_tricks[k]``: in how many deals the seat / its side took ``k``
    tricks (k = 0..13). ``bids[k]``: in how many deals the seat bid ``k`` (0 = nil).
    ``outcomes``: each distinct ``(tricks, partner's bid, partner's blind nil, partner's tricks,
    deals)`` seen, the deals being how often. ``points[b]``: the side's mean points had the seat bid ``b`` (only the bids the play was
    measured for: 1..13, or nil alone when ``nil`` is true), ``points_interval[b]`` its 95%
    interval. Equal seeds give equal results.
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

    @property
    def best_bid(self) -> int:
        """The measured bid with the most expected points for the side (0 = nil; ties: the lower bid)."""
        return max(sorted(self.points), key=lambda b: self.points[b])

    @property
    def best_points(self) -> float:
        return self.points[self.best_bid]

    @property
    def best_points_interval(self) -> tuple[float, float]:
        return self.points_interval[self.best_bid]

    # --- words -----------------------------------------------------------------------------

    def sentence(self) -> str:
        """The result in one sentence.

        >>> import spades_tutor as st
        >>> hand = "QS 7S 3S KH 9H 4H AC 10C 6C 2C JD 7D 3D"
        >>> print(hand_odds(st.Rules.preset("classic"), hand, deals=100, nil=True))
        nil made in 28% of 100 deals of this hand (95% interval 20–37%)
        >>> print(hand_odds(st.Rules.preset("classic"), hand, deals=100))  # doctest: +NORMALIZE_WHITESPACE
        2.8 tricks on average in 100 deals of this hand (95% interval 2.6–3.0); best bid 2, worth +46 points
        to the side (95% interval +38 to +54); no trick in 0% (95% interval 0–4%)
        """
        n = f"{self.deals:,} deal{'s' if self.deals != 1 else ''}"
        low, high = self.p_zero_interval
        p = f"{_pct(self.p_zero)}% of {n} of this hand (95% interval {_pct(low)}–{_pct(high)}%)"
        if self.nil:
            return f"nil made in {p}"
        t_low, t_high = self.mean_tricks_interval
        b_low, b_high = self.best_points_interval
        return (
            f"{self.mean_tricks:.1f} tricks on average in {n} of this hand (95% interval {t_low:.1f}–{t_high:.1f}); "
            f"best bid {self.best_bid}, worth {self.best_points:+.0f} points to the side "
            f"(95% interval {b_low:+.0f} to {b_high:+.0f}); no trick in {_pct(self.p_zero)}% "
            f"(95% interval {_pct(low)}–{_pct(high)}%)"
        )

    def __str__(self) -> str:
        return self.sentence()


def _pct(p: float) -> int:
    return round(100 * p)


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


class _SeatBidsPolicy:
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
        """The bot's bid for the seat, never nil. The bot bids from its hand (the same in every deal)
        and, from the third bid on, its partner's bid: so one deal per partner's bid is asked."""
        partner = table.bids[rows, (self.seat + 2) % 4]  # still 0 where the partner bids later
        _, first, inverse = np.unique(partner, return_index=True, return_inverse=True)
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
_POINTS: dict[tuple[Rules, tuple[int, ...]], dict[tuple[int, int, bool, int], tuple[int, ...]]] = {}


def _side_points(
    rules: Rules, candidates: tuple[int, ...], took: int, partner_bid: int, partner_blind: bool, partner_took: int
) -> tuple[int, ...]:
    """The side's points, in a fresh game, had the seat bid each of ``candidates`` (0 = nil).

    Scored by ``score_hand``'s own per-side step (``_score_team``: the same lines and points, a
    quarter of the time, as it skips the other side and the parsing); the other side's bids
    and tricks never change this side's points."""
    me, partner = Seat.NORTH, Seat.SOUTH
    p_bid = BLIND_NIL if partner_blind else Bid(partner_bid)
    tricks = {me: took, partner: partner_took}
    return tuple(_score_team(rules, me.team, {me: Bid(b), partner: p_bid}, tricks, 0).points for b in candidates)


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
    nil_defence: str = "strong",
) -> HandOdds:
    """Play ``hand`` at ``seat`` ``deals`` times against random unseen cards (see the module docstring).

    ``nil=True``: the seat bids and plays nil. ``dealer`` fixes the dealer (default: each deal
    draws its own). ``nil_defence``: how the opponents defend against a nil (``HeuristicBot``'s
    ``"strong"`` default, or the earlier ``"plain"`` defence, for comparison). A hand that is not
    ``len(deck) // 4`` distinct cards of the rule set's deck raises ``DealError`` (a ``ValueError``)
    naming what is wrong.

    >>> import spades_tutor as st
    >>> hand_odds(st.Rules.preset("jokers"), "AS KS", deals=10)
    Traceback (most recent call last):
    ...
    spades_tutor.engine.errors.DealError: not a hand for South (A♠ K♠): it has 2 cards, not 13
    """
    held, where = _check(rules, hand, seat, deals, seed, nil)
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise SpadesError(f"batch_size must be a whole number 1 or more, not {batch_size!r}")
    fixed = None if dealer is None else int(Seat.parse(dealer))
    me, partner = int(where), (int(where) + 2) % 4
    taken_me, taken_partner, bid_me, bid_partner, blind_partner = [], [], [], [], []
    for start in range(0, deals, batch_size):
        n = min(batch_size, deals - start)
        table = _deal_table(rules, held, me, round_words(seed, start, n), fixed)
        play_out(table, _SeatBidsPolicy(me, nil, nil_defence))
        taken_me.append(table.taken[:, me])
        taken_partner.append(table.taken[:, partner])
        bid_me.append(table.bids[:, me])
        bid_partner.append(table.bids[:, partner])
        blind_partner.append(table.blind[:, partner])
    took = np.concatenate(taken_me).astype(np.intp)
    p_took = np.concatenate(taken_partner).astype(np.intp)
    p_bid = np.concatenate(bid_partner).astype(np.intp)
    p_blind = np.concatenate(blind_partner).astype(np.intp)
    candidates = (0,) if nil else tuple(range(1, 14))
    # each distinct (tricks, partner's bid, partner's blind, partner's tricks) is scored once
    keys = np.stack([took, p_bid, p_blind, p_took], axis=1)
    distinct, inverse, often = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    cache = _POINTS.setdefault((rules, candidates), {})
    per_key = np.empty((len(distinct), len(candidates)), dtype=np.int64)
    for i, (a, b, c, d) in enumerate(distinct.tolist()):
        key = (a, b, bool(c), d)
        points_of = cache.get(key)
        if points_of is None:
            points_of = cache[key] = _side_points(rules, candidates, *key)
        per_key[i] = points_of
    per_deal = per_key[inverse.reshape(-1)].astype(float)  # (deals, candidates)
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
        bids=_counts(np.concatenate(bid_me).astype(np.intp)),
        outcomes=tuple(
            (int(a), int(b), bool(c), int(d), int(k)) for (a, b, c, d), k in zip(distinct, often, strict=True)
        ),
        points=points,
        points_interval=intervals,
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
    parts = [_deal_table(rules, held, me, words, None) for held, _ in checked]
    table = Table(
        rules,
        parts[0].tables,
        np.concatenate([p.words for p in parts]),
        np.concatenate([p.dealer for p in parts]),
        np.concatenate([p.dealt for p in parts]),
        np.concatenate([p.hands for p in parts]),
        np.concatenate([p.dealt_cards for p in parts]),
    )
    play_out(table, _SeatBidsPolicy(me, True))
    made = (table.taken[:, me] == 0).reshape(len(parts), deals).sum(axis=1)
    return tuple(int(m) for m in made)
