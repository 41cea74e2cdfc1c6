"""Puzzles from bot-played rounds, kept only when the solver proves the answer sharp.

``generate(rules, seed)`` plays seeded rounds with the heuristic bots, looks at the
positions with 3 to 5 tricks left, and keeps one when some but not all of the legal cards
reach a goal and every other card fails against best defence (``verify`` proves it card by
card). ``shipped()`` are puzzles made this way once, with fixed seeds, stored in
``puzzles.json``; ``daily(date)`` picks one of them from the date alone, near the learner's puzzle
rating when given one (``spades_tutor.puzzles.rating``), and ``generate_near`` makes a new one near it.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import json
import math
import random
from collections.abc import Iterator
from pathlib import Path

from spades_tutor.bots import HeuristicBot, play_round
from spades_tutor.engine import Card, Round, Rules, Seat, Suit, Team
from spades_tutor.solver import Budget, Position, solve

from .explain import play_line
from .model import DIFFICULTIES, NO_LIMIT, Goal, Puzzle
from .rating import Standing, nearest_difficulty

__all__ = ["Verdict", "daily", "find_shipped", "generate", "generate_near", "shipped", "verify"]

_DATA = Path(__file__).parent / "puzzles.json"

#: the most work generation spends on one question (a position beyond it is passed over)
GENERATE_BUDGET = Budget(nodes=400_000)
#: rating points: the shipped puzzles this much further from the aim than the nearest one are all
#: candidates for the day (so the daily puzzle varies from day to day at one level)
DAILY_WINDOW = 100.0
#: a new puzzle near a rating is the nearest of at most this many generated
NEAR_CANDIDATES = 3


@dataclasses.dataclass(frozen=True)
class Verdict:
    """What the solver proves about a puzzle: the goal holds from the start, the legal cards
    that keep it (``working``), and whether every answer was exact within the budget."""

    holds: bool | None
    working: tuple[Card, ...]
    legal: tuple[Card, ...]
    exact: bool
    nodes: int

    @property
    def sharp(self) -> bool:
        """Some, not all, of the legal cards reach the goal, each proven."""
        return bool(self.exact and self.holds and self.working and len(self.working) < len(self.legal))


def verify(puzzle: Puzzle, budget: Budget = NO_LIMIT) -> Verdict:
    """Ask the solver about the start and after every legal card (the budget is per question)."""
    pos = puzzle.position
    start = puzzle.ask(pos, budget)
    legal = pos.legal_plays()
    working: list[Card] = []
    exact, nodes = start.exact, start.nodes
    for c in legal:
        a = puzzle.ask(pos.play(c), budget)
        exact, nodes = exact and a.exact, nodes + a.nodes
        if a.holds:
            working.append(c)
    return Verdict(start.holds, tuple(working), legal, exact, nodes)


# --- goals a position offers ---------------------------------------------------------------


def _goals(rnd: Round, pos: Position) -> list[Goal]:
    """The goals that make sense for the seat to act, the most telling first."""
    me = pos.to_act
    team = me.team
    bids = rnd.bids
    nil = {s for s in Seat if bids[s].tricks == 0}
    out: list[Goal] = []
    for s in team.seats:
        if s in nil and pos.taken[s] == 0:
            out.append(Goal("make_nil", 0, s))
    for s in team.other.seats:
        if s in nil and pos.taken[s] == 0:
            out.append(Goal("break_nil", 0, s))
    ours = sum(bids[s].tricks for s in team.seats)
    theirs = sum(bids[s].tricks for s in team.other.seats)
    have = sum(pos.taken[s] for s in team.seats)
    if not nil & set(team.seats):
        bags = rnd.bags_before[team]
        room = rnd.rules.bag_limit - 1 - bags  # bags still free of the penalty
        most = ours + room
        if bags and have <= most < have + pos.tricks_left:
            out.append(Goal("keep_under", most, me, bags))
        out.append(Goal("make_contract", ours, me))
    if not nil & set(team.other.seats):
        out.append(Goal("set_contract", theirs, me))
    return out


def _most(pos: Position, team: Team, budget: Budget) -> int | None:
    r = solve(pos, team, budget=budget, with_cards=False)
    return r.value if r.exact else None


def _theme(puzzle: Puzzle, rnd_rules: Rules) -> str:
    own = puzzle.goal.rule.theme(puzzle)
    if own is not None:
        return own
    leads = not puzzle.trick
    if leads and any(c.is_joker for c in puzzle.answers):
        return "pull trumps with a joker"
    two = Card.parse("2D")
    if rnd_rules.suit_of(two) is Suit.SPADES and (two in puzzle.answers or two in puzzle.legal_plays()):
        return "the 2♦ in deuces-high"
    if leads and _gives_up_lead(puzzle):
        return "endplay"
    return "general"


def _gives_up_lead(puzzle: Puzzle) -> bool:
    """The winning line hands the lead to an opponent with the first trick, and still reaches the goal."""
    played = play_line(puzzle, puzzle.answers[0], Budget(seconds=5.0))
    pos = puzzle.position
    for _seat, c in played.plays[:4]:
        pos = pos.play(c)
    return played.complete and pos.leader.team != puzzle.team


def _difficulty(verdict: Verdict, tricks_left: int) -> str:
    wrong = len(verdict.legal) - len(verdict.working)
    score = tricks_left + wrong + math.log10(max(verdict.nodes, 1))
    return "easy" if score < 7 else "medium" if score < 9.5 else "hard"


def _positions(rnd: Round, rng: random.Random) -> Iterator[tuple[Round, Position]]:
    """Positions of the finished round ``rnd`` with 3–5 tricks left, replayed from its deal."""
    replay = Round.deal(rnd.rules, dealer=rnd.dealer, seed=rnd.seed, bags=rnd.bags_before)
    chosen: list[Position] = []
    for action in rnd.history:
        if replay.bids and len(replay.bids) == 4 and 3 <= 13 - len(replay.tricks) <= 5 and not replay.is_over:
            chosen.append(Position.from_round(replay))
        replay.apply(action)
    rng.shuffle(chosen)
    for pos in chosen[:6]:
        yield replay, pos


def generate(
    rules: Rules | str,
    seed: int,
    *,
    count: int = 1,
    rounds: int = 40,
    budget: Budget = GENERATE_BUDGET,
    theme: str | None = None,
) -> list[Puzzle]:
    """Up to ``count`` sharp puzzles from ``rounds`` bot-played rounds (one a round at most, of ``theme``
    if given); the same seed gives the same puzzles.

    >>> ps = generate("jokers", 3, count=1, rounds=6)
    >>> [verify(p).sharp for p in ps]
    [True]
    """
    out: list[Puzzle] = []
    for puzzle in _found(rules, seed, rounds, budget, theme):
        out.append(puzzle)
        if len(out) >= count:
            break
    return out


def generate_near(
    rules: Rules | str,
    seed: int,
    near: float,
    *,
    standing: Standing | None = None,
    rounds: int = 40,
    budget: Budget = GENERATE_BUDGET,
    theme: str | None = None,
) -> Puzzle | None:
    """A new puzzle whose rating is near ``near``: the first generated of the difficulty nearest it,
    else the nearest of the first :data:`NEAR_CANDIDATES` found (``None`` if none came up); a
    generated puzzle's rating is its difficulty's, or the learner's view of it (``standing``) if
    they tried it.

    >>> [generate_near("jokers", 5, aim, rounds=8).difficulty for aim in (1200.0, 1800.0)]
    ['easy', 'hard']
    """
    view = standing or Standing()
    wanted = nearest_difficulty(near)
    found: list[Puzzle] = []
    for puzzle in _found(rules, seed, rounds, budget, theme):
        if puzzle.difficulty == wanted:
            return puzzle
        found.append(puzzle)
        if len(found) >= NEAR_CANDIDATES:
            break
    if not found:
        return None
    return min(found, key=lambda p: abs(view.puzzle_rating(p.id, p.difficulty).rating - near))


def _found(rules: Rules | str, seed: int, rounds: int, budget: Budget, theme: str | None) -> Iterator[Puzzle]:
    """Sharp puzzles, one a round at most, of ``theme`` if given, from ``rounds`` bot-played rounds of the seed
    in ``rules`` (at a table without nil the bots bid none, so no goal is about a nil)."""
    rules = Rules.preset(rules) if isinstance(rules, str) else rules
    rng = random.Random(seed)
    for _ in range(rounds):
        round_seed = rng.randrange(1_000_000)
        bags = {Team.NS: 0, Team.EW: 0}
        if rng.random() < 0.4:
            bags[rng.choice((Team.NS, Team.EW))] = rng.randint(rules.bag_limit - 4, rules.bag_limit - 1)
        bots = {s: HeuristicBot(seed=round_seed + int(s)) for s in Seat}
        rnd = play_round(rules, bots, seed=round_seed, bags=bags)
        for replay, pos in _positions(rnd, rng):
            puzzle = _first_sharp(rules, replay, pos, budget)
            if puzzle is not None and not rules.nil and puzzle.goal.rule.about_nil:
                continue  # not at a table without nil (its bots bid none, so this is a safeguard)
            if puzzle is not None and theme in (None, puzzle.theme):
                yield puzzle
                break


def _first_sharp(rules: Rules, rnd: Round, pos: Position, budget: Budget) -> Puzzle | None:
    goals = _goals(rnd, pos)
    most = _most(pos, pos.to_act.team, budget)
    if most:
        goals.append(Goal("can_take", most, pos.to_act))
    legal = pos.legal_plays()
    if len(legal) < 2:
        return None
    for goal in goals:
        draft = Puzzle(rules.name, pos.hands, pos.trick, pos.leader, pos.spades_broken, pos.taken, goal, legal[:1])
        start = draft.ask(pos, budget)
        if not (start.exact and start.holds) or len(start.best_cards) in (0, len(legal)):
            continue
        verdict = verify(draft, budget)
        if not verdict.sharp:
            continue
        puzzle = dataclasses.replace(draft, answers=verdict.working)
        puzzle = dataclasses.replace(
            puzzle, theme=_theme(puzzle, rules), difficulty=_difficulty(verdict, pos.tricks_left)
        )
        return puzzle
    return None


# --- the shipped set -------------------------------------------------------------------------


@functools.cache
def shipped() -> tuple[Puzzle, ...]:
    """The puzzles that come with the app (generated once with fixed seeds, verified in the tests)."""
    data = json.loads(_DATA.read_text(encoding="utf-8"))
    return tuple(Puzzle.from_dict(d) for d in data["puzzles"])


def find_shipped(code: str) -> Puzzle | None:
    """The shipped puzzle with this code, if it is one."""
    return next((p for p in shipped() if p.code == code), None)


def daily(
    date: datetime.date,
    rules_name: str | None = None,
    level: str | None = None,
    *,
    near: float | None = None,
    standing: Standing | None = None,
    nil: bool = True,
) -> Puzzle:
    """The puzzle of the day: one of the shipped ones, chosen by the date alone, of the rule set and
    at the level given where there is one (else of the nearest level there is); or, given a rating
    ``near``, among the puzzles whose ratings are nearest it (within :data:`DAILY_WINDOW` of the
    nearest), each rated by its difficulty or by the learner's view of it (``standing``).

    >>> daily(datetime.date(2026, 12, 2)) == daily(datetime.date(2026, 12, 2))
    True
    >>> p = daily(datetime.date(2026, 12, 2), "jokers", "easy")
    >>> p.rules_name, p.difficulty
    ('jokers', 'easy')
    >>> daily(datetime.date(2026, 12, 2), "classic", "easy").difficulty  # no easy one in classic: the nearest
    'medium'
    >>> daily(datetime.date(2026, 12, 2), "jokers", near=1850.0).difficulty
    'hard'

    ``nil=False`` (a table that plays without nil): no puzzle whose goal is about a nil.

    >>> {daily(datetime.date(2026, 12, d), "jokers", nil=False).goal.rule.about_nil for d in range(1, 29)}
    {False}
    """
    fits = [p for p in shipped() if nil or not p.goal.rule.about_nil]
    pool = [p for p in fits if rules_name in (None, p.rules_name)] or fits
    if near is not None:
        view = standing or Standing()

        def gap(p: Puzzle) -> float:
            return abs(view.puzzle_rating(p.id, p.difficulty).rating - near)

        closest = min(map(gap, pool))
        pool = [p for p in pool if gap(p) <= closest + DAILY_WINDOW]
    elif level in DIFFICULTIES:
        wanted = DIFFICULTIES.index(level)
        nearest = min(abs(DIFFICULTIES.index(p.difficulty) - wanted) for p in pool)
        pool = [p for p in pool if abs(DIFFICULTIES.index(p.difficulty) - wanted) == nearest]
    return random.Random(date.toordinal()).choice(pool)
