"""The random words behind every simulated round, and how a choice is read from a word.

Round ``r`` of a simulation with seed ``s`` owns the 64-bit words
``WORDS * r .. WORDS * (r + 1) - 1`` of ``numpy.random.PCG64(s)``'s stream, so a
round's deal and choices depend only on ``(s, r)``: not on the batch size, not on
which rounds are simulated beside it. Inside a round the words are laid out as:

- ``DEAL`` (52 words): the shuffle. Deck position ``i`` (``rules.deck()`` order) gets the
  key ``(word & ~63) | i`` (distinct, so no ties); the cards sorted by key are dealt one at a
  time from the dealer's left.
- ``DEALER`` (1 word): the dealer, ``choose(word, 4)``, when the simulation does not fix one.
- ``BIDS`` (4 words): the bids, in bidding order (from the dealer's left).
- ``PLAYS`` (52 words): the cards, in play order.

``choose(word, n)`` is ``floor(U * n)`` with ``U = (word >> 32) / 2**32``, computed exactly in
integers as ``((word >> 32) * n) >> 32``: the random policy takes that index into the legal
options in the engine's order.

>>> w = round_words(seed=1, start=5, n=2)
>>> w.shape == (2, WORDS) and bool((round_words(1, 6, 1)[0] == w[1]).all())
True
>>> choose(2**63, 4), choose(2**64 - 1, 13)
(2, 12)
"""

from __future__ import annotations

import sys

import numpy as np
import numpy.typing as npt

__all__ = [
    "BIDS",
    "DEAL",
    "DEALER",
    "PLAYS",
    "WORDS",
    "choose",
    "choose_many",
    "choose_top",
    "deal_order",
    "round_words",
    "top_halves",
]

DEAL = 0
DEALER = 52
BIDS = 53
PLAYS = 57
WORDS = 112  # 109 used; the rest is kept free for policies that need more randomness

_LOW6 = np.uint64(63)
_HIGH = 1 if sys.byteorder == "little" else 0  # which uint32 half of a native uint64 is the high one


def round_words(seed: int, start: int, n: int) -> npt.NDArray[np.uint64]:
    """The words of rounds ``start .. start + n - 1``: a ``(n, WORDS)`` uint64 array."""
    bits = np.random.PCG64(seed)
    if start:
        bits.advance(WORDS * start)
    return bits.random_raw((n, WORDS))


def choose(word: int, n: int) -> int:
    """The option index ``floor(U * n)`` a word picks among ``n`` options (scalar)."""
    return ((int(word) >> 32) * n) >> 32


def choose_many(words: npt.NDArray[np.uint64], n: npt.NDArray[np.unsignedinteger] | int) -> npt.NDArray[np.uint64]:
    """``choose`` over arrays (the vectorised twin)."""
    return ((words >> np.uint64(32)) * np.asarray(n, dtype=np.uint64)) >> np.uint64(32)


def top_halves(words: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint32]:
    """``words >> 32`` transposed to ``(WORDS, n)``: one contiguous row per decision, for ``choose_top``."""
    halves = words.view(np.uint32)  # two per word, in native byte order
    return np.ascontiguousarray(halves[:, _HIGH::2].T)


def choose_top(top: npt.NDArray[np.uint32], n: npt.NDArray[np.unsignedinteger] | int) -> npt.NDArray[np.uint64]:
    """``choose`` from a row of ``top_halves`` (the fast path of the play loop)."""
    return (top.astype(np.uint64) * np.asarray(n, dtype=np.uint64)) >> np.uint64(32)


def deal_order(words: npt.NDArray[np.uint64]) -> npt.NDArray[np.intp]:
    """Deck positions in dealing order, from the ``DEAL`` words (one row per round)."""
    keys = (words[:, DEAL : DEAL + 52] & ~_LOW6) | np.arange(52, dtype=np.uint64)
    return np.argsort(keys, axis=1)
