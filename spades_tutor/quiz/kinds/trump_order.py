"""Trump order: put these trumps in order, highest first.

Levels:
    1. three trumps far apart (at least three places between them);
    2. four trumps anywhere in the order;
    3. five trumps with the close calls at the top: big joker against little
       joker, 2♦ / 2♠ / A♠ in deuces-high, the 2♠ in two-of-spades-third (or the
       2♠ where it is the lowest trump), and the others from anywhere in the order.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from ...engine import (
    Card,
    Rank,
    Rules,
    SpadesError,
    cards,
)
from ..base import (
    Caption,
    Feedback,
    PickCards,
    PositionReader,
    QuizItem,
    ViewSpec,
    card_list,
    check_cards,
    extra_trumps_note,
    parse_selection,
)
from ..misconceptions import TRUMP_BELIEFS, Misconception, changed
from ..seeded import (
    ace_of_spades,
    far_apart,
    pick_from,
    quiz_rng,
    sample,
    shuffled_copy,
    tricky_cards,
    uniform_between,
)
from . import register

# --- the kind's wrong beliefs: a wrong answer one of them gives is named (``QuizItem.misconceptions``) ---


def _order_under(item: Any, rules: Rules) -> tuple[Card, ...]:
    """The choices in the believed trump order (a card believed no trump goes last, as a low card)."""
    order = rules.trump_order()
    return tuple(sorted(item.choices, key=lambda c: order.index(c) if c in order else len(order)))


def _lowest_first(item: Any) -> tuple[Card, ...]:
    """Deviation: the engine's order read the wrong way round, lowest first."""
    return tuple(reversed(item.answer()))


MISCONCEPTIONS: tuple[Misconception, ...] = (
    *(changed(name, _order_under) for name in TRUMP_BELIEFS),
    Misconception(
        "lowest-first",
        _lowest_first,
        lambda item: "That is the order from the lowest: the highest trump comes first.",
    ),
)


@register
@dataclasses.dataclass(frozen=True, eq=False)
class TrumpOrderItem(QuizItem):
    """Put these trumps in order, highest first."""

    kind: ClassVar[str] = "trump-order"
    title: ClassVar[str] = "Trump order"
    order: ClassVar[int] = 40
    levels: ClassVar[Mapping[int, str]] = {
        1: "Three trumps far apart.",
        2: "Four trumps.",
        3: "Five trumps, with the close calls at the top.",
    }
    position_keys: ClassVar[tuple[frozenset[str], frozenset[str]]] = (
        frozenset({"choices"}),
        frozenset(),
    )
    misconceptions: ClassVar[tuple[Misconception, ...]] = MISCONCEPTIONS
    rules: Rules
    choices: tuple[Card, ...]
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        check_cards(self.rules, "a trump-order question", self.choices, most=len(self.rules.trump_order()))
        not_trumps = [c for c in self.choices if not self.rules.is_trump(c)]
        if not_trumps:
            raise SpadesError(
                f"{card_list(not_trumps)} {'is' if len(not_trumps) == 1 else 'are'} not trumps in {self.rules.name}"
            )

    @property
    def prompt(self) -> str:
        return "Put these trumps in order, highest first."

    def answer(self) -> tuple[Card, ...]:
        order = self.rules.trump_order()
        return tuple(sorted(self.choices, key=order.index))

    def check(self, response: Any) -> Feedback:
        chosen = parse_selection(response)
        right = self.answer()
        explanation = tuple(f"{c} is {self.rules.trump_position(c)}." for c in right)
        correct = chosen == right
        diagnosis = None if correct else self.diagnose(response)
        return Feedback(correct, card_list(right), explanation, diagnosis=diagnosis)

    def given(self, response: Any) -> tuple[Card, ...] | None:
        return parse_selection(response)

    def hint(self) -> str:
        return (
            f"In {self.rules.title}, {extra_trumps_note(self.rules)}. Start from the top: which trumps rank above the "
            "A♠ here, and in what order? Below them the spades run down by rank."
        )

    def position(self) -> dict[str, Any]:
        return {"choices": str(cards(self.choices))}

    # --- answers to try: the kind's own candidates for the checks every kind passes ---------------

    def right_forms(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        yield right
        yield " ".join(c.letters for c in right)

    def wrong_answers(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        cards = list(self.choices)
        orders: Iterator[tuple[Card, ...]]
        if len(cards) <= 5:
            orders = itertools.permutations(cards)
        else:  # each pair of neighbours swapped, and random orders
            swaps = []
            for i in range(len(cards) - 1):
                swapped = list(right)
                swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
                swaps.append(tuple(swapped))
            orders = iter([*swaps, *(tuple(rng.sample(cards, len(cards))) for _ in range(30))])
        for order in orders:
            if tuple(order) != tuple(right):
                yield order
        yield tuple(right[:-1])  # one card short
        yield (*right, right[0])  # a card twice
        yield tuple(reversed(right))

    def likely_answers(self, rng: random.Random) -> Iterator[Any]:
        for _ in range(8):
            yield " ".join(str(c) for c in rng.sample(list(self.choices), len(self.choices)))

    @classmethod
    def generate(cls, rules: Rules, seed: int, difficulty: int) -> TrumpOrderItem:
        return _trump_order(rules, seed, difficulty)

    @classmethod
    def from_position(cls, rules: Rules, data: Mapping[str, Any], **common: Any) -> TrumpOrderItem:
        return cls(rules, choices=cards(data["choices"]), **common)

    @classmethod
    def lesson_position(cls, rules: Rules, block: PositionReader) -> dict[str, Any]:
        return {"choices": block.cards("choices", len(rules.deck()), 2)}

    def view(self) -> ViewSpec:
        return ViewSpec(
            (
                Caption("Click the cards from highest to lowest; click again to take one back."),
                PickCards(self.choices, "order", "click the trumps from highest to lowest", sort=False),
            )
        )


def _trump_order(rules: Rules, seed: int, difficulty: int) -> TrumpOrderItem:
    rng = quiz_rng("trump-order", seed, difficulty)
    order = rules.trump_order()
    if difficulty == 1:
        chosen = [order[i] for i in far_apart(rng, len(order), 3, 3)]
    elif difficulty == 2:
        chosen = sample(rng, order, 4)
    else:
        tricky = list(tricky_cards(rules))
        must = sample(rng, tricky, min(len(tricky), uniform_between(rng, 2, 3))) if len(tricky) >= 2 else tricky
        ace = ace_of_spades(rules)
        if ace is not None and ace not in must:
            must.append(ace)
        top = [c for c in order[:7] if c not in must]
        if order[-1].rank == Rank.TWO and order[-1] not in must:
            top.append(order[-1])
        # perhaps one more card from the top, the rest from anywhere in the order
        chosen = (must + sample(rng, top, pick_from(rng, (0, 1))))[:5]
        rest = [c for c in order if c not in chosen]
        chosen = (chosen + sample(rng, rest, max(0, 5 - len(chosen))))[:5]
    shown = shuffled_copy(rng, chosen)
    answer = sorted(chosen, key=order.index)
    if shown == answer:  # already in order: rotate so there is something to do
        shown = shown[1:] + shown[:1]
    return TrumpOrderItem(rules, choices=tuple(shown), seed=seed, difficulty=difficulty)
