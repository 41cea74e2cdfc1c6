"""The page's landmarks and title, for screen readers and for the browser's tab.

ipywidgets draws boxes as plain ``div`` elements and has no way to give one a role. This hidden
anywidget (``static/landmarks.js``) finds the app's header, its page tabs and its page area and
marks them ``banner``, ``navigation`` and ``main``; it keeps ``document.title`` naming the page shown.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

_STATIC = Path(__file__).parent / "static"

#: what every page title ends with
APP_TITLE = "Spades with Jokers tutor"


def page_title(page: str) -> str:
    """The browser tab's title for ``page``.

    >>> page_title("Quiz yourself")
    'Quiz yourself · Spades with Jokers tutor'
    """
    return f"{page} · {APP_TITLE}" if page else APP_TITLE


class Landmarks(anywidget.AnyWidget):
    """Roles for the boxes with the classes named here, and the document's title."""

    _esm = _STATIC / "landmarks.js"

    title = traitlets.Unicode(APP_TITLE).tag(sync=True)
    banner = traitlets.Unicode("st-header").tag(sync=True)
    navigation = traitlets.Unicode("st-nav-tabs").tag(sync=True)
    main = traitlets.Unicode("st-main").tag(sync=True)
