"""The lesson player: one step at a time, Next/Back, where you are, keyboard-friendly.

Each block is shown in the rule set the teacher picked when it is written for it;
otherwise in its own, under a note that names both ("Shown in the Spades with Jokers
rule set (your table plays Regular Spades)"). Prose and labels are shown with their
placeholders filled by the engine for the rule set they are shown in.

A step asks before it tells: what it says after a question is held (``Held``) until the question is
answered, with a line in its place. A lesson whose front matter says ``pass: questions`` holds Next
until each of a step's questions is answered right, and offers another question after a miss.

After the lesson's own last step the player offers a closing review (``lessons.review``): three
mixed questions of the kinds the lesson taught, drawn by mastery from the learner's answers
(``history``). The lesson is done at its own last step; "Finish" there skips the review.
"""

from __future__ import annotations

import html
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from ..engine import Rules, Seat, Team
from ..engine.text import signed
from ..lessons import parts
from ..lessons.review import REVIEW_QUESTIONS, review_kinds
from ..quiz import Feedback, QuizItem
from .cards import hand_view, trick_view
from .ending_view import EndingView
from .errors import guarded, report
from .landmarks import live
from .markdown import markdown_html
from .quiz_view import QuizView
from .tree import close_unused, replace_children

if TYPE_CHECKING:
    from ..lessons import Block, Lesson
    from ..lessons.parts import Part
    from ..quiz.mastery import Answered
    from .lesson_review import ReviewView

# a small label, set apart from the captions of the cards below it
_NOTE_STYLE = (
    ' style="display: inline-block; background: #eceff1; border-left: 0.3em solid #607d8b; '
    'padding: 0.15em 0.6em; border-radius: 0.25em; font-size: 0.95em"'
)


class Held:
    """What a step says after its questions (``views``: quizzes, endings to play), held until each is
    answered (its last try graded, or played to its end), with a line in its place saying so. It sits in
    ``parent`` (the step's widgets, or what an earlier question holds) after the questions; ``widgets`` is
    filled with what follows them, then ``close()`` puts them in the box, or removes the line and the box
    if nothing followed."""

    def __init__(self, views: Sequence[QuizView | EndingView], parent: list[w.Widget]) -> None:
        self.widgets: list[w.Widget] = []
        self.parent = parent
        self.waiting = {id(view) for view in views}
        first = "Play the ending out" if all(isinstance(v, EndingView) for v in views) else "Check your answer"
        self.line = w.HTML(
            f'<div class="st-note st-answer-first" role="note">{first}: the explanation follows it.</div>'
        )
        self.box = w.VBox()
        self.box.add_class("st-after-answer")
        self.box.layout.display = "none"
        parent.extend([self.line, self.box])
        for view in views:
            self._listen(view)

    def _listen(self, view: QuizView | EndingView) -> None:
        inner = view.on_answer

        def answered(item: Any, feedback: Feedback, attempt: int) -> None:
            if inner is not None:
                inner(item, feedback, attempt)
            self.waiting.discard(id(view))
            if not self.waiting:
                self.show()

        view.on_answer = answered

    @property
    def shown(self) -> bool:
        return bool(self.box.layout.display != "none")

    def show(self) -> None:
        self.box.layout.display = None
        self.line.layout.display = "none"

    def close(self) -> None:
        if self.widgets:
            self.box.children = tuple(self.widgets)
        else:  # nothing to hold: the line and the box go, and are closed (no page shows them)
            self.parent.remove(self.line)
            self.parent.remove(self.box)
            close_unused([self.line, self.box])


