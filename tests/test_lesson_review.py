"""A lesson's closing review: three mixed questions of the kinds the lesson taught, drawn by mastery."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from test_quiz_kinds import answer_through_the_view  # the engine's answer, entered through the view

import spades_tutor as st
from spades_tutor.lessons import Lesson, load_lessons
from spades_tutor.lessons.review import REVIEW_QUESTIONS, review_kinds, review_question, review_reason
from spades_tutor.quiz import kinds as kinds_registry
from spades_tutor.quiz.mastery import mastery
from spades_tutor.session.progress import Answer
from spades_tutor.ui import errors
from spades_tutor.ui.app import App
from spades_tutor.ui.lesson_player import LessonPlayer
from spades_tutor.ui.lesson_review import ReviewView

JOKERS = st.Rules.preset("jokers")
LESSONS = load_lessons()


def taught(lesson: Lesson) -> set[str]:
    """The kinds of the lesson's quiz blocks, read straight from its blocks."""
    return {b.quiz_kind for step in lesson.steps for b in step.blocks if b.kind == "quiz" and b.quiz_kind}


def said(kind: str, right: bool, level: int = 1, n: int = 0, source: str = "lesson") -> Answer:
    return Answer(0.0, kind, "jokers", f"{kind}:jokers:{n}/{level}", right, source)


@pytest.fixture
def app() -> Iterator[App]:
    a = App()
    yield a
    errors.remove_sink(a.show_error)


def at_last_step(lesson: Lesson, **options: object) -> LessonPlayer:
    return LessonPlayer(lesson, JOKERS, step=len(lesson.steps) - 1, seed=5, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda x: x.slug)
def test_every_lesson_with_quiz_kinds_ends_with_a_review_of_those_kinds_only(lesson: Lesson) -> None:
    kinds = taught(lesson)
    assert kinds, "every lesson file asks at least one quiz"
    assert set(review_kinds(lesson, JOKERS)) == kinds
    player = at_last_step(lesson)
    assert player.next.description == "Review ▶" and player.finish.layout.display is None
    player.next.click()
    assert player.reviewing and player.review is not None and player.step == len(lesson.steps) - 1
    assert player.body.children == (player.review.widget,)
    assert "Review after step" in player.where.value and player.next.description == "Finish ✓"
    review = player.review
    for number in range(1, REVIEW_QUESTIONS + 1):
        q = review.questions[-1]
        assert q.number == number and review.view.item.kind in kinds
        assert review.view.item.to_dict() == q.item(JOKERS).to_dict()  # drawn again from what the line says
        assert f"Review question {number} of {REVIEW_QUESTIONS} · " in review.where.value
        assert review.where.value.endswith(f" · question {q.seed}</div>")
        answer_through_the_view(review.view)
        assert review.view.check() is not None
        if number < REVIEW_QUESTIONS:
            assert not review.next_button.disabled
            review.next_button.click()
    assert len({id(v) for v in review.views}) == REVIEW_QUESTIONS
    assert f"Review done: {REVIEW_QUESTIONS} of {REVIEW_QUESTIONS} right on the first try." in review.score.value


def test_the_review_draws_only_the_lessons_kinds_whatever_the_answers_and_seed() -> None:
    kinds = ("trick-winner", "first-leader")
    others = [
        said(k, right, n=n) for n, k in enumerate(("score", "legal-plays", "nil-safe")) for right in (True, False)
    ]
    histories = [[], others, [*others, said("trick-winner", True)], [said("first-leader", False), *others]]
    for history in histories:
        for seed in range(40):
            for number in range(1, REVIEW_QUESTIONS + 1):
                assert review_question(history, seed, kinds, number).kind in kinds


def test_the_review_is_the_same_for_the_same_answers_and_seed_and_differs_with_the_seed() -> None:
    lesson = next(x for x in LESSONS if x.number == 10)  # three kinds taught
    kinds = review_kinds(lesson, JOKERS)
    history = [said("trick-winner", True, n=1), said("legal-plays", True, n=2)]

    def drawn(seed: int) -> list[tuple[str, int, str]]:
        view = ReviewView(JOKERS, kinds, history, seed)
        for _ in range(REVIEW_QUESTIONS):
            answer_through_the_view(view.view)
            view.view.check()
            view.ask()
        return [(q.kind, q.level, v.item.key) for q, v in zip(view.questions, view.views, strict=True)]

    assert drawn(3) == drawn(3)
    assert len({tuple(drawn(seed)) for seed in range(8)}) > 1
    assert history == [said("trick-winner", True, n=1), said("legal-plays", True, n=2)]  # the caller's list is kept


