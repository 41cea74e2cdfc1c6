"""A bot that picks uniformly among the legal bids and cards: the baseline every other bot must beat.

>>> import spades_tutor as st
>>> rnd = st.Round.deal(st.Rules.preset("jokers"), dealer=st.Seat.WEST, seed=4127)
>>> RandomBot(seed=1).bid(rnd.view(st.Seat.NORTH)) == RandomBot(seed=1).bid(rnd.view(st.Seat.NORTH))
True
"""

from __future__ import annotations

import random

import spades_tutor.engine as st

from .base import Decision, legal_bids

__all__ = ["RandomBot"]


class RandomBot:
    """Uniform among the legal actions; seeded, so the same seed plays the same game."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def bid(self, view: st.SeatView) -> Decision:
        options = legal_bids(view)
        if not options:
            raise ValueError(f"{view.seat} has no bid to make now")
        choice = options[self._rng.randrange(len(options))]
        return Decision(choice, f"Bid {choice}: a random choice among the {len(options)} legal bids.")

    def play(self, view: st.SeatView) -> Decision:
        options = view.legal
        if not options:
            raise ValueError(f"{view.seat} has no card to play now")
        choice = options[self._rng.randrange(len(options))]
        return Decision(choice, f"Play {choice}: a random choice among the {len(options)} legal cards.")

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r})"
