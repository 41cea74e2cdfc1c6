"""Home: what the app is, the way to Learn and to Quiz yourself, what is due for review today, and the
rule-set picker."""

from __future__ import annotations

import html
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from ...engine import BlindNil, Rules
from ...engine.rules import NUMBER_BOUNDS, FailedNilTricks, FirstLead, RenegePenalty
from ...session import Settings
from ...session.settings import MERCY_SCORE
from ..choices import Dropdown
from ..errors import guarded
from ..numbers import Field, NumberFields
from .base import Page, SettingsChange, register

if TYPE_CHECKING:
    from ..app import App  # type-only: a page is handed the shell that builds it


def on_binder() -> bool:
    return "BINDER_SERVICE_HOST" in os.environ or "BINDER_LAUNCH_HOST" in os.environ


#: each rule in the builder: its group, its label, and one sentence saying what it changes
RULE_GROUPS: tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...] = (
    (
        "Deck and trumps",
        (
            ("preset", "Rule set", "Which cards are in the pack and which count as trumps, highest first."),
            ("first_lead", "First lead", "Who leads the first trick of a hand."),
        ),
    ),
    (
        "Bidding",
        (
            ("nil", "Nil bids allowed", "Whether a player may bid to take no tricks at all."),
            ("blind_nil", "Blind nil", "When a player may bid nil before looking at the cards."),
            ("blind_nil_behind", "Blind nil when behind by", "How far behind a team must be to bid blind nil."),
            (
                "min_team_bid",
                "Least team bid",
                "Partners must bid at least this many tricks together, unless one bids nil (0: no minimum).",
            ),
        ),
    ),
    (
        "Scoring",
        (
            ("trick_points", "Points a trick bid", "What each trick of a made contract scores, and a set costs."),
            ("nil_value", "Nil worth", "What a nil scores when made, and costs when it fails (many tables: 50)."),
            ("blind_nil_value", "Blind nil worth", "What a blind nil scores when made, and costs when it fails."),
            (
                "ten_bid_bonus",
                "Bonus for bidding 10+",
                "Extra points for a team that bids 10 or more tricks together and makes them (0: none).",
            ),
            ("failed_nil_tricks", "A failed nil's tricks", "Where the tricks a failed nil took are counted."),
        ),
    ),
    (
        "Bags",
        (
            ("bag_limit", "Bags before the penalty", "How many overtricks (bags) bring the bag penalty."),
            ("bag_penalty", "Bag penalty", "The points a team loses each time its bags reach the limit."),
        ),
    ),
    (
        "Game end",
        (
            ("target", "Game to", "The score that wins the game."),
            ("mercy", "Mercy rule", "Whether a team that falls this far below zero loses at once."),
        ),
    ),
    (
        "Penalties",
        (
            (
                "renege_penalty",
                "A renege costs",
                "What a side gives up for each time it did not follow suit when it could.",
            ),
        ),
    ),
)

_OPTION_WORDS: dict[str, list[tuple[str, str]]] = {
    "first_lead": [
        ("the dealer's left-hand player", FirstLead.LEFT_OF_DEALER),
        ("whoever holds the 2♣, leading it", FirstLead.TWO_OF_CLUBS),
    ],
    "failed_nil_tricks": [
        ("count as bags", FailedNilTricks.BAGS),
        ("count toward the partner's bid", FailedNilTricks.PARTNER),
        ("count for nothing", FailedNilTricks.NONE),
    ],
    "renege_penalty": [
        ("3 tricks to the other side", RenegePenalty.THREE_TRICKS),
        ("2 tricks to the other side", RenegePenalty.TWO_TRICKS),
        ("the side's whole bid (set)", RenegePenalty.SET),
    ],
}


