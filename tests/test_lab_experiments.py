"""Experiments against exact values, the plots' readings, and the lab page in Python."""

from __future__ import annotations

import base64
import html
import math
import re

import pandas as pd
import pytest

import spades_tutor as st
from spades_tutor.lab import simulate
from spades_tutor.lab.experiments import (
    EXPERIMENTS,
    NIL_SEAT,
    nil_play,
    nil_success,
    side_card_fate,
    top_trumps,
    trumps_per_hand,
    voids_by_trick,
)
from spades_tutor.lab.intervals import wilson
from spades_tutor.lab.plots import (
    MIME,
    READINGS,
    TITLES,
    bundle,
    figure,
    nil_by_holding,
    paths_spec,
    reading,
    spec,
)

PRESETS = st.Rules.preset_names()
N = 4000  # deals per preset; tolerances below are 4.5 standard errors of a proportion over N deals
NIL_N = 1000  # deals per preset the heuristic bots play with South bidding nil


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    """Random play of N deals per preset, and (under "nil:<preset>") the bots' nils on the first NIL_N."""
    random_play = {name: simulate(st.Rules.preset(name), N, seed=11) for name in PRESETS}
    nils = {f"nil:{name}": nil_play(st.Rules.preset(name), NIL_N, seed=11) for name in PRESETS}
    return {**random_play, **nils}


def measured(results: dict, key: str, name: str) -> pd.DataFrame:
    """Experiment ``key`` on preset ``name``, from the simulation the lab page feeds it."""
    return EXPERIMENTS[key](results[f"nil:{name}" if key == "nil" else name])


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
    for source in (results["jokers"], results["nil:jokers"]):  # at random and by the bots
        frame = nil_success(source)
        big = frame[frame.holding == "big joker"]
        assert big.nils.sum() > 0 and big.made.sum() == 0


@pytest.mark.parametrize("name", PRESETS)
def test_a_nil_played_by_the_bots_holding_the_top_trump_is_never_made(results: dict, name: str) -> None:
    res = results[f"nil:{name}"]
    top = st.Rules.preset(name).trump_order()[0]
    south = int(NIL_SEAT)
    held = (res.hands[:, south] & (1 << top.index)) != 0
    assert held.sum() > NIL_N // 10  # about a quarter of the deals
    assert (res.bids[:, south] == 0).all() and (res.tricks[held, south] > 0).all()
    assert (res.tricks[~held, south] == 0).any()  # nils are made without it


def test_the_bots_nil_is_played_on_the_random_play_deals_and_counts_south_alone(results: dict) -> None:
    rules = st.Rules.preset("jokers")
    res, random_play = results["nil:jokers"], results["jokers"]
    assert (res.hands == random_play.hands[:NIL_N]).all() and (res.dealer == random_play.dealer[:NIL_N]).all()
    frame = nil_success(res)
    assert frame.nils.sum() == NIL_N and set(frame.play) == {"heuristic bots"}
    assert frame.made.sum() == (res.tricks[:, int(NIL_SEAT)] == 0).sum()
    assert ((res.bids[:, [0, 1, 3]] == 0).sum()) > 0  # the bots' own nils elsewhere, not counted
    assert nil_success(random_play).play.iloc[0] == "random"
    again = nil_play(rules, 200, seed=11)
    assert (again.tricks == res.tricks[:200]).all()  # same seed, same numbers


