"""The app shell: Home, Learn and Quiz yourself, a rule-set picker, saved progress.

``App().widget`` is what ``notebooks/app.ipynb`` displays. Pages are view classes
that rebuild themselves from the engine and the saved progress; widgets never
hold game truth.
"""

from __future__ import annotations

import base64
import dataclasses
import html
import os
import random
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import ipywidgets as w

from ..engine import Rules, SpadesError
from ..engine.errors import InputError
from ..engine.inputs import parse_whole_number
from ..quiz import Feedback, QuizItem
from . import errors
from .choices import Dropdown, ToggleButtons
from .errors import guarded
from .heartbeat import Heartbeat
from .landmarks import Landmarks, page_title
from .progress import Progress, Settings, merge, merge_note
from .quiz_view import KIND_TITLES, QuizView
from .storage import MAX_STORED, PAGES, BrowserStore, Place
from .tree import close_unused, replace_children

_STATIC = Path(__file__).parent / "static"

STORAGE_KEY = "spades-tutor/progress/v1"
#: where a stored record the app could not load (too large, or unreadable) is set aside, once
ASIDE_KEY = "spades-tutor/progress/v1/set-aside"
#: the page (and lesson step) the learner was on, so a reload reopens it
PLACE_KEY = "spades-tutor/place/v1"

DIFFICULTY_NAMES = {1: "Easy", 2: "Medium", 3: "Tricky"}


def _style() -> w.HTML:
    css = (_STATIC / "app.css").read_text(encoding="utf-8")
    return w.HTML(f"<style>{css}</style>", layout=w.Layout(display="none"))


def on_binder() -> bool:
    return "BINDER_SERVICE_HOST" in os.environ or "BINDER_LAUNCH_HOST" in os.environ


def _note_html(notes: Iterable[str]) -> str:
    """A note above the page, one line a sentence, shown as text."""
    lines = "".join(f"<div>{html.escape(note, quote=False)}</div>" for note in notes)
    return (
        f'<div class="st-link-note" role="status" style="background: #fff8e1; border: 2px solid #f9a825; '
        f'color: #4e342e; padding: 0.5em 0.8em; border-radius: 0.5em; margin: 0.4em 0;">{lines}</div>'
    )


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
                ("no blind nil", "off"),
                ("blind nil when 100 behind", "behind-100"),
                ("blind nil always", "always"),
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


class QuizPage:
    """Quiz yourself: every kind mixed, seeded, with a running score and streak."""

    def __init__(self, app: App) -> None:
        self.app = app
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
        self.practice_button = w.Button(
            description="Practice what I miss",
            tooltip="The next question is of a kind you missed, at the level you have reached in it",
            layout=w.Layout(width="auto", flex="0 0 auto"),
        )
        self.practice_button.add_class("st-practice")
        self.practice_button.on_click(guarded(lambda _b: self.practise()))
        self.board = w.HTML()
        self.board.add_class("st-scoreboard")
        self.slot = w.VBox()
        self.next_button = w.Button(description="Next question ▶", button_style="primary")
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
        from ..quiz import kinds

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

    def rules_changed(self, rules: Rules) -> None:
        """New rules picked: the menu lists their kinds, and a question on show is drawn again for them."""
        self.set_rules(rules)
        if self.view is not None:
            self.new_item()

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
        """A kind or a level picked from the menus: their questions, no longer the practice's."""
        self.practising = False
        self.new_item()

    def practise(self) -> None:
        """ "Practice what I miss": from now on (until a menu is used) the kind and level come from the answers given."""
        self.practising = True
        self.seed += 1
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
        self.seed += 1
        self.new_item()

    def new_item(self) -> None:
        from ..quiz import kinds
        from ..quiz.generators import generate

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
        from ..quiz.mastery import FALL_MISSES, FALL_WINDOW, RISE_RUN, mastery

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
        from ..quiz import kinds
        from ..quiz.mastery import mastery, next_practice

        offered = list(kinds.offered(rules))
        history = self.app.progress.answers
        kind, level = next_practice(history, self.seed, kinds=offered)
        known = mastery(history, kinds=(kind,))[kind]
        said = {0: "new to you", 1: "missed last time", 2: "right first try last time", 5: "well known"}
        why = said.get(known.box, f"right first try {known.box - 1} times running")
        return kind, level, f"Practice what I miss: {html.escape(KIND_TITLES[kind])}, {why} · "

    def answered(self, item: QuizItem, feedback: Feedback, attempt: int = 1) -> None:
        self.app.record(item, feedback, attempt, source="quiz")
        if self.practising:
            self._follow_mastery(item)
        self.refresh_board()

    def refresh_board(self) -> None:
        p = self.app.progress.only("quiz")  # a lesson's quiz answers count in the lesson, not here
        self.board.value = (
            f'<span role="status">Score {p.correct} / {p.answered} · streak {p.streak} · best streak {p.best_streak}'
            f" · right first try {p.first_try}, on the second try {p.second_try}</span>"
        )
        data = base64.b64encode(p.to_csv().encode("utf-8")).decode("ascii")
        self.download.value = (
            f'<a download="spades-tutor-progress.csv" href="data:text/csv;charset=utf-8;base64,{data}">'
            "⬇ Export progress (CSV)</a>"
        )

    def show(self) -> None:
        if self.view is None:
            self.new_item()
        self.refresh_board()


