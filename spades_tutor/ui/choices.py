"""Menus and rows of buttons whose choice the page cannot clear.

A selection widget's choice reaches the kernel as its ``index``, and ipywidgets takes ``null`` there
as "nothing chosen": the value becomes ``None`` and every observer runs with it. The page's own
menus never send that, but a page's messages are untrusted, and every menu of the app holds a choice
that the code after it reads (a quiz kind, a level, a rule set, a page). :class:`KeepsChoice` drops a
``null`` index from the page while a choice is made, and sends the choice back, so the page shows
it again; it also keeps the options' labels, which ipywidgets lets the page replace. Every other value
goes through ipywidgets' own checks, which refuse an index out of range.
A widget that has no choice yet (an unanswered question, a bid row before the bid) takes what it
is sent, as before.

>>> d = Dropdown(options=["a", "b"], value="b")
>>> d.set_state({"index": None})
>>> d.value
'b'
>>> d.set_state({"index": 0, "_options_labels": ["x", "y", "z"]})
>>> d.value, d.label, d.options
('a', 'a', ('a', 'b'))
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

__all__ = ["Dropdown", "KeepsChoice", "ToggleButtons"]

#: what a page may never set: the options' labels are the kernel's (the page's own menus never send
#: them, and labels that do not match the options would name one choice and make another)
REFUSED = ("_options_labels",)


class KeepsChoice:
    """Mixed into a selection widget: a ``null`` index from the page does not clear a choice made."""

    index: int | None

    def set_state(self, sync_data: dict[str, Any]) -> None:
        refused = [key for key in REFUSED if key in sync_data]
        if "index" in sync_data and sync_data["index"] is None and self.index is not None:
            refused.append("index")
        if not refused:
            super().set_state(sync_data)  # type: ignore[misc]
            return
        rest = {k: v for k, v in sync_data.items() if k not in refused}
        if rest:
            super().set_state(rest)  # type: ignore[misc]
        self.send_state(refused)  # type: ignore[attr-defined]  # the page shows the kernel's again


class Dropdown(KeepsChoice, w.Dropdown):  # type: ignore[misc]
    """An ipywidgets ``Dropdown`` whose choice the page cannot clear."""


class ToggleButtons(KeepsChoice, w.ToggleButtons):  # type: ignore[misc]
    """An ipywidgets ``ToggleButtons`` whose choice the page cannot clear."""
