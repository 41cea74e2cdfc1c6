"""The app shell: the tabs, the rule-set picker, saved progress, notes and errors, and the link parser.

``App().widget`` is what ``notebooks/app.ipynb`` displays. Its pages are the classes registered in
:mod:`spades_tutor.ui.pages` (Home, Learn, Quiz yourself, Play...), each built when first shown;
they rebuild themselves from the engine and the saved progress, and widgets never hold game truth.
The settings reach every page as one :class:`~spades_tutor.ui.pages.SettingsChange`, whether a
link, the saved record or the picker changed them.
"""

from __future__ import annotations

import dataclasses
import html
import os
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import ipywidgets as w

from ..engine import Rules, SpadesError
from ..engine.errors import InputError
from ..engine.inputs import parse_whole_number
from ..quiz import Feedback, QuizItem
from ..session import Progress, Settings, merge, merge_note
from ..session.class_store import teacher_code_matches
from . import errors
from .choices import ToggleButtons
from .class_seat import ClassConfig, ClassSeat
from .errors import guarded
from .heartbeat import Heartbeat
from .landmarks import Landmarks, page_title
from .pages.base import LINK_PAGES, PAGES, Page, SettingsChange, Source, page_class
from .pages.classroom import ClassroomTab
from .pages.glossary import GlossaryTab
from .pages.home import HomePage, RulePicker, on_binder
from .pages.lab import LabTab
from .pages.learn import LearnPage
from .pages.play import PlayTab
from .pages.progress import ProgressTab
from .pages.puzzles import PuzzlesTab
from .pages.quiz import DIFFICULTY_NAMES, QuizPage
from .storage import MAX_STORED, BrowserStore, Place
from .tree import replace_children

if TYPE_CHECKING:
    from ..puzzles import Puzzle
    from .glossary import GlossaryPage
    from .lab_page import LabPage
    from .play_page import PlayPage
    from .progress_page import ProgressPage
    from .projector import ProjectorPage
    from .puzzle_page import PuzzlePage

# what other modules and tests import from here, now defined with the pages
__all__ = [
    "ASIDE_KEY",
    "DIFFICULTY_NAMES",
    "LINK_KEYS",
    "LINK_PAGES",
    "MAX_QUERY",
    "PAGES",
    "PLACE_KEY",
    "STORAGE_KEY",
    "App",
    "LearnPage",
    "QuizPage",
    "RulePicker",
    "on_binder",
    "parse_query",
    "read_query",
]

P = TypeVar("P", bound=Page)

_STATIC = Path(__file__).parent / "static"

STORAGE_KEY = "spades-tutor/progress/v1"
#: where a stored record the app could not load (too large, or unreadable) is set aside, once
ASIDE_KEY = "spades-tutor/progress/v1/set-aside"
#: the page (and lesson step) the learner was on, so a reload reopens it
PLACE_KEY = "spades-tutor/place/v1"


def _style() -> w.HTML:
    css = (_STATIC / "app.css").read_text(encoding="utf-8")
    return w.HTML(f"<style>{css}</style>", layout=w.Layout(display="none"))


def _note_html(notes: Iterable[str]) -> str:
    """A note above the page, one line a sentence, shown as text."""
    lines = "".join(f"<div>{html.escape(note, quote=False)}</div>" for note in notes)
    return (
        f'<div class="st-link-note" role="status" style="background: #fff8e1; border: 2px solid #f9a825; '
        f'color: #4e342e; padding: 0.5em 0.8em; border-radius: 0.5em; margin: 0.4em 0;">{lines}</div>'
    )


#: what the app reads from a link; the rest is not the app's to judge or to complain about
LINK_KEYS = ("page", "lesson", "step", "deal", "preset", "puzzle", "rules")
# the class code, the teacher code (read by the shell itself); Voilà's and Jupyter's own
SERVER_KEYS = frozenset({"code", "teacher", "theme", "template", "token"})
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
        from ..session import read_deal_id

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

    if "rules" in raw:
        _read_rules(raw["rules"], out, notes)

    unknown = [k for k in raw if k not in LINK_KEYS and k not in SERVER_KEYS]
    if unknown:
        names = ", ".join(_shown(k) for k in unknown[:5]) + (", ..." if len(unknown) > 5 else "")
        notes.append(f"This link had options the app does not know, so they were left out: {names}.")
    return out, notes


def _read_rules(text: str, out: dict[str, Any], notes: list[str]) -> None:
    """``rules`` of a link (the whole rule set, as ``Settings.to_link`` writes it) into ``out``, with a
    note and the usual rules (of the link's ``preset``, if any) if it is not one; it wins over ``preset``."""
    from ..session.settings import RulesLinkError

    try:
        out["rules"] = Settings.from_link(text).to_link()
    except RulesLinkError as e:  # the usual rules, of the preset the link names if it names one
        notes.append(f"This link's rule set {_shown(text)} could not be read ({e}), so the usual rules are used.")
        out["rules"] = Settings(preset=out.get("preset", "jokers")).to_link()
    out["preset"] = out["rules"].split(".")[1]


