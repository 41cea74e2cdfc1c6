"""Each lab plot's data table holds exactly the numbers its figure draws (read back from the HTML)."""

from __future__ import annotations

import html
import re
from collections import Counter
from html.parser import HTMLParser
from typing import Any

import pytest

from spades_tutor.lab.plots import MIME, data_table


class Table(HTMLParser):
    """The caption, the header cells (with their scope) and the body rows of one HTML table."""

    def __init__(self) -> None:
        super().__init__()
        self.caption = ""
        self.heads: list[tuple[str, str]] = []
        self.rows: list[list[tuple[str, str]]] = []
        self.summary = ""
        self._cell: list[str] | None = None
        self._tag = ""
        self._scope = ""
        self._where = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("thead", "tbody"):
            self._where = tag
        elif tag == "tr" and self._where == "tbody":
            self.rows.append([])
        if tag in ("caption", "th", "td", "summary"):
            self._cell, self._tag, self._scope = [], tag, dict(attrs).get("scope") or ""

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._cell is None or tag != self._tag:
            return
        text = "".join(self._cell)
        if tag == "caption":
            self.caption = text
        elif tag == "summary":
            self.summary = text
        elif self._where == "thead":
            self.heads.append((self._scope, text))
        else:
            self.rows[-1].append((self._scope, text))
        self._cell = None


def parse(markup: str) -> Table:
    table = Table()
    table.feed(markup)
    return table


def number(cell: str) -> float:
    assert not re.search(r"-\d", cell), f"a hyphen for a minus sign in {cell!r}"
    cell = cell.replace("−", "-")
    return float(cell[:-1]) / 100 if cell.endswith("%") else float(cell.replace(",", ""))


def interval(cell: str, percent: bool) -> tuple[float, float]:
    assert not re.search(r"-\d", cell), f"a hyphen for a minus sign in {cell!r}"
    cell = cell.replace("−", "-")
    low, high = cell.rstrip("%").split(" to ") if " to " in cell else cell.rstrip("%").split("–")
    scale = 100 if percent else 1
    return float(low) / scale, float(high) / scale


def plain(reading_html: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", reading_html))


def expected_points(trace: dict[str, Any]) -> list[tuple[Any, Any, Any, Any]]:
    """(x, y, low, high) of every point the trace draws; a histogram's points are its bars."""
    if trace["type"] == "histogram":
        counts = Counter(trace["x"])
        return [(x, counts[x], None, None) for x in sorted(counts)]
    err = trace.get("error_y")
    out = []
    for k, (x, y) in enumerate(zip(trace["x"], trace["y"], strict=True)):
        if err and y is not None and err["array"][k] is not None:
            out.append((x, y, y - err["arrayminus"][k], y + err["array"][k]))
        else:
            out.append((x, y, None, None))
    return out


def check(drawn: dict[str, Any], markup: str, reading: str) -> int:
    """Assert the disclosure's table is the figure's data, point by point; return how many rows."""
    table = parse(markup)
    assert markup.startswith("<details>") and "<details open" not in markup  # closed until opened
    assert table.summary == "Data of this plot"
    assert table.caption == reading
    assert all(scope == "col" for scope, _ in table.heads)
    percent = "%" in drawn["layout"]["yaxis"].get("tickformat", "")
    intervals = any("error_y" in t for t in drawn["data"])
    assert len(table.heads) == 3 + intervals
    rows = iter(table.rows)
    count = 0
    for trace in drawn["data"]:
        name = trace["name"] + (f", {trace['meta']}" if trace.get("meta") else "")
        for x, y, low, high in expected_points(trace):
            row = next(rows)
            count += 1
            (scope, series), *cells = row
            assert scope == "row" and series == name
            assert cells[0][1] == (f"{x:,}" if isinstance(x, int) else str(x))
            tolerance = 0.005 + 1e-9  # half the last digit written (a whole percent, or 2 decimals)
            assert abs(number(cells[1][1]) - y) <= tolerance, (name, x, cells[1][1], y)
            if intervals:
                if low is None:
                    assert cells[2][1] == "no interval"
                else:
                    lo, hi = interval(cells[2][1], percent)
                    assert abs(lo - low) <= tolerance and abs(hi - high) <= tolerance, (name, x, cells[2][1])
    assert next(rows, None) is None  # no row the figure does not draw
    return count


@pytest.fixture(scope="module")
def lab() -> Any:
    """The Joker lab page after both its runs (not named ``page``: pytest-playwright's fixture has that name)."""
    from spades_tutor.ui.lab_page import LabPage

    page = LabPage()
    for key, box in {**page.plot_data, **page.bot_plot_data}.items():
        assert box.value == "", key  # no data before a run
    page.run()
    page.run_bots()
    return page


@pytest.mark.slow
def test_every_lab_plots_table_holds_exactly_the_numbers_its_figure_draws(lab: Any) -> None:
    pairs = [(lab.plots, lab.plot_data, lab.readings), (lab.bot_plots, lab.bot_plot_data, lab.bot_readings)]
    seen = 0
    for plots, data, readings in pairs:
        for key, slot in plots.items():
            (shown,) = slot.outputs
            assert check(shown["data"][MIME], data[key].value, plain(readings[key].value)) > 0, key
            seen += 1
    assert seen == 8


@pytest.mark.slow
def test_the_games_table_counts_each_bar_of_the_histogram(lab: Any) -> None:
    table = parse(lab.bot_plot_data["games"].value)
    frame = lab.frames["bots-games"]
    total = sum(int(cells[2][1]) for cells in table.rows)
    assert total == len(frame)  # every game counted once, in one bar


def test_a_plot_table_escapes_its_text() -> None:
    fig = {
        "data": [{"type": "bar", "name": "<script>", "x": ["a&b"], "y": [0.5]}],
        "layout": {"xaxis": {"title": {"text": "<i>x"}}, "yaxis": {"title": {"text": "y"}, "tickformat": ".0%"}},
    }
    markup = data_table(fig, 'say "<b>"')
    assert "<script>" not in markup and "<i>" not in markup and "<b>" not in markup
    table = parse(markup)
    assert table.caption == 'say "<b>"'
    assert table.heads[1] == ("col", "<i>x")
    assert table.rows == [[("row", "<script>"), ("", "a&b"), ("", "50%")]]
