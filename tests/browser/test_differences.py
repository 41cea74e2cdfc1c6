"""The Your table page in Chromium: a house rule set's difference drawn at both tables side by side (one
above the other on a phone), and its quiz answered, then the other table's answer shown."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import FIRST_EXPECT_TIMEOUT_MS, SCREENSHOTS, Server
from .test_a11y import axe_findings
from .test_layout import PROBLEMS

pytestmark = pytest.mark.browser

SHOTS = SCREENSHOTS / "differences"


def open_table(page: Page, server: Server, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(server.url("/?page=table&preset=deuces-high"), timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_role("heading", name="What changes at your table")).to_be_visible(
        timeout=FIRST_EXPECT_TIMEOUT_MS
    )
    expect(page.get_by_role("heading", name="2♣ 2♥ out instead of 2♥ 2♦: 16 trumps instead of 15")).to_be_visible()


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (375, 812)], ids=["laptop", "phone"])
def test_the_two_tables_sit_side_by_side_on_a_laptop_and_stack_on_a_phone(
    page: Page, voila_server: Server, width: int, height: int
) -> None:
    open_table(page, voila_server, width, height)
    sides = page.locator(".st-diff-columns").first.locator(".st-diff-side")
    expect(sides).to_have_count(2)
    mine, theirs = (sides.nth(i).bounding_box() for i in range(2))
    assert mine is not None and theirs is not None
    if width > 800:
        assert abs(mine["y"] - theirs["y"]) < 2 and theirs["x"] > mine["x"] + 300  # side by side
    else:
        assert theirs["y"] > mine["y"] + 100 and abs(theirs["x"] - mine["x"]) < 2  # one above the other
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"deuces-high-{width}.png"), full_page=True)
    assert page.evaluate(PROBLEMS) == []


def test_a_quiz_answer_shows_the_other_tables_answer_and_the_page_has_no_axe_finding(
    page: Page, voila_server: Server
) -> None:
    open_table(page, voila_server, 1366, 900)
    quiz = page.locator(".st-quiz").first
    quiz.scroll_into_view_if_needed()
    assert axe_findings(page, "your table") == []
    cards = quiz.get_by_role("radio")
    cards.nth(0).click()
    quiz.get_by_role("button", name="Check answer").click()
    expect(quiz.locator(".st-feedback")).to_be_visible()
    if quiz.locator(".st-fb-retry").count():  # a wrong first try: another card
        cards.nth(1).click()
        quiz.get_by_role("button", name="Check again").click()
    contrast = page.locator(".st-diff-contrast-text")
    expect(contrast).to_contain_text("In Spades with Jokers the answer is")
    assert axe_findings(page, "your table, answered") == []
