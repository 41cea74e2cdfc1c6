"""Bidding: order, the numbers allowed, nil and blind nil, and illegal bids leaving the round untouched.

Rule text: "Starting left of the dealer, each player bids the number of tricks they expect to win.
... A player may instead bid nil" (joker-spades-rules.txt). house-rules.md: "one round, starting
left of the dealer; 1–13 or nil (0 means nil)"; "nil off (no-nil tables); blind nil `off` /
`behind-100` (only for a team 100+ points behind, declared before looking) / `always`".
"""

from __future__ import annotations

import dataclasses

import pytest

import spades_tutor as st
from spades_tutor import Seat, Team

ALL_PRESETS = st.Rules.preset_names()


def new_round(preset="jokers", dealer=Seat.WEST, seed=4127, **flags) -> st.Round:
    rules = dataclasses.replace(st.Rules.preset(preset), **flags) if flags else st.Rules.preset(preset)
    return st.Round.deal(rules, dealer=dealer, seed=seed)


def assert_rejected(rnd: st.Round, *args, **kwargs) -> st.IllegalAction:
    """The bid raises IllegalAction with a reason, and the round is exactly as before."""
    before_json = rnd.to_json()
    before = (rnd.to_act, rnd.phase, dict(rnd.bids), rnd.history)
    with pytest.raises(st.IllegalAction) as info:
        rnd.bid(*args, **kwargs)
    error = info.value
    assert isinstance(error, ValueError)
    assert isinstance(error.reason, st.Reason)
    assert str(error.reason).strip()
    assert rnd.to_json() == before_json
    assert (rnd.to_act, rnd.phase, dict(rnd.bids), rnd.history) == before
    return error


# --- order ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("dealer", list(Seat))
def test_bidding_starts_left_of_the_dealer_and_passes_left(preset, dealer):
    """'Starting left of the dealer, each player bids.'"""
    rnd = new_round(preset, dealer=dealer)
    assert rnd.phase == st.Phase.BIDDING
    seat = dealer.left
    for n in (1, 2, 3, 4):
        assert rnd.to_act == seat
        rnd.bid(n)
        assert rnd.bids[seat] == n
        seat = seat.left
    assert list(rnd.bids) == [dealer.left, dealer.left.left, dealer.partner.left, dealer]
    assert rnd.phase == st.Phase.PLAYING


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_bidding_is_one_round(preset):
    rnd = new_round(preset)
    for _ in range(4):
        rnd.bid(3)
    assert rnd.phase == st.Phase.PLAYING
    assert len(rnd.bids) == 4


def test_partners_bids_add_up_to_the_team_contract():
    """'Partners add their bids together for the team contract.'"""
    rnd = new_round(dealer=Seat.WEST)
    for b in (4, 2, 3, 5):  # N E S W
        rnd.bid(b)
    assert rnd.team_contract(Team.NS) == 7
    assert rnd.team_contract(Team.EW) == 7


def test_a_nil_bidder_adds_zero_to_the_team_contract():
    rnd = new_round(dealer=Seat.WEST)
    for b in (0, 2, 3, 5):
        rnd.bid(b)
    assert rnd.team_contract(Team.NS) == 3


# --- numbers -------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("n", range(1, 14))
def test_a_bid_is_1_to_13_tricks(preset, n):
    rnd = new_round(preset)
    rnd.bid(n)
    assert rnd.bids[Seat.NORTH] == n
    assert rnd.to_act == Seat.EAST


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("nil", [0, "nil", "0", st.NIL])
def test_zero_means_nil(preset, nil):
    rnd = new_round(preset)
    rnd.bid(nil)
    bid = rnd.bids[Seat.NORTH]
    assert bid == st.NIL
    assert bid.is_nil
    assert not bid.blind


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("bad", [14, -1, 20, "14", "-1", "-5"], ids=repr)
def test_a_bid_outside_1_to_13_is_rejected(preset, bad):
    rnd = new_round(preset)
    error = assert_rejected(rnd, bad)
    assert "13" in str(error.reason)


@pytest.mark.parametrize("bad", ["lots", "", 3.5, None, True], ids=repr)
def test_a_bid_that_is_not_a_number_is_rejected(bad):
    rnd = new_round()
    assert_rejected(rnd, bad)


# --- nil -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("nil", [0, "nil", st.NIL])
def test_nil_off_rejects_nil(preset, nil):
    """'No nil: some joker tables drop nil bids entirely.'"""
    rnd = new_round(preset, nil=False)
    error = assert_rejected(rnd, nil)
    assert "nil" in str(error.reason).lower()
    rnd.bid(1)  # a number is still fine
    assert rnd.bids[Seat.NORTH] == 1


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_nil_off_legal_bids_are_1_to_13(preset):
    rnd = new_round(preset, nil=False)
    assert set(rnd.legal_bids()) == {st.Bid(n) for n in range(1, 14)}


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_nil_on_legal_bids_are_nil_and_1_to_13(preset):
    rnd = new_round(preset)
    assert set(rnd.legal_bids()) == {st.Bid(n) for n in range(0, 14)}
    assert st.BLIND_NIL not in rnd.legal_bids()


