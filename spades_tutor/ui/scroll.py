"""Bring a part of the page into view from the kernel: ipywidgets can focus a widget but not scroll to one.

A hidden anywidget (``static/scroll.js``): each :meth:`ScrollTo.bring` scrolls the element with the
class ``target`` to the top of the window, once it is drawn. The Play page brings its table into view
when a hand is dealt, so the trick and the hand docked under it are seen together without the learner
scrolling past the header.
"""

from __future__ import annotations

import anywidget
import traitlets

from . import static_text


class ScrollTo(anywidget.AnyWidget):
    """Scrolls the element with the class ``target`` into view at each :meth:`bring`."""

    _esm = static_text("scroll.js")

    target = traitlets.Unicode().tag(sync=True)
    #: how many times it was asked: each new value scrolls once
    seq = traitlets.Int(0).tag(sync=True)

    def bring(self) -> None:
        """Scroll the target to the top of the window (after the page's redraw that precedes it)."""
        self.seq += 1
