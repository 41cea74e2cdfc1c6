"""Judging a hand for the bidding: sure tricks, and whether a nil is safe.

These are the rules of thumb the lessons teach ("bid the big joker as a sure
trick", "never bid nil holding the big joker"), written down once so lessons,
quizzes, hints and bots all give the same answer and the same reasons.

>>> from spades_tutor.engine.rules import Rules
>>> rules = Rules.preset("jokers")
>>> sure_tricks(rules, cards("BJ LJ KS 4H"))
(Card.parse('BJ'), Card.parse('LJ'))
>>> advice = nil_advice(rules, cards("BJ 3S 4H 5H 6H 7C 8C 9C 2C 3D 4D 5D 6D"))
>>> advice.safe
False
>>> print(advice.reasons[0])
The big joker is the highest trump: nothing can beat it, so it is sure to take a trick. Never bid nil holding it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from .cards import Card, Rank, Suit, cards  # noqa: F401 - cards is used by the doctests
from .play import _and
from .rules import Rules

__all__ = ["HIGH_TRUMPS_FOR_NIL", "NilAdvice", "explain_sure_tricks", "nil_advice", "sure_tricks"]

#: a nil holding any of the top this-many trumps is risky (in the jokers preset: BJ LJ A♠ K♠ Q♠)
HIGH_TRUMPS_FOR_NIL = 5
#: a nil with this many trumps or more is risky: spade leads may force one to win
MANY_TRUMPS_FOR_NIL = 4


def sure_tricks(rules: Rules, hand: Iterable[Card]) -> tuple[Card, ...]:
    """The trumps that win a trick whatever the others hold: an unbroken run from the top.

    The big joker is always sure; the little joker is sure only beside the big
    joker (alone it can lose to it), and so on down the trump order.

    >>> from spades_tutor.engine.rules import Rules
    >>> sure_tricks(Rules.preset("jokers"), cards("LJ AS KS"))
    ()
    >>> sure_tricks(Rules.preset("classic"), cards("AS KS 3S"))
    (Card.parse('A♠'), Card.parse('K♠'))
    """
    held = set(hand)
    run: list[Card] = []
    for trump in rules.trump_order():
        if trump not in held:
            break
        run.append(trump)
    return tuple(run)


def explain_sure_tricks(rules: Rules, hand: Iterable[Card]) -> str:
    """A sentence counting the sure tricks and saying why.

    >>> from spades_tutor.engine.rules import Rules
    >>> print(explain_sure_tricks(Rules.preset("jokers"), cards("LJ AS 4H")))
    No sure tricks: the highest trump, the big joker, is not in this hand, so even the little joker can lose to it.
    """
    hand_t = tuple(hand)
    sure = sure_tricks(rules, hand_t)
    top = rules.trump_order()[0]
    top_name = f"the {top.name}" if top.is_joker else str(top)
    if not sure:
        held = [c for c in rules.trump_order() if c in hand_t]
        if held:
            best = held[0]
            best_name = f"the {best.name}" if best.is_joker else str(best)
            return (
                f"No sure tricks: the highest trump, {top_name}, is not in this hand, "
                f"so even {best_name} can lose to it."
            )
        return "No sure tricks: this hand holds no trump, and any side card can be trumped."
    names = _and([f"the {c.name}" if c.is_joker else str(c) for c in sure])
    count = f"{len(sure)} sure trick" + ("" if len(sure) == 1 else "s")
    if len(sure) == 1:
        return f"{count}: {names} is the highest trump, so nothing can beat it."
    return f"{count}: {names} are the top {len(sure)} trumps, so none of them can be beaten."


@dataclasses.dataclass(frozen=True)
class NilAdvice:
    """Whether a nil bid is safe for a hand, and the risks that say why not."""

    safe: bool
    reasons: tuple[str, ...]
    impossible: bool = False  # holds a sure trick: the nil cannot be made

    def __str__(self) -> str:
        if self.safe:
            return " ".join(self.reasons)
        return ("Nil is impossible. " if self.impossible else "Nil is risky. ") + " ".join(self.reasons)


def _name(card: Card) -> str:
    return f"the {card.name}" if card.is_joker else str(card)


def nil_advice(rules: Rules, hand: Iterable[Card]) -> NilAdvice:
    """Judge a nil bid: safe only with no sure trick, no high trump, few trumps and no
    high side card that is hard to throw away.

    >>> from spades_tutor.engine.rules import Rules
    >>> nil_advice(Rules.preset("jokers"), cards("3S 2S 9H 5H 3H 8C 6C 4C 2C 9D 7D 5D 3D")).safe
    True
    """
    hand_t = tuple(hand)
    reasons: list[str] = []
    order = rules.trump_order()
    sure = sure_tricks(rules, hand_t)
    for card in sure:
        if card == order[0]:
            reasons.append(
                f"{_name(card)[0].upper()}{_name(card)[1:]} is the highest trump: nothing can beat it, "
                "so it is sure to take a trick. Never bid nil holding it."
            )
        else:
            reasons.append(f"{_name(card)} can only lose to a higher trump, and you hold those too: it is sure to win.")
    trumps = [c for c in order if c in hand_t]
    for card in trumps[:HIGH_TRUMPS_FOR_NIL]:
        place = order.index(card)
        if card in sure or place >= HIGH_TRUMPS_FOR_NIL:
            continue
        higher = " and ".join(_name(c) for c in order[:place])
        reasons.append(
            f"{_name(card)[0].upper()}{_name(card)[1:]} is {rules.trump_position(card)}: "
            f"it loses only to {higher}, so it will probably win a trick."
        )
    if len(trumps) >= MANY_TRUMPS_FOR_NIL:
        reasons.append(
            f"{len(trumps)} trumps: when trumps are led you must follow, and you may be forced to win a trick."
        )
    for suit in (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS):
        held = [c for c in hand_t if not rules.is_trump(c) and c.suit == suit]
        for card in held:
            lower = sum(1 for c in held if c.rank < card.rank)
            if card.rank == Rank.ACE:
                reasons.append(f"{card} wins any {suit.singular} trick unless someone trumps it.")
            elif card.rank == Rank.KING and lower < 2:
                reasons.append(
                    f"{card} with {'no' if lower == 0 else 'only one'} lower {suit.singular} "
                    "is hard to get rid of before the ace has gone."
                )
    if reasons:
        return NilAdvice(False, tuple(reasons), impossible=bool(sure))
    return NilAdvice(
        True,
        (
            f"Nil looks safe: no sure trick, none of the top {HIGH_TRUMPS_FOR_NIL} trumps, "
            f"fewer than {MANY_TRUMPS_FOR_NIL} trumps, and no side ace or unguarded king.",
        ),
    )
