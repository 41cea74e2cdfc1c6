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
  for the class link", no kernel, and every other route but static files answers 403.
- **Kernels per client and in total**: a page is rendered (a kernel handed out) only while the
  client's address holds fewer than ``kernels_per_client`` kernels and the server fewer than
  ``max_kernels``; otherwise a clear page says to close a tab. The kernel-scoped routes (the kernel
  websocket, the kernel API, the tab's shutdown beacon) answer only the address the kernel was
  handed to.
- **Closing a tab frees its kernel**: the page is given Voilà's ``_xsrf`` cookie (on its first call
  to the kernel API), so the shutdown beacon Voilà's page sends on ``beforeunload`` (which carries
  that cookie's value) passes the XSRF check instead of being refused.
- **No theme or template from the address**: ``?theme=`` and ``?template=`` are dropped before
  Voilà reads them, whatever the configuration says (they also made Voilà skip the warm kernel pool).
- **Nothing from outside**: every response carries a Content-Security-Policy that lets a page load
  only from this server (Voilà's page links two stylesheets on a CDN, which a classroom network
  that drops outside traffic made every learner wait for).
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
import tornado.web
from jupyter_server.services.kernels.handlers import KernelHandler
from tornado.httputil import split_host_and_port
from traitlets import Bool, Int, List, Unicode, default
from voila.app import Voila  # type: ignore[import-untyped]
from voila.exporter import VoilaExporter  # type: ignore[import-untyped]
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler  # type: ignore[import-untyped]
from voila.tornado.handler import TornadoVoilaHandler  # type: ignore[import-untyped]
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler  # type: ignore[import-untyped]

from spades_tutor.compressed import CompressedStatic
from spades_tutor.kernel_frames import MAX_FRAME_BYTES, FloodGate, FrameRefused, frame_problem, read_incoming
from spades_tutor.ratelog import RateLimitedLog

__all__ = [
    "CLASS_CODE_ENV",
    "Guard",
    "TutorVoila",
    "binary_message_header",
    "is_loopback",
    "main",
    "new_class_code",
]

