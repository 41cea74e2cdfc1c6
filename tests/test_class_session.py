"""A class session: its database (SQLite in WAL, a restart losing nothing, writers at once), the
learners' seats, the teacher view (grid, the room's answers, reveal, misconception, pacing, anonymous,
CSV, deletion), and what a learner cannot do (read others' answers, open the teacher view, pace)."""

from __future__ import annotations

import csv
import io
import multiprocessing
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_quiz_kinds import answer_through_the_view  # the engine's answer, entered through the view

from spades_tutor.lessons import load_lessons
from spades_tutor.session.class_room import grid, question
from spades_tutor.session.class_store import (
    CLASS_DB_ENV,
    CLASS_SESSION_ENV,
    TEACHER_DIGEST_ENV,
    ClassStore,
    check_nickname,
    default_url,
    teacher_digest,
)
from spades_tutor.ui import errors
from spades_tutor.ui.app import App
from spades_tutor.ui.class_seat import ClassConfig
from spades_tutor.ui.pages.teacher import TeacherTab
from spades_tutor.ui.teacher_view import TeacherView

TEACHER_CODE = "TCH7QX"
LESSONS = load_lessons()


def quiz_step(lesson: Any) -> int:
    """The first step of ``lesson`` that asks a question."""
    return next(i for i, step in enumerate(lesson.steps) if any(b.kind == "quiz" for b in step.blocks))


# a lesson whose first question comes after a step without one (so a limit can stop learners before it)
LESSON = next(x for x in LESSONS if quiz_step(x) >= 1 and len(x.steps) >= 3)
QUIZ_STEP = quiz_step(LESSON)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ClassStore]:
    s = ClassStore(default_url(tmp_path / "class-data"))
    yield s
    s.close()


@pytest.fixture
def classroom(store: ClassStore, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[ClassStore, int, list[App]]]:
    """A class session whose kernels (Apps built here) are told of it as the class server tells them."""
    session = store.start_session()
    monkeypatch.setenv(CLASS_DB_ENV, store.url)
    monkeypatch.setenv(CLASS_SESSION_ENV, str(session))
    monkeypatch.setenv(TEACHER_DIGEST_ENV, teacher_digest(TEACHER_CODE))
    apps: list[App] = []
    yield store, session, apps
    for app in apps:
        errors.remove_sink(app.show_error)
        if app.class_seat is not None:
            app.class_seat.close()


def learner(apps: list[App], query: str = "", token: str = "") -> App:
    app = App(query=query)
    apps.append(app)
    assert app.class_seat is not None
    app.class_seat.token_store.value = token
    app.class_seat.token_store.loaded = True  # the browser has said what it keeps
    return app


def teacher(apps: list[App], code: str = TEACHER_CODE) -> App:
    app = App(query=f"teacher={code}")
    apps.append(app)
    return app


def view_of(app: App) -> TeacherView:
    view = app.get_page(TeacherTab).view
    assert view is not None
    return view


# --- the store ---------------------------------------------------------------------------------------


def test_the_store_is_sqlite_in_wal_and_a_restart_keeps_everything(tmp_path: Path) -> None:
    url = default_url(tmp_path / "class-data")
    assert (tmp_path / "class-data").is_dir()
    first = ClassStore(url)
    assert first.journal_mode() == "wal"
    session = first.start_session()
    ada = first.join(session, "Ada")
    first.reach(ada.id, 3, 1)
    first.record(session, ada.id, lesson=3, step=1, kind="trick-winner", item_key="k", answer="E", right_answer="W",
                 correct=False, attempt=1, diagnosis="The jokers swapped.")  # fmt: skip
    first.set_state(session, paused=True, message="Eyes up")
    first.close()
    again = ClassStore(url)  # the server restarted: a new store on the same file
    assert again.latest_session() == session
    assert again.seat(session, ada.seat) == again.learners(session)[0]
    assert again.learners(session)[0].step == 1
    (kept,) = again.answers(session)
    assert (kept.answer, kept.right_answer, kept.correct, kept.diagnosis) == ("E", "W", False, "The jokers swapped.")
    state = again.state(session)
    assert state.paused and state.message == "Eyes up"
    again.close()


