"""Practice sessions: "Practice what I miss" asks a set number of questions, then sums up what moved and
what to practise next; the day's answers count toward a daily goal; a reload goes on with the session."""

from __future__ import annotations

import dataclasses
import datetime
import time
from collections.abc import Iterator
from zoneinfo import ZoneInfo

import pytest
from test_quiz_kinds import answer_through_the_view

from spades_tutor.quiz.practice import DAILY_GOAL, SESSION_LENGTH, answered_today, session_questions, summarise
from spades_tutor.session import Answer, Progress
from spades_tutor.session.settings import Settings
from spades_tutor.ui import errors
from spades_tutor.ui.app import App
from spades_tutor.ui.pages.quiz import NEXT_QUESTION, SESSION_OVER


@pytest.fixture
def app() -> Iterator[App]:
    a = App()
    yield a
    errors.remove_sink(a.show_error)


def said(when: float, kind: str, right: bool, source: str = "quiz", attempt: int = 1, level: int = 1) -> Answer:
    return Answer(when, kind, "jokers", f"{kind}:jokers:{when:.0f}/{level}", right, source, attempt)


def test_a_session_counts_the_questions_answered_on_the_quiz_page_since_it_began() -> None:
    history = [
        said(5.0, "score", True),  # before the session
        said(10.0, "score", False),
        said(11.0, "score", True, attempt=2),  # a question right on the second try: asked, not right first
        said(12.0, "trick-winner", True, source="lesson"),  # a lesson's question: not the session's
        said(13.0, "trick-winner", True),
    ]
    assert [a.time for a in session_questions(history, since=10.0)] == [10.0, 11.0, 13.0]
    s = summarise(history, since=10.0, kinds=("score", "trick-winner", "nil-safe"), seed=0)
    assert (s.asked, s.first_try) == (3, 1)
    score, trick = s.kinds
    assert (score.kind, score.asked, score.first_try, score.improved) == ("score", 2, 0, False)
    assert (trick.kind, trick.asked, trick.first_try) == ("trick-winner", 1, 1)
    # new before the session; during it right first in a lesson (box 2), then on the quiz page (box 3)
    assert (trick.box_before, trick.box_after, trick.improved) == (0, 3, True)
    assert s.next_kind in ("score", "trick-winner", "nil-safe") and s.next_level == 1


def test_the_daily_goal_counts_the_learner_s_day_on_their_clock() -> None:
    zone = ZoneInfo("America/New_York")
    noon = datetime.datetime(2026, 12, 7, 12, 0, tzinfo=zone).timestamp()
    late_yesterday = datetime.datetime(2026, 12, 6, 23, 30, tzinfo=zone).timestamp()  # 04:30 UTC today
    answers = [said(noon - 60 * i, "score", True) for i in range(3)]
    answers += [said(late_yesterday, "score", True), said(noon, "score", False, attempt=2)]
    assert answered_today(answers, zone, noon) == 4  # yesterday evening does not count
    assert answered_today(answers, None, noon) == 5  # in UTC the evening before is today (04:30)


@pytest.mark.parametrize("stored", [10**4000, float("nan"), float("inf"), -1.0, True, "1700000000"])
def test_a_stored_practice_start_that_is_not_a_time_is_no_session(stored: object) -> None:
    notes: list[str] = []
    assert Settings.from_data({"practice_from": stored}, notes).practice_from == 0.0
    assert notes == ["Some saved settings could not be read (practice session), so the usual ones are used there."]
    assert Settings.from_data({"practice_from": 1_700_000_000}, notes).practice_from == 1_700_000_000.0


def test_a_practice_session_ends_after_its_questions_on_a_summary(app: App) -> None:
    app.store.loaded = True
    app.picker.retry.value = False
    app.nav.value = "Quiz yourself"
    quiz = app.quiz
    quiz.practice_button.click()
    started = app.settings.practice_from
    assert started > 0 and quiz.practising
    for n in range(1, SESSION_LENGTH + 1):
        assert f"Practice what I miss, question {n} of {SESSION_LENGTH}: " in quiz.seed_line.value
        view = quiz.view
        assert view is not None
        item = quiz.item
        assert item is not None
        if n % 3:  # right, two questions in three, through the view's controls
            answer_through_the_view(view)
            view.check_button.click()
        else:  # a miss, graded as the view reports one to the page
            quiz.answered(item, dataclasses.replace(item.check(item.answer()), correct=False))
        assert quiz.next_button.description == (SESSION_OVER if n == SESSION_LENGTH else NEXT_QUESTION)
        if n < SESSION_LENGTH:
            quiz.next_button.click()
    quiz.next_button.click()  # the summary
    summary = quiz.slot.children[0].value
    right = SESSION_LENGTH - SESSION_LENGTH // 3
    assert f"{right} of {SESSION_LENGTH} right on the first try." in summary
    assert "Practise next: <b>" in summary and f"of {DAILY_GOAL} answers" in summary
    assert not quiz.practising and app.settings.practice_from == 0.0  # the session is over, and saved so
    assert quiz.next_button.layout.display == "none"
    again = quiz.slot.children[1].children[0]
    again.click()  # another session
    assert quiz.practising and app.settings.practice_from >= started
    assert f"question 1 of {SESSION_LENGTH}" in quiz.seed_line.value


