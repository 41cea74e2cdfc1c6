"""Many rounds at one table at once: the deal, the bidding and thirteen tricks, vectorised.

A ``Table`` holds the state of ``n`` rounds as numpy arrays (hands are uint64 masks over
the display bits of ``card_tables.py``). ``deal`` fills it from the rounds' words; ``play_out``
asks a policy for every bid and card. The loop runs over the 4 bids and the 52 cards,
never over the rounds.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..engine import Rules
from .card_tables import CardTables, card_tables
from .words import DEALER, choose_many, deal_order, top_halves

if TYPE_CHECKING:
    from .policy import Policy  # type-only: the policies drive a Table, and a Table is played by one

__all__ = ["Table", "bid_out", "deal", "play_out"]

_ONE = np.uint64(1)


@dataclasses.dataclass(eq=False)
class Table:
    """The state of ``n`` rounds. Per-seat arrays are ``[round, seat]`` (seats N, E, S, W);
    per-step arrays are ``[step, round]`` so that each step's row is contiguous.

    What a policy may read while choosing: ``hands`` (display-bit masks still held), ``dealt``,
    ``bids``/``blind``, ``taken``, ``trick[pos]`` (display bits played to the current trick, by
    position from the leader; -1 = not yet), ``leader``, ``seat`` (to act), ``led`` (the suit led),
    ``best_power``/``best_pos`` (the card winning the trick so far), ``broken``, ``plays``,
    ``played`` (a display-bit mask of every card played so far, current trick included),
    ``step`` (cards played so far in every round), ``words`` and ``top`` (``words.top_halves``).
    Policies must not change the state.
    """

    rules: Rules
    tables: CardTables
    words: npt.NDArray[np.uint64]  # (n, WORDS)
    dealer: npt.NDArray[np.intp]
    dealt: npt.NDArray[np.uint64]  # (n, 4) display-bit masks as dealt
    hands: npt.NDArray[np.uint64]  # (n, 4) display-bit masks still held
    dealt_cards: npt.NDArray[np.uint64]  # (n, 4) the deal as Card.index masks (for results)
    top: npt.NDArray[np.uint32] = dataclasses.field(init=False)  # (WORDS, n)
    bids: npt.NDArray[np.int8] = dataclasses.field(init=False)
    blind: npt.NDArray[np.bool_] = dataclasses.field(init=False)
    taken: npt.NDArray[np.int8] = dataclasses.field(init=False)
    plays: npt.NDArray[np.int8] = dataclasses.field(init=False)  # (52, n) display bits in play order
    leaders: npt.NDArray[np.int8] = dataclasses.field(init=False)  # (13, n)
    winners: npt.NDArray[np.int8] = dataclasses.field(init=False)  # (13, n)
    trick: npt.NDArray[np.intp] = dataclasses.field(init=False)  # (4, n)
    leader: npt.NDArray[np.intp] = dataclasses.field(init=False)
    seat: npt.NDArray[np.intp] = dataclasses.field(init=False)
    led: npt.NDArray[np.intp] = dataclasses.field(init=False)
    best_power: npt.NDArray[np.uint8] = dataclasses.field(init=False)
    best_pos: npt.NDArray[np.intp] = dataclasses.field(init=False)
    broken: npt.NDArray[np.bool_] = dataclasses.field(init=False)
    played: npt.NDArray[np.uint64] = dataclasses.field(init=False)
    step: int = 0

    def __post_init__(self) -> None:
        n = len(self.dealer)
        self.top = top_halves(self.words)
        self.bids = np.zeros((n, 4), dtype=np.int8)
        self.blind = np.zeros((n, 4), dtype=bool)
        self.taken = np.zeros((n, 4), dtype=np.int8)
        self.plays = np.zeros((52, n), dtype=np.int8)
        self.leaders = np.zeros((13, n), dtype=np.int8)
        self.winners = np.zeros((13, n), dtype=np.int8)
        self.trick = np.full((4, n), -1, dtype=np.intp)
        self.leader = (self.dealer + 1) % 4
        self.seat = self.leader.copy()
        self.led = np.zeros(n, dtype=np.intp)
        self.best_power = np.zeros(n, dtype=np.uint8)
        self.best_pos = np.zeros(n, dtype=np.intp)
        self.broken = np.zeros(n, dtype=bool)
        self.played = np.zeros(n, dtype=np.uint64)

    def __len__(self) -> int:
        return len(self.dealer)


def deal(rules: Rules, words: npt.NDArray[np.uint64], dealer: int | None = None) -> Table:
    """Shuffle and deal every round from its words (see ``words.py``); ``dealer`` fixes the seat."""
    tables = card_tables(rules)
    n = len(words)
    if dealer is None:
        dealers = choose_many(words[:, DEALER], 4).astype(np.intp)
    else:
        dealers = np.full(n, int(dealer), dtype=np.intp)
    order = deal_order(words)  # (n, 52): deck positions in dealing order
    seats = (dealers[:, None] + 1 + np.arange(4)) % 4
    deck = [c.index for c in rules.deck()]

    def by_seat(bit_of_card: npt.NDArray[np.integer]) -> npt.NDArray[np.uint64]:
        bits = (_ONE << bit_of_card[deck].astype(np.uint64))[order].reshape(n, 13, 4)
        by_offset = bits[:, 0].copy()  # [round, offset from the dealer's left]
        for i in range(1, 13):
            by_offset |= bits[:, i]
        out = np.empty((n, 4), dtype=np.uint64)
        np.put_along_axis(out, seats, by_offset, axis=1)
        return out

    dealt = by_seat(tables.bit_of_card)
    return Table(rules, tables, words, dealers, dealt, dealt.copy(), by_seat(np.arange(54)))


def play_out(table: Table, policy: Policy) -> None:
    """Bid and play every round of ``table`` to the end, asking ``policy`` for each choice."""
    bid_out(table, policy)
    _play_tricks(table, policy, 4 * np.arange(len(table)))


def bid_out(table: Table, policy: Policy) -> None:
    """The bidding of every round of ``table``, asking ``policy`` for each bid (the play is left to come)."""
    rows = np.arange(len(table))
    for position in range(4):
        seat = (table.dealer + 1 + position) % 4
        table.seat = seat
        tricks, blind = policy.bid(table, position)
        table.bids[rows, seat] = tricks
        table.blind[rows, seat] = blind


def _play_tricks(table: Table, policy: Policy, flat4: npt.NDArray[np.intp]) -> None:
    t = table.tables
    hands = table.hands.reshape(-1)  # a view: writes land in table.hands
    taken = table.taken.reshape(-1)
    power, suit_mask, suit_of_bit, trump_bit = t.power, t.suit_mask, t.suit_of_bit, t.trump_bit
    not_trump = ~t.trump_mask
    if t.first_lead_bit is not None:  # the 2♣ holder leads it
        holder = (table.dealt & (_ONE << np.uint64(t.first_lead_bit))) != 0
        table.leader = np.argmax(holder, axis=1).astype(np.intp)
    led_mask = suit_mask[table.led]
    led_row = table.led * 64
    for trick in range(13):
        leader = table.leader
        table.trick[:] = -1
        for pos in range(4):
            seat = (leader + pos) & 3
            table.seat = seat
            where = flat4 + seat
            hand = hands[where]
            if pos == 0:
                if trick == 0 and t.first_lead_bit is not None:
                    legal = np.full(len(hand), _ONE << np.uint64(t.first_lead_bit), dtype=np.uint64)
                else:
                    side = hand & not_trump
                    legal = np.where(table.broken | (side == 0), hand, side)
            else:
                follow = hand & led_mask
                legal = np.where(follow != 0, follow, hand)
            bit = policy.play(table, legal)
            card = _ONE << bit.astype(np.uint64)
            hands[where] = hand ^ card
            table.played |= card
            table.plays[table.step] = bit
            table.trick[pos] = bit
            table.step += 1
            if pos == 0:
                table.led = suit_of_bit[bit]
                led_mask = suit_mask[table.led]
                led_row = table.led * 64
                table.best_power = power[led_row + bit]
                table.best_pos = np.zeros(len(bit), dtype=np.intp)
            else:
                p = power[led_row + bit]
                better = p > table.best_power
                table.best_power = np.where(better, p, table.best_power)
                table.best_pos = np.where(better, pos, table.best_pos)
            table.broken |= trump_bit[bit]
        winner = (leader + table.best_pos) & 3
        taken[flat4 + winner] += 1
        table.leaders[trick] = leader
        table.winners[trick] = winner
        table.leader = winner
