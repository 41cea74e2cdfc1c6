"""Judgement by perfect play: ``hand_odds(..., judge="perfect")`` solves each of the bots' deals double dummy.

What is pinned: the proven facts it must agree with (a hand of the thirteen top trumps takes every
trick; the top trump never survives a nil), the bookkeeping (every solved deal counted once, points
the engine's score of the outcomes seen, the partner's bid the bots'), reproducibility, the progress
it reports, deals left undecided by the node budget (left out and said), and its validation.
"""

from __future__ import annotations

import pytest

import spades_tutor as st
from spades_tutor.lab.odds import JUDGES, PerfectOdds

HAND = "QS 7S 3S KH 9H 4H AC 10C 6C 2C JD 7D 3D"
DEALS = 12


def test_a_hand_of_the_thirteen_top_trumps_takes_every_trick() -> None:
    rules = st.Rules.preset("jokers")
    odds = st.hand_odds(rules, rules.trump_order()[:13], deals=DEALS, seed=2, judge="perfect")
    assert isinstance(odds, PerfectOdds)
    assert odds.undecided == 0 and odds.team_tricks[13] == DEALS
    assert odds.mean_team_tricks == 13.0 and odds.chance_team_at_least(13) == 1.0


@pytest.mark.parametrize("preset", st.Rules.preset_names())
def test_the_top_trump_never_survives_a_nil(preset: str) -> None:
    rules = st.Rules.preset(preset)
    top = rules.trump_order()[0]
    side = sorted((c for c in rules.deck() if not rules.is_trump(c)), key=lambda c: (c.rank, c.suit))[:12]
    odds = st.hand_odds(rules, [top, *side], seat="E", deals=DEALS, seed=4, nil=True, judge="perfect")
    assert odds.solved == DEALS and odds.nil_made == 0 and odds.p_nil_made == 0.0
    interval = odds.p_nil_made_interval
    assert interval is not None and interval[0] == 0.0 < interval[1]


@pytest.mark.parametrize(("preset", "house"), [("classic", {}), ("jokers", {"bag_limit": 5, "bag_penalty": 50})])
def test_points_are_the_engines_score_of_the_solved_outcomes(preset: str, house: dict[str, object]) -> None:
    rules = st.Rules.preset(preset, **house)
    seat = st.Seat.SOUTH
    odds = st.hand_odds(rules, HAND, deals=DEALS, seed=7, judge="perfect")
    assert sum(k for _, _, k in odds.outcomes) == odds.solved == DEALS - odds.undecided
    assert sum(odds.team_tricks) == odds.solved
    assert all(p_bid >= 1 for _, p_bid, _ in odds.outcomes)  # the partner bids a number: one contract
    assert set(odds.points) == set(range(1, 14))
    for bid in odds.points:
        total = 0
        for tricks, p_bid, deals in odds.outcomes:
            bids = {seat: bid, seat.partner: p_bid, seat.left: 3, seat.left.partner: 3}
            taken = {seat: tricks, seat.partner: 0, seat.left: 13 - tricks, seat.left.partner: 0}
            total += deals * st.score_hand(rules, bids, taken)[seat.team].points
        assert odds.points[bid] == pytest.approx(total / odds.solved)
    assert odds.best_points == max(odds.points.values())
    text = odds.sentence()
    assert f"best bid {odds.best_bid}" in text and f"over the {odds.solved} deals" in text


def test_the_partners_bid_is_the_bots_where_the_bots_bid_a_number() -> None:
    rules = st.Rules.preset("classic")
    bots = st.hand_odds(rules, HAND, deals=DEALS, seed=7)
    perfect = st.hand_odds(rules, HAND, deals=DEALS, seed=7, judge="perfect", node_budget=10**9)
    assert perfect.undecided == 0
    bots_bids: dict[int, int] = {}
    for _, p_bid, p_blind, _, deals in bots.outcomes:
        if p_bid and not p_blind:
            bots_bids[p_bid] = bots_bids.get(p_bid, 0) + deals
    perfect_bids: dict[int, int] = {}
    for _, p_bid, deals in perfect.outcomes:
        perfect_bids[p_bid] = perfect_bids.get(p_bid, 0) + deals
    # the same deals: every number bid the bots made for the partner is made in the perfect judge's deals too
    assert all(perfect_bids.get(b, 0) >= k for b, k in bots_bids.items())
    assert sum(perfect_bids.values()) == DEALS


