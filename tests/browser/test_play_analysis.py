"""'Where did that trick go?' in Chromium: a hand played to the end on the Play page, then judged
card by card by the solver, a marked card shown with its better alternative, at 375 and 1920 px.

The verdicts come from the app's solver; the test only plays the learner (the last legal card each
time, which gives tricks away often enough) and reads what the page says.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from spades_tutor.ui.landmarks import LIVE

from .conftest import FIRST_EXPECT_TIMEOUT_MS, SCREENSHOTS, Server
from .test_a11y import axe_findings
from .test_app_journeys import go_on_from_a_kept_trick, open_app, south_cards
from .test_layout import PROBLEMS

pytestmark = [pytest.mark.browser, pytest.mark.timed]  # the solver judges within seconds: with fewer workers beside it

SHOTS = SCREENSHOTS / "play-analysis"
ANALYSIS_TIMEOUT_MS = 60_000  # the solver's 10 s, more on a busy machine
# A careless hand (bid 3, the last legal card each time) gives a goal away in about 45% of deals (18 of
# 40 deals played so with the engine's bots and judged by ``analyse``): the first marked hand ends the
# loop, so a run usually plays two; ten make a miss about one run in 400.
HANDS = 10


def play_a_hand(page: Page, hint_at: int | None = None) -> None:
    """Deal, bid 3, and play South's last legal card every time, to the score sheet; with ``hint_at``,
    ask for a hint when South holds that many cards (late in the hand: measured on layouts)."""
    page.get_by_role("button", name="Deal ▶").click()  # a new game: one hand
    expect(page.get_by_text("Sure tricks:")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    # the mode's two buttons, then the bids: Nil, 1, 2, 3
    page.locator(".st-play .widget-toggle-buttons button").nth(5).click()
    page.get_by_role("button", name="Bid", exact=True).click()
    for left in range(13, 0, -1):
        expect(south_cards(page)).to_have_count(left)
        go_on_from_a_kept_trick(page)
        if left == hint_at:
            page.get_by_role("button", name="Hint").click()
            said = page.locator(".st-play .st-proj-question")
            expect(said).to_contain_text(re.compile(r"^Hint: play \S+\. "))
            # the figure in plain words (what is read, the glossary's closed definitions left out)
            expect(said).to_contain_text(
                re.compile(
                    r"(in about \d+% of|almost (never|always) \(in (fewer than 1|more than 99) in 100 of) the ways "
                    r"the unseen cards may lie[ (;]+likely between \d+% and \d+%\)"
                ),
                use_inner_text=True,
            )
            expect(said).to_contain_text(", measured by a simulation.", use_inner_text=True)
            expect(said).not_to_contain_text(re.compile(r"\bseed\b|layout|95%", re.IGNORECASE), use_inner_text=True)
            # its technical words open their definitions in place
            term = said.locator("button.st-term", has_text=re.compile(r"^simulation$", re.IGNORECASE))
            term.click()
            expect(term).to_have_attribute("aria-expanded", "true")
            expect(said.locator(".st-term-def").filter(has_text="Simulation:")).to_be_visible()
            # beside it, closed, how it was measured: the deals, the seed, the interval
            how = page.locator(".st-play .st-play-said details.st-measured")
            expect(how).to_have_count(1)
            expect(how).not_to_have_attribute("open", "")
            how.locator("summary").click()
            expect(how).to_contain_text(re.compile(r"A simulation: \d+ deals of the cards you cannot see"))
            expect(how).to_contain_text(re.compile(r"Seed \d+: the seed picks the shuffles"))
            expect(how).to_contain_text("Wilson")
            assert axe_findings(page, "the measured hint, its definition and method open") == []
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.set_viewport_size({"width": 375, "height": 900})
            said.scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / "hint-375.png"))
            page.set_viewport_size({"width": 1280, "height": 1400})
        page.locator(".st-play .st-mark-legal").last.click()
    page.get_by_role("button", name="See the score ▶").click()  # the hand's last trick, then its score
    expect(page.get_by_text("Score sheet")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)


def test_a_finished_hand_is_judged_and_a_marked_card_shows_its_better_card(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/?page=play")
    verdicts = page.locator(".st-play .st-verdicts .st-verdict")
    marked = page.locator(".st-play .st-verdict-bad")
    for hand in range(HANDS):
        play_a_hand(page, hint_at=3 if hand == 0 else None)
        page.get_by_role("button", name="Where did that trick go?").click()
        expect(verdicts).to_have_count(13, timeout=ANALYSIS_TIMEOUT_MS)
        if marked.count():
            break
    else:
        pytest.fail(f"none of {HANDS} carelessly played hands had a card the solver marked")
    results = page.locator(".st-play .st-analysis")
    expect(results).to_have_class(re.compile(rf"\b{LIVE}\b"))  # a live region: a screen reader reads the verdicts
    expect(results.get_by_role("status")).to_contain_text("Judged exactly:")
    # the cards were judged during the hand, by the kernel's worker process
    expect(results.get_by_role("status")).to_contain_text(re.compile(r"\((\d+) of them while you played\)"))
    # the analysis' words of measurement link to the glossary, and how the hand was judged is beside it
    expect(
        page.locator(".st-play button.st-term", has_text=re.compile(r"^solver$", re.IGNORECASE)).first
    ).to_be_visible()
    judged = results.locator("details.st-measured")
    expect(judged).to_have_count(1)
    judged.locator("summary").click()
    expect(judged).to_contain_text("Double dummy: every hand known, both sides at their best.", use_inner_text=True)
    first = marked.first
    expect(first).to_contain_text(
        re.compile(
            r"(Lost the nil|Lost partner's nil|Lost the contract|Lost the set|Let \w+'s nil through): .+ would have "
            r"(kept|held|broken)"
        )
    )
    # the solver's line after the card played (an early card's line may run out of budget, and says so)
    expect(marked.filter(has_text=re.compile(r"After \S+, ")).first).to_be_visible()
    expect(verdicts.first).to_contain_text("Trick 1, ")
    # a line is a button: its click turns the replay to that trick and brings the replay into view
    trick = int(re.match(r"Trick (\d+),", first.inner_text()).group(1))  # type: ignore[union-attr]
    first.click()
    replay = page.locator(".st-play .st-stepper")
    expect(replay.locator(".st-step-title")).to_contain_text(f"Trick {trick} of 13")
    expect(replay.locator(".st-trick-next, .st-trick-prev").and_(page.locator(":focus"))).to_have_count(1)
    expect(replay.locator(".st-step-title")).to_be_in_viewport()
    assert axe_findings(page, "the hand judged") == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    for width, height in ((375, 900), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(400)
        first.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"judged-{width}.png"))
        problems += [f"at {width} px: {p}" for p in page.evaluate(PROBLEMS)]
    assert not problems, "\n".join(problems)
