"""Placeholders: rule facts in lesson prose (``{removed}``, ``{trump count}`` …), filled by the engine.

>>> fill_placeholders("Take out {removed}: {trump count} trumps.", st.Rules.preset("deuces-high"))
'Take out the two of clubs and the two of hearts: 16 trumps.'
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .. import engine as st
from ..engine.renege import RENEGE_TRICKS
from ..engine.text import number

__all__ = ["PLACEHOLDERS", "fill_placeholders"]

_PLACEHOLDER = re.compile(r"\{([A-Za-z][a-z]*(?: [a-z]+)*)\}")


def _in_words(cards: tuple[st.Card, ...], rules: st.Rules) -> str:
    """``the two of hearts and the two of diamonds`` (``no card`` for none)."""
    names = [rules.card_name(c) for c in cards]
    if not names:
        return "no card"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


#: ``{name}`` in prose or a label -> (what it says, the engine's answer in a rule set)
PLACEHOLDERS: dict[str, tuple[str, Callable[[st.Rules], str]]] = {
    "rule set": ("the rule set's name", lambda rules: rules.title),
    "removed": ("the cards taken out of the pack, in words", lambda rules: _in_words(rules.removed, rules)),
    "removed cards": ("the cards taken out of the pack", lambda rules: " ".join(map(str, rules.removed)) or "none"),
    "removed count": ("how many cards are taken out", lambda rules: str(len(rules.removed))),
    "trump count": ("how many trumps there are", lambda rules: str(len(rules.trump_order()))),
    "trumps": ("the trumps, highest first", lambda rules: " ".join(map(str, rules.trump_order()))),
    "top trump": ("the highest trump, in words", lambda rules: _in_words(rules.trump_order()[:1], rules)),
    "top trumps": ("the three highest trumps, in words", lambda rules: _in_words(rules.trump_order()[:3], rules)),
    "lowest trump": ("the lowest trump, in words", lambda rules: _in_words(rules.trump_order()[-1:], rules)),
    "extra trumps": (
        "the trumps that are not natural spades, in words",
        lambda rules: _in_words(rules.extra_trumps(), rules),
    ),
    "target": ("the score that wins the game", lambda rules: number(rules.target)),
    "ace of spades place": (
        "where the ace of spades stands among the trumps",
        lambda rules: rules.trump_position(st.Card.parse("AS")),
    ),
    "big joker place": (
        "where the big joker stands among the trumps",
        lambda rules: rules.trump_position(st.BIG_JOKER),
    ),
    "little joker place": (
        "where the little joker stands among the trumps",
        lambda rules: rules.trump_position(st.LITTLE_JOKER),
    ),
    "trick points": ("the points a contract scores per trick bid", lambda rules: str(rules.trick_points)),
    "nil value": ("what a nil scores, made or failed", lambda rules: str(rules.nil_value)),
    "blind nil value": ("what a blind nil scores, made or failed", lambda rules: str(rules.blind_nil_value)),
    "bag limit": ("how many bags bring the bag penalty", lambda rules: str(rules.bag_limit)),
    "bag penalty": ("the points the bag limit costs", lambda rules: str(rules.bag_penalty)),
    "nil rule": ("whether nil may be bid, in words", lambda rules: _nil_rule(rules)),
    "bids allowed": ("the bids a player may make at this table, in words", lambda rules: _bids_allowed(rules)),
    "deck change": (
        "what the rule set does to the ordinary pack, in words",
        lambda rules: _deck_change(rules),
    ),
    "blind nil rule": ("when blind nil may be bid, in words", lambda rules: _blind_nil_rule(rules)),
    "first leader": ("who leads the first trick, in words", lambda rules: _first_leader(rules)),
    "renege penalty": ("what a renege costs the side that made it, in words", lambda rules: _renege_penalty(rules)),
}


def _renege_penalty(rules: st.Rules) -> str:
    tricks = RENEGE_TRICKS.get(rules.renege_penalty)
    if tricks is None:  # "set"
        return "its whole bid, whatever it took"
    return f"{tricks} tricks, given to the other side, for each renege"


def _nil_rule(rules: st.Rules) -> str:
    return "this table allows nil" if rules.nil else "this table plays without nil"


def _bids_allowed(rules: st.Rules) -> str:
    """``'1 to 13, or nil'``, ``'1 to 13 (this table plays without nil)'`` …: what a bid may be here.

    Blind nil is a rule of its own: a table may play it without plain nil.

    >>> _bids_allowed(st.Rules.preset("jokers", nil=False, blind_nil="always"))
    '1 to 13, or blind nil (this table plays without nil)'
    """
    blind = {
        "always": "blind nil",
        "behind-100": f"blind nil for a team {rules.blind_nil_behind} or more points behind",
    }
    extra = blind.get(rules.blind_nil)
    if rules.nil:
        return "1 to 13, nil, or " + extra if extra else "1 to 13, or nil"
    return ("1 to 13, or " + extra if extra else "1 to 13") + " (this table plays without nil)"


def _deck_change(rules: st.Rules) -> str:
    """``'the two of hearts and the two of diamonds come out, two jokers come in'`` (or ``'the ordinary
    deck as it is, no jokers in'``)."""
    if not rules.removed and not rules.jokers:
        return "the ordinary deck as it is, no jokers in"
    out = f"{_in_words(rules.removed, rules)} {'comes' if len(rules.removed) == 1 else 'come'} out"
    return f"{out}, two jokers come in" if rules.jokers else f"{out}, no jokers in"


def _blind_nil_rule(rules: st.Rules) -> str:
    if rules.blind_nil == "off":
        return "this table plays without blind nil"
    if rules.blind_nil == "behind-100":
        return f"this table allows it only to a team {rules.blind_nil_behind} or more points behind"
    return "this table allows it to any player"


def _first_leader(rules: st.Rules) -> str:
    if rules.first_lead == "two-of-clubs":
        return "the player holding the two of clubs, who leads it"
    return "the player left of the dealer"


def fill_placeholders(text: str, rules: st.Rules) -> str:
    """Prose with each ``{placeholder}`` replaced by the engine's answer in ``rules``.

    A capital first letter (``{Top trump}``) capitalises the answer; an unknown name raises ``ValueError``.

    >>> fill_placeholders("Take out {removed}: {trump count} trumps.", st.Rules.preset("deuces-high"))
    'Take out the two of clubs and the two of hearts: 16 trumps.'
    """

    def fill(m: re.Match[str]) -> str:
        name = m.group(1)
        entry = PLACEHOLDERS.get(name.lower())
        if entry is None:
            raise ValueError(f"unknown placeholder {{{name}}}; the placeholders are {', '.join(PLACEHOLDERS)}")
        answer = entry[1](rules)
        return answer[:1].upper() + answer[1:] if name[0].isupper() else answer

    return _PLACEHOLDER.sub(fill, text)
