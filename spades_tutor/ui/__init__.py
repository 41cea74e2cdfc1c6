"""Widgets: card faces, the lesson player, quizzes and the app shell.

Import the parts you need (``from spades_tutor.ui.app import App``); nothing heavy
is imported by the package itself.
"""

#: where the app's server serves plotly's script (``spades_tutor.server``), under its base URL, for the
#: plots ``plot_box.draw`` sends; here so the server names it without importing the widgets
PLOTLY_SCRIPT = "spades_tutor/static/plotly.min.js"


def static_text(name: str) -> str:
    """The text of ``ui/static/<name>``: an anywidget's ``_esm`` or ``_css``.

    Given as text, not as a path. anywidget turns a path into a watched file and connects every
    widget of the class to it with a callback that holds the widget, so no such widget is ever freed,
    closed or not (manzt/anywidget#929): a learner's kernel would grow with every card drawn.
    """
    from pathlib import Path

    return (Path(__file__).parent / "static" / name).read_text(encoding="utf-8")
