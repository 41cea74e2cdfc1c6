"""Simulate many rounds at once: ``simulate(rules, n_rounds, seed)`` -> ``BatchResult``.

>>> import spades_tutor as st
>>> res = simulate(st.Rules.preset("jokers"), 1000, seed=7)
>>> len(res), bool((res.tricks.sum(axis=1) == 13).all())
(1000, True)
>>> again = simulate(st.Rules.preset("jokers"), 10, seed=7, start=990, batch_size=3)
>>> bool((again.plays == res.plays[990:]).all())
True
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..engine import Rules, Seat
from .policy import Policy, get_policy
from .result import BatchResult
from .scoring import score_batch
from .table import deal, play_out
from .words import round_words

__all__ = ["DEFAULT_BATCH_SIZE", "DEFAULT_WORKERS", "simulate", "simulate_batch"]

DEFAULT_BATCH_SIZE = 16384  # rounds per numpy pass: large enough to hide Python overhead, small enough for cache
DEFAULT_WORKERS = 2  # numpy releases the GIL inside its loops, so two threads keep two cores busy


def simulate_batch(
    rules: Rules, start: int, n: int, seed: int, policy: str | Policy = "random", dealer: Seat | int | None = None
) -> BatchResult:
    """Rounds ``start .. start + n - 1`` in one vectorised pass."""
    pol = get_policy(policy)
    fixed = None if dealer is None else int(dealer)
    table = deal(rules, round_words(seed, start, n), fixed)
    play_out(table, pol)
    points, bags = score_batch(rules, table.bids, table.blind, table.taken)
    return BatchResult(
        rules=rules,
        seed=seed,
        policy=pol.name,
        dealer_choice=fixed,
        rounds=np.arange(start, start + n, dtype=np.int64),
        dealer=table.dealer.astype(np.int8),
        hands=table.dealt_cards,
        bids=table.bids,
        blind_nil=table.blind,
        plays=table.tables.card_of_bit[table.plays.T],
        leaders=np.ascontiguousarray(table.leaders.T),
        winners=np.ascontiguousarray(table.winners.T),
        tricks=table.taken,
        points=points,
        bags=bags,
    )


def simulate(
    rules: Rules,
    n_rounds: int,
    seed: int = 0,
    policy: str | Policy = "random",
    *,
    dealer: Seat | int | None = None,
    start: int = 0,
    batch_size: int = DEFAULT_BATCH_SIZE,
    workers: int = DEFAULT_WORKERS,
    progress: Callable[[int, int], object] | None = None,
) -> BatchResult:
    """Deal and play rounds ``start .. start + n_rounds - 1`` with ``policy``; one row per round.

    Round ``r`` depends only on ``(rules, seed, r, policy, dealer)``, never on ``batch_size``,
    ``workers`` or ``start``: a row can be re-simulated alone or replayed by the scalar engine
    (``scalar_replay``). ``dealer`` fixes the dealer seat; by default each round draws its own.
    Batches run on up to ``workers`` threads (at most the machine's cores).
    ``progress(done, total)`` is called after each batch, in order (``done`` rises to ``n_rounds``).
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a whole number 0 or more, not {seed!r}")
    if n_rounds < 0 or start < 0 or batch_size < 1:
        raise ValueError(f"need n_rounds >= 0, start >= 0, batch_size >= 1 (got {n_rounds}, {start}, {batch_size})")
    pol = get_policy(policy)
    firsts = range(start, start + n_rounds, batch_size) if n_rounds else range(start, start + 1)

    def one(first: int) -> BatchResult:
        return simulate_batch(rules, first, min(batch_size, start + n_rounds - first), seed, pol, dealer)

    threads = max(1, min(workers, len(firsts), os.cpu_count() or 1))
    pool = ThreadPoolExecutor(threads) if threads > 1 else None
    parts = []
    try:
        for part in pool.map(one, firsts) if pool else map(one, firsts):
            parts.append(part)
            if progress is not None and n_rounds:
                progress(int(part.rounds[-1]) + 1 - start, n_rounds)
    finally:
        if pool:
            pool.shutdown(cancel_futures=True)
    return parts[0] if len(parts) == 1 else BatchResult.concat(parts)
