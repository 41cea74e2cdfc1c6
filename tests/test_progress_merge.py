"""Two tabs of one learner, each with its own kernel, save into one place in the browser: their records
are merged, never written over. Answers are a log merged by id, each lesson keeps the furthest step
reached, the settings changed last win, and a reset stays a reset. Records saved before answers had
ids still load, and merge as often as they are met without adding anything.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from spades_tutor.session.progress import MAX_ANSWERS, Answer, Progress, PuzzleResult, merge, merge_note
from spades_tutor.session.settings import Settings
from spades_tutor.ui.app import ASIDE_KEY, App

FORMAT = "spades-tutor/progress"


def base() -> Progress:
    """The record both tabs loaded: two answers and a lesson started."""
    p = Progress()
    p.record("score", "jokers", "score:jokers:1", True, when=1_700_000_000.0)
    p.record("trick-winner", "jokers", "trick-winner:jokers:2", False, when=1_700_000_010.0)
    p.reach("following-suit", 1)
    return p


def loaded(record: Progress) -> Progress:
    """The record as a tab loads it from the browser."""
    return Progress.from_json(record.to_json())


def diverged() -> tuple[Progress, Progress]:
    """Tab A answers three questions and reads on in one lesson; tab B answers one and reads another."""
    start = base()
    a, b = loaded(start), loaded(start)
    for i in range(3):
        a.record("legal-plays", "jokers", f"legal-plays:jokers:{i}", True, when=1_700_000_100.0 + i)
    a.reach("following-suit", 3)
    b.record("score", "classic", "score:classic:9", False, when=1_700_000_050.0)
    b.reach("the-deck", 2)
    return a, b


def test_two_records_diverging_from_one_base_merge_into_every_answer_and_the_furthest_steps() -> None:
    a, b = diverged()
    merged = merge(a, b)
    assert [x.item for x in merged.answers] == [
        "score:jokers:1",
        "trick-winner:jokers:2",
        "score:classic:9",
        "legal-plays:jokers:0",
        "legal-plays:jokers:1",
        "legal-plays:jokers:2",
    ]
    assert merged.lessons == {"following-suit": 3, "the-deck": 2}
    assert (merged.answered, merged.correct) == (6, 4)


def test_merging_either_way_gives_the_same_record() -> None:
    a, b = diverged()
    assert merge(a, b) == merge(b, a)
    assert merge(a, b).to_json() == merge(b, a).to_json()


def test_merging_again_adds_nothing() -> None:
    a, b = diverged()
    merged = merge(a, b)
    assert merge(merged, a) == merge(merged, b) == merge(merged, merged) == merged
    assert merge(loaded(merged), merged) == merged  # and saved and loaded again, it is the same record
    assert merge_note(merged, merge(merged, a)) == (0, (), False)


def test_what_a_merge_brought_in_is_counted_for_the_note() -> None:
    a, b = diverged()
    assert merge_note(b, merge(b, a)) == (3, ("following-suit",), False)  # three answers, one lesson further along
    assert merge_note(a, merge(a, b)) == (1, ("the-deck",), False)


def test_every_new_answer_has_an_id_of_its_own_even_given_at_the_same_moment() -> None:
    p = Progress()
    for _ in range(50):
        p.record("score", "jokers", "score:jokers:1", True, when=1_700_000_000.0)
    assert len({x.id for x in p.answers}) == 50
    assert merge(p, loaded(p)).answered == 50  # the same answer fifty times is fifty answers


OLD_ROWS = [
    [1_600_000_000.25, "legal-plays", "jokers", "legal-plays:jokers:7", True],  # before sources
    [1_600_000_100, "score", "classic", "score:classic:3", False, "lesson"],  # before second tries
    [1_600_000_200.5, "trump-order", "jokers", "trump-order:jokers:1/2", True, "review", 2],  # before ids
]


def old_record() -> str:
    return json.dumps(
        {
            "format": FORMAT,
            "version": 1,
            "answers": OLD_ROWS,
            "lessons": {"the-deck": 4},
            "settings": {"preset": "classic", "nil": False},
        }
    )


def test_a_record_saved_before_answers_had_ids_loads_with_the_same_ids_every_time() -> None:
    first, second = Progress.from_json(old_record()), Progress.from_json(old_record())
    assert first.notes == [] and first.answered == 3
    assert [x.id for x in first.answers] == [x.id for x in second.answers]
    assert len({x.id for x in first.answers}) == 3
    assert first.settings.preset == "classic" and first.lessons == {"the-deck": 4}
    # saved again by this version, it keeps those ids
    again = loaded(first)
    assert again == first and [x.id for x in again.answers] == [x.id for x in first.answers]


def test_two_tabs_that_loaded_an_old_record_merge_it_once() -> None:
    a, b = Progress.from_json(old_record()), Progress.from_json(old_record())
    a.record("score", "classic", "score:classic:4", True, when=1_700_000_000.0)
    b = loaded(b)  # tab B saved it in the new format, unchanged
    merged = merge(a, b)
    assert merged.answered == 4 and merged == merge(b, a)
    assert merge(merged, Progress.from_json(old_record())) == merged  # the old record met again: nothing new


def test_a_stored_answer_id_that_is_not_one_the_app_makes_is_left_out_with_a_note() -> None:
    good = [*OLD_ROWS[2], "18bcfe569f4-0a1b2c3d4e"]
    bad = [[*OLD_ROWS[2], ""], [*OLD_ROWS[2], "<b>x</b>"], [*OLD_ROWS[2], 7], [*OLD_ROWS[2], "x" * 41]]
    p = Progress.from_json(json.dumps({"format": FORMAT, "answers": [good, *bad]}))
    assert [x.id for x in p.answers] == ["18bcfe569f4-0a1b2c3d4e"]
    assert p.notes == ["4 saved answers could not be read and were left out."]


def test_the_settings_changed_last_win_whichever_record_comes_first() -> None:
    start = base()
    a, b = loaded(start), loaded(start)
    a.settings, a.settings_time = Settings(preset="classic"), 1_700_000_500.0
    b.settings, b.settings_time = Settings(preset="bicycle", large=True), 1_700_000_400.0
    assert merge(a, b).settings == merge(b, a).settings == Settings(preset="classic")
    assert merge_note(b, merge(b, a))[2] is True


def test_a_reset_stays_a_reset_when_a_tab_that_missed_it_is_merged_in() -> None:
    a, b = diverged()
    reset = a.reset(when=1_700_000_200.0)
    b.record("score", "jokers", "score:jokers:after", True, when=1_700_000_300.0)  # answered after the reset
    merged = merge(reset, b)
    assert [x.item for x in merged.answers] == ["score:jokers:after"]
    assert merged.lessons == {}  # B's steps were reached before it saw the reset
    assert merged == merge(b, reset) and merged.reset_at == 1_700_000_200.0
    assert loaded(merged) == merged  # the reset's time is saved with the record


def test_a_merge_keeps_the_latest_answers_up_to_the_bound() -> None:
    a, b = Progress(), Progress()
    for i in range(MAX_ANSWERS):
        a.record("score", "jokers", f"a{i}", True, when=1_700_000_000.0 + 2 * i)
        b.record("score", "jokers", f"b{i}", True, when=1_700_000_001.0 + 2 * i)
    merged = merge(a, b)
    assert merged.answered == MAX_ANSWERS and merged == merge(b, a)
    assert merged.answers[0].item == f"a{MAX_ANSWERS // 2}" and merged.answers[-1].item == f"b{MAX_ANSWERS - 1}"


ANSWERS = hst.builds(
    Answer,
    hst.integers(0, 50).map(float),
    hst.sampled_from(["score", "trick-winner"]),
    hst.just("jokers"),
    hst.sampled_from(["x", "y"]),
    hst.booleans(),
    hst.sampled_from(["quiz", "lesson"]),
    hst.sampled_from([1, 2]),
    hst.sampled_from(["", "i1", "i2", "i3"]),  # a few ids, so records share (and clash on) some
)
RESULTS = hst.builds(
    PuzzleResult,
    hst.integers(0, 50).map(float),
    hst.sampled_from(["0a1b2c3d", "deadbeef"]),
    hst.just("jokers"),
    hst.sampled_from(["easy", "hard"]),
    hst.booleans(),
    hst.sampled_from(["", "r1", "r2", "r3"]),  # a few ids, so records share (and clash on) some
)
RECORDS = hst.builds(
    lambda answers, lessons, preset, when, reset, results: Progress(
        answers, lessons, Settings(preset=preset), settings_time=when, reset_at=reset, puzzle_results=results
    ),
    hst.lists(ANSWERS, max_size=6),
    hst.dictionaries(hst.sampled_from(["the-deck", "following-suit"]), hst.integers(0, 9), max_size=2),
    hst.sampled_from(["jokers", "classic"]),
    hst.sampled_from([0.0, 1.0, 2.0]),
    hst.sampled_from([0.0, 0.0, 20.0]),
    hst.lists(RESULTS, max_size=4),
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(RECORDS, RECORDS, RECORDS)
def test_any_records_merge_in_any_order_and_grouping_to_one_record(a: Progress, b: Progress, c: Progress) -> None:
    ab = merge(a, b)
    assert ab == merge(b, a)
    assert merge(ab, c) == merge(a, merge(b, c))
    assert merge(ab, a) == ab == merge(ab, ab)
    assert loaded(ab) == ab
    # the ratings replayed from the merged results: one rating, whichever record comes first
    assert ab.puzzle_standing() == merge(b, a).puzzle_standing()


# --- two apps, as two tabs' kernels: the page hands each what the other saved -----------------------------


def tab(opened: list[App], stored: str, query: str = "") -> App:
    app = App(query=query)
    opened.append(app)
    app.store.value = stored
    app.store.loaded = True
    return app


def from_the_other_tab(app: App, other: App) -> None:
    """What storage.js does when the other tab saved: the value now stored, to this tab's kernel."""
    app.store._message(app.store, {"theirs": other.store.value})


