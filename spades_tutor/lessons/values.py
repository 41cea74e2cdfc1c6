"""Lesson values: one parser per kind of key (cards, seats, bids, flags, presets …), and lesson errors.

>>> bids = parse_value("bids", "N 4, E 3, S nil, W 2")
>>> str(bids[st.Seat.NORTH]), str(bids[st.Seat.SOUTH])
('4', 'nil')
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import engine as st

__all__ = ["ANY", "LessonError", "parse_value", "preset_selection"]

#: the ``preset:`` value of an adaptive block: shown in the rule set the teacher picked
ANY = "any"

SEAT_LETTERS = ("N", "E", "S", "W")
_FLAG_NAMES = frozenset(
    f.name
    for f in dataclasses.fields(st.Rules)
    if f.init and f.name not in ("name", "title", "removed", "jokers", "trumps")
)
_PAIR = re.compile(r"^\s*([A-Za-z][A-Za-z–/-]*)\s*[=:]?\s*(\S.*?)\s*$")


class LessonError(st.SpadesError):
    """A lesson file that cannot be read or shown; the message names the file and line."""


def source_place(path: Path, line: int) -> str:
    """Where a line of a lesson file is, as error messages name it: ``lessons/03.md:12``."""
    return f"{path}:{line}"


# --- one parser per kind of key -------------------------------------------------------------


def parse_bool(text: str) -> bool:
    key = text.strip().lower()
    if key in ("true", "yes", "1"):
        return True
    if key in ("false", "no", "0"):
        return False
    raise ValueError(f"write true or false, not {text!r}")


def _parse_int(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ValueError(f"write a whole number, not {text!r}") from None


def _parse_pairs(text: str) -> list[tuple[str, str]]:
    """``'N 4, E 3, S nil, W 2'`` -> [('N', '4'), ...] (also ``N=4`` or ``N: 4``)."""
    out = []
    for item in text.split(","):
        if not item.strip():
            continue
        m = _PAIR.match(item)
        if m is None:
            raise ValueError(f"write pairs such as 'N 4, E 3', not {item.strip()!r}")
        out.append((m.group(1), m.group(2)))
    return out


def _parse_map(text: str, key: Callable[[str], Any], value: Callable[[str], Any]) -> dict[Any, Any]:
    """Seat or team pairs: ``'N 4, E nil'`` with ``key=Seat.parse, value=Bid.parse``."""
    out: dict[Any, Any] = {}
    for name, raw in _parse_pairs(text):
        k = key(name)
        if k in out:
            raise ValueError(f"{k.label} appear{'s' if isinstance(k, st.Seat) else ''} twice")
        out[k] = value(raw)
    return out


def _parse_flags(text: str) -> dict[str, Any]:
    """``'nil=false, mercy=-200'`` -> {'nil': False, 'mercy': -200}."""
    out: dict[str, Any] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        name, sep, raw = item.partition("=")
        name, raw = name.strip().replace("-", "_"), raw.strip()
        if not sep or not raw:
            raise ValueError(f"write flags as name=value, not {item.strip()!r}")
        if name not in _FLAG_NAMES:
            raise ValueError(f"unknown house-rule flag {name!r}; the flags are {', '.join(sorted(_FLAG_NAMES))}")
        value: Any
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        elif raw.lower() == "none":
            value = None
        elif re.fullmatch(r"[+-]?\d+", raw):
            value = int(raw)
        else:
            value = raw
        out[name] = value
    return out


def _parse_presets(text: str) -> tuple[str, ...]:
    names = tuple(text.replace(",", " ").split())
    if not names:
        raise ValueError("name at least one preset")
    for name in names:
        if name not in st.Rules.preset_names():
            raise ValueError(f"unknown preset {name!r}; the presets are {', '.join(st.Rules.preset_names())}")
    return names


#: ``preset:`` values that select presets by what the engine says about them
_SELECTORS: dict[str, Callable[[st.Rules], bool]] = {
    ANY: lambda rules: True,
    f"{ANY} with jokers": lambda rules: rules.jokers,
    f"{ANY} without jokers": lambda rules: not rules.jokers,
    f"{ANY} deck": lambda rules: True,  # the picked deck and trumps, the preset's own house rules
}


def preset_selection(text: str) -> tuple[str, ...]:
    """The presets a ``preset:`` or ``only:`` value names, in the engine's order (a named list keeps its order).

    >>> preset_selection("any with jokers")
    ('jokers', 'deuces-high', 'two-of-spades-third', 'bicycle')
    >>> preset_selection("classic, jokers")
    ('classic', 'jokers')
    """
    key = " ".join(text.split()).lower()
    if key in _SELECTORS:
        return tuple(name for name in st.Rules.preset_names() if _SELECTORS[key](st.Rules.preset(name)))
    names = tuple(text.replace(",", " ").split())
    if not names:
        raise ValueError(f"name a preset, or write {ANY}")
    for name in names:
        if name not in st.Rules.preset_names():
            raise ValueError(
                f"unknown preset {name!r}; write {', '.join(_SELECTORS)} or presets from "
                f"{', '.join(st.Rules.preset_names())}"
            )
    if len(set(names)) != len(names):
        raise ValueError(f"a preset is named twice in {text.strip()!r}")
    return names


def parse_preset(text: str) -> str:
    preset_selection(text)
    return " ".join(text.split())


def _parse_suit(text: str) -> st.Suit:
    word = text.strip().lower()
    for suit in st.Suit:
        if word in (suit.plural, suit.singular, suit.letter.lower(), suit.symbol):
            return suit
    raise ValueError(f"write a suit: {', '.join(s.plural for s in st.Suit)}, not {text.strip()!r}")


def _parse_goal(text: str) -> tuple[str, int]:
    """``'set_contract 6'`` -> ('set_contract', 6): a puzzle goal's name and its number (0 if none is given).

    The name is checked against the puzzle goals by the block that uses it.
    """
    words = text.split()
    if not 1 <= len(words) <= 2:
        raise ValueError(f"write a goal and its number, such as 'set_contract 6', not {text.strip()!r}")
    return words[0], _parse_int(words[1]) if len(words) == 2 else 0


def _parse_deal(text: str) -> str:
    st.parse_deal_id(text)
    return text.strip()


_CARD_KEYS = frozenset({"cards", "hand", "trick", "choices", "plays", *SEAT_LETTERS})
_PARSERS: dict[str, Callable[[str], Any]] = {
    **{key: st.cards for key in _CARD_KEYS},
    "spades_broken": parse_bool,
    "generate": parse_bool,
    "first_lead": parse_bool,
    "seed": _parse_int,
    "reneges": _parse_int,
    "hands": _parse_int,  # first-leader, next-deal: how many hands ahead
    "reneged": st.Team.parse,
    "difficulty": _parse_int,
    "leader": st.Seat.parse,
    "seat": st.Seat.parse,
    "dealer": st.Seat.parse,
    "two_of_clubs": st.Seat.parse,
    "bids": lambda text: _parse_map(text, st.Seat.parse, st.Bid.parse),
    "tricks": lambda text: _parse_map(text, st.Seat.parse, _parse_int),
    "bags": lambda text: _parse_map(text, st.Team.parse, _parse_int),
    "scores": lambda text: _parse_map(text, st.Team.parse, _parse_int),
    "flags": _parse_flags,
    "presets": _parse_presets,
    "preset": parse_preset,
    "only": parse_preset,
    "deal": _parse_deal,
    "goal": _parse_goal,
    "suit": _parse_suit,
}


def parse_value(key: str, text: str) -> Any:
    """The value of ``key: text`` in a block (text for a key without a parser); raises ``ValueError``."""
    return _PARSERS.get(key, str)(text)
