"""Bids, the score of a hand line by line, and the end of the game.

>>> from spades_tutor.engine.rules import Rules
>>> from spades_tutor.engine.seats import Seat, Team
>>> rules = Rules.preset("jokers")
>>> s = score_hand(rules, {Seat.NORTH: 4, Seat.SOUTH: 3, Seat.EAST: 2, Seat.WEST: 2},
...                {Seat.NORTH: 5, Seat.SOUTH: 3, Seat.EAST: 3, Seat.WEST: 2})
>>> s[Team.NS].points, s[Team.NS].bags
(71, 1)
>>> for line in s[Team.NS].lines: print(line)
Contract 7 made (N 4 + S 3, took 8): +70
1 bag (a trick over the contract): +1
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

from .errors import SpadesError
from .rules import Rules
from .seats import Seat, Team
from .text import number, plural, signed

__all__ = [
    "BLIND_NIL",
    "NIL",
    "Bid",
    "HandScore",
    "ScoreLine",
    "explain_game",
    "explain_totals",
    "game_winner",
    "score_hand",
    "score_side",
]


_BID_NUMBER = re.compile(r"[+-]?[0-9]{1,3}")


class Bid:
    """A bid: a number of tricks 1–13, nil, or blind nil.

    Compares equal to its number when it is not blind, so ``Bid(3) == 3`` and
    ``NIL == 0``.

    >>> Bid.parse("nil") == NIL == 0, str(BLIND_NIL), Bid.parse("4") == 4
    (True, 'blind nil', True)
    """

    __slots__ = ("blind", "tricks")

    tricks: int
    blind: bool

    def __init__(self, tricks: int, blind: bool = False) -> None:
        if isinstance(tricks, bool) or not isinstance(tricks, int):
            raise SpadesError(f"not a bid: {tricks!r} (a bid is a number of tricks, 'nil' or 'blind nil')")
        if blind and tricks != 0:
            raise SpadesError(f"a blind bid is always nil, not {tricks}")
        object.__setattr__(self, "tricks", tricks)
        object.__setattr__(self, "blind", blind)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Bid is immutable")

    @classmethod
    def parse(cls, value: Bid | int | str) -> Bid:
        """A bid from a number (0 means nil), ``'nil'``, ``'blind nil'`` or a ``Bid``."""
        if isinstance(value, Bid):
            return value
        if isinstance(value, str):
            text = value.strip()
            if _BID_NUMBER.fullmatch(text):  # ASCII digits only: "²".isdigit() is true, int("²") fails
                return cls(int(text))
            key = text.lower().replace("-", " ").replace("_", " ")
            if key == "nil":
                return NIL
            if key in ("blind nil", "blind", "bn"):
                return BLIND_NIL
            raise SpadesError(f"not a bid: {value!r} (write a number, 'nil' or 'blind nil')")
        return cls(value)

    @property
    def is_nil(self) -> bool:
        """True for nil and blind nil."""
        return self.tricks == 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Bid):
            return (self.tricks, self.blind) == (other.tricks, other.blind)
        if isinstance(other, int) and not isinstance(other, bool):
            return not self.blind and self.tricks == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("blind nil", 0)) if self.blind else hash(self.tricks)

    def __str__(self) -> str:
        if self.blind:
            return "blind nil"
        return "nil" if self.tricks == 0 else str(self.tricks)

    def __repr__(self) -> str:
        if self.blind:
            return "BLIND_NIL"
        return "NIL" if self.tricks == 0 else f"Bid({self.tricks})"

    def to_json(self) -> int | str:
        return "blind nil" if self.blind else self.tricks


NIL = Bid(0)
BLIND_NIL = Bid(0, blind=True)


@dataclasses.dataclass(frozen=True)
class ScoreLine:
    """One labelled item of a hand's score."""

    label: str
    points: int
    kind: str = ""  # contract / bonus / bags / nil / blind-nil / penalty / failed-nil-bags

    def __str__(self) -> str:
        return f"{self.label}: {signed(self.points)}"


@dataclasses.dataclass(frozen=True)
class HandScore:
    """A team's score for one hand: ``.lines`` add up to ``.points``; ``.bags`` is the count after."""

    team: Team
    points: int
    bags: int
    lines: tuple[ScoreLine, ...]
    new_bags: int = 0  # bags taken this hand, before any penalty

    def __str__(self) -> str:
        body = "\n".join(f"  {line}" for line in self.lines) or "  (nothing)"
        return f"{self.team.label}: {signed(self.points)} (bags now {self.bags})\n{body}"


