"""Your table: what changes between the learner's rule set and a reference one, each change on a hand.

The page lists what :func:`spades_tutor.lessons.differences.differences` finds: for each rule the
learner's table plays otherwise, a heading in plain words, a sentence on what it changes, and the
same situation decided at both tables side by side (two columns that stack on a narrow screen):
the trick drawn with the engine's sentence, the score lines, the engine's sentence on the game or
the first lead or the bid. Then a short quiz on those differences, answered in the learner's rules,
with the reference table's answer shown after each as the contrast. The reference is chosen on
the page (a checked menu: the page's messages are untrusted).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from ..engine import Rules
from ..lessons.differences import REFERENCES, Difference, Example, Outcome, contrast_words, differences, quiz_items
from ..quiz import Feedback, QuizItem
from .cards import trick_view
from .choices import Dropdown
from .errors import guarded
from .landmarks import live
from .quiz_view import QuizView

#: the kinds of example whose outcome is drawn as score lines (their sentences are those lines)
_SCORED = ("score", "renege")
#: the examples whose engine sentences go above their score lines (a renege's ruling, line by line)
_RULED = ("renege",)


def _escape(text: str) -> str:
    return html.escape(text, quote=False)


def columns(left: Sequence[w.Widget], right: Sequence[w.Widget]) -> w.Box:
    """Two columns side by side that wrap to one above the other where the page is narrow."""
    box = w.Box(
        [
            w.VBox(list(side), layout=w.Layout(flex="1 1 18rem", min_width="0", margin=margin))
            for side, margin in ((left, "0 1.5em 0.6em 0"), (right, "0 0 0.6em 0"))
        ],
        layout=w.Layout(display="flex", flex_flow="row wrap", align_items="flex-start"),
    )
    box.add_class("st-diff-columns")
    return box


class DifferencesPage:
    """Each difference of the learner's rules from the reference chosen, shown and then quizzed."""

    def __init__(self, rules: Rules, *, four_colour: bool = False, large: bool = False, retries: int = 0) -> None:
        self.rules = rules
        self.four_colour = four_colour
        self.large = large
        self.retries = retries
        self.found: tuple[Difference, ...] = ()
        self.quizzes: list[QuizView] = []
        self.contrasts: list[w.HTML] = []
        self.reference = Dropdown(
            options=[(title, name) for name, title in REFERENCES.items()],
            value="jokers",
            description="Compare with:",
            style={"description_width": "initial"},
        )
        self.reference.add_class("st-diff-reference")
        self.reference.observe(guarded(lambda _change: self.draw()), names="value")
        self.yours = w.HTML()
        self.yours.add_class("st-diff-yours")
        self.body = w.VBox()
        self.body.add_class("st-diff-body")
        self.widget = w.VBox(
            [
                w.HTML(
                    '<h2 class="st-lesson-title">What changes at your table</h2><p class="st-note">Each rule your '
                    "table plays otherwise than the rule set you compare it with, shown on the same hand decided "
                    "at both tables by the rules engine; then a short quiz on those rules.</p>"
                ),
                self.reference,
                self.yours,
                self.body,
            ]
        )
        self.widget.add_class("st-differences")
        self.draw()

    @property
    def theirs(self) -> Rules:
        return Rules.preset(str(self.reference.value))

    def set_rules(self, rules: Rules, *, four_colour: bool | None = None, large: bool | None = None) -> None:
        """The learner's rules (and display choices) changed: list the differences again."""
        self.rules = rules
        if four_colour is not None:
            self.four_colour = four_colour
        if large is not None:
            self.large = large
        self.draw()

    # --- drawing ----------------------------------------------------------------------------------

    def draw(self) -> None:
        theirs = self.theirs
        self.found = differences(self.rules, theirs)
        self.quizzes, self.contrasts = [], []
        count = len(self.found)
        said = (
            f"{count} rule{'s' if count != 1 else ''} of your table differ{'s' if count == 1 else ''} "
            f"from {_escape(theirs.title)}:"
            if count
            else f"Your table plays {_escape(theirs.title)} exactly: nothing changes. To see what house rules "
            "change, choose them on Home (another rule set, no nil, blind nil, a team at −200 loses) and come "
            "back here."
        )
        self.yours.value = (
            f'<p class="st-note"><b>Your table:</b> {_escape(self.rules.describe())}</p>'
            f'<p class="{"st-diff-count" if count else "st-diff-same"}">{said}</p>'
        )
        parts: list[w.Widget] = []
        for difference in self.found:
            parts += self._difference(difference, theirs)
        parts += self._quiz(theirs)
        self.body.children = tuple(parts)

    def _difference(self, difference: Difference, theirs: Rules) -> list[w.Widget]:
        head = w.HTML(
            f'<h3 class="st-diff-heading">{_escape(difference.heading)}</h3>'
            f'<p class="st-diff-says">{_escape(difference.says)}</p>'
            f'<p class="st-note">At your table: {_escape(difference.yours)}. '
            f"In {_escape(theirs.title)}: {_escape(difference.theirs)}.</p>"
        )
        example = difference.example
        if example is None:
            return [head]
        same = "The same at both tables:" if example.yours.possible and example.theirs.possible else "The example:"
        setting = w.HTML(f'<p class="st-diff-setting"><b>{same}</b> {_escape(example.setting)}</p>')
        return [
            head,
            setting,
            columns(
                self._side("Your table", example, example.yours), self._side(theirs.title, example, example.theirs)
            ),
        ]

    def _side(self, title: str, example: Example, outcome: Outcome) -> list[w.Widget]:
        out: list[w.Widget] = [
            w.HTML(f'<h4 class="st-diff-side">{_escape(title)}</h4><p><b>{_escape(outcome.answer)}</b></p>')
        ]
        if outcome.trick is not None:
            out.append(
                trick_view(
                    outcome.trick,
                    label=f"the trick at {title}",
                    four_colour=self.four_colour,
                    large=self.large,
                )
            )
        if example.kind in _SCORED and outcome.scores is not None:
            from .lesson_player import score_lines_html

            said = "".join(f"<p>{_escape(line)}</p>" for line in outcome.sentences) if example.kind in _RULED else ""
            out.append(w.HTML(said + score_lines_html(dict(outcome.scores))))
        else:
            out.append(w.HTML("".join(f'<p class="st-diff-why">{_escape(s)}</p>' for s in outcome.sentences)))
        return out

    def _quiz(self, theirs: Rules) -> list[w.Widget]:
        items = quiz_items(self.rules, theirs, self.found)
        if not items:
            return []
        parts: list[w.Widget] = [
            w.HTML(
                '<h3 class="st-diff-heading">A short quiz on your table</h3><p class="st-note">Answer each at '
                f"your table; after your answer, the answer in {_escape(theirs.title)} is shown under it.</p>"
            )
        ]
        for item, other in items:
            contrast = live(w.HTML())  # read out when it appears, after the verdict
            contrast.add_class("st-diff-contrast")
            view = QuizView(
                item,
                on_answer=self._contrast(contrast, other, theirs),
                four_colour=self.four_colour,
                large=self.large,
                retries=self.retries,
            )
            self.quizzes.append(view)
            self.contrasts.append(contrast)
            parts += [view.widget, contrast]
        return parts

    @staticmethod
    def _contrast(box: w.HTML, other: QuizItem | None, theirs: Rules) -> Any:
        """What the reference table answers, shown once the learner has answered at theirs."""

        def show(_item: QuizItem, _feedback: Feedback, _tries: int) -> None:
            if other is None:
                box.value = (
                    f'<p class="st-diff-contrast-text">In {_escape(theirs.title)} this position cannot come up '
                    "(a card, a bid or a count of it is not possible there), so the question is not asked there.</p>"
                )
                return
            answer, why = contrast_words(other)
            box.value = (
                f'<p class="st-diff-contrast-text">In {_escape(theirs.title)} the answer is <b>{_escape(answer)}</b>: '
                + " ".join(_escape(line) for line in why)
                + "</p>"
            )

        return show
