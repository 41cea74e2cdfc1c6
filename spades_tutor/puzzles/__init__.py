"""Play problems whose answer the double-dummy solver proves, in every rule set.

>>> from spades_tutor.puzzles import shipped, verify
>>> p = shipped()[0]
>>> set(verify(p).working) == set(p.answers)
True
>>> Puzzle.from_code(p.code) == p
True
"""

from __future__ import annotations

from .explain import Line, LineTrick, line_tricks, play_line, say_line, say_tricks
from .generate import Verdict, daily, find_shipped, generate, generate_near, shipped, verify
from .model import GOALS, THEMES, Goal, Puzzle, PuzzleCodeError

__all__ = [
    "GOALS",
    "THEMES",
    "Goal",
    "Line",
    "LineTrick",
    "Puzzle",
    "PuzzleCodeError",
    "Verdict",
    "daily",
    "find_shipped",
    "generate",
    "generate_near",
    "line_tricks",
    "play_line",
    "say_line",
    "say_tricks",
    "shipped",
    "verify",
]
