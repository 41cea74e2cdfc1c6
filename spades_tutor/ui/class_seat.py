"""A learner's seat in a class session (``make class``): the nickname they join with, their answers and
steps sent to the class's database as they happen, and the teacher's pacing obeyed.

The class server tells each kernel where the class's database is and which session it serves
(:func:`ClassConfig.from_environment`); a kernel told nothing is not in a class and makes no seat.
The seat's token is kept in the learner's browser (``spades-tutor/class-seat/v1``), so a reload, or
the server restarted, rejoins the same seat with the same nickname and answers. A learner's kernel
writes its own seat's rows and reads only its own answers and the session's pacing: it has no way to
read another learner's answers or to change the pacing (that is :mod:`spades_tutor.ui.teacher_view`,
behind the teacher code).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import html
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as w
from sqlalchemy.exc import SQLAlchemyError

from ..session.class_store import (
    CLASS_DB_ENV,
    CLASS_SESSION_ENV,
    TEACHER_DIGEST_ENV,
    ClassState,
    ClassStore,
    Learner,
    RateLimit,
    check_nickname,
    clean_text,
)
from .errors import guarded, report
from .landmarks import live
from .storage import BrowserStore

if TYPE_CHECKING:
    from ..quiz import Feedback, QuizItem
    from .app import App

__all__ = ["SEAT_KEY", "ClassConfig", "ClassSeat", "Poller", "answer_text"]

SEAT_KEY = "spades-tutor/class-seat/v1"
#: how often a learner's kernel (and the teacher's) looks at the class's database
POLL_S = 0.5
#: what a learner's kernel writes at most: a burst, then so many a second (a page flooding clicks
#: fills no database: the rest is dropped, and said once)
ANSWERS_PER_S, ANSWERS_BURST = 2.0, 20
JOINS_PER_S, JOINS_BURST = 0.5, 5


@dataclasses.dataclass(frozen=True)
class ClassConfig:
    """Where a class's data is (a SQLAlchemy URL), the session served, and the teacher code's digest."""

    url: str
    session_id: int
    teacher_digest: str = ""

    @classmethod
    def from_environment(cls, env: dict[str, str] | None = None) -> ClassConfig | None:
        env = dict(os.environ) if env is None else env
        url, session = env.get(CLASS_DB_ENV, ""), env.get(CLASS_SESSION_ENV, "")
        if not url or not session.isdigit():
            return None
        return cls(url, int(session), env.get(TEACHER_DIGEST_ENV, ""))


_STORES: dict[str, ClassStore] = {}


def store_for(url: str) -> ClassStore:
    """One store (one connection pool) per database in this kernel."""
    if url not in _STORES:
        _STORES[url] = ClassStore(url)
    return _STORES[url]


class Poller:
    """Calls ``callback`` every ``every_s`` seconds on the kernel's event loop (none running: never;
    the tests call :meth:`tick` themselves). A failing call is reported once, and polling goes on."""

    def __init__(self, callback: Callable[[], None], every_s: float = POLL_S) -> None:
        self.callback = callback
        self.every_s = every_s
        self.task: asyncio.Task[None] | None = None
        self._failed = False

    def start(self) -> bool:
        if self.task is not None:
            return True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        self.task = loop.create_task(self._run())
        return True

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every_s)
            self.tick()

    def tick(self) -> None:
        try:
            self.callback()
            self._failed = False
        except Exception as exc:
            if not self._failed:
                report(exc)
            self._failed = True


def answer_text(response: Any) -> str:
    """An answer as the teacher view shows and groups it.

    >>> answer_text(("K♠", "3♥")), answer_text({"NS": (71, 1), "EW": 3}), answer_text("yes")
    ('K♠ 3♥', 'EW 3, NS 71/1', 'yes')
    """
    if isinstance(response, dict):
        parts = []
        for key in sorted(response, key=str):
            value = response[key]
            shown = "/".join(str(v) for v in value) if isinstance(value, tuple | list) else str(value)
            parts.append(f"{key} {shown}")
        return clean_text(", ".join(parts), 80)
    if isinstance(response, tuple | list | set | frozenset):
        return clean_text(" ".join(str(x) for x in response), 80)
    return clean_text("" if response is None else str(response), 80)


class ClassSeat:
    """The learner's side of a class: the join box, the seat, what is sent, the pacing obeyed."""

    def __init__(self, app: App, config: ClassConfig, store: ClassStore | None = None) -> None:
        self.app = app
        self.config = config
        self.store = store or store_for(config.url)
        self.session_id = config.session_id
        self.learner: Learner | None = None
        self.state = ClassState()
        self._seen_version = -1
        self._seen_bring: int | None = None
        self._pending: list[dict[str, Any]] = []  # answers given before joining: sent on joining
        self._answers = RateLimit(ANSWERS_PER_S, ANSWERS_BURST)
        self._joins = RateLimit(JOINS_PER_S, JOINS_BURST)
        self.dropped = 0
        self.closed = False
        self._offline = False  # the database did not answer the last call

        self.token_store = BrowserStore(key=SEAT_KEY)
        self.token_store.observe(guarded(self._token_loaded), names="loaded")
        self.name = w.Text(placeholder="A nickname (any name you like)", description="Nickname")
        self.name.add_class("st-class-name")
        self.join_button = w.Button(description="Join the class", button_style="primary")
        self.join_button.add_class("st-class-join")
        self.join_button.on_click(guarded(lambda _b: self.join(self.name.value)))
        self.said = live(w.HTML())
        self.form = w.HBox([self.name, self.join_button])
        self.form.add_class("st-class-form")
        self.banner = w.VBox([self.form, self.said])
        self.banner.add_class("st-class-banner")
        self.banner.layout.display = "none"  # until the browser has said whether it holds a seat
        self.overlay = w.HTML()
        self.overlay.add_class("st-class-pause")
        self.overlay.layout.display = "none"
        self.widget = w.VBox([self.token_store, self.banner, self.overlay])
        self.widget.add_class("st-class-seat")
        self.poller = Poller(guarded(self.poll))

    # --- joining ------------------------------------------------------------------------------------

    def _token_loaded(self, change: Any) -> None:
        if not change["new"] or self.closed:
            return
        learner = self._to_db(lambda: self.store.seat(self.session_id, self.token_store.value))
        if learner is not None:
            self._seated(learner, rejoined=True)
        else:
            self.banner.layout.display = None
            self.said.value = (
                '<p class="st-class-ask">You are in a class: choose a nickname to join it (your teacher sees it; '
                "no real name needed).</p>"
            )
        self.poller.start()
        self.poll()

    def join(self, nickname: str) -> Learner | None:
        """Take a seat with ``nickname`` (checked; a name taken gets a number); None if it cannot be."""
        if self.learner is not None:
            return self.learner
        if not self._joins.allow():
            self._say("Wait a moment before trying again.")
            return None
        try:
            name = check_nickname(nickname)
            learner = self.store.join(self.session_id, name)
        except ValueError as e:
            self._say(str(e))
            return None
        except SQLAlchemyError:
            self._say("The class cannot be joined just now: try again in a moment.")
            return None
        self.token_store.value = learner.seat
        self._seated(learner, rejoined=False)
        return learner

    def _seated(self, learner: Learner, rejoined: bool) -> None:
        self.learner = learner
        self.form.layout.display = "none"
        self.banner.layout.display = None
        word = "Welcome back" if rejoined else "Welcome"
        self.said.value = (
            f'<p class="st-class-seated">{word}, <b>{html.escape(learner.nickname)}</b>: '
            "your answers go to your teacher as you give them.</p>"
        )
        pending, self._pending = self._pending, []

        def send() -> None:
            for values in pending:
                self.store.record(self.session_id, learner.id, **values)

        self._to_db(send)
        self._send_place()

    def _say(self, text: str) -> None:
        self.banner.layout.display = None
        self.said.value = f'<p class="st-class-problem" role="alert">{html.escape(text)}</p>'

    # --- what is sent -------------------------------------------------------------------------------

    def answered(
        self, lesson: int, step: int, item: QuizItem, feedback: Feedback, attempt: int, given: Any = None
    ) -> None:
        """A graded answer to a lesson's question: to the class's database (within the rate)."""
        if not self._answers.allow():
            self.dropped += 1
            return
        values: dict[str, Any] = {
            "lesson": lesson,
            "step": step,
            "kind": item.kind,
            "item_key": str(item.key),
            "answer": answer_text(given) if given is not None else ("right" if feedback.correct else "wrong"),
            "right_answer": feedback.answer,
            "correct": feedback.correct,
            "attempt": attempt,
            "diagnosis": feedback.diagnosis,
        }
        if self.learner is None:
            if len(self._pending) < 50:
                self._pending.append(values)
            return
        if self._to_db(lambda: self.store.record(self.session_id, self.learner.id, **values)) == -1:  # type: ignore[union-attr]
            self._seat_gone()

    def _to_db(self, call: Callable[[], Any]) -> Any:
        """``call`` to the class's database; a database that does not answer costs the lesson nothing: the
        learner is told once that their answers do not reach the teacher just now, and goes on."""
        try:
            result = call()
        except SQLAlchemyError:
            if not self._offline:
                self._offline = True
                self._say(
                    "Your answers cannot reach your teacher just now; your lesson goes on, and your progress is kept in this browser."
                )
            return None
        if self._offline and self.learner is not None:
            self._offline = False
            self._seated(self.learner, rejoined=True)
        return result

    def _seat_gone(self) -> None:
        """The teacher deleted the session's data: this seat is no more (the learner's own progress stays)."""
        self.learner = None
        self._say(
            "Your teacher has ended this class session and deleted its answers; your progress is kept in this browser."
        )

    def reached(self) -> None:
        """The learner moved (a step, a lesson): where they are now goes to the teacher, and the pacing
        is applied to the lesson now open."""
        self._apply(self.state, moved=True)
        self._send_place()

    def _send_place(self) -> None:
        if self.learner is None:
            return
        player = self.app.learn.player if self.app.nav.value == "Learn" else None
        if player is not None:
            learner_id = self.learner.id
            self._to_db(lambda: self.store.reach(learner_id, player.lesson.number, player.step))

    # --- the pacing ---------------------------------------------------------------------------------

    def poll(self) -> None:
        """Look at the session's pacing (a cheap read) and apply what changed."""
        if self.closed:
            self.poller.stop()
            return
        state = self._to_db(lambda: self.store.state(self.session_id))
        if state is not None and state.version != self._seen_version:
            self._seen_version = state.version
            self._apply(state)

    def _apply(self, state: ClassState, moved: bool = False) -> None:
        self.state = state
        # paused: the whole page under a curtain with the teacher's message
        if state.paused:
            message = html.escape(state.message or "Eyes on your teacher.")
            self.overlay.value = (
                '<div class="st-class-curtain" role="alertdialog" aria-modal="true" aria-label="Paused by your teacher">'
                f'<div class="st-class-curtain-box"><h2>Paused by your teacher</h2><p>{message}</p></div></div>'
            )
            self.overlay.layout.display = None
        else:
            self.overlay.layout.display = "none"
            self.overlay.value = ""
        # brought to a step: once each time the teacher brings the class (not on joining late)
        if self._seen_bring is None:
            self._seen_bring = state.bring_count
        elif state.bring_count != self._seen_bring and not moved:
            self._seen_bring = state.bring_count
            if state.lesson is not None and state.bring_step is not None:
                self._bring(state.lesson, state.bring_step)
        # the step limit, in the lesson taught
        player = self.app.learn.player
        if player is not None:
            limit = state.step_limit if state.lesson == player.lesson.number else None
            player.set_limit(limit)

    def _bring(self, lesson_number: int, step: int) -> None:
        learn = self.app.learn
        lesson = next((x for x in learn.lessons if x.number == lesson_number), None)
        if lesson is None:
            return
        if learn.player is not None and learn.player.lesson.number == lesson_number:
            learn.player.go(step)
        else:
            learn.open(lesson, step)
        self.app.show("Learn")

    def close(self) -> None:
        """The seat given up (the link was the teacher's): nothing of it polls, listens or is sent again."""
        self.closed = True
        self.poller.stop()
        for widget in (self.token_store, self.name, self.join_button, self.said, self.overlay, self.form, self.banner):
            with contextlib.suppress(Exception):
                widget.close()
        with contextlib.suppress(Exception):
            self.widget.close()
