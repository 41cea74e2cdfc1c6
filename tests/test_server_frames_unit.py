"""The kernel websocket's frame checks and the rate-limited log, without a server.

What passes :func:`frame_problem` and :func:`read_incoming` is what Jupyter Server then parses: the
checks must accept every honest client's frame (Jupyter Server's own serializers stand for the
page's), refuse what made Jupyter Server loop or allocate, and never allocate in proportion to
what a frame claims.
"""

from __future__ import annotations

import json
import logging
import struct
import time
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jupyter_server.services.kernels.connection.base import (
    deserialize_binary_message,
    deserialize_msg_from_ws_v1,
    serialize_binary_message,
    serialize_msg_to_ws_v1,
)

from spades_tutor.kernel_frames import (
    MAX_BUFFERS,
    MAX_FRAME_BYTES,
    FloodGate,
    FrameRefused,
    TokenBucket,
    frame_problem,
    read_incoming,
)
from spades_tutor.ratelog import RateLimitedLog, RateLimitFilter

HEADER = {"msg_id": "m1", "msg_type": "comm_msg", "session": "s", "username": "", "date": "", "version": "5.3"}
ALLOWED = ("comm_open", "comm_close", "comm_msg", "comm_info_request", "kernel_info_request", "shutdown_request")


def honest_v1(buffers: list[bytes], channel: str = "shell") -> bytes:
    parts = [json.dumps(p).encode() for p in (HEADER, {}, {}, {"comm_id": "c", "data": {}})]
    return bytes(serialize_msg_to_ws_v1([*parts, *buffers], channel))


def honest_legacy(buffers: list[bytes]) -> bytes:
    msg = {"header": HEADER, "parent_header": {}, "metadata": {}, "content": {}, "channel": "shell", "buffers": buffers}
    return bytes(serialize_binary_message(msg))


@pytest.mark.parametrize("buffers", [[], [b"x"], [b"", b"abc" * 100], [b"b"] * MAX_BUFFERS])
def test_jupyter_server_s_own_frames_pass_and_read_as_it_reads_them(buffers: list[bytes]) -> None:
    frame = honest_v1(buffers)
    assert frame_problem(frame, v1=True) is None
    assert read_incoming(frame, v1=True, allowed=ALLOWED) == ("shell", "comm_msg")
    channel, parts = deserialize_msg_from_ws_v1(frame)
    assert channel == "shell" and json.loads(parts[0]) == HEADER and parts[4:] == buffers
    if buffers:  # the legacy framing sends a message with buffers in binary
        legacy = honest_legacy(buffers)
        assert frame_problem(legacy, v1=False) is None
        assert read_incoming(legacy, v1=False, allowed=ALLOWED) == ("shell", "comm_msg")
        assert deserialize_binary_message(legacy)["buffers"] == buffers


def test_too_many_buffers_are_refused() -> None:
    assert frame_problem(honest_v1([b"b"] * (MAX_BUFFERS + 1)), v1=True) is not None
    assert frame_problem(honest_legacy([b"b"] * (MAX_BUFFERS + 1)), v1=False) is not None


@pytest.mark.parametrize(
    ("frame", "v1"),
    [
        ((15 * 10**7).to_bytes(8, "little"), True),  # the issue's freeze
        ((2**64 - 1).to_bytes(8, "little"), True),
        (struct.pack("!i", 30_000_000), False),  # the issue's leak
        (struct.pack("!I", 2**32 - 1), False),
        (b"", True),
        (b"\x01\x00", False),
    ],
)
def test_the_issue_s_frames_are_refused_without_allocating(frame: bytes, v1: bool) -> None:
    tracemalloc.start()
    started = time.perf_counter()
    try:
        assert frame_problem(frame, v1) is not None
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.perf_counter() - started < 0.05
    assert peak < 64 * 1024


def test_offsets_must_lie_inside_the_frame_and_in_order() -> None:
    frame = bytearray(honest_v1([b"buffer"]))
    # the last offset past the end
    bad = bytearray(frame)
    bad[8 * 7 : 8 * 8] = (len(frame) + 1).to_bytes(8, "little")
    assert frame_problem(bytes(bad), v1=True) is not None
    # two offsets swapped
    bad = bytearray(frame)
    bad[16:24], bad[24:32] = frame[24:32], frame[16:24]
    assert frame_problem(bytes(bad), v1=True) is not None
    # the first offset not right after the table
    bad = bytearray(frame)
    bad[8:16] = (8).to_bytes(8, "little")
    assert frame_problem(bytes(bad), v1=True) is not None


def test_a_frame_over_the_size_limit_is_refused_text_or_binary() -> None:
    assert frame_problem("x" * (MAX_FRAME_BYTES + 1), v1=False) is not None
    assert frame_problem(b"\x00" * (MAX_FRAME_BYTES + 1), v1=True) is not None
    assert frame_problem("x" * 1000, v1=False) is None  # text: the JSON is read_incoming's business


