"""Scoring a hand: contracts made and set, bags and the bag penalty, nil and blind nil, the house-rule flags.

Rule text (joker-spades-rules.txt, "Scoring"): "Team makes its bid: 10 per trick bid; Each trick over
the bid (a bag): 1; Team falls short: Minus 10 per trick bid; Every 10 bags collected: Minus 100;
Nil made: Plus 100; Nil failed: Minus 100; Blind nil made: Plus 200; Blind nil failed: Minus 200."
house-rules.md: the defaults table and "Worked examples (defaults)".
"""

from __future__ import annotations

import dataclasses
import random

import pytest

import spades_tutor as st
from spades_tutor import Seat, Team

ALL_PRESETS = st.Rules.preset_names()
N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
NS, EW = Team.NS, Team.EW


def score(bids, tricks, bags=None, preset="jokers", **flags):
    rules = st.Rules.preset(preset)
    if flags:
        rules = dataclasses.replace(rules, **flags)
    return st.score_hand(rules, bids, tricks, bags)


def assert_lines_add_up(result):
    for team, hand in result.items():
        assert hand.team == team
        assert sum(line.points for line in hand.lines) == hand.points, [str(x) for x in hand.lines]
        for line in hand.lines:
            assert line.label.strip()


# --- the worked examples of house-rules.md -------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_worked_example_1_contract_made_with_one_bag(preset):
    """'N bids 4, S bids 3, they take 8: contract 7 made, +70 +1 bag = +71.'"""
    result = score({N: 4, S: 3, E: 3, W: 2}, {N: 5, S: 3, E: 3, W: 2}, preset=preset)
    ns = result[NS]
    assert ns.points == 71
    assert ns.bags == 1
    assert sorted(line.points for line in ns.lines) == [1, 70]
    assert_lines_add_up(result)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_worked_example_2_nil_made_and_partner_makes(preset):
    """'N bids nil and takes 0, S bids 4 and takes 5: nil +100, contract +40 +1 = +141.'"""
    result = score({N: "nil", S: 4, E: 4, W: 3}, {N: 0, S: 5, E: 5, W: 3}, preset=preset)
    ns = result[NS]
    assert ns.points == 141
    assert ns.bags == 1
    assert sorted(line.points for line in ns.lines) == [1, 40, 100]
    assert_lines_add_up(result)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_worked_example_3_failed_nil_trick_is_a_bag_and_partner_set(preset):
    """'N bids nil and takes 1, S bids 2 and takes 1: nil −100, S's contract set −20,
    N's trick is a bag +1 = −119, one bag.'"""
    result = score({N: 0, S: 2, E: 5, W: 4}, {N: 1, S: 1, E: 6, W: 5}, preset=preset)
    ns = result[NS]
    assert ns.points == -119
    assert ns.bags == 1
    assert sorted(line.points for line in ns.lines) == [-100, -20, 1]
    assert_lines_add_up(result)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_worked_example_4_bag_penalty_with_one_bag_carried(preset):
    """'A team with 8 bags bids 5 and takes 8: +50 +3 = 53, bags reach 11 → −100 → −47, 1 bag carried.'"""
    result = score({N: 3, S: 2, E: 4, W: 4}, {N: 5, S: 3, E: 3, W: 2}, bags={NS: 8, EW: 0}, preset=preset)
    ns = result[NS]
    assert ns.points == -47
    assert ns.bags == 1
    assert sorted(line.points for line in ns.lines) == [-100, 3, 50]
    assert_lines_add_up(result)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_worked_example_5_both_over_500_higher_wins_exact_tie_plays_on(preset):
    """'Both teams end a hand over 500, 520 to 530: E–W win. 510 to 510: another hand.'"""
    rules = st.Rules.preset(preset)
    assert st.game_winner(rules, {NS: 520, EW: 530}) == EW
    assert st.game_winner(rules, {NS: 510, EW: 510}) is None


# --- made and set --------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_contract_made_exactly_scores_10_per_trick_bid_and_no_bags(preset):
    result = score({N: 4, S: 3, E: 3, W: 3}, {N: 4, S: 3, E: 3, W: 3}, bags={NS: 4, EW: 2}, preset=preset)
    assert (result[NS].points, result[NS].bags) == (70, 4)
    assert (result[EW].points, result[EW].bags) == (60, 2)
    assert_lines_add_up(result)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_team_falls_short_minus_10_per_trick_bid(preset):
    """'Team falls short: Minus 10 per trick bid.'"""
    result = score({N: 5, S: 4, E: 2, W: 2}, {N: 6, S: 2, E: 3, W: 2}, bags={NS: 3, EW: 0}, preset=preset)
    assert result[NS].points == -90
    assert result[NS].bags == 3  # a set earns no bags
    assert result[EW].points == 41
    assert_lines_add_up(result)


