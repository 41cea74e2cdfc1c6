"""Legal plays: select every card you may play.

Levels:
    1. a side suit was led and you can follow it (some cards are illegal);
    2. leading before spades are broken with trumps and two side cards or more,
       void in the side suit led (anything goes), or a spade lead you can follow
       with two trumps or more; no joker and no 2♦-as-trump anywhere in the position;
    3. a joker (or in deuces-high the 2♦) in your hand or led with some card illegal,
       a single legal card (one side card among trumps before spades are broken, a
       spade led and one trump held), or leading with nothing but trumps before
       spades are broken (the only-trumps exception, asked least often).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from ...engine import (
    Card,
    Round,
    Rules,
    Seat,
    SpadesError,
    Suit,
    cards,
    legal_plays,
    why_illegal,
)
from ...engine.text import and_list
from ..base import (
    Caption,
    Detail,
    Feedback,
    FeedbackView,
    PickCards,
    PositionReader,
    QuizItem,
    ShowTrick,
    ViewSpec,
    card_list,
    check_cards,
    extra_trumps_note,
    parse_selection,
)
from ..misconceptions import AnyOf, Misconception, cap, changed, the, trump_named
from ..seeded import (
    MAX_ROUNDS,
    extra_trumps_of,
    pick_from,
    play_through,
    quiz_rng,
)
from . import register

# --- the kind's wrong beliefs: a wrong answer one of them gives is named (``QuizItem.misconceptions``) ---


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
        return f"{the(lead)} was led, which counts as a spade"
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
        f"{cap(the(card))} counts as a spade, not a {led.singular}: "
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


def _unbroken_says(item: Any) -> str:
    return f"Spades are not broken: you may not lead {trump_named(item.rules, item.hand)} yet."


def _extras_led(item: Any) -> frozenset[Card] | None:
    """Deviation: the leads with the jokers (and 2♦) in hand added, as if they were not spades."""
    if item.trick or item.spades_broken:
        return None
    extras = {c for c in item.hand if c in item.rules.extra_trumps()}
    legal = _legal(item)
    return legal | extras if extras and not extras <= legal else None


def _extras_led_says(item: Any) -> str:
    card = next(c for c in item.hand if c in item.rules.extra_trumps())
    return f"{cap(the(card))} counts as a spade: it may not be led before spades are broken."


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
    trumps = [the(c) for c in item.hand if item.rules.is_trump(c)]
    played = trumps[0] if len(trumps) == 1 else f"a trump ({', '.join(trumps[:-1])} or {trumps[-1]})"
    follow = and_list(the(c) for c in item.rules.sort_hand(_legal(item)))
    return f"You must follow suit while you hold a {led.singular}: playing {played} instead of {follow} is a renege."


MISCONCEPTIONS: tuple[Misconception, ...] = (
    changed("deuce-as-diamond", lambda item, rules: _legal(item, rules)),
    Misconception("jokers-wild", _wild_extras, _wild_says),
    Misconception("ignores-follow-suit", _ignores_follow_suit, _follow_suit_says),
    Misconception("trumps-instead-of-following", _trumps_over_following, _renege_says),
    Misconception("must-trump", _must_trump, _must_trump_says),
    Misconception("ignores-unbroken-spades", _ignores_unbroken, _unbroken_says),
    Misconception("joker-led-unbroken", _extras_led, _extras_led_says),
)


@register
@dataclasses.dataclass(frozen=True, eq=False)
class LegalPlaysItem(QuizItem):
    """Select every card you may play."""

    kind: ClassVar[str] = "legal-plays"
    title: ClassVar[str] = "Legal plays"
    order: ClassVar[int] = 10
    levels: ClassVar[Mapping[int, str]] = {
        1: "A side suit was led and you can follow it.",
        2: "Leading before spades are broken, void in the suit led, or following a spade lead.",
        3: "A joker (or the 2♦ in deuces-high) in your hand or led, a single legal card, or only trumps.",
    }
    position_keys: ClassVar[tuple[frozenset[str], frozenset[str]]] = (
        frozenset({"hand"}),
        frozenset({"trick", "spades_broken", "seat"}),
    )
    misconceptions: ClassVar[tuple[Misconception, ...]] = MISCONCEPTIONS
    rules: Rules
    hand: tuple[Card, ...]
    trick: tuple[Card, ...] = ()
    spades_broken: bool = False
    seat: Seat = Seat.SOUTH
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        check_cards(self.rules, "a legal-plays hand", self.hand)
        check_cards(self.rules, "the trick so far", self.trick, least=0, most=3)
        both = set(self.hand) & set(self.trick)
        if both:
            raise SpadesError(f"{card_list(both)} cannot be both in the hand and in the trick")

    @property
    def prompt(self) -> str:
        if self.trick:
            where = f"{card_list(self.trick)} {'has' if len(self.trick) == 1 else 'have'} been played to this trick"
        else:
            where = "you are leading to this trick"
        broken = "Spades are broken." if self.spades_broken else "Spades are not broken yet."
        return f"{where[0].upper()}{where[1:]}. {broken} Select every card you may play."

    def answer(self) -> tuple[Card, ...]:
        return legal_plays(self.rules, self.hand, self.trick, self.spades_broken)

    def reasons(self) -> dict[str, str]:
        """For each card of the hand: why it may not be played, or that it may."""
        out: dict[str, str] = {}
        for card in self.hand:
            why = why_illegal(self.rules, self.hand, card, self.trick, self.spades_broken)
            out[str(card)] = str(why) if why is not None else f"{card} may be played."
        return out

    def check(self, response: Any) -> Feedback:
        chosen = parse_selection(response)
        right = self.answer()
        correct = chosen is not None and set(chosen) == set(right)
        illegal = [c for c in self.hand if c not in right]
        rules = self.rules
        if illegal:
            because = str(why_illegal(rules, self.hand, illegal[0], self.trick, self.spades_broken))
        elif self.trick:
            led = rules.suit_of(self.trick[0])
            if any(rules.suit_of(c) == led for c in self.hand):
                because = f"Every card you hold counts as a {led.singular}, the suit led, so you may play any of them."
            else:
                because = f"You hold no card that counts as a {led.singular}, so you may play any card."
        elif self.spades_broken:
            because = "Spades are broken, so you may lead any card."
        elif all(rules.is_trump(c) for c in self.hand):
            because = "You hold nothing but trumps, so you may lead one even though spades are not broken."
        else:
            because = "You hold no trump, so you may lead any card."
        diagnosis = None if correct else self.diagnose(response)
        return Feedback(correct, card_list(right), (because,), self.reasons(), diagnosis)

    def given(self, response: Any) -> frozenset[Card] | None:
        chosen = parse_selection(response)
        return None if chosen is None else frozenset(chosen)

    def hint(self) -> str:
        return (
            f"Follow the suit led if you can ({extra_trumps_note(self.rules)}); only a hand that cannot follow "
            "may play anything. Leading, a trump may not be led before spades are broken, unless the hand "
            "holds nothing but trumps."
        )

    def position(self) -> dict[str, Any]:
        return {
            "hand": str(cards(self.hand)),
            "trick": str(cards(self.trick)),
            "spades_broken": self.spades_broken,
            "seat": self.seat.letter,
        }

    # --- answers to try: the kind's own candidates for the checks every kind passes ---------------

    def right_forms(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        yield right
        yield " ".join(str(c) for c in right)
        yield ", ".join(c.letters.lower() for c in rng.sample(list(right), len(right)))
        yield [str(c) for c in right]

    def wrong_answers(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        hand, legal = list(self.hand), set(right)
        subsets: Iterator[set[Card]]
        if len(hand) <= 7:  # every other choice of cards
            subsets = (set(c) for n in range(len(hand) + 1) for c in itertools.combinations(hand, n))
        else:  # each card's choice turned round, and random choices
            toggles = [legal ^ {c} for c in hand]
            randoms = [{c for c in hand if rng.random() < 0.5} for _ in range(40)]
            subsets = iter([*toggles, *randoms])
        for chosen in subsets:
            if chosen != legal:
                yield tuple(chosen)
        strays = [c for c in self.rules.deck() if c not in hand]
        yield (*right, rng.choice(strays))  # a card not in the hand
        yield tuple(rng.sample(strays, min(3, len(strays))))

    def likely_answers(self, rng: random.Random) -> Iterator[Any]:
        hand = list(self.hand)
        yield from (str(c) for c in hand)
        for _ in range(8):
            yield " ".join(str(c) for c in rng.sample(hand, rng.randint(1, len(hand))))

    @classmethod
    def generate(cls, rules: Rules, seed: int, difficulty: int) -> LegalPlaysItem:
        return _legal_plays(rules, seed, difficulty)

    @classmethod
    def from_position(cls, rules: Rules, data: Mapping[str, Any], **common: Any) -> LegalPlaysItem:
        return cls(
            rules,
            hand=cards(data["hand"]),
            trick=cards(data.get("trick", "")),
            spades_broken=bool(data.get("spades_broken", False)),
            seat=Seat.parse(data.get("seat", "S")),
            **common,
        )

    @classmethod
    def lesson_position(cls, rules: Rules, block: PositionReader) -> dict[str, Any]:
        seat: Seat = block.value("seat", Seat.SOUTH)
        return {
            "hand": block.cards("hand", 13),
            "trick": block.cards("trick", 3, 0),
            "spades_broken": bool(block.value("spades_broken", False)),
            "seat": seat.letter,
        }

    @classmethod
    def lesson_leader(cls, block: PositionReader, played: int) -> Seat:
        seat: Seat = block.value("seat", Seat.SOUTH)  # the seat to play sits after the cards played so far
        return Seat((seat - played) % 4)

    def view(self) -> ViewSpec:
        parts: list[Any] = []
        if self.trick:
            leader = Seat((self.seat - len(self.trick)) % 4)
            parts.append(ShowTrick(leader, self.trick, "the trick so far"))
        parts.append(Caption(f"Your hand ({self.seat}) — select every card you may play:"))
        parts.append(PickCards(self.hand, "many", f"your hand ({self.seat}): select every card you may play"))
        return ViewSpec(tuple(parts))

    def feedback_view(self, feedback: Feedback, selected: tuple[str, ...] = ()) -> FeedbackView:
        legal = {str(c) for c in self.answer()}
        marks = {str(c): "legal" if str(c) in legal else "illegal" for c in self.hand}
        reasons = tuple((card, reason) for card, reason in feedback.detail.items() if card not in legal)
        detail = Detail(reasons, "st-reasons", "Why each other card may not be played") if reasons else None
        return FeedbackView(marks, detail=detail)


def _legal_tags(rules: Rules, hand: Sequence[Card], trick: Sequence[Card], broken: bool) -> set[str]:
    """The position types a legal-plays position belongs to (several may apply)."""
    tags: set[str] = set()
    if len(hand) < 2:
        return tags
    extras = extra_trumps_of(rules)
    is_trump = rules.is_trump
    suit_of = rules.suit_of
    trumps_in_hand = sum(1 for c in hand if is_trump(c))
    side_in_hand = len(hand) - trumps_in_hand
    plain = not any(c in extras for c in hand) and not any(c in extras for c in trick)
    legal = legal_plays(rules, hand, trick, broken)
    if not trick:
        if not broken and side_in_hand == 0:
            tags.add("only-trumps")
        if plain and not broken and trumps_in_hand and side_in_hand >= 2:
            tags.add("lead-unbroken")
        if plain and not broken and trumps_in_hand and side_in_hand == 1:
            tags.add("one-way")  # a hand of trumps and one side card: that card is the only lead
    else:
        led = suit_of(trick[0])
        following = sum(1 for c in hand if suit_of(c) == led)
        if plain and led != Suit.SPADES:
            if following and following < len(hand):
                tags.add("follow")
            if not following:
                tags.add("void")
        if plain and led == Suit.SPADES and following >= 2 and following < len(hand):
            tags.add("trump-lead")
        if plain and led == Suit.SPADES and following == 1:
            tags.add("one-way")  # a spade led and one trump held: it must be played
    if not (not trick and broken) and len(legal) < len(hand):  # a special card, and not every card legal
        for card in extras:
            if card in hand or (trick and trick[0] == card):
                tags.add("deuce" if card.suit is not None else "joker")
    return tags


_LEGAL_LEVELS: dict[int, tuple[str, ...]] = {
    1: ("follow",),
    2: ("lead-unbroken", "void", "trump-lead"),
    3: ("only-trumps", "one-way", "joker", "deuce"),
}

#: how often each level-3 type is asked: a hand of only trumps (every card legal) least
_WEIGHT = {"only-trumps": 1, "one-way": 4, "joker": 3, "deuce": 2}


def _legal_plays(rules: Rules, seed: int, difficulty: int) -> LegalPlaysItem:
    rng = quiz_rng("legal-plays", seed, difficulty)
    extras = extra_trumps_of(rules)
    possible = [t for t in _LEGAL_LEVELS[difficulty] if t != "joker" or any(c.is_joker for c in extras)]
    possible = [t for t in possible if t != "deuce" or any(not c.is_joker for c in extras)]
    wanted = pick_from(rng, [t for t in possible for _ in range(_WEIGHT.get(t, 1) if difficulty == 3 else 1)])
    fallback: list[tuple[Any, ...]] = []  # the first position of another type of the level
    found: list[tuple[Any, ...]] = []  # positions of the wanted type in the current round
    level = set(possible)

    def visit(rnd: Round) -> None:
        seat = rnd.to_act
        assert seat is not None
        hand = rnd.hands[seat]
        trick = rnd.trick.cards
        broken = rnd.spades_broken
        level_tags = _legal_tags(rules, hand, trick, broken) & level
        if not level_tags:
            return
        # the position as the engine's pure function sees it must be the table's
        # (not so for the 2♣ opening lead, a rule of the round alone)
        if set(legal_plays(rules, hand, trick, broken)) != set(rnd.legal_plays()):
            return
        entry = (hand, trick, broken, seat)
        if wanted in level_tags:
            found.append(entry)
        elif not fallback:
            fallback.append(entry)

    for attempt in range(MAX_ROUNDS):
        found.clear()
        # only-trumps positions come from players who hoard their trumps
        averse = wanted == "only-trumps" and attempt % 3 != 2
        play_through(rules, rng, averse, visit)
        if found:
            hand, trick, broken, seat = pick_from(rng, found)
            break
        if attempt >= MAX_ROUNDS // 4 and fallback:
            hand, trick, broken, seat = fallback[0]
            break
    else:  # pragma: no cover - never seen: every level turns up within a few rounds
        raise SpadesError(f"no legal-plays position of difficulty {difficulty} found for seed {seed} in {rules.name}")
    return LegalPlaysItem(
        rules, hand=tuple(hand), trick=tuple(trick), spades_broken=broken, seat=seat, seed=seed, difficulty=difficulty
    )