def test_a_kind_missed_last_comes_first_and_the_step_says_why() -> None:
    kinds = ("trick-winner", "first-leader")
    for missed, other in (("trick-winner", "first-leader"), ("first-leader", "trick-winner")):
        # the other kind is due too (right once, then another answer since): the missed one still comes first
        history = [said(other, True, n=1), said(missed, False, n=9)]
        assert mastery(history, kinds)[other].due
        assert {review_question(history, seed, kinds, 1).kind for seed in range(30)} == {missed}
        reason = review_reason(history, kinds)
        title = kinds_registry.get(missed).title
        assert f"You missed “{title}” last time, so it comes first." in reason
    assert "None of them answered yet" in review_reason([], kinds)


def test_the_review_asks_each_kind_at_the_level_mastery_says() -> None:
    history = [said("score", True, n=n) for n in range(3)]  # three right first tries: Medium reached
    assert mastery(history, ("score",))["score"].level == 2
    kinds = ("score", "game-winner")
    view = ReviewView(JOKERS, kinds, history, seed=2)
    for _ in range(REVIEW_QUESTIONS):
        q = view.questions[-1]
        assert q.level == mastery(view.history, kinds)[q.kind].level == view.view.item.difficulty
        answer_through_the_view(view.view)
        view.view.check()
        view.ask()
    only = ReviewView(JOKERS, ("score",), history, seed=2)
    for _ in range(REVIEW_QUESTIONS):
        answer_through_the_view(only.view)
        only.view.check()
        only.ask()
    assert [q.level for q in only.questions] == [2, 2, 2]  # two more right at Medium: not yet a run


def test_the_reviews_answers_are_recorded_as_review_and_the_lesson_is_done_as_before(app: App) -> None:
    lesson = next(x for x in LESSONS if x.number == 5)
    app.progress.record("trick-winner", "jokers", "trick-winner:jokers:3/1", False, source="lesson")
    app.learn.open(lesson, len(lesson.steps) - 1)
    player = app.learn.player
    assert player is not None and app.progress.lessons[lesson.slug] == len(lesson.steps) - 1  # done already
    player.next.click()
    review = player.review
    assert review is not None and review.questions[0].kind == "trick-winner"  # the kind missed first
    assert "You missed “Who wins the trick?” last time" in review.reason.value
    for _ in range(REVIEW_QUESTIONS):
        answer_through_the_view(review.view)
        review.view.check_button.click()
        review.next_button.click()
    assert [a.source for a in app.progress.answers] == ["lesson"] + ["review"] * REVIEW_QUESTIONS
    assert [a.item for a in app.progress.answers[1:]] == [v.item.key for v in review.views]
    assert app.progress.only("review").first_try == REVIEW_QUESTIONS
    assert "review" in app.progress.to_csv().splitlines()[-1]
    player.next.click()  # Finish: the lesson's end, with the review's score, then the list, the lesson marked done
    assert app.learn.player is None and app.learn.done_panel is not None
    assert f"The review: {REVIEW_QUESTIONS} of {REVIEW_QUESTIONS} right on the first try." in (
        app.learn.done_panel.body.value
    )
    app.learn.done_panel.all_lessons.click()
    assert any(
        b.description.endswith("✓") and b.description.startswith("5.") for b in app.learn.list_box.children[1].children
    )


def test_the_review_is_offered_not_forced_and_back_returns_to_the_last_step(app: App) -> None:
    lesson = next(x for x in LESSONS if x.number == 3)
    app.learn.open(lesson, len(lesson.steps) - 1)
    player = app.learn.player
    assert player is not None
    player.next.click()
    assert player.reviewing
    player.back.click()
    assert not player.reviewing and player.step == len(lesson.steps) - 1 and player.next.description == "Review ▶"
    player.finish.click()  # Finish beside "Review ▶": the list, no answer asked for
    assert app.learn.player is None and app.progress.answered == 0
    assert app.progress.lessons[lesson.slug] == len(lesson.steps) - 1


