"""Lesson block kinds: one class each, owning its keys, what it builds and shows, and its check.

A block kind says which ``key: value`` lines its fenced block takes, what it builds
in a rule set (cards, a trick, a deal, a replayed round, a score, a game's end, a quiz
item), what it shows (``view``: a list of ``parts`` the lesson player draws), and how
it is checked against the engine (``check`` builds what the block shows and raises
``LessonError`` on any problem). Every method takes the block already resolved for one
rule set (``model.Resolved``), which asks the block's kind and never tests a kind name.
``BLOCK_KINDS`` lists them; adding a kind is a class here (and its tests).

>>> [name for name, kind in BLOCK_KINDS.items() if kind.fenced][:4]
['hand', 'hands', 'trick', 'trumps']
>>> sorted(BLOCK_KINDS["score"].required)
['bids', 'tricks']
>>> BLOCK_KINDS["quiz"].syntax, BLOCK_KINDS["markdown"].text_body
('quiz KIND', True)
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from .. import engine as st
from ..quiz import kinds as quiz_kinds
from ..quiz.items import QuizItem, ScoreItem, item_from_dict
from . import parts
from .values import SEAT_LETTERS as _SEAT_LETTERS
from .values import LessonError, parse_bool

if TYPE_CHECKING:  # a type-only circle: a block kind reads the Block that model.py builds from it
    from ..puzzles import Puzzle
    from .model import Block, Resolved

__all__ = ["ANSWER_KEYS", "BLOCK_KINDS", "BlockKind", "KeyProblem", "block_kind", "unknown_kind"]

_SEATS = frozenset({"N", "E", "S", "W"})

#: keys that would give a quiz's answer away (the engine computes answers)
ANSWER_KEYS = frozenset({"answer", "answers", "correct", "solution", "expected", "result", "winner", "legal"})


class KeyProblem(ValueError):
    """A key of a fenced block that does not belong with the others; the reader names its line."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


class BlockKind:
    """Base class: a kind with no cards, trick, deal, score or quiz of its own, checked by building nothing.

    Each accessor a kind lacks raises ``LessonError`` naming the file and line (whatever
    the rule set); a kind overrides the ones it has.
    """

    name: ClassVar[str] = ""
    fenced: ClassVar[bool] = True  # written as a fenced block (prose is not)
    required: ClassVar[frozenset[str]] = frozenset()
    optional: ClassVar[frozenset[str]] = frozenset({"label"})
    seat_keys: ClassVar[bool] = False  # N:, E:, S:, W: (or North: …) name the four hands
    text_body: ClassVar[bool] = False  # the body is prose (Markdown), not ``key: value`` lines

    @property
    def syntax(self) -> str:
        """How the fenced block opens (after the backticks)."""
        return self.name

    # --- reading the file ------------------------------------------------------------------------

    def argument(self, info: str, words: list[str]) -> str | None:
        """The word after the kind on the opening line (``quiz KIND``), or None; ``ValueError`` if it is wrong."""
        if words:
            raise ValueError(unknown_kind(info))
        return None

    def keys(self, argument: str | None, options: Mapping[str, str]) -> tuple[frozenset[str], frozenset[str]]:
        """The (required, optional) keys of this block, given its argument and the keys it states.

        ``KeyProblem`` (naming the key) when a stated key does not belong with the others.
        """
        return self.required, self.optional

    def refused(self, key: str) -> str | None:
        """Why ``key`` may never appear in this kind of block (None: it may, if it is one of its keys)."""
        return None

    def generated(self, block: Block) -> bool:
        """Whether what the block shows is drawn by a generator (with a seed) rather than stated."""
        return False

    # --- what it builds ---------------------------------------------------------------------------

    def cards(self, r: Resolved) -> tuple[st.Card, ...]:
        """The cards the block shows."""
        raise r.fault("has no cards of its own")

    def trick(self, r: Resolved) -> st.Trick:
        """The trick the block shows: complete with its winner, or in progress."""
        raise r.fault("has no trick")

    def suit_cards(self, r: Resolved) -> tuple[st.Card, ...]:
        """The cards of the block's suit in this deck, highest first."""
        raise r.fault("is not a suit block")

    def deal(self, r: Resolved) -> st.Round:
        """The deal the block shows, checked as a real one (before any bid)."""
        raise r.fault("has no deal")

    def round(self, r: Resolved) -> st.Round:
        """The block's hand replayed by the engine: the bids, then all 13 tricks."""
        raise r.fault("is not a play block")

    def score(self, r: Resolved) -> dict[st.Team, st.HandScore]:
        """The block's position scored by the engine, line by line."""
        raise r.fault("has no score")

    def game(self, r: Resolved) -> tuple[st.Team | None, str]:
        """The winner at the block's scores (or None) and the engine's sentence."""
        raise r.fault("is not a game block")

    def quiz_item(self, r: Resolved, seed: int | None = None) -> QuizItem:
        """The quiz item the block asks, answered by the engine."""
        raise r.fault("is not a quiz")

    def ending(self, r: Resolved) -> Puzzle:
        """The ending the block sets, with the cards that reach its goal (proven by the solver)."""
        raise r.fault("is not an ending")

    # --- what it shows, and its check -------------------------------------------------------------

    def view(self, r: Resolved, seed: int | None = None) -> list[parts.Part]:
        """What the player draws, in order (``seed``: the player's draw for a generated block)."""
        raise NotImplementedError(f"the {self.name} block kind shows nothing (give it a view)")

    def check(self, r: Resolved) -> None:
        """Build what the block shows in ``r.rules``; raise ``LessonError`` on any problem."""


