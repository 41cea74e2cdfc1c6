"""Deck set-up: which cards are out, which are trumps, how many of each suit, per rule set.

Every answer is the rule set's own (``Rules.in_deck``, ``Rules.is_trump``, ``Rules.suit_of``,
``Rules.trump_position``).

Levels:
    1. one everyday card (or a card taken out, a joker): a trump, a side card, or
       out of this deck?
    2. select every trump among five everyday cards (a joker or the 2♦ at most);
    3. the cards the rule sets treat differently (the 2s, the jokers, the aces):
       one of them (trump, side card or out?), or every trump among six cards;
       or how many cards of this deck count as a given suit.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from ...engine import BIG_JOKER, LITTLE_JOKER, Card, Rank, Rules, SpadesError, Suit, cards, full_pack
from ..base import (
    Caption,
    Feedback,
    FeedbackView,
    NumberField,
    Numbers,
    PickCards,
    PositionReader,
    QuizItem,
    ShowCards,
    ViewSpec,
    card_list,
    check_cards,
    parse_selection,
    whole_answer,
)
from ..base import Choice as ChoiceField
from ..misconceptions import Misconception, cap, changed, the
from ..seeded import coin_flip, pick_from, quiz_rng, sample, shuffled_copy
from . import register

QUESTIONS = ("card", "trumps", "count")
TRUMP, SIDE, OUT = "a trump", "a side card", "not in this deck"
_OPTIONS = (TRUMP, SIDE, OUT)


def _every_card() -> tuple[Card, ...]:
    return (*full_pack(), BIG_JOKER, LITTLE_JOKER) if BIG_JOKER not in full_pack() else tuple(full_pack())


def _category(rules: Rules, card: Card) -> str:
    if not rules.in_deck(card):
        return OUT
    return TRUMP if rules.is_trump(card) else SIDE


# --- the kind's wrong beliefs: a wrong answer one of them gives is named (``QuizItem.misconceptions``) ---


@functools.lru_cache(maxsize=1)
def _regular_deck() -> Rules:
    """The rule set of regular Spades, the deck a newcomer knows."""
    return Rules.preset("classic")


def _deck_answer(item: Any, rules: Rules) -> Any:
    """The item's answer had the deck been ``rules``'s (its own form, as ``given`` reads it)."""
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
    names = " and ".join(the(c) for c in extras)
    verb = (
        "counts as a spade here, so it is a trump" if len(extras) == 1 else "count as spades here, so they are trumps"
    )
    return f"{cap(names)} {verb} too."


def _regular_says(item: Any) -> str:
    rules = item.rules
    out = f"takes out {' '.join(str(c) for c in rules.removed)}" if rules.removed else "takes out no card"
    jokers = "adds the two jokers as trumps" if rules.jokers else "plays without jokers"
    return f"This is not a regular deck: {rules.title} {out} and {jokers}."


MISCONCEPTIONS: tuple[Misconception, ...] = (
    changed("deuce-as-diamond", _deck_answer),
    changed("side-ace-trump", lambda item, rules: None if item.question == "count" else _deck_answer(item, rules)),
    Misconception("natural-spades-only", _natural_spades_only, lambda item: _extras_says(item)),
    Misconception(
        "regular-deck",
        lambda item: _deck_answer(item, _regular_deck()),
        _regular_says,
    ),
)


@register
@dataclasses.dataclass(frozen=True, eq=False)
class DeckSetupItem(QuizItem):
    """Which cards are out, which are trumps, how many of a suit: in this rule set."""

    kind: ClassVar[str] = "deck-setup"
    title: ClassVar[str] = "Deck set-up"
    order: ClassVar[int] = 35
    levels: ClassVar[Mapping[int, str]] = {
        1: "One card: a trump, a side card, or out of this deck?",
        2: "Select every trump among five everyday cards.",
        3: "The 2s, the jokers and the aces; or count the cards of a suit.",
    }
    position_keys: ClassVar[tuple[frozenset[str], frozenset[str]]] = (
        frozenset({"question"}),
        frozenset({"card", "choices", "suit"}),
    )
    misconceptions: ClassVar[tuple[Misconception, ...]] = MISCONCEPTIONS
    rules: Rules
    question: str
    card: Card | None = None
    choices: tuple[Card, ...] = ()
    suit: Suit = Suit.SPADES
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        if self.question not in QUESTIONS:
            raise SpadesError(f"a deck set-up question is one of {', '.join(QUESTIONS)}, not {self.question!r}")
        if self.question == "card" and self.card is None:
            raise SpadesError("a deck set-up card question names its card")
        if self.question == "trumps":
            check_cards(self.rules, "a select-the-trumps question", self.choices, least=2)

    @property
    def prompt(self) -> str:
        if self.question == "card":
            return f"In {self.rules.title}, is {self.card} a trump, a side card, or not in the deck at all?"
        if self.question == "trumps":
            return f"In {self.rules.title}, select every card that is a trump."
        return f"In {self.rules.title}, how many cards count as {self.suit.plural}?"

    def answer(self) -> Any:
        rules = self.rules
        if self.question == "card":
            assert self.card is not None
            return _category(rules, self.card)
        if self.question == "trumps":
            return tuple(c for c in self.choices if rules.is_trump(c))
        return sum(1 for c in rules.deck() if rules.suit_of(c) == self.suit)

    def _explain(self) -> tuple[str, ...]:
        rules = self.rules
        out = (
            f"{rules.title} takes out {card_list(rules.removed)}"
            if rules.removed
            else f"{rules.title} takes out no card"
        )
        jokers = "and adds the two jokers" if rules.jokers else "and plays without jokers"
        setup = f"{out} {jokers}: {len(rules.deck())} cards, {len(rules.trump_order())} of them trumps."
        if self.question == "card":
            assert self.card is not None
            card = self.card
            if not rules.in_deck(card):
                return (setup, f"So {card} is not in the deck.")
            if rules.is_trump(card):
                return (setup, f"{card} is {rules.trump_position(card)}.")
            return (setup, f"{card} is a {rules.suit_of(card).singular}, a side card.")
        if self.question == "trumps":
            return (setup, *(f"{c}: {rules.trump_position(c)}." for c in self.choices if rules.is_trump(c)))
        counted = [c for c in rules.deck() if rules.suit_of(c) == self.suit]
        return (setup, f"The {len(counted)} {self.suit.plural}: {card_list(rules.sort_hand(counted))}.")

    def check(self, response: Any) -> Feedback:
        right = self.answer()
        if self.question == "card":
            correct = isinstance(response, str) and response.strip() == right
            shown = str(right)
        elif self.question == "trumps":
            chosen = parse_selection(response)
            correct = chosen is not None and set(chosen) == set(right)
            shown = card_list(right)
        else:
            try:
                correct = whole_answer(response) == right
            except (TypeError, ValueError):
                correct = False
            shown = str(right)
        diagnosis = None if correct else self.diagnose(response)
        return Feedback(correct, shown, self._explain(), diagnosis=diagnosis)

    def given(self, response: Any) -> Any:
        """A category's words, the set of cards chosen, or a count, as the question asks."""
        if self.question == "card":
            return response.strip() if isinstance(response, str) else None
        if self.question == "trumps":
            chosen = parse_selection(response)
            return None if chosen is None else frozenset(chosen)
        try:
            return whole_answer(response)
        except (TypeError, ValueError):
            return None

    def hint(self) -> str:
        deck = len(self.rules.deck())
        out = "; cards come out of the pack to make room for the jokers" if self.rules.jokers else ""
        return (
            f"{self.rules.title} deals {deck} cards, 13 to each of 4 players{out}. A card that counts as a spade "
            "is a trump, whatever is printed on it."
        )

    def position(self) -> dict[str, Any]:
        out: dict[str, Any] = {"question": self.question}
        if self.question == "card":
            out["card"] = str(self.card)
        elif self.question == "trumps":
            out["choices"] = str(cards(self.choices))
        else:
            out["suit"] = self.suit.name.lower()
        return out

    # --- answers to try: the kind's own candidates for the checks every kind passes ---------------

    def right_forms(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        yield right
        if isinstance(self.view().answer, PickCards):
            yield " ".join(c.letters.lower() for c in reversed(right))
        elif self.question == "count":
            yield str(right)

    def wrong_answers(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        if self.question == "trumps":
            shown, trumps = list(self.choices), set(right)
            for n in range(len(shown) + 1):
                for chosen in itertools.combinations(shown, n):
                    if set(chosen) != trumps:
                        yield chosen
        elif self.question == "count":
            for n in (right - 1, right + 1, right + 2, 13, 0):
                if n != right:
                    yield n
                    yield str(n)
        else:  # the other categories the view offers
            yield from super().wrong_answers(rng)

    def likely_answers(self, rng: random.Random) -> Iterator[Any]:
        if self.question == "card":
            yield from ("a trump", "a side card", "not in this deck")
        elif self.question == "trumps":
            choices = list(self.choices)
            for k in range(len(choices) + 1):
                for pick in itertools.combinations(choices, k):
                    yield " ".join(str(c) for c in pick)
        else:
            yield from range(10, 17)

    @classmethod
    def generate(cls, rules: Rules, seed: int, difficulty: int) -> DeckSetupItem:
        return _deck_setup(rules, seed, difficulty)

    @classmethod
    def from_position(cls, rules: Rules, data: Mapping[str, Any], **common: Any) -> DeckSetupItem:
        question = str(data["question"])
        card = Card.parse(data["card"]) if data.get("card") is not None else None
        suit = data.get("suit", "spades")
        return cls(
            rules,
            question=question,
            card=card,
            choices=cards(data.get("choices", "")),
            suit=suit if isinstance(suit, Suit) else Suit[str(suit).upper()],
            **common,
        )

    @classmethod
    def lesson_position(cls, rules: Rules, block: PositionReader) -> dict[str, Any]:
        question = block.value("question")
        if question == "trumps":
            return {"question": question, "choices": block.cards("choices", 13, 2)}
        if question == "count":
            suit = block.value("suit", Suit.SPADES)
            return {"question": question, "suit": suit.name.lower() if isinstance(suit, Suit) else suit}
        raise block.error("question: trumps (with choices) or count (with suit)")

    def view(self) -> ViewSpec:
        if self.question == "card":
            assert self.card is not None
            return ViewSpec(
                (
                    ShowCards((self.card,), "the card", sort=False),
                    ChoiceField(_OPTIONS, f"In {self.rules.title}:", "Choose one first."),
                )
            )
        if self.question == "trumps":
            return ViewSpec((PickCards(self.choices, "many", "select every trump", sort=False),))
        field = NumberField("count", f"{self.suit.plural} in this deck", min=0, max=54)
        return ViewSpec((Caption(self.prompt), Numbers((field,), lambda values: values["count"])))

    def feedback_view(self, feedback: Feedback, selected: tuple[str, ...] = ()) -> FeedbackView:
        if self.question != "trumps":
            return FeedbackView()
        trumps = {str(c) for c in self.answer()}
        return FeedbackView({str(c): "legal" if str(c) in trumps else "illegal" for c in self.choices})


def _tricky_cards(rules: Rules) -> list[Card]:
    """The cards rule sets disagree on: the four 2s, the two jokers and the four aces."""
    twos = [c for c in _every_card() if c.rank == Rank.TWO and not c.is_joker]
    aces = [c for c in _every_card() if c.rank == Rank.ACE and not c.is_joker]
    return [*twos, BIG_JOKER, LITTLE_JOKER, *aces]


def _deck_setup(rules: Rules, seed: int, difficulty: int) -> DeckSetupItem:
    rng = quiz_rng("deck-setup", seed, difficulty)
    common: dict[str, Any] = {"seed": seed, "difficulty": difficulty}
    tricky = _tricky_cards(rules)
    question = "card" if difficulty == 1 else "trumps"
    if difficulty == 3:
        question = pick_from(rng, ("card", "trumps", "trumps", "count"))
    if question == "card":
        if difficulty == 1:
            pool = [c for c in _every_card() if Rank.THREE <= c.rank <= Rank.KING or c.is_joker or c in rules.removed]
        else:
            pool = tricky
        by_answer: dict[str, list[Card]] = {}
        for card in dict.fromkeys(pool):
            by_answer.setdefault(_category(rules, card), []).append(card)
        wanted = pick_from(rng, sorted(by_answer))
        return DeckSetupItem(rules, question="card", card=pick_from(rng, by_answer[wanted]), **common)
    if question == "count":
        return DeckSetupItem(rules, question="count", suit=pick_from(rng, tuple(Suit)), **common)
    in_deck = [c for c in tricky if rules.in_deck(c)]
    spades = [c for c in rules.trump_order() if c not in tricky]
    side = [c for c in rules.deck() if not rules.is_trump(c) and c not in tricky]
    if difficulty == 2:  # everyday cards, a joker (or the 2♦) at most
        extras = [c for c in rules.extra_trumps()]
        chosen = sample(rng, spades, pick_from(rng, (1, 2, 3))) + sample(rng, extras, 1 if coin_flip(rng, 0.5) else 0)
        chosen += sample(rng, side, 5 - len(chosen))
    else:  # the 2s, jokers and aces in the deck, a spade and a side card
        chosen = sample(rng, in_deck, 4) + sample(rng, spades, 1) + sample(rng, side, 1)
    return DeckSetupItem(rules, question="trumps", choices=tuple(shuffled_copy(rng, chosen)), **common)
