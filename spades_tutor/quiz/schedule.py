"""Practice across days: each quiz kind scheduled by FSRS, replayed from the answers given.

Pure functions of the answer history (the stored answers of ``spades_tutor.session.progress``, each
with its ``time``, ``kind``, ``correct`` and ``attempt``), the learner's time zone and a clock: the
same answers on the same clock always give the same schedule. Nothing of the schedule is stored: it
is worked out again from the answers (the FSRS scheduler of the ``fsrs`` package, its default
parameters, no fuzz), so two tabs' answers merged give one schedule, and a record saved before
there was a schedule has one at once.

**A card** is a quiz kind, in whichever rule set it was asked (the level and box of
:mod:`spades_tutor.quiz.mastery` count a kind the same way). A lesson's quiz is the kinds it asks
(``spades_tutor.lessons.review.review_kinds``): it is due when one of them is (:func:`due_among`).

**A review** is a day's first answer to the kind, the day on the learner's clock: right on the first
try is *Good*, right on the second try *Hard*, missed *Again* (the app does not time answers, so
never *Easy*). The answers after it that day come after its feedback: they say what was learnt
then, not what was remembered since the last day, and they leave the schedule as it is.

**Due** is a day: a kind reviewed is due again on the day FSRS names (a day later at least), on the
learner's clock, and stays due until answered. Its **recall** is FSRS's predicted chance of getting
it right now: the day it comes due is the day this falls to about :data:`DESIRED_RECALL` (90%).

>>> import datetime
>>> from spades_tutor.session import Answer
>>> day = 86_400.0
>>> history = [
...     Answer(0.0, "score", "jokers", "score:jokers:1/1", True),  # day 0: Good
...     Answer(60.0, "score", "jokers", "score:jokers:2/1", False),  # later that day: not a review
...     Answer(2 * day, "score", "jokers", "score:jokers:3/1", False),  # day 2: Again
... ]
>>> s = schedules(history, kinds=("score", "trump-order"))
>>> [r.rating for r in s["score"].reviews], s["score"].due_day(None)
([3, 1], datetime.date(1970, 1, 4))
>>> s["trump-order"].reviews, s["trump-order"].due
((), None)
>>> due_kinds(s, now=3 * day, zone=None), due_kinds(s, now=2 * day, zone=None)
(['score'], [])
>>> round(100 * s["score"].recall(3 * day))  # a day is the shortest wait: a kind just missed is due below 90%
86
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
from collections.abc import Iterable, Mapping, Sequence
from datetime import tzinfo
from typing import TYPE_CHECKING, Protocol

from .mastery import Answered, known, mastery, next_practice
from .practice import local_time

if TYPE_CHECKING:
    from fsrs import Card, Scheduler

__all__ = [
    "AGAIN",
    "DESIRED_RECALL",
    "GOOD",
    "HARD",
    "KindSchedule",
    "PracticePick",
    "Review",
    "day_words",
    "due_among",
    "due_kinds",
    "next_due",
    "pick_practice",
    "rating_of",
    "schedules",
]

#: FSRS's ratings as the answers give them (``fsrs.Rating``'s values): missed, right on the second try, right first try
AGAIN, HARD, GOOD = 1, 2, 3
#: the chance of a right answer the schedule aims at on the day a kind comes due
DESIRED_RECALL = 0.9
#: the latest a review is replayed at: a stored time is at most the end of year 9999 (the CSV's range),
#: and the next review of one after this could be past the last date there is
_LATEST_REVIEW = datetime.datetime(9899, 12, 31, tzinfo=datetime.UTC)
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


class Timed(Answered, Protocol):
    """An answer with its time (``spades_tutor.session.Answer`` is one)."""

    @property
    def time(self) -> float: ...


def rating_of(answer: Answered) -> int:
    """An answer as an FSRS rating: right on the first try :data:`GOOD`, on the second :data:`HARD`, missed :data:`AGAIN`.

    >>> from spades_tutor.session import Answer
    >>> [rating_of(Answer(0.0, "score", "jokers", "k", right, attempt=n)) for right, n in ((True, 1), (True, 2), (False, 2))]
    [3, 2, 1]
    """
    if answer.correct is not True:
        return AGAIN
    return GOOD if answer.attempt == 1 else HARD


@dataclasses.dataclass(frozen=True)
class Review:
    """One review of a kind: when (seconds since 1970, UTC), the learner's day it fell on, its rating."""

    time: float
    day: datetime.date
    rating: int


