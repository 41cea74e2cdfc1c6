"""Batched policies: who bids what and which legal card is played, for many rounds at once.

A policy answers two questions about a ``Table`` (see ``table.py``):

- ``bid(table, position)``: the bids of the seat at bidding ``position`` (0 = the dealer's
  left) in every round, as ``(tricks, blind)`` arrays;
- ``play(table, legal)``: one display bit from each round's ``legal`` mask for ``table.seat``.

``RandomPolicy`` is the random policy the scalar engine reproduces (``replay.py``): every
choice is ``choose(word, n)`` (``words.py``) among the ``n`` legal options, in the order of
``Round.legal_bids()`` / ``Round.legal_plays()``. A batched heuristic policy plugs in here.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

from .card_tables import bid_options_after, select_bit
from .heuristic import HeuristicPolicy
from .table import Table
from .words import BIDS, PLAYS, choose_top

__all__ = ["POLICIES", "Policy", "RandomPolicy", "get_policy"]


class Policy(Protocol):
    name: str

    def bid(self, table: Table, position: int) -> tuple[npt.NDArray[np.integer], npt.NDArray[np.bool_]]: ...

    def play(self, table: Table, legal: npt.NDArray[np.uint64]) -> npt.NDArray[np.intp]: ...


class RandomPolicy:
    """Uniform among the legal options, driven by each round's words."""

    name = "random"

    def bid(self, table: Table, position: int) -> tuple[npt.NDArray[np.integer], npt.NDArray[np.bool_]]:
        top = table.top[BIDS + position]
        if position < 2 or not table.rules.min_team_bid:
            return _pick(table.tables.bid_options[position], top)
        # a team's second bidder, at a table with a least team bid: the options follow the partner's bid
        rows = np.arange(len(table))
        partner = (table.seat + 2) % 4
        first = table.bids[rows, partner].astype(np.intp) * 2 + table.blind[rows, partner]
        tricks = np.empty(len(table), dtype=np.int8)
        blind = np.empty(len(table), dtype=bool)
        for key in np.unique(first).tolist():
            sel = first == key
            options = bid_options_after(table.rules, position, (key // 2, bool(key % 2)))
            tricks[sel], blind[sel] = _pick(options, top[sel])
        return tricks, blind

    def play(self, table: Table, legal: npt.NDArray[np.uint64]) -> npt.NDArray[np.intp]:
        k = choose_top(table.top[PLAYS + table.step], np.bitwise_count(legal))
        return select_bit(legal, k)


def _pick(
    options: tuple[tuple[int, bool], ...], top: npt.NDArray[np.uint32]
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.bool_]]:
    """``choose`` among ``options`` (the engine's legal bids, in its order) for each round's word."""
    tricks = np.array([t for t, _ in options], dtype=np.int8)
    blind = np.array([b for _, b in options], dtype=bool)
    k = choose_top(top, len(options)).astype(np.intp)
    return tricks[k], blind[k]


POLICIES: dict[str, type[Policy]] = {"random": RandomPolicy, "heuristic": HeuristicPolicy}


def get_policy(policy: str | Policy) -> Policy:
    """A policy by name (``'random'``) or the policy object itself."""
    if not isinstance(policy, str):
        return policy
    try:
        return POLICIES[policy]()
    except KeyError:
        raise ValueError(f"unknown policy {policy!r}; the policies are {', '.join(POLICIES)}") from None
