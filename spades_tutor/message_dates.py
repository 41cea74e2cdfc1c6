"""Kernel messages' dates read with the standard library: the server reads every message a kernel sends.

Jupyter's server reads the header of every IOPub message each kernel sends (its activity watcher, and
Voilà's notebook client while a notebook runs), and ``jupyter_client`` turns the header's dates back
into ``datetime`` objects with ``dateutil``'s ISO parser: about 10 µs a date, two dates a message, some
40% of reading a message's header. A class's arrival is hundreds of messages a learner (the app's 261
widgets), on a server shared by the class. ``datetime.fromisoformat`` reads the same strings (Python
3.11 reads every form ``jupyter_client``'s pattern admits: ``Z``, offsets, 1-6 digits of fraction) in
about 0.2 µs; ``install`` makes ``jupyter_client`` use it, keeping ``dateutil`` for anything it does
not read, so every date comes out as before.

>>> install()
>>> from jupyter_client.jsonutil import parse_date
>>> parse_date("2026-12-07T22:45:01.123456Z")
datetime.datetime(2026, 12, 7, 22, 45, 1, 123456, tzinfo=datetime.timezone.utc)
>>> parse_date("not a date")
'not a date'
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

__all__ = ["install", "read_date"]

#: the name ``jupyter_client.jsonutil.parse_date`` calls to read a date (``dateutil``'s ``isoparse``)
PARSER = "_dateutil_parse"


def read_date(text: str, fallback: Callable[[str], datetime] | None = None) -> datetime:
    """An ISO 8601 date as ``datetime.fromisoformat`` reads it, else as ``fallback`` (``dateutil``'s
    parser, which ``install`` hands it) does; without one, the standard library's error stands."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        if fallback is None:
            raise
        return fallback(text)


def install() -> None:
    """Make ``jupyter_client`` read messages' dates with ``read_date`` (in this process; again is harmless)."""
    from jupyter_client import jsonutil

    original = getattr(jsonutil, PARSER)
    if getattr(original, "reads_with_fromisoformat", False):
        return

    def parse(text: str) -> datetime:
        return read_date(text, original)

    parse.reads_with_fromisoformat = True  # type: ignore[attr-defined]
    setattr(jsonutil, PARSER, parse)
