"""What would you bid: a hand at South, the dealer named, and a bid of 1 to 13 to give.

The answer is measured: the hand is played ``BID_DEALS`` times by the heuristic bots
(``hand_odds``, seed ``BID_SEED``, the dealer fixed) and the best bid is the one with the
most expected points for the side. A bid is right when it is within ``BID_SLACK`` (one
trick) of the best bid: the bots' play varies, and a trick either side of the best bid
scores nearly as well on most hands; the feedback quotes each accepted bid's expected
points and plots what every bid from 1 to 13 scores, with its 95% interval (``bid_plot``).

Levels (by how many trumps the hand holds, the hardest thing to value):
    1. two trumps or fewer;
    2. three or four trumps;
    3. five trumps or more.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ...engine import Card, Rules, Seat, cards
from .. import misconceptions as catalogue
from ..base import (
    Caption,
    Feedback,
    FeedbackView,
    NumberField,
    Numbers,
    Plot,
    PositionReader,
    QuizItem,
    ShowCards,
    ViewSpec,
    _check_cards,
    _whole,
)
from ..seeded import _below, _hands, _rng
from . import register

if TYPE_CHECKING:
    from ...lab.odds import HandOdds

__all__ = ["BID_DEALS", "BID_SEED", "BID_SLACK", "BestBidItem"]

BID_DEALS = 400
BID_SEED = 0
#: a bid this many tricks or fewer from the best bid is right
BID_SLACK = 1


@functools.lru_cache(maxsize=1024)
def _measured(rules: Rules, hand: tuple[Card, ...], dealer: Seat) -> HandOdds:
    from ...lab.odds import hand_odds  # the simulator loads only when a hand is measured

    return hand_odds(rules, hand, Seat.SOUTH, deals=BID_DEALS, seed=BID_SEED, dealer=dealer)


@register
@dataclasses.dataclass(frozen=True, eq=False)
class BestBidItem(QuizItem):
    """What would you bid with this hand (South, the dealer given)?"""

    kind: ClassVar[str] = "best-bid"
    title: ClassVar[str] = "What would you bid?"
    misconceptions: ClassVar[tuple[catalogue.Misconception, ...]] = catalogue.BEST_BID
    order: ClassVar[int] = 80
    levels: ClassVar[Mapping[int, str]] = {
        1: "Hands with two trumps or fewer.",
        2: "Hands with three or four trumps.",
        3: "Hands with five trumps or more.",
    }
    position_keys: ClassVar[tuple[frozenset[str], frozenset[str]]] = (
        frozenset({"hand"}),
        frozenset({"dealer"}),
    )
    rules: Rules
    hand: tuple[Card, ...]
    dealer: Seat = Seat.WEST
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        _check_cards(self.rules, "a hand to bid", self.hand, least=13, most=13)

    @property
    def prompt(self) -> str:
        return f"You sit South and {_dealt(self.dealer)}. What would you bid (1 to 13)?"

    def odds(self) -> HandOdds:
        """The hand measured (cached per rule set, hand and dealer)."""
        return _measured(self.rules, tuple(sorted(self.hand, key=lambda c: c.index)), self.dealer)

    def answer(self) -> int:
        return self.odds().best_bid

    def accepted(self) -> tuple[int, ...]:
        """The bids counted right: within ``BID_SLACK`` of the best bid."""
        best = self.answer()
        return tuple(b for b in sorted(self.odds().points) if abs(b - best) <= BID_SLACK)

    def check(self, response: Any) -> Feedback:
        try:
            given = _whole(response)
        except (TypeError, ValueError):
            given = -1
        odds = self.odds()
        accepted = self.accepted()
        best = odds.best_bid
        others = [b for b in accepted if b != best]
        right = f"{best} (or {_or(others)})" if others else str(best)
        worth = "; ".join(
            f"bid {b}: {odds.points[b]:+.0f} (95% interval {lo:+.0f} to {hi:+.0f})"
            for b in accepted
            for lo, hi in (odds.points_interval[b],)
        )
        lines = [
            f"The bots played this hand {BID_DEALS} times from South ({_dealt(self.dealer)}): {odds.sentence()}.",
            f"A bid within {BID_SLACK} of the best scores nearly as well, so {_or(list(accepted))} counts as right. "
            f"The side's expected points: {worth}.",
        ]
        if given in odds.points and given not in accepted:
            lo, hi = odds.points_interval[given]
            lines.append(f"Your bid of {given}: {odds.points[given]:+.0f} (95% interval {lo:+.0f} to {hi:+.0f}).")
        correct = given in accepted
        diagnosis = None if correct else self.diagnose(response)
        return Feedback(correct, right, tuple(lines), diagnosis=diagnosis)

    def given(self, response: Any) -> int | None:
        try:
            return _whole(response)
        except (TypeError, ValueError):
            return None

    def feedback_view(self, feedback: Feedback, selected: tuple[str, ...] = ()) -> FeedbackView:
        return FeedbackView(plot=points_plot(self.odds(), self.accepted()))

    def hint(self) -> str:
        return (
            "Count the tricks the hand should take: high trumps, side aces and kings that can win before "
            "they are trumped, and extra trumps to ruff a short suit. A set costs more than a bag."
        )

    def position(self) -> dict[str, Any]:
        return {"hand": str(cards(self.hand)), "dealer": self.dealer.name}

    @classmethod
    def generate(cls, rules: Rules, seed: int, difficulty: int) -> BestBidItem:
        rng = _rng("best-bid", seed, difficulty)
        dealer = tuple(Seat)[_below(rng, 4)]
        for hand in _hands(rules, rng):
            if _bid_level(rules, hand) == difficulty:
                return cls(rules, hand=rules.sort_hand(hand), dealer=dealer, seed=seed, difficulty=difficulty)
        raise AssertionError("unreachable: the hands never end")

    @classmethod
    def from_position(cls, rules: Rules, data: Mapping[str, Any], **common: Any) -> BestBidItem:
        dealer = Seat.parse(data.get("dealer", "W"))
        return cls(rules, hand=cards(data["hand"]), dealer=dealer, **common)

    @classmethod
    def lesson_position(cls, rules: Rules, block: PositionReader) -> dict[str, Any]:
        return {"hand": block.cards("hand", 13, 13), "dealer": Seat.parse(block.value("dealer", "W")).name}

    def view(self) -> ViewSpec:
        bid = NumberField("bid", "Your bid:", min=1, max=13, width=4)
        return ViewSpec(
            (
                Caption(f"South's hand; {_dealt(self.dealer)}."),
                ShowCards(self.hand, "the hand"),
                Numbers((bid,), _bid_response),
            )
        )


def _dealt(dealer: Seat) -> str:
    return "you dealt" if dealer == Seat.SOUTH else f"{dealer.label} dealt"


def _bid_response(values: Mapping[str, int]) -> int:
    return values["bid"]


def _bid_level(rules: Rules, hand: Sequence[Card]) -> int:
    trumps = sum(1 for c in hand if rules.is_trump(c))
    return 1 if trumps <= 2 else 2 if trumps <= 4 else 3


def _or(items: Sequence[int]) -> str:
    words = [str(i) for i in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def points_plot(odds: HandOdds, accepted: Sequence[int]) -> Plot:
    """What each bid scores (the side's mean points and 95% interval, as ``odds`` measured them),
    the accepted bids highlighted and the best marked; named by its one-line reading."""
    from ...lab.bid_plot import BID_PLOT_HEIGHT, bid_key, bid_reading, bid_spec

    return Plot(bid_spec(odds, accepted), bid_reading(odds, accepted), BID_PLOT_HEIGHT, bid_key(odds, accepted))