def answer_three(app: App) -> None:
    app.nav.value = "Quiz yourself"
    for _ in range(3):
        item = app.quiz.item
        assert item is not None
        app.quiz.answered(item, item.check(item.answer()))  # as Check answer does
        app.quiz.next_item()


def notes(app: App) -> str:
    return " ".join(row.children[0].value for row in app.notes.children)


def test_a_tab_opened_earlier_keeps_the_answers_another_tab_gave(opened: list[App]) -> None:
    stored = base().to_json()
    b = tab(opened, stored, "lesson=3")
    a = tab(opened, stored)
    answer_three(a)
    from_the_other_tab(b, a)  # the storage event of A's save, in B
    assert b.progress.only("quiz").answered == 5
    assert "Your progress from another tab was merged in: 3 answers." in notes(b)
    assert b.store.value == a.store.value  # nothing for B to write: A's record holds it all
    b.learn.player.go(1)  # Next in tab B
    saved = Progress.from_json(b.store.value)
    assert saved.only("quiz").answered == 5 and {x.id for x in a.progress.answers} <= {x.id for x in saved.answers}


def test_a_tab_opened_earlier_keeps_the_lesson_step_another_tab_reached(opened: list[App]) -> None:
    b = tab(opened, "", "lesson=2")
    a = tab(opened, "", "lesson=3")
    slug = a.learn.player.lesson.slug
    for step in (1, 2, 3):  # Next in tab A, each step saved, each save merged in B
        a.learn.player.go(step)
        from_the_other_tab(b, a)
    assert a.progress.lessons[slug] == 3
    b.learn.player.go(1)  # Next in tab B
    assert Progress.from_json(b.store.value).lessons[slug] == 3
    assert "Your progress from another tab was merged in: 1 lesson read further." in notes(b)


