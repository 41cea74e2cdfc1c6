"""Classroom projector mode: a seeded deal, all four hands face up in large cards, stepped
through bids and tricks with buttons or the arrow keys, one sentence per step, and
"Ask the class" to pause on a decision and reveal the legal cards and the reasons.
"""

from __future__ import annotations

import html
import os
import random
from typing import Any

import anywidget
import ipywidgets as w
import traitlets

from ..engine import Rules, Seat
from ..session import ClassroomHand, read_deal_id
from . import static_text
from .cards import hand_view, trick_view
from .errors import guarded
from .landmarks import live
from .scroll import ScrollTo
from .serving import CLASS_LINK_ENV
from .tree import replace_children

#: the class of the step's line, where a step taken scrolls the page to
HEAD_CLASS = "st-proj-head"


def class_link_html(url: str) -> str:
    """The class link and its QR code, folded, for the teacher to show the room (empty without a link).

    The QR code is an inline SVG named for a screen reader by the link it carries.

    >>> shown = class_link_html("http://192.168.1.20:8866/?code=K7M2QX")
    >>> 'role="img" aria-label="QR code of the class link: http://192.168.1.20:8866/?code=K7M2QX"' in shown
    True
    >>> class_link_html("")
    ''
    """
    if not url:
        return ""
    import segno

    qr = segno.make(url, error="m").svg_inline(scale=6, border=2, omitsize=True)
    link = html.escape(url)
    return (
        '<details class="st-proj-link"><summary>The class link and its QR code</summary>'
        f'<div class="st-proj-qr" role="img" aria-label="QR code of the class link: {link}">{qr}</div>'
        f'<p class="st-proj-link-url">{link}</p></details>'
    )


class ArrowKeys(anywidget.AnyWidget):
    """Sends "next"/"back" for the Right/Left arrow keys while ``active``."""

    _esm = static_text("keys.js")
    active = traitlets.Bool(False).tag(sync=True)


