"""Fixtures shared by the tests of the app built in this process (tests/browser/ has its own conftest)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
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


# make check's profile: the property tests that size their runs with property_examples.examples() try a quarter
# of their examples (Hypothesis's own default profile, which make test uses, tries them all)
settings.register_profile("quick", max_examples=QUICK_EXAMPLES)

BROWSER_TESTS = "browser"  # the folder whose every test drives Chromium or a real server


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test under tests/browser/ is a browser test, marked or not, so ``-m "not browser"`` runs none of them."""
    for item in items:
        if BROWSER_TESTS in item.path.parent.parts[-1:] and item.get_closest_marker("browser") is None:
            item.add_marker(pytest.mark.browser)
