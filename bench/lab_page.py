"""Benchmark: the Joker lab page in Chromium, from a click to every plot drawn, against the work behind it.

Two measurements, each in a fresh page of the app (``/?page=lab``, served by ``voila notebooks/app.ipynb``
from the repository root, so with the repository's ``voila.json``: a pooled kernel, as a learner gets):

- **Run the lab** at the default settings (Spades with Jokers against Regular Spades, 20,000 rounds each
  at random and 2,000 nils each played by the heuristic bots, seed 1): from the click until all five plots are drawn in the page (each plot's SVG holds its traces)
  and the status line reports the run. Peer: OpenSpiel's ``spades`` playing 20,000 random rounds from
  Python (``bench/peer.py``), measured in the same run, alternating with the page. Target: ratio <= 1.0.
- **Play the bots** at its default size (500 rounds and 50 games in each rule set): from the click until
  its three plots are drawn. Peer: the same bot experiments (``bidding_accuracy`` and
  ``games_to_target``, same rule sets, sizes and seed) run in this process, measured in the same run.
  Target: ratio <= 1.5 (what the page adds to its own simulation: sending, drawing).

Between measurements the bench frees the page's kernel, waits for the pool to refill and for the
server to go quiet. It prints medians and the ratios, and exits 0 whether or not the targets are met.

Run it from the project root::

    .venv/bin/python bench/lab_page.py              # 3 rounds after 1 warm-up
    .venv/bin/python bench/lab_page.py --reps 5
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import (
    APP_NOTEBOOK,
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    Server,
    start_server,
    wait_pool_filled,
    wait_quiet,
    wait_ready,
)
from peer import load_pyspiel_game, pyspiel_hands

LAB_PATH = "/?page=lab"
RUN = 'role=button[name="Run the lab ▶"]'
BOTS = 'role=button[name="Play the bots ▶"]'
LAB_ROUNDS = 20_000  # the page's default sample, and OpenSpiel's rounds
LAB_PLOTS = 5
BOT_PLOTS = 3
LAB_TARGET = 1.0
BOT_TARGET = 1.5

LAB_SECTION = ".st-lab-results:not(.st-bot-results)"
BOT_SECTION = ".st-bot-results"

# every plot of the section is drawn with its data: its SVG holds at least one trace (the page
# shows the plots empty until they are filled)
DRAWN = """([selector, count]) => {
  const plots = document.querySelectorAll(selector + ' .js-plotly-plot');
  return plots.length >= count &&
    [...plots].every(p => p.querySelectorAll('.cartesianlayer .trace').length > 0);
}"""


@dataclass
class Sample:
    page_s: float
    peer_s: float

    @property
    def ratio(self) -> float:
        return self.page_s / self.peer_s


def openspiel_rounds(game: Any, seed: int) -> float:
    """Seconds OpenSpiel takes to play ``LAB_ROUNDS`` random rounds (deal, bids, plays)."""
    _hands, elapsed = pyspiel_hands(game, random.Random(seed), hands_wanted=LAB_ROUNDS)
    return elapsed


def bot_simulation(first: str = "jokers", second: str = "classic", rounds: int = 500, games: int = 50) -> float:
    """Seconds the bots' experiments take here, exactly as the page runs them (default sizes, seed 1)."""
    from spades_tutor import Rules
    from spades_tutor.lab.bot_experiments import bidding_accuracy, games_to_target

    start = time.perf_counter()
    for name in (first, second):
        rules = Rules.preset(name)
        bidding_accuracy(rules, rounds, 1)
        games_to_target(rules, games, 1)
    return time.perf_counter() - start


