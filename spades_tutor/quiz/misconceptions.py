"""The known misconceptions behind wrong answers, each computed by the engine under one wrong premise.

A ``Misconception`` holds a premise (the item's answer as the engine gives it when one
thing is believed wrongly) and the one sentence that names the mistake. A learner whose
answer equals what a premise gives, and differs from the right answer, is told that
sentence before the rule (``Feedback.diagnosis``). No premise re-implements a rule: each
asks the engine with a changed ``Rules`` (``dataclasses.replace`` on its fields), a changed
position, or applies a small, named deviation to the engine's result.

Each quiz kind owns its list (``QuizItem.misconceptions``, one of the tuples at the end of
this module); ``diagnose(item, response)`` is what the kinds' ``diagnose`` hook calls.

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
    Seat,
    Suit,
    Team,
    explain_first_leader,
    explain_game,
    legal_plays,
    nil_advice,
    score_hand,
    sure_trick_count,
    sure_tricks,
    trick_winner,
    why_illegal,
)
from ..engine.hand_eval import HIGH_TRUMPS_FOR_NIL, MANY_TRUMPS_FOR_NIL
from ..engine.rules import FAILED_NIL_CHOICES, NUMBER_BOUNDS
from ..engine.text import and_list, number, signed

__all__ = [
    "BEST_BID",
    "DECK_SETUP",
    "FIRST_LEADER",
    "GAME_WINNER",
    "HIGHEST_TRUMP",
    "LEGAL_PLAYS",
    "MAY_LEAD",
    "NIL_SAFE",
    "RULE_CHANGES",
    "SCORE",
    "SURE_TRICKS",
    "TRICK_WINNER",
    "TRUMP_ORDER",
    "AnyOf",
    "Misconception",
    "RuleChange",
    "diagnose",
    "premises",
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


def _the(card: Card) -> str:
    return f"the {card.name}" if card.is_joker else f"the {card}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


_ACE_OF_SPADES = Card(Rank.ACE, Suit.SPADES)
_TWO_OF_SPADES = Card(Rank.TWO, Suit.SPADES)
_TWO_OF_DIAMONDS = Card(Rank.TWO, Suit.DIAMONDS)


@functools.lru_cache(maxsize=512)
def _variant(rules: Rules, **change: Any) -> Rules:
    """``dataclasses.replace(rules, **change)``, kept: a premise is asked for every answer checked."""
    return dataclasses.replace(rules, **change)


def _with_trumps(rules: Rules, trumps: Sequence[Card]) -> Rules | None:
    trumps = tuple(trumps)
    return None if trumps == rules.trumps else _variant(rules, trumps=trumps)


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
    if _TWO_OF_DIAMONDS not in rules.trumps:
        return None
    return _with_trumps(rules, [c for c in rules.trumps if c != _TWO_OF_DIAMONDS])


@functools.lru_cache(maxsize=256)
def two_of_spades_lowest(rules: Rules) -> Rules | None:
    """The rule set with the 2♠ the lowest trump, as in a plain suit (None where it already is)."""
    if _TWO_OF_SPADES not in rules.trumps:
        return None
    return _with_trumps(rules, [*(c for c in rules.trumps if c != _TWO_OF_SPADES), _TWO_OF_SPADES])


@functools.lru_cache(maxsize=256)
def ace_of_spades_highest(rules: Rules) -> Rules | None:
    """The rule set with the A♠ the highest trump (None where it already is)."""
    if _ACE_OF_SPADES not in rules.trumps:
        return None
    return _with_trumps(rules, [_ACE_OF_SPADES, *(c for c in rules.trumps if c != _ACE_OF_SPADES)])


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
                f"In {rules.name} the 2♦ is a trump, not a diamond: it is {rules.trump_position(_TWO_OF_DIAMONDS)}."
            ),
        ),
        RuleChange(
            "two-of-spades-low",
            two_of_spades_lowest,
            lambda rules: f"The 2♠ is not the lowest trump here: it is {rules.trump_position(_TWO_OF_SPADES)}.",
        ),
        RuleChange(
            "ace-of-spades-highest",
            ace_of_spades_highest,
            lambda rules: f"The A♠ is not the highest trump here: it is {rules.trump_position(_ACE_OF_SPADES)}.",
        ),
        RuleChange(
            "side-ace-trump",
            side_aces_as_trumps,
            lambda rules: "A side ace is not a trump: only cards that count as spades are, and any trump beats it.",
        ),
    )
}

_TRUMP_BELIEFS = ("jokers-swapped", "deuce-as-diamond", "two-of-spades-low", "ace-of-spades-highest")


def _changed(
    name: str, premise: Callable[[Any, Rules], Any], says: Callable[[Any], str] | None = None
) -> Misconception:
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
    return f"That is the highest {led.singular}, but a trump was played: {_the(_winner(rules, trick))} wins."


def _first_trump(rules: Rules, trick: Sequence[Card]) -> Card | None:
    """The trick's winner had it stopped at the first trump played (a later, higher trump overlooked)."""
    trumps = [c for c in trick if rules.is_trump(c)]
    if len(trumps) < 2:
        return None
    return _winner(rules, trick[: trick.index(trumps[0]) + 1])


