"""Bots that bid and play through the public engine API, seeing only what their seat can see.

Every decision comes with a one-sentence reason, for a "Hint" button:

>>> import spades_tutor as st
>>> from spades_tutor.bots import HeuristicBot, RandomBot, play_round
>>> rules = st.Rules.preset("jokers")
>>> rnd = st.Round.deal(rules, dealer=st.Seat.WEST, seed=4127)
>>> print(HeuristicBot().bid(rnd.view(st.Seat.NORTH)))
Bid 6: A♠ and A♦ should each win a trick, and K♠, Q♠, 3♠, 2♠, 8♠ and Q♣ add part of a trick each (5.49 in all).
>>> bots = {st.Seat.NORTH: HeuristicBot(), st.Seat.SOUTH: HeuristicBot(),
...         st.Seat.EAST: RandomBot(seed=1), st.Seat.WEST: RandomBot(seed=2)}
>>> play_round(rules, bots, seed=4127).is_over
True
"""

from __future__ import annotations

from .base import Bot, Decision, legal_bids
from .bidding import heuristic_bid
from .drivers import IllegalBotAction, play_game, play_out, play_round
from .heuristic import HeuristicBot
from .playing import HeuristicPlayer
from .random_bot import RandomBot

__all__ = [
    "Bot",
    "Decision",
    "HeuristicBot",
    "HeuristicPlayer",
    "IllegalBotAction",
    "RandomBot",
    "heuristic_bid",
    "legal_bids",
    "play_game",
    "play_out",
    "play_round",
]
