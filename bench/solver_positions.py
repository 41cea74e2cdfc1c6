"""The solver benchmarks' positions, made the same way by ``bench/solver.py`` and ``bench/solver_nodes.py``."""

from __future__ import annotations

import dataclasses
import random

import spades_tutor as st
from spades_tutor.solver import Position


def full_deal(rules: st.Rules, seed: int, broken: bool) -> Position:
    pos = Position.from_round(st.Round.deal(rules, seed=seed))
    return dataclasses.replace(pos, leader=st.Seat.NORTH, two_of_clubs_leads=False, spades_broken=broken)


def eight_tricks(rules: st.Rules, seed: int, broken: bool) -> Position:
    r = random.Random(seed)
    rnd = st.Round.deal(rules, seed=seed)
    while rnd.phase is st.Phase.BIDDING:
        rnd.apply(r.choice(rnd.legal_bids()))
    for _ in range(5 * 4):
        rnd.play(r.choice(rnd.legal_plays()))
    pos = Position.from_round(rnd)
    return dataclasses.replace(pos, spades_broken=broken or pos.spades_broken)
