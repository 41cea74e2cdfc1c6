"""Plotly figures of the experiments, each with a one-line reading computed from the data.

``readings`` are plain functions of the experiment frames (testable without plotly), and they
read the same numbers the plots draw: a difference is called one only when the 95% intervals
say so. ``figure(name, frame)`` builds a ``go.Figure`` comparing the rule sets in the frame;
``bundle(fig)`` is what the lab page sends to the browser (plotly's own renderer draws it, so
plotly.js is loaded once per page, not once per plot).

>>> import spades_tutor as st, pandas as pd
>>> from spades_tutor.lab import simulate
>>> from spades_tutor.lab.experiments import trumps_per_hand
>>> frame = pd.concat([trumps_per_hand(simulate(st.Rules.preset(n), 500, seed=1)) for n in ("jokers", "classic")])
>>> print(reading("trumps-per-hand", frame))
A hand holds 3.75 trumps on average with Spades with Jokers and 3.25 with Regular Spades (exact values); 5 or more in 29% of hands against 18%.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..engine import Rules, RulesError
from ..engine.text import MINUS, likely

__all__ = [
    "READINGS",
    "TITLES",
    "bot_spec",
    "bundle",
    "data_table",
    "figure",
    "nil_by_holding",
    "paths_spec",
    "reading",
    "spec",
]

TITLES = {
    "trumps-per-hand": "Trumps per hand at the deal",
    "side-cards": "A side king: trumped, by how many of its suit you hold",
    "voids": "Void in a side suit, by trick",
    "top-trumps": "How often the top trumps take their trick",
    "nil": "Nil made, by what the nil bidder held",
}

_COLOURS = ("#c62828", "#1565c0", "#2e7d32", "#6a1b9a", "#ef6c00")


def _title(name: str) -> str:
    try:
        return Rules.preset(name).title
    except RulesError:
        return name


def _sets(frame: Any) -> list[str]:
    return list(dict.fromkeys(frame.rule_set))


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _share(x: float) -> str:
    """A measured share in a reading: ``'28%'``, or "almost never" / "almost always" where it rounds to
    0% or 100% (its count and likely range follow it, and agree)."""
    shown = _pct(x)
    return "almost never" if shown == "0%" else "almost always" if shown == "100%" else shown


def _pair(values: list[str]) -> str:
    return values[0] if len(values) == 1 else " and ".join([", ".join(values[:-1]), values[-1]])


def _trump_count(name: str) -> int | None:
    try:
        return len(Rules.preset(name).trump_order())
    except RulesError:
        return None


def _compare(values: dict[str, tuple[float, float, float]], what: str) -> str:
    """How two rule sets' shares compare, by their 95% intervals: ``values[name] = (share, low, high)``.

    Empty for a single rule set; "no clear difference" when the intervals overlap (or the shares are
    equal); otherwise which one is higher, and whether it also has more trumps.
    """
    if len(values) < 2:
        return ""
    (a, (pa, la, ha)), (b, (pb, lb, hb)) = list(values.items())[:2]
    if pa == pb or not (la > hb or lb > ha):
        return " No clear difference between the two rule sets (their likely ranges overlap)."
    high, low = (a, b) if pa > pb else (b, a)
    text = f" {what} more often with {_title(high)}"
    more, fewer = _trump_count(high), _trump_count(low)
    if more is not None and fewer is not None and more > fewer:
        text += f", which has more trumps ({more} against {fewer})"
    return text + "."


def _read_trumps(frame: Any) -> str:
    sets = _sets(frame)
    mean = {n: float((frame[frame.rule_set == n].exact * frame[frame.rule_set == n].trumps).sum()) for n in sets}
    many = {n: float(frame[(frame.rule_set == n) & (frame.trumps >= 5)].exact.sum()) for n in sets}
    if len(sets) > 1 and len({round(v, 2) for v in mean.values()}) == 1 and len({_pct(v) for v in many.values()}) == 1:
        first = sets[0]
        return (
            f"A hand holds {mean[first]:.2f} trumps on average with {_pair([_title(n) for n in sets])} alike "
            f"(exact values: the same number of trumps); 5 or more in {_pct(many[first])} of hands in each."
        )
    means = [f"{mean[n]:.2f} with {_title(n)}" for n in sets]
    first = means[0].replace(" with ", " trumps on average with ", 1)
    shares = [_pct(many[n]) for n in sets]
    text = f"A hand holds {_pair([first, *means[1:]])} (exact values); 5 or more in {shares[0]} of hands"
    return text + (f" against {_pair(shares[1:])}." if len(shares) > 1 else ".")


def _read_side(frame: Any) -> str:
    kings = frame[(frame["rank"] == "king") & (frame.held == 2)]
    values = {}
    for n in _sets(kings):
        row = kings[kings.rule_set == n].iloc[0]
        values[n] = (float(row.trumped_share), float(row.trumped_low), float(row.trumped_high))
    parts = [f"{_pct(v[0])} of the time with {_title(n)}" for n, v in values.items()]
    return f"A side king held twice is trumped {_pair(parts)}." + _compare(values, "It is trumped")


def _read_voids(frame: Any) -> str:
    at5 = frame[frame.trick == 5]
    values = {}
    for n in _sets(at5):
        row = at5[at5.rule_set == n].iloc[0]
        values[n] = (float(row.void_share), float(row.low), float(row.high))
    parts = [f"{_pct(v[0])} of the time with {_title(n)}" for n, v in values.items()]
    return f"By trick 5, a player is out of a given side suit {_pair(parts)}." + _compare(values, "Side suits run out")


def _read_top(frame: Any) -> str:
    values = {}
    for n in _sets(frame):
        f = frame[(frame.rule_set == n) & (frame.card == "A♠")]
        if len(f):
            values[n] = (float(f.won_share.iloc[0]), float(f.low.iloc[0]), float(f.high.iloc[0]))
    text = "The A♠ takes its trick " + _pair([f"{_pct(v[0])} of the time with {_title(n)}" for n, v in values.items()])
    text += "." + _compare(values, "It takes its trick")
    big = frame[frame.card == "BJ"]
    if len(big):
        text = (
            f"The big joker takes its trick {_pct(float(big.won_share.min()))} of the time; "
            + text[0].lower()
            + text[1:]
        )
    return text


NIL_HOLDINGS = ("big joker", "little joker, no big", "no joker")
_NIL_WORDS = {
    "big joker": "with the big joker",
    "little joker, no big": "with the little joker but not the big",
    "no joker": "with no joker",
}


def nil_by_holding(frame: Any) -> Any:
    """Nil bids and nils made by what the bidder held, per rule set, with Wilson 95% intervals.

    The nil plot draws exactly these rows and the reading quotes them.
    """
    from .intervals import wilson

    g = frame.groupby(["rule_set", "holding"], as_index=False, sort=False)[["nils", "made"]].sum()
    order = {h: i for i, h in enumerate(NIL_HOLDINGS)}
    sets = {n: i for i, n in enumerate(_sets(frame))}
    g = g.sort_values(by=["rule_set", "holding"], key=lambda c: c.map(sets if c.name == "rule_set" else order))
    g = g.reset_index(drop=True)
    g["share"] = g.made / g.nils
    g["low"], g["high"] = wilson(g.made, g.nils)
    return g


def _bots_nil(frame: Any) -> bool:
    return "play" in frame and len(frame) > 0 and set(frame.play) == {"heuristic bots"}


def _nil_play(frame: Any) -> str:
    """How the nils in ``frame`` were played, in words (the ``play`` column of ``nil_success``)."""
    plays = set(frame.play) if "play" in frame else {"random"}
    if _bots_nil(frame):
        return "South bid nil in every deal and the bots played it"
    return "random play" if plays == {"random"} else "play: " + ", ".join(sorted(plays))


def _read_nil(frame: Any) -> str:
    g = nil_by_holding(frame)
    if not len(g):
        return f"No nil bids in this sample ({_nil_play(frame)})."
    parts = []
    for holding in NIL_HOLDINGS:
        rows = g[g.holding == holding]
        if not len(rows):
            continue
        each = [
            f"{_share(float(r.share))} ({int(r.made):,} of {int(r.nils):,}; "
            f"{likely(_pct(float(r.low)), _pct(float(r.high)))})"
            + (f" in {_title(r.rule_set)}" if len(_sets(g)) > 1 else "")
            for r in rows.itertuples()
        ]
        parts.append(f"{_NIL_WORDS[holding]}: {_pair(each)}")
    return "Nil made " + "; ".join(parts) + f" ({_nil_play(frame)})."


READINGS: dict[str, Callable[[Any], str]] = {
    "trumps-per-hand": _read_trumps,
    "side-cards": _read_side,
    "voids": _read_voids,
    "top-trumps": _read_top,
    "nil": _read_nil,
}


def reading(name: str, frame: Any) -> str:
    """One line in plain words, computed from the experiment's frame."""
    return READINGS[name](frame)


