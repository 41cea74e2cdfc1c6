"""Lessons in a plain notebook (JupyterLab): ``show_lesson(3)`` shows lesson 3's player.

>>> player = lesson_player(3, preset="deuces-high")
>>> player.lesson.number, player.rules.name
(3, 'deuces-high')
"""

from __future__ import annotations

from typing import Any

from ..engine import Rules, SpadesError
from .lesson_player import LessonPlayer


def lesson_player(number: int, preset: str = "jokers", **flags: Any) -> LessonPlayer:
    """The player for lesson ``number`` in a rule set (a preset plus house-rule flags)."""
    from ..lessons import load_lessons

    every = load_lessons()
    lessons = {lesson.number: lesson for lesson in every}
    if number not in lessons:
        raise SpadesError(f"there is no lesson {number}; the lessons are {', '.join(map(str, sorted(lessons)))}")
    # no stored answers in a notebook: the closing review is scheduled from its own answers alone
    return LessonPlayer(lessons[number], Rules.preset(preset, **flags), lessons=every)


def show_lesson(number: int, preset: str = "jokers", **flags: Any) -> Any:
    """The lesson's widget, to display as a cell's result."""
    return lesson_player(number, preset, **flags).widget
