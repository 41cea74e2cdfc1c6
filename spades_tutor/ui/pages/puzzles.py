"""Puzzles: a card to find in a hand nearly played (the page itself is
:class:`~spades_tutor.ui.puzzle_page.PuzzlePage`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Page, register

if TYPE_CHECKING:
    from ..app import App  # type-only: a page is handed the shell that builds it
    from ..puzzle_page import PuzzlePage


@register
class PuzzlesTab(Page):
    """The Puzzles tab: its page is built when first opened, with the link's puzzle if it names one.
    Each puzzle names its own rules, so a settings change leaves it as it is."""

    title = "Puzzles"
    link = "puzzles"
    order = 90

    def __init__(self, app: App) -> None:
        super().__init__(app)
        from ..puzzle_page import PuzzlePage

        self.view: PuzzlePage = PuzzlePage(app.link.get("puzzle"))
        self.widget = self.view.widget
