"""Every lesson block follows the rule set picked in the app, or says which rule set it shows.

A lesson step shown in a rule set must not contradict its own cards: the cards its
prose says are taken out are the ones the deck leaves out, the jokers it speaks of
are in play, the trump counts and the highest trump are the engine's. The claim
checker (``spades_tutor.lessons.claims``) reads those statements; here it runs over
every step of every lesson in every preset, and the player is asked what it shows.
"""

from __future__ import annotations

import dataclasses
import html
import re
from pathlib import Path

import ipywidgets as w
import pytest

import spades_tutor as st
from spades_tutor.lessons import (
    PLACEHOLDERS,
    Lesson,
    LessonError,
    fill_placeholders,
    load_lessons,
    parse_lesson,
    preset_selection,
    rule_set_note,
    validate_lesson,
)
from spades_tutor.lessons.claims import check_step, claims, contradictions
from spades_tutor.ui.lesson_player import LessonPlayer

C = st.Card.parse
LESSONS = load_lessons()
BY_NUMBER = {lesson.number: lesson for lesson in LESSONS}
PRESETS = st.Rules.preset_names()
STEPS = [(lesson, i) for lesson in LESSONS for i in range(len(lesson.steps))]


def step_id(case: tuple[Lesson, int]) -> str:
    lesson, i = case
    return f"{lesson.number:02d}-step{i + 1}"


def shown_text(widget: w.Widget) -> str:
    """Everything a learner reads in a widget tree (HTML values, unescaped, tags dropped), in order."""
    parts: list[str] = []

    def walk(x: w.Widget) -> None:
        if isinstance(x, w.HTML):
            parts.append(x.value)
        for child in getattr(x, "children", ()):
            walk(child)

    walk(widget)
    # a glossary term's definition is hidden until the learner opens it
    shown = re.sub(r'<span class="st-term-def"[^>]*\shidden>.*?</span>', "", " ".join(parts), flags=re.DOTALL)
    text = html.unescape(re.sub(r"<[^>]+>", " ", shown))
    return re.sub(r"\s+([.,;:)])", r"\1", re.sub(r"\s+", " ", text))


def in_order(widget: w.Widget) -> list[w.Widget]:
    """The widgets under ``widget`` in the order a learner reads them (what a question holds back included)."""
    found: list[w.Widget] = []
    for child in getattr(widget, "children", ()):
        found.append(child)
        found.extend(in_order(child))
    return found


def notes(player: LessonPlayer) -> list[str]:
    """The rule-set notes the player put in the step, in order."""
    return [
        html.unescape(re.sub(r"<[^>]+>", "", c.value))
        for c in in_order(player.body)
        if isinstance(c, w.HTML) and "st-shown-in" in c.value
    ]


def step_of(lesson: Lesson, title: str) -> int:
    return next(i for i, step in enumerate(lesson.steps) if step.title == title)


# --- the three cases found by a new user ------------------------------------------------------------


def test_under_classic_lesson_1_says_its_big_joker_quiz_is_in_the_jokers_rule_set() -> None:
    lesson, classic = BY_NUMBER[1], st.Rules.preset("classic")
    step = step_of(lesson, "The big joker and the little joker")
    player = LessonPlayer(lesson, classic, step=step)
    (quiz,) = player.quizzes
    assert C("BJ") in quiz.item.choices and quiz.item.rules.name == "jokers"
    # the step says plainly which rule set it shows, once, above the jokers
    assert notes(player) == ["Shown in the Spades with Jokers rule set (your table plays Regular Spades)"]
    assert player.body.children[0].value.count("st-shown-in") == 1
    # what the new user read before: a big-joker question as if Regular Spades had one
    assert contradictions("Both jokers are trumps: the big joker beats everything.", classic)
    assert check_step(lesson, lesson.steps[step], classic) == []


