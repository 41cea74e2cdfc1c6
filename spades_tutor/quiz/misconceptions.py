"""The known misconceptions behind wrong answers, each computed by the engine under one wrong premise.

A ``Misconception`` holds a premise (the item's answer as the engine gives it when one
thing is believed wrongly) and the one sentence that names the mistake. A learner whose
answer equals what a premise gives, and differs from the right answer, is told that
sentence before the rule (``Feedback.diagnosis``). No premise re-implements a rule: each
asks the engine with a changed ``Rules`` (``dataclasses.replace`` on its fields), a changed
position, or applies a small, named deviation to the engine's result.

Each quiz kind owns its list (``QuizItem.misconceptions``, the ``MISCONCEPTIONS`` of its module in
``spades_tutor.quiz.kinds``): a new kind brings its wrong beliefs with it. This module holds only what
the kinds share: the ``Misconception`` record, ``diagnose(item, response)`` (what the kinds' ``diagnose``
hook calls), the wrong beliefs about the rule set (``RULE_CHANGES``, asked through ``changed``), the
beliefs about who wins a trick (``trick_misconceptions``, for every kind that shows a trick) and the
words they are said in. It imports nothing from the kinds.

>>> import spades_tutor as st
>>> from spades_tutor.quiz.kinds.trick_winner import TrickWinnerItem
>>> item = TrickWinnerItem(st.Rules.preset("jokers"), trick=st.cards("KH 3S AH 4H"))
>>> item.diagnose("AH")
'That is the highest heart, but a trump was played: the 3♠ wins.'
>>> item.diagnose("4H") is None, item.diagnose("3S") is None
(True, True)
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..engine import (
    BIG_JOKER,
    LITTLE_JOKER,
    Card,
    Rank,
    Rules,
    Suit,
    trick_winner,
)

__all__ = [
    "ACE_OF_SPADES",
    "RULE_CHANGES",
    "TRUMP_BELIEFS",
    "TWO_OF_DIAMONDS",
    "TWO_OF_SPADES",
    "AnyOf",
    "Misconception",
    "RuleChange",
    "cap",
    "changed",
    "diagnose",
    "premises",
    "the",
    "trick_misconceptions",
    "trump_named",
    "variant",
]


@dataclasses.dataclass(frozen=True)
class Misconception:
    """One wrong belief: what the item's answer becomes under it, and the sentence naming it."""

    name: str
    #: item -> the answer under the wrong premise, in the form the kind's ``given`` reads a
    #: response into; None where the premise cannot arise for this item
    premise: Callable[[Any], Any]
    #: item -> the one sentence said before the rule
    says: Callable[[Any], str]


@dataclasses.dataclass(frozen=True)
class AnyOf:
    """What a premise gives when the belief allows several answers (each side ace shown believed
    the highest trump): a learner giving any of them is named."""

    answers: frozenset[Any]


def _gives(wrong: Any, given: Any) -> bool:
    """Whether a premise's answer (one, or ``AnyOf`` several) is the learner's."""
    return given in wrong.answers if isinstance(wrong, AnyOf) else wrong == given


def premises(item: Any) -> dict[str, Any]:
    """Each of the item's misconceptions -> the answer its premise gives (None where it cannot arise)."""
    return {m.name: m.premise(item) for m in item.misconceptions}


def diagnose(item: Any, response: Any) -> str | None:
    """The sentence of the first misconception whose premise gives ``response`` (None if none does).

    A right answer, an unreadable one, or one no premise gives has no diagnosis.
    """
    given = item.given(response)
    if given is None:
        return None
    right = item.given(item.answer())
    if given == right:
        return None
    for m in item.misconceptions:
        wrong = m.premise(item)
        if wrong is not None and wrong != right and _gives(wrong, given):
            said: str = m.says(item)
            return said
    return None


# --- wrong premises about the rule set: the same engine with one field changed ------------------


def the(card: Card) -> str:
    return f"the {card.name}" if card.is_joker else f"the {card}"


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


ACE_OF_SPADES = Card(Rank.ACE, Suit.SPADES)
TWO_OF_SPADES = Card(Rank.TWO, Suit.SPADES)
TWO_OF_DIAMONDS = Card(Rank.TWO, Suit.DIAMONDS)


