"""Joker lab: experiments on many deals (the page itself is :class:`~spades_tutor.ui.lab_page.LabPage`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Page, register

if TYPE_CHECKING:
    from ..app import App  # type-only: a page is handed the shell that builds it
    from ..lab_page import LabPage


@register
class LabTab(Page):
    """The Joker lab tab: its page is built when first opened (it brings numpy, pandas and plotly).
    Its pair of rule sets starts from the learner's; each experiment names its own rules after that,
    so a settings change leaves it as it is."""

    title = "Joker lab"
    link = "lab"
    order = 50

    def __init__(self, app: App) -> None:
        super().__init__(app)
        from ..lab_page import LabPage

        self.view: LabPage = LabPage(first=app.rules.name)  # starts from the learner's rule set
        self.widget = self.view.widget