@dataclasses.dataclass(frozen=True)
class KindSchedule:
    """One kind's schedule, replayed from its reviews (none: never answered, nothing due)."""

    kind: str
    reviews: tuple[Review, ...]
    #: when the kind comes due (seconds since 1970, UTC), None if never answered
    due: float | None
    #: FSRS's stability (days for the predicted recall to fall to 90%) and difficulty (1 to 10)
    stability: float | None
    difficulty: float | None

    @property
    def last(self) -> float | None:
        """The time of the latest review."""
        return self.reviews[-1].time if self.reviews else None

    def due_day(self, zone: tzinfo | None) -> datetime.date | None:
        """The day the kind is due on the learner's clock (None if never answered)."""
        return None if self.due is None else local_time(self.due, zone).date()

    def is_due(self, now: float, zone: tzinfo | None) -> bool:
        """Answered before, and due on the learner's day of ``now`` or before it."""
        day = self.due_day(zone)
        return day is not None and day <= local_time(now, zone).date()

    def recall(self, now: float) -> float | None:
        """FSRS's predicted chance of a right answer at ``now`` (None if never answered)."""
        if self.stability is None or self.last is None:
            return None
        card = _card(self.due, self.last, self.stability, self.difficulty)
        return float(_scheduler().get_card_retrievability(card, _utc(max(now, self.last))))


def _utc(when: float) -> datetime.datetime:
    """A time as FSRS takes it (aware, UTC), no later than :data:`_LATEST_REVIEW`."""
    try:
        moment = datetime.datetime.fromtimestamp(when, datetime.UTC)
    except (OverflowError, ValueError, OSError):
        return _LATEST_REVIEW
    return min(moment, _LATEST_REVIEW)


@functools.cache
def _scheduler() -> Scheduler:
    """FSRS with its default parameters, every interval in whole days (no steps of minutes: a kind is
    reviewed once a day at most) and no random fuzz (the same answers give the same dates)."""
    from fsrs import Scheduler

    return Scheduler(desired_retention=DESIRED_RECALL, learning_steps=(), relearning_steps=(), enable_fuzzing=False)


def _card(due: float | None, last: float, stability: float, difficulty: float | None) -> Card:
    from fsrs import Card, State

    when = _utc(last)
    return Card(
        card_id=1,
        state=State.Review,
        stability=stability,
        difficulty=difficulty,
        due=when if due is None else _utc(due),
        last_review=when,
    )


def _reviews(rows: Iterable[_Row], zone: tzinfo | None) -> tuple[Review, ...]:
    """The first answer of each of the learner's days, in time order (of answers given at the same
    time, the first in the history)."""
    out: dict[datetime.date, Review] = {}
    for when, _kind, rating in sorted(rows, key=lambda row: row[0]):
        day = local_time(when, zone).date()
        if day not in out:
            out[day] = Review(when, day, rating)
    return tuple(out.values())


def _replay(kind: str, reviews: tuple[Review, ...]) -> KindSchedule:
    if not reviews:
        return KindSchedule(kind, (), None, None, None)
    from fsrs import Card, Rating

    scheduler = _scheduler()
    card = Card(card_id=1, due=_utc(reviews[0].time))
    for r in reviews:
        card, _log = scheduler.review_card(card, Rating(r.rating), _utc(r.time))
    return KindSchedule(kind, reviews, card.due.timestamp(), card.stability, card.difficulty)


#: an answer as the schedule reads it: its time, its kind and its rating
_Row = tuple[float, str, int]


@functools.lru_cache(maxsize=256)
def _kind_schedule(kind: str, rows: tuple[_Row, ...], zone: tzinfo | None) -> KindSchedule:
    """One kind's schedule from its answers' rows, kept: a page drawn again with the same answers on
    the same clock does not replay them, and an answer to one kind replays that kind alone."""
    return _replay(kind, _reviews(rows, zone))


