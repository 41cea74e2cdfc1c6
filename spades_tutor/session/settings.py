"""The learner's settings: the rule set picked in the app, and display and quiz choices.

Plain data, saved with the learner's progress (:mod:`spades_tutor.session.progress`); a stored
value the app does not offer is left at its default, never trusted.

>>> s = Settings.from_data({"preset": "jokers", "blind_nil": "always", "quiz_level": 7})
>>> s.blind_nil, s.quiz_level
('always', 1)
>>> s.blind_nil is BlindNil.ALWAYS
True
>>> s.rules().name
'jokers'
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..engine import BlindNil, Rules, RulesError
from ..engine.rules import NUMBER_BOUNDS, OPTIONS

__all__ = ["HOUSE_FLAGS", "LINK_CODES", "RETRIES", "RulesLinkError", "Settings"]

#: the rule set's flags a learner sets beyond the preset and the nil, blind nil and mercy switches:
#: every number and every option the engine has (``mercy`` here is the score, used while the switch is on)
HOUSE_FLAGS: tuple[str, ...] = (
    *NUMBER_BOUNDS,
    *(flag for flag in OPTIONS if flag != "blind_nil"),
    "mercy",
)
#: each flag's short code in a ``rules=`` link; an option's value is its place among its choices
LINK_CODES: dict[str, str] = {
    "nil": "n",
    "blind_nil": "bn",
    "target": "t",
    "mercy": "m",
    "trick_points": "tp",
    "nil_value": "nv",
    "blind_nil_value": "bv",
    "blind_nil_behind": "bb",
    "bag_limit": "bl",
    "bag_penalty": "bp",
    "min_team_bid": "mb",
    "ten_bid_bonus": "tb",
    "first_lead": "fl",
    "failed_nil_tricks": "fn",
    "renege_penalty": "rp",
}
LINK_VERSION = "1"
MAX_LINK = 120
MERCY_SCORE = -200  # the mercy switch's score unless the learner set another

RETRIES = (0, 1)  # the tries a question gives after a wrong answer, before the answer is shown
MAX_TIME = 253_402_300_800.0  # 1 January 10000: a stored time past it is not one the app wrote


@dataclasses.dataclass
class Settings:
    """The rule set picked in the app, and display choices."""

    preset: str = "jokers"
    nil: bool = True
    blind_nil: BlindNil = BlindNil.OFF
    mercy: bool = False
    four_colour: bool = False
    large: bool = False
    quiz_level: int = 1  # Quiz yourself's level (1 easy to 3 tricky), kept across rule sets and reloads
    retries: int = 1  # tries after a wrong answer before it is shown: 0 or 1 (quizzes and lessons alike)
    #: when the practice session under way began (seconds since 1970; 0: none), so a reload goes on with it
    practice_from: float = 0.0
    #: every other flag the learner set (``HOUSE_FLAGS``), checked: they make a playable rule set
    house: dict[str, Any] = dataclasses.field(default_factory=dict)

    def rules(self) -> Rules:
        flags = {k: v for k, v in self.house.items() if k != "mercy"}
        mercy = self.house.get("mercy", MERCY_SCORE) if self.mercy else None
        return Rules.preset(self.preset, nil=self.nil, blind_nil=self.blind_nil, mercy=mercy, **flags)

    def to_data(self) -> dict[str, Any]:
        """Plain data for the stored record; ``from_data`` reads it back. No house rules, no
        ``house`` field: a record reads as it did before the field was added."""
        data = dataclasses.asdict(self)
        if not data["house"]:
            del data["house"]
        return data

    def to_link(self) -> str:
        """The whole rule set as one short ``rules=`` value: the version, the preset, then each flag
        that differs from the defaults as its code and a whole number.

        >>> s = Settings(preset="classic", nil=False, house={"target": 300, "bag_limit": 5})
        >>> s.to_link()
        '1.classic.n0.t300.bl5'
        >>> Settings.from_link(s.to_link()).rules() == s.rules()
        True
        """
        rules, plain = self.rules(), Rules.preset(self.preset)
        parts = [LINK_VERSION, self.preset]
        for flag, code in LINK_CODES.items():
            value = getattr(rules, flag)
            if value == getattr(plain, flag):
                continue
            if flag in OPTIONS:
                value = OPTIONS[flag].names().index(value)
            elif value is None:  # mercy off where the preset has it on: no preset does
                continue
            parts.append(f"{code}{int(value)}")
        return ".".join(parts)

    @classmethod
    def from_link(cls, text: str) -> Settings:
        """The rule set a ``rules=`` value holds (as settings), or ``RulesLinkError`` saying in one
        sentence what is wrong with it. Nothing in it is trusted: each flag is checked against its
        bounds and the whole against the engine."""
        if not isinstance(text, str) or len(text) > MAX_LINK:
            raise RulesLinkError(f"it is longer than {MAX_LINK} characters")
        parts = text.strip().split(".")
        if parts[0] != LINK_VERSION:
            raise RulesLinkError(f"it does not start with the version {LINK_VERSION}")
        if len(parts) < 2 or parts[1] not in Rules.preset_names():
            raise RulesLinkError(f"its rule set is not one of {', '.join(Rules.preset_names())}")
        s = cls(preset=parts[1])
        by_code = {code: flag for flag, code in LINK_CODES.items()}
        seen: set[str] = set()
        for part in parts[2:]:
            code = part.rstrip("-0123456789")
            digits = part[len(code) :]
            flag = by_code.get(code)
            if flag is None:
                raise RulesLinkError(f"{part[:12]!r} is not a rule it knows")
            if flag in seen:
                raise RulesLinkError(f"it gives {flag.replace('_', ' ')} twice")
            seen.add(flag)
            if not digits or len(digits) > 7 or digits.count("-") > (1 if digits.startswith("-") else 0):
                raise RulesLinkError(f"{part[:12]!r} does not give {flag.replace('_', ' ')} a whole number")
            value = int(digits)
            if flag == "nil":
                if value not in (0, 1):
                    raise RulesLinkError("nil is 0 (off) or 1 (on)")
                s.nil = bool(value)
            elif flag in OPTIONS:
                names = OPTIONS[flag].names()
                if not 0 <= value < len(names):
                    raise RulesLinkError(f"{flag.replace('_', ' ')} is a choice from 0 to {len(names) - 1}")
                if flag == "blind_nil":
                    s.blind_nil = BlindNil(names[value])
                else:
                    s.house[flag] = names[value]
            elif flag == "mercy":
                s.mercy = True
                s.house["mercy"] = value
            else:
                s.house[flag] = value
        try:
            s.rules()
        except RulesError as e:
            raise RulesLinkError(f"it is not a rule set the game can play ({e})") from None
        return s

    @classmethod
    def from_data(cls, data: Any, notes: list[str] | None = None) -> Settings:
        """Settings from stored data; a value that is not one the app offers is left at its default
        (and, given ``notes``, named there)."""
        s = cls()
        if not isinstance(data, dict):
            if data is not None and notes is not None:
                notes.append("The saved settings could not be read, so the usual ones are used.")
            return s
        bad: list[str] = []
        if "preset" in data:
            if isinstance(data["preset"], str) and data["preset"] in Rules.preset_names():
                s.preset = data["preset"]
            else:
                bad.append("rule set")
        for flag in ("nil", "mercy", "four_colour", "large"):
            if flag in data:
                if isinstance(data[flag], bool):
                    setattr(s, flag, data[flag])
                else:
                    bad.append(flag.replace("_", "-"))
        if "blind_nil" in data:
            if isinstance(data["blind_nil"], str) and data["blind_nil"] in BlindNil.names():
                s.blind_nil = BlindNil(data["blind_nil"])
            else:
                bad.append("blind nil")
        if "quiz_level" in data:
            if type(data["quiz_level"]) is int and data["quiz_level"] in (1, 2, 3):
                s.quiz_level = data["quiz_level"]
            else:
                bad.append("quiz level")
        if "retries" in data:
            if type(data["retries"]) is int and data["retries"] in RETRIES:
                s.retries = data["retries"]
            else:
                bad.append("second try")
        if "house" in data:
            house = _read_house(data["house"], s)
            if house is None:
                bad.append("house rules")
            else:
                s.house = house
        if "practice_from" in data:
            when = data["practice_from"]
            if type(when) in (int, float) and 0 <= when < MAX_TIME:  # (NaN and inf fail the comparison)
                s.practice_from = float(when)
            else:
                bad.append("practice session")
        if bad and notes is not None:
            notes.append(f"Some saved settings could not be read ({', '.join(bad)}), so the usual ones are used there.")
        return s


class RulesLinkError(ValueError):
    """A ``rules=`` link value that is not a rule set; the message says why in a few words."""


def _read_house(value: object, s: Settings) -> dict[str, Any] | None:
    """Stored house rules, checked one by one and together with the other settings; None if any is wrong."""
    if not isinstance(value, dict) or len(value) > len(HOUSE_FLAGS):
        return None
    out: dict[str, Any] = {}
    for flag, v in value.items():
        if flag not in HOUSE_FLAGS:
            return None
        if flag in OPTIONS:
            if not isinstance(v, str) or v not in OPTIONS[flag].names():
                return None
        elif type(v) is not int:
            return None
        out[flag] = v
    try:
        dataclasses.replace(s, house=out).rules()
    except RulesError:
        return None
    return out
