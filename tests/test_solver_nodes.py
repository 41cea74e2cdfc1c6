"""The solver's node counts on fixed positions, pinned: a change in move order, a cutoff or a table
shows here as a changed count, even where every answer stays right (the other solver tests compare
answers only, so lost speed would pass them).

Each count is the search's own (``Result.nodes``, ``Answer.nodes``) with no budget, for the pure
search and for the compiled one (which also keeps a partition table, so it visits fewer nodes).
A deliberate change to the search updates these numbers in the same commit, and its message says
what the change did to them.
"""

from __future__ import annotations

import pytest
from test_solver import ending

import spades_tutor as st
from spades_tutor.solver import make_nil, search, solve

#: (preset, deal seed, tricks left) -> core -> (N–S most tricks, its nodes, East's nil holds, its nodes)
PINNED: dict[tuple[str, int, int], dict[str, tuple[int, int, bool, int]]] = {
    ("jokers", 71, 6): {"pure": (1, 3376, False, 157), "compiled": (1, 1711, False, 157)},
    ("jokers", 72, 8): {"pure": (4, 6450, False, 27), "compiled": (4, 5112, False, 27)},
    ("jokers", 73, 10): {"pure": (4, 66003, False, 11), "compiled": (4, 54178, False, 11)},
    ("classic", 71, 6): {"pure": (3, 1793, False, 62), "compiled": (3, 982, False, 62)},
    ("classic", 72, 8): {"pure": (2, 13695, False, 5), "compiled": (2, 3142, False, 5)},
    ("classic", 73, 10): {"pure": (5, 138943, False, 16), "compiled": (5, 84974, False, 16)},
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
    assert (most.value, most.nodes, nil.holds, nil.nodes) == PINNED[where][core]
