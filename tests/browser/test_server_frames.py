"""The class server (``spades-tutor app``) against a learner who attacks it over their own kernel websocket.

One server, started as a teacher starts it for a room. Two learners, each from their own loopback
address and with their own kernel: the attacker (127.0.0.4) and a bystander (127.0.0.5). While the
attacker sends what the issue "The class server under attack" found, the bystander clicks (a
kernel_info_request's round trip over their websocket, ten a second): their clicks must stay
quick, the server's memory must come back, the attack must not reach the attacker's kernel, and
the server's log must stay short. The attacks are bounded so that a server without the checks
fails these tests in seconds and with a few hundred MiB, not with the 51 s and 2.4 GB found.
"""

from __future__ import annotations

import http.client
import json
import re
import struct
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import psutil
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from spades_tutor.ratelog import PER_KEY

from .conftest import Server, free_port, kernel_id_from_html, start_server

pytestmark = [pytest.mark.browser, pytest.mark.timed]  # measures a server under attack: run with fewer beside it

CODE = "K7M2QX"
V1 = "v1.kernel.websocket.jupyter.org"
ATTACKER = "127.0.0.4"
BYSTANDER = "127.0.0.5"
# what the bystander's clicks may take during an attack, and what the server's memory may keep
CLICK_P95_S = 0.5
RSS_SLACK_MIB = 200
# log lines an attack may add (a few warnings, the connections' own lines), for hundreds of bad frames
LOG_LINES = 40


@pytest.fixture(scope="module")
def class_server() -> Iterator[Server]:
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "spades_tutor",
        "app",
        f"--port={port}",
        "--no-browser",
        "--ip",
        "0.0.0.0",
        "--class-code",
        CODE,
        "--class-size",
        "4",
        "--kernels-per-client",
        "2",
    ]
    server = start_server("frames-server", cmd)
    server.wait_for_log(r"Kernel pool of app\.ipynb is filled", timeout=120)
    yield server
    server.stop()


def port_of(server: Server) -> int:
    return int(server.base_url.rsplit(":", 1)[1])


def request(
    server: Server, client: str, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], str]:
    conn = http.client.HTTPConnection(client, port_of(server), timeout=120, source_address=(client, 0))
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read().decode()
    finally:
        conn.close()


@dataclass
class Learner:
    client: str
    kernel_id: str
    cookie: str
    server: Server
    session: str = field(default_factory=lambda: uuid.uuid4().hex)

    def socket(self, v1: bool = True) -> ClientConnection:
        """A websocket on the learner's kernel, as their page opens it (``v1``) or a legacy client does."""
        port = port_of(self.server)
        url = f"ws://{self.client}:{port}/api/kernels/{self.kernel_id}/channels?session_id={uuid.uuid4().hex}"
        return connect(
            url,
            origin=f"http://{self.client}:{port}",
            additional_headers={"Cookie": self.cookie},
            subprotocols=[V1] if v1 else None,  # type: ignore[list-item]
            open_timeout=30,
            max_size=None,
            # a socket held open and never read keeps reading what the kernel says (its pongs among it):
            # with the default queue it would stop at 16 messages and close on a keepalive timeout
            max_queue=None,
            source_address=(self.client, 0),  # the server hands a kernel to one client address only
        )

    def kernel_process(self) -> psutil.Process:
        return self.server.kernels()[self.kernel_id]


def learner(server: Server, client: str) -> Learner:
    status, headers, _ = request(server, client, f"/?code={CODE}")
    assert status == 302, status
    cookie = headers["set-cookie"].split(";", 1)[0]
    status, _, html = request(server, client, "/", {"Cookie": cookie})
    assert status == 200, status
    return Learner(client, kernel_id_from_html(html), cookie, server)


