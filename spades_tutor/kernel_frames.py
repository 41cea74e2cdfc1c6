"""What a page may send on its kernel websocket, checked before Jupyter Server reads a byte of it.

Jupyter Server reads an incoming binary frame by trusting the counts inside it: the
``v1.kernel.websocket.jupyter.org`` framing starts with an 8-byte count of offsets, and Jupyter
Server built a list of that many offsets (one 8-byte frame claiming 150 million froze the whole
class server for 51 s and took 2.4 GB); the legacy framing starts with a 4-byte count, from which
it built a ``struct`` format of that many fields (one 4-byte frame claiming 30 million left about
1 GB in ``struct``'s cache, for good). Here a frame is checked first:

- :func:`frame_problem` (cheap, nothing parsed): the size, the count (a message's four parts and
  at most :data:`MAX_BUFFERS` buffers), every offset inside the frame and in order;
- :func:`read_incoming` (the JSON): the channel one the kernel listens on, the header a JSON object
  with a message id and an allowed type, the other parts JSON objects (a kernel logs a traceback
  for a message it cannot read);
- :class:`FloodGate`: a token bucket per kernel, so one learner's click flood is dropped at the
  door instead of queued for their kernel (121,523 clicks in 20 s slowed every other learner's
  clicks to 2.1 s, and the kernel computed for 90 s after).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Literal

__all__ = [
    "CHANNELS",
    "MAX_BUFFERS",
    "MAX_FRAME_BYTES",
    "FloodGate",
    "FrameRefused",
    "TokenBucket",
    "frame_problem",
    "read_incoming",
]

# The largest frame a page may send: four times the most it may store for the app (the page's
# progress, spades_tutor.ui.storage.MAX_STORED), which a widget update carries. Tornado's default
# is 10 MiB; a larger frame closes the connection (code 1009) before it is read.
MAX_FRAME_BYTES = 2 * 1024 * 1024
# Buffers one message may carry (the app's widgets send none; ipywidgets' binary traits a few).
MAX_BUFFERS = 32
# The channels a page sends on (iopub is the kernel's, one way).
CHANNELS = frozenset({"shell", "control", "stdin"})
_PARTS = ("header", "parent_header", "metadata", "content")


class FrameRefused(ValueError):
    """A frame the server will not pass on; the message says why, in the server's words."""


def frame_problem(frame: bytes | str, v1: bool) -> str | None:
    """Why ``frame`` cannot be a kernel message in its connection's framing, or None: read nothing, allocate nothing.

    ``v1``: 8-byte little-endian count ``n`` then ``n`` offsets (channel, the four parts, the
    buffers; the first right after the offsets); legacy binary: 4-byte big-endian count ``n`` then
    ``n`` offsets (the JSON message, then its buffers). Text frames are the legacy JSON framing only.

    >>> frame_problem((15 * 10**7).to_bytes(8, "little"), v1=True)
    'v1 frame claims 150000000 offsets (6 to 38)'
    >>> import struct
    >>> frame_problem(struct.pack("!i", 30_000_000), v1=False)
    'legacy frame claims 30000000 parts (1 to 33)'
    >>> frame_problem(struct.pack("!i", -1), v1=False)
    'legacy frame claims 4294967295 parts (1 to 33)'
    >>> good = v1_frame("shell", [b"{}", b"{}", b"{}", b"{}"])
    >>> frame_problem(good, v1=True) is None
    True
    >>> frame_problem(good[:-1], v1=True)
    'v1 frame offsets out of order or beyond its 68 bytes'
    >>> frame_problem(good, v1=False)
    'legacy frame claims 100663296 parts (1 to 33)'
    >>> frame_problem("{}", v1=True)
    'text frame on a v1 connection'
    >>> frame_problem(b"x" * (MAX_FRAME_BYTES + 1), v1=True)
    'frame of 2097153 bytes (at most 2097152)'
    """
    if len(frame) > MAX_FRAME_BYTES:
        return f"frame of {len(frame)} bytes (at most {MAX_FRAME_BYTES})"
    if isinstance(frame, str):
        return "text frame on a v1 connection" if v1 else None
    order: Literal["little", "big"] = "little" if v1 else "big"
    size, low, high, name = (8, 6, 6 + MAX_BUFFERS, "v1") if v1 else (4, 1, 1 + MAX_BUFFERS, "legacy")
    what = "offsets" if v1 else "parts"
    if len(frame) < size:
        return f"{name} frame of {len(frame)} bytes"
    count = int.from_bytes(frame[:size], order)
    if not low <= count <= high:
        return f"{name} frame claims {count} {what} ({low} to {high})"
    table_end = size * (count + 1)
    if table_end > len(frame):
        return f"{name} frame claims {count} {what} but has {len(frame)} bytes of offsets"
    offsets = [int.from_bytes(frame[size * (i + 1) : size * (i + 2)], order) for i in range(count)]
    if offsets[0] != table_end or any(a > b for a, b in pairwise(offsets)) or offsets[-1] > len(frame):
        return f"{name} frame offsets out of order or beyond its {len(frame)} bytes"
    return None


