"""The Progress page: mastery by quiz kind, reviews across days, answers over time, the puzzle rating
over time, streaks, and the teacher's downloads.

Everything on it is counted from the answers and puzzle results kept in the browser (quizzes and
lessons together): the level and box of each kind come from ``spades_tutor.quiz.mastery``, each
kind's predicted recall and next review from ``spades_tutor.quiz.schedule``, the puzzle rating from ``spades_tutor.puzzles.rating``, the rest from ``spades_tutor.session.progress``. The plots are plotly JSON built here as plain data (plotly's renderer
in the page draws them), each with its one-line reading above it and its numbers in a table under it.

>>> from spades_tutor.session import Progress
>>> p = Progress()
>>> p.record("score", "jokers", "score:jokers:1/1", True, when=86_400.0)
>>> p.record("score", "jokers", "score:jokers:2/1", False, when=86_460.0)
>>> timeline(p.answers)
('session of answers, by its start (UTC)', [('00:00', 1, 0, 1)])
>>> print(timeline_reading(p.answers))
2 answers in 1 session: 1 right first try, 0 on the second try, 1 missed.
"""

from __future__ import annotations

import base64
import html
import math
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import tzinfo
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from ..engine.text import plural
from ..puzzles.rating import LEARNER_START
from ..quiz.practice import local_time
from ..session import Answer, Progress, PuzzleResult, Standing
from .errors import guarded
from .plot_box import SMALL, data_box, draw, fill_data, key_html, plot_slot, reading_html

if TYPE_CHECKING:
    from ..quiz.mastery import KindMastery
    from ..quiz.schedule import KindSchedule
    from .app import App

__all__ = [
    "SESSION_GAP",
    "ProgressPage",
    "mastery_reading",
    "mastery_spec",
    "mastery_table_html",
    "rating_reading",
    "rating_spec",
    "rating_table_html",
    "review_reading",
    "review_rows",
    "review_spec",
    "review_table_html",
    "timeline",
    "timeline_reading",
    "timeline_spec",
]

#: seconds without an answer that end a session of answers
SESSION_GAP = 30 * 60
#: px: a small plot's height (app.css gives ``.st-plot-small`` the same height); the answers-over-time plot is one
SMALL_HEIGHT = TIMELINE_HEIGHT = 340

LEVEL, BOX = "level reached (1 to 3)", "box (1 to 5)"
FIRST, SECOND, MISSED = "right first try", "right on the second try", "missed"
RATING, LIKELY = "your puzzle rating", "give or take (how unsure it still is)"
DUE, LATER = "due for review today", "due on a later day"
_COLOURS = {
    LEVEL: "#6a1b9a",
    BOX: "#1565c0",
    FIRST: "#2e7d32",
    SECOND: "#64b5f6",
    MISSED: "#c62828",
    RATING: "#6a1b9a",
    LIKELY: "#d1c4e9",
    DUE: "#e65100",
    LATER: "#2e7d32",
}
#: what "due" means, in one sentence, where the page shows the reviews
DUE_MEANS = (
    "A kind is due for review on the day you are likely to start forgetting it: the schedule (FSRS, from "
    "each day's first answer to the kind) asks it again when you would still get it right about 9 times "
    "in 10, sooner after a miss, later after each right answer."
)
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

#: the files the Progress page saves, each named for what it holds
EVERY_ANSWER_CSV = "spades-tutor-answers.csv"
MASTERY_CSV = "spades-tutor-mastery.csv"
PUZZLE_RESULTS_CSV = "spades-tutor-puzzle-results.csv"


def _title(kind: str) -> str:
    from .quiz_view import KIND_TITLES

    return KIND_TITLES[kind]


def _base_layout(x: str, y: str, height: int) -> dict[str, Any]:
    from ..lab.plots import plot_layout

    layout = plot_layout("", x, y, height=height)
    del layout["title"]
    layout["margin"] = {"l": 10, "r": 10, "t": 20, "b": 40}
    # the page writes the key under the plot, where it wraps on a phone (see ``key_html``)
    layout["showlegend"] = False
    return layout


# --- mastery by kind --------------------------------------------------------------------------------


