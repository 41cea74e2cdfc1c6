"""Classroom: a hand step by step on a projector (the page itself is
:class:`~spades_tutor.ui.projector.ProjectorPage`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Page, SettingsChange, register

if TYPE_CHECKING:
    from ..app import App  # type-only: a page is handed the shell that builds it
    from ..projector import ProjectorPage


@register
class ClassroomTab(Page):
    """The Classroom tab: its page is built when first opened, with the link's deal if it names one."""

    title = "Classroom"
    link = "classroom"
    order = 60

    def __init__(self, app: App) -> None:
        super().__init__(app)
        from ..projector import ProjectorPage

        self.view: ProjectorPage = ProjectorPage(app.rules, app.link.get("deal"))
        self.widget = self.view.widget

    def apply(self, change: SettingsChange) -> None:
        """The deal is dealt again in the new rules (from its first step). The saved record arriving
        with the rules already shown leaves the deal at the step the class has reached."""
        if change.chosen or change.rules != self.view.rules:
            self.view.set_rules(change.rules)
