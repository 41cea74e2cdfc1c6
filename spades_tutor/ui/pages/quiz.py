"""Quiz yourself: questions of every kind (or one kind), seeded, with a running score and streak;
"Practice what I miss" in sessions of a set length that end on a summary; the day's answers against a goal."""

from __future__ import annotations

import base64
import html
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from ...engine import Rules
from ...quiz import Feedback, QuizItem
from ...quiz.practice import DAILY_GOAL, SESSION_LENGTH, SessionSummary, answered_today, session_questions
from ..choices import Dropdown
from ..errors import guarded
from ..quiz_view import KIND_TITLES, QuizView
from ..tree import replace_children
from .base import Page, SettingsChange, register

if TYPE_CHECKING:
    from ..app import App  # type-only: a page is handed the shell that builds it

DIFFICULTY_NAMES = {1: "Easy", 2: "Medium", 3: "Tricky"}
NEXT_QUESTION = "Next question ▶"
#: the Next button after a practice session's last question
SESSION_OVER = "See how the session went ▶"
#: the file the Quiz page's export saves: this page's answers only (Progress saves every answer)
QUIZ_CSV = "spades-tutor-quiz-answers.csv"


@register
class QuizPage(Page):
    """Quiz yourself: every kind mixed, seeded, with a running score and streak."""

    title = "Quiz yourself"
    link = "quiz"
    order = 30

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.seed = random.SystemRandom().randrange(1, 100_000)
        self.view: QuizView | None = None
        self.item: QuizItem | None = None
        self.kind = Dropdown(
            options=self._kind_options(app.rules),
            value="mixed",
            description="Questions:",
            style={"description_width": "initial"},
        )
        self._listing = False  # the Questions menu being relisted for new rules, not a kind picked
        self.difficulty = Dropdown(
            options=[(name, level) for level, name in DIFFICULTY_NAMES.items()],
            value=app.settings.quiz_level,
            description="Level:",
            style={"description_width": "initial"},
        )
        self.kind.observe(guarded(lambda _c: None if self._listing else self.chosen()), names="value")
        self.difficulty.observe(guarded(self._level_changed), names="value")
        #: True while "Practice what I miss" serves the questions (the menus' choice ends it)
        self.practising = False
        self._quiet = False  # the Level menu set by the practice, not picked by the learner
        self._line = ("", 1)  # the practice's words and the level the question's line names
        #: the learner's clock for what is due today (a test fixes it)
        self.clock: Callable[[], float] = time.time
        self.practice_button = w.Button(
            description="Practice what I miss",
            tooltip="The kinds due for review today first, then those you missed, at the level you have reached",
            layout=w.Layout(width="auto", flex="0 0 auto"),
        )
        self.practice_button.add_class("st-practice")
        self.practice_button.on_click(guarded(lambda _b: self.practise()))
        self.board = w.HTML()
        self.board.add_class("st-scoreboard")
        self.slot = w.VBox()
        self.next_button = w.Button(description=NEXT_QUESTION, button_style="primary")
        self.next_button.add_class("st-next-question")
        self.next_button.on_click(guarded(lambda _b: self.next_item()))
        self.download = w.HTML()
        self.download.add_class("st-download")
        self.reset = w.Button(
            description="Reset progress", button_style="warning", tooltip="Forget every answer so far"
        )
        self.reset.on_click(guarded(lambda _b: self.ask_reset()))
        # "Reset progress" only asks; the learner's answers go only on a second, explicit click
        self.confirm_reset = w.Button(
            description="Yes, forget everything", button_style="danger", layout=w.Layout(width="auto", flex="0 0 auto")
        )
        self.confirm_reset.add_class("st-confirm-reset")
        self.confirm_reset.on_click(guarded(lambda _b: self.reset_confirmed()))
        self.cancel_reset = w.Button(description="Cancel", layout=w.Layout(width="auto", flex="0 0 auto"))
        self.cancel_reset.add_class("st-cancel-reset")
        self.cancel_reset.on_click(guarded(lambda _b: self.end_reset()))
        self.reset_question = w.HTML(
            '<div class="st-proj-question" role="alert">Forget every answer and every lesson step reached '
            "in this browser? This cannot be undone.</div>",
        )
        self.reset_answers = w.HBox([self.confirm_reset, self.cancel_reset])
        self.reset_links = w.HBox([self.download, self.reset], layout=w.Layout(align_items="center"))
        self.reset_row = w.VBox([self.reset_links])
        self.seed_line = w.HTML()
        self.widget = w.VBox(
            [
                w.HTML('<h2 class="st-lesson-title">Quiz yourself</h2>'),
                w.HBox([self.kind, self.difficulty, self.practice_button]),
                self.board,
                self.seed_line,
                self.slot,
                self.next_button,
                self.reset_row,
            ]
        )
        self.refresh_board()

    @staticmethod
    def _kind_options(rules: Rules) -> list[tuple[str, str]]:
        """The Questions menu: every kind mixed, then each kind this table asks (the quiz package says which)."""
        from ...quiz import kinds

        return [("All kinds, mixed", "mixed")] + [(KIND_TITLES[kind], kind) for kind in kinds.offered(rules)]

    def set_rules(self, rules: Rules) -> None:
        """List the kinds ``rules`` offer (no nil question at a table without nil). A kind picked that
        they do not offer gives way to every kind mixed; the caller draws the next question."""
        options = self._kind_options(rules)
        if [tuple(o) for o in self.kind.options] == options:
            return
        kind = self.kind.value
        self._listing = True
        try:
            self.kind.options = options
            self.kind.value = kind if self.asks(kind) else "mixed"
        finally:
            self._listing = False

    def apply(self, change: SettingsChange) -> None:
        """New rules picked (or named by a link): the menu lists their kinds, and a question on show is
        drawn again for them. The saved record arriving: its level and second-try setting are shown, a
        question its rules do not ask (a nil one at a table without nil) is drawn again, and the score
        is counted from its answers."""
        self.set_rules(change.rules)
        if change.chosen:
            if self.view is not None:
                self.new_item()
            return
        if self.item is not None and not self.asks(self.item.kind):
            self.new_item()
        self.show_level()
        self.show_retries()
        self.resume_practice()
        self.refresh_board()

    def asks(self, kind: str) -> bool:
        """Whether the Questions menu lists ``kind`` (the table's rules offer it)."""
        return any(value == kind for _label, value in self.kind.options)

    def _level_changed(self, _change: Any) -> None:
        if self._quiet:
            return
        self.app.settings.quiz_level = int(self.difficulty.value)
        self.app.save()
        self.chosen()

    def chosen(self) -> None:
        """A kind or a level picked from the menus: their questions, no longer the practice's (its session ends)."""
        self.practising = False
        self._end_session()
        self.new_item()

    def practise(self) -> None:
        """ "Practice what I miss": a session of ``SESSION_LENGTH`` questions whose kind and level come from
        the answers given, then a summary (a menu used ends it sooner)."""
        self.practising = True
        self.app.settings.practice_from = time.time()
        self.app.save()
        self.seed += 1
        self.new_item()

    def _end_session(self) -> None:
        if self.app.settings.practice_from:
            self.app.settings.practice_from = 0.0
            self.app.save()

    def session_asked(self) -> int:
        """The questions of the practice session under way answered so far (0 when none is under way)."""
        since = self.app.settings.practice_from
        return len(session_questions(self.app.progress.answers, since)) if since else 0

    def session_over(self) -> bool:
        return self.practising and self.session_asked() >= SESSION_LENGTH

    def resume_practice(self) -> None:
        """The saved record says a practice session is under way (begun before a reload, or in another
        tab): go on with it, from a question not yet tried, or on to its summary if it is complete."""
        if not self.app.settings.practice_from or self.practising:
            return
        self.practising = True
        if self.session_over():
            self.show_summary()
        elif self.view is None or self.view.tries == 0:
            self.new_item()

    def show_level(self) -> None:
        """The saved level, once the browser has sent it (a new question only if it differs)."""
        if self.difficulty.value != self.app.settings.quiz_level:
            self.difficulty.value = self.app.settings.quiz_level

    def show_retries(self) -> None:
        """The saved second-try setting, once the browser has sent it, for a question not yet tried."""
        if self.view is not None and self.view.tries == 0:
            self.view.retries = self.app.settings.retries

    def ask_reset(self) -> None:
        self.reset_row.children = [self.reset_question, self.reset_answers]

    def end_reset(self) -> None:
        self.reset_row.children = [self.reset_links]

    def reset_confirmed(self) -> None:
        self.app.reset_progress()
        self.end_reset()

    def next_item(self) -> None:
        if self.session_over():
            self.show_summary()
            return
        self.seed += 1
        self.new_item()

    def show_summary(self) -> None:
        """The practice session's end: what was right, what moved, what to practise next, the day's goal."""
        from ...quiz import kinds
        from ...quiz.practice import summarise

        since = self.app.settings.practice_from
        offered = list(kinds.offered(self.app.rules))
        summary = summarise(
            self.app.progress.answers, since, offered, self.seed + 1, now=self.clock(), zone=self.app.store.zone
        )
        self.practising = False
        self._end_session()
        again = w.Button(description="Another session ▶", button_style="primary")
        again.add_class("st-practice-again")
        again.on_click(guarded(lambda _b: self.practise()))
        back = w.Button(description="Back to the questions")
        back.on_click(guarded(lambda _b: self.next_item()))
        done = w.HTML(summary_html(summary, self.today_words()))
        done.add_class("st-session-summary")
        replace_children(self.slot, [done, w.HBox([again, back])])
        self.view, self.item = None, None
        self.next_button.description = NEXT_QUESTION
        self.next_button.layout.display = "none"
        self.seed_line.value = '<div class="st-note">Practice what I miss: the session is over.</div>'
        self.refresh_board()
        again.focus()

    def today_words(self, today: int | None = None) -> str:
        """The day's answers (any page's; ``today`` if already counted) against the daily goal, on the
        learner's clock."""
        if today is None:
            today = answered_today(self.app.progress.answers, self.app.store.zone, time.time())
        if today >= DAILY_GOAL:
            return f"Today: {today} answers, the daily goal of {DAILY_GOAL} met ✓"
        return f"Today: {today} of {DAILY_GOAL} answers (the daily goal)"

    def new_item(self) -> None:
        from ...quiz import kinds
        from ...quiz.generators import generate

        rules = self.app.rules
        kind = self.kind.value
        level = int(self.difficulty.value)
        practice = ""
        if self.practising:
            kind, level, practice = self._practice_item(rules)
            self._show_practice_level(level)
        elif kind == "mixed":
            kind = random.Random(self.seed).choice(kinds.offered(rules))
        self.item = generate(kind, rules, self.seed, level)
        self.next_button.description = NEXT_QUESTION
        self.next_button.layout.display = None
        s = self.app.settings
        self.view = QuizView(self.item, self.answered, four_colour=s.four_colour, large=s.large, retries=s.retries)
        replace_children(self.slot, [self.view.widget])
        self._line = (practice, level)
        self._say_line()

    def _say_line(self, change: str = "") -> None:
        """The line under the menus: why this question (while practising), its seed, rule set and level."""
        practice, level = self._line
        self.seed_line.value = (
            f'<div class="st-note">{practice}Question {self.seed} · {html.escape(self.app.rules.title)} · '
            f"{DIFFICULTY_NAMES[level]}{change}</div>"
        )

    def _show_practice_level(self, level: int) -> None:
        """The Level menu shows the level the practice asks at (and keeps it, as a level picked would be);
        it is not the learner's pick, so the practice goes on."""
        self.app.settings.quiz_level = level
        if self.difficulty.value != level:
            self._quiet = True
            try:
                self.difficulty.value = level
            finally:
                self._quiet = False
        self.app.save()

    def _follow_mastery(self, item: QuizItem) -> None:
        """While practising, the level reached after an answer: a run of right first tries moves the
        kind up (too many misses, down), and the Level menu and the line say so at once."""
        from ...quiz.mastery import FALL_MISSES, FALL_WINDOW, RISE_RUN, mastery

        level = mastery(self.app.progress.answers, kinds=(item.kind,))[item.kind].level
        if level == item.difficulty:
            return
        self._show_practice_level(level)
        why = (
            f"{RISE_RUN} right first tries in a row"
            if level > item.difficulty
            else f"{FALL_MISSES} misses in the last {FALL_WINDOW}"
        )
        title = html.escape(KIND_TITLES[item.kind])
        self._say_line(f" → {DIFFICULTY_NAMES[level]} next in {title} ({why})")

    def _practice_item(self, rules: Rules) -> tuple[str, int, str]:
        """The kind and level "Practice what I miss" serves (from every answer given, quizzes and lessons),
        and the words that say why (the level reached in the kind ends the question's line)."""
        from ...quiz import kinds
        from ...quiz.mastery import mastery
        from ...quiz.schedule import pick_practice

        if not self.app.settings.practice_from:  # the session was ended elsewhere (another tab): a new one begins
            self.app.settings.practice_from = time.time()
            self.app.save()
        offered = list(kinds.offered(rules))
        history = self.app.progress.answers
        # the kinds due for review today first (on the learner's clock), then the ones missed
        pick = pick_practice(history, self.seed, offered, self.clock(), self.app.store.zone)
        kind, level = pick.kind, pick.level
        known = mastery(history, kinds=(kind,))[kind]
        said = {0: "new to you", 1: "missed last time", 2: "right first try last time", 5: "well known"}
        why = (
            "due for review today"
            if pick.due
            else said.get(known.box, f"right first try {known.box - 1} times running")
        )
        asked = min(self.session_asked() + 1, SESSION_LENGTH)
        return (
            kind,
            level,
            f"Practice what I miss, question {asked} of {SESSION_LENGTH}: {html.escape(KIND_TITLES[kind])}, {why} · ",
        )

    def answered(self, item: QuizItem, feedback: Feedback, attempt: int = 1) -> None:
        self.app.record(item, feedback, attempt, source="quiz")
        if self.practising:
            self._follow_mastery(item)
            if self.session_over():
                self.next_button.description = SESSION_OVER
        self.refresh_board()  # once an answer: it writes the whole record out again as the export link

    def refresh_board(self) -> None:
        every = self.app.progress
        p = every.only("quiz")  # the score is this page's questions; a lesson's quiz counts in the lesson
        # one streak everywhere: right answers in a row over every answer, as the Progress page counts it
        today = answered_today(every.answers, self.app.store.zone, time.time())
        self.board.value = (
            f'<span role="status">Score {p.correct} / {p.answered} · streak {every.streak} · best streak '
            f"{every.best_streak} · right first try {p.first_try}, on the second try {p.second_try}</span>"
            '<span class="st-board-note"> (the score counts this page\'s questions; the streak every answer, '
            "lessons too)</span> "
            f'<span class="st-daily-goal">{html.escape(self.today_words(today))} '
            f'<progress max="{DAILY_GOAL}" value="{min(today, DAILY_GOAL)}" aria-label="Daily goal"></progress></span>'
        )
        data = base64.b64encode(p.to_csv().encode("utf-8")).decode("ascii")
        self.download.value = (
            f'<a download="{QUIZ_CSV}" href="data:text/csv;charset=utf-8;base64,{data}">'
            "⬇ Export this page's answers (CSV)</a>"
        )

    def show(self) -> None:
        if self.view is None:
            self.new_item()
        self.refresh_board()


