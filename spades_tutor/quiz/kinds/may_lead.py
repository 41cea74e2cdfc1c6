"""May you lead this card? (And are spades broken yet?)

The answer is the engine's ``why_illegal`` for leading the card; positions are reached
in seeded rounds played with legal cards, so "spades broken" is the table's own.

Levels:
    1. spades are not broken (the prompt says so): a side card or a natural spade;
    2. the prompt says whether spades are broken: a natural spade led before or
       after, a side card before, or a spade from a hand of nothing but trumps
       (so "broken" in the prompt does not give the answer away: "yes" and "no"
       come up equally often);
    3. the earlier tricks are shown and the prompt does not say whether spades are
       broken; the card is a joker (or the 2♦ in deuces-high) or a spade, or the
       hand holds nothing but trumps.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from ...engine import Card, Round, Rules, Seat, SpadesError, cards, legal_plays, why_illegal
from ..base import (
    Caption,
    Choice,
    Feedback,
    PositionReader,
    QuizItem,
    ShowCards,
    ShowTable,
    ViewSpec,
    card_list,
    check_cards,
    extra_trumps_note,
)
from ..misconceptions import TWO_OF_DIAMONDS, Misconception, changed, trump_named
from ..seeded import MAX_ROUNDS, balanced_pick, coin_flip, extra_trumps_of, pick_from, play_through, quiz_rng
from . import register

Earlier = tuple[tuple[Seat, tuple[Card, ...]], ...]


# --- the kind's wrong beliefs: a wrong answer one of them gives is named (``QuizItem.misconceptions``) ---


def _may(rules: Rules, hand: Sequence[Card], card: Card, broken: bool) -> str:
    return "yes" if why_illegal(rules, hand, card, (), broken) is None else "no"


def _deuce_led(item: Any, rules: Rules) -> str | None:
    """May the 2♦ be led, under ``rules`` (the 2♦ believed a diamond)."""
    if item.spades_broken or item.card != TWO_OF_DIAMONDS:
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


MISCONCEPTIONS: tuple[Misconception, ...] = (
    changed(
        "deuce-as-diamond",
        _deuce_led,
        lambda item: (
            f"Spades are not broken: you may not lead the 2♦ in {item.rules.name}, where it counts as a spade."
        ),
    ),
    Misconception(
        "ignores-unbroken-spades",
        _lead_unbroken,
        lambda item: f"Spades are not broken: you may not lead {trump_named(item.rules, (item.card,))}.",
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


@register
@dataclasses.dataclass(frozen=True, eq=False)
class MayLeadItem(QuizItem):
    """You are to lead: may you lead this card?"""

    kind: ClassVar[str] = "may-lead"
    title: ClassVar[str] = "May you lead it?"
    order: ClassVar[int] = 15
    levels: ClassVar[Mapping[int, str]] = {
        1: "Spades are not broken: a side card or a spade.",
        2: "Spades broken or not (you are told): a spade, a side card, or a hand of only trumps.",
        3: "Are spades broken yet? The earlier tricks are shown; jokers, the 2♦, a hand of only trumps.",
    }
    position_keys: ClassVar[tuple[frozenset[str], frozenset[str]]] = (
        frozenset({"hand", "card"}),
        frozenset({"spades_broken", "earlier", "seat"}),
    )
    misconceptions: ClassVar[tuple[Misconception, ...]] = MISCONCEPTIONS
    rules: Rules
    hand: tuple[Card, ...]
    card: Card
    spades_broken: bool = False
    earlier: Earlier = ()  # the tricks played so far (shown instead of saying whether spades are broken)
    seat: Seat = Seat.SOUTH
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        check_cards(self.rules, "a may-lead hand", self.hand)
        if self.card not in self.hand:
            raise SpadesError(f"{self.card} is not in the hand {card_list(self.hand)}")
        for _, trick in self.earlier:
            check_cards(self.rules, "an earlier trick", trick, least=4, most=4)
        seen = [c for _, t in self.earlier for c in t]
        if len(set(seen) | set(self.hand)) != len(seen) + len(self.hand):
            raise SpadesError("a card appears twice among the hand and the earlier tricks")

    @property
    def prompt(self) -> str:
        if self.earlier:
            return f"You are to lead. Are spades broken yet? May you lead {self.card}?"
        broken = "Spades are broken." if self.spades_broken else "Spades are not broken yet."
        return f"You are to lead. {broken} May you lead {self.card}?"

    def answer(self) -> str:
        return "yes" if why_illegal(self.rules, self.hand, self.card, (), self.spades_broken) is None else "no"

    def _broken_note(self) -> str:
        """Which earlier card broke spades (or that none did): shown when the prompt did not say."""
        if not self.earlier:
            return ""
        for n, (_, trick) in enumerate(self.earlier, 1):
            trumps = [c for c in trick if self.rules.is_trump(c)]
            if trumps:
                return f"Spades are broken: {card_list(trumps)} {'was' if len(trumps) == 1 else 'were'} played to trick {n}."
        return "Spades are not broken: no trump has been played yet."

    def check(self, response: Any) -> Feedback:
        given = response.strip().lower() if isinstance(response, str) else None
        rules, card = self.rules, self.card
        why = why_illegal(rules, self.hand, card, (), self.spades_broken)
        if why is not None:
            because = str(why)
        elif self.spades_broken:
            because = f"Spades are broken, so you may lead any card, {card} too."
        elif not rules.is_trump(card):
            because = f"{card} is not a trump, so you may lead it before spades are broken."
        else:
            because = "You hold nothing but trumps, so you may lead one even though spades are not broken."
        note = self._broken_note()
        explanation = (note, because) if note else (because,)
        correct = given == self.answer()
        diagnosis = None if correct else self.diagnose(response)
        return Feedback(correct, self.answer(), explanation, diagnosis=diagnosis)

    def given(self, response: Any) -> str | None:
        return response.strip().lower() if isinstance(response, str) else None

    def hint(self) -> str:
        return (
            f"A trump may not be led before spades are broken ({extra_trumps_note(self.rules)}), unless the hand "
            "holds nothing but trumps. Spades are broken once a trump has been played to a trick."
        )

    def position(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": str(cards(self.hand)),
            "card": str(self.card),
            "spades_broken": self.spades_broken,
            "seat": self.seat.letter,
        }
        if self.earlier:
            out["earlier"] = [f"{leader.letter}: {cards(trick)}" for leader, trick in self.earlier]
        return out

    # --- answers to try: the kind's own candidates for the checks every kind passes ---------------

    def right_forms(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        yield right
        yield f" {right.upper()} "

    def likely_answers(self, rng: random.Random) -> Iterator[Any]:
        yield from ("yes", "no")

    @classmethod
    def generate(cls, rules: Rules, seed: int, difficulty: int) -> MayLeadItem:
        return _may_lead(rules, seed, difficulty)

    @classmethod
    def from_position(cls, rules: Rules, data: Mapping[str, Any], **common: Any) -> MayLeadItem:
        earlier = []
        for line in data.get("earlier", ()):
            leader, _, played = str(line).partition(":")
            earlier.append((Seat.parse(leader.strip()), cards(played)))
        return cls(
            rules,
            hand=cards(data["hand"]),
            card=Card.parse(data["card"]),
            spades_broken=bool(data.get("spades_broken", False)),
            earlier=tuple(earlier),
            seat=Seat.parse(data.get("seat", "S")),
            **common,
        )

    @classmethod
    def lesson_position(cls, rules: Rules, block: PositionReader) -> dict[str, Any]:
        (card,) = block.cards("card", 1, 1)
        seat: Seat = block.value("seat", Seat.SOUTH)
        return {
            "hand": block.cards("hand", 13),
            "card": str(card),
            "spades_broken": bool(block.value("spades_broken", False)),
            "seat": seat.letter,
        }

    def view(self) -> ViewSpec:
        parts: list[Any] = []
        if self.earlier:
            rows = tuple((str(n), leader.label, card_list(trick)) for n, (leader, trick) in enumerate(self.earlier, 1))
            parts.append(ShowTable(("trick", "led by", "cards in play order"), rows, "The tricks played so far."))
        parts.append(ShowCards(self.hand, f"your hand ({self.seat})"))
        parts.append(Caption(f"May you lead {self.card}?"))
        parts.append(Choice(("yes", "no"), f"Lead {self.card}?", "Choose yes or no first."))
        return ViewSpec(tuple(parts))


def _lead_type(rules: Rules, hand: Sequence[Card], card: Card, broken: bool, played: int) -> int:
    """The level a lead of ``card`` belongs to (``played`` tricks so far); 0: none."""
    if card in extra_trumps_of(rules) or all(rules.is_trump(c) for c in hand):
        return 3
    early = played < 5
    if not rules.is_trump(card):
        return 1 if early and not broken else 0
    return 1 if early and not broken else 2


#: level 2's cases, drawn in turn (``balanced_pick``): half are "no", and of the leads the prompt
#: calls unbroken, half are "yes" (a side card, or a hand of nothing but trumps)
_LEVEL_2_CASES = ("trump-unbroken", "trump-unbroken", "trump-unbroken", "trump-broken", "side-unbroken", "only-trumps")


def _level_2_case(rules: Rules, hand: Sequence[Card], card: Card, broken: bool) -> str:
    """The level-2 case a lead of ``card`` is ("": none; the jokers and the 2♦ stay at level 3)."""
    if card in extra_trumps_of(rules) or (broken and not rules.is_trump(card)):
        return ""
    if all(rules.is_trump(c) for c in hand):
        return "" if broken else "only-trumps"
    if not rules.is_trump(card):
        return "side-unbroken"
    return "trump-broken" if broken else "trump-unbroken"


def _may_lead(rules: Rules, seed: int, difficulty: int) -> MayLeadItem:
    rng = quiz_rng("may-lead", seed, difficulty)
    want_yes = coin_flip(rng, 0.5)
    case = balanced_pick("may-lead", seed, difficulty, _LEVEL_2_CASES) if difficulty == 2 else ""
    found: list[tuple[Any, ...]] = []

    def visit(rnd: Round) -> None:
        if rnd.trick.cards or not rnd.tricks:  # a lead after the first trick (the first lead has rules of its own)
            return
        seat = rnd.to_act
        assert seat is not None
        hand, broken = rnd.hands[seat], rnd.spades_broken
        if set(legal_plays(rules, hand, (), broken)) != set(rnd.legal_plays()):
            return
        for card in hand:
            if case:
                if _level_2_case(rules, hand, card, broken) == case:
                    found.append((hand, card, broken, (), seat))
                continue
            level = _lead_type(rules, hand, card, broken, len(rnd.tricks))
            if difficulty == 3 and level == 2 and coin_flip(rng, 0.3):
                level = 3  # a plain spade, but the earlier tricks must tell whether spades are broken
            if level != difficulty:
                continue
            legal = why_illegal(rules, hand, card, (), broken) is None
            if legal == want_yes:
                earlier = tuple((t.leader, t.cards) for t in rnd.tricks) if difficulty == 3 else ()
                found.append((hand, card, broken, earlier, seat))

    for _ in range(MAX_ROUNDS):
        found.clear()
        averse = coin_flip(rng, 0.5) or case in ("side-unbroken", "only-trumps")  # spades stay unbroken longer
        play_through(rules, rng, averse, visit)
        if found:
            hand, card, broken, earlier, seat = pick_from(rng, found)
            return MayLeadItem(
                rules,
                hand=rules.sort_hand(hand),
                card=card,
                spades_broken=broken,
                earlier=earlier,
                seat=seat,
                seed=seed,
                difficulty=difficulty,
            )
    raise SpadesError(  # pragma: no cover - every level turns up within a few rounds
        f"no may-lead position of difficulty {difficulty} found for seed {seed} in {rules.name}"
    )
