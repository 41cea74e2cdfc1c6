"""Per-card tables for the batched simulator, read from a ``Rules`` object.

The simulator holds a hand as a uint64 mask over *display bits*: bit ``b`` is the
``b``-th card of ``rules.sort_hand(rules.deck())``, so the lowest set bit of a
mask is the first card the engine lists, and "the k-th legal card" in the
engine's order is "the k-th set bit". Every fact about a card (its suit for
following, whether it is a trump, its power in a trick) comes from the engine's
public answers (``suit_of``, ``is_trump``, ``power``, ``legal_bids``), so every
preset and house rule carries over without rule knowledge here.

>>> import spades_tutor as st
>>> t = card_tables(st.Rules.preset("jokers"))
>>> [str(st.full_pack()[i]) for i in t.card_of_bit[:3]]
['BJ', 'LJ', 'A♠']
>>> int(t.suit_mask[3]).bit_count(), t.bid_options[0][-1]
(15, (13, False))
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import numpy.typing as npt

from ..engine import Bid, Card, Round, Rules, Seat, Suit

__all__ = ["CardTables", "bid_options_after", "card_tables", "select_bit"]

TWO_OF_CLUBS = Card.parse("2C")


@dataclasses.dataclass(frozen=True, eq=False)
class CardTables:
    """Lookup tables indexed by display bit (0..51); see the module docstring."""

    card_of_bit: npt.NDArray[np.int8]  # Card.index of each display bit
    bit_of_card: npt.NDArray[np.int8]  # display bit of each Card.index (-1: not in the deck)
    suit_of_bit: npt.NDArray[np.intp]  # the suit each card counts as (Suit value)
    trump_bit: npt.NDArray[np.bool_]
    power: npt.NDArray[np.uint8]  # power[led * 64 + bit]: rules.power(card, led), 0 = cannot win
    suit_mask: npt.NDArray[np.uint64]  # suit_mask[suit]: the display bits counting as that suit
    trump_mask: np.uint64
    first_lead_bit: int | None  # the display bit that must open the first trick, if any (2♣)
    bid_options: tuple[tuple[tuple[int, bool], ...], ...]  # per bidding position: (tricks, blind) in order


@functools.lru_cache(maxsize=32)
def card_tables(rules: Rules) -> CardTables:
    """The tables for a rule set (cached per rule set)."""
    display = rules.sort_hand(rules.deck())
    card_of_bit = np.array([c.index for c in display], dtype=np.int8)
    bit_of_card = np.full(54, -1, dtype=np.int8)
    bit_of_card[card_of_bit] = np.arange(52, dtype=np.int8)
    suit_of_bit = np.array([int(rules.suit_of(c)) for c in display], dtype=np.intp)
    trump_bit = np.array([rules.is_trump(c) for c in display], dtype=bool)
    power = np.zeros(4 * 64, dtype=np.uint8)
    for led in Suit:
        for b, c in enumerate(display):
            power[int(led) * 64 + b] = rules.power(c, led)
    bit_values = np.uint64(1) << np.arange(52, dtype=np.uint64)
    suit_mask = np.array([bit_values[suit_of_bit == s].sum() for s in range(4)], dtype=np.uint64)
    first = None
    if rules.first_lead == "two-of-clubs":
        first = int(bit_of_card[TWO_OF_CLUBS.index])
    return CardTables(
        card_of_bit=card_of_bit,
        bit_of_card=bit_of_card,
        suit_of_bit=suit_of_bit,
        trump_bit=trump_bit,
        power=power,
        suit_mask=suit_mask,
        trump_mask=np.uint64(bit_values[trump_bit].sum()),
        first_lead_bit=first,
        bid_options=_bid_options(rules),
    )


def _bid_options(rules: Rules) -> tuple[tuple[tuple[int, bool], ...], ...]:
    """The engine's ``legal_bids()`` at each bidding position of a hand that starts 0-0."""
    deck = rules.deck()
    rnd = Round.from_hands(rules, {s: deck[int(s) :: 4] for s in Seat}, dealer=Seat.WEST)
    options = []
    for _ in range(4):
        legal = rnd.legal_bids()
        options.append(tuple((b.tricks, b.blind) for b in legal))
        rnd.bid(legal[0])
    return tuple(options)


@functools.lru_cache(maxsize=256)
def bid_options_after(rules: Rules, position: int, partner: tuple[int, bool]) -> tuple[tuple[int, bool], ...]:
    """The engine's ``legal_bids()`` at bidding ``position`` (2 or 3: a team's second bidder) of a hand
    that starts 0-0, once the partner bid ``partner`` (tricks, blind): at a table with a least team bid
    (``min_team_bid``) what the second bidder may bid depends on the first's bid.

    >>> import spades_tutor as st
    >>> rules = st.Rules.preset("jokers", min_team_bid=4)
    >>> [t for t, _ in bid_options_after(rules, 2, (1, False))][:3], len(bid_options_after(rules, 2, (0, False)))
    ([0, 3, 4], 14)
    """
    deck = rules.deck()
    rnd = Round.from_hands(rules, {s: deck[int(s) :: 4] for s in Seat}, dealer=Seat.WEST)
    for p in range(position):
        rnd.bid(Bid(partner[0], blind=partner[1]) if p == position - 2 else rnd.legal_bids()[0])
    return tuple((b.tricks, b.blind) for b in rnd.legal_bids())


@functools.cache
def _select16() -> npt.NDArray[np.uint8]:
    """``table[v * 16 + k]``: the position of the k-th set bit of the 16-bit value v."""
    v = np.arange(1 << 16, dtype=np.uint32)
    bits = (v[:, None] >> np.arange(16, dtype=np.uint32)) & 1
    return np.argsort(1 - bits, axis=1, kind="stable").astype(np.uint8).ravel()


def select_bit(masks: npt.NDArray[np.uint64], k: npt.NDArray[np.uint64]) -> npt.NDArray[np.intp]:
    """The position of the k-th (0-based) lowest set bit of each mask (k < its bit count).

    Two halving steps by bit count (32, then 16 bits), then a 16-bit table.

    >>> select_bit(np.array([0b1011_0000, 1 << 40 | 1], dtype=np.uint64), np.array([2, 1], dtype=np.uint64))
    array([ 7, 40])
    """
    low = (masks & _LOW32).astype(np.uint32)
    count = np.bitwise_count(low).astype(np.uint32)
    rest = k.astype(np.uint32)
    high = rest >= count
    rest -= count * high
    half = np.where(high, (masks >> _S32).astype(np.uint32), low)
    low = half & _LOW16
    count = np.bitwise_count(low).astype(np.uint32)
    high16 = rest >= count
    rest -= count * high16
    quarter = np.where(high16, half >> _S16, low)
    found: npt.NDArray[np.intp] = high * np.intp(32) + high16 * np.intp(16) + _select16()[(quarter << _S4) | rest]
    return found


_LOW32 = np.uint64(0xFFFF_FFFF)
_S32 = np.uint64(32)
_LOW16 = np.uint32(0xFFFF)
_S16 = np.uint32(16)
_S4 = np.uint32(4)
