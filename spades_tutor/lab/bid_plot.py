"""What each bid of one measured hand scores, as a small bar chart with its one-line reading.

``bid_spec(odds, accepted)`` is plotly JSON (plain data: no plotly import), drawn by the page;
``bid_reading`` is the line that names it, and ``bid_figure`` a ``go.Figure`` titled by it (for a
notebook). Every number is the measurement's (``bid_odds``, or ``hand_odds`` for the number bids
alone): the side's mean points had South bid nil (drawn at 0, where nil was measured) or 1..13 and
their 95% intervals, measured over the hand's deals (the bars and error bars draw exactly those).
The bids in ``accepted`` are highlighted, the best bid marked. Points are written with a real
minus sign (−).

>>> import spades_tutor as st
>>> from spades_tutor.lab.odds import bid_odds
>>> odds = bid_odds(st.Rules.preset("classic"), "QS 7S 3S KH 9H 4H AC 10C 6C 2C JD 7D 3D", deals=100)
>>> print(bid_reading(odds, odds.accepted))
Bid 2 scores best: about +34 points to the side on average (likely between +26 and +41) over the deals the bots played; bids 1–3 count as right.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..engine.text import likely, signed_points
from .plots import plot_layout

if TYPE_CHECKING:
    from .odds import BidOdds, HandOdds

    Measured = BidOdds | HandOdds

__all__ = ["BID_PLOT_HEIGHT", "bid_figure", "bid_key", "bid_reading", "bid_spec"]

#: px: a small plot (app.css gives ``.st-plot-small`` the same height)
BID_PLOT_HEIGHT = 340

BEST, RIGHT, OTHER = "best bid", "counted right", "other bids"
_COLOURS = {BEST: "#2e7d32", RIGHT: "#1565c0", OTHER: "#757575"}
X_TITLE, Y_TITLE = "South's bid", "side's points, average"
#: the x axis's title where nil is drawn (at 0)
X_TITLE_NIL = "South's bid (0 = nil)"


def _bids(odds: Measured) -> list[int]:
    return sorted(odds.points)


def _word(bid: int) -> str:
    return "nil" if bid == 0 else str(bid)


def _signed(value: float) -> str:
    return signed_points(value)


def _range(bids: Sequence[int]) -> str:
    if len(bids) == 1:
        return f"{'nil' if bids[0] == 0 else f'bid {bids[0]}'} counts"
    numbers = [b for b in bids if b > 0]
    if bids[0] != 0 and list(bids) == list(range(bids[0], bids[-1] + 1)):
        return f"bids {bids[0]}–{bids[-1]} count"
    words = [_word(b) for b in bids]
    return ("bids " if numbers == list(bids) else "") + ", ".join(words[:-1]) + f" and {words[-1]} count"


def bid_reading(odds: Measured, accepted: Sequence[int]) -> str:
    """The plot in one line: the best bid, its points and interval, the bids counted right (how many
    deals is said behind "How was this measured?")."""
    low, high = odds.best_points_interval
    best = "Nil" if odds.best_bid == 0 else f"Bid {odds.best_bid}"
    out = (
        f"{best} scores best: about {_signed(odds.best_points)} points to the side on average "
        f"({likely(_signed(low), _signed(high))}) over the deals the bots played; "
        f"{_range(sorted(accepted))} as right."
    )
    need = odds.rules.min_team_bid
    if need:
        out += (
            f" At this table a team bids at least {need} together: in a deal where the partner bid first, a bid "
            "under what brings the team there is scored as the least bid the table allows."
        )
    return out


def _group(odds: Measured, bid: int, accepted: Sequence[int]) -> str:
    return BEST if bid == odds.best_bid else RIGHT if bid in accepted else OTHER


def bid_spec(odds: Measured, accepted: Sequence[int]) -> dict[str, Any]:
    """The plotly JSON: one bar per bid with its 95% interval; best bid, bids counted right, the others.

    The traces come in that order (the data table reads the best bid first); each bid is in one.
    """
    data: list[dict[str, Any]] = []
    for group in (BEST, RIGHT, OTHER):
        bids = [b for b in _bids(odds) if _group(odds, b, accepted) == group]
        if not bids:
            continue
        y = [odds.points[b] for b in bids]
        low = [odds.points_interval[b][0] for b in bids]
        high = [odds.points_interval[b][1] for b in bids]
        data.append(
            {
                "type": "bar",
                "name": group,
                "x": bids,
                "y": y,
                "marker": {"color": _COLOURS[group]},
                "width": 0.75,  # in bids: each trace's own gaps would otherwise set its bars' width
                "error_y": {
                    "type": "data",
                    "symmetric": False,
                    "array": [h - v for h, v in zip(high, y, strict=True)],
                    "arrayminus": [v - lo for v, lo in zip(y, low, strict=True)],
                    "color": "#111",
                },
                # the hover line written here, with real minus signs: [low, high, the line]
                "customdata": [
                    [
                        lo,
                        h,
                        f"{'nil' if b == 0 else f'bid {b}'}: about {_signed(v)} points ({likely(_signed(lo), _signed(h))})",
                    ]
                    for b, v, lo, h in zip(bids, y, low, high, strict=True)
                ],
                "hovertemplate": "%{customdata[2]}<extra>" + group + "</extra>",
            }
        )
    top = odds.best_points_interval[1]
    ends = [v for b in _bids(odds) for v in (*odds.points_interval[b], 0.0)]
    span = max(ends) - min(ends) or 1.0
    nil = 0 in odds.points
    layout = plot_layout("", X_TITLE_NIL if nil else X_TITLE, Y_TITLE, height=BID_PLOT_HEIGHT, barmode="overlay")
    del layout["title"]
    layout["margin"] = {"l": 50, "r": 10, "t": 20, "b": 30}
    # no plotly legend: placed above or below, it was drawn over the bars or their labels after a
    # resize; the page writes the key (``bid_key``) under the plot, where it wraps on a phone
    layout["showlegend"] = False
    layout["yaxis"] = {**layout["yaxis"], "range": [min(ends) - 0.05 * span, max(ends) + 0.15 * span]}
    # every bid labelled, upright, even on a phone (14 labels in under 300 px); nil at 0, named
    first = 0 if nil else 1
    xaxis = {
        "tickmode": "array",
        "tickvals": list(range(first, 14)),
        "ticktext": [_word(b) for b in range(first, 14)],
        "range": [first - 0.6, 13.6],
        "tickangle": 0,
        "tickfont": {"size": 12},
    }
    layout["xaxis"] = {**layout["xaxis"], **xaxis}
    layout["yaxis"] = {**layout["yaxis"], "tickformat": "+d", "zerolinecolor": "#9e9e9e"}
    layout["annotations"] = [
        {"x": odds.best_bid, "y": top, "text": "best", "showarrow": False, "yanchor": "bottom", "font": {"size": 13}}
    ]
    return {"data": data, "layout": layout}


def bid_key(odds: Measured, accepted: Sequence[int]) -> tuple[tuple[str, str], ...]:
    """The colours of ``bid_spec``'s bars and what they mean, ``(name, colour)`` per trace drawn."""
    return tuple((t["name"], t["marker"]["color"]) for t in bid_spec(odds, accepted)["data"])


def bid_figure(odds: Measured, accepted: Sequence[int]) -> Any:
    """A ``plotly.graph_objects.Figure`` of ``bid_spec``, titled by its reading."""
    import plotly.graph_objects as go

    spec = bid_spec(odds, accepted)
    spec["layout"]["title"] = {"text": bid_reading(odds, accepted), "x": 0.02}
    spec["layout"]["margin"]["t"] = 60
    spec["layout"]["showlegend"] = True  # a notebook's figure carries its own key
    spec["layout"]["legend"] = {"orientation": "h", "yanchor": "top", "y": -0.2, "x": 0}
    spec["layout"]["margin"]["b"] = 80
    return go.Figure(spec)