class LearnPage:
    """The lesson list, and the lesson player for the lesson chosen."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.player: Any = None
        self.list_box = w.VBox()
        self._list_buttons: list[w.Button] = []  # the list's, one per lesson, built when first shown
        self.back = w.Button(description="◀ All lessons")
        self.back.add_class("st-all-lessons")
        self.back.on_click(guarded(lambda _b: self.show_list()))
        self.widget = w.VBox([self.list_box])
        self._lessons: Any = None
        # generated lesson quizzes draw from this session seed and the count of lessons opened
        self.seed = random.SystemRandom().randrange(1, 100_000)
        self.opened = 0

    @property
    def lessons(self) -> Any:
        if self._lessons is None:
            from ..lessons import load_lessons

            self._lessons = load_lessons()
        return self._lessons

    def show_list(self) -> None:
        old, self.player = self.player, None
        lessons = self.lessons
        if not self._list_buttons:  # built the first time it is shown; after that only the marks change
            buttons = []
            for lesson in lessons:
                b = w.Button()
                b.add_class("st-lesson-button")
                b.on_click(guarded(lambda _b, lesson=lesson: self.open(lesson)))
                buttons.append(b)
            grid = w.Box(buttons)
            grid.add_class("st-lesson-list")
            self.list_box.children = [
                w.HTML(
                    f'<h2 class="st-lesson-title">Learn</h2><p>{len(lessons)} short lessons, in order, starting '
                    "with the game itself. Each step has pictures; each lesson ends with a quiz.</p>"
                ),
                grid,
            ]
            self._list_buttons = buttons
        for lesson, b in zip(lessons, self._list_buttons, strict=True):
            reached = self.app.progress.lessons.get(lesson.slug)
            done = reached is not None and reached >= len(lesson.steps) - 1
            b.description = f"{lesson.number}. {lesson.title}{' ✓' if done else ''}"
            b.tooltip = lesson.summary_in(self.app.rules)  # the summary follows the table picked
        self.widget.children = [self.list_box]
        if old is not None:
            close_unused([old.widget])
        self.app.name_page()
        self.app.remember_place()

    def open(self, lesson: Any, step: int | None = None) -> None:
        from .lesson_player import LessonPlayer

        s = self.app.settings
        old = self.player
        self.player = LessonPlayer(
            lesson,
            self.app.rules,
            step=0 if step is None else step,
            on_step=self.app.reached,
            on_answer=self.app.record,
            on_finish=lambda _l: self.finished(lesson),
            four_colour=s.four_colour,
            large=s.large,
            retries=s.retries,
            seed=self.seed * 1000 + self.opened,
            history=lambda: self.app.progress.answers,
            on_review_answer=lambda item, feedback, attempt: self.app.record(item, feedback, attempt, source="review"),
            lessons=self.lessons,
        )
        self.opened += 1
        self.app.reached(lesson, self.player.step)
        self.widget.children = [self.back, self.player.widget]
        if old is not None:  # the lesson it replaces, with every widget it built
            close_unused([old.widget])
        self.app.name_page()

    def finished(self, lesson: Any) -> None:
        self.app.reached(lesson, len(lesson.steps) - 1)
        self.show_list()

    def rules_changed(self) -> None:
        for lesson, b in zip(self.lessons if self._list_buttons else (), self._list_buttons, strict=True):
            b.tooltip = lesson.summary_in(self.app.rules)  # the summaries follow the table picked
        if self.player is not None:
            s = self.app.settings
            self.player.set_rules(self.app.rules, four_colour=s.four_colour, large=s.large, retries=s.retries)


#: the pages a link may ask for (``?page=quiz``), by the name used in links
LINK_PAGES = {
    "home": "Home",
    "learn": "Learn",
    "quiz": "Quiz yourself",
    "play": "Play",
    "lab": "Joker lab",
    "classroom": "Classroom",
    "glossary": "Glossary",
    "progress": "Progress",
    "puzzles": "Puzzles",
}
#: what the app reads from a link; the rest is not the app's to judge or to complain about
LINK_KEYS = ("page", "lesson", "step", "deal", "preset", "puzzle")
SERVER_KEYS = frozenset({"code", "theme", "template", "token"})  # the class code; Voilà's and Jupyter's own
MAX_QUERY = 500


def _cut(text: str) -> str:
    return text if len(text) <= 24 else text[:21] + "..."


def _shown(text: str) -> str:
    """A value from a link, quoted and cut short, as a note shows it (``repr`` escapes control characters)."""
    return repr(_cut(text))


def _plain_name(text: str) -> str:
    """A name as links spell it: ``Deuces_High`` and ``deuces high`` are ``deuces-high``."""
    return "-".join(text.strip().lower().replace("_", "-").split())


def _nearest_name(text: str, names: Iterable[str]) -> str | None:
    """The known name a mistyped one most likely meant (``deuces-hihg`` → ``deuces-high``), if any."""
    import difflib

    names = list(names)
    key = _plain_name(text)
    if key in names:
        return key
    close = difflib.get_close_matches(key, names, n=1, cutoff=0.75)
    return close[0] if close else None


def lesson_steps() -> dict[int, int]:
    """Each lesson's number and its count of steps, as a link is checked against them."""
    from ..lessons import load_lessons

    return {lesson.number: len(lesson.steps) for lesson in load_lessons()}


