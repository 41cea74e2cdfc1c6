"""Lesson 14, setting the opponents: each score is the engine's, each card play the solver's or the engine's.

The end positions of "Take your tricks early" are the lesson's two ``ending`` blocks, which the
learner plays out against the solver; solved double dummy, the lead the lesson names is the only
one that sets East–West. The scores, the gaps between the sides and the "bid of 5 or more" line for a game
that ends before the bag count comes round again are the engine's ``score_hand``; the trick winners are the engine's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import spades_tutor as st
from spades_tutor.lessons import Block, load_lessons
from spades_tutor.solver import Position, set_contract, solve

LESSON = next(lesson for lesson in load_lessons() if lesson.slug == "setting-the-opponents")
RULES = st.Rules.preset("jokers")
NS, EW = st.Team.NS, st.Team.EW
C = st.Card.parse
# the tricks already taken in the hand of the first two problems, ten played
TAKEN = {"N": 4, "E": 2, "S": 3, "W": 1}
EW_CONTRACT = 6
CARD_NAMES = {card.name: card for card in RULES.deck()}
_NAMED = re.compile("|".join(sorted(map(re.escape, CARD_NAMES), key=len, reverse=True)))


def prose(step: int) -> str:
    """A step's prose and labels as shown in the lesson's own rule set, on one line."""
    blocks = LESSON.steps[step].blocks
    text = " ".join([b.text_in(LESSON) for b in blocks if b.kind == "markdown"] + [b.label for b in blocks])
    return re.sub(r"\s+", " ", text)


def labelled(kind: str, start: str) -> Block:
    (block,) = [b for b in LESSON.blocks(kind) if b.label.startswith(start)]
    return block


def named_cards(words: str) -> set[st.Card]:
    return {CARD_NAMES[name] for name in _NAMED.findall(words)}


def positions(rules: st.Rules = RULES) -> list[Position]:
    """The step's end positions: its ending blocks, as the solver sees them (you being South, on lead)."""
    return [block.resolve(LESSON, rules).ending().position for block in LESSON.blocks("ending")]


def test_it_is_lesson_14_in_the_jokers_rule_set_with_a_quiz_to_end() -> None:
    assert LESSON.number == 14 and LESSON.preset == "jokers"
    assert [step.title for step in LESSON.steps] == [
        "Count their tricks",
        "Take your tricks early",
        "When a set costs you the bag penalty",
        "The jokers as set-makers",
        "Quiz yourself",
    ]
    last = LESSON.steps[-1].blocks
    assert {b.quiz_kind for b in last if b.kind == "quiz"} == {"trick-winner", "score", "sure-tricks"}


def test_one_more_trick_sets_them_for_a_bag() -> None:
    text = prose(0)
    duck = labelled("score", "North–South let the last three go").score(LESSON)
    setting = labelled("score", "North–South take one more").score(LESSON)
    # the position the problem states: both sides bid 6, ten tricks played, North–South 7, East–West 3
    assert "North bid 3 and South 3, a contract of 6; East bid 4 and West 2, also 6" in text
    assert sum(TAKEN[s] for s in "NS") == 7 and sum(TAKEN[s] for s in "EW") == 3 and sum(TAKEN.values()) == 10
    assert "North–South have 7, East–West only 3" in text and "Three tricks are left" in text
    # ducking: East–West make 6 exactly; setting: one bag more for North–South, East–West lose 10 a trick bid
    assert duck[EW].points == 60 and setting[EW].points == -60 and "their +60 becomes −60" in text
    assert RULES.trick_points == 10 and "instead of 10 points for each trick they bid, they lose 10 for each" in text
    assert "if you take one of them, they are set" in text
    assert setting[NS].points - duck[NS].points == 1 and setting[NS].bags - duck[NS].bags == 1
    assert "It costs you a bag, worth a point to you now" in text
    assert "East–West are set, −60" in text


