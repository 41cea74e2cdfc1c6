"""The Progress page in Chromium: empty at first, with a way to the quiz; after one right and one wrong
answer on the Quiz page, the three plots (mastery, reviews across days, answers over time) drawn with
their readings and the streaks right; after a reload (a
new kernel) ``?page=progress`` draws the same figures from what the browser kept. axe finds nothing; at a
phone's 375 px and at 1920 px nothing is cut off. Screenshots go to ``test-artifacts/screenshots/progress/``."""

from __future__ import annotations

import base64
import csv
import io
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import FIRST_EXPECT_TIMEOUT_MS, SCREENSHOTS, Server, choose_questions
from .test_a11y import axe_findings, go, open_app
from .test_app_journeys import answer_score_quiz
from .test_layout import PROBLEMS

pytestmark = pytest.mark.browser

SHOTS = SCREENSHOTS / "progress"

#: each plot of the page: its traces' names, x and y, as plotly drew them
FIGURES = """() => [...document.querySelectorAll('.st-progress-page .js-plotly-plot')]
  .map(el => el.data.map(t => [t.name, Array.from(t.x), Array.from(t.y)]))"""


def shoot(page: Page, label: str) -> list[str]:
    """Screenshots at a phone's and a wide screen's width; what PROBLEMS finds at each."""
    found = []
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((375, 812), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(600)
        page.screenshot(path=str(SHOTS / f"{label}-{width}.png"), full_page=True)
        found += [f"{label} at {width} px: {p}" for p in page.evaluate(PROBLEMS)]
        sideways = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        if sideways > 1:
            found.append(f"{label} at {width} px: the page scrolls {sideways} px sideways")
        # the whole page at that width (the app scrolls inside its own box, which a full-page shot misses)
        page.set_viewport_size({"width": width, "height": 2600})
        page.wait_for_timeout(600)
        page.screenshot(path=str(SHOTS / f"{label}-{width}-whole.png"))
    return found


def figures(page: Page) -> list[Any]:
    plots = page.locator(".st-progress-page .js-plotly-plot")
    expect(plots).to_have_count(3, timeout=FIRST_EXPECT_TIMEOUT_MS)
    return page.evaluate(FIGURES)


def check_progress(page: Page) -> None:
    """The page after one right first try and one miss at Score this hand."""
    progress = page.locator(".st-progress-page")
    expect(progress.locator(".st-reading").first).to_have_text(
        "Score this hand: level 1 of 3, box 1 of 5. 1 of 12 quiz kinds tried.", timeout=FIRST_EXPECT_TIMEOUT_MS
    )
    # answered today: nothing due, and the next review on a later day (FSRS's first interval, two days)
    expect(progress.locator(".st-reading").nth(1)).to_contain_text(
        "Nothing is due for review today. Least likely to be remembered now: Score this hand, about 100%; "
        "its next review is on "
    )
    expect(progress.locator(".st-reading").nth(2)).to_have_text(
        "2 answers in 1 session: 1 right first try, 0 on the second try, 1 missed."
    )
    streaks = progress.locator("table", has_text="Streaks and tries")
    for what, n in (("Current streak", 0), ("Best streak", 1), ("Right first try", 1), ("Right on the second try", 0)):
        expect(streaks.locator("tr", has=page.locator(f"th:text-is('{what}')")).locator("td")).to_have_text(str(n))
    expect(progress.locator("table", has_text="Answers per quiz kind").locator("tbody tr :is(th, td)")).to_have_text(
        ["Score this hand", "2", "1"]
    )


def test_progress_is_drawn_after_quizzing_and_comes_back_after_a_reload(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/?page=progress")
    expect(page.get_by_text("No answers yet.")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.locator(".st-progress-page .js-plotly-plot")).to_have_count(0)
    found = axe_findings(page, "the Progress page with no answer")
    problems = shoot(page, "empty")
    page.locator("button.st-progress-quiz").click()
    expect(page.get_by_label("Questions:")).to_be_visible()  # the Quiz yourself page

    choose_questions(page, "Score this hand")
    answer_score_quiz(page, right=True)
    expect(page.get_by_text("✓ Right!")).to_be_visible()
    page.get_by_role("button", name="Next question ▶").click()
    answer_score_quiz(page, right=False)
    expect(page.get_by_text("✗ Not quite.")).to_be_visible()

    go(page, "Progress")
    drawn = figures(page)
    names = [[trace[0] for trace in figure] for figure in drawn]
    assert names == [
        ["level reached (1 to 3)", "box (1 to 5)"],
        ["due for review today", "due on a later day"],
        ["right first try", "right on the second try", "missed"],
    ]
    assert [trace[1:] for trace in drawn[0]] == [[[1], ["Score this hand"]], [[1], ["Score this hand"]]]
    assert [trace[1:] for trace in drawn[1]] == [[[], []], [[100], ["Score this hand"]]]
    assert [trace[2] for trace in drawn[2]] == [[1], [0], [1]]
    check_progress(page)
    # each figure is named by its reading; its data opens from the keyboard
    figure = page.locator(".st-progress-page [role=figure]").first
    expect(figure).to_have_attribute(
        "aria-label", "Score this hand: level 1 of 3, box 1 of 5. 1 of 12 quiz kinds tried."
    )
    summary = page.locator(".st-progress-page summary", has_text="Data of this plot").first
    summary.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".st-progress-page details").first.locator("tbody tr :is(th, td)")).to_have_text(
        ["Score this hand", "1", "1", "2", "1"]
    )
    download = page.get_by_role("link", name="Download mastery (CSV)")
    href = download.get_attribute("href") or ""
    rows = list(csv.reader(io.StringIO(base64.b64decode(href.split(",", 1)[1]).decode("utf-8"))))
    assert rows[0] == ["kind", "level", "box", "answered", "right first try", "second try", "missed"]
    assert ["score", "1", "1", "2", "1", "0", "1"] in rows
    expect(page.get_by_role("link", name="Download every answer (CSV)")).to_have_attribute(
        "download", "spades-tutor-answers.csv"
    )
    found += axe_findings(page, "the Progress page after two answers")
    problems += shoot(page, "answered")

    page.set_viewport_size({"width": 1280, "height": 900})
    open_app(page, voila_server, "/?page=progress")  # a new kernel: the answers come from the browser
    assert figures(page) == drawn
    check_progress(page)
    found += axe_findings(page, "the Progress page after a reload")
    assert found == []
    assert problems == []


