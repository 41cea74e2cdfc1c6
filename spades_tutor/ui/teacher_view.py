"""The teacher view of a class session: who is where, what the room answered, and the pacing.

Made for the teacher's laptop and for the projector:

- a grid of learners × the steps of the lesson taught: right on the first try (✓), on the second
  (✓²), missed (✗), here now (a ring round the cell), updated within a second of an answer (the
  teacher's kernel looks at the database every quarter second, one cheap query when nothing changed);
- the room's answers to one step's question, as bars, the right answer hidden until "Reveal", then
  the most common wrong answer with the misconception the app diagnosed for it ("9 of 27 said E:
  …"); a snapshot of those answers (never names) can be pinned for the room;
- pacing: the last step learners may reach, everyone brought to a step, every screen paused with
  a message; names hidden by one switch ("Learner 7");
- the session's answers as CSV, and its data deleted (after a confirmation).

Every action is checked (a step in the lesson, a message's length and characters) and rate-limited by
:class:`~spades_tutor.session.class_teaching.Teaching`, which the hub's teacher service
(:mod:`spades_tutor.hub_teacher`) shares, and which draws the grid, the bars and the snapshot for both.
Only a kernel opened with the teacher code builds this view (:mod:`spades_tutor.ui.pages.teacher`).
"""

from __future__ import annotations

import base64
import html
import time
from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from ..session.class_store import ClassState, ClassStore
from ..session.class_teaching import (
    ACTIONS_BURST,
    ACTIONS_PER_S,
    Teaching,
    TooFast,
    bars_html,
    grid_html,
)
from .class_seat import ClassConfig, Poller, store_for
from .errors import guarded
from .landmarks import live

__all__ = ["ACTIONS_BURST", "ACTIONS_PER_S", "TeacherView", "bars_html", "grid_html"]


