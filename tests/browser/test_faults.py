"""Faults, in Chromium: a reload reopens the learner's page; a dead kernel or server is said, with a reload."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from spades_tutor.lessons import load_lessons

from .conftest import FIRST_EXPECT_TIMEOUT_MS, Server

pytestmark = pytest.mark.browser

LESSONS = {lesson.number: lesson for lesson in load_lessons()}


def open_app(page: Page, server: Server, path: str = "/") -> None:
    page.goto(server.url(path), timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
    expect(page.locator(".st-brand")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)


def south_cards(page: Page) -> Locator:
    return page.locator(".st-play").get_by_role("radio")


def shown_page(page: Page) -> Locator:
    """The app's tab that is pressed."""
    return page.locator(".st-nav-tabs button.mod-active")


def test_a_reload_mid_hand_reopens_play_with_the_game(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server)
    page.get_by_role("button", name="Play", exact=True).click()
    page.get_by_role("button", name="Deal ▶").click()
    expect(page.get_by_text("Sure tricks:")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.locator(".st-play .widget-toggle-buttons button").nth(3).click()
    page.get_by_role("button", name="Bid", exact=True).click()
    expect(south_cards(page)).to_have_count(13)
    page.locator(".st-play .st-mark-legal").first.click()
    expect(south_cards(page)).to_have_count(12)
    page.reload()  # a new kernel; the address names no page
    open_app(page, voila_server)
    expect(page.get_by_text("Welcome back")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(shown_page(page)).to_have_text("Play")
    expect(south_cards(page)).to_have_count(12)


def test_a_reload_reopens_the_lesson_step(page: Page, voila_server: Server) -> None:
    lesson = LESSONS[3]
    open_app(page, voila_server)
    page.get_by_role("button", name="Learn", exact=True).click()
    page.get_by_role("button", name=re.compile(rf"^3\. {re.escape(lesson.title)}")).click()
    page.get_by_role("button", name="Next ▶").click()
    expect(page.get_by_text(f"Step 2 of {len(lesson.steps)}")).to_be_visible()
    page.reload()
    open_app(page, voila_server)
    expect(page.get_by_text(f"Lesson 3: {lesson.title}")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_text(f"Step 2 of {len(lesson.steps)}")).to_be_visible()
    expect(page.get_by_text(lesson.steps[1].title, exact=True)).to_be_visible()
    expect(shown_page(page)).to_have_text("Learn")