def tried(table: Mapping[str, KindMastery]) -> list[KindMastery]:
    """The kinds answered at least once, in the registry's order."""
    return [m for m in table.values() if m.answered]


def mastery_spec(table: Mapping[str, KindMastery]) -> dict[str, Any]:
    """The plotly JSON: per kind answered, a bar for the level reached and a bar for its box."""
    shown = tried(table)
    names = [_title(m.kind) for m in shown]
    data = [
        {
            "type": "bar",
            "orientation": "h",
            "name": name,
            "x": [getattr(m, field) for m in shown],
            "y": names,
            "marker": {"color": _COLOURS[name]},
            "hovertemplate": "%{y}: " + name.split(" (")[0] + " %{x}<extra></extra>",
        }
        for name, field in ((LEVEL, "level"), (BOX, "box"))
    ]
    layout = _base_layout("level or box", "", height=_mastery_height(len(shown)))
    layout["barmode"] = "group"
    layout["xaxis"] = {**layout["xaxis"], "range": [0, 5.3], "tickmode": "linear", "tick0": 0, "dtick": 1}
    # the first kind at the top, as the table under the plot lists it
    layout["yaxis"] = {**layout["yaxis"], "autorange": "reversed", "type": "category"}
    return {"data": data, "layout": layout}


def mastery_table_html(table: Mapping[str, KindMastery], caption: str) -> str:
    """The numbers the mastery plot draws, one row per kind answered: its level and box, and its answers."""
    rows = [(_title(m.kind), m.level, m.box, m.answered, m.first_try) for m in tried(table)]
    return _table(caption, ("quiz kind", "level (1 to 3)", "box (1 to 5)", "answered", "right first try"), rows)


def _mastery_height(kinds: int) -> int:
    """The plot's height: a small plot for a few kinds, a full one for more (app.css has both)."""
    from ..lab.plots import PLOT_HEIGHT

    return PLOT_HEIGHT if kinds > 6 else SMALL_HEIGHT


def mastery_reading(table: Mapping[str, KindMastery]) -> str:
    """The mastery plot in one line: the kind known best and the one to practise, and how many were tried.

    >>> from spades_tutor.quiz.mastery import mastery
    >>> from spades_tutor.session import Answer
    >>> history = [Answer(0.0, "score", "jokers", "score:jokers:1/1", True)] * 3
    >>> history.append(Answer(0.0, "trump-order", "jokers", "trump-order:jokers:1/1", False))
    >>> print(mastery_reading(mastery(history)))
    Known best: Score this hand (level 2 of 3, box 4 of 5). To practise: Trump order (level 1, box 1). 2 of 12 quiz kinds tried.
    """
    shown = tried(table)
    count = f"{len(shown)} of {len(table)} quiz kinds tried."
    if not shown:
        return "No quiz kind answered yet."

    def rank(m: KindMastery) -> tuple[int, int, float]:
        return (m.box, m.level, m.first_try / m.answered)

    best = max(shown, key=rank)
    weakest = min(shown, key=rank)
    if rank(best) == rank(weakest):
        if len(shown) == 1:
            return f"{_title(best.kind)}: level {best.level} of 3, box {best.box} of 5. {count}"
        return f"Every kind tried is at level {best.level} of 3, box {best.box} of 5. {count}"
    return (
        f"Known best: {_title(best.kind)} (level {best.level} of 3, box {best.box} of 5). "
        f"To practise: {_title(weakest.kind)} (level {weakest.level}, box {weakest.box}). {count}"
    )


# --- reviews across days ----------------------------------------------------------------------------


def review_rows(
    table: Mapping[str, KindSchedule], now: float, zone: tzinfo | None = None
) -> list[tuple[str, int, str, bool, int]]:
    """Per kind answered, in the table's order: its title, its predicted recall now (a whole percent),
    its next review on the learner's clock (in words), whether it is due today, and the days it was reviewed.

    >>> from spades_tutor.quiz.schedule import schedules
    >>> from spades_tutor.session import Answer
    >>> day = 86_400.0
    >>> history = [Answer(0.0, "score", "jokers", "score:jokers:1/1", True)]
    >>> review_rows(schedules(history, kinds=("score", "trump-order")), now=day)
    [('Score this hand', 95, 'tomorrow', False, 1)]
    >>> review_rows(schedules(history, kinds=("score",)), now=5 * day)
    [('Score this hand', 84, 'today', True, 1)]
    """
    from ..quiz.schedule import day_words

    today = local_time(now, zone).date()
    rows = []
    for s in table.values():
        day, recall = s.due_day(zone), s.recall(now)
        if day is None or recall is None:
            continue
        rows.append((_title(s.kind), round(100 * recall), day_words(day, today), s.is_due(now, zone), len(s.reviews)))
    return rows


