"""A learner's progress: quiz answers, score and streak, lessons reached, puzzle results, settings.

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
time,kind,preset,item,correct,source,try
>>> p.record("nil-safe", "jokers", "nil-safe:jokers:ab12", True, source="lesson")
>>> p.only("quiz").answered, p.only("lesson").answered
(2, 1)
>>> p.record("score", "jokers", "score:jokers:4", True, attempt=2)  # right on the second try
>>> p.correct, p.first_try, p.second_try
(3, 2, 1)

A learner may have the app open in two tabs, each with its own kernel and its own copy of the
record, and both save into one place in the browser. Records are merged, never overwritten
(:func:`merge`): answers are a log, each with an id of its own; a lesson keeps the furthest step
reached in either; the settings changed last win. Puzzle results are a log too, and the puzzle
ratings are replayed from them (:mod:`spades_tutor.puzzles.rating`), never stored: two tabs'
results merged give one rating. So is each quiz kind's review schedule, from the answers and their
times (:mod:`spades_tutor.quiz.schedule`): a stored record never holds one, and one that claims to
is read without it, with a note saying so.

>>> p.record_puzzle("0a1b2c3d", "jokers", "medium", True, when=50.0)
>>> round(p.puzzle_standing().learner.rating)
1674
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
import json
import math
import re
import secrets
import time
from typing import Any

from ..puzzles.rating import DIFFICULTIES, PuzzleResult, Standing, replay
from .export import safe_cell
from .settings import Settings

__all__ = ["Answer", "Progress", "PuzzleResult", "merge", "merge_note"]

_FORMAT = "spades-tutor/progress"
MAX_ANSWERS = 2000
MAX_PUZZLE_RESULTS = 1000  # puzzle results kept (the ratings are replayed from them)
SOURCES = ("quiz", "lesson", "review")  # where an answer was given: Quiz yourself, a lesson's quiz, a lesson-end review
TRIES = (1, 2)  # which try an answer was: the first, or the second after "try again"
MAX_LESSONS = 200  # lesson slugs kept; far more than there are lessons
MAX_STEP = 1000
#: answer times the CSV can print: from 1970 to the end of year 9999 (UTC)
LATEST_TIME = 253_402_300_799.0
_SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,79}")
#: an answer's id as stored: what :func:`new_answer_id` and :func:`derived_answer_id` make, and no more
_ANSWER_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
#: a puzzle's id (``Puzzle.id``: eight hex digits) and a rule set's name, as stored
_PUZZLE_ID = re.compile(r"[0-9a-f]{8}")
_RULES_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


def new_answer_id(when: float) -> str:
    """A fresh answer's id: its time in milliseconds and 40 random bits, so two tabs (two kernels)
    answering in the same millisecond still give two ids.

    >>> a, b = new_answer_id(1_700_000_000.5), new_answer_id(1_700_000_000.5)
    >>> a[:12], a == b, len(a)
    ('18bcfe569f4-', False, 22)
    """
    return f"{max(0, int(when * 1000)):x}-{secrets.token_hex(5)}"


def derived_answer_id(when: float, kind: str, preset: str, item: str, correct: bool, source: str, attempt: int) -> str:
    """The id of an answer stored before answers had ids: made from the answer itself, so a record
    saved by an older version gives the same ids in every tab that loads it (and merging it twice
    adds nothing).

    >>> derived_answer_id(1.0, "score", "jokers", "score:jokers:1", True, "quiz", 1)
    'h-c9661b4b2be8269290a4'
    """
    text = json.dumps([when, kind, preset, item, correct, source, attempt], ensure_ascii=False)
    return "h-" + hashlib.blake2b(text.encode("utf-8"), digest_size=10).hexdigest()


def _answer(row: Any) -> Answer | None:
    """One stored answer row ``[time, kind, preset, item, correct, source, try, id]``, or None if any part of it is wrong.

    A row saved before answers named their source has five parts: it was the quiz page's; one
    saved before a second try was offered has six: it was a first try; one saved before answers
    had ids has seven: its id is made from the rest (:func:`derived_answer_id`).
    """
    if not (isinstance(row, list) and len(row) in (5, 6, 7, 8)):
        return None
    when, kind, preset, item, correct = row[:5]
    source = row[5] if len(row) >= 6 else "quiz"
    if not isinstance(source, str) or source not in SOURCES:
        return None
    answer_id = row[7] if len(row) == 8 else ""
    if len(row) == 8 and not (isinstance(answer_id, str) and _ANSWER_ID.fullmatch(answer_id)):
        return None
    attempt = row[6] if len(row) >= 7 else 1
    if type(attempt) is not int or attempt not in TRIES:  # not a bool, a float or another number
        return None
    when = _time(when)
    if when is None:
        return None
    if not all(isinstance(x, str) and x for x in (kind, preset, item)) or not isinstance(correct, bool):
        return None
    return Answer(when, kind[:40], preset[:40], item[:120], correct, source, attempt, answer_id)


def _puzzle_result(row: Any) -> PuzzleResult | None:
    """One stored puzzle result ``[time, puzzle id, rule set, difficulty, first try, id]``, or None if any part of it is wrong."""
    if not (isinstance(row, list) and len(row) == 6):
        return None
    when, puzzle, rules, difficulty, first_try, result_id = row
    when = _time(when)
    if when is None or not isinstance(first_try, bool):
        return None
    if not (isinstance(puzzle, str) and _PUZZLE_ID.fullmatch(puzzle)):
        return None
    if not (isinstance(rules, str) and _RULES_NAME.fullmatch(rules)):
        return None
    if not (isinstance(difficulty, str) and difficulty in DIFFICULTIES):
        return None
    if not (isinstance(result_id, str) and _ANSWER_ID.fullmatch(result_id)):
        return None
    return PuzzleResult(when, puzzle, rules, difficulty, first_try, result_id)


def _time(stored: Any) -> float | None:
    """A stored time as a float, or None if it is not a real number within the CSV's range."""
    # bool is an int, and float("1e999") is inf: a time must be a real number within the CSV's range
    if isinstance(stored, bool) or not isinstance(stored, int | float):
        return None
    if isinstance(stored, int) and not 0 <= stored <= LATEST_TIME:  # before float(): an int may be 10**4000
        return None
    when = float(stored)
    if not (math.isfinite(when) and 0 <= when <= LATEST_TIME):
        return None
    return when


