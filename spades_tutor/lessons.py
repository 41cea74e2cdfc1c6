"""Lessons as data: Markdown files in ``lessons/`` whose fenced blocks the engine renders and checks.

A lesson ``lessons/NN-slug.md`` stays readable as plain Markdown. The first line is
``# Title``; optional front matter follows (``summary:`` one line, ``preset:``
default ``jokers``); then steps separated by lines ``---``, each starting with
``## Step title``, then Markdown prose and fenced blocks. A fenced block's info
string is its kind; inside are ``key: value`` lines (an indented line continues
the value above). Any block may add ``preset: NAME``, or ``preset: any`` (adaptive:
shown in the rule set the teacher picked, checked in every preset), or several
presets (``preset: any with jokers``, ``preset: deuces-high, bicycle``: the block
follows the teacher's pick when it is one of them, else shows the first and says
so; ``preset: any deck`` follows every preset's deck and trumps but, unlike ``any``,
not the teacher's house rules), ``only: NAMES`` (shown only when the teacher picked
one of them), and
``flags: nil=false, mercy=-200`` (house rules on top of that rule set).

Prose follows the teacher's pick and must hold in every preset (the claims it makes
about cards are checked by ``spades_tutor.lesson_claims``). Prose that depends on the
rule set either names its facts with placeholders the engine fills (``{removed}``,
``{trump count}``, ``{top trump}`` … see ``PLACEHOLDERS``), or starts with a comment
line ``<!-- preset: jokers -->`` or ``<!-- only: classic -->`` (the same values as
in a block; it lasts to the next fenced block or comment). A tip quotes the rules
of the lesson's preset unless such a comment stands above it.

=================  =====================================================================
kind               keys (``?`` optional)
=================  =====================================================================
``hand``           cards, label?
``hands``          N, E, S, W (13 cards each) and dealer?, or deal (a deal id); label?
``trick``          cards (lead first), leader, spades_broken?, label?
``trumps``         (none): the trump order
``deck``           (none): the cards taken out and the jokers
``suit``           suit (hearts, clubs, diamonds or spades): its cards in this deck, highest first
``compare``        presets: trump orders side by side
``score``          bids (N 4, E 3, S nil, W 2), tricks (N 5, …), bags? (NS 8, EW 0)
``game``           scores (NS 520, EW 530): who wins, by the engine's sentence
``play``           N E S W dealer? or deal; bids; plays (the 52 cards in order)
``tip``            prose: a tip from the rules text
``quiz KIND``      the position keys ``item_from_dict`` reads for KIND, never the answer;
                   or generate: true, seed, difficulty?
=================  =====================================================================

>>> lesson = parse_lesson(
...     "# Demo\\n\\nsummary: One step.\\n\\n---\\n\\n## Follow suit\\n\\n"
...     "```quiz legal-plays\\nhand: AH 3H LJ 5C\\ntrick: KH\\n```\\n",
...     Path("01-demo.md"),
... )
>>> block = lesson.steps[0].blocks[0]
>>> block.kind, block.quiz_kind, block.quiz_item(lesson).answer()
('quiz', 'legal-plays', (Card.parse('A♥'), Card.parse('3♥')))
>>> validate_lesson(lesson)
[]
"""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import os
import re
import types
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from . import engine as st
from .quiz.items import ITEM_KINDS, QuizItem, ScoreItem, item_from_dict

__all__ = [
    "ANY",
    "KINDS",
    "PLACEHOLDERS",
    "Block",
    "Lesson",
    "LessonError",
    "Step",
    "fill_placeholders",
    "lessons_dir",
    "load_lesson",
    "load_lessons",
    "parse_lesson",
    "preset_selection",
    "rule_set_note",
    "validate_lesson",
]

#: the ``preset:`` value of an adaptive block: shown in the rule set the teacher picked
ANY = "any"

_COMMON = frozenset({"preset", "only", "flags"})
_SEATS = ("N", "E", "S", "W")

#: block kind -> (required keys, optional keys), beside ``preset`` and ``flags``
KINDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "hand": (frozenset({"cards"}), frozenset({"label"})),
    "hands": (frozenset(), frozenset({*_SEATS, "deal", "dealer", "label"})),
    "trick": (frozenset({"cards", "leader"}), frozenset({"spades_broken", "label"})),
    "trumps": (frozenset(), frozenset({"label"})),
    "deck": (frozenset(), frozenset({"label"})),
    "suit": (frozenset({"suit"}), frozenset({"label"})),
    "compare": (frozenset({"presets"}), frozenset({"label"})),
    "score": (frozenset({"bids", "tricks"}), frozenset({"bags", "label"})),
    "game": (frozenset({"scores"}), frozenset({"label"})),
    "play": (frozenset({"bids", "plays"}), frozenset({*_SEATS, "deal", "dealer", "label"})),
    "tip": (frozenset(), frozenset()),
    "quiz": (frozenset(), frozenset({"generate", "seed", "difficulty"})),
}

#: quiz kind -> (required position keys, optional position keys), as ``item_from_dict`` reads them
QUIZ_KEYS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "legal-plays": (frozenset({"hand"}), frozenset({"trick", "spades_broken", "seat"})),
    "trick-winner": (frozenset({"trick"}), frozenset({"leader"})),
    "highest-trump": (frozenset({"choices"}), frozenset()),
    "trump-order": (frozenset({"choices"}), frozenset()),
    "score": (frozenset({"bids", "tricks"}), frozenset({"bags"})),
    "sure-tricks": (frozenset({"hand"}), frozenset()),
    "nil-safe": (frozenset({"hand"}), frozenset()),
}