def _list(values: Any) -> list[Any]:
    """Plain JSON values of a column: numbers as floats or ints, NaN as None (no interval there)."""
    out = []
    for v in values.tolist() if hasattr(values, "tolist") else list(values):
        out.append(None if isinstance(v, float) and math.isnan(v) else v)
    return out


def _errors(f: Any, value: str, low: str, high: str) -> dict[str, Any]:
    return {
        "type": "data",
        "symmetric": False,
        "array": _list(f[high] - f[value]),
        "arrayminus": _list(f[value] - f[low]),
    }


# plotly_white's look, written out: the lab builds its figures as plain JSON (no plotly import,
# no validation of each property), which keeps "Run the lab" about simulating, not drawing
_LOOK: dict[str, Any] = {
    "paper_bgcolor": "white",
    "plot_bgcolor": "white",
    "font": {"size": 14, "color": "#2a3f5f"},
    "hoverlabel": {"align": "left"},
    "margin": {"l": 60, "r": 20, "t": 60, "b": 40},
    # below the plot, under the x axis's title (automargin makes room for both)
    "legend": {"orientation": "h", "yanchor": "top", "y": -0.3, "x": 0},
    "autosize": True,
}
_AXIS: dict[str, Any] = {
    "gridcolor": "#EBF0F8",
    "linecolor": "#EBF0F8",
    "zerolinecolor": "#EBF0F8",
    "zerolinewidth": 2,
    "automargin": True,
    "ticks": "",
}


