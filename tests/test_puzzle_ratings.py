"""Puzzle ratings: Glicko-2 as Glickman's paper works it, the learner's rating replayed from their
puzzle results, the results stored (checked as untrusted), merged across tabs and exported, and the
daily puzzle and a new one chosen near the learner's rating."""

from __future__ import annotations

import csv
import datetime
import io
import json
import math
from collections.abc import Iterator
from typing import Any

import pytest

from spades_tutor.puzzles import daily, shipped
from spades_tutor.puzzles.rating import (
    LEARNER_START,
    PUZZLE_START,
    PuzzleResult,
    Rating,
    Standing,
    aim,
    expected,
    nearest_difficulty,
    rate,
    replay,
)
from spades_tutor.session.progress import LATEST_TIME, MAX_PUZZLE_RESULTS, Progress, merge
from spades_tutor.ui import errors
from spades_tutor.ui.app import App

FORMAT = "spades-tutor/progress"
DAY = datetime.date(2026, 12, 2)
LEVEL = {"easy": 0, "medium": 1, "hard": 2}


def run(
    first_try: bool, n: int, difficulty: str = "medium", start: float = 1_000.0, into: Progress | None = None
) -> Progress:
    """A record of ``n`` puzzles, each of an id of its own, right (or missed) on the first try."""
    p = into if into is not None else Progress()
    for i in range(n):
        p.record_puzzle(f"{int(start) + i:08x}", "jokers", difficulty, first_try, when=start + i)
    return p


# --- Glicko-2 -------------------------------------------------------------------------------------


def test_the_papers_worked_example() -> None:
    """Glickman's example: 1500 (RD 200) beats 1400 (RD 30), loses to 1550 (RD 100) and 1700 (RD 300).
    The paper gives 1464.06 and 151.52 from its intermediate values rounded to four places."""
    r = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)])
    assert r.rating == pytest.approx(1464.06, abs=0.015)
    assert r.rd == pytest.approx(151.52, abs=0.01)
    assert r.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation_up_to_a_new_players() -> None:
    r = rate(Rating(1600, 50, 0.06), [])
    assert r.rating == 1600 and r.volatility == 0.06
    assert r.rd == pytest.approx(math.hypot(50 / 173.7178, 0.06) * 173.7178)
    assert rate(Rating(1600, 349.9, 0.06), []).rd == 350


def test_a_win_raises_a_loss_lowers_and_a_surprise_moves_further() -> None:
    easy, hard = PUZZLE_START["easy"], PUZZLE_START["hard"]
    assert rate(LEARNER_START, [(easy, 1)]).rating > 1500 > rate(LEARNER_START, [(easy, 0)]).rating
    # beating a hard puzzle is worth more than beating an easy one; missing an easy one costs more
    assert rate(LEARNER_START, [(hard, 1)]).rating - 1500 > rate(LEARNER_START, [(easy, 1)]).rating - 1500
    assert 1500 - rate(LEARNER_START, [(easy, 0)]).rating > 1500 - rate(LEARNER_START, [(hard, 0)]).rating
    assert expected(Rating(1500, 30), Rating(1500, 30)) == pytest.approx(0.5)
    assert 0.75 < expected(Rating(1700, 30), Rating(1500, 30)) < 0.77


def test_replay_is_the_results_in_time_order_whatever_order_they_come_in() -> None:
    results = [PuzzleResult(float(t), f"{t % 3:08x}", "jokers", "medium", t % 2 == 0) for t in range(9)]
    a, b = replay(results), replay(list(reversed(results)))
    assert a == b and a.tried == 9 and a.solved == 5
    assert [t for t, _r in a.history] == [float(t) for t in range(9)]
    # both sides move: a puzzle that beat the learner rises, one they solved falls, each from its start
    once = replay([PuzzleResult(0.0, "0000000a", "jokers", "hard", False)])
    assert once.puzzles["0000000a"].rating > PUZZLE_START["hard"].rating
    assert once.puzzle_rating("0000000a", "hard") == once.puzzles["0000000a"]
    assert once.puzzle_rating("0000000b", "easy") == PUZZLE_START["easy"]  # untried: its difficulty's


def test_the_rating_settles_as_the_learner_solves() -> None:
    standing = run(True, 12).puzzle_standing()
    deviations = [r.rd for _t, r in standing.history]
    assert deviations == sorted(deviations, reverse=True) and deviations[0] < LEARNER_START.rd
    assert standing.learner.rating > 1800
    assert "Your puzzle rating:" in standing.words() and "from 12 puzzles" in standing.words()


def test_the_aim_starts_easy_and_meets_the_rating_once_settled() -> None:
    assert nearest_difficulty(aim(LEARNER_START)) == "easy"
    assert aim(Rating(1700, 60)) == 1700 and aim(Rating(1700, 200)) == 1600
    assert [nearest_difficulty(x) for x in (1000, 1349, 1351, 1649, 1651, 2500)] == [
        "easy",
        "easy",
        "medium",
        "medium",
        "hard",
        "hard",
    ]


