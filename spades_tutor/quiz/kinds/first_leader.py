"""Who leads: the first trick of a deal, the next deal, or the trick after this one.

The first leader is the engine's ``explain_first_leader`` (left of the dealer, or the
2♣ holder where the table opens with the 2♣); after a trick, its winner leads
(``trick_winner``, ``explain_trick``).

Levels:
    1. who leads the first trick, the dealer given, or the trick after one won
       without a trump;
    2. who leads the first trick of the next deal (the deal passes left), or the
       trick after one a trump won;
    3. the trick after one where trumps fight (jokers or the 2♦ among them), or at a
       table that opens with the 2♣, who leads the first trick.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar

from ...engine import Card, Rules, Seat, SpadesError, cards, explain_first_leader, explain_trick, trick_winner
from .. import misconceptions as catalogue
from ..base import Choice, Feedback, PositionReader, QuizItem, ShowTrick, ViewSpec, _check_cards
from ..seeded import MAX_ROUNDS, _choice, _play_through, _rng
from . import register
from .trick_winner import _trick_level

QUESTIONS = ("first", "next-deal", "next-trick")
_OPTIONS = tuple(s.label for s in Seat)
_TWO_OF_CLUBS = Card.parse("2C")


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
        frozenset({"dealer", "two_of_clubs", "trick", "leader"}),
    )
    misconceptions: ClassVar[tuple[catalogue.Misconception, ...]] = catalogue.FIRST_LEADER
    rules: Rules
    question: str
    dealer: Seat = Seat.WEST
    two_of_clubs: Seat | None = None  # who holds the 2♣ (a table that opens with it)
    trick: tuple[Card, ...] = ()
    leader: Seat = Seat.WEST
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        if self.question not in QUESTIONS:
            raise SpadesError(f"a who-leads question is one of {', '.join(QUESTIONS)}, not {self.question!r}")
        if self.question == "next-trick":
            _check_cards(self.rules, "a who-leads trick", self.trick, least=4, most=4)
        elif self.rules.first_lead == "two-of-clubs" and self.question == "next-deal":
            raise SpadesError("this table opens with the 2♣: who leads the next deal depends on who is dealt it")
        elif self.rules.first_lead == "two-of-clubs" and self.two_of_clubs is None:
            raise SpadesError("this table opens with the 2♣: say who holds it (two_of_clubs)")

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
            return f"{self.dealer} dealt this hand. Who leads the first trick of the next hand?"
        return f"{self.leader} led this trick. Who leads the next one?"

    def _decide(self) -> tuple[Seat, tuple[str, ...]]:
        if self.question == "first":
            seat, why = explain_first_leader(self.rules, self.dealer, self.two_of_clubs)
            return seat, (why,)
        if self.question == "next-deal":
            seat, why = explain_first_leader(self.rules, self.dealer.left)
            return seat, (f"The deal passes left: {self.dealer.left} deals next.", why)
        winner = Seat((self.leader + trick_winner(self.rules, self.trick)) % 4)
        return winner, (explain_trick(self.rules, self.trick), f"{winner} won the trick, so {winner} leads next.")

    def answer(self) -> str:
        return self._decide()[0].label

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
            if self.two_of_clubs is not None:
                out["two_of_clubs"] = self.two_of_clubs.letter
        return out

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
        out = {"question": question, "dealer": dealer.letter}
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


def _first_leader(rules: Rules, seed: int, difficulty: int) -> FirstLeaderItem:
    rng = _rng("first-leader", seed, difficulty)
    common: dict[str, Any] = {"seed": seed, "difficulty": difficulty}
    dealer = _choice(rng, tuple(Seat))
    opens_with_clubs = rules.first_lead == "two-of-clubs"
    if difficulty == 1:
        question = _choice(rng, ("first", "next-trick"))
    elif difficulty == 2:
        question = "next-trick" if opens_with_clubs else _choice(rng, ("next-deal", "next-trick"))
    else:
        question = _choice(rng, ("first", "next-trick")) if opens_with_clubs else "next-trick"
    if question == "first":
        # at a table that opens with the 2♣, its holder is never the dealer's left: the rule decides
        holder = _choice(rng, [s for s in Seat if s != dealer.left]) if opens_with_clubs else None
        return FirstLeaderItem(rules, question="first", dealer=dealer, two_of_clubs=holder, **common)
    if question == "next-deal":
        return FirstLeaderItem(rules, question="next-deal", dealer=dealer, **common)
    wanted = {1: (1,), 2: (2,), 3: (3,)}[difficulty]
    for _ in range(MAX_ROUNDS):
        rnd = _play_through(rules, rng, False, lambda _rnd: None)
        found = [t for t in rnd.tricks if _trick_level(rules, t.cards) in wanted]
        if found:
            trick = _choice(rng, found)
            return FirstLeaderItem(rules, question="next-trick", trick=trick.cards, leader=trick.leader, **common)
    raise SpadesError(  # pragma: no cover - such tricks turn up in the first few rounds
        f"no who-leads trick of difficulty {difficulty} found for seed {seed} in {rules.name}"
    )
