"""In Chromium: each lab plot has a closed "Data of this plot" disclosure that the keyboard opens
(Tab to its summary, Enter), showing the table of the plot's numbers, with no axe finding open."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import FIRST_EXPECT_TIMEOUT_MS, Server
from .test_a11y import axe_findings, open_app

pytestmark = pytest.mark.browser

IS_FOCUSED = "(el) => el === document.activeElement"


def tab_to(page: Page, target: str, index: int, most: int = 80) -> None:
    """Press Tab until the ``index``-th element matching ``target`` has the focus."""
    node = page.locator(target).nth(index)
    for _ in range(most):
        if node.evaluate(IS_FOCUSED):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {target} #{index}")


def open_each_by_keyboard(page: Page, start: str, count: int, first: int = 0) -> None:
    """From the button ``start``, Tab to each plot's summary in turn and open it with Enter."""
    page.get_by_role("button", name=start).focus()
    summaries = page.locator(".st-plot-data summary")
    for i in range(first, first + count):
        tab_to(page, ".st-plot-data summary", i)
        details = page.locator(".st-plot-data details").nth(i)
        expect(details).not_to_have_attribute("open", "")
        expect(details.get_by_role("table")).to_be_hidden()  # closed: the table is not shown yet
        page.keyboard.press("Enter")
        expect(details).to_have_attribute("open", "")
        table = details.get_by_role("table")
        expect(table).to_be_visible()
        assert table.locator("tbody tr").count() > 0
        assert table.locator("th[scope=col]").count() >= 3
        # the table's caption is the plot's reading, which also names the plot's figure
        figure = page.get_by_role("figure").nth(i)
        expect(table.locator("caption")).to_have_text(figure.get_attribute("aria-label") or "")
        expect(summaries.nth(i)).to_be_focused()


def test_each_lab_plot_has_a_data_table_the_keyboard_opens_with_no_axe_finding(
    page: Page, voila_server: Server
) -> None:
    open_app(page, voila_server, "/?page=lab")
    expect(page.locator(".st-plot-data summary")).to_have_count(0)  # no data before a run
    page.get_by_label("Sample:").select_option(label="2,000 rounds each")
    page.get_by_role("button", name="Run the lab ▶").click()
    expect(page.get_by_text("simulated and measured")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.locator(".st-plot .js-plotly-plot")).to_have_count(5)
    summaries = page.locator(".st-plot-data summary")
    expect(summaries).to_have_count(5)
    expect(summaries.first).to_have_text("Data of this plot")
    open_each_by_keyboard(page, "Run the lab ▶", 5)
    found = axe_findings(page, "the lab with every plot's data open")
    # beside each plot, closed, how it was measured: the rounds, what the seed does, the interval;
    # the status line says none of it
    status = page.locator(".st-lab .st-note[role=status]").first
    expect(status).not_to_contain_text(re.compile(r"\bseed\b|\d,\d{3}", re.IGNORECASE), use_inner_text=True)
    how = page.locator(".st-lab-results details.st-measured")
    expect(how).to_have_count(5)
    for i in range(5):
        expect(how.nth(i)).not_to_have_attribute("open", "")
        how.nth(i).locator("summary").click()
        expect(how.nth(i)).to_contain_text("Seed 1: the seed picks the shuffles", use_inner_text=True)
        expect(how.nth(i)).to_contain_text("It is the Seed box above", use_inner_text=True)
        expect(how.nth(i)).to_contain_text("Wilson", use_inner_text=True)
    expect(how.first).to_contain_text("A simulation: 2,000 rounds in each rule set", use_inner_text=True)
    term = how.first.locator("button.st-term", has_text=re.compile(r"^simulation$", re.IGNORECASE))
    term.click()
    expect(term).to_have_attribute("aria-expanded", "true")
    found += axe_findings(page, "the lab with how each plot was measured open")

    page.get_by_role("button", name="Play the bots ▶").click()
    expect(page.get_by_text("played by the bots in")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(summaries).to_have_count(8)
    open_each_by_keyboard(page, "Play the bots ▶", 3, first=5)
    found += axe_findings(page, "the bots' plots with their data open")
    assert found == []