def _write_answers(url: str, session: int, learner_id: int, n: int) -> None:
    s = ClassStore(url)
    for i in range(n):
        s.record(session, learner_id, lesson=1, step=0, kind="k", item_key=str(i), answer="a", right_answer="a",
                 correct=True, attempt=1)  # fmt: skip
    s.close()


def test_writers_in_two_processes_and_two_threads_lose_no_answer(store: ClassStore) -> None:
    session = store.start_session()
    seats = [store.join(session, f"Learner{i}").id for i in range(4)]
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_write_answers, args=(store.url, session, seats[i], 40)) for i in range(2)]
    threads = [threading.Thread(target=_write_answers, args=(store.url, session, seats[i], 40)) for i in (2, 3)]
    for p in procs:
        p.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    answers = store.answers(session)
    assert len(answers) == 160 and {a.learner for a in answers} == set(seats)


def test_nicknames_are_checked_and_a_taken_one_gets_a_number(store: ClassStore) -> None:
    session = store.start_session()
    assert store.join(session, " Sam ").nickname == "Sam"
    assert store.join(session, "sam").nickname == "sam 2"
    assert store.join(session, "S" * 24).nickname == "S" * 24
    assert len(store.join(session, "S" * 24).nickname) == 24
    for bad in ["", "   ", "x" * 25, "<b>", "a\u0000b", "a\u202eb", "Robert'); DROP TABLE--;"]:
        with pytest.raises(ValueError):
            check_nickname(bad)
    assert [x.number for x in store.learners(session)] == [1, 2, 3, 4]


def test_a_seat_token_from_the_browser_is_checked(store: ClassStore) -> None:
    session, other = store.start_session(), store.start_session()
    ada = store.join(session, "Ada")
    assert store.seat(session, ada.seat) is not None
    assert store.seat(other, ada.seat) is None  # another session's seat is not this one's
    for forged in ["", "x" * 32, ada.seat.upper(), ada.seat + "0", "' OR 1=1 --", 12, None]:
        assert store.seat(session, forged) is None


def test_answers_are_cut_and_cleaned_and_the_csv_is_one_row_an_answer(store: ClassStore) -> None:
    session = store.start_session()
    ada, bo = store.join(session, "Ada"), store.join(session, "-Bo")
    store.record(session, ada.id, lesson=2, step=0, kind="k", item_key="q", answer="x\x00" + "y" * 500,
                 right_answer="W", correct=False, attempt=1)  # fmt: skip
    store.record(session, bo.id, lesson=2, step=1, kind="k", item_key="q", answer="=1+1", right_answer="W",
                 correct=True, attempt=2)  # fmt: skip
    first = store.answers(session)[0]
    assert len(first.answer) == 80 and "\x00" not in first.answer
    rows = list(csv.reader(io.StringIO(store.csv(session))))
    assert rows[0][:3] == ["time", "learner", "nickname"] and len(rows) == 3
    assert rows[2][2] == "'-Bo" and rows[2][7] == "'=1+1"  # no formula reaches a spreadsheet
    assert rows[2][4] == "2" and rows[2][9] == "yes" and rows[2][10] == "2"


def test_deleting_a_session_deletes_its_data_and_no_other(store: ClassStore) -> None:
    session, other = store.start_session(), store.start_session()
    for s in (session, other):
        x = store.join(s, "Ada")
        store.record(s, x.id, lesson=1, step=0, kind="k", item_key="q", answer="a", right_answer="a", correct=True,
                     attempt=1)  # fmt: skip
    assert store.delete_session(session) == 1
    assert store.answers(session) == [] and store.learners(session) == [] and not store.session_exists(session)
    assert len(store.answers(other)) == 1
    with pytest.raises(ValueError):
        store.join(session, "Late")  # the session has ended: no seat in it


