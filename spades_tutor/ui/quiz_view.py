"""One quiz item as widgets: the position, a way to answer, and the engine's feedback.

The view draws what the item's kind says (``item.view()``, plain data): cards shown,
a trick, a table, captions, and one way to answer (cards to pick, numbers to type,
a word to choose); after the answer, ``item.feedback_view()`` says what to mark, and
may bring a plot (drawn under the feedback, named by its reading, its numbers in a table). No
kind is named here: a kind the registry lists is drawn without changes to this module.

With a retry (``retries=1``) a wrong first answer is not shown: the view says "try again"
with the kind's hint of the rule (``item.hint()``, never the answer or the explanation) and
keeps the question open; the second try is graded, and only then are the answer, the
explanation and the marks shown. ``on_answer`` hears of the graded try alone, with its number.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as w

from ..engine.play import Trick
from ..quiz import Feedback, QuizItem, ScoreItem, kinds
from ..quiz.base import (
    Caption,
    Choice,
    Detail,
    Numbers,
    PickCards,
    Plot,
    ShowCards,
    ShowTable,
    ShowTrick,
)
from .cards import CardsWidget, hand_view, trick_view
from .choices import ToggleButtons
from .errors import guarded
from .landmarks import live
from .measured import how_measured_html
from .numbers import Field, NumberFields
from .plot_box import data_box, draw, fill_data, key_html, plot_slot, reading_html

#: told of each graded answer: the item, the feedback, and which try it was (1, or 2 after "try again")
AnswerCallback = Callable[[QuizItem, Feedback, int], None]


class _Titles(Mapping[str, str]):
    """kind name -> the quiz page's title for it, read from the registry (kinds registered later included)."""

    def __getitem__(self, kind: str) -> str:
        return kinds.get(kind).title

    def __iter__(self) -> Any:
        return iter(kinds.names())

    def __len__(self) -> int:
        return len(kinds.names())


KIND_TITLES: Mapping[str, str] = _Titles()


def feedback_html(
    feedback: Feedback, *, explain: bool = True, attempt: int = 1, link: Callable[[str], str] | None = None
) -> str:
    """The verdict, the misconception a wrong answer shows, the explanation and, for a measured answer,
    how it was measured (a closed disclosure). ``link`` links the glossary's terms in the explanation."""
    if feedback.correct:
        said = "✓ Right!" if attempt == 1 else "✓ Right on the second try!"
        head = f'<div class="st-fb-head st-fb-right">{said}</div>'
    else:
        head = (
            '<div class="st-fb-head st-fb-wrong">✗ Not quite.</div>'
            f'<div class="st-fb-answer">The answer: <b>{html.escape(feedback.answer)}</b></div>'
        )
    # the misconception the answer shows comes first, on its own line, before the rule
    mistake = (
        f'<p class="st-fb-diagnosis">{html.escape(feedback.diagnosis)}</p>'
        if feedback.diagnosis and not feedback.correct
        else ""
    )
    why = "".join(f"<p>{html.escape(line)}</p>" for line in feedback.explanation) if explain else ""
    if link is not None:
        why = link(why)
    how = how_measured_html(feedback.measured, link)
    return f'<div class="st-feedback {"st-fb-ok" if feedback.correct else "st-fb-no"}">{head}{mistake}{why}{how}</div>'


def retry_html(hint: str, note: str = "", mistake: str | None = None) -> str:
    """After a wrong first try: say so, the mistake it shows (when naming it does not give the
    answer away) and a hint of the rule; neither the answer nor the explanation."""
    said = f'<p class="st-fb-same">{html.escape(note)}</p>' if note else ""
    named = f'<p class="st-fb-diagnosis">{html.escape(mistake)}</p>' if mistake else ""
    return (
        '<div class="st-feedback st-fb-retry">'
        f'<div class="st-fb-head st-fb-again">✗ Not quite — try again.</div>{named}'
        f'<p class="st-hint"><b>Hint:</b> {html.escape(hint)}</p>{said}</div>'
    )


def mistake_before_retry(feedback: Feedback) -> str | None:
    """What a wrong first try's diagnosis can say before the second try: the mistake it names,
    without the fact that follows it ("That is the highest heart, but a trump was played: the 3♠
    wins" → "That is the highest heart, but a trump was played."), and nothing if even that names
    the answer. The whole sentence comes with the answer after the last try.

    >>> from spades_tutor.quiz.base import Feedback
    >>> mistake_before_retry(Feedback(False, "3♠", ("…",), diagnosis="That is the highest heart, but a trump was played: the 3♠ wins."))
    'That is the highest heart, but a trump was played.'
    >>> mistake_before_retry(Feedback(False, "yes", ("…",), diagnosis="Spades are broken, so you may lead K♠."))
    'Spades are broken.'
    >>> print(mistake_before_retry(Feedback(False, "BJ", ("…",), diagnosis="BJ is higher than LJ.")))
    None
    """
    said = feedback.diagnosis
    if not said or feedback.correct:
        return None
    head = re.split(r": |, so ", said, maxsplit=1)[0].rstrip(". ") + "."
    return None if feedback.answer.strip() in head else head


