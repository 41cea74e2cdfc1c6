"""The page knows when its kernel is gone: a heartbeat, and a banner offering a reload.

When a kernel dies, the server starts a blank one in its place and the page's widgets stop
answering; when the server stops, the page's websocket closes. In both cases the page looks
alive and does nothing. ``static/heartbeat.js`` pings this widget every few seconds and shows
"The tutor lost its connection. Reload — your progress is kept" when nothing has come back
for ``timeout_ms`` (or at once when the page's kernel connection reports the kernel restarting,
dead or disconnected). Progress, the game and the page the learner was on are kept in the
browser (:mod:`.storage`), so the reload brings the learner back where they were.

The kernel answers pings between callbacks; while a callback runs (the Joker lab's runs take
seconds), pings wait in the queue, so a thread beats instead for as long as the kernel is
busy, and the page waits longer for a kernel its connection reports busy. A hidden tab, or a
page not touched for ``idle_ms``, does not ping; after the page is closed nothing pings and
nothing beats: the kernel goes idle and the server's culler can free it.

>>> hb = Heartbeat()
>>> sent = []
>>> hb.send = sent.append
>>> hb.answer(hb, {"ping": 7}, [])
>>> sent
[{'pong': 7}]
>>> hb.answer(hb, {"ping": "x" * 10_000}, []), hb.answer(hb, ["ping"], [])  # anything else: ignored
(None, None)
>>> sent
[{'pong': 7}]
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any

import anywidget
import traitlets

from . import static_text

#: how often the page pings, and the thread beats while the kernel is busy
INTERVAL_S = 5.0
#: no word from the kernel for this long: the page says the connection is lost
TIMEOUT_S = 20.0
#: a page not touched for this long (or a hidden tab) stops pinging, so it does not keep its kernel
#: (or a Binder session) busy for ever; it starts again at the learner's next click or key
IDLE_S = 600.0
#: a callback that runs longer than this is taken for a hung kernel: the beats stop, and the page,
#: which waits for a kernel its connection reports busy, waits no longer
MAX_BUSY_S = 600.0


class Heartbeat(anywidget.AnyWidget):
    """Answers the page's pings; beats on its own while a callback keeps the kernel busy."""

    _esm = static_text("heartbeat.js")
    _css = static_text("heartbeat.css")

    interval_ms = traitlets.Int(int(INTERVAL_S * 1000)).tag(sync=True)
    timeout_ms = traitlets.Int(int(TIMEOUT_S * 1000)).tag(sync=True)
    max_busy_ms = traitlets.Int(int(MAX_BUSY_S * 1000)).tag(sync=True)
    idle_ms = traitlets.Int(int(IDLE_S * 1000)).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # the interval the page is given to ping at, as the kernel made the widget: a page may send
        # any interval_ms later, and a beat loop that read it could be made to spin
        self._interval_s = max(0.5, self.interval_ms / 1000)
        self._busy_since: float | None = None
        self._beats = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.on_msg(self.answer)
        self._shell = _shell()
        if self._shell is not None:
            self._shell.events.register("pre_execute", self._busy)
            self._shell.events.register("post_execute", self._idle)

    def answer(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A ping from the page: answer it, and from now on beat while the kernel is busy."""
        if not isinstance(content, dict) or type(content.get("ping")) is not int:
            return  # not ours: a page can send anything, and a reply would only help a prober
        self.send({"pong": content["ping"] % 1_000_000_000})
        if self._thread is None:
            self._thread = threading.Thread(target=self._beat, name="spades-tutor-heartbeat", daemon=True)
            self._thread.start()

    def _busy(self) -> None:
        self._busy_since = time.monotonic()

    def _idle(self) -> None:
        self._busy_since = None

    def _beat(self) -> None:
        while not self._stop.wait(self._interval_s):
            since = self._busy_since
            if since is None or time.monotonic() - since > MAX_BUSY_S or self.comm is None:
                continue
            self._beats += 1
            try:
                self.send({"beat": self._beats})
            except Exception:  # the comm closed under us: the page is gone
                return

    def close(self) -> None:
        self._stop.set()
        if self._shell is not None:
            for event, callback in (("pre_execute", self._busy), ("post_execute", self._idle)):
                with contextlib.suppress(ValueError):
                    self._shell.events.unregister(event, callback)
        super().close()


def _shell() -> Any:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - the app always runs under IPython
        return None
    return get_ipython()
