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

from ..engine import BlindNil, Rules

__all__ = ["RETRIES", "Settings"]

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

    def rules(self) -> Rules:
        return Rules.preset(self.preset, nil=self.nil, blind_nil=self.blind_nil, mercy=-200 if self.mercy else None)

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
        if "practice_from" in data:
            when = data["practice_from"]
            if type(when) in (int, float) and 0 <= when < MAX_TIME:  # (NaN and inf fail the comparison)
                s.practice_from = float(when)
            else:
                bad.append("practice session")
        if bad and notes is not None:
            notes.append(f"Some saved settings could not be read ({', '.join(bad)}), so the usual ones are used there.")
        return s
