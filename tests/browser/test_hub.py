"""JupyterHub serving the app to many learners: the repository's ``jupyterhub_config.py`` run for real.

A local hub (bench/local_hub.py, which bench/hub.py runs too) in a temp folder on free ports (hub, proxy
API, public proxy), with the config's test pair from the environment: ``DummyAuthenticator`` (any user
name) and ``SimpleLocalProcessSpawner`` (one server process per learner, as the hub's own user, homes
under the temp folder). The proxy is the project's ``configurable-http-proxy`` from npm (``npm ci``) and
the idle culler runs as the hub's service, as a school would run them. Learners log in in Chromium and land on the app by the config's
default URL, ``/user/<name>/voila/render/notebooks/app.ipynb``.

Outside CI these tests skip, saying why, when jupyterhub, jupyterhub-idle-culler or node_modules is
missing; on CI (``CI=true``) a missing piece fails them.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import stat
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from websockets.sync.client import connect

from spades_tutor.session.class_store import CLASS_SESSION_ENV, ClassStore
from spades_tutor.ui.app import PLACE_KEY, STORAGE_KEY

from .conftest import (
    ARTIFACTS,
    FIRST_EXPECT_TIMEOUT_MS,
    KNOWN_HARMLESS_PAGE_ERRORS,
    ROOT,
    SCREENSHOTS,
    choose_questions,
    command_line,
    worker_suffix,
)
from .test_a11y import axe_findings
from .test_app_journeys import LESSONS, answer_score_quiz, open_lesson
from .test_teacher_view import right_seat

sys.path.insert(0, str(ROOT / "bench"))

import local_hub
from local_hub import APP_URL, Hub

pytestmark = pytest.mark.browser

HUB_START_TIMEOUT_S = 120
# a learner's first visit starts their server (Python, Jupyter, Voilà) and then the app's kernel
SPAWN_TIMEOUT_MS = 240_000
PASSWORD = "any password will do"


def require_hub() -> None:
    """Fail on CI when a piece of the hub is missing (``make test`` installs them all); skip elsewhere."""
    missing = local_hub.missing()
    if not missing:
        return
    message = "the hub cannot start without " + ", ".join(missing)
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    require_hub()
    try:
        hub = local_hub.start(
            tmp_path_factory.mktemp("hub"), ARTIFACTS / f"jupyterhub{worker_suffix()}.log", HUB_START_TIMEOUT_S
        )
    except RuntimeError as e:
        pytest.fail(str(e))
    try:
        yield hub
    finally:
        hub.kill_everything()


def new_page(browser: Browser, errors: list[str]) -> tuple[BrowserContext, Page]:
    """A browser context of its own (cookies and localStorage) and a page in it whose errors go to ``errors``."""
    context = browser.new_context(viewport={"width": 1280, "height": 1400})
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page


def assert_no_page_errors(errors: list[str]) -> None:
    unexpected = [e for e in errors if not any(p.search(e) for p in KNOWN_HARMLESS_PAGE_ERRORS)]
    assert not unexpected, "unexpected page errors:\n" + "\n".join(unexpected)


def log_in(page: Page, hub: Hub, name: str) -> None:
    """Log in at the hub's login page; the hub starts the learner's server and sends them to the app."""
    page.set_default_timeout(FIRST_EXPECT_TIMEOUT_MS)
    page.goto(hub.url("/hub/login"))
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(re.escape(APP_URL.format(name=name)) + "$"), timeout=SPAWN_TIMEOUT_MS)
    expect(page.locator(".st-brand")).to_be_visible(timeout=SPAWN_TIMEOUT_MS)
    expect(page.get_by_role("button", name="Home")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)


def log_out(page: Page, hub: Hub) -> None:
    page.goto(hub.url("/hub/logout"))
    expect(page.get_by_label("Username")).to_be_visible()


def stored_keys(page: Page) -> list[str]:
    return sorted(page.evaluate("Object.keys(window.localStorage)"))


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"hub-{name}.png"))


def expect_a_fresh_start(page: Page) -> None:
    """The app as a new learner sees it: the Home page, and a quiz score of nothing answered."""
    expect(page.get_by_role("heading", name="Learn Spades with Jokers")).to_be_visible()
    page.get_by_role("button", name="Quiz yourself", exact=True).click()
    expect(page.get_by_text("Score 0 / 0 · streak 0")).to_be_visible()


def test_two_learners_each_reach_a_lesson_on_their_own_server_and_keep_their_own_progress(
    browser: Browser, hub: Hub
) -> None:
    steps = len(LESSONS[1].steps)
    errors: list[str] = []
    shared, page = new_page(browser, errors)
    # Alice: a lesson step, then a quiz answered, all kept under her own part of the browser's storage
    log_in(page, hub, "alice")
    open_lesson(page, 1)
    page.get_by_role("button", name="Next ▶").click()
    expect(page.get_by_text(f"Step 2 of {steps}")).to_be_visible()
    page.get_by_role("button", name="Quiz yourself", exact=True).click()
    choose_questions(page, "Score this hand")  # and wait for the question drawn for it
    answer_score_quiz(page, right=True)
    expect(page.get_by_text("Score 1 / 1 · streak 1")).to_be_visible()
    shot(page, "alice")
    alice_keys = [f"/user/alice/{PLACE_KEY}", f"/user/alice/{STORAGE_KEY}"]
    deadline = time.monotonic() + 20
    while stored_keys(page) != alice_keys and time.monotonic() < deadline:
        time.sleep(0.2)
    assert stored_keys(page) == alice_keys  # nothing under the plain app's keys, which every learner would share

    # Bob on the same computer, in the same browser, after Alice logs out: his own server, a fresh start
    log_out(page, hub)
    log_in(page, hub, "bob")
    open_lesson(page, 1)
    page.get_by_role("button", name="Next ▶").click()
    expect(page.get_by_text(f"Step 2 of {steps}")).to_be_visible()
    page.get_by_role("button", name="Home").click()
    expect_a_fresh_start(page)
    shot(page, "bob-after-alice")
    servers = hub.learner_servers()
    assert set(servers) == {"alice", "bob"} and servers["alice"].pid != servers["bob"].pid

    # Alice back on that computer: her place (the quiz) and her score are still hers
    log_out(page, hub)
    log_in(page, hub, "alice")
    expect(page.get_by_text("Score 1 / 1 · streak 1")).to_be_visible()
    shared.close()

    # Bob in a fresh browser: still nothing of Alice's
    fresh, page = new_page(browser, errors)
    log_in(page, hub, "bob")
    expect_a_fresh_start(page)
    fresh.close()
    assert_no_page_errors(errors)


def test_a_learners_page_through_the_hub_arrives_compressed_asks_no_other_host_and_draws_its_plots(
    browser: Browser, hub: Hub
) -> None:
    """A learner's server gets the app server's settings from jupyter_config.json
    (spades_tutor.server_extension): the page's scripts and styles come gzip-compressed through the
    hub's proxy, the page asks no other host (JupyterHub's own frame-ancestors kept), and the Joker lab's
    plots load plotly from the learner's server once, not with every page."""
    errors: list[str] = []
    context, page = new_page(browser, errors)
    responses: list[Any] = []
    outside: list[str] = []
    origin = hub.url("/")
    page.on("response", lambda r: responses.append(r))
    page.route(
        lambda url: not url.startswith(origin) and not url.startswith(("blob:", "data:")),
        lambda route: (outside.append(route.request.url), route.abort()),
    )
    log_in(page, hub, "carol")
    app_page = [r for r in responses if r.request.resource_type == "document" and "/voila/render/" in r.url]
    assert app_page and app_page[-1].status == 200
    policy = app_page[-1].headers.get("content-security-policy", "")
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, policy
    scripts = [
        r
        for r in responses
        if r.status == 200
        and re.search(r"/user/carol/voila/(static|templates|labextensions)/.*\.(js|css)(\?|$)", r.url)
    ]
    assert len(scripts) >= 20, f"only {len(scripts)} scripts and styles seen"
    plain = [r.url for r in scripts if r.headers.get("content-encoding") != "gzip" and len(r.body()) >= 1024]
    assert plain == [], f"sent uncompressed: {plain[:5]}"
    assert not [r.url for r in responses if "plotly" in r.url.lower()], "a page with no plot fetched plotly"

    page.get_by_role("button", name="Joker lab").click()
    page.get_by_label("Sample:").select_option(label="2,000 rounds each")
    page.get_by_role("button", name="Run the lab ▶").click()
    expect(page.get_by_text("simulated and measured, and the nils played by the bots")).to_be_visible(
        timeout=FIRST_EXPECT_TIMEOUT_MS
    )
    expect(page.locator(".st-plot .js-plotly-plot")).to_have_count(5, timeout=FIRST_EXPECT_TIMEOUT_MS)
    fetched = [
        re.sub(r"\?.*", "", r.url.removeprefix(origin.rstrip("/"))) for r in responses if "plotly" in r.url.lower()
    ]
    assert fetched == ["/user/carol/spades_tutor/static/plotly.min.js"], fetched
    shot(page, "carol-lab")
    assert outside == [], f"the page asked other hosts: {outside}"
    page.unroute_all(behavior="ignoreErrors")
    context.close()
    assert_no_page_errors(errors)


