"""Mastery per quiz kind and the practice schedule: levels rise after a run and fall after misses,
a missed kind comes back sooner than a mastered one, the same history and seed give the same draw."""

from __future__ import annotations

import json

import pytest

from spades_tutor.quiz import kinds
from spades_tutor.quiz.mastery import BOXES, FALL_MISSES, FALL_WINDOW, RISE_RUN, level_of, mastery, next_practice
from spades_tutor.session.progress import Answer, Progress

KINDS = ("legal-plays", "trick-winner", "score", "trump-order")


def said(kind: str, level: int, right: bool, attempt: int = 1, seed: int = 1) -> Answer:
    return Answer(0.0, kind, "jokers", f"{kind}:jokers:{seed}/{level}", right, "quiz", attempt)


def test_the_level_rises_after_a_run_of_right_first_tries_and_not_before() -> None:
    for n in range(RISE_RUN):
        assert mastery([said("score", 1, True)] * n)["score"].level == 1
    assert mastery([said("score", 1, True)] * RISE_RUN)["score"].level == 2
    # a miss breaks the run: the count starts again
    broken = [said("score", 1, True)] * (RISE_RUN - 1) + [said("score", 1, False)] + [said("score", 1, True)]
    assert mastery(broken)["score"].level == 1
    # right only on the second try is not a right first try
    assert mastery([said("score", 1, True, attempt=2)] * RISE_RUN)["score"].level == 1
    # a run at each level reaches the top, and no further
    climb = [said("score", lvl, True) for lvl in (1, 2, 3) for _ in range(RISE_RUN)] * 2
    assert mastery(climb)["score"].level == 3


def test_the_level_falls_back_after_misses_among_the_last_answers() -> None:
    up = [said("score", 1, True)] * RISE_RUN
    assert mastery(up)["score"].level == 2
    one_miss = up + [said("score", 2, False)] * (FALL_MISSES - 1) + [said("score", 2, True)]
    assert mastery(one_miss)["score"].level == 2
    assert mastery(up + [said("score", 2, False)] * FALL_MISSES)["score"].level == 1
    # two wrong among the last three, not in a row
    spread = [*up, said("score", 2, False), said("score", 2, True), said("score", 2, False)]
    assert mastery(spread)["score"].level == 1
    # never below the first level
    assert mastery([said("score", 1, False)] * 5)["score"].level == 1


def test_a_harder_miss_does_not_lower_the_level_and_an_easier_right_does_not_raise_it() -> None:
    up = [said("score", 1, True)] * RISE_RUN
    assert mastery(up + [said("score", 3, False)] * 3)["score"].level == 2
    assert mastery(up + [said("score", 1, True)] * 5)["score"].level == 2
    assert mastery(up + [said("score", 3, True)] * RISE_RUN)["score"].level == 3


def test_the_box_drops_to_one_on_a_miss_and_climbs_one_per_right_first_try_up_to_five() -> None:
    assert mastery([])["score"].box == 0
    assert [mastery([said("score", 1, True)] * n)["score"].box for n in range(1, 7)] == [2, 3, 4, 5, 5, 5]
    assert mastery([said("score", 1, True)] * 6 + [said("score", 1, True, attempt=2)])["score"].box == 1
    assert mastery([said("score", 1, True)] * 6 + [said("score", 1, False)])["score"].box == 1


def test_a_missed_kind_is_served_more_often_and_sooner_than_a_mastered_one_over_many_seeds() -> None:
    # "score" mastered long ago (top level, top box, due again); "trick-winner" just missed
    mastered = [said("score", lvl, True) for lvl in (1, 2, 3) for _ in range(RISE_RUN)]
    filler = [said("legal-plays", 1, True), said("trump-order", 1, True)] * 10  # both well known by now
    history = mastered + filler + [said("trick-winner", 1, True), said("trick-winner", 2, False)]
    table = mastery(history, kinds=KINDS)
    assert table["score"].mastered and table["score"].due
    assert table["trick-winner"].box == 1 and table["trick-winner"].due
    draws = [next_practice(history, seed, kinds=KINDS)[0] for seed in range(400)]
    assert draws.count("trick-winner") > 10 * max(1, draws.count("score"))
    assert draws.count("trick-winner") > 0.9 * len(draws)

    # played forward: each served question answered right; the missed kind's first return comes first
    def first_turn(kind: str, seed: int) -> int:
        h = list(history)
        for turn in range(60):
            served, level = next_practice(h, seed * 1000 + turn, kinds=KINDS)
            if served == kind:
                return turn
            h.append(said(served, level, True))
        return 60

    seeds = range(30)
    assert sum(first_turn("trick-winner", s) for s in seeds) < sum(first_turn("score", s) for s in seeds)


