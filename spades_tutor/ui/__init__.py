"""Widgets: card faces, the lesson player, quizzes and the app shell.

Import the parts you need (``from spades_tutor.ui.app import App``); nothing heavy
is imported by the package itself.
"""

#: where the app's server serves plotly's script (``spades_tutor.server``), under its base URL, for the
#: plots ``plot_box.draw`` sends; here so the server names it without importing the widgets
PLOTLY_SCRIPT = "spades_tutor/static/plotly.min.js"
