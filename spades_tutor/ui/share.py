"""A link to share, whole, with a button that copies it: the page knows its own address, the kernel does not.

``ShareLink`` (``static/share.js``) shows the app's address with ``?<param>=<value>`` (for a puzzle,
``?puzzle=<code>``) in a read-only box, selected on focus, and a "Copy link" button that puts it on
the clipboard and says so ("Link copied", read out). Where the browser refuses the clipboard (an
insecure origin, a denied permission), the link is selected for the learner to copy by hand, and the
line says that instead. The value is the page's to show, never markup: it is written as text.
"""

from __future__ import annotations

import re

import anywidget
import traitlets

from . import static_text

__all__ = ["ShareLink"]

#: what a parameter's name and value may hold (a puzzle code is base64url): anything else is not shown
_SAFE = re.compile(r"[A-Za-z0-9_-]{1,2000}")


class ShareLink(anywidget.AnyWidget):
    """``?param=value`` on the app's own address, shown whole, with a button that copies it."""

    _esm = static_text("share.js")
    _css = static_text("share.css")

    param = traitlets.Unicode("").tag(sync=True)
    value = traitlets.Unicode("").tag(sync=True)
    label = traitlets.Unicode("Share this puzzle:").tag(sync=True)

    def __init__(self, param: str, label: str = "Share this puzzle:", **kwargs: object) -> None:
        if not _SAFE.fullmatch(param):
            raise ValueError(f"a link parameter is letters, digits, - and _ only, not {param!r}")
        super().__init__(param=param, label=label, **kwargs)

    def show(self, value: str) -> None:
        """Share ``value`` (a puzzle's code); one that is not a plain code shows no link."""
        self.value = value if _SAFE.fullmatch(value) else ""
