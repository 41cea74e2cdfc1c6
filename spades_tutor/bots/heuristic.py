"""The heuristic bot: the heuristic bidder and the heuristic card player behind one ``Bot``.

>>> import spades_tutor as st
>>> from spades_tutor.bots import HeuristicBot, play_round
>>> rnd = play_round(st.Rules.preset("jokers"), {s: HeuristicBot() for s in st.Seat}, seed=4127)
>>> rnd.is_over, sum(rnd.tricks_won.values())
(True, 13)
"""

from __future__ import annotations

import spades_tutor.engine as st

from .base import Decision
from .bidding import heuristic_bid
from .playing import HeuristicPlayer

__all__ = ["HeuristicBot"]


class HeuristicBot:
    """Bids sure plus likely tricks (nil only with a safe hand) and plays by plain rules of good play.

    One instance may serve one seat or several; it keeps no secrets, only a memory of
    the cards played, read from the views it is given. ``seed`` breaks ties between
    equally good cards; without it the bot is fully deterministic. Its reasons speak to the
    player ("you must follow suit"), or with ``speak_of_seat`` of the seat, for a room watching.
    ``nil_defence``: how it plays against an opponent's nil, ``"strong"`` (the default) or the
    earlier ``"plain"`` defence (see ``bots.playing``).
    """

    def __init__(self, seed: int | None = None, *, speak_of_seat: bool = False, nil_defence: str = "strong") -> None:
        self.seed = seed
        self.speak_of_seat = speak_of_seat
        self.nil_defence = nil_defence
        self._player = HeuristicPlayer(seed, speak_of_seat=speak_of_seat, nil_defence=nil_defence)

    def bid(self, view: st.SeatView) -> Decision:
        return heuristic_bid(view, speak_of_seat=self.speak_of_seat)

    def play(self, view: st.SeatView) -> Decision:
        return self._player.play(view)

    def __repr__(self) -> str:
        if self.nil_defence != "strong":
            return f"HeuristicBot(seed={self.seed!r}, nil_defence={self.nil_defence!r})"
        return f"HeuristicBot(seed={self.seed!r})"
