"""The lab: batched simulations of many rounds (numpy), as arrays and pandas frames.

>>> import spades_tutor as st
>>> from spades_tutor.lab import simulate, scalar_replay
>>> rules = st.Rules.preset("jokers")
>>> res = simulate(rules, 100, seed=1)
>>> rnd = scalar_replay(rules, res, 42)
>>> [h.points for h in rnd.score().values()] == res.points[42].tolist()
True
"""

from __future__ import annotations

from .heuristic import HeuristicPolicy, scalar_heuristic_round
from .odds import HandOdds, PerfectOdds, hand_odds
from .policy import Policy, RandomPolicy, get_policy
from .replay import scalar_replay
from .result import BatchResult
from .scoring import score_batch
from .simulate import DEFAULT_BATCH_SIZE, DEFAULT_WORKERS, simulate, simulate_batch

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "DEFAULT_WORKERS",
    "BatchResult",
    "HandOdds",
    "HeuristicPolicy",
    "PerfectOdds",
    "Policy",
    "RandomPolicy",
    "get_policy",
    "hand_odds",
    "scalar_heuristic_round",
    "scalar_replay",
    "score_batch",
    "simulate",
    "simulate_batch",
]
