"""The lesson data model: a lesson's steps and blocks, and a block resolved for one rule set.

A ``Block`` is what the file says (its kind, options, preset and line). Which rule set
it is shown in depends on the teacher's pick; ``Block.resolve(lesson, picked)`` works
that out once and returns a ``Resolved`` block whose accessors (cards, trick, deal,
round, score, quiz item …) all build in that one rule set. The block's own kind
(``blocks.BLOCK_KINDS``) builds each of them, says what the player shows and how the
block is checked; ``Resolved`` only asks it, and never tests a kind's name.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import engine as st
from ..quiz.items import QuizItem
from .blocks import ANSWER_KEYS, BLOCK_KINDS, BlockKind
from .parts import Part
from .placeholders import fill_placeholders
from .values import ANY, LessonError, parse_value, preset_selection, source_place

if TYPE_CHECKING:  # an ending's position is a puzzle's (the solver proves it), built only when asked
    from ..puzzles import Puzzle

__all__ = ["ANSWER_KEYS", "KINDS", "Block", "Lesson", "Resolved", "Step", "rule_set_note", "scoring_note", "table_note"]

COMMON_KEYS = frozenset({"preset", "only", "flags"})

#: block kind -> (required keys, optional keys), beside ``preset`` and ``flags``
KINDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    name: (kind.required, kind.optional) for name, kind in BLOCK_KINDS.items() if kind.fenced
}


def _no_options() -> Mapping[str, str]:
    return types.MappingProxyType({})


@dataclasses.dataclass(frozen=True)
class Block:
    """One piece of a step: Markdown prose, a tip, or a fenced block the engine renders and checks.

    The accessors take the lesson (for its preset and file name) and the rule set the
    teacher picked (used by adaptive blocks only); they raise ``LessonError`` naming
    the file and line when the block does not fit its rule set. ``resolve`` works out
    the rule set once, for several accessors in a row.
    """

    kind: str  # "markdown", or a fenced kind of KINDS: "tip", "hand", "hands", "trick", "quiz" …
    text: str = ""  # Markdown source for "markdown" and "tip"
    options: Mapping[str, str] = dataclasses.field(default_factory=_no_options, hash=False)
    quiz_kind: str | None = None  # for "quiz"
    preset: str | None = None  # a preset name, "any" (adaptive), or None (the lesson's)
    line: int = 0  # 1-based line in the file

    @property
    def adaptive(self) -> bool:
        return self.preset == ANY

    @property
    def spec(self) -> BlockKind:
        """The block's kind: its keys, cards, trick and check."""
        return BLOCK_KINDS[self.kind]

    def presets(self, lesson: Lesson) -> tuple[str, ...]:
        """The presets this block is written for: those of ``only:`` or ``preset:``, else the lesson's."""
        try:
            if "only" in self.options:
                return preset_selection(self.options["only"])
            return (lesson.preset,) if self.preset is None else preset_selection(self.preset)
        except ValueError as e:
            raise self.error(lesson, str(e)) from None

    def follows_pick(self, lesson: Lesson) -> bool:
        """Whether the block is shown in the teacher's pick when the pick is one of its presets (else in its own)."""
        return "only" in self.options or (self.preset is not None and (self.adaptive or len(self.presets(lesson)) > 1))

    def shown(self, lesson: Lesson, selected: st.Rules | None = None) -> bool:
        """False for an ``only:`` block when the teacher picked another rule set."""
        return "only" not in self.options or selected is None or selected.name in self.presets(lesson)

    @property
    def generated(self) -> bool:
        """A block drawn by a generator with a seed (a quiz whose position comes from ``spades_tutor.quiz.generators``)."""
        return self.spec.generated(self)

    @property
    def label(self) -> str:
        return self.options.get("label", "")

    def error(self, lesson: Lesson, message: str, rules: st.Rules | None = None) -> LessonError:
        several = self.adaptive or "only" in self.options or (self.preset is not None and " " in self.preset)
        where = f" [rule set {rules.name}]" if rules is not None and several else ""
        return LessonError(f"{source_place(lesson.path, self.line)}: {self.kind} block{where}: {message}")

    def value(self, lesson: Lesson, key: str, default: Any = None) -> Any:
        """The parsed value of an option (cards, seat, bids …), or ``default`` if absent."""
        if key not in self.options:
            return default
        try:
            return parse_value(key, self.options[key])
        except ValueError as e:
            raise self.error(lesson, f"{key}: {e}") from None

    # --- rule sets ---------------------------------------------------------------------------

    def rules(self, lesson: Lesson, selected: st.Rules | None = None) -> st.Rules:
        """The rule set this block is shown in: the teacher's pick when the block follows it, else its own preset.

        A block written for several presets follows the pick when it is one of them and
        otherwise shows the lesson's preset (or the first named); the player then says so.
        ``preset: any`` takes the pick whole, house rules included; a list of presets takes
        the picked preset (its deck and trumps) and keeps the preset's own house rules.
        """
        flags: dict[str, Any] = self.value(lesson, "flags", {})
        names = self.presets(lesson)
        try:
            if selected is not None and self.adaptive:  # any rule set at all, a teacher's own included
                return dataclasses.replace(selected, **flags) if flags else selected
            if selected is not None and selected.name in names and self.follows_pick(lesson):
                return st.Rules.preset(selected.name, **flags)
            return st.Rules.preset(lesson.preset if lesson.preset in names else names[0], **flags)
        except st.SpadesError as e:
            raise self.error(lesson, str(e)) from None

    def rule_sets(self, lesson: Lesson, house: Sequence[Mapping[str, Any]] = ({},)) -> tuple[st.Rules, ...]:
        """Every rule set the block must hold in: each of its presets when it follows the pick, else its one.

        An adaptive block (``preset: any``) takes a learner's house rules too: it must hold in each
        preset with each set of house-rule flags in ``house`` (a set a preset cannot play is left out).
        """
        if self.adaptive:
            picks = []
            for name in self.presets(lesson):
                for flags in house:
                    try:
                        picks.append(st.Rules.preset(name, **flags))
                    except st.RulesError:  # the 2♣ to lead in a pack without it: a table nobody can build
                        continue
            return tuple(dict.fromkeys(self.rules(lesson, picked) for picked in picks))
        if self.follows_pick(lesson):
            return tuple(self.rules(lesson, st.Rules.preset(name)) for name in self.presets(lesson))
        return (self.rules(lesson),)

    def resolve(self, lesson: Lesson, selected: st.Rules | None = None) -> Resolved:
        """The block as shown when the teacher picked ``selected``: its rule set worked out once."""
        return Resolved(self, lesson, self.rules(lesson, selected))

    def resolved_in(self, lesson: Lesson, rules: st.Rules) -> Resolved:
        """The block in exactly ``rules`` (one of ``rule_sets``: what validation checks)."""
        return Resolved(self, lesson, rules)

    # --- words ---------------------------------------------------------------------------------

    def text_in(self, lesson: Lesson, selected: st.Rules | None = None) -> str:
        """The prose (or tip) as shown in the teacher's pick: placeholders filled by the engine."""
        return self.resolve(lesson, selected).text()

    def label_in(self, lesson: Lesson, selected: st.Rules | None = None) -> str:
        """The ``label:`` as shown in the teacher's pick: placeholders filled by the engine."""
        return self.resolve(lesson, selected).label()

    def compared(self, lesson: Lesson) -> tuple[st.Rules, ...]:
        """For "compare": the rule sets shown side by side."""
        names: tuple[str, ...] = self.value(lesson, "presets", ())
        return tuple(st.Rules.preset(name) for name in names)

    # --- what the block shows, in the teacher's pick (see ``Resolved``) -------------------------

    def cards(self, lesson: Lesson, selected: st.Rules | None = None) -> tuple[st.Card, ...]:
        """The cards of a "hand" or "trick" block (or a quiz's hand, trick or choices)."""
        return self.resolve(lesson, selected).shown_cards()

    def suit_cards(self, lesson: Lesson, selected: st.Rules | None = None) -> tuple[st.Card, ...]:
        """A "suit" block: the cards of that suit in the deck shown, highest first (the trumps for spades)."""
        return self.resolve(lesson, selected).suit_cards()

    def trick(self, lesson: Lesson, selected: st.Rules | None = None) -> st.Trick:
        """A "trick" block (or a quiz's trick) as a ``Trick``: complete with its winner, or in progress."""
        return self.resolve(lesson, selected).trick()

    def spades_broken(self, lesson: Lesson) -> bool:
        return bool(self.value(lesson, "spades_broken", False))

    def hands(self, lesson: Lesson, selected: st.Rules | None = None) -> dict[st.Seat, st.Hand]:
        """The four hands of a "hands" or "play" block, checked as a real deal."""
        return self.resolve(lesson, selected).hands()

    def round(self, lesson: Lesson, selected: st.Rules | None = None) -> st.Round:
        """A "play" block replayed by the engine: the bids, then all 13 tricks."""
        return self.resolve(lesson, selected).round()

    def score(self, lesson: Lesson, selected: st.Rules | None = None) -> dict[st.Team, st.HandScore]:
        """A "score" block's position scored by the engine, line by line."""
        return self.resolve(lesson, selected).score()

    def game(self, lesson: Lesson, selected: st.Rules | None = None) -> tuple[st.Team | None, str]:
        """A "game" block: the winner at these scores (or None) and the engine's sentence."""
        return self.resolve(lesson, selected).game()

    def quiz_item(self, lesson: Lesson, selected: st.Rules | None = None) -> QuizItem:
        """The quiz item: built from the stated position (or generated), answered by the engine."""
        return self.resolve(lesson, selected).quiz_item()


