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

Every action is checked (a step in the lesson, a message's length and characters) and rate-limited.
Only a kernel opened with the teacher code builds this view (:mod:`spades_tutor.ui.pages.teacher`).
"""

from __future__ import annotations

import base64
import html
import json
import time
from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from ..session.class_room import Question, grid, question
from ..session.class_store import MESSAGE_MAX, ClassState, ClassStore, RateLimit, clean_text, snapshot_json
from .class_seat import ClassConfig, Poller, store_for
from .errors import guarded
from .landmarks import live

__all__ = ["TeacherView", "bars_html", "grid_html"]

ACTIONS_PER_S, ACTIONS_BURST = 4.0, 12
_CELL = {"first": "✓", "second": "✓²", "missed": "✗", "": ""}


def grid_html(rows: Sequence[tuple[Any, Sequence[Any]]], steps: int, anonymous: bool, limit: int | None) -> str:
    """The grid of learners × steps as a table (each cell said in words for a screen reader)."""
    if not rows:
        return (
            '<p class="st-teacher-empty">No learner has joined yet: they join with the class link and a nickname.</p>'
        )
    head = "".join(
        f'<th scope="col" class="{"st-limit-col" if limit is not None and step > limit else ""}">{step + 1}</th>'
        for step in range(steps)
    )
    body = []
    for learner, cells in rows:
        name = html.escape(learner.shown_name(anonymous))
        tds = []
        for step, cell in enumerate(cells):
            classes = f"st-cell st-cell-{cell.result or 'none'}{' st-cell-here' if cell.here else ''}"
            label = html.escape(f"{learner.shown_name(anonymous)}, step {step + 1}: {cell.label}")
            mark = _CELL[cell.result] or ("●" if cell.here else "")
            tds.append(f'<td class="{classes}" title="{label}"><span aria-hidden="true">{mark}</span>'
                       f'<span class="st-sr">{label}</span></td>')  # fmt: skip
        body.append(f'<tr><th scope="row" class="st-teacher-name">{name}</th>{"".join(tds)}</tr>')
    return (
        '<table class="st-teacher-grid"><caption class="st-sr">Each learner\'s answers, step by step</caption>'
        f'<thead><tr><th scope="col">Learner</th>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
        '<p class="st-teacher-legend">✓ right first try · ✓² right second try · ✗ missed · '
        '<span class="st-legend-here">ring</span>: here now</p>'
    )


def bars_html(q: Question | None, reveal: bool, step: int) -> str:
    """The room's answers to a step's question as bars (the right one marked only once revealed)."""
    if q is None:
        return f'<p class="st-teacher-empty">No answer to step {step + 1}\'s question yet.</p>'
    top = max(bar.count for bar in q.bars)
    rows = []
    for bar in q.bars:
        width = max(4, round(100 * bar.count / top))
        state = ("right" if bar.correct else "wrong") if reveal else "hidden"
        mark = " ✓ right answer" if reveal and bar.correct else ""
        rows.append(
            f'<div class="st-bar-row st-bar-{state}"><span class="st-bar-label">{html.escape(bar.answer)}{mark}</span>'
            f'<span class="st-bar-track"><span class="st-bar" style="width:{width}%"></span></span>'
            f'<span class="st-bar-count">{bar.count}</span></div>'
        )
    said = [
        f'<p class="st-teacher-total">{q.total} answer{"s" if q.total != 1 else ""} to step {step + 1}\'s question</p>'
    ]
    if reveal:
        said.append(f'<p class="st-teacher-right">The answer: <b>{html.escape(q.right)}</b></p>')
        if q.line:
            said.append(f'<p class="st-teacher-misconception">{html.escape(q.line)}</p>')
    else:
        said.append('<p class="st-teacher-hidden">The right answer is hidden until you reveal it.</p>')
    return f'<div class="st-bars" role="img" aria-label="{html.escape(_bars_words(q, reveal))}">{"".join(rows)}</div>{"".join(said)}'


def _bars_words(q: Question, reveal: bool) -> str:
    parts = [f"{bar.answer}: {bar.count}{' (right)' if reveal and bar.correct else ''}" for bar in q.bars]
    return "The room's answers: " + "; ".join(parts)


class TeacherView:
    """The teacher view of the class session in ``config`` (see the module's docstring)."""

    def __init__(self, config: ClassConfig, lessons: Sequence[Any], store: ClassStore | None = None) -> None:
        self.config = config
        self.store = store or store_for(config.url)
        self.session_id = config.session_id
        self.lessons = list(lessons)
        self.deleted = False
        self._last: tuple[Any, ...] | None = None
        self._actions = RateLimit(ACTIONS_PER_S, ACTIONS_BURST)
        self._updating = False
        state = self.store.state(self.session_id)
        if state.lesson is None or self.lesson_of(state.lesson) is None:
            first = self._busiest_lesson()
            state = self.store.set_state(self.session_id, lesson=first)
        self.state: ClassState = state

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
        self.anonymous.observe(guarded(lambda c: self._act(anonymous=bool(c["new"]))), names="value")
        self.question_pick.observe(guarded(self._pick_question), names="value")
        self.reveal.observe(guarded(lambda c: self._act(reveal=bool(c["new"]))), names="value")
        self.limit_pick.observe(guarded(self._pick_limit), names="value")
        self.bring_button.on_click(guarded(lambda _b: self.bring(self.bring_pick.value)))
        self.pause.observe(guarded(lambda c: self.set_pause(bool(c["new"]), self.message.value)), names="value")
        self.snap.on_click(guarded(lambda _b: self.pin_snapshot()))
        self.unsnap.on_click(guarded(lambda _b: self._act(snapshot="")))
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

    def lesson_of(self, number: int | None) -> Any:
        return next((x for x in self.lessons if x.number == number), None)

    @property
    def lesson(self) -> Any:
        return self.lesson_of(self.state.lesson) or self.lessons[0]

    def question_step(self, answers: Sequence[Any] | None = None) -> int:
        """The step whose question's answers are shown: the teacher's pick, else the latest step answered."""
        if self.state.question_step is not None:
            return self.state.question_step
        if answers is None:
            answers = self.store.answers(self.session_id, lesson=self.lesson.number)
        return max((a.step for a in answers), default=0)

    def _busiest_lesson(self) -> int:
        where = [x.lesson for x in self.store.learners(self.session_id) if x.lesson is not None]
        if where:
            return max(set(where), key=where.count)
        return int(self.lessons[0].number)

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
        self.state = self.store.state(self.session_id)
        self._show_controls(self.state)
        self.draw(now)

    def draw(self, now: float | None = None) -> None:
        now = time.time() if now is None else now
        state, lesson = self.state, self.lesson
        steps = len(lesson.steps)
        learners = self.store.learners(self.session_id)
        answers = self.store.answers(self.session_id, lesson=lesson.number)
        here = sum(1 for x in learners if x.lesson == lesson.number and now - x.seen <= 120)
        self.heading.value = (
            f'<h2 class="st-lesson-title">Teacher view · lesson {lesson.number}: {html.escape(lesson.title)}</h2>'
            f'<p class="st-teacher-counts" role="status">{len(learners)} learner{"s" if len(learners) != 1 else ""}'
            f" joined · {here} in this lesson now · {len(answers)} answer{'s' if len(answers) != 1 else ''}"
            f"{' · screens paused' if state.paused else ''}</p>"
        )
        self.grid.value = grid_html(grid(learners, answers, lesson.number, steps, now), steps, state.anonymous,
                                    state.step_limit)  # fmt: skip
        step = self.question_step(answers)
        self.bars.value = bars_html(question(answers, lesson.number, step), state.reveal, step)
        self.snapshot.value = _snapshot_html(state.snapshot)

    # --- the teacher's actions ----------------------------------------------------------------------

    def _act(self, **changes: Any) -> bool:
        """Apply a change of the pacing (rate-limited); whether it was applied."""
        if self._updating or self.deleted:
            return False
        if not self._actions.allow():
            self.said.value = '<p role="alert">Too many changes at once: wait a moment.</p>'
            self._show_controls(self.state)
            return False
        self.state = self.store.set_state(self.session_id, **changes)
        self.refresh(force=True)
        return True

    def _pick_lesson(self, change: Any) -> None:
        if self.lesson_of(change["new"]) is not None:
            self._act(lesson=change["new"], step_limit=None, question_step=None, reveal=False, snapshot="")

    def _pick_question(self, change: Any) -> None:
        step = self._step(change["new"])
        if step is not None:
            self._act(question_step=step, reveal=False)

    def _pick_limit(self, change: Any) -> None:
        value = change["new"]
        self.set_limit(None if value == -1 else value)

    def _step(self, value: Any) -> int | None:
        """A step of the lesson taught (from 0), or None for anything else."""
        if type(value) is int and 0 <= value < len(self.lesson.steps):
            return value
        return None

    def set_limit(self, step: int | None) -> bool:
        """Learners may reach at most ``step`` (from 0) of the lesson taught; None: every step."""
        if step is not None and self._step(step) is None:
            return False
        done = self._act(step_limit=step)
        if done:
            self.said.value = (
                "<p>Learners may reach every step.</p>"
                if step is None
                else f"<p>Learners may reach step {step + 1} at most.</p>"
            )
        return done

    def bring(self, step: Any) -> bool:
        """Bring every learner to ``step`` (from 0) of the lesson taught (a limit below it is raised to it)."""
        step = self._step(step)
        if step is None or self.deleted or not self._actions.allow():
            return False
        if self.state.step_limit is not None and self.state.step_limit < step:
            self.store.set_state(self.session_id, step_limit=step)
        self.state = self.store.bring(self.session_id, step)
        self.said.value = f"<p>Every learner was brought to step {step + 1}.</p>"
        self.refresh(force=True)
        return True

    def set_pause(self, paused: bool, message: str = "") -> bool:
        """Pause (or resume) every learner's screen, with ``message`` (checked: at most 200 characters)."""
        text = clean_text(message, MESSAGE_MAX) if paused else self.state.message
        done = self._act(paused=paused, message=text)
        if done:
            self.said.value = f"<p>Screens paused: “{html.escape(text)}”</p>" if paused else "<p>Screens resumed.</p>"
        return done

    def pin_snapshot(self) -> bool:
        """Pin the answers to the question shown, without names, for the room."""
        lesson = self.lesson
        answers = self.store.answers(self.session_id, lesson=lesson.number)
        step = self.question_step(answers)
        q = question(answers, lesson.number, step)
        if q is None:
            return False
        rows = [(bar.answer, bar.count, bar.correct) for bar in q.bars]
        return self._act(
            snapshot=json.dumps({"step": step, "at": time.strftime("%H:%M"), "rows": json.loads(snapshot_json(rows))})
        )

    def make_csv(self) -> str:
        """The session's answers as CSV, offered as a download."""
        text = self.store.csv(self.session_id)
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        rows = text.count("\n") - 1
        name = f"class-session-{self.session_id}.csv"
        self.csv_link.value = (
            f'<a class="st-teacher-csv-download" download="{name}" href="data:text/csv;charset=utf-8;base64,{data}">'
            f"⬇ Download {name} ({rows} answer{'s' if rows != 1 else ''})</a>"
        )
        return text

    def ask_delete(self) -> None:
        learners = self.store.learners(self.session_id)
        answers = self.store.answers(self.session_id)
        self.confirm.value = (
            f'<p class="st-teacher-confirm" role="alert">Delete the {len(answers)} answers and the nicknames of '
            f"{len(learners)} learners of this session for good? Download the CSV first if you want to keep them.</p>"
        )
        self.confirm_row.layout.display = None

    def _cancel_delete(self) -> None:
        self.confirm_row.layout.display = "none"
        self.confirm.value = ""

    def delete(self) -> int:
        """Delete the session's data (its learners, their answers, the pacing): what was asked, after the confirmation."""
        n = self.store.delete_session(self.session_id)
        self.deleted = True
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


def _snapshot_html(text: str) -> str:
    if not text:
        return ""
    try:
        data = json.loads(text)
        rows = [(str(r["answer"]), int(r["count"]), bool(r["correct"])) for r in data["rows"]]
        step, at = int(data["step"]), str(data["at"])
    except (ValueError, KeyError, TypeError):
        return ""
    items = "".join(f"<li>{html.escape(a)}: {n}</li>" for a, n, _c in rows)
    return (
        f'<div class="st-teacher-pinned" role="region" aria-label="Snapshot for the room">'
        f"<h4>Snapshot of step {step + 1}'s answers ({html.escape(at)})</h4><ul>{items}</ul></div>"
    )
