"""A value kept in the browser's localStorage (progress, settings, the page the learner was on)."""

from __future__ import annotations

import json
from dataclasses import dataclass

import anywidget
import traitlets

from . import static_text

#: the most a page may store for us; a larger value from the page is ignored
MAX_STORED = 512 * 1024


class BrowserStore(anywidget.AnyWidget):
    """``value`` mirrors ``localStorage[key]``; ``loaded`` turns True once the page has sent it."""

    _esm = static_text("storage.js")

    key = traitlets.Unicode("spades-tutor").tag(sync=True)
    value = traitlets.Unicode("").tag(sync=True)
    loaded = traitlets.Bool(False).tag(sync=True)

    @traitlets.validate("value")
    def _check_value(self, proposal: traitlets.Bunch) -> str:
        value = proposal["value"]
        if not isinstance(value, str) or len(value) > MAX_STORED:
            return ""
        return value


#: the pages a saved place may name (the app's tabs)
PAGES = ("Home", "Learn", "Quiz yourself", "Play", "Joker lab", "Classroom", "Glossary", "Progress", "Puzzles")


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