class QuizView:
    """Builds its widgets in ``__init__``; ``widget`` is what to display."""

    def __init__(
        self,
        item: QuizItem,
        on_answer: AnswerCallback | None = None,
        *,
        four_colour: bool = False,
        large: bool = False,
        retries: int = 0,
    ) -> None:
        if retries not in (0, 1):
            raise ValueError(f"retries: 0 or 1, not {retries!r}")
        self.item = item
        self.on_answer = on_answer
        self.retries = retries
        #: answers graded so far (a wrong one with a retry left counts: the next is the second try)
        self.tries = 0
        self._missed: Any = None  # the response of the wrong first try
        self._mistake: str | None = None  # what that try showed, when it can be said before the answer
        self.feedback: Feedback | None = None
        self.four_colour = four_colour
        self.large = large
        self.picker: CardsWidget | None = None
        self.numbers: NumberFields | None = None
        self._choice: ToggleButtons | None = None
        self.spec = item.view()
        self._answer = self.spec.answer
        self.check_button = w.Button(description="Check answer", button_style="primary")
        self.check_button.add_class("st-check")
        self.check_button.on_click(guarded(self._check))
        self.result = live(w.HTML())  # the verdict is read out
        self.result.add_class("st-result")
        self.detail = w.HTML()
        self.plot: w.Output | None = None  # the feedback's plot, once drawn
        title = item.title or item.kind
        self.widget = w.VBox(
            [
                w.HTML(f'<div class="st-quiz-kind">Quiz · {html.escape(title)}</div>'),
                w.HTML(f'<div class="st-prompt">{html.escape(item.prompt)}</div>'),
                *(self._part(part) for part in self.spec.parts),
                self.check_button,
                self.result,
                self.detail,
            ]
        )
        self.widget.add_class("st-quiz")
        self.widget.add_class(f"st-quiz-{item.kind}")

    # --- the position and the answer controls, as the kind's view says ---------------------------

    def _part(self, part: Any) -> w.Widget:
        rules = self.item.rules
        looks: dict[str, Any] = {"four_colour": self.four_colour, "large": self.large}
        if isinstance(part, Caption):
            return w.HTML(f'<div class="st-caption">{html.escape(part.text, quote=False)}</div>')
        if isinstance(part, ShowCards):
            return hand_view(rules, part.cards, sort=part.sort, label=part.label, **looks)
        if isinstance(part, ShowTrick):
            return trick_view(Trick(part.leader, part.cards), label=part.label, **looks)
        if isinstance(part, ShowTable):
            return w.HTML(table_html(part))
        if isinstance(part, PickCards):
            if part.leader is not None:
                self.picker = trick_view(
                    Trick(part.leader, part.cards), selectable=part.mode, show_winner=False, label=part.label, **looks
                )
            else:
                self.picker = hand_view(
                    rules, part.cards, selectable=part.mode, sort=part.sort, label=part.label, **looks
                )
            return self.picker
        if isinstance(part, Numbers):
            self.numbers = NumberFields(
                [Field(f.key, f.label, min=f.min, max=f.max, row=f.row, width=f.width) for f in part.fields]
            )
            return self.numbers
        if isinstance(part, Choice):
            self._choice = ToggleButtons(
                options=list(part.options),
                value=None,
                description=part.description,
                style={"description_width": "initial"},
            )
            self._choice.add_class("st-answer-choice")
            return self._choice
        raise TypeError(f"a quiz view cannot show {part!r}")

    def response(self) -> Any:
        """The learner's answer in the form ``item.check`` takes."""
        answer = self._answer
        if isinstance(answer, Numbers) and self.numbers is not None:
            return answer.response({f.key: self.numbers[f.key] for f in answer.fields})
        if isinstance(answer, Choice):
            return self._choice.value if self._choice is not None else None
        assert self.picker is not None
        return self.picker.selected_cards

    # --- checking -----------------------------------------------------------------------------

    def missing(self) -> str:
        """What the learner must still do before the answer can be checked ('' once there is an answer)."""
        if isinstance(self._answer, Choice):
            return self._answer.missing if self._choice is None or self._choice.value is None else ""
        if self.picker is not None and not self.picker.selected:
            return "Choose a card first."
        if self.numbers is not None and self.numbers.empty:
            return "Type a number first." if len(self.numbers.values) == 1 else "Type a number in each box first."
        return ""

    @property
    def retrying(self) -> bool:
        """True after a wrong first try, while the second is awaited."""
        return self.feedback is None and self.tries > 0

    def _say(self, text: str) -> None:
        self.result.value = f'<div class="st-fb-missing st-proj-question" role="status">{html.escape(text)}</div>'

    def _check(self, _button: Any = None) -> Feedback | None:
        """Grade the answer; with nothing chosen yet, say so and grade nothing (no score, no streak).

        A wrong first try with a retry left is not shown: "try again" and a hint of the rule.
        The same answer again is not a second try (a double click must not spend it).
        """
        if self.feedback is not None:
            return self.feedback
        missing = self.missing()
        if missing:
            self._say(missing)
            return None
        response = self.response()
        if self.retrying and response == self._missed:
            self.result.value = retry_html(
                self.item.hint(), "That is the answer you gave: change it, then check again.", self._mistake
            )
            return None
        feedback = self.item.check(response)
        self.tries += 1
        if not feedback.correct and self.tries <= self.retries:
            self._missed = response
            self._mistake = mistake_before_retry(feedback)
            self.result.value = retry_html(self.item.hint(), mistake=self._mistake)
            self.check_button.description = "Check again"
            return None
        self.show_feedback(feedback)
        if self.on_answer is not None:
            self.on_answer(self.item, feedback, self.tries)
        return feedback

    def check(self) -> Feedback | None:
        """The feedback, or None while the question is open: nothing chosen yet (``missing()`` says what),
        or a wrong first try with a second to come (``retrying``)."""
        return self._check()

    def show_feedback(self, feedback: Feedback) -> None:
        self.feedback = feedback
        selected = tuple(self.picker.selected) if self.picker is not None else ()
        shown = self.item.feedback_view(feedback, selected)
        link = None
        if feedback.measured:  # a measured answer's technical words link to the glossary, as lessons do
            from .glossary import TECHNICAL, TermLinks

            terms = TermLinks(only=TECHNICAL)
            self.widget.children = (*self.widget.children, terms.widget)  # hidden: opens the definitions
            link = functools.partial(terms.link, rules=self.item.rules)
        self.result.value = feedback_html(feedback, explain=shown.explain, attempt=max(1, self.tries), link=link)
        self.check_button.disabled = True
        if self.numbers is not None:
            self.numbers.disabled = True
        if self._choice is not None:
            self._choice.disabled = True
        if self.picker is not None:
            self.picker.disabled = True
            if shown.winner is not None:
                self.picker.winner = shown.winner
            self.picker.marks = dict(shown.marks)
        if shown.detail is not None:
            self.detail.value = detail_html(shown.detail)
        if shown.plot is not None:
            self.show_plot(shown.plot)

    def show_plot(self, plot: Plot) -> None:
        """The plot under the feedback: its reading (which names it), the plot, its key, its data in a disclosure.

        The boxes join the page only now (an empty plot box would hold a plot's height open), and the
        plot is drawn once its box is on the page (a box not yet shown has no width)."""
        reading = w.HTML(reading_html("", plot.reading))
        slot = plot_slot(small=True)
        key = w.HTML(key_html(plot.key))
        table = data_box()
        fill_data(table, plot.spec, plot.reading)
        self.widget.children = (*self.widget.children, reading, slot, *([key] if plot.key else []), table)
        draw(slot, plot.spec, plot.height)
        self.plot = slot


def detail_html(detail: Detail) -> str:
    """The list below the feedback: folded under its summary if it has one."""
    rows = "".join(f"<li><b>{html.escape(head)}</b>: {html.escape(text)}</li>" for head, text in detail.items)
    if detail.summary:
        return (
            f'<details class="{detail.css}" open><summary>{html.escape(detail.summary)}</summary>'
            f"<ul>{rows}</ul></details>"
        )
    return f'<ul class="{detail.css}">{rows}</ul>'


def table_html(table: ShowTable) -> str:
    """A table of text with its note below it."""
    head = "".join(f"<th>{html.escape(cell, quote=False)}</th>" for cell in table.header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell, quote=False)}</td>" for cell in row) + "</tr>" for row in table.rows
    )
    css = f' class="{table.css}"' if table.css else ""
    note = f'<div class="st-caption">{html.escape(table.note, quote=False)}</div>' if table.note else ""
    return f"<table{css}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{note}"


def score_table_html(item: ScoreItem) -> str:
    """The bids and tricks of a scoring question, one row per seat."""
    table = next(p for p in item.view().parts if isinstance(p, ShowTable))
    return table_html(table)
