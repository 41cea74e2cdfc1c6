"""Puzzles: a card to find in a hand nearly played (the page itself is
:class:`~spades_tutor.ui.puzzle_page.PuzzlePage`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Page, SettingsChange, register

if TYPE_CHECKING:
    from ..app import App  # type-only: a page is handed the shell that builds it
    from ..puzzle_page import PuzzlePage


@register
class PuzzlesTab(Page):
    """The Puzzles tab: its page is built when first opened, with the link's puzzle if it names one,
    else today's puzzle in the learner's rule set at their level; their settings and record keep it so."""

    title = "Puzzles"
    link = "puzzles"
    order = 90

    def __init__(self, app: App) -> None:
        super().__init__(app)
        from ..puzzle_page import PuzzlePage

        self.view: PuzzlePage = PuzzlePage(
            app.link.get("puzzle"), rules_name=app.rules.name, level=app.progress.puzzle_level()
        )
        self.widget = self.view.widget

    def apply(self, change: SettingsChange) -> None:
        """The rule set chosen follows the learner's, and today's puzzle, untried, fits them again."""
        self.view.fit(change.rules.name, self.app.progress.puzzle_level())