#: keys that would give a quiz's answer away (the engine computes answers)
ANSWER_KEYS = frozenset({"answer", "answers", "correct", "solution", "expected", "result", "winner", "legal"})

_FRONT_KEYS = frozenset({"preset", "summary"})
_FLAG_NAMES = frozenset(
    f.name
    for f in dataclasses.fields(st.Rules)
    if f.init and f.name not in ("name", "title", "removed", "jokers", "trumps")
)
_DIRECTIVE = re.compile(r"^\s*<!--\s*(preset|only)\s*:\s*(.*?)\s*-->\s*$", re.IGNORECASE)
_PLACEHOLDER = re.compile(r"\{([A-Za-z][a-z]*(?: [a-z]+)*)\}")
_FILE_NAME = re.compile(r"^(\d+)-([a-z0-9][a-z0-9-]*)\.md$")
_TITLE = re.compile(r"^#\s+(\S.*?)\s*$")
_STEP_TITLE = re.compile(r"^##\s+(\S.*?)\s*$")
_SEPARATOR = re.compile(r"^ {0,3}-{3,}\s*$")
_FENCE = re.compile(r"^(`{3,})\s*(.*?)\s*$")
_KEY = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*)\s*:(.*)$")
_PAIR = re.compile(r"^\s*([A-Za-z][A-Za-z–/-]*)\s*[=:]?\s*(\S.*?)\s*$")


class LessonError(st.SpadesError):
    """A lesson file that cannot be read or shown; the message names the file and line."""


def _where(path: Path, line: int) -> str:
    return f"{path}:{line}"


# --- values: one parser per kind of key ------------------------------------------------------


def _parse_bool(text: str) -> bool:
    key = text.strip().lower()
    if key in ("true", "yes", "1"):
        return True
    if key in ("false", "no", "0"):
        return False
    raise ValueError(f"write true or false, not {text!r}")


