"""A reload reopens the page the learner was on: the place is kept in the browser next to the progress."""

from __future__ import annotations

import json

import pytest

from spades_tutor.ui.app import App
from spades_tutor.ui.storage import Place


def new_app(query: str = "") -> App:
    return App(query=query)


def reload(opened: list[App], stored: str, query: str = "") -> App:
    """A new kernel's app, to which the page sends what it had stored (as storage.js does)."""
    app = App(query=query)
    opened.append(app)
    app.place_store.value = stored
    app.place_store.loaded = True
    return app


def test_the_page_shown_is_kept_once_the_browser_sent_the_stored_place(opened: list[App]) -> None:
    app = reload(opened, "")
    assert app.nav.value == "Home" and Place.from_json(app.place_store.value) == Place("Home")
    app.nav.value = "Play"
    assert Place.from_json(app.place_store.value) == Place("Play")


def test_nothing_is_written_before_the_browser_sent_the_stored_place(opened: list[App]) -> None:
    app = App()
    opened.append(app)
    app.nav.value = "Quiz yourself"
    assert app.place_store.value == ""  # else the stored place would be lost before it arrives


def test_a_reload_reopens_play(opened: list[App]) -> None:
    before = reload(opened, "")
    before.nav.value = "Play"
    after = reload(opened, before.place_store.value)
    assert after.nav.value == "Play" and after.page.children == (after.play.widget,)


def test_a_reload_reopens_the_lesson_step(opened: list[App]) -> None:
    before = reload(opened, "")
    before.nav.value = "Learn"
    lesson = next(x for x in before.learn.lessons if x.number == 3)
    before.learn.open(lesson)
    before.learn.player.go(1)
    assert json.loads(before.place_store.value) == {"page": "Learn", "lesson": 3, "step": 1}
    after = reload(opened, before.place_store.value)
    assert after.nav.value == "Learn"
    assert after.learn.player is not None
    assert (after.learn.player.lesson.number, after.learn.player.step) == (3, 1)


def test_reopening_a_lesson_step_stores_no_place_in_between(opened: list[App]) -> None:
    """The page writes every place the kernel stores; a page closed or reloaded again halfway through
    the reopening must still hold the lesson step, not "Learn" without its lesson."""
    stored = json.dumps({"page": "Learn", "lesson": 3, "step": 1})
    app = App()
    opened.append(app)
    app.place_store.value = stored
    written: list[str] = []
    app.place_store.observe(lambda change: written.append(change["new"]), names="value")
    app.place_store.loaded = True
    assert (app.learn.player.lesson.number, app.learn.player.step) == (3, 1)  # type: ignore[union-attr]
    assert [json.loads(v) for v in written] in ([], [json.loads(stored)]), written
    assert app.learn._list_buttons == [], "the list of lessons was built to be hidden at once"


def test_back_to_the_lesson_list_is_remembered_as_the_list(opened: list[App]) -> None:
    app = reload(opened, Place("Learn", 3, 1).to_json())
    app.learn.back.click()
    assert Place.from_json(app.place_store.value) == Place("Learn")


def test_a_link_that_names_a_page_wins_over_the_stored_place(opened: list[App]) -> None:
    app = reload(opened, Place("Play").to_json(), query="lesson=2&step=1")
    assert app.nav.value == "Learn" and app.learn.player.lesson.number == 2
    assert json.loads(app.place_store.value)["lesson"] == 2
    # a link that only picks a rule set still reopens the page
    app = reload(opened, Place("Play").to_json(), query="preset=classic")
    assert app.nav.value == "Play"


@pytest.mark.parametrize(
    "stored",
    [
        "not json",
        "[]",
        '{"page": "Admin"}',
        '{"page": ["Learn"]}',
        '{"page": "Learn", "lesson": 1e300, "step": -1}',
        '{"page": "Learn", "lesson": true}',
        '{"page": "Learn", "lesson": 99, "step": 2}',
        '{"page": "Learn", "lesson": 3, "step": 10000}',
        '{"page": "Learn", "lesson": 3, "step": 999}',
        "[" * 100_000,
    ],
)
def test_a_damaged_stored_place_opens_a_sensible_page(opened: list[App], stored: str) -> None:
    app = reload(opened, stored)
    assert app.nav.value in ("Home", "Learn")
    if app.learn.player is not None:  # a step past the end: the last step; a huge one: the first
        assert app.learn.player.step == (0 if "10000" in stored else len(app.learn.player.lesson.steps) - 1)
    assert Place.from_json(app.place_store.value) is not None


def test_a_reload_of_a_lesson_link_reopens_the_step_the_learner_was_on(opened: list[App]) -> None:
    """The kernel died on step 3 of a lesson opened by ``?lesson=3``: the Reload opens step 3 again, not step 1."""
    before = reload(opened, "", query="lesson=3")
    before.learn.player.go(2)
    assert Place.from_json(before.place_store.value) == Place("Learn", 3, 2)
    after = reload(opened, before.place_store.value, query="lesson=3")
    assert (after.learn.player.lesson.number, after.learn.player.step) == (3, 2)
    assert Place.from_json(after.place_store.value) == Place("Learn", 3, 2)


def test_a_reloaded_link_to_a_lesson_step_reopens_the_step_the_learner_moved_on_to(opened: list[App]) -> None:
    stored = Place("Learn", 3, 3).to_json()
    app = App(query="lesson=3&step=2")
    opened.append(app)
    app.place_store.value = stored
    app.place_store.reloaded = True  # as storage.js says after the browser's (or the lost connection's) Reload
    app.place_store.loaded = True
    assert app.learn.player.step == 3
    # opened afresh, the link's step is shown; and a link to another lesson opens that lesson's first step
    assert reload(opened, stored, query="lesson=3&step=2").learn.player.step == 1
    other = reload(opened, stored, query="lesson=2")
    assert (other.learn.player.lesson.number, other.learn.player.step) == (2, 0)
