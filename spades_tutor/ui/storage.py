"""A value kept in the browser's localStorage (progress, settings)."""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

_STATIC = Path(__file__).parent / "static"

#: the most a page may store for us; a larger value from the page is ignored
MAX_STORED = 512 * 1024


class BrowserStore(anywidget.AnyWidget):
    """``value`` mirrors ``localStorage[key]``; ``loaded`` turns True once the page has sent it."""

    _esm = _STATIC / "storage.js"

    key = traitlets.Unicode("spades-tutor").tag(sync=True)
    value = traitlets.Unicode("").tag(sync=True)
    loaded = traitlets.Bool(False).tag(sync=True)

    @traitlets.validate("value")
    def _check_value(self, proposal: traitlets.Bunch) -> str:
        value = proposal["value"]
        if not isinstance(value, str) or len(value) > MAX_STORED:
            return ""
        return value