def _parse_int(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ValueError(f"write a whole number, not {text!r}") from None


def _parse_pairs(text: str) -> list[tuple[str, str]]:
    """``'N 4, E 3, S nil, W 2'`` -> [('N', '4'), ...] (also ``N=4`` or ``N: 4``)."""
    out = []
    for item in text.split(","):
        if not item.strip():
            continue
        m = _PAIR.match(item)
        if m is None:
            raise ValueError(f"write pairs such as 'N 4, E 3', not {item.strip()!r}")
        out.append((m.group(1), m.group(2)))
    return out


def _parse_map(text: str, key: Callable[[str], Any], value: Callable[[str], Any]) -> dict[Any, Any]:
    """Seat or team pairs: ``'N 4, E nil'`` with ``key=Seat.parse, value=Bid.parse``."""
    out: dict[Any, Any] = {}
    for name, raw in _parse_pairs(text):
        k = key(name)
        if k in out:
            raise ValueError(f"{k.label} appear{'s' if isinstance(k, st.Seat) else ''} twice")
        out[k] = value(raw)
    return out


def _parse_flags(text: str) -> dict[str, Any]:
    """``'nil=false, mercy=-200'`` -> {'nil': False, 'mercy': -200}."""
    out: dict[str, Any] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        name, sep, raw = item.partition("=")
        name, raw = name.strip().replace("-", "_"), raw.strip()
        if not sep or not raw:
            raise ValueError(f"write flags as name=value, not {item.strip()!r}")
        if name not in _FLAG_NAMES:
            raise ValueError(f"unknown house-rule flag {name!r}; the flags are {', '.join(sorted(_FLAG_NAMES))}")
        value: Any
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        elif raw.lower() == "none":
            value = None
        elif re.fullmatch(r"[+-]?\d+", raw):
            value = int(raw)
        else:
            value = raw
        out[name] = value
    return out


def _parse_presets(text: str) -> tuple[str, ...]:
    names = tuple(text.replace(",", " ").split())
    if not names:
        raise ValueError("name at least one preset")
    for name in names:
        if name not in st.Rules.preset_names():
            raise ValueError(f"unknown preset {name!r}; the presets are {', '.join(st.Rules.preset_names())}")
    return names


#: ``preset:`` values that select presets by what the engine says about them
_SELECTORS: dict[str, Callable[[st.Rules], bool]] = {
    ANY: lambda rules: True,
    f"{ANY} with jokers": lambda rules: rules.jokers,
    f"{ANY} without jokers": lambda rules: not rules.jokers,
    f"{ANY} deck": lambda rules: True,  # the picked deck and trumps, the preset's own house rules
}


def preset_selection(text: str) -> tuple[str, ...]:
    """The presets a ``preset:`` or ``only:`` value names, in the engine's order (a named list keeps its order).

    >>> preset_selection("any with jokers")
    ('jokers', 'deuces-high', 'two-of-spades-third', 'bicycle')
    >>> preset_selection("classic, jokers")
    ('classic', 'jokers')
    """
    key = " ".join(text.split()).lower()
    if key in _SELECTORS:
        return tuple(name for name in st.Rules.preset_names() if _SELECTORS[key](st.Rules.preset(name)))
    names = tuple(text.replace(",", " ").split())
    if not names:
        raise ValueError(f"name a preset, or write {ANY}")
    for name in names:
        if name not in st.Rules.preset_names():
            raise ValueError(
                f"unknown preset {name!r}; write {', '.join(_SELECTORS)} or presets from "
                f"{', '.join(st.Rules.preset_names())}"
            )
    if len(set(names)) != len(names):
        raise ValueError(f"a preset is named twice in {text.strip()!r}")
    return names


def _parse_preset(text: str) -> str:
    preset_selection(text)
    return " ".join(text.split())


def _parse_suit(text: str) -> st.Suit:
    word = text.strip().lower()
    for suit in st.Suit:
        if word in (suit.plural, suit.singular, suit.letter.lower(), suit.symbol):
            return suit
    raise ValueError(f"write a suit: {', '.join(s.plural for s in st.Suit)}, not {text.strip()!r}")


def _parse_deal(text: str) -> str:
    st.parse_deal_id(text)
    return text.strip()


# --- placeholders: rule facts in prose, filled by the engine ---------------------------------------


def _in_words(cards: tuple[st.Card, ...], rules: st.Rules) -> str:
    """``the two of hearts and the two of diamonds`` (``no card`` for none)."""
    names = [rules.card_name(c) for c in cards]
    if not names:
        return "no card"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


#: ``{name}`` in prose or a label -> (what it says, the engine's answer in a rule set)
PLACEHOLDERS: dict[str, tuple[str, Callable[[st.Rules], str]]] = {
    "rule set": ("the rule set's name", lambda rules: rules.title),
    "removed": ("the cards taken out of the pack, in words", lambda rules: _in_words(rules.removed, rules)),
    "removed cards": ("the cards taken out of the pack", lambda rules: " ".join(map(str, rules.removed)) or "none"),
    "removed count": ("how many cards are taken out", lambda rules: str(len(rules.removed))),
    "trump count": ("how many trumps there are", lambda rules: str(len(rules.trump_order()))),
    "trumps": ("the trumps, highest first", lambda rules: " ".join(map(str, rules.trump_order()))),
    "top trump": ("the highest trump, in words", lambda rules: _in_words(rules.trump_order()[:1], rules)),
    "top trumps": ("the three highest trumps, in words", lambda rules: _in_words(rules.trump_order()[:3], rules)),
    "lowest trump": ("the lowest trump, in words", lambda rules: _in_words(rules.trump_order()[-1:], rules)),
    "extra trumps": (
        "the trumps that are not natural spades, in words",
        lambda rules: _in_words(rules.extra_trumps(), rules),
    ),
    "ace of spades place": (
        "where the ace of spades stands among the trumps",
        lambda rules: rules.trump_position(st.Card.parse("AS")),
    ),
}


def fill_placeholders(text: str, rules: st.Rules) -> str:
    """Prose with each ``{placeholder}`` replaced by the engine's answer in ``rules``.

    A capital first letter (``{Top trump}``) capitalises the answer; an unknown name raises ``ValueError``.

    >>> fill_placeholders("Take out {removed}: {trump count} trumps.", st.Rules.preset("deuces-high"))
    'Take out the two of clubs and the two of hearts: 16 trumps.'
    """

    def fill(m: re.Match[str]) -> str:
        name = m.group(1)
        entry = PLACEHOLDERS.get(name.lower())
        if entry is None:
            raise ValueError(f"unknown placeholder {{{name}}}; the placeholders are {', '.join(PLACEHOLDERS)}")
        answer = entry[1](rules)
        return answer[:1].upper() + answer[1:] if name[0].isupper() else answer

    return _PLACEHOLDER.sub(fill, text)


_CARD_KEYS = frozenset({"cards", "hand", "trick", "choices", "plays", *_SEATS})
_PARSERS: dict[str, Callable[[str], Any]] = {
    **{key: st.cards for key in _CARD_KEYS},
    "spades_broken": _parse_bool,
    "generate": _parse_bool,
    "seed": _parse_int,
    "difficulty": _parse_int,
    "leader": st.Seat.parse,
    "seat": st.Seat.parse,
    "dealer": st.Seat.parse,
    "bids": lambda text: _parse_map(text, st.Seat.parse, st.Bid.parse),
    "tricks": lambda text: _parse_map(text, st.Seat.parse, _parse_int),
    "bags": lambda text: _parse_map(text, st.Team.parse, _parse_int),
    "scores": lambda text: _parse_map(text, st.Team.parse, _parse_int),
    "flags": _parse_flags,
    "presets": _parse_presets,
    "preset": _parse_preset,
    "only": _parse_preset,
    "deal": _parse_deal,
    "suit": _parse_suit,
}


# --- the data --------------------------------------------------------------------------------


def _no_options() -> Mapping[str, str]:
    return types.MappingProxyType({})


@dataclasses.dataclass(frozen=True)
class Block:
    """One piece of a step: Markdown prose, a tip, or a fenced block the engine renders and checks.

    The accessors take the lesson (for its preset and file name) and the rule set the
    teacher picked (used by adaptive blocks only); they raise ``LessonError`` naming
    the file and line when the block does not fit its rule set.
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
        """A quiz whose position comes from ``spades_tutor.quiz.generators``."""
        return self.kind == "quiz" and _parse_bool(self.options.get("generate", "false"))

    @property
    def label(self) -> str:
        return self.options.get("label", "")

    def error(self, lesson: Lesson, message: str, rules: st.Rules | None = None) -> LessonError:
        several = self.adaptive or "only" in self.options or (self.preset is not None and " " in self.preset)
        where = f" [rule set {rules.name}]" if rules is not None and several else ""
        return LessonError(f"{_where(lesson.path, self.line)}: {self.kind} block{where}: {message}")

    def value(self, lesson: Lesson, key: str, default: Any = None) -> Any:
        """The parsed value of an option (cards, seat, bids …), or ``default`` if absent."""
        if key not in self.options:
            return default
        try:
            return _PARSERS.get(key, str)(self.options[key])
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

    def rule_sets(self, lesson: Lesson) -> tuple[st.Rules, ...]:
        """Every rule set the block must hold in: each of its presets when it follows the pick, else its one."""
        if self.follows_pick(lesson):
            return tuple(self.rules(lesson, st.Rules.preset(name)) for name in self.presets(lesson))
        return (self.rules(lesson),)

    # --- words ---------------------------------------------------------------------------------

    def _fill(self, lesson: Lesson, text: str, selected: st.Rules | None) -> str:
        rules = self.rules(lesson, selected)
        try:
            return fill_placeholders(text, rules)
        except ValueError as e:
            raise self.error(lesson, str(e), rules) from None

    def text_in(self, lesson: Lesson, selected: st.Rules | None = None) -> str:
        """The prose (or tip) as shown in the teacher's pick: placeholders filled by the engine."""
        return self._fill(lesson, self.text, selected)

    def label_in(self, lesson: Lesson, selected: st.Rules | None = None) -> str:
        """The ``label:`` as shown in the teacher's pick: placeholders filled by the engine."""
        return self._fill(lesson, self.label, selected)

    def compared(self, lesson: Lesson) -> tuple[st.Rules, ...]:
        """For "compare": the rule sets shown side by side."""
        names: tuple[str, ...] = self.value(lesson, "presets", ())
        return tuple(st.Rules.preset(name) for name in names)

    # --- cards and positions -------------------------------------------------------------------

    def _cards(self, lesson: Lesson, rules: st.Rules, key: str, most: int, least: int = 1) -> st.Hand:
        got: st.Hand = self.value(lesson, key, st.Hand())
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
                lesson,
                f"{key}: {' '.join(map(str, stray))} {'is' if len(stray) == 1 else 'are'} not in the "
                f"{rules.name} deck" + (f" ({gone})" if gone else ""),
                rules,
            )
        twice = sorted({c for c in got if got.count(c) > 1})
        if twice:
            raise self.error(lesson, f"{key}: {' '.join(map(str, twice))} appears twice", rules)
        if not least <= len(got) <= most:
            span = f"{least}" if least == most else f"{least} to {most}"
            raise self.error(lesson, f"{key}: {len(got)} cards, where a {key} here has {span}", rules)
        return got

    def cards(self, lesson: Lesson, selected: st.Rules | None = None) -> tuple[st.Card, ...]:
        """The cards of a "hand" or "trick" block (or a quiz's hand, trick or choices)."""
        rules = self.rules(lesson, selected)
        if self.kind == "hand":
            return self._cards(lesson, rules, "cards", 13)
        if self.kind == "trick":
            return self._cards(lesson, rules, "cards", 4)
        if self.kind == "quiz":
            for key in ("hand", "trick", "choices"):
                if key in self.options:
                    return self._cards(lesson, rules, key, len(rules.deck()), 0)
            return ()
        raise self.error(lesson, "has no cards of its own")

    def suit_cards(self, lesson: Lesson, selected: st.Rules | None = None) -> tuple[st.Card, ...]:
        """A "suit" block: the cards of that suit in the deck shown, highest first (the trumps for spades)."""
        if self.kind != "suit":
            raise self.error(lesson, "is not a suit block")
        suit: st.Suit = self.value(lesson, "suit")
        return self.rules(lesson, selected).suit_cards(suit)

    def trick(self, lesson: Lesson, selected: st.Rules | None = None) -> st.Trick:
        """A "trick" block (or a quiz's trick) as a ``Trick``: complete with its winner, or in progress."""
        rules = self.rules(lesson, selected)
        if self.kind == "trick":
            played = self._cards(lesson, rules, "cards", 4)
            leader: st.Seat = self.value(lesson, "leader")
        elif self.kind == "quiz" and "trick" in self.options:
            played = self._cards(lesson, rules, "trick", 4, 0)
            if self.quiz_kind == "legal-plays":  # the seat to play sits after the cards played so far
                seat: st.Seat = self.value(lesson, "seat", st.Seat.SOUTH)
                leader = st.Seat((seat - len(played)) % 4)
            else:
                leader = self.value(lesson, "leader", st.Seat.WEST)
        else:
            raise self.error(lesson, "has no trick")
        if len(played) == 4:
            return st.Trick.complete(rules, leader, played)
        return st.Trick(leader, tuple(played), None, rules)

    def spades_broken(self, lesson: Lesson) -> bool:
        return bool(self.value(lesson, "spades_broken", False))

    def hands(self, lesson: Lesson, selected: st.Rules | None = None) -> dict[st.Seat, st.Hand]:
        """The four hands of a "hands" or "play" block, checked as a real deal."""
        return self._deal(lesson, self.rules(lesson, selected)).dealt

    def _deal(self, lesson: Lesson, rules: st.Rules) -> st.Round:
        if self.kind not in ("hands", "play"):
            raise self.error(lesson, "has no deal")
        given = [s for s in _SEATS if s in self.options]
        deal_id = self.options.get("deal")
        if deal_id is not None and (given or "dealer" in self.options):
            raise self.error(lesson, "give either deal: (a deal id) or the four hands N:, E:, S:, W:, not both")
        if deal_id is None and len(given) != 4:
            raise self.error(lesson, "needs deal: (a deal id) or all four hands N:, E:, S:, W:")
        hands = {st.Seat.parse(s): self._cards(lesson, rules, s, 13, 13) for s in given}
        try:
            if deal_id is not None:
                return st.Round.from_deal_id(rules, deal_id)
            return st.Round.from_hands(rules, hands, dealer=self.value(lesson, "dealer", st.Seat.WEST))
        except st.SpadesError as e:
            raise self.error(lesson, str(e), rules) from None

    def round(self, lesson: Lesson, selected: st.Rules | None = None) -> st.Round:
        """A "play" block replayed by the engine: the bids, then all 13 tricks."""
        if self.kind != "play":
            raise self.error(lesson, "is not a play block")
        rules = self.rules(lesson, selected)
        rnd = self._deal(lesson, rules)
        bids: dict[st.Seat, st.Bid] = self.value(lesson, "bids")
        missing = [s.label for s in st.Seat if s not in bids]
        if missing:
            raise self.error(lesson, f"bids: no bid for {', '.join(missing)}", rules)
        plays: st.Hand = self.value(lesson, "plays")
        if len(plays) != 52:
            raise self.error(lesson, f"plays: {len(plays)} cards, where a whole hand is 52", rules)
        try:
            while rnd.to_act is not None and rnd.phase is st.Phase.BIDDING:
                rnd.bid(bids[rnd.to_act])
            for card in plays:
                rnd.play(card)
        except st.IllegalAction as e:
            trick, seat = len(rnd.tricks) + 1, rnd.to_act
            raise self.error(lesson, f"trick {trick}, {seat}: {e.reason}", rules) from None
        return rnd

    def score(self, lesson: Lesson, selected: st.Rules | None = None) -> dict[st.Team, st.HandScore]:
        """A "score" block's position scored by the engine, line by line."""
        if self.kind not in ("score", "quiz"):
            raise self.error(lesson, "has no score")
        rules = self.rules(lesson, selected)
        bids, tricks, bags = self._score_position(lesson, rules)
        return st.score_hand(rules, bids, tricks, bags)

    def _score_position(
        self, lesson: Lesson, rules: st.Rules
    ) -> tuple[dict[st.Seat, st.Bid], dict[st.Seat, int], dict[st.Team, int]]:
        bids: dict[st.Seat, st.Bid] = self.value(lesson, "bids", {})
        tricks: dict[st.Seat, int] = self.value(lesson, "tricks", {})
        bags: dict[st.Team, int] = {st.Team.NS: 0, st.Team.EW: 0, **self.value(lesson, "bags", {})}
        try:  # the score item knows which positions can happen (nil allowed, bags below the limit …)
            ScoreItem(rules, bids=bids, tricks=tricks, bags=bags)
        except st.SpadesError as e:
            raise self.error(lesson, str(e), rules) from None
        return bids, tricks, bags

    def game(self, lesson: Lesson, selected: st.Rules | None = None) -> tuple[st.Team | None, str]:
        """A "game" block: the winner at these scores (or None) and the engine's sentence."""
        if self.kind != "game":
            raise self.error(lesson, "is not a game block")
        rules = self.rules(lesson, selected)
        scores: dict[st.Team, int] = self.value(lesson, "scores")
        if set(scores) != set(st.Team):
            raise self.error(lesson, "scores: give both teams, such as NS 520, EW 480", rules)
        return st.explain_game(rules, scores)

    # --- quizzes ------------------------------------------------------------------------------

    def quiz_item(self, lesson: Lesson, selected: st.Rules | None = None) -> QuizItem:
        """The quiz item: built from the stated position (or generated), answered by the engine."""
        if self.kind != "quiz" or self.quiz_kind is None:
            raise self.error(lesson, "is not a quiz")
        rules = self.rules(lesson, selected)
        if self.generated:
            return self._generate(lesson, rules)
        kind = self.quiz_kind
        data: dict[str, Any] = {
            "kind": kind,
            "preset": rules.name if rules.name in st.Rules.preset_names() else "jokers",
            "flags": {k: v for k, v in rules.flags().items() if not isinstance(v, tuple)},
            "difficulty": self.value(lesson, "difficulty", 1),
        }
        if kind == "legal-plays":
            seat: st.Seat = self.value(lesson, "seat", st.Seat.SOUTH)
            data.update(
                hand=self._cards(lesson, rules, "hand", 13),
                trick=self._cards(lesson, rules, "trick", 3, 0),
                spades_broken=self.spades_broken(lesson),
                seat=seat.letter,
            )
        elif kind == "trick-winner":
            leader: st.Seat = self.value(lesson, "leader", st.Seat.WEST)
            data.update(trick=self._cards(lesson, rules, "trick", 4, 2), leader=leader.letter)
        elif kind in ("highest-trump", "trump-order"):
            data.update(choices=self._cards(lesson, rules, "choices", len(rules.deck()), 2))
        elif kind == "score":
            bids, tricks, bags = self._score_position(lesson, rules)
            data.update(
                bids={s.letter: b.to_json() for s, b in bids.items()},
                tricks={s.letter: n for s, n in tricks.items()},
                bags={t.short: n for t, n in bags.items()},
            )
        elif kind == "nil-safe":
            if not rules.nil:
                raise self.error(lesson, "a nil question in a rule set without nil", rules)
            data.update(hand=self._cards(lesson, rules, "hand", 13, 13))
        else:  # sure-tricks
            data.update(hand=self._cards(lesson, rules, "hand", 13))
        try:
            item: Any = item_from_dict(data)
            # the exact rule set shown (a teacher's pick may carry house rules item_from_dict cannot name)
            return item if item.rules == rules else dataclasses.replace(item, rules=rules)  # type: ignore[no-any-return]
        except (st.SpadesError, KeyError, TypeError) as e:
            raise self.error(lesson, str(e), rules) from None

    def _generate(self, lesson: Lesson, rules: st.Rules) -> QuizItem:
        assert self.quiz_kind is not None
        seed: int = self.value(lesson, "seed")
        difficulty: int = self.value(lesson, "difficulty", 1)
        try:  # written beside the items by another module; imported only when a lesson first needs it
            generate = importlib.import_module("spades_tutor.quiz.generators").generate
        except (ImportError, AttributeError) as e:
            raise self.error(
                lesson, f"generated quizzes need spades_tutor.quiz.generators.generate ({e})", rules
            ) from None
        try:
            item: QuizItem = generate(self.quiz_kind, rules, seed, difficulty)
        except (st.SpadesError, KeyError, ValueError) as e:
            raise self.error(lesson, f"the {self.quiz_kind} generator failed: {e}", rules) from None
        return item


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

    def blocks(self, kind: str | None = None) -> Iterator[Block]:
        """Every block of every step, in order (only those of ``kind`` if given)."""
        for step in self.steps:
            for block in step.blocks:
                if kind is None or block.kind == kind:
                    yield block

    def rules(self) -> st.Rules:
        return st.Rules.preset(self.preset)


