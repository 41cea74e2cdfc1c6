"""Questions a page asks the solver, each with a work budget and an answer that says if it is exact.

>>> import spades_tutor as st
>>> rules = st.Rules.preset("jokers")
>>> pos = Position.from_hands(rules, {"N": "AH 3C", "E": "KH 4C", "S": "3H 5C", "W": "QH BJ"},
...                          leader="N", spades_broken=True)
>>> r = solve(pos, st.Team.NS)
>>> r.value, r.exact, [str(c) for c in r.best_cards]
(1, True, ['A♥', '3♣'])
>>> can_take(pos, st.Team.EW, 2).holds
False
>>> make_nil(pos, st.Seat.SOUTH).holds
True
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable

from spades_tutor.engine import Card, Seat, Team

from .bits import Tables
from .brute import brute_force_value
from .position import Position
from .search import OutOfBudget, core_in_use, kept_tables, search_for

__all__ = [
    "Answer",
    "Budget",
    "CardValues",
    "Result",
    "best_cards",
    "break_nil",
    "can_take",
    "card_values",
    "keep_under",
    "kept_tables",
    "line",
    "make_contract",
    "make_nil",
    "reach",
    "ready",
    "set_contract",
    "solve",
]


@dataclasses.dataclass(frozen=True)
class Budget:
    """The most work one call may do: a node count, seconds, or both (None: no limit)."""

    nodes: int | None = None
    seconds: float | None = None


UNLIMITED = Budget()


@dataclasses.dataclass(frozen=True)
class Result:
    """The most tricks ``side`` can take of the remaining ones (the trick in progress included).

    When the budget ran out, ``exact`` is False and the truth lies in ``lower..upper``;
    ``value`` is then the proven ``lower`` bound.
    """

    side: Team
    value: int
    exact: bool
    nodes: int
    seconds: float
    lower: int
    upper: int
    best_cards: tuple[Card, ...]  # the mover's cards that keep the optimum ('' if not asked or not exact)


@dataclasses.dataclass(frozen=True)
class Answer:
    """A yes/no question about a goal; ``holds`` is None when the budget ran out."""

    goal: str
    holds: bool | None
    exact: bool
    nodes: int
    seconds: float
    best_cards: tuple[Card, ...]  # the mover's cards that do best for the mover's side on this goal


@dataclasses.dataclass(frozen=True)
class CardValues:
    """Each legal card's value for ``side`` (``card_values``); empty, with ``exact`` False, when the
    budget ran out."""

    side: Team
    values: dict[Card, int]
    exact: bool
    nodes: int
    seconds: float


class _Goal:
    """'The maximiser can make the counted seats take >= k tricks in the whole round.'"""

    def __init__(self, counted: tuple[Seat, ...], maximiser: Team, k: int) -> None:
        self.counted = counted
        self.mask = sum(1 << s for s in counted)
        self.maximiser = maximiser
        self.k = k


class _Runner:
    def __init__(self, pos: Position, counted_mask: int, maximiser: Team, budget: Budget) -> None:
        self.pos = pos
        self.tables = Tables.of(pos.rules)
        self.search = search_for(self.tables, counted_mask, int(maximiser))
        self.search.set_budget(budget.nodes, budget.seconds)
        self.start_nodes = self.search.nodes
        self.counted_mask = counted_mask
        self.bounds = (0, pos.tricks_left)

    @property
    def nodes(self) -> int:
        """The nodes this question has visited (a kept ``Search`` counts on from earlier ones)."""
        return self.search.nodes - self.start_nodes

    def already(self, pos: Position) -> int:
        return sum(pos.taken[s] for s in range(4) if self.counted_mask >> s & 1)

    def at_least(self, pos: Position, k_remaining: int) -> bool:
        t = self.tables
        if pos.two_of_clubs_leads:
            # the forced first lead: one move, then search on
            return self.at_least(pos.play(pos.legal_plays()[0]), k_remaining)
        hands = [t.mask(pos.hands[s]) for s in range(4)]
        trick = [t.mask((c,)) for c in pos.trick]
        return self.search.at_least(hands, int(pos.leader), pos.spades_broken, trick, k_remaining)

    def best_value(self, pos: Position, lo: int, hi: int) -> tuple[int, int]:
        """Narrow ``lo..hi`` (counted tricks of the remaining) to the exact value; raises OutOfBudget
        with ``self.bounds`` holding the proven range so far."""
        self.bounds = (lo, hi)
        while lo < hi:
            k = (lo + hi + 1) // 2
            if self.at_least(pos, k):
                lo = k
            else:
                hi = k - 1
            self.bounds = (lo, hi)
        return lo, hi


def _cards_keeping(
    runner: _Runner, pos: Position, want_at_least: int | None, want_below: int | None
) -> tuple[Card, ...]:
    """The mover's legal cards after which the count stays >= ``want_at_least`` (or < ``want_below``)."""
    out = []
    for c in pos.legal_plays():
        child = pos.play(c)
        gained = runner.already(child) - runner.already(pos)
        if want_at_least is not None:
            if runner.at_least(child, want_at_least - gained):
                out.append(c)
        else:
            assert want_below is not None
            if not runner.at_least(child, want_below - gained):
                out.append(c)
    return tuple(out)