def test_the_bots_make_nil_without_a_joker_far_more_often_than_random_play(results: dict) -> None:
    """A nil with no joker, seed 11: the heuristic bots (the opponents playing to set it) make South's
    in 32% of 568 such deals with jokers (95% interval 29-36%) and 21% of 1,000 in regular Spades
    (18-23%); random play made 4.6% of 629 (3.2-6.5%) and 2.4% of 1,139 (1.6-3.4%). The bots'
    interval sits above 3x random play's."""
    for name in ("jokers", "classic"):
        bots = nil_by_holding(nil_success(results[f"nil:{name}"])).set_index("holding").loc["no joker"]
        at_random = nil_by_holding(nil_success(results[name])).set_index("holding").loc["no joker"]
        assert bots.nils >= 500 and at_random.nils >= 500
        assert bots.low > 3 * at_random.high, (name, bots.low, at_random.high)


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
    frame = pd.concat([measured(results, key, "jokers"), measured(results, key, "classic")])
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
    assert page.bar.value == page.bar.max == 2 * (2000 + 1000)  # the random rounds, then the bots' nils
    assert "the bots played it" in page.readings["nil"].value
    assert "simulated and measured, and the nils played by the bots" in page.status.value
    assert "seed" not in page.status.value.lower() and "4,000" not in page.status.value
    # how each plot was measured is beside it: the rounds, the seed (the Seed box), the interval
    for key, method in page.methods.items():
        assert "<summary>How was this measured?</summary>" in method.value, key
        assert "Seed 1: " in method.value and "Wilson" in method.value, key
    assert "2,000 rounds in each rule set" in page.methods["voids"].value
    assert "1,000 deals in each rule set" in page.methods["nil"].value
    assert set(page.plots) == set(EXPERIMENTS)
    for key, slot in page.plots.items():
        (shown,) = slot.outputs
        drawn = shown["data"][MIME]
        assert drawn["data"] and drawn["layout"]["title"]["text"] == TITLES[key]
        assert TITLES[key] in page.readings[key].value
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
    assert "The bots miss their bid by" in bot_reading("bidding", bids)
    assert "takes" in bot_reading("games", per_game)
    from spades_tutor.lab.plots import paths_figure, paths_reading

    assert "points a hand with Spades with Jokers" in paths_reading(per_hand)
    assert len(paths_figure(per_hand).data) == 2 * min(4, 12)


@pytest.mark.slow
def test_lab_page_plays_the_bots_and_adds_their_tables() -> None:
    from spades_tutor.ui.lab_page import LabPage

    page = LabPage()
    page.run_bots()
    assert page.bar.value == page.bar.max
    assert {"bots-bidding", "bots-games"} <= set(page.frames)
    assert all(len(slot.outputs) == 1 and slot.outputs[0]["data"][MIME]["data"] for slot in page.bot_plots.values())
    assert "points a hand" in page.bot_readings["paths"].value
    assert "bids" not in page.bot_status.value and "seed" not in page.bot_status.value.lower()
    assert "500 hands in each rule set" in page.bot_methods["bidding"].value
    assert "50 whole games to 500" in page.bot_methods["games"].value and "Seed 1: " in page.bot_methods["games"].value
    assert "bots-games" in dict((v, k) for k, v in page.table_choice.options)


# --- the readings say what the numbers say ------------------------------------------------------


def percents(text: str) -> list[str]:
    return re.findall(r"(\d+)%", text)


def both(results: dict, key: str, first: str = "jokers", second: str = "classic") -> pd.DataFrame:
    return pd.concat([measured(results, key, first), measured(results, key, second)], ignore_index=True)


def test_the_nil_reading_quotes_the_shares_its_bars_show_with_their_intervals(results: dict) -> None:
    frame = both(results, "nil")
    text = reading("nil", frame)
    drawn = spec("nil", frame)
    bars = [y for trace in drawn["data"] for y in trace["y"]]
    table = nil_by_holding(frame)
    assert sorted(bars) == sorted(table.share.tolist())
    # every bar's share is quoted, in the order the table gives them, with its counts and its interval
    quoted = re.findall(
        r"(\d+%|almost never|almost always) \(([\d,]+) of ([\d,]+); likely between (\d+)% and (\d+)%\)", text
    )
    assert len(quoted) == len(table)
    for row, (share, made, nils, low, high) in zip(table.itertuples(), quoted, strict=True):
        rounded = f"{100 * row.share:.0f}"  # said in words, never "0%" or "100%", where it rounds to those
        assert share == {"0": "almost never", "100": "almost always"}.get(rounded, f"{rounded}%")
        assert (low, high) == tuple(f"{100 * v:.0f}" for v in (row.low, row.high))
        assert (made, nils) == (f"{int(row.made):,}", f"{int(row.nils):,}")
    # the error bars are those intervals
    lows = [y - m for trace in drawn["data"] for y, m in zip(trace["y"], trace["error_y"]["arrayminus"], strict=True)]
    assert lows == pytest.approx(table.low.tolist())
    assert "the bots played it" in text and "random play" not in text
    assert drawn["layout"]["yaxis"]["title"]["text"] == "nil made (the bots playing)"


