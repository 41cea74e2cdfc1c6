"""The Progress page in Python: mastery by kind and answers over time as plots with readings and tables,
the streaks as text, the teacher's two CSV downloads, the empty state, and stored progress read as untrusted."""

from __future__ import annotations

import base64
import csv
import html
import io
import json
import re
from collections.abc import Iterator

import pytest

from spades_tutor.quiz import kinds
from spades_tutor.quiz.mastery import MASTERY_COLUMNS, mastery, mastery_rows
from spades_tutor.session.progress import Answer, Progress
from spades_tutor.ui import errors
from spades_tutor.ui.app import LINK_PAGES, App, parse_query
from spades_tutor.ui.progress_page import SESSION_GAP, timeline, timeline_reading
from spades_tutor.ui.quiz_view import KIND_TITLES
from spades_tutor.ui.storage import Place

MIME = "application/vnd.plotly.v1+json"
DAY = 86_400.0
NOON = 20_000 * DAY + 12 * 3600  # 4 Oct 2024, 12:00 UTC


@pytest.fixture
def app() -> Iterator[App]:
    a = App()
    yield a
    errors.remove_sink(a.show_error)


def _plot(slot: object) -> dict:
    outputs = slot.outputs  # type: ignore[attr-defined]
    assert len(outputs) == 1
    return outputs[0]["data"][MIME]


