"""Fixtures for driving the Voilà app in Debian's Chromium: the servers, the browser, artifacts.

Two servers, each started once per session and only when a test asks for it:

- ``voila_server``: standalone Voilà exactly as ``voila notebooks/<nb>`` is run by hand — from the
  repository root, so it reads the repository's ``voila.json`` (loopback IP, preheated kernel pool,
  kernel culling, no tracebacks); the command line adds only the port and ``--no-browser``.
- ``binder_server``: the Binder mode, ``jupyter server`` with the Voilà server extension, after running
  ``binder/postBuild`` into a private Jupyter config directory as Binder's build would.

Server logs go to ``test-artifacts/<name>.log``; each browser test leaves a screenshot in
``test-artifacts/screenshots/<test name>.png``, passed or failed.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import pytest
from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Voilà answers 200 here once its web app is up (``/voila/static/extension.js`` answers 403).
READY_PATH = "/voila/labextensions/anywidget/package.json"
SERVER_START_TIMEOUT_S = 90
STOP_GRACE_S = 20
# The first render starts (or takes from the pool) a kernel and runs the notebook: seconds on 2 cores.
FIRST_EXPECT_TIMEOUT_MS = 60_000

# Every later expect(...) may wait this long: a shared, busy machine can be slow to round-trip to a kernel.
expect.set_options(timeout=20_000)

# Page errors that are known to be harmless; anything else fails the test.
KNOWN_HARMLESS_PAGE_ERRORS = [
    re.compile(r"setData is not a function"),  # plotly's fig.show() inside Voilà
    # anywidget's runtime rejects a promise when a widget's module has not loaded 2 s after its model was
    # made (AbortSignal.timeout(2e3) in its index.js), as happens on a loaded machine; its views wait on the
    # widget's status, not on that promise, and draw once the module loads: what each test expects to see
    # drawn is checked by the test itself
    re.compile(r"^\[anywidget\] Failed to initialize model\.$"),
]


@dataclass(frozen=True)
class PageUnderTest:
    """The notebook the browser tests open, and what identifies its rendered page."""

    notebook: str  # path from the repository root
    known_text: str  # text the rendered page shows
    source_snippet: str  # a line of code from the notebook, which the page must not show

    @property
    def name(self) -> str:
        return Path(self.notebook).name


ENGINE_TOUR = PageUnderTest(
    notebook="notebooks/00-engine-tour.ipynb",
    known_text="A tour of the Spades with Jokers engine",
    source_snippet="import spades_tutor as st",
)

APP = PageUnderTest(
    notebook="notebooks/app.ipynb",
    known_text="Learn Spades with Jokers",
    source_snippet="from spades_tutor.ui.app import App",
)
PAGE = APP


def page_under_test() -> PageUnderTest:
    """The page every serving test opens (the app's stand-in until the app exists)."""
    return PAGE


def choose_questions(page: Page, kind: str) -> None:
    """Pick the Quiz page's kind of question and wait for the question drawn for it.

    The question shown before the pick may be of that kind already ("All kinds, mixed" draws any),
    so waiting for a question of the kind could find the old one, about to be replaced: a card
    chosen on it would be lost with it. Wait until the old question has left the page instead."""
    menu = page.get_by_label("Questions:")
    shown = menu.evaluate("s => s.options[s.selectedIndex] ? s.options[s.selectedIndex].text : ''")
    if shown == kind:
        return
    first = page.locator(".st-quiz").first
    expect(first).to_be_attached(timeout=FIRST_EXPECT_TIMEOUT_MS)  # the question the page opened with
    old = first.element_handle()
    menu.select_option(label=kind)
    if old is not None:
        page.wait_for_function("q => !q.isConnected", arg=old, timeout=FIRST_EXPECT_TIMEOUT_MS)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def http_get(url: str, timeout: float = 30) -> tuple[int, str]:
    """Status and body of a GET, without raising on 4xx/5xx."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace")


def kernel_id_from_html(html: str) -> str:
    """The kernel a rendered Voilà page talks to, from its ``jupyter-config-data`` block."""
    match = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', html, re.S)
    assert match, "no jupyter-config-data in the page"
    return str(json.loads(match.group(1))["kernelId"])


def command_line(process: psutil.Process) -> list[str]:
    """``process``'s arguments, or none for a process that has exited (gone, or a zombie not yet reaped)."""
    try:
        return list(process.cmdline())
    except psutil.Error:  # NoSuchProcess, ZombieProcess, AccessDenied
        return []


@dataclass
class Server:
    """A server process started in its own process group, its URL and its log."""

    name: str
    base_url: str
    log_path: Path
    proc: subprocess.Popen[bytes]
    _log_file: Any = field(repr=False)

    def url(self, path: str) -> str:
        return self.base_url + path

    def kernels(self) -> dict[str, psutil.Process]:
        """The kernel processes under the server now, by kernel id (read from each one's connection file name).

        A kernel that is exiting (gone, or a zombie not yet reaped) is left out: its command line can no
        longer be read, and it is not a kernel the server still runs."""
        found: dict[str, psutil.Process] = {}
        try:
            descendants = psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return found
        for p in descendants:
            for a in command_line(p):
                match = re.search(r"kernel-([0-9a-f-]+)\.json$", a)
                if match:
                    found[match.group(1)] = p
        return found

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for_log(self, pattern: str, timeout: float = 60) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while True:
            match = re.search(pattern, self.log())
            if match:
                return match
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"{self.name}: no log line matching {pattern!r} in {timeout} s; see {self.log_path}"
                )
            time.sleep(0.2)

    def stop(self) -> None:
        """SIGTERM the process group (the server shuts its kernels down), SIGKILL after 20 s."""
        try:
            descendants = psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            descendants = []
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        # Kernels run in sessions of their own: reap any that outlived the server.
        _, alive = psutil.wait_procs(descendants, timeout=5)
        for p in alive:
            p.kill()
        self._log_file.close()


