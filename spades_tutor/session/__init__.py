"""The learner's data, below the widgets: settings, progress, answers and the classroom hand.

Plain, typed data: it is checked, merged, saved and exported here, and ``spades_tutor.ui`` renders
it. Nothing here imports ipywidgets, plotly or ``spades_tutor.ui`` (``tests/test_session.py`` holds
it to that), so the lessons, the quiz and the tests read a learner's record without the app.

>>> from spades_tutor.session import Progress
>>> p = Progress()
>>> p.record("score", "jokers", "score:jokers:1", True, when=10.0)
>>> Progress.from_json(p.to_json()) == p
True
"""

from ..puzzles.rating import PuzzleResult, Rating, Standing
from .classroom import ClassroomHand, Step, read_deal_id
from .export import safe_cell
from .progress import Answer, Progress, merge, merge_note
from .settings import Settings

__all__ = [
    "Answer",
    "ClassroomHand",
    "Progress",
    "PuzzleResult",
    "Rating",
    "Settings",
    "Standing",
    "Step",
    "merge",
    "merge_note",
    "read_deal_id",
    "safe_cell",
]
