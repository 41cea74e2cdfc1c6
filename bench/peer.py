"""The peer every benchmark here measures against: OpenSpiel's ``spades``, random hands, driven from Python."""

from __future__ import annotations

import random
import time
from typing import Any


def load_pyspiel_game() -> Any | None:
    """``pyspiel.load_game("spades")``, or None where open-spiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game("spades")


def pyspiel_hands(
    game: Any, rng: random.Random, seconds: float = 0.0, hands_wanted: int = 0, checked: bool = False
) -> tuple[int, float]:
    """Random OpenSpiel hands (chance deal, bids, plays) for about ``seconds``, or exactly
    ``hands_wanted``; returns (hands, elapsed seconds). ``checked`` uses the legality-checking apply."""
    choice = rng.choice
    new_state = game.new_initial_state
    clock = time.perf_counter
    hands = 0
    start = clock()
    while True:
        state = new_state()
        apply = state.apply_action_with_legality_check if checked else state.apply_action
        legal = state.legal_actions
        for _ in range(52 + 4 + 52):  # the deal (chance actions), the bids, the plays
            apply(choice(legal()))
        state.returns()
        hands += 1
        now = clock()
        if (hands_wanted and hands >= hands_wanted) or (not hands_wanted and now - start >= seconds):
            return hands, now - start
