"""Measurements made a batch at a time before they are asked for one at a time.

The measured quiz kinds ("best-bid", "nil-safe") try candidate hands in order until one makes a
good item, each hand played hundreds of times by the simulator. Played one hand at a time, the
simulator's fixed cost per step dominates; played several together (``lab.odds.hands_odds``, each
result equal to the hand played alone) a hand costs a third as much. So a generator measures the
next few candidates together, puts each result here, and the kind's per-hand measurement takes it
from here instead of playing the hand again: the item chosen is the same, only sooner.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

__all__ = ["AHEAD", "Ahead"]

#: candidate hands measured together (the first batch of an item is smaller: its first hand often does)
AHEAD = (4, 8)

V = TypeVar("V")


class Ahead(Generic[V]):
    """Results measured ahead, by key, until asked for (``take`` hands each out once); at most
    ``size`` kept, the oldest dropped first. Safe to share between threads.

    >>> ahead: Ahead[int] = Ahead(size=2)
    >>> ahead.put("a", 1); ahead.put("b", 2); ahead.put("c", 3)
    >>> ahead.take("a"), ahead.take("c"), ahead.take("c")
    (None, 3, None)
    """

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._values: OrderedDict[Hashable, V] = OrderedDict()

    def put(self, key: Hashable, value: V) -> None:
        with self._lock:
            self._values[key] = value
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def take(self, key: Hashable) -> V | None:
        with self._lock:
            return self._values.pop(key, None)

    def __len__(self) -> int:
        return len(self._values)

    def cache_clear(self) -> None:
        """Forget every result (as ``functools.lru_cache``'s does, for the caches built on them)."""
        with self._lock:
            self._values.clear()
