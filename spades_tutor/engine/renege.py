"""A renege at a real table: what the side that did not follow suit gives up, by the house rule.

The engine never lets a card that breaks the follow-suit rule be played, so a renege only
happens at a real table; there it is usually found when the hand is over, and the penalty is
settled at the score. ``Rules.renege_penalty`` says which penalty the table plays.

>>> from spades_tutor.engine.rules import Rules
>>> ruling = apply_renege(Rules.preset("jokers"),
...     {Seat.NORTH: 4, Seat.EAST: 3, Seat.SOUTH: 3, Seat.WEST: 2},
...     {Seat.NORTH: 4, Seat.EAST: 3, Seat.SOUTH: 3, Seat.WEST: 3}, Team.EW)
>>> for line in ruling.lines: print(line)
East–West reneged once. At this table a renege costs 3 tricks: the side that reneged gives 3 tricks to the other side for each renege, 3 in all.
East gives 3 tricks to North: North–South now have 10 tricks, East–West 3.
>>> ruling.scores[Team.NS].points, ruling.scores[Team.EW].points
(73, -50)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from .errors import SpadesError
from .rules import Rules
from .scoring import Bid, HandScore, ScoreLine, score_hand
from .seats import Seat, Team
from .text import plural

__all__ = ["RENEGE_TRICKS", "RenegeRuling", "apply_renege", "describe_penalty"]

#: tricks handed over per renege, for the penalties that move tricks
RENEGE_TRICKS = {"three-tricks": 3, "two-tricks": 2}

_TIMES = {1: "once", 2: "twice"}


@dataclasses.dataclass(frozen=True)
class RenegeRuling:
    """The hand after a renege penalty: tricks per seat, each team's score, and why, line by line."""

    offenders: Team
    reneges: int
    penalty: str
    tricks: Mapping[Seat, int]
    scores: Mapping[Team, HandScore]
    lines: tuple[str, ...]

    def __str__(self) -> str:
        return "\n".join([*self.lines, *(str(self.scores[team]) for team in Team)])


