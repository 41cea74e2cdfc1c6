"""Who leads: the first trick of a deal, the next deal, or the trick after this one.

The first leader is the engine's ``explain_first_leader`` (left of the dealer, or the
2♣ holder where the table opens with the 2♣); after a trick, its winner leads
(``trick_winner``, ``explain_trick``).

Levels:
    1. who leads the first trick, the dealer given, or the trick after one won
       without a trump;
    2. who leads the first trick of a later deal, one to six hands from now (the
       deal passes left after each hand), or the trick after one a trump won; a
       third of the items ask about a deal, each a different one in 24 seeds;
    3. the trick after one where trumps fight (jokers or the 2♦ among them), or at a
       table that opens with the 2♣, who leads the first trick.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar

from ...engine import Card, Rules, Seat, SpadesError, cards, explain_first_leader, explain_trick, trick_winner
from ..base import Choice, Feedback, PositionReader, QuizItem, ShowTrick, ViewSpec, check_cards
from ..misconceptions import Misconception, trick_misconceptions, variant
from ..seeded import MAX_ROUNDS, balanced_pick, pick_from, play_through, quiz_rng
from . import register
from .trick_winner import trick_level

QUESTIONS = ("first", "next-deal", "next-trick")
_OPTIONS = tuple(s.label for s in Seat)
_TWO_OF_CLUBS = Card.parse("2C")


# --- the kind's wrong beliefs: a wrong answer one of them gives is named (``QuizItem.misconceptions``) ---


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
    return _first_lead(item, variant(item.rules, first_lead="left-of-dealer"), item.dealer)


MISCONCEPTIONS: tuple[Misconception, ...] = (
    *(
        Misconception(m.name, _only_next_trick(m.premise), m.says)
        for m in trick_misconceptions(lambda item: item.trick, _next_trick_seat)
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


@register
@dataclasses.dataclass(frozen=True, eq=False)
class FirstLeaderItem(QuizItem):
    """Who leads the first trick, the next deal, or the next trick?"""

    kind: ClassVar[str] = "first-leader"
    title: ClassVar[str] = "Who leads?"
    order: ClassVar[int] = 25
    levels: ClassVar[Mapping[int, str]] = {
        1: "Who leads the first trick, or the trick after one won without a trump.",
        2: "Who leads the first trick of the next deal, or the trick after one a trump won.",
        3: "The trick after a fight between trumps (or the 2♣ opening, where the table plays it).",
    }
    position_keys: ClassVar[tuple[frozenset[str], frozenset[str]]] = (
        frozenset({"question"}),
        frozenset({"dealer", "two_of_clubs", "trick", "leader", "hands"}),
    )
    misconceptions: ClassVar[tuple[Misconception, ...]] = MISCONCEPTIONS
    rules: Rules
    question: str
    dealer: Seat = Seat.WEST
    two_of_clubs: Seat | None = None  # who holds the 2♣ (a table that opens with it)
    trick: tuple[Card, ...] = ()
    leader: Seat = Seat.WEST
    hands: int = 1  # next-deal: the deal this many hands from now (1: the next one)
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        if self.question not in QUESTIONS:
            raise SpadesError(f"a who-leads question is one of {', '.join(QUESTIONS)}, not {self.question!r}")
        if self.question == "next-trick":
            check_cards(self.rules, "a who-leads trick", self.trick, least=4, most=4)
        elif self.rules.first_lead == "two-of-clubs" and self.question == "next-deal":
            raise SpadesError("this table opens with the 2♣: who leads the next deal depends on who is dealt it")
        elif self.rules.first_lead == "two-of-clubs" and self.two_of_clubs is None:
            raise SpadesError("this table opens with the 2♣: say who holds it (two_of_clubs)")
        if isinstance(self.hands, bool) or not isinstance(self.hands, int) or not 1 <= self.hands <= 12:
            raise SpadesError(f"a next-deal question looks 1 to 12 hands ahead, not {self.hands!r}")

    @property
    def prompt(self) -> str:
        if self.question == "first":
            holds = (
                f" {self.two_of_clubs} holds the 2♣."
                if self.rules.first_lead == "two-of-clubs" and self.two_of_clubs is not None
                else ""
            )
            return f"{self.dealer} dealt.{holds} Who leads the first trick?"
        if self.question == "next-deal":
            return f"{self.dealer} dealt this hand. Who leads the first trick {_later_hand(self.hands)}?"
        return f"{self.leader} led this trick. Who leads the next one?"

    def _decide(self) -> tuple[Seat, tuple[str, ...]]:
        if self.question == "first":
            seat, why = explain_first_leader(self.rules, self.dealer, self.two_of_clubs)
            return seat, (why,)
        if self.question == "next-deal":
            dealer = self.later_dealer()
            seat, why = explain_first_leader(self.rules, dealer)
            if self.hands == 1:
                return seat, (f"The deal passes left: {dealer} deals next.", why)
            passes = f"The deal passes left after each hand: {dealer} deals {self.hands} hands from now."
            return seat, (passes, why)
        winner = Seat((self.leader + trick_winner(self.rules, self.trick)) % 4)
        return winner, (explain_trick(self.rules, self.trick), f"{winner} won the trick, so {winner} leads next.")

    def answer(self) -> str:
        return self._decide()[0].label

    def later_dealer(self, step: int = 1) -> Seat:
        """Who deals the hand asked about, the deal passing ``step`` seats left after each hand."""
        return Seat((self.dealer + step * self.hands) % 4)

    def given(self, response: Any) -> str | None:
        if isinstance(response, Seat):
            return response.label
        if isinstance(response, str):
            try:
                return Seat.parse(response.strip()).label
            except (SpadesError, ValueError, KeyError, TypeError, AttributeError):
                return None
        return None

    def check(self, response: Any) -> Feedback:
        seat, why = self._decide()
        correct = self.given(response) == seat.label
        diagnosis = None if correct else self.diagnose(response)
        return Feedback(correct, seat.label, why, diagnosis=diagnosis)

    def hint(self) -> str:
        first = (
            "the holder of the 2♣ leads the first trick"
            if self.rules.first_lead == "two-of-clubs"
            else "the player on the dealer's left leads the first trick"
        )
        return f"In {self.rules.title}, {first}; the deal passes to the left after each hand; the winner of a trick leads the next."

    def position(self) -> dict[str, Any]:
        out: dict[str, Any] = {"question": self.question}
        if self.question == "next-trick":
            out |= {"trick": str(cards(self.trick)), "leader": self.leader.letter}
        else:
            out["dealer"] = self.dealer.letter
            if self.question == "next-deal" and self.hands != 1:
                out["hands"] = self.hands
            if self.two_of_clubs is not None:
                out["two_of_clubs"] = self.two_of_clubs.letter
        return out

    # --- answers to try: the kind's own candidates for the checks every kind passes ---------------

    def right_forms(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        yield right
        yield right[0]  # the seat's letter
        yield right.lower()

    def likely_answers(self, rng: random.Random) -> Iterator[Any]:
        yield from (s.label for s in Seat)

    @classmethod
    def generate(cls, rules: Rules, seed: int, difficulty: int) -> FirstLeaderItem:
        return _first_leader(rules, seed, difficulty)

    @classmethod
    def from_position(cls, rules: Rules, data: Mapping[str, Any], **common: Any) -> FirstLeaderItem:
        holder = data.get("two_of_clubs")
        return cls(
            rules,
            question=str(data["question"]),
            dealer=Seat.parse(data.get("dealer", "W")),
            two_of_clubs=Seat.parse(holder) if holder is not None else None,
            trick=cards(data.get("trick", "")),
            leader=Seat.parse(data.get("leader", "W")),
            hands=int(data.get("hands", 1)),
            **common,
        )

    @classmethod
    def lesson_position(cls, rules: Rules, block: PositionReader) -> dict[str, Any]:
        question = block.value("question")
        if question not in QUESTIONS:
            raise block.error(f"question: one of {', '.join(QUESTIONS)}")
        if question == "next-trick":
            leader: Seat = block.value("leader", Seat.WEST)
            return {"question": question, "trick": block.cards("trick", 4, 4), "leader": leader.letter}
        dealer: Seat = block.value("dealer", Seat.WEST)
        out: dict[str, Any] = {"question": question, "dealer": dealer.letter}
        hands = block.value("hands", 1)
        if question == "next-deal" and hands != 1:
            out["hands"] = hands
        holder: Seat | None = block.value("two_of_clubs")  # asked only at a table that opens with the 2♣
        if holder is not None:
            out["two_of_clubs"] = holder.letter
        return out

    def view(self) -> ViewSpec:
        parts: list[Any] = []
        if self.question == "next-trick":  # the other questions are all in the prompt, shown above the view
            parts.append(ShowTrick(self.leader, self.trick, "the trick just played"))
        parts.append(Choice(_OPTIONS, "Who leads?", "Choose a seat first."))
        return ViewSpec(tuple(parts))


def _later_hand(hands: int) -> str:
    """``'of the next hand'``, ``'of the hand after next'``, ``'3 hands from now'`` …"""
    if hands == 1:
        return "of the next hand"
    if hands == 2:
        return "of the hand after next"
    return f"{hands} hands from now"


_KIND = "first-leader"
#: the later deals level 2 asks about: every dealer, one to six hands ahead
_LATER_DEALS = tuple((dealer, hands) for dealer in Seat for hands in range(1, 7))


def _first_leader(rules: Rules, seed: int, difficulty: int) -> FirstLeaderItem:
    rng = quiz_rng(_KIND, seed, difficulty)
    common: dict[str, Any] = {"seed": seed, "difficulty": difficulty}
    dealer = pick_from(rng, tuple(Seat))
    opens_with_clubs = rules.first_lead == "two-of-clubs"
    if difficulty == 1:
        question = pick_from(rng, ("first", "next-trick"))
    elif difficulty == 2:
        question = (
            "next-trick"
            if opens_with_clubs
            else balanced_pick(_KIND, seed, 2, ("next-deal", "next-trick", "next-trick"))
        )
    else:
        question = pick_from(rng, ("first", "next-trick")) if opens_with_clubs else "next-trick"
    if question == "first":
        # at a table that opens with the 2♣, its holder is never the dealer's left: the rule decides
        holder = pick_from(rng, [s for s in Seat if s != dealer.left]) if opens_with_clubs else None
        return FirstLeaderItem(rules, question="first", dealer=dealer, two_of_clubs=holder, **common)
    if question == "next-deal":  # each third seed asks one: 24 seeds in a row ask 24 different ones
        dealer, hands = balanced_pick(_KIND, seed // 3, 2, _LATER_DEALS)
        return FirstLeaderItem(rules, question="next-deal", dealer=dealer, hands=hands, **common)
    wanted = {1: (1,), 2: (2,), 3: (3,)}[difficulty]
    for _ in range(MAX_ROUNDS):
        rnd = play_through(rules, rng, False, lambda _rnd: None)
        found = [t for t in rnd.tricks if trick_level(rules, t.cards) in wanted]
        if found:
            trick = pick_from(rng, found)
            return FirstLeaderItem(rules, question="next-trick", trick=trick.cards, leader=trick.leader, **common)
    raise SpadesError(  # pragma: no cover - such tricks turn up in the first few rounds
        f"no who-leads trick of difficulty {difficulty} found for seed {seed} in {rules.name}"
    )
