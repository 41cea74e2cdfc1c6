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
from .play import _and, _cap
from .rules import Rules

__all__ = [
    "HIGH_TRUMPS_FOR_NIL",
    "LikelyTrick",
    "NilAdvice",
    "explain_sure_tricks",
    "likely_tricks",
    "nil_advice",
    "sure_tricks",
]

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


# --- likely tricks: the rest of a bid after the sure tricks ----------------------------------------

#: a high trump's share of a trick when 1, 2, 3+ higher trumps are out: guarded (as many
#: lower trumps to play while they fall), half-guarded (one fewer)
GUARDED_TRUMP = (0.9, 0.75, 0.5)
HALF_GUARDED_TRUMP = (0.75, 0.5, 0.25)
#: a trump beyond an even share of the trump suit: it wins once the others run out
LONG_TRUMP_VALUE = 0.75
#: a spare trump beside a void or a singleton: it can trump a side card
RUFFING_TRUMP_VALUE = 0.25
#: side kings and queens fade by this much for each trump over 13 ("side suits run out sooner")
SIDE_FADE = 0.15

_SIDE_SUITS = (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


@dataclasses.dataclass(frozen=True)
class LikelyTrick:
    """One card's share of a bid: about how much of a trick it is worth (0 to 1), and why."""

    card: Card
    value: float
    reason: str

    def __str__(self) -> str:
        return self.reason


def _share(value: float) -> str:
    if value >= 1:
        return "a whole trick"
    if value >= 0.85:
        return "nearly a whole trick"
    if value >= 0.7:
        return "about three quarters of a trick"
    if value >= 0.4:
        return "about half a trick"
    return "a small part of a trick"


def _trump_values(rules: Rules, held: list[Card]) -> list[LikelyTrick]:
    """Sure, guarded and long trumps; ``held`` is the hand's trumps, highest first."""
    order = rules.trump_order()
    mine = {c.index for c in held}
    base = round(len(order) / 4)  # an even share of the trump suit: 3 of 13, 4 of 15 or 16
    long_from = len(held) - max(0, len(held) - base)
    sure = len(sure_tricks(rules, held))  # the run from the top: the first ``sure`` of ``held``
    out: list[LikelyTrick] = []
    higher: list[Card] = []  # the trumps above this one that are not in the hand
    i = -1
    for place, card in enumerate(order):
        if card.index not in mine:
            higher.append(card)
            continue
        i += 1
        below = len(held) - i - 1
        value = 0.0
        reason = ""
        if i < sure:
            value = 1.0
            reason = (
                f"{_cap(_name(card))} is the highest trump: a sure trick."
                if place == 0
                else f"{_cap(_name(card))} is sure: every higher trump is in this hand too."
            )
        elif below >= len(higher) - 1:
            table = GUARDED_TRUMP if below >= len(higher) else HALF_GUARDED_TRUMP
            value = table[min(len(higher), 3) - 1]
            lower = f"{below} lower trump{'' if below == 1 else 's'}" if below else "no lower trump"
            reason = (
                f"{_cap(_name(card))} loses only to {_and([_name(c) for c in higher])}, and you hold {lower} "
                f"to play while {'it falls' if len(higher) == 1 else 'they fall'}: {_share(value)}."
            )
        if i >= long_from and value < LONG_TRUMP_VALUE:
            value = LONG_TRUMP_VALUE
            reason = (
                f"{_cap(_name(card))} is a long trump: {len(held)} trumps is more than an even share "
                f"({base} of {len(order)}), so the last ones win once the others run out: {_share(value)}."
            )
        if value > 0:
            out.append(LikelyTrick(card, value, reason))
        if i == len(held) - 1:
            break
    return out


def _ruffing_values(held: list[Card], counted: list[LikelyTrick], lengths: dict[Suit, int]) -> list[LikelyTrick]:
    """Spare low trumps beside a void or a singleton: each may trump a side card."""
    valued = {t.card.index for t in counted}
    spare = [c for c in reversed(held) if c.index not in valued]  # lowest first
    room = sum(2 if n == 0 else 1 for n in lengths.values() if n <= 1)  # a void can be trumped twice
    short = [f"no {s.plural}" if n == 0 else f"one {s.singular}" for s, n in lengths.items() if n <= 1]
    return [
        LikelyTrick(
            card,
            RUFFING_TRUMP_VALUE,
            f"{_cap(_name(card))} is a spare trump, and with {_and(short)} you can trump a side card: "
            f"{_share(RUFFING_TRUMP_VALUE)}.",
        )
        for card in spare[:room]
    ]


def _side_values(rules: Rules, side: dict[Suit, list[Card]]) -> list[LikelyTrick]:
    """Side aces, and kings and queens with the cards to wait for the higher ones to fall."""
    trumps = len(rules.trump_order())
    fade = max(0.0, 1 - SIDE_FADE * (trumps - 13))
    fewer = "" if trumps <= 13 else f"; with {trumps} trumps side suits run out sooner"
    out: list[LikelyTrick] = []
    for suit, held in side.items():
        length = len(held)
        ranks = {c.rank for c in held}
        for card in held:
            if card.rank == Rank.ACE:
                value = 1.0 if length <= 4 else 0.75 if length <= 6 else 0.5
                reason = f"{card} wins the first {suit.singular} trick unless someone trumps it" + (
                    f", but with {length} {suit.plural} here someone is likely to be out of them" if length > 4 else ""
                )
            elif card.rank == Rank.KING and length >= 2:
                value = (0.75 if Rank.ACE in ranks else 0.5) * fade * (0.5 if length >= 5 else 1.0)
                if Rank.ACE in ranks:
                    reason = f"{card} wins the second {suit.singular} trick after your ace, if nobody trumps it"
                else:
                    lower = f"your other {suit.singular} lets" if length == 2 else f"your other {suit.plural} let"
                    reason = f"{card} wins once the ace has gone, and {lower} you wait for it"
                if length >= 5:
                    reason += f", but with {length} {suit.plural} here the second round is likely to be trumped"
                reason += fewer
            elif card.rank == Rank.QUEEN and 3 <= length <= 5:
                value = 0.35 * fade
                reason = (
                    f"{card} may win the third {suit.singular} trick once the ace and king have gone, "
                    f"if nobody trumps it{fewer}"
                )
            else:
                continue
            value = round(value, 2)
            out.append(LikelyTrick(card, value, f"{reason}: {_share(value)}."))
    return out


def likely_tricks(rules: Rules, hand: Iterable[Card]) -> tuple[LikelyTrick, ...]:
    """The cards likely to win a trick, each with its share of a trick (0 to 1) and the reason.

    The shares add up to an estimate of the tricks the hand takes (a bid adds a
    little for the odd low card that wins). Sure tricks count 1; a high trump counts
    less the more higher trumps are out and the fewer lower trumps guard it (the
    little joker without the big one is "nearly as safe"); trumps beyond an even
    share of the trump suit are long trumps; a spare trump beside a short side suit
    can trump; a side ace counts, less in a long suit; a side king or queen counts
    only with the cards to wait for the higher ones, and less with 15 or 16 trumps,
    where "side suits run out sooner".

    >>> from spades_tutor.engine.rules import Rules
    >>> hand = cards("BJ 9S 4S KH 7H AC 8C 6C QD 9D 5D 3D 2C")
    >>> for t in likely_tricks(Rules.preset("jokers"), hand): print(t.card, t.value)
    BJ 1.0
    K♥ 0.35
    A♣ 1.0
    Q♦ 0.24
    >>> print(likely_tricks(Rules.preset("jokers"), hand)[1])
    K♥ wins once the ace has gone, and your other heart lets you wait for it; with 15 trumps side suits run out sooner: a small part of a trick.
    >>> hand = cards("AS 9S 4S KH 7H AC 8C 6C QD 9D 5D 3D 2C")
    >>> [(str(t.card), t.value) for t in likely_tricks(Rules.preset("classic"), hand)]
    [('A♠', 1.0), ('K♥', 0.5), ('A♣', 1.0), ('Q♦', 0.35)]
    """
    hand_t = tuple(hand)
    mine = {c.index for c in hand_t}  # cards compare slowly; their indexes do not
    held = [c for c in rules.trump_order() if c.index in mine]
    trumps_held = {c.index for c in held}
    side: dict[Suit, list[Card]] = {s: [] for s in _SIDE_SUITS}
    for c in hand_t:
        if c.suit is not None and c.suit is not Suit.SPADES and c.index not in trumps_held:
            side[c.suit].append(c)
    trumps = _trump_values(rules, held)
    lengths = {s: len(cs) for s, cs in side.items()}
    return (*trumps, *_ruffing_values(held, trumps, lengths), *_side_values(rules, side))