def read_incoming(frame: bytes | str, v1: bool, allowed: Collection[str] = ()) -> tuple[str, str]:
    """The channel and message type of a frame :func:`frame_problem` passed; :class:`FrameRefused` if it
    is not a message the kernel can read, on a channel it listens on, of a type in ``allowed`` (when given).

    >>> header = json.dumps({"msg_id": "1", "msg_type": "comm_msg"}).encode()
    >>> read_incoming(v1_frame("shell", [header, b"{}", b"{}", b'{"comm_id": "c"}']), v1=True)
    ('shell', 'comm_msg')
    >>> read_incoming(v1_frame("shell", [header, b"{}", b"{}", b"{}"]), v1=True, allowed=["kernel_info_request"])
    Traceback (most recent call last):
    ...
    spades_tutor.kernel_frames.FrameRefused: message type 'comm_msg' is not allowed
    >>> read_incoming(v1_frame("iopub", [header, b"{}", b"{}", b"{}"]), v1=True)
    Traceback (most recent call last):
    ...
    spades_tutor.kernel_frames.FrameRefused: no channel 'iopub' to send on
    >>> read_incoming(v1_frame("shell", [header, b"{}", b"[]", b"{}"]), v1=True)
    Traceback (most recent call last):
    ...
    spades_tutor.kernel_frames.FrameRefused: metadata is not a JSON object
    >>> legacy = {"header": {"msg_id": "2", "msg_type": "kernel_info_request"}, "parent_header": {},
    ...           "metadata": {}, "content": {}, "channel": "shell"}
    >>> read_incoming(json.dumps(legacy), v1=False)
    ('shell', 'kernel_info_request')
    >>> read_incoming(legacy_frame(json.dumps(legacy).encode(), b"buffer"), v1=False)
    ('shell', 'kernel_info_request')
    >>> read_incoming(json.dumps({**legacy, "channel": None}), v1=False)
    Traceback (most recent call last):
    ...
    spades_tutor.kernel_frames.FrameRefused: no channel None to send on
    """
    if v1:
        assert isinstance(frame, bytes)
        count = int.from_bytes(frame[:8], "little")
        offsets = [int.from_bytes(frame[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(count)]
        try:
            channel: object = frame[offsets[0] : offsets[1]].decode("utf-8")
        except UnicodeDecodeError:
            raise FrameRefused("the channel's name is not UTF-8") from None
        parts = {name: _json(frame[offsets[i + 1] : offsets[i + 2]], name) for i, name in enumerate(_PARTS)}
    else:
        if isinstance(frame, bytes):
            count = int.from_bytes(frame[:4], "big")
            start = int.from_bytes(frame[4:8], "big")
            end = int.from_bytes(frame[8:12], "big") if count > 1 else len(frame)
            message = _json(frame[start:end], "message")
        else:
            message = _json(frame, "message")
        parts = {}
        for name in _PARTS:
            part = message.get(name)
            if not isinstance(part, dict):
                raise FrameRefused(f"{name} is not a JSON object")
            parts[name] = part
        channel = message.get("channel")
    if channel not in CHANNELS:
        raise FrameRefused(f"no channel {channel!r} to send on")
    header = parts["header"]
    msg_type, msg_id = header.get("msg_type"), header.get("msg_id")
    if not isinstance(msg_type, str) or not isinstance(msg_id, str):
        raise FrameRefused("the header has no message type or id")
    if allowed and msg_type not in allowed:
        raise FrameRefused(f"message type {msg_type[:40]!r} is not allowed")
    return str(channel), msg_type


def _json(data: bytes | str, name: str) -> dict[str, object]:
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        raise FrameRefused(f"{name} is not JSON") from None
    if not isinstance(value, dict):
        raise FrameRefused(f"{name} is not a JSON object")
    return value


def v1_frame(channel: str, parts: list[bytes]) -> bytes:
    """``parts`` (header, parent header, metadata, content, buffers) on ``channel`` in the v1 framing, as a page sends them."""
    pieces = [channel.encode(), *parts]
    offsets = [8 * (len(pieces) + 2)]
    for piece in pieces:
        offsets.append(offsets[-1] + len(piece))
    return b"".join([len(offsets).to_bytes(8, "little"), *(o.to_bytes(8, "little") for o in offsets), *pieces])


def legacy_frame(message: bytes, *buffers: bytes) -> bytes:
    """A JSON message and its buffers in the legacy binary framing."""
    pieces = [message, *buffers]
    offsets = [4 * (len(pieces) + 1)]
    for piece in pieces[:-1]:
        offsets.append(offsets[-1] + len(piece))
    return b"".join([len(pieces).to_bytes(4, "big"), *(o.to_bytes(4, "big") for o in offsets), *pieces])


# --- floods -------------------------------------------------------------------------------------------

# A learner's page sends a handful of messages when it opens and one or two per click; a person
# clicks a few times a second at most. A burst of BURST passes at once, then RATE a second.
BURST = 30
RATE = 10.0


@dataclass
class TokenBucket:
    """``burst`` messages at once, ``rate`` a second after that; :meth:`take` says whether one more may pass.

    >>> now = [0.0]
    >>> bucket = TokenBucket(rate=10, burst=20, clock=lambda: now[0])
    >>> sum(bucket.take() for _ in range(1000))
    20
    >>> now[0] = 0.5
    >>> sum(bucket.take() for _ in range(1000))
    5
    >>> now[0] = 100.0
    >>> sum(bucket.take() for _ in range(1000))  # a long pause fills it up to the burst, no more
    20
    """

    rate: float
    burst: float
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    last: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst
        self.last = self.clock()

    def _refill(self, now: float | None) -> None:
        now = self.clock() if now is None else now
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.last) * self.rate)
        self.last = now

    def take(self, now: float | None = None) -> bool:
        """Spend one if one is left (at ``now``, or the clock's time)."""
        self._refill(now)
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self, now: float | None = None) -> float:
        """Seconds until :meth:`take` would pass (0.0: now).

        >>> TokenBucket(rate=0.5, burst=1, clock=lambda: 0.0).wait(), TokenBucket(rate=0.5, burst=0, clock=lambda: 0.0).wait()
        (0.0, 2.0)
        """
        self._refill(now)
        if self.tokens >= 1:
            return 0.0
        return (1 - self.tokens) / self.rate if self.rate > 0 else math.inf

    def full(self, now: float | None = None) -> bool:
        """Whether the bucket is back at its burst (nothing spent is still missing)."""
        self._refill(now)
        return self.tokens >= self.burst


