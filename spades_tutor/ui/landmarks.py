"""The page's landmarks, live regions and title, for screen readers and for the browser's tab.

ipywidgets draws boxes as plain ``div`` elements and has no way to give one a role. This hidden
anywidget (``static/landmarks.js``) finds the app's header, its page tabs and its page area and
marks them ``banner``, ``navigation`` and ``main``; it makes every box with the class ``st-live``
a polite live region (what a screen reader reads out when its text changes: quiz verdicts, whose
turn it is, a trick's winner, why a card may not be played, a hint, the lab's readings); it makes
each lab plot a figure named by its one-line reading (the plot's numbers are in the table under it,
in a native disclosure the lab page writes itself); it keeps
``document.title`` naming the page shown.
"""

from __future__ import annotations

from typing import TypeVar

import anywidget
import ipywidgets as w
import traitlets

from . import static_text

W = TypeVar("W", bound=w.DOMWidget)


#: the class that makes a box a polite live region (see :func:`live`)
LIVE = "st-live"

#: what every page title ends with
APP_TITLE = "Spades with Jokers tutor"


def page_title(page: str) -> str:
    """The browser tab's title for ``page``.

    >>> page_title("Quiz yourself")
    'Quiz yourself · Spades with Jokers tutor'
    """
    return f"{page} · {APP_TITLE}" if page else APP_TITLE


def live(widget: W) -> W:
    """Mark ``widget`` a polite live region: a screen reader reads its new text when it changes."""
    widget.add_class(LIVE)
    return widget


class Landmarks(anywidget.AnyWidget):
    """Roles for the boxes with the classes named here, and the document's title."""

    _esm = static_text("landmarks.js")

    title = traitlets.Unicode(APP_TITLE).tag(sync=True)
    banner = traitlets.Unicode("st-header").tag(sync=True)
    navigation = traitlets.Unicode("st-nav-tabs").tag(sync=True)
    main = traitlets.Unicode("st-main").tag(sync=True)
    live = traitlets.Unicode(LIVE).tag(sync=True)
    #: boxes holding a plot: each becomes a figure named by the reading in the box just before it
    figure = traitlets.Unicode("st-plot").tag(sync=True)
