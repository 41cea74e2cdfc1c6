"""The list of lessons: built when first shown, once, its marks kept up to date.

Every widget open in a kernel is sent to the page when it connects, so a lesson link (how a class
usually arrives) should not build a list it never shows, and going back to the list should not pile
up copies of it.
"""

from __future__ import annotations

from ipywidgets.widgets.widget import _instances

from spades_tutor.ui.app import App


def new_app(opened: list[App], query: str = "") -> App:
    app = App(query=query)
    opened.append(app)
    return app


def list_buttons(app: App) -> list[str]:
    """The descriptions of the lesson buttons open in the kernel (built for any app)."""
    return [
        x.description
        for x in list(_instances.values())
        if "st-lesson-button" in getattr(x, "_dom_classes", ()) and x in app.learn._list_buttons
    ]


def test_a_lesson_link_opens_the_lesson_without_building_the_list(opened: list[App]) -> None:
    app = new_app(opened, "lesson=2&step=2")
    assert app.nav.value == "Learn" and app.learn.player is not None
    assert (app.learn.player.lesson.number, app.learn.player.step) == (2, 1)
    assert app.learn._list_buttons == []
    opened = {id(x) for x in _instances.values()}
    app.learn.back.click()  # ◀ All lessons: now the list is built, once
    assert app.learn.player is None and app.learn.widget.children == (app.learn.list_box,)
    built = [x for x in _instances.values() if id(x) not in opened]
    assert len(app.learn._list_buttons) == len(app.learn.lessons) and built


def test_going_back_to_the_list_makes_no_new_widget_and_marks_a_finished_lesson(opened: list[App]) -> None:
    app = new_app(opened)
    app.nav.value = "Learn"
    first = list_buttons(app)
    assert len(first) == len(app.learn.lessons) and not any("✓" in d for d in first)
    count = len(_instances)
    lesson = app.learn.lessons[0]
    app.learn._list_buttons[0].click()  # open lesson 0, then finish it: its end, then the list
    app.learn.finished(lesson)
    assert app.learn.done_panel is not None
    app.nav.value = "Home"
    app.nav.value = "Learn"
    assert app.learn.done_panel is not None  # coming back to Learn finds the lesson's end still there
    app.learn.done_panel.all_lessons.click()
    after_lesson_closed = len(_instances)
    app.nav.value = "Home"
    app.nav.value = "Learn"
    app.learn.show_list()
    assert len(_instances) == after_lesson_closed, "the list was built again"
    assert after_lesson_closed >= count
    marks = list_buttons(app)
    assert marks[0].endswith("✓") and not any(d.endswith("✓") for d in marks[1:])
