"""Practice across days: each quiz kind's FSRS schedule is replayed from the stored answers and their
times (on a fixed clock here), on the learner's clock, and nothing of it is stored or trusted from a page."""

from __future__ import annotations

import datetime
import html
import json
import random
import time
from collections.abc import Iterator
from zoneinfo import ZoneInfo

import pytest
from fsrs import Card, Rating, Scheduler

from spades_tutor.quiz.schedule import (
    AGAIN,
    GOOD,
    HARD,
    due_among,
    due_kinds,
    next_due,
    pick_practice,
    schedules,
)
from spades_tutor.session import Answer, Progress, merge
from spades_tutor.session.progress import LATEST_TIME
from spades_tutor.ui import errors
from spades_tutor.ui.app import App
from spades_tutor.ui.pages.home import HomePage
from spades_tutor.ui.quiz_view import KIND_TITLES

PARIS = ZoneInfo("Europe/Paris")
KINDS = ("score", "trick-winner", "trump-order")


def at(day: int, hour: float = 10.0, zone: datetime.tzinfo = PARIS) -> float:
    """A time on the learner's clock: ``day`` days after 1 December 2026, at ``hour``."""
    start = datetime.datetime(2026, 12, 1, tzinfo=zone) + datetime.timedelta(days=day, hours=hour)
    return start.timestamp()


def said(when: float, kind: str, right: bool, attempt: int = 1, source: str = "quiz") -> Answer:
    return Answer(when, kind, "jokers", f"{kind}:jokers:{when:.0f}/1", right, source, attempt)


def fsrs_directly(reviews: list[tuple[float, Rating]]) -> Card:
    """The card FSRS itself gives for these reviews, as the app configures it (whole days, no fuzz)."""
    scheduler = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    first = datetime.datetime.fromtimestamp(reviews[0][0], datetime.UTC)
    card = Card(card_id=7, due=first)
    for when, rating in reviews:
        card, _log = scheduler.review_card(card, rating, datetime.datetime.fromtimestamp(when, datetime.UTC))
    return card


# a fortnight of "Score this hand": each day's first answer is the review, the rest of the day is not
HISTORY = [
    said(at(0, 9), "score", True),
    said(at(0, 9.1), "score", False),  # later on day 0: after the feedback, not a review
    said(at(2, 20), "score", True, attempt=2),  # day 2: right on the second try
    said(at(3, 8), "score", False),  # day 3: missed
    said(at(3, 8.2), "score", True),
    said(at(4, 23.5), "score", True),  # day 4, late in Paris (22:30 UTC)
    said(at(12, 7), "score", True),
    said(at(1, 12), "trick-winner", True),
    said(at(1, 12.5), "trick-winner", True),
]


def test_a_history_spanning_days_gives_the_due_dates_fsrs_computes_for_each_day_s_first_answer() -> None:
    table = schedules(HISTORY, kinds=KINDS, zone=PARIS)
    score = table["score"]
    assert [(r.day.day, r.rating) for r in score.reviews] == [(1, GOOD), (3, HARD), (4, AGAIN), (5, GOOD), (13, GOOD)]
    card = fsrs_directly(
        [
            (at(0, 9), Rating.Good),
            (at(2, 20), Rating.Hard),
            (at(3, 8), Rating.Again),
            (at(4, 23.5), Rating.Good),
            (at(12, 7), Rating.Good),
        ]
    )
    assert score.due == card.due.timestamp()
    assert (score.stability, score.difficulty) == (card.stability, card.difficulty)
    assert score.due_day(PARIS) == card.due.astimezone(PARIS).date()
    now = at(15, 18)
    expected = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False).get_card_retrievability(
        card, datetime.datetime.fromtimestamp(now, datetime.UTC)
    )
    assert score.recall(now) == pytest.approx(expected)
    # one day, one review: Good on day 1, due FSRS's first interval later (2 days, at the same hour)
    trick = table["trick-winner"]
    assert [r.rating for r in trick.reviews] == [GOOD]
    assert trick.due == fsrs_directly([(at(1, 12), Rating.Good)]).due.timestamp() == at(3, 12)
    # a kind never answered has no schedule and is never due
    assert table["trump-order"].due is None and table["trump-order"].recall(now) is None