# --- the daily puzzle near the rating -------------------------------------------------------------


def offered(progress: Progress, rules: str | None = "jokers", day: datetime.date = DAY) -> str:
    standing = progress.puzzle_standing()
    return daily(day, rules, near=aim(standing.learner), standing=standing).difficulty


def test_the_daily_puzzle_gets_harder_as_the_learner_solves_and_easier_as_they_miss() -> None:
    learner = Progress()
    assert offered(learner) == "easy"  # new: easy first
    run(True, 3, into=learner)
    assert LEVEL[offered(learner)] > LEVEL["easy"]
    run(True, 3, start=2_000.0, into=learner)
    assert offered(learner) == "hard"
    run(False, 8, start=3_000.0, into=learner)
    assert LEVEL[offered(learner)] < LEVEL["hard"]
    run(False, 8, start=4_000.0, into=learner)
    assert offered(learner) == "easy"


def test_the_daily_puzzle_is_the_same_all_day_and_varies_from_day_to_day() -> None:
    standing = run(True, 6).puzzle_standing()
    near = aim(standing.learner)
    assert daily(DAY, None, near=near, standing=standing) == daily(DAY, None, near=near, standing=standing)
    days = [DAY + datetime.timedelta(days=i) for i in range(30)]
    assert len({daily(d, None, near=near, standing=standing).id for d in days}) > 1


def test_a_puzzle_the_learner_missed_is_rated_harder_for_them() -> None:
    easy = [p for p in shipped() if p.difficulty == "easy" and p.rules_name == "jokers"]
    p = Progress()
    for i in range(4):
        p.record_puzzle(easy[0].id, "jokers", "easy", False, when=float(i))
    standing = p.puzzle_standing()
    assert standing.puzzle_rating(easy[0].id, "easy").rating > PUZZLE_START["easy"].rating + 100


# --- stored, checked, merged, exported --------------------------------------------------------------


def record(**parts: Any) -> str:
    return json.dumps({"format": FORMAT, **parts})


def test_puzzle_results_round_trip_and_an_older_record_without_them_loads() -> None:
    p = run(True, 2)
    p.record("score", "jokers", "score:jokers:1", True, when=5.0)
    again = Progress.from_json(p.to_json())
    assert again == p and again.notes == [] and len(again.puzzle_results) == 2
    assert again.puzzle_standing() == p.puzzle_standing()
    old = record(version=1, answers=[[1.0, "score", "jokers", "x", True, "quiz", 1, "a-1"]], lessons={})
    loaded = Progress.from_json(old)
    assert loaded.notes == [] and loaded.puzzle_results == [] and loaded.answered == 1
    assert loaded.puzzle_standing() == Standing()


GOOD = [1_700_000_000.0, "0a1b2c3d", "jokers", "medium", True, "18bcfe569f4-0011223344"]


@pytest.mark.parametrize(
    "row",
    [
        [math.nan, *GOOD[1:]],
        [math.inf, *GOOD[1:]],
        [-1, *GOOD[1:]],
        [LATEST_TIME + 1, *GOOD[1:]],
        [10**30, *GOOD[1:]],
        ["1700000000", *GOOD[1:]],
        [True, *GOOD[1:]],
        [GOOD[0], "0A1B2C3D", *GOOD[2:]],  # not an id the app makes
        [GOOD[0], "0a1b2c3", *GOOD[2:]],
        [GOOD[0], 12345678, *GOOD[2:]],
        [*GOOD[:2], "Jokers!", *GOOD[3:]],
        [*GOOD[:2], "j" * 41, *GOOD[3:]],
        [*GOOD[:3], "impossible", *GOOD[4:]],
        [*GOOD[:3], None, *GOOD[4:]],
        [*GOOD[:4], 1, GOOD[5]],  # 1 is not True
        [*GOOD[:4], "yes", GOOD[5]],
        [*GOOD[:5], "bad id!"],
        [*GOOD[:5], "x" * 41],
        GOOD[:5],
        [*GOOD, "more"],
        {"time": GOOD[0]},
        "0a1b2c3d",
        None,
    ],
)
def test_a_stored_puzzle_result_that_is_wrong_is_left_out_with_a_note(row: Any) -> None:
    p = Progress.from_json(record(puzzles=[GOOD, row]))
    assert [r.puzzle for r in p.puzzle_results] == ["0a1b2c3d"]
    assert p.notes == ["1 saved puzzle result could not be read and was left out."]
    p.record_puzzle("deadbeef", "jokers", "hard", False)  # and the record still takes the next one
    assert p.puzzle_standing().tried == 2


@pytest.mark.parametrize("puzzles", [{}, "results", 7, None, True])
def test_stored_puzzle_results_of_the_wrong_type_are_left_out_with_a_note(puzzles: Any) -> None:
    p = Progress.from_json(record(answers=[[1.0, "score", "jokers", "x", True]], puzzles=puzzles))
    assert p.puzzle_results == [] and p.answered == 1
    assert p.notes == ["The saved puzzle results could not be read and were left out."]