@dataclasses.dataclass(frozen=True)
class Resolved:
    """A block in one rule set: everything it shows is built in ``rules``.

    Errors name the file, the line and (for a block shown in several rule sets) the rule set.
    """

    block: Block
    lesson: Lesson
    rules: st.Rules

    @property
    def kind(self) -> str:
        return self.block.kind

    def error(self, message: str) -> LessonError:
        """A problem of the block in this rule set."""
        return self.block.error(self.lesson, message, self.rules)

    def fault(self, message: str) -> LessonError:
        """A problem of the block whatever the rule set (asking a block for what its kind lacks)."""
        return self.block.error(self.lesson, message)

    def value(self, key: str, default: Any = None) -> Any:
        """The parsed value of an option, or ``default`` if absent.

        A rule-set number in the value (``scores: NS {target-35}, EW {target-60}``) is filled in
        this rule set first, so a position can sit where the learner's own rules put it.
        """
        text = self.block.options.get(key)
        if text is None or "{" not in text:
            return self.block.value(self.lesson, key, default)
        try:
            return parse_value(key, fill_placeholders(text, self.rules, plain=True))
        except ValueError as e:
            raise self.error(f"{key}: {e}") from None

    def cards(self, key: str, most: int, least: int = 1) -> st.Hand:
        """The cards of option ``key``: in this deck, none twice, ``least`` to ``most`` of them."""
        rules = self.rules
        got: st.Hand = self.value(key, st.Hand())
        stray = [c for c in got if not rules.in_deck(c)]
        if stray:
            gone = (
                f"{' '.join(map(str, rules.removed))} are taken out"
                if rules.removed
                else "it has no jokers"
                if not rules.jokers
                else ""
            )
            raise self.error(
                f"{key}: {' '.join(map(str, stray))} {'is' if len(stray) == 1 else 'are'} not in the "
                f"{rules.name} deck" + (f" ({gone})" if gone else ""),
            )
        twice = sorted({c for c in got if got.count(c) > 1})
        if twice:
            raise self.error(f"{key}: {' '.join(map(str, twice))} appears twice")
        if not least <= len(got) <= most:
            span = f"{least}" if least == most else f"{least} to {most}"
            raise self.error(f"{key}: {len(got)} cards, where a {key} here has {span}")
        return got

    # --- words ---------------------------------------------------------------------------------

    def _fill(self, text: str) -> str:
        try:
            return fill_placeholders(text, self.rules)
        except ValueError as e:
            raise self.error(str(e)) from None

    def text(self) -> str:
        """The prose (or tip): placeholders filled by the engine."""
        return self._fill(self.block.text)

    def label(self) -> str:
        """The ``label:``: placeholders filled by the engine."""
        return self._fill(self.block.label)

    # --- what the block shows ------------------------------------------------------------------

    def shown_cards(self) -> tuple[st.Card, ...]:
        """The cards the block shows (its kind says which)."""
        return self.block.spec.cards(self)

    def trick(self) -> st.Trick:
        """The trick the block shows: complete with its winner, or in progress."""
        return self.block.spec.trick(self)

    def suit_cards(self) -> tuple[st.Card, ...]:
        """A "suit" block: the cards of that suit in this deck, highest first (the trumps for spades)."""
        return self.block.spec.suit_cards(self)

    def deal(self) -> st.Round:
        """The deal of a "hands" or "play" block, checked as a real one (before any bid)."""
        return self.block.spec.deal(self)

    def hands(self) -> dict[st.Seat, st.Hand]:
        """The four hands of a "hands" or "play" block, checked as a real deal."""
        return self.deal().dealt

    def first_leader(self) -> tuple[st.Seat, str]:
        """A "hands" or "play" block's deal: who leads the first trick, and the engine's sentence why."""
        return self.deal().first_leader()

    def round(self) -> st.Round:
        """A "play" block replayed by the engine: the bids, then all 13 tricks."""
        return self.block.spec.round(self)

    def score(self) -> dict[st.Team, st.HandScore]:
        """A "score" block's position (or a score quiz's) scored by the engine, line by line."""
        return self.block.spec.score(self)

    def game(self) -> tuple[st.Team | None, str]:
        """A "game" block: the winner at these scores (or None) and the engine's sentence."""
        return self.block.spec.game(self)

    def quiz_item(self, seed: int | None = None) -> QuizItem:
        """The quiz item: built from the stated position (or generated), answered by the engine.

        A generated block draws with its own ``seed:`` unless ``seed`` is given (the lesson
        player draws a new one on each visit); a stated position ignores ``seed``.
        """
        return self.block.spec.quiz_item(self, seed)

    def ending(self) -> Puzzle:
        """An "ending" block: the position to play out, its goal and the cards that reach it (the solver's proof)."""
        return self.block.spec.ending(self)

    def view(self, seed: int | None = None) -> list[Part]:
        """What the player draws for the block, in order (``seed``: its draw for a generated quiz)."""
        self.label()  # a label the engine cannot fill stops the block, whether its kind shows the label or not
        return self.block.spec.view(self, seed)


