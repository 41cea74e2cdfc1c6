"""A lesson opened from a link, read on, then the kernel dies: the Reload of the lost connection opens
the step the learner was on, not the step the link named (the place kept in the browser wins over the
address, which still names the link's lesson and step)."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from spades_tutor.lessons import load_lessons
from spades_tutor.ui.app import PLACE_KEY
from spades_tutor.ui.heartbeat import TIMEOUT_S

from .conftest import APP, FIRST_EXPECT_TIMEOUT_MS, Server, free_port, kernel_id_from_html, start_server

pytestmark = pytest.mark.browser

LESSON = next(lesson for lesson in load_lessons() if lesson.number == 4)
# the heartbeat's timeout and a ping's round trip on a busy machine
LOST_WITHIN_MS = int(TIMEOUT_S * 1000) + 25_000


@pytest.fixture
def own_server() -> Iterator[Server]:
    """A Voilà server of this test's own: one of its kernels gets killed."""
    cmd = [sys.executable, "-m", "voila", APP.notebook, f"--port={free_port()}", "--no-browser"]
    server = start_server("voila-lesson-link-reload", cmd)
    yield server
    server.stop()


def step_shown(page: Page, n: int) -> None:
    expect(page.get_by_text(f"Step {n} of {len(LESSON.steps)}")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_text(LESSON.steps[n - 1].title, exact=True)).to_be_visible()


@pytest.mark.parametrize("link", [f"/?lesson={LESSON.number}", f"/?lesson={LESSON.number}&step=2"])
def test_the_reload_after_the_kernel_died_reopens_the_step_the_learner_was_on(
    page: Page, own_server: Server, link: str
) -> None:
    page.goto(own_server.url(link), timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
    first = 2 if "step" in link else 1
    step_shown(page, first)
    for n in range(first + 1, first + 3):  # Next twice
        page.get_by_role("button", name="Next ▶").click()
        step_shown(page, n)
    page.wait_for_function(
        "([key, step]) => (window.localStorage.getItem(key) || '').includes(`\"step\": ${step}`)",
        arg=[PLACE_KEY, first + 1],  # the place stored (0-based step) before the kernel dies
    )
    own_server.kernels()[kernel_id_from_html(page.content())].kill()
    banner = page.get_by_role("alertdialog", name="Connection lost")
    expect(banner).to_be_visible(timeout=LOST_WITHIN_MS)
    banner.get_by_role("button", name="Reload").click()
    expect(page.get_by_text(f"Lesson {LESSON.number}: {LESSON.title}")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    step_shown(page, first + 2)
    expect(page.locator(".st-lost")).to_have_count(0)
