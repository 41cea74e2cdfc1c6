"""Glossary: the game's words, each in the rules picked (the page itself is
:class:`~spades_tutor.ui.glossary.GlossaryPage`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Page, SettingsChange, register

if TYPE_CHECKING:
    from ..app import App  # type-only: a page is handed the shell that builds it
    from ..glossary import GlossaryPage


@register
class GlossaryTab(Page):
    """The Glossary tab: its page is built when first opened."""

    title = "Glossary"
    link = "glossary"
    order = 70

    def __init__(self, app: App) -> None:
        super().__init__(app)
        from ..glossary import GlossaryPage

        self.view: GlossaryPage = GlossaryPage(app.rules)
        self.widget = self.view.widget

    def apply(self, change: SettingsChange) -> None:
        """The terms are said again in the new rules."""
        self.view.set_rules(change.rules)