class FloodGate:
    """One :class:`TokenBucket` per kernel (all its websockets share it: another connection is no
    more budget); :attr:`dropped` counts each kernel's messages refused.

    >>> now = [0.0]
    >>> gate = FloodGate(rate=10, burst=20, clock=lambda: now[0])
    >>> [gate.admit("k1") for _ in range(25)].count(False), gate.admit("k2"), gate.dropped["k1"]
    (5, True, 5)
    """

    def __init__(
        self,
        *,
        rate: float = RATE,
        burst: float = BURST,
        max_kernels: int = 4096,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst, self.max_kernels, self.clock = rate, burst, max_kernels, clock
        self.buckets: dict[str, TokenBucket] = {}
        self.dropped: dict[str, int] = {}

    def admit(self, kernel_id: str) -> bool:
        bucket = self.buckets.get(kernel_id)
        if bucket is None:
            if len(self.buckets) >= self.max_kernels:
                self._forget()
            bucket = self.buckets[kernel_id] = TokenBucket(self.rate, self.burst, self.clock)
        if bucket.take():
            return True
        self.dropped[kernel_id] = self.dropped.get(kernel_id, 0) + 1
        return False

    def _forget(self) -> None:
        """Forget the buckets that are full again (their kernels quiet, or gone): a new one starts full too."""
        now = self.clock()
        for kernel_id in [k for k, b in self.buckets.items() if b.tokens + (now - b.last) * b.rate >= b.burst]:
            del self.buckets[kernel_id]
            self.dropped.pop(kernel_id, None)
        if len(self.buckets) >= self.max_kernels:  # all busy: forget the oldest
            oldest = min(self.buckets, key=lambda k: self.buckets[k].last)
            del self.buckets[oldest]
            self.dropped.pop(oldest, None)