def _first_trump_says(rules: Rules, trick: Sequence[Card]) -> str:
    first = next(c for c in trick if rules.is_trump(c))
    right = _winner(rules, trick)
    return f"{_cap(_the(first))} was beaten by a higher trump: {_the(right)} is {rules.trump_position(right)}."


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
        f"so {_the(_winner(rules, trick))} wins."
    )


def _trick_misconceptions(
    trick_of: Callable[[Any], Sequence[Card]], answer: Callable[[Any, Card], Any]
) -> tuple[Misconception, ...]:
    """The wrong beliefs about who wins a trick; ``answer(item, card)`` turns the believed winner into an answer."""

    def premise(find: Callable[[Rules, Sequence[Card]], Card | None]) -> Callable[[Any], Any]:
        def wrong(item: Any) -> Any:
            card = find(item.rules, trick_of(item))
            return None if card is None else answer(item, card)

        return wrong

    def believed(name: str) -> Misconception:
        return _changed(name, lambda item, rules: answer(item, _winner(rules, trick_of(item))))

    return (
        Misconception(
            "ignores-trumps", premise(_led_suit_only), lambda item: _ignores_trumps_says(item.rules, trick_of(item))
        ),
        *(believed(name) for name in _TRUMP_BELIEFS),
        Misconception(
            "first-trump-wins", premise(_first_trump), lambda item: _first_trump_says(item.rules, trick_of(item))
        ),
        Misconception(
            "discard-wins", premise(_highest_rank_any_suit), lambda item: _discard_says(item.rules, trick_of(item))
        ),
    )


TRICK_WINNER: tuple[Misconception, ...] = _trick_misconceptions(lambda item: item.trick, lambda item, card: (card,))


# --- the trump order ----------------------------------------------------------------------------


def _highest_under(item: Any, rules: Rules) -> tuple[Card, ...] | None:
    trumps = [c for c in item.choices if rules.is_trump(c)]
    if not trumps:
        return None
    order = rules.trump_order()
    return (min(trumps, key=order.index),)


def _side_ace_chosen(item: Any) -> AnyOf | None:
    """Deviation: a side ace taken for the highest trump (whichever of the aces shown is chosen)."""
    aces = [c for c in item.choices if c.rank == Rank.ACE and not item.rules.is_trump(c)]
    return AnyOf(frozenset((c,) for c in aces)) if aces else None


HIGHEST_TRUMP: tuple[Misconception, ...] = (
    *(_changed(name, _highest_under) for name in _TRUMP_BELIEFS),
    Misconception("side-ace-trump", _side_ace_chosen, lambda item: RULE_CHANGES["side-ace-trump"].says(item.rules)),
)


def _order_under(item: Any, rules: Rules) -> tuple[Card, ...]:
    """The choices in the believed trump order (a card believed no trump goes last, as a low card)."""
    order = rules.trump_order()
    return tuple(sorted(item.choices, key=lambda c: order.index(c) if c in order else len(order)))


def _lowest_first(item: Any) -> tuple[Card, ...]:
    """Deviation: the engine's order read the wrong way round, lowest first."""
    return tuple(reversed(item.answer()))


TRUMP_ORDER: tuple[Misconception, ...] = (
    *(_changed(name, _order_under) for name in _TRUMP_BELIEFS),
    Misconception(
        "lowest-first",
        _lowest_first,
        lambda item: "That is the order from the lowest: the highest trump comes first.",
    ),
)


# --- legal plays and leads ------------------------------------------------------------------------


def _legal(item: Any, rules: Rules | None = None, **change: Any) -> frozenset[Card]:
    position = {"trick": item.trick, "spades_broken": item.spades_broken, **change}
    return frozenset(legal_plays(rules or item.rules, item.hand, position["trick"], position["spades_broken"]))


def _led(item: Any) -> Suit:
    led: Suit = item.rules.suit_of(item.trick[0])
    return led


def _ignores_follow_suit(item: Any) -> frozenset[Card] | None:
    """The legal plays of a hand void in the suit led: every card (the position with the lead forgotten)."""
    if not item.trick:
        return None
    return _legal(item, trick=(), spades_broken=True)


def _follow_suit_says(item: Any) -> str:
    led = _led(item)
    return f"You must follow suit: {_led_words(item.rules, item.trick[0])}, and you hold {led.plural}."


def _led_words(rules: Rules, lead: Card) -> str:
    led = rules.suit_of(lead)
    if led == Suit.SPADES and (lead.is_joker or lead.suit != Suit.SPADES):
        return f"{_the(lead)} was led, which counts as a spade"
    return f"a {led.singular} was led"


