"""Who wins the game: the totals after a hand; does a team win, or is another hand played?

The answer is the engine's ``explain_game`` for those totals.

Levels:
    1. one team at or over the target, the other well under it (or neither near it);
    2. both teams over the target with different scores, or a team exactly on it;
    3. the close calls: an exact tie over the target (another hand), both over by a
       point or two; at a table with the mercy rule a team at or below it (or both),
       at one without it a team far below zero (the game goes on).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from ...engine import Rules, SpadesError, Team, explain_game
from ...engine.rules import NUMBER_BOUNDS
from ...engine.text import number
from ..base import Choice, Feedback, PositionReader, QuizItem, ShowTable, ViewSpec
from ..misconceptions import Misconception, variant
from ..seeded import balanced_pick, pick_from, quiz_rng, uniform_between
from . import register

#: the answers, as the view offers them
GOES_ON = "another hand"
_TEAM_ANSWER = {Team.NS: "North–South", Team.EW: "East–West"}
_OPTIONS = (_TEAM_ANSWER[Team.NS], _TEAM_ANSWER[Team.EW], GOES_ON)


# --- the kind's wrong beliefs: a wrong answer one of them gives is named (``QuizItem.misconceptions``) ---


def _game_answer(item: Any, rules: Rules) -> str:
    """The answer under ``rules``, in the kind's own words for its answers."""
    winner, _ = explain_game(rules, item.scores)
    return GOES_ON if winner is None else _TEAM_ANSWER[winner]


def _game_under(**change: Any) -> Callable[[Any], Any]:
    return lambda item: _game_answer(item, variant(item.rules, **change))


MISCONCEPTIONS: tuple[Misconception, ...] = (
    Misconception(
        "target-must-be-passed",
        lambda item: (
            _game_answer(item, variant(item.rules, target=item.rules.target + 1))
            if item.rules.target < NUMBER_BOUNDS["target"][1]
            else None
        ),
        lambda item: f"Reaching the target is enough: a team at exactly {number(item.rules.target)} has won.",
    ),
    Misconception(
        "mercy-forgotten",
        lambda item: _game_under(mercy=None)(item) if item.rules.mercy is not None else None,
        lambda item: f"At this table a team at or below {number(item.rules.mercy)} loses at once (the mercy rule).",
    ),
    Misconception(
        "below-zero-loses",
        lambda item: _game_under(mercy=-1)(item) if item.rules.mercy is None else None,
        lambda item: "This table plays without the mercy rule: a team below zero plays on.",
    ),
)


