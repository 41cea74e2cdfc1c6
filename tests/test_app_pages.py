"""The app's pages as the shell sees them: one settings change reaches every page built."""

from __future__ import annotations

import pytest

from spades_tutor import Rules
from spades_tutor.ui import errors
from spades_tutor.ui.app import App
from spades_tutor.ui.progress import Progress


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
            quiz.view.missing = lambda: ""  # answer as given, whatever the kind
            assert quiz.view.check() is not None
            assert encoded == [answered] and f" / {answered} " in quiz.board.value
            quiz.next_item()
        quiz.practise()  # "Practice what I miss": the level may move after the answer, still one export
        encoded.clear()
        assert quiz.view is not None
        quiz.view.missing = lambda: ""
        assert quiz.view.check() is not None
        assert encoded == [3] and " / 3 " in quiz.board.value
        app.learn.open(next(iter(app.learn.lessons)))
        player = app.learn.player
        encoded.clear()
        for step in range(len(player.lesson.steps)):
            player.go(step)
            for view in player.quizzes:
                view.missing = lambda: ""
                view.check()
        assert app.progress.only("lesson").answered and encoded == []
    finally:
        errors.remove_sink(app.show_error)