def plot_layout(title: str, x: str, y: str, height: int, percent: bool = False, **more: Any) -> dict[str, Any]:
    yaxis = {**_AXIS, "title": {"text": y}, **({"tickformat": ".0%"} if percent else {})}
    return {
        **_LOOK,
        "title": {"text": title, "x": 0.02},
        "height": height,
        "xaxis": {**_AXIS, "title": {"text": x}},
        "yaxis": yaxis,
        **more,
    }


def spec(name: str, frame: Any) -> dict[str, Any]:
    """The plotly JSON (``data`` and ``layout``) of experiment ``name``, one colour per rule set."""
    data: list[dict[str, Any]] = []
    for i, rs in enumerate(_sets(frame)):
        f = frame[frame.rule_set == rs]
        colour = _COLOURS[i % len(_COLOURS)]
        label = _title(rs)
        if name == "trumps-per-hand":
            f = f[f.trumps <= 9]
            data.append(
                {
                    "type": "bar",
                    "x": _list(f.trumps),
                    "y": _list(f.share),
                    "name": f"{label}: simulated",
                    "marker": {"color": colour},
                    "offsetgroup": str(i),
                    "error_y": _errors(f, "share", "low", "high"),
                }
            )
            data.append(
                {
                    "type": "scatter",
                    "x": _list(f.trumps),
                    "y": _list(f.exact),
                    "mode": "markers",
                    "name": f"{label}: exact",
                    "offsetgroup": str(i),
                    "marker": {"symbol": "line-ew-open", "size": 16, "color": "#111", "line": {"width": 3}},
                }
            )
        elif name == "side-cards":
            f = f[f["rank"] == "king"]
            err = _errors(f, "trumped_share", "trumped_low", "trumped_high")
            data.append({"type": "bar", "x": _list(f.held), "y": _list(f.trumped_share), "error_y": err})
        elif name == "voids":
            data.append(
                {
                    "type": "scatter",
                    "x": _list(f.trick),
                    "y": _list(f.void_share),
                    "mode": "lines+markers",
                    "line": {"color": colour},
                    "error_y": _errors(f, "void_share", "low", "high"),
                }
            )
        elif name == "top-trumps":
            err = _errors(f, "won_share", "low", "high")
            data.append({"type": "bar", "x": _list(f.card), "y": _list(f.won_share), "error_y": err})
        elif name == "nil":
            g = nil_by_holding(f)
            data.append(
                {
                    "type": "bar",
                    "x": _list(g.holding),
                    "y": _list(g.share),
                    "error_y": _errors(g, "share", "low", "high"),
                }
            )
        else:
            raise KeyError(name)
        data[-1].setdefault("name", label)
        if data[-1]["type"] == "bar":
            data[-1].setdefault("marker", {"color": colour})
    axes = {
        "trumps-per-hand": ("trumps in the hand", "share of hands"),
        "side-cards": ("cards of the king's suit held (6 = 6 or more)", "king trumped"),
        "voids": ("trick", "void in a given side suit"),
        "top-trumps": ("card", "takes its trick"),
        "nil": (
            "the nil bidder held",
            "nil made (the bots playing)" if _bots_nil(frame) else "nil made (random play)",
        ),
    }[name]
    layout = plot_layout(TITLES[name], *axes, height=PLOT_HEIGHT, percent=True, barmode="group", scattermode="group")
    return {"data": data, "layout": layout}