@functools.lru_cache(maxsize=512)
def variant(rules: Rules, **change: Any) -> Rules:
    """``dataclasses.replace(rules, **change)``, kept: a premise is asked for every answer checked."""
    return dataclasses.replace(rules, **change)


def _with_trumps(rules: Rules, trumps: Sequence[Card]) -> Rules | None:
    trumps = tuple(trumps)
    return None if trumps == rules.trumps else variant(rules, trumps=trumps)


@functools.lru_cache(maxsize=256)
def jokers_swapped(rules: Rules) -> Rules | None:
    """The rule set with the little joker above the big one (None without jokers)."""
    if not rules.jokers:
        return None
    swap = {BIG_JOKER: LITTLE_JOKER, LITTLE_JOKER: BIG_JOKER}
    return _with_trumps(rules, [swap.get(c, c) for c in rules.trumps])


@functools.lru_cache(maxsize=256)
def deuce_as_diamond(rules: Rules) -> Rules | None:
    """The rule set with the 2♦ a plain diamond (None where it is not a trump)."""
    if TWO_OF_DIAMONDS not in rules.trumps:
        return None
    return _with_trumps(rules, [c for c in rules.trumps if c != TWO_OF_DIAMONDS])


@functools.lru_cache(maxsize=256)
def two_of_spades_lowest(rules: Rules) -> Rules | None:
    """The rule set with the 2♠ the lowest trump, as in a plain suit (None where it already is)."""
    if TWO_OF_SPADES not in rules.trumps:
        return None
    return _with_trumps(rules, [*(c for c in rules.trumps if c != TWO_OF_SPADES), TWO_OF_SPADES])


@functools.lru_cache(maxsize=256)
def ace_of_spades_highest(rules: Rules) -> Rules | None:
    """The rule set with the A♠ the highest trump (None where it already is)."""
    if ACE_OF_SPADES not in rules.trumps:
        return None
    return _with_trumps(rules, [ACE_OF_SPADES, *(c for c in rules.trumps if c != ACE_OF_SPADES)])


@functools.lru_cache(maxsize=256)
def side_aces_as_trumps(rules: Rules) -> Rules | None:
    """The rule set with the side aces on top of the trumps (an ace taken for the highest card)."""
    aces = [c for c in rules.deck() if c.rank == Rank.ACE and not rules.is_trump(c)]
    return _with_trumps(rules, [*aces, *rules.trumps]) if aces else None


@dataclasses.dataclass(frozen=True)
class RuleChange:
    """A wrong belief about the rule set: the rule set as the learner believes it, and the sentence."""

    name: str
    change: Callable[[Rules], Rules | None]
    says: Callable[[Rules], str]


RULE_CHANGES: Mapping[str, RuleChange] = {
    c.name: c
    for c in (
        RuleChange(
            "jokers-swapped",
            jokers_swapped,
            lambda rules: "The little joker is not the highest trump: the big joker is higher.",
        ),
        RuleChange(
            "deuce-as-diamond",
            deuce_as_diamond,
            lambda rules: (
                f"In {rules.name} the 2♦ is a trump, not a diamond: it is {rules.trump_position(TWO_OF_DIAMONDS)}."
            ),
        ),
        RuleChange(
            "two-of-spades-low",
            two_of_spades_lowest,
            lambda rules: f"The 2♠ is not the lowest trump here: it is {rules.trump_position(TWO_OF_SPADES)}.",
        ),
        RuleChange(
            "ace-of-spades-highest",
            ace_of_spades_highest,
            lambda rules: f"The A♠ is not the highest trump here: it is {rules.trump_position(ACE_OF_SPADES)}.",
        ),
        RuleChange(
            "side-ace-trump",
            side_aces_as_trumps,
            lambda rules: "A side ace is not a trump: only cards that count as spades are, and any trump beats it.",
        ),
    )
}

TRUMP_BELIEFS = ("jokers-swapped", "deuce-as-diamond", "two-of-spades-low", "ace-of-spades-highest")


