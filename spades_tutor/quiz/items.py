"""Quiz items: a position, a question, and an answer the engine computes and explains.

No item carries a hand-written answer. Each kind (one class in its own module of
``spades_tutor.quiz.kinds``, listed by the registry there) states its position; ``answer()``
asks the engine, and ``check(response)`` returns ``Feedback`` with the right
answer and the rule that decides it.

>>> import spades_tutor as st
>>> item = LegalPlaysItem(st.Rules.preset("jokers"), hand=st.cards("LJ 9S AH 4H"), trick=st.cards("KH"))
>>> item.answer()
(Card.parse('A♥'), Card.parse('4♥'))
>>> fb = item.check(st.cards("AH 4H LJ"))
>>> fb.correct
False
>>> print(fb.detail["LJ"])
You must follow suit: a heart was led and you hold A♥ and 4♥. The little joker counts as a spade, not a heart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine import Rules, SpadesError
from .base import Feedback, QuizItem
from .kinds import REGISTRY, get
from .kinds.highest_trump import HighestTrumpItem
from .kinds.legal_plays import LegalPlaysItem
from .kinds.nil_safe import NilSafeItem
from .kinds.score import ScoreItem
from .kinds.sure_tricks import SureTricksItem
from .kinds.trick_winner import TrickWinnerItem
from .kinds.trump_order import TrumpOrderItem

__all__ = [
    "ITEM_KINDS",
    "Feedback",
    "HighestTrumpItem",
    "LegalPlaysItem",
    "NilSafeItem",
    "QuizItem",
    "ScoreItem",
    "SureTricksItem",
    "TrickWinnerItem",
    "TrumpOrderItem",
    "item_from_dict",
]

#: kind name -> item class: the registry itself (a kind registered later is here too)
ITEM_KINDS: dict[str, type[QuizItem]] = REGISTRY


def item_from_dict(data: Mapping[str, Any]) -> QuizItem:
    """Rebuild an item from ``to_dict()`` output (or a lesson's quiz block).

    Anything malformed raises ``SpadesError`` (a ``ValueError``) naming what is wrong.
    """
    if not isinstance(data, Mapping):
        raise SpadesError(f"a quiz item is a mapping of its fields, not {type(data).__name__}")
    kind = data.get("kind")
    cls = get(kind)
    try:
        rules = Rules.preset(str(data.get("preset", "jokers")), **dict(data.get("flags", {})))
        common: dict[str, Any] = {"seed": data.get("seed"), "difficulty": int(data.get("difficulty", 1))}
        return cls.from_position(rules, data, **common)
    except SpadesError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError) as e:
        raise SpadesError(f"malformed {kind} quiz item ({type(e).__name__}: {e})") from e
