"""The app's pages as the shell sees them: one settings change reaches every page built."""

from __future__ import annotations

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