def review_reading(table: Mapping[str, KindSchedule], now: float, zone: tzinfo | None = None) -> str:
    """The reviews in one line: how many kinds are due today, and which is least likely to be remembered.

    >>> from spades_tutor.quiz.schedule import schedules
    >>> from spades_tutor.session import Answer
    >>> history = [Answer(0.0, "score", "jokers", "score:jokers:1/1", True)]
    >>> print(review_reading(schedules(history, kinds=("score",)), now=86_400.0))
    Nothing is due for review today. Least likely to be remembered now: Score this hand, about 95%; its next review is tomorrow.
    """
    rows = review_rows(table, now, zone)
    if not rows:
        return "No quiz kind answered yet."
    due = [r for r in rows if r[3]]
    weakest = min(rows, key=lambda r: r[1])
    said = (
        f"{plural(len(due), 'kind')} due for review today: {', '.join(r[0] for r in due)}."
        if due
        else "Nothing is due for review today."
    )
    next_review = "it is due today" if weakest[3] else f"its next review is {weakest[2]}"
    return f"{said} Least likely to be remembered now: {weakest[0]}, about {weakest[1]}%; {next_review}."


def review_spec(table: Mapping[str, KindSchedule], now: float, zone: tzinfo | None = None) -> dict[str, Any]:
    """The plotly JSON: per kind answered, a bar of how likely it is to be remembered now (in percent),
    coloured by whether it is due today."""
    rows = review_rows(table, now, zone)
    data = [
        {
            "type": "bar",
            "orientation": "h",
            "name": name,
            "x": [r[1] for r in rows if r[3] == due],
            "y": [r[0] for r in rows if r[3] == due],
            "customdata": [r[2] for r in rows if r[3] == due],
            "marker": {"color": _COLOURS[name]},
            "hovertemplate": "%{y}: about %{x}% likely to remember; next review %{customdata}<extra></extra>",
        }
        for name, due in ((DUE, True), (LATER, False))
    ]
    # short enough for a phone: the next review's day (on the learner's clock) is in the table under it
    layout = _base_layout("likely to remember", "", height=_mastery_height(len(rows)))
    layout["barmode"] = "overlay"
    layout["xaxis"] = {**layout["xaxis"], "range": [0, 100], "ticksuffix": "%"}
    layout["yaxis"] = {
        **layout["yaxis"],
        "autorange": "reversed",
        "type": "category",
        "categoryorder": "array",
        "categoryarray": [r[0] for r in rows],
    }
    return {"data": data, "layout": layout}


def review_table_html(table: Mapping[str, KindSchedule], now: float, caption: str, zone: tzinfo | None = None) -> str:
    """The numbers the reviews plot draws, one row per kind answered, in plain words."""
    rows = [
        (title, f"about {recall}%", when, "yes" if due else "no", days)
        for title, recall, when, due, days in review_rows(table, now, zone)
    ]
    heads = ("quiz kind", "likely to remember now", "next review", "due today", "days reviewed")
    return _table(caption, heads, rows)


# --- answers over time ------------------------------------------------------------------------------


def _day(when: float, zone: tzinfo | None = None) -> str:
    t = local_time(when, zone)
    return f"{t.day} {_MONTHS[t.month - 1]} {t.year}"


def _zone_name(zone: tzinfo | None) -> str:
    return getattr(zone, "key", "UTC") if zone is not None else "UTC"