def _wild_extras(item: Any) -> frozenset[Card] | None:
    """Deviation: the legal plays with the jokers (and 2♦) in hand added, as if they were wild."""
    if not item.trick or _led(item) == Suit.SPADES:
        return None
    extras = {c for c in item.hand if c in item.rules.extra_trumps()}
    return _legal(item) | extras if extras else None


def _wild_says(item: Any) -> str:
    card = next(c for c in item.hand if c in item.rules.extra_trumps() and c not in _legal(item))
    led = _led(item)
    return (
        f"{_cap(_the(card))} counts as a spade, not a {led.singular}: "
        f"it may not be played to a {led.singular} lead while you hold {led.plural}."
    )


def _must_trump(item: Any) -> frozenset[Card] | None:
    """The legal plays as if a trump had been led (a player void in the suit led believing they must trump)."""
    if not item.trick or _led(item) == Suit.SPADES:
        return None
    if any(item.rules.suit_of(c) == _led(item) for c in item.hand):
        return None
    used = {*item.hand, *item.trick}
    lead = next((c for c in item.rules.trump_order() if c not in used), None)
    return None if lead is None else _legal(item, trick=(lead,))


def _must_trump_says(item: Any) -> str:
    led = _led(item)
    return f"You hold no {led.plural}, so you may play any card: you need not trump."


def _ignores_unbroken(item: Any) -> frozenset[Card] | None:
    """The lead as if spades were broken."""
    if item.trick or item.spades_broken:
        return None
    return _legal(item, spades_broken=True)


def _trump_named(rules: Rules, cards: Sequence[Card]) -> str:
    """A trump of ``cards`` named in words (the 2♦ of deuces-high with its rule set, the surprise)."""
    trumps = [c for c in cards if rules.is_trump(c)]
    extra = [c for c in trumps if c in rules.extra_trumps()]
    card = (extra or trumps)[0]
    if not card.is_joker and card.suit != Suit.SPADES:
        return f"{_the(card)} in {rules.name}"
    return _the(card)


def _unbroken_says(item: Any) -> str:
    return f"Spades are not broken: you may not lead {_trump_named(item.rules, item.hand)} yet."


def _extras_led(item: Any) -> frozenset[Card] | None:
    """Deviation: the leads with the jokers (and 2♦) in hand added, as if they were not spades."""
    if item.trick or item.spades_broken:
        return None
    extras = {c for c in item.hand if c in item.rules.extra_trumps()}
    legal = _legal(item)
    return legal | extras if extras and not extras <= legal else None


def _extras_led_says(item: Any) -> str:
    card = next(c for c in item.hand if c in item.rules.extra_trumps())
    return f"{_cap(_the(card))} counts as a spade: it may not be led before spades are broken."


def _trumps_over_following(item: Any) -> AnyOf | None:
    """Deviation: a trump played (alone, or beside the cards of the suit led) while the hand can follow."""
    if not item.trick or _led(item) == Suit.SPADES:
        return None
    trumps = [c for c in item.hand if item.rules.is_trump(c)]
    following = _legal(item)
    if not trumps or not any(item.rules.suit_of(c) == _led(item) for c in following):
        return None
    return AnyOf(frozenset({*((frozenset((t,))) for t in trumps), frozenset(trumps), following | frozenset(trumps)}))


def _renege_says(item: Any) -> str:
    led = _led(item)
    trumps = [_the(c) for c in item.hand if item.rules.is_trump(c)]
    played = trumps[0] if len(trumps) == 1 else f"a trump ({', '.join(trumps[:-1])} or {trumps[-1]})"
    follow = and_list(_the(c) for c in item.rules.sort_hand(_legal(item)))
    return f"You must follow suit while you hold a {led.singular}: playing {played} instead of {follow} is a renege."


LEGAL_PLAYS: tuple[Misconception, ...] = (
    _changed("deuce-as-diamond", lambda item, rules: _legal(item, rules)),
    Misconception("jokers-wild", _wild_extras, _wild_says),
    Misconception("ignores-follow-suit", _ignores_follow_suit, _follow_suit_says),
    Misconception("trumps-instead-of-following", _trumps_over_following, _renege_says),
    Misconception("must-trump", _must_trump, _must_trump_says),
    Misconception("ignores-unbroken-spades", _ignores_unbroken, _unbroken_says),
    Misconception("joker-led-unbroken", _extras_led, _extras_led_says),
)


def _may(rules: Rules, hand: Sequence[Card], card: Card, broken: bool) -> str:
    return "yes" if why_illegal(rules, hand, card, (), broken) is None else "no"


