"""The "How was this measured?" disclosure beside a measured figure (its lines: ``spades_tutor.measured``)."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

from ..measured import SUMMARY

__all__ = ["how_measured_html"]


def how_measured_html(lines: Sequence[str], link: Callable[[str], str] | None = None) -> str:
    """The disclosure, closed, holding ``lines`` (plain text, escaped here; ``link`` then links the
    glossary's terms in them). Empty when there are no lines.

    >>> print(how_measured_html(["400 deals.", "Seed 0."]))
    <details class="st-measured"><summary>How was this measured?</summary><ul><li>400 deals.</li><li>Seed 0.</li></ul></details>
    """
    if not lines:
        return ""
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
    body = f"<ul>{items}</ul>"
    if link is not None:
        body = link(body)
    return f'<details class="st-measured"><summary>{html.escape(SUMMARY)}</summary>{body}</details>'
