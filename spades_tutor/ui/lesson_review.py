"""A lesson's closing review as widgets: what it reviews and why, its questions one at a time, the score.

The questions come from ``lessons.review`` (kind and level by mastery, over the answers stored
before the review and then the review's own; the kinds due for review today first, after a miss); each is a ``QuizView``, graded by the engine.
``on_answer`` hears of each graded answer (the app stores it with the source ``"review"``).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

import ipywidgets as w

from ..lessons.review import REVIEW_QUESTIONS, ReviewQuestion, review_question, review_reason
from ..session import Answer
from .errors import guarded
from .landmarks import live
from .quiz_view import AnswerCallback, QuizView
from .tree import replace_children

if TYPE_CHECKING:
    from ..engine import Rules
    from ..quiz import Feedback, QuizItem
    from ..quiz.mastery import Answered

LEVEL_NAMES = {1: "Easy", 2: "Medium", 3: "Tricky"}


class ReviewView:
    """The review of ``kinds`` drawn with ``seed`` after the answers in ``history``; ``widget`` is what to show."""

    def __init__(
        self,
        rules: Rules,
        kinds: Sequence[str],
        history: Sequence[Answered],
        seed: int,
        on_answer: AnswerCallback | None = None,
        *,
        four_colour: bool = False,
        large: bool = False,
        retries: int = 0,
        due: Sequence[str] = (),
    ) -> None:
        if not kinds:
            raise ValueError("a review needs at least one quiz kind")
        self.rules = rules
        self.kinds = tuple(kinds)
        self.history: list[Answered] = list(history)  # the answers before the review, then its own
        self.seed = seed
        self.on_answer = on_answer
        self.looks = {"four_colour": four_colour, "large": large}
        self.retries = retries
        self.questions: list[ReviewQuestion] = []
        self.views: list[QuizView] = []
        self.results: list[tuple[bool, int]] = []  # (right, which try) for each question answered
        self.due = tuple(k for k in due if k in self.kinds)  # due for review today: asked first (after a miss)
        reason = review_reason(self.history, self.kinds, self.due)
        self.reason = w.HTML(f'<p class="st-review-why">{html.escape(reason)}</p>')
        self.where = live(w.HTML())
        self.slot = w.VBox()
        self.next_button = w.Button(description="Next question ▶", button_style="primary", disabled=True)
        self.next_button.add_class("st-review-next")
        self.next_button.on_click(guarded(lambda _b: self.ask()))
        self.score = live(w.HTML())
        self.widget = w.VBox([self.reason, self.where, self.slot, self.next_button, self.score])
        self.widget.add_class("st-review")
        self.ask()

    @property
    def view(self) -> QuizView:
        """The question shown."""
        return self.views[-1]

    @property
    def done(self) -> bool:
        return len(self.results) == REVIEW_QUESTIONS

    def ask(self) -> None:
        """The next question, drawn after every answer so far (nothing once all are asked)."""
        if len(self.questions) >= REVIEW_QUESTIONS or len(self.results) < len(self.questions):
            return
        asked = {q.kind for q in self.questions}
        due = [k for k in self.due if k not in asked]
        question = review_question(self.history, self.seed, self.kinds, len(self.questions) + 1, due)
        item = question.item(self.rules)
        view = QuizView(item, self._answered, retries=self.retries, **self.looks)
        self.questions.append(question)
        self.views.append(view)
        replace_children(self.slot, [view.widget])
        self.next_button.disabled = True
        self.next_button.layout.display = None
        self.where.value = (
            f'<div class="st-review-where" role="status">Review question {question.number} of {REVIEW_QUESTIONS}'
            f" · {LEVEL_NAMES[question.level]} · question {question.seed}</div>"
        )

    def _answered(self, item: QuizItem, feedback: Feedback, attempt: int) -> None:
        self.history.append(Answer(0.0, item.kind, item.rules.name, item.key, feedback.correct, "review", attempt))
        self.results.append((feedback.correct, attempt))
        if self.on_answer is not None:
            self.on_answer(item, feedback, attempt)
        if self.done:
            self.next_button.layout.display = "none"
            first = sum(right and attempt == 1 for right, attempt in self.results)
            right = sum(right for right, _ in self.results)
            second = f" ({right} of {REVIEW_QUESTIONS} with the second tries)" if right > first else ""
            self.score.value = (
                f'<div class="st-review-score" role="status">Review done: {first} of {REVIEW_QUESTIONS} '
                f"right on the first try{second}.</div>"
            )
        else:
            self.next_button.disabled = False
