"""One reader for numbers that come from outside: links, form fields, stored records, the command line.

``str.isdigit()`` accepts ``"²"`` and ``"٣"``, which ``int()`` then refuses or reads as another
number; ``int()`` itself accepts ``" 7 "``, ``"+7"``, ``"7_000"`` and, from JSON, ``True`` and ``7.0``.
Everything the app reads from a page goes through :func:`parse_whole_number` instead: ASCII digits
only, within stated bounds, or an :class:`~spades_tutor.engine.errors.InputError` naming the field.

>>> parse_whole_number("12", field="lesson", low=1, high=99)
12
>>> parse_whole_number("²", field="lesson", low=1, high=99)
Traceback (most recent call last):
...
spades_tutor.engine.errors.InputError: lesson: '²' is not a whole number from 1 to 99
"""

from __future__ import annotations

import re

from .errors import InputError

__all__ = ["parse_whole_number", "whole_number"]

_ASCII_DIGITS = re.compile(r"[0-9]{1,40}")


def _expected(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"a whole number from {low} to {high}"
    if low is not None:
        return f"a whole number of at least {low}"
    if high is not None:
        return f"a whole number of at most {high}"
    return "a whole number"


def parse_whole_number(
    text: object, *, field: str, low: int | None = None, high: int | None = None, negative: bool = False
) -> int:
    """``text`` (a string of ASCII digits, a leading ``-`` only if ``negative``) as an int within ``[low, high]``.

    >>> parse_whole_number("-200", field="mercy", low=-10_000, high=0, negative=True)
    -200
    >>> parse_whole_number("7.0", field="step", low=1, high=9)
    Traceback (most recent call last):
    ...
    spades_tutor.engine.errors.InputError: step: '7.0' is not a whole number from 1 to 9
    """
    expected = _expected(low, high)
    if not isinstance(text, str):
        raise InputError(field, text, expected)
    body = text[1:] if negative and text.startswith("-") else text
    if not _ASCII_DIGITS.fullmatch(body):
        raise InputError(field, text, expected)
    return whole_number(int(text), field=field, low=low, high=high)


def whole_number(value: object, *, field: str, low: int | None = None, high: int | None = None) -> int:
    """A number read from a record (JSON): an ``int`` (never ``bool`` or ``float``) within ``[low, high]``.

    >>> whole_number(3, field="seed", low=0)
    3
    >>> whole_number(True, field="seed", low=0)
    Traceback (most recent call last):
    ...
    spades_tutor.engine.errors.InputError: seed: True is not a whole number of at least 0
    """
    expected = _expected(low, high)
    if type(value) is not int:
        raise InputError(field, value, expected)
    if (low is not None and value < low) or (high is not None and value > high):
        raise InputError(field, value, expected)
    return value
