"""The batched simulator (``spades_tutor.lab``) against the scalar engine and exact values.

- Same rounds as the engine: a sample of rounds in every preset and several house-rule
  sets is replayed by ``scalar_replay`` through the engine's checked public API (which
  raises on any illegal action); deals, bids, every card, trick leaders and winners,
  tricks taken, points and bags must match the simulator's arrays exactly.
- Scoring is the engine's: ``score_batch`` equals ``score_hand`` for every hand a side can
  have (all bids, blind nils and trick splits), and a house rule patched into the engine's
  ``score_side`` reaches the simulator's points with no change to the lab.
- Reproducibility: a round depends only on (rules, seed, round number), not on the batch
  size, the worker threads or the first round simulated.
- Invariants, vectorised over thousands of rounds: a deal is the rule set's deck split
  13/13/13/13; every card is played once, by the seat that holds it; the suit led is
  followed whenever the player can; a trump is led only once spades are broken or when
  the leader holds nothing else; the tricks add up to 13 and go to the trick winners.
- Statistics at the deal against exact values (``math.comb``). Sample and tolerance:
  ``N_STAT`` = 100,000 deals per preset. A cell (P(a hand holds k trumps), P(a hand is void
  in a side suit)) is estimated by pooling the four hands of every deal. The four hands
  of one deal are dependent, but the average of four indicators with the same p has a
  variance of at most p(1-p) (Cauchy-Schwarz), so the pooled frequency's standard error
  is at most sqrt(p(1-p)/N) with N the number of *deals*; we allow Z = 4.5 of those
  (two-sided 7e-6 per cell; about 90 cells in all, so a correct dealer fails the file
  with probability below 1e-3 — and the seeds are fixed, so it never flakes). With
  N = 100,000 that is ±0.0011 around a void probability of 0.0128 (a 13-card suit) vs
  0.0190 (a 12-card suit): a deck with the wrong cards in a suit is caught.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterable, Mapping

import numpy as np
import pytest

import spades_tutor as st
from spades_tutor.engine import scoring as engine_scoring
from spades_tutor.lab import BatchResult, scalar_replay, score_batch, simulate
from spades_tutor.lab import scoring as lab_scoring

PRESETS = st.Rules.preset_names()
N_STAT = 100_000
Z = 4.5
SAMPLE = 50

RULE_SETS = {
    **{name: st.Rules.preset(name) for name in PRESETS},
    "jokers/no-nil": st.Rules.preset("jokers", nil=False),
    "jokers/failed-nil-partner": st.Rules.preset("jokers", failed_nil_tricks="partner"),
    "classic/failed-nil-none": st.Rules.preset("classic", failed_nil_tricks="none"),
    "jokers/blind-nil-always": st.Rules.preset("jokers", blind_nil="always"),
    "deuces-high/blind-nil-always/partner": st.Rules.preset(
        "deuces-high", blind_nil="always", failed_nil_tricks="partner"
    ),
    "bicycle/blind-nil-behind-100": st.Rules.preset("bicycle", blind_nil="behind-100"),
    "classic/two-of-clubs": st.Rules.preset("classic", first_lead="two-of-clubs"),
    "two-of-spades-third/two-of-clubs/no-nil": st.Rules.preset(
        "two-of-spades-third", first_lead="two-of-clubs", nil=False
    ),
    "jokers/small-bag-limit": st.Rules.preset("jokers", bag_limit=3, bag_penalty=50, nil_value=50, trick_points=5),
    "jokers/least-team-bid-4": st.Rules.preset("jokers", min_team_bid=4, ten_bid_bonus=50),
    "classic/no-nil/least-team-bid-6/blind-nil": st.Rules.preset(
        "classic", nil=False, min_team_bid=6, blind_nil="always", target=300
    ),
}


def _mask(cards: Iterable[st.Card]) -> int:
    return sum(1 << c.index for c in cards)


# --- the simulator is the scalar engine ----------------------------------------------------------


def _compare(rules: st.Rules, res: BatchResult, i: int) -> None:
    rnd = scalar_replay(rules, res, i)
    where = f"{rules.name} {rules.flags()} seed {res.seed} round {int(res.rounds[i])}"
    assert int(res.dealer[i]) == rnd.dealer, where
    for seat in st.Seat:
        assert int(res.hands[i, seat]) == _mask(rnd.dealt[seat]), (where, seat)
        assert res.hand(i, seat) == rnd.dealt[seat], (where, seat)
        bid = rnd.bids[seat]
        assert (int(res.bids[i, seat]), bool(res.blind_nil[i, seat])) == (bid.tricks, bid.blind), (where, seat)
        assert int(res.tricks[i, seat]) == rnd.tricks_won[seat], (where, seat)
    assert len(rnd.tricks) == 13
    for t, trick in enumerate(rnd.tricks):
        assert [c.index for c in trick.cards] == res.plays[i, 4 * t : 4 * t + 4].tolist(), (where, t)
        assert (int(res.leaders[i, t]), int(res.winners[i, t])) == (trick.leader, trick.winner), (where, t)
    score = rnd.score()
    assert res.points[i].tolist() == [score[team].points for team in st.Team], where
    assert res.bags[i].tolist() == [score[team].bags for team in st.Team], where


@pytest.mark.parametrize("key", list(RULE_SETS))
def test_simulator_matches_the_scalar_engine_round_by_round(key: str) -> None:
    rules = RULE_SETS[key]
    res = simulate(rules, 3000, seed=11, batch_size=700)
    rows = np.random.default_rng(5).choice(len(res), SAMPLE, replace=False)
    for i in rows:
        _compare(rules, res, int(i))
    # the flags really were exercised by the random bids
    nil_bids = (res.bids == 0) & ~res.blind_nil
    assert nil_bids.any() == rules.nil
    assert res.blind_nil.any() == (rules.blind_nil == "always")
    if rules.first_lead == "two-of-clubs":
        assert (res.plays[:, 0] == st.Card.parse("2C").index).all()
    if rules.min_team_bid:  # every team bid reaches the least team bid, or has a nil; some only just
        team = res.bids[:, :2].astype(int) + res.bids[:, 2:]
        free = (res.bids[:, :2] == 0) | (res.bids[:, 2:] == 0)
        assert ((team >= rules.min_team_bid) | free).all()
        assert ((team == rules.min_team_bid) & ~free).any()


def test_fixed_dealer_and_penalties_match_the_engine() -> None:
    rules = RULE_SETS["jokers/small-bag-limit"]
    res = simulate(rules, 2000, seed=3, dealer=st.Seat.EAST)
    assert (res.dealer == st.Seat.EAST).all()
    taken = res.tricks[:, :2] + res.tricks[:, 2:]
    bid = res.bids[:, :2].astype(int) + res.bids[:, 2:]
    many_bags = np.flatnonzero((taken - bid >= rules.bag_limit).any(axis=1))[:SAMPLE]
    assert len(many_bags) == SAMPLE
    penalties = 0
    for i in many_bags:
        _compare(rules, res, int(i))
        score = scalar_replay(rules, res, int(i)).score()
        penalties += sum(line.kind == "penalty" for team in st.Team for line in score[team].lines)
    assert penalties >= 10
    assert (res.bags < rules.bag_limit).all()


@pytest.mark.parametrize("key", ["jokers", "jokers/failed-nil-partner", "classic/failed-nil-none"])
def test_vectorised_scoring_matches_score_hand_for_every_hand_a_side_can_have(key: str) -> None:
    """Every bid pair (0..13 or blind nil, each seat) and every split of at most 13 tricks, for each side in
    turn (the other side's tricks make up the 13), against ``score_hand``, under each rule for a failed
    nil's tricks; a bag limit of 4 brings penalties."""
    rules = dataclasses.replace(RULE_SETS[key], bag_limit=4)
    states = [(b, False) for b in range(14)] + [(0, True)]
    splits = [(ta, tb) for ta in range(14) for tb in range(14 - ta)]
    rows = []  # (bids, blind, tricks) of the four seats
    for team in st.Team:
        first, second = team.seats
        for (a, blind_a), (b, blind_b), (ta, tb) in itertools.product(states, states, splits):
            bids, blind, tricks = [3] * 4, [False] * 4, [0] * 4
            bids[first], bids[second], blind[first], blind[second] = a, b, blind_a, blind_b
            tricks[first], tricks[second], tricks[(first + 1) % 4] = ta, tb, 13 - ta - tb
            rows.append((bids, blind, tricks))
    bids_a = np.array([r[0] for r in rows])
    blind_a = np.array([r[1] for r in rows])
    tricks_a = np.array([r[2] for r in rows])
    points, bags = score_batch(rules, bids_a, blind_a, tricks_a)
    penalties = 0
    for i, (bids, blind, tricks) in enumerate(rows):
        bid_map = {s: (st.BLIND_NIL if blind[s] else bids[s]) for s in st.Seat}
        score = st.score_hand(rules, bid_map, {s: tricks[s] for s in st.Seat})
        assert points[i].tolist() == [score[t].points for t in st.Team], (bid_map, tricks)
        assert bags[i].tolist() == [score[t].bags for t in st.Team], (bid_map, tricks)
        penalties += any(line.kind == "penalty" for t in st.Team for line in score[t].lines)
    assert penalties > 1000


def test_vectorised_scoring_refuses_a_side_with_more_than_13_tricks() -> None:
    """No score is made up for a hand the engine would refuse (``score_hand`` raises on it too)."""
    tricks = np.array([[5, 0, 9, 0]])
    with pytest.raises(ValueError, match="more than 13 tricks"):
        score_batch(st.Rules.preset("jokers"), np.array([[4, 3, 4, 2]]), np.zeros((1, 4), bool), tricks)


def test_lab_scoring_follows_a_scoring_rule_only_the_engine_knows(monkeypatch: pytest.MonkeyPatch) -> None:
    """A house rule added to the engine's per-side step (a side that takes exactly its contract, no bag,
    scores a bonus) reaches the simulator's points with no change to the lab."""
    real = engine_scoring.score_side

    def bullseye(
        rules: st.Rules, team: st.Team, bid: Mapping[st.Seat, st.Bid], took: Mapping[st.Seat, int], bags: int
    ) -> st.HandScore:
        score = real(rules, team, bid, took, bags)
        bidders = [s for s in team.seats if not bid[s].is_nil]
        if bidders and sum(took[s] for s in team.seats) == sum(bid[s].tricks for s in bidders):
            line = st.ScoreLine("Bullseye: exactly the contract", 25, "bonus")
            return dataclasses.replace(score, points=score.points + 25, lines=(*score.lines, line))
        return score

    rules = st.Rules.preset("classic", target=487)  # a rule set no other test scores: its table is built here
    monkeypatch.setattr(engine_scoring, "score_side", bullseye)
    try:
        res = simulate(rules, 400, seed=8)
    finally:
        lab_scoring._side_table.cache_clear()  # the table for ``rules`` holds the house rule
    bonus = 0
    for i in range(len(res)):
        bids = {s: (st.BLIND_NIL if res.blind_nil[i, s] else int(res.bids[i, s])) for s in st.Seat}
        took = {s: int(res.tricks[i, s]) for s in st.Seat}
        score = st.score_hand(rules, bids, took)  # the engine, house rule included
        assert res.points[i].tolist() == [score[t].points for t in st.Team], (bids, took)
        assert res.bags[i].tolist() == [score[t].bags for t in st.Team], (bids, took)
        bonus += sum(line.kind == "bonus" for t in st.Team for line in score[t].lines)
    assert bonus >= 10  # the house rule changed some scores


# --- reproducibility and progress ------------------------------------------------------------------


def _arrays(res: BatchResult) -> dict[str, np.ndarray]:
    return {
        f.name: getattr(res, f.name) for f in dataclasses.fields(res) if isinstance(getattr(res, f.name), np.ndarray)
    }


def test_same_seed_same_rounds_whatever_the_batching() -> None:
    rules = st.Rules.preset("deuces-high")
    a = simulate(rules, 5000, seed=99)
    b = simulate(rules, 5000, seed=99, batch_size=333, workers=2)
    c = simulate(rules, 1000, seed=99, start=3000, batch_size=128, workers=1)
    for name, arr in _arrays(a).items():
        assert np.array_equal(arr, _arrays(b)[name]), name
        assert np.array_equal(arr[3000:4000], _arrays(c)[name]), name
    d = simulate(rules, 5000, seed=100)
    assert not np.array_equal(a.hands, d.hands)
    assert not np.array_equal(a.plays, d.plays)
    assert (a.hands != d.hands).any(axis=1).mean() > 0.99


def test_progress_is_reported_after_each_batch_up_to_the_total() -> None:
    calls: list[tuple[int, int]] = []
    simulate(st.Rules.preset("jokers"), 10_000, seed=1, batch_size=3000, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(3000, 10_000), (6000, 10_000), (9000, 10_000), (10_000, 10_000)]


def test_empty_and_bad_arguments() -> None:
    rules = st.Rules.preset("jokers")
    empty = simulate(rules, 0, seed=1)
    assert len(empty) == 0 and empty.plays.shape == (0, 52)
    with pytest.raises(ValueError, match="seed"):
        simulate(rules, 10, seed=-1)
    with pytest.raises(ValueError, match="policy"):
        simulate(rules, 10, seed=1, policy="clever")


def test_frames() -> None:
    res = simulate(st.Rules.preset("classic"), 200, seed=4)
    frame = res.to_frame()
    assert len(frame) == 200 and list(frame["round"]) == list(range(200))
    assert (frame[[f"tricks_{s}" for s in "NESW"]].sum(axis=1) == 13).all()
    assert frame["points_NS"].tolist() == res.points[:, 0].tolist()
    plays = res.plays_frame()
    assert len(plays) == 200 * 52
    assert plays.groupby(["round", "trick"])["won"].sum().eq(1).all()
    assert plays.loc[0, "card"] == str(st.full_pack()[int(res.plays[0, 0])])


# --- invariants, vectorised ----------------------------------------------------------------------


@pytest.mark.parametrize("key", [*PRESETS, "classic/two-of-clubs", "jokers/blind-nil-always"])
def test_invariants(key: str) -> None:
    rules = RULE_SETS[key]
    res = simulate(rules, 20_000, seed=21)
    n = len(res)
    rows = np.arange(n)
    deck = _mask(rules.deck())
    trump = np.uint64(_mask(rules.trump_order()))
    suit_mask = np.array([_mask(c for c in rules.deck() if rules.suit_of(c) == s) for s in st.Suit], np.uint64)
    suit_of = np.full(54, -1)
    is_trump = np.zeros(54, bool)
    is_trump[[c.index for c in rules.trump_order()]] = True
    power = np.zeros((4, 54), int)
    for c in rules.deck():
        suit_of[c.index] = rules.suit_of(c)
        for led in st.Suit:
            power[led, c.index] = rules.power(c, led)

    # the deal
    hands = res.hands
    assert (np.bitwise_count(hands) == 13).all()
    assert (np.bitwise_or.reduce(hands, axis=1) == deck).all()
    assert (np.bitwise_xor.reduce(hands, axis=1) == deck).all()  # disjoint
    # every card once, by the seat that holds it; follow suit; spades broken
    assert (np.sort(res.plays, axis=1) == np.array(sorted(c.index for c in rules.deck()))).all()
    seats = res.play_seats().astype(np.intp)
    held = hands.copy()
    broken = np.zeros(n, bool)
    for t in range(13):
        lead = res.plays[:, 4 * t].astype(np.intp)
        led = suit_of[lead]
        leader_hand = held[rows, seats[:, 4 * t]]
        led_trump = (trump >> lead.astype(np.uint64)) & np.uint64(1) == 1
        assert (~led_trump | broken | ((leader_hand & ~trump) == 0)).all(), f"trump led too early, trick {t}"
        best = np.full(n, -1)
        win = np.zeros(n, np.intp)
        for j in range(4):
            card = res.plays[:, 4 * t + j].astype(np.intp)
            bit = np.uint64(1) << card.astype(np.uint64)
            seat = seats[:, 4 * t + j]
            hand = held[rows, seat]
            assert ((hand & bit) != 0).all(), f"card not held, trick {t}"
            if j:
                off_suit = suit_of[card] != led
                assert (~off_suit | ((hand & suit_mask[led]) == 0)).all(), f"revoke, trick {t}"
            held[rows, seat] = hand & ~bit
            p = power[led, card]
            win = np.where(p > best, seat, win)
            best = np.maximum(best, p)
        broken |= is_trump[res.plays[:, 4 * t : 4 * t + 4]].any(axis=1)
        assert (res.winners[:, t] == win).all(), f"wrong winner, trick {t}"
        if t:
            assert (res.leaders[:, t] == res.winners[:, t - 1]).all()
    assert (held == 0).all()
    if rules.first_lead == "left-of-dealer":
        assert (res.leaders[:, 0] == (res.dealer + 1) % 4).all()
    assert (res.tricks.sum(axis=1) == 13).all()
    for s in range(4):
        assert (res.tricks[:, s] == (res.winners == s).sum(axis=1)).all()
    # bids: 1-13, nil only where allowed, blind only when blind nil is allowed
    assert ((res.bids >= 0) & (res.bids <= 13)).all()
    assert (res.blind_nil <= (res.bids == 0)).all()


# --- statistics at the deal against exact values -------------------------------------------------


def _hypergeometric(deck: int, good: int, drawn: int) -> dict[int, float]:
    total = math.comb(deck, drawn)
    return {k: math.comb(good, k) * math.comb(deck - good, drawn - k) / total for k in range(min(good, drawn) + 1)}


@pytest.fixture(scope="module")
def big_deals() -> dict[str, BatchResult]:
    return {name: simulate(st.Rules.preset(name), N_STAT, seed=2024) for name in PRESETS}


@pytest.mark.slow
@pytest.mark.parametrize("name", PRESETS)
def test_trumps_per_hand_follow_the_hypergeometric_law(name: str, big_deals: dict[str, BatchResult]) -> None:
    rules = st.Rules.preset(name)
    res = big_deals[name]
    n_trumps = len(rules.trump_order())
    counts = res.count_in_hands(rules.trump_order())
    exact = _hypergeometric(52, n_trumps, 13)
    for k, p in exact.items():
        observed = float((counts == k).mean())
        tolerance = Z * math.sqrt(p * (1 - p) / N_STAT)
        assert abs(observed - p) <= tolerance, (name, k, observed, p, tolerance)
    # the dealer's own hand (one hand per deal: an exact binomial standard error)
    mean = 13 * n_trumps / 52
    var = mean * (52 - n_trumps) / 52 * (52 - 13) / 51
    dealer_mean = float(counts[np.arange(len(res)), res.dealer].mean())
    assert abs(dealer_mean - mean) <= Z * math.sqrt(var / N_STAT), (name, dealer_mean, mean)
    # the drawn dealer is uniform over the seats
    share = np.bincount(res.dealer, minlength=4) / len(res)
    assert (np.abs(share - 0.25) <= Z * math.sqrt(0.25 * 0.75 / N_STAT)).all(), share


@pytest.mark.slow
@pytest.mark.parametrize("name", PRESETS)
def test_voids_in_side_suits_match_the_exact_probability(name: str, big_deals: dict[str, BatchResult]) -> None:
    rules = st.Rules.preset(name)
    res = big_deals[name]
    sizes = []  # cards per side suit, H C D, as house-rules.md's preset table implies
    expected = {"jokers": [12, 13, 12], "deuces-high": [12, 12, 12], "two-of-spades-third": [12, 13, 12]}
    expected |= {"bicycle": [13, 12, 12], "classic": [13, 13, 13]}
    for suit in (st.Suit.HEARTS, st.Suit.CLUBS, st.Suit.DIAMONDS):
        suit_cards = [c for c in rules.deck() if rules.suit_of(c) == suit]
        sizes.append(len(suit_cards))
        p = math.comb(52 - len(suit_cards), 13) / math.comb(52, 13)
        observed = float((res.count_in_hands(suit_cards) == 0).mean())
        tolerance = Z * math.sqrt(p * (1 - p) / N_STAT)
        assert abs(observed - p) <= tolerance, (name, suit, observed, p, tolerance)
    assert sizes == expected[name]


# --- the lab scores a house-rule table as the engine does -------------------------------------------

HOUSE_TABLES = {
    "jokers/t300/bl5/nil50/tp5/tb50": st.Rules.preset(
        "jokers", target=300, bag_limit=5, nil_value=50, trick_points=5, ten_bid_bonus=50
    ),
    "classic/no-nil/t300/bl5/tp5/tb50/mb4": st.Rules.preset(
        "classic", nil=False, target=300, bag_limit=5, trick_points=5, ten_bid_bonus=50, min_team_bid=4
    ),
}


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("key", list(HOUSE_TABLES))
def test_lab_scoring_is_the_engines_on_simulated_rounds_at_house_rule_tables(key: str, policy: str) -> None:
    """Every simulated round of a house-rule table (the random rounds of the lab's plots, the bots' rounds of
    its nil plot), scored by the lab, against ``score_hand`` of the engine given the same bids and tricks; the
    house rules show in the scores (a ten-bid bonus, 5-bag penalties, nils worth 50 where nil is allowed), and
    the preset as it stands would have scored some rounds otherwise."""
    rules = HOUSE_TABLES[key]
    res = simulate(rules, 2000, seed=21, policy=policy)
    kinds: dict[str, int] = {}
    for i in range(len(res)):
        bids = {s: (st.BLIND_NIL if res.blind_nil[i, s] else int(res.bids[i, s])) for s in st.Seat}
        score = st.score_hand(rules, bids, {s: int(res.tricks[i, s]) for s in st.Seat})
        assert res.points[i].tolist() == [score[t].points for t in st.Team], (key, policy, i)
        assert res.bags[i].tolist() == [score[t].bags for t in st.Team], (key, policy, i)
        for t in st.Team:
            for line in score[t].lines:
                kinds[line.kind] = kinds.get(line.kind, 0) + 1
                if line.kind == "nil":
                    assert abs(line.points) == 50
    assert kinds.get("bonus", 0) > 0, kinds
    assert kinds.get("penalty", 0) > 0, kinds
    assert (kinds.get("nil", 0) > 0) == rules.nil, kinds
    preset, _ = score_batch(st.Rules.preset(rules.name), res.bids, res.blind_nil, res.tricks)
    assert (preset != res.points).any()
