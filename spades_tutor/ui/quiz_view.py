"""One quiz item as widgets: the position, a way to answer, and the engine's feedback."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from ..engine import Seat, Team
from ..engine.play import Trick
from ..quiz import (
    Feedback,
    HighestTrumpItem,
    LegalPlaysItem,
    NilSafeItem,
    QuizItem,
    ScoreItem,
    SureTricksItem,
    TrickWinnerItem,
    TrumpOrderItem,
)
from .cards import CardsWidget, hand_view, trick_view
from .errors import guarded
from .numbers import Field, NumberFields

AnswerCallback = Callable[[QuizItem, Feedback], None]

KIND_TITLES = {
    "legal-plays": "Legal plays",
    "trick-winner": "Who wins the trick?",
    "highest-trump": "Highest trump",
    "trump-order": "Trump order",
    "score": "Score this hand",
    "sure-tricks": "Sure tricks",
    "nil-safe": "Is nil safe?",
}


def feedback_html(feedback: Feedback, *, explain: bool = True) -> str:
    if feedback.correct:
        head = '<div class="st-fb-head st-fb-right">✓ Right!</div>'
    else:
        head = (
            '<div class="st-fb-head st-fb-wrong">✗ Not quite.</div>'
            f'<div class="st-fb-answer">The answer: <b>{html.escape(feedback.answer)}</b></div>'
        )
    why = "".join(f"<p>{html.escape(line)}</p>" for line in feedback.explanation) if explain else ""
    return f'<div class="st-feedback {"st-fb-ok" if feedback.correct else "st-fb-no"}">{head}{why}</div>'


class QuizView:
    """Builds its widgets in ``__init__``; ``widget`` is what to display."""

    def __init__(
        self, item: QuizItem, on_answer: AnswerCallback | None = None, *, four_colour: bool = False, large: bool = False
    ) -> None:
        self.item = item
        self.on_answer = on_answer
        self.feedback: Feedback | None = None
        self.four_colour = four_colour
        self.large = large
        self.picker: CardsWidget | None = None
        self.numbers: NumberFields | None = None
        self._choice: w.ToggleButtons | None = None
        self.check_button = w.Button(description="Check answer", button_style="primary")
        self.check_button.add_class("st-check")
        self.check_button.on_click(guarded(self._check))
        self.result = w.HTML()
        self.result.add_class("st-result")
        self.detail = w.HTML()
        self.widget = w.VBox(
            [
                w.HTML(f'<div class="st-quiz-kind">Quiz · {html.escape(KIND_TITLES.get(item.kind, item.kind))}</div>'),
                w.HTML(f'<div class="st-prompt">{html.escape(item.prompt)}</div>'),
                *self._position(),
                self.check_button,
                self.result,
                self.detail,
            ]
        )
        self.widget.add_class("st-quiz")
        self.widget.add_class(f"st-quiz-{item.kind}")

    # --- the position and the answer controls, per kind ---------------------------------------

    def _cards(self, **kwargs: Any) -> CardsWidget:
        return hand_view(self.item.rules, four_colour=self.four_colour, large=self.large, **kwargs)

    def _position(self) -> list[w.Widget]:
        item = self.item
        if isinstance(item, LegalPlaysItem):
            parts: list[w.Widget] = []
            if item.trick:
                leader = Seat((item.seat - len(item.trick)) % 4)
                parts.append(
                    trick_view(
                        Trick(leader, item.trick),
                        four_colour=self.four_colour,
                        large=self.large,
                        label="the trick so far",
                    )
                )
            self.picker = self._cards(
                hand=item.hand, selectable="many", label=f"your hand ({item.seat}): select every card you may play"
            )
            parts.append(
                w.HTML(f'<div class="st-caption">Your hand ({item.seat}) — select every card you may play:</div>')
            )
            parts.append(self.picker)
            return parts
        if isinstance(item, TrickWinnerItem):
            self.picker = trick_view(
                Trick(item.leader, item.trick),
                selectable="one",
                show_winner=False,
                label="the trick: choose the winning card",
                four_colour=self.four_colour,
                large=self.large,
            )
            return [self.picker]
        if isinstance(item, HighestTrumpItem):
            self.picker = self._cards(hand=item.choices, selectable="one", sort=False, label="choose the highest trump")
            return [self.picker]
        if isinstance(item, TrumpOrderItem):
            self.picker = self._cards(
                hand=item.choices, selectable="order", sort=False, label="click the trumps from highest to lowest"
            )
            return [
                w.HTML(
                    '<div class="st-caption">Click the cards from highest to lowest; click again to take one back.</div>'
                ),
                self.picker,
            ]
        if isinstance(item, ScoreItem):
            return [w.HTML(score_table_html(item)), self._score_inputs()]
        if isinstance(item, SureTricksItem):
            self.numbers = NumberFields([Field("count", "Sure tricks:", min=0, max=13, width=4)])
            return [self._cards(hand=item.hand, label="the hand"), self.numbers]
        if isinstance(item, NilSafeItem):
            self._choice = w.ToggleButtons(
                options=["yes", "no"], value=None, description="Nil safe?", style={"description_width": "initial"}
            )
            return [self._cards(hand=item.hand, label="the hand"), self._choice]
        return [w.HTML(html.escape(str(item.position())))]

    def _score_inputs(self) -> w.Widget:
        fields = []
        for row, team in enumerate(Team):
            fields.append(Field(f"{team.short}-points", f"{team.label} points:", row=row, width=6))
            fields.append(Field(f"{team.short}-bags", "bags after:", min=0, max=99, row=row, width=4))
        self.numbers = NumberFields(fields)
        return self.numbers

    def response(self) -> Any:
        """The learner's answer in the form ``item.check`` takes."""
        item = self.item
        if isinstance(item, ScoreItem) and self.numbers is not None:
            return {t: (self.numbers[f"{t.short}-points"], self.numbers[f"{t.short}-bags"]) for t in Team}
        if isinstance(item, SureTricksItem) and self.numbers is not None:
            return self.numbers["count"]
        if isinstance(item, NilSafeItem):
            return self._choice.value if self._choice is not None else None
        assert self.picker is not None
        return self.picker.selected_cards

    # --- checking -----------------------------------------------------------------------------

    def missing(self) -> str:
        """What the learner must still do before the answer can be checked ('' once there is an answer)."""
        if isinstance(self.item, NilSafeItem):
            return "Choose yes or no first." if self._choice is None or self._choice.value is None else ""
        if self.picker is not None and not self.picker.selected:
            return "Choose a card first."
        return ""

    def _check(self, _button: Any = None) -> Feedback | None:
        """Grade the answer; with nothing chosen yet, say so and grade nothing (no score, no streak)."""
        if self.feedback is not None:
            return self.feedback
        missing = self.missing()
        if missing:
            self.result.value = (
                f'<div class="st-fb-missing st-proj-question" role="status">{html.escape(missing)}</div>'
            )
            return None
        feedback = self.item.check(self.response())
        self.show_feedback(feedback)
        if self.on_answer is not None:
            self.on_answer(self.item, feedback)
        return feedback

    def check(self) -> Feedback | None:
        """The feedback, or None if nothing is chosen yet (``missing()`` says what)."""
        return self._check()

    def show_feedback(self, feedback: Feedback) -> None:
        self.feedback = feedback
        item = self.item
        # a score's explanation is its lines, listed below once (not also as sentences here)
        scored = isinstance(item, ScoreItem) and bool(feedback.detail)
        self.result.value = feedback_html(feedback, explain=not scored)
        self.check_button.disabled = True
        if self.numbers is not None:
            self.numbers.disabled = True
        if self._choice is not None:
            self._choice.disabled = True
        if self.picker is not None:
            self.picker.disabled = True
            marks: dict[str, str] = {}
            if isinstance(item, LegalPlaysItem):
                legal = {str(c) for c in item.answer()}
                for text in self.picker.cards:
                    marks[text] = "legal" if text in legal else "illegal"
                reasons = "".join(
                    f"<li><b>{html.escape(card)}</b>: {html.escape(reason)}</li>"
                    for card, reason in feedback.detail.items()
                    if card not in legal
                )
                if reasons:
                    self.detail.value = f'<details class="st-reasons" open><summary>Why each other card may not be played</summary><ul>{reasons}</ul></details>'
            elif isinstance(item, TrickWinnerItem | HighestTrumpItem):
                right = str(item.answer())
                marks[right] = "right"
                for text in self.picker.selected:
                    if text != right:
                        marks[text] = "wrong"
                if isinstance(item, TrickWinnerItem):
                    self.picker.winner = item.winner.letter
            self.picker.marks = marks
        if scored:
            rows = "".join(
                f"<li><b>{html.escape(Team.parse(team).label)}</b>: {html.escape(lines)}</li>"
                for team, lines in feedback.detail.items()
            )
            self.detail.value = f'<ul class="st-score-lines">{rows}</ul>'


def score_table_html(item: ScoreItem) -> str:
    """The bids and tricks of a scoring question, one row per seat."""
    rows = []
    for seat in Seat:
        rows.append(
            f"<tr><td>{seat.label}</td><td>{seat.team.short}</td><td>{html.escape(str(item.bids[seat]))}</td><td>{item.tricks[seat]}</td></tr>"
        )
    bags = ", ".join(f"{t.short} {n}" for t, n in item.bags.items())
    flags = item.rules.failed_nil_tricks
    note = {
        "bags": "A failed nil's tricks are bags for the team and do not help the partner.",
        "partner": "A failed nil's tricks count toward the partner's bid.",
        "none": "A failed nil's tricks are ignored.",
    }[flags]
    return (
        '<table class="st-score-table"><thead><tr><th>Seat</th><th>Team</th><th>Bid</th><th>Tricks</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
        f'<div class="st-caption">Bags before this hand: {bags}. {note}</div>'
    )