def test_under_deuces_high_lesson_1_takes_out_the_cards_its_picture_shows() -> None:
    lesson, deuces = BY_NUMBER[1], st.Rules.preset("deuces-high")
    step = step_of(lesson, "Two twos out, two jokers in")
    player = LessonPlayer(lesson, deuces, step=step)
    text = shown_text(player.body)
    (deck,) = [b for b in lesson.steps[step].blocks if b.kind == "deck"]
    assert deck.rules(lesson, deuces).removed == st.cards("2C 2H")  # the picture: 2♣ 2♥ out
    assert "Take out the two of clubs and the two of hearts, then add both jokers." in text
    assert "two of diamonds" not in text and not notes(player)
    # the sentence the new user read contradicts that picture, and the checker says so
    old = "Take out the **two of hearts** and the **two of diamonds**, then add **both jokers**."
    assert contradictions(old, deuces) == [
        "the two of diamonds is said to be taken out, but it is in the Deuces high deck (taken out: 2♣ 2♥)"
    ]
    # and under classic, where nothing is taken out, the step says so instead
    text = shown_text(LessonPlayer(lesson, st.Rules.preset("classic"), step=step).body)
    assert "Take out" not in text and "no card out and no jokers in" in text


def test_under_classic_lesson_2_shows_the_hearts_of_the_classic_deck() -> None:
    lesson, classic = BY_NUMBER[2], st.Rules.preset("classic")
    step = step_of(lesson, "The other suits rank as usual")
    player = LessonPlayer(lesson, classic, step=step)
    text = shown_text(player.body)
    assert "two of hearts is out" not in text and "The jokers are never hearts" not in text
    (suit,) = [b for b in lesson.steps[step].blocks if b.kind == "suit"]
    assert suit.suit_cards(lesson, classic) == classic.suit_cards(st.Suit.HEARTS)
    assert C("2H") in suit.suit_cards(lesson, classic) and len(suit.suit_cards(lesson, classic)) == 13
    assert C("2H") not in suit.suit_cards(lesson, st.Rules.preset("jokers"))
    assert not notes(player)
    # the label the new user read is false in Regular Spades, and the checker says so
    old = "The hearts, highest first (the two of hearts is out of this deck)"
    assert contradictions(old, classic) == [
        "the two of hearts is said to be taken out, but it is in the Regular Spades deck (nothing taken out)"
    ]
    assert contradictions(old, st.Rules.preset("jokers")) == []


# --- every step, every preset ---------------------------------------------------------------------


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("case", STEPS, ids=step_id)
def test_no_step_contradicts_its_own_cards_in_any_preset(case: tuple[Lesson, int], name: str) -> None:
    lesson, i = case
    assert check_step(lesson, lesson.steps[i], st.Rules.preset(name)) == []


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("case", STEPS, ids=step_id)
def test_every_block_follows_the_pick_or_the_player_says_which_rule_set_it_shows(
    case: tuple[Lesson, int], name: str
) -> None:
    lesson, i = case
    picked = st.Rules.preset(name)
    player = LessonPlayer(lesson, picked, step=i)
    shown = [b for b in lesson.steps[i].blocks if b.shown(lesson, picked)]
    assert shown, "every step shows something in every rule set"
    expected: list[str] = []
    last: str | None = None
    for block in shown:
        rules = block.rules(lesson, picked)
        note = rule_set_note(rules, picked)
        assert (note is None) == (rules.name == picked.name)
        if block.follows_pick(lesson) and picked.name in block.presets(lesson):
            assert note is None, "a block written for the pick follows it"
        if note is not None and note != last:
            expected.append(note)
        last = note
    assert notes(player) == expected
    text = shown_text(player.body)
    assert "could not be shown" not in text
    assert not re.search(r"\{[A-Za-z][a-z ]*\}", text), "every placeholder is filled"