def test_the_positions_are_those_of_the_hand_and_the_trick_blocks_play_from_them() -> None:
    first, second = positions()
    assert first.hands[st.Seat.SOUTH] == RULES.sort_hand(st.cards("AH 7C 6D"))
    assert second.hands[st.Seat.NORTH] == RULES.sort_hand(st.cards("AD 9C 5H"))
    cash = labelled("trick", "South cashes the ace of hearts").trick(LESSON)
    lead = labelled("trick", "South leads a diamond to North's ace").trick(LESSON)
    for pos, trick, winner in ((first, cash, st.Seat.SOUTH), (second, lead, st.Seat.NORTH)):
        assert trick.leader is st.Seat.SOUTH and trick.winner is winner
        after = pos
        for card in trick.cards:  # each card legal in the position, in turn
            assert card in after.legal_plays()
            after = after.play(card)
        assert after.taken[winner] == TAKEN[winner.label[0]] + 1


@pytest.mark.parametrize("name", st.Rules.preset_names())
def test_the_solver_proves_the_named_lead_is_the_only_one_that_sets_them(name: str) -> None:
    # the step's tricks follow every deck ("preset: any deck"), so the proof holds in each
    first, second = positions(st.Rules.preset(name))
    text = prose(1)
    for pos, card in ((first, C("AH")), (second, C("4D"))):
        answer = set_contract(pos, NS, EW_CONTRACT)
        assert answer.holds is True and answer.exact and answer.best_cards == (card,)
        for other in pos.legal_plays():
            if other != card:  # any other lead: East–West take all three tricks left
                assert set_contract(pos.play(other), NS, EW_CONTRACT).holds is False
                assert solve(pos.play(other), EW, with_cards=False).value == 3
    # the endings the learner plays prove the same card, with the goal the step states
    for block, card in zip(LESSON.blocks("ending"), (C("AH"), C("4D")), strict=True):
        ending = block.resolve(LESSON, st.Rules.preset(name)).ending()
        assert ending.answers == (card,) and ending.goal.kind == "set_contract" and ending.goal.number == EW_CONTRACT
        assert ending.learner is st.Seat.SOUTH and dict(zip("NESW", ending.taken, strict=True)) == TAKEN
    assert "leading the ace of hearts is South's only card that sets East–West" in text
    assert "the four of diamonds is the only lead that sets them" in text


def test_the_common_mistake_is_played_as_the_lesson_tells_it() -> None:
    first, _second = positions()
    pos = first
    # South leads a club; West's ace wins, East throws the three of hearts; West's king of diamonds;
    # West leads the four of hearts and East trumps the ace
    for card in st.cards("7C AC 8C 3H  KD 9D QD 6D  4H 10H 5S AH"):
        assert card in pos.legal_plays(), card
        pos = pos.play(card)
    assert pos.tricks_left == 0
    assert (pos.taken[st.Seat.WEST], pos.taken[st.Seat.EAST]) == (TAKEN["W"] + 2, TAKEN["E"] + 1)
    assert pos.taken[st.Seat.WEST] + pos.taken[st.Seat.EAST] == EW_CONTRACT
    text = prose(1)
    assert "West wins with the ace of clubs while East, out of clubs, throws the three of hearts away" in text
    assert "East trumps your ace" in text and "make their 6" in text


def test_near_the_penalty_letting_a_bid_of_3_through_keeps_the_bigger_gap() -> None:
    text = prose(2)
    setting = labelled("score", "North–South set a bid of 3").score(LESSON)
    duck = labelled("score", "North–South let a bid of 3 through").score(LESSON)
    assert (setting[NS].points, setting[EW].points) == (-8, -30) and "−8 for them, −30 for East–West" in text
    assert (duck[NS].points, duck[EW].points, duck[NS].bags) == (91, 30, 9) and "+91 for them, +30" in text
    assert any(line.points == -RULES.bag_penalty for line in setting[NS].lines) and "100 points come off" in text
    assert duck[EW].points - setting[EW].points == 60 and "costs East–West 60 points (+30 becomes −30)" in text
    gap_duck, gap_set = duck[NS].points - duck[EW].points, setting[NS].points - setting[EW].points
    assert f"leaves you {gap_duck} points ahead on this hand, setting them only {gap_set}" in text
    assert gap_duck > gap_set


