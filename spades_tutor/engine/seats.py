"""Seats around the table and the two partnerships.

Seats run clockwise North, East, South, West; a seat's left is the next one
clockwise, and partners sit opposite.

>>> Seat.NORTH.left, Seat.NORTH.partner, Seat.NORTH.team
(<Seat.EAST: 1>, <Seat.SOUTH: 2>, <Team.NS: 0>)
>>> Seat.parse("w")
<Seat.WEST: 3>
"""

from __future__ import annotations

import enum

from .errors import SpadesError

__all__ = ["Seat", "Team"]


class Team(enum.IntEnum):
    """North–South against East–West."""

    NS = 0
    EW = 1

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat(self.value), Seat(self.value + 2))

    @property
    def other(self) -> Team:
        return Team(1 - self.value)

    @property
    def label(self) -> str:
        """``'North–South'`` or ``'East–West'``."""
        return ("North–South", "East–West")[self.value]

    @property
    def short(self) -> str:
        return ("N–S", "E–W")[self.value]

    @classmethod
    def parse(cls, text: str | Team) -> Team:
        if isinstance(text, Team):
            return text
        key = str(text).strip().upper().replace("–", "").replace("-", "").replace("/", "")
        if key in ("NS", "NORTHSOUTH"):
            return Team.NS
        if key in ("EW", "EASTWEST"):
            return Team.EW
        raise SpadesError(f"not a team: {text!r} (write NS or EW)")

    def __str__(self) -> str:
        return self.short


class Seat(enum.IntEnum):
    """A seat at the table; the value is the OpenSpiel player number."""

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    @property
    def left(self) -> Seat:
        """The next seat clockwise: bidding, play and the deal pass this way."""
        return _SEATS[(self.value + 1) % 4]

    @property
    def right(self) -> Seat:
        return _SEATS[(self.value + 3) % 4]

    @property
    def partner(self) -> Seat:
        return _SEATS[(self.value + 2) % 4]

    @property
    def team(self) -> Team:
        return Team(self.value % 2)

    @property
    def letter(self) -> str:
        return "NESW"[self.value]

    @property
    def label(self) -> str:
        """``'North'`` …, for sentences."""
        return self.name.capitalize()

    @classmethod
    def parse(cls, text: str | Seat) -> Seat:
        if isinstance(text, Seat):
            return text
        key = str(text).strip().upper()
        for seat in _SEATS:
            if key in (seat.letter, seat.name):
                return seat
        raise SpadesError(f"not a seat: {text!r} (write N, E, S or W)")

    def __str__(self) -> str:
        return self.label


_SEATS = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
