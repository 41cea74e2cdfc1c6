"""Faults, in Chromium: a reload reopens the learner's page; a dead kernel or server is said, with a reload."""

from __future__ import annotations

import json
import re
import shlex
import sys
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from jupyter_client.session import Session
from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1, serialize_msg_to_ws_v1
from playwright.sync_api import Locator, Page, expect

from spades_tutor.lessons import load_lessons
from spades_tutor.ui import errors
from spades_tutor.ui.app import PLACE_KEY
from spades_tutor.ui.heartbeat import TIMEOUT_S
from spades_tutor.ui.play_page import STORAGE_KEY as PLAY_KEY

from .conftest import APP, FIRST_EXPECT_TIMEOUT_MS, ROOT, Server, free_port, kernel_id_from_html, start_server

pytestmark = pytest.mark.browser

LESSONS = {lesson.number: lesson for lesson in load_lessons()}
V1 = "v1.kernel.websocket.jupyter.org"


def open_app(page: Page, server: Server, path: str = "/") -> None:
    page.goto(server.url(path), timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
    expect(page.locator(".st-brand")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)


def south_cards(page: Page) -> Locator:
    """South's cards on the Play page, whether South may play now or not (a radio each only then)."""
    return page.locator(".st-play [aria-label^='your hand'] .st-card")


def stored(page: Page, key: str) -> str:
    return str(page.evaluate("key => window.localStorage.getItem(key) || ''", key))


def wait_until_stored(page: Page, key: str, changed_from: str | None = None, contains: str = "") -> None:
    """Wait until the browser has stored what the kernel sent (a reload right after would lose it)."""
    page.wait_for_function(
        "([key, old, part]) => { const v = window.localStorage.getItem(key) || ''; "
        "return (old === null || v !== old) && v.includes(part); }",
        arg=[key, changed_from, contains],
    )


def shown_page(page: Page) -> Locator:
    """The app's tab that is pressed."""
    return page.locator(".st-nav-tabs button.mod-active")


def test_a_reload_mid_hand_reopens_play_with_the_game(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server)
    page.get_by_role("button", name="Play", exact=True).click()
    page.get_by_role("button", name="Deal ▶").click()
    expect(page.get_by_text("Sure tricks:")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.locator(".st-play .widget-toggle-buttons button").nth(3).click()
    page.get_by_role("button", name="Bid", exact=True).click()
    expect(south_cards(page)).to_have_count(13)
    before = stored(page, PLAY_KEY)
    page.locator(".st-play .st-mark-legal").first.click()
    expect(south_cards(page)).to_have_count(12)
    wait_until_stored(page, PLAY_KEY, changed_from=before)
    wait_until_stored(page, PLACE_KEY, contains='"Play"')
    page.reload()  # a new kernel; the address names no page
    open_app(page, voila_server)
    expect(page.get_by_text("Welcome back")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(shown_page(page)).to_have_text("Play")
    expect(south_cards(page)).to_have_count(12)


def test_a_reload_reopens_the_lesson_step(page: Page, voila_server: Server) -> None:
    lesson = LESSONS[3]
    open_app(page, voila_server)
    page.get_by_role("button", name="Learn", exact=True).click()
    page.get_by_role("button", name=re.compile(rf"^3\. {re.escape(lesson.title)}")).click()
    page.get_by_role("button", name="Next ▶").click()
    expect(page.get_by_text(f"Step 2 of {len(lesson.steps)}")).to_be_visible()
    wait_until_stored(page, PLACE_KEY, contains='"step": 1')
    page.reload()  # one reload: a second navigation at once (a goto) raced the reloaded page's own start
    expect(page.get_by_text(f"Lesson 3: {lesson.title}")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_text(f"Step 2 of {len(lesson.steps)}")).to_be_visible()
    expect(page.get_by_text(lesson.steps[1].title, exact=True)).to_be_visible()
    expect(shown_page(page)).to_have_text("Learn")


# --- a dead kernel, a stopped server -------------------------------------------------------------

LOST = "The tutor lost its connection. Reload — your progress is kept."
# the heartbeat's timeout and a ping's round trip on a busy machine
LOST_WITHIN_MS = int(TIMEOUT_S * 1000) + 25_000


@pytest.fixture
def own_server() -> Iterator[list[Server]]:
    """A Voilà server of this test's own (it gets killed and restarted); the list holds the live one."""
    port = free_port()
    cmd = [sys.executable, "-m", "voila", APP.notebook, f"--port={port}", "--no-browser"]
    servers = [start_server("voila-faults", cmd)]
    yield servers
    servers[-1].stop()


def test_a_killed_kernel_is_said_and_a_reload_brings_the_learner_back(page: Page, own_server: list[Server]) -> None:
    server = own_server[-1]
    lesson = LESSONS[3]
    open_app(page, server)
    page.get_by_role("button", name="Learn", exact=True).click()
    page.get_by_role("button", name=re.compile(rf"^3\. {re.escape(lesson.title)}")).click()
    page.get_by_role("button", name="Next ▶").click()
    expect(page.get_by_text(f"Step 2 of {len(lesson.steps)}")).to_be_visible()
    # a live kernel answers: no banner after more than the heartbeat's timeout
    page.wait_for_timeout(TIMEOUT_S * 1000 + 5_000)
    expect(page.locator(".st-lost")).to_have_count(0)

    server.kernels()[kernel_id_from_html(page.content())].kill()
    banner = page.get_by_role("alertdialog", name="Connection lost")
    expect(banner).to_be_visible(timeout=LOST_WITHIN_MS)
    expect(banner).to_contain_text(LOST)
    banner.get_by_role("button", name="Reload").click()
    expect(page.get_by_text(f"Lesson 3: {lesson.title}")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_text(f"Step 2 of {len(lesson.steps)}")).to_be_visible()
    expect(page.locator(".st-lost")).to_have_count(0)


def test_a_stopped_server_is_said_and_a_reload_after_its_restart_brings_the_game_back(
    page: Page, own_server: list[Server]
) -> None:
    server = own_server[-1]
    open_app(page, server)
    page.get_by_role("button", name="Play", exact=True).click()
    page.get_by_role("button", name="Deal ▶").click()
    expect(page.get_by_text("Sure tricks:")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.locator(".st-play .widget-toggle-buttons button").nth(3).click()
    page.get_by_role("button", name="Bid", exact=True).click()
    page.locator(".st-play .st-mark-legal").first.click()
    expect(south_cards(page)).to_have_count(12)

    cmd = shlex.split(server.log().splitlines()[0].removeprefix("$ "))
    server.stop()
    banner = page.get_by_role("alertdialog", name="Connection lost")
    expect(banner).to_be_visible(timeout=LOST_WITHIN_MS)
    expect(banner).to_contain_text(LOST)
    own_server.append(start_server("voila-faults-restarted", cmd))
    banner.get_by_role("button", name="Reload").click()
    expect(page.get_by_text("Welcome back")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(shown_page(page)).to_have_text("Play")
    expect(south_cards(page)).to_have_count(12)


# --- a hostile widget message: the friendly message in the page, the traceback in the server's log ---


def kernel_socket(server: Server, kernel_id: str) -> Any:
    """A second client on the page's kernel, speaking the v1 websocket protocol as the page does."""
    from websockets.sync.client import connect

    url = server.base_url.replace("http", "ws", 1) + f"/api/kernels/{kernel_id}/channels?session_id={uuid.uuid4()}"
    return connect(url, subprotocols=[V1], open_timeout=30, max_size=None)


def send(ws: Any, session: Session, channel: str, msg_type: str, content: dict[str, Any]) -> str:
    msg = session.msg(msg_type, content)
    parts = [json.dumps(msg[k], default=str).encode() for k in ("header", "parent_header", "metadata", "content")]
    ws.send(serialize_msg_to_ws_v1(parts, channel))
    return str(msg["header"]["msg_id"])


def reply_to(ws: Any, msg_id: str) -> dict[str, Any]:
    """The content of the shell reply to ``msg_id`` (iopub messages on the way are skipped)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        channel, parts = deserialize_msg_from_ws_v1(ws.recv(timeout=30))
        if channel == "shell" and json.loads(parts[1]).get("msg_id") == msg_id:
            return dict(json.loads(parts[3]))
    raise AssertionError(f"no reply to {msg_id}")


def test_a_hostile_widget_message_shows_the_friendly_message_and_no_traceback(page: Page, voila_server: Server) -> None:
    received: list[bytes] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda p: received.append(p if isinstance(p, bytes) else p.encode())),
    )
    open_app(page, voila_server)
    expect(page.get_by_role("button", name="Home")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    session = Session(key=b"", username="prober")
    with kernel_socket(voila_server, kernel_id_from_html(page.content())) as ws:
        info = reply_to(ws, send(ws, session, "shell", "comm_info_request", {"target_name": "jupyter.widget"}))
        comm_id = next(iter(info["comms"]))
        send(ws, session, "shell", "comm_msg", {"comm_id": comm_id, "data": None})
        expect(page.get_by_role("alert")).to_have_text(errors.friendly(RuntimeError()))
    page.wait_for_timeout(1_000)  # anything else the kernel published has reached the page
    assert received, "the page's websocket frames were not recorded"
    for secret in (b"Traceback", str(ROOT).encode(), sys.prefix.encode(), b"site-packages"):
        assert not [f for f in received if secret in f], f"{secret!r} reached the page"
    assert "TypeError: 'NoneType' object is not subscriptable" in voila_server.log()