def test_the_day_s_first_answer_is_the_review_whatever_comes_after_it() -> None:
    good_day = [said(at(0, 9), "score", True)] + [said(at(0, 9 + i / 10), "score", False) for i in range(1, 6)]
    bad_day = [said(at(0, 9), "score", False)] + [said(at(0, 9 + i / 10), "score", True) for i in range(1, 6)]
    assert schedules(good_day, KINDS, PARIS)["score"].due == schedules(good_day[:1], KINDS, PARIS)["score"].due
    assert [r.rating for r in schedules(bad_day, KINDS, PARIS)["score"].reviews] == [AGAIN]


def test_days_are_the_learner_s_days() -> None:
    late, early = at(0, 23.5), at(1, 0.5)  # an hour apart across midnight in Paris (both 22:30 and 23:30 UTC)
    answers = [said(late, "score", True), said(early, "score", False)]
    assert len(schedules(answers, KINDS, PARIS)["score"].reviews) == 2  # two days in Paris
    assert len(schedules(answers, KINDS, None)["score"].reviews) == 1  # one day in UTC


def test_due_today_counts_the_kinds_due_on_the_learner_s_day_least_remembered_first() -> None:
    table = schedules(HISTORY, kinds=KINDS, zone=PARIS)
    trick_due = table["trick-winner"].due_day(PARIS)
    assert trick_due == datetime.date(2026, 12, 4)
    assert due_kinds(table, at(2, 23.9), PARIS) == []  # the evening before
    assert due_kinds(table, at(3, 0.1), PARIS) == ["trick-winner"]  # due the whole day, from midnight
    score_due = table["score"].due_day(PARIS)
    assert score_due is not None and score_due > trick_due
    on_day = (score_due - datetime.date(2026, 12, 1)).days
    both = due_kinds(table, at(on_day, 6), PARIS)
    assert sorted(both) == ["score", "trick-winner"]
    assert both[0] == "trick-winner"  # overdue for longer: the less likely to be remembered
    assert table["trick-winner"].recall(at(on_day, 6)) < table["score"].recall(at(on_day, 6))  # type: ignore[operator]
    soonest = next_due(table, at(2, 12), PARIS)
    assert soonest is not None and soonest.kind == "trick-winner"
    assert next_due(table, at(on_day, 6), PARIS) is None  # every kind answered is due
    # a lesson's quiz (its kinds) is due when one of its kinds is
    assert due_among(table, ("trick-winner", "trump-order"), at(3, 12), PARIS) == ["trick-winner"]
    assert due_among(table, ("score", "trump-order"), at(3, 12), PARIS) == []


def test_an_answer_today_takes_a_due_kind_off_today_s_list() -> None:
    before = schedules(HISTORY, kinds=KINDS, zone=PARIS)
    assert before["trick-winner"].is_due(at(5, 12), PARIS)
    after = schedules([*HISTORY, said(at(5, 11), "trick-winner", False)], kinds=KINDS, zone=PARIS)
    assert not after["trick-winner"].is_due(at(5, 12), PARIS)  # missed today: back tomorrow
    assert after["trick-winner"].due_day(PARIS) == datetime.date(2026, 12, 7)


def test_practice_takes_the_due_kinds_first_then_the_miss_driven_draw() -> None:
    kinds = ("score", "trick-winner", "trump-order")
    now = at(3, 12)  # trick-winner is due; score is not
    picks = {pick_practice(HISTORY, seed, kinds, now, PARIS) for seed in range(20)}
    assert {(p.kind, p.level, p.due) for p in picks} == {("trick-winner", 1, True)}
    answered = [*HISTORY, said(at(3, 11), "trick-winner", True)]  # reviewed: nothing due now
    assert due_kinds(schedules(answered, kinds, PARIS), now, PARIS) == []
    picks = {pick_practice(answered, seed, kinds, now, PARIS) for seed in range(20)}
    assert all(not p.due for p in picks)
    assert {p.kind for p in picks} == {"trump-order"}  # never asked, and nothing answered is due in Leitner's boxes


