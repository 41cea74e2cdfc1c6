"""What a lesson block shows, as plain data: the parts its kind's ``view`` lists and the player draws.

A block kind (``blocks``) says what it shows as a list of these parts, built by the
engine in the block's rule set; the lesson player draws each part with the card and
trick widgets. The parts hold no widgets, so a kind's view is checked without a browser,
and a new kind made of these parts needs nothing new in the player.

>>> import spades_tutor as st
>>> Caption("Deal 4127").text, Cards(st.Rules.preset("jokers"), st.cards("AS BJ"), "hand").sort
('Deal 4127', True)
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from .. import engine as st

if TYPE_CHECKING:
    from ..puzzles import Puzzle
    from ..quiz.base import QuizItem

__all__ = [
    "Caption",
    "Cards",
    "Ending",
    "Explain",
    "FourHands",
    "Part",
    "Question",
    "Replay",
    "ScoreLines",
    "TrickShown",
    "Words",
]


@dataclasses.dataclass(frozen=True)
class Words:
    """Markdown prose with its placeholders filled; ``tip``: set apart as a tip from the table."""

    text: str
    tip: bool = False
    rules: st.Rules | None = None  # the rule set the glossary's definitions are given in


@dataclasses.dataclass(frozen=True)
class Caption:
    """A line of caption: ``bold`` (a rule set's title, say) then ``text``."""

    text: str
    bold: str = ""


@dataclasses.dataclass(frozen=True)
class Cards:
    """A row of cards: sorted as a hand, or in the order given (``sort=False``); ``label`` names it to a screen reader."""

    rules: st.Rules
    cards: tuple[st.Card, ...]
    label: str
    sort: bool = True


@dataclasses.dataclass(frozen=True)
class FourHands:
    """The four hands of a deal, seat by seat."""

    rules: st.Rules
    hands: dict[st.Seat, st.Hand]


@dataclasses.dataclass(frozen=True)
class TrickShown:
    """A trick on the table: complete with its winner, or in progress."""

    trick: st.Trick
    label: str


@dataclasses.dataclass(frozen=True)
class Explain:
    """The engine's sentence: why a trick was won, who wins the game."""

    text: str


@dataclasses.dataclass(frozen=True)
class ScoreLines:
    """A hand scored by the engine, team by team and line by line."""

    scores: dict[st.Team, st.HandScore]


@dataclasses.dataclass(frozen=True)
class Replay:
    """A whole hand replayed one trick at a time."""

    round: st.Round  # played to its end


@dataclasses.dataclass(frozen=True)
class Question:
    """A quiz to answer; ``note``: a line below it (where a drawn question came from)."""

    item: QuizItem
    note: str = ""


@dataclasses.dataclass(frozen=True)
class Ending:
    """The last tricks of a hand to play out against the solver's defence: the position, the goal and
    the cards that reach it (the solver's proof)."""

    puzzle: Puzzle


Part = Words | Caption | Cards | FourHands | TrickShown | Explain | ScoreLines | Replay | Question | Ending