def test_a_reload_goes_on_with_the_practice_session(app: App) -> None:
    began = time.time() - 60
    stored = Progress()
    for i in range(3):
        stored.record("score", "jokers", f"score:jokers:{i}/1", True, when=began + i, source="quiz")
    stored.settings.practice_from = began
    app.nav.value = "Quiz yourself"
    app.store.value = stored.to_json()
    app.store.loaded = True  # the page sends the saved record: the session goes on at its fourth question
    assert app.quiz.practising
    assert f"Practice what I miss, question 4 of {SESSION_LENGTH}: " in app.quiz.seed_line.value


def test_one_right_answer_after_nine_misses_is_not_called_better_known() -> None:
    """The box says "right last time" (box 2), but a strong teacher would not call 1 of 10 progress."""
    history = [said(10.0 + n, "trick-winner", False) for n in range(9)] + [said(30.0, "trick-winner", True)]
    (change,) = summarise(history, since=10.0, kinds=("trick-winner",), seed=0).kinds
    assert (change.asked, change.first_try, change.box_before, change.box_after) == (10, 1, 0, 2)
    assert not change.improved
    history = [said(10.0 + n, "trick-winner", n % 2 == 0) for n in range(9)] + [said(30.0, "trick-winner", True)]
    (change,) = summarise(history, since=10.0, kinds=("trick-winner",), seed=0).kinds
    assert change.first_try == 6 and change.box_after == 3 and change.improved  # right, right: box 3


def test_a_tab_still_practising_when_another_ended_the_session_begins_a_new_one(app: App) -> None:
    """The session's start is one saved setting for every tab: a tab that finds it gone (another tab's menu
    ended the session) starts a session of its own at its next question, rather than asking forever."""
    app.store.loaded = True
    app.nav.value = "Quiz yourself"
    app.quiz.practice_button.click()
    app.settings.practice_from = 0.0  # as another tab's record, merged in, says
    app.quiz.next_button.click()
    assert app.quiz.practising and app.settings.practice_from > 0
    assert f"Practice what I miss, question 1 of {SESSION_LENGTH}: " in app.quiz.seed_line.value


def test_practice_what_i_miss_asks_the_kinds_due_for_review_today_first(app: App) -> None:
    """Practice across days: the kinds FSRS says are due today (on the learner's clock) come first, the
    least likely to be remembered first; then the miss-driven choice (a kind missed today is due tomorrow)."""
    from spades_tutor.quiz.schedule import due_kinds, schedules
    from spades_tutor.ui.quiz_view import KIND_TITLES

    now, day = time.time(), 86_400.0
    stored = Progress()
    stored.record("score", "jokers", "score:jokers:1/1", True, when=now - 10 * day)  # due 8 days ago
    stored.record("trump-order", "jokers", "trump-order:jokers:2/1", True, when=now - 5 * day)  # due 3 days ago
    stored.record("trick-winner", "jokers", "trick-winner:jokers:3/1", False, when=now - 1)  # missed today
    app.store.set_state({"value": stored.to_json(), "time_zone": "Europe/Paris", "loaded": True})
    zone = ZoneInfo("Europe/Paris")
    assert due_kinds(schedules(stored.answers, zone=zone), now, zone) == ["score", "trump-order"]
    app.picker.retry.value = False
    app.nav.value = "Quiz yourself"
    quiz = app.quiz
    quiz.clock = lambda: now
    quiz.practice_button.click()
    asked = []
    for _ in range(3):
        item = quiz.item
        assert item is not None
        asked.append((item.kind, quiz.seed_line.value))
        quiz.answered(item, item.check(item.answer()))  # right: reviewed today, due again days later
        quiz.next_button.click()
    (first, first_line), (second, second_line), (third, third_line) = asked
    assert (first, second) == ("score", "trump-order")
    assert f"{KIND_TITLES['score']}, due for review today · " in first_line
    assert f"{KIND_TITLES['trump-order']}, due for review today · " in second_line
    # nothing due now (the two reviewed today are due again on later days): the kind missed last time
    assert third == "trick-winner" and f"{KIND_TITLES['trick-winner']}, missed last time · " in third_line


def test_a_session_s_summary_names_a_kind_due_today_to_practise_next() -> None:
    day = 86_400.0
    now = 30 * day
    history = [said(now - 10 * day, "score", True), said(now - 60, "trick-winner", False)]
    s = summarise(history, since=now - 60, kinds=("score", "trick-winner"), seed=0, now=now, zone=None)
    assert (s.next_kind, s.next_level) == ("score", 1)  # due, though trick-winner was just missed
    s = summarise(history, since=now - 60, kinds=("score", "trick-winner"), seed=0)  # no clock: by the misses
    assert s.next_kind == "trick-winner"
