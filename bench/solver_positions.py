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


def issue_29_deal() -> Position:
    """Issue 29's worst full deal (classic, spades broken, North to lead; N–S's value 6): it once
    took 443 s and 731 M nodes. ``tests/test_solver_nodes.py`` holds the search to a node budget on it, and ``tests/test_solver_dds.py`` DDS to its value."""
    hands = {
        "N": "QS 7S 4S 2S AH TH 9H 6H 4H JC 8C 3C 3D",
        "E": "KS TS 3S QH 8H QC TC 5C 2C AD JD TD 2D",
        "S": "9S 8S 5S KH JH 7H 5H 3H KC 4C KD 8D 4D",
        "W": "AS JS 6S 2H AC 9C 7C 6C QD 9D 7D 6D 5D",
    }
    return Position.from_hands(st.Rules.preset("classic"), hands, leader="N", spades_broken=True)