def test_the_contract_is_the_team_not_each_player():
    """'Partners add their bids together for the team contract.' One partner short, the other over: made."""
    result = score({N: 5, S: 2, E: 3, W: 3}, {N: 2, S: 5, E: 3, W: 3})
    assert result[NS].points == 70
    assert result[NS].bags == 0


@pytest.mark.parametrize(("bid", "took", "points", "bags"), [(13, 13, 130, 0), (1, 13, 10 + 12 - 100, 2)])
def test_made_contract_points_extremes(bid, took, points, bags):
    n_bid, s_bid = (bid - 1, 1) if bid > 1 else (1, 0)
    bids = {N: n_bid, S: s_bid or "nil", E: 1, W: 1}
    tricks = {N: took, S: 0, E: 0, W: 13 - took}
    result = score(bids, tricks)
    expected = points + (100 if s_bid == 0 else 0)
    assert result[NS].points == expected
    assert result[NS].bags == bags
    assert_lines_add_up(result)


# --- bags ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "contract", "took", "points", "after"),
    [
        (0, 5, 8, 53, 3),  # bags simply add up
        (6, 5, 8, 53, 9),  # 9: no penalty yet
        (7, 5, 8, 53 - 100, 0),  # exactly 10: penalty, nothing carried
        (8, 5, 8, 53 - 100, 1),  # worked example 4
        (9, 4, 8, 44 - 100, 3),  # 13: 3 carried
        (9, 2, 13, 20 + 11 - 200, 0),  # 20: two penalties
        (0, 2, 12, 20 + 10 - 100, 0),  # ten bags in one hand
        (5, 2, 13, 20 + 11 - 100, 6),
    ],
)
def test_every_10_bags_cost_100_and_the_rest_carry_over(before, contract, took, points, after):
    """'Every 10 bags collected: Minus 100.' house-rules.md: 'the count drops by 10 (the rest carry over)'."""
    n_bid = contract - 1
    result = score({N: n_bid, S: 1, E: 1, W: 1}, {N: took - 1, S: 1, E: 13 - took, W: 0}, bags={NS: before, EW: 0})
    assert result[NS].points == points
    assert result[NS].bags == after
    penalties = [line for line in result[NS].lines if line.points == -100]
    assert len(penalties) == (before + took - contract) // 10
    assert_lines_add_up(result)


def test_a_hand_that_crosses_20_bags_pays_twice_and_carries_the_rest():
    """9 bags, then N bids 1 and S nil, N takes all 13: 12 bags, 21 in all: −200, 1 carried."""
    result = score({N: 1, S: "nil", E: 1, W: 1}, {N: 13, S: 0, E: 0, W: 0}, bags={NS: 9, EW: 0})
    ns = result[NS]
    assert ns.points == 100 + 10 + 12 - 200
    assert ns.bags == 1
    assert [line.points for line in ns.lines].count(-100) == 2
    assert_lines_add_up(result)


def test_bags_before_of_one_team_do_not_touch_the_other():
    result = score({N: 3, S: 3, E: 3, W: 3}, {N: 4, S: 3, E: 3, W: 3}, bags={NS: 0, EW: 9})
    assert result[EW].bags == 9
    assert result[EW].points == 60
    assert result[NS].bags == 1


def test_bags_default_to_zero():
    result = score({N: 3, S: 3, E: 3, W: 3}, {N: 4, S: 3, E: 3, W: 3})
    assert result[NS].bags == 1
    assert result[EW].bags == 0


