"""A play problem: a position of a round, a goal, and every card that reaches it (proven by the solver).

A puzzle travels as a short code (``?puzzle=<code>``) that holds the whole position,
so a class can share one by link. A code arriving from a link is untrusted: ``from_code``
refuses anything malformed with a ``PuzzleCodeError`` that says why, never another error.

>>> from spades_tutor.puzzles import shipped
>>> p = shipped()[1]
>>> p.rules_name, p.goal.kind, p.theme
('jokers', 'make_nil', 'save the nil')
>>> Puzzle.from_code(p.code) == p
True
>>> Puzzle.from_code("not-a-puzzle")
Traceback (most recent call last):
...
spades_tutor.puzzles.model.PuzzleCodeError: this puzzle code is cut short
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
from collections.abc import Callable, Mapping

from spades_tutor.engine import Card, CardsLike, Hand, Rules, Seat, Team, cards
from spades_tutor.engine.errors import SpadesError
from spades_tutor.solver import Answer, Budget, Position, PositionError, Result

from . import goals

__all__ = ["GOALS", "THEMES", "Goal", "Puzzle", "PuzzleCodeError"]

#: the goals a puzzle may set, named after the solver's questions, in the order of their codes (the
#: registry in ``spades_tutor.puzzles.goals`` holds each goal's question and words)
GOALS = goals.names()
#: what a puzzle teaches, as the page offers them
THEMES = (
    "pull trumps with a joker",
    "save the nil",
    "cover partner's nil",
    "break the nil",
    "count the bags",
    "the 2♦ in deuces-high",
    "endplay",
    "general",
)
DIFFICULTIES = ("easy", "medium", "hard")

#: no limit on the solver's work (generation and the tests; a page passes its own budget)
NO_LIMIT = Budget()

_VERSION = 1
_OUT = 15  # a card not in the position (played earlier, or not in this deck's 54)
_CODE_CHARS = 120  # longer than any code we make: refused before decoding


class PuzzleCodeError(SpadesError):
    """A puzzle code that is not one of ours: damaged, cut short, or naming an impossible position."""


@dataclasses.dataclass(frozen=True)
class Goal:
    """What the learner's side must do from the position.

    ``number``: the contract (make / set), the most tricks in all (keep under), or the tricks
    to take from here (can take); unused (0) for the nil goals. ``seat``: the nil bidder for
    the nil goals, else the learner. ``bags``: the learner's side's bags before this hand
    (for keep under).
    """

    kind: str
    number: int = 0
    seat: Seat = Seat.SOUTH
    bags: int = 0

    def __post_init__(self) -> None:
        if goals.get(self.kind) is None:
            raise PuzzleCodeError(f"not a puzzle goal: {self.kind!r} (one of {', '.join(goals.names())})")

    @property
    def rule(self) -> goals.GoalKind:
        """The kind of this goal: its solver's question and its words."""
        kind = goals.get(self.kind)
        assert kind is not None  # checked when the goal was made
        return kind