def _deuce_led(item: Any, rules: Rules) -> str | None:
    """May the 2♦ be led, under ``rules`` (the 2♦ believed a diamond)."""
    if item.spades_broken or item.card != _TWO_OF_DIAMONDS:
        return None
    return _may(rules, item.hand, item.card, item.spades_broken)


def _lead_unbroken(item: Any) -> str | None:
    """May the card be led as if spades were broken."""
    return None if item.spades_broken else _may(item.rules, item.hand, item.card, True)


def _lead_broken(item: Any) -> str | None:
    """May the card be led as if spades were not broken yet."""
    return _may(item.rules, item.hand, item.card, False) if item.spades_broken else None


def _broken_says(item: Any) -> str:
    note = item._broken_note()
    if note:
        return f"{note[:-1]}, so you may lead {item.card}."
    return f"Spades are broken, so you may lead {item.card}."


def _lead_with_a_side_card(item: Any) -> str | None:
    """May the card be led from the same hand plus a side card (the only-trumps exception forgotten)."""
    rules = item.rules
    if item.spades_broken or not all(rules.is_trump(c) for c in item.hand):
        return None
    used = {*item.hand, *(c for _, trick in item.earlier for c in trick)}
    side = next((c for c in rules.deck() if not rules.is_trump(c) and c not in used), None)
    return None if side is None else _may(rules, (*item.hand, side), item.card, False)


def _side_card_waits(item: Any) -> str | None:
    """Believed: nothing may be led before spades are broken, a side card neither."""
    return None if item.spades_broken or item.rules.is_trump(item.card) else "no"


MAY_LEAD: tuple[Misconception, ...] = (
    _changed(
        "deuce-as-diamond",
        _deuce_led,
        lambda item: (
            f"Spades are not broken: you may not lead the 2♦ in {item.rules.name}, where it counts as a spade."
        ),
    ),
    Misconception(
        "ignores-unbroken-spades",
        _lead_unbroken,
        lambda item: f"Spades are not broken: you may not lead {_trump_named(item.rules, (item.card,))}.",
    ),
    Misconception("thinks-unbroken", _lead_broken, _broken_says),
    Misconception(
        "only-trumps",
        _lead_with_a_side_card,
        lambda item: "You hold nothing but trumps, so you may lead one even though spades are not broken.",
    ),
    Misconception(
        "side-card-waits",
        _side_card_waits,
        lambda item: f"{item.card} is not a trump: a side card may be led whether spades are broken or not.",
    ),
)

# --- the score of a hand ----------------------------------------------------------------------------


def _scored(item: Any, rules: Rules | None = None) -> dict[Team, tuple[int, int]]:
    scores = score_hand(rules or item.rules, item.bids, item.tricks, item.bags)
    return {t: (s.points, s.bags) for t, s in scores.items()}


def _no_bag_limit(item: Any) -> dict[Team, tuple[int, int]] | None:
    """The score with no bag penalty (and no bags taken off): the bag limit set out of reach."""
    high = NUMBER_BOUNDS["bag_limit"][1]
    return _scored(item, _variant(item.rules, bag_limit=high)) if item.rules.bag_limit < high else None


def _penalty_says(item: Any) -> str:
    scores = score_hand(item.rules, item.bids, item.tricks, item.bags)
    team = next(t for t in Team if any(line.kind == "penalty" for line in scores[t].lines))
    reached = item.bags.get(team, 0) + scores[team].new_bags
    return (
        f"You forgot the bag penalty: {reached} bags cost {number(item.rules.bag_penalty)}"
        f" (every {item.rules.bag_limit} bags), and the count goes back to {scores[team].bags}."
    )


def _bags_at_trick_value(item: Any) -> dict[Team, tuple[int, int]] | None:
    """Deviation: the engine's score with each overtrick worth a trick's points instead of one."""
    scores = score_hand(item.rules, item.bids, item.tricks, item.bags)
    extra = {t: sum(line.points for line in s.lines if line.kind == "bags") for t, s in scores.items()}
    if not any(extra.values()):
        return None
    bonus = item.rules.trick_points - 1
    return {t: (s.points + extra[t] * bonus, s.bags) for t, s in scores.items()}


_FAILED_NIL_WORDS = {
    "bags": "are bags for the team",
    "partner": "count toward the partner's bid",
    "none": "are ignored",
}


def _failed_nil_way(way: str) -> Misconception:
    """A failed nil's tricks believed to count the other way (``failed_nil_tricks=way``)."""

    def wrong(item: Any) -> dict[Team, tuple[int, int]] | None:
        if item.rules.failed_nil_tricks == way:
            return None
        return _scored(item, _variant(item.rules, failed_nil_tricks=way))

    def says(item: Any) -> str:
        actual = item.rules.failed_nil_tricks
        if way == "partner":
            return (
                "The failed nil's tricks do not count toward the partner's bid at this table: "
                f"they {_FAILED_NIL_WORDS[actual]}."
            )
        believed = "bags for the team" if way == "bags" else "ignored"
        return f"At this table the failed nil's tricks are not {believed}: they {_FAILED_NIL_WORDS[actual]}."

    return Misconception(f"failed-nil-{way}", wrong, says)


