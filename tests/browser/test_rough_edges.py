"""Rough edges a new user hit, in Chromium: an empty answer is not graded, and progress is only
forgotten when the learner confirms it.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import FIRST_EXPECT_TIMEOUT_MS, Server, choose_questions
from .test_app_journeys import open_app

pytestmark = pytest.mark.browser


def open_quiz(page: Page, server: Server, kind: str) -> None:
    open_app(page, server)
    page.get_by_role("button", name="Quiz yourself", exact=True).click()
    choose_questions(page, kind)
    expect(page.locator(".st-quiz.st-quiz-trick-winner")).to_have_count(1)


def answer_trick_winner(page: Page) -> None:
    """Pick a card of the trick shown (right or wrong) and check it; after "try again", another card."""
    quiz = page.locator(".st-quiz").first
    first = quiz.get_by_role("radio").first
    first.click()
    expect(first).to_have_attribute("aria-checked", "true")
    quiz.get_by_role("button", name="Check answer").click()
    expect(quiz.get_by_text(re.compile(r"✓ Right!|✗ Not quite\.|try again"))).to_be_visible()
    if quiz.get_by_text("✗ Not quite — try again.").count():
        second = quiz.get_by_role("radio").nth(1)
        second.click()
        expect(second).to_have_attribute("aria-checked", "true")
        quiz.get_by_role("button", name="Check again").click()
    expect(quiz.get_by_text(re.compile(r"✓ Right|✗ Not quite\."))).to_be_visible()


def test_check_answer_with_nothing_chosen_asks_for_a_card_and_counts_nothing(page: Page, voila_server: Server) -> None:
    open_quiz(page, voila_server, "Who wins the trick?")
    expect(page.get_by_text("Score 0 / 0 · streak 0")).to_be_visible()
    quiz = page.locator(".st-quiz").first
    check = quiz.get_by_role("button", name=re.compile(r"^Check (answer|again)$"))  # "again" after a wrong first try
    check.click()
    expect(quiz.get_by_text("Choose a card first.")).to_be_visible()
    expect(quiz.get_by_text("Not quite")).to_have_count(0)
    expect(check).to_be_enabled()  # the question is still open
    expect(page.get_by_text("Score 0 / 0 · streak 0")).to_be_visible()
    answer_trick_winner(page)
    expect(page.get_by_text(re.compile(r"Score [01] / 1 · streak [01]"))).to_be_visible()
    expect(check).to_be_disabled()


def test_reset_progress_asks_first_and_cancel_keeps_everything(page: Page, voila_server: Server) -> None:
    open_quiz(page, voila_server, "Who wins the trick?")
    answer_trick_winner(page)
    score = page.locator(".st-scoreboard")
    expect(score).to_contain_text(" / 1 ")
    before = score.inner_text()
    page.get_by_role("button", name="Reset progress").click()
    yes = page.get_by_role("button", name="Yes, forget everything")
    cancel = page.get_by_role("button", name="Cancel")
    expect(yes).to_be_visible()
    expect(cancel).to_be_visible()
    expect(page.get_by_role("alert")).to_contain_text("Forget every answer")
    expect(score).to_have_text(before)  # one click forgets nothing
    cancel.click()
    expect(yes).to_have_count(0)
    expect(score).to_have_text(before)
    page.get_by_role("button", name="Reset progress").click()
    page.get_by_role("button", name="Yes, forget everything").click()
    expect(page.get_by_text("Score 0 / 0 · streak 0 · best streak 0")).to_be_visible()
    expect(page.get_by_role("button", name="Reset progress")).to_be_visible()
    page.reload()  # forgotten in the browser too
    open_app(page, voila_server)
    page.get_by_role("button", name="Quiz yourself", exact=True).click()
    expect(page.get_by_text("Score 0 / 0 · streak 0 · best streak 0")).to_be_visible()


def test_a_new_deal_in_the_classroom_starts_on_its_first_step(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/?deal=4127W&preset=jokers")
    where = page.locator(".st-proj-where")
    expect(where).to_contain_text("step 0 of 56", timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.get_by_text("Ask the class before each card").click()
    for n in range(1, 5):
        page.get_by_role("button", name="Next ▶").click()
        expect(where).to_contain_text(f"step {n} of 56")
    page.get_by_role("button", name="Next ▶").click()
    expect(page.locator(".st-proj-question")).to_contain_text("What may North play?")
    page.get_by_role("button", name="Reveal the answer").click()
    expect(page.locator(".st-proj-reasons")).to_contain_text("North may not lead")  # of the seat, not "you"
    page.get_by_label("Deal id:").fill("77")
    page.get_by_role("button", name="Show this deal").click()
    expect(where).to_contain_text("Deal 77 ")
    expect(where).to_contain_text("step 0 of 56")
    expect(page.locator(".st-proj-sentence")).to_contain_text("Deal 77, Spades with Jokers")
    expect(page.locator(".st-proj-question")).to_have_count(0)
    expect(page.locator(".st-proj-reasons")).to_have_count(0)


def test_bid_with_nothing_chosen_says_so(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/?page=play")
    page.get_by_role("button", name="Deal ▶").click()
    expect(page.get_by_text("Sure tricks:")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.get_by_role("button", name="Bid", exact=True).click()
    expect(page.get_by_text("Choose a bid first.")).to_be_visible()
    expect(page.get_by_text("Your bid:")).to_be_visible()  # still South's turn to bid
    expect(page.get_by_text("You bid")).to_have_count(0)