def figure(name: str, frame: Any) -> Any:
    """A ``plotly.graph_objects.Figure`` for experiment ``name``, one colour per rule set."""
    import plotly.graph_objects as go

    return go.Figure(spec(name, frame))


# --- the heuristic bots' experiments (spades_tutor.lab.bot_experiments) -----------------------

BOT_TITLES = {
    "bidding": "How well the bots bid",
    "games": "Whole games between the bots",
}


def bot_reading(name: str, frame: Any) -> str:
    """One line for a bot experiment; ``frame`` is the bidding frame, or the per-game frame."""
    sets = _sets(frame)
    if name == "bidding":
        misses = [f"{float(frame[frame.rule_set == n].mean_miss.iloc[0]):.2f} with {_title(n)}" for n in sets]
        bags = [f"{float(frame[frame.rule_set == n].bags_per_hand.iloc[0]):.1f}" for n in sets]
        first = misses[0].replace(" with ", " tricks on average with ", 1)
        text = f"The bots miss their bid by {_pair([first, *misses[1:]])}; a team collects {bags[0]} bags a hand"
        return text + (f" against {_pair(bags[1:])}." if len(bags) > 1 else ".")
    hands = [f"{float(frame[frame.rule_set == n].hands.mean()):.1f} with {_title(n)}" for n in sets]
    decided = [_pct(float(frame[frame.rule_set == n].bags_decided.mean())) for n in sets]
    targets = [_target(frame, n) for n in sets]
    if len(set(targets)) == 1:
        first = hands[0].replace(" with ", " hands on average with ", 1)
        text = f"A game to {targets[0]} takes {_pair([first, *hands[1:]])}"
    else:  # each rule set's games end at its own target
        each = [
            f"a game to {t} takes {h.replace(' with ', ' hands on average with ', 1)}"
            for t, h in zip(targets, hands, strict=True)
        ]
        text = "; ".join(each)
        text = text[0].upper() + text[1:]
    text += f"; bags decided {decided[0]} of games"
    return text + (f" against {_pair(decided[1:])}." if len(decided) > 1 else ".")


