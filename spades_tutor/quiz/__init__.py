"""Quizzes: items whose answers and explanations come from the engine, and seeded generators.

Each quiz kind is one class in its own module of ``spades_tutor.quiz.kinds``; the
registry there (``kinds.names()``, ``kinds.get(name)``) lists them.
"""

from __future__ import annotations

from . import kinds
from .generators import DIFFICULTIES, KINDS, generate, mixed
from .items import (
    ITEM_KINDS,
    Feedback,
    HighestTrumpItem,
    LegalPlaysItem,
    NilSafeItem,
    QuizItem,
    ScoreItem,
    SureTricksItem,
    TrickWinnerItem,
    TrumpOrderItem,
    item_from_dict,
)

__all__ = [
    "DIFFICULTIES",
    "ITEM_KINDS",
    "KINDS",
    "Feedback",
    "HighestTrumpItem",
    "LegalPlaysItem",
    "NilSafeItem",
    "QuizItem",
    "ScoreItem",
    "SureTricksItem",
    "TrickWinnerItem",
    "TrumpOrderItem",
    "generate",
    "item_from_dict",
    "kinds",
    "mixed",
]
