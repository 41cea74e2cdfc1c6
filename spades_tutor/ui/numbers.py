"""Whole-number answer fields (points, bags, sure tricks) whose every edit reaches Python in order.

ipywidgets' ``IntText`` syncs its value as state, and ipywidgets holds back a state sync while
an earlier one from the same widget is in flight; a quick "Check answer" click, sent as a
message, could then be handled before the number the learner last typed. ``NumberFields``
(``static/numbers.js``) sends each edit as a message instead, like the card widget's choices,
and validates it here: a value that is not a whole number within the field's bounds is refused
and the field shows the last accepted one.

Each message carries the page's edit count (``seq``), and Python sends it back with the values it
accepted from that message. The page shows the kernel's values only once the kernel has read its
last edit: an answer to an older edit, arriving after the learner typed on, must not write the old
number back into a field (which the next edit would then send as if the learner had typed it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import anywidget
import traitlets

from . import static_text

_WHOLE = re.compile(r"\s*[-+\N{MINUS SIGN}]?\d{1,9}\s*")  # the minus sign the app's scores are written with


@dataclass(frozen=True)
class Field:
    key: str
    label: str
    value: int | None = None  # None: the field starts empty (a number shown first would be a hint)
    min: int | None = None
    max: int | None = None
    row: int = 0
    width: float = 6.0

    def accepts(self, value: int) -> bool:
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)


def read_seq(content: dict[str, Any], last: int) -> int:
    """The edit count a page message carries, if it is a sane one; otherwise ``last`` (untrusted input).

    >>> read_seq({"seq": 7}, 3), read_seq({"seq": True}, 3), read_seq({"seq": 2**60}, 3), read_seq({}, 3)
    (7, 3, 3, 3)
    """
    seq = content.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= 2**53:
        return last
    return seq


class NumberFields(anywidget.AnyWidget):
    """Labelled whole-number inputs; ``values[key]`` is the last accepted number of each."""

    _esm = static_text("numbers.js")
    _css = static_text("numbers.css")

    fields = traitlets.List(traitlets.Dict()).tag(sync=True)
    values = traitlets.Dict().tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)
    seq = traitlets.Int(0).tag(sync=True)  # the last page edit read (see the module's docstring)

    def __init__(self, fields: Sequence[Field], **kwargs: Any) -> None:
        self._spec = {f.key: f for f in fields}
        super().__init__(
            fields=[
                {"key": f.key, "label": f.label, "min": f.min, "max": f.max, "row": f.row, "width": f.width}
                for f in fields
            ],
            values={f.key: f.value for f in fields},
            **kwargs,
        )
        self.on_msg(self._page_message)

    def _page_message(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        """The page's field texts: each whole number within bounds is accepted, anything else refused."""
        if self.disabled or not isinstance(content, dict) or not isinstance(content.get("values"), dict):
            return
        accepted = dict(self.values)
        for key, raw in content["values"].items():
            field = self._spec.get(key)
            if field is None:
                continue
            if isinstance(raw, bool) or not isinstance(raw, int | str):
                continue
            if isinstance(raw, str):
                if not _WHOLE.fullmatch(raw):
                    continue
                raw = int(raw.replace("\N{MINUS SIGN}", "-"))
            if field.accepts(raw):
                accepted[key] = raw
        changed = accepted != self.values
        with self.hold_sync():
            self.seq = read_seq(content, self.seq)
            self.values = accepted
        if not changed:
            self.send_state(["values", "seq"])  # show the accepted numbers again in fields that were refused

    @traitlets.validate("values")
    def _checked(self, proposal: Any) -> dict[str, int | None]:
        """Whatever sets ``values`` (this class, a test, or a page syncing the state directly, which a
        hostile page may): only the fields' own keys, each a whole number within bounds or empty;
        anything else keeps the value it had."""
        given = proposal["value"]
        # the last values accepted (``self.values`` may already hold the proposal: a state sync sets
        # first and validates after)
        old: dict[str, int | None] = dict(getattr(self, "_accepted", {}))
        if not isinstance(given, dict) or (old and self.disabled):  # after "Check answer" nothing changes it
            return old
        out: dict[str, int | None] = {}
        for key, field in getattr(self, "_spec", {}).items():
            value = given.get(key, old.get(key, field.value))
            ok = value is None or (isinstance(value, int) and not isinstance(value, bool) and field.accepts(value))
            out[key] = value if ok else old.get(key, field.value)
        self._accepted = out
        return out

    def __getitem__(self, key: str) -> int:
        value = self.values[key]
        if value is None:
            raise KeyError(f"{self._spec[key].label} is still empty")
        return int(value)

    @property
    def empty(self) -> list[str]:
        """The labels of the fields nothing has been typed in yet."""
        return [f.label for key, f in self._spec.items() if self.values.get(key) is None]

    def set(self, **values: int) -> None:
        """Set numbers from Python (tests, a replayed answer); bounds are checked."""
        accepted = dict(self.values)
        for key, value in values.items():
            field = self._spec[key]
            if not field.accepts(value):
                raise ValueError(f"{field.label} {value} is out of bounds")
            accepted[key] = value
        self.values = accepted
