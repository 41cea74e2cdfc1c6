"""In Chromium: a kind missed on the Quiz page is what "Practice what I miss" serves next; a session
ends after its questions on a summary.

The answers given are the engine's (the quiz generator's item for the question shown); the
test only plays the learner.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import Page, expect

import spades_tutor as st
from spades_tutor.quiz.generators import generate
from spades_tutor.quiz.practice import SESSION_LENGTH
from spades_tutor.session.progress import Progress
from spades_tutor.ui.app import STORAGE_KEY

from .conftest import FIRST_EXPECT_TIMEOUT_MS, SCREENSHOTS, Server, choose_questions
from .test_a11y import axe_findings
from .test_app_journeys import open_app, open_trick_question
from .test_layout import PROBLEMS
from .test_lesson_review import known_but_one

pytestmark = pytest.mark.browser


def test_a_missed_kind_is_served_by_practice_what_i_miss(page: Page, voila_server: Server) -> None:
    quiz, line, seed, item = open_trick_question(page, voila_server)
    right = item.answer()
    wrong = next(c for c in item.trick if c != right)
    quiz.get_by_role("radio", name=re.compile(rf"^{re.escape(wrong.name)}\b")).click()
    quiz.get_by_role("button", name="Check answer").click()
    expect(quiz.get_by_text("✗ Not quite — try again.")).to_be_visible()
    quiz.get_by_role("radio", name=re.compile(rf"^{re.escape(right.name)}\b")).click()
    quiz.get_by_role("button", name="Check again").click()
    expect(quiz.get_by_text("✓ Right on the second try!")).to_be_visible()  # right, but not on the first try

    choose_questions(page, "Score this hand")  # the menu moves on
    expect(page.locator(".st-quiz.st-quiz-score")).to_have_count(1)
    page.get_by_role("button", name="Practice what I miss").click()
    expect(page.locator(".st-quiz.st-quiz-trick-winner")).to_have_count(1)
    expect(page.locator(".st-quiz.st-quiz-score")).to_have_count(0)
    expect(line).to_contain_text("Practice what I miss, question 1 of 10: Who wins the trick?, missed last time")
    expect(line).to_contain_text(f"Question {seed + 1} ")


def test_a_practice_session_reloaded_at_its_last_question_ends_on_its_summary(page: Page, voila_server: Server) -> None:
    """A session begun before a reload, nine questions in (each a miss of "who wins the trick", every other
    kind well known): the page goes on at question 10, and after it sums the session up."""
    known = known_but_one("trick-winner")
    stored = Progress()
    for n, a in enumerate(known.answers):  # given ten minutes ago
        stored.record(a.kind, a.preset, a.item, a.correct, when=time.time() - 600 + n)
    began = time.time() - 60  # a session begun a minute ago
    stored.settings.practice_from = began
    for n in range(SESSION_LENGTH - 1):
        stored.record("trick-winner", "jokers", f"trick-winner:jokers:{n}/1", False, when=began + 1 + n)
    page.add_init_script(f"window.localStorage.setItem({json.dumps(STORAGE_KEY)}, {json.dumps(stored.to_json())});")
    open_app(page, voila_server, "/?page=quiz")
    line = page.locator(".st-note").filter(has_text="Question").first
    expect(line).to_contain_text(f"Practice what I miss, question {SESSION_LENGTH} of {SESSION_LENGTH}: Who wins")
    seed = int(re.search(r"Question (\d+) ", line.inner_text()).group(1))  # type: ignore[union-attr]
    item = generate("trick-winner", st.Rules.preset("jokers"), seed, 1)
    quiz = page.locator(".st-quiz.st-quiz-trick-winner")
    quiz.get_by_role("radio", name=re.compile(rf"^{re.escape(item.answer().name)}\b")).click()
    quiz.get_by_role("button", name="Check answer").click()
    expect(quiz.get_by_text("✓ Right!")).to_be_visible()
    page.get_by_role("button", name="See how the session went ▶").click()
    summary = page.locator(".st-session-summary")
    expect(summary).to_contain_text("Practice session done")
    expect(summary).to_contain_text(f"1 of {SESSION_LENGTH} right on the first try.")
    expect(summary.locator("tbody tr")).to_have_count(1)
    expect(summary).to_contain_text("Who wins the trick?")
    expect(summary).to_contain_text("Practise next: ")
    expect(summary).to_contain_text(re.compile(r"Today: \d+ (of \d+ answers|answers, the daily goal)"))
    again = page.get_by_role("button", name="Another session ▶")
    expect(again).to_be_focused()
    expect(page.get_by_role("button", name="Next question ▶")).to_have_count(0)
    problems = axe_findings(page, "a practice session's summary")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((375, 812), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        summary.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"practice-summary-{width}.png"))
        problems += [f"at {width} px: {p}" for p in page.evaluate(PROBLEMS)]
    assert problems == []
    # the session is over, and saved so: the app opened again (a tab without this test's stored record
    # written at its start) does not bring it back
    again = page.context.new_page()
    open_app(again, voila_server, "/?page=quiz")
    # the answer given here; the stored record reaches a fresh tab's kernel once its storage widget has
    # loaded, which on a loaded machine takes as long as a first page does
    expect(again.locator(".st-scoreboard")).to_contain_text(
        f" / {stored.answered + 1} · ", timeout=FIRST_EXPECT_TIMEOUT_MS
    )
    line = again.locator(".st-note").filter(has_text="Question").first
    expect(line).to_contain_text("Question ")
    expect(line).not_to_contain_text("Practice what I miss")
    again.get_by_role("button", name="Practice what I miss").click()
    expect(line).to_contain_text(f"Practice what I miss, question 1 of {SESSION_LENGTH}: ")
    again.close()


def test_home_shows_the_kinds_due_today_and_reviews_them_first(page: Page, voila_server: Server) -> None:
    """Practice across days: "Score this hand" answered right ten days ago is due (FSRS asked for it
    two days later); every other kind answered today is not. Home says so, and its button starts a
    practice session on that kind."""
    stored = known_but_one("score")
    stored.record("score", "jokers", "score:jokers:1/1", True, when=time.time() - 10 * 86_400)
    page.add_init_script(f"window.localStorage.setItem({json.dumps(STORAGE_KEY)}, {json.dumps(stored.to_json())});")
    open_app(page, voila_server, "/")
    due = page.locator(".st-home-due")
    # part of the first render where a record is stored: the record reaches the kernel from the page's store
    # once drawn, and the kernel works out what is due (a CI run under load took over the default 20 s once)
    expect(due).to_contain_text(
        "Due today: 1 kind of question to review (Score this hand).", timeout=FIRST_EXPECT_TIMEOUT_MS
    )
    problems = axe_findings(page, "Home with a kind due for review")
    for width, height in ((375, 812), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        due.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"home-due-{width}.png"))
        problems += [f"at {width} px: {p}" for p in page.evaluate(PROBLEMS)]
    assert problems == []
    page.get_by_role("button", name="Review what is due ▶").click()
    expect(page.locator(".st-quiz.st-quiz-score")).to_have_count(1)
    line = page.locator(".st-note").filter(has_text="Question").first
    expect(line).to_contain_text("Practice what I miss, question 1 of 10: Score this hand, due for review today")
