"""Experiments against exact values, the plots' readings, and the lab page in Python."""

from __future__ import annotations

import base64
import math

import pandas as pd
import pytest

import spades_tutor as st
from spades_tutor.lab import simulate
from spades_tutor.lab.experiments import (
    EXPERIMENTS,
    side_card_fate,
    top_trumps,
    trumps_per_hand,
    voids_by_trick,
    wilson,
)
from spades_tutor.lab.plots import READINGS, figure, reading

PRESETS = st.Rules.preset_names()
N = 4000  # deals per preset; tolerances below are 4.5 standard errors of a proportion over N deals


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    return {name: simulate(st.Rules.preset(name), N, seed=11) for name in PRESETS}


def tolerance(p: float, n: int = N) -> float:
    return 4.5 * math.sqrt(max(p * (1 - p), 1e-4) / n)


@pytest.mark.parametrize("name", PRESETS)
def test_trumps_per_hand_match_the_exact_hypergeometric(results: dict, name: str) -> None:
    frame = trumps_per_hand(results[name])
    trumps = len(st.Rules.preset(name).trump_order())
    assert frame.exact.sum() == pytest.approx(1.0)
    assert (frame.share * frame.trumps).sum() == pytest.approx(13 * trumps / 52, abs=0.05)
    for row in frame.itertuples():
        assert abs(row.share - row.exact) <= tolerance(row.exact), (name, row.trumps, row.share, row.exact)
        assert row.low <= row.share <= row.high


@pytest.mark.parametrize("name", PRESETS)
def test_voids_at_the_deal_match_the_exact_probability(results: dict, name: str) -> None:
    frame = voids_by_trick(results[name])
    first = frame[frame.trick == 1].iloc[0]
    assert abs(first.void_share - first.exact) <= tolerance(first.exact, 3 * N)
    assert list(frame.void_share) == sorted(frame.void_share), "voids only grow as cards are played"


@pytest.mark.parametrize("name", PRESETS)
def test_the_top_trump_always_takes_its_trick(results: dict, name: str) -> None:
    frame = top_trumps(results[name])
    rules = st.Rules.preset(name)
    top = str(rules.trump_order()[0])
    if top in set(frame.card):
        assert frame[frame.card == top].won_share.iloc[0] == 1.0
    assert (frame.played == N).all()


def test_nil_holding_the_big_joker_is_never_made(results: dict) -> None:
    frame = EXPERIMENTS["nil"](results["jokers"])
    big = frame[frame.holding == "big joker"]
    assert big.nils.sum() > 0 and big.made.sum() == 0


def test_side_card_counts_cover_every_side_ace_king_and_queen_played(results: dict) -> None:
    res = results["jokers"]
    frame = side_card_fate(res)
    side_cards = sum(1 for t in ("A", "K", "Q") for s in "HCD" if res.rules.in_deck(st.Card.parse(t + s)))
    assert frame.played.sum() == side_cards * N
    assert (frame.won + frame.trumped <= frame.played).all()


def test_a_side_king_held_twice_is_trumped_more_often_with_jokers(results: dict) -> None:
    both = pd.concat([side_card_fate(results["jokers"]), side_card_fate(results["classic"])])
    kings = both[(both["rank"] == "king") & (both.held == 2)].set_index("rule_set")
    assert kings.loc["jokers", "trumped_low"] > kings.loc["classic", "trumped_high"] - 0.02
    assert "A side king held twice is trumped" in reading("side-cards", both)


def test_wilson_interval_is_the_standard_one() -> None:
    low, high = wilson([0, 10, 7], [10, 10, 20])
    assert low[0] == 0 and high[1] == 1
    assert low[2] == pytest.approx(0.1812, abs=1e-3) and high[2] == pytest.approx(0.5671, abs=1e-3)


@pytest.mark.parametrize("key", list(EXPERIMENTS))
def test_every_experiment_has_a_reading_and_a_figure_per_rule_set(results: dict, key: str) -> None:
    frame = pd.concat([EXPERIMENTS[key](results["jokers"]), EXPERIMENTS[key](results["classic"])])
    text = READINGS[key](frame)
    assert text and any(ch.isdigit() for ch in text)
    fig = figure(key, frame)
    names = {trace.name.split(":")[0] for trace in fig.data}
    assert {"Spades with Jokers", "Regular Spades"} <= names


def test_same_seed_same_numbers() -> None:
    a = trumps_per_hand(simulate(st.Rules.preset("deuces-high"), 500, seed=4))
    b = trumps_per_hand(simulate(st.Rules.preset("deuces-high"), 500, seed=4))
    c = trumps_per_hand(simulate(st.Rules.preset("deuces-high"), 500, seed=5))
    assert a.equals(b) and not a.equals(c)


def test_lab_page_runs_a_comparison_with_progress_plots_table_and_csv() -> None:
    from spades_tutor.ui.lab_page import LabPage

    page = LabPage()
    page.size.value = 2000
    page.second.value = "deuces-high"
    page.run()
    assert page.bar.value == page.bar.max == 4000
    import ipywidgets as w

    assert sum(
        isinstance(c, w.VBox) and c.children and type(c.children[0]).__name__ == "FigureWidget"
        for c in page.results.children
    ) == len(EXPERIMENTS)
    assert "<table" in page.table.value
    csv = base64.b64decode(page.download.value.split("base64,", 1)[1].split('"', 1)[0]).decode()
    assert csv.splitlines()[0].startswith("rule_set,") and "experiment" in csv.splitlines()[0]
    assert {"jokers", "deuces-high"} <= {line.split(",", 1)[0] for line in csv.splitlines()[1:]}


def test_heuristic_bots_bid_closer_than_chance_and_games_reach_the_target() -> None:
    from spades_tutor.lab.bot_experiments import bidding_accuracy, games_to_target
    from spades_tutor.lab.plots import bot_reading

    rules = st.Rules.preset("jokers")
    bids = bidding_accuracy(rules, 300, seed=3)
    row = bids.iloc[0]
    assert row.bids >= 300 * 3  # most seats bid a number, not nil
    assert row.mean_miss_low <= row.mean_miss <= row.mean_miss_high < 1.5
    assert 0 < row.bags_per_hand < 4
    per_game, per_hand = games_to_target(rules, 12, seed=3)
    assert (per_game[["ns", "ew"]].max(axis=1) >= rules.target).all()
    last = per_hand.groupby("game").tail(1).set_index("game")
    assert (last.ns.values == per_game.ns.values).all() and (last.ew.values == per_game.ew.values).all()
    assert per_game.hands.min() >= 2
    assert "Heuristic bidders miss their bid by" in bot_reading("bidding", bids)
    assert "takes" in bot_reading("games", per_game)
    from spades_tutor.lab.plots import paths_figure, paths_reading

    assert "points a hand with Spades with Jokers" in paths_reading(per_hand)
    assert len(paths_figure(per_hand).data) == 2 * min(4, 12)


def test_lab_page_plays_the_bots_and_adds_their_tables() -> None:
    from spades_tutor.ui.lab_page import LabPage

    page = LabPage()
    page.run_bots()
    assert page.bar.value == page.bar.max
    assert {"bots-bidding", "bots-games"} <= set(page.frames)
    assert [type(c).__name__ for c in page.bot_results.children].count("FigureWidget") == 3
    assert "points a hand" in page.bot_results.children[-2].value
    assert "bots-games" in dict((v, k) for k, v in page.table_choice.options)
