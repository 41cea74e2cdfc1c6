"""Mastery per quiz kind, and the next kind to practise: adaptive practice from the answers given.

Pure functions of the answer history (the stored answers of ``spades_tutor.session.progress``, oldest
first, each with its ``kind``, ``item`` key, ``correct`` and ``attempt``) and a seed, so the same
history and seed always give the same result.

A **level** (1 easy, 2 medium, 3 tricky) is read from the item's key (``'score:jokers:7/2'`` was
asked at level 2). Per kind, the level to practise at starts at 1, rises after ``RISE_RUN`` right
first tries in a row at it, and falls back one after ``FALL_MISSES`` misses among the last
``FALL_WINDOW`` answers at it. A miss is any answer not right on the first try (wrong, or right
only on the second try). A right first try at a harder level counts toward the run; a miss at an
easier level counts against it; the others (easier and right, harder and wrong) tell nothing about
the level and are left out.

A **box** (Leitner's file of cards, 1 to 5) says how well the kind is known: a miss sends the kind
to box 1, a right first try moves it up one (a kind's first answer starts from box 1). A kind in box
``b`` is due again after ``INTERVALS[b]`` answers to other kinds since its last one (box 1: at once),
and the next kind is drawn from the kinds due with weight ``WEIGHTS[b]``, so a missed kind comes back
sooner and often, a mastered one later and seldom. A kind never asked comes in when no kind answered
is due (drawn evenly among the new ones): what was missed is practised before anything new.

>>> from spades_tutor.session import Answer
>>> def said(kind, level, right, attempt=1):
...     return Answer(0.0, kind, "jokers", f"{kind}:jokers:1/{level}", right, "quiz", attempt)
>>> history = [said("score", 1, True)] * 3 + [said("trick-winner", 1, False)]
>>> m = mastery(history, kinds=("score", "trick-winner"))
>>> m["score"].level, m["score"].box, m["trick-winner"].level, m["trick-winner"].box
(2, 4, 1, 1)
>>> next_practice(history, seed=1, kinds=("score", "trick-winner"))
('trick-winner', 1)
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, TypeVar

from ..engine.round import uniform_below
from .base import DIFFICULTIES

__all__ = [
    "BOXES",
    "FALL_MISSES",
    "FALL_WINDOW",
    "INTERVALS",
    "MASTERY_COLUMNS",
    "RISE_RUN",
    "WEIGHTS",
    "Answered",
    "KindMastery",
    "known",
    "level_of",
    "mastery",
    "mastery_rows",
    "next_practice",
]

RISE_RUN = 3  # right first tries in a row at a level that move the kind up a level
FALL_WINDOW = 3  # the last answers at a level looked at for misses ...
FALL_MISSES = 2  # ... and how many misses among them move the kind down a level
BOXES = (1, 2, 3, 4, 5)
#: box -> answers to other kinds before the kind is due again (box 1: due at once)
INTERVALS: Mapping[int, int] = {1: 0, 2: 1, 3: 3, 4: 7, 5: 15}
#: box -> its weight in the draw among the kinds due: each box is drawn four times as often as the next
WEIGHTS: Mapping[int, int] = {1: 256, 2: 64, 3: 16, 4: 4, 5: 1}

_KEY = re.compile(r"([a-z0-9-]{1,40}):[^:]{1,80}:\d{1,12}/(\d)")


class Answered(Protocol):
    """One answer of the history (``spades_tutor.session.Answer`` is one)."""

    @property
    def kind(self) -> str: ...

    @property
    def item(self) -> str: ...

    @property
    def correct(self) -> bool: ...

    @property
    def attempt(self) -> int: ...


A = TypeVar("A", bound=Answered)


@dataclasses.dataclass(frozen=True)
class KindMastery:
    """How well one kind is known, from the answers to it."""

    kind: str
    level: int  # the level to practise at: 1 easy, 2 medium, 3 tricky
    box: int  # the Leitner box, 1 (just missed) to 5 (well known); 0 if never answered
    answered: int
    first_try: int  # of those, right on the first try
    since: int  # answers to other kinds since this kind's last answer (the whole history if never answered)
    #: level -> (right first tries, answers) at that level (answers whose key names no level are left out)
    levels: Mapping[int, tuple[int, int]] = dataclasses.field(default_factory=dict)

    @property
    def due(self) -> bool:
        """Whether the kind is due for practice: answered, and its box's interval has passed since."""
        return self.box > 0 and self.since >= INTERVALS[self.box]

    @property
    def weight(self) -> int:
        """Its weight in a draw (a kind never asked: 1, as each of the others new)."""
        return WEIGHTS[self.box] if self.box else 1

    @property
    def mastered(self) -> bool:
        """At the top level and in the top box."""
        return self.level == DIFFICULTIES[-1] and self.box == BOXES[-1]


