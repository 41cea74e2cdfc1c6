"""``make class``: the app served to a room, reached from another machine's address, on warmed kernels;
and the app's plots as its own server draws them (projector mode, a phone's width), which the
standalone-Voilà fixture does not: there plotly's JupyterLab renderer draws them."""

from __future__ import annotations

import contextlib
import json
import socket
import sys
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from spades_tutor.session.progress import Progress
from spades_tutor.ui.app import STORAGE_KEY

from .conftest import FIRST_EXPECT_TIMEOUT_MS, SCREENSHOTS, Server, free_port, start_server

CODE = "ROOM42"


def room_address() -> str | None:
    """This machine's IPv4 address on its network (what a learner's laptop would connect to), if any."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.254.254.254", 9))  # UDP: chooses the outgoing address, sends nothing
            address = str(s.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


@pytest.fixture(scope="module")
def class_server() -> Iterator[Server]:
    port = free_port()
    cmd = [sys.executable, "-m", "spades_tutor", "app", f"--port={port}", "--no-browser"]
    server = start_server("class-server", [*cmd, "--class-size", "2", "--ip", "0.0.0.0", "--class-code", CODE])
    server.wait_for_log(r"Kernel pool of app\.ipynb is filled with 2 kernel", timeout=120)
    yield server
    server.stop()


def test_a_learner_in_the_room_opens_a_lesson_link_on_a_warm_kernel(page: Page, class_server: Server) -> None:
    address = room_address()
    if address is None:
        pytest.skip("this machine has no network address besides loopback")
    assert "spades-tutor: serving a class of 2" in class_server.log()
    port = class_server.base_url.rsplit(":", 1)[1]
    assert f":{port}/?code={CODE}" in class_server.log()  # the link the teacher hands out
    page.goto(f"http://{address}:{port}/?lesson=4&step=2", timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_text("Ask your teacher for the class link")).to_be_visible()
    page.goto(f"http://{address}:{port}/?lesson=4&step=2&code={CODE}", timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_text("Step 2 of")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.get_by_role("button", name="Next ▶").click()
    expect(page.get_by_text("Step 3 of")).to_be_visible()  # the kernel answered the click
    kernel_id = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
    class_server.wait_for_log(rf"Using pre-heated kernel: {kernel_id} for app\.ipynb", timeout=10)


TICK_FONT = """() => {
  const tick = document.querySelector('.st-plot .js-plotly-plot .xtick text');
  return tick ? getComputedStyle(tick).fontSize : null;
}"""
# What of each plot on the page runs out of its picture or covers another part: its title, its axes'
# titles, its legend (as a phone's width or the projector's larger words can make them).
PLOT_PROBLEMS = """() => [...document.querySelectorAll('.st-plot .js-plotly-plot')].flatMap((el, i) => {
  const svg = el.querySelector('.main-svg').getBoundingClientRect(), out = [], box = s => {
    const t = el.querySelector(s); return t && t.getBoundingClientRect().width ? t.getBoundingClientRect() : null; };
  const parts = {title: box('.gtitle'), 'x title': box('.g-xtitle'), 'y title': box('.g-ytitle'), legend: box('.legend')};
  for (const [name, r] of Object.entries(parts))
    if (r && (r.left < svg.left - 1 || r.right > svg.right + 1 || r.top < svg.top - 1 || r.bottom > svg.bottom + 1))
      out.push(`plot ${i + 1}: its ${name} runs out of the plot`);
  const meet = (a, b) => a && b && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  if (meet(parts['x title'], parts.legend)) out.push(`plot ${i + 1}: the legend covers the x axis's title`);
  if (meet(parts['y title'], parts.title)) out.push(`plot ${i + 1}: the y axis's title covers the title`);
  return out;
})"""


def plots_fit(page: Page, label: str) -> list[str]:
    """Wait (up to 10 s: plotly redraws after a resize) for every plot's words to fit; what still does not.

    Called after a resize: the page gives the resize 150 ms to end before it redraws its plots, so
    wait past that first (before it, the plots still fit the old width and would pass)."""
    page.wait_for_timeout(800)
    with contextlib.suppress(PlaywrightError):
        page.wait_for_function(f"() => ({PLOT_PROBLEMS})().length === 0", timeout=10_000)
    return [f"{label}: {p}" for p in page.evaluate(PLOT_PROBLEMS)]


def shoot_plots(page: Page, label: str, within: str = ".st-lab-results") -> None:
    """A screenshot of each plot (of the Joker lab's, by default), in ``test-artifacts/screenshots/lab-plots/``."""
    (SCREENSHOTS / "lab-plots").mkdir(parents=True, exist_ok=True)
    for i, plot in enumerate(page.locator(within).first.locator(".st-plot").all()):
        plot.screenshot(path=str(SCREENSHOTS / "lab-plots" / f"{label}-{i + 1}.png"))


TICK_SIZES = "el => [...el.querySelectorAll('.xtick text, .ytick text')].map(t => getComputedStyle(t).fontSize)"


def test_projector_mode_enlarges_the_words_of_the_joker_labs_plots(page: Page, class_server: Server) -> None:
    """On the projector a plot's ticks, titles and legend grow with the page's text (14 to 21 px): when
    the mode changes under plots already drawn (as when the saved settings arrive after a plot is up),
    and when the plots are drawn in it. On the projector and on a phone, no plot's title, axis title or
    legend runs out of the plot or covers another."""
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(class_server.url(f"/?page=lab&code={CODE}"), timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
    page.get_by_label("Sample:").select_option(label="2,000 rounds each", timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.get_by_role("button", name="Run the lab ▶").click()
    plots = page.locator(".st-plot .js-plotly-plot")
    expect(plots).to_have_count(5, timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.wait_for_function(f"() => ({TICK_FONT})() === '14px'")
    page.evaluate("() => document.querySelector('.st-app').classList.add('st-app-large')")
    page.wait_for_function(f"() => ({TICK_FONT})() === '21px'")
    page.evaluate("() => document.querySelector('.st-app').classList.remove('st-app-large')")
    page.wait_for_function(f"() => ({TICK_FONT})() === '14px'")
    # the projector turned on with its checkbox: the lab's plots, drawn again on its page, are drawn large
    page.locator(".st-nav-tabs").get_by_role("button", name="Home", exact=True).click()
    page.get_by_text("Projector: large cards and text").click()
    expect(page.locator(".st-app.st-app-large")).to_be_attached()
    page.locator(".st-nav-tabs").get_by_role("button", name="Joker lab", exact=True).click()
    expect(plots).to_have_count(5)
    page.wait_for_function(f"() => ({TICK_FONT})() === '21px'")
    for plot in plots.all():
        sizes = plot.evaluate(TICK_SIZES)
        assert sizes and set(sizes) == {"21px"}, sizes
    # every plot's words fit, on the projector at 1920 and 800 px, and (projector off) on a phone
    problems: list[str] = []
    for width in (1920, 800):
        page.set_viewport_size({"width": width, "height": 1080})
        problems += plots_fit(page, f"projector, {width} px")
        shoot_plots(page, f"projector-{width}")
    page.evaluate("() => document.querySelector('.st-app').classList.remove('st-app-large')")
    page.set_viewport_size({"width": 375, "height": 800})
    page.wait_for_function(f"() => ({TICK_FONT})() === '14px'")
    problems += plots_fit(page, "375 px")
    shoot_plots(page, "375")
    assert not problems, "\n".join(problems)


# x tick labels of a plot that cover one another. Level labels must not overlap as boxes; labels plotly
# turned (to make them fit) are parallel lines of text, which are clear of each other when their
# baselines are at least a line apart.
TICKS_OVERLAP = """() => [...document.querySelectorAll('.st-plot .js-plotly-plot')].flatMap((el, i) => {
  const ticks = [...el.querySelectorAll('.xtick text')].map(t => {
    const turn = /rotate\\((-?[\\d.]+)/.exec(t.getAttribute('transform') || '');
    return {box: t.getBoundingClientRect(), angle: turn ? +turn[1] : 0, size: parseFloat(getComputedStyle(t).fontSize)};
  });
  return ticks.slice(1).flatMap((r, k) => {
    const l = ticks[k];
    const clear = l.angle === 0
      ? l.box.right <= r.box.left + 1 || l.box.bottom <= r.box.top + 1 || r.box.bottom <= l.box.top + 1
      : Math.abs((r.box.left - l.box.left) * Math.sin(l.angle * Math.PI / 180)) >= 0.9 * l.size;
    return clear ? [] : [`plot ${i + 1}: x ticks ${k + 1} and ${k + 2} overlap`];
  });
})"""


def test_the_progress_pages_plots_fit_a_phone_with_a_week_of_answers(browser: Browser, class_server: Server) -> None:
    """Six days of answers to eight kinds, kept in a phone's browser: on the Progress page at 375 px no
    day's label covers the next (plotly turns them), and no plot's words run out of it."""
    kept = Progress()
    kinds = ["score", "trick-winner", "legal-plays", "trump-order", "best-bid", "nil-safe", "may-lead", "highest-trump"]
    for day in range(6):
        for i, kind in enumerate(kinds):
            when = 1_735_729_200.0 + day * 86_400 + i * 60
            kept.record(kind, "jokers", f"{kind}:jokers:{day}{i}/1", (day + i) % 3 != 0, when=when)
    context = browser.new_context(viewport={"width": 375, "height": 812}, timezone_id="Europe/Paris")
    try:
        context.add_init_script(f"localStorage.setItem({json.dumps(STORAGE_KEY)}, {json.dumps(kept.to_json())})")
        page = context.new_page()
        page.goto(class_server.url(f"/?page=progress&code={CODE}"), timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
        plots = page.locator(".st-progress-page .js-plotly-plot")
        # mastery, the reviews across days, then the answers day by day
        expect(plots).to_have_count(3, timeout=FIRST_EXPECT_TIMEOUT_MS)
        expect(plots.nth(2).locator(".xtick text")).to_have_count(6)
        problems = plots_fit(page, "Progress, 375 px") + page.evaluate(TICKS_OVERLAP)
        shoot_plots(page, "progress-375", ".st-progress-page")
        assert not problems, "\n".join(problems)
    finally:
        context.close()