def unknown_kind(info: str) -> str:
    """What the reader says of an opening line that names no fenced block kind."""
    fenced = [kind.syntax for kind in BLOCK_KINDS.values() if kind.fenced]
    return f"unknown block kind {info!r}; the kinds are {', '.join(fenced[:-1])} and {fenced[-1]}"


def _caption(label: str) -> list[parts.Part]:
    """The block's ``label:`` as a caption above it (none when it has no label)."""
    return [parts.Caption(label)] if label else []


def _trick(r: Resolved, played: tuple[st.Card, ...], leader: st.Seat) -> st.Trick:
    if len(played) == 4:
        return st.Trick.complete(r.rules, leader, played)
    return st.Trick(leader, tuple(played), None, r.rules)


def _score(r: Resolved) -> dict[st.Team, st.HandScore]:
    bids, tricks, bags = ScoreItem.lesson_score(r.rules, r)
    return st.score_hand(r.rules, bids, tricks, bags)


class Prose(BlockKind):
    name = "markdown"
    fenced = False
    optional = frozenset()
    text_body = True

    def view(self, r: Resolved, seed: int | None = None) -> list[parts.Part]:
        return [parts.Words(r.text(), rules=r.rules)]

    def check(self, r: Resolved) -> None:
        if not r.block.text.strip():
            raise r.fault("is empty")


class Tip(Prose):
    name = "tip"
    fenced = True

    def view(self, r: Resolved, seed: int | None = None) -> list[parts.Part]:
        return [parts.Words(r.text(), tip=True, rules=r.rules)]


class Hand(BlockKind):
    name = "hand"
    required = frozenset({"cards"})

    def cards(self, r: Resolved) -> tuple[st.Card, ...]:
        return r.cards("cards", 13)

    def view(self, r: Resolved, seed: int | None = None) -> list[parts.Part]:
        label = r.label()
        return [*_caption(label), parts.Cards(r.rules, r.shown_cards(), label or "hand")]

    def check(self, r: Resolved) -> None:
        self.cards(r)


class _Dealt(BlockKind):
    """A kind that deals four hands: by a deal id, or N:, E:, S:, W: (13 cards each) and dealer:."""

    optional = frozenset({*_SEATS, "deal", "dealer", "label"})
    seat_keys = True

    def deal(self, r: Resolved) -> st.Round:
        options = r.block.options
        given = [s for s in _SEAT_LETTERS if s in options]
        deal_id = options.get("deal")
        if deal_id is not None and (given or "dealer" in options):
            raise r.fault("give either deal: (a deal id) or the four hands N:, E:, S:, W:, not both")
        if deal_id is None and len(given) != 4:
            raise r.fault("needs deal: (a deal id) or all four hands N:, E:, S:, W:")
        hands = {st.Seat.parse(s): r.cards(s, 13, 13) for s in given}
        try:
            if deal_id is not None:
                return st.Round.from_deal_id(r.rules, deal_id)
            return st.Round.from_hands(r.rules, hands, dealer=r.value("dealer", st.Seat.WEST))
        except st.SpadesError as e:
            raise r.error(str(e)) from None