def _nil_forgotten(item: Any) -> dict[Team, tuple[int, int]] | None:
    """The score with nil worth nothing (the nil's bonus or its penalty left out)."""
    if not any(b.is_nil for b in item.bids.values()):
        return None
    return _scored(item, _variant(item.rules, nil_value=0, blind_nil_value=0))


def _blind_as_nil(item: Any) -> dict[Team, tuple[int, int]] | None:
    """The score with a blind nil worth what a nil is."""
    if not any(b.blind for b in item.bids.values()):
        return None
    return _scored(item, _variant(item.rules, blind_nil_value=item.rules.nil_value))


SCORE: tuple[Misconception, ...] = (
    Misconception("no-bag-penalty", _no_bag_limit, _penalty_says),
    *(_failed_nil_way(way) for way in FAILED_NIL_CHOICES),
    Misconception(
        "bags-at-trick-value",
        _bags_at_trick_value,
        lambda item: (
            f"An overtrick is a bag worth 1 point, not {item.rules.trick_points}: "
            "only the tricks bid score the full value."
        ),
    ),
    Misconception(
        "nil-forgotten",
        _nil_forgotten,
        lambda item: (
            f"You left out the nil: a nil made scores {number(item.rules.nil_value)}, "
            f"a nil failed costs {number(item.rules.nil_value)}."
        ),
    ),
    Misconception(
        "blind-nil-as-nil",
        _blind_as_nil,
        lambda item: (
            f"A blind nil is worth {number(item.rules.blind_nil_value)}, not {number(item.rules.nil_value)} like a nil."
        ),
    ),
)


# --- sure tricks ------------------------------------------------------------------------------------


def _run_from_top(item: Any) -> int:
    """Only the unbroken run from the top counted (the engine's ``sure_tricks``)."""
    return len(sure_tricks(item.rules, item.hand))


def _side_aces_counted(item: Any) -> int | None:
    """Deviation: the engine's count plus the hand's side aces."""
    aces = sum(1 for c in item.hand if c.rank == Rank.ACE and not item.rules.is_trump(c))
    return item.answer() + aces if aces else None


def _every_trump_counted(item: Any) -> int | None:
    """Deviation: every trump of the hand counted sure, as if none could be captured."""
    trumps = [c for c in item.hand if item.rules.is_trump(c)]
    return len(trumps) if trumps else None


#: the card each belief about the trump order is about: a sure-tricks hand must hold it for the
#: belief to be named (the count also depends on the trumps that are out, which a learner cannot see)
_BELIEF_CARD = {
    "jokers-swapped": LITTLE_JOKER,
    "deuce-as-diamond": _TWO_OF_DIAMONDS,
    "two-of-spades-low": _TWO_OF_SPADES,
    "ace-of-spades-highest": _ACE_OF_SPADES,
}


def _sure_under_belief(name: str) -> Misconception:
    card = _BELIEF_CARD[name]

    def count(item: Any, rules: Rules) -> int | None:
        return sure_trick_count(rules, item.hand) if card in item.hand else None

    if name == "jokers-swapped":  # the little joker held, the big one out
        return _changed(
            name,
            count,
            lambda item: "The little joker is not the highest trump: a higher trump is still out, and it can take it.",
        )
    return _changed(name, count)


def _high_trumps(item: Any) -> tuple[list[Card], list[Card]]:
    """The hand's trumps from the top down to the K♠, and the trumps out above the lowest of them."""
    order = item.rules.trump_order()
    king = Card(Rank.KING, Suit.SPADES)
    top = order[: order.index(king) + 1] if king in order else order[:1]
    held = [c for c in top if c in item.hand]
    if not held:
        return [], []
    out = [c for c in order[: order.index(held[-1])] if c not in item.hand]
    return held, out


def _high_trumps_counted(item: Any) -> int | None:
    """Deviation: every high trump held (down to the K♠) counted sure, the trumps out above them forgotten."""
    held, out = _high_trumps(item)
    return len(held) if held and out else None


def _high_trumps_says(item: Any) -> str:
    held, out = _high_trumps(item)
    names = and_list(_the(c) for c in held)
    if len(out) == 1:
        return f"Not all of {names} are sure: a higher trump is still out, and it can take one of them."
    return f"Not all of {names} are sure: {len(out)} higher trumps are still out, and each can take one of them."


