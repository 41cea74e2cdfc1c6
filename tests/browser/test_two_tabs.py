"""One learner, two tabs of the app in one browser: each tab has its own kernel and its own copy of
the progress, and both save into one localStorage key. What one tab saves is merged into the other,
never written over; a stored record the app cannot load is set aside, never erased without a word.

Expected answers come from the engine (the quiz generators); the test only plays the learner.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

import spades_tutor as st
from spades_tutor.lessons import load_lessons
from spades_tutor.quiz.generators import generate
from spades_tutor.ui.app import ASIDE_KEY, STORAGE_KEY

from .conftest import FIRST_EXPECT_TIMEOUT_MS, KNOWN_HARMLESS_PAGE_ERRORS, Server, choose_questions

pytestmark = pytest.mark.browser

LESSONS = {lesson.number: lesson for lesson in load_lessons()}
STORED = "k => window.localStorage.getItem(k)"


def store_before_loading(context: BrowserContext, key: str, value: str) -> None:
    """``value`` in localStorage before the app's page loads (the first blank page has no storage)."""
    context.add_init_script(
        f"if (location.protocol.startsWith('http')) window.localStorage.setItem({json.dumps(key)}, {json.dumps(value)});"
    )


@pytest.fixture
def context(browser: Any) -> Iterator[BrowserContext]:
    """One browser context: its pages are tabs of one browser, sharing one localStorage. An uncaught
    error in any of them fails the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 1400})
    errors: list[str] = []
    context.on("page", lambda page: page.on("pageerror", lambda error: errors.append(str(error))))
    yield context
    context.close()
    assert not [e for e in errors if not any(p.search(e) for p in KNOWN_HARMLESS_PAGE_ERRORS)], errors


def open_tab(context: BrowserContext, server: Server, path: str) -> Page:
    page = context.new_page()
    page.set_default_timeout(FIRST_EXPECT_TIMEOUT_MS)
    page.goto(server.url(path), timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
    expect(page.locator(".st-brand")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_role("button", name="Home")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    return page


def answer_trick_questions(page: Page, count: int) -> None:
    """On Quiz yourself: pick "Who wins the trick?" and answer ``count`` questions right."""
    choose_questions(page, "Who wins the trick?")
    line = page.locator(".st-note").filter(has_text="Question").first
    for n in range(1, count + 1):
        quiz = page.locator(".st-quiz.st-quiz-trick-winner")
        expect(quiz).to_have_count(1)
        seed = int(re.search(r"Question (\d+)", line.inner_text()).group(1))
        item = generate("trick-winner", st.Rules.preset("jokers"), seed, 1)
        quiz.get_by_role("radio", name=re.compile(rf"^{re.escape(item.answer().name)}\b")).click()
        quiz.get_by_role("button", name="Check answer").click()
        expect(quiz.get_by_text("✓ Right!")).to_be_visible()
        expect(page.get_by_text(f"Score {n} / {n} · streak {n}")).to_be_visible()
        before = line.inner_text()
        page.get_by_role("button", name="Next question ▶").click()
        expect(line).not_to_have_text(before)


def stored_record(page: Page) -> dict[str, Any]:
    return dict(json.loads(page.evaluate(STORED, STORAGE_KEY) or "{}"))


def wait_for_stored(page: Page, condition: str, arg: Any = None) -> None:
    """Wait until the stored progress record (``r``, parsed) meets ``condition``, a JavaScript expression."""
    page.wait_for_function(
        f"([k, arg]) => {{ const r = JSON.parse(window.localStorage.getItem(k) || '{{}}'); return {condition}; }}",
        arg=[STORAGE_KEY, arg],
        timeout=FIRST_EXPECT_TIMEOUT_MS,
    )


def test_a_tab_opened_earlier_keeps_the_answers_and_lesson_steps_of_another_tab(
    context: BrowserContext, voila_server: Server
) -> None:
    """The issue's scenario: answers and lesson steps in tab A, then Next in tab B, opened before:
    after a reload both are still there, and tab B said what it merged in."""
    lesson_b, lesson_a = LESSONS[2], LESSONS[3]
    tab_b = open_tab(context, voila_server, "/?lesson=2")
    expect(tab_b.get_by_text(f"Step 1 of {len(lesson_b.steps)}")).to_be_visible()
    tab_a = open_tab(context, voila_server, "/?page=quiz")
    answer_trick_questions(tab_a, 3)
    tab_a.get_by_role("button", name="Learn", exact=True).click()
    tab_a.get_by_role("button", name=re.compile(rf"^3\. {re.escape(lesson_a.title)}")).click()
    last = len(lesson_a.steps)
    for n in range(1, last):
        expect(tab_a.get_by_text(f"Step {n} of {last}")).to_be_visible()
        tab_a.get_by_role("button", name="Next ▶").click()
    expect(tab_a.get_by_text(f"Step {last} of {last}")).to_be_visible()  # the lesson read to its last step
    wait_for_stored(tab_a, "r.lessons && r.lessons[arg[0]] === arg[1]", [lesson_a.slug, last - 1])

    tab_b.bring_to_front()
    tab_b.get_by_role("button", name="Next ▶").click()  # tab B saves its record
    expect(tab_b.get_by_text(f"Step 2 of {len(lesson_b.steps)}")).to_be_visible()
    note = tab_b.locator(".st-link-note")
    expect(note).to_have_text("Your progress from another tab was merged in: 3 answers and 1 lesson read further.")
    wait_for_stored(tab_b, "r.lessons && r.lessons[arg[0]] === 1", [lesson_b.slug])
    record = stored_record(tab_b)
    assert len(record["answers"]) == 3 and record["lessons"][lesson_a.slug] == last - 1, record

    tab_b.reload()  # what both tabs saved comes back
    expect(tab_b.get_by_text(f"Step 2 of {len(lesson_b.steps)}")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    tab_b.get_by_role("button", name="◀ All lessons").click()
    expect(tab_b.get_by_role("button", name=re.compile(r"^3\. .* ✓$"))).to_be_visible()  # lesson 3 read to the end
    tab_b.get_by_role("button", name="Quiz yourself", exact=True).click()
    expect(tab_b.get_by_text("Score 3 / 3 · streak 3")).to_be_visible()


def test_a_stored_record_too_large_to_load_is_set_aside_with_a_note(
    context: BrowserContext, voila_server: Server
) -> None:
    big = json.dumps({"format": "spades-tutor/progress", "answers": [], "padding": "x" * 600_000})
    store_before_loading(context, STORAGE_KEY, big)
    page = open_tab(context, voila_server, "/?page=quiz")
    expect(page.locator(".st-link-note")).to_have_text(
        f"The progress saved in this browser was too large to load ({len(big):,} characters), so it was set aside "
        f"in this browser's storage under “{ASIDE_KEY}”, not erased."
    )
    assert page.evaluate(STORED, ASIDE_KEY) == big
    answer_trick_questions(page, 1)  # the app goes on, and saves
    wait_for_stored(page, "(r.answers || []).length === 1")
    assert page.evaluate(STORED, ASIDE_KEY) == big


def test_an_unreadable_stored_record_is_set_aside_once_with_a_note(
    context: BrowserContext, voila_server: Server
) -> None:
    store_before_loading(context, STORAGE_KEY, "not json")
    page = open_tab(context, voila_server, "/?page=quiz")
    note = page.locator(".st-link-note")
    expect(note).to_contain_text(
        "The progress saved in this browser could not be read, so it starts afresh."
        "The progress saved in this browser, as it was stored, was set aside in this browser's storage under "
        f"“{ASIDE_KEY}”, not erased."
    )
    assert page.evaluate(STORED, ASIDE_KEY) == "not json"
    # a record set aside before stays: the unreadable record the init script stores again on the
    # reload is not set aside over it (one record set aside at most), and the note says so
    page.evaluate(f"window.localStorage.setItem({json.dumps(ASIDE_KEY)}, 'not json either')")
    page.reload()
    expect(page.locator(".st-brand")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(note).to_contain_text(
        "as it was stored, could not be set aside: a record set aside before is kept in this browser's storage "
        f"under “{ASIDE_KEY}”, so it is replaced by this page's progress at its next save."
    )
    assert page.evaluate(STORED, ASIDE_KEY) == "not json either"
