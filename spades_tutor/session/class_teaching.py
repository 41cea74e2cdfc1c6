"""The teacher's controls of a class session, shared by both teacher views: the single-server one
(:mod:`spades_tutor.ui.teacher_view`, widgets in the teacher's kernel) and the hub's service
(:mod:`spades_tutor.hub_teacher`, plain HTML behind JupyterHub's OAuth).

:class:`Teaching` is every action a teacher takes on a session, each checked (a lesson of the app, a
step of the lesson taught, a pause message's length and characters) and rate-limited, and what the
teacher's page draws of the room, as HTML (:meth:`Teaching.drawn`): the counts, the grid of learners
× steps, the room's answers to one step's question (the right one hidden until revealed, then "N of M
said X: <misconception>"), and the snapshot pinned for the room. Names are hidden in all of it when the
teacher hides them ("Learner 7"). Nothing of the widgets or of a server: both views are built on this.
"""

from __future__ import annotations

import dataclasses
import html
import json
import time
import unicodedata
from collections.abc import Sequence
from typing import Any

from .class_room import HERE_S, Question, grid, question
from .class_store import MESSAGE_MAX, ClassState, ClassStore, RateLimit, clean_text, snapshot_json

__all__ = [
    "ACTIONS_BURST",
    "ACTIONS_PER_S",
    "Drawn",
    "Teaching",
    "TooFast",
    "bars_html",
    "check_message",
    "grid_html",
    "snapshot_html",
]

#: a teacher's changes: a burst, then so many a second (a page flooding clicks changes the room no faster)
ACTIONS_PER_S, ACTIONS_BURST = 4.0, 12
_CELL = {"first": "✓", "second": "✓²", "missed": "✗", "": ""}


class TooFast(Exception):
    """More changes than the rate allows: this one is not applied."""

    def __init__(self) -> None:
        super().__init__("Too many changes at once: wait a moment.")


def check_message(text: object) -> str:
    """A pause message as a page sent it, checked: text of at most 200 characters, no control character
    (a new line or a tab is a space); ``ValueError`` saying what is wrong otherwise.

    >>> check_message("  Eyes on\\nthe board  ")
    'Eyes on the board'
    >>> check_message("x" * 201)
    Traceback (most recent call last):
    ...
    ValueError: A message has at most 200 characters.
    >>> check_message("a\\x00b")
    Traceback (most recent call last):
    ...
    ValueError: A message has no control characters.
    """
    if not isinstance(text, str):
        raise ValueError("A message is text.")
    if len(text) > MESSAGE_MAX:
        raise ValueError(f"A message has at most {MESSAGE_MAX} characters.")
    if any(unicodedata.category(ch).startswith("C") and ch not in "\n\t\r" for ch in text):
        raise ValueError("A message has no control characters.")
    return " ".join(text.split())


# --- what the teacher's page draws ------------------------------------------------------------------------


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


def snapshot_html(text: str) -> str:
    """The snapshot pinned for the room (answers and counts, never names); '' for none or a broken one."""
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


@dataclasses.dataclass(frozen=True)
class Drawn:
    """The teacher's page's parts as HTML, as the session is now."""

    heading: str
    grid: str
    bars: str
    snapshot: str
    step: int  # the step whose question's answers are shown (from 0)


# --- the teacher's actions --------------------------------------------------------------------------------