def _stamp(when: float) -> str:
    """An answer time as the CSV prints it (UTC); a time no calendar can print is left blank."""
    try:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(when))
    except (OverflowError, ValueError, OSError):
        return ""


@dataclasses.dataclass(frozen=True)
class Answer:
    time: float
    kind: str
    preset: str
    item: str
    correct: bool
    source: str = "quiz"
    attempt: int = 1  # 1: the first try; 2: the second, after "try again" (the CSV's ``try``)
    #: what tells this answer from every other when two tabs' records are merged; an answer made
    #: without one (stored before ids were, or built in a test) gets one made from the rest
    id: str = ""

    def __post_init__(self) -> None:
        if not self.id:
            fields = (self.time, self.kind, self.preset, self.item, self.correct, self.source, self.attempt)
            object.__setattr__(self, "id", derived_answer_id(*fields))


@dataclasses.dataclass
class Progress:
    answers: list[Answer] = dataclasses.field(default_factory=list)
    lessons: dict[str, int] = dataclasses.field(default_factory=dict)  # slug -> furthest step reached (0-based)
    settings: Settings = dataclasses.field(default_factory=Settings)
    #: what :meth:`from_json` left out of the stored record, one sentence each, for the page to show
    notes: list[str] = dataclasses.field(default_factory=list, compare=False)
    #: when the settings were last changed (0: never, or before records said): of two tabs' settings,
    #: the later ones win
    settings_time: float = 0.0
    #: when "Reset progress" last forgot everything (0: never): an answer given before it, or a lesson
    #: step reached in a record that had not seen it, does not come back from another tab's record
    reset_at: float = 0.0
    #: every puzzle tried (the first card checked: right or not), the learner's puzzle rating replayed from them
    puzzle_results: list[PuzzleResult] = dataclasses.field(default_factory=list)

    def record(
        self,
        kind: str,
        preset: str,
        item: str,
        correct: bool,
        when: float | None = None,
        source: str = "quiz",
        attempt: int = 1,
    ) -> None:
        if source not in SOURCES:
            raise ValueError(f"source: {source!r} is not one of {', '.join(SOURCES)}")
        if type(attempt) is not int or attempt not in TRIES:
            raise ValueError(f"attempt: {attempt!r} is not one of {', '.join(map(str, TRIES))}")
        stamp = time.time() if when is None else when
        self.answers.append(Answer(stamp, kind, preset, item, bool(correct), source, attempt, new_answer_id(stamp)))
        del self.answers[:-MAX_ANSWERS]

    def record_puzzle(
        self, puzzle: str, rules: str, difficulty: str, first_try: bool, when: float | None = None
    ) -> None:
        """A puzzle tried: its id, rule set and difficulty, and whether the first card checked worked."""
        if difficulty not in DIFFICULTIES:
            raise ValueError(f"difficulty: {difficulty!r} is not one of {', '.join(DIFFICULTIES)}")
        if not _PUZZLE_ID.fullmatch(puzzle) or not _RULES_NAME.fullmatch(rules):
            raise ValueError(f"not a puzzle id and rule set: {puzzle!r}, {rules!r}")
        stamp = time.time() if when is None else when
        result = PuzzleResult(stamp, puzzle, rules, difficulty, bool(first_try), new_answer_id(stamp))
        self.puzzle_results.append(result)
        del self.puzzle_results[:-MAX_PUZZLE_RESULTS]

    def puzzle_standing(self) -> Standing:
        """The learner's puzzle rating, the ratings of the puzzles they tried, and their rating over
        time, replayed from their puzzle results (:func:`spades_tutor.puzzles.rating.replay`)."""
        return replay(self.puzzle_results)

    def only(self, source: str) -> Progress:
        """The answers given in one place (``"quiz"``, ``"lesson"`` or ``"review"``), for that place's score and streak."""
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
    def first_try(self) -> int:
        """Answers right on the first try."""
        return sum(a.correct and a.attempt == 1 for a in self.answers)

    @property
    def second_try(self) -> int:
        """Answers right on the second try, after a wrong first one."""
        return sum(a.correct and a.attempt == 2 for a in self.answers)

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

    def reset(self, when: float | None = None) -> Progress:
        """A record that forgets every answer and lesson step (the settings stay), and keeps them
        forgotten when merged with another tab's record that still holds them."""
        return Progress(
            settings=dataclasses.replace(self.settings),
            settings_time=self.settings_time,
            reset_at=max(self.reset_at, time.time() if when is None else when),
        )

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": _FORMAT,
                "version": 1,
                "answers": [dataclasses.astuple(a) for a in self.answers],
                "lessons": self.lessons,
                "settings": self.settings.to_data(),
                "settings_time": self.settings_time,
                "reset_at": self.reset_at,
                "puzzles": [dataclasses.astuple(r) for r in self.puzzle_results],
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: object) -> Progress:
        """Progress from stored JSON, checked part by part: whatever is malformed is left out, never trusted.

        An empty value is a first visit. Each part left out is named in ``notes`` (for the page to
        say so); the rest is kept.

        >>> p = Progress.from_json('{"format": "spades-tutor/progress", "answers": [[1e300, "score", "jokers", "x", true]]}')
        >>> p.answers, p.notes
        ([], ['1 saved answer could not be read and was left out.'])
        """
        if not text:
            return cls()
        unreadable = "The progress saved in this browser could not be read, so it starts afresh."
        try:
            data = json.loads(text) if isinstance(text, str) else None
        except (ValueError, RecursionError):  # not JSON, a number past int()'s digits, nesting too deep
            data = None
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            return cls(notes=[unreadable])
        notes: list[str] = []
        rows = data.get("answers", [])
        if not isinstance(rows, list):
            notes.append("The saved answers could not be read and were left out.")
            rows = []
        answers = [a for a in map(_answer, rows[-MAX_ANSWERS:]) if a is not None]
        if dropped := min(len(rows), MAX_ANSWERS) - len(answers):
            notes.append(
                f"{dropped} saved answer{' could' if dropped == 1 else 's could'} not be read and "
                f"{'was' if dropped == 1 else 'were'} left out."
            )
        stored = data.get("lessons", {})
        if not isinstance(stored, dict):
            notes.append("The lessons reached could not be read and were left out.")
            stored = {}
        lessons = {
            k: v
            for k, v in list(stored.items())[:MAX_LESSONS]
            if _SLUG.fullmatch(k) and type(v) is int and 0 <= v < MAX_STEP
        }
        if len(lessons) < len(stored):
            notes.append("Some lessons reached could not be read and were left out.")
        puzzle_results = _puzzle_results(data.get("puzzles", []), notes)
        if "schedule" in data:  # never stored by the app: the review schedule is replayed from the answers
            notes.append(
                "The saved review schedule was not used: when each kind of question is due is worked out "
                "from your answers."
            )
        settings = Settings.from_data(data.get("settings"), notes)
        # when the settings last changed, and the last reset (0, never, in a record saved before they were kept)
        settings_time, reset_at = _time(data.get("settings_time", 0.0)), _time(data.get("reset_at", 0.0))
        if settings_time is None or reset_at is None:
            notes.append("The saved times of the last settings change and reset could not be read and were left out.")
        return cls(answers, lessons, settings, notes, settings_time or 0.0, reset_at or 0.0, puzzle_results)

    def to_csv(self) -> str:
        out = io.StringIO()
        # CRLF rows, as RFC 4180 has them: the writer then quotes a stored text holding a CR or LF
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(["time", "kind", "preset", "item", "correct", "source", "try"])
        for a in self.answers:
            row = [_stamp(a.time), a.kind, a.preset, a.item, "yes" if a.correct else "no", a.source, a.attempt]
            writer.writerow([safe_cell(cell) for cell in row])  # a stored text must not run as a formula
        return out.getvalue()

    def puzzles_csv(self) -> str:
        """Every puzzle result, in time order, with the learner's puzzle rating after it and how
        unsure it still was (its deviation).

        >>> p = Progress()
        >>> p.record_puzzle("0a1b2c3d", "jokers", "easy", False, when=0.0)
        >>> for line in p.puzzles_csv().splitlines():
        ...     print(line)
        time,puzzle,rule set,difficulty,right first try,rating after,deviation after
        1970-01-01 00:00:00,0a1b2c3d,jokers,easy,no,1143,288
        """
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(
            ["time", "puzzle", "rule set", "difficulty", "right first try", "rating after", "deviation after"]
        )
        ordered = sorted(self.puzzle_results, key=_answer_order)
        for r, (_when, after) in zip(ordered, self.puzzle_standing().history, strict=True):
            row = [_stamp(r.time), r.puzzle, r.rules, r.difficulty, "yes" if r.first_try else "no"]
            writer.writerow([*map(safe_cell, row), round(after.rating), round(after.rd)])
        return out.getvalue()

    def mastery_csv(self) -> str:
        """A teacher's table of the quiz kinds: one row per kind of the registry, with its level, its
        box and its answers (``spades_tutor.quiz.mastery.mastery_rows``), quizzes and lessons together.

        >>> p = Progress()
        >>> p.record("score", "jokers", "score:jokers:7/1", False)
        >>> print(p.mastery_csv().splitlines()[0])
        kind,level,box,answered,right first try,second try,missed
        >>> [line for line in p.mastery_csv().splitlines() if line.startswith("score,")]
        ['score,1,1,1,0,0,1']
        """
        from ..quiz.mastery import MASTERY_COLUMNS, mastery_rows

        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(MASTERY_COLUMNS)
        for row in mastery_rows(self.answers):
            writer.writerow([safe_cell(cell) for cell in row])
        return out.getvalue()


