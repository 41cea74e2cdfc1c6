"""The app's own web server: Voilà with the guards a class on a shared network needs.

``spades-tutor app`` (and so ``make app`` and ``make class``) runs :class:`TutorVoila`, Voilà's
own application with every web handler wrapped by these guards:

- **Host check** (against DNS rebinding): only the names and addresses this server is reached by
  are accepted in the ``Host`` header (loopback always; for a server on ``0.0.0.0`` this machine's
  host names and addresses; more with ``TutorVoila.allowed_hosts``). Anything else gets 403, pages
  and websockets alike.
- **Class code**: when ``TutorVoila.class_code`` is set (``spades-tutor app`` sets one whenever it
  listens beyond loopback), a page is served only to a browser that came with the code
  (``/?code=K7M2QX``, which sets an HttpOnly, SameSite=Lax cookie and redirects to the same link
  without the code) or that already holds the cookie. Without it: a small page "Ask your teacher
  for the class link" with a box to type the code, no kernel, and every other route but static
  files answers 403. The cookie is an HMAC of the code under a secret drawn at each start (or kept by
  ``make class`` beside the class's data, so a restart with the same code keeps learners in). Wrong
  codes are rate-limited per address (a burst, then one every few seconds) and in all, never
  locked out: the right code from another address always gets in.
- **Kernels per client and in total**: a page is rendered (a kernel handed out) only while the
  client's address holds fewer than ``kernels_per_client`` kernels and the server fewer than
  ``max_kernels``; otherwise a clear page says to close a tab. The kernel-scoped routes (the kernel
  websocket, the kernel API, the tab's shutdown beacon) answer only the address the kernel was
  handed to. With a class size, an address's second tab never takes a place kept for a learner
  who has none yet; a kernel whose page has had no open websocket for 30 s is shut down.
- **Connections**: headers within 20 s, bodies within 30 s and at most 1 MiB, at most 48 open
  connections per address and no more in all than the open-files limit (raised as far as the OS
  allows) leaves room for; a connection past a bound is closed as it is accepted.
- **Closing a tab frees its kernel**: the page is given Voilà's ``_xsrf`` cookie (on its first call
  to the kernel API), so the shutdown beacon Voilà's page sends on ``beforeunload`` (which carries
  that cookie's value) passes the XSRF check instead of being refused.
- **No theme or template from the address**: ``?theme=`` and ``?template=`` are dropped before
  Voilà reads them, whatever the configuration says (they also made Voilà skip the warm kernel pool).
- **Nothing from outside**: every response carries a Content-Security-Policy that lets a page load
  only from this server (Voilà's page links two stylesheets on a CDN, which a classroom network
  that drops outside traffic made every learner wait for).
- **A pool refill that never starves the class** (:mod:`spades_tutor.kernel_pool`): the warm kernels
  taken by a class are replaced one at a time, once no page has been handed a kernel for
  ``fill_delay`` seconds, and a learner who comes while none is ready gets a kernel at once, never one
  queued behind the refill (Voilà's own refill started every missing kernel together, in the lesson).
- **Static files compressed**: scripts and styles go gzip-compressed to every browser that accepts
  it, each file compressed once (:mod:`spades_tutor.compressed`).
- **The kernel websocket's legacy protocol framed right**: Voilà reads every binary message as the
  ``v1.kernel.websocket.jupyter.org`` framing, and a legacy-framed one (a client that asked for no
  subprotocol) read that way made the server loop for ever. Here each message is read in the
  framing of its own connection, with every offset checked.
- **Every incoming frame checked before Jupyter Server reads it** (:mod:`spades_tutor.kernel_frames`):
  Jupyter Server trusted the counts inside a frame, and one 8-byte v1 frame claiming 1.5e8 offsets
  froze the class server for 51 s (2.4 GB), one 4-byte legacy frame claiming 3e7 parts left 1 GB in
  ``struct``'s cache for good. Now a frame over 2 MiB closes its connection unread; a frame whose
  count, offsets, channel, header or message type is not a sound, allowed kernel message is
  dropped (its connection stays), never parsed.
- **A click flood dropped at the door**: each kernel takes a burst of 30 messages, then 10 a
  second, from all its connections together; the rest is dropped, not queued (121,523 clicks in
  20 s had slowed every other learner's clicks to 2.1 s and kept the flooder's kernel busy 90 s).
- **A bounded log**: the guards' warnings (a refused Host, a wrong code, someone else's kernel, a
  bad frame, a flood) and the access log's lines for refused requests are a few lines per kind and
  client a minute, the rest counted (:mod:`spades_tutor.ratelog`); a served kernel's own log
  likewise (:mod:`spades_tutor.ui.errors`).
"""

from __future__ import annotations

import contextlib
import hmac
import html
import inspect
import ipaddress
import json
import logging
import math
import os
import secrets
import socket
import time
from collections.abc import Iterable
from hashlib import sha256
from typing import Any
from urllib.parse import urlencode

import jinja2
import jinja2.bccache
import tornado.httpserver
import tornado.ioloop
import tornado.web
from jupyter_server.services.kernels.handlers import KernelHandler
from nbformat.sign import NotebookNotary
from tornado.httputil import split_host_and_port
from traitlets import Bool, Int, List, Unicode, default
from voila.app import Voila  # type: ignore[import-untyped]
from voila.exporter import VoilaExporter  # type: ignore[import-untyped]
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler  # type: ignore[import-untyped]
from voila.tornado.handler import TornadoVoilaHandler  # type: ignore[import-untyped]
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler  # type: ignore[import-untyped]

from spades_tutor import message_dates
from spades_tutor.compressed import CompressedStatic
from spades_tutor.kernel_frames import (
    MAX_FRAME_BYTES,
    FloodGate,
    FrameRefused,
    TokenBucket,
    frame_problem,
    read_incoming,
)
from spades_tutor.kernel_pool import staggered_pool
from spades_tutor.ratelog import RateLimitedLog, RateLimitFilter

__all__ = [
    "CLASS_CODE_ENV",
    "TEACHER_CODE_ENV",
    "Guard",
    "TutorVoila",
    "binary_message_header",
    "is_loopback",
    "main",
    "new_class_code",
]

