"""How many examples a property test tries: its own count in ``make test``, a quarter of it in ``make check``.

``make check`` runs pytest with ``--hypothesis-profile=quick`` (registered in conftest.py), whose
``max_examples`` is a quarter of Hypothesis's default of 100. A test that sizes its run with
:func:`examples` scales with the profile loaded: its full count under the default profile, a quarter
under ``quick``, never fewer than ``least`` examples, each of which still checks every property.
"""

from __future__ import annotations

from hypothesis import settings

#: Hypothesis's own default max_examples: the profile that runs each test's full count
DEFAULT_EXAMPLES = 100
#: the quick loop's max_examples (a quarter of the default)
QUICK_EXAMPLES = 25


def examples(full: int, least: int = 3) -> int:
    """``full`` scaled by the loaded profile's max_examples, read when the test module is imported.

    Called at import, after pytest's Hypothesis plugin has loaded the profile named on the command line.
    """
    return max(min(full, least), full * settings.default.max_examples // DEFAULT_EXAMPLES)
