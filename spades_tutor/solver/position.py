"""A position of the play, every hand known: the solver's input.

A position is built from a ``Round`` in play (mid-trick too) or from hands, the
trick so far, the leader and whether spades are broken. Its moves come from the
engine (``legal_plays``, ``trick_winner``), so it follows every rule set.

>>> import spades_tutor as st
>>> rules = st.Rules.preset("jokers")
>>> pos = Position.from_hands(rules, {"N": "AH", "E": "KH", "S": "2C", "W": "BJ"}, leader="N")
>>> pos.to_act, pos.tricks_left
(<Seat.NORTH: 0>, 1)
>>> pos.legal_plays()
(Card.parse('A♥'),)
>>> after = pos.play("AH").play("KH").play("2C").play("BJ")
>>> after.taken[st.Seat.WEST], after.tricks_left
(1, 0)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from spades_tutor.engine import Card, CardsLike, Hand, Round, Rules, Seat, cards, legal_plays, trick_winner
from spades_tutor.engine.errors import SpadesError

__all__ = ["Position", "PositionError"]

_TWO_OF_CLUBS = Card.parse("2C")


class PositionError(SpadesError):
    """A position the solver cannot take: wrong card counts, a card twice, an illegal card played."""


@dataclasses.dataclass(frozen=True)
class Position:
    """Every hand, the trick so far (lead first), who led it, whether spades are broken and the
    tricks each seat has taken already. Immutable: ``play`` returns the next position."""

    rules: Rules
    hands: tuple[Hand, Hand, Hand, Hand]  # indexed by Seat
    trick: Hand
    leader: Seat
    spades_broken: bool = False
    taken: tuple[int, int, int, int] = (0, 0, 0, 0)
    two_of_clubs_leads: bool = False  # the first lead of a round must be the 2♣ (a house rule)

    def __post_init__(self) -> None:
        seen: set[Card] = set()
        for c in [*self.trick, *(c for h in self.hands for c in h)]:
            if c in seen:
                raise PositionError(f"{c} appears twice in the position {self}")
            if not self.rules.in_deck(c):
                raise PositionError(f"{c} is not in the {self.rules.name} deck (position {self})")
            seen.add(c)
        if len(self.trick) > 3:
            raise PositionError(f"a trick in progress has at most 3 cards, not {len(self.trick)}")
        left = len(self.hands[(self.leader + 3) % 4])  # the last seat of the trick has not played yet
        for i in range(4):
            seat = Seat((self.leader + i) % 4)
            want = left - 1 if i < len(self.trick) else left
            if len(self.hands[seat]) != want:
                raise PositionError(
                    f"{seat} holds {len(self.hands[seat])} cards but should hold {want} (position {self})"
                )

    # --- making positions ------------------------------------------------------------

    @classmethod
    def from_hands(
        cls,
        rules: Rules,
        hands: Mapping[Seat | str, CardsLike],
        *,
        leader: Seat | str,
        trick: CardsLike = (),
        spades_broken: bool = False,
        taken: Mapping[Seat | str, int] | None = None,
    ) -> Position:
        """A position from hands (by seat), the trick so far (lead first) and its leader."""
        by_seat = {Seat.parse(s): rules.sort_hand(cards(h)) for s, h in hands.items()}
        counts = [0, 0, 0, 0]
        for s, n in (taken or {}).items():
            counts[Seat.parse(s)] = int(n)
        return cls(
            rules,
            (
                by_seat.get(Seat.NORTH, Hand()),
                by_seat.get(Seat.EAST, Hand()),
                by_seat.get(Seat.SOUTH, Hand()),
                by_seat.get(Seat.WEST, Hand()),
            ),
            cards(trick),
            Seat.parse(leader),
            spades_broken,
            (counts[0], counts[1], counts[2], counts[3]),
        )

    @classmethod
    def from_round(cls, rnd: Round) -> Position:
        """The position of a round in play (or still bidding: then the first lead is to come)."""
        if rnd.is_over:
            raise PositionError(f"round {rnd.deal_id}: all 13 tricks are played, nothing is left to solve")
        trick = rnd.trick
        h = rnd.hands
        won = rnd.tricks_won
        first = not rnd.tricks and not trick.cards and rnd.rules.first_lead == "two-of-clubs"
        leader = trick.leader
        if first:  # while bidding, the round does not know the first leader yet: the 2♣ holder
            leader = next(s for s in Seat if _TWO_OF_CLUBS in h[s])
        return cls(
            rnd.rules,
            (h[Seat.NORTH], h[Seat.EAST], h[Seat.SOUTH], h[Seat.WEST]),
            Hand(trick.cards),
            leader,
            rnd.spades_broken,
            (won[Seat.NORTH], won[Seat.EAST], won[Seat.SOUTH], won[Seat.WEST]),
            first,
        )

    # --- state --------------------------------------------------------------------------

    @property
    def to_act(self) -> Seat:
        return Seat((self.leader + len(self.trick)) % 4)

    @property
    def tricks_left(self) -> int:
        """The tricks still to be won, the one in progress included."""
        return len(self.hands[(self.leader + 3) % 4])

    def legal_plays(self) -> tuple[Card, ...]:
        """The cards the seat to act may play, as the engine says."""
        if self.tricks_left == 0:
            return ()
        if self.two_of_clubs_leads:
            return (_TWO_OF_CLUBS,)
        return legal_plays(self.rules, self.hands[self.to_act], self.trick, self.spades_broken)

    def play(self, card: Card | str) -> Position:
        """The position after the seat to act plays ``card`` (the engine decides the trick)."""
        c = Card.parse(card) if isinstance(card, str) else card
        if c not in self.legal_plays():
            raise PositionError(f"{self.to_act} may not play {c} now (position {self})")
        seat = self.to_act
        hands = list(self.hands)
        hands[seat] = Hand(x for x in hands[seat] if x is not c)
        trick = (*self.trick, c)
        broken = self.spades_broken or self.rules.is_trump(c)
        if len(trick) < 4:
            return dataclasses.replace(
                self, hands=_four(hands), trick=Hand(trick), spades_broken=broken, two_of_clubs_leads=False
            )
        winner = Seat((self.leader + trick_winner(self.rules, trick)) % 4)
        taken = list(self.taken)
        taken[winner] += 1
        return dataclasses.replace(
            self,
            hands=_four(hands),
            trick=Hand(),
            leader=winner,
            spades_broken=broken,
            taken=(taken[0], taken[1], taken[2], taken[3]),
            two_of_clubs_leads=False,
        )

    def rotated(self, steps: int = 1) -> Position:
        """The same position with every seat moved ``steps`` places clockwise (N–S become E–W)."""
        hands = [self.hands[(s - steps) % 4] for s in range(4)]
        taken = [self.taken[(s - steps) % 4] for s in range(4)]
        return dataclasses.replace(
            self,
            hands=_four(hands),
            leader=Seat((self.leader + steps) % 4),
            taken=(taken[0], taken[1], taken[2], taken[3]),
        )

    def __str__(self) -> str:
        hands = " / ".join(f"{s.letter}: {self.hands[s] or '-'}" for s in Seat)
        trick = f"; trick {self.leader.letter} led {self.trick}" if self.trick else f"; {self.leader.letter} to lead"
        return f"{self.rules.name}: {hands}{trick}; spades {'broken' if self.spades_broken else 'not broken'}"


def _four(hands: Sequence[Hand]) -> tuple[Hand, Hand, Hand, Hand]:
    return (Hand(hands[0]), Hand(hands[1]), Hand(hands[2]), Hand(hands[3]))