def api_token(page: Page, hub: Hub) -> str:
    """A token of the logged-in learner's, asked for on the hub's own token page as anyone logged in can."""
    # the page's script binds the button once it has loaded: a click before that does nothing, so wait for
    # the page to settle, and click again if no token came
    page.goto(hub.url("/hub/token"), wait_until="networkidle")
    result = page.locator("#token-result")
    for _ in range(4):
        page.get_by_role("button", name="Request new API token").click()
        try:
            expect(result).not_to_be_empty(timeout=10_000)
            break
        except AssertionError:
            page.wait_for_load_state("networkidle")
    expect(result).not_to_be_empty()
    return str(result.text_content()).strip()


def call(hub: Hub, token: str, method: str, path: str, body: object = None) -> tuple[int, str]:
    """Status and body of ``method path`` with the learner's token, without raising on 4xx/5xx."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(hub.url(path), data=data, method=method)
    request.add_header("Authorization", f"token {token}")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace")


def kernel_message(msg_type: str, content: dict[str, object]) -> dict[str, object]:
    """A shell message as a client of the kernel websocket's JSON protocol sends it."""
    header = {
        "msg_id": uuid.uuid4().hex,
        "msg_type": msg_type,
        "session": uuid.uuid4().hex,
        "username": "",
        "date": "2026-12-06T00:00:00Z",
        "version": "5.3",
    }
    return {"header": header, "parent_header": {}, "metadata": {}, "content": content, "channel": "shell"}


