"""Every lesson at a table with its own house rules: no number the rules change still shows its standard value.

A learner's table (Home's builder, a ``rules=`` link) may change every number of the scoring: the target,
points a trick, what a nil is worth, how many bags bring how large a penalty. Each number a lesson's words
give either follows the table (a placeholder the engine fills, ``{trick points}``, ``{target-35}``), or the
sentence says it is a standard table's ("at a standard table, 10 a trick …"), or the lesson says above every
step that its numbers are a standard table's (``needs: standard scoring``). Here every lesson is rendered at
tables that change all of those numbers at once, and any standard value left in its words fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import spades_tutor as st
from spades_tutor.lessons import Lesson, load_lessons, parse_lesson, table_note, validate_lesson

LESSONS = load_lessons()

#: tables that change every number of the scoring, so any standard value left in a lesson's words is stale
TABLES = {
    "300-five-a-trick": st.Rules.preset(
        "jokers",
        target=300,
        trick_points=5,
        nil_value=50,
        blind_nil_value=150,
        bag_limit=5,
        bag_penalty=50,
        mercy=-250,
        min_team_bid=4,
        ten_bid_bonus=50,
    ),
    "250-twenty-a-trick": st.Rules.preset(
        "classic",
        target=250,
        trick_points=20,
        nil_value=200,
        blind_nil_value=400,
        bag_limit=8,
        bag_penalty=80,
        nil=False,
    ),
}
#: the standard values those tables change: the target, points a trick and bags (10), a nil and a bag penalty
#: (100), a blind nil (200)
STANDARD = {500, 10, 100, 200}
_NUMBER = re.compile(r"(?<![\w.♠♥♦♣])([+−-]?)(\d+)(?![\w♠♥♦♣%]|\.\d)")
#: words that say a sentence speaks of other tables than the learner's, or of a fixed count
_ELSEWHERE = re.compile(r"\bstandard\b|\b(?:many|some) tables\b|\bat a table that\b", re.IGNORECASE)
_FIXED = re.compile(r"\blesson \d+|\b10 or more\b", re.IGNORECASE)


def _sentences(text: str) -> list[str]:
    plain = re.sub(r"[*_`]+", "", text)
    out: list[str] = []
    for paragraph in re.split(r"\n\s*\n|\n\s*\|", plain):
        out.extend(s for s in re.split(r"(?<=[.!?;])\s+", " ".join(paragraph.split())) if s)
    return out


def stale_numbers(lesson: Lesson, table: st.Rules) -> list[str]:
    """Each sentence of the lesson's words, as shown at ``table``, that still gives a standard scoring number.

    A signed number (+71, −100) is a score; an unsigned one counts when it is a standard value of a rule the
    table changes; either is stale when the same words at a standard table show it too. A lesson whose
    numbers are a standard table's, and says so above every step, has none.
    """
    note = table_note(lesson, table) or ""
    if "standard table's" in note:
        return []
    standard = st.Rules.preset(table.name)
    found = []
    for step in lesson.steps:
        for block in step.blocks:
            if not block.shown(lesson, table) or not (block.spec.text_body or block.label):
                continue
            words = block.text_in if block.spec.text_body else block.label_in
            # a number is stale when the words show it at the standard table too: the table changed it,
            # and nothing the engine fills followed
            shown, standard_shown = _sentences(words(lesson, table)), _sentences(words(lesson, standard))
            for i, sentence in enumerate(shown):
                if _ELSEWHERE.search(sentence):
                    continue
                # the same sentence at the standard table (the whole block's words if the sentences differ)
                same = standard_shown[i] if len(shown) == len(standard_shown) else " ".join(standard_shown)
                at_standard = {m.group(0) for m in _NUMBER.finditer(_FIXED.sub(" ", same))}
                stale = [
                    m.group(0)
                    for m in _NUMBER.finditer(_FIXED.sub(" ", sentence))
                    if (m.group(1) or int(m.group(2)) in STANDARD) and m.group(0) in at_standard
                ]
                if stale:
                    found.append(f"{lesson.path.name}:{block.line} {stale}: {sentence}")
    return found


@pytest.mark.parametrize("table", TABLES.values(), ids=TABLES.keys())
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.path.name)
def test_no_lesson_shows_a_standard_number_the_table_changed(lesson: Lesson, table: st.Rules) -> None:
    assert stale_numbers(lesson, table) == []


@pytest.mark.parametrize("table", TABLES.values(), ids=TABLES.keys())
def test_lessons_hold_at_tables_with_every_number_changed(table: st.Rules) -> None:
    for lesson in LESSONS:
        assert validate_lesson(lesson, house=[table.flags()]) == [], lesson.path.name


#: tables at the edges of what Home's builder lets a learner set (``NUMBER_BOUNDS``, ``MERCY_BOUNDS``)
EDGES = [
    {"bag_limit": 1},
    {"bag_limit": 2},
    {"target": 1},
    {"target": 10_000},
    {"min_team_bid": 13},
    {"mercy": -1},
    {"trick_points": 1_000, "nil_value": 0, "bag_penalty": 0},
]


@pytest.mark.parametrize("flags", EDGES, ids=lambda flags: "-".join(f"{k}{v}" for k, v in flags.items()))
def test_lessons_hold_at_the_edges_of_what_a_learner_can_build(flags: dict[str, int]) -> None:
    """A position written near the learner's numbers ({bag limit-1} bags, {target-35} points) is still one
    that can happen at a table of 1 bag, a game to 1 or to 10,000, a least team bid of 13."""
    for lesson in LESSONS:
        assert validate_lesson(lesson, house=[flags]) == [], lesson.path.name


def test_a_lesson_of_standard_numbers_says_so_at_any_other_table() -> None:
    strategy = [lesson for lesson in LESSONS if "standard scoring" in lesson.needs]
    assert {lesson.number for lesson in strategy} >= {13, 14}
    for lesson in strategy:
        assert table_note(lesson, st.Rules.preset("jokers")) is None  # a standard table: nothing to say
        note = table_note(lesson, TABLES["300-five-a-trick"])
        assert note is not None and "game to 300" in note and "5 points a trick bid" in note
        assert "game to 500" in note and "10 points a trick bid" in note


TINY = """# Tiny

summary: One step.

---

## Scoring

A made contract scores {trick points} points for each trick bid. A nil made scores +100.
At a standard table a nil is worth 100. Every 10 bags cost {bag penalty}; lesson 10 says more.

```score
preset: any
bids: N 4, E 3, S 3, W 3
tricks: N 5, E 3, S 2, W 3
label: North–South take 7 on a bid of 7: +70
```
"""


def test_the_check_finds_a_fixed_number_and_passes_a_filled_one() -> None:
    lesson = parse_lesson(TINY, Path("07-tiny.md"))
    stale = stale_numbers(lesson, TABLES["300-five-a-trick"])
    # the fixed nil score, the fixed bag limit and the label's score; not the filled points a trick,
    # the sentence about a standard table, or a lesson's number
    assert [s.split(" ", 2)[1] for s in stale] == ["['+100']:", "['10']:", "['+70']:"]
    assert not any("5 points for each trick" in s or "standard" in s for s in stale)