def timeline(answers: Sequence[Answer], zone: tzinfo | None = None) -> tuple[str, list[tuple[str, int, int, int]]]:
    """The answers counted by day, or by session when they were all given on one day, on the clock of
    ``zone`` (the learner's browser's; UTC when it is not known): the axis's title (which names the
    zone) and, per day or session in time order, ``(label, right first try, right on the second try, missed)``.

    A session ends after ``SESSION_GAP`` seconds without an answer; it is labelled by the time it began.
    """
    ordered = sorted(answers, key=lambda a: a.time)
    where = _zone_name(zone)
    if len({_day(a.time, zone) for a in ordered}) > 1:
        axis, labels = f"day ({where})", [_day(a.time, zone) for a in ordered]
    else:
        axis, labels, start, last = f"session of answers, by its start ({where})", [], "", None
        for a in ordered:
            if last is None or a.time - last > SESSION_GAP:
                start = local_time(a.time, zone).strftime("%H:%M")  # sessions of a day: 30 min apart at least
            labels.append(start)
            last = a.time
    counts: dict[str, list[int]] = {}
    for label, a in zip(labels, ordered, strict=True):
        row = counts.setdefault(label, [0, 0, 0])
        row[0 if a.correct and a.attempt == 1 else 1 if a.correct else 2] += 1
    return axis, [(label, row[0], row[1], row[2]) for label, row in counts.items()]


def timeline_spec(answers: Sequence[Answer], zone: tzinfo | None = None) -> dict[str, Any]:
    """The plotly JSON: a stacked bar per day (or session): right first try, on the second try, missed."""
    axis, rows = timeline(answers, zone)
    data = [
        {
            "type": "bar",
            "name": name,
            "x": [r[0] for r in rows],
            "y": [r[i] for r in rows],
            "marker": {"color": _COLOURS[name]},
            "hovertemplate": "%{x}: %{y} " + name + "<extra></extra>",
        }
        for i, name in ((1, FIRST), (2, SECOND), (3, MISSED))
    ]
    layout = _base_layout(axis, "answers", height=TIMELINE_HEIGHT)
    layout["margin"] = {"l": 50, "r": 10, "t": 20, "b": 40}
    layout["barmode"] = "stack"
    # (plotly turns the labels when they would overlap, as many days do on a phone)
    layout["xaxis"] = {**layout["xaxis"], "type": "category"}
    # whole answers only: a tick every answer (or every few, for more), never "2" written twice
    most = max((r[1] + r[2] + r[3] for r in rows), default=1)
    step = max(1, math.ceil(most / 5))
    layout["yaxis"] = {**layout["yaxis"], "rangemode": "tozero", "tickmode": "linear", "tick0": 0, "dtick": step}
    layout["bargap"] = 0.4
    return {"data": data, "layout": layout}


def timeline_reading(answers: Sequence[Answer], zone: tzinfo | None = None) -> str:
    """The answers-over-time plot in one line: how many answers, in how many days or sessions, and how they went."""
    axis, rows = timeline(answers, zone)
    first, second, missed = sum(r[1] for r in rows), sum(r[2] for r in rows), sum(r[3] for r in rows)
    spans = plural(len(rows), "day") if axis.startswith("day") else plural(len(rows), "session")
    text = (
        f"{plural(len(answers), 'answer')} in {spans}: {first} right first try, "
        f"{second} on the second try, {missed} missed."
    )
    if len(rows) > 1:
        label, f, s, m = rows[-1]
        text = text[:-1] + f"; the latest ({label}): {f} of {f + s + m} right first try."
    return text


# --- the puzzle rating over time ---------------------------------------------------------------------


def _clock(when: float, zone: tzinfo | None) -> str:
    return local_time(when, zone).strftime("%Y-%m-%d %H:%M:%S")


#: seconds of time axis on either side of the puzzle results (at least)
RATING_AXIS_PAD = 1800.0