def level_of(answer: Answered) -> int | None:
    """The level an answer was asked at, read from its item key (None if the key names none).

    >>> from spades_tutor.session import Answer
    >>> level_of(Answer(0.0, "score", "jokers", "score:jokers+1a2b3c:7/3", True))
    3
    >>> print(level_of(Answer(0.0, "score", "jokers", "score:jokers:5d41402abc", True)))
    None
    """
    found = _KEY.fullmatch(answer.item)
    if found is None or found[1] != answer.kind or int(found[2]) not in DIFFICULTIES:
        return None
    return int(found[2])


def _first_try(answer: Answered) -> bool:
    return answer.correct is True and answer.attempt == 1


def known(history: Iterable[A], kinds: Sequence[str] | None) -> tuple[tuple[str, ...], list[A]]:
    """The kinds asked about (the registry's by default, each once, in order) and the history's answers
    to them, in order.

    >>> from spades_tutor.session import Answer
    >>> history = [Answer(0.0, "trump-order", "jokers", "t", True), Answer(1.0, "scoring", "jokers", "s", False)]
    >>> wanted, answers = known(history, ["scoring", "scoring"])
    >>> wanted, [a.kind for a in answers]
    (('scoring',), ['scoring'])
    """
    if kinds is None:
        from .kinds import names

        kinds = names()
    if isinstance(kinds, str):
        raise TypeError(f"kinds is a sequence of kind names, not the text {kinds!r}")
    wanted = tuple(dict.fromkeys(kinds))
    keep = set(wanted)
    return wanted, [a for a in history if a.kind in keep]


def _one_kind(kind: str, answers: Sequence[Answered], total: int, last: int) -> KindMastery:
    level, box = DIFFICULTIES[0], 0
    recent: list[bool] = []  # first-try results at the current level, since it was reached
    levels: dict[int, tuple[int, int]] = {}
    for answer in answers:
        right = _first_try(answer)
        asked = level_of(answer)
        if asked is not None:
            good, seen = levels.get(asked, (0, 0))
            levels[asked] = (good + right, seen + 1)
        box = min(max(box, 1) + 1, BOXES[-1]) if right else BOXES[0]
        at = level if asked is None else asked
        if (at > level and not right) or (at < level and right):
            continue  # a harder question missed, an easier one right: nothing about this level
        recent.append(right)
        if level < DIFFICULTIES[-1] and len(recent) >= RISE_RUN and all(recent[-RISE_RUN:]):
            level, recent = level + 1, []
        elif level > DIFFICULTIES[0] and recent[-FALL_WINDOW:].count(False) >= FALL_MISSES:
            level, recent = level - 1, []
    first = sum(map(_first_try, answers))
    since = total if last < 0 else total - 1 - last
    return KindMastery(kind, level, box, len(answers), first, since, dict(sorted(levels.items())))


