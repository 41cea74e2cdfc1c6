"""Your table: what the learner's rule set changes from standard Spades with Jokers or regular Spades,
each change on a hand (the page itself is :class:`~spades_tutor.ui.differences_page.DifferencesPage`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Page, SettingsChange, register

if TYPE_CHECKING:
    from ..app import App  # type-only: a page is handed the shell that builds it
    from ..differences_page import DifferencesPage


@register
class DifferencesTab(Page):
    """The Your table tab: its page is built when first opened, in the learner's rules; a settings
    change lists the differences again (when the page is next shown, if it is not shown now)."""

    title = "Your table"
    link = "table"
    order = 75

    def __init__(self, app: App) -> None:
        super().__init__(app)
        from ..differences_page import DifferencesPage

        settings = app.settings
        self.view: DifferencesPage = DifferencesPage(
            app.rules, four_colour=settings.four_colour, large=settings.large, retries=settings.retries
        )
        self.widget = self.view.widget
        self.stale = False

    def apply(self, change: SettingsChange) -> None:
        """The differences are found again in the new rules, now if the page is shown, else when it is."""
        view, settings = self.view, change.settings
        view.retries = settings.retries
        now = (change.rules, settings.four_colour, settings.large)
        if now == (view.rules, view.four_colour, view.large):
            return
        view.rules, view.four_colour, view.large = now
        self.stale = True
        if self.shown:
            self.show()

    def show(self) -> None:
        if self.stale:
            self.stale = False
            self.view.draw()
