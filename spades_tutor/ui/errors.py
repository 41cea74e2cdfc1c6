"""Callback errors go to a visible, friendly message — never lost, never a dead page.

The learner sees :func:`friendly`'s sentence; the traceback goes to the server's log only
(the kernel's own stderr, which lands in the terminal or log file of the server that started
it), never over the kernel's iopub channel, which the page — and anyone holding its websocket —
reads. :func:`protect_kernel` extends that to the paths the app does not wrap itself: ipywidgets
shows a failing ``on_click``/``on_msg`` callback or a malformed widget message with
``showtraceback()``, the comm manager logs a bad ``comm_open`` to stderr, and Python writes
warnings there.
"""

from __future__ import annotations

import functools
import io
import logging
import os
import sys
import traceback
from collections.abc import Callable
from typing import Any, TextIO, TypeVar

from ..ratelog import RateLimitFilter

log = logging.getLogger("spades_tutor.ui")

F = TypeVar("F", bound=Callable[..., Any])

_sinks: list[Callable[[str, BaseException], None]] = []

_server_handler: logging.Handler | None = None
_protected = False


def add_sink(sink: Callable[[str, BaseException], None]) -> None:
    """Where error messages go (the app shows them in a banner)."""
    _sinks.append(sink)


def remove_sink(sink: Callable[[str, BaseException], None]) -> None:
    if sink in _sinks:
        _sinks.remove(sink)


def friendly(exc: BaseException) -> str:
    """A message a learner can read; the engine's own errors already are one."""
    from ..engine import SpadesError

    if isinstance(exc, SpadesError):
        return str(exc)
    return "Something went wrong on our side, and that step did not happen. You can carry on; the rest of the page still works."


def server_stream() -> TextIO:
    """The kernel process's own stderr, not the one ipykernel forwards to the page.

    In a kernel, ``sys.stderr`` is an ``OutStream`` that publishes on iopub, and file
    descriptor 2 is a pipe it reads from (it forwards those bytes too). ipykernel keeps a copy
    of the original descriptor for its own log; we write there. Outside a kernel it is stderr.
    """
    fd = getattr(sys.stderr, "_original_stdstream_copy", None)
    if isinstance(fd, int):
        try:
            return io.TextIOWrapper(io.FileIO(os.dup(fd), "w"), encoding="utf-8", errors="replace", line_buffering=True)
        except OSError:
            pass
    return sys.__stderr__ if sys.__stderr__ is not None else sys.stderr


def server_handler() -> logging.Handler:
    """One logging handler writing to :func:`server_stream`, made when first needed, rate-limited
    (:class:`spades_tutor.ratelog.RateLimitFilter`)."""
    global _server_handler
    if _server_handler is None:
        handler = logging.StreamHandler(server_stream())
        handler.setFormatter(logging.Formatter("[%(levelname)s %(asctime)s %(name)s] %(message)s"))
        # A page (or anyone holding its websocket) can make errors as fast as it sends messages:
        # a few lines a minute of each kind, the rest counted, so no flood fills the server's disk.
        handler.addFilter(RateLimitFilter())
        _server_handler = handler
    return _server_handler


def _log_to_server() -> None:
    """The app's own log goes to the server's log, and never on to the root logger."""
    if server_handler() not in log.handlers:
        log.addHandler(server_handler())
    log.propagate = False


def report(exc: BaseException) -> None:
    _log_to_server()
    log.error("callback failed: %s", "".join(traceback.format_exception(exc)).rstrip())
    message = friendly(exc)
    for sink in list(_sinks):
        try:
            sink(message, exc)
        except Exception:  # a broken sink must not hide the first error
            log.exception("error sink failed")


def guarded(fn: F) -> F:
    """Wrap a widget callback: an exception is reported, and the app keeps working."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            report(exc)
            return None

    return wrapper  # type: ignore[return-value]


def served_by_voila() -> bool:
    """True in a kernel Voilà started for a page (it sets these variables, pooled or not)."""
    return any(k in os.environ for k in ("VOILA_KERNEL_ID", "VOILA_REQUEST_URL", "VOILA_PREHEAT"))


def protect_kernel() -> None:
    """In this kernel, no traceback reaches the page: every error is reported as :func:`report` does.

    - ``showtraceback`` (what ipywidgets calls for a failing callback or a malformed widget
      message) reports the error instead of publishing it;
    - every logger without a handler of its own (the comm manager's, for instance) writes to the
      server's log instead of Python's last-resort handler, which writes to ``sys.stderr``;
    - warnings are logged, and ``sys.stderr`` itself writes to the server's log;
    - all of it, and the kernel's own log, a few lines of each kind a minute at most
      (:class:`spades_tutor.ratelog.RateLimitFilter`): a page sends errors as fast as it likes.

    For a kernel that serves the app's page only (:func:`served_by_voila`): in JupyterLab a
    notebook's author wants their tracebacks. Calling it twice changes nothing.
    """
    global _protected
    if _protected:
        return
    _protected = True
    _log_to_server()
    root = logging.getLogger()
    if server_handler() not in root.handlers:
        root.addHandler(server_handler())
    logging.captureWarnings(True)
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - the app always runs under IPython
        shell = None
    else:
        shell = get_ipython()
    if shell is not None:
        shell.showtraceback = _showtraceback
    _limit_kernel_log()
    if sys.stderr is not None:
        sys.stderr.flush()
    sys.stderr = server_stream()


def _limit_kernel_log() -> None:
    """The kernel's own log (ipykernel's, where a message it cannot read, a replayed one for instance,
    makes a traceback) at the same rate as ours: what a page sends must not write the disk full."""
    try:
        from ipykernel.kernelapp import IPKernelApp
    except ImportError:  # pragma: no cover - the app always runs in ipykernel
        return
    if IPKernelApp.initialized():
        IPKernelApp.instance().log.addFilter(RateLimitFilter())


def _showtraceback(exc_tuple: Any = None, *_args: Any, **_kwargs: Any) -> None:
    """The shell's ``showtraceback`` in a protected kernel: report, never publish."""
    exc = (exc_tuple if exc_tuple is not None else sys.exc_info())[1]
    if isinstance(exc, BaseException):
        report(exc)
    else:
        _log_to_server()
        log.error("an error was reported without an exception: %r", exc_tuple)