def rating_spec(standing: Standing, zone: tzinfo | None = None) -> dict[str, Any]:
    """The plotly JSON: the learner's puzzle rating after each puzzle result, on a time axis on the
    learner's clock, in a band of give or take its deviation.

    >>> from spades_tutor.puzzles.rating import replay
    >>> s = replay([PuzzleResult(86_400.0, "0a1b2c3d", "jokers", "medium", True)])
    >>> spec = rating_spec(s)
    >>> spec["data"][-1]["x"], [round(y) for y in spec["data"][-1]["y"]]
    (['1970-01-02 00:00:00'], [1674])
    >>> spec["layout"]["xaxis"]["range"]  # one result: half an hour either side of it
    ['1970-01-01 23:30:00', '1970-01-02 00:30:00']
    """
    x = [_clock(t, zone) for t, _r in standing.history]
    ratings = [r.rating for _t, r in standing.history]
    data = [
        {  # the band: its lower edge, then its upper edge filled down to it
            "type": "scatter",
            "mode": "lines",
            "name": LIKELY,
            "x": x,
            "y": [r.rating - r.rd for _t, r in standing.history],
            "line": {"width": 0, "color": _COLOURS[LIKELY]},
            "hoverinfo": "skip",
        },
        {
            "type": "scatter",
            "mode": "lines",
            "name": LIKELY,
            "x": x,
            "y": [r.rating + r.rd for _t, r in standing.history],
            "line": {"width": 0, "color": _COLOURS[LIKELY]},
            "fill": "tonexty",
            "fillcolor": _COLOURS[LIKELY],
            "hoverinfo": "skip",
        },
        {
            "type": "scatter",
            "mode": "lines+markers",
            "name": RATING,
            "x": x,
            "y": ratings,
            "marker": {"color": _COLOURS[RATING]},
            "line": {"color": _COLOURS[RATING]},
            "hovertemplate": "%{x}: rating %{y:.0f}<extra></extra>",
        },
    ]
    if len(x) == 1:  # a band of one point draws nothing: the give or take as a bar through it
        rds = [r.rd for _t, r in standing.history]
        data[-1]["error_y"] = {"type": "data", "array": rds, "color": _COLOURS[LIKELY], "thickness": 8, "width": 0}
    layout = _base_layout(f"time ({_zone_name(zone)})", "puzzle rating", height=SMALL_HEIGHT)
    layout["margin"] = {"l": 60, "r": 10, "t": 20, "b": 40}
    # a few puzzles in a minute would be drawn on a scale of milliseconds: the axis spans an hour at least
    first, last = standing.history[0][0], standing.history[-1][0]
    pad = max(RATING_AXIS_PAD, 0.05 * (last - first))
    span = [_clock(first - pad, zone), _clock(last + pad, zone)]
    layout["xaxis"] = {**layout["xaxis"], "type": "date", "range": span}
    return {"data": data, "layout": layout}


def rating_reading(standing: Standing) -> str:
    """The rating plot in one line: where the rating is now, from how many puzzles, and where it started.

    >>> from spades_tutor.puzzles.rating import replay
    >>> print(rating_reading(Standing()))
    No puzzle tried yet: your puzzle rating starts at 1500 and settles as you solve puzzles.
    >>> wins = [PuzzleResult(float(t), f"{t:08x}", "jokers", "medium", t != 2) for t in range(3)]
    >>> print(rating_reading(replay(wins)))
    Your puzzle rating is 1584 (give or take 200) after 3 puzzles, 2 right on the first try; it started at 1500.
    """
    if not standing.history:
        return (
            f"No puzzle tried yet: your puzzle rating starts at {round(LEARNER_START.rating)} "
            "and settles as you solve puzzles."
        )
    r = standing.learner
    return (
        f"Your puzzle rating is {round(r.rating)} (give or take {round(r.rd)}) after "
        f"{plural(standing.tried, 'puzzle')}, {standing.solved} right on the first try; "
        f"it started at {round(LEARNER_START.rating)}."
    )


def rating_table_html(results: Sequence[PuzzleResult], standing: Standing, caption: str, zone: tzinfo | None) -> str:
    """The numbers the rating plot draws: each puzzle result, in time order, and the rating after it."""
    ordered = sorted(results, key=lambda r: (r.time, r.id))
    rows = [
        (_clock(t, zone), r.puzzle, r.difficulty, "yes" if r.first_try else "no", round(after.rating), round(after.rd))
        for r, (t, after) in zip(ordered, standing.history, strict=True)
    ]
    heads = ("time", "puzzle", "difficulty", "right first try", "rating after", "give or take")
    return _table(caption, heads, rows)


# --- streaks and the downloads ----------------------------------------------------------------------


