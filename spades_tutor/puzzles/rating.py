"""Puzzle ratings: the learner's and each puzzle's, by Glicko-2, replayed from the learner's puzzle results.

A **rating** is a number on one scale for learners and puzzles alike: a learner rated as a puzzle
is expected to solve it on the first try half the time; 200 points above it, about three times in
four. With it goes a **deviation** (RD), how unsure the rating still is: a new learner's is large
(their rating moves a lot with each puzzle), and it shrinks as they solve.

Each puzzle tried is one game of Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013)
between the learner and the puzzle: the learner wins if their first card checked works, the puzzle
wins otherwise, and both ratings move. A puzzle starts from its difficulty (:data:`PUZZLE_START`);
its rating is this learner's view of it, moved only by this learner's results: nothing is shared
between learners.

Nothing mutable is stored: the record keeps the results (:class:`PuzzleResult`) and the ratings are
replayed from them in time order (:func:`replay`), so two tabs' records merged give one answer.

>>> s = replay([PuzzleResult(10.0, "0a1b2c3d", "jokers", "medium", True)])
>>> round(s.learner.rating), round(s.learner.rd), round(s.puzzles["0a1b2c3d"].rating)
(1674, 259, 1460)

The rating is computed here rather than with the ``glicko2`` package (2.1.0): its volatility step
uses the player's rating where the paper has the deviation (its ``_f``), which gives other
numbers for a rating away from 1500; the worked example below is the paper's.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import math
from collections.abc import Iterable, Mapping, Sequence

from .model import DIFFICULTIES  # puzzle levels, easiest first

__all__ = [
    "DIFFICULTIES",
    "LEARNER_START",
    "PUZZLE_START",
    "PuzzleResult",
    "Rating",
    "Standing",
    "aim",
    "expected",
    "nearest_difficulty",
    "rate",
    "replay",
]

#: Glicko-2's scale: ratings and deviations are divided by it (and 1500 taken off) for the maths
SCALE = 173.7178
#: the system constant: how far the volatility may move in one game (the paper suggests 0.3 to 1.2)
TAU = 0.5
#: the paper's tolerance for the volatility's iteration
EPSILON = 0.000_001
#: the largest deviation: a rating never less certain than a new learner's
MAX_RD = 350.0
#: a deviation from which a learner's rating counts as settled: puzzles are then chosen at it
SETTLED_RD = 100.0


@dataclasses.dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating: the rating, its deviation (RD: how unsure it is) and its volatility."""

    rating: float = 1500.0
    rd: float = MAX_RD
    volatility: float = 0.06

    @property
    def settled(self) -> bool:
        """Whether the rating has settled (its deviation is down to :data:`SETTLED_RD`)."""
        return self.rd <= SETTLED_RD


#: a new learner: Glicko-2's unrated player
LEARNER_START = Rating()
#: a puzzle's rating before any result: its difficulty's, with a deviation that lets this learner's
#: results move it, but less than theirs
PUZZLE_START = {
    "easy": Rating(1200.0, 150.0),
    "medium": Rating(1500.0, 150.0),
    "hard": Rating(1800.0, 150.0),
}


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected(player: Rating, opponent: Rating) -> float:
    """The chance Glicko-2 gives ``player`` of beating ``opponent`` (of a learner solving a puzzle first try).

    >>> round(expected(Rating(1500, 50), Rating(1500, 50)), 2), round(expected(Rating(1700, 50), Rating(1500, 50)), 2)
    (0.5, 0.76)
    """
    return _e((player.rating - 1500.0) / SCALE, (opponent.rating - 1500.0) / SCALE, opponent.rd / SCALE)


def rate(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period of ``games`` (opponent, score: 1 a win, 0 a loss,
    0.5 a draw), by the paper's steps 1 to 8. With no game, only the deviation grows (step 6).

    The paper's worked example: a player of 1500 (RD 200) beats a 1400 (RD 30) and loses to a 1550
    (RD 100) and a 1700 (RD 300):

    >>> r = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)])
    >>> round((r.rating - 1500) / SCALE, 4), round(r.rd / SCALE, 4), round(r.volatility, 4)  # the paper's μ′, φ′, σ′
    (-0.2069, 0.8722, 0.06)
    >>> round(r.rating, 2), round(r.rd, 2)  # the paper's 1464.06 is its rounded μ′ scaled back
    (1464.05, 151.52)
    """
    mu = (player.rating - 1500.0) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not games:
        return dataclasses.replace(player, rd=min(MAX_RD, math.sqrt(phi * phi + sigma * sigma) * SCALE))
    # step 3 and 4: the estimated variance from the games, and the estimated improvement
    rows = [((o.rating - 1500.0) / SCALE, o.rd / SCALE, float(s)) for o, s in games]
    v_inv = 0.0
    gain = 0.0
    for mu_j, phi_j, s in rows:
        g, e = _g(phi_j), _e(mu, mu_j, phi_j)
        v_inv += g * g * e * (1.0 - e)
        gain += g * (s - e)
    v = 1.0 / v_inv
    delta = v * gain
    # step 5: the new volatility, by the Illinois algorithm
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)
    # steps 6 to 8: the new deviation and rating, back on the rating scale
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * gain
    return Rating(new_mu * SCALE + 1500.0, min(MAX_RD, new_phi * SCALE), new_sigma)


def derived_result_id(when: float, puzzle: str, rules: str, difficulty: str, first_try: bool) -> str:
    """A result's id made from the result itself (for one built without one, as in a test)."""
    text = json.dumps([when, puzzle, rules, difficulty, first_try], ensure_ascii=False)
    return "p-" + hashlib.blake2b(text.encode("utf-8"), digest_size=10).hexdigest()