def changed(name: str, premise: Callable[[Any, Rules], Any], says: Callable[[Any], str] | None = None) -> Misconception:
    """A misconception from a rule change: ``premise(item, believed_rules)`` gives the answer under it
    (or None where it cannot arise); ``says`` replaces the rule change's own sentence."""
    change = RULE_CHANGES[name]

    def wrong(item: Any) -> Any:
        believed = change.change(item.rules)
        return None if believed is None else premise(item, believed)

    return Misconception(name, wrong, says or (lambda item: change.says(item.rules)))


# --- the trick: who wins it --------------------------------------------------------------------


def _winner(rules: Rules, trick: Sequence[Card]) -> Card:
    return trick[trick_winner(rules, trick)]


def _led_suit_only(rules: Rules, trick: Sequence[Card]) -> Card | None:
    """The trick's winner among the cards of the suit led, as if no trump had been played."""
    led = rules.suit_of(trick[0])
    if led == Suit.SPADES or not any(rules.is_trump(c) for c in trick):
        return None
    return _winner(rules, [c for c in trick if rules.suit_of(c) == led])


def _ignores_trumps_says(rules: Rules, trick: Sequence[Card]) -> str:
    led = rules.suit_of(trick[0])
    return f"That is the highest {led.singular}, but a trump was played: {the(_winner(rules, trick))} wins."


def _first_trump(rules: Rules, trick: Sequence[Card]) -> Card | None:
    """The trick's winner had it stopped at the first trump played (a later, higher trump overlooked)."""
    trumps = [c for c in trick if rules.is_trump(c)]
    if len(trumps) < 2:
        return None
    return _winner(rules, trick[: trick.index(trumps[0]) + 1])


def _first_trump_says(rules: Rules, trick: Sequence[Card]) -> str:
    first = next(c for c in trick if rules.is_trump(c))
    right = _winner(rules, trick)
    return f"{cap(the(first))} was beaten by a higher trump: {the(right)} is {rules.trump_position(right)}."


def _highest_rank_any_suit(rules: Rules, trick: Sequence[Card]) -> Card | None:
    """Deviation: the card of the highest rank among the side cards, whatever their suit (None on a tie)."""
    side = [c for c in trick if not rules.is_trump(c)]
    if not side:
        return None
    top = max(c.rank for c in side)
    best = [c for c in side if c.rank == top]
    return best[0] if len(best) == 1 else None


def _discard_says(rules: Rules, trick: Sequence[Card]) -> str:
    card = _highest_rank_any_suit(rules, trick)
    led = rules.suit_of(trick[0])
    return (
        f"{card} cannot win: it is neither a {led.singular} (the suit led) nor a trump, "
        f"so {the(_winner(rules, trick))} wins."
    )


def trick_misconceptions(
    trick_of: Callable[[Any], Sequence[Card]], answer: Callable[[Any, Card], Any]
) -> tuple[Misconception, ...]:
    """The wrong beliefs about who wins a trick; ``answer(item, card)`` turns the believed winner into an answer."""

    def premise(find: Callable[[Rules, Sequence[Card]], Card | None]) -> Callable[[Any], Any]:
        def wrong(item: Any) -> Any:
            card = find(item.rules, trick_of(item))
            return None if card is None else answer(item, card)

        return wrong

    def believed(name: str) -> Misconception:
        return changed(name, lambda item, rules: answer(item, _winner(rules, trick_of(item))))

    return (
        Misconception(
            "ignores-trumps", premise(_led_suit_only), lambda item: _ignores_trumps_says(item.rules, trick_of(item))
        ),
        *(believed(name) for name in TRUMP_BELIEFS),
        Misconception(
            "first-trump-wins", premise(_first_trump), lambda item: _first_trump_says(item.rules, trick_of(item))
        ),
        Misconception(
            "discard-wins", premise(_highest_rank_any_suit), lambda item: _discard_says(item.rules, trick_of(item))
        ),
    )


def trump_named(rules: Rules, cards: Sequence[Card]) -> str:
    """A trump of ``cards`` named in words (the 2♦ of deuces-high with its rule set, the surprise)."""
    trumps = [c for c in cards if rules.is_trump(c)]
    extra = [c for c in trumps if c in rules.extra_trumps()]
    card = (extra or trumps)[0]
    if not card.is_joker and card.suit != Suit.SPADES:
        return f"{the(card)} in {rules.name}"
    return the(card)
