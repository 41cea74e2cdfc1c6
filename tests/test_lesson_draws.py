"""A lesson's generated quiz is drawn fresh on each visit, from a seed the player owns, and says
which question it is so that it can be drawn again."""

from __future__ import annotations

import re

from test_lesson_rule_sets import in_order  # the step's widgets in reading order

import spades_tutor as st
from spades_tutor.lessons import load_lessons
from spades_tutor.quiz import generate
from spades_tutor.ui.lesson_player import LessonPlayer

JOKERS = st.Rules.preset("jokers")


def generated_step(slug: str) -> tuple[object, int]:
    lesson = next(lesson for lesson in load_lessons() if lesson.slug == slug)
    step = next(i for i, s in enumerate(lesson.steps) if any(b.kind == "quiz" and b.generated for b in s.blocks))
    return lesson, step


def shown_question(player: LessonPlayer) -> tuple[int, dict[str, object]]:
    """The "Question N" the step shows under its last generated quiz, and that quiz's position."""
    view = player.quizzes[-1]
    notes = [c.value for c in in_order(player.body) if "st-quiz-seed" in str(getattr(c, "value", ""))]
    found = re.search(r"Question (\d+)", notes[-1])
    assert found is not None
    return int(found.group(1)), view.item.to_dict()


def test_each_visit_to_a_step_draws_a_new_generated_quiz() -> None:
    lesson, step = generated_step("trump-order")
    player = LessonPlayer(lesson, JOKERS, step=step, seed=7)  # type: ignore[arg-type]
    first, item = shown_question(player)
    assert item["seed"] == first
    player.go(step - 1)
    player.go(step)
    second, again = shown_question(player)
    assert second != first and again["seed"] == second and again["choices"] != item["choices"]
    # the block's own seed: no longer the quiz every visit shows
    block = next(b for b in lesson.steps[step].blocks if b.kind == "quiz" and b.generated)  # type: ignore[attr-defined]
    assert first != block.value(lesson, "seed")


def test_the_same_player_seed_draws_the_same_questions_and_the_number_shown_draws_it_again() -> None:
    lesson, step = generated_step("who-wins-a-trick")
    one = LessonPlayer(lesson, JOKERS, step=step, seed=11)  # type: ignore[arg-type]
    two = LessonPlayer(lesson, JOKERS, step=step, seed=11)  # type: ignore[arg-type]
    assert shown_question(one) == shown_question(two)
    other = LessonPlayer(lesson, JOKERS, step=step, seed=12)  # type: ignore[arg-type]
    assert shown_question(other)[0] != shown_question(one)[0]
    numbers = [
        int(re.findall(r"Question (\d+)", c.value)[0])
        for c in in_order(one.body)
        if "st-quiz-seed" in str(getattr(c, "value", ""))
    ]
    assert len(numbers) == len(set(numbers)) == 2  # two generated quizzes on the step, each its own draw
    number, item = shown_question(one)
    assert generate(str(item["kind"]), JOKERS, number, int(item["difficulty"])).to_dict() == item  # type: ignore[call-overload]


def test_a_stated_quiz_is_the_same_on_every_visit() -> None:
    lesson, step = generated_step("trump-order")
    player = LessonPlayer(lesson, JOKERS, step=step, seed=3)  # type: ignore[arg-type]
    stated = [v.item.to_dict() for v in player.quizzes if v.item.seed is None]
    player.go(step - 1)
    player.go(step)
    assert stated and [v.item.to_dict() for v in player.quizzes if v.item.seed is None] == stated