class TeacherView:
    """The teacher view of the class session in ``config`` (see the module's docstring)."""

    def __init__(self, config: ClassConfig, lessons: Sequence[Any], store: ClassStore | None = None) -> None:
        self.config = config
        self.store = store or store_for(config.url)
        self.session_id = config.session_id
        self.lessons = list(lessons)
        self.teaching = Teaching(self.store, self.session_id, self.lessons)
        self._last: tuple[Any, ...] | None = None
        self._updating = False

        self.heading = w.HTML()
        self.lesson_pick = w.Dropdown(
            options=[(f"{x.number}. {x.title}", x.number) for x in self.lessons], description="Lesson taught"
        )
        self.lesson_pick.add_class("st-teacher-lesson")
        self.anonymous = w.Checkbox(description="Hide names (for the projector)", indent=False)
        self.anonymous.add_class("st-teacher-anonymous")
        self.grid = w.HTML()
        self.grid.add_class("st-teacher-grid-box")

        self.question_pick = w.Dropdown(description="Question of step")
        self.question_pick.add_class("st-teacher-question")
        self.reveal = w.ToggleButton(description="Reveal the answer", tooltip="Show the right answer to the room")
        self.reveal.add_class("st-teacher-reveal")
        self.snap = w.Button(description="Pin a snapshot for the room", tooltip="The answers now, without names")
        self.snap.add_class("st-teacher-snap")
        self.unsnap = w.Button(description="Take the snapshot down")
        self.unsnap.add_class("st-teacher-unsnap")
        self.bars = w.HTML()
        self.bars.add_class("st-teacher-bars")
        self.snapshot = w.HTML()
        self.snapshot.add_class("st-teacher-snapshot")

        self.limit_pick = w.Dropdown(description="Learners may reach")
        self.limit_pick.add_class("st-teacher-limit")
        self.bring_pick = w.Dropdown(description="Bring everyone to")
        self.bring_pick.add_class("st-teacher-bring-step")
        self.bring_button = w.Button(description="Bring them", tooltip="Every learner's screen moves to that step")
        self.bring_button.add_class("st-teacher-bring")
        self.message = w.Text(value="Eyes on me, please.", description="Message", placeholder="What paused screens say")
        self.message.add_class("st-teacher-message")
        self.pause = w.ToggleButton(description="Pause every screen", tooltip="Cover every learner's screen")
        self.pause.add_class("st-teacher-pause")
        self.said = live(w.HTML())
        self.said.add_class("st-teacher-said")

        self.csv_button = w.Button(description="Prepare the CSV of the answers")
        self.csv_button.add_class("st-teacher-csv")
        self.csv_link = w.HTML()
        self.csv_link.add_class("st-teacher-csv-link")
        self.delete_button = w.Button(description="Delete this session's data…", button_style="danger")
        self.delete_button.add_class("st-teacher-delete")
        self.confirm = w.HTML()
        self.confirm_button = w.Button(description="Delete for good", button_style="danger")
        self.confirm_button.add_class("st-teacher-delete-confirm")
        self.cancel_button = w.Button(description="Keep it")
        self.cancel_button.add_class("st-teacher-delete-cancel")
        self.confirm_row = w.HBox([self.confirm, self.confirm_button, self.cancel_button])
        self.confirm_row.layout.display = "none"

        self._fill_choices()
        self._show_controls(self.state)
        self.lesson_pick.observe(guarded(self._pick_lesson), names="value")
        self.anonymous.observe(guarded(lambda c: self._do(self.teaching.set_anonymous, bool(c["new"]))), names="value")
        self.question_pick.observe(guarded(self._pick_question), names="value")
        self.reveal.observe(guarded(lambda c: self._do(self.teaching.set_reveal, bool(c["new"]))), names="value")
        self.limit_pick.observe(guarded(self._pick_limit), names="value")
        self.bring_button.on_click(guarded(lambda _b: self.bring(self.bring_pick.value)))
        self.pause.observe(guarded(lambda c: self.set_pause(bool(c["new"]), self.message.value)), names="value")
        self.snap.on_click(guarded(lambda _b: self.pin_snapshot()))
        self.unsnap.on_click(guarded(lambda _b: self._do(self.teaching.take_down_snapshot)))
        self.csv_button.on_click(guarded(lambda _b: self.make_csv()))
        self.delete_button.on_click(guarded(lambda _b: self.ask_delete()))
        self.confirm_button.on_click(guarded(lambda _b: self.delete()))
        self.cancel_button.on_click(guarded(lambda _b: self._cancel_delete()))

        def section(title: str, *children: w.Widget, cls: str) -> w.VBox:
            box = w.VBox([w.HTML(f"<h3>{title}</h3>"), *children])
            box.add_class("st-teacher-section")
            box.add_class(cls)
            return box

        room = section("The room", w.HBox([self.lesson_pick, self.anonymous]), self.grid, cls="st-teacher-room")
        answers = section(
            "The room's answers",
            w.HBox([self.question_pick, self.reveal]),
            self.bars,
            w.HBox([self.snap, self.unsnap]),
            self.snapshot,
            cls="st-teacher-answers",
        )
        pacing = section(
            "Pacing",
            self.limit_pick,
            w.HBox([self.bring_pick, self.bring_button]),
            w.HBox([self.message, self.pause]),
            self.said,
            cls="st-teacher-pacing",
        )
        data = section(
            "The session's data",
            w.HBox([self.csv_button, self.csv_link]),
            self.delete_button,
            self.confirm_row,
            cls="st-teacher-data",
        )
        columns = w.HBox([w.VBox([room, answers]), w.VBox([pacing, data])])
        columns.add_class("st-teacher-columns")
        self.body = w.VBox([columns])
        self.widget = w.VBox([self.heading, self.body])
        self.widget.add_class("st-teacher")
        # a quarter of a second: an answer is on the teacher's grid well within a second (one cheap query a look)
        self.poller = Poller(guarded(self.refresh), every_s=0.25)
        self.refresh(force=True)

    # --- reading the room ---------------------------------------------------------------------------

    @property
    def state(self) -> ClassState:
        return self.teaching.state

    @property
    def deleted(self) -> bool:
        return self.teaching.deleted

    def lesson_of(self, number: int | None) -> Any:
        return self.teaching.lesson_of(number)

    @property
    def lesson(self) -> Any:
        return self.teaching.lesson

    def question_step(self) -> int:
        """The step whose question's answers are shown: the teacher's pick, else the latest step answered."""
        return self.teaching.question_step()

    def start(self) -> None:
        """Start looking at the database every quarter second (once the page is shown)."""
        if not self.deleted:
            self.poller.start()

    def refresh(self, force: bool = False) -> None:
        """Redraw if anything of the session changed since the last look (one cheap query when nothing did)."""
        if self.deleted:
            return
        changes = self.store.changes(self.session_id)
        now = time.time()
        key = (changes, int(now // 30))  # "here now" fades: redrawn at least every 30 s
        if not force and key == self._last:
            return
        self._last = key
        self.teaching.reload()
        self._show_controls(self.state)
        self.draw(now)

    def draw(self, now: float | None = None) -> None:
        drawn = self.teaching.drawn(now)
        self.heading.value = drawn.heading
        self.grid.value = drawn.grid
        self.bars.value = drawn.bars
        self.snapshot.value = drawn.snapshot

    # --- the teacher's actions (each checked and rate-limited by :class:`Teaching`) -------------------

    def _do(self, action: Any, *args: Any) -> bool:
        """Apply ``action`` of :attr:`teaching`; whether it was applied (what was wrong said otherwise)."""
        if self._updating or self.deleted:
            return False
        try:
            action(*args)
        except TooFast as e:
            self.said.value = f'<p role="alert">{html.escape(str(e))}</p>'
            self._show_controls(self.state)
            return False
        except ValueError as e:
            self.said.value = f'<p role="alert">{html.escape(str(e))}</p>'
            return False
        self.refresh(force=True)
        return True

    def _act(self, **changes: Any) -> bool:
        """Apply a change of the pacing (rate-limited); whether it was applied."""
        return self._do(lambda: self.teaching.act(**changes))

    def _pick_lesson(self, change: Any) -> None:
        if self.lesson_of(change["new"]) is not None:
            self._do(self.teaching.pick_lesson, change["new"])

    def _pick_question(self, change: Any) -> None:
        if change["new"] is not None:
            self._do(self.teaching.pick_question, change["new"])

    def _pick_limit(self, change: Any) -> None:
        value = change["new"]
        self.set_limit(None if value == -1 else value)

    def set_limit(self, step: int | None) -> bool:
        """Learners may reach at most ``step`` (from 0) of the lesson taught; None: every step."""
        done = self._do(self.teaching.set_limit, step)
        if done:
            self.said.value = (
                "<p>Learners may reach every step.</p>"
                if step is None
                else f"<p>Learners may reach step {step + 1} at most.</p>"
            )
        return done

    def bring(self, step: Any) -> bool:
        """Bring every learner to ``step`` (from 0) of the lesson taught (a limit below it is raised to it)."""
        done = self._do(self.teaching.bring, step)
        if done:
            self.said.value = f"<p>Every learner was brought to step {step + 1}.</p>"
        return done

    def set_pause(self, paused: bool, message: str = "") -> bool:
        """Pause (or resume) every learner's screen, with ``message`` (checked: at most 200 characters)."""
        done = self._do(self.teaching.set_pause, paused, message)
        if done:
            text = self.state.message
            self.said.value = f"<p>Screens paused: “{html.escape(text)}”</p>" if paused else "<p>Screens resumed.</p>"
        return done

    def pin_snapshot(self) -> bool:
        """Pin the answers to the question shown, without names, for the room."""
        return self._do(self.teaching.pin_snapshot)

    def make_csv(self) -> str:
        """The session's answers as CSV, offered as a download."""
        text = self.teaching.csv()
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        rows = text.count("\n") - 1
        name = self.teaching.csv_name
        self.csv_link.value = (
            f'<a class="st-teacher-csv-download" download="{name}" href="data:text/csv;charset=utf-8;base64,{data}">'
            f"⬇ Download {name} ({rows} answer{'s' if rows != 1 else ''})</a>"
        )
        return text

    def ask_delete(self) -> None:
        self.confirm.value = (
            f'<p class="st-teacher-confirm" role="alert">{html.escape(self.teaching.delete_question())}</p>'
        )
        self.confirm_row.layout.display = None

    def _cancel_delete(self) -> None:
        self.confirm_row.layout.display = "none"
        self.confirm.value = ""

    def delete(self) -> int:
        """Delete the session's data (its learners, their answers, the pacing): what was asked, after the confirmation."""
        n = self.teaching.delete()
        self.poller.stop()
        self.body.children = [
            w.HTML(
                f'<div class="st-teacher-deleted" role="status"><p>This session\'s data is deleted ({n} answers). '
                "Start the class again for a new session.</p></div>"
            )
        ]
        return n

    # --- the controls, as the state says ---------------------------------------------------------------

    def _fill_choices(self) -> None:
        steps = len(self.lesson.steps)
        self._updating = True
        try:
            self.lesson_pick.value = self.lesson.number
            numbered = [(f"step {i + 1}", i) for i in range(steps)]
            self.question_pick.options = numbered
            self.bring_pick.options = numbered
            self.limit_pick.options = [("every step", -1), *numbered]
        finally:
            self._updating = False

    def _show_controls(self, state: ClassState) -> None:
        """The controls as the state is (another tab of the teacher's may have changed it)."""
        if self.lesson_pick.value != self.lesson.number or len(self.question_pick.options) != len(self.lesson.steps):
            self._fill_choices()
        self._updating = True
        try:
            self.anonymous.value = state.anonymous
            self.reveal.value = state.reveal
            self.reveal.description = "Hide the answer" if state.reveal else "Reveal the answer"
            self.pause.value = state.paused
            self.pause.description = "Resume every screen" if state.paused else "Pause every screen"
            self.limit_pick.value = -1 if state.step_limit is None else state.step_limit
            self.question_pick.value = self.question_step()
            if self.bring_pick.value is None:
                self.bring_pick.value = 0
        finally:
            self._updating = False
