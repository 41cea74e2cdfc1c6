"""Links into the app (``/?lesson=3&step=2&preset=deuces-high``): whatever a link holds, the app opens
the nearest sensible page and says, in a note at the top, what it did not understand.

The lessons and their step counts come from the lesson files, the rule sets from the engine, and
a deal id is checked by the engine's own ``Round.from_deal_id``: the test never lists them itself.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

import spades_tutor as st
from spades_tutor.lessons import load_lessons
from spades_tutor.session.classroom import read_deal_id
from spades_tutor.ui import errors
from spades_tutor.ui.app import LINK_KEYS, LINK_PAGES, MAX_QUERY, App, parse_query, read_query
from spades_tutor.ui.projector import ProjectorPage

LESSONS = {lesson.number: lesson for lesson in load_lessons()}
STEPS = {number: len(lesson.steps) for number, lesson in LESSONS.items()}
FIRST, LAST = min(LESSONS), max(LESSONS)
PAGES = set(LINK_PAGES.values())


def check_link(link: dict[str, Any], notes: list[str]) -> None:
    """A link the app can open: every option one it has, each note a short sentence."""
    assert set(link) <= set(LINK_KEYS)
    assert link.get("page", "Home") in PAGES
    if "lesson" in link:
        assert link["page"] == "Learn" and link["lesson"] in LESSONS
    if "step" in link:
        assert "lesson" in link and 0 <= link["step"] < STEPS[link["lesson"]]
    if "deal" in link:  # the Classroom opens on it, unless the link also asks for a lesson
        assert link["page"] == ("Learn" if "lesson" in link else "Classroom")
        assert st.Round.from_deal_id(st.Rules.preset("jokers"), link["deal"]).deal_id == link["deal"]
    if "preset" in link:
        assert link["preset"] in st.Rules.preset_names()
    for note in notes:
        assert isinstance(note, str) and note.endswith(".") and len(note) < 400


def open_app(opened: list[App], query: str) -> App:
    app = App(query=query)
    opened.append(app)
    return app


def note_text(app: App) -> str:
    return " ".join(row.children[0].value for row in app.notes.children)


# --- numbers that str.isdigit() accepts and int() refuses ----------------------------------------


@pytest.mark.parametrize(
    ("query", "opens", "asked"),  # not "page": pytest-playwright would take it for its fixture
    [
        ("lesson=²", "Learn", "'²'"),
        ("lesson=3&step=²", "Learn", "step '²'"),
        ("deal=²", "Classroom", "deal '²'"),
        ("lesson=٣", "Learn", "'٣'"),  # an Arabic-Indic three: a digit to isdigit(), another number to int()
        ("lesson=%2B3", "Learn", "'+3'"),
        ("lesson= 3", "Learn", "' 3'"),
        ("deal=4127%C2%B2", "Classroom", "deal '4127²'"),
        ("deal=%D9%A3", "Classroom", "deal '٣'"),
    ],
)
def test_a_number_only_isdigit_accepts_opens_the_page_with_a_note(
    opened: list[App], query: str, opens: str, asked: str
) -> None:
    link, notes = read_query(query)
    check_link(link, notes)
    assert link["page"] == opens
    assert len(notes) == 1 and asked in notes[0]
    app = open_app(opened, query)
    assert app.nav.value == opens and app.error.children == ()
    assert asked in note_text(app)


def test_a_lesson_step_that_is_not_a_number_opens_the_lessons_first_step(opened: list[App]) -> None:
    app = open_app(opened, "lesson=3&step=²")
    assert app.learn.player is not None and app.learn.player.lesson.number == 3 and app.learn.player.step == 0
    assert f"which is not a step number (1 to {STEPS[3]}), so here is its first step" in note_text(app)


# --- mistyped links ----------------------------------------------------------------------------


def test_lesson_99_opens_the_last_lesson_and_says_so(opened: list[App]) -> None:
    link, notes = read_query("lesson=99")
    assert link == {"page": "Learn", "lesson": LAST}
    assert notes == [f"This link asked for lesson 99; there are {len(LESSONS)} lessons, so here is lesson {LAST}."]
    app = open_app(opened, "lesson=99")
    assert app.learn.player is not None and app.learn.player.lesson.number == LAST
    assert f"so here is lesson {LAST}" in note_text(app)


def test_lesson_0_opens_lesson_0_the_game_itself(opened: list[App]) -> None:
    assert FIRST == 0 and LESSONS[0].slug == "the-game"
    assert read_query("lesson=0") == ({"page": "Learn", "lesson": 0}, [])
    assert read_query("lesson=00&step=2") == ({"page": "Learn", "lesson": 0, "step": 1}, [])
    app = open_app(opened, "lesson=0")
    assert app.learn.player is not None and app.learn.player.lesson.number == 0 and app.learn.player.step == 0
    assert f"Lesson 0: {LESSONS[0].title}" in app.learn.player.title.value and app.notes.children == ()


def test_the_lesson_list_starts_with_lesson_0_and_counts_the_lessons(opened: list[App]) -> None:
    app = open_app(opened, "page=learn")
    heading, grid = app.learn.list_box.children
    assert [b.description for b in grid.children] == [f"{n}. {LESSONS[n].title}" for n in sorted(LESSONS)]
    assert grid.children[0].description == f"0. {LESSONS[0].title}"
    assert f"{len(LESSONS)} short lessons" in heading.value


def test_a_lesson_before_the_first_and_a_lesson_that_is_not_a_number() -> None:
    # below the first lesson there is nothing; where the numbering starts later, the note says so
    assert read_query("lesson=0", lessons={1: 4, 2: 5}) == (
        {"page": "Learn", "lesson": 1},
        ["This link asked for lesson 0; lessons start at 1, so here is lesson 1."],
    )
    link, notes = read_query("lesson=-1")
    assert link == {"page": "Learn"} and f"'-1', which is not a lesson number ({FIRST} to {LAST})" in notes[0]
    link, notes = read_query("lesson=three")
    assert link == {"page": "Learn"} and "'three', which is not a lesson number" in notes[0]
    assert "list of lessons" in notes[0]
    link, notes = read_query("page=quiz&lesson=three")
    assert link == {"page": "Quiz yourself"} and notes[0].endswith(
        f"({FIRST} to {LAST}), so here is the page it names."
    )
    # a lesson missing from the middle of the numbering: the nearest one, the lower on a tie
    assert read_query("lesson=3", lessons={1: 2, 2: 2, 4: 2, 5: 2})[0] == {"page": "Learn", "lesson": 2}
    assert read_query("lesson=4", lessons={2: 2, 6: 2}) == (
        {"page": "Learn", "lesson": 2},
        ["This link asked for lesson 4; there is no such lesson, so here is lesson 2."],
    )


@pytest.mark.parametrize(
    ("step", "index", "note"),
    [
        ("0", 0, "This link asked for step 0 of lesson 3; steps start at 1, so here is step 1."),
        (
            "99",
            STEPS[3] - 1,
            f"This link asked for step 99 of lesson 3; it has {STEPS[3]} steps, so here is step {STEPS[3]}.",
        ),
        ("2", 1, None),
    ],
)
def test_a_step_out_of_range_opens_the_nearest_step(step: str, index: int, note: str | None) -> None:
    link, notes = read_query(f"lesson=3&step={step}")
    assert link == {"page": "Learn", "lesson": 3, "step": index}
    assert notes == ([note] if note else [])


def test_a_step_without_a_lesson_is_left_out_with_a_note() -> None:
    assert read_query("step=2") == (
        {},
        ["This link asked for step '2' but not for a lesson, so the step was left out."],
    )


def test_a_deal_that_is_not_a_deal_id_opens_the_classroom_on_its_usual_deal(opened: list[App]) -> None:
    link, notes = read_query("deal=zzz")
    assert link == {"page": "Classroom"}
    assert notes == [
        "This link asked for deal 'zzz', which is not a deal id (a number such as 4127, or 4127W to name the "
        "dealer), so the Classroom shows its usual deal."
    ]
    app = open_app(opened, "deal=zzz")
    assert app.nav.value == "Classroom" and app.projector.hand is not None
    assert "deal 'zzz'" in note_text(app)


def test_a_rule_set_the_app_does_not_know_is_named_and_a_mistyped_one_mended(opened: list[App]) -> None:
    link, notes = read_query("preset=nope")
    assert link == {}
    assert "the rule set 'nope', which the app does not know" in notes[0]
    assert all(name in notes[0] for name in st.Rules.preset_names())
    for typed in ("Deuces_High", "deuces high", "deuces-high"):  # spelt otherwise, but not mistyped
        assert read_query(f"preset={typed}") == ({"preset": "deuces-high"}, [])
    assert read_query("preset=deuces-hihg") == (
        {"preset": "deuces-high"},
        ["This link asked for the rule set 'deuces-hihg'; here is the nearest, deuces-high."],
    )
    app = open_app(opened, "lesson=2&preset=clasic")
    assert app.rules.name == "classic" and "here is the nearest, classic" in note_text(app)


def test_a_page_the_app_does_not_have_opens_home_or_the_nearest_page() -> None:
    link, notes = read_query("page=nope")
    assert link == {} and "the page 'nope', which the app does not have" in notes[0] and "home page" in notes[0]
    assert read_query("page=Quizz") == (
        {"page": "Quiz yourself"},
        ["This link asked for the page 'Quizz'; here is the nearest, Quiz yourself."],
    )
    assert read_query("page=Play") == ({"page": "Play"}, [])
    # the rest of the link still decides
    link, notes = read_query("page=nope&lesson=2")
    assert link == {"page": "Learn", "lesson": 2} and "the page the rest of the link asks for" in notes[0]


def test_options_the_app_does_not_know_are_named_and_the_servers_own_are_not() -> None:
    link, notes = read_query("lesson=2&evil=1&x=2")
    assert link == {"page": "Learn", "lesson": 2}
    assert notes == ["This link had options the app does not know, so they were left out: 'evil', 'x'."]
    # the class code and Voilà's own options are the server's business, not a mistake in the link
    assert read_query("lesson=2&code=AB12&theme=dark&template=lab&token=t") == ({"page": "Learn", "lesson": 2}, [])
    many = "&".join(f"k{i}=1" for i in range(8))
    assert read_query(many)[1] == [
        "This link had options the app does not know, so they were left out: 'k0', 'k1', 'k2', 'k3', 'k4', ...."
    ]


def test_a_link_too_long_is_read_in_part_and_says_so() -> None:
    link, notes = read_query("lesson=2&pad=" + "x" * 2 * MAX_QUERY)
    assert link == {"page": "Learn", "lesson": 2}
    assert notes[0] == f"This link was too long; only its first {MAX_QUERY} characters were read."


def test_a_good_link_has_no_note_and_the_note_can_be_dismissed(opened: list[App]) -> None:
    assert read_query("lesson=3&step=2&preset=deuces-high&page=learn") == (
        {"page": "Learn", "lesson": 3, "step": 1, "preset": "deuces-high"},
        [],
    )
    app = open_app(opened, "lesson=3&step=2")
    assert app.notes.children == ()
    app = open_app(opened, "lesson=99")
    row = app.notes.children[0]
    row.children[1].click()  # Dismiss
    assert app.notes.children == ()


def test_a_note_shows_what_the_link_held_escaped_and_cut_short(opened: list[App]) -> None:
    app = open_app(opened, "preset=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&%3Cb%3E=1&lesson=%E2%80%AE99" + "9" * 60)
    shown = note_text(app)
    assert "<img" not in shown and "<b>" not in shown and "'&lt;img src=x onerror=al...'" in shown
    assert "\u202e" not in shown and "\\u202e" in shown  # a right-to-left override is shown, not obeyed
    assert max(len(word) for word in re.findall(r"\S+", shown)) < 40


# --- the Classroom's deal box ---------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["²", "12²", "٣", "1" * 21, "4127 W", "4127X"])
def test_the_deal_box_explains_a_deal_id_it_cannot_read_and_keeps_its_deal(typed: str) -> None:
    page = ProjectorPage(st.Rules.preset("jokers"), "4127W")
    seen: list[str] = []
    sink = lambda message, exc: seen.append(message)  # noqa: E731
    errors.add_sink(sink)
    try:
        page.deal_box.value = typed
        page.deal_button.click()
    finally:
        errors.remove_sink(sink)
    shown = typed if len(typed) < 50 else typed[:47] + "..."
    assert seen == [f"deal: {shown!r} is not a deal id. Try a number such as 4127, or 4127W to name the dealer"]
    assert page.hand is not None and page.hand.deal_id == "4127W"


def test_the_deal_box_forgives_spaces_and_a_small_dealer_letter() -> None:
    page = ProjectorPage(st.Rules.preset("jokers"), "4127W")
    page.deal_box.value = " 93e "
    page.deal_button.click()
    assert page.hand is not None and page.hand.deal_id == "93E" and page.deal_box.value == "93E"


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(hst.one_of(hst.text(max_size=25), hst.from_regex(r"\A\s?[0-9]{1,22}[NESWnesw]?\s?\Z")))
def test_any_text_is_a_deal_id_the_engine_deals_or_an_input_error(typed: str) -> None:
    try:
        deal = read_deal_id(typed)
    except st.SpadesError as e:
        assert "is not a deal id" in str(e)
    else:
        assert st.Round.from_deal_id(st.Rules.preset("jokers"), deal).deal_id == deal


# --- any link at all ---------------------------------------------------------------------------

HOSTILE_VALUES = hst.one_of(
    hst.text(max_size=30),
    hst.integers(min_value=-(10**45), max_value=10**45).map(str),
    hst.sampled_from(["²", "٣", "0", "00", "-1", "+1", "1e3", "1.0", " 1", "1_0", "0x10", "4127W", "4127w", "12-34"]),
    hst.sampled_from([*st.Rules.preset_names(), *LINK_PAGES, "Deuces_High", "%00", "%", "%%", "%C2%B2", "&", "="]),
)
KEYS = hst.sampled_from([*LINK_KEYS, *LINK_KEYS, "code", "theme", "evil", "", "Lesson", "%6Cesson", "lesson[]"])


@settings(max_examples=300, deadline=None)
@given(hst.text(max_size=700))
def test_any_text_as_a_query_gives_a_page_the_app_can_open(query: str) -> None:
    check_link(*read_query(query, STEPS))


@settings(max_examples=400, deadline=None)
@given(hst.lists(hst.tuples(KEYS, HOSTILE_VALUES), max_size=8), hst.sampled_from(["&", ";", "&&"]))
def test_any_options_with_any_values_give_a_page_the_app_can_open(pairs: list[tuple[str, str]], sep: str) -> None:
    from urllib.parse import quote, unquote

    query = sep.join(f"{k}={v if v.startswith('%') else quote(v)}" for k, v in pairs)
    link, notes = read_query(query, STEPS)
    check_link(link, notes)
    assert link == parse_query(query, STEPS)
    if sep == ";":  # not a separator: one option whose value holds the rest
        return
    # what was asked and understood is kept (the last non-blank value of an option counts)
    asked = {unquote(k): v for k, v in pairs if v}
    if asked.get("preset") in st.Rules.preset_names():
        assert link["preset"] == asked["preset"]
    if asked.get("lesson") in {str(n) for n in LESSONS}:
        assert link["lesson"] == int(asked["lesson"])
