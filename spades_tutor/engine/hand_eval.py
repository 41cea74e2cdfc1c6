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
from typing import Literal, NamedTuple

from .cards import Card, Rank, Suit, cards  # noqa: F401 - cards is used by the doctests
from .rules import Rules
from .text import and_list as _and
from .text import capitalised as _cap

__all__ = [
    "HIGH_TRUMPS_FOR_NIL",
    "LikelyTrick",
    "NilAdvice",
    "NilRisk",
    "explain_sure_tricks",
    "likely_tricks",
    "nil_advice",
    "nil_risks",
    "ruffing_trumps",
    "side_card_value",
    "side_fade",
    "sure_trick_count",
    "sure_tricks",
    "trump_shares",
]

#: a nil holding any of the top this-many trumps is risky (in the jokers preset: BJ LJ A♠ K♠ Q♠)
HIGH_TRUMPS_FOR_NIL = 5
#: a nil with this many trumps or more is risky: spade leads may force one to win
MANY_TRUMPS_FOR_NIL = 4

_SIDE_SUITS = (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


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
    held = {c.index for c in hand}  # cards compare slowly; their indexes do not
    run: list[Card] = []
    for trump in rules.trump_order():
        if trump.index not in held:
            break
        run.append(trump)
    return tuple(run)


def _sure_steps(rules: Rules, held: Sequence[Card]) -> list[int]:
    """For the hand's trumps ``held`` (highest first): the sure count of its top 1, 2, ... trumps.

    Your top i trumps lose at most as many tricks as there are trumps outside the hand
    above the i-th, so they are sure of i minus that many; the count of the top k is the
    best of those for i up to k, and never below 0.
    """
    steps: list[int] = []
    if not held:
        return steps
    mine = {c.index for c in held}
    last = len(held)
    best = i = 0
    for place, card in enumerate(rules.trump_order()):
        if card.index in mine:
            i += 1
            above = place - (i - 1)  # the trumps above this one that are not in the hand
            if i - above > best:
                best = i - above
            steps.append(best)
            if i == last:
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


#: what makes a nil risky (``NilRisk.kind``)
NilRiskKind = Literal["sure trump", "high trump", "sure count", "many trumps", "side ace", "unguarded king"]


class NilRisk(NamedTuple):
    """One risk of a nil bid, as data: ``nil_advice`` writes its sentence from it.

    ``kind`` is one of: ``"sure trump"`` (``card`` is in the unbroken run from the top),
    ``"high trump"`` (``card`` is one of the top ``HIGH_TRUMPS_FOR_NIL`` trumps), ``"sure count"``
    (the hand is sure of ``number`` tricks, more than its run from the top), ``"many trumps"``
    (``number`` trumps, at least ``MANY_TRUMPS_FOR_NIL``), ``"side ace"`` (``card``) and
    ``"unguarded king"`` (``card``, a side king with ``number`` lower cards of its suit, fewer than two).
    """

    kind: NilRiskKind
    card: Card | None = None
    number: int = 0


def nil_risks(rules: Rules, hand: Iterable[Card]) -> tuple[NilRisk, ...]:
    """The risks of a nil bid with this hand, in ``nil_advice``'s order; none: the nil is safe.

    Deciding only: no words are written (``nil_advice`` words them). The trumps' risks depend
    on the hand's trumps alone, each side suit's on that suit's cards alone.

    >>> from spades_tutor.engine.rules import Rules
    >>> [(r.kind, str(r.card), r.number) for r in nil_risks(Rules.preset("jokers"), cards("LJ AS 4S 2S KH 3H"))]
    [('high trump', 'LJ', 0), ('high trump', 'A♠', 0), ('sure count', 'None', 1), ('many trumps', 'None', 4), ('unguarded king', 'K♥', 1)]
    >>> nil_risks(Rules.preset("jokers"), cards("3S 2S 9H 5H 3H 8C 6C 4C 2C 9D 7D 5D 3D"))
    ()
    """
    hand_t = tuple(hand)
    order = rules.trump_order()
    mine = {c.index for c in hand_t}
    held = [c for c in order if c.index in mine]
    sure = sure_tricks(rules, hand_t)
    risks = [NilRisk("sure trump", card) for card in sure]
    for place, card in enumerate(order[:HIGH_TRUMPS_FOR_NIL]):
        if place >= len(sure) and card.index in mine:  # a high trump not in the sure run
            risks.append(NilRisk("high trump", card))
    steps = _sure_steps(rules, held)
    count = steps[-1] if steps else 0
    if count > len(sure):
        risks.append(NilRisk("sure count", number=count))
    if len(held) >= MANY_TRUMPS_FOR_NIL:
        risks.append(NilRisk("many trumps", number=len(held)))
    trumps = {c.index for c in held}
    side = [c for c in hand_t if c.index not in trumps]
    for suit in _SIDE_SUITS:
        in_suit = [c for c in side if c.suit == suit]
        for card in in_suit:
            if card.rank == Rank.ACE:
                risks.append(NilRisk("side ace", card))
            elif card.rank == Rank.KING:
                lower = sum(1 for c in in_suit if c.rank < card.rank)
                if lower < 2:
                    risks.append(NilRisk("unguarded king", card, lower))
    return tuple(risks)


def _nil_reason(rules: Rules, hand: Sequence[Card], risk: NilRisk) -> str:
    """``risk`` in words, for ``nil_advice``."""
    order = rules.trump_order()
    card = risk.card
    if risk.kind == "sure count":
        _, why = _sure_reason(rules, hand)
        return f"{_cap(why)}: at least {_words(risk.number)} of them will win a trick."
    if risk.kind == "many trumps":
        return f"{risk.number} trumps: when trumps are led you must follow, and you may be forced to win a trick."
    assert card is not None, risk
    if risk.kind == "sure trump":
        if card == order[0]:
            return (
                f"{_cap(_name(card))} is the highest trump: nothing can beat it, "
                "so it is sure to take a trick. Never bid nil holding it."
            )
        return f"{_cap(_name(card))} can only lose to a higher trump, and you hold those too: it is sure to win."
    if risk.kind == "high trump":
        mine = {c.index for c in hand}
        higher = _and([_name(c) for c in order[: order.index(card)] if c.index not in mine])  # never a held card
        return (
            f"{_cap(_name(card))} is {rules.trump_position(card)}: "
            f"it loses only to {higher}, so it may be forced to win a trick."
        )
    assert card.suit is not None, risk
    if risk.kind == "side ace":
        return f"{card} wins any {card.suit.singular} trick unless someone trumps it."
    return (
        f"{card} with {'no' if risk.number == 0 else 'only one'} lower {card.suit.singular} "
        "is hard to get rid of before the ace has gone."
    )


def nil_advice(rules: Rules, hand: Iterable[Card]) -> NilAdvice:
    """Judge a nil bid: safe only with no sure trick, no high trump, few trumps and no
    high side card that is hard to throw away. The risks are ``nil_risks``', each in words.

    >>> from spades_tutor.engine.rules import Rules
    >>> nil_advice(Rules.preset("jokers"), cards("3S 2S 9H 5H 3H 8C 6C 4C 2C 9D 7D 5D 3D")).safe
    True
    """
    hand_t = tuple(hand)
    risks = nil_risks(rules, hand_t)
    if risks:
        # sure of a trick: a trump in the sure run, or a sure count beyond it
        impossible = any(r.kind in ("sure trump", "sure count") for r in risks)
        return NilAdvice(False, tuple(_nil_reason(rules, hand_t, r) for r in risks), impossible=impossible)
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


def _even_share(rules: Rules) -> int:
    """An even share of the trump suit: 3 of 13, 4 of 15 or 16; trumps beyond it are long."""
    return round(len(rules.trump_order()) / 4)


#: how a trump is counted (``_TrumpShare.kind``); "" for a trump not counted
_TrumpKind = Literal["sure", "guarded", "half-guarded", "long", ""]


class _TrumpShare(NamedTuple):
    card: Card
    value: float  # its share of a trick, 0.0 where not counted
    kind: _TrumpKind
    place: int  # its place in the trump order (0: the highest trump)
    higher: int  # the trumps above it that the hand does not hold
    below: int  # the hand's trumps below it


def _trump_shares(rules: Rules, held: Sequence[Card]) -> list[_TrumpShare]:
    """Sure, guarded and long trumps, deciding only; ``held`` is the hand's trumps, highest first."""
    order = rules.trump_order()
    mine = {c.index for c in held}
    steps = _sure_steps(rules, held)
    count = steps[-1] if steps else 0  # the top ``count`` of ``held`` are counted as the sure tricks
    last = len(held) - 1
    long_from = min(len(held), _even_share(rules))
    out: list[_TrumpShare] = []
    higher = 0  # the trumps above this one that are not in the hand
    i = -1
    for place, card in enumerate(order):
        if card.index not in mine:
            higher += 1
            continue
        i += 1
        below = last - i
        value = 0.0
        kind: _TrumpKind = ""
        if i < count:
            value, kind = 1.0, "sure"
        elif below >= higher - 1:  # guarded, or short of one guard
            kind = "guarded" if below >= higher else "half-guarded"
            value = (GUARDED_TRUMP if below >= higher else HALF_GUARDED_TRUMP)[min(higher, 3) - 1]
        if i >= long_from and value < LONG_TRUMP_VALUE:
            value, kind = LONG_TRUMP_VALUE, "long"
        out.append(_TrumpShare(card, value, kind, place, higher, below))
        if i == last:
            break
    return out


def trump_shares(rules: Rules, hand: Iterable[Card]) -> tuple[float, ...]:
    """The share of a trick of each of the hand's trumps, highest first (0.0 for a trump not
    counted): ``likely_tricks``' trump values, without their reasons. The hand's top
    ``sure_trick_count`` trumps count 1 each; a high trump counts as guarded or half-guarded by
    the lower trumps held; a trump beyond an even share of the trump suit counts as long.

    The lab's batched bidder builds its tables from this function, so both value a hand alike.

    >>> from spades_tutor.engine.rules import Rules
    >>> trump_shares(Rules.preset("jokers"), cards("LJ 9S 4S 3S 2S KH"))
    (0.9, 0.0, 0.0, 0.0, 0.75)
    >>> trump_shares(Rules.preset("classic"), cards("AS KS 4H"))
    (1.0, 1.0)
    """
    mine = {c.index for c in hand}
    held = [c for c in rules.trump_order() if c.index in mine]
    return tuple(s.value for s in _trump_shares(rules, held))


def _trump_values(rules: Rules, held: list[Card]) -> list[LikelyTrick]:
    """``_trump_shares``' counted trumps, each with its reason; ``held`` is the hand's trumps, highest first."""
    order = rules.trump_order()
    mine = {c.index for c in held}
    shares = _trump_shares(rules, held)
    count = sum(1 for s in shares if s.kind == "sure")
    why = ""
    out: list[LikelyTrick] = []
    for s in shares:
        card = s.card
        if s.kind == "sure":
            if s.place == 0:
                reason = f"{_cap(_name(card))} is the highest trump: a sure trick."
            elif not s.higher:
                reason = f"{_cap(_name(card))} is sure: every higher trump is in this hand too."
            else:
                why = why or _sure_reason(rules, held)[1]
                one = "a sure trick" if count == 1 else f"one of your {count} sure tricks"
                reason = f"{_cap(_name(card))} counts as {one}: {why}."
        elif s.kind in ("guarded", "half-guarded"):
            higher = [c for c in order[: s.place] if c.index not in mine]
            lower = f"{s.below} lower trump{'' if s.below == 1 else 's'}" if s.below else "no lower trump"
            reason = (
                f"{_cap(_name(card))} loses only to {_and([_name(c) for c in higher])}, and you hold {lower} "
                f"to play while {'it falls' if len(higher) == 1 else 'they fall'}: {_share(s.value)}."
            )
        elif s.kind == "long":
            reason = (
                f"{_cap(_name(card))} is a long trump: {len(held)} trumps is more than an even share "
                f"({_even_share(rules)} of {len(order)}), so the last ones win once the others run out: "
                f"{_share(s.value)}."
            )
        else:
            continue
        out.append(LikelyTrick(card, s.value, reason))
    return out


def ruffing_trumps(spare: int, lengths: Sequence[int]) -> int:
    """How many of ``spare`` trumps (held, not counted otherwise) count as ruffers beside side suits
    of these ``lengths``: a void can be trumped twice, a singleton once.

    The lab's batched bidder builds its tables from this function, so both value a hand alike.

    >>> ruffing_trumps(3, (0, 1, 5)), ruffing_trumps(1, (0, 4, 5)), ruffing_trumps(4, (2, 3, 4))
    (3, 1, 0)
    """
    room = sum(2 if n == 0 else 1 for n in lengths if n <= 1)
    return min(spare, room)


def _ruffing_values(held: list[Card], counted: list[LikelyTrick], lengths: dict[Suit, int]) -> list[LikelyTrick]:
    """Spare low trumps beside a void or a singleton (``ruffing_trumps``): each may trump a side card."""
    valued = {t.card.index for t in counted}
    spare = [c for c in reversed(held) if c.index not in valued]  # lowest first
    short = [f"no {s.plural}" if n == 0 else f"one {s.singular}" for s, n in lengths.items() if n <= 1]
    return [
        LikelyTrick(
            card,
            RUFFING_TRUMP_VALUE,
            f"{_cap(_name(card))} is a spare trump, and with {_and(short)} you can trump a side card: "
            f"{_share(RUFFING_TRUMP_VALUE)}.",
        )
        for card in spare[: ruffing_trumps(len(spare), list(lengths.values()))]
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
