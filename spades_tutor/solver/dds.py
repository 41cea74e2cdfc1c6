"""Regular Spades with spades broken is bridge double dummy with spades as trump: the same deck,
ranks, following and trick winners, and no rule on what may be led. So Bo Haglund's DDS, the solver
every bridge program trusts, can check the search on those positions: ``dds_values`` asks it
through the ``endplay`` package (a test and benchmark extra, imported only here).

>>> import spades_tutor as st
>>> from spades_tutor.solver import Position
>>> pos = Position.from_hands(st.Rules.preset("classic"), {"N": "AH 3C", "E": "KH 4C", "S": "3H 5C", "W": "QH 2S"},
...                          leader="N", spades_broken=True)
>>> bridge_equivalent(pos)
True
>>> to_pbn(pos)
'N:.A..3 .K..4 .3..5 2.Q..'
"""

from __future__ import annotations

from typing import Any

from spades_tutor.engine import Card, Rules, Seat, Suit

from .position import Position

__all__ = ["bridge_equivalent", "dds_value", "dds_values", "to_deal", "to_pbn"]

PBN_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)  # a hand's suits in PBN order


def _bridge_rules(rules: Rules) -> bool:
    """52 cards, each counting as its own suit, ranked 2 up to ace, spades trumps."""
    deck = rules.deck()
    if len(deck) != 52:
        return False
    suit_as, power = rules.suit_table, rules.power_table
    for c in deck:
        if c.suit is None or suit_as[c.index] != int(c.suit):
            return False
    for s in Suit:
        ranked = sorted((c for c in deck if c.suit is s), key=lambda c: power[c.index])
        if [int(c.rank) for c in ranked] != list(range(2, 15)):
            return False
    return True


def bridge_equivalent(pos: Position) -> bool:
    """Whether DDS answers ``pos`` exactly as the search must: regular Spades, spades broken."""
    return pos.spades_broken and _bridge_rules(pos.rules)


def _before_trick(pos: Position) -> list[list[Card]]:
    """The hands with the cards of the trick in progress given back to whoever played them."""
    hands = [list(pos.hands[s]) for s in Seat]
    for i, c in enumerate(pos.trick):
        hands[(int(pos.leader) + i) & 3].append(c)
    return hands


def to_pbn(pos: Position) -> str:
    """The deal at the start of the current trick in PBN, North first."""

    def hand(cards: list[Card]) -> str:
        by_suit = (
            "".join(c.letters[:-1] for c in sorted((c for c in cards if c.suit is s), key=lambda c: -int(c.rank)))
            for s in PBN_SUITS
        )
        return ".".join(by_suit)

    return "N:" + " ".join(hand(h) for h in _before_trick(pos))


def to_deal(pos: Position) -> Any:
    """``pos`` as an endplay ``Deal``: the deal at the trick's start, spades trumps, the leader
    first, the trick's cards played."""
    if not bridge_equivalent(pos):
        raise ValueError("DDS answers only regular Spades with spades broken (bridge with spades trump)")
    from endplay.types import Deal, Denom, Player

    deal: Any = Deal(to_pbn(pos))
    deal.trump = Denom.spades
    deal.first = Player(int(pos.leader))
    for c in pos.trick:
        deal.play(c.letters[-1] + c.letters[:-1])  # suit first, as endplay writes a card
    return deal


def dds_values(pos: Position) -> dict[Card, int]:
    """DDS's value of each legal card of the seat to act: the most tricks that seat's side takes of
    the remaining ones (the trick in progress included) after playing it."""
    from endplay.dds.solve import SolveMode, solve_board

    out = {}
    for card, tricks in solve_board(to_deal(pos), SolveMode.Default):
        out[Card.parse(card.rank.name[1] + card.suit.name[0].upper())] = int(tricks)
    return out


def dds_value(pos: Position) -> int:
    """DDS's value of ``pos`` for the side to act (one optimal card searched, as a value is)."""
    from endplay.dds.solve import SolveMode, solve_board

    return max(int(t) for _, t in solve_board(to_deal(pos), SolveMode.OptimalOne))
