"""In Chromium: a wrong answer on the Quiz page that a known misconception gives is named on its own line.

The answer typed is the one the engine gives under the wrong premise (the misconception's
own). As a first miss, the line shown names the mistake without the answer (the part of the
item's diagnosis before the fact it states), beside the hint; the second try, right, is
scored as a second try. The test only plays the learner.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

import spades_tutor as st
from spades_tutor.quiz.generators import generate
from spades_tutor.quiz.misconceptions import premises

from .conftest import Server, choose_questions
from .test_app_journeys import open_app

pytestmark = pytest.mark.browser


def _wrong_with_a_diagnosis(
    seed: int,
) -> tuple[dict[st.Team, tuple[int, int]], str, dict[st.Team, tuple[int, int]]] | None:
    """An answer to the score question ``seed`` that a misconception gives, the sentence it earns, and the right one."""
    item = generate("score", st.Rules.preset("jokers"), seed, 1)
    right = item.given(item.answer())
    for wrong in premises(item).values():
        if wrong is not None and wrong != right:
            said = item.diagnose({t.short: v for t, v in wrong.items()})
            assert said is not None
            return wrong, said, right
    return None


def test_a_misconceived_score_shows_the_diagnosis_line_first(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server)
    page.get_by_role("button", name="Quiz yourself", exact=True).click()
    choose_questions(page, "Score this hand")
    found: Any = None
    for _ in range(12):  # most questions have a bag to miscount; move on until one does
        expect(page.locator(".st-quiz.st-quiz-score")).to_have_count(1)
        line = page.locator(".st-note").filter(has_text="Question").first
        expect(line).to_be_visible()
        text = line.inner_text()
        found = _wrong_with_a_diagnosis(int(re.search(r"Question (\d+)", text).group(1)))
        if found is not None:
            break
        page.get_by_role("button", name="Next question ▶").click()
        expect(line).not_to_have_text(text)
    assert found is not None, "no score question with a misconception to show in twelve"
    wrong, said, item_answer = found
    for team in st.Team:
        points, bags = wrong[team]
        page.get_by_label(f"{team.label} points:").fill(str(points))
        page.get_by_label("bags after:").nth(int(team)).fill(str(bags))
    page.get_by_role("button", name="Check answer").click()
    # a first miss (the second try is on by default): the mistake is named, the answer is not given
    expect(page.get_by_text("✗ Not quite — try again.")).to_be_visible()
    named = re.split(r": |, so ", said, maxsplit=1)[0].rstrip(". ") + "."
    expect(page.locator(".st-fb-retry .st-fb-diagnosis")).to_have_text(named)
    expect(page.locator(".st-fb-retry .st-hint")).to_be_visible()
    # the second try, right this time, is scored as a second try
    right = item_answer
    for team in st.Team:
        points, bags = right[team]
        page.get_by_label(f"{team.label} points:").fill(str(points))
        page.get_by_label("bags after:").nth(int(team)).fill(str(bags))
    page.get_by_role("button", name="Check again").click()
    expect(page.get_by_text("✓ Right on the second try!")).to_be_visible()
    expect(page.get_by_role("status").filter(has_text="on the second try 1")).to_be_visible()
