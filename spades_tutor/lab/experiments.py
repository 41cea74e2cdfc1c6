"""Experiments on simulated rounds: pandas DataFrames with 95% confidence intervals.

Each function takes a ``BatchResult`` and returns one tidy frame with a ``rule_set``
column, so two rule sets compare by concatenating their frames. Exact values sit beside
simulated ones wherever probability gives them (hypergeometric trumps per hand, voids at
the deal). Intervals are Wilson score intervals; where the four hands of a deal
are pooled they are not independent, so the interval is computed from the number of
deals, not hands (wider, honest).

The nil experiment is measured on ``nil_play``: the same deals, played by the heuristic bots
with one seat bidding nil in every round (random play makes a nil in a few percent of deals,
which says nothing about a nil played to be made).

>>> import spades_tutor as st
>>> from spades_tutor.lab import simulate
>>> res = simulate(st.Rules.preset("jokers"), 2000, seed=3)
>>> frame = trumps_per_hand(res)
>>> round(float((frame.share * frame.trumps).sum()), 1), round(float((frame.exact * frame.trumps).sum()), 2)
(3.8, 3.75)
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from ..engine import Card, Rank, Rules, Seat, Suit, full_pack
from .intervals import wilson
from .result import BatchResult

__all__ = [
    "EXPERIMENTS",
    "NIL_POLICY",
    "NIL_SEAT",
    "nil_play",
    "nil_success",
    "side_card_fate",
    "top_trumps",
    "trumps_per_hand",
    "voids_by_trick",
]

SIDE_SUITS = (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
RANK_NAMES = {Rank.ACE: "ace", Rank.KING: "king", Rank.QUEEN: "queen"}


def _mask(cards: Any) -> np.uint64:
    return np.uint64(sum(1 << c.index for c in cards))


def _suit_masks(res: BatchResult) -> dict[Suit, np.uint64]:
    rules = res.rules
    return {s: _mask(c for c in rules.deck() if rules.suit_of(c) == s) for s in Suit}


def _frame(rows: dict[str, Any], res: BatchResult) -> Any:
    import pandas as pd

    frame = pd.DataFrame(rows)
    frame.insert(0, "rule_set", res.rules.name)
    return frame


def trumps_per_hand(res: BatchResult) -> Any:
    """How many trumps a hand holds at the deal: simulated share beside the exact hypergeometric."""
    rules = res.rules
    total = len(rules.trump_order())
    counts = np.bitwise_count(res.hands & _mask(rules.trump_order())).ravel()
    ks = np.arange(0, min(13, total) + 1)
    hits = np.array([(counts == k).sum() for k in ks])
    n_hands = counts.size
    share = hits / n_hands if n_hands else np.zeros(len(ks))
    low, high = wilson(share * len(res), np.full(len(ks), len(res)))
    exact = np.array([comb(total, k) * comb(52 - total, 13 - k) / comb(52, 13) for k in ks])
    return _frame({"trumps": ks, "hands": hits, "share": share, "low": low, "high": high, "exact": exact}, res)


def _winning_cards(res: BatchResult) -> npt.NDArray[np.int64]:
    """(N, 13): the card that won each trick."""
    pos = (res.winners.astype(np.int64) - res.leaders) % 4
    return np.take_along_axis(res.plays.reshape(-1, 13, 4), pos[:, :, None], axis=2)[:, :, 0].astype(np.int64)


def _where_played(res: BatchResult) -> npt.NDArray[np.int64]:
    """``(N, 54)``: the play position (0-51) of each card index in each round; -1 if not played."""
    n = len(res)
    where = np.full((n, 54), -1, dtype=np.int8)
    where[np.arange(n)[:, None], res.plays.astype(np.intp)] = np.arange(52, dtype=np.int8)
    return where.astype(np.int64)


def side_card_fate(res: BatchResult) -> Any:
    """How often a side ace, king or queen wins its trick or gets trumped, by how many of its suit were held."""
    rules = res.rules
    masks = _suit_masks(res)
    is_trump = np.array([rules.in_deck(c) and rules.is_trump(c) for c in full_pack()])
    # one column per card, not one (N, 52) mask per card: each card is played once per round
    where = _where_played(res)
    rows_n = np.arange(len(res))
    seats = res.play_seats().astype(np.int64)
    win_cards = _winning_cards(res)
    winners = res.winners.astype(np.int64)
    rows: dict[str, list[Any]] = {k: [] for k in ("card", "rank", "held", "played", "won", "trumped")}
    for rank in RANK_NAMES:
        for suit in SIDE_SUITS:
            card = Card(rank, suit)
            if not rules.in_deck(card) or rules.is_trump(card):
                continue
            col = where[:, card.index]
            played = col >= 0
            r, col = rows_n[played], col[played]
            seat = seats[r, col]
            held = np.bitwise_count(res.hands[r, seat] & masks[suit]).astype(np.int64)
            won = seat == winners[r, col // 4]
            trumped = is_trump[win_cards[r, col // 4]] & ~won
            for length in range(1, int(held.max(initial=0)) + 1):
                sel = held == length
                rows["card"].append(str(card))
                rows["rank"].append(RANK_NAMES[rank])
                rows["held"].append(length)
                rows["played"].append(int(sel.sum()))
                rows["won"].append(int(won[sel].sum()))
                rows["trumped"].append(int(trumped[sel].sum()))
    import pandas as pd

    per_card = pd.DataFrame(rows)
    grouped = per_card.groupby(["rank", "held"], as_index=False)[["played", "won", "trumped"]].sum()
    grouped = grouped[grouped.played > 0]
    grouped["held"] = np.minimum(grouped.held, 6)  # 6 means 6 or more
    grouped = grouped.groupby(["rank", "held"], as_index=False)[["played", "won", "trumped"]].sum()
    grouped["won_share"] = grouped.won / grouped.played
    grouped["trumped_share"] = grouped.trumped / grouped.played
    grouped["won_low"], grouped["won_high"] = wilson(grouped.won, grouped.played)
    grouped["trumped_low"], grouped["trumped_high"] = wilson(grouped.trumped, grouped.played)
    grouped.insert(0, "rule_set", res.rules.name)
    return grouped.reset_index(drop=True)


def voids_by_trick(res: BatchResult) -> Any:
    """How often a player is void in a side suit at the start of each trick (exact at the deal)."""
    masks = _suit_masks(res)
    side = [masks[s] for s in SIDE_SUITS if masks[s]]
    remaining = res.hands.copy()
    seats = res.play_seats().astype(np.int64)
    n = len(res)
    shares, lows, highs = [], [], []
    card_bits = np.left_shift(np.uint64(1), res.plays.astype(np.uint64))
    for t in range(13):
        void = np.stack([np.bitwise_count(remaining & m) == 0 for m in side])  # (suits, N, 4)
        share = float(void.mean()) if n else 0.0
        lo, hi = wilson(share * n, n)
        shares.append(share)
        lows.append(lo[0])
        highs.append(hi[0])
        for j in range(4):  # take out the cards played to trick t
            col = 4 * t + j
            rows = np.arange(n)
            remaining[rows, seats[:, col]] &= ~card_bits[:, col]
    sizes = [bin(int(m)).count("1") for m in side]
    exact_deal = float(np.mean([comb(52 - m, 13) / comb(52, 13) for m in sizes]))
    exact = [exact_deal] + [np.nan] * 12
    return _frame({"trick": np.arange(1, 14), "void_share": shares, "low": lows, "high": highs, "exact": exact}, res)


def top_trumps(res: BatchResult) -> Any:
    """How often the big joker, the little joker, the A♠ and the K♠ take the trick they are played to."""
    rules = res.rules
    seats = res.play_seats().astype(np.int64)
    winners = np.repeat(res.winners.astype(np.int64), 4, axis=1)
    won = seats == winners
    rows: dict[str, list[Any]] = {k: [] for k in ("card", "name", "position", "played", "won")}
    for text in ("BJ", "LJ", "AS", "KS"):
        card = Card.parse(text)
        if not rules.in_deck(card):
            continue
        where = res.plays == card.index
        rows["card"].append(str(card))
        rows["name"].append(card.name)
        rows["position"].append(rules.trump_rank(card))
        rows["played"].append(int(where.sum()))
        rows["won"].append(int(won[where].sum()))
    frame = _frame(rows, res)
    frame["won_share"] = frame.won / frame.played
    frame["low"], frame["high"] = wilson(frame.won, frame.played)
    return frame


NIL_SEAT = Seat.SOUTH
NIL_POLICY = f"heuristic, {NIL_SEAT.label} nil"  # the ``policy`` of a ``nil_play`` result


def nil_play(
    rules: Rules, n_rounds: int, seed: int = 0, *, progress: Callable[[int, int], object] | None = None
) -> BatchResult:
    """The deals of ``simulate(rules, n_rounds, seed)`` played by the heuristic bots, South bidding nil in each.

    South (``NIL_SEAT``) bids nil whatever it holds and plays it as the heuristic bot plays its
    own nil (ducking); its partner bids and covers it as the bots do, and the other side bids
    and plays as the bots do. Each deal draws its own dealer, so South bids from every position.

    >>> import spades_tutor as st
    >>> res = nil_play(st.Rules.preset("jokers"), 300, seed=2)
    >>> res.policy, bool((res.bids[:, 2] == 0).all())
    ('heuristic, South nil', True)
    """
    from .odds import SeatBidsPolicy
    from .simulate import simulate

    policy = SeatBidsPolicy(int(NIL_SEAT), nil=True)
    policy.name = NIL_POLICY
    return simulate(rules, n_rounds, seed, policy, progress=progress)


def nil_success(res: BatchResult) -> Any:
    """Nil success rate by what the nil bidder held: the big joker, the little joker, no joker; and by trumps.

    On a ``nil_play`` result only the seat made to bid nil counts (the bots' own nils elsewhere
    do not); on any other result, every nil bid. The ``play`` column says which.
    """
    rules = res.rules
    nil = res.bids == 0
    if res.policy == NIL_POLICY:
        nil = nil & (np.arange(4) == int(NIL_SEAT))
    made = nil & (res.tricks == 0)
    trumps = np.bitwise_count(res.hands & _mask(rules.trump_order())).astype(np.int64)
    has_big = (res.hands & _mask([Card.parse("BJ")])) != 0 if rules.jokers else np.zeros_like(nil)
    has_little = (res.hands & _mask([Card.parse("LJ")])) != 0 if rules.jokers else np.zeros_like(nil)
    groups = {
        "big joker": has_big,
        "little joker, no big": has_little & ~has_big,
        "no joker": ~(has_big | has_little),
    }
    rows: dict[str, list[Any]] = {k: [] for k in ("holding", "trumps", "nils", "made")}
    for label, held in groups.items():
        for k in range(0, 7):
            sel = nil & held & ((trumps == k) if k < 6 else (trumps >= 6))
            if not sel.any():
                continue
            rows["holding"].append(label)
            rows["trumps"].append(k)
            rows["nils"].append(int(sel.sum()))
            rows["made"].append(int(made[sel].sum()))
    frame = _frame(rows, res)
    frame.insert(1, "play", "heuristic bots" if res.policy == NIL_POLICY else res.policy)
    frame["made_share"] = frame.made / frame.nils
    frame["low"], frame["high"] = wilson(frame.made, frame.nils)
    return frame


# each experiment reads a ``simulate`` result (random play), except "nil", which reads ``nil_play``'s
EXPERIMENTS = {
    "trumps-per-hand": trumps_per_hand,
    "side-cards": side_card_fate,
    "voids": voids_by_trick,
    "top-trumps": top_trumps,
    "nil": nil_success,
}
