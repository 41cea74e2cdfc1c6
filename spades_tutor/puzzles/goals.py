"""The goals a puzzle may set, one class each, and the registry that lists them.

A goal kind owns everything about its goal: its name, its number in a puzzle code, the
solver's question that decides it, the sentence that sets it, the sentence that says how a
line of play ended for it, and what it means for the page (the theme it teaches, whether
partner's hand is shown). ``Puzzle`` and the explanations ask the kind of their goal
(``Goal.rule``) and never switch on its name, so a new goal is one class here.

A goal's ``code`` is written into every shared puzzle link (``?puzzle=…``): it never changes,
and a new goal takes a number no other goal has had.

>>> names()
('make_contract', 'set_contract', 'make_nil', 'break_nil', 'keep_under', 'can_take')
>>> get("keep_under").code, by_code(5).name, by_code(31)
(4, 'can_take', None)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, TypeVar

from spades_tutor.engine.errors import SpadesError
from spades_tutor.engine.text import plural
from spades_tutor.solver import (
    Answer,
    Budget,
    Position,
    break_nil,
    can_take,
    keep_under,
    make_contract,
    make_nil,
    set_contract,
)

if TYPE_CHECKING:  # a type-only circle: a goal judges the Puzzle that model.py builds around it
    from .model import Puzzle

__all__ = ["CODE_LIMIT", "REGISTRY", "GoalKind", "by_code", "get", "names", "register", "unregister"]

#: a goal's code has five bits of the puzzle code's third byte
CODE_LIMIT = 32


class GoalKind:
    """One kind of goal. ``puzzle.goal`` holds its numbers (contract, nil seat, bags)."""

    name: ClassVar[str] = ""  # the solver's question it is named after: "make_contract"
    code: ClassVar[int] = -1  # its number in a puzzle code (fixed for good: links hold it)
    #: the goal is about a nil bid (to make, cover or break): a table that plays without nil has none
    about_nil: ClassVar[bool] = False

    def ask(self, puzzle: Puzzle, pos: Position, budget: Budget) -> Answer:
        """Does the learner's side still reach the goal from ``pos`` (reached from the puzzle's)?"""
        raise NotImplementedError

    def sentence(self, puzzle: Puzzle) -> str:
        """The goal in one sentence, spoken to the learner."""
        raise NotImplementedError

    def outcome(self, puzzle: Puzzle, end: Position) -> str:
        """How a line of play that ended at ``end`` went for the goal, in one sentence."""
        raise NotImplementedError

    def theme(self, puzzle: Puzzle) -> str | None:
        """The theme the goal itself teaches (None: the generator reads one from the play)."""
        return None

    def shows_partner(self, puzzle: Puzzle) -> bool:
        """Whether the page shows partner's hand beside the learner's: the goal counts its tricks."""
        return True


#: goal name -> its kind, in the order of their codes
REGISTRY: dict[str, GoalKind] = {}

G = TypeVar("G", bound=type[GoalKind])


def register(cls: G) -> G:
    """Add a goal kind to the registry (a class decorator): its name and code must be new."""
    if not cls.name or not 0 <= cls.code < CODE_LIMIT:
        raise SpadesError(f"{cls.__name__} needs a name and a code from 0 to {CODE_LIMIT - 1}")
    taken = {k.code: k.name for k in REGISTRY.values() if k.name != cls.name}
    if cls.code in taken or (cls.name in REGISTRY and type(REGISTRY[cls.name]) is not cls):
        raise SpadesError(f"goal {cls.name!r} (code {cls.code}) clashes with a registered goal")
    every = {**REGISTRY, cls.name: cls()}
    REGISTRY.clear()
    REGISTRY.update(sorted(every.items(), key=lambda item: item[1].code))
    return cls


def unregister(name: str) -> None:
    """Take a goal kind out of the registry (a test that registers one of its own cleans up with it)."""
    REGISTRY.pop(name, None)


def names() -> tuple[str, ...]:
    """The goals' names, in the order of their codes."""
    return tuple(REGISTRY)


def get(name: object) -> GoalKind | None:
    """The kind of goal named ``name`` (None: no such goal)."""
    return REGISTRY.get(name) if isinstance(name, str) else None


def by_code(code: int) -> GoalKind | None:
    """The kind of goal a puzzle code's number names (None: no such goal)."""
    return next((k for k in REGISTRY.values() if k.code == code), None)


# --- words the goals share ------------------------------------------------------------------------


def _you(puzzle: Puzzle) -> str:
    return f"You play {puzzle.learner.name.title()}"


def _have(puzzle: Puzzle) -> int:
    """The tricks the learner's side has taken before the puzzle."""
    return sum(puzzle.taken[s] for s in puzzle.team.seats)


def _left(puzzle: Puzzle) -> str:
    return plural(puzzle.tricks_left, "trick")


def _ours(puzzle: Puzzle, end: Position) -> int:
    return sum(end.taken[s] for s in puzzle.team.seats)


# --- the goals ------------------------------------------------------------------------------------


@register
class MakeContract(GoalKind):
    """Take enough tricks for the side's bid."""

    name = "make_contract"
    code = 0

    def ask(self, puzzle: Puzzle, pos: Position, budget: Budget) -> Answer:
        return make_contract(pos, puzzle.team, puzzle.goal.number, budget=budget)

    def sentence(self, puzzle: Puzzle) -> str:
        g, have = puzzle.goal, _have(puzzle)
        need = g.number - have
        return (
            f"{_you(puzzle)}: {puzzle.team} bid {g.number} and have {have}, so make the contract by taking "
            f"{need} of the last {_left(puzzle)}."
        )

    def outcome(self, puzzle: Puzzle, end: Position) -> str:
        ours, number = _ours(puzzle, end), puzzle.goal.number
        ok = ours >= number
        return f"{puzzle.team} end with {plural(ours, 'trick')}: the contract of {number} is {'made' if ok else 'set'}."