@dataclasses.dataclass(frozen=True)
class Puzzle:
    """A position (every hand known), the goal for the side of the seat to act, and the answers.

    ``answers`` are every legal card after which the goal is still reached against best
    defence; every other legal card fails (the solver proves both, see ``verify``).
    """

    rules_name: str
    hands: tuple[Hand, Hand, Hand, Hand]  # indexed by Seat: the cards still held
    trick: Hand  # the trick so far, lead first
    leader: Seat
    spades_broken: bool
    taken: tuple[int, int, int, int]  # tricks each seat has won so far
    goal: Goal
    answers: tuple[Card, ...]
    theme: str = "general"
    difficulty: str = "medium"

    # --- the position -------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return Rules.preset(self.rules_name)

    @property
    def position(self) -> Position:
        return Position(self.rules, self.hands, self.trick, self.leader, self.spades_broken, self.taken)

    @property
    def learner(self) -> Seat:
        """The seat to act: the learner plays it."""
        return Seat((self.leader + len(self.trick)) % 4)

    @property
    def team(self) -> Team:
        return self.learner.team

    @property
    def tricks_left(self) -> int:
        return len(self.hands[(self.leader + 3) % 4])

    def legal_plays(self) -> tuple[Card, ...]:
        return self.position.legal_plays()

    def is_answer(self, card: Card) -> bool:
        return card in self.answers

    @property
    def id(self) -> str:
        """Eight characters naming the puzzle (a digest of its code): stable as long as the puzzle is."""
        return hashlib.sha256(self.code.encode()).hexdigest()[:8]

    # --- the goal, as the solver's question -----------------------------------------------

    def ask(self, pos: Position, budget: Budget = NO_LIMIT) -> Answer:
        """Does the learner's side still reach the goal from ``pos`` (a position reached from this
        puzzle's)? ``holds`` True means yes, against best defence."""
        return self.goal.rule.ask(self, pos, budget)

    def question(self, budget: Budget = NO_LIMIT) -> Callable[[Position], Answer | Result]:
        """``ask`` as the solver's ``line`` takes it."""
        return lambda pos: self.ask(pos, budget)

    def sentence(self) -> str:
        """The goal in one sentence, spoken to the learner."""
        return self.goal.rule.sentence(self)

    # --- the code ----------------------------------------------------------------------------

    @property
    def code(self) -> str:
        """The whole puzzle in a short URL-safe text (``from_code`` reads it back)."""
        rules = self.rules
        deck = rules.deck()
        where = [_OUT] * len(deck)
        index = {c: i for i, c in enumerate(deck)}
        for s in Seat:
            for c in self.hands[s]:
                where[index[c]] = int(s)
        for i, c in enumerate(self.trick):
            where[index[c]] = 4 + (self.leader + i) % 4
        if len(where) % 2:
            where.append(_OUT)
        packed = bytes(where[i] << 4 | where[i + 1] for i in range(0, len(where), 2))
        mine = self.hands[self.learner]
        answers = sum(1 << i for i, c in enumerate(mine) if c in self.answers)
        head = bytes(
            [
                _VERSION,
                Rules.preset_names().index(self.rules_name),
                int(self.leader) | int(self.spades_broken) << 2 | self.goal.rule.code << 3,
                self.taken[0] << 4 | self.taken[1],
                self.taken[2] << 4 | self.taken[3],
                self.goal.number,
                int(self.goal.seat),
                self.goal.bags,
                answers,
                THEMES.index(self.theme) << 2 | DIFFICULTIES.index(self.difficulty),
            ]
        )
        body = head + packed
        check = hashlib.sha256(body).digest()[:2]
        return base64.urlsafe_b64encode(body + check).decode().rstrip("=")

    @classmethod
    def from_code(cls, code: object) -> Puzzle:
        """The puzzle a code holds; ``PuzzleCodeError`` (saying why) for anything else."""
        if not isinstance(code, str):
            raise PuzzleCodeError(f"a puzzle code is text, not {type(code).__name__}")
        text = code.strip()
        if not text or len(text) > _CODE_CHARS:
            raise PuzzleCodeError(f"a puzzle code has 1 to {_CODE_CHARS} characters, not {len(text)}")
        if any(not (ch.isascii() and (ch.isalnum() or ch in "-_")) for ch in text):
            raise PuzzleCodeError("a puzzle code has only letters, digits, '-' and '_'")
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        except ValueError as e:
            raise PuzzleCodeError("this puzzle code is damaged (it does not decode)") from e
        if len(raw) < 12:
            raise PuzzleCodeError("this puzzle code is cut short")
        body, check = raw[:-2], raw[-2:]
        if hashlib.sha256(body).digest()[:2] != check:
            raise PuzzleCodeError("this puzzle code is damaged (its check characters do not match)")
        try:
            return cls._from_bytes(body)
        except PuzzleCodeError:
            raise
        except (SpadesError, ValueError, IndexError, KeyError) as e:
            raise PuzzleCodeError(f"this puzzle code names an impossible position: {e}") from e

    @classmethod
    def _from_bytes(cls, body: bytes) -> Puzzle:
        if body[0] != _VERSION:
            raise PuzzleCodeError(f"this puzzle code is of version {body[0]}, not {_VERSION}")
        names = Rules.preset_names()
        if body[1] >= len(names):
            raise PuzzleCodeError(f"this puzzle code names rule set {body[1]}, but there are {len(names)}")
        rules_name = names[body[1]]
        deck = Rules.preset(rules_name).deck()
        packed = body[10:]
        if len(packed) != (len(deck) + 1) // 2:
            raise PuzzleCodeError("this puzzle code has the wrong length for its rule set")
        where = [n for b in packed for n in (b >> 4, b & 15)][: len(deck)]
        if any(n not in (*range(8), _OUT) for n in where):
            raise PuzzleCodeError("this puzzle code puts a card nowhere a card can be")
        leader = Seat(body[2] & 3)
        by_seat: dict[Seat, list[Card]] = {s: [] for s in Seat}
        in_trick: dict[Seat, Card] = {}
        for c, n in zip(deck, where, strict=True):
            if n < 4:
                by_seat[Seat(n)].append(c)
            elif n < 8:
                if Seat(n - 4) in in_trick:
                    raise PuzzleCodeError("this puzzle code has two trick cards from one seat")
                in_trick[Seat(n - 4)] = c
        trick_seats = [Seat((leader + i) % 4) for i in range(len(in_trick))]
        if set(trick_seats) != set(in_trick):
            raise PuzzleCodeError("this puzzle code's trick was not played in turn from its leader")
        kind = goals.by_code(body[2] >> 3)
        if kind is None or body[6] > 3 or body[9] >> 2 >= len(THEMES) or body[9] & 3 >= 3:
            raise PuzzleCodeError("this puzzle code names a goal, seat, theme or level we do not have")
        taken = (body[3] >> 4, body[3] & 15, body[4] >> 4, body[4] & 15)
        goal = Goal(kind.name, body[5], Seat(body[6]), body[7])
        rules = Rules.preset(rules_name)
        hands = tuple(rules.sort_hand(by_seat[s]) for s in Seat)
        try:
            pos = Position(
                rules,
                (hands[0], hands[1], hands[2], hands[3]),
                Hand(in_trick[s] for s in trick_seats),
                leader,
                bool(body[2] >> 2 & 1),
                taken,
            )
        except PositionError as e:
            raise PuzzleCodeError(f"this puzzle code names an impossible position: {e}") from e
        if not 1 <= pos.tricks_left <= 5 or sum(taken) + pos.tricks_left != 13:
            raise PuzzleCodeError("a puzzle has 1 to 5 tricks left and 13 tricks in all")
        mine = pos.hands[pos.to_act]
        if body[8] >> len(mine):
            raise PuzzleCodeError("this puzzle code lists an answer card the player does not hold")
        answers = tuple(c for i, c in enumerate(mine) if body[8] >> i & 1)
        legal = pos.legal_plays()
        if not answers or any(c not in legal for c in answers):
            raise PuzzleCodeError("this puzzle code's answers are not cards the player may play")
        return cls(
            rules_name,
            pos.hands,
            pos.trick,
            leader,
            pos.spades_broken,
            taken,
            goal,
            answers,
            THEMES[body[9] >> 2],
            DIFFICULTIES[body[9] & 3],
        )

    # --- data -----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        """A readable record (the shipped puzzles are stored this way)."""
        return {
            "rules": self.rules_name,
            "hands": {s.letter: " ".join(c.letters for c in self.hands[s]) for s in Seat},
            "trick": " ".join(c.letters for c in self.trick),
            "leader": self.leader.letter,
            "spades_broken": self.spades_broken,
            "taken": {s.letter: self.taken[s] for s in Seat},
            "goal": {
                "kind": self.goal.kind,
                "number": self.goal.number,
                "seat": self.goal.seat.letter,
                "bags": self.goal.bags,
            },
            "answers": " ".join(c.letters for c in self.answers),
            "theme": self.theme,
            "difficulty": self.difficulty,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Puzzle:
        """The puzzle of a ``to_dict`` record."""
        rules_name = str(data["rules"])
        rules = Rules.preset(rules_name)
        hands_data = data["hands"]
        taken_data = data["taken"]
        goal_data = data["goal"]
        assert isinstance(hands_data, Mapping) and isinstance(taken_data, Mapping) and isinstance(goal_data, Mapping)
        hands: dict[Seat | str, CardsLike] = {s: str(hands_data[s.letter]) for s in Seat}
        pos = Position.from_hands(
            rules,
            hands,
            leader=str(data["leader"]),
            trick=str(data["trick"]),
            spades_broken=bool(data["spades_broken"]),
            taken={s: int(taken_data[s.letter]) for s in Seat},
        )
        goal = Goal(
            str(goal_data["kind"]), int(goal_data["number"]), Seat.parse(str(goal_data["seat"])), int(goal_data["bags"])
        )
        return cls(
            rules_name,
            pos.hands,
            pos.trick,
            pos.leader,
            pos.spades_broken,
            pos.taken,
            goal,
            tuple(cards(str(data["answers"]))),
            str(data["theme"]),
            str(data["difficulty"]),
        )