def test_a_merge_note_counts_up_while_shown_and_says_nothing_when_nothing_is_new(opened: list[App]) -> None:
    b = tab(opened, "")
    a = tab(opened, "")
    answer_three(a)
    from_the_other_tab(b, a)
    from_the_other_tab(b, a)  # the same record again: nothing new, no second note
    assert len(b.notes.children) == 1
    a.quiz.answered(a.quiz.item, a.quiz.item.check(a.quiz.item.answer()))
    from_the_other_tab(b, a)
    assert len(b.notes.children) == 1 and "merged in: 4 answers." in notes(b)


def test_a_tab_that_saved_first_gets_the_other_tabs_record_merged_before_it_writes(opened: list[App]) -> None:
    """The page held back B's save (another tab wrote since B read): B's kernel merges what is stored
    and saves both tabs' answers."""
    a, b = tab(opened, ""), tab(opened, "")
    answer_three(a)
    answer_three(b)  # B's record alone: its own three answers
    assert Progress.from_json(b.store.value).answered == 3
    from_the_other_tab(b, a)
    assert Progress.from_json(b.store.value).answered == 6


def test_settings_changed_in_another_tab_are_shown_here(opened: list[App]) -> None:
    a, b = tab(opened, ""), tab(opened, "")
    a.settings_changed(dataclasses.replace(a.settings, preset="bicycle"))
    from_the_other_tab(b, a)
    assert b.settings.preset == "bicycle" and b.picker.preset.value == "bicycle"
    b.settings_changed(dataclasses.replace(b.settings, large=True))  # changed later, in B: B's settings win
    from_the_other_tab(a, b)
    assert a.settings.large and a.settings.preset == "bicycle"


def test_a_reset_in_one_tab_is_not_undone_by_the_other(opened: list[App]) -> None:
    a, b = tab(opened, ""), tab(opened, "")
    answer_three(a)
    from_the_other_tab(b, a)
    a.reset_progress()
    from_the_other_tab(b, a)
    assert b.progress.answered == 0
    from_the_other_tab(a, b)
    assert a.progress.answered == 0 and Progress.from_json(a.store.value).answered == 0