def replies(ws: Any, seconds: float) -> list[str]:
    """The msg_type of every message the kernel sends within ``seconds``."""
    seen: list[str] = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            frame = ws.recv(timeout=left)
        except TimeoutError:
            break
        if isinstance(frame, str):
            seen.append(json.loads(frame)["header"]["msg_type"])
    return seen


def test_a_learners_server_is_the_app_only_no_lab_terminal_files_or_code(
    browser: Browser, hub: Hub, tmp_path: Path
) -> None:
    """A learner (their own token, as the hub's token page gives anyone logged in) gets the app and nothing
    else of their server: no JupyterLab, no terminal, no listing or file of the folder it serves, nothing
    written there, no other notebook run, and a kernel that answers widget messages but runs no code sent
    to it; and a few kernels at most."""
    errors: list[str] = []
    context, page = new_page(browser, errors)
    log_in(page, hub, "dave")
    assert page.goto(hub.url("/user/dave/lab")).status == 404  # type: ignore[union-attr]
    token = api_token(page, hub)
    assert call(hub, token, "GET", "/user/dave/api/status")[0] == 200  # the token does reach the server
    assert call(hub, token, "GET", "/user/dave/api/terminals")[0] == 404
    assert call(hub, token, "POST", "/user/dave/api/terminals", {})[0] == 404
    for path in ("api/contents", "api/contents/", "api/contents/notebooks", "api/contents/jupyterhub_config.py"):
        status, body = call(hub, token, "GET", f"/user/dave/{path}")
        assert status == 404 and "last_modified" not in body, (path, status, body[:300])
    assert call(hub, token, "GET", "/user/dave/files/jupyterhub_config.py")[0] == 404
    written = {"type": "file", "format": "text", "content": "print('mine')"}
    assert call(hub, token, "PUT", "/user/dave/api/contents/notebooks/mine.py", written)[0] == 403
    assert not (ROOT / "notebooks" / "mine.py").exists()
    assert call(hub, token, "GET", "/user/dave/voila/render/notebooks/00-engine-tour.ipynb")[0] == 404
    assert call(hub, token, "GET", "/user/dave/voila/tree")[0] == 404

    status, body = call(hub, token, "POST", "/user/dave/api/kernels", {"name": "python3"})
    assert status == 201, (status, body)
    kernel = json.loads(body)["id"]
    marker = tmp_path / "ran"
    url = hub.url(f"/user/dave/api/kernels/{kernel}/channels").replace("http://", "ws://")
    with connect(url, additional_headers={"Authorization": f"token {token}"}, open_timeout=30) as ws:
        ws.send(json.dumps(kernel_message("kernel_info_request", {})))
        assert "kernel_info_reply" in replies(ws, 20)  # the kernel answers what a page's widgets send
        code = f"open({str(marker)!r}, 'w').write('ran')"
        ws.send(json.dumps(kernel_message("execute_request", {"code": code, "silent": False})))
        assert "execute_reply" not in replies(ws, 8)
    assert not marker.exists(), "code sent to the learner's kernel ran"

    # kernels up to the server's bound (the config's default, 3), then no more
    held = len(json.loads(call(hub, token, "GET", "/user/dave/api/kernels")[1]))
    more = [call(hub, token, "POST", "/user/dave/api/kernels", {"name": "python3"}) for _ in range(4 - held)]
    assert [status for status, _ in more] == [201] * (3 - held) + [503], more
    for kernel_id in [kernel, *(json.loads(body)["id"] for status, body in more if status == 201)]:
        assert call(hub, token, "DELETE", f"/user/dave/api/kernels/{kernel_id}")[0] == 204
    context.close()
    assert_no_page_errors(errors)