class Teaching:
    """A teacher's controls of session ``session_id`` of ``store``, the lessons being ``lessons``.

    Each action checks what it is given (``ValueError`` saying what is wrong, nothing changed), counts
    against ``rate`` (:class:`TooFast`, nothing changed) and returns the session's state after it. A
    session with no lesson taught yet (or one the app no longer has) is given the lesson most of its
    learners are in, else the first: the learners' kernels apply the pacing to the lesson taught only.
    """

    def __init__(
        self, store: ClassStore, session_id: int, lessons: Sequence[Any], rate: RateLimit | None = None
    ) -> None:
        self.store = store
        self.session_id = session_id
        self.lessons = list(lessons)
        self.rate = rate or RateLimit(ACTIONS_PER_S, ACTIONS_BURST)
        self.deleted = not store.session_exists(session_id)
        state = store.state(session_id)
        if not self.deleted and (state.lesson is None or self.lesson_of(state.lesson) is None):
            state = store.set_state(session_id, lesson=self._busiest_lesson())
        self.state: ClassState = state

    # --- reading the room ---------------------------------------------------------------------------

    def lesson_of(self, number: object) -> Any:
        return next((x for x in self.lessons if type(number) is int and x.number == number), None)

    @property
    def lesson(self) -> Any:
        return self.lesson_of(self.state.lesson) or self.lessons[0]

    @property
    def steps(self) -> int:
        return len(self.lesson.steps)

    def _busiest_lesson(self) -> int:
        where = [x.lesson for x in self.store.learners(self.session_id) if x.lesson is not None]
        where = [number for number in where if self.lesson_of(number) is not None]
        if where:
            return max(set(where), key=where.count)
        return int(self.lessons[0].number)

    def reload(self) -> ClassState:
        """The state as the database has it now (another tab of a teacher's may have changed it)."""
        self.state = self.store.state(self.session_id)
        return self.state

    def question_step(self, answers: Sequence[Any] | None = None) -> int:
        """The step whose question's answers are shown: the teacher's pick, else the latest step answered."""
        if self.state.question_step is not None:
            return self.state.question_step
        if answers is None:
            answers = self.store.answers(self.session_id, lesson=self.lesson.number)
        return max((a.step for a in answers), default=0)

    def step(self, value: object) -> int:
        """``value`` as a step (from 0) of the lesson taught; ``ValueError`` for anything else."""
        if type(value) is int and 0 <= value < self.steps:
            return value
        raise ValueError(f"Not a step of lesson {self.lesson.number}: it has steps 1 to {self.steps}.")

    def drawn(self, now: float | None = None) -> Drawn:
        """The counts, the grid, the room's answers and the snapshot, as HTML (names hidden if they are)."""
        now = time.time() if now is None else now
        state, lesson = self.state, self.lesson
        steps = len(lesson.steps)
        learners = self.store.learners(self.session_id)
        answers = self.store.answers(self.session_id, lesson=lesson.number)
        here = sum(1 for x in learners if x.lesson == lesson.number and now - x.seen <= HERE_S)
        heading = (
            f'<h2 class="st-lesson-title">Teacher view · lesson {lesson.number}: {html.escape(lesson.title)}</h2>'
            f'<p class="st-teacher-counts" role="status">{len(learners)} learner{"s" if len(learners) != 1 else ""}'
            f" joined · {here} in this lesson now · {len(answers)} answer{'s' if len(answers) != 1 else ''}"
            f"{' · screens paused' if state.paused else ''}</p>"
        )
        rows = grid(learners, answers, lesson.number, steps, now)
        step = self.question_step(answers)
        return Drawn(
            heading,
            grid_html(rows, steps, state.anonymous, state.step_limit),
            bars_html(question(answers, lesson.number, step), state.reveal, step),
            snapshot_html(state.snapshot),
            step,
        )

    # --- changing it --------------------------------------------------------------------------------

    def act(self, **changes: Any) -> ClassState:
        """Change the pacing (names of :class:`ClassState`), within the rate; the state after it."""
        self._allowed()
        self.state = self.store.set_state(self.session_id, **changes)
        return self.state

    def _allowed(self) -> None:
        if self.deleted:
            raise ValueError("This session's data is deleted.")
        if not self.rate.allow():
            raise TooFast()

    def pick_lesson(self, number: object) -> ClassState:
        """Teach lesson ``number``: its pacing starts free, its first question's answers hidden."""
        if self.lesson_of(number) is None:
            raise ValueError("Not a lesson of the app.")
        return self.act(lesson=number, step_limit=None, question_step=None, reveal=False, snapshot="")

    def pick_question(self, step: object) -> ClassState:
        """Show the answers to ``step``'s question (hidden again until revealed)."""
        return self.act(question_step=self.step(step), reveal=False)

    def set_reveal(self, reveal: bool) -> ClassState:
        return self.act(reveal=bool(reveal))

    def set_anonymous(self, anonymous: bool) -> ClassState:
        """Hide the learners' names ("Learner 7") everywhere the teacher's page shows them, or show them."""
        return self.act(anonymous=bool(anonymous))

    def set_limit(self, step: object) -> ClassState:
        """Learners may reach at most ``step`` (from 0) of the lesson taught; None: every step."""
        return self.act(step_limit=None if step is None else self.step(step))

    def bring(self, step: object) -> ClassState:
        """Bring every learner to ``step`` (from 0) of the lesson taught (a limit below it is raised to it)."""
        step = self.step(step)
        self._allowed()
        if self.state.step_limit is not None and self.state.step_limit < step:
            self.store.set_state(self.session_id, step_limit=step)
        self.state = self.store.bring(self.session_id, step)
        return self.state

    def set_pause(self, paused: bool, message: str = "") -> ClassState:
        """Pause (or resume) every learner's screen, with ``message`` (cleaned and cut to 200 characters;
        a page's message is checked first, :func:`check_message`)."""
        text = clean_text(message, MESSAGE_MAX) if paused else self.state.message
        return self.act(paused=bool(paused), message=text)

    def pin_snapshot(self, now: float | None = None) -> ClassState:
        """Pin the answers to the question shown, without names, for the room."""
        lesson = self.lesson
        answers = self.store.answers(self.session_id, lesson=lesson.number)
        step = self.question_step(answers)
        q = question(answers, lesson.number, step)
        if q is None:
            raise ValueError(f"No answer to step {step + 1}'s question yet: nothing to pin.")
        rows = json.loads(snapshot_json((bar.answer, bar.count, bar.correct) for bar in q.bars))
        at = time.strftime("%H:%M", time.localtime(now))
        return self.act(snapshot=json.dumps({"step": step, "at": at, "rows": rows}))

    def take_down_snapshot(self) -> ClassState:
        return self.act(snapshot="")

    # --- the session's data -------------------------------------------------------------------------

    @property
    def csv_name(self) -> str:
        return f"class-session-{self.session_id}.csv"

    def csv(self) -> str:
        """The session's answers as CSV, one row an answer (see :meth:`ClassStore.csv`)."""
        return self.store.csv(self.session_id)

    def delete_question(self) -> str:
        """What the teacher is asked before the session's data is deleted (counts, never names)."""
        learners = self.store.learners(self.session_id)
        answers = self.store.answers(self.session_id)
        return (
            f"Delete the {len(answers)} answer{'s' if len(answers) != 1 else ''} and the nicknames of "
            f"{len(learners)} learner{'s' if len(learners) != 1 else ''} of this session for good? "
            "Download the CSV first if you want to keep them."
        )

    def delete(self) -> int:
        """Delete the session's data (its learners, their answers, the pacing); how many answers were deleted."""
        n = self.store.delete_session(self.session_id)
        self.deleted = True
        self.state = ClassState()
        return n
