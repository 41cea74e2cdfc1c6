"""The scalar engine replaying a simulated round, from the same words, through the public API.

``scalar_replay`` re-derives round ``r``'s deal and every choice from its words with plain
Python (``words.choose``, ``sorted``), builds the hands with ``st.Round.from_hands`` and acts
through ``legal_bids`` / ``bid`` / ``legal_plays`` / ``play``: the engine checks every action.
It does not read the simulator's arrays, so comparing the two checks the simulator.
"""

from __future__ import annotations

from ..engine import Round, Rules, Seat
from .result import BatchResult
from .words import BIDS, DEAL, DEALER, PLAYS, choose, round_words

__all__ = ["replay_round", "scalar_replay"]


def replay_round(rules: Rules, seed: int, r: int, dealer: Seat | int | None = None) -> Round:
    """Round ``r`` of ``simulate(rules, ..., seed, policy="random", dealer=dealer)``, by the engine."""
    words = [int(w) for w in round_words(seed, r, 1)[0]]
    deck = rules.deck()
    order = sorted(range(52), key=lambda i: (words[DEAL + i] & ~63) | i)
    first = (choose(words[DEALER], 4) if dealer is None else int(dealer)) + 1
    dealt = {Seat((first + i) % 4): [deck[j] for j in order[i::4]] for i in range(4)}
    rnd = Round.from_hands(rules, dealt, dealer=Seat((first - 1) % 4))
    for position in range(4):
        options = rnd.legal_bids()
        rnd.bid(options[choose(words[BIDS + position], len(options))])
    for step in range(52):
        legal = rnd.legal_plays()
        rnd.play(legal[choose(words[PLAYS + step], len(legal))])
    return rnd


def scalar_replay(rules: Rules, result: BatchResult, i: int) -> Round:
    """Row ``i`` of ``result`` (a random-policy simulation) replayed by the scalar engine."""
    if result.policy != "random":
        raise ValueError(f"only the random policy has a scalar replay here, not {result.policy!r}")
    return replay_round(rules, result.seed, int(result.rounds[i]), result.dealer_choice)
