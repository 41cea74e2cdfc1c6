"""``make class`` with the teacher view: two learners join with nicknames and answer while the teacher's
grid updates; the reveal and the misconception; pacing (a learner held at the limit, brought to a
step, paused); names hidden; the server restarted mid-lesson losing no answer (a reload rejoins the
seat); the CSV; the deletion. Screenshots at a laptop's and a projector's size, and axe on the view."""

from __future__ import annotations

import csv
import io
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from spades_tutor.engine import Rules
from spades_tutor.lessons import load_lessons
from spades_tutor.server import COOKIE_SECRET_ENV, TEACHER_CODE_ENV
from spades_tutor.session.class_store import CLASS_SESSION_ENV, TEACHER_DIGEST_ENV, teacher_digest
from spades_tutor.ui.lesson_player import LessonPlayer

from .conftest import FIRST_EXPECT_TIMEOUT_MS, SCREENSHOTS, Server, free_port, start_server
from .test_a11y import axe_findings

pytestmark = pytest.mark.browser

CODE, TEACHER = "ROOM77", "TEACH9"
LESSON = load_lessons()[0]  # "The game": its step 3 asks who leads (a choice of seats)
QUIZ_STEP = next(i for i, step in enumerate(LESSON.steps) if any(b.kind == "quiz" for b in step.blocks))


def server_command(port: int, data: Path) -> list[str]:
    return [
        sys.executable, "-m", "spades_tutor", "app", f"--port={port}", "--no-browser", "--class-size", "2",
        "--class-code", CODE, "--teacher-code", TEACHER, "--class-data", str(data),
        "--kernels-per-client", "6", "--max-kernels", "8",
    ]  # fmt: skip


@pytest.fixture(scope="module")
def class_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("class-data")


def start(port: int, data: Path) -> Server:
    server = start_server("teacher-class-server", server_command(port, data))
    server.wait_for_log(r"Kernel pool of app\.ipynb is filled with 2 kernel", timeout=120)
    return server


@pytest.fixture(scope="module")
def room(class_data: Path) -> Iterator[dict[str, Server]]:
    holder = {"server": start(free_port(), class_data)}
    yield holder
    holder["server"].stop()


def right_seat(session: int) -> str:
    """The right answer of the question every learner of the session is asked at the quiz step."""
    player = LessonPlayer(LESSON, Rules.preset("jokers"), step=QUIZ_STEP, seed=session * 1000 + LESSON.number)
    return str(player.quizzes[0].item.answer())


def open_page(context: BrowserContext, server: Server, path: str, wait_for: str) -> Page:
    page = context.new_page()
    page.goto(server.url(path), timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_text(wait_for).first).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    return page


def choose(page: Page, seat_name: str) -> None:
    page.locator(".st-answer-choice").get_by_role("button", name=seat_name, exact=True).click()
    page.get_by_role("button", name=re.compile(r"^Check")).click()


