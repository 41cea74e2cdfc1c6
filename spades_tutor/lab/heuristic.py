"""The heuristic bots in the batched simulator: ``HeuristicBot``'s choices, vectorised over rounds.

``HeuristicPolicy`` bids and plays exactly as ``spades_tutor.bots.HeuristicBot()`` would at
every seat of the same deal (``HeuristicPolicy("plain")`` as ``HeuristicBot(nil_defence="plain")``,
the earlier defence against a nil). The reference is the unseeded bot, where every tie goes the
deterministic way (the cheapest card from the shorter suit, then hand order; the first of
equally high cards in hand order); ``HeuristicBot(seed=...)`` breaks ties with its own
``random.Random`` and is not reproduced. Nothing here reads the words after the deal.

- Bidding (``heuristic_bid``): the engine's ``likely_tricks`` total and ``nil_advice(...).safe``
  worked out for every hand at once, the total in exact hundredths (``_bid_estimates``); then
  the rounding, the partner's nil, the 13-trick cap and the least team bid (``min_team_bid``)
  as ``heuristic_bid`` applies them. The bot sums floats, so where the exact total sits on a
  rounding edge (x.30, or 2.00 for the nil limit; about 2% of hands) that hand is bid by the
  scalar rule itself, and the float decides.
  Every number and every rule is asked of the engine (``hand_eval`` / ``bots.bidding``), part by
  part, and only put together here: the hand's trump holding (``hand_eval.trump_shares``: the
  total of its shares, and its spare trumps, those with a share of 0; ``hand_eval.nil_risks`` of
  the trumps alone), each side suit's holding (``hand_eval.side_card_value`` for every card of
  every holding, ``_side_suit``; ``nil_risks`` of the holding alone) and the ruffers
  (``hand_eval.ruffing_trumps`` by the spare trumps and the three side suits' lengths, tabulated
  for every split of 13 cards). The structure, which the hand-by-hand test checks: the total is
  the trump total + the side suits' totals + ``RUFFING_TRUMP_VALUE`` per ruffer, and a nil is
  safe when the trumps and each side suit are safe alone. The trump holdings (2**13 to 2**16 of
  them) and the side suits' nil questions are asked lazily: a batch asks the engine about the
  holdings it holds that no batch held before (``np.unique``), and the answers are kept per rule
  set (``_Asked``, under a lock). Asking every trump holding would take about 1.4 s with 16
  trumps; the four seats of a first batch of 16,384 rounds hold about 14,000 of them and ask
  them, side suits included, in 0.2 to 0.3 s (measured on two shared cores); later batches ask few.
- Play (``heuristic_play.choose``): the rules of ``bots/playing.py`` in their order, applied
  round by round in compiled code (numba; the same source runs as Python without it) on masks
  over the simulator's display bits. The suits each seat has shown out of are read from the
  plays, as the bot's memory reads the tricks. The rule set reaches the play as tables built
  here (``_htables``: the bot's power of each card, the same-suit cards above and below it, the
  cards that beat it for each suit led).

``scalar_heuristic_round`` is the reference: round ``r`` dealt as the simulator deals it,
then ``bots.play_out`` with a ``HeuristicBot()`` at every seat.

>>> import spades_tutor as st
>>> from spades_tutor.lab import simulate
>>> rules = st.Rules.preset("jokers")
>>> res = simulate(rules, 50, seed=3, policy="heuristic")
>>> rnd = scalar_heuristic_round(rules, 3, 17)
>>> [h.points for h in rnd.score().values()] == res.points[17].tolist()
True
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import threading
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from ..bots.bidding import NIL_BELOW, ROUND_UP_FROM, heuristic_bid_number
from ..bots.playing import NIL_DEFENCES
from ..engine import NIL, Bid, Card, Rank, Round, Rules, Seat, Suit, full_pack, hand_eval
from .card_tables import card_tables
from .heuristic_play import choose
from .table import Table
from .words import DEAL, DEALER, round_words

__all__ = ["HeuristicPolicy", "scalar_heuristic_round"]

_ONE = np.uint64(1)
_CARDS = full_pack()
# the bidder's numbers in hundredths of a trick (the batched bidder sums exact hundredths)
_ROUND_UP_FROM = round(ROUND_UP_FROM * 100)
_NIL_BELOW = round(NIL_BELOW * 100)


def _hundredths(share: float) -> int:
    return round(share * 100)


@dataclasses.dataclass(frozen=True, eq=False)
class _HTables:
    """Per-rule-set lookups by display bit for the heuristic player (``heuristic_play``)."""

    power: npt.NDArray[np.int64]  # the bot's power: rank for side cards, 100 + ... for trumps
    higher: npt.NDArray[np.uint64]  # display-bit mask of same-suit cards with more power
    lower: npt.NDArray[np.uint64]  # ... and with less power
    beats: npt.NDArray[np.uint64]  # beats[led * 64 + b]: cards that beat card b in a trick led with ``led``
    deck_mask: np.uint64
    hand_cards: tuple[Card, ...]  # display bit -> Card


@functools.lru_cache(maxsize=32)
def _htables(rules: Rules) -> _HTables:
    t = card_tables(rules)
    display = [_CARDS[int(i)] for i in t.card_of_bit]
    order = rules.trump_order()
    power = np.zeros(64, dtype=np.int64)
    power[:52] = [int(c.rank) for c in display]
    place = {c.index: i for i, c in enumerate(order)}
    for b, c in enumerate(display):
        if c.index in place:
            power[b] = 100 + len(order) - place[c.index]
    suit = t.suit_of_bit
    higher = np.zeros(64, dtype=np.uint64)
    lower = np.zeros(64, dtype=np.uint64)
    beats = np.zeros(4 * 64, dtype=np.uint64)
    for b in range(52):
        for o in range(52):
            if suit[o] == suit[b] and power[o] > power[b]:
                higher[b] |= _ONE << np.uint64(o)
                lower[o] |= _ONE << np.uint64(b)
            for led in range(4):
                if power[o] > power[b] and (power[o] > 100 or suit[o] == led):
                    beats[led * 64 + b] |= _ONE << np.uint64(o)
    return _HTables(
        power=power,
        higher=higher,
        lower=lower,
        beats=beats,
        deck_mask=np.uint64((1 << 52) - 1),
        hand_cards=tuple(display),
    )


class HeuristicPolicy:
    """``HeuristicBot()`` at every seat, batched (see the module docstring)."""

    name = "heuristic"

    def __init__(self, nil_defence: str = "strong") -> None:
        if nil_defence not in NIL_DEFENCES:
            raise ValueError(f"nil_defence must be one of {', '.join(NIL_DEFENCES)}, not {nil_defence!r}")
        #: ``HeuristicBot(nil_defence=...)``'s defence against an opponent's nil
        self.nil_defence = nil_defence

    # --- bidding --------------------------------------------------------------------------

    def bid(self, table: Table, position: int) -> tuple[npt.NDArray[np.integer], npt.NDArray[np.bool_]]:
        rules = table.rules
        n = len(table)
        rows = np.arange(n)
        seat = (table.dealer + 1 + position) % 4
        hands = table.dealt[rows, seat]
        hundredths, nil_safe = _bid_estimates(rules, hands)
        partner = table.bids[rows, (seat + 2) % 4].astype(np.intp) if position >= 2 else None
        tricks = np.clip(
            (hundredths + 100 - _ROUND_UP_FROM) // 100, 1, 13
        )  # int(total + 1 - ROUND_UP_FROM), at least 1
        nil = (hundredths < _NIL_BELOW) & nil_safe if rules.nil else np.zeros(n, dtype=bool)
        if partner is not None:
            nil &= partner != 0
            cap = (partner != 0) & (partner + tricks > 13)
            tricks = np.where(cap, np.maximum(1, 13 - partner), tricks)
        tricks = np.where(nil, 0, tricks)
        # where the estimate sits on a rounding edge (x.30, or 2.00 for nil) the float sum decides: ask the bidder
        edge = np.flatnonzero((hundredths % 100 == _ROUND_UP_FROM) | (hundredths == _NIL_BELOW))
        cards = _htables(rules).hand_cards
        for i in edge:
            m = int(hands[i])
            hand = [cards[b] for b in range(52) if m >> b & 1]
            tricks[i] = _bid_one(rules, hand, None if partner is None else int(partner[i]))
        need = rules.min_team_bid
        if partner is not None and need:  # ``heuristic_bid`` raises a number bid to the least team bid
            low = (partner != 0) & (tricks != 0) & (partner + tricks < need)
            tricks = np.where(low, need - partner, tricks)
        return tricks.astype(np.int8), np.zeros(n, dtype=bool)

    # --- play -----------------------------------------------------------------------------

    def play(self, table: Table, legal: npt.NDArray[np.uint64]) -> npt.NDArray[np.intp]:
        h = _htables(table.rules)
        t = table.tables
        out = np.empty(len(table), dtype=np.intp)
        choose(
            legal.view(np.int64),
            table.seat,
            table.hands.view(np.int64),
            table.bids,
            table.taken,
            table.plays,
            table.leaders,
            table.leader,
            table.trick,
            table.best_pos,
            table.led,
            table.played.view(np.int64),
            table.step,
            h.power,
            h.higher.view(np.int64),
            h.lower.view(np.int64),
            h.beats.view(np.int64),
            t.suit_of_bit,
            t.suit_mask.view(np.int64),
            int(t.trump_mask),
            int(h.deck_mask),
            self.nil_defence == "strong",
            table.rules.failed_nil_tricks == "partner",
            out,
        )
        return out


class _Asked:
    """The engine's answers for holdings by index, asked the first time a batch holds them.

    ``ask(holding)`` gives a holding's ``fields`` whole numbers. The answers are kept for the
    rule set (the tables live in ``_bid_tables``' cache); a lock keeps the asking whole when a
    policy serves several worker threads.
    """

    def __init__(self, size: int, fields: int, ask: Callable[[int], tuple[int, ...]]) -> None:
        self._ask = ask
        self._known = np.zeros(size, dtype=bool)
        self._answers = np.zeros((size, fields), dtype=np.int32)
        self._lock = threading.Lock()

    def __call__(self, holding: npt.NDArray[np.intp]) -> npt.NDArray[np.int32]:
        """The answers for each holding, ``(len(holding), fields)``."""
        with self._lock:
            new = np.unique(holding[~self._known[holding]])
            for h in new.tolist():
                self._answers[h] = self._ask(h)
            self._known[new] = True
            return self._answers[holding]


@dataclasses.dataclass(frozen=True, eq=False)
class _SideSuit:
    """One side suit's holdings as ``likely_tricks`` / ``nil_advice`` judge them, by holding index.

    A hand's holding in the suit is ``(hand >> shift) & (2**width - 1)``: the suit's non-trump
    cards sit in ``width`` consecutive display bits from ``shift`` (``rules.sort_hand`` keeps a
    suit together).
    """

    shift: np.uint64
    holding_mask: np.uint64
    value: npt.NDArray[np.int64]  # the holding's side cards' shares, in hundredths
    nil_safe: _Asked  # 1 where ``hand_eval.nil_risks`` finds no risk in the holding alone


def _side_suit(rules: Rules, held: list[Card], shift: int, fade: float) -> _SideSuit:
    """Value every holding of one side suit with ``hand_eval.side_card_value``, card by card, as
    ``likely_tricks`` values a side card: by its rank, its suit's length and the ace beside it. Every
    rank is asked, so a rank the engine starts to count is counted here too. Whether a holding makes
    a nil risky is ``hand_eval.nil_risks`` of the holding alone, asked as batches hold it."""
    width = len(held)
    holding = np.arange(1 << width, dtype=np.int64)
    bits = (holding[:, None] >> np.arange(width)) & 1  # (holdings, width): the cards held
    length = bits.sum(axis=1)
    ranks = [c.rank for c in held]
    ace = bits[:, ranks.index(Rank.ACE)] != 0 if Rank.ACE in ranks else np.zeros(len(holding), dtype=bool)
    # shares[j, length, ace beside]: the j-th card's share, in hundredths
    shares = np.zeros((width, 14, 2), dtype=np.int64)
    for j, rank in enumerate(ranks):
        for n in range(1, 14):
            for beside in (False, True):
                shares[j, n, int(beside)] = _hundredths(
                    hand_eval.side_card_value(rank, n, ace_beside=beside, fade=fade)
                )
    value = (bits * shares[np.arange(width), length[:, None], ace[:, None].astype(np.intp)]).sum(axis=1)

    def nil_safe(h: int) -> tuple[int]:
        return (int(not hand_eval.nil_risks(rules, [c for j, c in enumerate(held) if h >> j & 1])),)

    return _SideSuit(np.uint64(shift), np.uint64((1 << width) - 1), value, _Asked(1 << width, 1, nil_safe))


def _trump_holdings(rules: Rules) -> _Asked:
    """For each trump holding (bit ``j``: the ``j``-th trump of ``rules.trump_order()`` held): the
    total of ``hand_eval.trump_shares`` in hundredths, the spare trumps (a share of 0) and 1 where
    ``hand_eval.nil_risks`` finds no risk in the trumps alone."""
    order = rules.trump_order()

    def ask(h: int) -> tuple[int, int, int]:
        trumps = [c for j, c in enumerate(order) if h >> j & 1]
        shares = hand_eval.trump_shares(rules, trumps)
        return sum(map(_hundredths, shares)), shares.count(0.0), int(not hand_eval.nil_risks(rules, trumps))

    return _Asked(1 << len(order), 3, ask)


def _ruffers(side_suits: int) -> npt.NDArray[np.int64]:
    """``hand_eval.ruffing_trumps`` by [spare trumps, length of each side suit...], for every
    split of a hand's 13 cards (the rest cannot be dealt and stay 0)."""
    table = np.zeros((14,) * (1 + side_suits), dtype=np.int64)
    for split in itertools.product(range(14), repeat=1 + side_suits):
        if sum(split) <= 13:
            table[split] = hand_eval.ruffing_trumps(split[0], split[1:])
    return table


@dataclasses.dataclass(frozen=True, eq=False)
class _BidTables:
    """The pieces of ``likely_tricks`` / ``nil_advice`` that depend on the rule set only."""

    trump_bits: npt.NDArray[np.uint64]  # the display bit of each trump, in trump order
    trumps: _Asked  # by trump holding: trump_shares' total (hundredths), spare trumps, nil safe
    side: tuple[_SideSuit, ...]  # hearts, clubs, diamonds
    ruffers: npt.NDArray[np.int64]  # ruffing_trumps by [spare, hearts, clubs, diamonds]


@functools.lru_cache(maxsize=32)
def _bid_tables(rules: Rules) -> _BidTables:
    t = card_tables(rules)
    order = rules.trump_order()
    trump_bits = np.array([int(t.bit_of_card[c.index]) for c in order], dtype=np.uint64)
    fade = hand_eval.side_fade(rules)
    side = []
    display = _htables(rules).hand_cards
    for suit in (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS):
        bits = [b for b in range(52) if not t.trump_bit[b] and t.suit_of_bit[b] == suit]
        if bits != list(range(bits[0], bits[0] + len(bits))):  # sort_hand keeps a suit's cards together
            raise ValueError(f"the {suit.plural} of {rules.name} are not together in display order")
        side.append(_side_suit(rules, [display[b] for b in bits], bits[0], fade))
    return _BidTables(trump_bits, _trump_holdings(rules), tuple(side), _ruffers(len(side)))


def _bid_estimates(rules: Rules, hands: npt.NDArray[np.uint64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """``likely_tricks``' total in exact hundredths, and ``nil_advice(...).safe``, for display-bit hands:
    the parts' answers put together (see the module docstring)."""
    tables = _bid_tables(rules)
    holding = np.zeros(len(hands), dtype=np.intp)
    for j, bit in enumerate(tables.trump_bits):
        holding |= ((hands >> bit) & _ONE).astype(np.intp) << j
    trumps = tables.trumps(holding)
    total = trumps[:, 0].astype(np.int64)
    spare = trumps[:, 1].astype(np.intp)
    safe = trumps[:, 2] != 0
    lengths = []
    for suit in tables.side:
        suit_holding = ((hands >> suit.shift) & suit.holding_mask).astype(np.intp)
        lengths.append(np.bitwise_count(suit_holding).astype(np.intp))
        total += suit.value[suit_holding]
        safe &= suit.nil_safe(suit_holding)[:, 0] != 0
    total += _hundredths(hand_eval.RUFFING_TRUMP_VALUE) * tables.ruffers[(spare, *lengths)]
    return total, safe


def _bid_one(rules: Rules, hand: list[Card], partner: int | None) -> int:
    """``heuristic_bid``'s number for a hand (0 = nil); ``partner`` is the partner's bid if made."""
    return heuristic_bid_number(rules, hand, None if partner is None else Bid(partner) if partner else NIL)


def scalar_heuristic_round(
    rules: Rules, seed: int, r: int, dealer: Seat | int | None = None, nil_defence: str = "strong"
) -> Round:
    """Round ``r`` of ``simulate(rules, ..., seed, policy="heuristic", dealer=dealer)``, played by
    ``HeuristicBot()`` at every seat through the engine (the deal as ``replay.replay_round`` makes it);
    ``nil_defence`` as ``HeuristicPolicy(nil_defence)`` plays."""
    from ..bots import HeuristicBot, play_out
    from ..engine import Round as _Round
    from .words import choose

    words = [int(w) for w in round_words(seed, r, 1)[0]]
    deck = rules.deck()
    order = sorted(range(52), key=lambda i: (words[DEAL + i] & ~63) | i)
    first = (choose(words[DEALER], 4) if dealer is None else int(dealer)) + 1
    dealt = {Seat((first + i) % 4): [deck[j] for j in order[i::4]] for i in range(4)}
    rnd = _Round.from_hands(rules, dealt, dealer=Seat((first - 1) % 4))
    bot = HeuristicBot(nil_defence=nil_defence)
    return play_out(rnd, {s: bot for s in Seat})