@register
@dataclasses.dataclass(frozen=True, eq=False)
class GameWinnerItem(QuizItem):
    """The totals after a hand: who wins the game, or is another hand played?"""

    kind: ClassVar[str] = "game-winner"
    title: ClassVar[str] = "Who wins the game?"
    order: ClassVar[int] = 55
    levels: ClassVar[Mapping[int, str]] = {
        1: "One team reaches the target.",
        2: "Both teams over the target, or a team exactly on it.",
        3: "An exact tie over the target, a point or two apart, or a team far below zero (mercy?).",
    }
    position_keys: ClassVar[tuple[frozenset[str], frozenset[str]]] = (frozenset({"scores"}), frozenset())
    misconceptions: ClassVar[tuple[Misconception, ...]] = MISCONCEPTIONS
    rules: Rules
    scores: Mapping[Team, int]
    seed: int | None = None
    difficulty: int = 1

    def __post_init__(self) -> None:
        if set(self.scores) != {Team.NS, Team.EW}:
            raise SpadesError(f"a game-winner question needs both teams' totals, not {dict(self.scores)!r}")
        for team, value in self.scores.items():
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 100_000:
                raise SpadesError(f"{team.label}'s total must be a whole number, not {value!r}")

    @property
    def prompt(self) -> str:
        mercy = f" A team at or below {number(self.rules.mercy)} loses." if self.rules.mercy is not None else ""
        return (
            f"These are the totals after a hand. The game is to {number(self.rules.target)}.{mercy} "
            "Who wins the game — or is another hand played?"
        )

    def answer(self) -> str:
        winner, _ = explain_game(self.rules, self.scores)
        return GOES_ON if winner is None else _TEAM_ANSWER[winner]

    def given(self, response: Any) -> str | None:
        if not isinstance(response, str):
            return None
        given = response.strip()
        aliases = {"NS": _OPTIONS[0], "N–S": _OPTIONS[0], "EW": _OPTIONS[1], "E–W": _OPTIONS[1]}
        return aliases.get(given, given)

    def check(self, response: Any) -> Feedback:
        _, sentence = explain_game(self.rules, self.scores)
        right = self.answer()
        correct = self.given(response) == right
        diagnosis = None if correct else self.diagnose(response)
        return Feedback(correct, right, (sentence,), diagnosis=diagnosis)

    def hint(self) -> str:
        r = self.rules
        mercy = f" A team at {number(r.mercy)} or below loses." if r.mercy is not None else ""
        return (
            f"A team at {r.target} or more wins; if both are there, the higher score wins, and a tie plays on.{mercy}"
        )

    def position(self) -> dict[str, Any]:
        return {"scores": {t.short: v for t, v in self.scores.items()}}

    @classmethod
    def generate(cls, rules: Rules, seed: int, difficulty: int) -> GameWinnerItem:
        return _game_winner(rules, seed, difficulty)

    @classmethod
    def from_position(cls, rules: Rules, data: Mapping[str, Any], **common: Any) -> GameWinnerItem:
        raw = data["scores"]
        if not isinstance(raw, Mapping):
            raise SpadesError(f"scores map each team to its total, not {raw!r}")
        scores: dict[Team, int] = {}
        for key, value in raw.items():
            team = key if isinstance(key, Team) else Team.parse(key)
            scores[team] = value
        return cls(rules, scores=scores, **common)

    @classmethod
    def lesson_position(cls, rules: Rules, block: PositionReader) -> dict[str, Any]:
        scores = block.value("scores")
        if not isinstance(scores, Mapping):
            raise block.error("scores: give each team's total (NS 520, EW 530)")
        return {"scores": {(t.short if isinstance(t, Team) else t): v for t, v in scores.items()}}

    def view(self) -> ViewSpec:
        rows = tuple((t.label, number(self.scores[t])) for t in (Team.NS, Team.EW))
        note = f"Game to {number(self.rules.target)}" + (
            f"; mercy at {number(self.rules.mercy)}" if self.rules.mercy is not None else ""
        )
        return ViewSpec(
            (
                ShowTable(("team", "total after the hand"), rows, note),
                Choice(_OPTIONS, "Who wins?", "Choose a team, or another hand, first."),
            )
        )


def _span(rng: random.Random, lo: int, hi: int) -> int:
    """A total in [lo, hi]; just ``lo`` where a very small target leaves no room."""
    return uniform_between(rng, lo, max(lo, hi))


def _game_winner(rules: Rules, seed: int, difficulty: int) -> GameWinnerItem:
    rng = quiz_rng("game-winner", seed, difficulty)
    target = rules.target
    first = pick_from(rng, (Team.NS, Team.EW))
    case = ""
    if difficulty == 1:
        case = pick_from(rng, ("one-over", "one-over", "neither"))
        if case == "one-over":
            high, low = _span(rng, target + 1, target + 150), _span(rng, -100, target - 60)
        else:
            high, low = _span(rng, target - 250, target - 20), _span(rng, -50, target - 100)
    elif difficulty == 2:
        case = pick_from(rng, ("both-over", "both-over", "exactly"))
        if case == "both-over":
            high = _span(rng, target + 20, target + 160)
            low = _span(rng, target, high - 10)
        else:
            high, low = target, _span(rng, target - 200, target - 1)
    else:
        mercy = rules.mercy
        cases = (
            ("tie", "close", "mercy", "mercy", "both-mercy")
            if mercy is not None
            else ("tie", "close", "close", "no-mercy")
        )
        case = balanced_pick("game-winner", seed, difficulty, cases)  # "another hand" about half the time
        if case == "tie":
            high = low = _span(rng, target, target + 120)
        elif case == "close":
            high = _span(rng, target + 2, target + 120)
            low = high - _span(rng, 1, 2)  # both over: the higher wins, by a point or two
        elif case == "no-mercy":  # a team far below zero, but this table plays no mercy rule: the game goes on
            high, low = _span(rng, target - 150, target - 1), _span(rng, -450, -150)
        elif mercy is not None and case == "mercy":
            low = mercy - _span(rng, 0, 60)
            high = _span(rng, mercy + 1, target - 1)
        else:  # both at or below the mercy score: the higher wins, an exact tie plays on
            assert mercy is not None
            low = mercy - _span(rng, 0, 120)
            high = low + pick_from(rng, (0, _span(rng, 1, 40)))
    scores = {first: high, first.other: low}
    return GameWinnerItem(rules, scores=scores, seed=seed, difficulty=difficulty)
