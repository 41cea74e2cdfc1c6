"""Puzzles: a card to find in a hand nearly played (the page itself is
:class:`~spades_tutor.ui.puzzle_page.PuzzlePage`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Page, SettingsChange, register

if TYPE_CHECKING:
    from ...puzzles import Puzzle
    from ..app import App  # type-only: a page is handed the shell that builds it
    from ..puzzle_page import PuzzlePage


@register
class PuzzlesTab(Page):
    """The Puzzles tab: its page is built when first opened, with the link's puzzle if it names one,
    else today's puzzle in the learner's rule set near their puzzle rating; their settings and record
    keep it so, and each puzzle's result is recorded in their progress."""

    title = "Puzzles"
    link = "puzzles"
    order = 90

    def __init__(self, app: App) -> None:
        super().__init__(app)
        from ..puzzle_page import PuzzlePage

        self.view: PuzzlePage = PuzzlePage(
            app.link.get("puzzle"),
            rules_name=app.rules.name,
            standing=app.progress.puzzle_standing(),
            on_result=self.result,
            nil=app.rules.nil,
        )
        self.widget = self.view.widget

    def apply(self, change: SettingsChange) -> None:
        """The rule set chosen follows the learner's, their rating is shown again, and today's puzzle,
        untried, fits them again (at a table without nil, it sets no nil goal)."""
        self.view.fit(change.rules.name, self.app.progress.puzzle_standing(), nil=change.rules.nil)

    def result(self, puzzle: Puzzle, first_try: bool) -> None:
        """A puzzle tried: recorded and saved, and the learner's new rating shown."""
        self.app.record_puzzle(puzzle, first_try)
        self.view.fit(self.app.rules.name, self.app.progress.puzzle_standing(), nil=self.app.rules.nil)