class LessonPlayer:
    """Shows one step of a lesson; every change re-renders from (lesson, step, rules)."""

    def __init__(
        self,
        lesson: Lesson,
        rules: Rules,
        *,
        step: int = 0,
        on_step: Callable[[Lesson, int], None] | None = None,
        on_answer: Callable[[QuizItem, Feedback, int], None] | None = None,
        on_finish: Callable[[Lesson], None] | None = None,
        four_colour: bool = False,
        large: bool = False,
        retries: int = 0,
        seed: int | None = None,
        history: Callable[[], Sequence[Answered]] | None = None,
        on_review_answer: Callable[[QuizItem, Feedback, int], None] | None = None,
        lessons: Sequence[Lesson] = (),
        due: Callable[[Sequence[str]], Sequence[str]] | None = None,
    ) -> None:
        self.lesson = lesson
        #: where the generated quizzes draw from: each visit to a step draws anew from (seed, visit)
        self.seed = random.SystemRandom().randrange(1, 100_000) if seed is None else seed
        self.visits = 0
        self.rules = rules
        self.step = max(0, min(step, len(lesson.steps) - 1))
        self.on_step = on_step
        self.on_answer = on_answer
        self.on_finish = on_finish
        self.four_colour = four_colour
        self.large = large
        self.retries = retries  # a second try for each quiz, as the learner's settings say
        self.quizzes: list[QuizView] = []
        #: everything the step asks, in order: its quizzes and the endings it has the learner play
        self.asking: list[QuizView | EndingView] = []
        #: what the step says after each of its questions, held until the question is answered
        self.held: list[Held] = []
        from .glossary import TermLinks

        self.terms = TermLinks()  # a glossary term is linked at its first use in the step only
        #: the learner's answers so far, which the review is scheduled from (none: a first visit)
        self.history = history
        self.on_review_answer = on_review_answer
        #: which of some kinds are due for review today (none known: the review goes by the misses alone)
        self.due = due
        self.lessons = tuple(lessons)  # every lesson: one with no quiz reviews the kinds of the one before
        self.reviewing = False  # the closing review is shown (``step`` stays the lesson's last step)
        self.review: ReviewView | None = None
        self.reviews = 0  # reviews opened: each draws anew from (seed, this count)
        #: the lesson's questions answered in this visit, each right on the first try or not
        self.answers: list[bool] = []
        #: in a class, the last step (from 0) the teacher lets learners reach (None: every step)
        self.limit: int | None = None
        #: the answer last graded, as the learner gave it (what a class's teacher sees)
        self.last_given: Any = None

        self.title = w.HTML()
        self.where = live(w.HTML())
        self.bar = w.IntProgress(min=0, max=len(lesson.steps), value=self.step + 1, description="")
        self.bar.add_class("st-progress")
        self.body = w.VBox()
        self.body.add_class("st-step")
        self.back = w.Button(description="◀ Back", tooltip="Previous step")
        self.next = w.Button(description="Next ▶", button_style="primary", tooltip="Next step")
        self.back.add_class("st-back")
        self.next.add_class("st-next")
        # on the last step, beside "Review ▶": the review is offered, not forced
        self.finish = w.Button(description="Finish ✓", tooltip="Back to the lesson list, without the review")
        self.finish.add_class("st-finish")
        self.finish.on_click(guarded(lambda _b: self._finish_here()))
        self.back.on_click(guarded(lambda _b: self._back()))
        self.next.on_click(guarded(lambda _b: self._forward()))
        # a lesson that asks its questions be passed: what holds Next, and another question after a miss
        self.gate = w.HTML()
        self.gate.add_class("st-gate")
        self.again = w.Button(description="Another question", tooltip="The step again, with a new question")
        self.again.add_class("st-again")
        self.again.on_click(guarded(lambda _b: self.render()))
        nav = w.HBox([self.back, self.where, self.gate, self.again, self.finish, self.next])
        nav.add_class("st-nav")
        nav.add_class("st-dock")  # docked at the bottom of the window: Next is in view on every step
        self.widget = w.VBox([self.terms.widget, self.title, self.bar, self.body, nav])
        self.widget.add_class("st-lesson")
        self.render()

    # --- moving ------------------------------------------------------------------------------

    def open_questions(self) -> list[QuizView | EndingView]:
        """The step's questions not yet answered right: while the lesson asks them passed, Next waits."""
        if not self.lesson.must_pass or self.reviewing:
            return []
        return [view for view in self.asking if view.feedback is None or not view.feedback.correct]

    def held_by_teacher(self) -> bool:
        """Whether the teacher's limit stops the learner at this step (in a class)."""
        return self.limit is not None and not self.reviewing and self.step >= self.limit

    def set_limit(self, limit: int | None) -> None:
        """The last step (from 0) the learner may reach now (None: all); a learner past it is brought back."""
        if limit is not None:
            limit = max(0, min(limit, len(self.lesson.steps) - 1))
        if limit == self.limit:
            return
        self.limit = limit
        if limit is not None and (self.step > limit or self.reviewing):
            self.go(limit)
        else:
            self._show_gate()

    def _show_gate(self) -> None:
        """Next held while a question of a lesson that asks them passed is open; after a miss, another;
        and at the step the teacher has the class wait at."""
        left = self.open_questions()
        missed = any(view.feedback is not None for view in left)
        self.next.disabled = self.finish.disabled = bool(left)
        if not left and self.held_by_teacher():
            last = self.step == len(self.lesson.steps) - 1
            self.next.disabled = not last
            self.gate.value = '<span class="st-gate-words st-class-limit" role="status">Your teacher asks the class to wait here.</span>'
            self.gate.layout.display = None if not last else "none"
            self.again.layout.display = "none"
            return
        if not left:
            self.gate.value = ""
        elif missed:
            self.gate.value = '<span class="st-gate-words" role="status">Not yet: try another question to go on.</span>'
        else:
            n = len(left)
            self.gate.value = (
                f'<span class="st-gate-words" role="status">Answer {"this question" if n == 1 else f"these {n} questions"}'
                " right to go on.</span>"
            )
        self.gate.layout.display = None if left else "none"
        self.again.layout.display = None if missed else "none"

    def _forward(self) -> None:
        if self.open_questions():  # a click on the held button (a page may send one): nothing moves
            self._show_gate()
            return
        if self.held_by_teacher() and self.step < len(self.lesson.steps) - 1:
            self._show_gate()  # the teacher's limit: a click the page sends anyway moves nothing
            return
        if self.step == len(self.lesson.steps) - 1:
            if self.reviewing or not self.review_kinds():
                self._finish()
            else:
                self.open_review()
            return
        self.go(self.step + 1)

    def _back(self) -> None:
        # from the review, back to the lesson's last step (``step`` is still that step)
        self.go(self.step if self.reviewing else self.step - 1)

    def _finish_here(self) -> None:
        """Finish beside "Review ▶": held, like Next, while the step's questions are to be passed."""
        if self.open_questions():
            self._show_gate()
            return
        self._finish()

    def _finish(self) -> None:
        if self.on_finish is not None:
            self.on_finish(self.lesson)

    def review_kinds(self) -> tuple[str, ...]:
        """The kinds the closing review asks in the rule set picked (empty: the lesson has no review)."""
        return review_kinds(self.lesson, self.rules, self.lessons)

    def open_review(self) -> None:
        """The closing review, after the lesson's last step, drawn anew from the answers given so far."""
        from .lesson_review import ReviewView

        kinds = self.review_kinds()
        if not kinds:
            return
        self.reviews += 1
        text = f"spades-tutor/lesson/{self.seed}/{self.lesson.slug}/review/{self.reviews}"
        self.review = ReviewView(
            self.rules,
            kinds,
            self.history() if self.history is not None else (),
            random.Random(text).randrange(1, 100_000),
            self.on_review_answer,
            four_colour=self.four_colour,
            large=self.large,
            retries=self.retries,
            due=self.due(kinds) if self.due is not None else (),
        )
        self.step = len(self.lesson.steps) - 1
        self.reviewing = True
        self.render()

    def go(self, step: int) -> None:
        step = max(0, min(step, len(self.lesson.steps) - 1))
        if self.reviewing:  # Back from the review: the lesson's step, shown again
            self.reviewing = False
            self.review = None
            self.step = step
            self.render()
            if self.on_step is not None:
                self.on_step(self.lesson, self.step)
            return
        if step == self.step:
            return
        self.step = step
        self.render()
        if self.on_step is not None:
            self.on_step(self.lesson, self.step)

    def set_rules(
        self, rules: Rules, *, four_colour: bool | None = None, large: bool | None = None, retries: int | None = None
    ) -> None:
        before = (self.rules, self.four_colour, self.large, self.retries)
        self.rules = rules
        if four_colour is not None:
            self.four_colour = four_colour
        if large is not None:
            self.large = large
        if retries is not None:
            self.retries = retries
        if before == (self.rules, self.four_colour, self.large, self.retries):
            # the same settings again (the saved ones arriving after the step is shown): the step is
            # not drawn again, so a card the learner has focused or chosen, or a question answered, stays
            return
        if self.reviewing:  # the review's questions are drawn again in the new rule set
            self.reviews -= 1
            self.reviewing = False
            self.open_review()
            if not self.reviewing:  # the new rule set offers none of the lesson's kinds
                self.review = None
                self.render()
            return
        self.render()

    # --- drawing -----------------------------------------------------------------------------

    def render(self) -> None:
        if self.reviewing and self.review is not None:
            self._render_review(self.review)
            return
        lesson = self.lesson
        step = lesson.steps[self.step]
        total = len(lesson.steps)
        # the step's content first, then the labels that say where you are: the page applies
        # updates in order, so "Step 2 of 4" never shows above step 1's cards
        self.quizzes = []
        self.asking = []
        self.visits += 1
        self.terms.restart()  # a glossary term is linked at its first use in the step only
        children: list[w.Widget] = []
        from ..lessons import table_note
        from ..lessons.placeholders import fill_placeholders

        lesson_note = table_note(lesson, self.rules)  # a lesson the table cannot play as taught says so first
        if lesson_note is not None:
            children.append(
                w.HTML(f'<div class="st-caption st-shown-in" role="note"{_NOTE_STYLE}>{html.escape(lesson_note)}</div>')
            )
        last_note: str | None = None  # blocks in a row shown in the same other rule set share one note
        # ask before telling: what a step says after a question is held until the question is answered
        self.held = []
        shown = children
        for block in step.blocks:
            asked = len(self.asking)
            try:
                if not block.shown(lesson, self.rules):
                    continue
                note = self.note(block)
                if note is not None and note != last_note:
                    shown.append(
                        w.HTML(
                            f'<div class="st-caption st-shown-in" role="note"{_NOTE_STYLE}>{html.escape(note)}</div>'
                        )
                    )
                last_note = note
                shown.extend(self.block_widgets(block))
            except Exception as exc:  # one bad block must not blank the step
                report(exc)
                shown.append(w.HTML('<div class="st-warning">This part of the step could not be shown.</div>'))
            if len(self.asking) > asked:
                held = Held(self.asking[asked:], shown)
                self.held.append(held)
                shown = held.widgets
        for held in reversed(self.held):  # the innermost first: what it leaves is what holds it shows
            held.close()
        self.held = [held for held in self.held if held.widgets]  # a question with nothing after it holds nothing
        replace_children(self.body, children)
        self.title.value = (
            f'<h2 class="st-lesson-title">Lesson {lesson.number}: {html.escape(lesson.title)}</h2>'
            f'<div class="st-step-title">{html.escape(fill_placeholders(step.title, self.rules))}</div>'
        )
        self.where.value = f'<span class="st-where" role="status">Step {self.step + 1} of {total}</span>'
        self.bar.value = self.step + 1
        self.bar.description = ""
        self.back.disabled = self.step == 0
        self.back.tooltip = "Previous step"
        last = self.step == total - 1
        review = last and bool(self.review_kinds())
        if review:
            self.next.description = "Review ▶"
            self.next.tooltip = f"A short review: {REVIEW_QUESTIONS} mixed questions on this lesson"
        else:
            self.next.description = "Finish ✓" if last else "Next ▶"
            self.next.tooltip = "Back to the lesson list" if last else "Next step"
        self.finish.layout.display = None if review else "none"
        self._show_gate()

    def _render_review(self, review: ReviewView) -> None:
        lesson = self.lesson
        self.quizzes = []
        self.asking = []
        replace_children(self.body, [review.widget])
        self.title.value = (
            f'<h2 class="st-lesson-title">Lesson {lesson.number}: {html.escape(lesson.title)}</h2>'
            '<div class="st-step-title">Review</div>'
        )
        total = len(lesson.steps)
        self.where.value = f'<span class="st-where" role="status">Review after step {total} of {total}</span>'
        self.bar.value = total
        self.back.disabled = False
        self.back.tooltip = "Back to the last step"
        self.next.description = "Finish ✓"
        self.next.tooltip = "Back to the lesson list"
        self.finish.layout.display = "none"
        self._show_gate()

    def note(self, block: Block) -> str | None:
        """The note above a block shown in another rule set than the one picked (None: it follows the pick)."""
        from ..lessons import rule_set_note

        return rule_set_note(block.rules(self.lesson, self.rules), self.rules)

    def block_widgets(self, block: Block) -> list[w.Widget]:
        """The block as its kind shows it (``view``: parts built in the rule set it is shown in), drawn in order."""
        shown = block.resolve(self.lesson, self.rules)  # the rule set worked out once for every part
        seed = self.quiz_seed(block) if block.generated else None
        return [widget for part in shown.view(seed) for widget in self.part_widgets(part)]

    def part_widgets(self, part: Part) -> list[w.Widget]:
        """One part of what a block shows (a ``lessons.parts`` value), drawn."""
        return [widget] if isinstance(widget := self._draw(part), w.Widget) else widget

    def _draw(self, part: Part) -> w.Widget | list[w.Widget]:
        opts: dict[str, Any] = {"four_colour": self.four_colour, "large": self.large}
        match part:
            case parts.Words(text=text, tip=False, rules=rules):
                return w.HTML(f'<div class="st-prose">{self.linked(markdown_html(text), rules or self.rules)}</div>')
            case parts.Words(text=text, tip=True, rules=rules):
                linked = self.linked(markdown_html(text), rules or self.rules)
                return w.HTML(f'<aside class="st-tip"><b>Tip from the table.</b> {linked}</aside>')
            case parts.Caption(text=text, bold=bold):
                head = f"<b>{html.escape(bold)}</b>" if bold else ""
                return w.HTML(f'<div class="st-caption">{head}{html.escape(text)}</div>')
            case parts.Cards(rules=rules, cards=cards, label=label, sort=sort):
                return hand_view(rules, cards, sort=sort, label=label, **opts)
            case parts.FourHands(rules=rules, hands=hands):
                return self._four_hands(rules, hands)
            case parts.TrickShown(trick=trick, label=label):
                return trick_view(trick, label=label, **opts)
            case parts.Explain(text=text):
                return w.HTML(f'<div class="st-explain">{html.escape(text)}</div>')
            case parts.ScoreLines(scores=scores):
                return w.HTML(score_lines_html(scores))
            case parts.Replay(round=rnd):
                return TrickStepper(rnd, **opts).widget
            case parts.Question(item=item, note=note):
                view = QuizView(item, self._answered, retries=self.retries, **opts)
                self.quizzes.append(view)
                self.asking.append(view)
                if not note:
                    return view.widget
                return [view.widget, w.HTML(f'<div class="st-note st-quiz-seed">{html.escape(note)}</div>')]
            case parts.Ending(puzzle=puzzle):
                ending = EndingView(puzzle, self._played, **opts)
                self.asking.append(ending)
                return ending.widget
        raise TypeError(f"the lesson player cannot draw {part!r}")

    def _answered(self, item: QuizItem, feedback: Feedback, attempt: int) -> None:
        """A question of a step answered (its last try graded): kept for the lesson's summary, then recorded."""
        self.answers.append(feedback.correct and attempt == 1)
        view = next((v for v in self.asking if getattr(v, "item", None) is item), None)
        self.last_given = view.response() if isinstance(view, QuizView) else None
        if self.on_answer is not None:
            self.on_answer(item, feedback, attempt)
        self._show_gate()

    def _played(self, puzzle: Any, feedback: Feedback, attempt: int) -> None:
        """An ending of a step played to its end: the first play counts in the lesson's summary."""
        if attempt == 1:
            self.answers.append(feedback.correct)
        self._show_gate()

    def linked(self, markup: str, rules: Rules) -> str:
        """Prose with the step's first use of each glossary term made a button opening its definition."""
        return self.terms.link(markup, rules)

    def quiz_seed(self, block: Block) -> int:
        """The seed a generated quiz block draws with on this visit: from the player's seed, the
        lesson, the step, the block's place and the visit count (so a test can make it again)."""
        place = self.lesson.steps[self.step].blocks.index(block)
        text = f"spades-tutor/lesson/{self.seed}/{self.lesson.slug}/{self.step}/{place}/{self.visits}"
        return random.Random(text).randrange(1, 100_000)

    def _four_hands(self, rules: Rules, hands: dict[Seat, Any]) -> w.Widget:
        cells = []
        for seat in Seat:
            cells.append(
                w.VBox(
                    [
                        w.HTML(f'<div class="st-seat-label">{seat.label} ({seat.team.short})</div>'),
                        hand_view(
                            rules,
                            hands[seat],
                            label=f"{seat.label}'s hand",
                            four_colour=self.four_colour,
                            large=self.large,
                        ),
                    ]
                )
            )
        box = w.VBox(cells)
        box.add_class("st-four-hands")
        return box

    def _deck(self, rules: Rules) -> list[w.Widget]:
        removed = rules.removed
        jokers = [c for c in rules.deck() if c.is_joker]
        parts: list[w.Widget] = [
            w.HTML(
                f'<div class="st-caption"><b>{html.escape(rules.title)}</b>: {len(rules.deck())} cards, 13 to each of 4 players.</div>'
            )
        ]
        if removed:
            parts.append(w.HTML('<div class="st-caption">Taken out:</div>'))
            parts.append(
                hand_view(
                    rules, removed, sort=False, label="cards taken out", four_colour=self.four_colour, large=self.large
                )
            )
        if jokers:
            parts.append(w.HTML('<div class="st-caption">Added:</div>'))
            parts.append(hand_view(rules, jokers, label="jokers added", four_colour=self.four_colour, large=self.large))
        return parts