def mastery(history: Iterable[Answered], kinds: Sequence[str] | None = None) -> dict[str, KindMastery]:
    """Each kind's mastery from the answers given (oldest first), for ``kinds`` (default: every kind
    the registry lists); answers to other kinds are left out.

    >>> from spades_tutor.session import Answer
    >>> right = Answer(0.0, "score", "jokers", "score:jokers:1/1", True)
    >>> m = mastery([right] * 3)["score"]
    >>> m.level, m.box, m.answered, m.first_try, m.levels
    (2, 4, 3, 3, {1: (3, 3)})
    >>> missed = Answer(0.0, "score", "jokers", "score:jokers:2/2", True, attempt=2)  # right only on the second try
    >>> m = mastery([right] * 3 + [missed] * 2)["score"]
    >>> m.level, m.box
    (1, 1)
    >>> mastery([])["score"].box  # never answered
    0
    """
    wanted, answers = known(history, kinds)
    last = {a.kind: i for i, a in enumerate(answers)}
    return {
        kind: _one_kind(kind, [a for a in answers if a.kind == kind], len(answers), last.get(kind, -1))
        for kind in wanted
    }


def next_practice(history: Iterable[Answered], seed: int, kinds: Sequence[str] | None = None) -> tuple[str, int]:
    """The kind to practise next and the level to ask it at: drawn with ``seed`` from the kinds due
    among ``kinds`` (default: every kind the registry lists), weighted toward low boxes; if none is
    due, from the kinds never asked; if every kind was asked, from all of them.

    >>> from spades_tutor.session import Answer
    >>> missed = Answer(0.0, "trump-order", "jokers", "trump-order:jokers:4/2", False)
    >>> {next_practice([missed], seed, kinds=("score", "trump-order", "nil-safe")) for seed in range(20)}
    {('trump-order', 1)}
    >>> right = Answer(0.0, "trump-order", "jokers", "trump-order:jokers:4/1", True)  # box 2: due after another
    >>> sorted({next_practice([right], seed, kinds=("score", "trump-order", "nil-safe")) for seed in range(20)})
    [('nil-safe', 1), ('score', 1)]
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"a seed is a whole number, not {seed!r}")
    table = mastery(history, kinds)
    if not table:
        raise ValueError("no kinds to practise")
    every = list(table.values())
    pool = [m for m in every if m.due] or [m for m in every if not m.box] or every
    rng = random.Random(f"spades-tutor/practice/{seed}")
    pick = uniform_below(rng, sum(m.weight for m in pool))
    for m in pool:
        pick -= m.weight
        if pick < 0:
            return m.kind, m.level
    raise AssertionError("unreachable: the draw is below the total weight")


#: the columns of :func:`mastery_rows`, as a teacher's spreadsheet heads them
MASTERY_COLUMNS = ("kind", "level", "box", "answered", "right first try", "second try", "missed")


def mastery_rows(
    history: Iterable[Answered], kinds: Sequence[str] | None = None
) -> list[tuple[str, int, int, int, int, int, int]]:
    """One row per kind (every kind the registry lists by default), in :data:`MASTERY_COLUMNS`' order:
    the kind, its level and box (as :func:`mastery` finds them; a kind never answered is in box 0),
    and its answers: all of them, right on the first try, right on the second try, missed.

    >>> from spades_tutor.session import Answer
    >>> history = [Answer(0.0, "score", "jokers", "score:jokers:1/1", True)] * 3
    >>> history.append(Answer(0.0, "score", "jokers", "score:jokers:2/2", True, attempt=2))
    >>> history.append(Answer(0.0, "trump-order", "jokers", "trump-order:jokers:3/1", False))
    >>> mastery_rows(history, kinds=("score", "trump-order", "nil-safe"))
    [('score', 2, 1, 4, 3, 1, 0), ('trump-order', 1, 1, 1, 0, 0, 1), ('nil-safe', 1, 0, 0, 0, 0, 0)]
    """
    wanted, answers = known(history, kinds)
    table = mastery(answers, wanted)
    rows = []
    for kind, m in table.items():
        mine = [a for a in answers if a.kind == kind]
        second = sum(a.correct is True and a.attempt == 2 for a in mine)
        missed = sum(a.correct is not True for a in mine)
        rows.append((kind, m.level, m.box, m.answered, m.first_try, second, missed))
    return rows
