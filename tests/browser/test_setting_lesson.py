"""Lesson 14 in Chromium: ``?lesson=14`` opens it and Next steps through to the end; every step has no
axe finding and, at a phone's 375 px and a projector's 1920×1080, nothing clipped or scrolling sideways.
Screenshots go to ``test-artifacts/screenshots/lesson-14/``."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from spades_tutor.lessons import load_lessons

from .conftest import FIRST_EXPECT_TIMEOUT_MS, SCREENSHOTS, Server
from .test_a11y import axe_findings, open_app
from .test_layout import PROBLEMS

pytestmark = pytest.mark.browser

LESSON = next(lesson for lesson in load_lessons() if lesson.number == 14)
SHOTS = SCREENSHOTS / "lesson-14"


def shoot(page: Page, label: str) -> list[str]:
    """Full-page screenshots at 375 px and at 1920×1080; what PROBLEMS finds at each."""
    found = []
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((375, 812), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(400)
        page.screenshot(path=str(SHOTS / f"{label}-{width}.png"), full_page=True)
        found += [f"{label} at {width} px: {p}" for p in page.evaluate(PROBLEMS)]
    return found


def test_lesson_14_steps_through_with_no_axe_finding_at_a_phone_and_a_projector(
    page: Page, voila_server: Server
) -> None:
    open_app(page, voila_server, "/?lesson=14")
    total = len(LESSON.steps)
    expect(page.get_by_text(f"Step 1 of {total}")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    found: list[str] = []
    for n, step in enumerate(LESSON.steps, start=1):
        expect(page.get_by_text(f"Step {n} of {total}")).to_be_visible()
        expect(page.locator(".st-step-title")).to_have_text(step.title)
        found += axe_findings(page, f"lesson 14 step {n}")
        found += shoot(page, f"step-{n}")
        if n < total:
            page.get_by_role("button", name="Next ▶").click()
    assert not found, "\n".join(found)