def read_query(
    query: str, lessons: Mapping[int, int] | Callable[[], Mapping[int, int]] = lesson_steps
) -> tuple[dict[str, Any], list[str]]:
    """The page address's options, checked, and a note for each thing in it that was not understood.

    Options: ``page`` (home/learn/quiz/play/lab/classroom/glossary/progress/puzzles), ``lesson`` (from 0) and ``step``
    (from 1), ``deal``, ``preset`` and ``puzzle`` (a puzzle's code). ``lessons`` maps each lesson number to its count of steps (read from
    the lesson files only if the link names a lesson). Whatever a link holds, the answer is a page
    the app can open, the nearest to what was asked, never an exception; each note says in one
    sentence what was asked and what opened instead.

    >>> read_query("lesson=99&preset=nope", lessons={1: 4, 2: 5})  # doctest: +NORMALIZE_WHITESPACE
    ({'page': 'Learn', 'lesson': 2},
     ['This link asked for lesson 99; there are 2 lessons, so here is lesson 2.',
      "This link asked for the rule set 'nope', which the app does not know (it knows jokers,
       deuces-high, two-of-spades-third, bicycle, classic), so the rule set was left as it was."])
    """
    from urllib.parse import parse_qs

    notes: list[str] = []
    if len(query) > MAX_QUERY:
        notes.append(f"This link was too long; only its first {MAX_QUERY} characters were read.")
    raw = {k: v[-1] for k, v in parse_qs(query[:MAX_QUERY], keep_blank_values=False).items()}
    out: dict[str, Any] = {}

    if "page" in raw:
        page = _nearest_name(raw["page"], LINK_PAGES)
        if page is not None:
            out["page"] = LINK_PAGES[page]
            if page != _plain_name(raw["page"]):
                notes.append(f"This link asked for the page {_shown(raw['page'])}; here is the nearest, {out['page']}.")
        else:
            notes.append(
                f"This link asked for the page {_shown(raw['page'])}, which the app does not have "
                f"(it has {', '.join(LINK_PAGES)}), so here is the "
                f"{'page the rest of the link asks for' if {'lesson', 'deal'} & raw.keys() else 'home page'}."
            )

    if "deal" in raw:
        from .classroom import read_deal_id

        out["page"] = "Classroom"
        try:
            out["deal"] = read_deal_id(raw["deal"])
        except SpadesError:
            notes.append(
                f"This link asked for deal {_shown(raw['deal'])}, which is not a deal id (a number such as 4127, "
                "or 4127W to name the dealer), so the Classroom shows its usual deal."
            )

    if "puzzle" in raw:
        _read_puzzle(raw["puzzle"], out, notes)

    if "lesson" in raw:
        _read_lesson(raw, out, notes, lessons() if callable(lessons) else lessons)
    elif "step" in raw:
        notes.append(f"This link asked for step {_shown(raw['step'])} but not for a lesson, so the step was left out.")

    if "preset" in raw:
        preset = _nearest_name(raw["preset"], Rules.preset_names())
        if preset is not None:
            out["preset"] = preset
            if preset != _plain_name(raw["preset"]):
                notes.append(
                    f"This link asked for the rule set {_shown(raw['preset'])}; here is the nearest, {preset}."
                )
        else:
            notes.append(
                f"This link asked for the rule set {_shown(raw['preset'])}, which the app does not know "
                f"(it knows {', '.join(Rules.preset_names())}), so the rule set was left as it was."
            )

    unknown = [k for k in raw if k not in LINK_KEYS and k not in SERVER_KEYS]
    if unknown:
        names = ", ".join(_shown(k) for k in unknown[:5]) + (", ..." if len(unknown) > 5 else "")
        notes.append(f"This link had options the app does not know, so they were left out: {names}.")
    return out, notes