def _table(caption: str, heads: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    head = "".join(f'<th scope="col">{html.escape(h)}</th>' for h in heads)
    body = "".join(
        "<tr>"
        + f'<th scope="row">{html.escape(str(row[0]))}</th>'
        + "".join(f"<td>{html.escape(str(c))}</td>" for c in row[1:])
        + "</tr>"
        for row in rows
    )
    return (
        f'<table class="st-score-table st-progress-table"><caption>{html.escape(caption)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


def streaks_html(progress: Progress) -> str:
    """The streaks and the answers per kind, as two small tables a screen reader reads."""
    from ..quiz import kinds

    counts = progress.by_kind()
    streaks = _table(
        "Streaks and tries",
        ("what", "how many"),
        (
            ("Current streak", progress.streak),
            ("Best streak", progress.best_streak),
            ("Right first try", progress.first_try),
            ("Right on the second try", progress.second_try),
        ),
    )
    # kinds the registry does not list (an answer stored by another version of the app) are left out
    per_kind = [(_title(k), *reversed(counts[k])) for k in kinds.names() if k in counts]
    by_kind = _table("Answers per quiz kind", ("quiz kind", "answered", "right"), per_kind)
    return f'<div class="st-progress-tables">{streaks}{by_kind}</div>'


def _link(text: str, name: str, data: str) -> str:
    encoded = base64.b64encode(data.encode("utf-8")).decode("ascii")
    return f'<a download="{name}" href="data:text/csv;charset=utf-8;base64,{encoded}">⬇ {html.escape(text)}</a>'


def downloads_html(progress: Progress) -> str:
    """The teacher's CSV files: every answer, one row per quiz kind, and every puzzle result (when there is one)."""
    puzzles = (
        _link("Download puzzle results (CSV)", PUZZLE_RESULTS_CSV, progress.puzzles_csv())
        if progress.puzzle_results
        else ""
    )
    return (
        '<div class="st-progress-downloads">'
        + _link("Download every answer (CSV)", EVERY_ANSWER_CSV, progress.to_csv())
        + _link("Download mastery (CSV)", MASTERY_CSV, progress.mastery_csv())
        + puzzles
        + "</div>"
    )


class ProgressPage:
    """Mastery by quiz kind, answers over time, streaks, downloads; or, with no answer yet, a way to the quiz."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.mastery_reading = w.HTML()
        self.mastery_plot = plot_slot()
        self.mastery_key = w.HTML(key_html(((LEVEL, _COLOURS[LEVEL]), (BOX, _COLOURS[BOX]))))
        self.mastery_data = data_box()
        #: the learner's clock for predicted recall and what is due today (a test fixes it)
        self.clock: Callable[[], float] = time.time
        self.review_reading = w.HTML()
        self.review_note = w.HTML(f'<p class="st-note">{html.escape(DUE_MEANS)}</p>')
        self.review_plot = plot_slot()
        self.review_key = w.HTML(key_html(((DUE, _COLOURS[DUE]), (LATER, _COLOURS[LATER]))))
        self.review_data = data_box()
        self.timeline_reading = w.HTML()
        self.timeline_plot = plot_slot(small=True)
        self.timeline_key = w.HTML(key_html(tuple((n, _COLOURS[n]) for n in (FIRST, SECOND, MISSED))))
        self.timeline_data = data_box()
        self.rating_reading = w.HTML()
        self.rating_plot = plot_slot(small=True)
        self.rating_key = w.HTML(key_html(((RATING, _COLOURS[RATING]), (LIKELY, _COLOURS[LIKELY]))))
        self.rating_data = data_box()
        self.streaks = w.HTML()
        self.downloads = w.HTML()
        self.empty = w.HTML(
            '<p class="st-progress-empty">No answers yet. Answer a few questions and this page shows how '
            "well you know each kind, how your answers went day by day, and your streaks.</p>"
        )
        self.quiz_button = w.Button(description="Quiz yourself", button_style="primary")
        self.quiz_button.add_class("st-progress-quiz")
        self.quiz_button.on_click(guarded(lambda _b: self.app.show("Quiz yourself")))
        self.title = w.HTML(
            '<h2 class="st-lesson-title">Progress</h2><p class="st-note">Counted from your answers in quizzes and '
            "lessons, kept in this browser. A kind's <b>level</b> is the one you have reached in it (1 easy to "
            "3 tricky); its <b>box</b> (1 to 5) goes up one with each answer right first try and back to 1 "
            "with a miss. Your <b>puzzle rating</b> says how hard a puzzle you solve: a puzzle rated as you are "
            "is one you solve on the first try about half the time.</p>"
        )
        # built once: each visit re-renders the page, and a heading made per visit would stay open
        self.headings = [
            w.HTML(f"<h3>{text}</h3>")
            for text in (
                "Mastery by quiz kind",
                "Answers over time",
                "Streaks",
                "For a teacher",
                "Puzzle rating",
                "Reviews across days",
            )
        ]
        self.body = w.VBox()
        self.widget = w.VBox([self.title, self.body])
        self.widget.add_class("st-progress-page")

    def render(self) -> None:
        """Rebuild the page from the answers kept (its plots are drawn once their boxes are on the page)."""
        from ..quiz.mastery import mastery
        from ..quiz.schedule import schedules

        progress = self.app.progress
        zone = self.app.store.zone  # the learner's clock, as their browser keeps it
        mastery_head, timeline_head, streaks_head, teacher_head, rating_head, review_head = self.headings
        rating = [rating_head, self.rating_reading]
        standing = progress.puzzle_standing()
        reading = rating_reading(standing)
        self.rating_reading.value = reading_html("", reading)
        if progress.puzzle_results:
            rating += [self.rating_plot, self.rating_key, self.rating_data]
            spec = rating_spec(standing, zone)
            fill_data(
                self.rating_data, spec, reading, rating_table_html(progress.puzzle_results, standing, reading, zone)
            )
            draw(self.rating_plot, spec, SMALL_HEIGHT)
        if not progress.answers:
            if progress.puzzle_results:  # puzzles only: their rating, and the way to the quiz
                self.downloads.value = downloads_html(progress)
                self.body.children = [*rating, teacher_head, self.downloads, self.empty, self.quiz_button]
            else:
                self.body.children = [self.empty, self.quiz_button]
            return
        table = mastery(progress.answers)
        known = bool(tried(table))  # answers only to kinds this version of the app does not have: no empty plots
        mastered = [mastery_head, self.mastery_reading, self.mastery_plot, self.mastery_key, self.mastery_data]
        reviews = [review_head, self.review_reading, self.review_note, self.review_plot, self.review_key]
        self.body.children = [
            *(mastered if known else []),
            *([*reviews, self.review_data] if known else []),
            timeline_head,
            self.timeline_reading,
            self.timeline_plot,
            self.timeline_key,
            self.timeline_data,
            *rating,
            streaks_head,
            self.streaks,
            teacher_head,
            self.downloads,
        ]
        self.streaks.value = streaks_html(progress)
        self.downloads.value = downloads_html(progress)
        if known:
            now = self.clock()
            plan = schedules(progress.answers, zone=zone)
            reading = review_reading(plan, now, zone)
            spec = review_spec(plan, now, zone)
            self.review_reading.value = reading_html("", reading)
            fill_data(self.review_data, spec, reading, review_table_html(plan, now, reading, zone))
            self._size(self.review_plot, spec["layout"]["height"])
            draw(self.review_plot, spec, spec["layout"]["height"])
            reading = mastery_reading(table)
            spec = mastery_spec(table)
            self.mastery_reading.value = reading_html("", reading)
            fill_data(self.mastery_data, spec, reading, mastery_table_html(table, reading))
            height = spec["layout"]["height"]
            self._size(self.mastery_plot, height)
            draw(self.mastery_plot, spec, height)
        reading = timeline_reading(progress.answers, zone)
        spec = timeline_spec(progress.answers, zone)
        self.timeline_reading.value = reading_html("", reading)
        fill_data(self.timeline_data, spec, reading)
        draw(self.timeline_plot, spec, TIMELINE_HEIGHT)

    @staticmethod
    def _size(slot: w.Output, height: int) -> None:
        """A small plot's box for a few kinds, a full one for more (app.css has both)."""
        if height == SMALL_HEIGHT:
            slot.add_class(SMALL)
        else:
            slot.remove_class(SMALL)