SURE_TRICKS: tuple[Misconception, ...] = (
    *(_sure_under_belief(name) for name in _TRUMP_BELIEFS),
    Misconception("high-trumps-sure", _high_trumps_counted, _high_trumps_says),
    Misconception(
        "side-aces-sure",
        _side_aces_counted,
        lambda item: "A side ace is not a sure trick: a player void in its suit may trump it.",
    ),
    Misconception(
        "run-from-top-only",
        _run_from_top,
        lambda item: (
            "More than the run from the top is sure: each higher trump still out can capture only one of yours."
        ),
    ),
    Misconception(
        "every-trump-sure",
        _every_trump_counted,
        lambda item: "Not every trump is sure: each higher trump still out can capture one of yours.",
    ),
)


# --- is nil safe? -----------------------------------------------------------------------------------
# The answer is a measurement (``NilSafeItem.odds``); each premise is a judgement the hand's cards
# invite, and is named only where it gives the wrong answer.


def _sure_nil(item: Any) -> bool | None:
    """Believed: a sure trick can be ducked. The engine's count says it cannot."""
    return True if sure_trick_count(item.rules, item.hand) > 0 else None


def _sure_nil_says(item: Any) -> str:
    n = sure_trick_count(item.rules, item.hand)
    return (
        f"This hand is sure of {number(n)} trick{'s' if n > 1 else ''} whatever the others hold: "
        "a nil holding a sure trick always fails."
    )


def _side_dangers(item: Any) -> list[str]:
    """The engine's warnings about this hand's side aces and unguarded kings."""
    side = [str(c) for c in item.hand if not item.rules.is_trump(c)]
    return [r for r in nil_advice(item.rules, item.hand).reasons if r.split(" ", 1)[0] in side]


def _low_trumps(item: Any) -> bool:
    order = item.rules.trump_order()
    trumps = [c for c in item.hand if item.rules.is_trump(c)]
    return (
        sure_trick_count(item.rules, item.hand) == 0
        and all(order.index(c) >= HIGH_TRUMPS_FOR_NIL for c in trumps)
        and len(trumps) < MANY_TRUMPS_FOR_NIL
    )


def _trumps_only(item: Any) -> bool | None:
    """Believed: only trumps take a nil's tricks. With low trumps, the side cards are forgotten."""
    return True if _low_trumps(item) and _side_dangers(item) else None


def _trumps_only_says(item: Any) -> str:
    return f"Low trumps are not all a nil needs: {_side_dangers(item)[0]}"


def _looks_alone(item: Any) -> bool | None:
    """Believed: one warning card sinks the nil, whatever the measurement says."""
    advice = nil_advice(item.rules, item.hand)
    return False if not advice.safe and not advice.impossible else None


def _looks_alone_says(item: Any) -> str:
    judge = item.judgements()[0]  # the judge who decides, and its figures as shown
    rate, low, high = judge.shown
    return (
        f"A card that looks dangerous does not sink this nil by itself: {judge.judge} made it in {rate}% "
        f"of the deals measured (95% interval {low}–{high}%); the others usually take those tricks first."
    )


NIL_SAFE: tuple[Misconception, ...] = (
    Misconception("sure-trick-nil", _sure_nil, _sure_nil_says),
    Misconception("trumps-only-for-nil", _trumps_only, _trumps_only_says),
    Misconception("one-card-sinks-nil", _looks_alone, _looks_alone_says),
)


# --- what would you bid? ----------------------------------------------------------------------------
# The best bid is a measurement (``BestBidItem.bids``); a premise is named only for a bid outside
# the accepted ones, and only on the side it describes: an under-bid is below every number bid
# counted right, an over-bid above every bid counted right (nil counting as 0), a nil missed is a
# number bid where nil scores best, a nil reached for is nil where it is not counted right.


def _pts(value: float) -> str:
    return signed(round(value) + 0)


def _under(item: Any, bid: int) -> int | None:
    """``bid`` if it is an under-bid: a number below every number bid counted right."""
    numbers = [b for b in item.accepted() if b > 0]
    return bid if numbers and 1 <= bid < min(numbers) else None


def _over(item: Any, bid: int) -> int | None:
    """``bid`` if it is an over-bid: a number above every bid counted right."""
    return bid if 1 <= bid <= 13 and bid > max(item.accepted()) else None


def _mean(counts: Sequence[int]) -> float:
    return sum(k * n for k, n in enumerate(counts)) / max(1, sum(counts))


def _best_number(item: Any) -> int:
    """The number bid that scores most (a player who never thinks of nil bids it)."""
    points = item.odds().points
    return max(sorted(points), key=lambda b: points[b])  # type: ignore[no-any-return]


def _nil_missed(item: Any) -> int | None:
    """Deviation: the best number bid, where nil scores best and that number is not counted right."""
    if item.answer() != 0:
        return None
    bid = _best_number(item)
    return None if bid in item.accepted() else bid


