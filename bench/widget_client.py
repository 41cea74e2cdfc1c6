"""A learner's page without a browser: the kernel messages a Voilà page exchanges with its kernel.

Used by ``bench/classroom.py`` for its kernel-level learners. After the page's HTML, a page's widget
manager (``@jupyter-widgets/base``) opens the widget control comm (``jupyter.widget.control``), sends
``request_states`` and builds every widget from the ``update_states`` reply; a click on a Button is
the comm message ``{"method": "custom", "content": {"event": "click"}}`` to the button's model, a
card choice a custom message ``{"selected": [...], "seq": n}`` to the cards widget
(``spades_tutor/ui/static/cards.js``), a toggle an ``update`` of its ``index``. The kernel answers
with ``comm_open`` (new widgets) and ``update`` / ``echo_update`` messages (changed state), which
:class:`KernelClient` applies to its copy of the states, as the page's models do.

:class:`Walk` is the lesson's script, read from the states alone: answer the step's open quiz
(choose a card or an option, then check), otherwise step on to the lesson's last step and back.
"""

from __future__ import annotations

import json
import math
import random
import re
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"
CONTROL_TARGET = "jupyter.widget.control"
CONTROL_VERSION = "1.0.0"  # ipywidgets 8's widget control protocol
NEXT = "Next ▶"
BACK = "◀ Back"
STEP = re.compile(r"Step (\d+) of (\d+)")

States = dict[str, dict[str, Any]]  # model id -> the widget's state, as the page's models hold it


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); nan for no values.

    >>> pct([0.3, 0.1, 0.2, 0.4], 50), pct([0.3, 0.1, 0.2, 0.4], 95), pct([], 50)
    (0.2, 0.4, nan)
    """
    if not values:
        return math.nan
    s = sorted(values)
    return s[max(0, math.ceil(q / 100 * len(s)) - 1)]


# --- messages ----------------------------------------------------------------------------------------------


def message(
    msg_type: str, content: dict[str, Any], session: str, metadata: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A shell-channel message as a page's kernel connection sends it."""
    return {
        "header": {
            "msg_id": uuid.uuid4().hex,
            "msg_type": msg_type,
            "session": session,
            "username": "",
            "date": datetime.now(UTC).isoformat(),
            "version": "5.3",
        },
        "parent_header": {},
        "metadata": metadata or {},
        "content": content,
        "channel": "shell",
        "buffers": [],
    }


def encode(msg: dict[str, Any], v1: bool) -> str | bytes:
    """The websocket frame for ``msg``: the v1 binary framing, or the legacy JSON text."""
    if not v1:
        return json.dumps(msg)
    parts = [json.dumps(msg[k]).encode() for k in ("header", "parent_header", "metadata", "content")]
    channel = msg["channel"].encode()
    offsets = [8 * (1 + 1 + len(parts) + 1)]
    offsets.append(offsets[-1] + len(channel))
    for p in parts:
        offsets.append(offsets[-1] + len(p))
    head = len(offsets).to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets)
    return head + channel + b"".join(parts)


