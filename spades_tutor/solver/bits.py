"""Bitmask tables for the search, built from the rule set's own lookup tables.

Each card in play gets one bit. Cards are grouped by the suit they *count as*
(``rules.suit_table``) and ordered inside a group by ``rules.power_table``; the trump group
sits on top. So, inside a trick, the winning card is simply the highest bit among the
cards of the suit led and the trumps (``core.winner``). Masks stay inside the solver.

>>> from spades_tutor.engine import Rules, cards
>>> t = Tables.of(Rules.preset("jokers"))
>>> t.cards(t.mask(cards("BJ 2S AH")))
(Card.parse('A♥'), Card.parse('2♠'), Card.parse('BJ'))
>>> [t.suit_of_bit[t.bit_of[c.index]] for c in cards("LJ AH")]  # the little joker counts as a spade
[3, 2]
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from spades_tutor.engine import Card, Rules, Suit

__all__ = ["Tables"]

TRUMP_SUIT = int(Suit.SPADES)


class Tables:
    """Bits of the cards of one rule set: suit groups, the trump group, card <-> bit."""

    def __init__(self, rules: Rules) -> None:
        suit_as, power = rules.suit_table, rules.power_table
        order = sorted(rules.deck(), key=lambda c: (suit_as[c.index], power[c.index]))
        if suit_as[order[-1].index] != TRUMP_SUIT:
            raise ValueError(f"rule set {rules.name!r}: the trumps must be the top group")
        self.rules = rules
        self.bit_of: list[int] = [-1] * 54  # Card.index -> bit number
        self.card_of: list[Card] = list(order)  # bit number -> Card
        self.suit_of_bit: list[int] = []
        self.suit_mask: list[int] = [0, 0, 0, 0]
        for b, c in enumerate(order):
            s = suit_as[c.index]
            self.bit_of[c.index] = b
            self.suit_of_bit.append(s)
            self.suit_mask[s] |= 1 << b
        self.trump = self.suit_mask[TRUMP_SUIT]
        # (offset, width mask) of each suit group, for the relative-rank keys
        self.blocks: list[tuple[int, int]] = []
        for m in self.suit_mask:
            low = (m & -m).bit_length() - 1
            self.blocks.append((low, m >> low))

    @staticmethod
    @lru_cache(maxsize=32)
    def of(rules: Rules) -> Tables:
        return Tables(rules)

    def mask(self, cards: Iterable[Card]) -> int:
        m = 0
        for c in cards:
            m |= 1 << self.bit_of[c.index]
        return m

    def cards(self, mask: int) -> tuple[Card, ...]:
        """The cards of a mask, lowest bit first."""
        out = []
        while mask:
            low = mask & -mask
            out.append(self.card_of[low.bit_length() - 1])
            mask ^= low
        return tuple(out)