def test_the_hubs_own_files_are_0600_in_a_0700_folder_the_learners_servers_do_not_serve(
    browser: Browser, hub: Hub
) -> None:
    """The database (every learner's name, their servers' tokens) and the cookie secret: the hub's user's
    alone, in a folder of the hub's (SPADES_HUB_DATA) away from the folder the learners' servers serve; and
    nothing of the hub's left in its working directory (the checkout, when started with ``make hub``)."""
    if not hub.learner_servers():  # this test run alone
        errors: list[str] = []
        context, page = new_page(browser, errors)
        log_in(page, hub, "erin")
        context.close()
    db, secret = hub.state / "jupyterhub.sqlite", hub.state / "jupyterhub_cookie_secret"
    assert stat.S_IMODE(hub.state.stat().st_mode) == 0o700
    assert stat.S_IMODE(db.stat().st_mode) == 0o600 and db.stat().st_size > 0
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    cwd = Path(psutil.Process(hub.proc.pid).cwd())
    assert not list(cwd.glob("jupyterhub*")), "the hub wrote files into its working directory"
    (server, *_) = hub.learner_servers().values()
    served = Path(server.environ()["JUPYTERHUB_ROOT_DIR"]).resolve()
    assert served == ROOT and served != cwd
    for path in (db, secret):
        assert served not in path.resolve().parents


def test_pam_without_a_list_of_learners_does_not_start(tmp_path: Path) -> None:
    """The machine's accounts are not a class: the hub stops at its config, saying what to set."""
    require_hub()
    with pytest.raises(RuntimeError, match=r"exited with 1(.|\n)*SPADES_HUB_ALLOWED_USERS"):
        local_hub.start(
            tmp_path, ARTIFACTS / f"jupyterhub-pam{worker_suffix()}.log", 60, env={"SPADES_HUB_AUTHENTICATOR": "pam"}
        ).kill_everything()


def test_stopping_the_hub_stops_every_learners_server_and_kernel(browser: Browser, hub: Hub) -> None:
    errors: list[str] = []
    context, page = new_page(browser, errors)
    for name in ("alice", "bob"):
        if name not in hub.learner_servers():  # this test run alone
            log_in(page, hub, name)
    context.close()
    assert_no_page_errors(errors)
    servers = hub.learner_servers()
    assert set(servers) >= {"alice", "bob"}
    under_servers = [p for s in servers.values() for p in s.children(recursive=True)]
    others = [p for p in hub.processes()[1:] if p.pid not in {s.pid for s in servers.values()}]
    proxy = [p for p in others if any("configurable-http-proxy" in a for a in command_line(p))]
    assert proxy, "no proxy process under the hub"
    hub.stop()
    assert hub.proc.returncode is not None, "the hub did not stop on SIGTERM"
    _, alive = psutil.wait_procs([*servers.values(), *under_servers, *others], timeout=20)
    assert not alive, f"still running after the hub stopped: {[' '.join(command_line(p)[:3]) for p in alive]}"