# --- blind nil -----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("blind", [st.BLIND_NIL, "blind nil"])
def test_blind_nil_off_by_default(preset, blind):
    rnd = new_round(preset)
    assert rnd.rules.blind_nil == "off"
    error = assert_rejected(rnd, blind)
    assert "blind" in str(error.reason).lower()


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("dealer", list(Seat))
def test_blind_nil_always_allowed_for_either_team(preset, dealer):
    rnd = new_round(preset, dealer=dealer, blind_nil="always")
    for _ in range(4):
        rnd.bid(st.BLIND_NIL)
    assert all(b == st.BLIND_NIL and b.blind and b.is_nil for b in rnd.bids.values())
    assert rnd.phase == st.Phase.PLAYING


def test_blind_nil_is_not_the_same_bid_as_nil():
    rnd = new_round(blind_nil="always")
    rnd.bid(st.BLIND_NIL)
    rnd.bid(st.NIL)
    assert rnd.bids[Seat.NORTH] != rnd.bids[Seat.EAST]
    assert rnd.bids[Seat.NORTH].blind and not rnd.bids[Seat.EAST].blind


SCORES_NS_100_BEHIND = {Team.NS: 0, Team.EW: 100}


def _behind_round(preset, how, scores, dealer=Seat.WEST):
    rules = dataclasses.replace(st.Rules.preset(preset), blind_nil="behind-100")
    if how == "deal":
        return st.Round.deal(rules, dealer=dealer, seed=99, scores=scores)
    hands = st.Round.deal(rules, dealer=dealer, seed=99).hands
    return st.Round.from_hands(rules, hands, dealer=dealer, scores=scores)


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("how", ["deal", "from_hands"])
def test_blind_nil_behind_100_allowed_for_the_team_100_behind(preset, how):
    """house-rules.md: blind nil 'behind-100' (only for a team 100+ points behind)."""
    rnd = _behind_round(preset, how, SCORES_NS_100_BEHIND)  # N (NS) bids first
    assert rnd.to_act == Seat.NORTH
    assert st.BLIND_NIL in rnd.legal_bids()
    rnd.bid(st.BLIND_NIL)
    assert rnd.bids[Seat.NORTH] == st.BLIND_NIL


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("how", ["deal", "from_hands"])
def test_blind_nil_behind_100_rejected_for_the_team_ahead(preset, how):
    rnd = _behind_round(preset, how, SCORES_NS_100_BEHIND)
    rnd.bid(3)  # North
    assert rnd.to_act == Seat.EAST
    assert st.BLIND_NIL not in rnd.legal_bids()
    error = assert_rejected(rnd, st.BLIND_NIL)
    assert "blind" in str(error.reason).lower()
    rnd.bid(st.NIL)  # plain nil is still allowed
    assert rnd.bids[Seat.EAST] == st.NIL


@pytest.mark.parametrize(
    "scores",
    [
        {Team.NS: 0, Team.EW: 0},
        {Team.NS: 0, Team.EW: 99},
        {Team.NS: 201, Team.EW: 300},
        {Team.NS: 100, Team.EW: 0},
    ],
)
@pytest.mark.parametrize("how", ["deal", "from_hands"])
def test_blind_nil_behind_100_rejected_for_a_team_less_than_100_behind(scores, how):
    rnd = _behind_round("jokers", how, scores)
    assert rnd.to_act == Seat.NORTH
    assert_rejected(rnd, st.BLIND_NIL)


@pytest.mark.parametrize(
    "scores",
    [
        {Team.NS: -100, Team.EW: 0},
        {Team.NS: 200, Team.EW: 300},
        {Team.NS: -250, Team.EW: 400},
    ],
)
def test_blind_nil_behind_100_allowed_at_100_or_more_behind(scores):
    rnd = _behind_round("jokers", "deal", scores)
    rnd.bid(st.BLIND_NIL)
    assert rnd.bids[Seat.NORTH] == st.BLIND_NIL


# --- illegal bids: wrong seat, wrong phase -------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("wrong", [Seat.EAST, Seat.SOUTH, Seat.WEST])
def test_a_bid_for_the_wrong_seat_is_rejected(preset, wrong):
    rnd = new_round(preset, dealer=Seat.WEST)
    assert rnd.to_act == Seat.NORTH
    assert_rejected(rnd, 3, seat=wrong)
    rnd.bid(3, seat=Seat.NORTH)
    assert rnd.bids == {Seat.NORTH: 3}


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_bid_after_the_bidding_is_rejected(preset):
    rnd = new_round(preset)
    for _ in range(4):
        rnd.bid(3)
    assert rnd.phase == st.Phase.PLAYING
    assert_rejected(rnd, 3)
    assert rnd.legal_bids() == ()


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_card_played_during_the_bidding_is_rejected(preset):
    rnd = new_round(preset)
    card = rnd.hands[rnd.to_act][0]
    before = rnd.to_json()
    with pytest.raises(st.IllegalAction) as info:
        rnd.play(card)
    assert isinstance(info.value.reason, st.Reason)
    assert rnd.to_json() == before
    assert rnd.legal_plays() == ()


def test_illegal_action_is_a_value_error():
    assert issubclass(st.IllegalAction, ValueError)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_rejected_bid_mid_bidding_leaves_the_bids_so_far(preset):
    rnd = new_round(preset, nil=False)
    rnd.bid(2)
    rnd.bid(5)
    assert_rejected(rnd, 0)
    assert_rejected(rnd, 14)
    assert_rejected(rnd, 2, seat=Seat.NORTH)
    assert rnd.to_act == Seat.SOUTH
    rnd.bid(4)
    assert rnd.bids == {Seat.NORTH: 2, Seat.EAST: 5, Seat.SOUTH: 4}
