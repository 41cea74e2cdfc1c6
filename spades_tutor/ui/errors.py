"""Callback errors go to a visible, friendly message — never lost, never a dead page."""

from __future__ import annotations

import functools
import logging
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

log = logging.getLogger("spades_tutor.ui")

F = TypeVar("F", bound=Callable[..., Any])

_sinks: list[Callable[[str, BaseException], None]] = []


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


def report(exc: BaseException) -> None:
    log.error("callback failed: %s", "".join(traceback.format_exception(exc)))
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
