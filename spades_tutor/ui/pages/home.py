"""Home: what the app is, the way to Learn and to Quiz yourself, and the rule-set picker."""

from __future__ import annotations

import html
import os
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from ...engine import BlindNil, Rules
from ...session import Settings
from ..choices import Dropdown
from ..errors import guarded
from .base import Page, register

if TYPE_CHECKING:
    from ..app import App  # type-only: a page is handed the shell that builds it


def on_binder() -> bool:
    return "BINDER_SERVICE_HOST" in os.environ or "BINDER_LAUNCH_HOST" in os.environ


class RulePicker:
    """Every preset plus the main flags: nil off, blind nil, mercy; and the display choices."""

    def __init__(self, settings: Settings, on_change: Any) -> None:
        self.on_change = on_change
        self.preset = Dropdown(
            options=[(Rules.preset(n).title + f" ({n})", n) for n in Rules.preset_names()],
            value=settings.preset,
            description="Rule set:",
            style={"description_width": "initial"},
        )
        self.preset.add_class("st-preset")
        self.nil = w.Checkbox(value=settings.nil, description="Nil bids allowed", indent=False)
        self.blind_nil = Dropdown(
            options=[
                ("no blind nil", BlindNil.OFF),
                ("blind nil when 100 behind", BlindNil.BEHIND_100),
                ("blind nil always", BlindNil.ALWAYS),
            ],
            value=settings.blind_nil,
            description="Blind nil:",
            style={"description_width": "initial"},
        )
        self.mercy = w.Checkbox(value=settings.mercy, description="A team at −200 loses", indent=False)
        self.four_colour = w.Checkbox(value=settings.four_colour, description="Four-colour deck", indent=False)
        self.large = w.Checkbox(value=settings.large, description="Projector: large cards and text", indent=False)
        self.retry = w.Checkbox(
            value=settings.retries == 1, description="Quizzes: a second try before the answer", indent=False
        )
        self.retry.add_class("st-retry-setting")
        self.summary = w.HTML()
        controls = (self.preset, self.nil, self.blind_nil, self.mercy, self.four_colour, self.large, self.retry)
        for control in controls:
            control.observe(guarded(self._changed), names="value")
        self.widget = w.VBox(
            [
                w.HTML('<div class="st-picker-title">Rule set</div>'),
                w.HBox([self.preset, self.nil, self.blind_nil, self.mercy]),
                w.HBox([self.four_colour, self.large, self.retry]),
                self.summary,
            ]
        )
        self.widget.add_class("st-picker")
        self._quiet = False
        self._summarise()

    def settings(self) -> Settings:
        return Settings.from_data(
            {
                "preset": self.preset.value,
                "nil": self.nil.value,
                "blind_nil": self.blind_nil.value,
                "mercy": self.mercy.value,
                "four_colour": self.four_colour.value,
                "large": self.large.value,
                "retries": 1 if self.retry.value else 0,
            }
        )

    def load(self, settings: Settings) -> None:
        self._quiet = True
        try:
            self.preset.value = settings.preset
            self.nil.value = settings.nil
            self.blind_nil.value = settings.blind_nil
            self.mercy.value = settings.mercy
            self.four_colour.value = settings.four_colour
            self.large.value = settings.large
            self.retry.value = settings.retries == 1
        finally:
            self._quiet = False
        self._summarise()

    def _summarise(self) -> None:
        self.summary.value = f'<div class="st-rules-line">{html.escape(self.settings().rules().describe())}</div>'

    def _changed(self, _change: Any) -> None:
        self._summarise()
        if not self._quiet:
            self.on_change(self.settings())


@register
class HomePage(Page):
    """The home page: built when first shown (a shared link to a lesson never needs it). The picker
    on it is the app's own, made with the app, since every page follows it."""

    title = "Home"
    link = "home"
    order = 10

    def __init__(self, app: App) -> None:
        super().__init__(app)
        learn = w.Button(
            description="Learn ▶",
            button_style="primary",
            tooltip="Short lessons, step by step, starting with the game itself",
        )
        quiz = w.Button(
            description="Quiz yourself ▶", button_style="info", tooltip="Questions of every kind, with feedback"
        )
        for b in (learn, quiz):
            b.add_class("st-big-button")
        learn.add_class("st-start-learning")
        quiz.add_class("st-start-quiz")
        learn.on_click(guarded(lambda _b: setattr(self.app.nav, "value", "Learn")))
        quiz.on_click(guarded(lambda _b: setattr(self.app.nav, "value", "Quiz yourself")))
        binder = (
            '<p class="st-note">Running on Binder: an idle session is closed after about 10 minutes. '
            "Your progress is saved in this browser, so reopening the link picks up where you left off.</p>"
            if on_binder()
            else ""
        )
        intro = w.HTML(
            '<div class="st-home-intro"><h2>Learn Spades with Jokers</h2>'
            "<p>Regular partnership Spades, with the <b>big joker</b> and the <b>little joker</b> as the two "
            "highest trumps. Learn the rules step by step with real hands, then test yourself on legal plays, "
            "trump order and scoring. Pick a rule set below: everything re-renders for it.</p>"
            f"{binder}</div>"
        )
        self.widget = w.VBox([intro, w.HBox([learn, quiz]), app.picker.widget])
