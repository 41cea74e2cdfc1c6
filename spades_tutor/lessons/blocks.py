"""Lesson block kinds: one class each, owning its keys, its cards and trick, and its check.

A block kind says which ``key: value`` lines its fenced block takes, what cards or
trick it shows, and how it is checked against the engine in a rule set (``check``
builds what the block shows and raises ``LessonError`` on any problem). Every method
takes the block already resolved for one rule set (``model.Resolved``). ``BLOCK_KINDS``
lists them; the lesson player draws each kind.

>>> [name for name, kind in BLOCK_KINDS.items() if kind.fenced][:4]
['hand', 'hands', 'trick', 'trumps']
>>> sorted(BLOCK_KINDS["score"].required)
['bids', 'tricks']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .. import engine as st
from ..quiz import kinds as quiz_kinds

if TYPE_CHECKING:
    from .model import Resolved

__all__ = ["BLOCK_KINDS", "BlockKind", "block_kind"]

_SEATS = frozenset({"N", "E", "S", "W"})


class BlockKind:
    """Base class: a kind with no cards and no trick of its own, checked by building nothing."""

    name: ClassVar[str] = ""
    fenced: ClassVar[bool] = True  # written as a fenced block (prose is not)
    required: ClassVar[frozenset[str]] = frozenset()
    optional: ClassVar[frozenset[str]] = frozenset({"label"})
    seat_keys: ClassVar[bool] = False  # N:, E:, S:, W: (or North: …) name the four hands
    text_body: ClassVar[bool] = False  # the fenced body is prose, not ``key: value`` lines

    def cards(self, r: Resolved) -> tuple[st.Card, ...]:
        """The cards the block shows."""
        raise r.fault("has no cards of its own")

    def trick(self, r: Resolved) -> st.Trick:
        """The trick the block shows: complete with its winner, or in progress."""
        raise r.fault("has no trick")

    def check(self, r: Resolved) -> None:
        """Build what the block shows in ``r.rules``; raise ``LessonError`` on any problem."""


def _trick(r: Resolved, played: tuple[st.Card, ...], leader: st.Seat) -> st.Trick:
    if len(played) == 4:
        return st.Trick.complete(r.rules, leader, played)
    return st.Trick(leader, tuple(played), None, r.rules)


class Prose(BlockKind):
    name = "markdown"
    fenced = False
    optional = frozenset()

    def check(self, r: Resolved) -> None:
        if not r.block.text.strip():
            raise r.fault("is empty")


class Tip(Prose):
    name = "tip"
    fenced = True
    text_body = True


class Hand(BlockKind):
    name = "hand"
    required = frozenset({"cards"})

    def cards(self, r: Resolved) -> tuple[st.Card, ...]:
        return r.cards("cards", 13)

    def check(self, r: Resolved) -> None:
        self.cards(r)


class Hands(BlockKind):
    """The four hands of one deal; ``first_lead: true`` adds who leads the first trick, in the engine's words."""

    name = "hands"
    optional = frozenset({*_SEATS, "deal", "dealer", "first_lead", "label"})
    seat_keys = True

    def check(self, r: Resolved) -> None:
        r.hands()
        if r.value("first_lead", False):
            r.first_leader()


class Trick(BlockKind):
    name = "trick"
    required = frozenset({"cards", "leader"})
    optional = frozenset({"spades_broken", "label"})

    def cards(self, r: Resolved) -> tuple[st.Card, ...]:
        return r.cards("cards", 4)

    def trick(self, r: Resolved) -> st.Trick:
        return _trick(r, r.cards("cards", 4), r.value("leader"))

    def check(self, r: Resolved) -> None:
        self.cards(r)
        self.trick(r)


class Trumps(BlockKind):
    name = "trumps"


class Deck(BlockKind):
    name = "deck"


class Suit(BlockKind):
    name = "suit"
    required = frozenset({"suit"})

    def check(self, r: Resolved) -> None:
        r.suit_cards()


class Compare(BlockKind):
    name = "compare"
    required = frozenset({"presets"})

    def check(self, r: Resolved) -> None:
        r.block.compared(r.lesson)


class Score(BlockKind):
    name = "score"
    required = frozenset({"bids", "tricks"})
    optional = frozenset({"bags", "label"})

    def check(self, r: Resolved) -> None:
        r.score()


class Game(BlockKind):
    name = "game"
    required = frozenset({"scores"})

    def check(self, r: Resolved) -> None:
        r.game()


class Play(BlockKind):
    name = "play"
    required = frozenset({"bids", "plays"})
    optional = frozenset({*_SEATS, "deal", "dealer", "label"})
    seat_keys = True

    def check(self, r: Resolved) -> None:
        r.hands()
        r.round()


class Quiz(BlockKind):
    """``quiz KIND``: the position keys come from the quiz kind (``position_keys``), never the answer."""

    name = "quiz"
    optional = frozenset({"generate", "seed", "difficulty"})

    def cards(self, r: Resolved) -> tuple[st.Card, ...]:
        for key in ("hand", "trick", "choices"):
            if key in r.block.options:
                return r.cards(key, len(r.rules.deck()), 0)
        return ()

    def trick(self, r: Resolved) -> st.Trick:
        if "trick" not in r.block.options or r.block.quiz_kind is None:
            raise r.fault("has no trick")
        played = r.cards("trick", 4, 0)
        return _trick(r, played, quiz_kinds.get(r.block.quiz_kind).lesson_leader(r, len(played)))

    def check(self, r: Resolved) -> None:
        block = r.block
        item = r.quiz_item()
        if item.kind != block.quiz_kind or item.rules != r.rules:
            raise r.error(f"got a {item.kind} item in {item.rules.name}, not {block.quiz_kind}")
        try:
            answer = item.answer()
            feedback = item.check(answer)
        except (st.SpadesError, KeyError, TypeError, ValueError) as e:
            raise r.error(f"the engine cannot answer this quiz: {e}") from None
        if not feedback.correct:
            raise r.error(f"the engine's own answer {answer!r} does not check as correct")


#: block kind name -> the kind; fenced kinds in the order the lesson format lists them
BLOCK_KINDS: dict[str, BlockKind] = {
    kind.name: kind
    for kind in (
        Hand(),
        Hands(),
        Trick(),
        Trumps(),
        Deck(),
        Suit(),
        Compare(),
        Score(),
        Game(),
        Play(),
        Tip(),
        Quiz(),
        Prose(),
    )
}


def block_kind(name: str) -> BlockKind:
    """The kind named ``name`` (``KeyError`` for a name no block kind has)."""
    return BLOCK_KINDS[name]
