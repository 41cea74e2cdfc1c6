"""The teacher view the hub serves (spades_tutor.hub_teacher): what it draws of a class session.

tests/browser/test_hub.py opens it for real through a local hub's OAuth."""

from __future__ import annotations

from pathlib import Path

from spades_tutor.hub_teacher import render, teachers
from spades_tutor.lessons import load_lessons
from spades_tutor.session.class_store import ClassStore


def test_the_page_shows_every_learner_and_the_rooms_answers(tmp_path: Path) -> None:
    store = ClassStore(f"sqlite:///{tmp_path / 'class.sqlite'}")
    session = store.start_session("hub")
    lessons = load_lessons()
    lesson = lessons[0].number
    assert "No learner has joined yet" in render(store, session, lessons)
    for nickname, said in (("Ana", "North"), ("Ben & co", "East")):
        learner = store.join(session, nickname)
        store.reach(learner.id, lesson, 2)
        store.record(session, learner.id, lesson=lesson, step=2, kind="seat", item_key="q", answer=said,
                     right_answer="North", correct=said == "North", attempt=1)  # fmt: skip
    page = render(store, session, lessons)
    assert "2 learners joined · 2 answers" in page
    assert "Ana" in page and "Ben &amp; co" in page and "Ben & co" not in page
    assert page.count("st-cell-first") == 1 and page.count("st-cell-missed") == 1
    assert "2 answers to step 3" in page and "hidden until you reveal" in page
    store.set_state(session, anonymous=True)
    assert "Ana" not in render(store, session, lessons)
    store.close()


def test_the_teachers_are_a_list_of_names() -> None:
    assert teachers(" tess, tom,, ") == {"tess", "tom"}
    assert teachers("") == frozenset()