def apply_link_rules(link: Mapping[str, Any], settings: Settings) -> None:
    """A link's whole rule set (``rules``), or its preset, into ``settings``."""
    if "rules" in link:
        chosen = Settings.from_link(link["rules"])
        settings.preset, settings.nil, settings.blind_nil = chosen.preset, chosen.nil, chosen.blind_nil
        settings.mercy, settings.house = chosen.mercy, chosen.house
    elif "preset" in link:
        settings.preset = link["preset"]
        try:
            settings.rules()
        except SpadesError:  # a saved house rule the link's preset cannot play (the 2♣ lead, the 2♣ out)
            settings.house = {}


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
        self._pages: dict[str, Page] = {}  # the pages built so far, by title
        # a dead kernel or server: the page says so and offers a reload (in Voilà only: in JupyterLab
        # the notebook shows its kernel's state, and a banner over the whole lab would be in the way)
        self.heartbeat = Heartbeat() if errors.served_by_voila() else None
        self.landmarks = Landmarks()
        hidden = [_style(), self.store, self.place_store, self.landmarks]
        hidden += [self.heartbeat] if self.heartbeat else []
        # the header is the page's banner, the rest its main landmark (notes and errors included)
        #: in a class (``make class``): the learner's seat, or the teacher's key to the teacher view
        self.class_config = ClassConfig.from_environment()
        self.class_seat: ClassSeat | None = None
        self.teacher = False  # the link carried the teacher code
        self.class_slot = w.VBox()
        self.class_slot.add_class("st-class-slot")
        in_class = [self.class_slot] if self.class_config is not None else []  # the seat's box, in a class only
        self.main = w.VBox([*in_class, self.notes, self.error, self.page])
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
        if self._open_class(query):
            return
        if "preset" in self.link or "rules" in self.link:
            before = self.settings.rules()
            apply_link_rules(self.link, self.progress.settings)
            if self.settings.rules() != before:
                self._changed("link")  # the picker shows it quietly: a link's rule set is not the learner's choice
        self.add_notes(notes)
        # the lesson first, then its page: a lesson link does not build the list of lessons it never shows
        lesson = next((x for x in self.learn.lessons if x.number == self.link.get("lesson")), None)
        if lesson is not None:
            self.learn.open(lesson, self.link.get("step", 0))
        self.show(self.link.get("page", "Home"))

    def _open_class(self, query: str) -> bool:
        """In a class: a link with the teacher code opens the teacher view (and makes no seat); any other
        link makes the learner's seat (once). Returns whether the teacher view was opened."""
        from urllib.parse import parse_qs

        given = parse_qs(query[:MAX_QUERY]).get("teacher", [""])[-1]
        if given:
            from .pages.teacher import TeacherTab

            self.teacher = self.class_config is not None and teacher_code_matches(
                given, self.class_config.teacher_digest
            )
            if (
                self.class_seat is not None
            ):  # made by a preheated kernel before its link came: the teacher takes no seat
                self.class_seat.close()
                self.class_seat = None
                self.class_slot.children = []
            self.link["page"] = TeacherTab.title  # a stored place does not replace it
            if TeacherTab.title not in self.nav.options:
                self.nav.options = (*self.nav.options, TeacherTab.title)
            self.show(TeacherTab.title)
            return True
        if self.class_config is not None and self.class_seat is None:
            self.class_seat = ClassSeat(self, self.class_config)
            self.class_slot.children = [self.class_seat.widget]
        return False

    def warm_up(self) -> None:
        """Read and import, before a learner arrives, what a link may need: the lessons, their player and
        its Markdown parser, the glossary's links, the Classroom's deals. No widget is made here (every
        widget made is sent to the page), and nothing heavy is imported (the Joker lab's numpy, pandas
        and plotly stay for the learner who opens it).
        """
        import difflib  # noqa: F401 - a mistyped page or rule set in a link is matched with it

        from . import glossary, projector  # noqa: F401 - imported now, so a link to them does not wait
        from .markdown import markdown_html

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
        self._changed("picker")
        self.save()

    def _changed(self, source: Source) -> None:
        """The one way a change of the settings (or of the whole record) reaches what is shown: the
        picker (unless the change is its own), the page's size, and every page built."""
        change = SettingsChange.of(self.settings, source)
        if source != "picker":
            self.picker.load(self.settings)
        self._apply_display()
        for page in sorted(self._pages.values(), key=lambda page: page.order):
            page.apply(change)

    def _apply_display(self) -> None:
        if self.settings.large:
            self.widget.add_class("st-app-large")
        else:
            self.widget.remove_class("st-app-large")

    def _loaded(self, change: Any) -> None:
        if not change["new"]:
            return
        stored = Progress.from_json(self.store.value)
        added = bool(self.progress.answers or self.progress.lessons or self.progress.puzzle_results)  # held before
        note = self.add_notes(stored.notes)
        if note is not None and self.store.value:  # what was left out is kept aside in the browser, not lost
            self._load_note = (note, list(stored.notes))
            self.store.set_aside()
        self._saved_settings = dataclasses.replace(stored.settings)
        # answers given before the page's storage arrived are kept, after the stored ones
        stored.answers.extend(self.progress.answers)
        stored.puzzle_results.extend(self.progress.puzzle_results)
        for slug, step in self.progress.lessons.items():
            stored.reach(slug, step)
        if self._chose_settings:  # rules picked on this page before the saved ones arrived win over them
            level = stored.settings.quiz_level
            stored.settings = self.progress.settings
            stored.settings.quiz_level = level
        else:  # a shared link's rule set wins over the one saved
            apply_link_rules(self.link, stored.settings)
        self.progress = stored
        self._show_progress()
        if self._chose_settings or added:  # keep what this page added before the record arrived
            self.save()

    def _show_progress(self) -> None:
        """Every page built, redrawn for the record now kept (its settings, its answers, its lessons)."""
        self._changed("record")

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
        dropped = dropped_results = 0
        while len(text) > MAX_STORED and self.progress.answers:
            cut = max(1, len(self.progress.answers) // 10)
            del self.progress.answers[:cut]
            dropped += cut
            text = self.progress.to_json()
        while len(text) > MAX_STORED and self.progress.puzzle_results:  # (far smaller than answers: hardly ever)
            cut = max(1, len(self.progress.puzzle_results) // 10)
            del self.progress.puzzle_results[:cut]
            dropped_results += cut
            text = self.progress.to_json()
        if dropped_results:
            self.add_notes(
                [
                    f"The oldest {dropped_results} puzzle results were left out of the progress saved in this "
                    f"browser: with them it was larger than the app keeps there ({MAX_STORED:,} characters)."
                ]
            )
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
        puzzles = merged.puzzle_results != self.progress.puzzle_results
        self.progress = merged
        self._saved_settings = dataclasses.replace(merged.settings)
        if settings or answers or lessons or puzzles:
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
        self.save()  # the quiz page counts its own answers (once each); a lesson's do not change its score
        player = self.learn.player
        if self.class_seat is not None and source == "lesson" and player is not None:
            self.class_seat.answered(player.lesson.number, player.step, item, feedback, attempt, player.last_given)

    def record_puzzle(self, puzzle: Puzzle, first_try: bool) -> None:
        """A puzzle's result (whether the first card checked worked), for the learner's puzzle rating."""
        self.progress.record_puzzle(puzzle.id, puzzle.rules_name, puzzle.difficulty, first_try)
        self.save()

    def reached(self, lesson: Any, step: int) -> None:
        self.progress.reach(lesson.slug, step)
        self.save()
        self.remember_place()
        if self.class_seat is not None:
            self.class_seat.reached()

    def reset_progress(self) -> None:
        self.progress = self.progress.reset()  # and stays reset when another tab's record is merged in
        self._show_progress()
        self.save()

    # --- pages -------------------------------------------------------------------------------

    def get_page(self, cls: type[P]) -> P:
        """The page of this class, built when first asked for (a page not visited costs the kernel nothing)."""
        built = self._pages.get(cls.title)
        if built is None:
            built = self._pages[cls.title] = cls(self)
        assert isinstance(built, cls)
        return built

    # each page as other code and the tests reach it, by the names it had before pages were registered

    @property
    def learn(self) -> LearnPage:
        return self.get_page(LearnPage)

    @property
    def quiz(self) -> QuizPage:
        return self.get_page(QuizPage)

    @property
    def home(self) -> w.Widget:
        return self.get_page(HomePage).widget

    @property
    def play(self) -> PlayPage:
        return self.get_page(PlayTab).view

    @property
    def projector(self) -> ProjectorPage:
        return self.get_page(ClassroomTab).view

    @property
    def glossary(self) -> GlossaryPage:
        return self.get_page(GlossaryTab).view

    @property
    def progress_page(self) -> ProgressPage:
        return self.get_page(ProgressTab).view

    @property
    def puzzles(self) -> PuzzlePage:
        return self.get_page(PuzzlesTab).view

    @property
    def lab(self) -> LabPage:
        return self.get_page(LabTab).view

    def show(self, name: str) -> None:
        if self.nav.value != name:
            self.nav.value = name  # the observer calls show again
            return
        page = self.get_page(page_class(name) or HomePage)
        # switch first, then fill: if filling fails, the page and the tab still agree
        self.page.children = [page.widget]
        page.show()
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