def score_hand(
    rules: Rules,
    bids: Mapping[Seat, Bid | int | str],
    tricks: Mapping[Seat, int],
    bags: Mapping[Team, int] | None = None,
) -> dict[Team, HandScore]:
    """Score one hand for both teams, line by line.

    ``bids`` and ``tricks`` map each seat to its bid and its tricks taken;
    ``bags`` is each team's bag count before the hand (0 if omitted).

    >>> from spades_tutor.engine.rules import Rules
    >>> s = score_hand(Rules.preset("jokers"),
    ...     {Seat.NORTH: "nil", Seat.SOUTH: 2, Seat.EAST: 5, Seat.WEST: 4},
    ...     {Seat.NORTH: 1, Seat.SOUTH: 1, Seat.EAST: 6, Seat.WEST: 5})
    >>> print(s[Team.NS])
    North–South: −119 (bags now 1)
      North's nil failed (took 1 trick): −100
      Contract 2 set (S 2, took 1): −20
      1 bag from the failed nil's trick: +1

    With ``failed_nil_tricks="partner"`` the failed nil's tricks count toward the contract,
    and the line says whose they were:

    >>> partner = dataclasses.replace(Rules.preset("jokers"), failed_nil_tricks="partner")
    >>> s = score_hand(partner, {Seat.NORTH: 5, Seat.SOUTH: 4, Seat.EAST: 2, Seat.WEST: "nil"},
    ...                {Seat.NORTH: 11, Seat.SOUTH: 0, Seat.EAST: 0, Seat.WEST: 2})
    >>> print(s[Team.EW].lines[1])
    Contract 2 made (E 2, took 0 + W's 2 from the failed nil): +20
    """
    bid = {Seat(s): Bid.parse(b) for s, b in bids.items()}
    took = {Seat(s): int(t) for s, t in tricks.items()}
    missing = [s.label for s in Seat if s not in bid or s not in took]
    if missing:
        raise SpadesError(f"score_hand needs a bid and a trick count for every seat; missing {', '.join(missing)}")
    if sum(took.values()) != 13 or min(took.values()) < 0:
        counts = ", ".join(f"{s.letter} {took[s]}" for s in Seat)
        raise SpadesError(f"the tricks taken must be 0 or more and add up to 13, not {counts}")
    before = {Team.NS: 0, Team.EW: 0}
    if bags:
        before.update({Team(t): int(n) for t, n in bags.items()})
    return {team: score_side(rules, team, bid, took, before[team]) for team in Team}


def score_side(rules: Rules, team: Team, bid: Mapping[Seat, Bid], took: Mapping[Seat, int], bags: int) -> HandScore:
    """One side's score, line by line, from its two seats' bids and tricks and its bags before:
    ``score_hand``'s own step, for callers that score many outcomes of one side (the other side's
    bids and tricks never change it). Nothing is checked: ``score_hand`` checks what it is given."""
    lines: list[ScoreLine] = []
    new_bags = 0
    contract = 0
    counted = 0
    bidders: list[Seat] = []
    nil_tricks = 0
    for seat in team.seats:
        b = bid[seat]
        if b.is_nil:
            value = rules.blind_nil_value if b.blind else rules.nil_value
            kind = "blind-nil" if b.blind else "nil"
            what = "blind nil" if b.blind else "nil"
            if took[seat] == 0:
                lines.append(ScoreLine(f"{seat.label}'s {what} made", value, kind))
            else:
                lines.append(
                    ScoreLine(f"{seat.label}'s {what} failed (took {plural(took[seat], 'trick')})", -value, kind)
                )
                nil_tricks += took[seat]
        else:
            contract += b.tricks
            counted += took[seat]
            bidders.append(seat)
    took_words = str(counted)
    if rules.failed_nil_tricks == "partner":
        counted += nil_tricks
        if nil_tricks and bidders:  # say whose tricks they were: the bidder did not take them
            (nil_seat,) = (s for s in team.seats if bid[s].is_nil)
            took_words += f" + {nil_seat.letter}'s {nil_tricks} from the failed nil"
    if bidders:
        who = " + ".join(f"{s.letter} {bid[s]}" for s in bidders)
        if counted >= contract:
            lines.append(
                ScoreLine(
                    f"Contract {contract} made ({who}, took {took_words})",
                    rules.trick_points * contract,
                    "contract",
                )
            )
            if rules.ten_bid_bonus and contract >= 10:
                lines.append(
                    ScoreLine(f"Bonus for bidding {contract} (10 or more) and making it", rules.ten_bid_bonus, "bonus")
                )
            over = counted - contract
            if over:
                what = "a trick" if over == 1 else "tricks"
                lines.append(ScoreLine(f"{plural(over, 'bag')} ({what} over the contract)", over, "bags"))
                new_bags += over
        else:
            lines.append(
                ScoreLine(
                    f"Contract {contract} set ({who}, took {took_words})",
                    -rules.trick_points * contract,
                    "contract",
                )
            )
    elif rules.failed_nil_tricks == "partner" and nil_tricks:
        # both partners bid nil: with no contract, every trick they took is over it
        lines.append(ScoreLine(f"{plural(nil_tricks, 'bag')} (no contract to count them toward)", nil_tricks, "bags"))
        new_bags += nil_tricks
    if rules.failed_nil_tricks == "bags" and nil_tricks:
        trick_words = "trick" if nil_tricks == 1 else "tricks"
        lines.append(
            ScoreLine(f"{plural(nil_tricks, 'bag')} from the failed nil's {trick_words}", nil_tricks, "failed-nil-bags")
        )
        new_bags += nil_tricks
    total_bags = bags + new_bags
    while total_bags >= rules.bag_limit:
        lines.append(
            ScoreLine(
                f"Bag penalty: {bags} + {new_bags} bags reach {rules.bag_limit}"
                if total_bags == bags + new_bags
                else f"Bag penalty: another {rules.bag_limit} bags",
                -rules.bag_penalty,
                "penalty",
            )
        )
        total_bags -= rules.bag_limit
    return HandScore(team, sum(line.points for line in lines), total_bags, tuple(lines), new_bags)