def schedules(
    history: Iterable[Timed], kinds: Sequence[str] | None = None, zone: tzinfo | None = None
) -> dict[str, KindSchedule]:
    """Each kind's schedule (``kinds``: the registry's by default), replayed from its answers, the
    days on the clock of ``zone`` (UTC if None); answers to other kinds are left out."""
    wanted, answers = known(history, kinds)
    rows: dict[str, list[_Row]] = {kind: [] for kind in wanted}
    for a in answers:
        rows[a.kind].append((a.time, a.kind, rating_of(a)))
    return {kind: _kind_schedule(kind, tuple(mine), zone) for kind, mine in rows.items()}


def _urgency(s: KindSchedule, now: float) -> tuple[float, float]:
    return (s.recall(now) or 0.0, s.due or 0.0)


def due_kinds(table: Mapping[str, KindSchedule], now: float, zone: tzinfo | None) -> list[str]:
    """The kinds due on the learner's day of ``now``, the least likely to be remembered first (then
    the longest due, then the table's order)."""
    due = [s for s in table.values() if s.is_due(now, zone)]
    return [s.kind for s in sorted(due, key=lambda s: _urgency(s, now))]


def next_due(table: Mapping[str, KindSchedule], now: float, zone: tzinfo | None) -> KindSchedule | None:
    """Of the kinds answered and not due yet, the one due soonest (None if there is none)."""
    later = [s for s in table.values() if s.due is not None and not s.is_due(now, zone)]
    return min(later, key=lambda s: s.due or 0.0, default=None)


def due_among(table: Mapping[str, KindSchedule], kinds: Sequence[str], now: float, zone: tzinfo | None) -> list[str]:
    """Which of ``kinds`` (a lesson's quiz) are due, in :func:`due_kinds`' order: the lesson's quiz is due when one is."""
    wanted = set(kinds)
    return [k for k in due_kinds(table, now, zone) if k in wanted]


@dataclasses.dataclass(frozen=True)
class PracticePick:
    """The kind "Practice what I miss" asks next, at which level, and whether it was due for review."""

    kind: str
    level: int
    due: bool


def pick_practice(
    history: Sequence[Timed], seed: int, kinds: Sequence[str], now: float, zone: tzinfo | None
) -> PracticePick:
    """The next practice question's kind and level: a kind due for review first (the least likely to
    be remembered), at the level reached in it; with none due, the miss-driven draw of
    :func:`spades_tutor.quiz.mastery.next_practice`.

    >>> from spades_tutor.session import Answer
    >>> old = Answer(0.0, "score", "jokers", "score:jokers:1/1", True)  # due two days later
    >>> missed = Answer(86_400.0 * 2, "trump-order", "jokers", "trump-order:jokers:2/1", False)
    >>> pick_practice([old, missed], seed=1, kinds=("score", "trump-order"), now=86_400.0 * 2, zone=None)
    PracticePick(kind='score', level=1, due=True)
    """
    due = due_kinds(schedules(history, kinds, zone), now, zone)
    if due:
        kind = due[0]
        return PracticePick(kind, mastery(history, kinds=(kind,))[kind].level, True)
    kind, level = next_practice(history, seed, kinds=kinds)
    return PracticePick(kind, level, False)


def day_words(day: datetime.date, today: datetime.date) -> str:
    """A review's day as a sentence says it, from the learner's ``today``.

    >>> today = datetime.date(2026, 12, 7)
    >>> [day_words(today + datetime.timedelta(days=n), today) for n in (-3, 0, 1, 2)]
    ['today', 'today', 'tomorrow', 'on Wednesday 9 December']
    >>> day_words(datetime.date(2027, 3, 1), today)
    'on Monday 1 March 2027'
    """
    if day <= today:
        return "today"
    if day == today + datetime.timedelta(days=1):
        return "tomorrow"
    year = "" if day.year == today.year else f" {day.year}"
    return f"on {_WEEKDAYS[day.weekday()]} {day.day} {_MONTHS[day.month - 1]}{year}"