@pytest.mark.parametrize("theirs", ["not json", "[" * 100_000, json.dumps({"format": FORMAT, "answers": 3})])
def test_a_damaged_record_from_another_tab_changes_nothing_here_and_is_written_over(
    opened: list[App], theirs: str
) -> None:
    a = tab(opened, "")
    answer_three(a)
    before = a.progress.answered
    a.store._message(a.store, {"theirs": theirs})
    assert a.progress.answered == before and Progress.from_json(a.store.value).answered == before


@pytest.mark.parametrize(
    "message",
    [None, [], "theirs", {"theirs": 3}, {"theirs": "x" * (600 * 1024)}, {"aside": "moved", "why": "large", "size": -1}],
)
def test_a_message_the_page_should_not_send_is_ignored(opened: list[App], message: Any) -> None:
    a = tab(opened, "")
    a.store._message(a.store, message)
    assert a.notes.children == () and a.progress == Progress(settings=a.settings)


@pytest.mark.parametrize(
    ("outcome", "reason", "said"),
    [
        (
            "moved",
            "large",
            "The progress saved in this browser was too large to load (600,000 characters), so it was set aside "
            f"in this browser's storage under “{ASIDE_KEY}”, not erased.",
        ),
        (
            "moved",
            "unreadable",
            "The progress saved in this browser, as it was stored, was set aside in this browser's storage "
            f"under “{ASIDE_KEY}”, not erased.",
        ),
        (
            "occupied",
            "large",
            "too large to load (600,000 characters), and could not be set aside: a record set aside before is "
            f"kept in this browser's storage under “{ASIDE_KEY}”, so it is replaced",
        ),
        ("failed", "unreadable", "as it was stored, could not be set aside in this browser's storage"),
    ],
)
def test_what_became_of_a_record_set_aside_is_said(opened: list[App], outcome: str, reason: str, said: str) -> None:
    a = tab(opened, "")
    a.store._message(a.store, {"aside": outcome, "why": reason, "size": 600_000})
    assert said in notes(a)


def test_an_unreadable_record_is_asked_to_be_set_aside_not_just_written_over(opened: list[App]) -> None:
    app = App()
    opened.append(app)
    sent: list[Any] = []
    app.store.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    app.store.value = "not json"
    app.store.loaded = True
    assert sent[:1] == [{"set_aside": True}]
    assert "could not be read" in notes(app)
    app.store._message(app.store, {"aside": "moved", "why": "unreadable", "size": 8})  # the page's answer
    assert len(app.notes.children) == 1, "what became of the record is said in the note that said it was not read"
    assert "could not be read, so it starts afresh." in notes(app) and "was set aside" in notes(app)


def test_a_record_too_large_to_save_keeps_its_latest_answers_and_says_so(opened: list[App]) -> None:
    """Before, the store refused the whole record and the page wrote "" over the learner's progress."""
    app = tab(opened, "")
    for i in range(MAX_ANSWERS):
        app.progress.record("k" * 40, "p" * 40, f"{i:06d}" + "x" * 114, True, when=1_700_000_000.0 + i)
    app.save()
    saved = Progress.from_json(app.store.value)
    assert 0 < saved.answered < MAX_ANSWERS and saved.answers[-1].item.startswith(f"{MAX_ANSWERS - 1:06d}")
    assert f"The oldest {MAX_ANSWERS - saved.answered} answers were left out" in notes(app)


def test_a_puzzle_solved_in_one_tab_counts_in_the_others_rating(opened: list[App]) -> None:
    stored = base().to_json()
    b = tab(opened, stored, "page=puzzles")
    a = tab(opened, stored, "page=puzzles")
    page = a.puzzles
    page.choose(page.puzzle.answers[0])
    page.check()
    assert len(a.progress.puzzle_results) == 1
    from_the_other_tab(b, a)
    assert b.progress.puzzle_results == a.progress.puzzle_results
    rating = round(b.progress.puzzle_standing().learner.rating)
    assert rating > 1500 and f"Your puzzle rating: {rating}" in b.puzzles.rating_line.value
    from_the_other_tab(a, b)  # and back: nothing new, one result
    assert len(a.progress.puzzle_results) == 1


def test_puzzle_results_too_large_to_save_keep_the_latest_and_say_so(
    opened: list[App], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = tab(opened, "")
    for i in range(200):
        app.progress.record_puzzle(f"{i:08x}", "jokers", "easy", True, when=1_700_000_000.0 + i)
    monkeypatch.setattr("spades_tutor.ui.app.MAX_STORED", 10_000)
    app.save()
    saved = Progress.from_json(app.store.value)
    assert 0 < len(saved.puzzle_results) < 200 and saved.puzzle_results[-1].puzzle == f"{199:08x}"
    assert f"The oldest {200 - len(saved.puzzle_results)} puzzle results were left out" in notes(app)