class Hands(_Dealt):
    """The four hands of one deal; ``first_lead: true`` adds who leads the first trick, in the engine's words."""

    name = "hands"
    optional = frozenset({*_Dealt.optional, "first_lead"})

    def view(self, r: Resolved, seed: int | None = None) -> list[parts.Part]:
        shown: list[parts.Part] = [*_caption(r.label()), parts.FourHands(r.rules, r.hands())]
        if r.value("first_lead", False):
            _seat, why = r.first_leader()
            shown.append(parts.Explain(why))
        return shown

    def check(self, r: Resolved) -> None:
        r.hands()
        if r.value("first_lead", False):
            r.first_leader()


class Trick(BlockKind):
    name = "trick"
    required = frozenset({"cards", "leader"})
    optional = frozenset({"spades_broken", "label"})

    def cards(self, r: Resolved) -> tuple[st.Card, ...]:
        return r.cards("cards", 4)

    def trick(self, r: Resolved) -> st.Trick:
        return _trick(r, r.cards("cards", 4), r.value("leader"))

    def view(self, r: Resolved, seed: int | None = None) -> list[parts.Part]:
        label = r.label()
        trick = r.trick()
        shown: list[parts.Part] = [*_caption(label), parts.TrickShown(trick, label or "trick")]
        if trick.winner is not None:
            shown.append(parts.Explain(trick.reason))
        return shown

    def check(self, r: Resolved) -> None:
        self.cards(r)
        self.trick(r)


class Trumps(BlockKind):
    name = "trumps"

    def view(self, r: Resolved, seed: int | None = None) -> list[parts.Part]:
        rules = r.rules
        order = rules.trump_order()
        return [
            parts.Caption(f"{rules.title}: {len(order)} trumps, highest first"),
            parts.Cards(rules, order, f"{len(order)} trumps, highest first", sort=False),
        ]


class Deck(BlockKind):
    name = "deck"

    def view(self, r: Resolved, seed: int | None = None) -> list[parts.Part]:
        rules = r.rules
        jokers = tuple(c for c in rules.deck() if c.is_joker)
        shown: list[parts.Part] = [parts.Caption(f": {len(rules.deck())} cards, 13 to each of 4 players.", rules.title)]
        if rules.removed:
            shown += [parts.Caption("Taken out:"), parts.Cards(rules, rules.removed, "cards taken out", sort=False)]
        if jokers:
            shown += [parts.Caption("Added:"), parts.Cards(rules, jokers, "jokers added")]
        return shown


class Suit(BlockKind):
    name = "suit"
    required = frozenset({"suit"})

    def suit_cards(self, r: Resolved) -> tuple[st.Card, ...]:
        suit: st.Suit = r.value("suit")
        return r.rules.suit_cards(suit)

    def view(self, r: Resolved, seed: int | None = None) -> list[parts.Part]:
        label = r.label()
        return [*_caption(label), parts.Cards(r.rules, r.suit_cards(), label or "suit", sort=False)]

    def check(self, r: Resolved) -> None:
        r.suit_cards()


class Compare(BlockKind):
    name = "compare"
    required = frozenset({"presets"})

    def view(self, r: Resolved, seed: int | None = None) -> list[parts.Part]:
        shown: list[parts.Part] = []
        for other in r.block.compared(r.lesson):
            order = other.trump_order()
            shown.append(parts.Caption(f" ({len(order)} trumps)", other.title))
            shown.append(parts.Cards(other, order, f"{other.title} trumps", sort=False))
        return shown

    def check(self, r: Resolved) -> None:
        r.block.compared(r.lesson)


class Score(BlockKind):
    name = "score"
    required = frozenset({"bids", "tricks"})
    optional = frozenset({"bags", "label"})

    def score(self, r: Resolved) -> dict[st.Team, st.HandScore]:
        return _score(r)

    def view(self, r: Resolved, seed: int | None = None) -> list[parts.Part]:
        return [*_caption(r.label()), parts.ScoreLines(r.score())]

    def check(self, r: Resolved) -> None:
        r.score()


