"""Score this hand: each team's points for the hand and its bag count after it.

Levels:
    1. no nil; each team makes its contract or is set; few bags, no penalty;
    2. a nil made or failed (without nil: bags on both sides), no penalty;
    3. a tricky case: a nil fails while the partner makes, bags roll past the
       limit from the count before the hand, blind nil (only where the rules
       allow it), a set team that still collects bags from a failed nil, a bag
       penalty triggered by a failed nil's bags, or both partners bidding nil.
       Level 2 never shows a level-3 case.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from ...engine import (
    BLIND_NIL,
    NIL,
    Bid,
    Rules,
    Seat,
    SpadesError,
    Team,
    score_hand,
)
from ...engine.rules import FAILED_NIL_CHOICES, NUMBER_BOUNDS
from ...engine.text import number, signed
from .. import misconceptions as catalogue
from ..base import (
    Detail,
    Feedback,
    FeedbackView,
    NumberField,
    Numbers,
    PositionReader,
    QuizItem,
    ShowTable,
    ViewSpec,
    team_answer,
)
from ..misconceptions import Misconception, variant
from ..seeded import (
    coin_flip,
    pick_from,
    quiz_rng,
    uniform_between,
)
from . import register

# --- the kind's wrong beliefs: a wrong answer one of them gives is named (``QuizItem.misconceptions``) ---


def _scored(item: Any, rules: Rules | None = None) -> dict[Team, tuple[int, int]]:
    scores = score_hand(rules or item.rules, item.bids, item.tricks, item.bags)
    return {t: (s.points, s.bags) for t, s in scores.items()}


def _no_bag_limit(item: Any) -> dict[Team, tuple[int, int]] | None:
    """The score with no bag penalty (and no bags taken off): the bag limit set out of reach."""
    high = NUMBER_BOUNDS["bag_limit"][1]
    return _scored(item, variant(item.rules, bag_limit=high)) if item.rules.bag_limit < high else None


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
        return _scored(item, variant(item.rules, failed_nil_tricks=way))

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
    return _scored(item, variant(item.rules, nil_value=0, blind_nil_value=0))


def _blind_as_nil(item: Any) -> dict[Team, tuple[int, int]] | None:
    """The score with a blind nil worth what a nil is."""
    if not any(b.blind for b in item.bids.values()):
        return None
    return _scored(item, variant(item.rules, blind_nil_value=item.rules.nil_value))


MISCONCEPTIONS: tuple[Misconception, ...] = (
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


@register
@dataclasses.dataclass(frozen=True, eq=False)
class ScoreItem(QuizItem):
    """Enter each team's points for the hand and its bag count after it."""

    kind: ClassVar[str] = "score"
    title: ClassVar[str] = "Score this hand"
    order: ClassVar[int] = 50
    levels: ClassVar[Mapping[int, str]] = {
        1: "Contracts made or set, no nil.",
        2: "Nil made or failed, and bags.",
        3: "Tricky cases: failed nils, bags rolling over, both partners nil, and blind nil where the table plays it.",
    }
    position_keys: ClassVar[tuple[frozenset[str], frozenset[str]]] = (
        frozenset({"bids", "tricks"}),
        frozenset({"bags"}),
    )
    misconceptions: ClassVar[tuple[Misconception, ...]] = MISCONCEPTIONS
    rules: Rules
    bids: Mapping[Seat, Bid]
    tricks: Mapping[Seat, int]
    bags: Mapping[Team, int] = dataclasses.field(default_factory=lambda: {Team.NS: 0, Team.EW: 0})
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        rules = self.rules
        for seat, value in self.bids.items():
            bid = Bid.parse(value)
            if bid.blind and rules.blind_nil == "off":
                raise SpadesError(f"{Seat(seat)} bids blind nil, which the {rules.name} rules here do not allow")
            if bid.is_nil and not rules.nil:
                raise SpadesError(f"{Seat(seat)} bids nil, but this table plays without nil")
            if not bid.is_nil and not 1 <= bid.tricks <= 13:
                raise SpadesError(f"{Seat(seat)} bids {bid.tricks}: a bid is 1 to 13 tricks or nil")
        for team, n in self.bags.items():
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < rules.bag_limit:
                raise SpadesError(f"{Team.parse(team)} bags before the hand: {n!r} is not 0 to {rules.bag_limit - 1}")
        score_hand(rules, self.bids, self.tricks, self.bags)  # validates the rest of the position

    @property
    def prompt(self) -> str:
        return "Score this hand: enter each team's points for the hand and its bags after it."

    def answer(self) -> dict[Team, tuple[int, int]]:
        scores = score_hand(self.rules, self.bids, self.tricks, self.bags)
        return {t: (s.points, s.bags) for t, s in scores.items()}

    def check(self, response: Any) -> Feedback:
        scores = score_hand(self.rules, self.bids, self.tricks, self.bags)
        try:
            given = team_answer(response)
        except (TypeError, ValueError, KeyError):  # SpadesError is a ValueError
            given = {}
        right = {t: (s.points, s.bags) for t, s in scores.items()}
        correct = all(given.get(t) == right[t] for t in Team)
        detail = {t.short: "; ".join(str(line) for line in s.lines) or "nothing scored" for t, s in scores.items()}
        words = ", ".join(f"{t.label} {signed(p)} with {b} bag{'s' if b != 1 else ''}" for t, (p, b) in right.items())
        explanation = tuple(f"{t.label}: {detail[t.short]}." for t in Team)
        diagnosis = None if correct else self.diagnose(response)
        return Feedback(correct, words, explanation, detail, diagnosis)

    def diagnose(self, response: Any) -> str | None:
        """The boxes a wrong score got wrong, and why: a known mistake's sentence, or the engine's lines.

        The sentence starts with what it names (a retry shows only its part before the colon),
        and never gives a box the learner got right.

        >>> from ...engine import Seat
        >>> item = ScoreItem(Rules.preset("jokers"), bids=dict(zip(Seat, map(Bid, (4, 3, 3, 3)))),
        ...                  tricks=dict(zip(Seat, (4, 3, 4, 2))), bags={Team.NS: 1, Team.EW: 0})
        >>> item.diagnose({"NS": (71, 1), "EW": (-60, 0)})
        'The North–South “bags after” box is not right: North–South end with 2 bags (1 before the hand, 1 this hand).'
        >>> item.diagnose({"NS": (81, 2), "EW": (-60, 0)})
        'The North–South points box is not right: North–South score +71, the sum of the lines below, not +81.'
        >>> item.diagnose({"NS": (70, 2), "EW": (-60, 0)})
        'The North–South points box is not right: North–South score +71: “1 bag (a trick over the contract)” (+1) is left out of +70.'
        >>> item.diagnose({"NS": (80, 2), "EW": (-60, 0)})
        'An overtrick is a bag worth 1 point, not 10: only the tricks bid score the full value. It shows in the North–South points box.'
        """
        given = self.given(response)
        if given is None:
            return None
        scores = score_hand(self.rules, self.bids, self.tricks, self.bags)
        boxes: list[str] = []
        why: list[str] = []
        for team in Team:
            points, bags = given[team]
            score = scores[team]
            if points != score.points:
                boxes.append(f"the {team.label} points box")
                why.append(_points_why(team, points, score))
            if bags != score.bags:
                boxes.append(f"the {team.label} “bags after” box")
                why.append(f"{team.label} end with {_bags_after(self.rules, self.bags.get(team, 0), score)}")
        if not boxes:
            return None
        named = catalogue.diagnose(self, response)
        where = " and ".join(boxes)
        if named is not None:
            return f"{named} It shows in {where}."
        verb = "is" if len(boxes) == 1 else "are"
        return f"{_cap(where)} {verb} not right: {'; '.join(why)}."

    def given(self, response: Any) -> dict[Team, tuple[int, int]] | None:
        try:
            given = team_answer(response)
        except (TypeError, ValueError, KeyError):
            return None
        return given if set(given) == set(Team) else None

    def hint(self) -> str:
        r = self.rules
        nil = (
            f" A nil scores {r.nil_value} if its bidder takes no trick, and loses {r.nil_value} if they take one."
            if r.nil
            else ""
        )
        return (
            f"A side that takes its bid scores {r.trick_points} a trick bid, each trick over is a bag worth 1; "
            f"a side that falls short loses {r.trick_points} a trick bid.{nil} "
            f"Every {r.bag_limit} bags cost {r.bag_penalty}."
        )

    def position(self) -> dict[str, Any]:
        return {
            "bids": {s.letter: Bid.parse(b).to_json() for s, b in self.bids.items()},
            "tricks": {s.letter: n for s, n in self.tricks.items()},
            "bags": {t.short: n for t, n in self.bags.items()},
        }

    # --- answers to try: the kind's own candidates for the checks every kind passes ---------------

    def right_forms(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        yield right
        yield {"NS": list(right[Team.NS]), "EW": list(right[Team.EW])}
        yield {t.short: {"points": str(p), "bags": b} for t, (p, b) in right.items()}

    def wrong_answers(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        for team in Team:
            points, bags = right[team]
            for dp, db in ((1, 0), (-1, 0), (10, 0), (-10, 0), (100, 0), (-100, 0), (0, 1), (0, -1), (0, 10), (1, 1)):
                yield {**right, team: (points + dp, bags + db)}
            if points:
                yield {**right, team: (-points, bags)}
            yield {t: v for t, v in right.items() if t != team}  # a team missing
        if right[Team.NS] != right[Team.EW]:
            yield {Team.NS: right[Team.EW], Team.EW: right[Team.NS]}
        if any(p != b for p, b in right.values()):
            yield {t: (b, p) for t, (p, b) in right.items()}  # points and bags swapped
        yield {}

    def likely_answers(self, rng: random.Random) -> Iterator[Any]:
        right = self.answer()
        for team, (p, b) in right.items():
            for dp, db in ((10, 0), (-10, 0), (1, 0), (0, 1), (-100, 0), (100, -1), (9, 0), (90, 0)):
                wrong = {**right, team: (p + dp, max(0, b + db))}
                yield {t.short: {"points": points, "bags": bags} for t, (points, bags) in wrong.items()}

    @classmethod
    def generate(cls, rules: Rules, seed: int, difficulty: int) -> ScoreItem:
        return _score(rules, seed, difficulty)

    @classmethod
    def from_position(cls, rules: Rules, data: Mapping[str, Any], **common: Any) -> ScoreItem:
        return cls(
            rules,
            bids={Seat.parse(s): Bid.parse(b) for s, b in data["bids"].items()},
            tricks={Seat.parse(s): int(n) for s, n in data["tricks"].items()},
            bags={Team.parse(t): int(n) for t, n in data.get("bags", {}).items()} or {Team.NS: 0, Team.EW: 0},
            **common,
        )

    @classmethod
    def lesson_score(
        cls, rules: Rules, block: PositionReader
    ) -> tuple[dict[Seat, Bid], dict[Seat, int], dict[Team, int]]:
        """The bids, tricks and bags a lesson block states, checked as a position that can happen."""
        bids: dict[Seat, Bid] = block.value("bids", {})
        tricks: dict[Seat, int] = block.value("tricks", {})
        bags: dict[Team, int] = {Team.NS: 0, Team.EW: 0, **block.value("bags", {})}
        try:  # the item knows which positions can happen (nil allowed, bags below the limit …)
            cls(rules, bids=bids, tricks=tricks, bags=bags)
        except SpadesError as e:
            raise block.error(str(e)) from None
        return bids, tricks, bags

    @classmethod
    def lesson_position(cls, rules: Rules, block: PositionReader) -> dict[str, Any]:
        bids, tricks, bags = cls.lesson_score(rules, block)
        return {
            "bids": {s.letter: b.to_json() for s, b in bids.items()},
            "tricks": {s.letter: n for s, n in tricks.items()},
            "bags": {t.short: n for t, n in bags.items()},
        }

    def view(self) -> ViewSpec:
        rows = tuple((s.label, s.team.short, str(self.bids[s]), str(self.tricks[s])) for s in Seat)
        bags = ", ".join(f"{t.short} {n}" for t, n in self.bags.items())
        note = {
            "bags": "A failed nil's tricks are bags for the team and do not help the partner.",
            "partner": "A failed nil's tricks count toward the partner's bid.",
            "none": "A failed nil's tricks are ignored.",
        }[self.rules.failed_nil_tricks]
        fields: list[NumberField] = []
        for row, team in enumerate(Team):
            fields.append(NumberField(f"{team.short}-points", f"{team.label} points:", row=row, width=6))
            fields.append(NumberField(f"{team.short}-bags", "bags after:", min=0, max=99, row=row, width=4))
        table = ShowTable(
            ("Seat", "Team", "Bid", "Tricks"), rows, f"Bags before this hand: {bags}. {note}", "st-score-table"
        )
        return ViewSpec((table, Numbers(tuple(fields), _score_response)))

    def feedback_view(self, feedback: Feedback, selected: tuple[str, ...] = ()) -> FeedbackView:
        if not feedback.detail:
            return FeedbackView()
        # the explanation is the score's lines, listed once (not also as sentences)
        lines = tuple((Team.parse(team).label, text) for team, text in feedback.detail.items())
        return FeedbackView(explain=False, detail=Detail(lines, "st-score-lines"))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _points_why(team: Team, given: int, score: Any) -> str:
    """Why a team's points are not ``given``: a line of the score left out or counted the wrong way
    round, else the total of its lines (listed below the feedback, so not repeated here)."""
    total = f"{team.label} score {signed(score.points)}"
    for line in score.lines:
        if given == score.points - line.points:
            return f"{total}: “{line.label}” ({signed(line.points)}) is left out of {signed(given)}"
        if line.points and given == score.points - 2 * line.points:
            return f"{total}: “{line.label}” counts {signed(line.points)}, not {signed(-line.points)}"
    return f"{total}, the sum of the lines below, not {signed(given)}"


def _bags_after(rules: Rules, before: int, score: Any) -> str:
    """``'5 bags (3 before the hand, 2 this hand)'``, with the penalty's bags taken off where it came."""
    reached = before + score.new_bags
    count = f"{score.bags} bag{'s' if score.bags != 1 else ''}"
    came = f"{before} before the hand, {score.new_bags} this hand"
    if reached != score.bags:
        came += f": {reached} reach the limit of {rules.bag_limit}, which the penalty takes off"
    return f"{count} ({came})"


def _score_response(values: Mapping[str, int]) -> dict[Team, tuple[int, int]]:
    return {t: (values[f"{t.short}-points"], values[f"{t.short}-bags"]) for t in Team}


def _split(rng: random.Random, total: int, least: int = 0) -> tuple[int, int]:
    """Two parts, each at least ``least``, adding to ``total``."""
    a = uniform_between(rng, least, total - least)
    return a, total - a


def _plain_team(
    rng: random.Random, taken: int, made: bool, max_over: int, min_over: int = 0
) -> tuple[tuple[Bid, Bid], tuple[int, int]] | None:
    """Bids and tricks of a team where both partners bid a number."""
    if made:
        top = min(max_over, taken - 2)
        if top < min_over:
            return None
        contract = taken - uniform_between(rng, min_over, top)
    else:
        contract = taken + uniform_between(rng, 1, 4)
        if contract < 2 or contract > 13:
            return None
    a, b = _split(rng, contract, 1)
    # each partner takes about what they bid
    took_a = min(taken, max(0, round(taken * a / contract) + uniform_between(rng, -1, 1)))
    return (Bid(a), Bid(b)), (took_a, taken - took_a)


def _nil_team(
    rng: random.Random, rules: Rules, taken: int, nil_made: bool, partner_made: bool, blind: bool, max_over: int
) -> tuple[tuple[Bid, Bid], tuple[int, int]] | None:
    """Bids and tricks of a team where one partner bids (blind) nil; the nil bidder comes first."""
    nil_took = 0 if nil_made else uniform_between(rng, 1, min(3, max(taken, 1)))
    if nil_took > taken:
        return None
    partner_took = taken - nil_took
    counted = partner_took + (nil_took if rules.failed_nil_tricks == "partner" else 0)
    if partner_made:
        if counted < 1:
            return None
        bid = counted - uniform_between(rng, 0, min(max_over, counted - 1))
    else:
        bid = counted + uniform_between(rng, 1, 3)
        if bid > 13:
            return None
    return ((BLIND_NIL if blind else NIL), Bid(bid)), (nil_took, partner_took)


def _seat_pairs(team: Team, rng: random.Random) -> tuple[Seat, Seat]:
    a, b = team.seats
    return (a, b) if coin_flip(rng, 0.5) else (b, a)


def _score_cases(rules: Rules) -> list[str]:
    cases = ["rollover"]
    if rules.nil:
        cases += ["nil-fails-partner-makes", "both-nil"]
        if rules.failed_nil_tricks == "bags":
            cases += ["set-with-nil-bags", "nil-bags-penalty"]
    if rules.blind_nil != "off":
        cases.append("blind-nil")
    return cases


def _lines(scores: dict[Team, Any], team: Team, kind: str) -> list[int]:
    return [line.points for line in scores[team].lines if line.kind == kind]


def _score_case_holds(scores: dict[Team, Any], case: str) -> bool:
    """Whether the engine's score shows the tricky case (judged from its labelled lines)."""
    for team in Team:
        nil = _lines(scores, team, "nil") + _lines(scores, team, "blind-nil")
        contract = _lines(scores, team, "contract")
        if case == "rollover" and _lines(scores, team, "penalty"):
            return True
        if case == "blind-nil" and _lines(scores, team, "blind-nil"):
            return True
        if case == "both-nil" and len(nil) == 2:
            return True
        if case == "nil-fails-partner-makes" and any(p < 0 for p in nil) and contract and contract[0] > 0:
            return True
        if case == "set-with-nil-bags" and contract and contract[0] < 0 and _lines(scores, team, "failed-nil-bags"):
            return True
        if case == "nil-bags-penalty" and _lines(scores, team, "failed-nil-bags") and _lines(scores, team, "penalty"):
            return True
    return False


def _score_position(
    rules: Rules, rng: random.Random, difficulty: int, case: str, strict: bool = True
) -> tuple[dict[Seat, Bid], dict[Seat, int], dict[Team, int]] | None:
    """One attempt at a position for ``difficulty`` (and, at level 3, ``case``); None if it did not fit.

    Not ``strict``: levels 1 and 2 may show a bag penalty (for a bag limit so low that
    every bag is a penalty).
    """
    limit = rules.bag_limit
    focus = pick_from(rng, tuple(Team))
    other = focus.other
    nil_team = (
        rules.nil
        if difficulty == 2
        else case
        in (
            "blind-nil",
            "nil-fails-partner-makes",
            "set-with-nil-bags",
            "nil-bags-penalty",
        )
    )
    if case == "both-nil":
        focus_took = uniform_between(rng, 0, 3)  # two nil bidders rarely take many tricks
    elif nil_team:
        focus_took = uniform_between(rng, 1, 8)
    else:
        focus_took = uniform_between(rng, 2, 11)
    taken = {focus: focus_took, other: 13 - focus_took}
    bags = {t: uniform_between(rng, 0, min(3, limit - 1)) for t in Team}
    plans: dict[Team, tuple[tuple[Bid, Bid], tuple[int, int]] | None] = {}
    seats = {t: _seat_pairs(t, rng) for t in Team}

    def plain(team: Team, max_over: int, min_over: int = 0, made: bool | None = None) -> None:
        made = coin_flip(rng, 0.7) if made is None else made
        plans[team] = _plain_team(rng, taken[team], made, max_over, min_over)

    def nil(blind: bool, nil_made: bool | None = None, partner_made: bool | None = None) -> None:
        nil_made = coin_flip(rng, 0.5) if nil_made is None else nil_made
        partner_made = coin_flip(rng, 0.6) if partner_made is None else partner_made
        plans[focus] = _nil_team(rng, rules, taken[focus], nil_made, partner_made, blind, 3)

    if difficulty == 1:
        plain(focus, 2)
        plain(other, 2)
    elif difficulty == 2:
        bags = {t: uniform_between(rng, 0, limit - 1) for t in Team}
        if nil_team:
            nil(False)
        else:
            plain(focus, 4, 1, made=True)
        plain(other, 4)
    else:
        plain(other, 3)
        if case == "rollover":
            gap = uniform_between(rng, 1, min(3, limit))
            bags[focus] = limit - gap
            plain(focus, gap + 3, gap, made=True)
        elif case == "blind-nil":
            nil(True)
        elif case == "nil-fails-partner-makes":
            nil(False, nil_made=False, partner_made=True)
        elif case == "set-with-nil-bags":
            nil(False, nil_made=False, partner_made=False)
        elif case == "nil-bags-penalty":  # the failed nil's tricks are the bags that reach the limit
            bags[focus] = limit - uniform_between(rng, 1, min(2, limit))
            nil(False, nil_made=False)
        else:  # both-nil
            first = uniform_between(rng, 0, focus_took)
            plans[focus] = ((NIL, NIL), (first, focus_took - first))
    bids: dict[Seat, Bid] = {}
    tricks: dict[Seat, int] = {}
    for team in Team:
        plan = plans.get(team)
        if plan is None:
            return None
        (bid_a, bid_b), (took_a, took_b) = plan
        first, second = seats[team]
        bids[first], bids[second] = bid_a, bid_b
        tricks[first], tricks[second] = took_a, took_b
    numbers = [b.tricks for b in bids.values() if not b.is_nil]
    if sum(tricks.values()) != 13 or max(numbers) > 9 or not 6 <= sum(numbers) <= 16:
        return None  # bids a real table would make
    scores = score_hand(rules, bids, tricks, bags)
    penalty = strict and any(_lines(scores, t, "penalty") for t in Team)
    if difficulty == 1 and (penalty or any(b.is_nil for b in bids.values())):
        return None
    if difficulty == 2:
        if penalty or any(b.blind for b in bids.values()):
            return None
        bagged = any(scores[t].new_bags for t in Team)
        if any(_score_case_holds(scores, c) for c in ("nil-fails-partner-makes", "set-with-nil-bags", "both-nil")):
            return None  # level 3's cases stay at level 3
        if (strict and not bagged) or rules.nil != any(b.is_nil for b in bids.values()):
            return None
    if difficulty == 3 and not _score_case_holds(scores, case):
        return None
    # ordered as at the table, North first
    return {s: bids[s] for s in Seat}, {s: tricks[s] for s in Seat}, bags


def _score(rules: Rules, seed: int, difficulty: int) -> ScoreItem:
    rng = quiz_rng("score", seed, difficulty)
    cases = _score_cases(rules)
    case = pick_from(rng, cases) if difficulty == 3 else ""
    for attempt in range(2000):
        if difficulty == 3 and attempt and attempt % 200 == 0:
            case = pick_from(rng, cases)  # a case these rules make hard to reach: try another
        position = _score_position(rules, rng, difficulty, case, strict=attempt < 1000)
        if position is not None:
            bids, tricks, bags = position
            return ScoreItem(rules, bids=bids, tricks=tricks, bags=bags, seed=seed, difficulty=difficulty)
    raise SpadesError(  # pragma: no cover - a position fits within a few dozen attempts
        f"no score position of difficulty {difficulty} found for seed {seed} in {rules.name}"
    )