def test_two_tabs_merged_give_one_schedule_whatever_the_order_of_the_answers() -> None:
    a, b = Progress(answers=HISTORY[:4]), Progress(answers=HISTORY[4:])
    merged = merge(a, b)
    shuffled = list(HISTORY)
    random.Random(3).shuffle(shuffled)
    want = schedules(HISTORY, KINDS, PARIS)
    assert schedules(merged.answers, KINDS, PARIS) == want == schedules(shuffled, KINDS, PARIS)
    assert schedules(merge(b, a).answers, KINDS, PARIS) == want


def test_old_stored_progress_has_a_schedule_at_once() -> None:
    """A record saved before answers had a source, a try or an id (five-part rows), and before any schedule."""
    rows = [[a.time, a.kind, a.preset, a.item, a.correct] for a in HISTORY if a.attempt == 1]
    stored = json.dumps({"format": "spades-tutor/progress", "answers": rows, "lessons": {"the-deck": 2}})
    p = Progress.from_json(stored)
    assert p.notes == [] and p.answered == len(rows)
    table = schedules(p.answers, KINDS, PARIS)
    assert [r.rating for r in table["score"].reviews] == [GOOD, AGAIN, GOOD, GOOD]
    assert due_kinds(table, at(3, 12), PARIS) == ["trick-winner"]


@pytest.mark.parametrize(
    "hostile",
    [
        {"score": {"due": "1970-01-01", "stability": 1e308}},
        [[0, 1e999]],
        "due: never",
        {"score": {"due": 10**4000}},
        None,
    ],
)
def test_a_stored_schedule_is_refused_with_a_note_and_nothing_else_is_lost(hostile: object) -> None:
    p = Progress(answers=list(HISTORY), lessons={"the-deck": 2})
    p.record_puzzle("0a1b2c3d", "jokers", "medium", True, when=at(1))
    data = json.loads(p.to_json())
    data["schedule"] = hostile
    text = json.dumps(data).replace("1e+999", "1e999")
    loaded = Progress.from_json(text)
    assert loaded == p  # every answer, lesson, setting and puzzle result kept
    assert loaded.notes == [
        "The saved review schedule was not used: when each kind of question is due is worked out from your answers."
    ]
    assert schedules(loaded.answers, KINDS, PARIS) == schedules(HISTORY, KINDS, PARIS)
    assert "schedule" not in json.loads(loaded.to_json())  # and it is not saved again


def test_the_extreme_times_a_stored_answer_may_hold_still_schedule() -> None:
    answers = [
        said(0.0, "score", True),
        said(0.0, "score", False),  # the same time: the first in the history is the review
        said(LATEST_TIME, "score", True),
        said(LATEST_TIME - 1, "trick-winner", False),
    ]
    zone = ZoneInfo("Pacific/Kiritimati")  # UTC+14: the end of year 9999 has no date there
    table = schedules(answers, KINDS, zone)
    assert [r.rating for r in table["score"].reviews] == [GOOD, GOOD]
    for kind in ("score", "trick-winner"):
        s = table[kind]
        assert s.due is not None and s.due_day(zone) is not None
        assert 0.0 <= (s.recall(LATEST_TIME) or 0.0) <= 1.0
    # replayed no later than the year 9899 (a next review after that could have no date): due by the end of 9999
    assert due_kinds(table, LATEST_TIME, zone) == ["trick-winner", "score"]