# --- reading a file -----------------------------------------------------------------------------


def _split_steps(lines: list[str], start: int, path: Path) -> list[tuple[int, list[str]]]:
    """Cut the body at ``---`` lines outside fenced blocks; each chunk keeps its first line number."""
    chunks: list[tuple[int, list[str]]] = [(start + 1, [])]
    fence: str | None = None
    fence_line = 0
    for i in range(start, len(lines)):
        line = lines[i]
        m = _FENCE.match(line)
        if fence is not None:
            if m and m.group(1).startswith(fence) and not m.group(2):
                fence = None
        elif m:
            fence, fence_line = m.group(1), i + 1
        elif _SEPARATOR.match(line):
            chunks.append((i + 2, []))
            continue
        chunks[-1][1].append(line)
    if fence is not None:
        raise LessonError(f"{_where(path, fence_line)}: this fenced block is never closed (a line ``` ends it)")
    return chunks


def _parse_options(
    path: Path, fence_line: int, kind: str, quiz_kind: str | None, body: list[tuple[int, str]]
) -> dict[str, str]:
    options: dict[str, str] = {}
    lines: dict[str, int] = {}
    last: str | None = None
    for number, line in body:
        if not line.strip():
            continue
        if line[:1].isspace() and last is not None:
            options[last] = (options[last] + " " + line.strip()).strip()
            continue
        m = _KEY.match(line)
        if m is None:
            raise LessonError(f"{_where(path, number)}: write `key: value` lines inside a {kind} block, not {line!r}")
        key = m.group(1).lower().replace("-", "_")
        if kind in ("hands", "play") and key in ("n", "e", "s", "w", "north", "east", "south", "west"):
            key = key[0].upper()
        if key in options:
            raise LessonError(f"{_where(path, number)}: {key}: is given twice (first on line {lines[key]})")
        options[key], lines[key], last = m.group(2).strip(), number, key
    required, optional = KINDS[kind]
    if kind == "quiz":
        assert quiz_kind is not None
        position, more = QUIZ_KEYS[quiz_kind]
        generated = _parse_bool(options.get("generate", "false"))
        if generated:
            required = frozenset({"seed"})
            stated = sorted(k for k in options if k in position | more)
            if stated:
                raise LessonError(
                    f"{_where(path, lines[stated[0]])}: a generated quiz states no position "
                    f"(remove {', '.join(stated)}), or drop generate: true"
                )
        else:
            required = position
        optional = optional | position | more
    for key, number in lines.items():
        if kind == "quiz" and key in ANSWER_KEYS:
            raise LessonError(
                f"{_where(path, number)}: a quiz block states the position, never the answer: "
                f"remove {key}: (the engine computes the answer)"
            )
        if key not in required | optional | _COMMON:
            known = ", ".join(sorted(required | optional | _COMMON))
            raise LessonError(f"{_where(path, number)}: unknown key {key}: in a {kind} block (the keys are {known})")
        try:
            _PARSERS.get(key, str)(options[key])
        except ValueError as e:
            raise LessonError(f"{_where(path, number)}: {key}: {e}") from None
    if "preset" in options and "only" in options:
        raise LessonError(f"{_where(path, lines['only'])}: give preset: or only:, not both")
    missing = sorted(required - set(options))
    if missing:
        raise LessonError(f"{_where(path, fence_line)}: a {kind} block needs {', '.join(missing)}:")
    return options


