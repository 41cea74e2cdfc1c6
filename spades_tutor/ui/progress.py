"""A learner's progress: quiz answers, score and streak, lessons reached, settings.

Pure data, saved as JSON in the browser and exported as CSV. Whatever comes back
from the browser is checked; anything malformed is dropped rather than trusted.

>>> p = Progress()
>>> p.record("legal-plays", "jokers", "legal-plays:jokers:7", True)
>>> p.record("score", "jokers", "score:jokers:3", False)
>>> p.correct, p.answered, p.streak, p.best_streak
(1, 2, 0, 1)
>>> Progress.from_json(p.to_json()) == p
True
>>> print(p.to_csv().splitlines()[0])
time,kind,preset,item,correct,source
>>> p.record("nil-safe", "jokers", "nil-safe:jokers:ab12", True, source="lesson")
>>> p.only("quiz").answered, p.only("lesson").answered
(2, 1)
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import time
from typing import Any

from ..engine import Rules

__all__ = ["Answer", "Progress", "Settings"]

_FORMAT = "spades-tutor/progress"
MAX_ANSWERS = 2000
SOURCES = ("quiz", "lesson")  # where an answer was given: Quiz yourself, or a lesson's quiz


@dataclasses.dataclass(frozen=True)
class Answer:
    time: float
    kind: str
    preset: str
    item: str
    correct: bool
    source: str = "quiz"


@dataclasses.dataclass
class Settings:
    """The rule set picked in the app, and display choices."""

    preset: str = "jokers"
    nil: bool = True
    blind_nil: str = "off"
    mercy: bool = False
    four_colour: bool = False
    large: bool = False
    quiz_level: int = 1  # Quiz yourself's level (1 easy to 3 tricky), kept across rule sets and reloads

    def rules(self) -> Rules:
        return Rules.preset(self.preset, nil=self.nil, blind_nil=self.blind_nil, mercy=-200 if self.mercy else None)

    @classmethod
    def from_data(cls, data: Any) -> Settings:
        s = cls()
        if not isinstance(data, dict):
            return s
        if data.get("preset") in Rules.preset_names():
            s.preset = str(data["preset"])
        for flag in ("nil", "mercy", "four_colour", "large"):
            if isinstance(data.get(flag), bool):
                setattr(s, flag, data[flag])
        if data.get("blind_nil") in ("off", "behind-100", "always"):
            s.blind_nil = str(data["blind_nil"])
        if data.get("quiz_level") in (1, 2, 3) and not isinstance(data["quiz_level"], bool):
            s.quiz_level = int(data["quiz_level"])
        return s


@dataclasses.dataclass
class Progress:
    answers: list[Answer] = dataclasses.field(default_factory=list)
    lessons: dict[str, int] = dataclasses.field(default_factory=dict)  # slug -> furthest step reached (0-based)
    settings: Settings = dataclasses.field(default_factory=Settings)

    def record(
        self, kind: str, preset: str, item: str, correct: bool, when: float | None = None, source: str = "quiz"
    ) -> None:
        if source not in SOURCES:
            raise ValueError(f"source: {source!r} is not one of {', '.join(SOURCES)}")
        self.answers.append(Answer(time.time() if when is None else when, kind, preset, item, bool(correct), source))
        del self.answers[:-MAX_ANSWERS]

    def only(self, source: str) -> Progress:
        """The answers given in one place (``"quiz"`` or ``"lesson"``), for that place's score and streak."""
        return Progress([a for a in self.answers if a.source == source], dict(self.lessons), self.settings)

    def reach(self, slug: str, step: int) -> None:
        self.lessons[slug] = max(step, self.lessons.get(slug, 0))

    @property
    def answered(self) -> int:
        return len(self.answers)

    @property
    def correct(self) -> int:
        return sum(a.correct for a in self.answers)

    @property
    def streak(self) -> int:
        """Right answers in a row, ending with the latest."""
        n = 0
        for a in reversed(self.answers):
            if not a.correct:
                break
            n += 1
        return n

    @property
    def best_streak(self) -> int:
        best = run = 0
        for a in self.answers:
            run = run + 1 if a.correct else 0
            best = max(best, run)
        return best

    def by_kind(self) -> dict[str, tuple[int, int]]:
        """kind -> (right, answered)."""
        out: dict[str, tuple[int, int]] = {}
        for a in self.answers:
            right, total = out.get(a.kind, (0, 0))
            out[a.kind] = (right + a.correct, total + 1)
        return out

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": _FORMAT,
                "version": 1,
                "answers": [dataclasses.astuple(a) for a in self.answers],
                "lessons": self.lessons,
                "settings": dataclasses.asdict(self.settings),
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> Progress:
        """Progress from stored JSON; an empty or malformed value gives fresh progress."""
        try:
            data = json.loads(text) if text else {}
        except ValueError:
            data = {}
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            return cls()
        answers = []
        for row in data.get("answers", [])[-MAX_ANSWERS:]:
            if (
                isinstance(row, list)
                and len(row) in (5, 6)
                and isinstance(row[0], int | float)
                and all(isinstance(x, str) for x in row[1:4])
                and isinstance(row[4], bool)
            ):
                # a row saved before answers named their source came from the quiz page's score
                source = row[5] if len(row) == 6 else "quiz"
                if source in SOURCES:
                    answers.append(Answer(float(row[0]), row[1][:40], row[2][:40], row[3][:120], row[4], source))
        lessons = {
            str(k)[:80]: int(v)
            for k, v in (data.get("lessons") or {}).items()
            if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1000
        }
        return cls(answers, lessons, Settings.from_data(data.get("settings")))

    def to_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["time", "kind", "preset", "item", "correct", "source"])
        for a in self.answers:
            stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(a.time))
            writer.writerow([stamp, a.kind, a.preset, a.item, "yes" if a.correct else "no", a.source])
        return out.getvalue()