def solve(
    pos: Position,
    side: Team | str = Team.NS,
    *,
    budget: Budget = UNLIMITED,
    with_cards: bool = True,
    brute_force: bool = False,
) -> Result:
    """The most tricks ``side`` can take of the remaining ones, against best defence.

    ``with_cards`` also lists every card of the seat to act that keeps the optimum (for
    the side to move). ``brute_force`` asks the referee instead (``brute.py``: a plain minimax on
    the engine's objects, no speed-up at all, no budget), for measuring what the search saves.
    """
    team = Team.parse(side)
    start = time.perf_counter()
    if brute_force:
        return _brute_force(pos, team, with_cards, start)
    runner = _Runner(pos, sum(1 << s for s in team.seats), team, budget)
    left = pos.tricks_left
    try:
        lo, hi = runner.best_value(pos, 0, left)
        cards: tuple[Card, ...] = ()
        if with_cards and left:
            if pos.to_act.team == team:
                cards = _cards_keeping(runner, pos, lo, None)
            else:
                cards = _cards_keeping(runner, pos, None, lo + 1)
        exact = True
    except OutOfBudget:
        (lo, hi), cards, exact = runner.bounds, (), False
    return Result(team, lo, exact, runner.nodes, time.perf_counter() - start, lo, hi, cards)


def card_values(pos: Position, side: Team | str = Team.NS, *, budget: Budget = UNLIMITED) -> CardValues:
    """The value of every legal card of the seat to act: the most tricks ``side`` can take of the
    remaining ones (the trick in progress included) after that card, against best defence.

    Cards with no other hand's card between them (nor the trick's winning card) have one value,
    found once (as the search's own moves do). As DDS does: the first card's value by the search
    for a value, then each next card's by
    null-window tests that start from the card before's value and step until they meet, all on the
    same tables (the cards of one seat mostly have values close together); when the seat to act
    is on ``side``, each next card's tests start from the best value so far instead (0.3% and 1.3%
    fewer nodes on the bench's classic and jokers parts; for the other side it cost 0.8% more). That costs fewer nodes
    than a value search per card (``bench/solver_nodes.py``'s every-card part), and fewer than first
    solving the position and stepping down from its value.

    >>> import spades_tutor as st
    >>> rules = st.Rules.preset("jokers")
    >>> pos = Position.from_hands(rules, {"N": "AH 3C", "E": "KH 4C", "S": "3H 5C", "W": "QH BJ"},
    ...                          leader="N", spades_broken=True)
    >>> {str(c): v for c, v in card_values(pos, st.Team.NS).values.items()}
    {'A♥': 1, '3♣': 1}
    """
    team = Team.parse(side)
    start = time.perf_counter()
    runner = _Runner(pos, sum(1 << s for s in team.seats), team, budget)
    out: dict[Card, int] = {}
    try:
        guess: int | None = None
        maxer = pos.to_act.team == team
        after = _child_tests(runner, pos)
        for group in _same_value_groups(pos):  # legal cards only
            gained, left, test = after(group[0])
            # the card's count of the remaining tricks lies in lo..hi: what the card took, and at
            # most every trick after it
            lo, hi = gained, gained + left
            if guess is None:
                while lo < hi:  # the search for a value: halve the range
                    k = (lo + hi + 1) // 2
                    if test(k - gained):
                        lo = k
                    else:
                        hi = k - 1
            else:
                g = min(max(guess, lo), hi)
                while lo < hi:
                    if test(g - gained):
                        lo = g
                        g += 1
                    else:
                        hi = g - 1
                        g -= 1
            # the next card's first test: the best value so far when the mover's side maximises
            # (it asks "does this card reach the best?"), else the card before's value
            guess = lo if guess is None or not maxer else max(guess, lo)
            for same in group:
                out[same] = lo
        exact = True
    except OutOfBudget:
        out, exact = {}, False
    return CardValues(team, out, exact, runner.nodes, time.perf_counter() - start)


