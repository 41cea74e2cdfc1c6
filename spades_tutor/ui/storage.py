"""A value kept in the browser's localStorage (progress, settings, the page the learner was on)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import anywidget
import traitlets

from . import static_text
from .pages.base import PAGES  # the pages a saved place may name (the app's tabs)

#: the most a page may store for us; a larger value from the page is ignored
MAX_STORED = 512 * 1024

# an IANA time zone's name as a browser gives it ("Europe/Paris", "America/Argentina/Salta", "UTC")
_ZONE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+-]*(?:/[A-Za-z0-9_+-]+){0,2}")


def time_zone(name: object) -> tzinfo | None:
    """The time zone a page named, or ``None`` for anything that is not a known zone's name.

    The name comes from the page: it is checked before the time zone database is asked for it.

    >>> time_zone("Europe/Paris"), time_zone("Not/A_Zone"), time_zone("../../etc/passwd"), time_zone(3)
    (zoneinfo.ZoneInfo(key='Europe/Paris'), None, None, None)
    """
    if not isinstance(name, str) or len(name) > 64 or not _ZONE_NAME.fullmatch(name):
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


#: what the page says became of a stored value set aside: moved under the second key; kept where it
#: was, because the second key holds one set aside before; or not moved (no storage, storage full)
ASIDE_OUTCOMES = ("moved", "occupied", "failed")
#: why a value was set aside: larger than :data:`MAX_STORED` (the page knows), or not read (the kernel said)
ASIDE_REASONS = ("large", "unreadable")


class BrowserStore(anywidget.AnyWidget):
    """``value`` mirrors ``localStorage[key]``; ``loaded`` turns True once the page has sent it, with
    ``time_zone``, the browser's time zone ("" if the page named none the app knows), and ``reloaded``,
    whether the page was reloaded (the browser's Reload, or the Reload of a lost connection).

    With ``merge`` on, the key is shared with the learner's other tabs, each writing its own record:
    the page never writes over a value another tab wrote since this one last read it. It hands that
    value to ``on_theirs`` instead (as it does at once when another tab writes), and the kernel merges
    it into its own record and saves the result. With ``aside_key`` set, a stored value too large to
    send (or one the kernel could not read, :meth:`set_aside`) is moved under that key, once: the page
    says what became of it to ``on_aside`` (``(outcome, reason, size)``, see :data:`ASIDE_OUTCOMES`).
    Whatever the page sends is checked here first; a value larger than :data:`MAX_STORED` never arrives.
    """

    _esm = static_text("storage.js")

    key = traitlets.Unicode("spades-tutor").tag(sync=True)
    value = traitlets.Unicode("").tag(sync=True)
    loaded = traitlets.Bool(False).tag(sync=True)
    time_zone = traitlets.Unicode("").tag(sync=True)
    reloaded = traitlets.Bool(False).tag(sync=True)
    merge = traitlets.Bool(False).tag(sync=True)
    aside_key = traitlets.Unicode("").tag(sync=True)
    limit = traitlets.Int(MAX_STORED).tag(sync=True)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.on_theirs: Callable[[str], None] | None = None
        self.on_aside: Callable[[str, str, int], None] | None = None
        self.on_msg(self._message)

    def _message(self, _widget: object, content: object, _buffers: object = None) -> None:
        """A message from the page: another tab's value to merge, or what became of a value set aside."""
        if not isinstance(content, dict):
            return
        theirs = content.get("theirs")
        if isinstance(theirs, str) and len(theirs) <= MAX_STORED and self.on_theirs is not None:
            self.on_theirs(theirs)
        outcome, reason, size = content.get("aside"), content.get("why"), content.get("size")
        size = size if type(size) is int and 0 <= size < 10**10 else None  # not a bool, a float or 10**400
        if outcome in ASIDE_OUTCOMES and reason in ASIDE_REASONS and size is not None and self.on_aside is not None:
            self.on_aside(str(outcome), str(reason), size)

    def write(self) -> None:
        """Ask the page to write ``value`` now (it writes on each change; this is for a value unchanged
        that the page held back, another tab having written since)."""
        self.send({"write": True})

    def set_aside(self) -> None:
        """Ask the page to move the value it sent on loading under ``aside_key`` (if it is still the
        value stored, and nothing was set aside before); the page answers to ``on_aside``."""
        self.send({"set_aside": True})

    @traitlets.validate("value")
    def _check_value(self, proposal: traitlets.Bunch) -> str:
        value = proposal["value"]
        if not isinstance(value, str) or len(value) > MAX_STORED:
            return ""
        return value

    @traitlets.validate("time_zone")
    def _check_time_zone(self, proposal: traitlets.Bunch) -> str:
        return proposal["value"] if time_zone(proposal["value"]) is not None else ""

    @property
    def zone(self) -> tzinfo | None:
        """The browser's time zone, or ``None`` if it has not named one the app knows."""
        return time_zone(self.time_zone) if self.time_zone else None


@dataclass(frozen=True)
class Place:
    """Where the learner was: a page, and for Learn the lesson and step open (``None``: the list).

    Kept in the browser next to the progress, so a reload reopens it.

    >>> Place.from_json(Place("Learn", 3, 1).to_json())
    Place(page='Learn', lesson=3, step=1)
    >>> Place.from_json('{"page": "Play", "lesson": 3}'), Place.from_json('{"page": "<b>"}')
    (Place(page='Play', lesson=None, step=0), None)
    """

    page: str = "Home"
    lesson: int | None = None
    step: int = 0

    def to_json(self) -> str:
        return json.dumps({"page": self.page, "lesson": self.lesson, "step": self.step})

    @classmethod
    def from_json(cls, text: str) -> Place | None:
        """The place in a stored record, or ``None`` for anything damaged or foreign (never an error)."""
        try:
            data = json.loads(text[:1000])
        except (ValueError, RecursionError):
            return None
        if not isinstance(data, dict) or data.get("page") not in PAGES:
            return None
        page = str(data["page"])
        if page != "Learn":
            return cls(page)
        lesson, step = data.get("lesson"), data.get("step", 0)
        if not _small_whole(lesson):
            return cls(page)
        return cls(page, lesson, step if _small_whole(step) else 0)


def _small_whole(value: object) -> bool:
    """A whole number a page may name (a lesson or a step): not a bool, a float or 10**400."""
    return type(value) is int and 0 <= value < 1000