def test_every_simulated_number_in_every_plot_has_its_interval(results: dict) -> None:
    for key in EXPERIMENTS:
        for trace in spec(key, both(results, key))["data"]:
            if trace["name"].endswith(": exact"):
                continue  # exact values have no interval
            err = trace.get("error_y")
            assert err and len(err["array"]) == len(trace["y"]) == len(err["arrayminus"]), (key, trace["name"])


def test_a_rule_set_compared_with_itself_reads_as_no_difference(results: dict) -> None:
    for key in EXPERIMENTS:
        text = reading(key, measured(results, key, "jokers"))
        assert "more often" not in text and "more trumps" not in text and " against " not in text, (key, text)


def test_two_rule_sets_with_the_same_trumps_read_as_alike(results: dict) -> None:
    # the same seed deals the same hands: 15 trumps in each, so the exact numbers are equal
    trumps = reading("trumps-per-hand", both(results, "trumps-per-hand", "jokers", "two-of-spades-third"))
    assert "alike" in trumps and "the same number of trumps" in trumps
    side = reading("side-cards", both(results, "side-cards", "jokers", "two-of-spades-third"))
    assert "No clear difference" in side and "more trumps" not in side


COMPARED = {  # experiment: (the row the reading quotes, share, low, high)
    "side-cards": (lambda f: f[(f["rank"] == "king") & (f.held == 2)], "trumped_share", "trumped_low", "trumped_high"),
    "voids": (lambda f: f[f.trick == 5], "void_share", "low", "high"),
    "top-trumps": (lambda f: f[f.card == "A♠"], "won_share", "low", "high"),
}


@pytest.mark.parametrize("key", list(COMPARED))
def test_a_difference_is_named_exactly_when_the_intervals_separate(results: dict, key: str) -> None:
    pick, share, low, high = COMPARED[key]
    for first, second in (("jokers", "classic"), ("deuces-high", "classic"), ("jokers", "bicycle")):
        frame = both(results, key, first, second)
        rows = pick(frame).set_index("rule_set")
        a, b = rows.loc[first], rows.loc[second]
        text = reading(key, frame)
        if a[low] > b[high] or b[low] > a[high]:
            winner = first if a[share] > b[share] else second
            assert f"more often with {st.Rules.preset(winner).title}" in text, text
            more = len(st.Rules.preset(winner).trump_order()) > len(
                st.Rules.preset(({first, second} - {winner}).pop()).trump_order()
            )
            assert ("which has more trumps" in text) == more, text
        else:
            assert "No clear difference" in text and "more often" not in text, text


def test_the_jokers_clearly_empty_side_suits_sooner(results: dict) -> None:
    text = reading("voids", both(results, "voids"))
    assert "more often with Spades with Jokers, which has more trumps (15 against 13)" in text


def side_frame(shares: dict[str, tuple[float, float, float]]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"rule_set": n, "rank": "king", "held": 2, "trumped_share": p, "trumped_low": lo, "trumped_high": hi}
            for n, (p, lo, hi) in shares.items()
        ]
    )


def test_readings_follow_the_numbers_not_a_story() -> None:
    # more trumped with the rule set that has fewer trumps: said so, with no claim about trumps
    text = reading("side-cards", side_frame({"jokers": (0.20, 0.16, 0.24), "classic": (0.30, 0.26, 0.34)}))
    assert percents(text) == ["20", "30"]
    assert "more often with Regular Spades." in text and "trumps (" not in text
    # different shares whose intervals overlap: no clear difference
    text = reading("side-cards", side_frame({"jokers": (0.32, 0.25, 0.39), "classic": (0.30, 0.23, 0.37)}))
    assert "No clear difference" in text and "more often" not in text
    # equal shares: no clear difference either
    text = reading("side-cards", side_frame({"jokers": (0.3, 0.3, 0.3), "classic": (0.3, 0.3, 0.3)}))
    assert "No clear difference" in text


def test_the_score_paths_have_a_legend_one_entry_per_rule_set_and_team() -> None:
    from spades_tutor.lab.bot_experiments import games_to_target

    per_hand = pd.concat(
        [games_to_target(st.Rules.preset(n), 3, seed=2)[1] for n in ("jokers", "classic")], ignore_index=True
    )
    traces = paths_spec(per_hand)["data"]
    shown = [t["name"] for t in traces if t["showlegend"]]
    assert shown == [
        "Spades with Jokers, N–S",
        "Spades with Jokers, E–W",
        "Regular Spades, N–S",
        "Regular Spades, E–W",
    ]
    # each entry stands for all of its games
    assert {t["legendgroup"] for t in traces} == {"jokers-ns", "jokers-ew", "classic-ns", "classic-ew"}


