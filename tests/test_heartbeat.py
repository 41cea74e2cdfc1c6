"""The heartbeat in a real kernel: pings are answered, a long callback beats, an idle kernel stays quiet.

The page (``static/heartbeat.js``) shows "lost its connection" when nothing comes back for
``TIMEOUT_S``; these tests check the kernel's side of that bargain, with messages as the page
sends and receives them.
"""

from __future__ import annotations

import contextlib
import json
import queue
import time
from collections.abc import Iterator
from typing import Any

import pytest
from test_errors import Kernel  # the same kernel driver

from spades_tutor.ui.heartbeat import INTERVAL_S, TIMEOUT_S

# the kernel's heartbeat at a 1 s interval (the page's default is INTERVAL_S): the same beats and the
# same silence, in a quarter of the waiting
INTERVAL = 1.0
BUSY_S = 3.0


@pytest.fixture(scope="module")
def kernel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Kernel, dict[str, str]]]:
    k = Kernel(tmp_path_factory.mktemp("kernel") / "stderr.log", {})
    try:
        ids = k.run(
            "import json, time\n"
            "import ipywidgets as w\n"
            "from spades_tutor.ui.heartbeat import Heartbeat\n"
            f"hb = Heartbeat(interval_ms={int(INTERVAL * 1000)})\n"
            "slow = w.Button()\n"
            f"slow.on_click(lambda _b: time.sleep({BUSY_S}))  # a callback as long as a Joker lab run\n"
            "print(json.dumps({'hb': hb.model_id, 'slow': slow.model_id}))\n"
        )
        yield k, json.loads(ids)
    finally:
        k.stop()


def from_widget(msgs: list[dict[str, Any]], comm_id: str) -> list[dict[str, Any]]:
    """The custom messages the widget ``comm_id`` sent to the page."""
    return [
        m["content"]["data"]["content"]
        for m in msgs
        if m["msg_type"] == "comm_msg"
        and m["content"]["comm_id"] == comm_id
        and m["content"]["data"].get("method") == "custom"
    ]


def ping(k: Kernel, comm_id: str, n: Any) -> list[dict[str, Any]]:
    return from_widget(k.comm(comm_id, {"method": "custom", "content": {"ping": n}}), comm_id)


def test_a_ping_is_answered(kernel: tuple[Kernel, dict[str, str]]) -> None:
    k, ids = kernel
    assert ping(k, ids["hb"], 1) == [{"pong": 1}]
    assert ping(k, ids["hb"], "1") == []  # anything but a ping number gets no answer


@pytest.mark.slow
def test_a_long_callback_beats_so_the_page_does_not_give_up(kernel: tuple[Kernel, dict[str, str]]) -> None:
    k, ids = kernel
    assert ping(k, ids["hb"], 2) == [{"pong": 2}]
    start = time.monotonic()
    published = k.comm(ids["slow"], {"method": "custom", "content": {"event": "click"}})
    assert time.monotonic() - start >= BUSY_S
    beats = [c for c in from_widget(published, ids["hb"]) if "beat" in c]
    # the page hears from the kernel at least every interval (+ slack), well inside its timeout
    assert len(beats) >= int(BUSY_S / INTERVAL) - 1 and 2 * INTERVAL_S < TIMEOUT_S


@pytest.mark.slow
def test_an_idle_kernel_sends_nothing_unasked(kernel: tuple[Kernel, dict[str, str]]) -> None:
    """After the page is gone (no pings), the kernel stays quiet, so the culler can free it."""
    k, ids = kernel
    ping(k, ids["hb"], 3)
    heard: list[dict[str, Any]] = []
    deadline = time.monotonic() + 2.5 * INTERVAL
    while time.monotonic() < deadline:
        with contextlib.suppress(queue.Empty):
            heard.append(k.kc.get_iopub_msg(timeout=0.5))
    assert heard == []


@pytest.mark.slow
def test_an_interval_sent_by_the_page_does_not_make_the_beats_spin(kernel: tuple[Kernel, dict[str, str]]) -> None:
    """The kernel beats at the interval it made the widget with: a page that sets interval_ms to 0
    (widget state is the page's to send) gets no more beats than before."""
    k, ids = kernel
    k.comm(ids["hb"], {"method": "update", "state": {"interval_ms": 0}, "buffer_paths": []})
    assert ping(k, ids["hb"], 4) == [{"pong": 4}]
    published = k.comm(ids["slow"], {"method": "custom", "content": {"event": "click"}})
    beats = [c for c in from_widget(published, ids["hb"]) if "beat" in c]
    assert 1 <= len(beats) <= int(BUSY_S / INTERVAL) + 1
