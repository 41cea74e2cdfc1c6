"""A plot on a page: its one-line reading, the box plotly draws it in, and its data in a disclosure.

The reading comes first: the page's landmarks make the plot box a figure named by the reading just
before it. Under the plot, a closed native disclosure ("Data of this plot") holds the table of the
numbers it draws, in a scroller the keyboard can reach.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

#: the class of a small plot's box (app.css gives it its height)
SMALL = "st-plot-small"


def plot_slot(small: bool = False) -> w.Output:
    """A box one plot is drawn in; it keeps its place on the page and only its content changes."""
    out = w.Output(layout=w.Layout(width="100%"))
    out.add_class("st-plot")
    if small:
        out.add_class(SMALL)
    return out


def draw(slot: w.Output, spec: Any, height: int | None = None) -> None:
    """Show a plot's JSON in ``slot``: plotly's renderer draws it in the page, at the slot's full width."""
    from ..lab.plots import PLOT_HEIGHT, bundle

    data = bundle(spec, PLOT_HEIGHT if height is None else height)
    slot.outputs = ({"output_type": "display_data", "data": data, "metadata": {}},)


def data_box() -> w.HTML:
    """The box under a plot that holds its data table, in a closed disclosure (empty until filled)."""
    box = w.HTML()
    box.add_class("st-plot-data")
    return box


def fill_data(box: w.HTML, spec: Any, caption: str, table_html: str | None = None) -> None:
    """Put the numbers ``spec`` plots in ``box``: a native disclosure the keyboard opens, holding its table
    (``data_table``'s, one row per point, unless the page gives a table of its own in ``table_html``)."""
    from ..lab.plots import data_table

    # the scroller is a named region in the tab order, so the keyboard can scroll a long table too
    name = html.escape(f"Data of this plot: {caption}", quote=True)
    inner = data_table(spec, caption) if table_html is None else table_html
    table = f'<div class="st-lab-scroll" role="region" tabindex="0" aria-label="{name}">{inner}</div>'
    box.value = f"<details><summary>Data of this plot</summary>{table}</details>"


def reading_html(title: str, text: str) -> str:
    """A plot's one-line reading, under its title in bold (or, with no title, the reading in bold)."""
    if not title:
        return f'<div class="st-reading"><b>{html.escape(text)}</b></div>'
    return f'<div class="st-reading"><b>{html.escape(title)}.</b> {html.escape(text)}</div>'


def key_html(key: tuple[tuple[str, str], ...]) -> str:
    """A plot's key under it, ``(what, colour)`` each: a swatch and its words, wrapping on a narrow page."""
    items = "".join(
        f'<li><span class="st-swatch" style="background:{html.escape(colour)}" aria-hidden="true"></span>'
        f"{html.escape(what)}</li>"
        for what, colour in key
    )
    return f'<ul class="st-plot-key" aria-label="Key">{items}</ul>' if key else ""