def test_a_lesson_with_no_quiz_reviews_the_lesson_before_and_the_first_has_none() -> None:
    first, second = LESSONS[0], LESSONS[1]
    bare = [
        dataclasses.replace(x, steps=tuple(dataclasses.replace(s, blocks=()) for s in x.steps)) for x in (first, second)
    ]
    assert review_kinds(bare[1], JOKERS, [first, bare[1]]) == review_kinds(first, JOKERS)
    assert review_kinds(bare[0], JOKERS, [bare[0], *LESSONS[1:]]) == ()
    player = at_last_step(bare[0])
    assert player.next.description == "Finish ✓" and player.finish.layout.display == "none"
    finished: list[Lesson] = []
    player.on_finish = finished.append
    player.next.click()
    assert finished == [bare[0]] and not player.reviewing


def test_a_rule_set_that_offers_none_of_the_kinds_has_no_review_and_a_change_redraws_it() -> None:
    nil_lesson = next(x for x in LESSONS if taught(x) == {"nil-safe"})
    no_nil = st.Rules.preset("jokers", nil=False)
    assert review_kinds(nil_lesson, JOKERS) == ("nil-safe",) and review_kinds(nil_lesson, no_nil) == ()
    player = at_last_step(nil_lesson)
    player.next.click()
    assert player.reviewing
    player.set_rules(no_nil)  # nothing left to review: the last step again
    assert not player.reviewing and player.next.description == "Finish ✓"
    lesson = next(x for x in LESSONS if x.number == 5)
    player = at_last_step(lesson)
    player.next.click()
    first = player.review
    player.set_rules(JOKERS, four_colour=False, large=False, retries=0)  # the same settings: the same review
    assert player.review is first
    player.set_rules(st.Rules.preset("classic"))
    assert player.reviewing and player.review is not None and player.review.view.item.rules.name == "classic"


def test_the_notebook_player_offers_the_review_with_no_stored_answers() -> None:
    from spades_tutor.ui.notebook import lesson_player

    player = lesson_player(8)
    player.go(len(player.lesson.steps) - 1)
    player.next.click()
    review = player.review
    assert player.reviewing and review is not None and review.view.item.kind in taught(player.lesson)
    assert review.history == []  # no stored answers in a notebook: the review is drawn from its own
    answer_through_the_view(review.view)
    review.view.check_button.click()
    assert [a.source for a in review.history] == ["review"]


def test_a_kind_due_for_review_today_comes_first_after_the_misses_and_once() -> None:
    """A lesson's quiz is scheduled as the kinds it asks: a kind due today is asked first (a kind missed
    last still before it), once; then the draw by mastery goes on."""
    kinds = ("trick-winner", "first-leader")
    history = [said("trick-winner", True, n=1), said("first-leader", True, n=2)]
    for due in kinds:
        assert {review_question(history, seed, kinds, 1, due=[due]).kind for seed in range(30)} == {due}
        title = kinds_registry.get(due).title
        assert f"“{title}” is due for review today, so it comes first." in review_reason(history, kinds, [due])
    missed = [*history, said("trick-winner", False, n=3)]
    assert {review_question(missed, seed, kinds, 1, due=["first-leader"]).kind for seed in range(30)} == {
        "trick-winner"
    }
    assert "You missed “Who wins the trick?” last time" in review_reason(missed, kinds, ["first-leader"])
    seconds = set()
    for seed in range(8):
        view = ReviewView(
            JOKERS, kinds, history, seed=seed, due=["first-leader", "score"]
        )  # not this review's: left out
        assert view.due == ("first-leader",) and view.questions[0].kind == "first-leader"
        answer_through_the_view(view.view)
        view.view.check()
        view.ask()
        seconds.add(view.questions[1].kind)
    assert "trick-winner" in seconds  # asked once, right: the next questions are drawn by mastery as before


def test_the_lesson_s_review_asks_the_kind_due_on_the_learner_s_clock_first(app: App) -> None:
    import time

    lesson = next(x for x in LESSONS if x.number == 5)
    old = time.time() - 10 * 86_400
    app.progress.record("trick-winner", "jokers", "trick-winner:jokers:3/1", True, when=old, source="lesson")
    app.progress.record("first-leader", "jokers", "first-leader:jokers:3/1", True, when=old + 60, source="lesson")
    app.progress.record("trick-winner", "jokers", "trick-winner:jokers:4/1", True, source="lesson")  # today
    app.learn.open(lesson, len(lesson.steps) - 1)
    player = app.learn.player
    assert player is not None
    player.next.click()
    review = player.review
    assert review is not None and review.due == ("first-leader",)
    assert review.questions[0].kind == "first-leader"
    assert "“Who leads?” is due for review today, so it comes first." in review.reason.value