class RulePicker:
    """The rule-set builder: every flag the engine has, grouped for a learner, each with one sentence
    saying what it changes; and the display choices. Whatever the page sends is checked again by
    ``Settings.from_data`` and the engine: a rule set it would refuse is not taken, and says so."""

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
                ("blind nil when behind", BlindNil.BEHIND_100),
                ("blind nil always", BlindNil.ALWAYS),
            ],
            value=settings.blind_nil,
            description="Blind nil:",
            style={"description_width": "initial"},
        )
        self.mercy = w.Checkbox(value=settings.mercy, description="Mercy rule: a team this low loses", indent=False)
        self.four_colour = w.Checkbox(value=settings.four_colour, description="Four-colour deck", indent=False)
        self.large = w.Checkbox(value=settings.large, description="Projector: large cards and text", indent=False)
        self.retry = w.Checkbox(
            value=settings.retries == 1, description="Quizzes: a second try before the answer", indent=False
        )
        self.retry.add_class("st-retry-setting")
        rules = settings.rules()
        self.options: dict[str, Dropdown] = {}
        for flag, words in _OPTION_WORDS.items():
            label = next(lab for _g, rows in RULE_GROUPS for f, lab, _s in rows if f == flag)
            self.options[flag] = Dropdown(
                options=words,
                value=getattr(rules, flag),
                description=f"{label}:",
                style={"description_width": "initial"},
            )
            self.options[flag].add_class(f"st-rule-{flag.replace('_', '-')}")
        self.numbers: dict[str, NumberFields] = {}
        self.note = w.HTML()
        self.summary = w.HTML()
        groups: list[w.Widget] = []
        for group, rows in RULE_GROUPS:
            controls: list[w.Widget] = []
            fields: list[Field] = []
            sentences = []
            for flag, label, sentence in rows:
                sentences.append(f"<li><b>{html.escape(label)}</b>: {html.escape(sentence)}</li>")
                if flag == "preset":
                    controls.append(self.preset)
                elif flag == "nil":
                    controls.append(self.nil)
                elif flag == "blind_nil":
                    controls.append(self.blind_nil)
                elif flag in self.options:
                    controls.append(self.options[flag])
                elif flag == "mercy":
                    controls.append(self.mercy)
                    fields.append(Field("mercy", "Mercy score", rules.mercy or MERCY_SCORE, -10_000, -1, width=7))
                else:
                    low, high = NUMBER_BOUNDS[flag]
                    fields.append(Field(flag, label, getattr(rules, flag), low, high, width=7))
            if fields:
                numbers = NumberFields(fields)
                numbers.add_class("st-rule-numbers")
                for f in fields:
                    self.numbers[f.key] = numbers
                controls.append(numbers)
            box = w.VBox(
                [
                    w.HTML(f'<h3 class="st-rule-group">{html.escape(group)}</h3>'),
                    w.HBox(controls, layout=w.Layout(flex_flow="row wrap", align_items="center")),
                    w.HTML(f'<ul class="st-rule-explain">{"".join(sentences)}</ul>'),
                ]
            )
            box.add_class("st-rule-group-box")
            groups.append(box)
        for control in (self.preset, self.nil, self.blind_nil, self.mercy, self.four_colour, self.large, self.retry):
            control.observe(guarded(self._changed), names="value")
        for dropdown in self.options.values():
            dropdown.observe(guarded(self._changed), names="value")
        for numbers in set(self.numbers.values()):
            numbers.observe(guarded(self._changed), names="values")
        self.widget = w.VBox(
            [
                w.HTML('<h2 class="st-picker-title">Your table\'s rules</h2>'),
                *groups,
                self.note,
                self.summary,
                w.HTML('<h3 class="st-rule-group">Display</h3>'),
                w.HBox([self.four_colour, self.large, self.retry], layout=w.Layout(flex_flow="row wrap")),
            ]
        )
        self.widget.add_class("st-picker")
        self._quiet = False
        self._last = settings
        self._summarise()

    def _house(self) -> dict[str, Any]:
        """The builder's flags that differ from the preset's (the mercy score only while the switch is on)."""
        plain = Rules.preset(self.preset.value)
        house: dict[str, Any] = {}
        for flag, dropdown in self.options.items():
            if dropdown.value != getattr(plain, flag):
                house[flag] = str(dropdown.value)
        for flag, numbers in self.numbers.items():
            value = numbers.values.get(flag)
            if flag == "mercy":
                if self.mercy.value and value is not None and value != MERCY_SCORE:
                    house["mercy"] = value
            elif value is not None and value != getattr(plain, flag):
                house[flag] = value
        return house

    def settings(self) -> Settings:
        notes: list[str] = []
        settings = Settings.from_data(
            {
                "preset": self.preset.value,
                "nil": self.nil.value,
                "blind_nil": self.blind_nil.value,
                "mercy": self.mercy.value,
                "four_colour": self.four_colour.value,
                "large": self.large.value,
                "retries": 1 if self.retry.value else 0,
                "house": self._house(),
            },
            notes,
        )
        self.note.value = (
            '<p class="st-note" role="status">These house rules do not make a rule set the game can play '
            "together (the first lead by the 2♣ needs a pack with the 2♣), so they are not used.</p>"
            if notes
            else ""
        )
        return settings

    def load(self, settings: Settings) -> None:
        self._quiet = True
        try:
            rules = settings.rules()
            self.preset.value = settings.preset
            self.nil.value = settings.nil
            self.blind_nil.value = settings.blind_nil
            self.mercy.value = settings.mercy
            self.four_colour.value = settings.four_colour
            self.large.value = settings.large
            self.retry.value = settings.retries == 1
            for flag, dropdown in self.options.items():
                dropdown.value = getattr(rules, flag)
            for flag, numbers in self.numbers.items():
                value = (
                    (rules.mercy or settings.house.get("mercy", MERCY_SCORE))
                    if flag == "mercy"
                    else getattr(rules, flag)
                )
                numbers.set(**{flag: value})
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
        #: the learner's clock for what is due today (a test fixes it)
        self.clock: Callable[[], float] = time.time
        self.due = w.HTML(layout=w.Layout(flex="1 1 20em", min_width="0"))  # wraps on a phone
        self.due.add_class("st-home-due")
        self.review_button = w.Button(
            description="Review what is due ▶",
            button_style="warning",
            tooltip="A practice session: the kinds due for review today first, then those you missed",
            layout=w.Layout(width="auto", flex="0 0 auto"),
        )
        self.review_button.add_class("st-review-due")
        self.review_button.on_click(guarded(lambda _b: self.review()))
        self.due_box = w.HBox(
            [self.due, self.review_button],
            layout=w.Layout(align_items="center", margin="0.6em 0", flex_flow="row wrap"),
        )
        self.due_box.add_class("st-home-due-box")
        self.widget = w.VBox([intro, w.HBox([learn, quiz]), self.due_box, app.picker.widget])
        self.refresh_due()

    def apply(self, change: SettingsChange) -> None:
        """A new record (its answers) or new rules (the kinds they ask): what is due, counted again."""
        self.refresh_due()

    def show(self) -> None:
        self.refresh_due()

    def review(self) -> None:
        """ "Review what is due": a practice session on the quiz page, the kinds due today first."""
        quiz = self.app.quiz
        quiz.practise()
        self.app.show(quiz.title)

    def refresh_due(self) -> None:
        """What is due for review today, on the learner's clock (:func:`due_html`); nothing before the first answer."""
        words, due = due_html(self.app, self.clock())
        self.due.value = words
        self.due_box.layout.display = None if words else "none"
        self.review_button.layout.display = None if due else "none"


