"""A lesson block kind is one class: it builds what its blocks show, and no other code asks its name.

``Resolved`` (a block in one rule set) hands every accessor (cards, trick, deal, round,
score, quiz item, view …) to the block's kind (``lessons.blocks``); the reader, the
validator, the claim checker and the lesson player ask the kind too. So a new kind is
a class in ``BLOCK_KINDS`` and nothing else: the last test adds one.
"""

from __future__ import annotations

import ast
import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as w
import pytest

import spades_tutor as st
from spades_tutor.lessons import BLOCK_KINDS, BlockKind, LessonError, Resolved, load_lessons, parse_lesson
from spades_tutor.lessons import parts as lesson_parts
from spades_tutor.lessons.blocks import Quiz
from spades_tutor.ui.lesson_player import LessonPlayer

LESSONS = load_lessons()
PRESETS = st.Rules.preset_names()
PACKAGE = Path(st.__file__).resolve().parent

#: Resolved accessor -> the BlockKind method that builds it
ACCESSORS: dict[str, tuple[str, Callable[[Resolved], Any]]] = {
    "shown_cards": ("cards", lambda r: r.shown_cards()),
    "trick": ("trick", lambda r: r.trick()),
    "suit_cards": ("suit_cards", lambda r: r.suit_cards()),
    "deal": ("deal", lambda r: r.deal()),
    "hands": ("deal", lambda r: r.hands()),
    "round": ("round", lambda r: r.round()),
    "score": ("score", lambda r: r.score()),
    "game": ("game", lambda r: r.game()),
    "quiz_item": ("quiz_item", lambda r: r.quiz_item()),
    "ending": ("ending", lambda r: r.ending()),
    "view": ("view", lambda r: r.view(seed=4127)),
}


def builds(kind: BlockKind, method: str) -> bool:
    """Whether the kind's own class (or a kind class it extends) builds ``method``, not the base."""
    return getattr(type(kind), method) is not getattr(BlockKind, method)


def view_parts(shown: Resolved, view: list[Any]) -> set[type]:
    """The types of the parts a view shows: plain ``lessons.parts`` values, built in the block's rule set."""
    assert view, shown.block.line
    for part in view:
        assert isinstance(part, lesson_parts.Part)
        if isinstance(part, lesson_parts.Cards) and shown.kind != "compare":  # compare shows other rule sets
            assert part.rules == shown.rules
            assert all(shown.rules.in_deck(c) or c in shown.rules.removed for c in part.cards)
    return {type(part) for part in view}


def test_every_accessor_a_block_answers_is_built_by_its_kind_and_every_build_is_used() -> None:
    answered: set[tuple[str, str]] = set()
    drawn: set[type] = set()
    for lesson in LESSONS:
        for block in lesson.blocks():
            for picked in (None, *(st.Rules.preset(name) for name in PRESETS)):
                shown = block.resolve(lesson, picked)
                for name, (method, accessor) in ACCESSORS.items():
                    where = f"{lesson.path.name}:{block.line} {block.kind} {name} in {shown.rules.name}"
                    try:
                        got = accessor(shown)
                    except LessonError as e:
                        if not builds(block.spec, method):  # what a kind lacks: said whatever the rule set
                            assert f"{lesson.path}:{block.line}: {block.kind} block: " in str(e), where
                        continue
                    assert builds(block.spec, method), where
                    answered.add((block.kind, method))
                    if name == "view":
                        drawn |= view_parts(shown, got)
    # every build a kind has is used by some lesson block (none is dead)
    built = {(name, m) for name, kind in BLOCK_KINDS.items() for m, _ in ACCESSORS.values() if builds(kind, m)}
    assert built == answered
    assert drawn == set(lesson_parts.Part.__args__)  # every part some kind shows


def test_a_generated_quiz_view_draws_with_the_seed_it_is_given_and_says_so() -> None:
    lesson, block = next((lesson, b) for lesson in LESSONS for b in lesson.blocks("quiz") if b.generated)
    shown = block.resolve(lesson, st.Rules.preset("classic"))
    (question,) = shown.view(seed=321)
    assert isinstance(question, lesson_parts.Question)
    assert question.item.to_dict() == shown.quiz_item(321).to_dict() and question.item.rules == shown.rules
    assert question.note.startswith("Question 321 · Regular Spades")
    stated = next(b for b in lesson.blocks("quiz") if not b.generated)
    (fixed,) = stated.resolve(lesson).view(seed=321)
    assert isinstance(fixed, lesson_parts.Question) and fixed.note == ""


