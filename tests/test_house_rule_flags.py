"""The house rules added as flags: a minimum team bid and a bonus for bidding 10 or more, and nil
worth 50, each on a worked example scored by hand here."""

from __future__ import annotations

import dataclasses

import pytest

from spades_tutor.engine import Rules, Seat, Team
from spades_tutor.engine.errors import IllegalAction, RecordError, RulesError
from spades_tutor.engine.round import Round
from spades_tutor.engine.scoring import score_hand

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def _round(rules: Rules) -> Round:
    return Round.deal(rules, seed=7, dealer=Seat.WEST)  # North bids first, then East, South, West


def test_defaults_keep_todays_rules() -> None:
    rules = Rules.preset("jokers")
    assert (rules.min_team_bid, rules.ten_bid_bonus) == (0, 0)
    rnd = _round(rules)
    for b in (1, 1, 1, 1):  # a team contract of 2 is fine without a minimum
        rnd.bid(b)


def test_minimum_team_bid_stops_the_second_bidder_with_the_reason() -> None:
    rnd = _round(Rules.preset("jokers", min_team_bid=4))
    assert rnd.why_bid_illegal(1) is None  # North bids first: partner's bid not known yet
    rnd.bid(1)
    rnd.bid(2)  # East first of East-West
    reason = rnd.why_bid_illegal(2)  # South: 1 + 2 = 3 < 4
    assert reason is not None and reason.code == "under-team-minimum"
    assert reason.text == (
        "At this table a team bids at least 4 tricks together; North bid 1, so South must bid 3 or more or nil, not 2."
    )
    with pytest.raises(IllegalAction):
        rnd.bid(2)
    legal = rnd.legal_bids()
    assert [str(b) for b in legal[:3]] == ["nil", "3", "4"] and "2" not in map(str, legal)
    rnd.bid(3)  # 1 + 3 = 4
    rnd.bid("nil")  # West may bid nil: a nil exempts the team


def test_a_nil_partner_exempts_the_team() -> None:
    rnd = _round(Rules.preset("jokers", min_team_bid=4))
    rnd.bid("nil")  # North nil
    rnd.bid(3)
    assert rnd.why_bid_illegal(1) is None  # South 1 with North's nil: allowed


def test_without_nil_the_reason_does_not_offer_it() -> None:
    rnd = _round(Rules.preset("jokers", min_team_bid=5, nil=False))
    rnd.bid(2)
    rnd.bid(2)
    reason = rnd.why_bid_illegal(1)
    assert reason is not None and reason.text.endswith("South must bid 3 or more, not 1.")


def test_ten_bid_bonus_worked_example() -> None:
    # North 6 + South 4 = 10, took 7 + 4 = 11: contract 10 made +100, bonus +50, 1 bag +1 = 151
    rules = Rules.preset("jokers", ten_bid_bonus=50)
    s = score_hand(rules, {N: 6, S: 4, E: 1, W: 1}, {N: 7, S: 4, E: 1, W: 1})
    assert [str(line) for line in s[Team.NS].lines] == [
        "Contract 10 made (N 6 + S 4, took 11): +100",
        "Bonus for bidding 10 (10 or more) and making it: +50",
        "1 bag (a trick over the contract): +1",
    ]
    assert s[Team.NS].points == 151
    assert s[Team.EW].points == 20  # 2 bid, 2 taken: no bonus under 10


def test_ten_bid_bonus_not_paid_when_set_or_off() -> None:
    set_ = score_hand(Rules.preset("jokers", ten_bid_bonus=100), {N: 6, S: 5, E: 1, W: 1}, {N: 6, S: 4, E: 2, W: 1})
    assert set_[Team.NS].points == -110  # 11 bid, 10 taken: set, no bonus
    off = score_hand(Rules.preset("jokers"), {N: 6, S: 4, E: 1, W: 1}, {N: 7, S: 4, E: 1, W: 1})
    assert off[Team.NS].points == 101


def test_nil_worth_50_worked_example() -> None:
    # North nil made +50; South 4 took 5: +40 and 1 bag = 91
    rules = Rules.preset("jokers", nil_value=50)
    s = score_hand(rules, {N: "nil", S: 4, E: 4, W: 4}, {N: 0, S: 5, E: 4, W: 4})
    assert s[Team.NS].points == 91
    assert str(s[Team.NS].lines[0]) == "North's nil made: +50"


def test_bounds_and_types() -> None:
    with pytest.raises(RulesError):
        Rules.preset("jokers", min_team_bid=14)
    with pytest.raises(RulesError):
        Rules.preset("jokers", ten_bid_bonus=-1)
    with pytest.raises(RulesError):
        Rules.preset("jokers", min_team_bid=True)


def test_records_round_trip_and_old_records_load() -> None:
    rules = Rules.preset("classic", min_team_bid=4, ten_bid_bonus=100, nil_value=50)
    assert Rules.from_dict(rules.to_dict()) == rules
    old = Rules.preset("jokers").to_dict()
    assert "min_team_bid" not in old and "ten_bid_bonus" not in old  # off: saved as before they existed
    assert rules.to_dict()["min_team_bid"] == 4
    assert Rules.from_dict(old) == Rules.preset("jokers")
    bad = dict(old, min_team_bid=20)
    with pytest.raises(RecordError):
        Rules.from_dict(bad)


def test_describe_names_the_new_rules() -> None:
    text = dataclasses.replace(Rules.preset("jokers"), min_team_bid=4, ten_bid_bonus=50, nil_value=50).describe()
    assert "nil worth 50" in text
    assert "a team bids at least 4 together (unless one bids nil)" in text
    assert "a bonus of 50 for bidding and making 10 or more" in text
