"""The app's pages as the shell sees them: one settings change reaches every page built."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from test_quiz_kinds import answer_as_given  # 0 in every number box, nothing chosen: checked as it stands

from spades_tutor import Rules
from spades_tutor.session.progress import Progress
from spades_tutor.ui import errors
from spades_tutor.ui.app import App, read_query
from spades_tutor.ui.pages import Page, unregister
from spades_tutor.ui.storage import Place


def test_saved_settings_arriving_reach_the_classroom_a_link_opened() -> None:
    """A link opens the Classroom in the default rules; then the browser sends the saved record,
    whose rule set is classic: the Classroom's deal is dealt again in classic, as the picker says."""
    app = App(query="page=classroom")
    try:
        assert app.nav.value == "Classroom" and app.projector.rules.name == "jokers"
        stored = Progress()
        stored.settings.preset = "classic"
        app.store.value = stored.to_json()
        app.store.loaded = True
        assert app.settings.preset == "classic" and app.picker.preset.value == "classic"
        projector = app.projector
        assert projector.rules == Rules.preset("classic")
        assert projector.hand is not None and projector.hand.rules == Rules.preset("classic")
        assert Rules.preset("classic").title in projector.header.value
    finally:
        errors.remove_sink(app.show_error)


def test_an_answer_redraws_the_quiz_score_and_its_export_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each answer counts the score and writes the export link (the whole record as CSV) once, not
    once for the app recording it and again for the quiz page; a lesson's answer writes neither."""
    encoded: list[int] = []
    to_csv = Progress.to_csv
    monkeypatch.setattr(Progress, "to_csv", lambda self: encoded.append(len(self.answers)) or to_csv(self))
    app = App(query="page=quiz")
    try:
        app.picker.retry.value = False  # one try: each check is an answer
        app.store.loaded = True
        quiz = app.quiz
        for answered in (1, 2):
            encoded.clear()
            assert quiz.view is not None
            answer_as_given(quiz.view)
            assert quiz.view.check() is not None
            assert encoded == [answered] and f" / {answered} " in quiz.board.value
            quiz.next_item()
        quiz.practise()  # "Practice what I miss": the level may move after the answer, still one export
        encoded.clear()
        assert quiz.view is not None
        answer_as_given(quiz.view)
        assert quiz.view.check() is not None
        assert encoded == [3] and " / 3 " in quiz.board.value
        app.learn.open(next(iter(app.learn.lessons)))
        player = app.learn.player
        encoded.clear()
        for step in range(len(player.lesson.steps)):
            player.go(step)
            for view in player.quizzes:
                answer_as_given(view)
                view.check()
        assert app.progress.only("lesson").answered and encoded == []
    finally:
        errors.remove_sink(app.show_error)


#: a page the app does not have, whole in one module: nothing else is edited to add it
FLASHCARDS = '''
"""Flashcards: the rule set's name on a card (a page added from this one module)."""

import ipywidgets as w

from spades_tutor.ui.pages import Page, SettingsChange, register


@register
class FlashcardsPage(Page):
    title = "Flashcards"
    link = "flashcards"
    order = 35  # after Quiz yourself, before Play

    def __init__(self, app):
        super().__init__(app)
        self.changes = []
        self.shows = 0
        self.card = w.HTML(app.rules.title)
        self.widget = w.VBox([self.card])

    def apply(self, change: SettingsChange) -> None:
        self.changes.append((change.source, change.rules.name))
        self.card.value = change.rules.title

    def show(self) -> None:
        self.shows += 1
'''


@pytest.fixture
def flashcards(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[type[Page]]:
    """The page's module written and imported (which registers it); taken off the list afterwards."""
    (tmp_path / "flashcards_page.py").write_text(FLASHCARDS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    page: type[Page] = importlib.import_module("flashcards_page").FlashcardsPage
    try:
        yield page
    finally:
        unregister(page)
        sys.modules.pop("flashcards_page", None)


def test_a_page_added_in_one_module_is_a_tab_a_link_and_receives_every_settings_change(
    flashcards: type[Page],
) -> None:
    app = App(query="page=Flashcards")  # a link spells it as links may (no note)
    try:
        assert list(app.nav.options) == [
            "Home", "Learn", "Quiz yourself", "Flashcards", "Play", "Joker lab", "Classroom", "Glossary",
            "Your table", "Progress", "Puzzles",
        ]  # fmt: skip
        page: Any = app.get_page(flashcards)
        assert app.nav.value == "Flashcards" and app.page.children == (page.widget,) and page.shows == 1
        assert app.landmarks.title.startswith("Flashcards ·") and not app.notes.children
        # the saved record arriving, the picker, then a link's rule set: one change each, in each one's rules
        stored = Progress()
        stored.settings.preset = "deuces-high"
        app.store.value = stored.to_json()
        app.store.loaded = True
        app.picker.preset.value = "classic"
        app.open_link("page=flashcards&preset=bicycle")
        assert page.changes == [("record", "deuces-high"), ("picker", "classic"), ("link", "bicycle")]
        assert page.card.value == Rules.preset("bicycle").title
        app.show("Home")
        app.show("Flashcards")
        assert page.shows == 3 and app.get_page(flashcards) is page  # built once, shown each time
    finally:
        errors.remove_sink(app.show_error)
    # a link to a page that does not exist names it among those there are; a reload reopens it
    notes = read_query("page=nowhere", lessons={})[1]
    assert "home, learn, quiz, flashcards, play" in notes[0]
    assert Place.from_json('{"page": "Flashcards"}') == Place("Flashcards")
    again = App()
    try:
        again.place_store.value = Place("Flashcards").to_json()
        again.place_store.loaded = True
        assert again.nav.value == "Flashcards" and again.page.children == (again.get_page(flashcards).widget,)
    finally:
        errors.remove_sink(again.show_error)


def test_a_page_taken_off_the_list_is_no_longer_a_tab_nor_a_link(flashcards: type[Page]) -> None:
    unregister(flashcards)
    app = App(query="page=flashcards")
    try:
        assert "Flashcards" not in app.nav.options and app.nav.value == "Home"
        assert Place.from_json('{"page": "Flashcards"}') is None
    finally:
        errors.remove_sink(app.show_error)
