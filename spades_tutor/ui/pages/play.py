"""Play: a hand or a game against the bots (the page itself is :class:`~spades_tutor.ui.play_page.PlayPage`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Page, SettingsChange, register

if TYPE_CHECKING:
    from ..app import App  # type-only: a page is handed the shell that builds it
    from ..play_page import PlayPage


@register
class PlayTab(Page):
    """The Play tab: its page is built when first opened (it brings the bots)."""

    title = "Play"
    link = "play"
    order = 40

    def __init__(self, app: App) -> None:
        super().__init__(app)
        from ..play_page import PlayPage

        self.view: PlayPage = PlayPage(app.rules, four_colour=app.settings.four_colour)
        self.widget = self.view.widget

    def apply(self, change: SettingsChange) -> None:
        """The next deal uses the new rules (a game in play keeps its own); the cards are redrawn."""
        self.view.set_rules(change.rules, four_colour=change.settings.four_colour)
