"""A learner builds their table's rules on Home (game to 300, no nil, a bag penalty every 5 bags, a
team bids at least 4, a bonus of 50 for 10 or more) and every page follows: lesson 9, Play (its bidding
helper says how the least team bid binds South), Quiz, the Joker lab (its menus start at the learner's
table), Puzzles (no nil theme offered), the glossary (the table's bags).
Home's builder is screenshot at a laptop's and a phone's size, and axe finds nothing on it."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import ARTIFACTS, FIRST_EXPECT_TIMEOUT_MS, Server
from .test_a11y import axe_findings, go
from .test_app_journeys import open_app


def _set(page: Page, label: str, value: int) -> None:
    field = page.get_by_label(label, exact=True)
    field.fill(str(value))
    field.press("Tab")


def test_a_table_built_on_home_reaches_every_page(page: Page, voila_server: Server) -> None:
    page.set_viewport_size({"width": 1366, "height": 768})
    open_app(page, voila_server, "/?page=home")
    expect(page.get_by_text("Your table's rules")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.get_by_label("Nil bids allowed").uncheck()
    _set(page, "Game to", 300)
    _set(page, "Bags before the penalty", 5)
    _set(page, "Least team bid", 4)
    _set(page, "Bonus for bidding 10+", 50)
    summary = page.locator(".st-rules-line")
    expect(summary).to_contain_text("no nil")
    expect(summary).to_contain_text("a team bids at least 4 together")
    expect(summary).to_contain_text("a bonus of 50 for bidding and making 10 or more")
    expect(summary).to_contain_text("5 bags cost 100")
    expect(summary).to_contain_text("game to 300")
    ARTIFACTS.mkdir(exist_ok=True)
    page.get_by_text("Your table's rules").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "house-rules-1366.png"))
    assert axe_findings(page, "Home with the rule-set builder") == []
    page.set_viewport_size({"width": 375, "height": 812})
    page.wait_for_timeout(300)
    page.get_by_text("Your table's rules").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "house-rules-375.png"))
    assert axe_findings(page, "Home's builder on a phone") == []
    page.set_viewport_size({"width": 1366, "height": 768})

    go(page, "Learn")
    page.locator(".st-lesson-button").filter(has_text="9.").first.click()
    expect(page.locator(".st-step-title")).to_contain_text("First to 300")
    expect(page.get_by_text("300 points or more")).to_be_visible()

    go(page, "Play")
    expect(page.get_by_role("button", name="Game to 300")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    # the bidding helper says how the least team bid binds South, in the engine's sentence
    page.get_by_role("button", name="Deal ▶").click()
    expect(page.get_by_text("Sure tricks:")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    helper = page.locator(".st-tip").filter(has_text="Team bid:")
    expect(helper).to_contain_text("At this table a team bids at least 4 tricks together")

    go(page, "Quiz yourself")
    expect(page.get_by_role("button", name="Next question ▶")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)

    # the Joker lab's menus start at the learner's table, its rules said under them in the engine's words
    go(page, "Joker lab")
    first = page.get_by_label("Compare", exact=True)
    expect(first).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(first.locator("option:checked")).to_have_text("Your table (Spades with Jokers, your house rules)")
    expect(page.locator(".st-lab .st-note").filter(has_text="Your table:").first).to_contain_text("game to 300")

    # puzzles: a table without nil is offered no nil theme
    go(page, "Puzzles")
    themes = page.get_by_label("Theme:")
    expect(themes).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    offered = [t.replace("\xa0", " ") for t in themes.locator("option").all_inner_texts()]
    assert "Endplay" in offered and not [t for t in offered if "nil" in t.lower()], offered

    # the glossary speaks of the table's bags
    go(page, "Glossary")
    expect(page.get_by_text("Every 5 bags a team gathers cost it 100 points").first).to_be_visible(
        timeout=FIRST_EXPECT_TIMEOUT_MS
    )
    page.reload()  # the rules are kept in the browser with the rest of the learner's record
    expect(page.get_by_role("button", name="Home")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    go(page, "Home")
    expect(page.locator(".st-rules-line")).to_contain_text("game to 300", timeout=FIRST_EXPECT_TIMEOUT_MS)