# --- the room, as data --------------------------------------------------------------------------------


def test_the_grid_and_the_question_read_first_answers_and_where_learners_are(store: ClassStore) -> None:
    session = store.start_session()
    names = ["Ada", "Bo", "Cy"]
    seats = [store.join(session, n, now=100.0) for n in names]
    said = [("W", True, 1, ""), ("E", False, 1, "The jokers swapped."), ("W", True, 2, "")]
    for seat, (answer, correct, attempt, diagnosis) in zip(seats, said, strict=True):
        store.record(session, seat.id, lesson=3, step=1, kind="trick-winner", item_key="q", answer=answer,
                     right_answer="W", correct=correct, attempt=attempt, diagnosis=diagnosis, now=101.0)  # fmt: skip
    store.reach(seats[0].id, 3, 2, now=102.0)
    rows = grid(store.learners(session), store.answers(session), 3, 4, now=110.0)
    assert [[c.result for c in cells] for _, cells in rows] == [
        ["", "first", "", ""],
        ["", "missed", "", ""],
        ["", "second", "", ""],
    ]
    assert rows[0][1][2].here and not rows[1][1][1].here
    q = question(store.answers(session), 3, 1)
    assert q is not None and q.total == 3 and q.right == "W"
    assert q.line == "1 of 3 said E: The jokers swapped."


# --- the learners' seats, the teacher view --------------------------------------------------------------


def test_learners_join_answer_and_the_teacher_sees_it(classroom: tuple[ClassStore, int, list[App]]) -> None:
    store, session, apps = classroom
    ada = learner(apps, f"lesson={LESSON.number}&step={QUIZ_STEP + 1}")
    seat = ada.class_seat
    assert seat is not None and seat.learner is None and seat.banner.layout.display is None  # asked a nickname
    assert seat.join("Ada") is not None and seat.token_store.value == seat.learner.seat  # type: ignore[union-attr]
    player = ada.learn.player
    assert player is not None and player.step == QUIZ_STEP
    view = player.quizzes[0]
    answer_through_the_view(view)
    view.check_button.click()
    (answer,) = store.answers(session)
    assert answer.correct and answer.step == QUIZ_STEP and answer.lesson == LESSON.number and answer.answer
    assert store.learners(session)[0].step == QUIZ_STEP

    boss = teacher(apps)
    assert boss.teacher and boss.nav.value == "Teacher" and boss.class_seat is None  # the teacher takes no seat
    tv = view_of(boss)
    tv._act(lesson=LESSON.number)
    assert "Ada" in tv.grid.value and "st-cell-first" in tv.grid.value and "st-cell-here" in tv.grid.value
    assert "1 answer to step" in tv.bars.value and "hidden until you reveal" in tv.bars.value
    assert "✓ right answer" not in tv.bars.value and "st-bar-right" not in tv.bars.value

    # a second learner answers wrong: the teacher's next look (every half second) shows it
    bo = learner(apps, f"lesson={LESSON.number}&step={QUIZ_STEP + 1}")
    assert bo.class_seat is not None and bo.class_seat.join("Bo")
    bo_view = bo.learn.player.quizzes[0]  # type: ignore[union-attr]
    assert bo_view.item.key == view.item.key, "in a class every learner is asked the same question"
    wrong_answer(bo_view)
    tv.refresh()
    assert "Bo" in tv.grid.value and "st-cell-missed" in tv.grid.value
    tv.reveal.value = True
    assert "✓ right answer" in tv.bars.value and "The answer:" in tv.bars.value
    if bo_view.feedback is not None and bo_view.feedback.diagnosis:
        assert f"1 of 2 said {store.answers(session)[1].answer}: {bo_view.feedback.diagnosis}" in tv.bars.value

    # names hidden for the projector; a snapshot pinned shows answers, never names
    tv.anonymous.value = True
    assert "Ada" not in tv.grid.value and "Learner 1" in tv.grid.value and "Learner 2" in tv.grid.value
    assert tv.pin_snapshot() and "Snapshot of step" in tv.snapshot.value and "Ada" not in tv.snapshot.value

    # the CSV, one row an answer; then the session deleted, after the confirmation
    rows = list(csv.reader(io.StringIO(tv.make_csv())))
    assert len(rows) == 3 and "download=" in tv.csv_link.value
    tv.delete_button.click()
    assert tv.confirm_row.layout.display is None and "for good" in tv.confirm.value
    assert store.answers(session)  # nothing deleted before the confirmation
    tv.confirm_button.click()
    assert store.answers(session) == [] and store.learners(session) == [] and tv.deleted