def test_the_lessons_follow_the_pick_where_they_can() -> None:
    """Most blocks follow the pick; those that cannot are shown in their own rule set with a note."""
    blocks = [(lesson, b) for lesson in LESSONS for b in lesson.blocks() if b.kind != "markdown"]
    following = [b for lesson, b in blocks if b.follows_pick(lesson)]
    assert len(following) > len(blocks) / 2
    # under deuces-high, the lessons about the game itself (1-8) need no note at all except
    # where they compare with another rule set or quote the jokers rule set's tips
    deuces = st.Rules.preset("deuces-high")
    noted = {
        (lesson.number, lesson.steps[i].title)
        for lesson in LESSONS[:8]
        for i in range(len(lesson.steps))
        if notes(LessonPlayer(lesson, deuces, step=i))
    }
    assert noted == {
        (2, "Fifteen trumps instead of thirteen"),
        (6, "The ace of spades in regular Spades and in Spades with Jokers"),
        (6, "Side kings are weaker"),
        (7, "A hand for nil"),  # its hand holds the 2♣, which deuces-high takes out
    }


# --- the checker ---------------------------------------------------------------------------------


def kinds(text: str) -> list[tuple[str, str | None, object]]:
    return [(c.kind, None if c.card is None else str(c.card), c.value) for c in claims(text)]


def test_claims_read_cards_taken_out_and_cards_in_play() -> None:
    assert kinds("Take out the two of hearts and the 2♦, then add both jokers.") == [
        ("removed", "2♥", None),
        ("removed", "2♦", None),
        ("jokers", None, None),
    ]
    assert kinds("The two of clubs and the two of hearts come out instead.") == [
        ("removed", "2♣", None),
        ("removed", "2♥", None),
    ]
    assert kinds("Here West led the king of hearts.") == [("in-deck", "K♥", None)]
    assert kinds("Regular Spades plays the ordinary deck as it is: no jokers in.") == [("no-jokers", None, None)]
    # a number of trumps counts all of them only when it is as many as the fewest any rule set has
    assert kinds("There are **15 trumps**; the joker lead can pull two or three trumps.")[0] == (
        "trump-count",
        None,
        15,
    )
    assert [k for k, *_ in kinds("The big joker pulls three trumps.")] == ["jokers"]


def test_claims_read_the_highest_trump() -> None:
    assert ("trump-place", "BJ", "the highest") in kinds("The big joker is the highest card of the game.")
    assert ("trump-place", "BJ", "the highest") in kinds("The big joker beats everything.")
    assert ("trump-place", "A♠", "the third-highest") in kinds("The ace of spades is only the third-highest trump.")
    # "beats everything but ..." is no claim to be the highest
    assert [k for k, *_ in kinds("The little joker beats everything but the big joker.")] == ["jokers"]
    jokers, classic = st.Rules.preset("jokers"), st.Rules.preset("classic")
    assert contradictions("The ace of spades is the highest trump.", jokers) == [
        "says 'ace of spades is the highest trump', but in Spades with Jokers the ace of spades is the third-highest trump"
    ]
    assert contradictions("The ace of spades is the highest trump.", classic) == []
    assert contradictions("With the jokers there are 15 trumps.", st.Rules.preset("deuces-high")) == [
        "says '15 trumps', but Deuces high has 16 trumps"
    ]


def test_a_sentence_naming_a_rule_set_is_checked_in_that_rule_set() -> None:
    jokers = st.Rules.preset("jokers")
    assert contradictions("In regular Spades the ace of spades is the highest card.", jokers) == []
    assert contradictions("Regular Spades has 13 trumps.", jokers) == []
    assert contradictions("Regular Spades has 15 trumps.", jokers) == [
        "says '15 trumps', but Regular Spades has 13 trumps"
    ]
    # "two of spades third" names a rule set, not the two of spades
    assert kinds("At a two of spades third table the deck is the usual one.") == []
    bicycle = "The bicycle deck takes out the two of clubs and the two of diamonds."
    assert contradictions(bicycle, jokers) == []
    assert contradictions(bicycle.replace("clubs", "hearts"), jokers)