def _target(frame: Any, rule_set: str) -> int:
    """The target the games of ``rule_set`` in ``frame`` were played to (its ``target`` column; a
    frame without one is of a preset as it stands)."""
    if "target" in frame:
        return int(frame[frame.rule_set == rule_set].target.iloc[0])
    return Rules.preset(rule_set).target


def bot_spec(name: str, frame: Any) -> dict[str, Any]:
    """The plotly JSON of a bot experiment (bidding: misses and bags; games: hands per game)."""
    data: list[dict[str, Any]] = []
    for i, rs in enumerate(_sets(frame)):
        f = frame[frame.rule_set == rs]
        colour = _COLOURS[i % len(_COLOURS)]
        if name == "bidding":
            x = ["tricks missed per bid", "bags per team per hand", "contracts set"]
            y = [float(f.mean_miss.iloc[0]), float(f.bags_per_hand.iloc[0]), float(f.set_share.iloc[0])]
            hi = [float(f.mean_miss_high.iloc[0]), float(f.bags_per_hand_high.iloc[0]), float(f.set_high.iloc[0])]
            lo = [float(f.mean_miss_low.iloc[0]), float(f.bags_per_hand_low.iloc[0]), float(f.set_low.iloc[0])]
            err = {
                "type": "data",
                "symmetric": False,
                "array": _list([h - v for h, v in zip(hi, y, strict=True)]),
                "arrayminus": _list([v - low for v, low in zip(y, lo, strict=True)]),
            }
            data.append(
                {"type": "bar", "x": x, "y": y, "name": _title(rs), "marker": {"color": colour}, "error_y": err}
            )
        elif name == "games":
            data.append(
                {
                    "type": "histogram",
                    "x": _list(f.hands),
                    "name": _title(rs),
                    "marker": {"color": colour},
                    "opacity": 0.75,
                    "xbins": {"size": 1},
                }
            )
        else:
            raise KeyError(name)
    if name == "bidding":
        layout = plot_layout(BOT_TITLES[name], "", "", height=PLOT_HEIGHT, barmode="group")
    else:
        layout = plot_layout(BOT_TITLES[name], "hands in the game", "games", height=PLOT_HEIGHT, barmode="overlay")
    return {"data": data, "layout": layout}


def bot_figure(name: str, frame: Any) -> Any:
    """A ``go.Figure`` for a bot experiment (bidding: misses and bags; games: hands per game)."""
    import plotly.graph_objects as go

    return go.Figure(bot_spec(name, frame))


def paths_reading(per_hand: Any) -> str:
    """One line on score trajectories: how fast a game moves (points per hand, first games)."""
    parts = []
    for rs in _sets(per_hand):
        f = per_hand[per_hand.rule_set == rs]
        last = f.groupby("game").tail(1)
        per = float(((last.ns + last.ew) / 2 / last.hand).mean())
        parts.append(f"{per:.0f} points a hand with {_title(rs)}")
    return f"Each team moves about {_pair(parts)}."


