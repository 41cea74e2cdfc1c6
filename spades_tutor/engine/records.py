"""Reading records back (JSON from a browser, a file, a link): every value checked, nothing guessed.

A record is data from outside, so it may be damaged or hostile. Each reader here checks one value
and raises :class:`~spades_tutor.engine.errors.RecordError` naming its place in the record
(``"rules.target"``, ``"actions[0][5]"``); ``Round.from_dict``, ``Game.from_dict`` and
``Rules.from_dict`` are built from them.

>>> whole(10**30, "rules.target", 1, 10_000)
Traceback (most recent call last):
...
spades_tutor.engine.errors.RecordError: rules.target: 1000000000000000000000000000000 is not a whole number from 1 to 10000
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from .errors import RecordError, shown

__all__ = [
    "MAX_RECORD_CHARS",
    "MAX_ROUNDS",
    "MAX_SEED",
    "SCORE_LIMIT",
    "array",
    "choice",
    "flag",
    "load_json",
    "place",
    "record",
    "text",
    "whole",
]

#: seeds are whole numbers 0 to 10**18 - 1 (a deal id has at most 18 digits)
MAX_SEED = 10**18 - 1
#: a score in a record lies within ±SCORE_LIMIT (a game to the largest target stays far inside)
SCORE_LIMIT = 1_000_000
#: the longest JSON text read as a record (a game of MAX_ROUNDS rounds fits easily)
MAX_RECORD_CHARS = 4_000_000
#: the most rounds a game record may hold
MAX_ROUNDS = 2_000


def place(field: str, key: str | int) -> str:
    """The path to a value inside ``field``: ``place("rules", "target")`` is ``'rules.target'``."""
    if isinstance(key, int):
        return f"{field}[{key}]"
    return f"{field}.{key}" if field else key


def load_json(data: object, field: str) -> object:
    """JSON text parsed, or a ``RecordError``: never a ``JSONDecodeError`` or ``RecursionError``."""
    if not isinstance(data, str):
        raise RecordError(field, data, "JSON text")
    if len(data) > MAX_RECORD_CHARS:
        raise RecordError(field, None, "", problem=f"{len(data):,} characters is more than a record holds")
    try:
        return json.loads(data)
    except RecursionError:
        raise RecordError(field, None, "", problem="the JSON is nested too deeply to be a record") from None
    except ValueError as e:  # JSONDecodeError, or an integer with more digits than Python reads
        raise RecordError(field, None, "", problem=f"not JSON ({e})") from None


def record(
    data: object,
    field: str,
    *,
    required: Collection[str],
    optional: Collection[str] = (),
    keys_at: str | None = None,
) -> Mapping[str, Any]:
    """A JSON object with every ``required`` key, possibly some ``optional`` ones, and no others.

    A missing key is named inside ``keys_at`` (by default ``field``; ``""`` for a record's own fields).
    """
    if not isinstance(data, Mapping):
        raise RecordError(field, data, "an object of named fields")
    unknown = [shown(k) for k in data if k not in required and k not in optional]
    if unknown:
        named = ", ".join(sorted(unknown)[:5]) + (" …" if len(unknown) > 5 else "")
        raise RecordError(field, None, "", problem=f"unknown field{'s' if len(unknown) > 1 else ''} {named}")
    for key in required:
        if key not in data:
            where = place(field if keys_at is None else keys_at, key)
            raise RecordError(where, None, "", problem="missing from the record")
    return data


def whole(value: object, field: str, low: int, high: int) -> int:
    """A JSON integer (never a bool or a float) from ``low`` to ``high``."""
    if type(value) is not int or not low <= value <= high:
        raise RecordError(field, value, f"a whole number from {low} to {high}")
    return value


def flag(value: object, field: str) -> bool:
    """``true`` or ``false``."""
    if type(value) is not bool:
        raise RecordError(field, value, "true or false")
    return value


def text(value: object, field: str, *, max_len: int, min_len: int = 1) -> str:
    """A string of printable characters, ``min_len`` to ``max_len`` long."""
    if not isinstance(value, str) or not min_len <= len(value) <= max_len or not value.isprintable():
        raise RecordError(field, value, f"a line of text of {min_len} to {max_len} characters")
    return value


def choice(value: object, field: str, choices: Sequence[str]) -> str:
    """One of ``choices``."""
    if not isinstance(value, str) or value not in choices:
        raise RecordError(field, value, "one of " + ", ".join(repr(c) for c in choices))
    return value


def array(value: object, field: str, *, max_len: int, min_len: int = 0) -> list[Any]:
    """A JSON array of ``min_len`` to ``max_len`` items."""
    if not isinstance(value, list) or not min_len <= len(value) <= max_len:
        size = f"at most {max_len}" if min_len == 0 else f"{min_len} to {max_len}"
        raise RecordError(field, value, f"a list of {size} items")
    return value
