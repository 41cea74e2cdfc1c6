"""Plain HTML for notebooks (``_repr_html_``): cards, hands, tricks and rounds.

No widget imports: this is what a bare Jupyter notebook shows. Suits are in
colour, and the two jokers cannot be confused: the big joker is full colour
and labelled BIG, the little joker plain and labelled little.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import Card, Rank

# type-only: play.py and round.py draw themselves with this module, imported when a notebook asks
if TYPE_CHECKING:
    from .play import Trick
    from .round import Round
    from .seats import Seat

_BASE = (
    "display:inline-flex;flex-direction:column;align-items:center;justify-content:center;"
    "min-width:2.4em;height:3.3em;margin:0 .15em;padding:0 .2em;border-radius:.35em;"
    "font:600 1.05em/1.1 system-ui,sans-serif;vertical-align:middle;box-sizing:border-box;"
)
_PLAIN = _BASE + "background:#fff;border:1px solid #888;box-shadow:0 1px 2px rgba(0,0,0,.25);"
_BIG = (
    _BASE + "background:linear-gradient(135deg,#ffd54a,#e53935 55%,#1e88e5);color:#fff;"
    "border:2px solid #b71c1c;text-shadow:0 1px 1px #000;"
)
_LITTLE = _BASE + "background:#f4f4f4;color:#333;border:2px dashed #555;"


def card_html(card: Card) -> str:
    """One card as an inline HTML element with an accessible name."""
    label = html.escape(card.name)
    if card.rank == Rank.BIG_JOKER:
        return (
            f'<span role="img" aria-label="{label}" title="{label}" style="{_BIG}">'
            '<span>🃏</span><span style="font-size:.6em">BIG</span></span>'
        )
    if card.rank == Rank.LITTLE_JOKER:
        return (
            f'<span role="img" aria-label="{label}" title="{label}" style="{_LITTLE}">'
            '<span style="filter:grayscale(1)">🃏</span><span style="font-size:.6em">little</span></span>'
        )
    assert card.suit is not None
    colour = "#c62828" if card.suit.is_red else "#111"
    return (
        f'<span role="img" aria-label="{label}" title="{label}" style="{_PLAIN}color:{colour}">'
        f"<span>{card.rank.symbol}</span><span>{card.suit.symbol}</span></span>"
    )


def cards_html(cards: Sequence[Card]) -> str:
    if not cards:
        return '<span style="color:#777;font-style:italic">no cards</span>'
    return '<span style="white-space:nowrap">' + "".join(card_html(c) for c in cards) + "</span>"


def trick_html(trick: Trick) -> str:
    """A trick drawn around the table: North at the top, partners opposite."""
    from .seats import Seat

    def cell(seat: Seat) -> str:
        card = trick.card_of(seat)
        mark = ""
        if trick.winner == seat:
            mark = "outline:3px solid #2e7d32;outline-offset:2px;border-radius:.4em;"
        lead = " (led)" if seat == trick.leader and card is not None else ""
        inner = card_html(card) if card is not None else '<span style="color:#aaa">·</span>'
        return (
            f'<div style="text-align:center"><div style="font-size:.8em;color:#555">{seat.label}{lead}</div>'
            f'<div style="display:inline-block;{mark}">{inner}</div></div>'
        )

    grid = (
        '<div style="display:inline-grid;grid-template-columns:repeat(3,auto);gap:.3em;align-items:center">'
        f"<div></div>{cell(Seat.NORTH)}<div></div>"
        f"{cell(Seat.WEST)}<div></div>{cell(Seat.EAST)}"
        f"<div></div>{cell(Seat.SOUTH)}<div></div></div>"
    )
    note = f'<div style="font-size:.9em;margin-top:.3em">{html.escape(trick.reason)}</div>' if trick.reason else ""
    return f"<div>{grid}{note}</div>"


def round_html(rnd: Round) -> str:
    """The four hands, the bids, the trick in progress and the tricks taken."""
    from .seats import Seat

    def seat_block(seat: Seat) -> str:
        bid = rnd.bids.get(seat)
        marks = []
        if seat == rnd.dealer:
            marks.append("dealer")
        if seat == rnd.to_act:
            marks.append("to act")
        extra = f' <span style="color:#1565c0">({", ".join(marks)})</span>' if marks else ""
        info = f"bid {bid}" if bid is not None else "no bid yet"
        return (
            f'<div style="margin:.2em 0"><b>{seat.label}</b>{extra} · {info} · '
            f"tricks {rnd.tricks_won[seat]}<br>{cards_html(rnd.hands[seat])}</div>"
        )

    head = (
        f'<div style="font:600 1em system-ui,sans-serif">{html.escape(rnd.rules.title)} · '
        f"deal {html.escape(rnd.deal_id or 'custom')} · {rnd.phase.value}"
        f"{' · spades broken' if rnd.spades_broken else ''}</div>"
    )
    current = rnd.trick
    middle = trick_html(current) if current.cards else ""
    body = "".join(seat_block(s) for s in Seat)
    return f'<div style="font-family:system-ui,sans-serif">{head}{body}{middle}</div>'