@dataclasses.dataclass(frozen=True)
class Step:
    """One screen of a lesson: a title and its blocks in order."""

    title: str
    blocks: tuple[Block, ...]
    line: int = 0


@dataclasses.dataclass(frozen=True)
class Lesson:
    """A lesson file: its number and slug (from the file name), title, summary, preset and steps."""

    number: int
    slug: str
    title: str
    summary: str
    preset: str
    steps: tuple[Step, ...]
    path: Path
    needs: tuple[str, ...] = ()  # what the lesson needs of the table (``nil``): see ``table_note``
    must_pass: bool = False  # ``pass: questions``: a step's questions are answered right before Next goes on

    def blocks(self, kind: str | None = None) -> Iterator[Block]:
        """Every block of every step, in order (only those of ``kind`` if given)."""
        for step in self.steps:
            for block in step.blocks:
                if kind is None or block.kind == kind:
                    yield block

    def rules(self) -> st.Rules:
        return st.Rules.preset(self.preset)

    def summary_in(self, picked: st.Rules) -> str:
        """The one-line summary the lesson list shows, its ``{placeholders}`` filled for the table picked.

        >>> lesson = Lesson(2, "t", "Trumps", "{Trump count} trumps.", "jokers", (), Path("02-t.md"))
        >>> lesson.summary_in(st.Rules.preset("classic")), lesson.summary_in(st.Rules.preset("deuces-high"))
        ('13 trumps.', '16 trumps.')
        """
        from .placeholders import fill_placeholders

        return fill_placeholders(self.summary, picked)