def paths_spec(per_hand: Any, games: int = 4) -> dict[str, Any]:
    """Score trajectories of the first few games per rule set: N–S solid, E–W dotted, with a legend."""
    data: list[dict[str, Any]] = []
    for i, rs in enumerate(_sets(per_hand)):
        colour = _COLOURS[i % len(_COLOURS)]
        f = per_hand[per_hand.rule_set == rs]
        for k, g in enumerate(sorted(set(f.game))[:games]):
            one = f[f.game == g]
            for team, dash in (("ns", "solid"), ("ew", "dot")):
                side = "N–S" if team == "ns" else "E–W"
                # one legend entry per rule set and team; it shows or hides all of their games
                data.append(
                    {
                        "type": "scatter",
                        "x": _list(one.hand),
                        "y": _list(one[team]),
                        "mode": "lines+markers",
                        "line": {"color": colour, "dash": dash},
                        "name": f"{_title(rs)}, {side}",
                        "legendgroup": f"{rs}-{team}",
                        "meta": f"game {g + 1}",
                        "showlegend": k == 0,
                        "hovertemplate": f"{_title(rs)} game {g + 1}, {side}: %{{y}} after hand %{{x}}<extra></extra>",
                    }
                )
    targets = sorted({_target(per_hand, rs) for rs in _sets(per_hand)})  # a dashed line at each
    layout = plot_layout(
        "Score paths of the first games (N–S solid, E–W dotted)",
        "hand",
        "score",
        height=PLOT_HEIGHT,
        shapes=[
            {
                "type": "line",
                "xref": "paper",
                "x0": 0,
                "x1": 1,
                "y0": t,
                "y1": t,
                "line": {"color": "#555", "dash": "dash"},
            }
            for t in targets
        ],
        annotations=[
            {"xref": "paper", "x": 1, "y": t, "text": str(t), "showarrow": False, "yanchor": "bottom"} for t in targets
        ],
    )
    return {"data": data, "layout": layout}


def paths_figure(per_hand: Any, games: int = 4) -> Any:
    """A ``go.Figure`` of the score trajectories (``paths_spec``)."""
    import plotly.graph_objects as go

    return go.Figure(paths_spec(per_hand, games))


def empty_spec(title: str) -> dict[str, Any]:
    """A plot with its title and no data yet, the size of the real one."""
    layout = plot_layout(title, "", "", height=PLOT_HEIGHT)
    layout["xaxis"]["showticklabels"] = layout["yaxis"]["showticklabels"] = False
    return {"data": [], "layout": layout}


MIME = "application/vnd.plotly.v1+json"
PLOT_HEIGHT = 440  # px; app.css gives .st-plot's plot the same height


def bundle(fig: Any, height: int = PLOT_HEIGHT) -> dict[str, Any]:
    """The display bundle for plotly's renderer of a spec or a ``go.Figure``: filling the width of its box.

    No fixed width: the plot is as wide as its box and redraws itself when the page is resized
    (``responsive``); its height is ``height`` (``PLOT_HEIGHT`` unless the plot is a small one),
    which the page's style gives its box too (a box left to size itself can measure 0 px high
    halfway through a redraw).

    >>> b = bundle({"data": [{"type": "bar", "x": [1], "y": [2]}], "layout": {"width": 500}})
    >>> b[MIME]["config"]["responsive"], "width" in b[MIME]["layout"], b[MIME]["layout"]["height"]
    (True, False, 440)
    """
    import json

    raw = json.loads(fig.to_json(validate=False)) if hasattr(fig, "to_json") else fig
    layout = {k: v for k, v in raw.get("layout", {}).items() if k != "width"}
    config = {"responsive": True, "displaylogo": False}
    layout = {**layout, "autosize": True, "height": height}
    return {MIME: {"data": raw["data"], "layout": layout, "config": config}}


# --- each plot's numbers as a table: its text alternative, built from the figure's own JSON ------


def _cell(value: Any, percent: bool) -> str:
    """A plotted number as the readings write it: a share as a whole percentage, else 2 decimals."""
    if value is None:
        return "no data"
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return _minus(f"{value:,}")
    return _pct(float(value)) if percent else _minus(f"{float(value):.2f}")


def _minus(text: str) -> str:
    """A number as the learner reads it: a minus sign, not a hyphen (``_minus("-20.25")`` is ``'−20.25'``)."""
    return text.replace("-", MINUS)


