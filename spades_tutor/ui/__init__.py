"""Widgets: card faces, the lesson player, quizzes and the app shell.

Import the parts you need (``from spades_tutor.ui.app import App``); nothing heavy
is imported by the package itself.
"""
