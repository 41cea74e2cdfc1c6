"""What every bot shares: a decision with its reason, the bot protocol, and the legal bids a seat sees.

>>> import spades_tutor as st
>>> rnd = st.Round.deal(st.Rules.preset("jokers"), dealer=st.Seat.WEST, seed=4127)
>>> len(legal_bids(rnd.view(st.Seat.NORTH)))  # nil and 1 to 13
14
"""

from __future__ import annotations

import dataclasses
from typing import Protocol, runtime_checkable

import spades_tutor.engine as st

__all__ = ["Bot", "Decision", "card_words", "legal_bids"]


@dataclasses.dataclass(frozen=True)
class Decision:
    """A bot's bid or card, and one sentence saying why (for a "Hint" button)."""

    action: st.Bid | st.Card
    reason: str

    def __str__(self) -> str:
        return self.reason


@runtime_checkable
class Bot(Protocol):
    """A player. It sees only what its seat can see, a ``SeatView``, never the ``Round``."""

    def bid(self, view: st.SeatView) -> Decision: ...

    def play(self, view: st.SeatView) -> Decision: ...


def legal_bids(view: st.SeatView) -> tuple[st.Bid, ...]:
    """Every bid the viewing seat may make now, as the engine put it in the view (() unless it is that seat's turn to bid)."""
    return view.legal_bids


def card_words(card: st.Card) -> str:
    """A card as a sentence says it: ``'the big joker'``, ``'K♥'``."""
    return f"the {card.name}" if card.is_joker else str(card)
