"""The solver's node counts on fixed positions, pinned: a change in move order, a cutoff or a table
shows here as a changed count, even where every answer stays right (the other solver tests compare
answers only, so lost speed would pass them).

Each count is the search's own (``Result.nodes``, ``Answer.nodes``) with no budget. The search is
one file run two ways, compiled and as Python, so both runs must give the same counts. A deliberate
change to the search updates these numbers in the same commit, and its message says what the
change did to them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_solver import ending

import spades_tutor as st
from spades_tutor.solver import Budget, make_nil, search, solve

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from solver_positions import issue_29_deal  # bench/solver_positions.py: the deal, one copy

#: (preset, deal seed, tricks left) -> (N–S most tricks, its nodes, East's nil holds, its nodes)
PINNED: dict[tuple[str, int, int], tuple[int, int, bool, int]] = {
    ("jokers", 71, 6): (1, 606, False, 53),
    ("jokers", 72, 8): (4, 1975, False, 15),
    ("jokers", 73, 10): (4, 17152, False, 11),
    ("classic", 71, 6): (3, 440, False, 41),
    ("classic", 72, 8): (2, 892, False, 4),
    ("classic", 73, 10): (5, 27104, False, 16),
}


@pytest.mark.parametrize("core", ["pure", "compiled"])
@pytest.mark.parametrize("where", list(PINNED), ids=lambda w: f"{w[0]}-{w[1]}-{w[2]}")
def test_node_counts_on_fixed_positions_are_pinned(
    where: tuple[str, int, int], core: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if core == "compiled":
        pytest.importorskip("numba")
    monkeypatch.setattr(search, "CORE", core)
    preset, seed, tricks = where
    pos = ending(st.Rules.preset(preset), seed, tricks)
    most = solve(pos, st.Team.NS, with_cards=False)
    nil = make_nil(pos, st.Seat.EAST)
    assert most.exact and nil.exact
    assert (most.value, most.nodes, nil.holds, nil.nodes) == PINNED[where]


#: the nodes issue 29's deal may take: what the search takes now (4.61 M), and some headroom
ISSUE_29_BUDGET = 5_500_000


def test_issue_29s_worst_deal_is_solved_within_its_node_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiled only: the Python run of the same search would take many minutes (it makes the
    same moves, so the same count, as the pinned positions above hold)."""
    pytest.importorskip("numba")
    monkeypatch.setattr(search, "CORE", "compiled")
    r = solve(issue_29_deal(), st.Team.NS, with_cards=False, budget=Budget(nodes=ISSUE_29_BUDGET))
    assert r.exact, f"not proven within {ISSUE_29_BUDGET:,} nodes"
    assert r.value == 6