# The class code reaches the server in the environment, not on its command line (which `ps` shows).
CLASS_CODE_ENV = "SPADES_TUTOR_CLASS_CODE"
# Letters and digits that cannot be mistaken for one another when read off a projector.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
COOKIE_NAME = "spades_tutor_class"
# Wrong codes one address may try in WRONG_CODE_WINDOW_S before it is refused for the rest of it.
WRONG_CODE_LIMIT = 20
WRONG_CODE_WINDOW_S = 600.0
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
        log: logging.Logger | None = None,
    ) -> None:
        self.log = log or logging.getLogger("spades_tutor.server")
        self.allowed_hosts = {h.strip("[]").lower() for h in allowed_hosts if h}
        self.allow_local_addresses = allow_local_addresses
        self.class_code = normalise_code(class_code)
        # Derived from the code alone (not the code itself, which stays out of the cookie): a server
        # restarted with the same code (--class-code) keeps its learners in.
        self._cookie_value = (
            hmac.new(b"spades-tutor class cookie", self.class_code.encode(), sha256).hexdigest()
            if self.class_code
            else ""
        )
        self.kernels_per_client = kernels_per_client
        self.max_kernels = max_kernels
        self.owners: dict[str, str] = {}  # kernel id -> client address
        self.pending: dict[str, int] = {}  # client address -> pages being rendered (kernel not known yet)
        self._local_cache: dict[str, bool] = {}
        self._wrong_codes: dict[str, list[float]] = {}

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
                self._local_cache[host] = _is_local_address(host)
            return self._local_cache[host]
        return False

    # class code
    @property
    def code_required(self) -> bool:
        return bool(self.class_code)

    def code_matches(self, given: str) -> bool:
        return hmac.compare_digest(normalise_code(given).encode(), self.class_code.encode())

    def cookie_matches(self, value: str | None) -> bool:
        return value is not None and hmac.compare_digest(value.encode(), self._cookie_value.encode())

    @property
    def cookie_value(self) -> str:
        return self._cookie_value

    def too_many_wrong_codes(self, client: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        recent = [t for t in self._wrong_codes.get(client, []) if now - t < WRONG_CODE_WINDOW_S]
        self._wrong_codes[client] = recent
        return len(recent) >= WRONG_CODE_LIMIT

    def wrong_code(self, client: str) -> None:
        self._wrong_codes.setdefault(client, []).append(time.monotonic())

    # kernels
    def prune(self, alive: Iterable[str]) -> None:
        alive_set = set(alive)
        for kernel_id in [k for k in self.owners if k not in alive_set]:
            del self.owners[kernel_id]

    def held_by(self, client: str) -> int:
        return sum(1 for owner in self.owners.values() if owner == client) + self.pending.get(client, 0)

    def held(self) -> int:
        return len(self.owners) + sum(self.pending.values())

    def reserve(self, client: str) -> str | None:
        """Reserve a kernel for a page ``client`` asks for; the reason it may not have one, or None."""
        if self.held_by(client) >= self.kernels_per_client:
            return "client"
        if self.held() >= self.max_kernels:
            return "total"
        self.pending[client] = self.pending.get(client, 0) + 1
        return None

    def unreserve(self, client: str) -> None:
        left = self.pending.get(client, 0) - 1
        if left > 0:
            self.pending[client] = left
        else:
            self.pending.pop(client, None)

    def owner(self, kernel_id: str) -> str | None:
        return self.owners.get(kernel_id)


# --- pages the guards answer with ----------------------------------------------------------------------

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>body{{font:18px/1.5 system-ui,sans-serif;margin:0;display:flex;min-height:100vh;align-items:center;
justify-content:center;background:#f4f6f4;color:#1d2b1f}}main{{max-width:34em;padding:2em;background:#fff;
border-radius:12px;box-shadow:0 2px 10px #0002}}h1{{font-size:1.4em;margin-top:0}}</style></head>
<body><main><h1>{title}</h1><p>{text}</p></main></body></html>
"""


def _page(title: str, text: str) -> str:
    return _PAGE.format(title=html.escape(title), text=html.escape(text))


ASK_FOR_LINK = _page(
    "Ask your teacher for the class link",
    "This Spades tutor is open to one class only. Your teacher has a link with the class code in it "
    "(it ends in ?code=…): open that link, and the app will remember you.",
)
TOO_MANY_WRONG_CODES = _page(
    "Too many wrong class codes",
    "This computer tried too many wrong class codes. Wait ten minutes, then ask your teacher for the class link.",
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

    def _refuse(self, status: int, body: str) -> None:
        self.clear()
        self.set_status(status)
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

        Returns whether the request has been answered (redirected, or refused for too many wrong codes).
        """
        given = self.get_query_argument("code", None)
        if given is None:
            return False
        if guard.too_many_wrong_codes(client):
            self._refuse(429, TOO_MANY_WRONG_CODES)
            return True
        if not guard.code_matches(given):
            guard.wrong_code(client)
            _rate_log(self).warning(("code", client), "spades-tutor: wrong class code from %s", client)
            return False
        self.set_cookie(
            COOKIE_NAME,
            guard.cookie_value,
            path=self.settings.get("base_url", "/"),
            httponly=True,
            samesite="Lax",
        )
        self._redirect_without_code()
        return True

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
        guard.owners[kernel_id] = self.request.remote_ip or ""
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
            self.set_header("Retry-After", "10")
            self._refuse(429 if refused == "client" else 503, TOO_MANY_TABS if refused == "client" else CLASS_FULL)
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


class TutorVoila(Voila):  # type: ignore[misc]
    """Voilà serving the app, with the guards above on every handler."""

    description = "Serve the Spades tutor app with Voilà, guarded for a class on a shared network."

    class_code = Unicode(
        help=f"Class code a learner's link must carry (?code=...); empty: none. Default: ${CLASS_CODE_ENV}."
    ).tag(config=True)
    allowed_hosts = List(
        Unicode(),
        help="More host names the server answers to, besides loopback and (on 0.0.0.0) this machine's names and addresses.",
    ).tag(config=True)
    kernels_per_client = Int(3, help="Kernels (open tabs) one client address may hold at once.").tag(config=True)
    max_kernels = Int(8, help="Kernels (open tabs) the whole server may hand out at once.").tag(config=True)
    compress_static = Bool(
        True,
        help="Send scripts and styles gzip-compressed to browsers that accept it, each file compressed once"
        " (off: as they are, e.g. behind a proxy that compresses).",
    ).tag(config=True)

    @default("class_code")
    def _default_class_code(self) -> str:
        return os.environ.get(CLASS_CODE_ENV, "")

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
        settings: dict[str, Any] = super().init_settings()
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
            log=self.log,
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


def main(argv: list[str] | None = None) -> None:
    """``python -m spades_tutor.server notebooks/app.ipynb [Voilà options]``."""
    TutorVoila.launch_instance(argv)


if __name__ == "__main__":
    main()
