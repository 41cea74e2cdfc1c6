"""Lessons 13 and 14 value a bag as the engine does over a game: its point, less its share of the bag
penalty it brings nearer (``bag_cost``: ``bag_penalty / bag_limit``), the whole penalty only when the
game ends before the count would come round again.

Each figure the two steps quote is computed here from the lesson's own score blocks by ``score_hand``
and ``game_points``; the rule the lesson draws (a set pays against any bid over the game, against a
bid of 5 or more when the game ends first) is checked for every bid.
"""

from __future__ import annotations

import re

import spades_tutor as st
from spades_tutor.engine.text import signed
from spades_tutor.lab.odds import bag_cost, game_points
from spades_tutor.lessons import Block, Lesson, load_lessons

RULES = st.Rules.preset("jokers")
NS, EW = st.Team.NS, st.Team.EW


def lesson(slug: str) -> Lesson:
    return next(lesson for lesson in load_lessons() if lesson.slug == slug)


def prose(les: Lesson, step: int) -> str:
    blocks = les.steps[step].blocks
    text = " ".join([b.text_in(les) for b in blocks if b.kind == "markdown"] + [b.label for b in blocks])
    return re.sub(r"\s+", " ", text)


def labelled(les: Lesson, kind: str, start: str) -> Block:
    (block,) = [b for b in les.blocks(kind) if b.label.startswith(start)]
    return block


def test_a_bag_is_valued_at_a_tenth_of_the_penalty_less_its_point() -> None:
    assert RULES.bag_limit == 10 and RULES.bag_penalty == 100 and bag_cost(RULES) == 10
    text = prose(lesson("setting-the-opponents"), 2)
    assert f"over the game the bag it costs you is worth {signed(round(1 - bag_cost(RULES)))}" in text


def test_lesson_13_says_what_two_bags_cost_over_a_game_not_only_on_the_scoreboard() -> None:
    les = lesson("strategy-nil")
    text = prose(les, 2)
    greedy = labelled(les, "score", "North–South take 9 tricks").score(les)[NS]
    exact = labelled(les, "score", "North–South make 7 exactly").score(les)[NS]
    board = exact.points - greedy.points
    greedy_game, exact_game = game_points(RULES, greedy), game_points(RULES, exact)
    assert (greedy.points, exact.points, board) == (-28, 70, 98)
    assert f"The scoreboard puts {board} points between the two hands" in text
    assert f"taking 9 is worth {signed(round(greedy_game))} and making 7 exactly {signed(round(exact_game))}" in text
    assert f"the two bags cost {round(exact_game - greedy_game)} points, not {board}" in text
    # the two bags: 2 points scored, two tenths of the penalty brought nearer
    assert exact_game - greedy_game == 2 * bag_cost(RULES) - 2
    assert "They cost the whole 100 only when the game will end before you would reach 10 bags again" in text


def gains(their_bid: int) -> tuple[float, int]:
    """Near the penalty (8 bags, a bag certain), what a set adds to North–South's lead: over the game,
    and on this hand's scoreboard (the whole penalty, as when the game ends first)."""
    ours = 12 - their_bid
    bids = {st.Seat.NORTH: ours - 1, st.Seat.SOUTH: 1, st.Seat.EAST: their_bid - 1, st.Seat.WEST: 1}

    def gap(ns_tricks: int) -> tuple[float, int]:
        tricks = {st.Seat.NORTH: ns_tricks - 1, st.Seat.SOUTH: 1, st.Seat.EAST: 13 - ns_tricks - 1, st.Seat.WEST: 1}
        scores = st.score_hand(RULES, bids, tricks, {NS: 8, EW: 0})
        over_game = game_points(RULES, scores[NS]) - game_points(RULES, scores[EW])
        return over_game, scores[NS].points - scores[EW].points

    (set_game, set_hand), (let_game, let_hand) = gap(ours + 2), gap(ours + 1)
    return set_game - let_game, set_hand - let_hand


def test_lesson_14_sets_a_bid_of_3_near_the_penalty_as_the_game_value_says() -> None:
    les = lesson("setting-the-opponents")
    text = prose(les, 2)
    setting = labelled(les, "score", "North–South set a bid of 3").score(les)
    duck = labelled(les, "score", "North–South let a bid of 3 through").score(les)
    set_gap = game_points(RULES, setting[NS]) - game_points(RULES, setting[EW])
    let_gap = game_points(RULES, duck[NS]) - game_points(RULES, duck[EW])
    assert (set_gap, let_gap) == (102, 51)
    assert "is to set them" in text
    assert (
        f"setting East–West leaves you {round(set_gap)} points ahead, letting them through only {round(let_gap)}: "
        f"the set is worth {round(set_gap - let_gap)} points" in text
    )
    assert gains(3) == (set_gap - let_gap, 22 - 61)
    # today's rule, hand-made from the full penalty, is gone
    assert "a bid of 4 or less is better let through" not in text
    assert "is to let them make it" not in text


def test_over_a_game_a_set_pays_against_any_bid_and_at_the_games_end_against_5_or_more() -> None:
    text = prose(lesson("setting-the-opponents"), 2)
    over_game = {bid: gains(bid)[0] for bid in range(2, 11)}  # two number bids of at least 1
    last_hand = {bid: gains(bid)[1] for bid in range(2, 11)}
    assert all(gain > 0 for gain in over_game.values()), over_game
    assert "a set is worth its bag against any bid" in text
    assert [b for b, gain in last_hand.items() if gain > 0] == list(range(5, 11)) and last_hand[5] == 1
    assert (
        "The whole 100 counts only when the game will end before you would reach 10 bags again: then a set "
        "pays only against a bid of 5 or more (at 5, by a single point)" in text
    )
    # 20 points a trick bid, against a bag worth 1 - 10 over the game: positive from a bid of 1 up
    for bid, gain in over_game.items():
        assert gain == bid * 2 * RULES.trick_points - (bag_cost(RULES) - 1)
    assert "A set swings the opponents' score by 20 points for each trick they bid" in text
