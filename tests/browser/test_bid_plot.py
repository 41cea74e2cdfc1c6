"""In Chromium: after a "What would you bid?" answer, on the Quiz page and in lesson 6, a small plot of
what each bid scores is drawn, named by its reading; its data table opens from the keyboard; no axe
finding; at 375 px (a phone) and 1920 px (a projector) the plot fills its width and the page never
scrolls sideways. Screenshots go to ``test-artifacts/screenshots/bid-plot/``."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

import spades_tutor as st
from spades_tutor.lab.bid_plot import BID_PLOT_HEIGHT
from spades_tutor.quiz.base import Plot
from spades_tutor.quiz.generators import generate
from spades_tutor.ui.app import DIFFICULTY_NAMES

from .conftest import FIRST_EXPECT_TIMEOUT_MS, SCREENSHOTS, Server, choose_questions
from .test_a11y import axe_findings, open_app
from .test_app_journeys import first_quiz
from .test_layout import PROBLEMS
from .test_plot_tables import tab_to

pytestmark = pytest.mark.browser

SHOTS = SCREENSHOTS / "bid-plot"


def answer_bid(page: Page, quiz: Locator, bid: int) -> None:
    quiz.get_by_label("Your bid:").fill(str(bid))
    quiz.get_by_role("button", name="Check answer").click()
    expect(quiz.locator(".st-fb-head")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)


def check_measured(quiz: Locator) -> None:
    """The feedback says its figures plainly, links its words of measurement to the glossary, and
    keeps the detail (the deals, the seed, Wilson's interval) behind a closed disclosure."""
    result = quiz.locator(".st-result")
    plain = re.compile(r"\bseed\b|heuristic|layout|95%|\b400\b", re.IGNORECASE)
    expect(result).not_to_contain_text(plain, use_inner_text=True)  # what is read: no detail, no definition
    term = result.locator("button.st-term", has_text=re.compile(r"^likely between$", re.IGNORECASE)).first
    term.click()
    expect(term).to_have_attribute("aria-expanded", "true")
    expect(result.locator(".st-term-def").filter(has_text="Likely range:").first).to_be_visible()
    how = result.locator("details.st-measured")
    expect(how).to_have_count(1)
    expect(how).not_to_have_attribute("open", "")
    how.locator("summary").click()
    expect(how).to_have_attribute("open", "")
    expect(how).to_contain_text("A simulation: 400 deals of this hand", use_inner_text=True)
    expect(how).to_contain_text("Seed 0: the seed picks the shuffles", use_inner_text=True)
    expect(how).to_contain_text("Wilson", use_inner_text=True)


def check_plot(page: Page, quiz: Locator, shown: Plot, best: int, label: str) -> list[str]:
    """The plot under ``quiz``'s feedback is drawn and named by its reading; its data opens by keyboard;
    at 375 and 1920 px it fills its width with nothing scrolling sideways. Returns the problems found."""
    reading = shown.reading
    bars = sum(len(trace["x"]) for trace in shown.spec["data"])  # nil (at 0) and 1 to 13, or 1 to 13
    figure = quiz.get_by_role("figure")
    expect(figure).to_have_attribute("aria-label", reading)
    expect(figure.locator(".js-plotly-plot .cartesianlayer .trace.bars")).to_have_count(len(shown.spec["data"]))
    expect(figure.locator(".annotation-text")).to_have_text("best")
    # one bar per bid, in two or three groups: the best bid alone, the bids counted right, the others
    expect(figure.locator(".trace.bars .point")).to_have_count(bars)
    expect(figure.locator(".trace.bars").first.locator(".point")).to_have_count(1)
    details = quiz.locator(".st-plot-data details")
    expect(details).not_to_have_attribute("open", "")
    tab_to(page, ".st-quiz .st-plot-data summary", 0)
    page.keyboard.press("Enter")
    expect(details).to_have_attribute("open", "")
    table = details.get_by_role("table")
    expect(table.locator("caption")).to_have_text(reading)
    expect(table.locator("tbody tr")).to_have_count(bars)
    expect(table.locator("tbody tr").first.locator("td").first).to_have_text(str(best))
    page.keyboard.press("Tab")  # on to the table's scroller, a named region
    expect(details.get_by_role("region")).to_be_focused()
    check_measured(quiz)
    found = axe_findings(page, f"{label}, the plot's data, a glossary term and how it was measured open")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (375, 1920):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(800)  # plotly redraws at the new width
        figure.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"{label}-{width}.png"))
        figure.screenshot(path=str(SHOTS / f"{label}-{width}-plot.png"))
        found += [f"{label} at {width} px: {p}" for p in page.evaluate(PROBLEMS)]
        plot = figure.locator(".main-svg").first.bounding_box()
        box = quiz.locator(".st-result").bounding_box()  # the feedback above: the quiz box's full width
        assert plot is not None and box is not None
        assert plot["width"] >= 0.9 * box["width"], (label, width, plot, box)
        assert abs(plot["height"] - BID_PLOT_HEIGHT) < 2, (label, width, plot)
    return found


def test_a_bid_answer_plots_what_each_bid_scores_on_the_quiz_page_and_in_lesson_6(
    page: Page, voila_server: Server
) -> None:
    rules = st.Rules.preset("jokers")
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page, voila_server, "/?page=quiz")
    choose_questions(page, "What would you bid?")
    quiz = page.locator(".st-quiz.st-quiz-best-bid")
    expect(quiz).to_have_count(1)
    expect(quiz.locator(".st-plot")).to_have_count(0)  # no plot, and no room kept for one, before answering
    line = page.locator(".st-note").filter(has_text="Question").first
    expect(line).to_be_visible()
    text = line.inner_text()
    seed = int(re.search(r"Question (\d+)", text).group(1))
    level = next(k for k, name in DIFFICULTY_NAMES.items() if name in text)
    item = generate("best-bid", rules, seed, level)
    assert 12 not in item.accepted()  # two wrong tries in a row: the answer and its plot come after the second
    quiz.get_by_label("Your bid:").fill("13")
    quiz.get_by_role("button", name="Check answer").click()
    again = quiz.get_by_role("button", name="Check again")
    expect(again).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(quiz.locator(".st-plot")).to_have_count(0)  # a first miss shows no plot: it would give the answer away
    quiz.get_by_label("Your bid:").fill("12")
    again.click()
    expect(quiz.locator(".st-fb-head")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    plot = item.feedback_view(item.check(12)).plot
    assert plot is not None
    found = check_plot(page, quiz, plot, item.answer(), "quiz")

    step, lesson_item = first_quiz(6, "best-bid")
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page, voila_server, f"/?lesson=6&step={step + 1}")
    quiz = page.locator(".st-quiz.st-quiz-best-bid").first
    expect(quiz).to_be_visible()
    answer_bid(page, quiz, lesson_item.answer())  # type: ignore[attr-defined]
    expect(quiz.get_by_text("✓ Right!")).to_be_visible()
    lesson_plot = lesson_item.feedback_view(lesson_item.check(lesson_item.answer())).plot  # type: ignore[attr-defined]
    assert lesson_plot is not None
    found += check_plot(page, quiz, lesson_plot, lesson_item.answer(), "lesson-6")  # type: ignore[attr-defined]
    assert found == []