def explain_game(rules: Rules, scores: Mapping[Team, int]) -> tuple[Team | None, str]:
    """The winner (or None: the game goes on) and a sentence saying why.

    >>> from spades_tutor.engine.rules import Rules
    >>> explain_game(Rules.preset("jokers"), {Team.NS: 520, Team.EW: 530})
    (<Team.EW: 1>, 'Both teams reached 500; East–West win with the higher score, 530 to 520.')
    >>> explain_game(Rules.preset("jokers"), {Team.NS: 510, Team.EW: 510})[1]
    'Both teams reached 500 with exactly 510 each: play another hand.'
    """
    ns, ew = int(scores[Team.NS]), int(scores[Team.EW])
    target = rules.target
    over = [t for t, s in ((Team.NS, ns), (Team.EW, ew)) if s >= target]
    if len(over) == 2:
        if ns == ew:
            return None, f"Both teams reached {target} with exactly {number(ns)} each: play another hand."
        win = Team.NS if ns > ew else Team.EW
        return win, (
            f"Both teams reached {target}; {win.label} win with the higher score, "
            f"{number(max(ns, ew))} to {number(min(ns, ew))}."
        )
    if len(over) == 1:
        win = over[0]
        return win, f"{win.label} reached {target} ({number(scores[win])}) and win."
    if rules.mercy is not None:
        under = [t for t, s in ((Team.NS, ns), (Team.EW, ew)) if s <= rules.mercy]
        if len(under) == 2:
            if ns == ew:
                return (
                    None,
                    f"Both teams fell to {number(rules.mercy)} with exactly {number(ns)} each: play another hand.",
                )
            win = Team.NS if ns > ew else Team.EW
            return win, f"Both teams fell to {number(rules.mercy)} or below; {win.label} win with the higher score."
        if len(under) == 1:
            lose = under[0]
            return lose.other, (
                f"{lose.label} fell to {number(scores[lose])}, at or below {number(rules.mercy)}, and lose."
            )
    return None, f"Neither team has reached {target}: the game goes on ({number(ns)} to {number(ew)})."


def explain_totals(before: Mapping[Team, int], hand: Mapping[Team, HandScore]) -> tuple[dict[Team, int], str]:
    """Each team's total after a hand (its total before plus the hand's points) and a sentence saying so.

    >>> from spades_tutor.engine.rules import Rules
    >>> hand = score_hand(Rules.preset("jokers"), {Seat.NORTH: 3, Seat.EAST: 4, Seat.SOUTH: 2, Seat.WEST: 3},
    ...                   {Seat.NORTH: 4, Seat.EAST: 3, Seat.SOUTH: 2, Seat.WEST: 4})
    >>> explain_totals({Team.NS: 465, Team.EW: 440}, hand)
    ({<Team.NS: 0>: 516, <Team.EW: 1>: 510}, 'North–South score +51 and reach 516; East–West score +70 and reach 510.')
    """
    after = {team: int(before[team]) + hand[team].points for team in Team}
    said = "; ".join(f"{team.label} score {signed(hand[team].points)} and reach {number(after[team])}" for team in Team)
    return after, said + "."


def game_winner(rules: Rules, scores: Mapping[Team, int]) -> Team | None:
    """The team that has won, or None if the game goes on.

    >>> from spades_tutor.engine.rules import Rules
    >>> game_winner(Rules.preset("jokers"), {Team.NS: 500, Team.EW: 220})
    <Team.NS: 0>
    >>> game_winner(Rules.preset("jokers", mercy=-200), {Team.NS: 100, Team.EW: -210})
    <Team.NS: 0>
    """
    return explain_game(rules, scores)[0]
