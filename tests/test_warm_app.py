"""The app built before its learner arrives: ``App()`` and ``warm_up()`` in a preheated kernel, then
``open_link(query)`` once the request has come, open the same page as ``App(query=...)`` does.

The lessons and step counts come from the lesson files and the rule sets from the engine: the test
never lists them itself.
"""

from __future__ import annotations

import dataclasses
from typing import Any
from urllib.parse import quote

import ipywidgets as w
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst
from ipywidgets.widgets import widget as widget_module

import spades_tutor as st
from spades_tutor.lessons import load_lessons
from spades_tutor.ui.app import LINK_KEYS, LINK_PAGES, App

LESSONS = {lesson.number: len(lesson.steps) for lesson in load_lessons()}


def warm_then_linked(opened: list[App], query: str) -> App:
    """What the preheated kernel does: the app and its warm-up before the request, the link after it."""
    app = App()
    app.warm_up()
    opened.append(app)
    app.open_link(query)
    return app


def built_with(opened: list[App], query: str) -> App:
    app = App(query=query)
    opened.append(app)
    return app


def shown(app: App) -> dict[str, Any]:
    """Everything a link decides, as the learner sees it: page, lesson and step, rules, deal, notes."""
    player = app.learn.player if app.nav.value == "Learn" else None
    return {
        "link": app.link,
        "page": app.nav.value,
        "page widget": type(app.page.children[0]).__name__ if app.page.children else None,
        "lesson": None if player is None else (player.lesson.number, player.step),
        "settings": dataclasses.asdict(app.settings),
        "picker": (app.picker.preset.value, app.picker.summary.value),
        "deal": app.projector.hand.deal_id if app.nav.value == "Classroom" else None,
        "title": app.landmarks.title,
        "notes": [row.children[0].value for row in app.notes.children],
        "error": list(app.error.children),
    }


LINKS = [
    "",
    "lesson=3&step=2&preset=deuces-high",
    "lesson=1",
    "lesson=0&step=1",
    "page=quiz",
    "page=glossary&preset=classic",
    "page=progress",
    "deal=4127W",
    "deal=4127&preset=bicycle",
    # links the app reads only in part, each with its notes
    "lesson=99&preset=nope",
    "lesson=x&page=quiz",
    "lesson=3&step=999",
    "step=2",
    "deal=zzz",
    "page=plya&preset=Deuces_High",
    "preset=deuces-hihg&evil=1&code=K7M2QX",
    "page=nowhere&lesson=2",
    "lesson=" + "9" * 600,
]


@pytest.mark.parametrize("query", LINKS)
def test_a_link_applied_to_the_warm_app_opens_what_the_app_built_for_it_opens(opened: list[App], query: str) -> None:
    assert shown(warm_then_linked(opened, query)) == shown(built_with(opened, query))


def test_the_warm_app_opens_the_linked_lesson_step_in_the_linked_rule_set_and_says_what_it_left_out(
    opened: list[App],
) -> None:
    app = warm_then_linked(opened, "lesson=3&step=2&preset=deuces-high&evil=1")
    assert app.nav.value == "Learn"
    assert (app.learn.player.lesson.number, app.learn.player.step) == (3, 1)
    assert app.rules == st.Rules.preset("deuces-high") and app.picker.preset.value == "deuces-high"
    assert app.learn.player.rules == app.rules
    assert "'evil'" in " ".join(row.children[0].value for row in app.notes.children)


def test_a_link_rule_set_is_not_taken_for_the_learners_choice(opened: list[App]) -> None:
    """The saved settings arrive after the link: the link's rule set wins over the saved one, nothing else."""
    from spades_tutor.session.progress import Progress

    app = warm_then_linked(opened, "preset=classic")
    saved = Progress()
    saved.settings.preset = "bicycle"
    saved.settings.large = True
    app.store.value = saved.to_json()
    app.store.loaded = True
    assert app.settings.preset == "classic" and app.settings.large
    assert app.picker.preset.value == "classic" and app.picker.large.value


def test_warming_up_makes_no_widget_and_leaves_the_home_page_as_it_was(opened: list[App]) -> None:
    """Every widget in the kernel is sent to the page: the warm-up reads and imports, it makes none."""
    app = App()
    opened.append(app)
    before = set(widget_module._instances)
    home = shown(app)
    app.warm_up()
    assert set(widget_module._instances) == before
    assert shown(app) == home
    assert isinstance(app.page.children[0], w.VBox)


LINK_VALUES = hst.one_of(
    hst.sampled_from([*map(str, LESSONS), "0", "-1", "99", "x", "", "²", "4127W", "4127", "zzz"]),
    hst.sampled_from([*st.Rules.preset_names(), *LINK_PAGES, "Deuces_High", "deuces-hihg", "plya"]),
    hst.integers(min_value=-5, max_value=1000).map(str),
    hst.text(max_size=12),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hst.lists(hst.tuples(hst.sampled_from([*LINK_KEYS, "evil"]), LINK_VALUES), max_size=5))
def test_any_link_opens_the_same_page_on_the_warm_app_as_on_an_app_built_for_it(
    opened: list[App], pairs: list[tuple[str, str]]
) -> None:
    query = "&".join(f"{key}={quote(value)}" for key, value in pairs)
    assert shown(warm_then_linked(opened, query)) == shown(built_with(opened, query))
