"""What every quiz kind shares: the item's base class, its feedback, and the view spec the UI draws.

A quiz kind is one class (a subclass of ``QuizItem``, in its own module of
``spades_tutor.quiz.kinds``) that owns everything about the kind: its name and
title, its levels and their generator, how a position is read from plain data or a
lesson block, how an answer is checked and explained (by the engine), and how the
item is shown (``view()`` returns plain data, never widgets: ``QuizView`` in the UI
draws it). The registry in ``spades_tutor.quiz.kinds`` lists the kinds.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, ClassVar, Protocol

from ..engine import Card, Rules, Seat, SpadesError, Team, cards
from . import misconceptions as catalogue

__all__ = [
    "DIFFICULTIES",
    "Caption",
    "Choice",
    "Detail",
    "Feedback",
    "FeedbackView",
    "NumberField",
    "Numbers",
    "PickCards",
    "Plot",
    "PositionReader",
    "QuizItem",
    "ShowCards",
    "ShowTable",
    "ShowTrick",
    "ViewSpec",
]

DIFFICULTIES = (1, 2, 3)  # 1 easy, 2 medium, 3 tricky


@dataclasses.dataclass(frozen=True)
class Feedback:
    """What a learner sees after answering."""

    correct: bool
    answer: str  # the right answer, in words
    explanation: tuple[str, ...]  # the rule(s) that decide it, from the engine
    detail: Mapping[str, str] = dataclasses.field(default_factory=dict)  # per card or per team
    #: the misconception a wrong answer shows, in one sentence said before the rule (None: not recognised)
    diagnosis: str | None = None
    #: a measured answer's method (``spades_tutor.measured.how_measured``): the deals, the players, the
    #: seed, the interval, shown behind "How was this measured?"; the explanation keeps to plain figures
    measured: tuple[str, ...] = ()

    def __str__(self) -> str:
        head = "Right!" if self.correct else f"Not quite. The answer: {self.answer}."
        return " ".join((head, *((self.diagnosis,) if self.diagnosis else ()), *self.explanation))


# --- how an item is shown: plain data the UI draws ----------------------------------------


@dataclasses.dataclass(frozen=True)
class Caption:
    """A line of text above or below the cards."""

    text: str


@dataclasses.dataclass(frozen=True)
class ShowCards:
    """Cards shown, not chosen (a hand to judge)."""

    cards: tuple[Card, ...]
    label: str
    sort: bool = True


@dataclasses.dataclass(frozen=True)
class ShowTrick:
    """A trick drawn around the table (cards in play order from ``leader``)."""

    leader: Seat
    cards: tuple[Card, ...]
    label: str


@dataclasses.dataclass(frozen=True)
class ShowTable:
    """A table of text: a header row, rows, and a note below it."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""
    css: str = ""


@dataclasses.dataclass(frozen=True)
class PickCards:
    """Answer by choosing cards: ``mode`` "many", "one" or "order"; from a trick when ``leader`` is set."""

    cards: tuple[Card, ...]
    mode: str
    label: str
    sort: bool = True
    leader: Seat | None = None  # the cards are a trick led by this seat


@dataclasses.dataclass(frozen=True)
class NumberField:
    """One number to type (its ``key`` names it in the values ``Numbers.response`` receives)."""

    key: str
    label: str
    min: int | None = None
    max: int | None = None
    row: int = 0
    width: float = 6.0


@dataclasses.dataclass(frozen=True)
class Numbers:
    """Answer by typing numbers; ``response`` turns ``{key: number}`` into what ``check`` takes."""

    fields: tuple[NumberField, ...]
    response: Callable[[Mapping[str, int]], Any]


@dataclasses.dataclass(frozen=True)
class Choice:
    """Answer by choosing one of a few words; ``missing`` is said when none is chosen."""

    options: tuple[str, ...]
    description: str
    missing: str


Shown = Caption | ShowCards | ShowTrick | ShowTable
Answer = PickCards | Numbers | Choice


@dataclasses.dataclass(frozen=True)
class ViewSpec:
    """An item on screen: what is shown (in order, ``answer`` among it) and how it is answered."""

    parts: tuple[Shown | Answer, ...]

    @property
    def answer(self) -> Answer:
        found = [p for p in self.parts if isinstance(p, PickCards | Numbers | Choice)]
        if len(found) != 1:
            raise SpadesError(f"a quiz view has exactly one way to answer, not {len(found)}")
        return found[0]


@dataclasses.dataclass(frozen=True)
class Detail:
    """A list below the feedback: ``(head, text)`` items, under a ``summary`` that folds it if given."""

    items: tuple[tuple[str, str], ...]
    css: str
    summary: str = ""


@dataclasses.dataclass(frozen=True)
class Plot:
    """A plot below the feedback: its plotly JSON (plain data; the page draws it, the numbers become its
    data table) and its one-line ``reading``, which names the plot and captions the table."""

    spec: Mapping[str, Any]
    reading: str
    height: int
    key: tuple[tuple[str, str], ...] = ()  # (what, colour) of each colour drawn: written under the plot