def test_placeholders_are_the_engines_answers() -> None:
    for name in PRESETS:
        rules = st.Rules.preset(name)
        filled = fill_placeholders("{Rule set}: {trump count} trumps, {top trump} first. Take out {removed}.", rules)
        assert filled.startswith(rules.title) and f"{len(rules.trump_order())} trumps" in filled
        assert contradictions(filled, rules) == []
        for key in PLACEHOLDERS:  # (the mercy score at a table that has one)
            assert "{" not in fill_placeholders("{" + key + "}", st.Rules.preset(name, mercy=-200))
    with pytest.raises(ValueError, match="plays without the mercy rule"):
        fill_placeholders("{mercy}", st.Rules.preset("jokers"))
    assert fill_placeholders("{removed}", st.Rules.preset("classic")) == "no card"
    assert fill_placeholders("{Top trump}", st.Rules.preset("classic")) == "The ace of spades"
    with pytest.raises(ValueError, match="unknown placeholder"):
        fill_placeholders("{jokers count}", st.Rules.preset("jokers"))


def test_preset_selections_come_from_the_engine() -> None:
    with_jokers = preset_selection("any with jokers")
    assert with_jokers == tuple(n for n in PRESETS if st.Rules.preset(n).jokers)
    assert preset_selection("any without jokers") == tuple(n for n in PRESETS if not st.Rules.preset(n).jokers)
    assert preset_selection("any") == preset_selection("any deck") == PRESETS
    for bad in ("", "nope", "jokers jokers"):
        with pytest.raises(ValueError):
            preset_selection(bad)


# --- the format: comments over prose, and the validator on rule-set mistakes -----------------------

TEXT = """\
# Tiny

---

## A step

Everyone gets 13 cards.

<!-- preset: any with jokers -->
The big joker beats everything.

```hand
preset: any with jokers
cards: BJ LJ
```

```tip
The big joker is the highest card.
```

<!-- only: any without jokers -->
Regular Spades plays without jokers.

Take out {removed}.
"""


def parse(text: str, name: str = "07-tiny.md") -> Lesson:
    return parse_lesson(text, Path(name))


def test_comment_lines_scope_the_prose_below_them() -> None:
    lesson = parse(TEXT)
    prose = [b for b in lesson.blocks() if b.kind == "markdown"]
    assert [(b.preset, dict(b.options)) for b in prose] == [
        ("any", {}),
        ("any with jokers", {"preset": "any with jokers"}),
        (None, {"only": "any without jokers"}),
    ]
    classic, jokers = st.Rules.preset("classic"), st.Rules.preset("jokers")
    assert [b.shown(lesson, classic) for b in prose] == [True, True, True]
    assert [b.shown(lesson, jokers) for b in prose] == [True, True, False]
    assert prose[1].rules(lesson, classic).name == "jokers"  # shown in its own, with a note
    assert prose[2].text_in(lesson, classic) == "Regular Spades plays without jokers.\n\nTake out no card."
    (tip,) = lesson.blocks("tip")
    assert tip.preset is None and tip.rules(lesson, classic).name == "jokers"  # a tip quotes the lesson's rules
    assert validate_lesson(lesson) == []
    # the player: one note for the joker prose, hand and tip in a row
    player = LessonPlayer(lesson, classic)
    assert notes(player) == ["Shown in the Spades with Jokers rule set (your table plays Regular Spades)"]
    assert not notes(LessonPlayer(lesson, jokers))


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("<!-- preset: any with jokers -->\n", "", "speaks of the jokers, but Regular Spades has none"),
        ("Take out {removed}.", "Take out the two of hearts.", "said to be taken out"),
        ("Take out {removed}.", "Take out {removed cards} and {jokers}.", "unknown placeholder {jokers}"),
        ("Everyone gets 13 cards.", "There are fifteen trumps.", "says 'fifteen trumps'"),
        ("```hand\npreset: any with jokers\n", "```hand\npreset: any\n", "not in the classic deck"),
    ],
)
def test_the_validator_catches_text_that_contradicts_its_rule_set(old: str, new: str, message: str) -> None:
    assert TEXT.count(old) == 1
    problems = validate_lesson(parse(TEXT.replace(old, new)))
    assert problems and all(p.startswith("07-tiny.md:") for p in problems)
    assert any(message in p for p in problems), problems