def _kind_names_tested(source: str) -> list[int]:
    """The lines comparing something called ``…kind`` with a block kind's name (``kind == "quiz"``, ``case "suit"``)."""
    names = set(BLOCK_KINDS)

    def named(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in names
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return any(named(e) for e in node.elts)
        return False

    def about_kind(node: ast.AST) -> bool:
        return any(
            (isinstance(n, ast.Name) and n.id.endswith("kind")) or (isinstance(n, ast.Attribute) and n.attr == "kind")
            for n in ast.walk(node)
        )

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(named(s) for s in sides) and any(about_kind(s) for s in sides):
                found.append(node.lineno)
        elif isinstance(node, ast.Match) and about_kind(node.subject):
            for case in node.cases:
                if any(isinstance(p, ast.MatchValue) and named(p.value) for p in ast.walk(case.pattern)):
                    found.append(case.pattern.lineno)
    return sorted(found)


def test_the_scan_finds_each_way_of_testing_a_kind_name() -> None:
    source = (
        'if self.kind != "suit":\n    pass\n'
        'if kind not in ("hands", "play"):\n    pass\n'
        'x = block.kind == "quiz" and generated\n'
        'match block.kind:\n    case "tip":\n        pass\n'
        'if action.kind == "bid" or self.kind == other:\n    pass\n'  # not a block kind's name
    )
    assert _kind_names_tested(source) == [1, 3, 5, 7]


def test_no_code_that_reads_lessons_tests_a_block_kind_name_outside_the_kinds() -> None:
    readers = [
        path
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.parent.name == "lessons"
        or re.search(r"^\s*(from \S*lessons\S* import|import \S*lessons)", path.read_text(encoding="utf-8"), re.M)
    ]
    assert {PACKAGE / "ui" / "lesson_player.py", PACKAGE / "lessons" / "claims.py"} <= set(readers)
    found = [
        f"{path.relative_to(PACKAGE)}:{line}"
        for path in readers
        if path.name != "blocks.py"
        for line in _kind_names_tested(path.read_text(encoding="utf-8"))
    ]
    assert found == []


class _LegalPlays(BlockKind):
    """A kind made for this test: a hand and a trick in progress, and the cards the hand may play."""

    name = "legal-cards"
    required = frozenset({"cards", "trick"})
    optional = frozenset({"label"})

    def cards(self, r: Resolved) -> tuple[st.Card, ...]:
        return r.cards("cards", 13)

    def view(self, r: Resolved, seed: int | None = None) -> list[lesson_parts.Part]:
        legal = st.legal_plays(r.rules, self.cards(r), r.cards("trick", 3, 0))
        return [
            lesson_parts.Cards(r.rules, self.cards(r), r.label() or "hand"),
            lesson_parts.Caption(f"{len(legal)} of them may be played:"),
            lesson_parts.Cards(r.rules, legal, "legal plays"),
        ]

    def check(self, r: Resolved) -> None:
        self.view(r)


def test_a_new_block_kind_is_its_class_in_the_registry_and_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (
        "# Demo\n\n---\n\n## Following\n\n```legal-cards\npreset: any\ncards: AH 3H 5C 7D\ntrick: KH\n"
        "label: Your hand\n```\n"
    )
    with pytest.raises(LessonError, match="unknown block kind 'legal-cards'"):
        parse_lesson(text, tmp_path / "01-demo.md")
    monkeypatch.setitem(BLOCK_KINDS, _LegalPlays.name, _LegalPlays())
    lesson = parse_lesson(text, tmp_path / "01-demo.md")
    (block,) = lesson.blocks()
    from spades_tutor.lessons import validate_lesson

    assert validate_lesson(lesson) == []
    assert block.cards(lesson, st.Rules.preset("jokers")) == st.cards("AH 3H 5C 7D")
    with pytest.raises(LessonError, match=r"has no trick"):
        block.trick(lesson)
    player = LessonPlayer(lesson, st.Rules.preset("jokers"), seed=1)
    shown = " ".join(html.unescape(x.value) for x in player.body.children if isinstance(x, w.HTML))
    assert "2 of them may be played:" in shown and "could not be shown" not in shown
    # its cards are checked in every preset it is shown in, as any kind's are
    bad = text.replace("cards: AH 3H 5C 7D", "cards: AH 3H 5C BJ")
    problems = validate_lesson(parse_lesson(bad, tmp_path / "01-demo.md"))
    assert any("[rule set classic]" in p and "BJ is not in the classic deck" in p for p in problems)
    # a kind's own keys are its class's: an unknown key is named
    with pytest.raises(LessonError, match=r"unknown key leader: in a legal-cards block"):
        parse_lesson(text.replace("trick: KH", "trick: KH\nleader: W"), tmp_path / "01-demo.md")


def test_the_quiz_kind_reads_its_own_opening_line_and_keys(tmp_path: Path) -> None:
    quiz = BLOCK_KINDS["quiz"]
    assert isinstance(quiz, Quiz) and quiz.syntax == "quiz KIND"
    assert quiz.argument("quiz score", ["score"]) == "score"
    with pytest.raises(ValueError, match="write ```quiz KIND"):
        quiz.argument("quiz", [])
    with pytest.raises(ValueError, match="unknown block kind 'hand two'"):
        BLOCK_KINDS["hand"].argument("hand two", ["two"])
    assert quiz.refused("answer") is not None and BLOCK_KINDS["score"].refused("answer") is None