def test_equal_arguments_give_equal_results_and_progress_is_told_deal_by_deal() -> None:
    rules = st.Rules.preset("jokers")
    told: list[tuple[int, int]] = []
    first = st.hand_odds(
        rules,
        HAND.replace("QS", "BJ"),
        deals=6,
        seed=3,
        nil=True,
        judge="perfect",
        progress=lambda d, n: told.append((d, n)),
    )
    assert told == [(d, 6) for d in range(1, 7)]
    again = st.hand_odds(rules, HAND.replace("QS", "BJ"), deals=6, seed=3, nil=True, judge="perfect", workers=1)
    assert first == again and first.nodes == again.nodes  # two threads or one: the same deals, the same searches


def test_deals_the_budget_does_not_settle_are_left_out_and_said() -> None:
    rules = st.Rules.preset("classic")
    none = st.hand_odds(rules, HAND, deals=4, seed=1, judge="perfect", node_budget=1)
    assert none.undecided == 4 and none.solved == 0 and none.points == {}
    assert none.sentence() == "no deal of this hand settled by perfect play within 1 nodes a deal"
    some = st.hand_odds(rules, HAND, deals=DEALS, seed=1, judge="perfect", node_budget=100_000)
    full = st.hand_odds(rules, HAND, deals=DEALS, seed=1, judge="perfect", node_budget=10**9)
    assert 0 < some.undecided < DEALS and full.undecided == 0
    assert f"{some.undecided} of {DEALS} deals too long to settle, left out" in some.sentence()
    assert sum(some.team_tricks) == some.solved
    # each outcome settled within the small budget is one the full search finds too
    settled = {(t, b) for t, b, _ in some.outcomes}
    assert settled <= {(t, b) for t, b, _ in full.outcomes}


def test_a_bad_judge_budget_or_nil_is_refused_in_words() -> None:
    rules = st.Rules.preset("classic")
    assert JUDGES == ("bots", "perfect")
    with pytest.raises(st.SpadesError, match="judge must be one of bots, perfect, not 'oracle'"):
        st.hand_odds(rules, HAND, deals=2, judge="oracle")  # type: ignore[call-overload]
    for bad in (0, True, 2.5):
        with pytest.raises(st.SpadesError, match="node_budget must be a whole number 1 or more"):
            st.hand_odds(rules, HAND, deals=2, judge="perfect", node_budget=bad)  # type: ignore[arg-type]
        with pytest.raises(st.SpadesError, match="workers must be a whole number 1 or more"):
            st.hand_odds(rules, HAND, deals=2, judge="perfect", workers=bad)  # type: ignore[arg-type]
    with pytest.raises(st.SpadesError, match="does not allow nil"):
        st.hand_odds(st.Rules.preset("classic", nil=False), HAND, deals=2, nil=True, judge="perfect")


def test_a_nils_interval_counts_the_undecided_deals_either_way() -> None:
    rules = st.Rules.preset("classic")
    small = st.hand_odds(rules, HAND, deals=DEALS, seed=2, nil=True, judge="perfect", node_budget=300_000)
    full = st.hand_odds(rules, HAND, deals=DEALS, seed=2, nil=True, judge="perfect", node_budget=10**9)
    assert 0 < small.undecided < DEALS and full.undecided == 0
    # the deals the small budget settled are settled alike by the full search, so the full count lies between
    assert small.nil_made <= full.nil_made <= small.nil_made + small.undecided
    low, high = small.p_nil_made_interval or (-1.0, -1.0)
    full_low, full_high = full.p_nil_made_interval or (-1.0, -1.0)
    assert low <= full_low and full_high <= high  # wider than the full search's, and holding it
    assert f"the {small.undecided} too long to settle counted either way" in small.sentence()
    assert f"survives in {full.nil_made} of the {DEALS} deals of this hand" in full.sentence()


def test_a_node_budget_past_what_the_counters_hold_is_no_limit() -> None:
    rules = st.Rules.preset("classic")
    huge = st.hand_odds(rules, HAND, deals=3, seed=5, judge="perfect", node_budget=10**30)
    plain = st.hand_odds(rules, HAND, deals=3, seed=5, judge="perfect", node_budget=10**9)
    assert huge.undecided == 0 and huge.outcomes == plain.outcomes and huge.nodes == plain.nodes
