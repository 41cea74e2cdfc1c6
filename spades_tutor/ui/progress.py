"""The learner's progress, as the app's modules once imported it: it now lives in
:mod:`spades_tutor.session` (``session/progress.py`` and ``session/settings.py``), below the widgets.

The names stay importable from here for code written against the old place; new code imports
``spades_tutor.session``.
"""

from ..session.progress import (
    LATEST_TIME,
    MAX_ANSWERS,
    MAX_LESSONS,
    MAX_STEP,
    SOURCES,
    TRIES,
    Answer,
    Progress,
    derived_answer_id,
    merge,
    merge_note,
    new_answer_id,
)
from ..session.settings import RETRIES, Settings

__all__ = [
    "LATEST_TIME",
    "MAX_ANSWERS",
    "MAX_LESSONS",
    "MAX_STEP",
    "RETRIES",
    "SOURCES",
    "TRIES",
    "Answer",
    "Progress",
    "Settings",
    "derived_answer_id",
    "merge",
    "merge_note",
    "new_answer_id",
]
