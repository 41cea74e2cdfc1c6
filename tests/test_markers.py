"""The marks that pick the quick loop: ``-m "not browser"`` must not start Chromium.

Every test under tests/browser/ counts as ``browser`` (conftest.py); a test elsewhere that asks for
a pytest-playwright fixture would start Chromium in ``make check`` all the same, or, asking only for
a fixture of its own that shares a Playwright name (``page``), be run once per browser. This checks
the tests collected in this very run, so it speaks of whatever ``-m``, ``-k`` and paths were given.
"""

from __future__ import annotations

import pytest

#: pytest-playwright's fixtures that launch a browser or hand one out, and the browser parameter
PLAYWRIGHT_FIXTURES = frozenset(
    {"playwright", "browser_type", "launch_browser", "browser", "new_context", "context", "page", "browser_name"}
)


def test_no_test_outside_the_browser_mark_asks_for_a_playwright_fixture(request: pytest.FixtureRequest) -> None:
    items = request.session.items
    assert request.node in items
    asking = {
        item.nodeid: sorted(PLAYWRIGHT_FIXTURES.intersection(getattr(item, "fixturenames", ())))
        for item in items
        if item.get_closest_marker("browser") is None
    }
    assert {nodeid: names for nodeid, names in asking.items() if names} == {}
