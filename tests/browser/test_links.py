"""Bad links, a bad deal id and damaged stored progress in Chromium: the app opens the nearest page and
says what it did not understand.

What each link should open comes from the lesson files; the test only opens the link as a learner would.
"""

from __future__ import annotations

import base64
import json

import pytest
from playwright.sync_api import Page, expect

from spades_tutor.lessons import load_lessons
from spades_tutor.ui.app import STORAGE_KEY

from .conftest import FIRST_EXPECT_TIMEOUT_MS, Server
from .test_app_journeys import open_app

pytestmark = pytest.mark.browser

LESSONS = {lesson.number: lesson for lesson in load_lessons()}
LAST = max(LESSONS)


def test_a_mistyped_link_opens_the_nearest_lesson_with_a_note(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/?lesson=99&preset=nope&evil=%3Cb%3E")
    expect(page.get_by_text(f"Lesson {LAST}: {LESSONS[LAST].title}")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    note = page.locator(".st-link-note")
    expect(note).to_contain_text(
        f"This link asked for lesson 99; there are {len(LESSONS)} lessons, so here is lesson {LAST}."
    )
    expect(note).to_contain_text("the rule set 'nope', which the app does not know")
    expect(note).to_contain_text("left out: 'evil'")
    expect(page.locator(".st-link-note b")).to_have_count(0)  # what the link held is shown as text
    expect(note).to_be_in_viewport()  # at the top of the page, where it is seen
    page.locator(".st-notes-slot").get_by_role("button", name="Dismiss").click()
    expect(note).to_have_count(0)


def test_a_link_to_lesson_0_opens_the_game_itself(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/?lesson=0")
    expect(page.get_by_text(f"Lesson 0: {LESSONS[0].title}")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_text(f"Step 1 of {len(LESSONS[0].steps)}")).to_be_visible()
    expect(page.get_by_text(LESSONS[0].steps[0].title, exact=True)).to_be_visible()
    expect(page.locator(".st-link-note")).to_have_count(0)  # a good link, nothing to say
    page.get_by_role("button", name="◀ All lessons").click()
    expect(page.locator(".st-lesson-button").first).to_contain_text(f"0. {LESSONS[0].title}")


def test_a_step_only_isdigit_reads_as_a_number_opens_the_lesson(page: Page, voila_server: Server) -> None:
    open_app(
        page, voila_server, "/?lesson=3&step=²"
    )  # the app used to stop on "There was an error when executing cell"
    expect(page.get_by_text(f"Lesson 3: {LESSONS[3].title}")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_text(f"Step 1 of {len(LESSONS[3].steps)}")).to_be_visible()
    expect(page.locator(".st-link-note")).to_contain_text("step '²' of lesson 3, which is not a step number")
    expect(page.get_by_text("There was an error")).to_have_count(0)


def test_a_deal_id_only_isdigit_reads_as_a_number_is_explained_in_the_classroom(
    page: Page, voila_server: Server
) -> None:
    open_app(page, voila_server, "/?deal=²")
    where = page.locator(".st-proj-where")
    expect(where).to_contain_text("step 0 of 56", timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.locator(".st-link-note")).to_contain_text("deal '²', which is not a deal id")
    page.get_by_label("Deal id:").fill("12²")
    page.get_by_role("button", name="Show this deal").click()
    expect(page.locator(".st-error")).to_contain_text("'12²' is not a deal id. Try a number such as 4127")
    page.get_by_label("Deal id:").fill("93")
    page.get_by_role("button", name="Show this deal").click()
    expect(where).to_contain_text("Deal 93")


def test_damaged_stored_progress_is_reported_and_the_quiz_still_opens(page: Page, voila_server: Server) -> None:
    good = [1_700_000_000, "score", "jokers", "score:jokers:1", True]
    formula = [1_700_000_001, '=HYPERLINK("http://evil.example")', "jokers", "x", False]
    stored = {
        "format": "spades-tutor/progress",
        "version": 1,
        "answers": [good, [1e300, "score", "jokers", "x", True], [-1e20, "a", "b", "c", True], formula],
        "lessons": [1, 2],
    }
    page.add_init_script(f"window.localStorage.setItem({json.dumps(STORAGE_KEY)}, {json.dumps(json.dumps(stored))});")
    open_app(page, voila_server, "/?page=quiz")  # the time 1e300 used to stop the quiz page here
    expect(page.get_by_text("Score 1 / 2")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    note = page.locator(".st-link-note")
    expect(note).to_contain_text("2 saved answers could not be read and were left out.")
    expect(note).to_contain_text("The lessons reached could not be read")
    href = page.get_by_text("Export this page's answers (CSV)").get_attribute("href") or ""
    rows = base64.b64decode(href.split("base64,", 1)[1]).decode().splitlines()
    assert rows[1].startswith("2023-11-14 22:13:20,score,jokers,")
    assert rows[2].startswith("2023-11-14 22:13:21,\"'=HYPERLINK(")
