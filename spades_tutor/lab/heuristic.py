"""The heuristic bots in the batched simulator: ``HeuristicBot``'s choices, vectorised over rounds.

``HeuristicPolicy`` bids and plays exactly as ``spades_tutor.bots.HeuristicBot()`` would at
every seat of the same deal (``HeuristicPolicy("plain")`` as ``HeuristicBot(nil_defence="plain")``,
the earlier defence against a nil). The reference is the unseeded bot, where every tie goes the
deterministic way (the cheapest card from the shorter suit, then hand order; the first of
equally high cards in hand order); ``HeuristicBot(seed=...)`` breaks ties with its own
``random.Random`` and is not reproduced. Nothing here reads the words after the deal.

- Bidding (``heuristic_bid``): the engine's ``likely_tricks`` total and ``nil_advice(...).safe``
  worked out for every hand at once, the total in exact hundredths (``_bid_estimates``); then
  the rounding, the partner's nil and the 13-trick cap as ``heuristic_bid`` applies them. The
  bot sums floats, so where the exact total sits on a rounding edge (x.30, or 2.00 for the nil
  limit; about 2% of hands) that hand is bid by the scalar rule itself, and the float decides.
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
- Memory: the suits each seat has shown out of are read from the plays, as the bot's memory
  reads the tricks (kept per table, so one policy may serve several worker threads).
- Play (``HeuristicPlayer``): the rules of ``bots/playing.py`` in their order, each worked
  out for every round at once on uint64 masks over the simulator's display bits. The
  "cheapest" and "highest" cards come from a second bit order (the bot's card power,
  then display order), with the bot's tie-break (shorter suit first) applied on top.

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
import weakref
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from ..bots.bidding import NIL_BELOW, ROUND_UP_FROM, heuristic_bid_number
from ..bots.playing import NIL_DEFENCES
from ..engine import NIL, Bid, Card, Rank, Round, Rules, Seat, Suit, full_pack, hand_eval
from .card_tables import card_tables
from .table import Table
from .words import DEAL, DEALER, round_words

__all__ = ["HeuristicPolicy", "scalar_heuristic_round"]

_SPADES = 3
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_CARDS = full_pack()
# the bidder's numbers in hundredths of a trick (the batched bidder sums exact hundredths)
_ROUND_UP_FROM = round(ROUND_UP_FROM * 100)
_NIL_BELOW = round(NIL_BELOW * 100)


def _hundredths(share: float) -> int:
    return round(share * 100)


@dataclasses.dataclass(frozen=True, eq=False)
class _HTables:
    """Per-rule-set lookups by display bit for the heuristic player."""

    power: npt.NDArray[np.int16]  # the bot's power: rank for side cards, 100 + ... for trumps
    higher: npt.NDArray[np.uint64]  # display-bit mask of same-suit cards with more power
    lower: npt.NDArray[np.uint64]  # ... and with less power
    beats: npt.NDArray[np.uint64]  # beats[led * 64 + b]: cards that beat card b in a trick led with ``led``
    to_order: tuple[npt.NDArray[np.uint64], ...]  # 16-bit chunk of a display mask -> power-order mask
    bit_at: npt.NDArray[np.intp]  # power-order position -> display bit
    same_power: npt.NDArray[np.uint64]  # power-order position -> display mask of the cards of that power
    suit_mask: npt.NDArray[np.uint64]
    trump_mask: np.uint64
    deck_mask: np.uint64
    hand_cards: tuple[Card, ...]  # display bit -> Card


@functools.lru_cache(maxsize=32)
def _htables(rules: Rules) -> _HTables:
    t = card_tables(rules)
    display = [_CARDS[int(i)] for i in t.card_of_bit]
    order = rules.trump_order()
    power = np.array([int(c.rank) for c in display], dtype=np.int16)
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
    ranked = sorted(range(52), key=lambda b: (int(power[b]), b))
    position = np.empty(52, dtype=np.int64)
    position[ranked] = np.arange(52)
    chunks = []
    v = np.arange(1 << 16, dtype=np.uint64)
    for k in range(4):
        table = np.zeros(1 << 16, dtype=np.uint64)
        for j in range(16):
            b = 16 * k + j
            if b < 52:
                table |= ((v >> np.uint64(j)) & _ONE) << np.uint64(position[b])
        chunks.append(table)
    bit_at = np.zeros(64, dtype=np.intp)
    bit_at[:52] = ranked
    same_power = np.zeros(64, dtype=np.uint64)
    for r, b in enumerate(ranked):
        same_power[r] = np.uint64(sum(1 << o for o in range(52) if power[o] == power[b]))
    return _HTables(
        power=power,
        higher=higher,
        lower=lower,
        beats=beats,
        to_order=tuple(chunks),
        bit_at=bit_at,
        same_power=same_power,
        suit_mask=t.suit_mask,
        trump_mask=t.trump_mask,
        deck_mask=np.uint64((1 << 52) - 1),
        hand_cards=tuple(display),
    )


# --- bit helpers ----------------------------------------------------------------------------


def _low_index(x: npt.NDArray[np.uint64]) -> npt.NDArray[np.intp]:
    """Index of the lowest set bit (x != 0)."""
    return np.bitwise_count((x & (~x + _ONE)) - _ONE).astype(np.intp)


def _high_index(x: npt.NDArray[np.uint64]) -> npt.NDArray[np.intp]:
    """Index of the highest set bit (x != 0)."""
    for s in (1, 2, 4, 8, 16, 32):
        x = x | (x >> np.uint64(s))
    return np.bitwise_count(x).astype(np.intp) - 1


def _bit(i: npt.NDArray[np.intp]) -> npt.NDArray[np.uint64]:
    return _ONE << i.astype(np.uint64)


class _Step:
    """One decision for every round of a table: the position worked out once (as ``_Choice``)."""

    def __init__(self, h: _HTables, hand: npt.NDArray[np.uint64]) -> None:
        self.h = h
        self.hand = hand
        # lengths[s] of the hand, for the tie-break of ``lowest``
        self.lengths = [np.bitwise_count(hand & h.suit_mask[s]).astype(np.intp) for s in range(4)]

    def _order(self, mask: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
        t = self.h.to_order
        m16 = np.uint64(0xFFFF)
        ordered: npt.NDArray[np.uint64] = (
            t[0][mask & m16]
            | t[1][(mask >> np.uint64(16)) & m16]
            | t[2][(mask >> np.uint64(32)) & m16]
            | t[3][mask >> np.uint64(48)]
        )
        return ordered

    def lowest(self, mask: npt.NDArray[np.uint64]) -> npt.NDArray[np.intp]:
        """``_Choice.lowest``: least power, then the shorter suit, then display order (-1 if empty)."""
        h = self.h
        empty = mask == 0
        pos = _low_index(np.where(empty, _ONE, self._order(mask)))
        ties = mask & h.same_power[pos]
        best = np.full(len(mask), 1 << 20, dtype=np.intp)
        for s in range(4):
            m = ties & h.suit_mask[s]
            key = np.where(m != 0, self.lengths[s] * 64 + _low_index(np.where(m != 0, m, _ONE)), 1 << 20)
            best = np.minimum(best, key)
        return np.where(empty, -1, best & 63)

    def highest(self, mask: npt.NDArray[np.uint64]) -> npt.NDArray[np.intp]:
        """``_Choice.highest``: most power, then display order (-1 if empty)."""
        h = self.h
        empty = mask == 0
        pos = _high_index(np.where(empty, _ONE, self._order(mask)))
        ties = mask & h.same_power[pos]
        return np.where(empty, -1, _low_index(np.where(empty, _ONE, ties)))


@dataclasses.dataclass
class _Memory:
    """The suits each seat has shown out of, per round, read from the plays up to ``step``."""

    step: int
    voids: npt.NDArray[np.uint8]  # (n, 4) a bit per suit


class HeuristicPolicy:
    """``HeuristicBot()`` at every seat, batched (see the module docstring)."""

    name = "heuristic"

    def __init__(self, nil_defence: str = "strong") -> None:
        if nil_defence not in NIL_DEFENCES:
            raise ValueError(f"nil_defence must be one of {', '.join(NIL_DEFENCES)}, not {nil_defence!r}")
        #: ``HeuristicBot(nil_defence=...)``'s defence against an opponent's nil
        self.nil_defence = nil_defence
        # per table (``simulate`` may run several tables of one policy on worker threads)
        self._memory: weakref.WeakKeyDictionary[Table, _Memory] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

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
        return tricks.astype(np.int8), np.zeros(n, dtype=bool)

    # --- play -----------------------------------------------------------------------------

    def _voids(self, table: Table) -> npt.NDArray[np.uint8]:
        n = len(table)
        with self._lock:
            mem = self._memory.get(table)
            if mem is None or mem.step > table.step:
                mem = self._memory[table] = _Memory(0, np.zeros((n, 4), dtype=np.uint8))
        suit = card_tables(table.rules).suit_of_bit
        rows = np.arange(n)
        done = table.step // 4  # completed tricks
        for j in range(mem.step, table.step):
            t, pos = divmod(j, 4)
            leader = table.leaders[t].astype(np.intp) if t < done else table.leader
            seat = (leader + pos) & 3
            led = suit[table.plays[4 * t]]
            off = suit[table.plays[j]] != led
            mem.voids[rows[off], seat[off]] |= (1 << led[off]).astype(np.uint8)
        mem.step = table.step
        return mem.voids

    def play(self, table: Table, legal: npt.NDArray[np.uint64]) -> npt.NDArray[np.intp]:
        h = _htables(table.rules)
        n = len(table)
        rows = np.arange(n)
        me = table.seat
        partner = (me + 2) & 3
        hand = table.hands[rows, me]
        voids = self._voids(table)
        pos = table.step % 4
        out = h.deck_mask & ~table.played & ~hand
        mine = table.bids[rows, me].astype(np.intp)
        theirs = table.bids[rows, partner].astype(np.intp)
        won_me = table.taken[rows, me].astype(np.intp)
        won_p = table.taken[rows, partner].astype(np.intp)
        contract = mine + theirs
        counted = np.where(mine != 0, won_me, 0) + np.where(theirs != 0, won_p, 0)
        if table.rules.failed_nil_tricks == "partner":
            counted += np.where(mine != 0, 0, won_me) + np.where(theirs != 0, 0, won_p)
        made = counted >= contract
        my_nil = (mine == 0) & (won_me == 0)
        partner_nil = (theirs == 0) & (won_p == 0)
        # the opponents (left, right) whose nil may still be set
        left, right = (me + 1) & 3, (me + 3) & 3
        nil_opp = [(table.bids[rows, o] == 0) & (table.taken[rows, o] == 0) for o in (left, right)]
        opp_voids = [voids[rows, o].astype(np.intp) for o in (left, right)]
        out_trumps = np.bitwise_count(out & h.trump_mask)
        # the cards no card still out can beat in their own suit (``is_master``)
        st = _Step(h, hand)
        master = np.zeros(n, dtype=np.uint64)
        for s in range(4):
            o = out & h.suit_mask[s]
            top = st.highest(o)  # the strongest card of the suit still out
            master |= np.where(o != 0, h.higher[np.maximum(top, 0)], h.suit_mask[s])
        strong = self.nil_defence == "strong"
        if pos == 0:
            setting, open_low = _nil_lead(st, legal, out, master, nil_opp, opp_voids)
            if strong:  # no lead forces the nil: the lowest card of a suit the nil bidder still holds
                setting = np.where(setting >= 0, setting, open_low)
            choice = self._lead(st, legal, me, voids, master, out_trumps, my_nil, partner_nil, setting, made)
        else:
            choice = self._follow(
                st,
                table,
                legal,
                pos,
                me,
                voids,
                master,
                out,
                out_trumps,
                my_nil,
                partner_nil,
                nil_opp,
                opp_voids,
                made,
                strong,
            )
        return choice

    def _lead(
        self,
        st: _Step,
        legal: npt.NDArray[np.uint64],
        me: npt.NDArray[np.intp],
        voids: npt.NDArray[np.uint8],
        master: npt.NDArray[np.uint64],
        out_trumps: npt.NDArray[np.integer],
        my_nil: npt.NDArray[np.bool_],
        partner_nil: npt.NDArray[np.bool_],
        setting: npt.NDArray[np.intp],
        made: npt.NDArray[np.bool_],
    ) -> npt.NDArray[np.intp]:
        h = st.h
        rows = np.arange(len(legal))
        spade = h.suit_mask[_SPADES]
        trumps = legal & spade
        side = legal & ~spade
        low_legal = st.lowest(legal)
        high_legal = st.highest(legal)
        top = st.highest(trumps)
        top_master = (trumps != 0) & ((_bit(np.maximum(top, 0)) & master) != 0)
        pull = top_master & (out_trumps >= 2) & (side != 0)
        opp = (voids[rows, (me + 1) & 3] | voids[rows, (me + 3) & 3]).astype(np.intp)
        blocked = np.zeros(len(legal), dtype=np.uint64)
        for s in range(3):
            hit = (out_trumps > 0) & ((opp >> s) & 1 != 0)
            blocked |= np.where(hit, h.suit_mask[s], _ZERO)
        masters = side & master & ~blocked
        high_master = st.highest(masters)
        # the longest suit among the side cards (ties: the lowest suit number, as max() over a small-int set)
        longest = np.full(len(legal), -1, dtype=np.intp)
        best_len = np.full(len(legal), -1, dtype=np.intp)
        for s in range(4):
            present = (side & h.suit_mask[s]) != 0
            better = present & (st.lengths[s] > best_len)
            longest = np.where(better, s, longest)
            best_len = np.where(better, st.lengths[s], best_len)
        long_side = side & h.suit_mask[np.maximum(longest, 0)]
        low_long = st.lowest(long_side)
        low_trump = st.lowest(trumps)
        return np.select(
            [my_nil, partner_nil, setting >= 0, made, pull, masters != 0, side != 0, top_master],
            [low_legal, high_legal, setting, low_legal, top, high_master, low_long, top],
            default=low_trump,
        )

    def _follow(
        self,
        st: _Step,
        table: Table,
        legal: npt.NDArray[np.uint64],
        pos: int,
        me: npt.NDArray[np.intp],
        voids: npt.NDArray[np.uint8],
        master: npt.NDArray[np.uint64],
        out: npt.NDArray[np.uint64],
        out_trumps: npt.NDArray[np.integer],
        my_nil: npt.NDArray[np.bool_],
        partner_nil: npt.NDArray[np.bool_],
        nil_opp: list[npt.NDArray[np.bool_]],
        opp_voids: list[npt.NDArray[np.intp]],
        made: npt.NDArray[np.bool_],
        strong: bool,
    ) -> npt.NDArray[np.intp]:
        h = st.h
        n = len(legal)
        rows = np.arange(n)
        led = table.led
        wpos = table.best_pos
        wcard = table.trick[wpos, rows]
        winner = (table.leader + wpos) & 3
        beaters = legal & h.beats[led * 64 + wcard]
        under = legal & ~beaters
        following = (legal & h.suit_mask[led]) != 0
        last = pos == 3
        partner = (me + 2) & 3
        partner_played = pos >= 2
        # _Choice.safe(card, led) for every card at once: nobody still to play can beat it
        later_void = np.zeros(n, dtype=bool)  # a player still to come has shown out of the suit led
        for k in range(1, 4 - pos):
            later_void |= ((voids[rows, (me + k) & 3].astype(np.intp) >> led) & 1) != 0
        spade = h.suit_mask[_SPADES]
        led_spades = led == _SPADES
        # spade cards: not beaten in suit, or (led is not spades and nobody later is void in the led suit)
        safe_spades = spade & (master | np.where(led_spades | later_void, _ZERO, ~_ZERO))
        # side cards: not beaten in suit and not (trumps out and a later player void in the led suit)
        safe_side = ~spade & np.where((out_trumps > 0) & later_void, _ZERO, master)
        safe_cards = np.full(n, ~_ZERO, dtype=np.uint64) if last else safe_spades | safe_side  # last: nobody later
        winner_safe = (_bit(wcard) & safe_cards) != 0
        safe_beaters = beaters & safe_cards

        low_legal = st.lowest(legal)
        high_under = st.highest(under)
        low_beat = st.lowest(beaters)
        high_beat = st.highest(beaters)
        low_safe = st.lowest(safe_beaters)
        has_beat = beaters != 0
        has_under = under != 0
        nil_like = np.where(has_under, high_under, high_beat if last else low_beat)  # own nil / contract made

        partner_wins = winner == partner
        conds = [my_nil]
        choices = [nil_like]
        if partner_played:
            conds.append(partner_nil & partner_wins)
            choices.append(np.where(has_beat, low_beat, low_legal))
        else:
            conds.append(partner_nil & has_beat)
            choices.append(high_beat)
        # an opponent's nil: low when the nil bidder (only the left one can be still to play)
        # has not shown out of the suit led; under the nil bidder's winning card
        if not last:
            conds.append(nil_opp[0] & (((opp_voids[0] >> led) & 1) == 0))
            choices.append(low_legal)
        nil_wins = (nil_opp[0] & (winner == ((me + 1) & 3))) | (nil_opp[1] & (winner == ((me + 3) & 3)))
        conds.append(nil_wins & has_under)
        choices.append(high_under)
        if strong:
            # a nil bidder has played under another card and none plays after: throw the highest card
            # (a side card when not following), keeping the low ones to stay under the nil later.
            # The right-hand opponent has always played before a follower; the left one only when last.
            played_nil = nil_opp[1] | (nil_opp[0] if last else np.zeros(n, dtype=bool))
            pending_nil = np.zeros(n, dtype=bool) if last else nil_opp[0]
            side_legal = legal & ~h.suit_mask[_SPADES]
            shed = np.where(following, st.highest(legal), np.where(side_legal != 0, st.highest(side_legal), low_legal))
            conds.append(played_nil & ~pending_nil & ~nil_wins)
            choices.append(shed)
        conds.append(made)
        choices.append(nil_like)
        conds.append(partner_wins)
        if last:
            choices.append(low_legal)
        else:
            choices.append(np.where(winner_safe, low_legal, np.where(safe_beaters != 0, low_safe, low_legal)))
        conds.append(~has_beat)
        choices.append(low_legal)
        trumping = ~following & (led != _SPADES)
        if last:
            rest = low_beat
        else:
            other = np.where(trumping, low_beat, high_beat if pos == 2 else low_legal)
            rest = np.where(safe_beaters != 0, low_safe, other)
        return np.select(conds, choices, default=rest)


def _nil_lead(
    st: _Step,
    legal: npt.NDArray[np.uint64],
    out: npt.NDArray[np.uint64],
    master: npt.NDArray[np.uint64],
    nil_opp: list[npt.NDArray[np.bool_]],
    opp_voids: list[npt.NDArray[np.intp]],
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """``_Choice.lead_against_nil``: per suit an opponent's nil has not shown out of, the lowest
    legal card unless it is a master; of those, the fewest cards out below it, then least power,
    then the shorter suit, then the lower suit number (-1: none); and ``lead_low_against_nil``'s
    card, the lowest legal card of a suit an opponent's nil has not shown out of (-1: none)."""
    h = st.h
    n = len(legal)
    best = np.full(n, -1, dtype=np.intp)
    best_key = np.full(n, 1 << 40, dtype=np.int64)
    open_cards = np.zeros(n, dtype=np.uint64)
    for s in range(4):
        held = legal & h.suit_mask[s]
        open_s = (nil_opp[0] & (((opp_voids[0] >> s) & 1) == 0)) | (nil_opp[1] & (((opp_voids[1] >> s) & 1) == 0))
        open_cards |= np.where(open_s, held, _ZERO)
        card = st.lowest(held)
        c = np.maximum(card, 0)
        ok = (held != 0) & open_s & ((_bit(c) & master) == 0)
        below = np.bitwise_count(h.lower[c] & out).astype(np.int64)
        key = (below * 256 + h.power[c].astype(np.int64)) * 16 + st.lengths[s]
        better = ok & (key < best_key)
        best = np.where(better, card, best)
        best_key = np.where(better, key, best_key)
    return best, st.lowest(open_cards)


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