def wrong_answer(view: Any) -> None:
    """A wrong answer entered through the view: another of its choices than the engine's."""
    answer_through_the_view(view)
    assert view._choice is not None, "the lesson's first question is a choice"
    right = view._choice.value
    wrong = [o for o in view._choice.options if o != right]
    view._choice.value = wrong[0]
    view.check_button.click()
    if view.retrying:  # a second try (the learner's settings give one): wrong again
        view._choice.value = wrong[1]
        view.check_button.click()
    assert view.feedback is not None and not view.feedback.correct


def test_a_preheated_kernel_opened_by_the_teacher_gives_up_its_seat(
    classroom: tuple[ClassStore, int, list[App]],
) -> None:
    apps = classroom[2]
    app = App()  # a preheated kernel builds the app before its link arrives: a learner's seat, for now
    apps.append(app)
    seat = app.class_seat
    assert seat is not None
    app.open_link(f"teacher={TEACHER_CODE}")
    assert app.class_seat is None and app.teacher and app.class_slot.children == ()
    seat.token_store.loaded = True  # the page's storage model still answering: the seat does nothing
    assert seat.closed and seat.poller.task is None
    view_of(app).bring(1)
    seat.poll()
    assert app.nav.value == "Teacher"  # never moved to a lesson by its own bringing


def test_a_reload_rejoins_the_seat(classroom: tuple[ClassStore, int, list[App]]) -> None:
    store, session, apps = classroom
    first = learner(apps)
    assert first.class_seat is not None
    seat = first.class_seat.join("Ada")
    assert seat is not None
    again = learner(apps, token=seat.seat)  # the page reloaded (or the server restarted): its browser kept the token
    assert again.class_seat is not None and again.class_seat.learner == store.seat(session, seat.seat)
    assert again.class_seat.form.layout.display == "none" and "Welcome back" in again.class_seat.said.value
    assert len(store.learners(session)) == 1


def test_pacing_stops_brings_and_pauses_the_learners(classroom: tuple[ClassStore, int, list[App]]) -> None:
    store, session, apps = classroom
    ada = learner(apps, f"lesson={LESSON.number}")
    seat = ada.class_seat
    assert seat is not None and seat.join("Ada")
    tv = view_of(teacher(apps))
    tv._act(lesson=LESSON.number)
    tv.limit_pick.value = 0  # learners may reach step 1 only
    assert store.state(session).step_limit == 0
    seat.poll()
    player = ada.learn.player
    assert player is not None and player.step == 0
    assert player.next.disabled and "wait here" in player.gate.value
    player.next.click()  # a click the page sends anyway: nothing moves
    assert player.step == 0

    tv.bring_pick.value = 2
    tv.bring_button.click()  # brought to step 3 (the limit raised to it)
    seat.poll()
    assert player.step == 2 and store.state(session).step_limit == 2
    assert store.learners(session)[0].step == 2  # where the learner is goes to the teacher

    tv.message.value = "Pencils down <b>now</b>"
    tv.pause.value = True
    seat.poll()
    assert seat.overlay.layout.display is None and "Pencils down &lt;b&gt;now&lt;/b&gt;" in seat.overlay.value
    tv.pause.value = False
    seat.poll()
    assert seat.overlay.layout.display == "none"
    tv.limit_pick.value = -1
    seat.poll()
    assert player.limit is None and not player.next.disabled