# --- nil and blind nil ---------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_nil_made_plus_100_and_scored_alone(preset):
    """'Nil made: Plus 100.' house-rules.md: 'a nil bidder adds 0 and is scored alone'."""
    result = score({N: "nil", S: 4, E: 3, W: 3}, {N: 0, S: 3, E: 5, W: 5}, preset=preset)
    assert result[NS].points == 100 - 40  # S's own contract of 4 is set
    assert result[NS].bags == 0
    assert_lines_add_up(result)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_nil_failed_minus_100(preset):
    """'Nil failed: Minus 100.' With the default, the nil's 2 tricks are bags and do not help S."""
    result = score({N: "nil", S: 3, E: 4, W: 3}, {N: 2, S: 3, E: 5, W: 3}, preset=preset)
    assert result[NS].points == -100 + 30 + 2
    assert result[NS].bags == 2
    assert_lines_add_up(result)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_blind_nil_made_plus_200(preset):
    """'Blind nil made (if allowed): Plus 200.'"""
    result = score({N: st.BLIND_NIL, S: 4, E: 4, W: 4}, {N: 0, S: 4, E: 5, W: 4}, preset=preset, blind_nil="always")
    assert result[NS].points == 240
    assert result[NS].bags == 0
    assert_lines_add_up(result)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_blind_nil_failed_minus_200(preset):
    """'Blind nil failed: Minus 200.'"""
    result = score({N: st.BLIND_NIL, S: 4, E: 4, W: 4}, {N: 2, S: 4, E: 4, W: 3}, preset=preset, blind_nil="always")
    assert result[NS].points == -200 + 40 + 2
    assert result[NS].bags == 2
    assert_lines_add_up(result)


def test_nil_and_blind_nil_values_are_flags():
    result = score({N: "nil", S: 4, E: 4, W: 4}, {N: 0, S: 4, E: 5, W: 4}, nil_value=50)
    assert result[NS].points == 90
    result = score(
        {N: st.BLIND_NIL, S: 4, E: 4, W: 4}, {N: 1, S: 4, E: 4, W: 4}, blind_nil="always", blind_nil_value=300
    )
    assert result[NS].points == -300 + 40 + 1


# --- a failed nil's tricks: the three settings ---------------------------------------------------

FAILED_NIL_CASES = [
    # (N nil takes, S bids, S takes) -> {setting: (points, bags)}
    ((1, 2, 1), {"bags": (-119, 1), "partner": (-80, 0), "none": (-120, 0)}),
    ((3, 2, 1), {"bags": (-117, 3), "partner": (-78, 2), "none": (-120, 0)}),
    ((1, 2, 3), {"bags": (-78, 2), "partner": (-78, 2), "none": (-79, 1)}),
    ((2, 4, 2), {"bags": (-138, 2), "partner": (-60, 0), "none": (-140, 0)}),
]


@pytest.mark.parametrize("setting", ["bags", "partner", "none"])
@pytest.mark.parametrize(("took", "expected"), FAILED_NIL_CASES)
def test_failed_nil_tricks_flag(setting, took, expected):
    """house-rules.md: '`bags`: they do not help the partner's bid; each is a bag for the team (1 point, and
    counted toward the bag penalty)' · '`partner`: they count toward the partner's bid' · '`none`: ignored'."""
    n_took, s_bid, s_took = took
    ew_took = 13 - n_took - s_took
    result = score(
        {N: "nil", S: s_bid, E: 1, W: 1}, {N: n_took, S: s_took, E: ew_took, W: 0}, failed_nil_tricks=setting
    )
    assert (result[NS].points, result[NS].bags) == expected[setting]
    assert_lines_add_up(result)


def test_failed_nil_tricks_as_bags_count_toward_the_bag_penalty():
    """'each is a bag for the team (1 point, and counted toward the bag penalty)'."""
    result = score({N: "nil", S: 2, E: 5, W: 4}, {N: 1, S: 1, E: 6, W: 5}, bags={NS: 9, EW: 0})
    assert result[NS].points == -119 - 100
    assert result[NS].bags == 0
    assert_lines_add_up(result)


def test_failed_nil_tricks_with_partner_count_bags_over_the_partners_bid():
    result = score(
        {N: "nil", S: 2, E: 1, W: 1}, {N: 3, S: 1, E: 9, W: 0}, bags={NS: 8, EW: 0}, failed_nil_tricks="partner"
    )
    assert result[NS].points == -100 + 20 + 2 - 100
    assert result[NS].bags == 0


# --- both partners nil ---------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_both_partners_nil_made_each_scored_alone(preset):
    """house-rules.md: 'both partners nil: allowed; each is scored alone'."""
    result = score({N: "nil", S: "nil", E: 6, W: 7}, {N: 0, S: 0, E: 6, W: 7}, preset=preset)
    assert result[NS].points == 200
    assert result[NS].bags == 0
    assert len([line for line in result[NS].lines if line.points == 100 and "nil" in line.label.lower()]) == 2
    assert_lines_add_up(result)


