"""A lesson link in a rule set, in Chromium: the step follows the rule set or says which one it shows."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

import spades_tutor as st
from spades_tutor.lessons import load_lessons, rule_set_note

from .conftest import FIRST_EXPECT_TIMEOUT_MS, SCREENSHOTS, Server

pytestmark = pytest.mark.browser

LESSONS = {lesson.number: lesson for lesson in load_lessons()}


def open_step(page: Page, server: Server, lesson: int, title: str, preset: str) -> None:
    step = next(i for i, s in enumerate(LESSONS[lesson].steps) if s.title == title) + 1
    page.goto(server.url(f"/?lesson={lesson}&step={step}&preset={preset}"), timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_text(f"Step {step} of {len(LESSONS[lesson].steps)}")).to_be_visible(
        timeout=FIRST_EXPECT_TIMEOUT_MS
    )


@pytest.mark.parametrize("width", [800, 1366, 1920])
def test_lesson_1_in_classic_and_deuces_high_says_what_it_shows(page: Page, voila_server: Server, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 1200})
    classic, jokers, deuces = (st.Rules.preset(n) for n in ("classic", "jokers", "deuces-high"))
    # classic: the jokers step is shown in the jokers rule set, under a note that says so
    open_step(page, voila_server, 1, "The big joker and the little joker", "classic")
    note = page.locator(".st-shown-in")
    expect(note).to_have_count(1)
    expect(note).to_have_text(str(rule_set_note(jokers, classic)))
    jokers_shown = page.get_by_role("list", name="The big joker and the little joker").get_by_role("listitem")
    expect(jokers_shown.first).to_have_attribute("aria-label", "big joker")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"lesson-1-classic-{width}.png"))
    # deuces-high: the words name the cards the picture takes out, with no note
    open_step(page, voila_server, 1, "Two twos out, two jokers in", "deuces-high")
    expect(page.get_by_text("Take out the two of clubs and the two of hearts")).to_be_visible()
    taken = page.get_by_role("list", name="cards taken out")
    expect(taken.get_by_role("listitem")).to_have_count(len(deuces.removed))
    for i, c in enumerate(deuces.removed):
        expect(taken.get_by_role("listitem").nth(i)).to_have_attribute("aria-label", c.name)
    expect(page.locator(".st-shown-in")).to_have_count(0)
    page.screenshot(path=str(SCREENSHOTS / f"lesson-1-deuces-high-{width}.png"))
    # classic: the hearts are the classic deck's, the two of hearts included
    open_step(page, voila_server, 2, "The other suits rank as usual", "classic")
    hearts = classic.suit_cards(st.Suit.HEARTS)
    shown = page.get_by_role("list", name="The hearts in Regular Spades, highest first")
    expect(shown.get_by_role("listitem")).to_have_count(len(hearts))
    expect(shown.get_by_role("listitem").last).to_have_attribute("aria-label", hearts[-1].name)
    expect(page.locator(".st-shown-in")).to_have_count(0)
    page.screenshot(path=str(SCREENSHOTS / f"lesson-2-classic-{width}.png"))
