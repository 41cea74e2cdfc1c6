"""Progress: mastery by quiz kind, answers over time, streaks (the page itself is
:class:`~spades_tutor.ui.progress_page.ProgressPage`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Page, SettingsChange, register

if TYPE_CHECKING:
    from ..app import App  # type-only: a page is handed the shell that builds it
    from ..progress_page import ProgressPage


@register
class ProgressTab(Page):
    """The Progress tab: its page is built when first opened and drawn from the answers each time it is shown."""

    title = "Progress"
    link = "progress"
    order = 80

    def __init__(self, app: App) -> None:
        super().__init__(app)
        from ..progress_page import ProgressPage

        self.view: ProgressPage = ProgressPage(app)
        self.widget = self.view.widget

    def apply(self, change: SettingsChange) -> None:
        """A new record (the stored one arrived, another tab's merged in, progress reset): the page, if
        shown, is drawn again from the answers now kept."""
        if change.new_record and self.shown:
            self.view.render()

    def show(self) -> None:
        self.view.render()