def test_a_huge_list_of_puzzle_results_keeps_only_the_latest() -> None:
    rows = [[1_000.0 + i, f"{i:08x}", "jokers", "easy", i % 2 == 0, f"r{i}"] for i in range(5 * MAX_PUZZLE_RESULTS)]
    p = Progress.from_json(record(puzzles=rows))
    assert len(p.puzzle_results) == MAX_PUZZLE_RESULTS and p.puzzle_results[-1].puzzle == rows[-1][1]
    assert p.notes == []
    assert p.puzzle_standing().tried == MAX_PUZZLE_RESULTS
    for _ in range(3):
        p.record_puzzle("deadbeef", "jokers", "hard", True)
    assert len(p.puzzle_results) == MAX_PUZZLE_RESULTS


def test_a_result_far_in_the_future_loads_and_counts_last() -> None:
    """A time up to the end of year 9999 is a time the CSV prints (as answers' are): it sorts last."""
    future = [LATEST_TIME, "deadbeef", "jokers", "hard", True, "future-1"]
    p = Progress.from_json(record(puzzles=[future, GOOD]))
    assert p.notes == [] and len(p.puzzle_results) == 2
    assert [t for t, _r in p.puzzle_standing().history] == [GOOD[0], LATEST_TIME]
    assert "9999-12-31 23:59:59,deadbeef" in p.puzzles_csv()


def test_recording_refuses_what_it_would_not_load() -> None:
    p = Progress()
    with pytest.raises(ValueError, match="difficulty"):
        p.record_puzzle("0a1b2c3d", "jokers", "tricky", True)
    with pytest.raises(ValueError, match="puzzle id"):
        p.record_puzzle("<script>", "jokers", "easy", True)
    assert p.puzzle_results == []


def test_two_tabs_results_merge_into_one_rating_and_a_reset_forgets_them() -> None:
    start = run(True, 2)
    a, b = Progress.from_json(start.to_json()), Progress.from_json(start.to_json())
    run(True, 3, start=5_000.0, into=a)
    run(False, 2, start=4_000.0, into=b)
    m = merge(a, b)
    assert len(m.puzzle_results) == 7 and m == merge(b, a) == merge(m, a)
    assert m.puzzle_standing() == merge(b, a).puzzle_standing()
    assert [r.time for r in m.puzzle_results] == sorted(r.time for r in m.puzzle_results)
    # neither tab's rating alone: the merged results replayed
    assert m.puzzle_standing().learner not in (a.puzzle_standing().learner, b.puzzle_standing().learner)
    reset = m.reset(when=10_000.0)
    assert reset.puzzle_results == [] and merge(reset, a).puzzle_results == []


def test_the_puzzle_results_csv_lists_each_result_with_the_rating_after_it() -> None:
    p = run(True, 2)
    run(False, 1, start=2_000.0, into=p)
    rows = list(csv.reader(io.StringIO(p.puzzles_csv())))
    assert rows[0] == ["time", "puzzle", "rule set", "difficulty", "right first try", "rating after", "deviation after"]
    assert [r[4] for r in rows[1:]] == ["yes", "yes", "no"]
    history = p.puzzle_standing().history
    assert [int(r[5]) for r in rows[1:]] == [round(h.rating) for _t, h in history]


# --- the app records each puzzle's result and saves it ------------------------------------------------


@pytest.fixture
def app() -> Iterator[App]:
    a = App(query="page=puzzles")
    a.store.loaded = True
    yield a
    errors.remove_sink(a.show_error)


def test_the_app_records_the_first_card_of_each_puzzle_and_saves_it(app: App) -> None:
    page = app.puzzles
    p = page.puzzle
    assert "Your puzzle rating: 1500" in page.rating_line.value and "about half the time" in page.rating_line.value
    wrong = next(c for c in p.legal_plays() if c not in p.answers)
    page.choose(wrong)
    page.check()
    page.choose(p.answers[0])
    page.check()  # the second try solves it, but the result is the first card's
    (result,) = app.progress.puzzle_results
    assert (result.puzzle, result.difficulty, result.first_try) == (p.id, p.difficulty, False)
    saved = Progress.from_json(app.store.value)
    assert saved.puzzle_results == app.progress.puzzle_results
    rating = round(app.progress.puzzle_standing().learner.rating)
    assert rating < 1500 and f"Your puzzle rating: {rating}" in page.rating_line.value
    page.next_puzzle()
    q = page.puzzle
    page.choose(q.answers[0])
    page.check()
    assert [r.first_try for r in app.progress.puzzle_results] == [False, True]


def test_results_given_before_the_stored_record_arrived_are_kept(app: App) -> None:
    fresh = App(query="page=puzzles")
    try:
        page = fresh.puzzles
        page.choose(page.puzzle.answers[0])
        page.check()
        stored = run(True, 2)
        fresh.store.value = stored.to_json()
        fresh.store.loaded = True
        assert len(fresh.progress.puzzle_results) == 3
        assert len(Progress.from_json(fresh.store.value).puzzle_results) == 3
    finally:
        errors.remove_sink(fresh.show_error)