class Renege(BlockKind):
    """``renege``: a hand as played, the side that reneged; the engine applies the table's penalty."""

    name = "renege"
    required = frozenset({"bids", "tricks", "reneged"})
    optional = frozenset({"reneges", "bags", "label"})

    def _ruling(self, r: Resolved) -> st.RenegeRuling:
        bids, tricks, bags = ScoreItem.lesson_score(r.rules, r)
        reneges: int = r.value("reneges", 1)
        try:
            return st.apply_renege(r.rules, bids, tricks, r.value("reneged"), reneges=reneges, bags=bags)
        except st.SpadesError as e:
            raise r.error(str(e)) from None

    def score(self, r: Resolved) -> dict[st.Team, st.HandScore]:
        return dict(self._ruling(r).scores)

    def view(self, r: Resolved, seed: int | None = None) -> list[parts.Part]:
        ruling = self._ruling(r)
        return [
            *_caption(r.label()),
            *(parts.Explain(line) for line in ruling.lines),
            parts.ScoreLines(dict(ruling.scores)),
        ]

    def check(self, r: Resolved) -> None:
        r.score()


class Game(BlockKind):
    """``game``: the totals (``scores:``) and who has won at them, by the engine's sentence.

    With a hand (``bids:``, ``tricks:``, ``bags:?``) the totals are those before it: the engine
    scores the hand in the rule set shown, adds it to them and says who has won after it.
    """

    name = "game"
    required = frozenset({"scores"})
    optional = frozenset({"bids", "tricks", "bags", "label"})

    def keys(self, argument: str | None, options: Mapping[str, str]) -> tuple[frozenset[str], frozenset[str]]:
        hand = {"bids", "tricks", "bags"} & set(options)
        if hand:  # a hand to score needs its bids and tricks
            return self.required | {"bids", "tricks"}, self.optional
        return self.required, self.optional

    def _totals(self, r: Resolved) -> dict[st.Team, int]:
        scores: dict[st.Team, int] = r.value("scores")
        if set(scores) != set(st.Team):
            raise r.error("scores: give both teams, such as NS 520, EW 480")
        return scores

    def score(self, r: Resolved) -> dict[st.Team, st.HandScore]:
        if "bids" not in r.block.options:
            raise r.fault("has no hand to score (give bids: and tricks:)")
        return _score(r)

    def game(self, r: Resolved) -> tuple[st.Team | None, str]:
        totals = self._totals(r)
        if "bids" in r.block.options:
            totals, _said = st.explain_totals(totals, r.score())
        return st.explain_game(r.rules, totals)

    def view(self, r: Resolved, seed: int | None = None) -> list[parts.Part]:
        label = r.label()
        shown: list[parts.Part] = [*_caption(label)]
        if "bids" in r.block.options:
            before = self._totals(r)
            ended, sentence = st.explain_game(r.rules, before)
            if ended is not None:  # the game ended before this hand (a table whose target is very low)
                return [*shown, parts.Explain(sentence)]
            hand = r.score()
            _after, said = st.explain_totals(before, hand)
            shown += [parts.ScoreLines(hand), parts.Explain(said)]
        _winner, sentence = r.game()
        return [*shown, parts.Explain(sentence)]

    def check(self, r: Resolved) -> None:
        r.game()


class Play(_Dealt):
    name = "play"
    required = frozenset({"bids", "plays"})

    def round(self, r: Resolved) -> st.Round:
        rnd = r.deal()
        if rnd.rules.min_team_bid:  # the lesson's bids tell its story: a table's least team bid does not bind them
            rnd.rules = dataclasses.replace(rnd.rules, min_team_bid=0)
        bids: dict[st.Seat, st.Bid] = r.value("bids")
        missing = [s.label for s in st.Seat if s not in bids]
        if missing:
            raise r.error(f"bids: no bid for {', '.join(missing)}")
        plays: st.Hand = r.value("plays")
        if len(plays) != 52:
            raise r.error(f"plays: {len(plays)} cards, where a whole hand is 52")
        try:
            while rnd.to_act is not None and rnd.phase is st.Phase.BIDDING:
                rnd.bid(bids[rnd.to_act])
            for card in plays:
                rnd.play(card)
        except st.IllegalAction as e:
            trick, seat = len(rnd.tricks) + 1, rnd.to_act
            raise r.error(f"trick {trick}, {seat}: {e.reason}") from None
        return rnd

    def view(self, r: Resolved, seed: int | None = None) -> list[parts.Part]:
        return [parts.Replay(r.round())]

    def check(self, r: Resolved) -> None:
        r.hands()
        r.round()