def click_to_drawn(browser: Any, server: Server, button: str, section: str, plots: int, timeout_s: float) -> float:
    """Open the lab in a fresh page, click ``button``, and time until ``plots`` plots of ``section`` are drawn."""
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    kernel_id = None
    try:
        page = context.new_page()
        page.set_default_timeout(timeout_s * 1000)
        try:
            page.goto(server.url + LAB_PATH.lstrip("/"), wait_until="commit")
            target = page.locator(button).first
            target.wait_for(state="visible")
            while not target.is_enabled():
                time.sleep(0.01)
            kernel_id = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
            server.consumed += 1
            start = time.perf_counter()
            target.click()
            page.wait_for_function(DRAWN, arg=[section, plots], polling="raf")
            elapsed = time.perf_counter() - start
        except Exception:
            shot = ARTIFACTS / "bench-lab-page-failure.png"
            page.screenshot(path=str(shot))
            print(f"bench/lab_page.py: the page at the failure: {shot}", file=sys.stderr)
            raise
    finally:
        context.close()
    if kernel_id:
        server.shutdown_kernel(kernel_id)
    return elapsed


def summary(label: str, samples: list[Sample], peer: str, target: float) -> None:
    page = statistics.median(s.page_s for s in samples)
    other = statistics.median(s.peer_s for s in samples)
    ratio = statistics.median(s.ratio for s in samples)
    verdict = "met" if ratio <= target else "NOT met"
    print(f"{label:<44}{page:>8.2f} s   {peer:<40}{other:>8.2f} s   {ratio:>6.2f}x  (target <= {target}x: {verdict})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "Lab page benchmark").splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="measured rounds (default 3)")
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured rounds first (default 1)")
    parser.add_argument("--timeout", type=float, default=180, help="seconds allowed for each page and server step")
    args = parser.parse_args(argv)

    if not os.access(CHROMIUM, os.X_OK):
        print(f"bench/lab_page.py: {CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 1
    game = load_pyspiel_game()
    if game is None:
        print("bench/lab_page.py: open-spiel is not installed (make test installs it)", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    server = start_server("lab-page", APP_NOTEBOOK)
    lab: list[Sample] = []
    bots: list[Sample] = []
    pw = sync_playwright().start()
    try:
        wait_ready(server, args.timeout)
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)

        def settle() -> None:
            wait_pool_filled(server, args.timeout)
            wait_quiet([server], args.timeout)

        for i in range(args.warmup + args.reps):
            measured = i >= args.warmup
            name = f"round {i - args.warmup + 1}" if measured else "warm-up"
            # alternate which side goes first, so a drifting machine favours neither
            settle()
            if i % 2 == 0:
                page = click_to_drawn(browser, server, RUN, LAB_SECTION, LAB_PLOTS, args.timeout)
                settle()
                peer = openspiel_rounds(game, i)
            else:
                peer = openspiel_rounds(game, i)
                settle()
                page = click_to_drawn(browser, server, RUN, LAB_SECTION, LAB_PLOTS, args.timeout)
            sample = Sample(page, peer)
            print(f"{name:<9} Run the lab   {page:6.2f} s  OpenSpiel 20,000 rounds {peer:6.2f} s  {sample.ratio:5.2f}x")
            if measured:
                lab.append(sample)
            settle()
            if i % 2 == 0:
                page = click_to_drawn(browser, server, BOTS, BOT_SECTION, BOT_PLOTS, args.timeout)
                settle()
                peer = bot_simulation()
            else:
                peer = bot_simulation()
                settle()
                page = click_to_drawn(browser, server, BOTS, BOT_SECTION, BOT_PLOTS, args.timeout)
            sample = Sample(page, peer)
            print(f"{name:<9} Play the bots {page:6.2f} s  its simulation here     {peer:6.2f} s  {sample.ratio:5.2f}x")
            if measured:
                bots.append(sample)
            sys.stdout.flush()
        browser.close()
    except Exception as e:
        print(f"bench/lab_page.py: {type(e).__name__}: {e}\nserver log: {server.log_path}", file=sys.stderr)
        return 1
    finally:
        pw.stop()
        server.stop()

    print()
    print(f"Joker lab page, click to every plot drawn, in Chromium {CHROMIUM}: medians of {args.reps} rounds")
    summary("Run the lab (2 x 20,000 rounds, 5 plots)", lab, "OpenSpiel, 20,000 random rounds", LAB_TARGET)
    summary("Play the bots (2 x 500 rounds + 50 games)", bots, "the same bot experiments here", BOT_TARGET)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