@pytest.mark.parametrize(
    "msg",
    [
        [],
        {"channel": "shell"},
        {"header": {"msg_type": "comm_msg"}, "parent_header": {}, "metadata": {}, "content": {}, "channel": "shell"},
        {"header": {**HEADER}, "parent_header": {}, "metadata": {}, "content": {}, "channel": "iopub"},
        {"header": {**HEADER}, "parent_header": {}, "metadata": {}, "content": {}},
        {
            "header": {**HEADER, "msg_type": "execute_request"},
            "parent_header": {},
            "metadata": {},
            "content": {},
            "channel": "shell",
        },
        {"header": {**HEADER}, "parent_header": None, "metadata": {}, "content": {}, "channel": "shell"},
    ],
)
def test_legacy_text_that_is_not_an_allowed_message_is_refused(msg: object) -> None:
    with pytest.raises(FrameRefused):
        read_incoming(json.dumps(msg), v1=False, allowed=ALLOWED)


def test_deep_json_is_refused_not_raised() -> None:
    with pytest.raises(FrameRefused):
        read_incoming("[" * 100_000 + "]" * 100_000, v1=False)


@settings(max_examples=300, deadline=None)
@given(
    head=st.lists(st.integers(0, 200), min_size=1, max_size=12),
    tail=st.binary(max_size=200),
    v1=st.booleans(),
)
def test_whatever_passes_the_checks_jupyter_server_reads_without_error(head: list[int], tail: bytes, v1: bool) -> None:
    """Random counts and offsets: a frame the checks pass is one Jupyter Server parses without an exception."""
    size, order = (8, "little") if v1 else (4, "big")
    frame = b"".join(n.to_bytes(size, order) for n in head) + tail
    if frame_problem(frame, v1) is not None:
        return
    try:
        read_incoming(frame, v1)
    except FrameRefused:
        return
    if v1:
        channel, parts = deserialize_msg_from_ws_v1(frame)
        assert channel in ("shell", "control", "stdin") and len(parts) >= 4
    else:
        assert isinstance(deserialize_binary_message(frame)["header"], dict)


def test_the_token_bucket_lets_a_person_through_and_stops_a_flood() -> None:
    now = [0.0]
    gate = FloodGate(clock=lambda: now[0])
    # a person: a burst of 20 as a page opens, then 5 clicks a second for a minute: nothing dropped
    assert all(gate.admit("k") for _ in range(20))
    for _ in range(300):
        now[0] += 0.2
        assert gate.admit("k")
    # a flood of 6,000 a second for 20 s: what passes is the rate, not the flood
    passed = 0
    for _ in range(120_000):
        now[0] += 1 / 6000
        passed += gate.admit("k")
    assert passed <= gate.burst + 20 * gate.rate + 1
    assert gate.dropped["k"] == 120_000 - passed


def test_the_gate_forgets_quiet_kernels_first() -> None:
    now = [0.0]
    gate = FloodGate(max_kernels=3, clock=lambda: now[0])
    for k in ("a", "b", "c"):
        gate.admit(k)
    for _ in range(100):
        gate.admit("c")  # c floods
    now[0] += 1  # a and b are full again (c, emptied, is not): forgotten first
    gate.admit("d")
    assert set(gate.buckets) == {"c", "d"} and gate.dropped["c"] > 0


def test_a_token_bucket_never_holds_more_than_its_burst() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=10, burst=5, clock=lambda: now[0])
    now[0] = 3600.0
    assert sum(bucket.take() for _ in range(100)) == 5


def test_the_rate_limited_log_is_bounded_whatever_the_keys() -> None:
    records: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    logger = logging.getLogger("test-ratelog-bounded")
    logger.propagate = False
    logger.addHandler(Collect())
    now = [0.0]
    log = RateLimitedLog(logger, per_key=3, in_all=60, period=60, max_keys=100, clock=lambda: now[0])
    for i in range(100_000):  # a flood from ever new "clients"
        log.warning(("frame", f"10.0.{i // 256}.{i % 256}"), "bad frame from %s", i)
    assert len(records) == 60
    assert len(log._windows) <= 100
    now[0] = 61.0
    for _ in range(1000):
        log.warning(("frame", "10.0.0.1"), "bad frame from %s", "10.0.0.1")
    assert len(records) == 63


def test_the_filter_keeps_a_handler_to_a_few_lines_of_each_kind() -> None:
    now = [0.0]
    f = RateLimitFilter(per_key=3, in_all=60, period=60, clock=lambda: now[0])

    def record(msg: str, *args: object) -> logging.LogRecord:
        return logging.LogRecord("IPKernelApp", logging.ERROR, __file__, 1, msg, args, None)

    assert sum(f.filter(record("Invalid message")) for _ in range(10_000)) == 3
    assert sum(f.filter(record("No such comm: %s", i)) for i in range(10_000)) == 3  # keyed by format, not args
    now[0] = 60.0
    r = record("Invalid message")
    assert f.filter(r) and "9997 more like it" in r.getMessage()