def test_a_learner_cannot_open_the_teacher_view_read_others_answers_or_pace(
    classroom: tuple[ClassStore, int, list[App]],
) -> None:
    store, session, apps = classroom
    other = store.join(session, "Other")
    store.record(session, other.id, lesson=1, step=0, kind="k", item_key="q", answer="secret", right_answer="a",
                 correct=False, attempt=1)  # fmt: skip
    for code in ["WRONG1", "", TEACHER_CODE.lower() + "X", "x" * 100]:
        app = teacher(apps, code) if code else learner(apps, "page=teacher")
        page = app.get_page(TeacherTab)
        assert page.view is None and not app.teacher
        assert "for the class's teacher" in page.widget.value and "secret" not in page.widget.value
    assert "Teacher" not in learner(apps).nav.options  # no tab for it
    ada = learner(apps)
    seat = ada.class_seat
    assert seat is not None and seat.join("Ada")
    # a learner's kernel reads its own answers and the pacing only; it has no way to change the pacing
    assert store.own_answers(session, seat.learner.id) == []  # type: ignore[union-attr]
    assert not any(hasattr(seat, name) for name in ("set_state", "bring", "set_limit", "set_pause", "delete", "csv"))
    # the teacher code matches only in a class (a kernel told the code's digest)
    assert ClassConfig.from_environment({}) is None


def test_teacher_actions_are_checked_and_rate_limited(classroom: tuple[ClassStore, int, list[App]]) -> None:
    store, session, apps = classroom
    tv = view_of(teacher(apps))
    assert not tv.bring(99) and not tv.bring(-1) and not tv.bring("2") and not tv.set_limit(999)
    tv.set_pause(True, "x\x00y" + "z" * 500)
    state = store.state(session)
    assert state.paused and len(state.message) == 200 and "\x00" not in state.message
    results = [tv.set_limit(i % 2) for i in range(40)]
    assert not all(results) and "Too many changes" in tv.said.value


def test_the_server_checks_the_teacher_code_with_the_class_code_s_limits_on_guessing() -> None:
    from spades_tutor.server import CODE_TRIES_BURST, Guard

    guard = Guard(allowed_hosts=[], allow_local_addresses=False, class_code="ROOM42", kernels_per_client=3,
                  max_kernels=8, teacher_code=TEACHER_CODE)  # fmt: skip
    assert guard.teacher_code_matches(TEACHER_CODE.lower()) and guard.teacher_code_matches("tch-7qx")
    assert not guard.teacher_code_matches("ROOM42") and not guard.teacher_code_matches("")
    no_teacher = Guard(allowed_hosts=[], allow_local_addresses=False, class_code="ROOM42", kernels_per_client=3,
                       max_kernels=8)  # fmt: skip
    assert not no_teacher.teacher_code_matches("")  # a server without a teacher code opens no teacher view
    for _ in range(CODE_TRIES_BURST):  # wrong teacher codes spend the same tries as wrong class codes
        assert guard.code_try_wait("10.0.0.9", now=0.0) == 0
        guard.wrong_code("10.0.0.9", now=0.0)
    assert guard.code_try_wait("10.0.0.9", now=0.0) > 0 and guard.code_try_wait("10.0.0.10", now=0.0) == 0


def test_a_page_flooding_answers_or_joins_fills_no_database(classroom: tuple[ClassStore, int, list[App]]) -> None:
    store, session, apps = classroom
    ada = learner(apps, f"lesson={LESSON.number}&step={QUIZ_STEP + 1}")
    seat = ada.class_seat
    assert seat is not None and seat.join("Ada")
    view = ada.learn.player.quizzes[0]  # type: ignore[union-attr]
    answer_through_the_view(view)
    view.check_button.click()
    assert view.feedback is not None
    for _ in range(200):  # what a page sending clicks as fast as it can would make the kernel record
        seat.answered(LESSON.number, QUIZ_STEP, view.item, view.feedback, 1, "North")
    kept = len(store.answers(session))
    assert kept <= 22 and seat.dropped >= 178  # a burst of 20 (and what came back meanwhile), the rest dropped
    bo = learner(apps)
    assert bo.class_seat is not None
    for i in range(10):  # wrong nicknames, again and again: a few are looked at, then "wait a moment"
        bo.class_seat.join(f"<{i}>")
    assert "Wait a moment" in bo.class_seat.said.value and len(store.learners(session)) == 1


