"""The double-dummy search's driver: one ``Search`` answers threshold questions ("can the
maximising team make the counted seats take at least k of the remaining tricks?") for one
objective:

- ``counted``: the seats whose tricks count (a team, or one nil bidder);
- ``maximiser``: the team that wants that count high.

The search itself is ``core.py``, the only one there is (what it does and how it saves work is
written there). It runs compiled with numba, or the same file runs as plain Python where numba
cannot be imported: ``CORE`` chooses, "auto" (compiled if numba is there, else Python),
"compiled" or "pure"; the environment variable ``SPADES_TUTOR_SOLVER_CORE`` sets it at start.
Both runs make the same moves in the same order with the same tables, so they give the same
answers after the same number of nodes (the tests hold them to it). numba is imported when a
search first runs, never by ``import spades_tutor``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from types import ModuleType
from typing import Any

from . import jit
from .bits import Tables

__all__ = [
    "CORE",
    "KEPT",
    "OutOfBudget",
    "Search",
    "compiled_core",
    "core_in_use",
    "kept_tables",
    "python_core",
    "search_for",
]

CORE = os.environ.get("SPADES_TUTOR_SOLVER_CORE", "auto")

# a search with a time budget runs in slices of nodes (the clock is read between them: each slice
# starts again from the root, the tables keeping what the slices before proved). Each slice is twice
# the last, but no more than the nodes the time left takes at the rate measured so far: a long proof
# is not cut into many restarts (the tables cannot keep all of a large proof between slices, so a
# restart may do much of it again), and no slice takes more than a quarter of the time left.
FIRST_SLICE = {"compiled": 20_000, "pure": 1_000}
#: a slice takes at most this fraction (its inverse) of the time left
SLICE_SHARE = 4


_compiled: ModuleType | None = None
_compiled_tried = False
_python: ModuleType | None = None


def compiled_core() -> ModuleType | None:
    """The search compiled (``core.py``), or None when numba cannot be imported (imported once)."""
    global _compiled, _compiled_tried
    if not _compiled_tried:
        _compiled_tried = True
        if jit.compiling():
            from . import core

            _compiled = core
    return _compiled


def python_core() -> ModuleType:
    """The same file, ``core.py``, loaded a second time with every function left as Python."""
    global _python
    if _python is None:
        spec = importlib.util.find_spec(f"{__package__}.core")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        with jit.as_python():
            spec.loader.exec_module(module)
        _python = module
    return _python


def core_in_use() -> str:
    """'compiled' or 'pure': the run a new ``Search`` takes with the current ``CORE``."""
    if CORE == "pure":
        return "pure"
    if compiled_core() is None:
        if CORE == "compiled":
            raise RuntimeError("the compiled solver core needs numba, which cannot be imported")
        return "pure"
    return "compiled"


#: how many objectives' searches ``kept_tables`` keeps at once (each holds up to about 21 MiB of tables)
KEPT = 4

_kept = threading.local()


@contextlib.contextmanager
def kept_tables() -> Iterator[None]:
    """Inside, the questions asked on this thread share their tables: each objective's ``Search``
    (rule set, counted seats, maximising team) is kept and asked again, so what one question
    proved answers the next (the leaders, goals and cards of one deal, a hand's analysis, a hint's
    layouts). A bound proven for a position holds in any deal, so nothing kept is ever wrong; the
    tables are let go when the outermost block ends, and at most ``KEPT`` objectives are kept."""
    outer = getattr(_kept, "searches", None)
    if outer is None:
        _kept.searches = OrderedDict()
    try:
        yield
    finally:
        if outer is None:
            _kept.searches = None


def search_for(tables: Tables, counted: int, maximiser: int) -> Search:
    """A new ``Search``, or inside ``kept_tables`` the one kept for this objective."""
    kept: OrderedDict[tuple[object, ...], Search] | None = getattr(_kept, "searches", None)
    if kept is None:
        return Search(tables, counted, maximiser)
    key = (tables, counted, maximiser, core_in_use())
    found = kept.get(key)
    if found is None:
        found = kept[key] = Search(tables, counted, maximiser)
        while len(kept) > KEPT:
            kept.popitem(last=False)
    kept.move_to_end(key)
    return found


class OutOfBudget(Exception):
    """The node or time budget of a call ran out before the answer was proven."""


class Search:
    """One objective's searches over one rule set, sharing their tables (so a question asked after
    another is answered from what the first proved)."""

    def __init__(self, tables: Tables, counted: int, maximiser: int) -> None:
        self.t = tables
        self.counted = counted  # bitmask of seats 0..3
        self.maximiser = maximiser  # team 0 (N-S) or 1 (E-W)
        self.nodes = 0
        self.node_limit = 1 << 62
        self.deadline = float("inf")
        self.core = core_in_use()
        core = compiled_core() if self.core == "compiled" else python_core()
        assert core is not None
        self._kernel: Any = core
        self._arrays: dict[str, Any] = {}

    def set_budget(self, nodes: int | None, seconds: float | None) -> None:
        # past what the counters hold (int64) a budget is no limit at all
        self.node_limit = min(self.nodes + nodes, 1 << 62) if nodes is not None else 1 << 62
        self.deadline = time.perf_counter() + seconds if seconds is not None else float("inf")

    def at_least(self, hands: list[int], leader: int, broken: bool, trick: list[int], target: int) -> bool:
        """Can the maximiser make the counted seats take >= ``target`` of the remaining tricks
        (the one in progress included)? Raises ``OutOfBudget``."""
        import numpy as np

        core = self._kernel
        a = self._arrays
        left = max(h.bit_count() for h in hands)
        if not a or left > a["left"]:  # tables sized for the largest position asked so far
            a.update(
                left=left,
                tab=_packed(self.t, core),
                q=core.question(self.counted, self.maximiser),
                stat=np.zeros(3, dtype=np.int64),
                work=core.stacks(),
                # the exact table: 2**18 rows (10 MiB) for a full deal; the partition table's
                # buckets of shapes: 2**14 (about 11 MiB). Against 2**19 and 2**13 (the same memory,
                # nearly), that cut the nodes of bench/solver_nodes.py's full deals by 8.5%; four
                # times as many buckets again saved only 1.4% more, as many exact rows as before 1%
                xt=np.zeros((1 << min(18, 7 + left), 5), dtype=np.int64),
                tt=np.zeros((1 << min(14, 2 + left), core.ENTRIES + 1, core.ROW), dtype=np.int64),
            )
        stat = a["stat"]
        stat[core.NODES] = self.nodes
        slice_ = FIRST_SLICE[self.core]
        started, start_nodes = time.perf_counter(), self.nodes
        while True:
            limit = self.node_limit
            if self.deadline != float("inf"):
                limit = min(limit, self.nodes + slice_)
            stat[core.LIMIT] = limit
            held = np.array(hands, dtype=np.int64)
            played = np.zeros(4, dtype=np.int64)
            played[: len(trick)] = trick
            res = core.run(
                a["tab"], a["q"], stat, a["tt"], a["xt"], held, leader, bool(broken), played, len(trick), target,
                a["work"],
            )  # fmt: skip
            self.nodes = int(stat[core.NODES])
            if not stat[core.ABORTED]:
                return bool(res)
            now = time.perf_counter()
            if self.nodes > self.node_limit or now > self.deadline:
                raise OutOfBudget
            rate = (self.nodes - start_nodes) / max(now - started, 1e-6)
            # a quarter of the time left at most: a machine slowed mid-slice overruns the deadline by
            # a quarter of what was left, not by all of it (a class server's kernels share their cores)
            slice_ = max(FIRST_SLICE[self.core], min(2 * slice_, int(rate * (self.deadline - now) / SLICE_SHARE)))


_PACKED: dict[int, Any] = {}


def _packed(t: Tables, core: Any) -> Any:
    """The tables packed into one array for the search, once per rule set's ``Tables``."""
    got = _PACKED.get(id(t))
    if got is None or got[0] is not t:
        got = _PACKED[id(t)] = (t, core.pack(t))
    return got[1]