def _read_puzzle(code: str, out: dict[str, Any], notes: list[str]) -> None:
    """``puzzle`` of a link into ``out`` (the code, once it reads as a puzzle), with a note if it does not.

    The Puzzles page opens on it, unless the link also names a deal (the Classroom) or a lesson.
    """
    from ..puzzles import Puzzle, PuzzleCodeError

    if "page" not in out or out["page"] != "Classroom":
        out["page"] = "Puzzles"
    try:
        out["puzzle"] = Puzzle.from_code(code).code
    except PuzzleCodeError as e:
        notes.append(
            f"This link asked for the puzzle {_shown(code)}, which could not be read, so here is today's puzzle: {e}."
        )


def _read_lesson(raw: dict[str, str], out: dict[str, Any], notes: list[str], lessons: Mapping[int, int]) -> None:
    """``lesson`` and ``step`` of a link into ``out`` (the nearest lesson and step there are), with notes."""
    if not lessons:
        notes.append(f"This link asked for lesson {_shown(raw['lesson'])}, but there are no lessons to show.")
        return
    first, last = min(lessons), max(lessons)
    try:
        asked = parse_whole_number(raw["lesson"], field="lesson", low=0)
    except InputError:
        page = out.setdefault("page", "Learn")  # a page the link names itself stays
        notes.append(
            f"This link asked for lesson {_shown(raw['lesson'])}, which is not a lesson number "
            f"({first} to {last}), so here is {'the list of lessons' if page == 'Learn' else 'the page it names'}."
        )
        return
    number = min(lessons, key=lambda n: (abs(n - asked), n))
    if asked > last:
        notes.append(
            f"This link asked for lesson {_cut(str(asked))}; there are {len(lessons)} lessons, so here is lesson {number}."
        )
    elif asked < first:
        notes.append(f"This link asked for lesson {asked}; lessons start at {first}, so here is lesson {number}.")
    elif asked != number:
        notes.append(f"This link asked for lesson {asked}; there is no such lesson, so here is lesson {number}.")
    out["page"] = "Learn"
    out["lesson"] = number
    if "step" not in raw:
        return
    steps = lessons[number]
    try:
        step = parse_whole_number(raw["step"], field="step", low=0)
    except InputError:
        notes.append(
            f"This link asked for step {_shown(raw['step'])} of lesson {number}, which is not a step number "
            f"(1 to {steps}), so here is its first step."
        )
        return
    if step < 1:
        notes.append(f"This link asked for step {step} of lesson {number}; steps start at 1, so here is step 1.")
    elif step > steps:
        notes.append(
            f"This link asked for step {_cut(str(step))} of lesson {number}; it has {steps} steps, "
            f"so here is step {steps}."
        )
    out["step"] = max(0, min(step, steps) - 1)


def parse_query(
    query: str, lessons: Mapping[int, int] | Callable[[], Mapping[int, int]] = lesson_steps
) -> dict[str, Any]:
    """The page address's options, checked (see :func:`read_query`, which also says what it left out).

    >>> parse_query("lesson=3&step=2&preset=deuces-high&evil=1")
    {'page': 'Learn', 'lesson': 3, 'step': 1, 'preset': 'deuces-high'}
    >>> parse_query("page=quiz&lesson=x&preset=../../etc")
    {'page': 'Quiz yourself'}
    """
    return read_query(query, lessons)[0]