def summary_html(summary: SessionSummary, today: str) -> str:
    """A practice session's summary: right first tries, each kind's level before and after, what to practise next."""
    rows = []
    for k in summary.kinds:
        before, after = DIFFICULTY_NAMES[k.level_before], DIFFICULTY_NAMES[k.level_after]
        level = before if before == after else f"{before} → {after}"
        moved = "better known ↑" if k.improved else "to practise again" if k.first_try < k.asked else "all right"
        rows.append(
            f"<tr><td>{html.escape(KIND_TITLES[k.kind])}</td><td>{k.first_try} of {k.asked}</td>"
            f"<td>{level}</td><td>{moved}</td></tr>"
        )
    improved = [KIND_TITLES[k.kind] for k in summary.kinds if k.improved]
    named = ", ".join(improved)
    better = (
        f"Better known now: {html.escape(named)}{'' if named.endswith(('?', '!')) else '.'}"
        if improved
        else "No kind moved up this time: the misses come back soon, which is how they stick."
    )
    return (
        '<h3 class="st-step-title">Practice session done</h3>'
        f'<p class="st-proj-sentence" role="status">{summary.first_try} of {summary.asked} right on the first try.</p>'
        '<table class="st-score-table"><thead><tr><th>Kind</th><th>Right first try</th><th>Level</th>'
        f"<th>Since the session began</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
        f"<p>{better} Practise next: <b>{html.escape(KIND_TITLES[summary.next_kind])}</b> "
        f"({DIFFICULTY_NAMES[summary.next_level]}).</p>"
        f'<p class="st-daily-goal">{html.escape(today)}</p>'
    )