def test_two_thousand_answers_replay_quickly_and_a_page_drawn_again_does_not_replay_them() -> None:
    kinds = ("score", "trick-winner", "trump-order", "legal-plays")
    answers = [said(at(0) + 3600.0 * 2 * i, kinds[i % 4], i % 5 != 0, attempt=1 + (i % 7 == 0)) for i in range(2000)]
    start = time.perf_counter()
    first = schedules(answers, kinds, PARIS)
    replayed = time.perf_counter() - start
    start = time.perf_counter()
    again = schedules(list(answers), kinds, PARIS)
    kept = time.perf_counter() - start
    assert first == again
    assert replayed < 1.0 and kept < 0.05
    assert sum(len(s.reviews) for s in first.values()) < 2000  # several answers a day: one review
    # one more answer replays its kind alone: the others' schedules are the ones kept
    more = schedules([*answers, said(at(400), "score", True)], kinds, PARIS)
    assert more["score"] != first["score"]
    assert all(more[k] is first[k] for k in kinds if k != "score")


# --- Home: what is due today -------------------------------------------------------------------------


@pytest.fixture
def app() -> Iterator[App]:
    a = App()
    yield a
    errors.remove_sink(a.show_error)


def home_with(app: App, answers: list[Answer], now: float, **stored: object) -> HomePage:
    record = Progress(answers=list(answers), lessons={"who-wins-a-trick": 4})
    data = {**json.loads(record.to_json()), **stored}
    home = app.get_page(HomePage)
    home.clock = app.quiz.clock = lambda: now  # one fixed clock for what is due and what practice asks
    app.store.set_state({"value": json.dumps(data), "time_zone": "Europe/Paris", "loaded": True})
    return home


def test_home_says_nothing_of_reviews_before_the_first_answer(app: App) -> None:
    home = app.get_page(HomePage)
    assert home.due.value == "" and home.due_box.layout.display == "none"


def test_home_shows_what_is_due_today_and_the_button_reviews_it(app: App) -> None:
    home = home_with(app, HISTORY, at(3, 12))
    trick = KIND_TITLES["trick-winner"]
    assert f"<b>Due today: 1 kind of question to review</b> ({html.escape(trick)})." in home.due.value
    assert "From your lessons: 5. Who wins a trick" in home.due.value  # a lesson read whose quiz asks it
    assert home.due_box.layout.display is None and home.review_button.layout.display is None
    home.review_button.click()
    assert app.nav.value == "Quiz yourself" and app.quiz.practising
    assert app.quiz.item is not None and app.quiz.item.kind == "trick-winner"


def test_home_counts_every_kind_due_and_names_the_next_review_when_none_is(app: App) -> None:
    home = home_with(app, HISTORY, at(23, 12))  # 24 December: "Score this hand" is due too
    titles = [html.escape(KIND_TITLES[k]) for k in ("trick-winner", "score")]  # the least remembered first
    assert f"<b>Due today: 2 kinds of question to review</b> ({', '.join(titles)})." in home.due.value
    home.clock = lambda: at(2, 12)
    home.show()
    assert home.review_button.layout.display == "none"
    assert f"Nothing due for review today. Next review: <b>{titles[0]}</b>, tomorrow." in home.due.value
    home.clock = lambda: at(1, 15)  # 2 December: two days before
    home.show()
    assert f"Next review: <b>{titles[0]}</b>, on Friday 4 December." in home.due.value


def test_home_lists_only_the_kinds_the_rule_set_asks(app: App) -> None:
    nil = [said(at(0), "nil-safe", False)]
    home = home_with(app, nil, at(3, 12))
    assert "Due today: 1 kind" in home.due.value
    app.picker.nil.value = False  # a table without nil asks no nil question
    assert "Due today" not in home.due.value and home.review_button.layout.display == "none"


def test_a_hostile_stored_schedule_is_refused_on_the_page_and_the_answers_still_schedule(app: App) -> None:
    home = home_with(app, HISTORY, at(3, 12), schedule={"trick-winner": {"due": "9999-12-31", "stability": 1e308}})
    assert "The saved review schedule was not used" in str([c.children[0].value for c in app.notes.children])
    assert app.progress.answers == HISTORY and app.progress.lessons == {"who-wins-a-trick": 4}  # nothing else lost
    assert "Due today: 1 kind" in home.due.value
