"""Lesson 13, nil and bags: each figure it states is the engine's score or a hand measured again here.

Each problem is asked before it is answered: the step's question (a bid, a trick, a score) comes
before the words that explain it, and the engine's answer to it is what the words say.

The nil is asked as a best-bid question; the figures the lesson then states are that question's
own measurement (``hand_odds`` at ``BID_DEALS`` deals, seed ``BID_SEED``, West dealing, valued over
the game), re-measured here and written as the lesson writes them ("about 72% (likely between 67%
and 76%)"), its "about 3 times in 4" inside the interval. Tricks and scores are the engine's.
"""

from __future__ import annotations

import re

import pytest

import spades_tutor as st
from spades_tutor.engine.text import likely, signed_points
from spades_tutor.lessons import Block, load_lessons
from spades_tutor.quiz.kinds.best_bid import BID_DEALS, BID_SEED, BID_VALUATION
from spades_tutor.quiz.kinds.nil_safe import SAFE

LESSON = next(lesson for lesson in load_lessons() if lesson.slug == "strategy-nil")
RULES = st.Rules.preset("jokers")
DEALS, SEED = BID_DEALS, BID_SEED  # "the bots played this hand 400 times": the best-bid question's measurement


def prose(step: int) -> str:
    """A step's prose and labels as shown in the lesson's own rule set, on one line."""
    blocks = LESSON.steps[step].blocks
    text = " ".join([b.text_in(LESSON) for b in blocks if b.kind == "markdown"] + [b.label for b in blocks])
    return re.sub(r"\s+", " ", text)


def labelled(kind: str, start: str) -> Block:
    (block,) = [b for b in LESSON.blocks(kind) if b.label.startswith(start)]
    return block


def asked_first(step: int) -> Block:
    """The step's question, which comes before every word that explains it."""
    blocks = LESSON.steps[step].blocks
    first = next(i for i, b in enumerate(blocks) if b.kind == "quiz")
    told = [i for i, b in enumerate(blocks) if b.kind == "markdown" and "**The common mistake**" in b.text_in(LESSON)]
    assert told and first < told[0], "the question comes before the explanation"
    return blocks[first]


def pct(p: float) -> str:
    return f"{round(100 * p)}%"


def test_it_is_lesson_13_in_the_jokers_rule_set_with_a_quiz_to_end() -> None:
    assert LESSON.number == 13 and LESSON.preset == "jokers"
    assert [step.title for step in LESSON.steps] == [
        "When to bid nil",
        "Covering a partner's nil",
        "Bags near the penalty",
        "Quiz yourself",
    ]
    last = LESSON.steps[-1].blocks
    assert {b.quiz_kind for b in last if b.kind == "quiz"} == {"trick-winner", "score", "nil-safe"}


@pytest.fixture(scope="module")
def queen_nil() -> tuple[st.HandOdds, st.HandOdds]:
    block = asked_first(0)
    item = block.quiz_item(LESSON)
    assert block.quiz_kind == "best-bid" and item.dealer is st.Seat.WEST
    assert item.hand == st.cards("QS 4S 9H 5H 3H 8C 6C 4C 2C 9D 7D 5D 3D")
    assert item.answer() == 0, "the question's own answer is nil"
    nil = st.hand_odds(RULES, item.hand, st.Seat.SOUTH, DEALS, SEED, nil=True, dealer="W", valuation=BID_VALUATION)
    number = st.hand_odds(RULES, item.hand, st.Seat.SOUTH, DEALS, SEED, dealer="W", valuation=BID_VALUATION)
    return nil, number


def test_the_queen_of_spades_nil_is_made_about_3_times_in_4_as_measured(
    queen_nil: tuple[st.HandOdds, st.HandOdds],
) -> None:
    nil, _number = queen_nil
    text = prose(0)
    assert "played this hand hundreds of times as a nil, West dealing" in text and "West dealt" in text
    assert str(DEALS) not in text  # the count is the measurement's detail, not the lesson's words
    assert 100 <= DEALS < 1000
    p, (low, high) = nil.p_zero, nil.p_zero_interval
    assert f"made in about {pct(p)} of the deals ({likely(pct(low), pct(high))})" in text
    assert "about 3 times in 4" in text and low <= 3 / 4 <= high
    # "not safe": below the line the nil-safe quiz draws
    assert "is not safe" in text and p < SAFE
    assert "95%" not in text and "seed" not in text  # plain words


