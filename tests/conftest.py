"""Fixtures shared by the tests of the app built in this process (tests/browser/ has its own conftest)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

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
