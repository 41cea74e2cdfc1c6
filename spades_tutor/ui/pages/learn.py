"""Learn: the list of lessons, and the lesson player for the lesson chosen."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from ..errors import guarded
from ..tree import close_unused
from .base import Page, SettingsChange, register

if TYPE_CHECKING:
    from ..app import App  # type-only: a page is handed the shell that builds it


@register
class LearnPage(Page):
    """The lesson list, and the lesson player for the lesson chosen."""

    title = "Learn"
    link = "learn"
    order = 20

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.player: Any = None
        self.list_box = w.VBox()
        self._list_buttons: list[w.Button] = []  # the list's, one per lesson, built when first shown
        self.back = w.Button(description="◀ All lessons")
        self.back.add_class("st-all-lessons")
        self.back.on_click(guarded(lambda _b: self.show_list()))
        self.widget = w.VBox([self.list_box])
        self._lessons: Any = None
        # generated lesson quizzes draw from this session seed and the count of lessons opened
        self.seed = random.SystemRandom().randrange(1, 100_000)
        self.opened = 0

    @property
    def lessons(self) -> Any:
        if self._lessons is None:
            from ...lessons import load_lessons

            self._lessons = load_lessons()
        return self._lessons

    def show_list(self) -> None:
        old, self.player = self.player, None
        lessons = self.lessons
        if not self._list_buttons:  # built the first time it is shown; after that only the marks change
            buttons = []
            for lesson in lessons:
                b = w.Button()
                b.add_class("st-lesson-button")
                b.on_click(guarded(lambda _b, lesson=lesson: self.open(lesson)))
                buttons.append(b)
            grid = w.Box(buttons)
            grid.add_class("st-lesson-list")
            self.list_box.children = [
                w.HTML(
                    f'<h2 class="st-lesson-title">Learn</h2><p>{len(lessons)} short lessons, in order, starting '
                    "with the game itself. Each step has pictures; each lesson ends with a quiz.</p>"
                ),
                grid,
            ]
            self._list_buttons = buttons
        for lesson, b in zip(lessons, self._list_buttons, strict=True):
            reached = self.app.progress.lessons.get(lesson.slug)
            done = reached is not None and reached >= len(lesson.steps) - 1
            b.description = f"{lesson.number}. {lesson.title}{' ✓' if done else ''}"
            b.tooltip = lesson.summary_in(self.app.rules)  # the summary follows the table picked
        self.widget.children = [self.list_box]
        if old is not None:
            close_unused([old.widget])
        self.app.name_page()
        self.app.remember_place()

    def open(self, lesson: Any, step: int | None = None) -> None:
        from ..lesson_player import LessonPlayer

        s = self.app.settings
        old = self.player
        self.player = LessonPlayer(
            lesson,
            self.app.rules,
            step=0 if step is None else step,
            on_step=self.app.reached,
            on_answer=self.app.record,
            on_finish=lambda _l: self.finished(lesson),
            four_colour=s.four_colour,
            large=s.large,
            retries=s.retries,
            seed=self.seed * 1000 + self.opened,
            history=lambda: self.app.progress.answers,
            on_review_answer=lambda item, feedback, attempt: self.app.record(item, feedback, attempt, source="review"),
            lessons=self.lessons,
        )
        self.opened += 1
        self.app.reached(lesson, self.player.step)
        self.widget.children = [self.back, self.player.widget]
        if old is not None:  # the lesson it replaces, with every widget it built
            close_unused([old.widget])
        self.app.name_page()

    def finished(self, lesson: Any) -> None:
        self.app.reached(lesson, len(lesson.steps) - 1)
        self.show_list()

    def apply(self, change: SettingsChange) -> None:
        """The lessons' summaries and the lesson open follow the new settings; the saved record
        arriving marks, on the list shown, the lessons it has read to the end."""
        for lesson, b in zip(self.lessons if self._list_buttons else (), self._list_buttons, strict=True):
            b.tooltip = lesson.summary_in(change.rules)  # the summaries follow the table picked
        if self.player is not None:
            s = change.settings
            self.player.set_rules(change.rules, four_colour=s.four_colour, large=s.large, retries=s.retries)
        if change.new_record and self.shown and self.player is None:
            self.show_list()

    def show(self) -> None:
        if self.player is None:
            self.show_list()