# what Voilà and Jupyter Server log when the port asked for is taken, before they quietly serve on another
PORT_TAKEN = "is already in use, trying another port"
PORT_ATTEMPTS = 3


def worker_suffix() -> str:
    """``-gw0``, ``-gw1`` ... under pytest-xdist: each worker starts its own servers, so each keeps its own logs."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return f"-{worker}" if worker else ""


def with_port(cmd: list[str], port: int) -> list[str]:
    return [f"--port={port}" if a.startswith("--port=") else a for a in cmd]


def start_server(name: str, cmd: list[str], env: dict[str, str] | None = None) -> Server:
    """Start ``cmd`` from the repository root and wait until Voilà's web app answers.

    ``free_port()`` only finds a port free at that moment: any connection's ephemeral port may take it
    before the server binds it, and the server then serves on another port than the one its URL names.
    So a server that logs its port as taken is stopped and started again on a port found anew."""
    for attempt in range(1, PORT_ATTEMPTS + 1):
        server = _start_once(name, cmd, env)
        if server is not None:
            return server
        if attempt < PORT_ATTEMPTS:
            cmd = with_port(cmd, free_port())
    pytest.fail(f"{name}: the port asked for was taken {PORT_ATTEMPTS} times over")


def _start_once(name: str, cmd: list[str], env: dict[str, str] | None) -> Server | None:
    """The server answering on the port ``cmd`` names, or None (stopped) if it found that port taken."""
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = ARTIFACTS / f"{name}{worker_suffix()}.log"
    log_file = log_path.open("wb")
    log_file.write(f"$ {' '.join(cmd)}\n".encode())
    log_file.flush()
    port = int(next(a.split("=", 1)[1] for a in cmd if a.startswith("--port=")))
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        stdin=subprocess.DEVNULL,
        stdout=log_file,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    server = Server(name, f"http://127.0.0.1:{port}", log_path, proc, log_file)
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while True:
        if PORT_TAKEN in server.log():  # whatever answers on that port now is not this server
            server.stop()
            return None
        if proc.poll() is not None:
            server.stop()
            pytest.fail(f"{name} exited with {proc.returncode} before answering:\n{server.log()[-3000:]}")
        try:
            if http_get(server.url(READY_PATH), timeout=5)[0] == 200 and PORT_TAKEN not in server.log():
                return server
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            server.stop()
            pytest.fail(f"{name} did not answer {READY_PATH} in {SERVER_START_TIMEOUT_S} s:\n{server.log()[-3000:]}")
        time.sleep(0.3)


@pytest.fixture(scope="session")
def page_nb() -> PageUnderTest:
    return page_under_test()


@pytest.fixture(scope="session")
def voila_server(page_nb: PageUnderTest) -> Iterator[Server]:
    """Standalone Voilà on the page under test, configured only by the repository's voila.json."""
    cmd = [sys.executable, "-m", "voila", page_nb.notebook, f"--port={free_port()}", "--no-browser"]
    server = start_server("voila-standalone", cmd)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def binder_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The Binder mode: ``jupyter server`` + the Voilà extension, configured as binder/postBuild leaves it."""
    config_dir = tmp_path_factory.mktemp("jupyter-config")
    env = {
        "JUPYTER_CONFIG_DIR": str(config_dir),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    post_build = ROOT / "binder" / "postBuild"
    if post_build.exists():
        subprocess.run(["bash", str(post_build)], cwd=ROOT, env={**os.environ, **env}, check=True, timeout=60)
    cmd = [
        sys.executable,
        "-m",
        "jupyter_server",
        "--no-browser",
        f"--port={free_port()}",
        "--ServerApp.ip=127.0.0.1",
        "--IdentityProvider.token=",
        "--allow-root",
    ]
    server = start_server("jupyter-server-binder", cmd, env)
    yield server
    server.stop()


# --- the browser ---------------------------------------------------------------------------------


def require_chromium() -> None:
    """Fail on CI without Debian's Chromium (.ci/run installs it); skip elsewhere."""
    if os.access(CHROMIUM, os.X_OK):
        return
    message = f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium); Playwright's own browser download does not work offline"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    require_chromium()
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    # The Voilà page scrolls inside its own panel: a tall viewport shows more than full_page would.
    return {**browser_context_args, "viewport": {"width": 1280, "height": 1400}}


@pytest.fixture(autouse=True)
def _browser_artifacts(request: pytest.FixtureRequest) -> Iterator[None]:
    """For tests that use ``page``: collect page errors, and save a screenshot at the end (pass or fail).

    Unexpected page errors (uncaught exceptions in the page) fail the test at teardown.
    """
    if "page" not in request.fixturenames:
        yield
        return
    page = request.getfixturevalue("page")
    # Voilà answers a page only once its kernel has run the notebook: seconds, more on a busy machine
    page.set_default_navigation_timeout(2 * FIRST_EXPECT_TIMEOUT_MS)
    page.set_default_timeout(FIRST_EXPECT_TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / (re.sub(r"[^\w.-]+", "_", request.node.name).strip("_") + ".png")
    try:
        page.screenshot(path=str(shot))
    except Exception as e:  # a crashed page must not hide the test's own result
        print(f"screenshot {shot} failed: {e}")
    unexpected = [e for e in errors if not any(p.search(e) for p in KNOWN_HARMLESS_PAGE_ERRORS)]
    if unexpected:
        pytest.fail("unexpected page errors:\n" + "\n".join(unexpected))