def test_a_deleted_session_or_a_silent_database_never_stops_a_lesson(
    classroom: tuple[ClassStore, int, list[App]], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlalchemy as sa

    store, session, apps = classroom
    ada = learner(apps, f"lesson={LESSON.number}&step={QUIZ_STEP + 1}")
    seat = ada.class_seat
    assert seat is not None and seat.join("Ada")

    def silent(*_a: Any, **_k: Any) -> Any:
        raise sa.exc.OperationalError("INSERT", {}, Exception("database is locked"))

    monkeypatch.setattr(seat.store, "record", silent)
    monkeypatch.setattr(seat.store, "state", silent)
    view = ada.learn.player.quizzes[0]  # type: ignore[union-attr]
    answer_through_the_view(view)
    view.check_button.click()  # answered: the database does not answer, the lesson goes on
    seat.poll()
    assert view.feedback is not None and not ada.error.children
    assert "cannot reach your teacher just now" in seat.said.value
    monkeypatch.undo()
    seat.poll()
    store.delete_session(session)  # the teacher deleted the session's data
    ada.learn.player.render()  # type: ignore[union-attr]  # the step's question drawn anew
    again = ada.learn.player.quizzes[0]  # type: ignore[union-attr]
    answer_through_the_view(again)
    again.check_button.click()
    assert seat.learner is None and "ended this class session" in seat.said.value and not ada.error.children
    assert store.answers(session) == []


def test_make_class_prints_the_teacher_link_and_hands_the_server_its_class(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    from spades_tutor import cli
    from spades_tutor.server import COOKIE_SECRET_ENV, TEACHER_CODE_ENV

    started: list[dict[str, str]] = []
    monkeypatch.setattr(os, "execve", lambda _path, _cmd, env: started.append(env))
    monkeypatch.setattr(os, "chdir", lambda _path: None)
    data = tmp_path / "class-data"
    args = ["app", "--class-size", "2", "--class-code", "ROOM42", "--port", "9999", "--no-browser"]
    args += ["--teacher-code", TEACHER_CODE, "--class-data", str(data)]
    cli.main(args)
    out = capsys.readouterr().out
    assert (
        f"teacher view, for you only (do not project this line): http://127.0.0.1:9999/?code=ROOM42&teacher={TEACHER_CODE}"
        in out
    )
    assert "class session 1, new" in out and str(data / "class.db") in out
    env = started[-1]
    assert env[TEACHER_CODE_ENV] == TEACHER_CODE and env[CLASS_SESSION_ENV] == "1"
    assert env[CLASS_DB_ENV] == default_url(data) and len(env[COOKIE_SECRET_ENV]) == 64
    assert oct((data / "cookie-secret").stat().st_mode & 0o777) == "0o600"
    cli.main(args)  # started again: the same session goes on, with the same cookie secret
    assert (
        "class session 1, going on" in capsys.readouterr().out
        and started[-1][COOKIE_SECRET_ENV] == env[COOKIE_SECRET_ENV]
    )
    cli.main([*args, "--new-session"])
    assert started[-1][CLASS_SESSION_ENV] == "2"
    with pytest.raises(SystemExit):
        cli.main([*args[:-4], "--teacher-code", "ROOM42", "--class-data", str(data)])  # the class code: refused
    without_class = ["app", "--port", "9999", "--no-browser"]  # make app, alone on this machine: no class
    cli.main(without_class)
    assert CLASS_DB_ENV not in started[-1] and TEACHER_CODE_ENV not in started[-1]