@dataclasses.dataclass(frozen=True)
class FeedbackView:
    """After answering: marks on the cards, the trick's winner, and whether the explanation is shown."""

    marks: Mapping[str, str] = dataclasses.field(default_factory=dict)  # card text -> right/wrong/legal/illegal
    winner: str | None = None  # a seat letter, for a trick
    explain: bool = True  # False: the explanation is the detail list instead
    detail: Detail | None = None
    plot: Plot | None = None


class PositionReader(Protocol):
    """What a lesson block offers a kind reading its position (errors name the file and line)."""

    def cards(self, key: str, most: int, least: int = 1) -> tuple[Card, ...]: ...

    def value(self, key: str, default: Any = None) -> Any: ...

    def error(self, message: str) -> Exception: ...


# --- the base class ---------------------------------------------------------------------------


class QuizItem:
    """Base class of every kind: a rule set, a prompt, an engine-computed answer, and the kind's hooks."""

    kind: ClassVar[str] = ""  # the name: "legal-plays"
    title: ClassVar[str] = ""  # the quiz page's name for it: "Legal plays"
    order: ClassVar[int] = 0  # the place among the kinds (mixed quizzes and menus list them in this order)
    levels: ClassVar[Mapping[int, str]] = {}  # difficulty -> what it asks, in words
    #: the position's keys in a lesson's ``quiz KIND`` block (and in ``to_dict()``): required, optional
    position_keys: ClassVar[tuple[frozenset[str], frozenset[str]]] = (frozenset(), frozenset())
    #: the wrong beliefs a wrong answer is diagnosed against (``spades_tutor.quiz.misconceptions``)
    misconceptions: ClassVar[tuple[catalogue.Misconception, ...]] = ()
    rules: Rules
    seed: int | None
    difficulty: int

    # --- the kind: making items -------------------------------------------------------------

    @classmethod
    def generate(cls, rules: Rules, seed: int, difficulty: int) -> QuizItem:
        """A seeded item of this kind (the inputs are checked by ``generators.generate``)."""
        raise NotImplementedError

    @classmethod
    def offered(cls, rules: Rules) -> bool:
        """Whether a mixed quiz at this table asks this kind (nil questions need a table that plays nil)."""
        return True

    @classmethod
    def from_position(cls, rules: Rules, data: Mapping[str, Any], **common: Any) -> QuizItem:
        """The item from ``position()`` data (``common``: seed and difficulty)."""
        raise NotImplementedError

    @classmethod
    def lesson_position(cls, rules: Rules, block: PositionReader) -> dict[str, Any]:
        """The position a lesson block states, as ``position()`` data (raising ``block.error``)."""
        raise NotImplementedError

    @classmethod
    def lesson_leader(cls, block: PositionReader, played: int) -> Seat:
        """Who led the trick a lesson block states (``played`` cards so far)."""
        leader: Seat = block.value("leader", Seat.WEST)
        return leader

    # --- the item ---------------------------------------------------------------------------

    @property
    def prompt(self) -> str:
        raise NotImplementedError

    def answer(self) -> Any:
        raise NotImplementedError

    def check(self, response: Any) -> Feedback:
        raise NotImplementedError

    def hint(self) -> str:
        """The rule to think of again after a wrong first try: read from the rule set, never from the
        position, so it cannot give the answer away (the explanation waits for the last try)."""
        return "Read the question again and think of the rule that decides it."

    def given(self, response: Any) -> Any:
        """A response read into the form of the answer, for comparing answers (None: unreadable).

        ``given(answer())`` is the right answer in that form; each misconception's premise
        gives its answer in it too.
        """
        return None

    def diagnose(self, response: Any) -> str | None:
        """The misconception a wrong ``response`` shows, in one sentence (None if not recognised)."""
        return catalogue.diagnose(self, response)

    def position(self) -> dict[str, Any]:
        """The position as plain data (cards as text), without the answer."""
        raise NotImplementedError

    # --- answers to try: the kind's own candidates for the checks every kind passes ---------------
    # The tests run every registered kind through the same checks with these: each right form is
    # accepted, each wrong answer refused, and a likely answer is diagnosed only when one of the
    # kind's wrong beliefs gives it. A new kind lists its own here, so no test lists kinds.

    def right_forms(self, rng: random.Random) -> Iterator[Any]:
        """The right answer, and the same answer written as a learner or the UI might write it."""
        yield self.answer()

    def wrong_answers(self, rng: random.Random) -> Iterator[Any]:
        """Every other answer (or, where there are too many, every near miss and random ones).

        By default the other words a ``Choice`` view offers; a kind answered another way lists its own.
        """
        control = self.view().answer
        if not isinstance(control, Choice):
            raise NotImplementedError(f"quiz kind {self.kind!r} lists no wrong answers (wrong_answers)")
        right = self.answer()
        yield from (option for option in control.options if option != right)

    def likely_answers(self, rng: random.Random) -> Iterator[Any]:
        """Answers a learner might well give, right or wrong, as responses (what the kind's wrong
        beliefs give is tried besides): by default the words a ``Choice`` view offers."""
        control = self.view().answer
        if isinstance(control, Choice):
            yield from control.options

    def view(self) -> ViewSpec:
        """How the item is shown and answered (plain data; the UI draws it)."""
        raise NotImplementedError

    def feedback_view(self, feedback: Feedback, selected: tuple[str, ...] = ()) -> FeedbackView:
        """What the screen shows once answered (``selected``: the card texts chosen)."""
        return FeedbackView()

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "preset": self.rules.name,
            "flags": {k: v for k, v in self.rules.flags().items() if not isinstance(v, tuple)},
            "seed": self.seed,
            "difficulty": self.difficulty,
            **self.position(),
        }

    @property
    def key(self) -> str:
        """A short id for progress records: kind, rule set and seed (or position).

        Stable across sessions and machines: ``'legal-plays:jokers:7/2'`` for the item
        ``generate('legal-plays', rules, 7, difficulty=2)`` makes; house-rule flags add a
        short digest to the rule set (``'score:jokers+1a2b3c:7/3'``); an item without a
        seed is named by a digest of its position.
        """
        flags = {k: v for k, v in self.rules.flags().items() if not isinstance(v, tuple)}
        rules = self.rules.name + (f"+{_digest(flags)[:6]}" if flags else "")
        tail = f"{self.seed}/{self.difficulty}" if self.seed is not None else _digest(self.position())
        return f"{self.kind}:{rules}:{tail}"