def _nil_missed_says(item: Any) -> str:
    bids = item.bids()
    bid = _best_number(item)
    return (
        f"This hand is worth more as a nil: the bots made the nil in {round(100 * bids.nil.p_zero)}% of the deals, "
        f"{_pts(bids.points[0])} points to the side on average, against {_pts(bids.points[bid])} for a bid "
        f"of {bid}, the best number."
    )


def _nil_reached(item: Any) -> int | None:
    """Deviation: nil bid because the hand holds no sure trick, where nil is not counted right."""
    if not item.rules.nil or 0 in item.accepted() or sure_trick_count(item.rules, item.hand) > 0:
        return None
    return 0


def _nil_reached_says(item: Any) -> str:
    bids = item.bids()
    best = bids.best_bid
    return (
        f"Holding no sure trick does not make a nil pay: the bots made this nil in {round(100 * bids.nil.p_zero)}% of "
        f"the deals, {_pts(bids.points[0])} points to the side on average, against {_pts(bids.points[best])} "
        f"for a bid of {best}."
    )


def _sure_only(item: Any) -> int | None:
    """Deviation: only the sure tricks bid (the engine's count), an under-bid."""
    return _under(item, sure_trick_count(item.rules, item.hand))


def _sure_only_says(item: Any) -> str:
    return (
        f"You bid only the sure tricks: high side cards and spare trumps win tricks too. This hand took "
        f"{_mean(item.odds().seat_tricks):.1f} tricks on average in the deals measured."
    )


def _high_cards(item: Any) -> int | None:
    """Deviation: every ace, every king and every trump above the K♠ counted as a trick, an over-bid."""
    order = item.rules.trump_order()
    king = order.index(Card(Rank.KING, Suit.SPADES)) if Card(Rank.KING, Suit.SPADES) in order else 0
    high = [
        c
        for c in item.hand
        if (item.rules.is_trump(c) and order.index(c) <= king) or (not c.is_joker and c.rank in (Rank.ACE, Rank.KING))
    ]
    return _over(item, len(high)) if high else None


def _high_cards_says(item: Any) -> str:
    return (
        "Not every ace, king and high trump is a trick: a king loses to its ace, a side card to a trump, a "
        f"trump to a higher one. This hand took {_mean(item.odds().seat_tricks):.1f} tricks on average in "
        "the deals measured."
    )


def _side_tricks(item: Any) -> int | None:
    """Deviation: the side's tricks bid, as if partner's were this hand's, an over-bid."""
    return _over(item, round(_mean(item.odds().team_tricks)))


def _side_tricks_says(item: Any) -> str:
    odds = item.odds()
    return (
        f"That is about what your side takes together ({_mean(odds.team_tricks):.1f} tricks on average): "
        f"bid your own hand's tricks ({_mean(odds.seat_tricks):.1f}); your partner bids theirs."
    )


BEST_BID: tuple[Misconception, ...] = (
    Misconception("nil-missed", _nil_missed, _nil_missed_says),
    Misconception("nil-without-sure-trick", _nil_reached, _nil_reached_says),
    Misconception("sure-tricks-only", _sure_only, _sure_only_says),
    Misconception("every-high-card", _high_cards, _high_cards_says),
    Misconception("side-tricks", _side_tricks, _side_tricks_says),
)


# --- who leads --------------------------------------------------------------------------------------


def _next_trick_seat(item: Any, card: Card) -> str:
    seat: Seat = Seat((item.leader + item.trick.index(card)) % 4)
    return seat.label


