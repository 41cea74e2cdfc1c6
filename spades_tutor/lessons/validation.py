"""Checking a lesson against the engine: every block in every rule set it is shown in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import engine as st
from .model import Block, Lesson
from .values import LessonError, source_place

__all__ = ["HOUSE_RULES", "validate_lesson"]

#: the house rules a learner may build on Home, a few of each kind: every block that follows the
#: learner's table (``preset: any``) and every summary is checked with each, on top of every preset
HOUSE_RULES: tuple[Mapping[str, Any], ...] = (
    {},
    {"target": 300},
    {"mercy": -200},
    {"mercy": -300, "target": 250},
    {"bag_limit": 5},
    {"nil_value": 50},
    {"min_team_bid": 4},
    {"ten_bid_bonus": 50},
    {
        "target": 300,
        "nil": False,
        "trick_points": 5,
        "bag_limit": 5,
        "bag_penalty": 50,
        "min_team_bid": 4,
        "ten_bid_bonus": 100,
        "mercy": -250,
        "blind_nil": "always",
        "first_lead": "two-of-clubs",
        "failed_nil_tricks": "partner",
        "renege_penalty": "set",
    },
)


def _check(block: Block, lesson: Lesson, rules: st.Rules) -> None:
    """Build what the block shows in ``rules`` (its kind's check); raise ``LessonError`` on any problem."""
    block.spec.check(block.resolved_in(lesson, rules))
    # the words, as shown in this rule set: placeholders the engine fills, claims it confirms
    from .claims import check_block

    problems = check_block(lesson, block, rules)
    if problems:
        raise LessonError("\n".join(problems))


def validate_lesson(lesson: Lesson, house: Sequence[Mapping[str, Any]] = HOUSE_RULES) -> list[str]:
    """Every problem found (empty: valid), each naming the file and line.

    Checks each block in its rule set (adaptive blocks in every preset): cards exist,
    hands are a real deal, tricks and positions are legal, plays are legal, scores add
    up, every quiz has an answer the engine computes and accepts, and the words
    (prose, tips, labels) say nothing the rule set they are shown in makes false.
    A block that follows the learner's table is checked with each set of house rules
    in ``house`` as well (``({},)``: the presets alone).
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
        for flags in house:
            try:
                picked = st.Rules.preset(name, **flags)
            except st.RulesError:  # a table nobody can build (the 2♣ to lead in a pack without it)
                continue
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
            rule_sets = block.rule_sets(lesson, house)
        except LessonError as e:
            problems.append(str(e))
            continue
        for rules in rule_sets:
            try:
                _check(block, lesson, rules)
            except LessonError as e:
                problems.append(str(e))
    return list(dict.fromkeys(problems))  # a problem found in a preset under several house rules, said once