def score_lines_html(scores: dict[Team, Any]) -> str:
    rows = []
    for team, hs in scores.items():
        lines = (
            "".join(f"<li>{html.escape(line.label)}: <b>{signed(line.points)}</b></li>" for line in hs.lines)
            or "<li>nothing</li>"
        )
        rows.append(
            f'<div class="st-score-team"><b>{team.label}</b>: {signed(hs.points)} this hand, {hs.bags} bag{"s" if hs.bags != 1 else ""} after<ul>{lines}</ul></div>'
        )
    return f'<div class="st-score">{"".join(rows)}</div>'


class TrickStepper:
    """A whole hand, one trick at a time, each with the engine's sentence."""

    def __init__(self, rnd: Any, *, four_colour: bool = False, large: bool = False) -> None:
        self.round = rnd
        self.index = 0
        self.four_colour = four_colour
        self.large = large
        self.header = w.HTML()
        self.table = w.Box()
        self.sentence = live(w.HTML())
        self.prev = w.Button(description="◀ Trick", tooltip="Previous trick")
        self.next = w.Button(description="Trick ▶", tooltip="Next trick")
        self.prev.add_class("st-trick-prev")
        self.next.add_class("st-trick-next")
        self.prev.on_click(guarded(lambda _b: self.go(self.index - 1)))
        self.next.on_click(guarded(lambda _b: self.go(self.index + 1)))
        bids = ", ".join(f"{s.label} {b}" for s, b in rnd.bids.items())
        self.widget = w.VBox(
            [
                w.HTML(f'<div class="st-caption">Bids: {html.escape(bids)}</div>'),
                self.header,
                self.table,
                self.sentence,
                w.HBox([self.prev, self.next]),
            ]
        )
        self.widget.add_class("st-stepper")
        self.render()

    def go(self, index: int) -> None:
        self.index = max(0, min(index, len(self.round.tricks) - 1))
        self.render()

    def render(self) -> None:
        tricks = self.round.tricks
        trick = tricks[self.index]
        won = {s: 0 for s in Seat}
        for t in tricks[: self.index + 1]:
            won[t.winner] += 1
        tally = " · ".join(f"{team.short} {won[team.seats[0]] + won[team.seats[1]]}" for team in Team)
        self.header.value = f'<div class="st-step-title">Trick {self.index + 1} of {len(tricks)} <span class="st-tally">(tricks so far: {tally})</span></div>'
        replace_children(
            self.table,
            [trick_view(trick, label=f"trick {self.index + 1}", four_colour=self.four_colour, large=self.large)],
        )
        self.sentence.value = f'<div class="st-explain" role="status">{html.escape(trick.reason)}</div>'
        self.prev.disabled = self.index == 0
        self.next.disabled = self.index == len(tricks) - 1