# The class code reaches the server in the environment, not on its command line (which `ps` shows).
CLASS_CODE_ENV = "SPADES_TUTOR_CLASS_CODE"
# The teacher code likewise; the server takes it out of the environment its kernels inherit, which are
# told its digest only (spades_tutor.session.class_store.TEACHER_DIGEST_ENV).
TEACHER_CODE_ENV = "SPADES_TUTOR_TEACHER_CODE"
# The class cookie's secret, kept by ``make class`` beside the class's data so a restarted server honours
# the cookies it gave (with the same class code): a reload after a restart goes straight back in. Taken
# out of the kernels' environment like the teacher code.
COOKIE_SECRET_ENV = "SPADES_TUTOR_COOKIE_SECRET"
# Letters and digits that cannot be mistaken for one another when read off a projector.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
COOKIE_NAME = "spades_tutor_class"
# Guessing the class code: each address may try CODE_TRIES_BURST wrong codes at once, then one more every
# CODE_TRY_INTERVAL_S; the whole server takes at most SERVER_TRIES_PER_S wrong codes a second (after a burst
# of SERVER_TRIES_BURST), however many addresses guess. A code of six of 31 characters has 887 million values:
# at these rates one address needs about 28 years on average, and every address together (the server's
# bound) about eight months. A refusal is for a few seconds and for that address only: the right code from any other address
# always gets in, and from the same one as soon as it may try again.
CODE_TRIES_BURST = 10
CODE_TRY_INTERVAL_S = 2.0
SERVER_TRIES_BURST = 60
SERVER_TRIES_PER_S = 20.0
# How long a kernel handed to a page may go without any open websocket before it is shut down: a page
# opens its kernel's websocket within seconds of arriving, so a kernel that none uses was fetched by
# something that is not a learner's page (or by a tab long closed), and it keeps a place a learner needs.
RECLAIM_UNCONNECTED_S = 30.0
RECLAIM_EVERY_S = 5.0
V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"
PLOTLY_EXTENSION = "jupyterlab-plotly"
# What a page may load: everything from this server, nothing from anywhere else. Voilà's page links two
# stylesheets on a CDN (icons its own scripts already carry); on a classroom network that blocks or
# drops outside traffic a learner's page waited for them (20 s for a 20 s stall). Refused here, the
# browser never asks. Inline scripts and styles, eval, blob: and data: URLs are what the widget
# libraries, anywidget and plotly use.
PAGE_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' 'unsafe-eval' blob:",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "worker-src 'self' blob:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'self'",
    ]
)


def new_class_code() -> str:
    """A fresh class code: six characters, easy to read aloud and to type."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(code: str) -> str:
    """What a learner typed, as the server compares it: no spaces or dashes, upper case."""
    return "".join(ch for ch in code.upper() if ch not in " -")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 possibly in brackets) means this machine only."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _is_local_address(address: str) -> bool:
    """Whether ``address`` is an IP address of one of this machine's interfaces (binding to it succeeds)."""
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return False
    if ip.is_loopback:
        return True
    if ip.is_unspecified or ip.is_multicast:
        return False
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.bind((str(ip), 0))
    except OSError:
        return False
    return True