def _fenced_block(path: Path, number: int, info: str, body: list[tuple[int, str]]) -> Block:
    parts = info.split()
    kind = parts[0].lower() if parts else ""
    quiz_kind = None
    if kind == "quiz":
        if len(parts) != 2 or parts[1] not in ITEM_KINDS:
            raise LessonError(
                f"{_where(path, number)}: write ```quiz KIND, with KIND one of {', '.join(ITEM_KINDS)} (not {info!r})"
            )
        quiz_kind = parts[1]
    elif kind not in KINDS or len(parts) != 1:
        raise LessonError(
            f"{_where(path, number)}: unknown block kind {info!r}; the kinds are "
            f"{', '.join(k for k in KINDS if k != 'quiz')} and quiz KIND"
        )
    if kind == "tip":
        text = "\n".join(line for _, line in body).strip()
        if not text:
            raise LessonError(f"{_where(path, number)}: an empty tip")
        return Block("tip", text=text, line=number)
    options = _parse_options(path, number, kind, quiz_kind, body)
    return Block(
        kind,
        options=types.MappingProxyType(options),
        quiz_kind=quiz_kind,
        preset=options.get("preset"),
        line=number,
    )


def _parse_step(path: Path, first: int, lines: list[str]) -> Step | None:
    numbered = [(first + i, line) for i, line in enumerate(lines)]
    while numbered and not numbered[0][1].strip():
        numbered.pop(0)
    if not numbered:
        return None
    number, head = numbered[0]
    m = _STEP_TITLE.match(head)
    if m is None:
        raise LessonError(f"{_where(path, number)}: a step starts with a line `## Step title`, not {head!r}")
    title, step_line = m.group(1), number
    blocks: list[Block] = []
    prose: list[tuple[int, str]] = []
    # a comment line <!-- preset: … --> or <!-- only: … --> governs the prose (or tip) below it
    directive: dict[str, str] = {}
    directive_line = 0  # while the comment above has governed nothing yet

    def scoped(block: Block, default: str | None) -> Block:
        options = types.MappingProxyType(dict(directive))
        preset = directive.get("preset", None if "only" in directive else default)
        return dataclasses.replace(block, options=options, preset=preset)

    def flush() -> None:
        while prose and not prose[-1][1].strip():
            prose.pop()
        while prose and not prose[0][1].strip():
            prose.pop(0)
        nonlocal directive_line
        if prose:
            text = "\n".join(line for _, line in prose)
            blocks.append(scoped(Block("markdown", text=text, line=prose[0][0]), ANY))
            directive_line = 0
        prose.clear()

    i = 1
    while i < len(numbered):
        number, line = numbered[i]
        fence = _FENCE.match(line)
        scope = _DIRECTIVE.match(line)
        if scope:
            flush()
            if directive_line:
                raise LessonError(
                    f"{_where(path, directive_line)}: this comment governs no prose (a second one follows)"
                )
            key, raw = scope.group(1).lower(), scope.group(2)
            directive_line = number
            try:
                directive = {key: _parse_preset(raw)}
            except ValueError as e:
                raise LessonError(f"{_where(path, number)}: {key}: {e}") from None
        elif fence:
            flush()
            body: list[tuple[int, str]] = []
            i += 1
            while i < len(numbered):
                close = _FENCE.match(numbered[i][1])
                if close and close.group(1).startswith(fence.group(1)) and not close.group(2):
                    break
                if close:
                    raise LessonError(
                        f"{_where(path, number)}: this fenced block is not closed before the next one opens "
                        f"on line {numbered[i][0]} (a line ``` ends it)"
                    )
                body.append(numbered[i])
                i += 1
            block = _fenced_block(path, number, fence.group(2), body)
            if block.kind == "tip" and directive:
                block = scoped(block, None)
            elif directive_line:
                raise LessonError(
                    f"{_where(path, directive_line)}: a <!-- {next(iter(directive))}: --> comment governs the prose "
                    f"or tip below it; a {block.kind} block takes {next(iter(directive))}: on a line of its own"
                )
            blocks.append(block)
            directive, directive_line = {}, 0
        elif _STEP_TITLE.match(line) or _TITLE.match(line):
            raise LessonError(f"{_where(path, number)}: a second title in one step; separate steps with a line `---`")
        else:
            prose.append((number, line))
        i += 1
    flush()
    if directive_line:
        raise LessonError(f"{_where(path, directive_line)}: this comment governs no prose (the step ends)")
    return Step(title, tuple(blocks), step_line)