def test_titles_and_the_summary_speak_of_the_lessons_own_rule_set() -> None:
    lesson = parse(TEXT.replace("# Tiny", "# Tiny\n\nsummary: Sixteen trumps.\npreset: jokers"))
    # the summary follows the pick (the lesson list shows it for the table picked): checked in every preset
    assert validate_lesson(lesson) == [
        f"07-tiny.md:1: summary [picked {name}]: says 'Sixteen trumps', but {st.Rules.preset(name).title} has "
        f"{len(st.Rules.preset(name).trump_order())} trumps"
        for name in PRESETS
        if name != "deuces-high"
    ]
    lesson = parse(TEXT.replace("# Tiny", "# Tiny\n\nsummary: {Trump count} trumps.\npreset: jokers"))
    assert validate_lesson(lesson) == []
    lesson = parse(TEXT.replace("## A step", "## Take out the two of clubs"))
    assert validate_lesson(lesson) == [
        "07-tiny.md:5: the two of clubs is said to be taken out, but it is in the Spades with Jokers deck (taken out: 2♥ 2♦)"
    ]
    assert (
        validate_lesson(
            parse(
                TEXT.replace("# Tiny", "# Tiny\n\npreset: deuces-high").replace(
                    "## A step", "## Take out the two of clubs"
                )
            )
        )
        == []
    )


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("<!-- only: any without jokers -->", "<!-- only: nope -->", "unknown preset 'nope'"),
        ("Everyone gets 13 cards.\n", "Everyone gets 13 cards.\n\n<!-- preset: jokers -->\n", "governs no prose"),
        ("```hand\npreset: any with jokers\n", "<!-- preset: jokers -->\n```hand\n", "takes preset: on a line"),
        ("```hand\npreset: any with jokers\n", "```hand\npreset: jokers\nonly: classic\n", "not both"),
    ],
)
def test_misplaced_rule_set_marks_are_rejected_naming_the_line(old: str, new: str, message: str) -> None:
    assert TEXT.count(old) == 1
    with pytest.raises(LessonError, match=re.escape(message)) as info:
        parse(TEXT.replace(old, new))
    assert re.match(r"^07-tiny\.md:\d+: ", str(info.value))


def test_the_real_lessons_would_be_caught_with_the_old_words(tmp_path: Path) -> None:
    """Put back the sentences a new user found wrong: the validator names them and the rule sets."""
    old_words = {
        1: ("Take out {removed}, then", "Take out the **two of hearts** and the **two of diamonds**, then"),
        2: (
            "label: The hearts in {rule set}, highest first",
            "label: The hearts, highest first (the two of hearts is out of this deck)",
        ),
    }
    for number, (new, old) in old_words.items():
        lesson = BY_NUMBER[number]
        text = lesson.path.read_text(encoding="utf-8")
        assert text.count(new) == 1
        path = tmp_path / lesson.path.name
        path.write_text(text.replace(new, old), encoding="utf-8")
        problems = validate_lesson(parse_lesson(path.read_text(encoding="utf-8"), path))
        named = {m.group(1) for p in problems if (m := re.search(r"picked ([a-z-]+)\]", p))}
        assert problems and "jokers" not in named
        # lesson 1's sentence is shown only in rule sets with jokers; classic says its own
        assert named == ({"deuces-high", "bicycle"} if number == 1 else {"classic", "bicycle"})


def test_a_teachers_own_rule_set_is_followed_by_any_and_named_by_the_others() -> None:
    lesson = parse(TEXT)
    own = dataclasses.replace(st.Rules.preset("deuces-high"), name="our-table", title="Our table")
    first, joker_prose = [b for b in lesson.blocks() if b.kind == "markdown"][:2]
    assert first.rules(lesson, own) is own and rule_set_note(first.rules(lesson, own), own) is None
    assert joker_prose.rules(lesson, own) == st.Rules.preset("jokers")
    assert notes(LessonPlayer(lesson, own)) == ["Shown in the Spades with Jokers rule set (your table plays Our table)"]