def _answer_order(answer: Answer | PuzzleResult) -> tuple[float, str]:
    return (answer.time, answer.id)


def _puzzle_results(rows: Any, notes: list[str]) -> list[PuzzleResult]:
    """The stored puzzle results that can be read (the latest :data:`MAX_PUZZLE_RESULTS`), a note for the rest."""
    if not isinstance(rows, list):
        notes.append("The saved puzzle results could not be read and were left out.")
        return []
    results = [r for r in map(_puzzle_result, rows[-MAX_PUZZLE_RESULTS:]) if r is not None]
    if dropped := min(len(rows), MAX_PUZZLE_RESULTS) - len(results):
        notes.append(
            f"{dropped} saved puzzle result{' could' if dropped == 1 else 's could'} not be read and "
            f"{'was' if dropped == 1 else 'were'} left out."
        )
    return results


def _settings_order(progress: Progress) -> tuple[float, str]:
    """Which settings win a merge: the later changed; for two changed at the same time (or never),
    the same pick whichever record comes first."""
    return (progress.settings_time, json.dumps(progress.settings.to_data(), sort_keys=True))


def merge(a: Progress, b: Progress) -> Progress:
    """Two tabs' records as one, whichever comes first: ``merge(a, b) == merge(b, a)``, and merging
    again adds nothing (``merge(merge(a, b), b) == merge(a, b)``).

    - answers are a log: every answer of either, once (by id), in time order, the latest
      :data:`MAX_ANSWERS`; none from before the latest reset;
    - each lesson keeps the furthest step reached in either (a record that had not seen the latest
      reset brings none);
    - the settings changed last win;
    - puzzle results are a log, as answers are (the latest :data:`MAX_PUZZLE_RESULTS`), and the
      ratings are replayed from the merged log.

    >>> base = Progress()
    >>> base.record("score", "jokers", "score:jokers:1", True, when=10.0)
    >>> a, b = Progress.from_json(base.to_json()), Progress.from_json(base.to_json())
    >>> a.record("score", "jokers", "score:jokers:2", False, when=20.0); a.reach("following-suit", 3)
    >>> b.record("trick-winner", "jokers", "trick-winner:jokers:5", True, when=30.0); b.reach("following-suit", 1)
    >>> m = merge(a, b)
    >>> [x.item for x in m.answers], m.lessons
    (['score:jokers:1', 'score:jokers:2', 'trick-winner:jokers:5'], {'following-suit': 3})
    >>> m == merge(b, a) == merge(m, a) == merge(m, m)
    True
    """
    reset_at = max(a.reset_at, b.reset_at)
    by_id: dict[str, Answer] = {}
    for answer in (*a.answers, *b.answers):
        if answer.time < reset_at:
            continue
        kept = by_id.get(answer.id)
        # one id, two answers (a record edited by hand): the same one kept, whichever record is first
        if kept is None or dataclasses.astuple(answer) > dataclasses.astuple(kept):
            by_id[answer.id] = answer
    answers = sorted(by_id.values(), key=_answer_order)[-MAX_ANSWERS:]
    results: dict[str, PuzzleResult] = {}
    for result in (*a.puzzle_results, *b.puzzle_results):
        if result.time < reset_at:
            continue
        held = results.get(result.id)
        if held is None or dataclasses.astuple(result) > dataclasses.astuple(held):
            results[result.id] = result
    puzzle_results = sorted(results.values(), key=_answer_order)[-MAX_PUZZLE_RESULTS:]
    lessons: dict[str, int] = {}
    for record in (a, b):
        if record.reset_at < reset_at:
            continue
        for slug, step in record.lessons.items():
            lessons[slug] = max(step, lessons.get(slug, 0))
    lessons = dict(sorted(lessons.items())[:MAX_LESSONS])
    last = max(a, b, key=_settings_order)
    return Progress(
        answers,
        lessons,
        dataclasses.replace(last.settings),
        settings_time=last.settings_time,
        reset_at=reset_at,
        puzzle_results=puzzle_results,
    )


def merge_note(before: Progress, after: Progress) -> tuple[int, tuple[str, ...], bool]:
    """What a merge brought into ``before``: (answers new to it, the lessons now further along, whether the settings changed).

    >>> a = Progress()
    >>> b = Progress.from_json(a.to_json())
    >>> b.record("score", "jokers", "score:jokers:1", True); b.reach("the-deck", 2)
    >>> merge_note(a, merge(a, b))
    (1, ('the-deck',), False)
    """
    known = {x.id for x in before.answers}
    answers = sum(x.id not in known for x in after.answers)
    lessons = tuple(slug for slug, step in after.lessons.items() if step > before.lessons.get(slug, -1))
    return answers, lessons, after.settings != before.settings