def apply_renege(
    rules: Rules,
    bids: Mapping[Seat, Bid | int | str],
    tricks: Mapping[Seat, int],
    offenders: Team | str,
    *,
    reneges: int = 1,
    bags: Mapping[Team, int] | None = None,
) -> RenegeRuling:
    """The hand scored after ``offenders`` reneged ``reneges`` times, by ``rules.renege_penalty``.

    ``bids``, ``tricks`` and ``bags`` are as for ``score_hand`` (the tricks as played).

    - ``"three-tricks"`` / ``"two-tricks"``: for each renege the offending side gives that many
      tricks to the other side (all it has, if fewer), then the hand is scored as usual. Tricks
      come from the offenders' contract bidders and go to a contract bidder of the other side:
      a trick is never taken from a nil bidder (that would mend a failed nil) nor given to one
      (that would break a nil the renege did not touch).
    - ``"set"``: every bid of the offending side fails, whatever it took: its contract counts as
      set and a nil as failed, and it takes no bags this hand. The other side is scored as usual.

    >>> from spades_tutor.engine.rules import Rules
    >>> ruling = apply_renege(Rules.preset("jokers", renege_penalty="set"),
    ...     {Seat.NORTH: 4, Seat.EAST: 3, Seat.SOUTH: 3, Seat.WEST: 2},
    ...     {Seat.NORTH: 4, Seat.EAST: 3, Seat.SOUTH: 3, Seat.WEST: 3}, "EW")
    >>> print(ruling.scores[Team.EW])
    East–West: −50 (bags now 0)
      Contract 5 set by the renege (E 3 + W 2, took 6): −50
    """
    offenders = Team.parse(offenders)
    if isinstance(reneges, bool) or not isinstance(reneges, int) or not 1 <= reneges <= 13:
        raise SpadesError(f"reneges={reneges!r}: a whole number of reneges from 1 to 13 is needed")
    played = score_hand(rules, bids, tricks, bags)  # checks the bids and tricks
    bid = {Seat(s): Bid.parse(b) for s, b in bids.items()}
    took = {Seat(s): int(t) for s, t in tricks.items()}
    penalty = rules.renege_penalty
    times = _TIMES.get(reneges, f"{reneges} times")
    if penalty == "set":
        said = (
            f"{offenders.label} reneged {times}. At this table a renege sets the side: every bid of the side "
            "that reneged fails, whatever it took, and it takes no bags this hand.",
        )
        before = dict(bags or {}).get(offenders, 0)
        scores = dict(played)
        scores[offenders] = _set(rules, offenders, bid, took, int(before))
        return RenegeRuling(offenders, reneges, penalty, took, scores, said)

    per = RENEGE_TRICKS[penalty]
    owed = per * reneges
    first = (
        f"{offenders.label} reneged {times}. At this table a renege costs {per} tricks: the side that reneged "
        f"gives {per} tricks to the other side for each renege, {owed} in all."
    )
    givers = sorted((s for s in offenders.seats if not bid[s].is_nil), key=lambda s: -took[s])
    takers = [s for s in offenders.other.seats if not bid[s].is_nil]
    after = dict(took)
    if not takers:
        second = (
            f"Both players of {offenders.other.label} bid nil, and a trick handed to a nil bidder would break "
            "the nil, so no trick moves and the hand is scored as played."
        )
        return RenegeRuling(offenders, reneges, penalty, after, played, (first, second))
    taker = max(takers, key=lambda s: took[s])
    gave: list[str] = []
    left = owed
    for seat in givers:
        n = min(left, after[seat])
        if n:
            after[seat] -= n
            after[taker] += n
            gave.append(f"{seat.label} gives {plural(n, 'trick')}" if not gave else f"{seat.label} gives {n}")
            left -= n
    moved = owed - left
    if moved:
        ours = sum(after[s] for s in offenders.other.seats)
        second = (
            f"{' and '.join(gave)} to {taker.label}: {offenders.other.label} now have {ours} tricks, "
            f"{offenders.label} {13 - ours}."
        )
    else:
        second = "No trick moves, and the hand is scored as played."
    lines = [first, second]
    if left:
        lines.append(
            f"{offenders.label} took only {plural(moved, 'trick')} outside a nil, so that is all they give: "
            "a trick is never taken from a nil bidder."
        )
    return RenegeRuling(offenders, reneges, penalty, after, score_hand(rules, bid, after, bags), tuple(lines))


def _set(rules: Rules, team: Team, bid: Mapping[Seat, Bid], took: Mapping[Seat, int], bags: int) -> HandScore:
    lines: list[ScoreLine] = []
    bidders = [s for s in team.seats if not bid[s].is_nil]
    for seat in team.seats:
        b = bid[seat]
        if b.is_nil:
            value = rules.blind_nil_value if b.blind else rules.nil_value
            what = "blind nil" if b.blind else "nil"
            lines.append(
                ScoreLine(f"{seat.label}'s {what} fails by the renege", -value, "blind-nil" if b.blind else "nil")
            )
    if bidders:
        contract = sum(bid[s].tricks for s in bidders)
        who = " + ".join(f"{s.letter} {bid[s]}" for s in bidders)
        counted = sum(took[s] for s in bidders)
        lines.append(
            ScoreLine(
                f"Contract {contract} set by the renege ({who}, took {counted})",
                -rules.trick_points * contract,
                "contract",
            )
        )
    return HandScore(team, sum(line.points for line in lines), bags, tuple(lines), 0)


def describe_penalty(rules: Rules) -> str:
    """The table's renege penalty in one sentence.

    >>> from spades_tutor.engine.rules import Rules
    >>> describe_penalty(Rules.preset("classic"))
    'A renege costs the side that made it 3 tricks, given to the other side, for each renege.'
    """
    if rules.renege_penalty == "set":
        return (
            "A renege sets the side that made it: its contract loses "
            f"{rules.trick_points} a trick bid and a nil fails, whatever it took."
        )
    return (
        f"A renege costs the side that made it {RENEGE_TRICKS[rules.renege_penalty]} tricks, "
        "given to the other side, for each renege."
    )
