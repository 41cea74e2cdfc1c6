"""Joker lab: experiments on many deals (the page itself is :class:`~spades_tutor.ui.lab_page.LabPage`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Page, SettingsChange, register

if TYPE_CHECKING:
    from ..app import App  # type-only: a page is handed the shell that builds it
    from ..lab_page import LabPage


@register
class LabTab(Page):
    """The Joker lab tab: its page is built when first opened (it brings numpy, pandas and plotly).
    The learner's whole rule set, house rules included, is a choice of its own ("Your table"), first
    where it differs from its preset; each experiment names the rules it was run in, so results
    already shown stay as they are when the settings change."""

    title = "Joker lab"
    link = "lab"
    order = 50

    def __init__(self, app: App) -> None:
        super().__init__(app)
        from ..lab_page import LabPage

        self.view: LabPage = LabPage(table=app.rules)  # starts from the learner's rule set
        self.widget = self.view.widget

    def apply(self, change: SettingsChange) -> None:
        """ "Your table" is the learner's rules now; where they chose them, the first menu starts from them."""
        self.view.set_table(change.rules, chosen=change.chosen)