def test_the_plots_fill_the_width_of_their_box(results: dict) -> None:
    for key in EXPERIMENTS:
        drawn = bundle(spec(key, both(results, key)))[MIME]
        assert "width" not in drawn["layout"] and drawn["layout"]["autosize"] is True
        assert drawn["config"]["responsive"] is True


@pytest.mark.slow
def test_lab_page_compares_the_learners_table_with_its_house_rules() -> None:
    """The learner's table is a choice of its own, first where its house rules make it differ from its preset;
    it is simulated and scored by every rule it has, and every figure names the rules it came from."""
    from spades_tutor.ui.lab_page import TABLE, LabPage, table_option

    table = st.Rules.preset("jokers", nil=False, target=300, bag_limit=5, min_team_bid=4, ten_bid_bonus=50)
    page = LabPage(table=table)
    assert page.first.value == TABLE and page.second.value == "classic"
    assert page.first.options[0] == (table_option(table), TABLE) and page.first.label == table_option(table)
    # the menu's label stays short; the whole rule set, in the engine's words, is the line under the menus
    assert len(page.first.label) < 60 and html.escape(table.describe()) in page.table_note.value
    page.size.value = 2000
    page.run()
    # no nil at the learner's table: the bots play nil only in Regular Spades, and the nil plot says so
    assert page.bar.value == page.bar.max == 2 * 2000 + 1000
    assert set(page.frames["voids"].rule_set) == {"Your table", "classic"}
    assert set(page.frames["nil"].rule_set) == {"classic"}
    assert "Your table plays without nil, so no nil was played there." in page.readings["nil"].value
    assert "Your table" in page.readings["trumps-per-hand"].value
    for method in page.methods.values():
        assert html.escape(st.Rules.preset("classic").describe()) in method.value
    assert html.escape(table.describe()) in page.methods["voids"].value
    assert html.escape(table.describe()) not in page.methods["nil"].value
    page.run_bots()
    games = page.frames["bots-games"]
    mine = games[games.rule_set == "Your table"]
    assert (mine.target == 300).all() and (mine[["ns", "ew"]].max(axis=1) >= 300).all()
    assert (mine[["ns", "ew"]].max(axis=1) < 500).any()  # games at the table end at its own target
    assert "A game to 300 takes" in page.bot_readings["games"].value
    assert "a game to 500 takes" in page.bot_readings["games"].value
    assert "whole games to its own target (300 and 500)" in page.bot_methods["games"].value
    # the learner's rules change: "Your table" is them now; at a table as its preset is, the preset comes first
    page.set_table(st.Rules.preset("bicycle"))
    assert page.first.value == "bicycle" and page.first.options[0][0] == table_option(st.Rules.preset("bicycle"))
    page.set_table(table)
    assert page.first.value == TABLE


def test_a_lab_run_without_nil_draws_no_nil_plot() -> None:
    from spades_tutor.ui.lab_page import TABLE, LabPage

    page = LabPage(table=st.Rules.preset("classic", nil=False))
    assert (page.first.value, page.second.value) == (TABLE, "jokers")
    page.size.value = 2000
    page.second.value = TABLE  # the same choice twice is run once
    page.run()
    assert "nil" not in page.frames and page.bar.value == page.bar.max == 2000
    assert "Your table plays without nil, so no nil was played there." in page.readings["nil"].value
    assert "no rule set compared has nil" in page.status.value


def test_the_saved_rules_arriving_after_the_lab_is_built_put_the_learners_table_first() -> None:
    """The page is built with the usual rules before the browser sends the saved ones: while the first menu
    holds the page's own choice, the learner's table (with its house rules) takes its place; a choice the
    learner made stays."""
    from spades_tutor.ui.lab_page import TABLE, LabPage

    page = LabPage(table=st.Rules.preset("jokers"))
    assert page.first.value == "jokers"
    saved = st.Rules.preset("jokers", target=300)
    page.set_table(saved, chosen=False)
    assert page.first.value == TABLE and page.rules_of(TABLE) == saved
    page.first.value = "bicycle"  # the learner's own pick
    page.set_table(st.Rules.preset("jokers", target=400), chosen=False)
    assert page.first.value == "bicycle" and page.rules_of(TABLE).target == 400