def parse_lesson(text: str, path: Path) -> Lesson:
    """A lesson from its text; ``path`` gives the number and slug (``NN-slug.md``) and names errors."""
    path = Path(path)
    name = _FILE_NAME.match(path.name)
    if name is None:
        raise LessonError(f"{_where(path, 1)}: a lesson file is named NN-slug.md, such as 03-following-suit.md")
    lines = text.splitlines()
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    title = _TITLE.match(lines[i]) if i < len(lines) else None
    if title is None:
        raise LessonError(f"{_where(path, i + 1)}: a lesson starts with its title, a line `# Title`")
    front: dict[str, str] = {}
    i += 1
    while i < len(lines) and not _SEPARATOR.match(lines[i]) and not _STEP_TITLE.match(lines[i]):
        line = lines[i]
        if line.strip():
            m = _KEY.match(line)
            key = m.group(1).lower() if m else ""
            if m is None or key not in _FRONT_KEYS:
                raise LessonError(
                    f"{_where(path, i + 1)}: after the title come only `preset:` and `summary:` lines, "
                    f"then `---` and the steps; not {line!r}"
                )
            if key in front:
                raise LessonError(f"{_where(path, i + 1)}: {key}: is given twice")
            front[key] = m.group(2).strip()
        i += 1
    preset = front.get("preset", "jokers")
    if preset not in st.Rules.preset_names():
        raise LessonError(
            f"{_where(path, 1)}: unknown lesson preset {preset!r}; the presets are {', '.join(st.Rules.preset_names())}"
        )
    steps = [step for first, chunk in _split_steps(lines, i, path) if (step := _parse_step(path, first, chunk))]
    return Lesson(
        number=int(name.group(1)),
        slug=name.group(2),
        title=title.group(1),
        summary=front.get("summary", ""),
        preset=preset,
        steps=tuple(steps),
        path=path,
    )


