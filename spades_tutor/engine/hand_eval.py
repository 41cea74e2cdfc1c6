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
from collections.abc import Iterable, Sequence

from .cards import Card, Rank, Suit, cards  # noqa: F401 - cards is used by the doctests
from .rules import Rules
from .text import and_list as _and
from .text import capitalised as _cap

__all__ = [
    "HIGH_TRUMPS_FOR_NIL",
    "LikelyTrick",
    "NilAdvice",
    "explain_sure_tricks",
    "likely_tricks",
    "nil_advice",
    "side_card_value",
    "side_fade",
    "sure_trick_count",
    "sure_tricks",
]

#: a nil holding any of the top this-many trumps is risky (in the jokers preset: BJ LJ A♠ K♠ Q♠)
HIGH_TRUMPS_FOR_NIL = 5
#: a nil with this many trumps or more is risky: spade leads may force one to win
MANY_TRUMPS_FOR_NIL = 4


def sure_tricks(rules: Rules, hand: Iterable[Card]) -> tuple[Card, ...]:
    """The trumps each sure to win a trick on its own: an unbroken run from the top.

    The big joker is always sure; the little joker is sure only beside the big
    joker (alone it can lose to it), and so on down the trump order. A hand can be
    sure of more tricks than this run: ``sure_trick_count`` counts them.

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


def _sure_steps(rules: Rules, held: Sequence[Card]) -> list[int]:
    """For the hand's trumps ``held`` (highest first): the sure count of its top 1, 2, ... trumps.

    Your top i trumps lose at most as many tricks as there are trumps outside the hand
    above the i-th, so they are sure of i minus that many; the count of the top k is the
    best of those for i up to k, and never below 0.
    """
    mine = {c.index for c in held}
    steps: list[int] = []
    best = i = 0
    for place, card in enumerate(rules.trump_order()):
        if card.index not in mine:
            continue
        i += 1
        above = place - (i - 1)  # the trumps above this one that are not in the hand
        best = max(best, i - above)
        steps.append(best)
        if i == len(held):
            break
    return steps


def sure_trick_count(rules: Rules, hand: Iterable[Card]) -> int:
    """How many tricks the hand is sure to take with its trumps, whatever the others hold.

    Each trump held by the other three players can capture at most one of yours, and
    only one lower than itself; so over your top i trumps (i = 0, 1, ...) the count is
    the largest i minus the number of trumps outside your hand that rank above your
    i-th. A side card is never sure: it can be trumped.

    >>> from spades_tutor.engine.rules import Rules
    >>> jokers = Rules.preset("jokers")
    >>> [sure_trick_count(jokers, cards(h)) for h in ("AS KS QS", "LJ AS KS", "BJ LJ KS QS", "AS KS", "BJ")]
    [1, 2, 3, 0, 1]
    >>> sure_trick_count(Rules.preset("classic"), cards("AS KS QS"))
    3
    """
    hand_t = tuple(hand)
    mine = {c.index for c in hand_t}
    held = [c for c in rules.trump_order() if c.index in mine]
    steps = _sure_steps(rules, held)
    return steps[-1] if steps else 0


def _name(card: Card) -> str:
    return f"the {card.name}" if card.is_joker else str(card)


_WORDS = (
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
)  # fmt: skip


def _words(n: int) -> str:
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _tricks(n: int) -> str:
    return f"{n} sure trick{'' if n == 1 else 's'}" if n else "no sure tricks"


def _names(trumps: Sequence[Card]) -> str:
    """``the big and little joker``, ``the big joker and A♠``, or how many there are when they are many."""
    if [c.is_joker for c in trumps] == [True, True]:
        return "the big and little joker"
    if len(trumps) <= 4:
        return _and([_name(c) for c in trumps])
    return f"the {_words(len(trumps))} higher trumps you do not hold"


def _sure_reason(rules: Rules, hand: Sequence[Card]) -> tuple[int, str]:
    """The sure count, and why, as a clause (no count, no full stop)."""
    order = rules.trump_order()
    mine = {c.index for c in hand}
    held = [c for c in order if c.index in mine]
    if not held:
        return 0, "this hand holds no trump, and any side card can be trumped"
    steps = _sure_steps(rules, held)
    count = steps[-1]
    if count == 0:
        above = list(order[: order.index(held[0])])
        if len(held) == 1:
            return 0, f"your only trump, {_name(held[0])}, can lose to {_names(above)}"
        if len(above) >= len(held):
            every = "both" if len(held) == 2 else f"all {_words(len(held))}"
            return 0, f"{_names(above)} can take {every} of your trumps"
        return 0, f"each of your {_words(len(held))} trumps can be taken by a different higher trump you do not hold"
    i = steps.index(count) + 1  # the fewest top trumps that are sure of the count
    top = held[:i]
    outside = [c for c in order[: order.index(top[-1])] if c.index not in mine]
    if not outside:
        if i == 1:
            return 1, f"{_name(top[0])} is the highest trump, so nothing can beat it"
        return i, f"{_and([_name(c) for c in top])} are the top {_words(i)} trumps, so none of them can be beaten"
    which = f"top {_words(i)} trumps ({_and([_name(c) for c in top])})" if i < len(held) else f"{_words(i)} trumps"
    each = ", one each" if len(outside) > 1 else ""  # a trump takes one trick, so one of yours at most
    return count, f"{_names(outside)} can take at most {_words(len(outside))} of your {which}{each}"


def explain_sure_tricks(rules: Rules, hand: Iterable[Card]) -> str:
    """A sentence counting the sure tricks and saying why.

    >>> from spades_tutor.engine.rules import Rules
    >>> print(explain_sure_tricks(Rules.preset("jokers"), cards("AS KS QS 4H")))
    The big and little joker can take at most two of your three trumps, one each: 1 sure trick.
    >>> print(explain_sure_tricks(Rules.preset("jokers"), cards("LJ 4H")))
    Your only trump, the little joker, can lose to the big joker: no sure tricks.
    """
    count, reason = _sure_reason(rules, tuple(hand))
    return f"{_cap(reason)}: {_tricks(count)}."


@dataclasses.dataclass(frozen=True)
class NilAdvice:
    """Whether a nil bid is safe for a hand, and the risks that say why not."""

    safe: bool
    reasons: tuple[str, ...]
    impossible: bool = False  # sure of a trick (``sure_trick_count``): the nil cannot be made

    def __str__(self) -> str:
        if self.safe:
            return " ".join(self.reasons)
        return ("Nil is impossible. " if self.impossible else "Nil is risky. ") + " ".join(self.reasons)


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
                f"{_cap(_name(card))} is the highest trump: nothing can beat it, "
                "so it is sure to take a trick. Never bid nil holding it."
            )
        else:
            reasons.append(
                f"{_cap(_name(card))} can only lose to a higher trump, and you hold those too: it is sure to win."
            )
    trumps = [c for c in order if c in hand_t]
    for card in trumps[:HIGH_TRUMPS_FOR_NIL]:
        place = order.index(card)
        if card in sure or place >= HIGH_TRUMPS_FOR_NIL:
            continue
        higher = _and([_name(c) for c in order[:place] if c not in hand_t])  # never a card this hand holds
        reasons.append(
            f"{_cap(_name(card))} is {rules.trump_position(card)}: "
            f"it loses only to {higher}, so it may be forced to win a trick."
        )
    count, why = _sure_reason(rules, hand_t)
    if count > len(sure):
        reasons.append(f"{_cap(why)}: at least {_words(count)} of them will win a trick.")
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
        return NilAdvice(False, tuple(reasons), impossible=count > 0)
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
    count, why = _sure_reason(rules, held)  # the top ``count`` of ``held`` are counted as the sure tricks
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
        if i < count:
            value = 1.0
            if place == 0:
                reason = f"{_cap(_name(card))} is the highest trump: a sure trick."
            elif not higher:
                reason = f"{_cap(_name(card))} is sure: every higher trump is in this hand too."
            else:
                one = "a sure trick" if count == 1 else f"one of your {count} sure tricks"
                reason = f"{_cap(_name(card))} counts as {one}: {why}."
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


def side_fade(rules: Rules) -> float:
    """How much of their value side kings and queens keep with this many trumps (1 at 13 trumps).

    >>> from .rules import Rules
    >>> side_fade(Rules.preset("classic")), side_fade(Rules.preset("jokers"))
    (1.0, 0.7)
    """
    return max(0.0, 1 - SIDE_FADE * (len(rules.trump_order()) - 13))


def side_card_value(rank: Rank, length: int, *, ace_beside: bool, fade: float) -> float:
    """A side card's share of a trick in a suit of ``length`` cards (0 for a card not counted):
    the ace's by its suit's length, a king beside its ace or waiting for it, a queen in 3 to 5.

    The lab's batched bidder builds its tables from this function, so both value a hand alike.

    >>> side_card_value(Rank.ACE, 5, ace_beside=False, fade=1.0), side_card_value(Rank.KING, 2, ace_beside=True, fade=1.0)
    (0.75, 0.75)
    >>> side_card_value(Rank.QUEEN, 3, ace_beside=False, fade=0.85), side_card_value(Rank.JACK, 3, ace_beside=False, fade=1.0)
    (0.3, 0.0)
    """
    if rank == Rank.ACE:
        value = 1.0 if length <= 4 else 0.75 if length <= 6 else 0.5
    elif rank == Rank.KING and length >= 2:
        value = (0.75 if ace_beside else 0.5) * fade * (0.5 if length >= 5 else 1.0)
    elif rank == Rank.QUEEN and 3 <= length <= 5:
        value = 0.35 * fade
    else:
        return 0.0
    return round(value, 2)


def _side_values(rules: Rules, side: dict[Suit, list[Card]]) -> list[LikelyTrick]:
    """Side aces, and kings and queens with the cards to wait for the higher ones to fall."""
    trumps = len(rules.trump_order())
    fade = side_fade(rules)
    fewer = "" if trumps <= 13 else f"; with {trumps} trumps side suits run out sooner"
    out: list[LikelyTrick] = []
    for suit, held in side.items():
        length = len(held)
        ranks = {c.rank for c in held}
        for card in held:
            value = side_card_value(card.rank, length, ace_beside=Rank.ACE in ranks, fade=fade)
            if not value:
                continue
            if card.rank == Rank.ACE:
                reason = f"{card} wins the first {suit.singular} trick unless someone trumps it" + (
                    f", but with {length} {suit.plural} here someone is likely to be out of them" if length > 4 else ""
                )
            elif card.rank == Rank.KING:
                if Rank.ACE in ranks:
                    reason = f"{card} wins the second {suit.singular} trick after your ace, if nobody trumps it"
                else:
                    lower = f"your other {suit.singular} lets" if length == 2 else f"your other {suit.plural} let"
                    reason = f"{card} wins once the ace has gone, and {lower} you wait for it"
                if length >= 5:
                    reason += f", but with {length} {suit.plural} here the second round is likely to be trumped"
                reason += fewer
            else:  # the queen
                reason = (
                    f"{card} may win the third {suit.singular} trick once the ace and king have gone, "
                    f"if nobody trumps it{fewer}"
                )
            out.append(LikelyTrick(card, value, f"{reason}: {_share(value)}."))
    return out


def likely_tricks(rules: Rules, hand: Iterable[Card]) -> tuple[LikelyTrick, ...]:
    """The cards likely to win a trick, each with its share of a trick (0 to 1) and the reason.

    The shares add up to an estimate of the tricks the hand takes (a bid adds a
    little for the odd low card that wins). The hand's top ``sure_trick_count``
    trumps count 1 each; a high trump counts less the more higher trumps are out and
    the fewer lower trumps guard it (the
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