def due_html(app: App, now: float) -> tuple[str, bool]:
    """Home's line on practice across days, and whether anything is due today: the kinds due (those the
    rule set asks) and the lessons read whose quiz asks them; with none due, when the next review is.
    Empty before any answer."""
    progress, zone = app.progress, app.store.zone
    if not progress.answers:
        return "", False
    from ...lessons.review import lessons_due
    from ...quiz import kinds
    from ...quiz.practice import local_time
    from ...quiz.schedule import day_words, due_kinds, next_due, schedules
    from ..quiz_view import KIND_TITLES

    table = schedules(progress.answers, zone=zone)
    offered = set(kinds.offered(app.rules))
    due = due_kinds(table, now, zone)
    asked = [k for k in due if k in offered]
    if not asked:
        soonest = next_due(table, now, zone)
        day = soonest.due_day(zone) if soonest is not None else None
        if soonest is None or day is None:
            return "", False
        when = day_words(day, local_time(now, zone).date())
        said = f"Nothing due for review today. Next review: <b>{html.escape(KIND_TITLES[soonest.kind])}</b>, {when}."
        return f'<p class="st-note" role="status">{said}</p>', False
    names = ", ".join(html.escape(KIND_TITLES[k]) for k in asked)
    count = f"{len(asked)} kind{'' if len(asked) == 1 else 's'} of question"
    lessons = lessons_due(app.learn.lessons, progress.lessons, asked, app.rules)
    from_lessons = (
        f" From your lessons: {html.escape(', '.join(f'{x.number}. {x.title}' for x in lessons))}." if lessons else ""
    )
    return (
        f'<p class="st-home-due-line" role="status"><b>Due today: {count} to review</b> ({names}). '
        f"A kind is due on the day you are likely to start forgetting it.{from_lessons}</p>",
        True,
    )