def _child_tests(runner: _Runner, pos: Position) -> Callable[[Card], tuple[int, int, Callable[[int], bool]]]:
    """For a legal card of the seat to act: the counted tricks it takes, the tricks left after it,
    and the question "can the maximiser make the counted seats take >= k of those?". Inside a
    trick the child's masks are the position's less one bit (no new ``Position`` per card: a page
    asks every card's value often); a card that ends the trick, and the forced first lead, go
    through ``Position.play`` and the engine."""
    if pos.two_of_clubs_leads or len(pos.trick) >= 3:

        def played(card: Card) -> tuple[int, int, Callable[[int], bool]]:
            child = pos.play(card)
            gained = runner.already(child) - runner.already(pos)
            return gained, child.tricks_left, lambda k: runner.at_least(child, k)

        return played
    t = runner.tables
    hands = [t.mask(pos.hands[s]) for s in range(4)]
    trick = [t.mask((c,)) for c in pos.trick]
    mover, leader, left = int(pos.to_act), int(pos.leader), pos.tricks_left
    search = runner.search

    def masked(card: Card) -> tuple[int, int, Callable[[int], bool]]:
        bit = 1 << t.bit_of[card.index]
        if not hands[mover] & bit:
            raise ValueError(f"{pos.to_act} does not hold {card}")
        child = list(hands)
        child[mover] ^= bit
        broken = pos.spades_broken or pos.rules.is_trump(card)
        return 0, left, lambda k: search.at_least(child, leader, broken, [*trick, bit], k)

    return masked


def _same_value_groups(pos: Position) -> list[tuple[Card, ...]]:
    """The legal cards of the seat to act in groups of equal value: cards of one suit group with
    no card of another hand, nor the trick's winning card, between them, highest first."""
    t = Tables.of(pos.rules)
    mover = pos.to_act
    others = 0
    for s in Seat:
        if s != mover:
            others |= t.mask(pos.hands[s])
    if pos.trick:
        led = t.suit_mask[t.suit_of_bit[t.bit_of[pos.trick[0].index]]]
        others |= 1 << max(t.bit_of[c.index] for c in pos.trick if (1 << t.bit_of[c.index]) & (led | t.trump))
    groups: list[list[Card]] = []
    prev = -1
    for c in sorted(pos.legal_plays(), key=lambda c: -t.bit_of[c.index]):
        b = t.bit_of[c.index]
        between = ((1 << prev) - 1) & ~((1 << (b + 1)) - 1) if prev >= 0 else 0
        if groups and t.suit_of_bit[prev] == t.suit_of_bit[b] and not others & between:
            groups[-1].append(c)
        else:
            groups.append([c])
        prev = b
    return [tuple(g) for g in groups]


def _brute_force(pos: Position, team: Team, with_cards: bool, start: float) -> Result:
    value, nodes = brute_force_value(pos, team.seats, team)
    cards: tuple[Card, ...] = ()
    if with_cards and pos.tricks_left:
        best = []
        before = sum(pos.taken[s] for s in team.seats)
        for c in pos.legal_plays():
            child = pos.play(c)
            v, n = brute_force_value(child, team.seats, team)
            nodes += n
            if sum(child.taken[s] for s in team.seats) - before + v == value:
                best.append(c)
        cards = tuple(best)
    return Result(team, value, True, nodes, time.perf_counter() - start, value, value, cards)


def _answer(pos: Position, goal: _Goal, name: str, negate: bool, budget: Budget) -> Answer:
    """Whether the maximiser reaches the goal (or, with ``negate``, whether the other team stops it)."""
    start = time.perf_counter()
    runner = _Runner(pos, goal.mask, goal.maximiser, budget)
    need = goal.k - runner.already(pos)
    holds: bool | None
    cards: tuple[Card, ...] = ()
    try:
        reached = runner.at_least(pos, need)
        holds = reached != negate
        if pos.tricks_left:
            mover_is_max = pos.to_act.team == goal.maximiser
            if mover_is_max == reached:  # the mover's side wins this goal: which cards keep it?
                cards = _cards_keeping(runner, pos, need, None) if reached else _cards_keeping(runner, pos, None, need)
            else:  # every card loses equally
                cards = pos.legal_plays()
        exact = True
    except OutOfBudget:
        holds, exact = None, False
    return Answer(name, holds, exact, runner.nodes, time.perf_counter() - start, cards)


def reach(
    pos: Position,
    counted: Iterable[Seat | str],
    maximiser: Team | str,
    k: int,
    *,
    stop: bool = False,
    budget: Budget = UNLIMITED,
) -> Answer:
    """The question behind all the others: can ``maximiser`` make the ``counted`` seats take at least
    ``k`` tricks in the round (tricks taken so far count)? With ``stop``: can the other team keep them
    under ``k``? (A nil bidder's tricks count toward a contract only where the rules give them to it,
    so a caller picks the seats.)"""
    seats = tuple(Seat.parse(s) for s in counted)
    team = Team.parse(maximiser)
    return _answer(pos, _Goal(seats, team, k), f"{team} reach {k}", stop, budget)