def decode(frame: str | bytes, v1: bool) -> dict[str, Any]:
    """A kernel message from a websocket frame (v1 framing, legacy JSON text, or legacy binary with buffers).

    >>> m = message("comm_msg", {"comm_id": "c1", "data": {"method": "custom"}}, "s")
    >>> decode(encode(m, True), True)["content"] == m["content"], decode(encode(m, False), False)["channel"]
    (True, 'shell')
    """
    if isinstance(frame, str):
        return dict(json.loads(frame))
    if v1:
        count = int.from_bytes(frame[:8], "little")
        offsets = [int.from_bytes(frame[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(count)]
        offsets.append(len(frame))
        pieces = [frame[offsets[i] : offsets[i + 1]] for i in range(count)]
        msg = {k: json.loads(pieces[i + 1]) for i, k in enumerate(("header", "parent_header", "metadata", "content"))}
        msg["channel"] = pieces[0].decode()
        msg["buffers"] = [p for p in pieces[5:] if p]
        return msg
    nbufs = int.from_bytes(frame[:4], "big")
    offsets = [int.from_bytes(frame[4 * (i + 1) : 4 * (i + 2)], "big") for i in range(nbufs)]
    offsets.append(len(frame))
    msg = dict(json.loads(frame[offsets[0] : offsets[1]]))
    msg["buffers"] = [frame[offsets[i] : offsets[i + 1]] for i in range(1, nbufs)]
    return msg


def msg_type(msg: Mapping[str, Any]) -> str:
    return str(msg.get("msg_type") or msg.get("header", {}).get("msg_type", ""))


# --- reading the states --------------------------------------------------------------------------------------


def classes(state: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(state.get("_dom_classes") or ())


def children(state: Mapping[str, Any]) -> list[str]:
    """Model ids of a box's children (``IPY_MODEL_<id>`` references)."""
    return [c.removeprefix("IPY_MODEL_") for c in state.get("children") or () if isinstance(c, str)]


def descendants(states: States, root: str) -> Iterator[str]:
    """``root`` and every widget shown inside it, depth first, in page order."""
    seen: set[str] = set()
    todo = [root]
    while todo:
        mid = todo.pop()
        if mid in seen or mid not in states:
            continue
        seen.add(mid)
        yield mid
        todo.extend(reversed(children(states[mid])))


def find_button(states: States, description: str) -> str | None:
    """The model id of the Button whose description is ``description`` (None if there is none)."""
    for mid, s in states.items():
        if s.get("_model_name") == "ButtonModel" and s.get("description") == description:
            return mid
    return None


def find_class(states: States, css: str, within: str | None = None) -> str | None:
    """The first widget with CSS class ``css`` (inside ``within`` if given)."""
    ids = descendants(states, within) if within else iter(states)
    return next((mid for mid in ids if css in classes(states[mid])), None)


def step_label(states: States) -> str | None:
    """The model id of the lesson's step label (the HTML widget holding ``class="st-where"``)."""
    for mid, s in states.items():
        if s.get("_model_name") == "HTMLModel" and 'class="st-where"' in str(s.get("value", "")):
            return mid
    return None


def step_of(states: States) -> tuple[int, int] | None:
    """The lesson's step label, "Step k of n", as (k, n); None where no step is shown."""
    label = step_label(states)
    m = STEP.search(str(states[label]["value"])) if label else None
    return (int(m.group(1)), int(m.group(2))) if m else None


# --- the lesson's script -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """One thing a learner does, and the kernel's answer that shows it on the page."""

    kind: str  # next, back, choose, toggle, check
    model_id: str
    data: dict[str, Any]  # the comm message's data
    answer_id: str  # the widget whose state change is the answer
    answer_key: str  # ... in this key of its state
    answer_text: str | None = None  # ... containing this text (None: any value)

    def answered_by(self, msg: Mapping[str, Any]) -> bool:
        """True for the comm message from the kernel that carries this action's answer."""
        if msg_type(msg) != "comm_msg":
            return False
        content = msg.get("content", {})
        data = content.get("data", {})
        if content.get("comm_id") != self.answer_id or data.get("method") not in ("update", "echo_update"):
            return False
        state = data.get("state", {})
        if self.answer_key not in state:
            return False
        return self.answer_text is None or self.answer_text in str(state[self.answer_key])


def custom(content: dict[str, Any]) -> dict[str, Any]:
    """A widget's custom message (``model.send(content)`` on the page)."""
    return {"method": "custom", "content": content}


def click() -> dict[str, Any]:
    """A Button's click, as the page sends it."""
    return custom({"event": "click"})


def open_quiz(states: States, body: str, skip: set[str]) -> str | None:
    """The first quiz in the step whose answer is not checked yet (its Check button enabled), bar ``skip``."""
    for mid in descendants(states, body):
        if mid not in skip and "st-quiz" in classes(states[mid]):
            check = find_class(states, "st-check", mid)
            if check and not states[check].get("disabled"):
                return mid
    return None


@dataclass
class Walk:
    """A learner's way through a lesson, one action at a time, read from the states alone.

    The step's open quiz first: choose a card (or an option) if none is chosen, then check the answer;
    after a wrong first try ("Check again"), choose another and check again (at most ``max_checks``
    checks per quiz). Otherwise Next ▶ up to the lesson's last step, then ◀ Back down to the first, and on.
    """

    forward: bool = True
    max_checks: int = 3
    checked: dict[str, int] = field(default_factory=dict)  # quiz id -> checks sent
    stale: set[str] = field(default_factory=set)  # quizzes whose current choice has been checked

    def next_action(self, states: States, rng: random.Random) -> Action | None:
        """What the learner does next; None when no lesson step is shown."""
        label = step_label(states)
        where = step_of(states)
        body = find_class(states, "st-step")
        if where is None or label is None or body is None:
            return None
        full = {q for q, n in self.checked.items() if n >= self.max_checks}
        quiz = open_quiz(states, body, full)
        if quiz is not None:
            action = self._answer(states, quiz, rng)
            if action is not None:
                return action
        k, n = where
        if k >= n:
            self.forward = False
        elif k <= 1:
            self.forward = True
        button = find_button(states, NEXT if self.forward else BACK)
        if button is None:
            return None
        target = k + 1 if self.forward else k - 1
        return Action("next" if self.forward else "back", button, click(), label, "value", f"Step {target} of")

    def _answer(self, states: States, quiz: str, rng: random.Random) -> Action | None:
        check = find_class(states, "st-check", quiz)
        result = find_class(states, "st-result", quiz)
        if check is None or result is None:
            return None
        again = quiz in self.stale  # the choice on show was checked and the quiz is still open: change it
        for mid in descendants(states, quiz):
            s = states[mid]
            if s.get("disabled"):
                continue
            if s.get("_model_name") == "AnyModel" and s.get("selectable", "none") != "none" and s.get("cards"):
                chosen = list(s.get("selected") or [])
                if not chosen or again:
                    others = [c for c in s["cards"] if c not in chosen] or list(s["cards"])
                    seq = int(s.get("seq") or 0) + 1
                    data = custom({"selected": [rng.choice(others)], "seq": seq})
                    self.stale.discard(quiz)
                    return Action("choose", mid, data, mid, "seq", str(seq))
            toggle = s.get("_model_name") == "ToggleButtonsModel" and s.get("_options_labels")
            if toggle and (s.get("index") is None or again):
                indices = [i for i in range(len(s["_options_labels"])) if i != s.get("index")]
                index = rng.choice(indices or [0])
                data = {"method": "update", "state": {"index": index}, "buffer_paths": []}
                self.stale.discard(quiz)
                return Action("toggle", mid, data, mid, "index", str(index))
        self.checked[quiz] = self.checked.get(quiz, 0) + 1
        self.stale.add(quiz)
        return Action("check", check, click(), result, "value")


def step_on(states: States) -> Action | None:
    """Next ▶ clicked, answered by the step label showing the next step: what a page's arrival ends with
    (its TTI, as ``bench/app.py`` measures it); None where no lesson step or no Next ▶ is shown."""
    label, where, button = step_label(states), step_of(states), find_button(states, NEXT)
    if label is None or where is None or button is None:
        return None
    return Action("next", button, click(), label, "value", f"Step {where[0] + 1} of")


# --- a class session: joining it, and the teacher view -------------------------------------------------------

SEATED = "st-class-seated"  # the seat's message once the learner has joined
TEACHER_COUNTS = 'class="st-teacher-counts"'  # the heading's counts (the app's style sheet names the class too)
TEACHER_ANSWERS = re.compile(r"(\d+) answers?\b")


def join_actions(states: States, nickname: str) -> list[Action] | None:
    """What a learner does to join the class with ``nickname``: type it into the Nickname box (its state
    echoed), then click "Join the class" (answered by the welcome); None where the page has no class seat."""
    name = find_class(states, "st-class-name")
    join = find_class(states, "st-class-join")
    banner = find_class(states, "st-class-banner")
    said = children(states[banner])[-1] if banner and children(states[banner]) else None
    if name is None or join is None or said is None:
        return None
    typed = {"method": "update", "state": {"value": nickname}, "buffer_paths": []}
    return [Action("type", name, typed, name, "value", nickname), Action("join", join, click(), said, "value", SEATED)]


def final_verdict(value: object) -> bool:
    """Whether a Check's answer (its result widget's HTML) is the quiz's last word, the answer the class's
    database keeps: right, or wrong with no try left. A wrong first try ("Not quite — try again") is not
    kept, so the teacher never sees it.

    >>> final_verdict('<div class="st-fb-head st-fb-again">✗ Not quite — try again.</div>'), final_verdict("✓ Right")
    (False, True)
    """
    return "st-fb-again" not in str(value)


def teacher_heading(states: States) -> str | None:
    """The model id of the teacher view's heading (its counts: learners, answers to the lesson taught)."""
    for mid, s in states.items():
        if s.get("_model_name") == "HTMLModel" and TEACHER_COUNTS in str(s.get("value", "")):
            return mid
    return None


def teacher_answers(state: Mapping[str, Any]) -> int | None:
    """The answers to the lesson taught that the teacher view's heading shows (None: not a heading).

    >>> teacher_answers({"value": '<h2>Teacher view · lesson 1</h2><p class="st-teacher-counts">3 learners joined'
    ...                  ' · 3 in this lesson now · 12 answers</p>'})
    12
    """
    value = str(state.get("value", ""))
    if TEACHER_COUNTS not in value:
        return None
    counts = value.split(TEACHER_COUNTS, 1)[1]
    found = TEACHER_ANSWERS.findall(counts)
    return int(found[-1]) if found else None


def teach_lesson(states: States, number: int) -> Action | None:
    """The teacher picks lesson ``number`` as the lesson taught (its grid and counts), answered by the
    heading naming it; None when it is taught already (the view opens on the lesson most learners are on).
    A ValueError when the page has no teacher view or no such lesson."""
    pick = find_class(states, "st-teacher-lesson")
    heading = teacher_heading(states)
    if pick is None or heading is None:
        raise ValueError("no teacher view on the page")
    labels = [str(x) for x in states[pick].get("_options_labels") or ()]
    index = next((i for i, label in enumerate(labels) if label.startswith(f"{number}. ")), None)
    if index is None:
        raise ValueError(f"no lesson {number} in the teacher view")
    if states[pick].get("index") == index:
        return None
    data = {"method": "update", "state": {"index": index}, "buffer_paths": []}
    return Action("teach", pick, data, heading, "value", f"lesson {number}:")


def update_latencies(acks: list[float], readings: list[tuple[float, int]], base: int) -> tuple[list[float], int]:
    """How long each answer took to show on the teacher view: the k-th answer acknowledged (``acks``, the
    times each learner's kernel answered a Check) against the first ``readings`` (time, answers shown) to
    show ``base + k`` answers or more. Returns the latencies and how many answers were never shown.

    >>> update_latencies([1.0, 1.1, 3.0], [(0.5, 4), (1.3, 5), (1.6, 6), (3.2, 7)], 4)
    ([0.30000000000000004, 0.5, 0.20000000000000018], 0)
    >>> update_latencies([1.0, 2.0], [(1.4, 1)], 0)
    ([0.3999999999999999], 1)
    """
    latencies: list[float] = []
    missing = 0
    readings = sorted(readings)
    for k, ack in enumerate(sorted(acks), start=1):
        seen = next((t for t, shown in readings if shown >= base + k), None)
        if seen is None:
            missing += 1
        else:
            latencies.append(max(0.0, seen - ack))
    return latencies, missing


# --- what a page and its kernel say to each other, counted ------------------------------------------------


def frame_key(msg: Mapping[str, Any], labels: Mapping[str, str]) -> str:
    """What a kernel message is, for counting a page's traffic: its channel and type, and for a comm its
    method and what it talks to (the comm's target, or the widget's model name, from ``labels``); a custom
    message names its content's keys, an update its state's keys.

    >>> m = message("comm_msg", {"comm_id": "b", "data": {"method": "custom", "content": {"event": "click"}}}, "s")
    >>> frame_key(m, {"b": "ButtonModel"})
    'shell comm_msg custom ButtonModel {event}'
    """
    kind = msg_type(msg)
    content = msg.get("content") or {}
    head = f"{msg.get('channel', '')} {kind}"
    if kind == "status":
        return f"{head} {content.get('execution_state', '')}"
    if kind == "comm_open":
        state = (content.get("data") or {}).get("state") or {}
        return f"{head} {content.get('target_name', '')} {state.get('_model_name', '')}".rstrip()
    if kind in ("comm_msg", "comm_close"):
        data = content.get("data") or {}
        label = labels.get(str(content.get("comm_id")), "?")
        method = data.get("method", "")
        if method == "custom":
            keys = "{" + ",".join(sorted((data.get("content") or {}).keys())) + "}"
            return f"{head} custom {label} {keys}"
        if method in ("update", "echo_update"):
            keys = "{" + ",".join(sorted((data.get("state") or {}).keys())) + "}"
            return f"{head} {method} {label} {keys}"
        return f"{head} {method} {label}".rstrip()
    return head


@dataclass
class Traffic:
    """A page's kernel messages and HTTP requests, counted by kind (``frame_key``) and direction, with the
    bytes of each kind; the comms' labels (target or model name) are learnt from the messages themselves."""

    counts: dict[tuple[str, str], int] = field(default_factory=dict)  # (direction, key) -> messages
    sizes: dict[tuple[str, str], int] = field(default_factory=dict)  # (direction, key) -> bytes
    labels: dict[str, str] = field(default_factory=dict)  # comm id -> target name or model name
    open: bool = True  # False: the arrival is over, later traffic is not counted
    start: float = field(default_factory=time.perf_counter)  # when the arrival began (perf_counter)
    first: dict[tuple[str, str], float] = field(default_factory=dict)  # (direction, key) -> seconds from start

    def note(self, direction: str, msg: Mapping[str, Any], size: int) -> None:
        """Count one message (``direction``: "sent" by the page, "received" by it) of ``size`` bytes."""
        content = msg.get("content") or {}
        kind = msg_type(msg)
        if kind == "comm_open":
            state = (content.get("data") or {}).get("state") or {}
            self.labels[str(content.get("comm_id"))] = str(state.get("_model_name") or content.get("target_name"))
        elif kind == "comm_msg" and (content.get("data") or {}).get("method") == "update_states":
            for mid, entry in (content["data"].get("states") or {}).items():
                self.labels[mid] = str((entry.get("state") or {}).get("_model_name", "?"))
        if self.open:
            self.add((direction, frame_key(msg, self.labels)), size)

    def frame(self, direction: str, frame: str | bytes) -> None:
        """Count one websocket frame (v1 binary framing or JSON text) as ``note`` does."""
        try:
            msg = decode(frame, isinstance(frame, bytes))
        except (ValueError, KeyError, IndexError, UnicodeDecodeError):
            msg = {"channel": "?", "header": {"msg_type": "undecoded"}}
        self.note(direction, msg, len(frame))

    def request(self, method: str, path: str, size: int = 0) -> None:
        """Count an HTTP request: the page itself (``path`` "page"), a static file as such, an API path
        with a kernel's id written ``<id>`` (and without the number a page adds to its kernel's model's
        path, not to be cached)."""
        if self.open:
            path = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>", path)
            path = re.sub(r"[?&](session_id|_xsrf|v)=[^&]*|\?\d+$", "", path)  # ids, cache-busters
            kind = path if path.startswith("/api/") or path == "page" else "static file"
            self.add(("http", f"{method} {kind}"), size)

    def add(self, key: tuple[str, str], size: int) -> None:
        self.first.setdefault(key, time.perf_counter() - self.start)
        self.counts[key] = self.counts.get(key, 0) + 1
        self.sizes[key] = self.sizes.get(key, 0) + size


def traffic_table(columns: Mapping[str, Traffic]) -> list[str]:
    """The kinds of traffic side by side, one column per page: messages, kB, and seconds from the arrival's
    start to the first of them; in the order the first page first sent or received them."""
    first = next(iter(columns.values()), Traffic())
    keys = sorted(
        {k for t in columns.values() for k in t.counts},
        key=lambda k: (first.first.get(k, math.inf), min(t.first.get(k, math.inf) for t in columns.values()), k),
    )
    width = max([len(f"{d} {k}") for d, k in keys] + [20])
    lines = [f"{'':<{width}}" + "".join(f"{name + ' (n, kB, first at)':>34}" for name in columns)]
    for key in keys:
        cells = "".join(
            f"{t.counts.get(key, 0):>10} {t.sizes.get(key, 0) / 1000:>9.1f}kB"
            + (f"{t.first[key]:>11.2f}s" if key in t.first else f"{'-':>12}")
            for t in columns.values()
        )
        lines.append(f"{key[0] + ' ' + key[1]:<{width}}{cells}")
    return lines


# --- the client ----------------------------------------------------------------------------------------------


class KernelClient:
    """One page's connection to its kernel: a websocket, the session, and the widgets' states."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.v1 = getattr(ws, "subprotocol", None) == V1_PROTOCOL
        self.session = uuid.uuid4().hex
        self.states: States = {}
        self.messages = 0
        self.heartbeat: str | None = None  # the heartbeat widget, pinged as the page pings it once started
        self.ping_every = 5.0
        self.next_ping = math.inf
        self.pings = 0
        self.time_zone = "UTC"  # the browser's, as a store's view reads it (headless Chromium's here)
        self.traffic: Traffic | None = None  # set: every message sent and received is counted

    def send(self, msg_type_: str, content: dict[str, Any], metadata: dict[str, Any] | None = None) -> str:
        msg = message(msg_type_, content, self.session, metadata)
        frame = encode(msg, self.v1)
        self.ws.send(frame)
        if self.traffic is not None:
            self.traffic.note("sent", msg, len(frame))
        return str(msg["header"]["msg_id"])

    def apply(self, msg: Mapping[str, Any]) -> None:
        """Keep the states as the page's models would: new widgets, changed state, closed widgets."""
        kind = msg_type(msg)
        content = msg.get("content", {})
        if kind == "comm_open" and content.get("target_name") == "jupyter.widget":
            self.states[content["comm_id"]] = dict(content.get("data", {}).get("state", {}))
        elif kind == "comm_msg":
            data = content.get("data", {})
            if data.get("method") in ("update", "echo_update") and content.get("comm_id") in self.states:
                self.states[content["comm_id"]].update(data.get("state", {}))
        elif kind == "comm_close":
            self.states.pop(content.get("comm_id"), None)

    def receive(self, until: Callable[[dict[str, Any]], bool] | None, deadline: float) -> dict[str, Any] | None:
        """Read and apply messages until one satisfies ``until`` (returned) or the deadline (None; an
        error if ``until`` was given)."""
        while True:
            now = time.perf_counter()
            if now >= self.next_ping and self.heartbeat is not None:
                self.pings += 1
                self.send("comm_msg", {"comm_id": self.heartbeat, "data": custom({"ping": self.pings})})
                self.next_ping = now + self.ping_every
            left = deadline - now
            if left <= 0:
                if until is None:
                    return None
                raise TimeoutError("no answer from the kernel before the timeout")
            try:
                frame = self.ws.recv(timeout=min(left, max(0.0, self.next_ping - now)))
            except TimeoutError:
                continue
            msg = decode(frame, self.v1)
            self.messages += 1
            if self.traffic is not None:
                self.traffic.note("received", msg, len(frame))
            self.apply(msg)
            if until is not None and until(msg):
                return msg

    def kernel_info(self, deadline: float) -> None:
        msg_id = self.send("kernel_info_request", {})
        self.receive(
            lambda m: msg_type(m) == "kernel_info_reply" and m.get("parent_header", {}).get("msg_id") == msg_id,
            deadline,
        )

    def load_states(self, deadline: float) -> int:
        """What the page's widget manager does first: open the control comm, request every widget's
        state, build the models from the ``update_states`` reply, close the comm. Returns the widget count."""
        comm_id = uuid.uuid4().hex
        self.send(
            "comm_open",
            {"comm_id": comm_id, "target_name": CONTROL_TARGET, "data": {}},
            {"version": CONTROL_VERSION},
        )
        self.send("comm_msg", {"comm_id": comm_id, "data": {"method": "request_states"}})
        reply = self.receive(
            lambda m: (
                msg_type(m) == "comm_msg"
                and m.get("content", {}).get("comm_id") == comm_id
                and m["content"].get("data", {}).get("method") == "update_states"
            ),
            deadline,
        )
        assert reply is not None
        for mid, entry in reply["content"]["data"].get("states", {}).items():
            self.states[mid] = dict(entry.get("state", {}))
        self.send("comm_close", {"comm_id": comm_id, "data": {}})
        return len(self.states)

    def start_page(self) -> None:
        """What a fresh page's own widgets send once drawn: each browser store its (empty) saved value,
        and from then on the heartbeat's ping every ``interval_ms``."""
        for mid, s in self.states.items():
            if s.get("_model_name") != "AnyModel":
                continue
            if {"key", "value", "loaded"} <= s.keys():
                data = {"method": "update", "state": self.store_start(s), "buffer_paths": []}
                self.send("comm_msg", {"comm_id": mid, "data": data})
            elif "interval_ms" in s and self.heartbeat is None:
                self.heartbeat = mid
                self.ping_every = max(1.0, float(s["interval_ms"]) / 1000)
                self.next_ping = time.perf_counter() + self.ping_every

    def store_start(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """What a browser store's view (``spades_tutor/ui/static/storage.js``) saves once drawn on a fresh
        page: the attributes it set that differ from the kernel's (a model sends only those): its saved
        value (none on a first visit), the browser's time zone, whether the page was reloaded (no), and
        that it has loaded."""
        drawn = {"value": "", "time_zone": self.time_zone, "reloaded": False, "loaded": True}
        return {k: v for k, v in drawn.items() if k not in state or state[k] != v}

    def act(self, action: Action, deadline: float) -> float:
        """Send ``action`` and wait for its answer: the seconds from sending to the answer."""
        start = time.perf_counter()
        self.send("comm_msg", {"comm_id": action.model_id, "data": action.data})
        self.receive(action.answered_by, deadline)
        return time.perf_counter() - start