def test_the_queen_of_spades_nil_still_scores_more_than_any_number_bid(
    queen_nil: tuple[st.HandOdds, st.HandOdds],
) -> None:
    nil, number = queen_nil
    text = prose(0)
    points, (low, high) = nil.points[0], nil.points_interval[0]
    assert (
        f"worth about {signed_points(points)} points over the game ({likely(signed_points(low), signed_points(high))})"
        in text
    )
    best, (b_low, b_high) = number.best_points, number.best_points_interval
    assert number.best_bid == 1 and "the best number bid, 1" in text.lower()
    assert f"was worth only about {signed_points(best)} ({likely(signed_points(b_low), signed_points(b_high))})" in text
    assert low > b_high, "the nil is the best bid: the intervals do not overlap"


def test_the_nil_with_the_lowest_spades_is_made_in_every_deal_measured() -> None:
    hand = labelled("hand", "The same hand with the three and two").cards(LESSON)
    queen = asked_first(0).quiz_item(LESSON).hand
    # the same side suits, the two lowest spades in place of the queen and four
    assert set(hand) - set(queen) == set(st.cards("3S 2S")) and set(queen) - set(hand) == set(st.cards("QS 4S"))
    nil = st.hand_odds(RULES, hand, st.Seat.SOUTH, DEALS, SEED, nil=True, dealer="W", valuation=BID_VALUATION)
    (low, high), points, (p_low, p_high) = nil.p_zero_interval, nil.points[0], nil.points_interval[0]
    assert nil.p_zero == 1.0
    text = prose(0)
    # every deal measured: said in words that agree with the figure and its range, never "100%"
    assert f"made in every one of the same deals ({likely(pct(low), pct(high))})" in text
    assert "made in 100%" not in text
    assert (
        f"worth about {signed_points(points)} points over the game ({likely(signed_points(p_low), signed_points(p_high))})"
        in text
    )


def test_covering_is_asked_before_it_is_explained() -> None:
    block = asked_first(1)
    item = block.quiz_item(LESSON)
    low = labelled("trick", "South plays low").trick(LESSON)
    assert block.quiz_kind == "trick-winner" and item.answer() == low.cards[low.seats.index(low.winner)]
    assert low.winner is st.Seat.NORTH  # the question's answer: North's jack, the nil fails


def test_the_bags_are_asked_before_they_are_explained() -> None:
    block = asked_first(2)
    item = block.quiz_item(LESSON)
    greedy = labelled("score", "North–South take 9 tricks").score(LESSON)
    assert block.quiz_kind == "score"
    assert item.answer() == {team: (greedy[team].points, greedy[team].bags) for team in st.Team}


def test_covering_with_the_ace_saves_the_nil_and_playing_low_sets_it() -> None:
    text = prose(1)
    assert "North bid nil" in text and "you are South" in text
    low = labelled("trick", "South plays low").trick(LESSON)
    cover = labelled("trick", "South covers").trick(LESSON)
    for trick in (low, cover):
        assert trick.leader is st.Seat.EAST and trick.seats[1] is st.Seat.SOUTH and trick.seats[3] is st.Seat.NORTH
        assert trick.cards[3] == st.Card.parse("JC")
    assert low.winner is st.Seat.NORTH and cover.winner is st.Seat.SOUTH
    # North's nil scored by the engine: one trick fails it
    bids = {st.Seat.NORTH: st.NIL, st.Seat.EAST: 4, st.Seat.SOUTH: 4, st.Seat.WEST: 4}
    tricks = {st.Seat.NORTH: 1, st.Seat.EAST: 4, st.Seat.SOUTH: 4, st.Seat.WEST: 4}
    nil_line = [line for line in st.score_hand(RULES, bids, tricks)[st.Team.NS].lines if line.kind == "nil"]
    assert nil_line and "−100" in text and sum(line.points for line in nil_line) == -100


def test_the_bag_scores_are_the_engines() -> None:
    text = prose(2)
    greedy_scores = labelled("score", "North–South take 9 tricks").score(LESSON)
    exact_scores = labelled("score", "North–South make 7 exactly").score(LESSON)
    greedy, exact = greedy_scores[st.Team.NS], exact_scores[st.Team.NS]
    assert (greedy.points, greedy.bags) == (-28, 0) and "−28" in text
    assert (exact.points, exact.bags) == (70, 8) and "+70" in text and "the bags stay at 8" in text
    # the opponents make their 3 either way; the tricks given away are 2 more bags for them
    them, given = greedy_scores[st.Team.EW], exact_scores[st.Team.EW]
    assert them.points > 0 and given.points - them.points == 2 and given.bags - them.bags == 2
    assert "East–West bid 3 and make it either way" in text and "worth 2 points to them" in text
    assert "North–South have 8 bags" in text and "100 points come off" in text
    assert RULES.bag_limit == 10 and RULES.bag_penalty == 100 and "count to 10" in text