def test_the_page_counts_days_on_the_browsers_clock(browser: Browser, voila_server: Server) -> None:
    """A browser in Auckland (UTC+13 in January) that kept two answers given at 11:00 and 13:00 UTC on
    1 Jan 2025: on its clock they are 2 Jan, at midnight and 2 a.m., one day of two sessions; the axis
    names the clock. The page's time zone reaches the kernel with what the browser kept."""
    import json

    from spades_tutor.session.progress import Progress
    from spades_tutor.ui.app import STORAGE_KEY

    kept = Progress()
    for when, right in ((1_735_729_200.0, True), (1_735_736_400.0, False)):  # 1 Jan 2025, 11:00 and 13:00 UTC
        kept.record("score", "jokers", f"score:jokers:{int(when)}/1", right, when=when)
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, timezone_id="Pacific/Auckland")
    try:
        context.add_init_script(f"localStorage.setItem({json.dumps(STORAGE_KEY)}, {json.dumps(kept.to_json())})")
        page = context.new_page()
        open_app(page, voila_server, "/?page=progress")
        progress = page.locator(".st-progress-page")
        expect(progress.locator(".st-reading").nth(2)).to_have_text(
            "2 answers in 2 sessions: 1 right first try, 0 on the second try, 1 missed; "
            "the latest (02:00): 0 of 1 right first try.",
            timeout=FIRST_EXPECT_TIMEOUT_MS,
        )
        expect(progress.locator(".js-plotly-plot")).to_have_count(3)
        timeline = progress.locator(".js-plotly-plot").nth(2)
        expect(timeline.locator(".g-xtitle")).to_have_text("session of answers, by its start (Pacific/Auckland)")
        assert page.evaluate(FIGURES)[2][0][1] == ["00:00", "02:00"]
        # answered long ago: due today, on the same clock
        expect(progress.locator(".st-reading").nth(1)).to_contain_text("1 kind due for review today: Score this hand.")
    finally:
        context.close()
