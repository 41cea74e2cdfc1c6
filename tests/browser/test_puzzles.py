"""The Puzzles page in Chromium: a puzzle solved wrong (the solver's refutation shown), then right;
a ``?puzzle=`` link opened in a fresh browser; axe on each state; the page at 375 and 1920 px.

The puzzles and their answers come from the shipped set, proven by the solver in
``tests/test_puzzles.py``; the test only plays the learner.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

import spades_tutor as st
from spades_tutor.puzzles import Puzzle, shipped

from .conftest import FIRST_EXPECT_TIMEOUT_MS, SCREENSHOTS, Server
from .test_a11y import axe_findings
from .test_layout import PROBLEMS

pytestmark = pytest.mark.browser

SHOTS = SCREENSHOTS / "puzzles"
#: a puzzle with a trick in progress and at least one wrong legal card
PUZZLE = next(p for p in shipped() if p.trick and len(p.legal_plays()) > len(p.answers))


def open_puzzle(page: Page, server: Server, query: str) -> None:
    page.goto(server.url(f"/?{query}"), timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
    expect(page.locator(".st-puzzle-page")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)


def my_card(page: Page, c: st.Card) -> Locator:
    return page.locator(".st-puzzle-table").get_by_role("radio", name=re.compile(rf"^{re.escape(c.name)}\b"))


def shown_names(page: Page, hand_label: str) -> list[str]:
    cards = page.get_by_role("radiogroup", name=hand_label).get_by_role("radio")
    if not cards.count():
        cards = page.get_by_role("list", name=hand_label).get_by_role("listitem")
    # each card's name, without what the page adds to it (", legal")
    return [(cards.nth(i).get_attribute("aria-label") or "").split(",")[0] for i in range(cards.count())]


def test_a_puzzle_solved_wrong_then_right_shows_the_refutation_then_the_answer(
    page: Page, voila_server: Server
) -> None:
    p = PUZZLE
    page.set_viewport_size({"width": 1366, "height": 1400})
    open_puzzle(page, voila_server, f"puzzle={p.code}")
    expect(page.locator(".st-puzzle-head")).to_contain_text(f"Puzzle {p.id}")
    expect(page.locator(".st-puzzle-goal")).to_contain_text(p.sentence())
    found = axe_findings(page, "a puzzle as it opens")

    wrong = next(c for c in p.legal_plays() if c not in p.answers)
    my_card(page, wrong).click()
    page.get_by_role("button", name="Check card").click()
    verdict = page.locator(".st-puzzle-verdict")
    expect(verdict).to_contain_text(f"Not the {wrong.name}")
    expect(verdict).to_contain_text("Try once more")
    lines = page.locator(".st-puzzle-lines")
    expect(lines).to_contain_text("Why not:")
    # the refutation played on the cards: the first trick with the wrong card in it, every hand shown
    expect(lines.locator(".st-line-where")).to_contain_text(f"Trick 1 of {p.tricks_left}: After your {wrong.name}")
    expect(lines.get_by_role("group", name="trick 1 of the line")).to_be_visible()
    expect(lines.locator(".st-line-hand")).to_have_count(4)
    for i in range(2, p.tricks_left + 1):
        lines.get_by_role("button", name="Trick ▶").click()
        expect(lines.locator(".st-line-where")).to_contain_text(f"Trick {i} of {p.tricks_left}:")
    expect(lines.get_by_role("button", name="Trick ▶")).to_be_disabled()
    expect(lines).to_contain_text("wins the trick")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "refuted-1366.png"))
    expect(page.locator(".st-puzzle-verdict.st-live")).to_have_count(1)  # read out by a screen reader
    found += axe_findings(page, "a wrong card refuted")

    right = p.answers[-1]
    my_card(page, right).click()
    page.get_by_role("button", name="Check card").click()
    expect(verdict).to_contain_text(f"Right: the {right.name} works")
    for c in p.answers:
        expect(verdict).to_contain_text(c.name)
    expect(lines).to_contain_text("The winning line:")
    expect(lines.locator(".st-line-where")).to_contain_text(f"Trick 1 of {p.tricks_left}: After your {right.name}")
    expect(page.get_by_role("button", name="Check card")).to_be_disabled()
    found += axe_findings(page, "the puzzle solved")

    page.get_by_text("Show all hands").click()
    for seat in st.Seat:
        if seat != p.learner:
            expect(page.get_by_role("list", name=f"{seat.name.title()}'s hand", exact=True)).to_be_visible()
    found += axe_findings(page, "all hands shown")
    problems = []
    for width, height in ((375, 2000), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(400)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"solved-{width}.png"))
        problems += [f"at {width} px: {x}" for x in page.evaluate(PROBLEMS)]
    assert found == []
    assert not problems, "\n".join(problems)


def test_a_puzzle_link_opens_the_same_puzzle_in_a_fresh_browser(browser: Any, voila_server: Server) -> None:
    """The page shows the whole link and copies it; the copied link, opened in a fresh browser, shows
    the same puzzle."""
    p: Puzzle = shipped()[9]
    label = f"your hand ({p.learner.name.title()}): choose a card to play"
    seen = []
    url = voila_server.url(f"/?puzzle={p.code}")
    for _ in range(2):
        context = browser.new_context(viewport={"width": 375, "height": 1400})
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=voila_server.url("/").rstrip("/"))
        try:
            page = context.new_page()
            page.goto(url, timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
            expect(page.locator(".st-puzzle-page")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
            expect(page.locator(".st-puzzle-head")).to_contain_text(f"Puzzle {p.id}")
            box = page.get_by_role("textbox", name="Share this puzzle: link")
            expect(box).to_have_value(re.compile(rf"^http://[^?]+/\?puzzle={re.escape(p.code)}$"))
            page.get_by_role("button", name="Copy link").click()
            expect(page.locator(".st-share-said")).to_have_text("Link copied.")
            url = page.evaluate("() => navigator.clipboard.readText()")
            assert url == box.input_value()
            seen.append(shown_names(page, label))
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "link-375.png"))
        finally:
            context.close()
    assert seen[0] == seen[1] == [c.name for c in p.hands[p.learner]]  # the copied link opened the same puzzle


def test_a_damaged_puzzle_link_says_so_and_opens_the_daily_puzzle(page: Page, voila_server: Server) -> None:
    page.set_viewport_size({"width": 1366, "height": 1400})
    open_puzzle(page, voila_server, "puzzle=AQAs%3Cb%3Ebroken")
    expect(page.locator(".st-link-note")).to_contain_text("could not be read")
    expect(page.locator(".st-puzzle-head")).to_contain_text("Puzzle ")
    page.get_by_role("button", name="Next puzzle").click()
    jokers = [p for p in shipped() if p.rules_name == "jokers"]
    expect(page.locator(".st-puzzle-head")).to_contain_text(
        re.compile(rf"Puzzle \d+ of {len(jokers)} for this choice")  # the learner's rule set, the app's default
    )
    assert axe_findings(page, "a damaged link, then the next puzzle") == []