class Quiz(BlockKind):
    """``quiz KIND``: the position keys come from the quiz kind (``position_keys``), never the answer.

    With ``generate: true`` the position is drawn by ``spades_tutor.quiz.generators``
    from ``seed:`` (or the player's draw), and the block states no position.
    """

    name = "quiz"
    optional = frozenset({"generate", "seed", "difficulty"})

    @property
    def syntax(self) -> str:
        return "quiz KIND"

    def argument(self, info: str, words: list[str]) -> str | None:
        if len(words) != 1 or words[0] not in quiz_kinds.names():
            raise ValueError(f"write ```quiz KIND, with KIND one of {', '.join(quiz_kinds.names())} (not {info!r})")
        return words[0]

    def keys(self, argument: str | None, options: Mapping[str, str]) -> tuple[frozenset[str], frozenset[str]]:
        assert argument is not None
        position, more = quiz_kinds.get(argument).position_keys
        if parse_bool(options.get("generate", "false")):
            required = frozenset({"seed"})
            stated = sorted(k for k in options if k in position | more)
            if stated:
                raise KeyProblem(
                    stated[0],
                    f"a generated quiz states no position (remove {', '.join(stated)}), or drop generate: true",
                )
        else:
            required = position
        return required, self.optional | position | more

    def refused(self, key: str) -> str | None:
        if key in ANSWER_KEYS:
            return f"a quiz block states the position, never the answer: remove {key}: (the engine computes the answer)"
        return None

    def generated(self, block: Block) -> bool:
        return parse_bool(block.options.get("generate", "false"))

    def cards(self, r: Resolved) -> tuple[st.Card, ...]:
        for key in ("hand", "trick", "choices"):
            if key in r.block.options:
                return r.cards(key, len(r.rules.deck()), 0)
        return ()

    def trick(self, r: Resolved) -> st.Trick:
        if "trick" not in r.block.options or r.block.quiz_kind is None:
            raise r.fault("has no trick")
        played = r.cards("trick", 4, 0)
        return _trick(r, played, quiz_kinds.get(r.block.quiz_kind).lesson_leader(r, len(played)))

    def score(self, r: Resolved) -> dict[st.Team, st.HandScore]:
        return _score(r)

    def quiz_item(self, r: Resolved, seed: int | None = None) -> QuizItem:
        """Built from the stated position (or generated), answered by the engine.

        A generated block draws with its own ``seed:`` unless ``seed`` is given (the lesson
        player draws a new one on each visit); a stated position ignores ``seed``.
        """
        block, rules = r.block, r.rules
        if block.quiz_kind is None:
            raise r.fault("is not a quiz")
        if self.generated(block):
            return self._generate(r, block.quiz_kind, seed)
        data: dict[str, Any] = {
            "kind": block.quiz_kind,
            "preset": rules.name if rules.name in st.Rules.preset_names() else "jokers",
            "flags": {k: v for k, v in rules.flags().items() if not isinstance(v, tuple)},
            "difficulty": r.value("difficulty", 1),
        }
        try:
            data.update(quiz_kinds.get(block.quiz_kind).lesson_position(rules, r))
        except st.SpadesError as e:
            if isinstance(e, LessonError):
                raise
            raise r.error(str(e)) from None
        try:
            item: Any = item_from_dict(data)
            # the exact rule set shown (a teacher's pick may carry house rules item_from_dict cannot name)
            return item if item.rules == rules else dataclasses.replace(item, rules=rules)  # type: ignore[no-any-return]
        except (st.SpadesError, KeyError, TypeError) as e:
            raise r.error(str(e)) from None

    def _generate(self, r: Resolved, quiz_kind: str, drawn: int | None) -> QuizItem:
        seed: int = r.value("seed") if drawn is None else drawn
        difficulty: int = r.value("difficulty", 1)
        try:  # imported only when a lesson first needs it
            generate = importlib.import_module("spades_tutor.quiz.generators").generate
        except (ImportError, AttributeError) as e:
            raise r.error(f"generated quizzes need spades_tutor.quiz.generators.generate ({e})") from None
        try:
            item: QuizItem = generate(quiz_kind, r.rules, seed, difficulty)
        except (st.SpadesError, KeyError, ValueError) as e:
            raise r.error(f"the {quiz_kind} generator failed: {e}") from None
        return item

    def view(self, r: Resolved, seed: int | None = None) -> list[parts.Part]:
        if not self.generated(r.block):
            return [parts.Question(r.quiz_item())]
        item = r.quiz_item(seed)
        return [parts.Question(item, f"Question {seed} · {r.rules.title} · drawn fresh for this visit")]

    def check(self, r: Resolved) -> None:
        block = r.block
        item = r.quiz_item()
        if item.kind != block.quiz_kind or item.rules != r.rules:
            raise r.error(f"got a {item.kind} item in {item.rules.name}, not {block.quiz_kind}")
        try:
            answer = item.answer()
            feedback = item.check(answer)
        except (st.SpadesError, KeyError, TypeError, ValueError) as e:
            raise r.error(f"the engine cannot answer this quiz: {e}") from None
        if not feedback.correct:
            raise r.error(f"the engine's own answer {answer!r} does not check as correct")