class App:
    """The whole app. ``App().widget`` is the page; ``query`` is the page address's query string."""

    @classmethod
    def from_environment(cls) -> App:
        """The app for the page Voila is serving: reads the address's query (``?lesson=3``) if any."""
        return cls(query=os.environ.get("QUERY_STRING", ""))

    def __init__(self, query: str = "") -> None:
        if errors.served_by_voila():
            errors.protect_kernel()  # the page gets friendly messages, the server's log the tracebacks
        self.link: dict[str, Any] = {}
        self.progress = Progress()
        self._chose_settings = False  # the learner changed the rules before the browser sent the saved ones
        # shared with the learner's other tabs: what another tab saved is merged in, never written over
        self.store = BrowserStore(key=STORAGE_KEY, merge=True, aside_key=ASIDE_KEY)
        self.store.observe(guarded(self._loaded), names="loaded")
        self.store.on_theirs = guarded(self._theirs)
        self.store.on_aside = guarded(self._set_aside)
        self._saved_settings = Settings()  # the settings as last saved or loaded: a change is stamped with its time
        # answers and lessons (read further) merged in from other tabs, for the note saying so
        self._merged: tuple[int, frozenset[str]] = (0, frozenset())
        self._merge_note: w.HTML | None = None
        self._load_note: tuple[w.HTML, list[str]] | None = None  # what the stored record's loading said
        self.place_store = BrowserStore(key=PLACE_KEY)
        self._restoring_place = False
        self.place_store.observe(guarded(self._place_loaded), names="loaded")
        self.error = w.VBox()
        self.error.add_class("st-error-slot")
        errors.add_sink(self.show_error)
        self.notes = w.VBox()  # what a link or the stored progress held that the app did not understand
        self.notes.add_class("st-notes-slot")

        self.picker = RulePicker(self.settings, guarded(self.settings_changed))
        self.nav = ToggleButtons(
            options=list(PAGES),
            value="Home",
            style={"button_width": "auto"},
        )
        self.nav.add_class("st-nav-tabs")
        self.nav.observe(guarded(lambda _c: self.show(self.nav.value)), names="value")
        self.header = w.HBox(
            [w.HTML('<h1 class="st-brand">♠ Spades with <span class="st-jk">Jokers</span> · tutor</h1>'), self.nav]
        )
        self.header.add_class("st-header")
        self.page = w.VBox()
        self.learn = LearnPage(self)
        self._quiz: QuizPage | None = None
        self._lab: Any = None
        self._projector: Any = None
        self._play: Any = None
        self._glossary: Any = None
        self._progress_page: Any = None
        self._puzzles: Any = None
        self._home_page: w.Widget | None = None
        # a dead kernel or server: the page says so and offers a reload (in Voilà only: in JupyterLab
        # the notebook shows its kernel's state, and a banner over the whole lab would be in the way)
        self.heartbeat = Heartbeat() if errors.served_by_voila() else None
        self.landmarks = Landmarks()
        hidden = [_style(), self.store, self.place_store, self.landmarks]
        hidden += [self.heartbeat] if self.heartbeat else []
        # the header is the page's banner, the rest its main landmark (notes and errors included)
        self.main = w.VBox([self.notes, self.error, self.page])
        self.main.add_class("st-main")
        self.widget = w.VBox([*hidden, self.header, self.main])
        self.widget.add_class("st-app")
        self.open_link(query)

    def open_link(self, query: str) -> None:
        """Open what the page address's query asks for (page, lesson and step, deal, rule set), with a
        note for each thing in it that was not understood: ``App(query=q)`` is ``App()`` then this.

        A preheated Voilà kernel builds ``App()`` (and :meth:`warm_up`) while it waits for its
        learner, and applies the learner's link only once the request has arrived.
        """
        self.link, notes = read_query(query, lambda: {x.number: len(x.steps) for x in self.learn.lessons})
        if "preset" in self.link and self.link["preset"] != self.settings.preset:
            self.progress.settings.preset = self.link["preset"]
            self.picker.load(self.settings)  # quietly: a link's rule set is not the learner's choice
            self.learn.rules_changed()
            for page in (self._projector, self._glossary):
                if page is not None:
                    page.set_rules(self.rules)
            if self._play is not None:
                self._play.set_rules(self.rules, four_colour=self.settings.four_colour)
            if self._quiz is not None:
                self._quiz.rules_changed(self.rules)
        self.add_notes(notes)
        # the lesson first, then its page: a lesson link does not build the list of lessons it never shows
        lesson = next((x for x in self.learn.lessons if x.number == self.link.get("lesson")), None)
        if lesson is not None:
            self.learn.open(lesson, self.link.get("step", 0))
        self.show(self.link.get("page", "Home"))

    def warm_up(self) -> None:
        """Read and import, before a learner arrives, what a link may need: the lessons, their player and
        its Markdown parser, the glossary's links, the Classroom's deals. No widget is made here (every
        widget made is sent to the page), and nothing heavy is imported (the Joker lab's numpy, pandas
        and plotly stay for the learner who opens it).
        """
        import difflib  # noqa: F401 - a mistyped page or rule set in a link is matched with it

        from . import glossary, projector  # noqa: F401 - imported now, so a link to them does not wait
        from .lesson_player import markdown_html

        markdown_html("")
        _ = self.learn.lessons

    # --- settings and progress ---------------------------------------------------------------

    @property
    def settings(self) -> Settings:
        return self.progress.settings

    @property
    def rules(self) -> Rules:
        return self.settings.rules()

    def settings_changed(self, settings: Settings) -> None:
        settings.quiz_level = self.settings.quiz_level  # the picker sets the rules, not the quiz's level
        self.progress.settings = settings
        if not self.store.loaded:
            self._chose_settings = True
        self._apply_display()
        self.learn.rules_changed()
        if self._quiz is not None:
            self._quiz.rules_changed(self.rules)
        if self._projector is not None:
            self._projector.set_rules(self.rules)
        if self._play is not None:
            self._play.set_rules(self.rules, four_colour=self.settings.four_colour)  # the next deal uses them
        if self._glossary is not None:
            self._glossary.set_rules(self.rules)
        self.save()

    def _apply_display(self) -> None:
        if self.settings.large:
            self.widget.add_class("st-app-large")
        else:
            self.widget.remove_class("st-app-large")

    def _loaded(self, change: Any) -> None:
        if not change["new"]:
            return
        stored = Progress.from_json(self.store.value)
        added = bool(self.progress.answers or self.progress.lessons)  # what this page held before the record
        note = self.add_notes(stored.notes)
        if note is not None and self.store.value:  # what was left out is kept aside in the browser, not lost
            self._load_note = (note, list(stored.notes))
            self.store.set_aside()
        self._saved_settings = dataclasses.replace(stored.settings)
        # answers given before the page's storage arrived are kept, after the stored ones
        stored.answers.extend(self.progress.answers)
        for slug, step in self.progress.lessons.items():
            stored.reach(slug, step)
        if self._chose_settings:  # rules picked on this page before the saved ones arrived win over them
            level = stored.settings.quiz_level
            stored.settings = self.progress.settings
            stored.settings.quiz_level = level
        elif "preset" in self.link:  # a shared link's rule set wins over the one saved
            stored.settings.preset = self.link["preset"]
        self.progress = stored
        self._show_progress()
        if self._chose_settings or added:  # keep what this page added before the record arrived
            self.save()

    def _show_progress(self) -> None:
        """Every page shown, redrawn for the record now kept (its settings, its answers, its lessons)."""
        self.picker.load(self.settings)
        self._apply_display()
        self.learn.rules_changed()
        if self._play is not None:  # the saved settings, not the defaults, for the next deal
            self._play.set_rules(self.rules, four_colour=self.settings.four_colour)
        if self._glossary is not None:
            self._glossary.set_rules(self.rules)
        if self._quiz is not None:
            self._quiz.set_rules(self.rules)
            if self._quiz.item is not None and not self._quiz.asks(self._quiz.item.kind):
                self._quiz.new_item()  # a question the saved rules do not ask (a nil one at a table without nil)
            self._quiz.show_level()
            self._quiz.show_retries()
            self._quiz.refresh_board()
        self._refresh_progress_page()
        if self.nav.value == "Learn" and self.learn.player is None:
            self.learn.show_list()

    def save(self) -> None:
        if not self.store.loaded:
            return
        if self.progress.settings != self._saved_settings:  # changed here: these win over older ones of other tabs
            self.progress.settings_time = time.time()
            self._saved_settings = dataclasses.replace(self.progress.settings)
        text = self._fitted()
        if text == self.store.value:
            self.store.write()  # unchanged, but the page may have held it back for another tab's record
        else:
            self.store.value = text

    def _fitted(self) -> str:
        """The record as saved: if it is larger than the store keeps (answers of long names, many of
        them), its oldest answers are left out, and a note says how many, rather than the store
        refusing the whole record and the browser keeping nothing."""
        text = self.progress.to_json()
        dropped = 0
        while len(text) > MAX_STORED and self.progress.answers:
            cut = max(1, len(self.progress.answers) // 10)
            del self.progress.answers[:cut]
            dropped += cut
            text = self.progress.to_json()
        if dropped:
            self.add_notes(
                [
                    f"The oldest {dropped} answers were left out of the progress saved in this browser: with them "
                    f"it was larger than the app keeps there ({MAX_STORED:,} characters)."
                ]
            )
        return text

    def _theirs(self, text: str) -> None:
        """Another tab of this learner saved its record: merge it into this one, say so, and save the
        result (unless it is the record that tab saved, which then needs no writing)."""
        theirs = Progress.from_json(text)
        merged = merge(self.progress, theirs)
        answers, lessons, settings = merge_note(self.progress, merged)
        self.progress = merged
        self._saved_settings = dataclasses.replace(merged.settings)
        if settings or answers or lessons:
            self._show_progress()
        self._say_merged(answers, lessons)
        if merged == merge(theirs, theirs) and not theirs.notes:
            self.store.value = text  # what is stored already: the page has nothing to write
        else:
            self.save()

    def _say_merged(self, answers: int, lessons: Iterable[str]) -> None:
        """One note, kept up to date while shown, of what other tabs brought in (none when nothing new)."""
        lessons = frozenset(lessons)
        if not (answers or lessons):
            return
        if self._merge_note is None or not self._shown(self._merge_note):
            self._merged = (0, frozenset())
            self._merge_note = None
        self._merged = (self._merged[0] + answers, self._merged[1] | lessons)
        answers, read = self._merged[0], len(self._merged[1])
        parts = [f"{answers} answer{'' if answers == 1 else 's'}"] if answers else []
        parts += [f"{read} lesson{'' if read == 1 else 's'} read further"] if read else []
        text = f"Your progress from another tab was merged in: {' and '.join(parts)}."
        if self._merge_note is None:
            self._merge_note = self.add_notes([text])
        else:
            self._merge_note.value = _note_html([text])

    def _set_aside(self, outcome: str, reason: str, size: int) -> None:
        """What the page did with a stored record the app could not load: the learner is told, always."""
        where = f"in this browser's storage under “{ASIDE_KEY}”"
        if reason == "large":
            what = f"The progress saved in this browser was too large to load ({size:,} characters), "
        else:
            what = "The progress saved in this browser, as it was stored, "
        if outcome == "moved":
            said = f"{'so it ' if reason == 'large' else ''}was set aside {where}, not erased."
        elif outcome == "occupied":
            said = (
                f"{'and ' if reason == 'large' else ''}could not be set aside: a record set aside before is kept "
                f"{where}, so it is replaced by this page's progress at its next save."
            )
        else:
            said = (
                f"{'and ' if reason == 'large' else ''}could not be set aside {where}, so it is replaced by "
                "this page's progress at its next save."
            )
        if reason == "unreadable" and self._load_note is not None and self._shown(self._load_note[0]):
            note, lines = self._load_note  # said with what could not be read, in the same note
            lines.append(what + said)
            note.value = _note_html(lines)
        else:
            self.add_notes([what + said])

    def _shown(self, note: w.HTML) -> bool:
        """Whether a note is still above the page (not dismissed)."""
        return any(note in row.children[:1] for row in self.notes.children)

    def _place_loaded(self, change: Any) -> None:
        """Reopen the page the learner was on, unless the link asks for a page of its own."""
        if not change["new"]:
            return
        place = Place.from_json(self.place_store.value)
        if place is not None and not {"page", "lesson", "deal", "puzzle"} & self.link.keys():
            # the lesson, then its page (the list of lessons is not built to be hidden at once); the
            # places in between are not stored, so a page closed (or reloaded again) halfway keeps the
            # whole place, not "Learn" without its lesson
            self._restoring_place = True
            try:
                lesson = next((x for x in self.learn.lessons if x.number == place.lesson), None)
                if place.page == "Learn" and lesson is not None:
                    self.learn.open(lesson, place.step)
                self.show(place.page)
            finally:
                self._restoring_place = False
        elif place is not None and self._resumes(place):
            # the link names the lesson the learner was in: the step they were on, not the link's first
            # (a reload after the kernel died, the same link opened again)
            self.learn.player.go(place.step)
        self.remember_place()

    def _resumes(self, place: Place) -> bool:
        """Whether a link's lesson, open now, is the stored place's, and its step is the one to show:
        the link names no step, or the page was reloaded (so the link is the one it was opened with)."""
        player = self.learn.player
        return (
            place.page == "Learn"
            and self.nav.value == "Learn"
            and player is not None
            and place.lesson == self.link.get("lesson") == player.lesson.number
            and ("step" not in self.link or self.place_store.reloaded)
        )

    def remember_place(self) -> None:
        """Keep the page shown (and the lesson step) in the browser, once the browser sent the stored one."""
        if not self.place_store.loaded or self._restoring_place:
            return
        player = self.learn.player if self.nav.value == "Learn" else None
        place = (
            Place(self.nav.value, player.lesson.number, player.step) if player is not None else Place(self.nav.value)
        )
        self.place_store.value = place.to_json()

    def record(self, item: QuizItem, feedback: Feedback, attempt: int = 1, source: str = "lesson") -> None:
        """A graded answer (``attempt``: 1, or 2 for the second try) from the quiz page or a lesson."""
        self.progress.record(item.kind, item.rules.name, item.key, feedback.correct, source=source, attempt=attempt)
        if self._quiz is not None:
            self._quiz.refresh_board()
        self.save()

    def reached(self, lesson: Any, step: int) -> None:
        self.progress.reach(lesson.slug, step)
        self.save()
        self.remember_place()

    def reset_progress(self) -> None:
        self.progress = self.progress.reset()  # and stays reset when another tab's record is merged in
        if self._quiz is not None:
            self._quiz.refresh_board()
        self._refresh_progress_page()
        self.save()

    # --- pages -------------------------------------------------------------------------------

    @property
    def quiz(self) -> QuizPage:
        """The Quiz yourself page, built when first opened (a page not visited costs the kernel nothing)."""
        if self._quiz is None:
            self._quiz = QuizPage(self)
        return self._quiz

    @property
    def home(self) -> w.Widget:
        """The home page, built when first shown (a shared link to a lesson never needs it)."""
        if self._home_page is None:
            self._home_page = self._home()
        return self._home_page

    @property
    def play(self) -> Any:
        """The play-against-bots page, built when first opened."""
        if self._play is None:
            from .play_page import PlayPage

            self._play = PlayPage(self.rules, four_colour=self.settings.four_colour)
        return self._play

    @property
    def projector(self) -> Any:
        """The classroom projector page, built when first opened."""
        if self._projector is None:
            from .projector import ProjectorPage

            self._projector = ProjectorPage(self.rules, self.link.get("deal"))
        return self._projector

    @property
    def glossary(self) -> Any:
        """The Glossary page, built when first opened."""
        if self._glossary is None:
            from .glossary import GlossaryPage

            self._glossary = GlossaryPage(self.rules)
        return self._glossary

    @property
    def progress_page(self) -> Any:
        """The Progress page, built when first opened."""
        if self._progress_page is None:
            from .progress_page import ProgressPage

            self._progress_page = ProgressPage(self)
        return self._progress_page

    @property
    def puzzles(self) -> Any:
        """The Puzzles page, built when first opened (with the link's puzzle, if it names one)."""
        if self._puzzles is None:
            from .puzzle_page import PuzzlePage

            self._puzzles = PuzzlePage(self.link.get("puzzle"))
        return self._puzzles

    def _refresh_progress_page(self) -> None:
        """The Progress page, if shown, redrawn from the answers now kept (the stored ones have arrived, say)."""
        if self._progress_page is not None and self.nav.value == "Progress":
            self._progress_page.render()

    @property
    def lab(self) -> Any:
        """The Joker lab page, built when first opened (it brings numpy, pandas and plotly)."""
        if self._lab is None:
            from .lab_page import LabPage

            self._lab = LabPage()
        return self._lab

    def _home(self) -> w.Widget:
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
        learn.on_click(guarded(lambda _b: setattr(self.nav, "value", "Learn")))
        quiz.on_click(guarded(lambda _b: setattr(self.nav, "value", "Quiz yourself")))
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
        return w.VBox([intro, w.HBox([learn, quiz]), self.picker.widget])

    def show(self, name: str) -> None:
        if self.nav.value != name:
            self.nav.value = name  # the observer calls show again
            return
        # switch first, then fill: if filling fails, the page and the tab still agree
        if name == "Learn":
            self.page.children = [self.learn.widget]
            if self.learn.player is None:
                self.learn.show_list()
        elif name == "Quiz yourself":
            self.page.children = [self.quiz.widget]
            self.quiz.show()
        elif name == "Joker lab":
            self.page.children = [self.lab.widget]
        elif name == "Classroom":
            self.page.children = [self.projector.widget]
        elif name == "Play":
            self.page.children = [self.play.widget]
        elif name == "Glossary":
            self.page.children = [self.glossary.widget]
        elif name == "Progress":
            self.page.children = [self.progress_page.widget]
            self.progress_page.render()
        elif name == "Puzzles":
            self.page.children = [self.puzzles.widget]
        else:
            self.page.children = [self.home]
        self.name_page()
        self.remember_place()

    def name_page(self) -> None:
        """The browser tab names the page shown (and the lesson open in Learn)."""
        player = self.learn.player if self.nav.value == "Learn" else None
        name = f"Lesson {player.lesson.number}: {player.lesson.title}" if player is not None else self.nav.value
        self.landmarks.title = page_title(name)

    def add_notes(self, notes: Iterable[str]) -> w.HTML | None:
        """Say, above the page, what a link or the stored progress held that was not understood (the
        note's text widget, or ``None`` for no notes)."""
        notes = list(notes)
        if not notes:
            return None
        text = w.HTML(_note_html(notes), layout=w.Layout(flex="1 1 auto", min_width="0"))
        dismiss = w.Button(description="Dismiss", layout=w.Layout(width="auto", min_width="6em", flex="0 0 auto"))
        dismiss.add_class("st-dismiss")
        row = w.HBox([text, dismiss])
        dismiss.on_click(
            guarded(lambda _b: replace_children(self.notes, [c for c in self.notes.children if c is not row]))
        )
        self.notes.children = (*self.notes.children, row)
        return text

    def show_error(self, message: str, _exc: BaseException) -> None:
        dismiss = w.Button(description="Dismiss", layout=w.Layout(width="auto"))
        dismiss.add_class("st-dismiss")
        text = w.HTML(f'<div class="st-error" role="alert">{html.escape(message)}</div>')
        dismiss.on_click(lambda _b: replace_children(self.error, []))
        replace_children(self.error, [w.HBox([text, dismiss])])  # a newer error replaces the one shown