def can_take(pos: Position, side: Team | str, k: int, *, budget: Budget = UNLIMITED) -> Answer:
    """Can ``side`` take at least ``k`` of the remaining tricks (the trick in progress included)?"""
    team = Team.parse(side)
    already = sum(pos.taken[s] for s in team.seats)
    return _answer(pos, _Goal(team.seats, team, k + already), f"{team} take {k} more", False, budget)


def make_contract(pos: Position, side: Team | str, contract: int, *, budget: Budget = UNLIMITED) -> Answer:
    """Can ``side`` take at least ``contract`` tricks in the round (tricks taken so far count)?"""
    team = Team.parse(side)
    return _answer(pos, _Goal(team.seats, team, contract), f"{team} make {contract}", False, budget)


def set_contract(pos: Position, side: Team | str, contract: int, *, budget: Budget = UNLIMITED) -> Answer:
    """Can ``side`` hold the opponents, who bid ``contract``, below it for the round?"""
    team = Team.parse(side)
    other = team.other
    return _answer(pos, _Goal(other.seats, other, contract), f"{team} set {other} at {contract}", True, budget)


def keep_under(pos: Position, side: Team | str, most: int, *, budget: Budget = UNLIMITED) -> Answer:
    """Can ``side`` take at most ``most`` tricks in the round (no bag past the penalty)?"""
    team = Team.parse(side)
    return _answer(pos, _Goal(team.seats, team.other, most + 1), f"{team} take at most {most}", True, budget)


def make_nil(pos: Position, seat: Seat | str, *, budget: Budget = UNLIMITED) -> Answer:
    """Can ``seat`` (with its partner's help) take no trick in the round?"""
    s = Seat.parse(seat)
    return _answer(pos, _Goal((s,), s.team.other, 1), f"{s} makes nil", True, budget)


def break_nil(pos: Position, seat: Seat | str, *, budget: Budget = UNLIMITED) -> Answer:
    """Can the opponents of ``seat`` force it to take a trick?"""
    s = Seat.parse(seat)
    return _answer(pos, _Goal((s,), s.team.other, 1), f"{s.team.other} break {s}'s nil", False, budget)


def best_cards(pos: Position, side: Team | str = Team.NS, *, budget: Budget = UNLIMITED) -> tuple[Card, ...]:
    """Every card of the seat to act that keeps the double-dummy optimum for its side ('' if
    the budget ran out)."""
    return solve(pos, side, budget=budget, with_cards=True).best_cards


def line(
    pos: Position,
    question: Callable[[Position], Answer | Result],
    *,
    cards: int | None = None,
    budget: Budget = UNLIMITED,
) -> tuple[tuple[Seat, Card], ...]:
    """Best play from ``pos`` for both sides on one question: at each turn, the first of the cards
    the solver says keep the best result for the side to act (``question(pos)``'s ``best_cards``).

    ``question`` is one of this module's questions with its other arguments bound, for instance
    ``lambda p: make_nil(p, "S")``; the line goes on for ``cards`` plays (default: to the end of the
    round) and stops early when the budget (for the whole line) runs out.

    >>> import spades_tutor as st
    >>> rules = st.Rules.preset("jokers")
    >>> pos = Position.from_hands(rules, {"N": "AH 3C", "E": "KH 4C", "S": "3H 5C", "W": "QH BJ"},
    ...                          leader="N", spades_broken=True)
    >>> [f"{s.letter} {c}" for s, c in line(pos, lambda p: solve(p, st.Team.NS))]
    ['N A♥', 'E K♥', 'S 3♥', 'W Q♥', 'N 3♣', 'E 4♣', 'S 5♣', 'W BJ']
    """
    start = time.perf_counter()
    out: list[tuple[Seat, Card]] = []
    limit = pos.tricks_left * 4 - len(pos.trick) if cards is None else cards
    while len(out) < limit and pos.tricks_left:
        if budget.seconds is not None and time.perf_counter() - start > budget.seconds:
            break
        best = question(pos).best_cards
        if not best:
            break
        seat = pos.to_act
        out.append((seat, best[0]))
        pos = pos.play(best[0])
    return tuple(out)


def ready() -> str:
    """Load the compiled search now (or, the first time on a machine, compile it and keep it on
    disk), so that a page's time budget is spent searching: a page calls this before it starts its
    clock, and the install does once. Returns the core in use, 'compiled' or 'pure'.

    >>> ready() in ("compiled", "pure")
    True
    """
    core = core_in_use()
    if core == "compiled":
        from spades_tutor.engine import Rules

        pos = Position.from_hands(Rules.preset("jokers"), {"N": "AH", "E": "KH", "S": "3H", "W": "QH"}, leader="N")
        solve(pos, Team.NS, with_cards=False, budget=Budget(seconds=60.0))  # the sliced (timed) path too
        solve(pos, Team.NS, with_cards=False)
    return core