class ProjectorPage:
    """``widget`` is the page; ``load(deal_id)`` deals, ``go(step)`` moves, ``reveal()`` answers the question."""

    def __init__(self, rules: Rules, deal_id: str | None = None) -> None:
        self.rules = rules
        self.hand: ClassroomHand | None = None
        self.step = 0
        self.revealed = False
        self.deal_box = w.Text(
            description="Deal id:",
            placeholder="e.g. 4127W",
            style={"description_width": "initial"},
            layout=w.Layout(width="16em"),
        )
        self.deal_button = w.Button(description="Show this deal")
        self.random_button = w.Button(description="Deal a new one")
        self.ask = w.Checkbox(value=False, description="Ask the class before each card", indent=False)
        self.back = w.Button(description="◀ Back", tooltip="Previous step (Left arrow)")
        self.next = w.Button(description="Next ▶", button_style="primary", tooltip="Next step (Right arrow)")
        self.reveal_button = w.Button(description="Reveal the answer", button_style="warning")
        self.back.add_class("st-proj-back")
        self.next.add_class("st-proj-next")
        self.deal_button.on_click(guarded(lambda _b: self.load(self.deal_box.value)))
        self.random_button.on_click(guarded(lambda _b: self.load(str(random.SystemRandom().randrange(1, 100_000)))))
        self.back.on_click(guarded(lambda _b: self.go(self.step - 1)))
        self.next.on_click(guarded(lambda _b: self.forward()))
        self.reveal_button.on_click(guarded(lambda _b: self.reveal()))
        self.keys = ArrowKeys(active=True)
        self.keys.on_msg(guarded(self._key))
        self.header = w.HTML()
        self.header.add_class(HEAD_CLASS)
        # a step taken brings the step's line, its sentence and the table into view (the deal's controls
        # and the app's header scroll away): on a 768-high projector the trick was below the fold
        self.scroll = ScrollTo(target=HEAD_CLASS)
        self.sentence = live(w.HTML())
        self.table = w.VBox()  # North above; West, the trick, East; South below
        self.table.add_class("st-proj-table")
        self.detail = w.HTML()
        # the link `spades-tutor app` printed for the room, when it serves one (its kernels have it)
        self.class_link = w.HTML(class_link_html(os.environ.get(CLASS_LINK_ENV, "")))
        self.widget = w.VBox(
            [
                self.keys,
                self.scroll,
                w.HTML('<h2 class="st-lesson-title">Classroom: a hand step by step</h2>'),
                self.class_link,
                w.HBox([self.deal_box, self.deal_button, self.random_button, self.ask]),
                self.header,
                self.sentence,
                w.HBox([self.back, self.next, self.reveal_button]),
                self.table,
                self.detail,
            ]
        )
        self.widget.add_class("st-projector")
        self.load(deal_id or "4127W")

    # --- moving --------------------------------------------------------------------------------

    def _key(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        key = content.get("key") if isinstance(content, dict) else None
        if key == "next":
            self.forward()
        elif key == "back":
            self.go(self.step - 1)

    def load(self, deal_id: str) -> None:
        text = read_deal_id(deal_id)  # an InputError, shown in the banner, says what a deal id looks like
        self.hand = ClassroomHand.from_deal_id(self.rules, text)
        self.deal_box.value = self.hand.deal_id
        self.step = 0
        self._pending = None  # a question asked about the last deal is not this deal's
        self.revealed = False
        self.render()

    def set_rules(self, rules: Rules) -> None:
        self.rules = rules
        if self.hand is not None:
            self.load(self.hand.deal_id)

    @property
    def asking(self) -> bool:
        """Paused on a question: the next card is not shown yet."""
        return self._pending is not None

    _pending: int | None = None

    def forward(self) -> None:
        assert self.hand is not None
        nxt = self.step + 1
        if nxt >= len(self.hand.steps):
            return
        if self.ask.value and self.hand.steps[nxt].card is not None and self._pending != nxt:
            self._pending = nxt  # ask first; the next Next shows the card
            self.revealed = False
            self.render()
            self.scroll.bring()
            return
        self._pending = None
        self.go(nxt)

    def go(self, step: int) -> None:
        assert self.hand is not None
        self._pending = None
        self.step = max(0, min(step, len(self.hand.steps) - 1))
        self.revealed = False
        self.render()
        self.scroll.bring()

    def reveal(self) -> None:
        if self._pending is not None:
            self.revealed = True
            self.render()

    # --- drawing -------------------------------------------------------------------------------

    def render(self) -> None:
        hand = self.hand
        assert hand is not None
        shown = self.step
        rnd = hand.round_at(shown)
        total = len(hand.steps) - 1
        self.header.value = (
            f'<div class="st-proj-where" role="status">Deal {html.escape(hand.deal_id)} · {html.escape(self.rules.title)} · '
            f"step {shown} of {total}</div>"
        )
        marks: dict[Any, str] = {}
        ask_seat: Seat | None = None
        if self._pending is not None:
            question = hand.question(self._pending)
            ask_seat = hand.steps[self._pending].seat
            text = f"<b>Ask the class:</b> {html.escape(question)}"
            if self.revealed:
                legal, reasons = hand.answer(self._pending)
                marks = {c: "legal" for c in legal} | {c: "illegal" for c in reasons}
                text += " <b>Legal:</b> " + html.escape(" ".join(str(c) for c in legal))
                # one line per reason, with every card it rules out (not eleven lines of one sentence)
                by_reason: dict[str, list[str]] = {}
                for c, r in reasons.items():
                    by_reason.setdefault(str(r), []).append(str(c))
                rows = "".join(
                    f"<li><b>{html.escape(' '.join(cards))}</b>: {html.escape(r)}</li>"
                    for r, cards in by_reason.items()
                )
                self.detail.value = f'<ul class="st-proj-reasons">{rows}</ul>' if rows else ""
            else:
                self.detail.value = ""
            self.sentence.value = f'<div class="st-proj-sentence st-proj-question" role="status">{text}</div>'
        else:
            self.sentence.value = (
                f'<div class="st-proj-sentence" role="status">{html.escape(hand.steps[shown].sentence)}</div>'
            )
            self.detail.value = ""
        self.back.disabled = shown == 0 and self._pending is None
        self.next.disabled = shown >= total
        self.reveal_button.disabled = self._pending is None or self.revealed

        def seat_cell(seat: Seat) -> w.Widget:
            bid = rnd.bids.get(seat)
            label = (
                f"{seat} · {seat.team.short}"
                + (f" · bid {bid}" if bid is not None else "")
                + f" · tricks {rnd.tricks_won[seat]}"
            )
            seat_marks = marks if seat == ask_seat else None
            return w.VBox(
                [
                    w.HTML(f'<div class="st-proj-seat">{html.escape(label)}</div>'),
                    hand_view(
                        self.rules,
                        rnd.hands[seat],
                        label=f"{seat}'s hand",
                        marks=seat_marks,
                        four_colour=True,
                        large=True,
                    ),
                ]
            )

        current = rnd.trick
        if not current.cards and rnd.tricks and shown > 0 and hand.steps[shown].card is not None:
            current = rnd.tricks[-1]  # the trick just completed stays on the table for its step
        middle = trick_view(current, label="the trick on the table", four_colour=True, large=True)

        west, east = seat_cell(Seat.WEST), seat_cell(Seat.EAST)
        for side in (west, east):  # set on the layouts they have: a new Layout would leave theirs open
            side.layout.flex, side.layout.min_width = "1 1 0%", "0"
        middle.layout.flex, middle.layout.align_self = "0 0 auto", "center"
        replace_children(self.table, [seat_cell(Seat.NORTH), w.HBox([west, middle, east]), seat_cell(Seat.SOUTH)])
