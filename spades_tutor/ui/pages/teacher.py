"""Teacher: the class seen from the teacher's laptop or the projector (the page itself is
:class:`~spades_tutor.ui.teacher_view.TeacherView`). Not a tab: a link with the teacher code opens it
(``?teacher=CODE``, printed only in the teacher's console); without the right code it shows no data."""

from __future__ import annotations

from typing import TYPE_CHECKING

import ipywidgets as w

from .base import Page, register

if TYPE_CHECKING:
    from ..app import App  # type-only: a page is handed the shell that builds it
    from ..teacher_view import TeacherView

REFUSED = (
    '<div class="st-teacher-refused" role="alert"><h2>This page is for the class\'s teacher</h2>'
    "<p>Open it with the teacher link printed in the console where the class was started "
    "(it ends in <code>?teacher=…</code>). Learners: your lessons are on the other tabs.</p></div>"
)


@register
class TeacherTab(Page):
    """The teacher view, built only for a link that carried the right teacher code."""

    title = "Teacher"
    link = "teacher"
    order = 95
    listed = False

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.view: TeacherView | None = None
        config = app.class_config
        if app.teacher and config is not None:
            from ..teacher_view import TeacherView

            self.view = TeacherView(config, app.learn.lessons)
            self.widget = self.view.widget
        else:
            self.widget = w.HTML(REFUSED)

    def show(self) -> None:
        if self.view is not None:
            self.view.start()