def extra_trumps_note(rules: Rules) -> str:
    """Which cards besides the spades are trumps at this table, as a hint says it (no order given).

    >>> extra_trumps_note(Rules.preset("deuces-high"))
    'BJ, LJ and 2♦ are trumps and count as spades'
    >>> extra_trumps_note(Rules.preset("classic"))
    'the spades are the only trumps'
    """
    extra = [str(c) for c in rules.extra_trumps()]
    if not extra:
        return "the spades are the only trumps"
    names = extra[0] if len(extra) == 1 else f"{', '.join(extra[:-1])} and {extra[-1]}"
    return f"{names} {'is a trump and counts' if len(extra) == 1 else 'are trumps and count'} as spades"


def right_and_wrong(right: Card, selected: Iterable[str]) -> dict[str, str]:
    """Marks for a one-card answer: the right card, and the learner's other choice as wrong."""
    marks = {str(right): "right"}
    for text in selected:
        if text != str(right):
            marks[text] = "wrong"
    return marks


# --- shared helpers ---------------------------------------------------------------------------


def _digest(data: Any) -> str:
    """A stable short hash of plain data (``hash()`` changes from one Python process to the next)."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha1(text.encode()).hexdigest()[:10]


def card_list(items: Iterable[Card]) -> str:
    return " ".join(str(c) for c in items) or "none"


def parse_selection(response: Any) -> tuple[Card, ...] | None:
    """Cards from a learner's response, or None if it is not cards at all (never raises)."""
    if isinstance(response, Card):
        return (response,)
    if isinstance(response, (bytes, bytearray, Mapping)) or not isinstance(response, (str, Iterable)):
        return None
    try:
        return tuple(cards(response))
    except (SpadesError, TypeError):
        return None


def check_cards(rules: Rules, what: str, items: Iterable[Card], *, least: int = 1, most: int = 13) -> None:
    """A position's cards must be distinct cards of the rule set's deck, and not too few or many."""
    items = tuple(items)
    if not least <= len(items) <= most:
        span = f"{least} to {most}" if least != most else str(least)
        raise SpadesError(f"{what} needs {span} cards, not {len(items)} ({card_list(items)})")
    stray = [c for c in items if not rules.in_deck(c)]
    if stray:
        raise SpadesError(
            f"{what}: {card_list(stray)} {'is' if len(stray) == 1 else 'are'} not in the {rules.name} deck"
        )
    if len(set(items)) != len(items):
        raise SpadesError(f"{what}: a card appears twice in {card_list(items)}")


_WHOLE = re.compile(r"[+-]?\d{1,6}")


def whole_answer(value: Any) -> int:
    """A whole number a learner typed: an int, or text such as ``'-119'`` (never a bool or 71.5)."""
    if isinstance(value, bool):
        raise TypeError("a yes/no is not a number")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        text = value.strip().replace("−", "-")  # the minus sign some keyboards produce
        if _WHOLE.fullmatch(text):
            return int(text)
    raise ValueError(f"not a whole number: {value!r}")


def team_answer(response: Any) -> dict[Team, tuple[int, int]]:
    """``{team: (points, bags)}`` (or ``{team: {"points": …, "bags": …}}``) from a response; raises on anything else."""
    if not isinstance(response, Mapping):
        raise TypeError("a score answer maps each team to its points and bags")
    out: dict[Team, tuple[int, int]] = {}
    for team, value in response.items():
        if isinstance(value, Mapping):
            points, bags = value["points"], value["bags"]
        elif isinstance(value, (list, tuple)) and len(value) == 2:
            points, bags = value
        else:
            raise TypeError(f"not points and bags: {value!r}")
        key = Team.parse(team) if isinstance(team, (str, Team)) else None
        if key is None or key in out:
            raise ValueError(f"not a team, or a team given twice: {team!r}")
        out[key] = (whole_answer(points), whole_answer(bags))
    return out