@dataclasses.dataclass(frozen=True)
class PuzzleResult:
    """One puzzle tried: when, which (its id), its rule set and difficulty (where its rating starts),
    and whether the first card checked worked."""

    time: float
    puzzle: str
    rules: str
    difficulty: str
    first_try: bool
    #: what tells this result from every other when two tabs' records are merged
    id: str = ""

    def __post_init__(self) -> None:
        if not self.id:
            fields = (self.time, self.puzzle, self.rules, self.difficulty, self.first_try)
            object.__setattr__(self, "id", derived_result_id(*fields))


@dataclasses.dataclass(frozen=True)
class Standing:
    """Where the learner stands, replayed from their results: their rating, the ratings of the puzzles
    they tried (by id), and their rating after each result (time, rating), oldest first."""

    learner: Rating = LEARNER_START
    puzzles: Mapping[str, Rating] = dataclasses.field(default_factory=dict)
    history: tuple[tuple[float, Rating], ...] = ()
    #: how many of the results were right on the first try
    solved: int = 0

    @property
    def tried(self) -> int:
        """How many puzzle results the rating comes from."""
        return len(self.history)

    def puzzle_rating(self, puzzle_id: str, difficulty: str) -> Rating:
        """A puzzle's rating for this learner: moved by their results if they tried it, else its difficulty's."""
        return self.puzzles.get(puzzle_id) or PUZZLE_START.get(difficulty, PUZZLE_START["medium"])

    def words(self) -> str:
        """The learner's rating in plain words, for the page.

        >>> print(Standing().words())
        Your puzzle rating: 1500 (new: it settles as you solve puzzles).
        """
        r = self.learner
        if not self.history:
            return f"Your puzzle rating: {round(r.rating)} (new: it settles as you solve puzzles)."
        count = f"from {self.tried} puzzle{'s' if self.tried != 1 else ''}"
        if r.settled:
            return f"Your puzzle rating: {round(r.rating)} ({count}, give or take {round(r.rd)})."
        return f"Your puzzle rating: {round(r.rating)} ({count}; still settling, give or take {round(r.rd)})."


def _order(result: PuzzleResult) -> tuple[float, str]:
    return (result.time, result.id)


def replay(results: Iterable[PuzzleResult]) -> Standing:
    """The learner's standing after their results, each one game, played in time order (the same
    results in any order give the same standing).

    >>> wins = [PuzzleResult(float(t), f"{t:08x}", "jokers", "medium", True) for t in range(5)]
    >>> s = replay(wins)
    >>> [round(r.rating) for _t, r in s.history]
    [1674, 1748, 1793, 1825, 1850]
    >>> s.tried, round(s.learner.rd)
    (5, 176)
    """
    return _replay(tuple(sorted(results, key=_order)))


@functools.lru_cache(maxsize=16)
def _replay(results: tuple[PuzzleResult, ...]) -> Standing:
    learner = LEARNER_START
    puzzles: dict[str, Rating] = {}
    history: list[tuple[float, Rating]] = []
    for r in results:
        puzzle = puzzles.get(r.puzzle) or PUZZLE_START.get(r.difficulty, PUZZLE_START["medium"])
        score = 1.0 if r.first_try else 0.0
        # both move at once, each against the other's rating before the game
        learner, puzzles[r.puzzle] = rate(learner, [(puzzle, score)]), rate(puzzle, [(learner, 1.0 - score)])
        history.append((r.time, learner))
    return Standing(learner, puzzles, tuple(history), sum(r.first_try for r in results))


def aim(learner: Rating) -> float:
    """The puzzle rating to look for: the learner's rating once settled; while it is still unsure,
    lower by the uncertainty beyond a settled one, so a new learner starts with easy puzzles and
    meets harder ones as they show they can solve them.

    >>> aim(LEARNER_START), aim(Rating(1700, 80))
    (1250.0, 1700.0)
    """
    return learner.rating - max(0.0, learner.rd - SETTLED_RD)


def nearest_difficulty(target: float) -> str:
    """The difficulty whose starting rating is nearest ``target`` (the easier on a tie).

    >>> nearest_difficulty(1250.0), nearest_difficulty(1700.0), nearest_difficulty(1650.0)
    ('easy', 'hard', 'medium')
    """
    return min(DIFFICULTIES, key=lambda d: abs(PUZZLE_START[d].rating - target))
