"""Statements a learner read that were false at some tables, each as shown at the table picked.

Lessons, glossary entries and the lesson list's summaries are read as the player and
the app show them, under the presets and a house-rule table (no nil, blind nil for
anyone, mercy at −200).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import spades_tutor as st
from spades_tutor.lessons import load_lessons
from spades_tutor.lessons.claims import contradictions
from spades_tutor.lessons.glossary import load_glossary
from spades_tutor.ui.lesson_player import LessonPlayer

sys.path.insert(0, str(Path(__file__).parent))
from test_lesson_rule_sets import notes, shown_text

LESSONS = {lesson.number: lesson for lesson in load_lessons()}
PRESETS = st.Rules.preset_names()
JOKER_PRESETS = tuple(n for n in PRESETS if st.Rules.preset(n).jokers)
HOUSE = st.Rules.preset("jokers", nil=False, blind_nil="always", mercy=-200)


def step_text(number: int, title: str, rules: st.Rules) -> str:
    lesson = LESSONS[number]
    step = next(i for i, s in enumerate(lesson.steps) if s.title == title)
    return shown_text(LessonPlayer(lesson, rules, step=step).body)


@pytest.mark.parametrize("name", JOKER_PRESETS)
def test_lesson_6_counts_the_little_joker_beside_the_ace_and_king_as_the_engine_does(name: str) -> None:
    rules = st.Rules.preset(name)
    text = step_text(6, "Count your sure tricks", rules)
    sure = st.sure_trick_count(rules, st.cards("LJ AS KS"))  # 2 with the jokers, 1 or 0 where twos rank high
    if sure != 2:
        assert "it is sure of two" not in text and "can take only one of the three" not in text
    assert "In Spades with Jokers only the big joker does, so two are sure" in text
    assert st.sure_trick_count(st.Rules.preset("jokers"), st.cards("LJ AS KS")) == 2


def test_lesson_6_names_no_step_for_a_rule_only_some_tables_play() -> None:
    titles = [step.title for step in LESSONS[6].steps]
    assert not any("not a sure trick here" in t for t in titles)  # false at a Regular Spades table
    assert "The ace of spades in regular Spades and in Spades with Jokers" in titles


def test_a_bid_at_a_table_without_nil_is_a_number_or_the_blind_nil_it_plays() -> None:
    glossary = load_glossary()
    no_nil = st.Rules.preset("jokers", nil=False)
    assert "nil" not in glossary.term("Bid").definition(no_nil).split("(")[0]
    assert glossary.term("Bid").definition(HOUSE).endswith("1 to 13, or blind nil (this table plays without nil).")
    assert glossary.term("Bid").definition(st.Rules.preset("jokers")).endswith("1 to 13, or nil.")
    text = step_text(6, "Everyone bids", no_nil)
    assert "A bid is 1 to 13 (this table plays without nil)" in text and "or nil" not in text


def test_blind_nil_is_allowed_where_the_table_plays_it_whether_or_not_it_plays_nil() -> None:
    glossary = load_glossary()
    said = glossary.term("Blind nil").definition(HOUSE)
    assert "without blind nil" not in said and "This table allows it to any player." in said
    # the engine agrees: a blind nil may be bid at that table
    rnd = st.Round.deal(HOUSE, seed=1)
    assert rnd.why_bid_illegal(st.BLIND_NIL) is None
    assert "This table plays without blind nil." in glossary.term("Blind nil").definition(st.Rules.preset("jokers"))
    assert "This table plays without nil." in glossary.term("Nil").definition(HOUSE)


def test_lesson_7_at_a_table_without_nil_says_so_on_every_step() -> None:
    lesson = LESSONS[7]
    note = "Your table plays without nil: this lesson shows nil as the tables that allow it play it."
    for i in range(len(lesson.steps)):
        assert notes(LessonPlayer(lesson, HOUSE, step=i))[0] == note
        assert note not in notes(LessonPlayer(lesson, st.Rules.preset("jokers"), step=i))
    assert "This table allows it to any player." in step_text(7, "Blind nil", HOUSE)


@pytest.mark.parametrize("name", [*PRESETS, "house"])
def test_the_lesson_list_summaries_hold_at_the_table_picked(name: str) -> None:
    rules = HOUSE if name == "house" else st.Rules.preset(name)
    for lesson in LESSONS.values():
        summary = lesson.summary_in(rules)
        assert "{" not in summary
        assert contradictions(summary, rules) == [], (lesson.number, summary)
    assert LESSONS[2].summary_in(rules).startswith(f"{len(rules.trump_order())} trumps, highest first: ")
    one = LESSONS[1].summary_in(rules)
    assert ("jokers come in" in one) == rules.jokers
    seven = LESSONS[7].summary_in(rules)
    assert ("big joker" in seven) == rules.jokers and f"+{rules.nil_value} if you take none" in seven


def test_the_lesson_list_shows_the_summaries_of_the_table_picked() -> None:
    from spades_tutor.ui.app import App

    app = App()
    app.learn.show_list()
    buttons = app.learn._list_buttons
    assert buttons[2].tooltip.startswith("15 trumps, highest first: the big joker")
    app.picker.preset.value = "classic"
    assert buttons[2].tooltip.startswith("13 trumps, highest first: the ace of spades")
    assert "jokers come in" not in buttons[1].tooltip
