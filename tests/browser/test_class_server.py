"""``make class``: the app served to a room, reached from another machine's address, on warmed kernels."""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from .conftest import FIRST_EXPECT_TIMEOUT_MS, Server, free_port, start_server

CODE = "ROOM42"


def room_address() -> str | None:
    """This machine's IPv4 address on its network (what a learner's laptop would connect to), if any."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.254.254.254", 9))  # UDP: chooses the outgoing address, sends nothing
            address = str(s.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


@pytest.fixture(scope="module")
def class_server() -> Iterator[Server]:
    port = free_port()
    cmd = [sys.executable, "-m", "spades_tutor", "app", f"--port={port}", "--no-browser"]
    server = start_server("class-server", [*cmd, "--class-size", "2", "--ip", "0.0.0.0", "--class-code", CODE])
    server.wait_for_log(r"Kernel pool of app\.ipynb is filled with 2 kernel", timeout=120)
    yield server
    server.stop()


def test_a_learner_in_the_room_opens_a_lesson_link_on_a_warm_kernel(page: Page, class_server: Server) -> None:
    address = room_address()
    if address is None:
        pytest.skip("this machine has no network address besides loopback")
    assert "spades-tutor: serving a class of 2" in class_server.log()
    port = class_server.base_url.rsplit(":", 1)[1]
    assert f":{port}/?code={CODE}" in class_server.log()  # the link the teacher hands out
    page.goto(f"http://{address}:{port}/?lesson=4&step=2", timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_text("Ask your teacher for the class link")).to_be_visible()
    page.goto(f"http://{address}:{port}/?lesson=4&step=2&code={CODE}", timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_text("Step 2 of")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.get_by_role("button", name="Next ▶").click()
    expect(page.get_by_text("Step 3 of")).to_be_visible()  # the kernel answered the click
    kernel_id = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
    class_server.wait_for_log(rf"Using pre-heated kernel: {kernel_id} for app\.ipynb", timeout=10)