def load_lesson(path: Path) -> Lesson:
    """Read one lesson file; a malformed file raises ``LessonError`` naming the file and line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise LessonError(f"{path}: cannot read the lesson: {e}") from None
    return parse_lesson(text, path)


def lessons_dir() -> Path:
    """The ``lessons/`` folder: ``$SPADES_TUTOR_LESSONS``, else beside the package, else ./lessons or ../lessons."""
    env = os.environ.get("SPADES_TUTOR_LESSONS")
    if env:
        folder = Path(env)
        if not folder.is_dir():
            raise LessonError(f"SPADES_TUTOR_LESSONS={env!r} is not a folder")
        return folder
    here = Path(__file__).resolve().parent.parent
    for folder in (here / "lessons", Path.cwd() / "lessons", Path.cwd().parent / "lessons"):
        if folder.is_dir():
            return folder
    raise LessonError("no lessons/ folder found: set SPADES_TUTOR_LESSONS to it")


def load_lessons(folder: Path | None = None) -> tuple[Lesson, ...]:
    """Every ``NN-*.md`` lesson of ``folder`` (default: ``lessons_dir()``), in number order."""
    folder = lessons_dir() if folder is None else Path(folder)
    lessons = [load_lesson(p) for p in folder.iterdir() if re.match(r"^\d+-.*\.md$", p.name)]
    lessons.sort(key=lambda lesson: (lesson.number, lesson.slug))
    for a, b in itertools.pairwise(lessons):
        if a.number == b.number:
            raise LessonError(f"{b.path}:1: lesson number {b.number} is also {a.path.name}")
    return tuple(lessons)


# --- checking a lesson against the engine ---------------------------------------------------------


def _check(block: Block, lesson: Lesson, rules: st.Rules) -> None:
    """Build what the block shows in ``rules``; the accessors raise ``LessonError`` on any problem."""
    kind = block.kind
    if kind in ("hand", "trick"):
        block.cards(lesson, rules)
        if kind == "trick":
            block.trick(lesson, rules)
    elif kind in ("hands", "play"):
        block.hands(lesson, rules)
        if kind == "play":
            block.round(lesson, rules)
    elif kind == "compare":
        block.compared(lesson)
    elif kind == "suit":
        block.suit_cards(lesson, rules)
    elif kind == "score":
        block.score(lesson, rules)
    elif kind == "game":
        block.game(lesson, rules)
    elif kind == "quiz":
        item = block.quiz_item(lesson, rules)
        if item.kind != block.quiz_kind or item.rules != rules:
            raise block.error(lesson, f"got a {item.kind} item in {item.rules.name}, not {block.quiz_kind}", rules)
        try:
            answer = item.answer()
            feedback = item.check(answer)
        except (st.SpadesError, KeyError, TypeError, ValueError) as e:
            raise block.error(lesson, f"the engine cannot answer this quiz: {e}", rules) from None
        if not feedback.correct:
            raise block.error(lesson, f"the engine's own answer {answer!r} does not check as correct", rules)
    elif kind in ("markdown", "tip") and not block.text.strip():
        raise block.error(lesson, "is empty")
    # the words, as shown in this rule set: placeholders the engine fills, claims it confirms
    from .lesson_claims import check_block

    problems = check_block(lesson, block, rules)
    if problems:
        raise LessonError("\n".join(problems))


def rule_set_note(shown: st.Rules, picked: st.Rules) -> str | None:
    """What the player says above a block shown in another rule set than the teacher's pick (None: the same).

    >>> rule_set_note(st.Rules.preset("jokers"), st.Rules.preset("classic"))
    'Shown in the Spades with Jokers rule set (your table plays Regular Spades)'
    """
    if shown.name == picked.name:
        return None
    return f"Shown in the {shown.title} rule set (your table plays {picked.title})"


def validate_lesson(lesson: Lesson) -> list[str]:
    """Every problem found (empty: valid), each naming the file and line.

    Checks each block in its rule set (adaptive blocks in every preset): cards exist,
    hands are a real deal, tricks and positions are legal, plays are legal, scores add
    up, every quiz has an answer the engine computes and accepts, and the words
    (prose, tips, labels) say nothing the rule set they are shown in makes false.
    """
    problems: list[str] = []
    if lesson.number < 1:
        problems.append(f"{_where(lesson.path, 1)}: lesson numbers start at 01")
    if not lesson.steps:
        problems.append(f"{_where(lesson.path, 1)}: a lesson needs at least one step (`## Step title`)")
    # titles and the summary are shown whatever the pick: they speak of the lesson's own rule set
    from .lesson_claims import contradictions

    headings = [(1, lesson.title), (1, lesson.summary), *((step.line, step.title) for step in lesson.steps)]
    for line, text in headings:
        problems.extend(f"{_where(lesson.path, line)}: {p}" for p in contradictions(text, lesson.rules()))
    for block in lesson.blocks():
        try:
            rule_sets = block.rule_sets(lesson)
        except LessonError as e:
            problems.append(str(e))
            continue
        for rules in rule_sets:
            try:
                _check(block, lesson, rules)
            except LessonError as e:
                problems.append(str(e))
    return problems
