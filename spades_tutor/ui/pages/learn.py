"""Learn: the list of lessons, and the lesson player for the lesson chosen."""

from __future__ import annotations

import html
import random
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from ..errors import guarded
from ..tree import close_unused
from .base import Page, SettingsChange, register

if TYPE_CHECKING:
    from ..app import App  # type-only: a page is handed the shell that builds it


class LessonDone:
    """The moment a lesson ends: its title and summary, the steps it covered, how its questions
    and its review went, the lessons done of all, and "Next lesson" (or, after the last, the way
    to practise)."""

    def __init__(self, lesson: Any, following: Any, done: int, total: int, rules: Any, player: Any) -> None:
        rows = "".join(f"<li>{html.escape(step.title)}</li>" for step in lesson.steps)
        said = [f'<p class="st-done-summary">{html.escape(lesson.summary_in(rules))}</p>'] if lesson.summary else []
        said.append(f'<p class="st-done-covered">What this lesson covered:</p><ul class="st-done-steps">{rows}</ul>')
        answered = list(player.answers) if player is not None else []
        if answered:
            right = sum(answered)
            said.append(
                f'<p class="st-done-questions">Its questions: {right} of {len(answered)} right on the first try.</p>'
            )
        review = player.review if player is not None else None
        if review is not None and review.done:
            first = sum(ok and attempt == 1 for ok, attempt in review.results)
            said.append(
                f'<p class="st-done-review">The review: {first} of {len(review.results)} right on the first try.</p>'
            )
        self.heading = w.HTML(
            f'<h2 class="st-lesson-title st-done-title" tabindex="-1">Lesson {lesson.number} done: '
            f"{html.escape(lesson.title)} ✓</h2>"
        )
        self.body = w.HTML("".join(said))
        self.count = w.HTML(
            f'<div class="st-done-count" role="status">{done} of {total} lessons done'
            f"{' · every lesson done' if done == total else ''}</div>"
        )
        self.bar = w.IntProgress(min=0, max=total, value=done, description="")
        self.bar.add_class("st-progress")
        if following is not None:
            self.next_lesson = w.Button(
                description=f"Next lesson: {following.number}. {following.title} ▶",
                button_style="primary",
                tooltip=following.summary_in(rules),
            )
        else:
            self.next_lesson = w.Button(description="Next lesson", disabled=True)
            self.next_lesson.layout.display = "none"
        self.next_lesson.add_class("st-next-lesson")
        self.all_lessons = w.Button(description="◀ All lessons")
        self.all_lessons.add_class("st-done-list")
        buttons = w.HBox([self.next_lesson, self.all_lessons])
        buttons.add_class("st-done-buttons")
        self.widget = w.VBox([self.heading, self.body, self.count, self.bar, buttons])
        self.widget.add_class("st-lesson-done")

    def focus(self) -> None:
        """Keyboard and screen-reader users land on what comes next: the next lesson's button (the
        list's after the last lesson)."""
        (self.next_lesson if self.next_lesson.layout.display != "none" else self.all_lessons).focus()


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
        self.done_panel: LessonDone | None = None  # the end of the lesson last finished, while shown
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
        self._close_done()
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
            b.description = f"{lesson.number}. {lesson.title}{' ✓' if self._read(lesson) else ''}"
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
        # in a class, every learner is asked the same questions (the teacher's view compares their answers)
        config = self.app.class_config
        seed = config.session_id * 1000 + lesson.number if config is not None else self.seed * 1000 + self.opened
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
            seed=seed,
            history=lambda: self.app.progress.answers,
            on_review_answer=lambda item, feedback, attempt: self.app.record(item, feedback, attempt, source="review"),
            lessons=self.lessons,
            due=self.due,
        )
        self.opened += 1
        self._close_done()
        self.app.reached(lesson, self.player.step)
        self.widget.children = [self.back, self.player.widget]
        if old is not None:  # the lesson it replaces, with every widget it built
            close_unused([old.widget])
        self.app.name_page()

    def due(self, kinds: Sequence[str]) -> list[str]:
        """Which of a lesson review's kinds are due for review today, on the learner's clock."""
        from ...quiz.schedule import due_among, schedules

        zone = self.app.store.zone
        return due_among(schedules(self.app.progress.answers, kinds, zone), kinds, time.time(), zone)

    def finished(self, lesson: Any) -> None:
        self.app.reached(lesson, len(lesson.steps) - 1)
        self.show_done(lesson)

    def show_done(self, lesson: Any) -> None:
        """The end of a lesson: what it covered, how its questions went, the lessons done so far, and
        the next lesson a button away."""
        old, self.player = self.player, None
        self._close_done()
        lessons = list(self.lessons)
        later = [other for other in lessons if other.number > lesson.number]
        following = later[0] if later else None
        done = sum(1 for other in lessons if self._read(other))
        self.done_panel = LessonDone(lesson, following, done, len(lessons), self.app.rules, old)
        if following is not None:
            self.done_panel.next_lesson.on_click(guarded(lambda _b: self.open(following)))
        self.done_panel.all_lessons.on_click(guarded(lambda _b: self.show_list()))
        self.widget.children = [self.done_panel.widget]
        if old is not None:
            close_unused([old.widget])
        self.app.name_page()
        self.app.remember_place()
        self.done_panel.focus()

    def _close_done(self) -> None:
        if self.done_panel is not None:
            close_unused([self.done_panel.widget])
            self.done_panel = None

    def _read(self, lesson: Any) -> bool:
        """Whether the learner has read ``lesson`` to its last step."""
        reached = self.app.progress.lessons.get(lesson.slug)
        return reached is not None and reached >= len(lesson.steps) - 1

    def apply(self, change: SettingsChange) -> None:
        """The lessons' summaries and the lesson open follow the new settings; the saved record
        arriving marks, on the list shown, the lessons it has read to the end."""
        for lesson, b in zip(self.lessons if self._list_buttons else (), self._list_buttons, strict=True):
            b.tooltip = lesson.summary_in(change.rules)  # the summaries follow the table picked
        if self.player is not None:
            s = change.settings
            self.player.set_rules(change.rules, four_colour=s.four_colour, large=s.large, retries=s.retries)
        if change.new_record and self.shown and self.player is None and self.done_panel is None:
            self.show_list()

    def show(self) -> None:
        if self.player is None and self.done_panel is None:
            self.show_list()