def test_a_kind_just_right_in_a_high_box_is_not_due_until_its_interval_passes() -> None:
    known = [said("score", 1, True)] * 4  # box 5
    assert not mastery(known, kinds=KINDS)["score"].due
    assert all(next_practice(known, s, kinds=KINDS)[0] != "score" for s in range(100))
    later = known + [said("legal-plays", 1, True)] * 15
    assert mastery(later, kinds=KINDS)["score"].due


def test_the_draw_and_the_level_served_are_a_pure_function_of_history_and_seed() -> None:
    history = [said(k, 1, i % 3 != 0, seed=i) for i, k in enumerate(KINDS * 5)]
    first = [next_practice(history, seed, kinds=KINDS) for seed in range(50)]
    assert first == [next_practice(list(history), seed, kinds=KINDS) for seed in range(50)]
    assert len(set(first)) > 1  # the seed does change the draw
    kind, level = next_practice(history, 7, kinds=KINDS)
    assert level == mastery(history, kinds=KINDS)[kind].level


def test_an_empty_history_serves_every_kind_at_the_first_level() -> None:
    served = {next_practice([], seed) for seed in range(300)}
    assert {level for _, level in served} == {1}
    assert {kind for kind, _ in served} == set(kinds.names())
    assert all(m.box == 0 and m.answered == 0 and not m.due for m in mastery([]).values())


def test_what_was_missed_is_served_before_anything_new_and_new_kinds_come_in_when_nothing_is_due() -> None:
    missed = [said("score", 1, False)]
    assert {next_practice(missed, seed, kinds=KINDS) for seed in range(100)} == {("score", 1)}
    # right at last, in box 2: not due until another kind is answered, so a new kind comes in
    mended = [*missed, said("score", 1, True)]
    new = {next_practice(mended, seed, kinds=KINDS)[0] for seed in range(100)}
    assert new == set(KINDS) - {"score"}
    # one answer to a new kind later, "score" is due again and comes before the kinds still new
    later = [*mended, said("trump-order", 1, True)]
    assert {next_practice(later, seed, kinds=KINDS)[0] for seed in range(100)} == {"score"}


def test_stored_answers_to_unknown_kinds_and_keys_naming_no_level_are_read_safely() -> None:
    stored = {
        "format": "spades-tutor/progress",
        "answers": [
            [1.0, "bidding", "jokers", "bidding:jokers:1/1", False],  # no such kind
            [2.0, "score", "jokers", "score:jokers:1/1", True],
            [3.0, "score", "jokers", "trick-winner:jokers:1/3", True],  # a key of another kind: no level
            [4.0, "score", "jokers", "score:jokers:9/7", True],  # no such level
            [5.0, "score", "jokers", "score:jokers:5d41402abc", True, "lesson"],  # a lesson's position
        ],
    }
    history = Progress.from_json(json.dumps(stored)).answers
    assert [level_of(a) for a in history] == [1, 1, None, None, None]
    table = mastery(history)
    assert "bidding" not in table and set(table) == set(kinds.names())
    assert table["score"].answered == 4 and table["score"].levels == {1: (1, 1)}
    assert table["score"].level == 2  # the answers with no level count at the level being practised
    assert all(next_practice(history, s)[0] != "bidding" for s in range(200))
    # only the bad kind answered: every kind is still new
    assert mastery(history[:1], kinds=KINDS) == mastery([], kinds=KINDS)


def test_kinds_must_be_names_and_a_seed_a_whole_number() -> None:
    with pytest.raises(TypeError):
        next_practice([], seed=1, kinds="score")
    with pytest.raises(TypeError):
        next_practice([], seed=True)
    with pytest.raises(ValueError):
        next_practice([], seed=1, kinds=())


def test_the_readme_states_the_thresholds_the_code_uses() -> None:
    from pathlib import Path

    readme = " ".join((Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8").split())
    words = {2: "two", 3: "three", 5: "5"}
    assert f"rises after {words[RISE_RUN]} right first tries in a row" in readme
    assert f"falls after {words[FALL_MISSES]} misses of the last {words[FALL_WINDOW]}" in readme
    assert f"a box from 1 to {words[BOXES[-1]]}" in readme
