"""The glossary in Chromium: a term in a lesson step opens its definition in place from the mouse and the
keyboard, the learner stays on the step, the Glossary page opens from the navigation and narrows as
the learner types; axe finds nothing; at a phone's 375 px and at 1920 px nothing scrolls sideways.
Screenshots go to ``test-artifacts/screenshots/glossary/``."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from spades_tutor.lessons.glossary import load_glossary

from .conftest import FIRST_EXPECT_TIMEOUT_MS, SCREENSHOTS, Server
from .test_a11y import axe_findings, go, open_app
from .test_layout import PROBLEMS

pytestmark = pytest.mark.browser

SHOTS = SCREENSHOTS / "glossary"


def shoot(page: Page, label: str) -> list[str]:
    """Screenshots at a phone's and a wide screen's width; what PROBLEMS finds at each."""
    found = []
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((375, 812), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(400)
        page.screenshot(path=str(SHOTS / f"{label}-{width}.png"), full_page=True)
        found += [f"{label} at {width} px: {p}" for p in page.evaluate(PROBLEMS)]
    return found


def test_a_term_opens_in_place_and_the_glossary_opens_from_the_navigation(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/?lesson=8&step=1")
    expect(page.get_by_text("Step 1 of")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    term = page.locator(".st-prose button.st-term", has_text="contract").first
    expect(term).to_have_attribute("aria-expanded", "false")
    definition = page.locator("#" + str(term.get_attribute("aria-controls")))
    expect(definition).to_be_hidden()

    # from the keyboard: a native button in the tab order; Enter opens, Escape closes and keeps focus
    assert term.evaluate("b => b.tabIndex") == 0
    term.focus()
    page.keyboard.press("Enter")
    expect(term).to_have_attribute("aria-expanded", "true")
    expect(definition).to_be_visible()
    expect(definition).to_contain_text("Contract: The partners")
    expect(definition).to_contain_text("bids added together")
    expect(page.get_by_text("Step 1 of")).to_be_visible()  # the learner is still on the step
    found = axe_findings(page, "a lesson term's definition open")
    problems = shoot(page, "lesson-term-open")
    page.keyboard.press("Escape")
    expect(definition).to_be_hidden()
    expect(term).to_be_focused()
    expect(term).to_have_attribute("aria-expanded", "false")
    # with the mouse: a click opens, a second click closes
    term.click()
    expect(definition).to_be_visible()
    term.click()
    expect(definition).to_be_hidden()

    go(page, "Glossary")
    entries = page.locator(".st-gloss-entry")
    glossary = load_glossary()
    expect(entries).to_have_count(len(glossary.terms), timeout=FIRST_EXPECT_TIMEOUT_MS)
    names = entries.locator("dfn").all_inner_texts()
    assert names == sorted(names, key=str.lower)
    assert page.locator("#glossary-joker-joker-deuce-deuce").inner_text().count("BJ LJ 2♦ 2♠") == 1
    found += axe_findings(page, "the Glossary page")
    problems += shoot(page, "glossary-page")
    page.get_by_label("Find a term:").fill("sandbag")
    expect(entries).to_have_count(1)
    expect(entries.first).to_contain_text("Bags")
    expect(page.locator(".st-gloss-count")).to_have_text("1 term matches “sandbag”")
    found += axe_findings(page, "the Glossary searched")

    go(page, "Learn")  # the lesson step is where the learner left it
    expect(page.get_by_text("Step 1 of")).to_be_visible()
    expect(page.locator(".st-prose button.st-term", has_text="contract").first).to_be_visible()
    assert found == []
    assert problems == []


def test_a_link_to_a_term_opens_the_glossary_at_it(page: Page, voila_server: Server) -> None:
    page.set_viewport_size({"width": 375, "height": 812})
    open_app(page, voila_server, "/?page=glossary#glossary-void")  # the last term: far below the fold
    entry = page.locator("#glossary-void")
    expect(entry).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(entry).to_be_in_viewport()
    expect(page.locator("#glossary-bags")).not_to_be_in_viewport()


@pytest.mark.parametrize("fragment", ["%E0%A4%A", "glossary-%zz", "<img src=x onerror=alert(1)>"])
def test_a_broken_fragment_in_a_link_leaves_the_terms_working(page: Page, voila_server: Server, fragment: str) -> None:
    # the fragment is the page's own, untrusted: one that does not decode must not stop the terms
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_app(page, voila_server, f"/?lesson=8&step=1#{fragment}")
    expect(page.get_by_text("Step 1 of")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    term = page.locator(".st-prose button.st-term", has_text="contract").first
    term.click()
    expect(term).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#" + str(term.get_attribute("aria-controls")))).to_be_visible()
    assert not [e for e in errors if "URI" in e or "glossary" in e.lower()]
