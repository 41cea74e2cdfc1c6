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

__all__ = ["Bot", "Decision", "Voice", "card_words", "legal_bids"]


class Voice:
    """Whom a bot's reasons speak to: the player ("you must follow suit", for a Hint) or, for a
    room watching the hand, of the seat ("West must follow suit").

    >>> v = Voice.of(st.Seat.WEST)
    >>> f"{v.You} must follow suit: {v.your} only heart; {v.you} hold{v.s} it and {v.partner} ha{v.ve} none."
    "West must follow suit: West's only heart; West holds it and East has none."
    >>> Voice.of(None).your, Voice.of(None).team
    ('your', 'your team')
    """

    __slots__ = ("You", "partner", "partners", "s", "team", "teams", "ve", "you", "your")

    def __init__(self, seat: st.Seat | None) -> None:
        if seat is None:
            self.you, self.your, self.s, self.ve = "you", "your", "", "ve"
            self.partner, self.team = "your partner", "your team"
        else:
            name = str(st.Seat(seat))
            self.you, self.your, self.s, self.ve = name, f"{name}'s", "s", "s"
            self.partner, self.team = str(st.Seat(seat).partner), st.Seat(seat).team.label
        self.You = self.you[:1].upper() + self.you[1:]
        self.partners = f"{self.partner}'s"
        self.teams = f"{self.team}'s"

    @staticmethod
    def of(seat: st.Seat | None) -> Voice:
        """The voice speaking to the player (``None``) or of ``seat``; made once each."""
        return _VOICES[None if seat is None else st.Seat(seat)]

    def made(self, contract: int) -> str:
        """``'your team has made its contract of 6'``, ``'North–South have made their contract of 6'``."""
        if self.team == "your team":
            return f"your team has made its contract of {contract}"
        return f"{self.team} have made their contract of {contract}"


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


_VOICES: dict[st.Seat | None, Voice] = {seat: Voice(seat) for seat in (None, *st.Seat)}
