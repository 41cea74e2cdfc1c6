"""What the teacher view shows of a class session, as plain data: the grid of learners × steps, and the
room's answers to one question (how many gave each, the right one, the most common wrong one and the
misconception the app diagnosed for it).

Built from the rows of :mod:`spades_tutor.session.class_store`; drawn by :mod:`spades_tutor.ui.teacher_view`.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Sequence

from .class_store import Answer, Learner

__all__ = ["HERE_S", "Bar", "Cell", "Question", "cell_of", "grid", "question"]

#: a learner seen within this many seconds is "here now" on their step
HERE_S = 120.0

#: a cell's result: right on the first try, on the second, missed, or no answer yet
RESULTS = ("first", "second", "missed", "")


@dataclasses.dataclass(frozen=True)
class Cell:
    result: str  # one of RESULTS
    here: bool  # the learner is on this step now

    @property
    def label(self) -> str:
        """The cell in words (what a screen reader says, and the title on hover)."""
        words = {
            "first": "right on the first try",
            "second": "right on the second try",
            "missed": "missed",
            "": "",
        }[self.result]
        if self.here:
            return f"here now{', ' + words if words else ''}"
        return words or "not answered"


def cell_of(answers: Iterable[Answer], here: bool) -> Cell:
    """One learner's cell for one step: each question's first graded answer; the worst of them.

    >>> a = lambda correct, attempt, key="k": Answer(1, 1, 1, 0, "x", key, "", "", correct, attempt, "", 0.0)
    >>> cell_of([a(True, 1)], False).result, cell_of([a(True, 2)], True).label
    ('first', 'here now, right on the second try')
    >>> cell_of([a(False, 1), a(True, 1)], False).result  # the first answer to a question counts
    'missed'
    >>> cell_of([a(True, 1), a(False, 1, "other")], False).result
    'missed'
    """
    firsts: dict[str, Answer] = {}
    for answer in answers:
        firsts.setdefault(answer.item_key, answer)
    if not firsts:
        return Cell("", here)
    results = {"missed" if not a.correct else "first" if a.attempt == 1 else "second" for a in firsts.values()}
    worst = next(r for r in ("missed", "second", "first") if r in results)
    return Cell(worst, here)


def grid(
    learners: Sequence[Learner], answers: Iterable[Answer], lesson: int, steps: int, now: float
) -> list[tuple[Learner, list[Cell]]]:
    """Each learner's row of ``steps`` cells for lesson ``lesson`` (their answers, and where they are now)."""
    by: dict[tuple[int, int], list[Answer]] = {}
    for answer in answers:
        if answer.lesson == lesson:
            by.setdefault((answer.learner, answer.step), []).append(answer)
    rows = []
    for learner in learners:
        present = learner.lesson == lesson and now - learner.seen <= HERE_S
        rows.append(
            (
                learner,
                [cell_of(by.get((learner.id, step), ()), present and learner.step == step) for step in range(steps)],
            )
        )
    return rows


@dataclasses.dataclass(frozen=True)
class Bar:
    answer: str
    count: int
    correct: bool


@dataclasses.dataclass(frozen=True)
class Question:
    """The room's answers to a step's question: each learner's first graded answer to it."""

    bars: tuple[Bar, ...]  # most given first
    total: int
    right: str  # the right answer, in words
    kind: str
    common_wrong: Bar | None
    diagnosis: str  # the misconception diagnosed for the most common wrong answer ('' if none)

    @property
    def line(self) -> str:
        """ "9 of 27 said West wins: the jokers swapped." ('' when no one is wrong)."""
        wrong = self.common_wrong
        if wrong is None:
            return ""
        said = f"{wrong.count} of {self.total} said {wrong.answer}"
        return f"{said}: {self.diagnosis}" if self.diagnosis else f"{said}."


def question(answers: Iterable[Answer], lesson: int, step: int) -> Question | None:
    """The room's answers to the question of ``step`` most learners answered (None: no answer yet).

    >>> rows = [Answer(i, i, 3, 1, "trick-winner", "q", said, "W", said == "W", 1, diag, 0.0)
    ...         for i, (said, diag) in enumerate([("W", ""), ("E", "The jokers swapped."), ("E", "The jokers swapped."), ("N", "")], 1)]
    >>> q = question(rows, 3, 1)
    >>> [(b.answer, b.count, b.correct) for b in q.bars], q.line
    ([('E', 2, False), ('W', 1, True), ('N', 1, False)], '2 of 4 said E: The jokers swapped.')
    """
    asked = [a for a in answers if a.lesson == lesson and a.step == step]
    if not asked:
        return None
    key = Counter(a.item_key for a in asked).most_common(1)[0][0]
    firsts: dict[int, Answer] = {}
    for a in asked:
        if a.item_key == key:
            firsts.setdefault(a.learner, a)
    given = list(firsts.values())
    counts = Counter(a.answer for a in given)
    correct = {a.answer: a.correct for a in given}
    order = {text: i for i, text in enumerate(dict.fromkeys(a.answer for a in given))}
    bars = tuple(
        Bar(text, n, correct[text]) for text, n in sorted(counts.items(), key=lambda kv: (-kv[1], order[kv[0]]))
    )
    right = Counter(a.right_answer for a in given).most_common(1)[0][0]
    wrong = next((bar for bar in bars if not bar.correct), None)
    diagnosis = ""
    if wrong is not None:
        said = Counter(a.diagnosis for a in given if a.answer == wrong.answer and a.diagnosis)
        diagnosis = said.most_common(1)[0][0] if said else ""
    return Question(bars, len(given), right, given[0].kind, wrong, diagnosis)