def binary_message_header(message: bytes, v1: bool) -> dict[str, Any] | None:
    """The Jupyter message header inside a binary kernel-websocket message, or None if it cannot be read.

    ``v1`` is the ``v1.kernel.websocket.jupyter.org`` framing (8-byte little-endian count, then offsets,
    then channel, header, ...); otherwise the legacy framing (4-byte big-endian count, then offsets,
    then the whole message as JSON, then its buffers). Counts and offsets are checked against the
    message's length before anything is read, so no message can make this loop or allocate.

    >>> import struct
    >>> body = json.dumps({"header": {"msg_type": "comm_msg"}}).encode()
    >>> legacy = struct.pack("!II", 1, 8) + body
    >>> binary_message_header(legacy, v1=False)
    {'msg_type': 'comm_msg'}
    >>> binary_message_header(legacy, v1=True) is None
    True
    """
    try:
        if v1:
            count = int.from_bytes(message[:8], "little")
            if count < 3 or 8 * (count + 1) > len(message):
                return None
            offsets = [int.from_bytes(message[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(count)]
            start, end = offsets[1], offsets[2]
            if not 0 <= start <= end <= len(message):
                return None
            header = json.loads(message[start:end].decode("utf-8"))
        else:
            count = int.from_bytes(message[:4], "big")
            if count < 1 or 4 * (count + 1) > len(message):
                return None
            offsets = [int.from_bytes(message[4 * (i + 1) : 4 * (i + 2)], "big") for i in range(count)]
            start = offsets[0]
            end = offsets[1] if count > 1 else len(message)
            if not 0 <= start <= end <= len(message):
                return None
            header = json.loads(message[start:end].decode("utf-8")).get("header")
    except (ValueError, AttributeError):
        return None
    return header if isinstance(header, dict) else None


# --- the guards' state -------------------------------------------------------------------------------


class Guard:
    """What the guards know: the hosts served, the class code, and which client holds which kernel."""

    def __init__(
        self,
        *,
        allowed_hosts: Iterable[str],
        allow_local_addresses: bool,
        class_code: str,
        kernels_per_client: int,
        max_kernels: int,
        class_size: int = 0,
        secret: bytes | None = None,
        log: logging.Logger | None = None,
        teacher_code: str = "",
    ) -> None:
        self.log = log or logging.getLogger("spades_tutor.server")
        # the teacher view's code: checked here (with the class code's limits on guessing) before any
        # kernel hears of it; a kernel checks it again against the digest it was told
        self.teacher_code = normalise_code(teacher_code)
        self.allowed_hosts = {h.strip("[]").lower() for h in allowed_hosts if h}
        self.allow_local_addresses = allow_local_addresses
        self.class_code = normalise_code(class_code)
        # The cookie is an HMAC of the code under a secret drawn at each start and known only to this
        # process: it cannot be computed from a guessed code, and a leaked cookie does not tell the code.
        # (A restarted server asks for the code again, unless it is given the same secret and code: ``make
        # class`` keeps the secret beside the class's data. A learner's progress is in their browser.)
        self._secret = secret if secret is not None else secrets.token_bytes(32)
        self._cookie_value = (
            hmac.new(self._secret, self.class_code.encode(), sha256).hexdigest() if self.class_code else ""
        )
        self.kernels_per_client = kernels_per_client
        self.max_kernels = max_kernels
        # the learners the class was sized for: a computer's second tab never takes the place of one of them
        self.class_size = class_size
        self.owners: dict[str, str] = {}  # kernel id -> client address
        self.pending: dict[str, int] = {}  # client address -> pages being rendered (kernel not known yet)
        self.last_connected: dict[str, float] = {}  # kernel id -> when a websocket of it was last seen open
        self._local_cache: dict[str, bool] = {}
        self._tries: dict[str, TokenBucket] = {}
        self._server_tries = TokenBucket(rate=SERVER_TRIES_PER_S, burst=SERVER_TRIES_BURST)

    # hosts
    def host_allowed(self, host_header: str) -> bool:
        host, _ = split_host_and_port(host_header.lower())
        host = host.strip("[]")
        if not host:
            return False
        if is_loopback(host) or host in self.allowed_hosts:
            return True
        if self.allow_local_addresses:
            if host not in self._local_cache:
                if len(self._local_cache) > 256:  # names are the client's: keep the cache bounded
                    self._local_cache.clear()
                self._local_cache[host] = _is_local_address(host)
            return self._local_cache[host]
        return False

    # class code
    @property
    def code_required(self) -> bool:
        return bool(self.class_code)

    def code_matches(self, given: str) -> bool:
        return hmac.compare_digest(normalise_code(given).encode(), self.class_code.encode())

    def teacher_code_matches(self, given: str) -> bool:
        """Whether ``given`` is the teacher code (never, when the server has none)."""
        return bool(self.teacher_code) and hmac.compare_digest(
            normalise_code(given).encode(), self.teacher_code.encode()
        )

    def cookie_matches(self, value: str | None) -> bool:
        return value is not None and hmac.compare_digest(value.encode(), self._cookie_value.encode())

    @property
    def cookie_value(self) -> str:
        return self._cookie_value

    def code_try_wait(self, client: str, now: float | None = None) -> float:
        """Seconds ``client`` must wait before its next try of the class code is looked at (0: now)."""
        now = time.monotonic() if now is None else now
        bucket = self._tries.get(client)
        own = bucket.wait(now) if bucket is not None else 0.0
        return max(own, self._server_tries.wait(now))

    def wrong_code(self, client: str, now: float | None = None) -> None:
        """``client`` tried a wrong code: it spends one of its tries and one of the server's."""
        now = time.monotonic() if now is None else now
        if client not in self._tries:
            if len(self._tries) > 4096:  # forget the addresses whose tries have all come back
                self._tries = {c: b for c, b in self._tries.items() if not b.full(now)}
            self._tries[client] = TokenBucket(rate=1 / CODE_TRY_INTERVAL_S, burst=CODE_TRIES_BURST)
        self._tries[client].take(now)
        self._server_tries.take(now)

    # kernels
    def prune(self, alive: Iterable[str]) -> None:
        alive_set = set(alive)
        for kernel_id in [k for k in self.owners if k not in alive_set]:
            del self.owners[kernel_id]
            self.last_connected.pop(kernel_id, None)

    def held_by(self, client: str) -> int:
        return sum(1 for owner in self.owners.values() if owner == client) + self.pending.get(client, 0)

    def held(self) -> int:
        return len(self.owners) + sum(self.pending.values())

    def clients(self) -> int:
        """How many client addresses hold a kernel or are being given one."""
        return len(set(self.owners.values()) | {c for c, n in self.pending.items() if n > 0})

    def reserve(self, client: str) -> str | None:
        """Reserve a kernel for a page ``client`` asks for; the reason it may not have one, or None.

        ``"client"``: that address holds its bound; ``"total"``: the server is full; ``"class"``: the
        address already holds a kernel, and the places left are kept for the class's learners who
        have none yet.
        """
        held_by = self.held_by(client)
        if held_by >= self.kernels_per_client:
            return "client"
        if self.held() >= self.max_kernels:
            return "total"
        if held_by > 0 and self.class_size:
            owed = max(0, self.class_size - self.clients())
            if self.held() + owed >= self.max_kernels:
                return "class"
        self.pending[client] = self.pending.get(client, 0) + 1
        return None

    def unreserve(self, client: str) -> None:
        left = self.pending.get(client, 0) - 1
        if left > 0:
            self.pending[client] = left
        else:
            self.pending.pop(client, None)

    def handed(self, kernel_id: str, client: str, now: float | None = None) -> None:
        """``kernel_id`` was handed to a page of ``client``: its websocket has ``RECLAIM_UNCONNECTED_S`` to open."""
        self.owners[kernel_id] = client
        self.last_connected[kernel_id] = time.monotonic() if now is None else now

    def unused(self, connections: dict[str, int], now: float | None = None) -> list[str]:
        """The handed-out kernels with no open websocket for ``RECLAIM_UNCONNECTED_S``.

        ``connections`` gives each kernel's open websockets (a kernel missing from it has none).

        >>> g = Guard(allowed_hosts=[], allow_local_addresses=False, class_code="", kernels_per_client=3, max_kernels=8)
        >>> g.handed("k1", "10.0.0.1", now=0.0); g.handed("k2", "10.0.0.2", now=0.0)
        >>> g.unused({"k1": 1}, now=20.0), g.unused({}, now=55.0)
        ([], ['k1', 'k2'])
        """
        now = time.monotonic() if now is None else now
        idle = []
        for kernel_id in self.owners:
            if connections.get(kernel_id, 0) > 0:
                self.last_connected[kernel_id] = now
            elif now - self.last_connected.setdefault(kernel_id, now) >= RECLAIM_UNCONNECTED_S:
                idle.append(kernel_id)
        return idle

    def owner(self, kernel_id: str) -> str | None:
        return self.owners.get(kernel_id)


# --- pages the guards answer with ----------------------------------------------------------------------

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>body{{font:18px/1.5 system-ui,sans-serif;margin:0;display:flex;min-height:100vh;align-items:center;
justify-content:center;background:#f4f6f4;color:#1d2b1f}}main{{max-width:34em;padding:2em;background:#fff;
border-radius:12px;box-shadow:0 2px 10px #0002}}h1{{font-size:1.4em;margin-top:0}}
form{{display:flex;flex-wrap:wrap;gap:.5em;align-items:end}}label{{display:flex;flex-direction:column}}
input{{font:inherit;font-size:1.3em;letter-spacing:.15em;text-transform:uppercase;width:8em;padding:.2em .4em;
border:2px solid #1d2b1f;border-radius:6px}}button{{font:inherit;padding:.35em 1em;border:0;border-radius:6px;
background:#1d5e32;color:#fff;cursor:pointer}}input:focus,button:focus{{outline:3px solid #f2b705;outline-offset:2px}}</style></head>
<body><main><h1>{title}</h1><p>{text}</p>{more}</main></body></html>
"""

#: the box a learner types the class code into, when they have only the code (read off the projector)
CODE_FORM = (
    '<form method="get" action=""><label for="code">Class code'
    '<input id="code" name="code" autocomplete="off" autocapitalize="characters" spellcheck="false"'
    ' maxlength="16" required></label><button type="submit">Join the class</button></form>'
)


def _page(title: str, text: str, more: str = "") -> str:
    """A small page of the server's own: ``title`` and ``text`` are escaped, ``more`` is the server's markup."""
    return _PAGE.format(title=html.escape(title), text=html.escape(text), more=more)


ASK_FOR_LINK = _page(
    "Ask your teacher for the class link",
    "This Spades tutor is open to one class only. Open the link your teacher gave you (it ends in ?code=…), "
    "or type the class code here; the app will remember you.",
    CODE_FORM,
)
WRONG_TEACHER_CODE = _page(
    "That is not the teacher code",
    "The teacher view opens only with the teacher link printed in the console where the class was started.",
)
WRONG_CODE = _page(
    "That is not the class code",
    "Check the code with your teacher and type it again (letters and digits; dashes and spaces do not matter).",
    CODE_FORM,
)


def too_many_tries(wait_s: float) -> str:
    """The page for a computer that tried too many wrong codes: it may try again in ``wait_s`` seconds."""
    seconds = max(1, math.ceil(wait_s))
    return _page(
        "Too many wrong class codes",
        f"This computer tried too many wrong class codes. Wait {seconds} second{'s' if seconds != 1 else ''}, "
        "then type the code again or open the class link.",
        CODE_FORM,
    )


TOO_MANY_TABS = _page(
    "Too many open tabs from this computer: close one and reload",
    "Each open tab of the Spades tutor keeps its own place on the class server. Close a tab you no "
    "longer use, then reload this page.",
)
CLASS_FULL = _page(
    "The class server is full",
    "Every place on this server is in use. Close a tab you no longer use and reload, or ask your teacher.",
)
WRONG_HOST = _page(
    "Wrong address",
    "This server does not answer to that name. Use the link your teacher gave you.",
)


# --- the handlers -----------------------------------------------------------------------------------


async def _finish(result: Any) -> None:
    """Await what a handler method returned, if it is awaitable (tornado allows both)."""
    if inspect.isawaitable(result):
        await result


def _guard(handler: tornado.web.RequestHandler) -> Guard:
    guard: Guard = handler.settings["spades_tutor_guard"]
    return guard


def _rate_log(handler: tornado.web.RequestHandler) -> RateLimitedLog:
    """The guards' warnings, a few lines per kind and client a minute (:mod:`spades_tutor.ratelog`)."""
    log: RateLimitedLog | None = handler.settings.get("spades_tutor_rate_log")
    if log is None:
        log = handler.settings["spades_tutor_rate_log"] = RateLimitedLog(_guard(handler).log)
    return log


def _flood_gate(handler: tornado.web.RequestHandler) -> FloodGate:
    """Each kernel's budget of incoming messages (:class:`spades_tutor.kernel_frames.FloodGate`)."""
    gate: FloodGate | None = handler.settings.get("spades_tutor_flood_gate")
    if gate is None:
        gate = handler.settings["spades_tutor_flood_gate"] = FloodGate()
    return gate


class GuardedHandler(tornado.web.RequestHandler):
    """Mixed into every handler of the server: the host check and the class code, before anything else."""

    # Handlers whose first path argument is a kernel id that only its owner may use.
    kernel_scoped = False
    # The request-info socket Voilà's preheated kernels connect to: for this machine's kernels only.
    kernel_only = False
    # The page itself: answers a missing class code with a page, and accepts ?code=.
    is_page = False
    # Static files (Voilà's scripts and styles, the lab extensions, images): no class code needed.
    public = False

    def _refuse(self, status: int, body: str, retry_after_s: float | None = None) -> None:
        self.clear()
        self.set_status(status)
        if retry_after_s is not None:
            self.set_header("Retry-After", str(max(1, math.ceil(retry_after_s))))
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(body)

    async def prepare(self) -> None:
        guard = _guard(self)
        client = self.request.remote_ip or ""
        if not guard.host_allowed(self.request.host or ""):
            _rate_log(self).warning(
                ("host", client), "spades-tutor: refused Host %r from %s", self.request.host, client
            )
            self._refuse(403, WRONG_HOST)
            return
        if self.public:
            pass
        elif self.kernel_only:
            if not is_loopback(client):
                self._refuse(403, "")
                return
        elif guard.code_required:
            page = self.is_page and self.request.method == "GET"
            if not guard.cookie_matches(self.get_cookie(COOKIE_NAME)):
                if page and self._accept_code(guard, client):
                    return
                self._refuse(403, ASK_FOR_LINK if page else "")
                return
            if page and self.get_query_argument("code", None) is not None:
                self._redirect_without_code()  # the class link opened again: its cookie is already here
                return
        if self.is_page and self.request.method == "GET" and self._refused_teacher(guard, client):
            return
        if self.kernel_scoped:
            kernel_id = self.path_kwargs.get("kernel_id") or (self.path_args[0] if self.path_args else "")
            if guard.owner(kernel_id) != client:
                _rate_log(self).warning(
                    ("kernel", client),
                    "spades-tutor: refused %s of kernel %s to %s",
                    self.request.method,
                    kernel_id,
                    client,
                )
                self._refuse(403, "")
                return
        await _finish(super().prepare())

    def _accept_code(self, guard: Guard, client: str) -> bool:
        """A page asked for with ``?code=``: set the class cookie and redirect to the link without the code.

        Returns whether the request has been answered (redirected, or refused: a wrong code, or too many tries).
        """
        given = self.get_query_argument("code", None)
        if not given or not given.strip(" -"):
            return False
        wait = guard.code_try_wait(client)
        if wait > 0:
            self._refuse(429, too_many_tries(wait), retry_after_s=wait)
            return True
        if not guard.code_matches(given[:64]):
            guard.wrong_code(client)
            _rate_log(self).warning(("code", client), "spades-tutor: wrong class code from %s", client)
            self._refuse(403, WRONG_CODE)
            return True
        self.set_cookie(
            COOKIE_NAME,
            guard.cookie_value,
            path=self.settings.get("base_url", "/"),
            httponly=True,
            samesite="Lax",
        )
        self._redirect_without_code()
        return True

    def _refused_teacher(self, guard: Guard, client: str) -> bool:
        """A page asked for with ``?teacher=``: refused (403, or 429 after too many wrong codes) unless it
        is the teacher code; wrong teacher codes spend the same tries as wrong class codes."""
        given = self.get_query_argument("teacher", None)
        if given is None:
            return False
        wait = guard.code_try_wait(client)
        if wait > 0:
            self._refuse(429, too_many_tries(wait), retry_after_s=wait)
            return True
        if not guard.teacher_code_matches(given[:64]):
            guard.wrong_code(client)
            _rate_log(self).warning(("teacher", client), "spades-tutor: wrong teacher code from %s", client)
            self._refuse(403, WRONG_TEACHER_CODE)
            return True
        return False

    def _redirect_without_code(self) -> None:
        """Redirect to the same link without its ``code`` (always a path on this server, never ``//host``)."""
        rest = [
            (k, v.decode("utf-8", "replace"))
            for k, vs in self.request.query_arguments.items()
            if k != "code"
            for v in vs
        ]
        self.redirect("/" + self.request.path.lstrip("/") + ("?" + urlencode(rest) if rest else ""))

    def _log(self) -> None:
        """The access log's line for a refused request (4xx) within the guards' budget (:func:`_rate_log`):
        a flood of bad requests writes a few lines, not one each."""
        if 400 <= self.get_status() < 500 and not _rate_log(self).admit(("refused", self.request.remote_ip or ""))[0]:
            return
        super()._log()


class _RecordingKernelManager:
    """Voilà's kernel manager as one page handler sees it: records the kernel the page is given."""

    def __init__(self, manager: Any, record: Any) -> None:
        self._manager = manager
        self._record = record

    def __getattr__(self, name: str) -> Any:
        return getattr(self._manager, name)

    async def get_rendered_notebook(self, *args: Any, **kwargs: Any) -> Any:
        render_task, rendered_cache, kernel_id = await self._manager.get_rendered_notebook(*args, **kwargs)
        self._record(kernel_id)
        return render_task, rendered_cache, kernel_id

    async def start_kernel(self, *args: Any, **kwargs: Any) -> Any:
        result = self._manager.start_kernel(*args, **kwargs)
        kernel_id = await result if inspect.isawaitable(result) else result
        self._record(kernel_id)
        return kernel_id


class TutorPageHandler(GuardedHandler, TornadoVoilaHandler):  # type: ignore[misc]
    """The app's page: no theme/template from the address, the XSRF cookie for the shutdown beacon, kernel bounds."""

    is_page = True
    _recorded: bool = False

    async def prepare(self) -> None:
        await super().prepare()
        if self._finished:
            return
        # The app has one look: an address never chooses Voilà's theme or template (whatever the
        # configuration says), so it can neither inject markup nor skip the warm kernel pool.
        for name in ("template", "theme"):
            self.request.arguments.pop(name, None)
            self.request.query_arguments.pop(name, None)

    @property
    def kernel_manager(self) -> Any:
        return _RecordingKernelManager(self.settings["kernel_manager"], self._record_kernel)

    def _record_kernel(self, kernel_id: str) -> None:
        guard = _guard(self)
        guard.handed(kernel_id, self.request.remote_ip or "")
        if not self._recorded:
            self._recorded = True
            guard.unreserve(self.request.remote_ip or "")

    async def get(self, path: str | None = None) -> None:
        if self.notebook_path and path:  # Voilà redirects this to /voila/files/<path>: no kernel
            await _finish(super().get(path))
            return
        guard = _guard(self)
        client = self.request.remote_ip or ""
        manager = self.settings["kernel_manager"]
        guard.prune(manager.list_kernel_ids())
        refused = guard.reserve(client)
        if refused is not None:
            _rate_log(self).warning(
                ("no kernel", client),
                "spades-tutor: no kernel for %s (%s): it holds %d, the server %d (limits %d per client, %d in all)",
                client,
                refused,
                guard.held_by(client),
                guard.held(),
                guard.kernels_per_client,
                guard.max_kernels,
            )
            if refused == "total":
                self._refuse(503, CLASS_FULL, retry_after_s=10)
            else:  # this computer's own bound, or the places kept for the learners who have none yet
                self._refuse(429, TOO_MANY_TABS, retry_after_s=10)
            return
        try:
            await _finish(super().get(path))
        finally:
            if not self._recorded:
                self._recorded = True
                guard.unreserve(client)


class TutorKernelWebsocketHandler(GuardedHandler, VoilaKernelWebsocketHandler):  # type: ignore[misc]
    """The kernel websocket, owner only, reading binary messages in the framing of its own connection.

    Every incoming frame is checked before Jupyter Server reads it (:mod:`spades_tutor.kernel_frames`):
    a frame that is not a sound kernel message, on a channel and of a type the kernel takes, is
    dropped and said in the log (rate-limited); past each kernel's budget of messages a second, a
    message is dropped too, never queued for the kernel.
    """

    kernel_scoped = True

    @property
    def max_message_size(self) -> int:
        """A larger frame closes the connection (1009) before it is read: tornado's default is 10 MiB."""
        return MAX_FRAME_BYTES

    def on_message(self, message: str | bytes) -> Any:
        client = self.request.remote_ip or ""
        kernel_id = str(getattr(self, "kernel_id", ""))
        v1 = self.selected_subprotocol == V1_PROTOCOL
        problem = frame_problem(message, v1)
        if problem is None:
            if not _flood_gate(self).admit(kernel_id):
                gate = _flood_gate(self)
                _rate_log(self).warning(
                    ("flood", client),
                    "spades-tutor: %s sends kernel %s more than %d messages a second: %d dropped so far",
                    client,
                    kernel_id,
                    gate.rate,
                    gate.dropped.get(kernel_id, 0),
                )
                return None
            try:
                read_incoming(message, v1, self.kernel_manager.allowed_message_types or ())
            except FrameRefused as refused:
                problem = str(refused)
        if problem is not None:
            _rate_log(self).warning(
                ("frame", client), "spades-tutor: dropped a websocket frame from %s: %s", client, problem
            )
            return None
        try:
            return super().on_message(message)
        except Exception:  # tornado would log the traceback and close: once a minute is enough
            if _rate_log(self).admit(("message", client))[0]:
                self.log.exception("spades-tutor: a message from %s to kernel %s failed", client, kernel_id)
            return None

    def write_message(self, message: bytes | str | dict[str, Any], binary: bool = False) -> Any:
        if isinstance(message, bytes):
            header = binary_message_header(message, v1=self.selected_subprotocol == V1_PROTOCOL)
        elif isinstance(message, dict):
            header = message.get("header")
        else:
            header = None
        if isinstance(header, dict) and header.get("msg_type") == "execute_input":
            return None  # as Voilà: the page never shows the code it runs
        return super(VoilaKernelWebsocketHandler, self).write_message(message, binary)


class TutorKernelHandler(GuardedHandler, KernelHandler):
    """The kernel API (the page reads its kernel's model here first): owner only; gives the page its XSRF cookie.

    Voilà's page sends its shutdown beacon with the ``_xsrf`` cookie's value, and nothing else gave
    the page that cookie, so the beacon was refused. It is set here, on the page's first API call,
    rather than with the page itself: a page rendered with it could come up blank when a class
    arrived at once (measured with bench/classroom.py).
    """

    kernel_scoped = True

    async def prepare(self) -> None:  # type: ignore[override]
        await super().prepare()
        if not self._finished and self.request.method == "GET":
            self.xsrf_token  # noqa: B018 - reading it sets the _xsrf cookie


class TutorShutdownHandler(GuardedHandler, VoilaShutdownKernelHandler):  # type: ignore[misc]
    """The tab's shutdown beacon: owner only (and XSRF-checked, as Voilà's)."""

    kernel_scoped = True

    async def post(self, kernel_id: str) -> None:
        # The tab is gone: its kernel no longer counts against its client, even while it shuts down.
        _guard(self).owners.pop(kernel_id, None)
        await _finish(super().post(kernel_id))


_REPLACEMENTS: dict[type, type] = {
    KernelHandler: TutorKernelHandler,
    TornadoVoilaHandler: TutorPageHandler,
    VoilaKernelWebsocketHandler: TutorKernelWebsocketHandler,
    VoilaShutdownKernelHandler: TutorShutdownHandler,
}


def _parse_url_path_or_404(self: Any, url_path: str) -> str:
    """The static handler's own parsing, where a path it cannot read is not found (Voilà's template handler
    raised on ``/voila/templates/`` and answered 500 with a traceback in the log)."""
    try:
        return str(super(type(self), self).parse_url_path(url_path))
    except (ValueError, IndexError, KeyError) as e:
        raise tornado.web.HTTPError(404) from e


def guarded(cls: type) -> type:
    """The guarded version of one of Voilà's handler classes."""
    if cls in _REPLACEMENTS:
        return _REPLACEMENTS[cls]
    from voila.request_info_handler import RequestInfoSocketHandler  # type: ignore[import-untyped]

    attrs: dict[str, Any] = {}
    if issubclass(cls, RequestInfoSocketHandler):
        attrs["kernel_only"] = True
    bases: tuple[type, ...] = (GuardedHandler, cls)
    if issubclass(cls, tornado.web.StaticFileHandler):
        attrs["public"] = True
        attrs["parse_url_path"] = _parse_url_path_or_404
        bases = (GuardedHandler, CompressedStatic, cls)
    new = type(f"Guarded{cls.__name__}", bases, attrs)
    _REPLACEMENTS[cls] = new
    return new


# --- templates compiled once ------------------------------------------------------------------------


class TemplateBytecode(jinja2.BytecodeCache):
    """Compiled Jinja templates kept in memory for the server's life, shared by every page's renderer.

    Voilà makes a new exporter, with a new Jinja environment, for every page it renders (each pooled
    kernel's page, and each page rendered without the pool), so each render parsed and compiled the
    same templates again: most of the server's time per render (profiled). A template is compiled
    again only when its source changes (the key holds the source's checksum), and an async environment
    never gets a sync one's code (the key holds the environment's mode and extensions).

    >>> env = jinja2.Environment(loader=jinja2.DictLoader({"t": "{{ x }}!"}), bytecode_cache=TemplateBytecode())
    >>> env.get_template("t").render(x=1)
    '1!'
    >>> again = jinja2.Environment(loader=env.loader, bytecode_cache=env.bytecode_cache)
    >>> again.get_template("t").render(x=2), len(env.bytecode_cache.compiled)
    ('2!', 1)
    """

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def get_bucket(
        self, environment: jinja2.Environment, name: str, filename: str | None, source: str
    ) -> jinja2.bccache.Bucket:
        mode = f"{environment.is_async}:{','.join(sorted(environment.extensions))}:"
        bucket = jinja2.bccache.Bucket(
            environment, mode + self.get_cache_key(name, filename), self.get_source_checksum(source)
        )
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.compiled.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


TEMPLATE_BYTECODE = TemplateBytecode()


class TutorExporter(VoilaExporter):  # type: ignore[misc]
    """Voilà's exporter, its Jinja environment sharing :data:`TEMPLATE_BYTECODE`."""

    def _create_environment(self) -> jinja2.Environment:
        environment: jinja2.Environment = super()._create_environment()
        environment.bytecode_cache = TEMPLATE_BYTECODE
        return environment


# --- connections and logs ---------------------------------------------------------------------------

# A request's headers must arrive within this many seconds of its connection opening (or of the last
# request on a kept-alive connection), and its body within BODY_TIMEOUT_S: tornado waits an hour for
# either, so a few hundred connections that send half a header held every file the server may open.
HEADER_TIMEOUT_S = 20.0
BODY_TIMEOUT_S = 30.0
# The app takes no uploads: the largest body a page sends is a kernel API call of a few hundred bytes.
MAX_BODY_BYTES = 1 << 20
# Open connections one client address may hold: a browser opens at most 6 to a server, plus a websocket
# per tab, so 48 is far more than a learner's three tabs need.
CONNECTIONS_PER_CLIENT = 48
# Files kept for the server's own use (kernels' sockets and pipes, static files, logs) below the open-files limit.
FILES_PER_KERNEL = 12
FILES_KEPT = 128


def raise_open_files_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit (as far as the OS allows); the new soft limit.

    A common desktop default is 1,024, which a room's browsers and a few hostile clients reach.
    """
    try:
        import resource
    except ImportError:  # not on this OS: the limit is what it is
        return 1 << 16
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    wanted = min(wanted, 1 << 20)
    if wanted > soft:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    return soft


def connection_bound(open_files: int, max_kernels: int) -> int:
    """How many connections the server accepts at once, so that accepting one never fails for want of a file.

    >>> connection_bound(1024, 8), connection_bound(1 << 20, 36)
    (800, 65536)
    """
    return max(16, min(1 << 16, open_files - FILES_KEPT - FILES_PER_KERNEL * max_kernels))


class GuardedHTTPServer(tornado.httpserver.HTTPServer):
    """Tornado's HTTP server with a bound on open connections per client address and in all.

    A connection past a bound is closed as soon as it is accepted, before a byte is read: it holds no
    file for longer than that, and every client within its bound is served as before.
    """

    def initialize(
        self,
        *args: Any,
        connections_per_client: int = CONNECTIONS_PER_CLIENT,
        max_connections: int = 1 << 16,
        log: Any = None,
        **kwargs: Any,
    ) -> None:
        super().initialize(*args, **kwargs)
        self.connections_per_client = connections_per_client
        self.max_connections = max_connections
        self.per_client: dict[str, int] = {}
        self._address_of: dict[Any, str] = {}
        self._log = log or logging.getLogger("spades_tutor.server")

    def handle_stream(self, stream: Any, address: Any) -> None:
        client = address[0] if isinstance(address, tuple) and address else ""
        open_here = self.per_client.get(client, 0)
        if open_here >= self.connections_per_client or len(self._address_of) >= self.max_connections:
            self._log.warning(
                "spades-tutor: refused a connection from %s (%d open from it, %d in all)",
                client,
                open_here,
                len(self._address_of),
            )
            stream.close()
            return
        before = set(self._connections)
        super().handle_stream(stream, address)
        for conn in set(self._connections) - before:
            self._address_of[conn] = client
            self.per_client[client] = open_here + 1

    def on_close(self, server_conn: Any) -> None:
        client = self._address_of.pop(server_conn, None)
        if client is not None:
            left = self.per_client.get(client, 1) - 1
            if left > 0:
                self.per_client[client] = left
            else:
                self.per_client.pop(client, None)
        super().on_close(server_conn)


#: the budget of every warning and error the server writes, whoever logs it (tornado's access and error lines
#: included): what a client can make the server say. Its own account of kernels started and shut down (INFO)
#: is bounded by the kernel bounds, and the tests and the teacher read it whole.
LOG_BUDGET = RateLimitFilter(per_key=20, in_all=300, least_level=logging.WARNING)


def guard_logs(*loggers: logging.Logger) -> None:
    """Put :data:`LOG_BUDGET` on every handler that writes these loggers' lines (and the root's)."""
    root = logging.getLogger()
    if not root.handlers:
        # tornado's access and error lines have no handler of their own: Python's last resort wrote
        # them unfiltered. A handler of the same kind, filtered.
        fallback = logging.StreamHandler()
        fallback.setLevel(logging.WARNING)
        root.addHandler(fallback)
    for logger in (*loggers, root):
        for handler in logger.handlers:
            if LOG_BUDGET not in handler.filters:
                handler.addFilter(LOG_BUDGET)


# --- the application -------------------------------------------------------------------------------


class PlotlyScriptHandler(tornado.web.StaticFileHandler):
    """plotly.min.js from the plotly package, the one file of its folder a page may fetch."""

    def validate_absolute_path(self, root: str, absolute_path: str) -> str | None:
        if os.path.basename(absolute_path) != "plotly.min.js":
            raise tornado.web.HTTPError(404)
        return super().validate_absolute_path(root, absolute_path)


def plotly_route(base_url: str, handler: type) -> tuple[str, type, dict[str, str]]:
    """The route of plotly's script (``spades_tutor.ui.PLOTLY_SCRIPT`` under ``base_url``), served by
    ``handler`` (a :class:`PlotlyScriptHandler`) from the plotly package's folder."""
    from importlib.util import find_spec

    from spades_tutor.ui import PLOTLY_SCRIPT

    spec = find_spec("plotly")
    assert spec is not None and spec.submodule_search_locations, "plotly is a dependency of the app"
    plotly_dir = os.path.join(spec.submodule_search_locations[0], "package_data")
    pattern = base_url.rstrip("/") + "/" + PLOTLY_SCRIPT.replace("plotly.min.js", r"(plotly\.min\.js)")
    return pattern, handler, {"path": plotly_dir}


class ServedNotary(NotebookNotary):
    """nbformat's notary, for whom a notebook with no stored output has nothing to distrust.

    Trust is about a notebook's stored outputs (scripts and HTML it would show as they are); the app's
    notebooks are stored without any, and Voilà shows only what it computes. Without a signature in
    this machine's database, Jupyter Server warned "Notebook app.ipynb is not trusted" at every load
    (each kernel the pool warms). A notebook with outputs is checked as before.

    >>> from nbformat.v4 import new_code_cell, new_notebook, new_output
    >>> notary = ServedNotary(db_file=":memory:")
    >>> notary.check_signature(new_notebook(cells=[new_code_cell("1 + 1")]))
    True
    >>> shown = new_output("display_data", {"text/html": "<script>alert(1)</script>"})
    >>> notary.check_signature(new_notebook(cells=[new_code_cell("x", outputs=[shown])]))
    False
    """

    def check_signature(self, nb: Any) -> bool:
        if nb.nbformat >= 4 and not any(cell.get("outputs") for cell in nb.cells if cell.cell_type == "code"):
            return True
        return bool(super().check_signature(nb))  # type: ignore[no-untyped-call]


class TutorVoila(Voila):  # type: ignore[misc]
    """Voilà serving the app, with the guards above on every handler."""

    description = "Serve the Spades tutor app with Voilà, guarded for a class on a shared network."

    class_code = Unicode(
        help=f"Class code a learner's link must carry (?code=...); empty: none. Default: ${CLASS_CODE_ENV}."
    ).tag(config=True)
    teacher_code = Unicode(
        help=f"The teacher view's code (?teacher=...); empty: no teacher view. Default: ${TEACHER_CODE_ENV}."
    ).tag(config=True)
    allowed_hosts = List(
        Unicode(),
        help="More host names the server answers to, besides loopback and (on 0.0.0.0) this machine's names and addresses.",
    ).tag(config=True)
    kernels_per_client = Int(3, help="Kernels (open tabs) one client address may hold at once.").tag(config=True)
    max_kernels = Int(8, help="Kernels (open tabs) the whole server may hand out at once.").tag(config=True)
    class_size = Int(
        0,
        help="Learners the class was sized for (0: none): a computer's second tab is refused while the places"
        " left are needed for the learners who have no tab yet.",
    ).tag(config=True)
    connections_per_client = Int(
        CONNECTIONS_PER_CLIENT, help="Open connections one client address may hold at once."
    ).tag(config=True)
    reclaim_unconnected = Bool(
        True,
        help=f"Shut down a kernel handed to a page that has had no open websocket for {RECLAIM_UNCONNECTED_S:g} s.",
    ).tag(config=True)
    app_pool_size = Int(
        0,
        help="Kernels kept warm for app.ipynb, replacing its pool size in VoilaKernelManager.kernel_pools_config"
        " (the other notebooks' pools stay as configured); 0: as configured.",
    ).tag(config=True)
    staggered_refill = Bool(
        True,
        help="Refill the warm kernel pools one kernel at a time, once no kernel has been handed out for"
        " VoilaKernelManager.fill_delay seconds, offering a page only a kernel ready or warming"
        " (spades_tutor.kernel_pool); off: Voila's own refill, every missing kernel at once after the delay.",
    ).tag(config=True)
    compress_static = Bool(
        True,
        help="Send scripts and styles gzip-compressed to browsers that accept it, each file compressed once"
        " (off: as they are, e.g. behind a proxy that compresses).",
    ).tag(config=True)

    @default("class_code")
    def _default_class_code(self) -> str:
        return os.environ.get(CLASS_CODE_ENV, "")

    @default("teacher_code")
    def _default_teacher_code(self) -> str:
        return os.environ.get(TEACHER_CODE_ENV, "")

    def get_default_logging_config(self) -> dict[str, Any]:
        """The server's logger at the level it logs (traitlets sets it to DEBUG and lets the handler drop
        the rest): otherwise every message of every kernel made a debug record nobody sees (profiled)."""
        config: dict[str, Any] = super().get_default_logging_config()
        level = logging.getLevelName(self.log_level) if isinstance(self.log_level, int) else str(self.log_level)
        for logger in config.get("loggers", {}).values():
            logger["level"] = level
        return config

    def initialize(self, argv: list[str] | None = None) -> None:
        # Every page's renderer (pooled kernels' and the others) makes its exporter here: share the templates.
        import voila.notebook_renderer  # type: ignore[import-untyped]

        voila.notebook_renderer.VoilaExporter = TutorExporter
        super().initialize(argv)
        guard_logs(self.log)
        # the kernels started from here inherit this environment: the teacher code's digest, never the code
        from spades_tutor.session.class_store import TEACHER_DIGEST_ENV, teacher_digest

        teacher_code = self.teacher_code  # read (from the environment, by default) before it leaves it
        os.environ.pop(TEACHER_CODE_ENV, None)
        self._cookie_secret = _secret_from(os.environ.pop(COOKIE_SECRET_ENV, ""))
        if teacher_code:
            os.environ[TEACHER_DIGEST_ENV] = teacher_digest(self.teacher_code)
        else:
            os.environ.pop(TEACHER_DIGEST_ENV, None)
        if self.app_pool_size > 0:
            # here, not as a dict on the command line (which traitlets 5 deprecates, warning in the console)
            manager = self.config.VoilaKernelManager
            pools = dict(manager.get("kernel_pools_config") or {})
            pools["app.ipynb"] = {**pools.get("app.ipynb", {}), "pool_size": self.app_pool_size}
            manager.kernel_pools_config = pools

    def listen(self) -> None:
        """Voilà's listen, on :class:`GuardedHTTPServer` with short header and body timeouts, and the reclaimer."""
        open_files = raise_open_files_limit()
        app = self.app
        options = {
            "idle_connection_timeout": HEADER_TIMEOUT_S,
            "body_timeout": BODY_TIMEOUT_S,
            "max_body_size": MAX_BODY_BYTES,
            "connections_per_client": self.connections_per_client,
            "max_connections": connection_bound(open_files, self.max_kernels),
            "log": self.log,
        }

        def listen(port: int, address: str = "", **kwargs: Any) -> Any:
            server = GuardedHTTPServer(app, **options)
            server.listen(port, address, **kwargs)
            return server

        app.listen = listen
        if self.reclaim_unconnected:
            tornado.ioloop.PeriodicCallback(self._reclaim_unused, RECLAIM_EVERY_S * 1000).start()
        super().listen()

    async def _reclaim_unused(self) -> None:
        """Shut down the kernels handed to pages that have had no open websocket for a while."""
        guard: Guard = self.app.settings["spades_tutor_guard"]
        manager = self.kernel_manager
        guard.prune(manager.list_kernel_ids())
        connections = {}
        for kernel_id in list(guard.owners):
            with contextlib.suppress(Exception):  # gone meanwhile: pruned next time
                connections[kernel_id] = int(manager.kernel_model(kernel_id).get("connections", 0))
        for kernel_id in guard.unused(connections):
            self.log.warning(
                "spades-tutor: kernel %s of %s has had no page for %g s: shut down",
                kernel_id,
                guard.owners.get(kernel_id),
                RECLAIM_UNCONNECTED_S,
            )
            guard.owners.pop(kernel_id, None)
            guard.last_connected.pop(kernel_id, None)
            with contextlib.suppress(Exception):
                await manager.shutdown_kernel(kernel_id)

    @property
    def display_url(self) -> str:
        """Where Voilà's log says it runs: on every interface, this machine's loopback address. (Voilà wrote the
        host name, which the room's computers may not resolve; ``spades-tutor app`` prints the room's links.)"""
        if not self.custom_display_url and self.ip in ("", "0.0.0.0", "::"):
            return str(self._url("127.0.0.1"))
        return str(super().display_url)

    def served_hosts(self) -> set[str]:
        """Host names (besides loopback) the server answers to."""
        hosts = {h.lower() for h in self.allowed_hosts}
        if not is_loopback(self.ip or "0.0.0.0"):
            if self.ip not in ("", "0.0.0.0", "::"):
                hosts.add(self.ip)
            name = socket.gethostname()
            hosts |= {name.lower(), f"{name.lower()}.local"}
            with contextlib.suppress(OSError):
                hosts.add(socket.getfqdn().lower())
        return hosts

    def init_settings(self) -> dict[str, Any]:
        # Voila makes its kernel manager here, from the class its factory returns: the pool refilled our way
        import voila.app

        factory = voila.app.voila_kernel_manager_factory
        if self.staggered_refill:

            def staggered(base: type, preheat: bool, *args: Any, **kwargs: Any) -> type:
                made = factory(base, preheat, *args, **kwargs)
                return staggered_pool(made) if preheat else made

            voila.app.voila_kernel_manager_factory = staggered
        try:
            settings: dict[str, Any] = super().init_settings()
        finally:
            voila.app.voila_kernel_manager_factory = factory
        self.contents_manager.notary = ServedNotary(parent=self.contents_manager)  # type: ignore[no-untyped-call]
        headers = dict(settings.get("headers") or {})
        headers.setdefault("Content-Security-Policy", PAGE_POLICY)
        settings["headers"] = headers
        settings["spades_tutor_compress"] = self.compress_static
        # the plots load plotly themselves when first drawn (above): no page loads the extension's 4.7 MiB
        if PLOTLY_EXTENSION not in self.voila_configuration.extension_denylist:
            self.voila_configuration.extension_denylist = [
                *self.voila_configuration.extension_denylist,
                PLOTLY_EXTENSION,
            ]
        wide = self.ip in ("", "0.0.0.0", "::")
        settings["spades_tutor_guard"] = Guard(
            allowed_hosts=self.served_hosts(),
            allow_local_addresses=wide,
            class_code=self.class_code,
            kernels_per_client=self.kernels_per_client,
            max_kernels=self.max_kernels,
            class_size=self.class_size,
            log=self.log,
            teacher_code=self.teacher_code,
            secret=getattr(self, "_cookie_secret", None),
        )
        return settings

    def init_handlers(self) -> list[Any]:
        # plotly's script, for the plots the app draws (spades_tutor.ui.plot_box): fetched by a page
        # when it first shows a plot, not by every page as the jupyterlab-plotly extension was
        handlers: list[Any] = [plotly_route(self.base_url, guarded(PlotlyScriptHandler))]
        for spec in super().init_handlers():
            pattern, cls, *rest = spec
            handlers.append((pattern, guarded(cls), *rest))
        return handlers


def _secret_from(text: str) -> bytes | None:
    """The cookie secret given in hex (at least 16 bytes), or None (one is drawn at this start).

    >>> _secret_from("ab" * 32) == bytes([0xAB] * 32), _secret_from("xyz"), _secret_from("ab")
    (True, None, None)
    """
    try:
        secret = bytes.fromhex(text.strip())
    except ValueError:
        return None
    return secret if len(secret) >= 16 else None


def main(argv: list[str] | None = None) -> None:
    """``python -m spades_tutor.server notebooks/app.ipynb [Voilà options]``."""
    message_dates.install()  # every kernel message's header is read here: 40% less time for its two dates
    TutorVoila.launch_instance(argv)


if __name__ == "__main__":
    main()
