"""Numbers in the engine's sentences: one minus sign everywhere a learner reads a number.

Scores are written with the typographic minus (U+2212), as the lessons write them, so a page
never shows ``-80`` beside ``−100``. The app's number fields accept either sign from a learner.

>>> signed(70), signed(-119), number(-200), number(500)
('+70', '−119', '−200', '500')
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "MINUS",
    "and_list",
    "capitalised",
    "how_often",
    "likely",
    "number",
    "percent",
    "plural",
    "signed",
    "signed_points",
]

MINUS = "\N{MINUS SIGN}"


def number(n: int) -> str:
    """``'−200'``, ``'500'``: a whole number as a learner reads it."""
    return f"{MINUS}{-n}" if n < 0 else str(n)


def signed(n: int) -> str:
    """``'+70'``, ``'−119'``, ``'+0'``: points won or lost, always with their sign."""
    return f"{MINUS}{-n}" if n < 0 else f"+{n}"


def plural(n: int, word: str) -> str:
    """``'1 trick'``, ``'3 tricks'``: a count and its word, with an ``s`` unless it is one."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def and_list(items: Iterable[str]) -> str:
    """``'a'``, ``'a and b'``, ``'a, b and c'``."""
    parts = list(items)
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def capitalised(text: str) -> str:
    """``text`` with its first letter upper-case (the rest as it is: card names keep their case).

    >>> capitalised("the big joker wins")
    'The big joker wins'
    """
    return text[:1].upper() + text[1:]


def signed_points(value: float, digits: int = 0) -> str:
    """``'+43'``, ``'−2'``, ``'−2.4'``: points rounded to ``digits`` decimals, with a real minus sign
    (never ``'−0'``).

    >>> signed_points(42.6), signed_points(-2.44, 1), signed_points(-0.04, 1)
    ('+43', '−2.4', '+0.0')
    """
    if digits == 0:
        return signed(round(value) + 0)
    text = f"{round(value, digits) + 0:+.{digits}f}"
    return "+" + text[1:] if float(text) == 0 else text.replace("-", MINUS)


def likely(low: str, high: str) -> str:
    """A measured figure's 95% interval as a learner reads it, after the figure ("about 20%").

    >>> f"about 20% ({likely('16%', '24%')})"
    'about 20% (likely between 16% and 24%)'
    """
    return f"likely between {low} and {high}"


def percent(p: float) -> int:
    """A share (0–1) in whole percent, as a learner reads it: ``percent(0.284) == 28``."""
    return round(100 * p)


def how_often(p: float, low: float, high: float, of: str = "the deals") -> str:
    """How often something happened in a measurement, with its likely range: "in about 28% of the
    deals (likely between 20% and 37%)". A figure that rounds to 0% or 100% is said in words that
    agree with it and with its range: "almost never" / "almost always", never "about 0%".

    >>> how_often(0.284, 0.2, 0.37)
    'in about 28% of the deals (likely between 20% and 37%)'
    >>> how_often(0.0, 0.0, 0.0095)
    'almost never (in fewer than 1 in 100 of the deals; likely between 0% and 1%)'
    >>> how_often(0.998, 0.986, 1.0, of="them")
    'almost always (in more than 99 in 100 of them; likely between 99% and 100%)'
    """
    shown, span = percent(p), likely(f"{percent(low)}%", f"{percent(high)}%")
    if shown <= 0:
        return f"almost never (in fewer than 1 in 100 of {of}; {span})"
    if shown >= 100:
        return f"almost always (in more than 99 in 100 of {of}; {span})"
    return f"in about {shown}% of {of} ({span})"
