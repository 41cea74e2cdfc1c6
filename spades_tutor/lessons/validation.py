"""Checking a lesson against the engine: every block in every rule set it is shown in."""

from __future__ import annotations

from .. import engine as st
from .model import Block, Lesson
from .values import LessonError, source_place

__all__ = ["validate_lesson"]


def _check(block: Block, lesson: Lesson, rules: st.Rules) -> None:
    """Build what the block shows in ``rules`` (its kind's check); raise ``LessonError`` on any problem."""
    block.spec.check(block.resolved_in(lesson, rules))
    # the words, as shown in this rule set: placeholders the engine fills, claims it confirms
    from .claims import check_block

    problems = check_block(lesson, block, rules)
    if problems:
        raise LessonError("\n".join(problems))


def validate_lesson(lesson: Lesson) -> list[str]:
    """Every problem found (empty: valid), each naming the file and line.

    Checks each block in its rule set (adaptive blocks in every preset): cards exist,
    hands are a real deal, tricks and positions are legal, plays are legal, scores add
    up, every quiz has an answer the engine computes and accepts, and the words
    (prose, tips, labels) say nothing the rule set they are shown in makes false.
    """
    problems: list[str] = []
    if not lesson.steps:
        problems.append(f"{source_place(lesson.path, 1)}: a lesson needs at least one step (`## Step title`)")
    # titles and the summary are shown whatever the pick: they speak of the lesson's own rule set
    from .claims import contradictions

    headings = [(1, lesson.title), *((step.line, step.title) for step in lesson.steps)]
    for line, text in headings:
        problems.extend(f"{source_place(lesson.path, line)}: {p}" for p in contradictions(text, lesson.rules()))
    # the summary (the lesson list's) follows the table picked: its placeholders filled, in every preset
    for name in st.Rules.preset_names():
        picked = st.Rules.preset(name)
        try:
            summary = lesson.summary_in(picked)
        except ValueError as e:
            problems.append(f"{source_place(lesson.path, 1)}: summary: {e}")
            break
        problems.extend(
            f"{source_place(lesson.path, 1)}: summary [picked {name}]: {p}" for p in contradictions(summary, picked)
        )
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
