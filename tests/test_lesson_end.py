"""A lesson asks before it tells, and ends on a moment of its own.

- What a step says after a question is held until the question is answered (its last try graded):
  until then a line says the explanation follows; a question with nothing after it holds nothing.
- Finishing a lesson (its last step, or its review) shows what it covered, how its questions and its
  review went, the lessons done of all, and a "Next lesson" button that opens the next one; the
  last lesson has no next one; leaving the moment closes its widgets.
- A lesson whose front matter says ``pass: questions`` holds Next (and Finish) until each of a
  step's questions is answered right, even against a click the page sends anyway; after a miss it
  offers another question.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import ipywidgets as w
import pytest
from test_quiz_kinds import answer_through_the_view  # the engine's answer, entered through the view

import spades_tutor as st
from spades_tutor.lessons import LessonError, load_lesson, load_lessons
from spades_tutor.ui.app import App
from spades_tutor.ui.lesson_player import LessonPlayer
from spades_tutor.ui.tree import widget_tree

LESSONS = load_lessons()
RULES = st.Rules.preset("jokers")


def words(widget: w.Widget) -> str:
    """The text of every HTML widget under ``widget``, tags dropped."""
    text = " ".join(re.sub(r"<[^>]+>", " ", x.value) for x in widget_tree([widget]) if isinstance(x, w.HTML))
    return " ".join(html.unescape(text).split())


def step_with_words_after_a_question() -> tuple[int, int]:
    """(lesson index, step) of the first step whose words go on after a question."""
    for li, lesson in enumerate(LESSONS):
        for si in range(len(lesson.steps)):
            player = LessonPlayer(lesson, RULES, step=si, seed=1)
            if any(h.widgets for h in player.held):
                return li, si
    raise AssertionError("no step says anything after a question")


def test_what_follows_a_question_waits_for_the_answer() -> None:
    li, si = step_with_words_after_a_question()
    heard = []
    player = LessonPlayer(LESSONS[li], RULES, step=si, seed=1, on_answer=lambda *a: heard.append(a))
    held = next(h for h in player.held if h.widgets)
    assert held.box.layout.display == "none" and held.line.layout.display != "none"
    assert "the explanation follows" in held.line.value
    after = " ".join(words(x) for x in held.widgets)
    assert after.strip(), "the held part has words"
    view = next(v for v in player.quizzes if v.on_answer is not None)
    answer_through_the_view(view)
    view.check_button.click()
    first = player.held[0]
    assert first.shown and first.line.layout.display == "none"
    assert heard, "the answer is still recorded"
    assert player.answers == [True]


def test_a_question_with_nothing_after_it_holds_nothing() -> None:
    for lesson in LESSONS:
        for si in range(len(lesson.steps)):
            player = LessonPlayer(lesson, RULES, step=si, seed=1)
            for h in player.held:
                assert h.widgets, (lesson.number, si)
                shown = list(widget_tree([player.body]))
                assert h.box in shown and h.line in shown


def test_a_second_try_keeps_the_explanation_held_until_it_is_graded() -> None:
    li, si = step_with_words_after_a_question()
    player = LessonPlayer(LESSONS[li], RULES, step=si, seed=1, retries=1)
    view = player.quizzes[0]
    assert view._choice is not None, "the first such step asks a choice"
    answer_through_the_view(view)
    right = view._choice.value
    view._choice.value = next(o for o in view._choice.options if o != right)
    view.check_button.click()
    assert view.retrying and not player.held[0].shown  # the second try is still to come
    view._choice.value = right
    view.check_button.click()
    assert view.feedback is not None and view.feedback.correct and player.held[0].shown
    assert player.answers == [False]  # right, but on the second try


def test_finishing_a_lesson_shows_what_it_covered_and_opens_the_next(opened: list[App]) -> None:
    app = App(query="lesson=1")
    opened.append(app)
    player = app.learn.player
    assert player is not None
    lesson = player.lesson
    player.go(len(lesson.steps) - 1)
    (player.finish if player.finish.layout.display is None else player.next).click()  # the review skipped
    done = app.learn.done_panel
    assert app.learn.player is None and done is not None
    said = words(done.widget)
    assert f"Lesson {lesson.number} done: {lesson.title}" in said
    for step in lesson.steps:
        assert step.title in said
    assert "1 of " in said and f"of {len(LESSONS)} lessons done" in said
    following = LESSONS[LESSONS.index(lesson) + 1]
    assert done.next_lesson.description == f"Next lesson: {following.number}. {following.title} ▶"
    assert app.progress.lessons[lesson.slug] == len(lesson.steps) - 1
    assert app.landmarks.title.startswith("Learn")
    panel = done.widget
    done.next_lesson.click()
    assert app.learn.player is not None and app.learn.player.lesson.number == following.number
    assert app.learn.done_panel is None and panel.comm is None  # its widgets closed


def test_the_last_lesson_ends_without_a_next_one_and_the_list_is_a_button_away(opened: list[App]) -> None:
    last = LESSONS[-1]
    app = App(query=f"lesson={last.number}")
    opened.append(app)
    app.learn.finished(last)
    done = app.learn.done_panel
    assert done is not None and done.next_lesson.layout.display == "none"
    done.all_lessons.click()
    assert app.learn.done_panel is None and app.learn.widget.children == (app.learn.list_box,)
    assert app.learn._list_buttons[-1].description.endswith("✓")


def test_the_lesson_end_says_how_its_questions_went(opened: list[App]) -> None:
    li, si = step_with_words_after_a_question()
    lesson = LESSONS[li]
    app = App(query=f"lesson={lesson.number}&step={si + 1}")
    opened.append(app)
    player = app.learn.player
    assert player is not None and player.step == si
    view = player.quizzes[0]
    answer_through_the_view(view)
    view.check_button.click()
    app.learn.finished(lesson)
    done = app.learn.done_panel
    assert done is not None
    assert "Its questions: 1 of 1 right on the first try." in words(done.widget)
    assert [a.source for a in app.progress.answers] == ["lesson"]  # recorded as before


def test_a_lesson_that_asks_its_questions_passed_holds_next_until_they_are() -> None:
    (lesson,) = [x for x in LESSONS if x.must_pass]
    assert lesson.number == 12  # the renege: `pass: questions` in its front matter
    si = next(i for i, step in enumerate(lesson.steps) if any(b.kind == "quiz" for b in step.blocks))
    player = LessonPlayer(lesson, RULES, step=si, seed=1)
    assert player.next.disabled and player.gate.value and "right to go on" in player.gate.value
    player.next.click()  # a click the page sends anyway (a hostile page may): nothing moves
    assert player.step == si and player.next.disabled
    view = player.quizzes[0]
    legal = {str(c) for c in view.item.answer()}
    assert view.picker is not None
    view.picker.selected = [str(c) for c in view.item.hand if str(c) not in legal][:1]  # an illegal card
    view.check_button.click()
    assert view.feedback is not None and not view.feedback.correct
    assert player.next.disabled and "try another question" in player.gate.value
    assert player.again.layout.display is None  # "Another question" offered
    player.again.click()
    view = player.quizzes[0]
    assert view.feedback is None and player.again.layout.display == "none"
    answer_through_the_view(view)
    view.check_button.click()
    assert not player.next.disabled and player.gate.layout.display == "none"
    player.next.click()
    assert player.step == si + 1


def test_a_lesson_that_does_not_ask_lets_next_go_on_without_an_answer() -> None:
    lesson = LESSONS[0]
    player = LessonPlayer(lesson, RULES, step=len(lesson.steps) - 2, seed=1)
    assert not lesson.must_pass and not player.next.disabled and player.gate.layout.display == "none"


def test_pass_takes_only_questions(tmp_path: Path) -> None:
    path = tmp_path / "01-x.md"
    path.write_text("# X\n\npass: everything\n\n---\n\n## One\n\nWords.\n")
    with pytest.raises(LessonError, match=r"pass: takes only `questions`"):
        load_lesson(path)