def test_a_class_answers_while_the_teacher_sees_paces_and_keeps_every_answer(
    browser: Browser, room: dict[str, Server], class_data: Path
) -> None:
    server = room["server"]
    session = int(server.wait_for_log(r"class session (\d+)").group(1))
    assert f"?code={CODE}&teacher={TEACHER}" in server.log()  # the teacher's link, in the console only
    # the kernels are told the teacher code's digest, never the code
    for kernel in server.kernels().values():
        env = kernel.environ()
        assert TEACHER_CODE_ENV not in env and env[TEACHER_DIGEST_ENV] == teacher_digest(TEACHER)
        assert COOKIE_SECRET_ENV not in env  # nor the class cookie's secret
        assert env[CLASS_SESSION_ENV] == str(session)
    right = right_seat(session)
    wrong = [s for s in ("North", "East", "South", "West") if s != right]

    laptop = browser.new_context(viewport={"width": 1366, "height": 768}, accept_downloads=True)
    ada_ctx = browser.new_context(viewport={"width": 1200, "height": 800})
    bo_ctx = browser.new_context(viewport={"width": 1200, "height": 800})
    try:
        # a wrong teacher code opens nothing (the server refuses it before any kernel)
        wrong_code = laptop.new_page()
        wrong_code.goto(server.url(f"/?code={CODE}&teacher=WRONG1"))
        expect(wrong_code.get_by_text("That is not the teacher code")).to_be_visible()
        wrong_code.close()
        teacher = open_page(laptop, server, f"/?code={CODE}&teacher={TEACHER}", "Teacher view")
        expect(teacher.get_by_text("No learner has joined yet")).to_be_visible()
        teacher.get_by_label("Lesson taught").select_option(label=f"{LESSON.number}. {LESSON.title}")

        # two learners join with nicknames and open the lesson's question
        learners = {}
        for name, ctx in (("Ada", ada_ctx), ("Bo", bo_ctx)):
            page = open_page(
                ctx, server, f"/?code={CODE}&lesson={LESSON.number}&step={QUIZ_STEP + 1}", "choose a nickname"
            )
            expect(page.get_by_role("button", name="Teacher")).to_have_count(0)  # no teacher tab for a learner
            page.get_by_label("Nickname").fill(name)
            page.get_by_role("button", name="Join the class").click()
            expect(page.get_by_text(f"Welcome, {name}")).to_be_visible()
            learners[name] = page
        grid = teacher.locator(".st-teacher-grid")
        expect(grid).to_contain_text("Ada")
        expect(grid).to_contain_text("Bo")

        # Ada answers right: her cell in the teacher's grid within a second or so
        choose(learners["Ada"], right)
        started = time.monotonic()
        expect(grid.locator("td.st-cell-first")).to_have_count(1, timeout=5_000)
        ada_seen_s = time.monotonic() - started
        # Bo answers wrong twice (his second try): missed
        choose(learners["Bo"], wrong[0])
        expect(learners["Bo"].get_by_role("button", name="Check again")).to_be_visible()
        choose(learners["Bo"], wrong[1])
        started = time.monotonic()
        expect(grid.locator("td.st-cell-missed")).to_have_count(1, timeout=5_000)
        bo_seen_s = time.monotonic() - started
        print(f"teacher grid updated {ada_seen_s:.2f} s and {bo_seen_s:.2f} s after the answers were sent")
        assert max(ada_seen_s, bo_seen_s) < 2.0

        # the room's answers: the right one hidden until revealed
        bars = teacher.locator(".st-teacher-bars")
        expect(bars).to_contain_text("2 answers to step")
        expect(bars).to_contain_text("hidden until you reveal")
        expect(bars.locator(".st-bar-right")).to_have_count(0)
        teacher.get_by_role("button", name="Reveal the answer").click()
        expect(bars).to_contain_text(f"{right} ✓ right answer")
        expect(bars).to_contain_text(f"1 of 2 said {wrong[1]}")
        teacher.screenshot(path=str(SCREENSHOTS / "teacher-view-1366x768.png"), full_page=True)

        # names hidden for the projector
        teacher.get_by_label("Hide names (for the projector)").check()
        expect(grid).to_contain_text("Learner 1")
        expect(grid).not_to_contain_text("Ada")
        teacher.get_by_role("button", name="Pin a snapshot for the room").click()
        expect(teacher.locator(".st-teacher-pinned")).to_contain_text(f"{right}: 1")
        teacher.set_viewport_size({"width": 1920, "height": 1080})
        teacher.screenshot(path=str(SCREENSHOTS / "teacher-view-1920x1080.png"), full_page=True)
        findings = axe_findings(teacher, "teacher view")
        assert not findings, "\n".join(findings)

        # pacing: the limit holds Next, a bringing moves every learner, a pause covers their screens
        ada = learners["Ada"]
        teacher.get_by_label("Learners may reach").select_option(label=f"step {QUIZ_STEP + 1}")
        expect(ada.get_by_text("Your teacher asks the class to wait here.")).to_be_visible(timeout=5_000)
        expect(ada.get_by_role("button", name="Next ▶")).to_be_disabled()
        teacher.get_by_label("Bring everyone to").select_option(label=f"step {QUIZ_STEP + 2}")
        teacher.get_by_role("button", name="Bring them").click()
        for page in learners.values():
            expect(page.get_by_text(f"Step {QUIZ_STEP + 2} of {len(LESSON.steps)}")).to_be_visible(timeout=5_000)
        teacher.get_by_label("Message").fill("Eyes on the board, please")
        teacher.get_by_role("button", name="Pause every screen").click()
        for page in learners.values():
            expect(page.get_by_text("Paused by your teacher")).to_be_visible(timeout=5_000)
            expect(page.get_by_text("Eyes on the board, please")).to_be_visible()
        ada.screenshot(path=str(SCREENSHOTS / "teacher-view-learner-paused.png"))
        teacher.get_by_role("button", name="Resume every screen").click()
        expect(ada.get_by_text("Paused by your teacher")).to_be_hidden(timeout=5_000)

        # the server restarted mid-lesson: no answer lost, a reload rejoins the seat
        port = int(server.base_url.rsplit(":", 1)[1])
        server.stop()
        server = room["server"] = start(port, class_data)
        assert f"class session {session}, going on (2 learners, 2 answers kept" in server.log()
        ada.reload(timeout=2 * FIRST_EXPECT_TIMEOUT_MS)  # the same class code: the cookie still lets her in
        expect(ada.get_by_text("Welcome back, Ada")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
        teacher.reload(timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
        expect(teacher.get_by_text("2 learners joined")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
        expect(teacher.get_by_text("2 answers", exact=False).first).to_be_visible()

        # the CSV, one row an answer; then the session's data deleted, after a confirmation
        teacher.get_by_role("button", name="Prepare the CSV of the answers").click()
        with teacher.expect_download() as download:
            teacher.get_by_role("link", name=re.compile("Download class-session")).click()
        rows = list(csv.reader(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8"))))
        assert len(rows) == 3 and {r[2] for r in rows[1:]} == {"Ada", "Bo"}
        teacher.get_by_role("button", name="Delete this session's data…").click()
        expect(teacher.get_by_text("for good?")).to_be_visible()
        teacher.get_by_role("button", name="Delete for good").click()
        expect(teacher.get_by_text("This session's data is deleted (2 answers)")).to_be_visible()

        # guessing the teacher code: a burst of wrong codes, then this address must wait (429)
        statuses = [laptop.request.get(server.url("/?teacher=GUESS1"), max_redirects=0).status for _ in range(12)]
        assert statuses[0] == 403 and statuses[-1] == 429, statuses
    finally:
        for ctx in (laptop, ada_ctx, bo_ctx):
            ctx.close()
