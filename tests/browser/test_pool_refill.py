"""The app server's warm kernel pool refilled behind a class (:mod:`spades_tutor.kernel_pool`): one kernel
warming at a time, only after a quiet delay, and a learner arriving while none is ready is never queued
behind the refill. A real server with a pool of 3; its pages are taken by plain HTTP requests, each from
its own loopback address, as the learners' laptops of a room (no browser)."""

from __future__ import annotations

import http.client
import re
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from .conftest import Server, free_port, kernel_id_from_html, start_server

pytestmark = pytest.mark.browser  # starts servers and kernels: with the other server tests, not the unit tests

POOL = 3
STARTED = re.compile(r"refilling the pool of app\.ipynb: kernel ([0-9a-f-]{36}) started")
WARM = re.compile(r"refilling the pool of app\.ipynb: kernel ([0-9a-f-]{36}) warm after")
HANDED = re.compile(r"Using pre-heated kernel: ([0-9a-f-]{36}) for app\.ipynb")


def pool_server(fill_delay: float, *extra: str) -> Server:
    cmd = [
        sys.executable, "-m", "spades_tutor.server", "notebooks/app.ipynb", f"--port={free_port()}", "--no-browser",
        f"--TutorVoila.app_pool_size={POOL}", f"--VoilaKernelManager.fill_delay={fill_delay}",
        "--TutorVoila.reclaim_unconnected=False",  # the pages here open no websocket: keep their kernels
        *extra,
    ]  # fmt: skip
    server = start_server("pool-refill", cmd)
    server.wait_for_log(rf"Kernel pool of app\.ipynb is filled with {POOL} kernel", timeout=120)
    return server


@pytest.fixture
def quick_refill() -> Iterator[Server]:
    server = pool_server(3.0)
    yield server
    server.stop()


@pytest.fixture
def slow_refill() -> Iterator[Server]:
    server = pool_server(600.0)
    yield server
    server.stop()


def take_page(server: Server, client: str) -> str:
    """A learner's page from loopback address ``client``: the kernel id it was given."""
    conn = http.client.HTTPConnection(
        "127.0.0.1", int(server.base_url.rsplit(":", 1)[1]), timeout=120, source_address=(client, 0)
    )
    try:
        conn.request("GET", "/")
        response = conn.getresponse()
        body = response.read().decode("utf-8", "replace")
    finally:
        conn.close()
    assert response.status == 200, response.status
    return kernel_id_from_html(body)


def take_all(server: Server, clients: list[str]) -> list[str]:
    """Pages for ``clients`` at once, as a class arriving."""
    with ThreadPoolExecutor(len(clients)) as pool:
        return list(pool.map(lambda c: take_page(server, c), clients))


def test_the_refill_waits_for_quiet_then_warms_one_kernel_at_a_time_back_to_a_full_pool(quick_refill: Server) -> None:
    server = quick_refill
    pooled = set(server.kernels())
    assert len(pooled) == POOL
    asked = time.monotonic()  # no page was handed out before: the quiet delay ends 3 s after this at the earliest
    taken = take_all(server, [f"127.0.0.{20 + i}" for i in range(POOL)])
    assert set(taken) == pooled  # every page was given a warm kernel
    counts: list[
        tuple[float, int, int, int]
    ] = []  # seconds since the pages were asked for, kernels, refills started, warm
    deadline = asked + 120
    while len(WARM.findall(server.log())) < POOL and time.monotonic() < deadline:
        kernels = len(server.kernels())
        log = server.log()
        counts.append((time.monotonic() - asked, kernels, len(STARTED.findall(log)), len(WARM.findall(log))))
        time.sleep(0.1)
    log = server.log()
    events = re.findall(r"refilling the pool of app\.ipynb: kernel ([0-9a-f-]{36}) (started|warm)", log)
    assert [what for _, what in events] == ["started", "warm"] * POOL, events  # one warming at a time
    refilled = [kernel for kernel, what in events if what == "warm"]
    assert [kernel for kernel, what in events if what == "started"] == refilled
    assert len(set(refilled) | set(taken)) == 2 * POOL
    # nothing started within the quiet delay after the pages were handed out
    assert all(kernels == POOL and started == 0 for t, kernels, started, _ in counts if t < 2.5), counts[:30]
    # at no moment more than one refill kernel past the warm ones
    assert all(kernels <= POOL + warm + 1 for _, kernels, _, warm in counts), counts
    assert max(kernels for _, kernels, _, _ in counts) > POOL  # the samples did see the refill
    assert set(server.kernels()) == set(taken) | set(refilled)
    # the pool is full again: the next learners get the refilled kernels, warm
    again = take_all(server, [f"127.0.0.{30 + i}" for i in range(POOL)])
    assert set(again) == set(refilled)
    assert set(HANDED.findall(server.log())) >= set(again)


def test_a_learner_arriving_while_none_is_ready_gets_a_kernel_at_once_not_one_queued_for_the_refill(
    slow_refill: Server,
) -> None:
    server = slow_refill
    taken = take_all(server, [f"127.0.0.{40 + i}" for i in range(POOL)])
    # the pool is empty and its refill waits for ten quiet minutes: the next learner is not made to wait for it
    late: list[str] = []
    thread = threading.Thread(target=lambda: late.append(take_page(server, "127.0.0.50")))
    thread.start()
    thread.join(timeout=120)
    assert late, "the learner who came when the pool was empty got no page"
    assert late[0] not in taken
    assert late[0] not in HANDED.findall(server.log())  # a kernel started for them, not a pool entry
    assert not STARTED.search(server.log())  # ... while the refill still waits its quiet delay
    assert set(server.kernels()) == {*taken, late[0]}
