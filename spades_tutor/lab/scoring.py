"""``st.score_hand`` over many hands at once: points and bags per team, from 0 bags before.

There is no second copy of the scoring rules here. A side's score for one hand depends only
on its two seats' bids (0..13, or blind nil) and the tricks each took (together at most 13),
so ``side_table`` asks the engine's own per-side step (``scoring.score_side``) once for every
such input of a rule set (the two seats of a side taken either way round), and ``score_batch``
reads the answers by fancy indexing. A scoring option added to the engine reaches the lab with
no change here.

>>> import spades_tutor as st
>>> bids = np.array([[4, 2, 3, 2], [0, 5, 2, 4]])
>>> tricks = np.array([[5, 3, 3, 2], [1, 6, 1, 5]])
>>> points, bags = score_batch(st.Rules.preset("jokers"), bids, np.zeros((2, 4), bool), tricks)
>>> points.tolist(), bags.tolist()
([[71, 41], [-119, 92]], [[1, 1], [1, 2]])
"""

from __future__ import annotations

import dataclasses
import functools
import threading

import numpy as np
import numpy.typing as npt

from ..engine import BLIND_NIL, Bid, Rules, Team
from ..engine import scoring as _engine_scoring

__all__ = ["SideTable", "score_batch", "side_table"]

#: a seat's bid as a table index: the number of tricks bid (0 = nil), or ``BLIND`` for a blind nil
BLIND = 14
_BIDS = (*(Bid(n) for n in range(14)), BLIND_NIL)  # _BIDS[index]
_TRICKS = 14  # a seat takes 0..13 tricks
#: a cell no hand reaches (the two seats took more than 13 tricks): never read for a real hand
UNREACHABLE = np.iinfo(np.int32).min


@dataclasses.dataclass(frozen=True, eq=False)
class SideTable:
    """A side's score for every hand it can have, as ``score_side`` gives it (no bags before).

    ``points[a, b, ta, tb]`` and ``bags[...]``: the side's points and its bag count after the
    hand, where ``a``/``b`` are its first/second seat's bids as indexes (``BLIND`` for a blind
    nil) and ``ta``/``tb`` the tricks they took. Cells with ``ta + tb > 13`` hold ``UNREACHABLE``.
    """

    points: npt.NDArray[np.int32]
    bags: npt.NDArray[np.int32]


_BUILDING = threading.Lock()  # simulate's worker threads ask for a rule set's table at once: build it once


def side_table(rules: Rules) -> SideTable:
    """Ask ``score_side`` for every reachable (bids, tricks) of a side, once per rule set.

    The side asked is North–South (first seat North, second South). East–West's hands are read
    from the same table (first seat East, second West), and a hand with the two seats' bids and
    tricks swapped from the same cell swapped back: ``score_side`` takes a side's seats from
    ``team.seats``, adds up what each seat bid and took, and uses the seats and the team for
    nothing else but the words of its lines. So about 12,600 calls (0.1 to 0.2 s) make the table,
    not the 47,000 of asking every cell of both sides; the tests compare every cell of both
    sides with ``score_hand``.

    >>> import spades_tutor as st
    >>> t = side_table(st.Rules.preset("jokers"))
    >>> int(t.points[4, 3, 5, 3]), int(t.bags[4, 3, 5, 3])
    (71, 1)
    >>> int(t.points[BLIND, 2, 0, 4]), int(t.points[2, BLIND, 4, 0])  # a blind nil made, a contract of 2 with 2 over
    (222, 222)
    """
    with _BUILDING:
        return _side_table(rules)


@functools.lru_cache(maxsize=32)
def _side_table(rules: Rules) -> SideTable:
    shape = (len(_BIDS), len(_BIDS), _TRICKS, _TRICKS)
    points = np.full(shape, UNREACHABLE, dtype=np.int32)
    bags = np.full(shape, UNREACHABLE, dtype=np.int32)
    score_side = _engine_scoring.score_side  # looked up at build time: the engine's step as it is now
    team = Team.NS
    first, second = team.seats
    splits = [(ta, tb) for ta in range(_TRICKS) for tb in range(_TRICKS - ta)]
    for a, bid_a in enumerate(_BIDS):
        for b in range(a, len(_BIDS)):
            bid = {first: bid_a, second: _BIDS[b]}
            for ta, tb in splits:
                score = score_side(rules, team, bid, {first: ta, second: tb}, 0)
                points[a, b, ta, tb] = points[b, a, tb, ta] = score.points
                bags[a, b, ta, tb] = bags[b, a, tb, ta] = score.bags
    points.flags.writeable = False
    bags.flags.writeable = False
    return SideTable(points, bags)


def score_batch(
    rules: Rules,
    bids: npt.NDArray[np.integer],
    blind: npt.NDArray[np.bool_],
    tricks: npt.NDArray[np.integer],
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Points and bags after the hand, each ``(N, 2)`` (teams NS, EW), for ``(N, 4)`` seat arrays.

    ``bids`` are trick counts 0..13 (0 = nil; ``blind`` marks a blind nil), ``tricks`` the tricks
    taken (13 in all each hand; a side with more raises ``ValueError``). Each side's score is ``score_side``'s for a fresh game, read from
    ``side_table(rules)``: a bag penalty comes off when the hand's own bags reach ``bag_limit``.
    """
    table = side_table(rules)
    flat_points = table.points.reshape(-1)
    flat_bags = table.bags.reshape(-1)
    bid = bids.astype(np.intp)
    took = tricks.astype(np.intp)
    index = np.where(blind & (bid == 0), BLIND, bid)
    n = len(bid)
    points = np.empty((n, 2), dtype=np.int32)
    bags = np.empty((n, 2), dtype=np.int32)
    for team in Team:
        first, second = team.seats
        cell = (index[:, first] * len(_BIDS) + index[:, second]) * _TRICKS + took[:, first]
        cell = cell * _TRICKS + took[:, second]
        points[:, team] = flat_points[cell]
        bags[:, team] = flat_bags[cell]
    if (points == UNREACHABLE).any():
        raise ValueError("a side's two seats took more than 13 tricks between them")
    return points, bags