#: the most tricks an ending may leave to play (the solver proves it at once, as a page needs)
ENDING_TRICKS = 5


@functools.lru_cache(maxsize=64)
def _proven(puzzle: Puzzle) -> Puzzle:
    """The ending with the cards that reach its goal, as the solver proves them (kept: a step drawn
    again asks nothing new)."""
    from ..puzzles import verify

    return dataclasses.replace(puzzle, answers=verify(puzzle).working)


class Ending(BlockKind):
    """``ending``: the last tricks of a hand, every card known, for the learner to play out.

    The four hands (``N:``, ``E:``, ``S:``, ``W:``, the cards still held), the ``leader:`` of
    the trick in progress and its cards so far (``trick:``), the tricks each seat has taken
    (``tricks:``, 13 in all with those left) and the learner's ``goal:``, a puzzle goal and
    its number (``set_contract 6``; ``seat:`` names the nil bidder of a nil goal). The learner
    plays the seat to act; partner and the opponents play the solver's best for and against
    the goal. The solver proves which cards reach it, and an ending is a real decision: some
    legal card reaches the goal and some does not.
    """

    name = "ending"
    required = frozenset({*_SEATS, "leader", "goal"})
    optional = frozenset({"trick", "tricks", "spades_broken", "seat", "label"})
    seat_keys = True

    def ending(self, r: Resolved) -> Puzzle:
        from ..puzzles import Goal, Puzzle, PuzzleCodeError
        from ..puzzles.goals import names as goal_names
        from ..solver import Position, PositionError

        rules = r.rules
        hands: dict[st.Seat | str, st.CardsLike] = {s: r.cards(s, ENDING_TRICKS, 0) for s in _SEAT_LETTERS}
        try:
            pos = Position.from_hands(
                rules,
                hands,
                leader=r.value("leader"),
                trick=r.cards("trick", 3, 0),
                spades_broken=r.value("spades_broken", False),
                taken=r.value("tricks", {}),
            )
        except (PositionError, st.SpadesError) as e:
            raise r.error(str(e)) from None
        if not 1 <= pos.tricks_left <= ENDING_TRICKS or sum(pos.taken) + pos.tricks_left != 13:
            raise r.error(
                f"an ending has 1 to {ENDING_TRICKS} tricks left and 13 in all: give the tricks taken so far "
                f"(tricks: N 4, E 2, …), {13 - pos.tricks_left} here, not {sum(pos.taken)}"
            )
        kind, number = r.value("goal")
        try:
            goal = Goal(kind, number, r.value("seat", pos.to_act))
        except PuzzleCodeError:
            raise r.error(f"goal: {kind!r} is not a goal; the goals are {', '.join(goal_names())}") from None
        puzzle = _proven(Puzzle(rules.name, pos.hands, pos.trick, pos.leader, pos.spades_broken, pos.taken, goal, ()))
        if not puzzle.answers or len(puzzle.answers) == len(pos.legal_plays()):
            every = "no card" if not puzzle.answers else "every card"
            raise r.error(f"{every} reaches the goal here, so the ending asks nothing: {puzzle.sentence()}")
        return puzzle

    def view(self, r: Resolved, seed: int | None = None) -> list[parts.Part]:
        return [*_caption(r.label()), parts.Ending(r.ending())]

    def check(self, r: Resolved) -> None:
        r.ending()


#: block kind name -> the kind; fenced kinds in the order the lesson format lists them
BLOCK_KINDS: dict[str, BlockKind] = {
    kind.name: kind
    for kind in (
        Hand(),
        Hands(),
        Trick(),
        Trumps(),
        Deck(),
        Suit(),
        Compare(),
        Score(),
        Renege(),
        Game(),
        Play(),
        Ending(),
        Tip(),
        Quiz(),
        Prose(),
    )
}


def block_kind(name: str) -> BlockKind:
    """The kind named ``name`` (``KeyError`` for a name no block kind has)."""
    return BLOCK_KINDS[name]
