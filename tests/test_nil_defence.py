"""The bots' defence against a nil: strong play against the earlier, plain one.

- Decisions in set positions: with no lead that can force the nil, the strong defence leads the
  lowest card of a suit the nil bidder still holds (not an ace to cash); once the nil bidder has
  played under another card, it throws its highest card and keeps the low ones.
- Measured (slow): the nil of K♠ 4♠ 3♠ (the issue's example of weak defence) is made less often,
  the strong defence's 95% interval wholly under the plain one's; and over the twenty dangerous
  holdings of ``bench/hand_odds.py`` the pooled made-rate falls, intervals apart.
- The batched twin plays both defences card for card as the scalar bots do (nil rounds).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import spades_tutor as st
from spades_tutor.bots import HeuristicBot, HeuristicPlayer
from spades_tutor.lab import HeuristicPolicy, scalar_heuristic_round, simulate
from spades_tutor.lab.intervals import wilson
from spades_tutor.lab.odds import hand_odds

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import hand_odds as bench  # bench/hand_odds.py: the table of dangerous holdings


def _interval(made: int, deals: int) -> tuple[float, float]:
    low, high = wilson(made, deals)
    return float(low[0]), float(high[0])


def test_with_no_forcing_lead_the_defence_leads_low_instead_of_cashing_an_ace() -> None:
    rules = st.Rules.preset("classic")
    rnd = st.Round.from_hands(
        rules,
        {
            st.Seat.SOUTH: "AS KS QS AH KH QH AC KC QC AD KD QD JD",
            st.Seat.WEST: "JS 10S 9S 8S JH 10H 9H JC 10C 9C 10D 9D 8D",
            st.Seat.NORTH: "7S 6S 5S 4S 8H 7H 6H 8C 7C 6C 7D 6D 5D",
            st.Seat.EAST: "3S 2S 5H 4H 3H 2H 5C 4C 3C 2C 4D 3D 2D",
        },
        dealer=st.Seat.EAST,
    )
    for bid in (9, 2, 1, 0):  # South, West, North; East bids nil
        rnd.bid(bid)
    view = rnd.view(st.Seat.SOUTH)
    strong = HeuristicPlayer().play(view)
    plain = HeuristicPlayer(nil_defence="plain").play(view)
    assert strong.action == st.Card.parse("JD"), strong
    assert "East bid nil" in strong.reason
    assert plain.action.rank == st.Rank.ACE, plain  # the earlier defence cashes a winner


def test_after_the_nil_has_played_under_the_defence_throws_its_highest_card() -> None:
    rules = st.Rules.preset("classic")
    rnd = st.Round.from_hands(
        rules,
        {
            st.Seat.NORTH: "9H 8H 7S 6S 5S 8C 7C 6C 7D 6D 5D 4D 3D",
            st.Seat.EAST: "3H 4H 3S 2S 5C 4C 3C 2C 2D 9D 8D 10D JD",
            st.Seat.SOUTH: "KH 5H 2H AS KS QS AC KC QC AD KD QD 4S",
            st.Seat.WEST: "AH QH JH 10H 7H 6H JS 10S 9S 8S JC 10C 9C",
        },
        dealer=st.Seat.WEST,
    )
    for bid in (3, 0, 6, 3):  # North, East (nil), South, West
        rnd.bid(bid)
    rnd.play("9H")  # North leads; East, the nil, plays under it
    rnd.play("3H")
    view = rnd.view(st.Seat.SOUTH)
    strong = HeuristicPlayer().play(view)
    plain = HeuristicPlayer(nil_defence="plain").play(view)
    assert strong.action == st.Card.parse("KH"), strong
    assert "East bid nil and has played under the 9♥" in strong.reason
    assert plain.action == st.Card.parse("2H"), plain
    assert repr(HeuristicBot(nil_defence="plain")) == "HeuristicBot(seed=None, nil_defence='plain')"
    with pytest.raises(ValueError, match="nil_defence must be one of strong, plain"):
        HeuristicPlayer(nil_defence="clever")
    with pytest.raises(ValueError, match="nil_defence must be one of strong, plain"):
        HeuristicPolicy("clever")


@pytest.mark.parametrize("defence", ["strong", "plain"])
@pytest.mark.parametrize("preset", ["jokers", "classic"])
def test_the_batched_twin_defends_as_the_scalar_bots(preset: str, defence: str) -> None:
    rules = st.Rules.preset(preset)
    res = simulate(rules, 600, seed=23, policy=HeuristicPolicy(defence))
    nil_rounds = np.flatnonzero((res.bids == 0).any(axis=1))
    assert len(nil_rounds) >= 40
    for i in nil_rounds[:40]:
        rnd = scalar_heuristic_round(rules, res.seed, int(res.rounds[i]), res.dealer_choice, nil_defence=defence)
        plays = [c.index for trick in rnd.tricks for c in trick.cards]
        assert plays == res.plays[i].tolist(), (preset, defence, int(res.rounds[i]))


def test_the_two_defences_play_differently() -> None:
    rules = st.Rules.preset("jokers")
    strong = simulate(rules, 400, seed=23, policy=HeuristicPolicy("strong"))
    plain = simulate(rules, 400, seed=23, policy=HeuristicPolicy("plain"))
    nil = (strong.bids == 0).any(axis=1)
    assert (strong.plays[~nil] == plain.plays[~nil]).all()  # only a nil's defence changed
    assert (strong.plays[nil] != plain.plays[nil]).any(axis=1).mean() > 0.3


@pytest.mark.slow
def test_the_strong_defence_sets_k_4_3_of_spades_more_often() -> None:
    rules = st.Rules.preset("jokers")
    hand = "KS 4S 3S 9H 7H 5H 3H 8C 6C 4C 9D 6D 4D"
    made = {
        defence: hand_odds(rules, hand, deals=4000, seed=0, nil=True, nil_defence=defence).seat_tricks[0]
        for defence in ("plain", "strong")
    }
    plain, strong = _interval(made["plain"], 4000), _interval(made["strong"], 4000)
    assert strong[1] < plain[0], (made, plain, strong)


@pytest.mark.slow
def test_the_strong_defence_lowers_the_made_rate_of_the_dangerous_holdings() -> None:
    assert len(bench.DANGEROUS_NILS) == 20
    deals = 1000
    made = {"plain": 0, "strong": 0}
    for preset, _, hand in bench.DANGEROUS_NILS:
        rules = st.Rules.preset(preset)
        for defence in made:
            made[defence] += hand_odds(rules, hand, deals=deals, seed=0, nil=True, nil_defence=defence).seat_tricks[0]
    total = deals * len(bench.DANGEROUS_NILS)
    plain, strong = _interval(made["plain"], total), _interval(made["strong"], total)
    assert strong[1] < plain[0], (made, plain, strong)