@register
class SetContract(GoalKind):
    """Hold the other side under its bid."""

    name = "set_contract"
    code = 1

    def ask(self, puzzle: Puzzle, pos: Position, budget: Budget) -> Answer:
        return set_contract(pos, puzzle.team, puzzle.goal.number, budget=budget)

    def sentence(self, puzzle: Puzzle) -> str:
        g, them = puzzle.goal, puzzle.team.other
        theirs = sum(puzzle.taken[s] for s in them.seats)
        room = g.number - theirs - 1
        you, left = _you(puzzle), _left(puzzle)
        if room == 0:
            return f"{you}: {them} bid {g.number} and have {theirs}; set them by letting them take none of the last {left}."
        return (
            f"{you}: {them} bid {g.number} and have {theirs}; set them by holding them to "
            f"at most {room} of the last {left}."
        )

    def outcome(self, puzzle: Puzzle, end: Position) -> str:
        them, number = puzzle.team.other, puzzle.goal.number
        theirs = sum(end.taken[s] for s in them.seats)
        ok = theirs < number
        return f"{them} end with {plural(theirs, 'trick')}: their {number} is {'set' if ok else 'made'}."


def _nil_outcome(puzzle: Puzzle, end: Position) -> str:
    seat = puzzle.goal.seat
    n = end.taken[seat]
    made = n == 0
    return f"{seat.name.title()} takes {plural(n, 'trick')}: the nil is {'made' if made else 'broken'}."


@register
class MakeNil(GoalKind):
    """See that the nil bidder (the learner, or partner) takes no trick."""

    name = "make_nil"
    code = 2
    about_nil = True

    def ask(self, puzzle: Puzzle, pos: Position, budget: Budget) -> Answer:
        return make_nil(pos, puzzle.goal.seat, budget=budget)

    def sentence(self, puzzle: Puzzle) -> str:
        seat, you, left = puzzle.goal.seat, _you(puzzle), _left(puzzle)
        if seat == puzzle.learner:
            return f"{you}: you bid nil; take none of the last {left}."
        name = seat.name.title()
        return f"{you}: your partner {name} bid nil; see that {name} takes none of the last {left}."

    def outcome(self, puzzle: Puzzle, end: Position) -> str:
        return _nil_outcome(puzzle, end)

    def theme(self, puzzle: Puzzle) -> str | None:
        return "save the nil" if puzzle.goal.seat == puzzle.learner else "cover partner's nil"

    def shows_partner(self, puzzle: Puzzle) -> bool:
        return puzzle.goal.seat != puzzle.learner  # a nil of one's own: partner's hand is no part of it


@register
class BreakNil(GoalKind):
    """Make an opponent who bid nil take a trick."""

    name = "break_nil"
    code = 3
    about_nil = True

    def ask(self, puzzle: Puzzle, pos: Position, budget: Budget) -> Answer:
        return break_nil(pos, puzzle.goal.seat, budget=budget)

    def sentence(self, puzzle: Puzzle) -> str:
        name = puzzle.goal.seat.name.title()
        return f"{_you(puzzle)}: {name} bid nil; make {name} take one of the last {_left(puzzle)}."

    def outcome(self, puzzle: Puzzle, end: Position) -> str:
        return _nil_outcome(puzzle, end)

    def theme(self, puzzle: Puzzle) -> str | None:
        return "break the nil"

    def shows_partner(self, puzzle: Puzzle) -> bool:
        return False


@register
class KeepUnder(GoalKind):
    """Take no more tricks in all than ``number``: a bag more brings the penalty."""

    name = "keep_under"
    code = 4

    def ask(self, puzzle: Puzzle, pos: Position, budget: Budget) -> Answer:
        return keep_under(pos, puzzle.team, puzzle.goal.number, budget=budget)

    def sentence(self, puzzle: Puzzle) -> str:
        g, rules = puzzle.goal, puzzle.rules
        return (
            f"{_you(puzzle)}: {puzzle.team} have {plural(g.bags, 'bag')} and {_have(puzzle)} tricks; take at most "
            f"{g.number} in all, or a bag more brings the {rules.bag_limit}-bag penalty of {rules.bag_penalty}."
        )

    def outcome(self, puzzle: Puzzle, end: Position) -> str:
        ours, number = _ours(puzzle, end), puzzle.goal.number
        ok = ours <= number
        return (
            f"{puzzle.team} end with {plural(ours, 'trick')}: "
            f"{'no bag too many' if ok else 'a bag too many'} (at most {number})."
        )

    def theme(self, puzzle: Puzzle) -> str | None:
        return "count the bags"


@register
class CanTake(GoalKind):
    """Take ``number`` of the tricks left."""

    name = "can_take"
    code = 5

    def ask(self, puzzle: Puzzle, pos: Position, budget: Budget) -> Answer:
        team = puzzle.team
        gained = sum(pos.taken[s] for s in team.seats) - _have(puzzle)
        return can_take(pos, team, puzzle.goal.number - gained, budget=budget)

    def sentence(self, puzzle: Puzzle) -> str:
        return f"{_you(puzzle)}: take {puzzle.goal.number} of the last {_left(puzzle)} for {puzzle.team}."

    def outcome(self, puzzle: Puzzle, end: Position) -> str:
        number = puzzle.goal.number
        gained = _ours(puzzle, end) - _have(puzzle)
        ok = gained >= number
        return (
            f"{puzzle.team} take {gained} of the last {plural(puzzle.tricks_left, 'trick')}: "
            f"{'enough' if ok else 'not enough'} (the goal is {number})."
        )