def _interval(y: Any, plus: Any, minus: Any, percent: bool) -> str:
    """A point's 95% interval from its error bar, as the readings write it (``27–31%``; with a
    negative end, ``−20.25 to −8.93``, as a dash between two minus signs reads badly)."""
    if y is None or plus is None or minus is None:
        return "no interval"
    low, high = float(y) - float(minus), float(y) + float(plus)
    if percent:
        return f"{_pct(low)[:-1]}–{_pct(high)}"
    return _minus(f"{low:.2f} to {high:.2f}") if low < 0 else f"{low:.2f}–{high:.2f}"


def _histogram(xs: list[Any], size: float) -> tuple[list[Any], list[int]]:
    """A histogram trace's bars: each bin's start and how many values fall in it (bins of ``size``)."""
    counts: dict[float, int] = {}
    for x in xs:
        if x is not None:
            start = math.floor(float(x) / size) * size
            counts[start] = counts.get(start, 0) + 1
    bins = sorted(counts)
    return [int(b) if float(b).is_integer() else b for b in bins], [counts[b] for b in bins]


def data_table(fig: dict[str, Any], caption: str) -> str:
    """The HTML table of exactly the numbers ``fig`` (its plotly JSON) draws, captioned ``caption``.

    One row per point of every trace: the trace's name (and its ``meta``, the game of a score path),
    the point's x and y, and its 95% interval where the trace has error bars. A histogram's rows are
    its bars (the bin and its count). Shares are written as the readings write them.

    >>> fig = {"data": [{"type": "bar", "name": "A", "x": [1], "y": [0.25],
    ...         "error_y": {"array": [0.05], "arrayminus": [0.04]}}],
    ...        "layout": {"xaxis": {"title": {"text": "n"}}, "yaxis": {"title": {"text": "share"}, "tickformat": ".0%"}}}
    >>> print(data_table(fig, "A <b>"))  # doctest: +NORMALIZE_WHITESPACE
    <table class="st-score-table st-plot-table"><caption>A &lt;b&gt;</caption><thead><tr><th scope="col">series</th><th scope="col">n</th><th scope="col">share</th><th scope="col">95% interval</th></tr></thead><tbody><tr><th scope="row">A</th><td>1</td><td>25%</td><td>21–30%</td></tr></tbody></table>
    """
    import html

    layout = fig.get("layout", {})
    percent = "%" in str(layout.get("yaxis", {}).get("tickformat", ""))
    x_title = str(layout.get("xaxis", {}).get("title", {}).get("text", "")) or "measure"
    y_title = str(layout.get("yaxis", {}).get("title", {}).get("text", "")) or "value"
    traces = fig.get("data", [])
    histogram = any(t.get("type") == "histogram" for t in traces)
    intervals = any("error_y" in t for t in traces)
    heads = ["series", x_title, "count" if histogram and y_title == "value" else y_title]
    heads += ["95% interval"] if intervals else []
    rows = []
    for t in traces:
        name = str(t.get("name", ""))
        if t.get("meta") is not None:
            name += f", {t['meta']}"
        if t.get("type") == "histogram":
            xs, ys = _histogram(list(t.get("x", [])), float(t.get("xbins", {}).get("size", 1)))
        else:
            xs, ys = list(t.get("x", [])), list(t.get("y", []))
        err = t.get("error_y", {})
        plus, minus = err.get("array", [None] * len(ys)), err.get("arrayminus", err.get("array", [None] * len(ys)))
        for k, (x, y) in enumerate(zip(xs, ys, strict=True)):
            cells = [_cell(x, False), _cell(y, percent and not isinstance(y, int))]
            if intervals:
                cells.append(_interval(y, plus[k], minus[k], percent) if "error_y" in t else "no interval")
            row = f'<th scope="row">{html.escape(name)}</th>' + "".join(f"<td>{html.escape(c)}</td>" for c in cells)
            rows.append(f"<tr>{row}</tr>")
    head = "".join(f'<th scope="col">{html.escape(h)}</th>' for h in heads)
    return (
        f'<table class="st-score-table st-plot-table"><caption>{html.escape(caption)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
