"""A session of "Practice what I miss": a set number of questions, then what moved; and a daily goal.

A session is the questions answered on the quiz page since it began (an answer is one question, right on
the first try, on the second, or missed) (the time kept as
``Settings.practice_from`` with the learner's record, so a reload, or another tab, goes on with the
same session). After :data:`SESSION_LENGTH` questions it ends on a summary: how many were right on the
first try, each kind asked with its level and box (:func:`spades_tutor.quiz.mastery.mastery`) before
the session and after it, and the kind to practise next: one due for review today if there is one
(:func:`spades_tutor.quiz.schedule.pick_practice`), else the one missed
(:func:`~spades_tutor.quiz.mastery.next_practice`). A session's questions come in the same order.
The daily goal counts the questions answered in the learner's day (quizzes, lessons and reviews alike),
on their browser's clock.

>>> from spades_tutor.session import Answer
>>> def said(when, kind, right, level=1, attempt=1):
...     return Answer(when, kind, "jokers", f"{kind}:jokers:{when:.0f}/{level}", right, "quiz", attempt)
>>> history = [said(1.0, "score", False)]  # before the session
>>> history += [said(10.0 + i, "score", True) for i in range(3)] + [said(20.0, "trick-winner", True, attempt=2)]
>>> len(session_questions(history, since=10.0))
4
>>> s = summarise(history, since=10.0, kinds=("score", "trick-winner"), seed=1)
>>> s.asked, s.first_try, [(k.kind, k.asked, k.level_before, k.level_after, k.improved) for k in s.kinds]
(4, 3, [('score', 3, 1, 2, True), ('trick-winner', 1, 1, 1, False)])
>>> s.next_kind, s.next_level
('trick-winner', 1)
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Sequence
from datetime import tzinfo
from typing import Protocol

from .mastery import Answered, mastery, next_practice

__all__ = [
    "DAILY_GOAL",
    "SESSION_LENGTH",
    "KindChange",
    "SessionSummary",
    "answered_today",
    "local_time",
    "session_questions",
    "summarise",
]

#: questions in a practice session
SESSION_LENGTH = 10
#: questions answered a day (any page's) that meet the daily goal
DAILY_GOAL = 20


class Given(Answered, Protocol):
    """An answer with when and where it was given (``spades_tutor.session.Answer`` is one)."""

    @property
    def time(self) -> float: ...

    @property
    def source(self) -> str: ...


def local_time(when: float, zone: tzinfo | None) -> datetime.datetime:
    """``when`` on the learner's clock (UTC if the browser named no time zone, or if the time, near
    the end of year 9999, has no date in that zone)."""
    try:
        return datetime.datetime.fromtimestamp(when, zone or datetime.UTC)
    except (OverflowError, ValueError, OSError):
        return datetime.datetime.fromtimestamp(when, datetime.UTC)


def session_questions(answers: Sequence[Given], since: float) -> list[Given]:
    """The session's questions: each answer on the quiz page given at ``since`` or later."""
    return [a for a in answers if a.source == "quiz" and a.time >= since]


@dataclasses.dataclass(frozen=True)
class KindChange:
    """One kind asked in the session: its questions, and its level and box before the session and after."""

    kind: str
    asked: int
    first_try: int
    level_before: int
    level_after: int
    box_before: int
    box_after: int

    @property
    def improved(self) -> bool:
        """A level up; or, at the same level, a box up past box 1 (where a miss puts a kind, new or not)
        with at least half the session's questions of the kind right on the first try: better known than before."""
        if self.level_after != self.level_before:
            return self.level_after > self.level_before
        return self.box_after > max(self.box_before, 1) and 2 * self.first_try >= self.asked


@dataclasses.dataclass(frozen=True)
class SessionSummary:
    """What a finished session did, and what to practise next."""

    asked: int
    first_try: int
    kinds: tuple[KindChange, ...]  # in the order first asked
    next_kind: str
    next_level: int


def summarise(
    answers: Sequence[Given],
    since: float,
    kinds: Sequence[str],
    seed: int,
    now: float | None = None,
    zone: tzinfo | None = None,
) -> SessionSummary:
    """The session begun at ``since`` (``answers`` oldest first); the next kind among ``kinds``: one due
    for review on the learner's day of ``now`` (on the clock of ``zone``) if there is one and ``now``
    is given (:func:`spades_tutor.quiz.schedule.pick_practice`), else drawn with ``seed``."""
    asked = session_questions(answers, since)
    order = list(dict.fromkeys(a.kind for a in asked))
    before = mastery([a for a in answers if a.time < since], kinds=order)
    after = mastery(answers, kinds=order)
    changes = tuple(
        KindChange(
            kind,
            sum(a.kind == kind for a in asked),
            sum(a.kind == kind and a.correct and a.attempt == 1 for a in asked),
            before[kind].level,
            after[kind].level,
            before[kind].box,
            after[kind].box,
        )
        for kind in order
    )
    if now is None:
        next_kind, next_level = next_practice(answers, seed, kinds=kinds)
    else:
        from .schedule import pick_practice  # (it reads the learner's clock from this module)

        pick = pick_practice(answers, seed, kinds, now, zone)
        next_kind, next_level = pick.kind, pick.level
    return SessionSummary(len(asked), sum(a.correct and a.attempt == 1 for a in asked), changes, next_kind, next_level)


def answered_today(answers: Sequence[Given], zone: tzinfo | None, now: float) -> int:
    """Questions answered on the learner's day of ``now`` (any page's), on the clock of ``zone``."""
    day = local_time(now, zone).date()
    return sum(local_time(a.time, zone).date() == day for a in answers)