def message(
    msg_type: str, content: dict[str, Any], session: str, metadata: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {
        "header": {
            "msg_id": uuid.uuid4().hex,
            "msg_type": msg_type,
            "session": session,
            "username": "",
            "date": "2026-12-01T00:00:00Z",
            "version": "5.3",
        },
        "parent_header": {},
        "metadata": metadata or {},
        "content": content,
        "channel": "shell",
    }


def v1_frame(msg: dict[str, Any]) -> bytes:
    """``msg`` in the v1 framing, as a page's kernel connection sends it."""
    pieces = [msg["channel"].encode()] + [
        json.dumps(msg[k]).encode() for k in ("header", "parent_header", "metadata", "content")
    ]
    offsets = [8 * (len(pieces) + 2)]
    for piece in pieces:
        offsets.append(offsets[-1] + len(piece))
    return b"".join([len(offsets).to_bytes(8, "little"), *(o.to_bytes(8, "little") for o in offsets), *pieces])


def v1_parts(frame: bytes) -> tuple[str, list[bytes]]:
    count = int.from_bytes(frame[:8], "little")
    offsets = [int.from_bytes(frame[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(count)]
    return frame[offsets[0] : offsets[1]].decode(), [frame[offsets[i] : offsets[i + 1]] for i in range(1, count - 1)]


def round_trip(ws: ClientConnection, msg: dict[str, Any], v1: bool = True, timeout: float = 5) -> dict[str, Any] | None:
    """Send ``msg``; the content of the shell reply to it, or None if none came in ``timeout`` s."""
    ws.send(v1_frame(msg) if v1 else json.dumps(msg))
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            frame = ws.recv(timeout=left)
        except TimeoutError:
            return None
        if isinstance(frame, bytes) and v1:
            channel, parts = v1_parts(frame)
            if channel == "shell" and json.loads(parts[1]).get("msg_id") == msg["header"]["msg_id"]:
                return dict(json.loads(parts[3]))
        elif isinstance(frame, str) and not v1:
            reply = json.loads(frame)
            if reply.get("parent_header", {}).get("msg_id") == msg["header"]["msg_id"]:
                return dict(reply["content"])
    return None


def widget_states(ws: ClientConnection, session: str) -> dict[str, dict[str, Any]]:
    """Every widget's state, by model id, as a page's widget manager asks for them when it opens."""
    control = uuid.uuid4().hex
    ws.send(
        v1_frame(
            message(
                "comm_open",
                {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}},
                session,
                {"version": "1.0.0"},  # ipywidgets 8's widget control protocol
            )
        )
    )
    ws.send(v1_frame(message("comm_msg", {"comm_id": control, "data": {"method": "request_states"}}, session)))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        channel, parts = v1_parts(ws.recv(timeout=30))  # type: ignore[arg-type]
        content = json.loads(parts[3])
        if channel == "iopub" and content.get("comm_id") == control:
            data = content.get("data", {})
            if data.get("method") == "update_states":
                ws.send(v1_frame(message("comm_close", {"comm_id": control, "data": {}}, session)))
                return {mid: dict(entry.get("state", {})) for mid, entry in data["states"].items()}
    raise AssertionError("the kernel sent no widget states")


def page_opened(ws: ClientConnection, session: str, states: dict[str, dict[str, Any]]) -> None:
    """What a fresh page's stores send once drawn (their empty saved value): the app then takes clicks."""
    for mid, state in states.items():
        if state.get("_model_name") == "AnyModel" and {"key", "value", "loaded"} <= state.keys():
            data = {"method": "update", "state": {"value": "", "loaded": True}, "buffer_paths": []}
            ws.send(v1_frame(message("comm_msg", {"comm_id": mid, "data": data}, session)))


def button(states: dict[str, dict[str, Any]], description: str) -> str:
    return next(
        mid
        for mid, state in states.items()
        if state.get("_model_name") == "ButtonModel" and state.get("description") == description
    )


def click(comm_id: str, session: str) -> dict[str, Any]:
    """A Button's click, as the page sends it."""
    return message(
        "comm_msg", {"comm_id": comm_id, "data": {"method": "custom", "content": {"event": "click"}}}, session
    )


class Clicks:
    """The bystander clicking ten times a second over their own websocket: each click's round trip."""

    TIMEOUT_S = 5.0

    def __init__(self, who: Learner) -> None:
        self.who = who
        self.times: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with self.who.socket() as ws:
            while not self._stop.is_set():
                started = time.monotonic()
                reply = round_trip(ws, message("kernel_info_request", {}, self.who.session), timeout=self.TIMEOUT_S)
                self.times.append(time.monotonic() - started if reply is not None else self.TIMEOUT_S)
                self._stop.wait(0.1)

    def __enter__(self) -> Clicks:
        self._thread.start()
        deadline = time.monotonic() + 30
        while len(self.times) < 5:  # connected, and clicking normally before the attack
            assert time.monotonic() < deadline, "the bystander's clicks were not answered before the attack"
            time.sleep(0.1)
        self.times.clear()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=2 * self.TIMEOUT_S)

    def p95(self) -> float:
        s = sorted(self.times)  # a click not answered in TIMEOUT_S counts as TIMEOUT_S
        assert len(s) >= 3, f"only {len(s)} clicks measured"
        return s[int(0.95 * (len(s) - 1))]


class Memory:
    """The server process's RSS in MiB: before, at its highest while in the block, and after."""

    def __init__(self, server: Server) -> None:
        self.process = psutil.Process(server.proc.pid)
        self.peak = self.before = self.now()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def now(self) -> float:
        return float(self.process.memory_info().rss) / 2**20

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            self.peak = max(self.peak, self.now())

    def __enter__(self) -> Memory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def log_lines(server: Server) -> int:
    return len(server.log().splitlines())


@pytest.fixture(scope="module")
def learners(class_server: Server) -> Iterator[tuple[Learner, Learner]]:
    """The attacker and the bystander, each with a kernel (and a websocket held open, so it is not culled)."""
    attacker, bystander = learner(class_server, ATTACKER), learner(class_server, BYSTANDER)
    with attacker.socket(), bystander.socket():
        # the pool refills what they took after a delay: let it, so its kernels' start is not measured
        deadline = time.monotonic() + 120
        while len(class_server.kernels()) < 6:
            assert time.monotonic() < deadline, "the kernel pool did not refill"
            time.sleep(0.5)
        time.sleep(5)
        yield attacker, bystander


def check_bounds(clicks: Clicks, memory: Memory, log_before: int, server: Server) -> None:
    s = sorted(clicks.times)
    print(
        f"bystander: {len(s)} clicks, median {s[len(s) // 2]:.3f} s, p95 {clicks.p95():.3f} s, max {s[-1]:.3f} s;"
        f" server RSS {memory.before:.0f} -> peak {memory.peak:.0f} -> {memory.now():.0f} MiB;"
        f" {log_lines(server) - log_before} log lines"
    )
    assert clicks.p95() <= CLICK_P95_S, f"the bystander's clicks took {clicks.p95():.2f} s (p95) during the attack"
    assert memory.peak - memory.before <= RSS_SLACK_MIB, (
        f"the server grew from {memory.before:.0f} to {memory.peak:.0f} MiB"
    )
    after = memory.now()
    assert after - memory.before <= RSS_SLACK_MIB, f"the server kept {after - memory.before:.0f} MiB after the attack"
    added = log_lines(server) - log_before
    assert added <= LOG_LINES, f"the attack wrote {added} log lines"


# --- 1. one 8-byte frame froze the class -------------------------------------------------------------


def test_a_v1_frame_claiming_millions_of_offsets_is_dropped_unread(
    class_server: Server, learners: tuple[Learner, Learner]
) -> None:
    """Jupyter Server built a list of as many offsets as an incoming v1 frame claims: 2e7 took the
    server seconds and hundreds of MiB, everyone's clicks waiting (1.5e8: 51 s and 2.4 GB)."""
    attacker, bystander = learners
    log_before = log_lines(class_server)
    with Clicks(bystander) as clicks, Memory(class_server) as memory, attacker.socket() as ws:
        ws.send((2 * 10**7).to_bytes(8, "little"))
        for count in range(3, 303):  # and hundreds of small lies, each once a warning line
            ws.send(count.to_bytes(8, "little") + bytes(8 * count))
        time.sleep(8)
        # the attacker's own connection still carries an honest message
        answered = round_trip(ws, message("kernel_info_request", {}, attacker.session)) is not None
    check_bounds(clicks, memory, log_before, class_server)
    assert answered, "the attacker's connection no longer carries an honest message"
    assert re.search(rf"dropped a websocket frame from {re.escape(ATTACKER)}: v1 frame claims", class_server.log())


def test_a_frame_over_two_mib_closes_its_connection_unread(
    class_server: Server, learners: tuple[Learner, Learner]
) -> None:
    """No page sends that much (its stored progress is at most 512 KiB): tornado closes the connection
    (1009, message too big) before reading it, where its default let 10 MiB through to be parsed."""
    attacker, _ = learners
    with attacker.socket() as ws:
        try:
            ws.send(bytes(3 * 2**20))
        except (ConnectionClosed, ConnectionResetError, BrokenPipeError):
            # the server closed the connection before the client had sent it all: it was not read either
            pass
        else:
            deadline = time.monotonic() + 20
            with pytest.raises(ConnectionClosed) as closed:
                while time.monotonic() < deadline:
                    ws.recv(timeout=20)
            # closed, not read: with a close frame saying why (1009, message too big), or, when the
            # server's close met the rest of the frame still arriving, with none (the socket reset)
            received = closed.value.rcvd
            assert received is None or received.code == 1009, received
    with attacker.socket() as ws:  # a new connection works as before
        assert round_trip(ws, message("kernel_info_request", {}, attacker.session)) is not None


# --- 2. one 4-byte frame leaked a gigabyte -----------------------------------------------------------


def test_a_legacy_frame_claiming_millions_of_parts_leaks_nothing(
    class_server: Server, learners: tuple[Learner, Learner]
) -> None:
    """On a websocket without the v1 subprotocol, Jupyter Server made a ``struct`` format of as many
    fields as a binary frame claims, which ``struct`` keeps in its cache: about 1 GB per 3e7, for good."""
    attacker, bystander = learners
    log_before = log_lines(class_server)
    with Clicks(bystander) as clicks, Memory(class_server) as memory:
        for i in range(3):  # three connections, as the three reconnects
            with attacker.socket(v1=False) as ws:
                assert ws.subprotocol is None
                ws.send(struct.pack("!i", 6_000_000 + i))
                try:
                    for count in range(100):
                        ws.send(struct.pack("!i", 100 + count))
                    # the connection stays, and an honest legacy message still reaches the kernel
                    survived = (
                        round_trip(ws, message("kernel_info_request", {}, attacker.session), v1=False) is not None
                    )
                except ConnectionClosed:
                    survived = False
        time.sleep(3)
    check_bounds(clicks, memory, log_before, class_server)
    assert survived, "the legacy connection did not survive a bad frame"


# --- 5. a click flood slowed every learner, and kept the flooder's kernel busy ----------------------

FLOOD = r"""
import sys, time
from websockets.sync.client import connect
url, origin, cookie, client = sys.argv[1:5]
seconds, rate, most = float(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7])
clicks, forbidden = [bytes.fromhex(h) for h in sys.argv[8:-1]], bytes.fromhex(sys.argv[-1])
sent = 0
with connect(url, origin=origin, additional_headers={"Cookie": cookie}, subprotocols=["v1.kernel.websocket.jupyter.org"],
             open_timeout=30, max_size=None, max_queue=None, source_address=(client, 0)) as ws:
    start = time.monotonic()
    while (elapsed := time.monotonic() - start) < seconds and sent < most:
        if sent > elapsed * rate:
            time.sleep(0.005)
            continue
        frame = forbidden if sent % 20 == 19 else clicks[sent % len(clicks)]
        ws.send(frame.replace(b"%032x" % 0, b"%032x" % sent))  # each its own message id: a kernel refuses a replay
        sent += 1
print(sent, time.monotonic() - start)
"""
# the flood: 121,523 clicks in 20 s
FLOOD_S = 8.0
FLOOD_RATE = 6_000
FLOOD_MOST = 60_000


def test_a_click_flood_is_dropped_at_the_door(class_server: Server, learners: tuple[Learner, Learner]) -> None:
    """Every message the flooder sends past a budget a person never reaches is dropped: the bystander
    clicks as fast as ever, and the flooder's kernel is idle a few seconds after the flood."""
    attacker, bystander = learners
    with attacker.socket() as ws:
        states = widget_states(ws, attacker.session)
        page_opened(ws, attacker.session, states)
        buttons = [button(states, "Learn ▶"), button(states, "Quiz yourself ▶")]  # each click changes the page
        # an honest burst passes whole: twenty requests at once, every one answered
        msgs = [message("kernel_info_request", {}, attacker.session) for _ in range(20)]
        for msg in msgs:
            ws.send(v1_frame(msg))
        answered: set[str] = set()
        deadline = time.monotonic() + 20
        while len(answered) < len(msgs) and time.monotonic() < deadline:
            channel, parts = v1_parts(ws.recv(timeout=20))  # type: ignore[arg-type]
            if channel == "shell":
                answered.add(json.loads(parts[1])["msg_id"])
        assert answered == {m["header"]["msg_id"] for m in msgs}
    frames = [
        v1_frame({**msg, "header": {**msg["header"], "msg_id": f"{0:032x}"}})
        for msg in [
            *(click(b, attacker.session) for b in buttons),
            message("execute_request", {"code": "1"}, attacker.session),  # not a type the server lets through
        ]
    ]
    kernel = attacker.kernel_process()
    port = port_of(class_server)
    url = f"ws://{ATTACKER}:{port}/api/kernels/{attacker.kernel_id}/channels?session_id={uuid.uuid4().hex}"
    log_before = log_lines(class_server)
    with Clicks(bystander) as clicks, Memory(class_server) as memory:
        flood = subprocess.run(
            [
                sys.executable,
                "-c",
                FLOOD,
                url,
                f"http://{ATTACKER}:{port}",
                attacker.cookie,
                ATTACKER,
                str(FLOOD_S),
                str(FLOOD_RATE),
                str(FLOOD_MOST),
                *(f.hex() for f in frames),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert flood.returncode == 0, flood.stderr[-2000:]
        sent, took = int(flood.stdout.split()[-2]), float(flood.stdout.split()[-1])
        time.sleep(3)
    cpu_before = sum(kernel.cpu_times()[:2])
    time.sleep(3)
    busy = sum(kernel.cpu_times()[:2]) - cpu_before
    print(f"flood: {sent} messages in {took:.1f} s; the flooder's kernel computed {busy:.2f} s of the 3 s after")
    assert sent > 5_000, f"the flood sent only {sent} messages: it proves nothing"
    check_bounds(clicks, memory, log_before, class_server)
    assert busy < 0.5, f"the flooder's kernel still computed {busy:.1f} s of 3 s after the flood"
    assert re.search(rf"{re.escape(ATTACKER)} sends kernel {attacker.kernel_id} more than", class_server.log())
    with attacker.socket() as ws:  # and a moment later, the flooder's own clicks pass again
        assert round_trip(ws, message("kernel_info_request", {}, attacker.session)) is not None


# --- 8. refused requests by the thousand: a few log lines --------------------------------------------


def test_a_flood_of_refused_requests_writes_a_few_log_lines(class_server: Server) -> None:
    """Each refused request wrote a warning and an access-log line: a loop of them filled the disk."""
    client = "127.0.0.6"
    log_before = log_lines(class_server)
    started = time.monotonic()
    for i in range(300):
        kind = i % 3
        if kind == 0:  # a foreign Host
            status = request(class_server, client, "/", {"Host": "attacker.example"})[0]
        elif kind == 1:  # a wrong class code
            status = request(class_server, client, f"/?code=WRONG{i}")[0]
        else:  # someone else's kernel
            status = request(
                class_server, client, f"/api/kernels/{uuid.uuid4()}", {"Cookie": class_cookie(class_server)}
            )[0]
        assert status in (403, 429), (i, status)
        assert time.monotonic() - started < 60
    time.sleep(1)
    added = log_lines(class_server) - log_before
    print(f"300 refused requests: {added} log lines")
    assert added <= LOG_LINES, f"300 refused requests wrote {added} log lines"


def test_replayed_messages_make_the_kernel_log_a_few_tracebacks(
    class_server: Server, learners: tuple[Learner, Learner]
) -> None:
    """A kernel refuses a message it has seen (its signature again) with a traceback in the server's
    log, one per message: a page's own kernel log is rate-limited too.

    The bystander's kernel replays here: the attacker's has already logged its budget of this traceback
    in the flood above (its frames are one message, replayed), and a kernel's budget comes back only a
    minute later.

    ipykernel refuses a replay in one of two places, each with its own words (kernelbase.py): its shell
    channel thread ("Invalid message") once the first copy has been read by the shell, and the shell's
    dispatch ("Invalid Message") for the copies the thread passed on before that. Each is a line of its
    own in the log's budget (``PER_KEY`` a minute), so a few, and never more than both budgets."""
    _, bystander = learners
    msg = message("kernel_info_request", {}, bystander.session)
    frame = v1_frame(msg)
    log_before = log_lines(class_server)
    most = 2 * PER_KEY

    def refused_so_far() -> tuple[list[str], int]:
        log = class_server.log().splitlines()[log_before:]
        return log, sum("invalid message" in line.lower() for line in log)

    with bystander.socket() as ws:
        for _ in range(25):  # within the burst the server lets through: all reach the kernel
            ws.send(frame)
        # The first copy is a message like any other: its reply says the kernel has read them. On a
        # loaded machine the server and the kernel may take seconds to get there.
        answered = False
        deadline = time.monotonic() + 60
        while not answered and (left := deadline - time.monotonic()) > 0:
            try:
                reply = ws.recv(timeout=left)
            except TimeoutError:
                break
            if isinstance(reply, bytes):
                channel, parts = v1_parts(reply)
                answered = channel == "shell" and json.loads(parts[1]).get("msg_id") == msg["header"]["msg_id"]
        assert answered, "the kernel did not answer the first copy in 60 s"
        # then the copies' tracebacks (up to 30 s), and 3 s more for any the budget would let through
        deadline = time.monotonic() + 30
        while refused_so_far()[1] == 0 and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(3)
    log, refused = refused_so_far()
    print(f"25 replays: {refused} tracebacks, {len(log)} log lines")
    assert 1 <= refused <= most, f"{refused} tracebacks for 25 replays"
    assert len(log) <= 3 * LOG_LINES, f"25 replays wrote {len(log)} log lines"  # a traceback is some 20 lines


_cookies: dict[str, str] = {}


def class_cookie(server: Server, client: str = "127.0.0.6") -> str:
    if client not in _cookies:
        status, headers, _ = request(server, client, f"/?code={CODE}")
        assert status == 302, status
        _cookies[client] = headers["set-cookie"].split(";", 1)[0]
    return _cookies[client]
