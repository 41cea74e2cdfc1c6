"""Placeholders: rule facts in lesson prose (``{removed}``, ``{trump count}`` …), filled by the engine.

A number of the rule set may be written with a whole number added or taken away
(``{target-35}``, ``{target+12}``): prose shows the result as the engine writes numbers,
and a block's ``key: value`` line (``scores: NS {target-35}, EW {target-60}``) reads it
as a plain whole number, so a position can sit just short of the learner's own target.

>>> fill_placeholders("Take out {removed}: {trump count} trumps.", st.Rules.preset("deuces-high"))
'Take out the two of clubs and the two of hearts: 16 trumps.'
>>> fill_placeholders("{target-35} and {mercy-10}", st.Rules.preset("jokers", target=300, mercy=-200))
'265 and −210'
>>> fill_placeholders("NS {target-35}, EW {mercy-10}", st.Rules.preset("jokers", mercy=-200), plain=True)
'NS 465, EW -210'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from .. import engine as st
from ..engine.renege import RENEGE_TRICKS
from ..engine.text import number

__all__ = ["PLACEHOLDERS", "fill_placeholders"]

_PLACEHOLDER = re.compile(r"\{([A-Za-z][a-z]*(?: [a-z]+)*)(?:\s*([+-])\s*(\d{1,5}))?\}")


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
    "mercy rule": ("whether a low score ends the game at this table, in words", lambda rules: _mercy_rule(rules)),
    "failed nil rule": ("where this table puts a failed nil's tricks, in words", lambda rules: _failed_nil(rules)),
}

#: the placeholders that are one of the rule set's numbers, so arithmetic may follow them (``{target-35}``);
#: None where the table does not play the rule (a mercy score at a table without one)
NUMBERS: dict[str, Callable[[st.Rules], int | None]] = {
    "target": lambda rules: rules.target,
    "mercy": lambda rules: rules.mercy,
    "trick points": lambda rules: rules.trick_points,
    "nil value": lambda rules: rules.nil_value,
    "blind nil value": lambda rules: rules.blind_nil_value,
    "bag limit": lambda rules: rules.bag_limit,
    "bag penalty": lambda rules: rules.bag_penalty,
    "min team bid": lambda rules: rules.min_team_bid,
    "ten bid bonus": lambda rules: rules.ten_bid_bonus,
}


def _rule_number(name: str, rules: st.Rules) -> str:
    value = NUMBERS[name](rules)
    if value is None:
        raise ValueError(f"{{{name}}}: this table plays without the {name} rule")
    return number(value)


PLACEHOLDERS.update(
    {
        name: (what, functools.partial(_rule_number, name))
        for name, what in (
            ("mercy", "the score at or below which a team loses (at a table with that rule)"),
            ("min team bid", "the least a team bids with its two bids together (0: no least)"),
            ("ten bid bonus", "the bonus for bidding 10 or more together and making it (0: none)"),
        )
    }
)


def _failed_nil(rules: st.Rules) -> str:
    if rules.failed_nil_tricks == "partner":
        return "your table counts a failed nil's tricks toward the partner's bid instead, and not as bags"
    if rules.failed_nil_tricks == "none":
        return "your table counts a failed nil's tricks for nothing instead: not toward the bid, not as bags"
    return "your table plays it so"


def _mercy_rule(rules: st.Rules) -> str:
    if rules.mercy is None:
        return f"your table plays without this rule: only reaching {number(rules.target)} ends its games"
    return f"your table plays it: a team at {number(rules.mercy)} or below loses"


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


def fill_placeholders(text: str, rules: st.Rules, plain: bool = False) -> str:
    """Prose with each ``{placeholder}`` replaced by the engine's answer in ``rules``.

    A capital first letter (``{Top trump}``) capitalises the answer; an unknown name raises ``ValueError``,
    and so does arithmetic on a placeholder that is not a number of the rule set, or on a rule the table
    does not play. ``plain``: numbers as a block's values read them (``-210``, not ``−210``).

    >>> fill_placeholders("Take out {removed}: {trump count} trumps.", st.Rules.preset("deuces-high"))
    'Take out the two of clubs and the two of hearts: 16 trumps.'
    """

    def fill(m: re.Match[str]) -> str:
        name, sign, amount = m.groups()
        entry = PLACEHOLDERS.get(name.lower())
        if entry is None:
            raise ValueError(f"unknown placeholder {{{name}}}; the placeholders are {', '.join(PLACEHOLDERS)}")
        if name.lower() in NUMBERS:
            value = NUMBERS[name.lower()](rules)
            if value is None:
                raise ValueError(f"{{{m.group(0)[1:-1]}}}: this table plays without the {name} rule")
            value += (int(amount) if sign == "+" else -int(amount)) if sign else 0
            return str(value) if plain else number(value)
        if sign:
            raise ValueError(f"{{{m.group(0)[1:-1]}}}: only a number of the rule set takes + or −")
        answer = entry[1](rules)
        return answer[:1].upper() + answer[1:] if name[0].isupper() else answer

    return _PLACEHOLDER.sub(fill, text)
