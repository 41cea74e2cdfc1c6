"""Experiments with the heuristic bots: how well they bid, the bags they collect, whole games.

These play through the scalar engine and the bots in ``spades_tutor.bots`` (seeded, so a
run can be repeated), and return pandas DataFrames with 95% intervals.

>>> import spades_tutor as st
>>> frame = bidding_accuracy(st.Rules.preset("jokers"), 40, seed=2)
>>> sorted(frame.columns)[:4]
['bags_per_hand', 'bags_per_hand_high', 'bags_per_hand_low', 'bids']
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..engine import Rules, Seat, Team
from .intervals import wilson

__all__ = ["BOT_EXPERIMENTS", "bidding_accuracy", "games_to_target"]

Progress = Callable[[int, int], object] | None


def _mean_ci(values: list[float]) -> tuple[float, float, float]:
    """Mean and a normal-approximation 95% interval."""
    from statistics import NormalDist, fmean, stdev

    if not values:
        return math.nan, math.nan, math.nan
    mean = fmean(values)
    if len(values) < 2:
        return mean, math.nan, math.nan
    half = NormalDist().inv_cdf(0.975) * stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def _bots() -> dict[Seat, Any]:
    from ..bots import HeuristicBot

    return {seat: HeuristicBot() for seat in Seat}


def bidding_accuracy(rules: Rules, n_rounds: int, seed: int = 0, progress: Progress = None) -> Any:
    """Heuristic bidders over ``n_rounds`` rounds: how far bids miss, how often exact, bags and sets."""
    import pandas as pd

    from ..bots import play_round

    misses: list[float] = []
    bags: list[float] = []
    exact = sets = contracts = 0
    for i in range(n_rounds):
        rnd = play_round(rules, _bots(), seed=seed * 1_000_003 + i)
        taken = rnd.tricks_won
        for seat, bid in rnd.bids.items():
            if not bid.is_nil:
                misses.append(abs(bid.tricks - taken[seat]))
                exact += bid.tricks == taken[seat]
        for team, score in rnd.score().items():
            bags.append(float(score.new_bags))
            if rnd.team_contract(team) > 0:
                contracts += 1
                sets += any(line.kind == "contract" and line.points < 0 for line in score.lines)
        if progress is not None and ((i + 1) % 50 == 0 or i + 1 == n_rounds):
            progress(i + 1, n_rounds)
    miss, miss_low, miss_high = _mean_ci(misses)
    bag, bag_low, bag_high = _mean_ci(bags)
    exact_low, exact_high = wilson(exact, len(misses))
    set_low, set_high = wilson(sets, contracts)
    return pd.DataFrame(
        {
            "rule_set": [rules.name],
            "rounds": [n_rounds],
            "bids": [len(misses)],
            "mean_miss": [miss],
            "mean_miss_low": [miss_low],
            "mean_miss_high": [miss_high],
            "exact_share": [exact / len(misses) if misses else math.nan],
            "exact_low": [exact_low[0]],
            "exact_high": [exact_high[0]],
            "bags_per_hand": [bag],
            "bags_per_hand_low": [bag_low],
            "bags_per_hand_high": [bag_high],
            "set_share": [sets / contracts if contracts else math.nan],
            "set_low": [set_low[0]],
            "set_high": [set_high[0]],
        }
    )


def _bag_points(hand_scores: list[dict[Team, Any]], team: Team) -> int:
    """What bags did to a team's total: +1 a bag, and the penalties."""
    return sum(
        line.points
        for h in hand_scores
        for line in h[team].lines
        if line.kind in ("bags", "failed-nil-bags", "penalty")
    )


def games_to_target(rules: Rules, n_games: int, seed: int = 0, progress: Progress = None) -> tuple[Any, Any]:
    """Whole games between heuristic bots: (one row per game, one row per hand of each game), each
    row with the rule set's ``target`` (a game ends as ``rules`` says: its target, its mercy rule).

    A game is "decided by bags" when taking every bag point and bag penalty out of both
    totals would change who is ahead at the end.
    """
    import pandas as pd

    from ..bots import play_game

    games: dict[str, list[Any]] = {k: [] for k in ("game", "hands", "winner", "ns", "ew", "bags_decided")}
    path: dict[str, list[Any]] = {k: [] for k in ("game", "hand", "ns", "ew")}
    for g in range(n_games):
        game = play_game(rules, _bots(), seed=seed * 1_000_003 + g)
        ns = ew = 0
        for h, hand in enumerate(game.hand_scores, start=1):
            ns += hand[Team.NS].points
            ew += hand[Team.EW].points
            path["game"].append(g)
            path["hand"].append(h)
            path["ns"].append(ns)
            path["ew"].append(ew)
        winner = game.winner
        plain_ns = game.scores[Team.NS] - _bag_points(game.hand_scores, Team.NS)
        plain_ew = game.scores[Team.EW] - _bag_points(game.hand_scores, Team.EW)
        plain_leader = Team.NS if plain_ns > plain_ew else Team.EW if plain_ew > plain_ns else None
        games["game"].append(g)
        games["hands"].append(len(game.hand_scores))
        games["winner"].append(winner.short if winner is not None else "none")
        games["ns"].append(game.scores[Team.NS])
        games["ew"].append(game.scores[Team.EW])
        games["bags_decided"].append(winner is not None and plain_leader != winner)
        if progress is not None:
            progress(g + 1, n_games)
    per_game = pd.DataFrame(games)
    per_game.insert(0, "rule_set", rules.name)
    per_game.insert(1, "target", rules.target)
    per_hand = pd.DataFrame(path)
    per_hand.insert(0, "rule_set", rules.name)
    per_hand.insert(1, "target", rules.target)
    return per_game, per_hand


BOT_EXPERIMENTS = {"bidding": bidding_accuracy, "games": games_to_target}