def _text(markup: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", markup).split())


def _links(markup: str) -> dict[str, str]:
    """Each download link's file name and the text of the file it carries."""
    found = re.findall(r'download="([^"]+)" href="data:text/csv;charset=utf-8;base64,([^"]+)"', markup)
    return {name: base64.b64decode(data).decode("utf-8") for name, data in found}


def _answer(p: Progress, kind: str, level: int, correct: bool, when: float, attempt: int = 1) -> None:
    p.record(kind, "jokers", f"{kind}:jokers:{int(when)}/{level}", correct, when=when, attempt=attempt)


def test_with_no_answers_the_page_says_so_and_offers_the_quiz_without_an_empty_plot(app: App) -> None:
    app.show("Progress")
    page = app.progress_page
    assert app.page.children == (page.widget,)
    assert page.body.children == (page.empty, page.quiz_button)
    assert "No answers yet" in page.empty.value
    assert page.quiz_button.description == "Quiz yourself"
    assert page.mastery_plot.outputs == () and page.timeline_plot.outputs == ()
    page.quiz_button.click()
    assert app.nav.value == "Quiz yourself" and app.page.children == (app.quiz.widget,)


def test_the_page_opens_from_a_link_and_from_a_saved_place() -> None:
    assert LINK_PAGES["progress"] == "Progress"
    assert parse_query("page=progress") == {"page": "Progress"}
    assert parse_query("page=Progres") == {"page": "Progress"}
    assert Place.from_json(Place("Progress").to_json()) == Place("Progress")
    a = App(query="page=progress")
    try:
        assert "Progress" in a.nav.options
        assert a.nav.value == "Progress" and a.page.children == (a.progress_page.widget,)
        assert a.landmarks.title.startswith("Progress ·")
    finally:
        errors.remove_sink(a.show_error)


def test_answers_are_drawn_read_and_counted(app: App) -> None:
    p = app.progress
    for k in range(3):  # three right first tries at trump order: it rises to level 2, box 4
        _answer(p, "trump-order", 1, True, NOON + 60 * k)
    _answer(p, "score", 1, True, NOON + DAY, attempt=2)  # the next day: right on the second try
    _answer(p, "score", 1, False, NOON + DAY + 60)  # and a miss
    app.show("Progress")
    page = app.progress_page

    reading = _text(page.mastery_reading.value)
    assert reading == (
        "Known best: Trump order (level 2 of 3, box 4 of 5). To practise: Score this hand (level 1, box 1). "
        "2 of 12 quiz kinds tried."
    )
    fig = _plot(page.mastery_plot)
    bars = {t["name"]: dict(zip(t["y"], t["x"], strict=True)) for t in fig["data"]}
    assert bars == {
        "level reached (1 to 3)": {"Trump order": 2, "Score this hand": 1},
        "box (1 to 5)": {"Trump order": 4, "Score this hand": 1},
    }
    assert "st-plot-small" in page.mastery_plot._dom_classes and fig["layout"]["height"] == 340
    table = page.mastery_data.value
    assert "<details>" in table and 'tabindex="0"' in table
    assert "<td>2</td><td>4</td><td>3</td><td>3</td>" in table  # trump order: level, box, answered, first tries
    assert "<td>1</td><td>1</td><td>2</td><td>0</td>" in table  # score: level, box, answered, first tries

    assert _text(page.timeline_reading.value) == (
        "5 answers in 2 days: 3 right first try, 1 on the second try, 1 missed; "
        "the latest (5 Oct 2024): 0 of 2 right first try."
    )
    fig = _plot(page.timeline_plot)
    per_day = {t["name"]: dict(zip(t["x"], t["y"], strict=True)) for t in fig["data"]}
    assert per_day == {
        "right first try": {"4 Oct 2024": 3, "5 Oct 2024": 0},
        "right on the second try": {"4 Oct 2024": 0, "5 Oct 2024": 1},
        "missed": {"4 Oct 2024": 0, "5 Oct 2024": 1},
    }
    assert fig["layout"]["barmode"] == "stack" and fig["layout"]["xaxis"]["type"] == "category"
    assert "<td>3</td>" in page.timeline_data.value and "Data of this plot" in page.timeline_data.value

    streaks = _text(page.streaks.value)
    assert "Current streak 0" in streaks and "Best streak 4" in streaks
    assert "Right first try 3" in streaks and "Right on the second try 1" in streaks
    assert "Trump order 3 3" in streaks and "Score this hand 2 1" in streaks  # answered, right


def test_the_downloads_carry_every_answer_and_one_mastery_row_per_kind(app: App) -> None:
    p = app.progress
    _answer(p, "nil-safe", 2, False, NOON)
    _answer(p, "nil-safe", 2, True, NOON + 60, attempt=2)
    p.record("legal-plays", "jokers", "legal-plays:jokers:9/1", True, when=NOON + 120, source="lesson")
    app.show("Progress")
    files = _links(app.progress_page.downloads.value)
    assert set(files) == {"spades-tutor-answers.csv", "spades-tutor-mastery.csv"}
    assert files["spades-tutor-answers.csv"] == p.to_csv()
    rows = list(csv.reader(io.StringIO(files["spades-tutor-mastery.csv"])))
    assert tuple(rows[0]) == MASTERY_COLUMNS
    assert [r[0] for r in rows[1:]] == list(kinds.names())
    by_kind = {r[0]: r[1:] for r in rows[1:]}
    assert by_kind["nil-safe"] == ["1", "1", "2", "0", "1", "1"]
    assert by_kind["legal-plays"] == ["1", "2", "1", "1", "0", "0"]  # a lesson's answer counts too
    assert by_kind["score"] == ["1", "0", "0", "0", "0", "0"]  # never answered: box 0


def test_mastery_rows_count_each_kinds_answers_and_agree_with_mastery() -> None:
    history = [
        Answer(0.0, "score", "jokers", "score:jokers:1/1", True),
        Answer(1.0, "score", "jokers", "score:jokers:2/1", False),
        Answer(2.0, "score", "jokers", "score:jokers:3/1", True, attempt=2),
        Answer(3.0, "score", "jokers", "score:jokers:4/1", False, attempt=2),
        Answer(4.0, "trump-order", "jokers", "trump-order:jokers:5/3", True),
        Answer(5.0, "bidding", "jokers", "bidding:jokers:6/1", True),  # no such kind: left out
    ]
    rows = mastery_rows(history)
    assert len(rows) == len(kinds.names())
    table = mastery(history)
    for kind, level, box, answered, first, second, missed in rows:
        assert (level, box, answered, first) == (
            table[kind].level,
            table[kind].box,
            table[kind].answered,
            table[kind].first_try,
        )
        assert first + second + missed == answered
    assert dict((r[0], r[3:]) for r in rows)["score"] == (4, 1, 1, 2)
    assert dict((r[0], r[1:3]) for r in rows)["trump-order"] == (1, 2)  # a tricky one right: box 2, level stays 1


def test_answers_of_one_day_are_counted_by_session() -> None:
    p = Progress()
    _answer(p, "score", 1, True, NOON)
    _answer(p, "score", 1, False, NOON + SESSION_GAP)  # still the first session
    _answer(p, "score", 1, True, NOON + 2 * SESSION_GAP + 1, attempt=2)  # a gap of more: a second one
    axis, rows = timeline(p.answers)
    assert axis.startswith("session")
    assert rows == [("12:00", 1, 0, 1), ("13:00", 0, 1, 0)]
    assert timeline_reading(p.answers) == (
        "3 answers in 2 sessions: 1 right first try, 1 on the second try, 1 missed; "
        "the latest (13:00): 0 of 1 right first try."
    )


def test_days_and_sessions_are_counted_on_the_learners_clock() -> None:
    """An evening's practice in New York runs past midnight UTC: on the learner's clock it is one
    evening of two sessions, not two days; the axis names the clock. Without a zone: UTC, as before."""
    from zoneinfo import ZoneInfo

    p = Progress()
    midnight = NOON + 12 * 3600  # 5 Oct 2024, 00:00 UTC: 20:00 on 4 Oct in New York (EDT, UTC-4)
    _answer(p, "score", 1, True, midnight - 3600)
    _answer(p, "score", 1, False, midnight + 3600)
    assert timeline(p.answers) == ("day (UTC)", [("4 Oct 2024", 1, 0, 0), ("5 Oct 2024", 0, 0, 1)])
    new_york = ZoneInfo("America/New_York")
    axis, rows = timeline(p.answers, new_york)
    assert axis == "session of answers, by its start (America/New_York)"
    assert rows == [("19:00", 1, 0, 0), ("21:00", 0, 0, 1)]
    assert timeline_reading(p.answers, new_york).startswith("2 answers in 2 sessions:")
    # the last second a calendar has in UTC has no date east of it: that answer is counted in UTC
    late = Progress()
    _answer(late, "score", 1, True, 253_402_300_799.0)
    assert timeline(late.answers, ZoneInfo("Pacific/Kiritimati")) == (
        "session of answers, by its start (Pacific/Kiritimati)",
        [("23:59", 1, 0, 0)],
    )


def test_the_page_counts_on_the_clock_its_browser_names_and_ignores_a_name_that_is_no_zone(app: App) -> None:
    stored = Progress()
    _answer(stored, "score", 1, True, NOON + 12 * 3600 - 3600)
    _answer(stored, "score", 1, True, NOON + 12 * 3600 + 3600)
    # what storage.js sends on start: the stored value, the browser's time zone, loaded
    app.store.set_state({"value": stored.to_json(), "time_zone": "America/New_York", "loaded": True})
    assert app.store.time_zone == "America/New_York"
    app.show("Progress")
    page = app.progress_page
    assert _plot(page.timeline_plot)["layout"]["xaxis"]["title"]["text"].endswith("(America/New_York)")
    assert _text(page.timeline_reading.value).startswith("2 answers in 2 sessions")
    for bad in ("../../etc/passwd", "/etc/localtime", "Not/A_Zone", "x" * 5000, "Europe/Paris\n", ""):
        app.store.set_state({"time_zone": bad})
        assert app.store.time_zone == "" and app.store.zone is None, bad
    app.show("Home")
    app.show("Progress")
    assert _plot(page.timeline_plot)["layout"]["xaxis"]["title"]["text"] == "day (UTC)"


def test_stored_progress_is_read_as_untrusted_and_a_reload_redraws_the_page(app: App) -> None:
    app.show("Progress")  # the page is open before the browser has sent what it kept
    assert app.progress_page.body.children[0] is app.progress_page.empty
    stored = Progress()
    _answer(stored, "trick-winner", 1, True, NOON)
    record = json.loads(stored.to_json())
    record["answers"] += [
        [NOON, "=cmd()", "jokers", "x", True],  # a kind no version of the app has: counted, not drawn
        [1e300, "score", "jokers", "score:jokers:1/1", True],  # no time a calendar has: left out
        "not a row",
    ]
    app.store.value = json.dumps(record)
    app.store.loaded = True
    page = app.progress_page
    assert app.progress.answered == 2
    assert "2 saved answers could not be read" in _text(app.notes.children[0].children[0].value)
    assert _text(page.mastery_reading.value).startswith("Who wins the trick?: level 1 of 3, box 2 of 5.")
    assert [t["y"] for t in _plot(page.mastery_plot)["data"]] == [["Who wins the trick?"]] * 2
    assert "cmd" not in page.streaks.value  # per kind: the registry's kinds only
    assert "Best streak</th><td>2" in page.streaks.value  # the streak counts every answer kept
    files = _links(page.downloads.value)
    assert "'=cmd()" in files["spades-tutor-answers.csv"]  # a formula is written as text
    assert "cmd" not in files["spades-tutor-mastery.csv"]


def test_answers_only_to_unknown_kinds_draw_no_mastery_plot(app: App) -> None:
    app.progress.record("retired-kind", "jokers", "retired-kind:jokers:1/1", True, when=NOON)
    app.show("Progress")
    page = app.progress_page
    assert page.mastery_plot not in page.body.children and page.mastery_reading not in page.body.children
    assert page.timeline_plot in page.body.children and _plot(page.timeline_plot)["data"][0]["y"] == [1]


def test_reset_progress_empties_the_page_shown(app: App) -> None:
    _answer(app.progress, "score", 1, True, NOON)
    app.store.loaded = True
    app.show("Progress")
    assert app.progress_page.timeline_plot in app.progress_page.body.children
    app.reset_progress()
    assert app.progress_page.body.children == (app.progress_page.empty, app.progress_page.quiz_button)


def test_the_mastery_plot_grows_from_a_small_one_when_more_than_six_kinds_are_answered(app: App) -> None:
    for k, kind in enumerate(kinds.names()[:6]):
        _answer(app.progress, kind, 1, True, NOON + 60 * k)
    app.show("Progress")
    page = app.progress_page
    assert _plot(page.mastery_plot)["layout"]["height"] == 340 and "st-plot-small" in page.mastery_plot._dom_classes
    _answer(app.progress, kinds.names()[6], 1, False, NOON + 3600)
    app.show("Home")
    app.show("Progress")
    fig = _plot(page.mastery_plot)
    assert fig["layout"]["height"] == 440 and "st-plot-small" not in page.mastery_plot._dom_classes
    assert fig["data"][0]["y"] == [KIND_TITLES[k] for k in kinds.names()[:7]]  # in the registry's order


def _puzzles(p: Progress, results: list[bool], start: float = NOON) -> None:
    for i, right in enumerate(results):
        p.record_puzzle(f"{i:08x}", "jokers", "medium", right, when=start + 60 * i)


def test_the_puzzle_rating_is_drawn_over_time_read_and_downloaded(app: App) -> None:
    p = app.progress
    _answer(p, "score", 1, True, NOON)
    _puzzles(p, [True, True, False])
    app.show("Progress")
    page = app.progress_page
    children = page.body.children
    assert page.rating_plot in children and children.index(page.rating_reading) < children.index(page.rating_plot)
    standing = p.puzzle_standing()
    rating = round(standing.learner.rating)
    assert _text(page.rating_reading.value) == (
        f"Your puzzle rating is {rating} (give or take {round(standing.learner.rd)}) after 3 puzzles, "
        "2 right on the first try; it started at 1500."
    )
    fig = _plot(page.rating_plot)
    line = fig["data"][-1]
    assert line["name"] == "your puzzle rating" and [round(y) for y in line["y"]] == [
        round(r.rating) for _t, r in standing.history
    ]
    assert line["x"] == ["2024-10-04 12:00:00", "2024-10-04 12:01:00", "2024-10-04 12:02:00"]
    assert fig["layout"]["xaxis"]["type"] == "date" and fig["layout"]["yaxis"]["title"]["text"] == "puzzle rating"
    low, high = fig["data"][0]["y"], fig["data"][1]["y"]
    assert all(a < y < b for a, y, b in zip(low, line["y"], high, strict=True))  # the band around it
    # three puzzles in two minutes: the time axis spans an hour, not milliseconds
    assert fig["layout"]["xaxis"]["range"] == ["2024-10-04 11:30:00", "2024-10-04 12:32:00"]
    assert "error_y" not in line
    table = page.rating_data.value
    assert "Data of this plot" in table and f"<td>{rating}</td>" in table
    files = _links(page.downloads.value)
    assert files["spades-tutor-puzzle-results.csv"] == p.puzzles_csv()
    assert "puzzle rating" in page.title.value and "about half the time" in page.title.value


def test_with_no_puzzle_tried_the_page_says_where_the_rating_starts_and_draws_no_plot(app: App) -> None:
    _answer(app.progress, "score", 1, True, NOON)
    app.show("Progress")
    page = app.progress_page
    assert page.rating_plot not in page.body.children and page.rating_reading in page.body.children
    assert _text(page.rating_reading.value) == (
        "No puzzle tried yet: your puzzle rating starts at 1500 and settles as you solve puzzles."
    )
    assert "spades-tutor-puzzle-results.csv" not in _links(page.downloads.value)


def test_one_puzzle_shows_its_give_or_take_as_a_bar_a_band_of_one_point_cannot_draw(app: App) -> None:
    _puzzles(app.progress, [False])
    app.show("Progress")
    line = _plot(app.progress_page.rating_plot)["data"][-1]
    (rd,) = [r.rd for _t, r in app.progress.puzzle_standing().history]
    assert line["error_y"]["array"] == [rd] and line["error_y"]["type"] == "data"


def test_puzzles_alone_show_the_rating_and_still_offer_the_quiz(app: App) -> None:
    _puzzles(app.progress, [False])
    app.show("Progress")
    page = app.progress_page
    assert page.rating_plot in page.body.children and page.timeline_plot not in page.body.children
    assert page.body.children[-2:] == (page.empty, page.quiz_button)
    assert _plot(page.rating_plot)["data"][-1]["y"][0] < 1500


def test_each_kind_s_predicted_recall_and_next_review_are_shown_on_the_learner_s_clock(app: App) -> None:
    """Practice across days on the Progress page: per kind answered, how likely it is to be remembered
    now (FSRS's predicted recall, a plain percentage) and the day of its next review, on a fixed clock."""
    import datetime
    from zoneinfo import ZoneInfo

    from fsrs import Card, Rating, Scheduler

    from spades_tutor.quiz.schedule import schedules
    from spades_tutor.ui.progress_page import DUE_MEANS

    p = Progress()
    _answer(p, "score", 1, True, NOON)  # 4 Oct: Good
    _answer(p, "score", 1, False, NOON + 60)  # later that day: not a review
    _answer(p, "score", 1, True, NOON + 3 * DAY, attempt=2)  # 7 Oct: Hard
    _answer(p, "trump-order", 1, False, NOON + 6 * DAY)  # 10 Oct: Again, due the next day
    zone = ZoneInfo("America/New_York")
    app.store.set_state({"value": p.to_json(), "time_zone": "America/New_York", "loaded": True})
    now = NOON + 8 * DAY  # 12 Oct 2024, 08:00 in New York
    page = app.progress_page
    page.clock = lambda: now
    app.show("Progress")

    scheduler = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    card = Card(card_id=1, due=datetime.datetime.fromtimestamp(NOON, datetime.UTC))
    for when, rating in ((NOON, Rating.Good), (NOON + 3 * DAY, Rating.Hard)):
        card, _ = scheduler.review_card(card, rating, datetime.datetime.fromtimestamp(when, datetime.UTC))
    score_recall = round(
        100 * scheduler.get_card_retrievability(card, datetime.datetime.fromtimestamp(now, datetime.UTC))
    )
    score_day = card.due.astimezone(zone).date()
    assert score_day > datetime.date(2024, 10, 12)
    plan = schedules(p.answers, zone=zone)
    assert plan["score"].recall(now) is not None and round(100 * plan["score"].recall(now)) == score_recall  # type: ignore[operator]
    trump_recall = round(100 * plan["trump-order"].recall(now))  # type: ignore[operator]

    assert page.review_plot in page.body.children
    assert html.escape(DUE_MEANS) in page.review_note.value  # what "due" means, in one sentence
    assert _text(page.review_reading.value) == (
        f"1 kind due for review today: Trump order. Least likely to be remembered now: Trump order, "
        f"about {trump_recall}%; it is due today."
    )
    fig = _plot(page.review_plot)
    bars = {t["name"]: dict(zip(t["y"], t["x"], strict=True)) for t in fig["data"]}
    assert bars == {
        "due for review today": {"Trump order": trump_recall},
        "due on a later day": {"Score this hand": score_recall},
    }
    weekday = score_day.strftime("%A")
    when = f"on {weekday} {score_day.day} {score_day.strftime('%B')}"
    table = _text(page.review_data.value)
    assert f"Score this hand about {score_recall}% {when} no 2" in table  # reviewed on two days
    assert f"Trump order about {trump_recall}% today yes 1" in table


def test_answers_only_to_unknown_kinds_show_no_reviews(app: App) -> None:
    app.progress.record("retired-kind", "jokers", "retired-kind:jokers:1/1", True, when=NOON)
    app.show("Progress")
    page = app.progress_page
    assert page.review_plot not in page.body.children and page.review_reading not in page.body.children
