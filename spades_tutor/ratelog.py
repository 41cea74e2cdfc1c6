"""Log lines a flood cannot multiply: at most a few per kind and client a minute, the rest counted.

Whatever a client sends that the server refuses (a foreign ``Host``, a wrong class code, someone
else's kernel, a malformed websocket frame, a flood of widget messages) is worth one line in the
server's log; a client sending it thousands of times a second is worth one line too, and a count.
Unbounded, a refusal's warning wrote the disk full: 58,000 hostile widget messages made 634,000
lines (137 MB) in under four minutes.

:class:`RateLimitedLog` keys its budget by what the caller names (a kind and a client address,
never text the client chose), with a budget for all keys together on top, so that many clients (or
many keys) cannot add up to a flood either. :class:`RateLimitFilter` is the same budget as a
:class:`logging.Filter`, for a handler whose callers do not know about it (keyed by the record's
logger and format string).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["RateLimitFilter", "RateLimitedLog"]

# Lines one key may write per period, lines all keys together may write per period, the period.
PER_KEY = 3
IN_ALL = 60
PERIOD_S = 60.0
# Keys remembered at most (a client cannot grow the table without bound; the oldest windows go first).
MAX_KEYS = 4096


@dataclass
class _Window:
    start: float
    written: int = 0
    suppressed: int = 0


class RateLimitedLog:
    """A logger's ``warning`` with a budget: ``per_key`` lines per key and ``in_all`` lines in all per ``period`` s.

    A line over budget is not written but counted; the key's next line after its window has
    turned says how many were left out. :meth:`warning` returns whether the line was written.

    >>> records = []
    >>> class Collect(logging.Handler):
    ...     def emit(self, record): records.append(record.getMessage())
    >>> logger = logging.getLogger("ratelog-doctest")
    >>> logger.addHandler(Collect()); logger.propagate = False
    >>> now = [0.0]
    >>> log = RateLimitedLog(logger, per_key=2, in_all=3, period=60, clock=lambda: now[0])
    >>> [log.warning(("frame", "10.0.0.7"), "bad frame from %s", "10.0.0.7") for _ in range(1000)].count(True)
    2
    >>> log.warning(("frame", "10.0.0.8"), "bad frame from %s", "10.0.0.8")
    True
    >>> log.warning(("frame", "10.0.0.9"), "bad frame from %s", "10.0.0.9")  # over the budget of all keys
    False
    >>> now[0] = 61.0
    >>> log.warning(("frame", "10.0.0.7"), "bad frame from %s", "10.0.0.7")
    True
    >>> records[-1]
    'bad frame from 10.0.0.7 (and 998 more like it in the last 61 s, not logged)'
    >>> len(records)
    4
    """

    def __init__(
        self,
        log: logging.Logger,
        *,
        per_key: int = PER_KEY,
        in_all: int = IN_ALL,
        period: float = PERIOD_S,
        max_keys: int = MAX_KEYS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.log = log
        self.per_key = per_key
        self.in_all = in_all
        self.period = period
        self.max_keys = max_keys
        self.clock = clock
        self._windows: dict[object, _Window] = {}
        self._all = _Window(clock())

    def warning(self, key: object, msg: str, *args: object) -> bool:
        return self.emit(logging.WARNING, key, msg, *args)

    def emit(self, level: int, key: object, msg: str, *args: object) -> bool:
        """Log ``msg % args`` at ``level`` if ``key``'s budget and the budget of all keys allow it."""
        admitted, suffix = self.admit(key)
        if admitted:
            self.log.log(level, msg + suffix, *args)
        return admitted

    def admit(self, key: object) -> tuple[bool, str]:
        """Whether a line for ``key`` may be written now (counted if so), and what it should add: how
        many lines of the key's last window were left out, if any."""
        now = self.clock()
        if now - self._all.start >= self.period:
            self._all = _Window(now)
        suffix = ""
        window = self._windows.get(key)
        if window is None:
            if len(self._windows) >= self.max_keys:
                self._forget(now)
            window = self._windows[key] = _Window(now)
        elif now - window.start >= self.period:
            if window.suppressed:
                suffix = f" (and {window.suppressed} more like it in the last {now - window.start:.0f} s, not logged)"
            window.start, window.written, window.suppressed = now, 0, 0
        if window.written >= self.per_key or self._all.written >= self.in_all:
            window.suppressed += 1
            return False, ""
        window.written += 1
        self._all.written += 1
        return True, suffix

    def _forget(self, now: float) -> None:
        """Make room in the table: drop the windows that have turned, else the older half."""
        turned = [k for k, w in self._windows.items() if now - w.start >= self.period]
        if len(turned) < len(self._windows) // 2:
            by_age = sorted(self._windows, key=lambda k: self._windows[k].start)
            turned = by_age[: len(self._windows) // 2]
        for k in turned:
            del self._windows[k]


class RateLimitFilter(logging.Filter):
    """:class:`RateLimitedLog`'s budget for every record through a handler, keyed by logger and format string
    (records below ``least_level`` pass without spending it).

    >>> now = [0.0]
    >>> f = RateLimitFilter(per_key=2, in_all=100, period=60, clock=lambda: now[0])
    >>> rec = lambda msg: logging.LogRecord("comm", logging.ERROR, __file__, 1, msg, ("x",), None)
    >>> [f.filter(rec("No such comm: %s")) for _ in range(5)]
    [True, True, False, False, False]
    >>> f.filter(rec("Another message: %s"))
    True
    >>> now[0] = 60.0
    >>> r = rec("No such comm: %s"); f.filter(r), r.getMessage()
    (True, 'No such comm: x (and 3 more like it in the last 60 s, not logged)')
    """

    def __init__(
        self,
        *,
        per_key: int = PER_KEY,
        in_all: int = IN_ALL,
        period: float = PERIOD_S,
        least_level: int = logging.NOTSET,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.least_level = least_level
        self._budget = RateLimitedLog(
            logging.getLogger(__name__), per_key=per_key, in_all=in_all, period=period, clock=clock
        )

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < self.least_level:  # below the level the budget is for: always written
            return True
        decided = getattr(record, "spades_tutor_admitted", None)
        if decided is not None:  # the same record through another handler with this filter: the same answer
            return bool(decided)
        admitted, suffix = self._budget.admit((record.name, str(record.msg)[:200]))
        if admitted and suffix:
            record.msg = str(record.msg) + suffix.replace("%", "%%")
        setattr(record, "spades_tutor_admitted", admitted)  # noqa: B010 - LogRecord declares no such attribute
        return admitted
