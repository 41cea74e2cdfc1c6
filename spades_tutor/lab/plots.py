"""Plotly figures of the experiments, each with a one-line reading computed from the data.

``readings`` are plain functions of the experiment frames (testable without plotly);
``figure(name, frame)`` builds a ``go.FigureWidget`` comparing the rule sets in the frame.

>>> import spades_tutor as st, pandas as pd
>>> from spades_tutor.lab import simulate
>>> from spades_tutor.lab.experiments import trumps_per_hand
>>> frame = pd.concat([trumps_per_hand(simulate(st.Rules.preset(n), 500, seed=1)) for n in ("jokers", "classic")])
>>> print(reading("trumps-per-hand", frame))
A hand holds 3.75 trumps on average with Spades with Jokers and 3.25 with Regular Spades (exact values); 5 or more in 29% of hands against 18%.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine import Rules, RulesError

__all__ = ["READINGS", "TITLES", "figure", "reading"]

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


def _pair(values: list[str]) -> str:
    return values[0] if len(values) == 1 else " and ".join([", ".join(values[:-1]), values[-1]])


def _read_trumps(frame: Any) -> str:
    means, many = [], []
    for name in _sets(frame):
        f = frame[frame.rule_set == name]
        means.append(f"{float((f.exact * f.trumps).sum()):.2f} with {_title(name)}")
        many.append(_pct(float(f[f.trumps >= 5].exact.sum())))
    first = means[0].replace(" with ", " trumps on average with ", 1)
    text = f"A hand holds {_pair([first, *means[1:]])} (exact values); 5 or more in {many[0]} of hands"
    return text + (f" against {_pair(many[1:])}." if len(many) > 1 else ".")


def _read_side(frame: Any) -> str:
    kings = frame[(frame["rank"] == "king") & (frame.held == 2)]
    parts = [f"{_pct(float(kings[kings.rule_set == n].trumped_share.iloc[0]))} with {_title(n)}" for n in _sets(kings)]
    return f"A side king held twice is trumped {_pair(parts)}: more trumps, and side suits run out sooner."


def _read_voids(frame: Any) -> str:
    at5 = frame[frame.trick == 5]
    parts = [f"{_pct(float(at5[at5.rule_set == n].void_share.iloc[0]))} with {_title(n)}" for n in _sets(at5)]
    return f"By trick 5, a player is out of a given side suit {_pair(parts)}."


def _read_top(frame: Any) -> str:
    parts = []
    for n in _sets(frame):
        f = frame[(frame.rule_set == n) & (frame.card == "A♠")]
        if len(f):
            parts.append(f"{_pct(float(f.won_share.iloc[0]))} of the time with {_title(n)}")
    text = "The A♠ takes its trick " + _pair(parts) + "."
    big = frame[frame.card == "BJ"]
    if len(big):
        text = (
            f"The big joker takes its trick {_pct(float(big.won_share.min()))} of the time; "
            + text[0].lower()
            + text[1:]
        )
    return text


def _read_nil(frame: Any) -> str:
    big = frame[frame.holding == "big joker"]
    none = frame[(frame.holding == "no joker") & (frame.trumps <= 2)]
    text = []
    if len(big):
        text.append(f"Nil holding the big joker: {int(big.made.sum())} made out of {int(big.nils.sum()):,}")
    if len(none):
        share = float(none.made.sum() / max(1, none.nils.sum()))
        text.append(f"with no joker and at most 2 trumps, {_pct(share)} made")
    return ("; ".join(text) or "No nil bids in this sample") + " (random play)."


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


def _errors(f: Any, value: str, low: str, high: str) -> dict[str, Any]:
    return {
        "type": "data",
        "symmetric": False,
        "array": (f[high] - f[value]).tolist(),
        "arrayminus": (f[value] - f[low]).tolist(),
    }


def figure(name: str, frame: Any) -> Any:
    """A ``plotly.graph_objects.FigureWidget`` for experiment ``name``, one colour per rule set."""
    import plotly.graph_objects as go

    fig = go.FigureWidget()
    for i, rs in enumerate(_sets(frame)):
        f = frame[frame.rule_set == rs]
        colour = _COLOURS[i % len(_COLOURS)]
        label = _title(rs)
        if name == "trumps-per-hand":
            f = f[f.trumps <= 9]
            fig.add_bar(
                x=f.trumps,
                y=f.share,
                name=f"{label}: simulated",
                marker_color=colour,
                offsetgroup=str(i),
                error_y=_errors(f, "share", "low", "high"),
            )
            fig.add_scatter(
                x=f.trumps,
                y=f.exact,
                mode="markers",
                name=f"{label}: exact",
                offsetgroup=str(i),
                marker={"symbol": "line-ew-open", "size": 16, "color": "#111", "line": {"width": 3}},
            )
            fig.update_layout(xaxis_title="trumps in the hand", yaxis_title="share of hands", yaxis_tickformat=".0%")
        elif name == "side-cards":
            f = f[f["rank"] == "king"]
            fig.add_bar(
                x=f.held,
                y=f.trumped_share,
                name=label,
                marker_color=colour,
                error_y=_errors(f, "trumped_share", "trumped_low", "trumped_high"),
            )
            fig.update_layout(
                xaxis_title="cards of the king's suit held (6 = 6 or more)",
                yaxis_title="king trumped",
                yaxis_tickformat=".0%",
            )
        elif name == "voids":
            fig.add_scatter(
                x=f.trick,
                y=f.void_share,
                mode="lines+markers",
                name=label,
                line={"color": colour},
                error_y=_errors(f, "void_share", "low", "high"),
            )
            fig.update_layout(xaxis_title="trick", yaxis_title="void in a given side suit", yaxis_tickformat=".0%")
        elif name == "top-trumps":
            fig.add_bar(
                x=f.card, y=f.won_share, name=label, marker_color=colour, error_y=_errors(f, "won_share", "low", "high")
            )
            fig.update_layout(xaxis_title="card", yaxis_title="takes its trick", yaxis_tickformat=".0%")
        elif name == "nil":
            g = f.groupby("holding", as_index=False)[["nils", "made"]].sum()
            g["share"] = g.made / g.nils
            fig.add_bar(x=g.holding, y=g.share, name=label, marker_color=colour)
            fig.update_layout(
                xaxis_title="the nil bidder held", yaxis_title="nil made (random play)", yaxis_tickformat=".0%"
            )
        else:
            raise KeyError(name)
    fig.update_layout(
        title={"text": TITLES[name], "x": 0.02},
        barmode="group",
        scattermode="group",
        template="plotly_white",
        height=420,
        margin={"l": 60, "r": 20, "t": 60, "b": 60},
        legend={"orientation": "h", "y": -0.2},
        font={"size": 14},
    )
    return fig


# --- the heuristic bots' experiments (spades_tutor.lab.bot_experiments) -----------------------

BOT_TITLES = {
    "bidding": "How well the heuristic bots bid",
    "games": "Whole games to 500 between heuristic bots",
}


def bot_reading(name: str, frame: Any) -> str:
    """One line for a bot experiment; ``frame`` is the bidding frame, or the per-game frame."""
    sets = _sets(frame)
    if name == "bidding":
        misses = [f"{float(frame[frame.rule_set == n].mean_miss.iloc[0]):.2f} with {_title(n)}" for n in sets]
        bags = [f"{float(frame[frame.rule_set == n].bags_per_hand.iloc[0]):.1f}" for n in sets]
        first = misses[0].replace(" with ", " tricks on average with ", 1)
        text = (
            f"Heuristic bidders miss their bid by {_pair([first, *misses[1:]])}; a team collects {bags[0]} bags a hand"
        )
        return text + (f" against {_pair(bags[1:])}." if len(bags) > 1 else ".")
    hands = [f"{float(frame[frame.rule_set == n].hands.mean()):.1f} with {_title(n)}" for n in sets]
    decided = [_pct(float(frame[frame.rule_set == n].bags_decided.mean())) for n in sets]
    first = hands[0].replace(" with ", " hands on average with ", 1)
    text = f"A game to {Rules.preset(sets[0]).target} takes {_pair([first, *hands[1:]])}; bags decided {decided[0]} of games"
    return text + (f" against {_pair(decided[1:])}." if len(decided) > 1 else ".")


def bot_figure(name: str, frame: Any) -> Any:
    """A ``FigureWidget`` for a bot experiment (bidding: misses and bags; games: hands per game)."""
    import plotly.graph_objects as go

    fig = go.FigureWidget()
    for i, rs in enumerate(_sets(frame)):
        f = frame[frame.rule_set == rs]
        colour = _COLOURS[i % len(_COLOURS)]
        if name == "bidding":
            x = ["tricks missed per bid", "bags per team per hand", "contracts set"]
            y = [f.mean_miss.iloc[0], f.bags_per_hand.iloc[0], f.set_share.iloc[0]]
            hi = [f.mean_miss_high.iloc[0], f.bags_per_hand_high.iloc[0], f.set_high.iloc[0]]
            lo = [f.mean_miss_low.iloc[0], f.bags_per_hand_low.iloc[0], f.set_low.iloc[0]]
            err = {
                "type": "data",
                "symmetric": False,
                "array": [h - v for h, v in zip(hi, y, strict=True)],
                "arrayminus": [v - low for v, low in zip(y, lo, strict=True)],
            }
            fig.add_bar(x=x, y=y, name=_title(rs), marker_color=colour, error_y=err)
        elif name == "games":
            fig.add_histogram(x=f.hands, name=_title(rs), marker_color=colour, opacity=0.75, xbins={"size": 1})
            fig.update_layout(barmode="overlay", xaxis_title="hands in the game", yaxis_title="games")
        else:
            raise KeyError(name)
    fig.update_layout(
        title={"text": BOT_TITLES[name], "x": 0.02},
        template="plotly_white",
        height=400,
        margin={"l": 60, "r": 20, "t": 60, "b": 60},
        legend={"orientation": "h", "y": -0.2},
        font={"size": 14},
    )
    if name == "bidding":
        fig.update_layout(barmode="group")
    return fig


def paths_reading(per_hand: Any) -> str:
    """One line on score trajectories: how fast a game moves (points per hand, first games)."""
    parts = []
    for rs in _sets(per_hand):
        f = per_hand[per_hand.rule_set == rs]
        last = f.groupby("game").tail(1)
        per = float(((last.ns + last.ew) / 2 / last.hand).mean())
        parts.append(f"{per:.0f} points a hand with {_title(rs)}")
    return f"Each team moves about {_pair(parts)}."


def paths_figure(per_hand: Any, games: int = 4) -> Any:
    """Score trajectories of the first few games per rule set: N–S solid, E–W dotted."""
    import plotly.graph_objects as go

    fig = go.FigureWidget()
    for i, rs in enumerate(_sets(per_hand)):
        colour = _COLOURS[i % len(_COLOURS)]
        f = per_hand[per_hand.rule_set == rs]
        for g in sorted(set(f.game))[:games]:
            one = f[f.game == g]
            for team, dash in (("ns", "solid"), ("ew", "dot")):
                fig.add_scatter(
                    x=one.hand,
                    y=one[team],
                    mode="lines+markers",
                    line={"color": colour, "dash": dash},
                    name=f"{_title(rs)} game {g + 1} {'N–S' if team == 'ns' else 'E–W'}",
                    showlegend=False,
                )
    target = Rules.preset(_sets(per_hand)[0]).target
    fig.add_hline(y=target, line={"color": "#555", "dash": "dash"}, annotation_text=str(target))
    fig.update_layout(
        title={"text": "Score paths of the first games (N–S solid, E–W dotted)", "x": 0.02},
        xaxis_title="hand",
        yaxis_title="score",
        template="plotly_white",
        height=400,
        margin={"l": 60, "r": 20, "t": 60, "b": 60},
        font={"size": 14},
    )
    return fig