@pytest.mark.parametrize(("setting", "points", "bags"), [("bags", 2, 2), ("none", 0, 0)])
def test_both_partners_nil_one_fails(setting, points, bags):
    result = score({N: "nil", S: "nil", E: 5, W: 6}, {N: 0, S: 2, E: 5, W: 6}, failed_nil_tricks=setting)
    assert result[NS].points == points  # +100 -100, and the failed nil's tricks per the flag
    assert result[NS].bags == bags
    assert_lines_add_up(result)


def test_both_partners_nil_both_fail():
    result = score({N: "nil", S: "nil", E: 5, W: 6}, {N: 1, S: 2, E: 4, W: 6})
    assert result[NS].points == -200 + 3
    assert result[NS].bags == 3


def test_both_partners_nil_blind_and_plain():
    result = score({N: st.BLIND_NIL, S: "nil", E: 6, W: 7}, {N: 0, S: 1, E: 6, W: 6}, blind_nil="always")
    assert result[NS].points == 200 - 100 + 1


# --- every score is a list of labelled lines -----------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("setting", ["bags", "partner", "none"])
def test_labelled_lines_sum_to_points_for_any_hand(preset, setting):
    rules = dataclasses.replace(st.Rules.preset(preset), failed_nil_tricks=setting, blind_nil="always")
    rng = random.Random(f"{preset}-{setting}")
    choices = [st.BLIND_NIL, st.NIL, *range(1, 14)]
    for _ in range(300):
        bids = {s: rng.choice(choices) for s in Seat}
        cuts = sorted(rng.randint(0, 13) for _ in range(3))
        counts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]
        tricks = dict(zip(Seat, counts, strict=True))
        bags = {NS: rng.randint(0, 9), EW: rng.randint(0, 9)}
        result = st.score_hand(rules, bids, tricks, bags)
        assert set(result) == {NS, EW}
        assert_lines_add_up(result)
        for hand in result.values():
            assert 0 <= hand.bags < rules.bag_limit


def test_hand_score_lines_are_labelled_sentences():
    result = score({N: "nil", S: 2, E: 5, W: 4}, {N: 1, S: 1, E: 6, W: 5})
    labels = " | ".join(line.label for line in result[NS].lines).lower()
    assert "nil" in labels
    assert "set" in labels or "short" in labels
    assert "bag" in labels


def test_score_hand_rejects_tricks_that_do_not_add_up_to_13():
    with pytest.raises(ValueError):
        score({N: 3, S: 3, E: 3, W: 3}, {N: 3, S: 3, E: 3, W: 3})


# --- the contract line says whose tricks it counted ----------------------------------------------


@pytest.mark.parametrize(
    ("east_took", "result"),
    [(0, "made (E 2, took 0 + W's 2 from the failed nil)"), (1, "made (E 2, took 1 + W's 2 from the failed nil)")],
)
def test_with_failed_nil_tricks_to_the_partner_the_contract_line_names_the_nils_tricks(east_took, result):
    """East bids 2, West's nil fails with 2 tricks: under `partner` they count toward East's contract, and the
    line says so instead of crediting East with tricks East did not take."""
    tricks = {N: 11 - east_took, E: east_took, S: 0, W: 2}
    ew = score({N: 5, S: 4, E: 2, W: "nil"}, tricks, failed_nil_tricks="partner")[EW]
    (contract,) = [line for line in ew.lines if line.kind == "contract"]
    assert contract.label == f"Contract 2 {result}"
    assert contract.points == 20
    assert_lines_add_up({EW: ew})


def test_a_contract_set_even_with_the_failed_nils_tricks_names_them_too():
    ew = score({N: 5, S: 4, E: 4, W: "nil"}, {N: 10, E: 2, S: 0, W: 1}, failed_nil_tricks="partner")[EW]
    (contract,) = [line for line in ew.lines if line.kind == "contract"]
    assert contract.label == "Contract 4 set (E 4, took 2 + W's 1 from the failed nil)"
    assert contract.points == -40


@pytest.mark.parametrize("setting", ["bags", "none"])
def test_when_a_failed_nils_tricks_do_not_count_toward_the_contract_the_line_counts_only_the_bidders(setting):
    ew = score({N: 5, S: 4, E: 2, W: "nil"}, {N: 9, E: 2, S: 0, W: 2}, failed_nil_tricks=setting)[EW]
    (contract,) = [line for line in ew.lines if line.kind == "contract"]
    assert contract.label == "Contract 2 made (E 2, took 2)"
