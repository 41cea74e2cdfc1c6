"""A lesson's closing review: a few mixed questions of the kinds the lesson taught, scheduled by mastery.

**Which kinds.** The kinds of the lesson's ``quiz`` blocks, in the order the lesson first asks them,
less those the rule set does not offer (no "Is nil safe?" when nil is off). A lesson with no quiz
block reviews the kinds of the nearest lesson before it that has some: each lesson builds on the
one before, so those are the kinds most related to it. With none before it, there is no review.

**Which question.** Each question's kind and level come from ``quiz.mastery.next_practice`` over the
learner's answers (those stored before the review, then the review's own), with a seed drawn from
the review's seed and the question's number, so the same answers and seed give the same review.
Kinds missed on their last answer (Leitner box 1) are drawn from first: what was missed comes back
before the rest. Then the kinds due for review today (``due``, from ``quiz.schedule``: a lesson's
quiz is scheduled as the kinds it asks), each until the review has asked it. The level is the one
mastery says the learner has reached in the kind.

>>> import spades_tutor as st
>>> from spades_tutor.lessons import load_lesson, lessons_dir
>>> from spades_tutor.session import Answer
>>> lesson = load_lesson(lessons_dir() / "05-who-wins-a-trick.md")
>>> kinds = review_kinds(lesson, st.Rules.preset("jokers"))
>>> kinds
('trick-winner', 'first-leader')
>>> missed = Answer(0.0, "trick-winner", "jokers", "trick-winner:jokers:4/1", False, "lesson")
>>> review_question([missed], seed=7, kinds=kinds, number=1).kind
'trick-winner'
>>> review_reason([missed], kinds)
'This review mixes the kinds of question this lesson asked: “Who wins the trick?” and “Who leads?”. You missed “Who wins the trick?” last time, so it comes first.'
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..engine.text import and_list
from ..quiz import kinds as quiz_kinds
from ..quiz.mastery import Answered, mastery, next_practice

if TYPE_CHECKING:
    from collections.abc import Collection

    from ..engine import Rules
    from ..quiz import QuizItem
    from .model import Lesson

__all__ = [
    "REVIEW_QUESTIONS",
    "ReviewQuestion",
    "lessons_due",
    "review_kinds",
    "review_question",
    "review_reason",
]

REVIEW_QUESTIONS = 3  # questions in a lesson's closing review


def _taught(lesson: Lesson) -> tuple[str, ...]:
    """The kinds of the lesson's quiz blocks, in the order it first asks them."""
    found = (block.quiz_kind for step in lesson.steps for block in step.blocks if block.quiz_kind is not None)
    return tuple(dict.fromkeys(found))


def review_kinds(lesson: Lesson, rules: Rules, lessons: Sequence[Lesson] = ()) -> tuple[str, ...]:
    """The kinds the lesson's review asks, in the rule set shown (empty: no review).

    ``lessons`` (all of them, in order) lets a lesson with no quiz block review the kinds of the
    nearest lesson before it that has some.
    """
    kinds = _taught(lesson)
    if not kinds:
        before = [x for x in lessons if x.number < lesson.number]
        kinds = next((k for k in map(_taught, reversed(before)) if k), ())
    return tuple(k for k in kinds if quiz_kinds.get(k).offered(rules))


def _titles(kinds: Sequence[str]) -> str:
    """Kind titles as a sentence lists them, each quoted: “A”, “A” and “B”, “A”, “B” and “C”."""
    return and_list(f"“{quiz_kinds.get(k).title}”" for k in kinds)


def _missed(history: Sequence[Answered], kinds: Sequence[str]) -> list[str]:
    table = mastery(history, kinds)
    return [k for k in kinds if table[k].box == 1]


def review_reason(history: Sequence[Answered], kinds: Sequence[str], due: Sequence[str] = ()) -> str:
    """What the review asks and why, from the learner's answers so far (``due``: the kinds due for review today).

    >>> print(review_reason([], ("trick-winner", "first-leader"), due=["first-leader"]))
    This review mixes the kinds of question this lesson asked: “Who wins the trick?” and “Who leads?”. “Who leads?” is due for review today, so it comes first.
    """
    if len(kinds) == 1:
        said = f"This review asks more {_titles(kinds)} questions, the kind this lesson asked."
    else:
        said = f"This review mixes the kinds of question this lesson asked: {_titles(kinds)}."
    missed = _missed(history, kinds)
    if missed:
        it = "it comes" if len(missed) == 1 else "they come"
        return f"{said} You missed {_titles(missed)} last time, so {it} first."
    due = [k for k in kinds if k in due]
    if due:
        verb, it = ("is", "it comes") if len(due) == 1 else ("are", "they come")
        return f"{said} {_titles(due)} {verb} due for review today, so {it} first."
    table = mastery(history, kinds)
    if all(m.box == 0 for m in table.values()):
        return f"{said} None of them answered yet: each starts at Easy."
    return f"{said} Each comes at the level you have reached in it, the least known most often."


@dataclasses.dataclass(frozen=True)
class ReviewQuestion:
    """One question of a review: its number (from 1), kind, level and the seed its item is drawn with."""

    number: int
    kind: str
    level: int
    seed: int

    def item(self, rules: Rules) -> QuizItem:
        """The question itself, drawn by the kind's generator (the engine gives its answer)."""
        from ..quiz.generators import generate

        return generate(self.kind, rules, self.seed, self.level)


def review_question(
    history: Sequence[Answered], seed: int, kinds: Sequence[str], number: int, due: Sequence[str] = ()
) -> ReviewQuestion:
    """Question ``number`` of the review with ``seed``, after the answers in ``history`` (oldest first):
    of the kinds missed last if any, else of those in ``due`` (due for review today, not yet asked in
    this review) if any, else of all of ``kinds``.

    >>> from spades_tutor.session import Answer
    >>> right = [Answer(0.0, "score", "jokers", f"score:jokers:{i}/1", True) for i in range(3)]
    >>> q = review_question(right, seed=1, kinds=("score",), number=2)
    >>> (q.kind, q.level) == ("score", 2) and q == review_question(right, seed=1, kinds=("score",), number=2)
    True
    """
    if not kinds:
        raise ValueError("a review needs at least one quiz kind")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"a seed is a whole number, not {seed!r}")
    draw = random.Random(f"spades-tutor/review/{seed}/{number}")
    pool = _missed(history, kinds) or [k for k in kinds if k in due] or list(kinds)
    kind, level = next_practice(history, draw.randrange(1, 100_000), kinds=pool)
    return ReviewQuestion(number, kind, level, draw.randrange(1, 100_000))


def lessons_due(
    lessons: Sequence[Lesson],
    reached: Collection[str],
    due: Sequence[str],
    rules: Rules,
) -> list[Lesson]:
    """The lessons read (their slugs in ``reached``) whose own quiz asks a kind in ``due`` (the kinds
    due for review today, :func:`spades_tutor.quiz.schedule.due_kinds`): a lesson's quiz is
    scheduled as the kinds it asks, and is due when one of them is.

    >>> import spades_tutor as st
    >>> from spades_tutor.lessons import load_lessons
    >>> every = load_lessons()
    >>> [x.number for x in lessons_due(every, [x.slug for x in every], ["trick-winner"], st.Rules.preset("jokers"))]
    [0, 5, 10, 13, 14]
    >>> lessons_due(every, [], ["trick-winner"], st.Rules.preset("jokers"))  # not read yet: nothing to review
    []
    """
    wanted = set(due)
    return [x for x in lessons if x.slug in reached and wanted & set(review_kinds(x, rules))]