def gain_from_setting(their_bid: int) -> int:
    """Near the penalty (8 bags, a bag certain), how much a set adds to North–South's lead on the hand.

    North–South bid what is left after one bag: ducking they take one bag (9), setting two (10).
    """
    ours = 12 - their_bid
    bids = {st.Seat.NORTH: ours - 1, st.Seat.SOUTH: 1, st.Seat.EAST: their_bid - 1, st.Seat.WEST: 1}
    bags = {NS: 8, EW: 0}

    def gap(ns_tricks: int) -> int:
        tricks = {st.Seat.NORTH: ns_tricks - 1, st.Seat.SOUTH: 1, st.Seat.EAST: 13 - ns_tricks - 1, st.Seat.WEST: 1}
        scores = st.score_hand(RULES, bids, tricks, bags)
        return scores[NS].points - scores[EW].points

    return gap(ours + 2) - gap(ours + 1)


def test_when_the_game_ends_first_a_set_pays_against_a_bid_of_5_or_more_and_at_5_by_one_point() -> None:
    # the hand's own score, the whole penalty counted: right only when the game ends before the count
    # comes round again (over a game a bag costs a tenth of the penalty: tests/test_bag_value_lessons.py)
    text = prose(2)
    assert "from +10 a trick to −10 a trick" in text
    assert (
        "The whole 100 counts only when the game will end before you would reach 10 bags again: then a set "
        "pays only against a bid of 5 or more (at 5, by a single point)" in text
    )
    assert gain_from_setting(3) == 22 - 61  # the two blocks' gaps
    assert [b for b in range(2, 11) if gain_from_setting(b) > 0] == list(range(5, 11))
    assert gain_from_setting(5) == 1
    for bid in range(2, 10):  # 20 points more for each trick bid
        assert gain_from_setting(bid + 1) - gain_from_setting(bid) == 2 * RULES.trick_points


def test_the_big_joker_on_partners_ace_wins_a_trick_the_ace_had_won() -> None:
    text = prose(3)
    wasted = labelled("trick", "South trumps partner's ace").trick(LESSON)
    kept = labelled("trick", "South keeps the big joker").trick(LESSON)
    assert wasted.winner is st.Seat.SOUTH and kept.winner is st.Seat.SOUTH
    assert wasted.seats[1] is st.Seat.NORTH and wasted.cards[1] == C("AH")
    # with the four of clubs thrown away instead, North's ace wins the same trick
    assert "thrown the four of clubs away" in text
    thrown = (*wasted.cards[:3], C("4C"))
    assert st.trick_winner(RULES, thrown) == 1
    # kept for West's king, the joker takes a trick East–West would have won
    assert kept.seats[0] is st.Seat.WEST and kept.cards[0] == C("KH") and "West's king of hearts" in text
    assert st.trick_winner(RULES, (*kept.cards[:3], C("4C"))) == 0
    # the little joker beats every card but the big joker
    assert RULES.trump_order()[:2] == st.cards("BJ LJ")
    assert "The little joker beats every card but the big joker" in text


def test_the_quiz_answers_are_the_engines() -> None:
    quizzes = {b.quiz_kind: b for b in LESSON.steps[-1].blocks if b.kind == "quiz"}
    ace = quizzes["trick-winner"].trick(LESSON)
    assert ace.cards[0] == C("AS") and ace.winner is st.Seat.NORTH and ace.cards[1] == C("LJ")
    scores = quizzes["score"].score(LESSON)
    assert scores[EW].points == -70 and scores[NS].points == 53
    assert "East–West bid 7 and took 5; North–South bid 5 and took 8" in prose(4)
    hand = quizzes["sure-tricks"].cards(LESSON)
    assert st.sure_trick_count(RULES, hand) == 2


def test_the_readme_counts_the_lessons_and_names_this_one() -> None:
    readme = " ".join((Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8").split())
    words = ("twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen")
    count = len(load_lessons())
    assert f"**Learn**: {words[count - 12]} short lessons" in readme
    assert "lesson 14 to setting the opponents" in readme