@pytest.fixture(scope="module")
def class_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    """A hub with a class session turned on (SPADES_HUB_TEACHERS): "tess" teaches, everyone else learns."""
    require_hub()
    try:
        hub = local_hub.start(
            tmp_path_factory.mktemp("class-hub"),
            ARTIFACTS / f"jupyterhub-class{worker_suffix()}.log",
            HUB_START_TIMEOUT_S,
            env={"SPADES_HUB_TEACHERS": "tess"},
        )
    except RuntimeError as e:
        pytest.fail(str(e))
    try:
        yield hub
    finally:
        hub.kill_everything()


TEACHER_URL = "/services/spades-teacher/"


def test_through_the_hub_two_learners_answer_and_the_teacher_sees_both_in_the_hubs_service(
    browser: Browser, class_hub: Hub
) -> None:
    """Two learners, each on their own server, join the class and answer a lesson's question (one right,
    one wrong); the teacher, logged in to the hub, opens the teacher view (the hub's service, through the
    hub's OAuth), sees both of them and both answers, and uses its controls: the answer revealed with the
    misconception, a learner held at the step limit, every screen paused with a message, names hidden
    everywhere on the page (axe at a laptop's and a projector's size), the CSV downloaded, the session's
    data deleted after a confirmation. A learner who opens the service gets 403."""
    hub = class_hub
    lesson = LESSONS[0]
    quiz_step = next(i for i, step in enumerate(lesson.steps) if any(b.kind == "quiz" for b in step.blocks))
    errors: list[str] = []
    contexts = []
    learners = {}
    session = 0
    for name, nickname in (("ana", "Ana"), ("ben", "Ben")):
        context, page = new_page(browser, errors)
        contexts.append(context)
        log_in(page, hub, name)
        session = int(hub.learner_servers()[name].environ()[CLASS_SESSION_ENV])
        page.goto(hub.url(APP_URL.format(name=name) + f"?lesson={lesson.number}&step={quiz_step + 1}"))
        expect(page.get_by_text("choose a nickname")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
        page.get_by_label("Nickname").fill(nickname)
        page.get_by_role("button", name="Join the class").click()
        expect(page.get_by_text(f"Welcome, {nickname}")).to_be_visible()
        learners[name] = page
    right = right_seat(session)  # every learner of the session is asked the same question
    wrong = [seat for seat in ("North", "East", "South", "West") if seat != right]

    def choose(page: Page, seat: str) -> None:
        page.locator(".st-answer-choice").get_by_role("button", name=seat, exact=True).click()
        page.get_by_role("button", name=re.compile(r"^Check")).click()

    choose(learners["ana"], right)
    choose(learners["ben"], wrong[0])  # wrong, and wrong again on his second try: missed
    expect(learners["ben"].get_by_role("button", name="Check again")).to_be_visible()
    choose(learners["ben"], wrong[1])

    teacher_context, teacher = new_page(browser, errors)
    contexts.append(teacher_context)
    teacher.set_default_timeout(FIRST_EXPECT_TIMEOUT_MS)
    teacher.set_viewport_size({"width": 1366, "height": 768})
    # the hub's login, then on to the service, which asks the hub (OAuth) who she is
    teacher.goto(hub.url("/hub/login?next=" + TEACHER_URL.replace("/", "%2F")))
    teacher.get_by_label("Username").fill("tess")
    teacher.get_by_label("Password").fill(PASSWORD)
    teacher.get_by_role("button", name="Sign in").click()
    teacher.wait_for_url(hub.url(TEACHER_URL))
    expect(teacher.get_by_role("heading", name=re.compile("Teacher view"))).to_be_visible()
    grid = teacher.locator(".st-teacher-grid")
    expect(grid).to_contain_text("Ana", timeout=10_000)  # redrawn every half second: no reload needed
    expect(grid).to_contain_text("Ben")
    expect(grid.locator("td.st-cell-first")).to_have_count(1)
    expect(grid.locator("td.st-cell-missed")).to_have_count(1)
    bars = teacher.locator(".st-teacher-bars")
    expect(bars).to_contain_text(f"2 answers to step {quiz_step + 1}")
    expect(bars).to_contain_text("hidden until you reveal")

    # the right answer revealed, and what the wrong one says of the room
    teacher.get_by_role("button", name="Reveal the answer").click()
    expect(bars).to_contain_text(f"{right} ✓ right answer")
    expect(bars).to_contain_text(f"1 of 2 said {wrong[1]}")
    expect(teacher.get_by_role("status").filter(has_text="The right answer is revealed.")).to_be_visible()
    shot(teacher, "teacher-service")

    # pacing: Ana, past the question, is held at the step the teacher set as the limit; then every screen paused
    ana = learners["ana"]
    teacher.get_by_label("Learners may reach").select_option(label=f"step {quiz_step + 1}")
    teacher.get_by_role("button", name="Set the limit").click()
    expect(teacher.get_by_text(f"Learners may reach step {quiz_step + 1} at most.")).to_be_visible()
    expect(ana.get_by_text("Your teacher asks the class to wait here.")).to_be_visible(timeout=5_000)
    expect(ana.get_by_role("button", name="Next ▶")).to_be_disabled()
    teacher.get_by_label("Message").fill("Eyes on the board, please")
    teacher.get_by_role("button", name="Pause every screen").click()
    for page in learners.values():
        expect(page.get_by_text("Paused by your teacher")).to_be_visible(timeout=5_000)
        expect(page.get_by_text("Eyes on the board, please")).to_be_visible()
    teacher.get_by_role("button", name="Resume every screen").click()
    for page in learners.values():
        expect(page.get_by_text("Paused by your teacher")).to_be_hidden(timeout=5_000)

    # names hidden for the projector: nowhere on the page, redrawn or not
    teacher.get_by_role("button", name="Hide names (for the projector)").click()
    expect(grid).to_contain_text("Learner 1")
    expect(grid).to_contain_text("Learner 2")
    teacher.wait_for_timeout(1_200)  # two redraws
    assert not re.search(r"\b(Ana|Ben)\b", str(teacher.locator("body").inner_text()))
    assert not re.search(r"\b(Ana|Ben)\b", teacher.content())
    teacher.get_by_role("button", name="Pin a snapshot for the room").click()
    expect(teacher.locator(".st-teacher-pinned")).to_contain_text(f"{right}: 1")
    for width, height in ((1366, 768), (1920, 1080)):
        teacher.set_viewport_size({"width": width, "height": height})
        teacher.screenshot(path=str(SCREENSHOTS / f"hub-teacher-service-{width}x{height}.png"), full_page=True)
        findings = axe_findings(teacher, f"the hub's teacher view at {width}x{height}")
        assert not findings, "\n".join(findings)

    # a learner is not a teacher: the hub does not let them in to the service, and nothing of it is shown
    response = learners["ben"].goto(hub.url(TEACHER_URL))
    assert response is not None and response.status == 403, response and response.status
    assert "Ana" not in learners["ben"].content()

    # the CSV, one row an answer, under the session's name; then the data deleted, after a confirmation
    with teacher.expect_download() as download:
        teacher.get_by_role("link", name=re.compile("Download the answers as CSV")).click()
    assert download.value.suggested_filename == f"class-session-{session}.csv"
    rows = list(csv.reader(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8"))))
    assert len(rows) == 3 and {r[2] for r in rows[1:]} == {"Ana", "Ben"}
    teacher.get_by_role("link", name="Delete this session's data…").click()
    expect(teacher.get_by_text("Delete the 2 answers and the nicknames of 2 learners")).to_be_visible()
    expect(teacher.get_by_text("for good?")).to_be_visible()
    store = ClassStore(f"sqlite:///{hub.state / 'class' / 'class.sqlite'}")
    try:
        assert len(store.answers(session)) == 2  # asked, not yet done
        teacher.get_by_role("button", name="Delete for good").click()
        expect(teacher.get_by_text("This session's data is deleted")).to_be_visible()
        assert not store.session_exists(session) and store.answers(session) == []
    finally:
        store.close()
    for context in contexts:
        context.close()
    assert_no_page_errors(errors)