def _only_next_trick(premise: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda item: premise(item) if item.question == "next-trick" else None


def _first_lead(item: Any, rules: Rules, dealer: Seat) -> str:
    return explain_first_leader(rules, dealer, item.two_of_clubs)[0].label


def _dealer_leads(item: Any) -> str | None:
    """Deviation: the dealer named as the first leader."""
    if item.question != "first" or item.rules.first_lead != "left-of-dealer":
        return None
    label: str = item.dealer.label
    return label


def _deal_stays(item: Any) -> str | None:
    """The later deal's first leader as if the same player dealt again."""
    return _first_lead(item, item.rules, item.dealer) if item.question == "next-deal" else None


def _deal_passes_right(item: Any) -> str | None:
    """The later deal's first leader as if the deal passed right (to the dealer's right-hand player)."""
    return _first_lead(item, item.rules, item.later_dealer(-1)) if item.question == "next-deal" else None


def _passes_left_says(item: Any) -> str:
    if item.hands == 1:
        return f"{item.dealer.left.label} deals the next hand."
    return f"{item.later_dealer().label} deals {item.hands} hands from now."


def _left_of_dealer(item: Any) -> str | None:
    """The first leader at a table that opens with the 2♣, believed to be the player left of the dealer."""
    if item.question != "first" or item.rules.first_lead == "left-of-dealer":
        return None
    return _first_lead(item, _variant(item.rules, first_lead="left-of-dealer"), item.dealer)


FIRST_LEADER: tuple[Misconception, ...] = (
    *(
        Misconception(m.name, _only_next_trick(m.premise), m.says)
        for m in _trick_misconceptions(lambda item: item.trick, _next_trick_seat)
    ),
    Misconception(
        "leader-leads-again",
        _only_next_trick(lambda item: item.leader.label),
        lambda item: "The winner of a trick leads the next one, not the player who led it.",
    ),
    Misconception(
        "dealer-leads",
        _dealer_leads,
        lambda item: f"The dealer does not lead: the player on the dealer's left, {item.dealer.left.label}, does.",
    ),
    Misconception(
        "deal-stays",
        _deal_stays,
        lambda item: f"The deal passes left after each hand: {_passes_left_says(item)}",
    ),
    Misconception(
        "deal-passes-right",
        _deal_passes_right,
        lambda item: f"The deal passes left, not right: {_passes_left_says(item)}",
    ),
    Misconception(
        "left-of-dealer-at-two-of-clubs-table",
        _left_of_dealer,
        lambda item: "This table opens with the 2♣: whoever holds it leads, not the player left of the dealer.",
    ),
)


# --- who wins the game ------------------------------------------------------------------------------


def _game_answer(item: Any, rules: Rules) -> str:
    from .kinds.game_winner import _TEAM_ANSWER, GOES_ON  # the kind's own words for its answers

    winner, _ = explain_game(rules, item.scores)
    return GOES_ON if winner is None else _TEAM_ANSWER[winner]


def _game_under(**change: Any) -> Callable[[Any], Any]:
    return lambda item: _game_answer(item, _variant(item.rules, **change))


GAME_WINNER: tuple[Misconception, ...] = (
    Misconception(
        "target-must-be-passed",
        lambda item: (
            _game_answer(item, _variant(item.rules, target=item.rules.target + 1))
            if item.rules.target < NUMBER_BOUNDS["target"][1]
            else None
        ),
        lambda item: f"Reaching the target is enough: a team at exactly {number(item.rules.target)} has won.",
    ),
    Misconception(
        "mercy-forgotten",
        lambda item: _game_under(mercy=None)(item) if item.rules.mercy is not None else None,
        lambda item: f"At this table a team at or below {number(item.rules.mercy)} loses at once (the mercy rule).",
    ),
    Misconception(
        "below-zero-loses",
        lambda item: _game_under(mercy=-1)(item) if item.rules.mercy is None else None,
        lambda item: "This table plays without the mercy rule: a team below zero plays on.",
    ),
)


# --- the deck -----------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _regular_deck() -> Rules:
    """The rule set of regular Spades, the deck a newcomer knows."""
    return Rules.preset("classic")


def _deck_answer(item: Any, rules: Rules) -> Any:
    """The item's answer had the deck been ``rules``'s (its own form, as ``given`` reads it)."""
    from .kinds.deck_setup import _category

    if item.question == "card":
        return _category(rules, item.card)
    if item.question == "trumps":
        return frozenset(c for c in item.choices if rules.in_deck(c) and rules.is_trump(c))
    return sum(1 for c in rules.deck() if rules.suit_of(c) == item.suit)


def _natural_spades_only(item: Any) -> Any:
    """Deviation: the answer with the extra trumps (jokers, the 2♦) taken for cards of their printed suit."""
    extras = set(item.rules.extra_trumps())
    if not extras:
        return None
    if item.question == "trumps":
        return frozenset(c for c in _deck_answer(item, item.rules) if c not in extras)
    if item.question == "count" and item.suit == Suit.SPADES:
        return sum(1 for c in item.rules.deck() if c.suit == Suit.SPADES)
    return None


def _extras_says(item: Any) -> str:
    """The extra trumps (those shown, if the question shows cards) named as the trumps they are."""
    extras = [c for c in item.rules.extra_trumps() if item.question != "trumps" or c in item.choices]
    names = " and ".join(_the(c) for c in extras)
    verb = (
        "counts as a spade here, so it is a trump" if len(extras) == 1 else "count as spades here, so they are trumps"
    )
    return f"{_cap(names)} {verb} too."


def _regular_says(item: Any) -> str:
    rules = item.rules
    out = f"takes out {' '.join(str(c) for c in rules.removed)}" if rules.removed else "takes out no card"
    jokers = "adds the two jokers as trumps" if rules.jokers else "plays without jokers"
    return f"This is not a regular deck: {rules.title} {out} and {jokers}."


DECK_SETUP: tuple[Misconception, ...] = (
    _changed("deuce-as-diamond", _deck_answer),
    _changed("side-ace-trump", lambda item, rules: None if item.question == "count" else _deck_answer(item, rules)),
    Misconception("natural-spades-only", _natural_spades_only, lambda item: _extras_says(item)),
    Misconception(
        "regular-deck",
        lambda item: _deck_answer(item, _regular_deck()),
        _regular_says,
    ),
)
