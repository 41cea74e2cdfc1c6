"""Fixtures shared by the tests of the app built in this process (tests/browser/ has its own conftest)."""

from __future__ import annotations

import queue
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
import shared_measurements
from hypothesis import settings
from property_examples import QUICK_EXAMPLES

if TYPE_CHECKING:
    from spades_tutor.ui.app import App


@pytest.fixture
def opened() -> Iterator[list[App]]:
    """Apps built by a test; their error sinks are removed afterwards."""
    from spades_tutor.ui import errors  # imported by the tests that build an app, not by every test

    apps: list[App] = []
    yield apps
    for app in apps:
        errors.remove_sink(app.show_error)


@pytest.fixture(autouse=True)
def no_live_analysis_outlives_its_test() -> Iterator[None]:
    """The cards a test's Play page queued for the live analysis are dropped when the test ends.

    Each card South plays is sent to the analysis' worker process (``analysis.LiveAnalysis``), which
    may spend up to ``LIVE_SECONDS`` of a core on it. A test that reads the verdicts waits for them
    itself; the cards of the other tests that play a hand were judged for no one, on the core the next
    tests run on. The worker starts a new process for the next card that comes.
    """
    yield
    analysis = sys.modules.get("spades_tutor.analysis")  # never imported here for a test that did not
    if analysis is None:
        return
    worker = analysis._WORKER
    with worker.lock:  # (cards are queued under the lock)
        while True:
            try:
                job, _task = worker.queue.get_nowait()
            except queue.Empty:
                break
            job.cancel()
        process = worker.process
    if process is not None and process.poll() is None:
        process.kill()  # the card it is on fails with a RuntimeError no one reads
        process.wait()


# make check's profile: the property tests that size their runs with property_examples.examples() try a quarter
# of their examples (Hypothesis's own default profile, which make test uses, tries them all)
settings.register_profile("quick", max_examples=QUICK_EXAMPLES)

BROWSER_TESTS = "browser"  # the folder whose every test drives Chromium or a real server


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test under tests/browser/ is a browser test, marked or not, so ``-m "not browser"`` runs none of them."""
    for item in items:
        if BROWSER_TESTS in item.path.parent.parts[-1:] and item.get_closest_marker("browser") is None:
            item.add_marker(pytest.mark.browser)


# --- the measured quiz kinds' measurements, shared by the run's workers (shared_measurements.py) ---
# "best-bid" and "nil-safe" play each hand they measure hundreds of times, and many test files generate
# the same items again, in each xdist worker: for this one run, a hand measured by one worker is read
# from disk by the others. The directory is made when the run starts and deleted when it ends, never
# read by another run (a change to the code must never be hidden by an old result); a test that measures
# the cost of generating is marked ``uncached_measurements`` and runs with the product's own functions.


def pytest_configure(config: pytest.Config) -> None:
    shared_measurements.configure(config)


@pytest.hookimpl(optionalhook=True)  # an xdist hook: the controller hands each worker the run's directory
def pytest_configure_node(node: object) -> None:
    shared_measurements.configure_node(node)


def pytest_unconfigure(config: pytest.Config) -> None:
    shared_measurements.unconfigure(config)


@pytest.fixture(autouse=True)
def uncached_measurements_when_marked(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test marked ``uncached_measurements`` measures with the product's own functions, caches emptied."""
    with shared_measurements.for_test(request.node):
        yield
