"""In Chromium: a kind missed on the Quiz page is what "Practice what I miss" serves next.

The answers given are the engine's (the quiz generator's item for the question shown); the
test only plays the learner.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import Server, choose_questions
from .test_app_journeys import open_trick_question

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
    expect(line).to_contain_text("Practice what I miss: Who wins the trick?, missed last time")
    expect(line).to_contain_text(f"Question {seed + 1} ")