def table_note(lesson: Lesson, picked: st.Rules) -> str | None:
    """What the player says above every step of a lesson the table cannot play as taught (None: it can).

    A lesson about nil at a table that plays without nil still shows nil (its blocks are
    in their own rule sets), and says so first.

    >>> from pathlib import Path
    >>> lesson = Lesson(7, "nil", "Nil", "", "jokers", (), Path("07-nil.md"), needs=("nil",))
    >>> table_note(lesson, st.Rules.preset("jokers", nil=False))
    'Your table plays without nil: this lesson shows nil as the tables that allow it play it.'
    >>> table_note(lesson, st.Rules.preset("jokers")) is None
    True
    """
    said = []
    if "nil" in lesson.needs and not picked.nil:
        said.append("Your table plays without nil: this lesson shows nil as the tables that allow it play it.")
    if "standard scoring" in lesson.needs:
        scoring = scoring_note(picked)
        if scoring is not None:
            said.append(scoring)
    return " ".join(said) or None


#: the rules a lesson's worked numbers depend on (``needs: standard scoring``): points, bags, the game's end
SCORING_FIELDS = (
    "target",
    "trick_points",
    "nil_value",
    "blind_nil_value",
    "bag_limit",
    "bag_penalty",
    "ten_bid_bonus",
    "failed_nil_tricks",
)


def scoring_note(picked: st.Rules) -> str | None:
    """What a lesson whose numbers are a standard table's says at a table that scores otherwise (None: it does not).

    >>> scoring_note(st.Rules.preset("jokers", target=300, bag_limit=5))
    "Your table scores its own way (game to 300; a bag penalty every 5 bags): this lesson's numbers are a standard table's (game to 500; a bag penalty every 10 bags)."
    >>> scoring_note(st.Rules.preset("classic", nil=False)) is None
    True
    """
    from .differences import value_words

    standard = st.Rules.preset(picked.name)
    changed = [f for f in SCORING_FIELDS if getattr(picked, f) != getattr(standard, f)]
    if not changed:
        return None
    mine = "; ".join(value_words(picked, (f,)) for f in changed)
    theirs = "; ".join(value_words(standard, (f,)) for f in changed)
    return f"Your table scores its own way ({mine}): this lesson's numbers are a standard table's ({theirs})."


def rule_set_note(shown: st.Rules, picked: st.Rules) -> str | None:
    """What the player says above a block shown in another rule set than the teacher's pick (None: the same).

    >>> rule_set_note(st.Rules.preset("jokers"), st.Rules.preset("classic"))
    'Shown in the Spades with Jokers rule set (your table plays Regular Spades)'
    """
    if shown.name == picked.name:
        return None
    return f"Shown in the {shown.title} rule set (your table plays {picked.title})"
