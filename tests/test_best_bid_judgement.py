""" "What would you bid?" judged by points over the game: acceptance by interval overlap, nil as an answer,
items that no constant answer games, diagnoses on their own side, and words that match the figures.

Every figure is measured again here with ``hand_odds`` (the number bids and the nil, as the item's
deals, seed and dealer) and valued over the game from the engine's ``score_hand``, not read from the item.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

import spades_tutor as st
from spades_tutor.lab.odds import bag_cost, game_points, hand_odds
from spades_tutor.quiz import generate
from spades_tutor.quiz.base import Caption, Numbers
from spades_tutor.quiz.kinds.best_bid import BID_DEALS, BID_SEED, MAX_ACCEPTED, BestBidItem

PRESETS = ("jokers", "classic", "deuces-high")
#: a few seeds a level and preset for the quick tests; the slow test measures the 90 items a level
SEEDS = range(4)
MINUS = "\N{MINUS SIGN}"

OVER = ("Not every ace, king and high trump is a trick", "That is about what your side takes together")
UNDER = ("You bid only the sure tricks",)
NIL_MISSED = ("This hand is worth more as a nil",)
NIL_REACHED = ("Holding no sure trick does not make a nil pay",)


def items(seeds: range = SEEDS) -> list[BestBidItem]:
    out = []
    for preset in PRESETS:
        rules = st.Rules.preset(preset)
        for level in (1, 2, 3):
            for seed in seeds:
                item = generate("best-bid", rules, seed, level)
                assert isinstance(item, BestBidItem)
                out.append(item)
    return out


@pytest.fixture(scope="module")
def sample() -> list[BestBidItem]:
    return items()


def remeasured(item: BestBidItem) -> tuple[dict[int, float], dict[int, tuple[float, float]]]:
    """Each bid's points over the game and 95% interval, measured again and valued here from the outcomes."""
    rules = item.rules
    runs = [(hand_odds(rules, item.hand, deals=BID_DEALS, seed=BID_SEED, dealer=item.dealer), range(1, 14))]
    if rules.nil:
        nil = hand_odds(rules, item.hand, deals=BID_DEALS, seed=BID_SEED, dealer=item.dealer, nil=True)
        runs.append((nil, range(0, 1)))
    points, intervals = {}, {}
    for odds, bids in runs:
        assert odds.valuation == "hand"  # the default is each hand's own score
        for bid in bids:
            values = []
            for took, p_bid, p_blind, p_took, often in odds.outcomes:
                bids_of = {
                    st.Seat.SOUTH: st.NIL if bid == 0 else bid,
                    st.Seat.NORTH: st.BLIND_NIL if p_blind else (st.NIL if p_bid == 0 else p_bid),
                    st.Seat.EAST: 3,
                    st.Seat.WEST: 3,
                }
                tricks = {st.Seat.SOUTH: took, st.Seat.NORTH: p_took, st.Seat.EAST: 13 - took - p_took, st.Seat.WEST: 0}
                score = st.score_hand(rules, bids_of, tricks)[st.Team.NS]
                values += [game_points(rules, score)] * often
            n = len(values)
            mean = sum(values) / n
            sd = (sum((v - mean) ** 2 for v in values) / (n - 1)) ** 0.5
            half = 1.959963984540054 * sd / n**0.5
            points[bid], intervals[bid] = mean, (mean - half, mean + half)
    return points, intervals


def test_a_bag_costs_its_share_of_the_penalty_from_the_rules() -> None:
    for rules in (st.Rules.preset("jokers"), st.Rules.preset("classic", bag_limit=5, bag_penalty=150)):
        assert bag_cost(rules) == rules.bag_penalty / rules.bag_limit
    # two bags over a contract of 3, scored +32 in a fresh game, are worth 32 - 2 * 10 over the game
    rules = st.Rules.preset("jokers")
    bids = {st.Seat.NORTH: 2, st.Seat.SOUTH: 1, st.Seat.EAST: 4, st.Seat.WEST: 4}
    tricks = {st.Seat.NORTH: 3, st.Seat.SOUTH: 2, st.Seat.EAST: 4, st.Seat.WEST: 4}
    assert game_points(rules, st.score_hand(rules, bids, tricks)[st.Team.NS]) == 32 - 2 * 10


@pytest.mark.slow
def test_a_bid_is_right_exactly_when_its_interval_overlaps_the_best_bids(sample: list[BestBidItem]) -> None:
    widened = 0
    for item in sample[:: len(SEEDS)]:  # one item a preset and level, measured again
        points, intervals = remeasured(item)
        assert set(points) == set(item.bids().points)
        for bid in points:
            assert item.bids().points[bid] == pytest.approx(points[bid])
            assert item.bids().points_interval[bid] == pytest.approx(intervals[bid])
        best = max(sorted(points), key=lambda b: points[b])
        assert item.answer() == best
        low, high = intervals[best]
        for bid in range(0, 14):
            overlaps = bid in points and intervals[bid][0] <= high and intervals[bid][1] >= low
            assert item.check(bid).correct == overlaps, (item.key, bid)
            widened += abs(bid - best) == 1 and not overlaps
        assert not item.check("lots").correct
    assert widened > 0  # a bid one trick from the best is not right for that alone


def test_nil_is_an_answer_where_the_table_plays_it_and_where_it_scores_best() -> None:
    # jokers, level 1, seed 4 of the old generator: "1 (or 2)" was the answer, worth +3; the nil was
    # made 96% of the time for about +123
    rules = st.Rules.preset("jokers")
    item = BestBidItem(rules, hand=st.cards("8S 6S 8H 6H 5H JC 10C 5C 4C 2C 10D 8D 4D"), dealer=st.Seat.SOUTH)
    assert item.answer() == 0 and item.accepted() == (0,)
    for response in (0, "0", "nil", " Nil "):
        assert item.check(response).correct
    fb = item.check(1)
    assert not fb.correct and fb.answer == "nil"
    assert fb.diagnosis is not None and fb.diagnosis.startswith(NIL_MISSED[0])
    bids = item.bids()
    assert bids.nil is not None and bids.nil.p_zero > 0.9 and bids.points[0] > bids.points[1] + 80
    # a table without nil: nil is never the answer, and the view asks for 1 to 13
    no_nil = BestBidItem(dataclasses_replace(rules, nil=False), hand=item.hand, dealer=st.Seat.SOUTH)
    assert 0 not in no_nil.bids().points and no_nil.answer() >= 1 and not no_nil.check(0).correct
    assert "1 to 13" in no_nil.prompt and "nil" not in no_nil.prompt
    (field,) = next(p for p in no_nil.view().parts if isinstance(p, Numbers)).fields
    assert field.min == 1


def dataclasses_replace(rules: st.Rules, **change: object) -> st.Rules:
    import dataclasses

    return dataclasses.replace(rules, **change)  # type: ignore[arg-type]


@pytest.mark.slow
def test_generated_items_ask_for_nil_and_the_view_takes_it(sample: list[BestBidItem]) -> None:
    nil_items = [item for item in sample if item.answer() == 0]
    assert {item.rules.name for item in nil_items} == set(PRESETS)
    for item in nil_items:
        assert item.check("nil").correct and item.check(0).correct
    item = nil_items[0]
    assert "nil" in item.prompt
    spec = item.view()
    numbers = next(p for p in spec.parts if isinstance(p, Numbers))
    assert numbers.fields[0].min == 0 and numbers.response({"bid": 0}) == 0
    assert any(isinstance(p, Caption) and "Type 0 to bid nil" in p.text for p in spec.parts)
    plot = item.feedback_view(item.check(0)).plot
    assert plot is not None
    xaxis = plot.spec["layout"]["xaxis"]
    assert xaxis["tickvals"][0] == 0 and xaxis["ticktext"][0] == "nil"
    assert plot.reading.startswith("Nil scores best: ")
    best = [t for t in plot.spec["data"] if t["name"] == "best bid"]
    assert best and best[0]["x"] == [0]


@pytest.mark.slow
def test_no_constant_answer_is_right_on_more_than_half_of_a_levels_items() -> None:
    """The issue's measure: three rule sets by 30 seeds, each level's 90 items."""
    every = items(range(30))
    for level in (1, 2, 3):
        level_items = [item for item in every if item.difficulty == level]
        assert len(level_items) == 90
        right = Counter(bid for item in level_items for bid in item.accepted())
        worst, count = right.most_common(1)[0]
        assert count <= len(level_items) // 2, (level, worst, count, right)
        # a clear best answer: few bids counted right, and the best bid well apart from the worst
        assert all(len(item.accepted()) <= MAX_ACCEPTED[level] for item in level_items)
        assert len({item.answer() for item in level_items}) >= 4


@pytest.mark.slow
def test_each_diagnosis_fires_only_on_the_side_it_describes(sample: list[BestBidItem]) -> None:
    # jokers, level 3, seed 7 of the old generator: a bid of 5 (6 to 8 were accepted) was told it counted
    # every ace, king and high trump as a trick
    old = BestBidItem(
        st.Rules.preset("jokers"), hand=st.cards("BJ LJ KS JS 10S 6S QH 9H 8C AD KD QD 10D"), dealer=st.Seat.SOUTH
    )
    seen: Counter[str] = Counter()
    for item in [old, *sample]:
        accepted = item.accepted()
        numbers = [b for b in accepted if b > 0]
        for bid in range(0, 14):
            diagnosis = item.check(bid).diagnosis
            if diagnosis is None:
                continue
            assert bid not in accepted
            if diagnosis.startswith(OVER):
                assert bid > max(accepted), (item.key, bid, accepted, diagnosis)
                seen["over"] += 1
            elif diagnosis.startswith(UNDER):
                assert numbers and 0 < bid < min(numbers), (item.key, bid, accepted, diagnosis)
                seen["under"] += 1
            elif diagnosis.startswith(NIL_MISSED):
                assert item.answer() == 0 and bid > 0, (item.key, bid, accepted)
                seen["nil missed"] += 1
            elif diagnosis.startswith(NIL_REACHED):
                assert bid == 0 and 0 not in accepted
                seen["nil reached"] += 1
            else:
                pytest.fail(f"an unknown diagnosis: {diagnosis}")
    assert seen["over"] and seen["under"] and seen["nil missed"], seen


_POINTS = rf"[+{MINUS}]\d+(?:\.\d+)?"


def _value(text: str) -> float:
    return float(text.replace(MINUS, "-"))


@pytest.mark.slow
def test_the_verdict_words_never_contradict_the_figures_printed(sample: list[BestBidItem]) -> None:
    alike = below_seen = 0
    for item in sample:
        bids = item.bids()
        best = bids.best_bid
        for bid in range(0, 14):
            fb = item.check(bid)
            text = " ".join(fb.explanation)
            assert not re.search(r"(?<![\w–])-\d", text), text  # a real minus sign, never a hyphen
            assert ("counts as wrong" in text) == (not fb.correct and bid in bids.points)
            if fb.correct:
                assert str(fb).startswith("Right!")
            for same in re.finditer(
                rf"(\w+) scores about as well as (\w+): ({_POINTS}) against ({_POINTS}); their likely ranges "
                rf"overlap \(({_POINTS}) to ({_POINTS}) and ({_POINTS}) to ({_POINTS})\)",
                text,
            ):
                other, against = same.group(1).lower(), same.group(2)
                assert against == ("nil" if best == 0 else str(best)) and other != against
                low, high, b_low, b_high = (_value(same.group(k)) for k in (5, 6, 7, 8))
                assert low <= b_high and high >= b_low  # the intervals printed overlap
                assert _value(same.group(3)) <= _value(same.group(4))
                alike += 1
            below = re.search(
                rf"scores about ({_POINTS}) \(likely between ({_POINTS}) and ({_POINTS})\)[^:]*: its likely range lies "
                rf"wholly below \w+'s \(({_POINTS}) to ({_POINTS})\), so it counts as wrong",
                text,
            )
            if not fb.correct and bid in bids.points:
                assert below is not None, text
                assert _value(below.group(3)) < _value(below.group(4))  # wholly below, as printed
                below_seen += 1
            plot = item.feedback_view(fb).plot
            assert plot is not None and not re.search(r"(?<![\w–])-\d", plot.reading)
            for trace in plot.spec["data"]:
                for _low, _high, line in trace["customdata"]:
                    assert not re.search(r"(?<![\w–])-\d", line), line
    assert alike and below_seen  # both verdicts were read


def test_at_a_table_with_a_least_team_bid_the_feedback_says_how_it_binds_and_how_a_bid_under_it_counts() -> None:
    """The engine's own sentence for North–South's first bidder; where North bids first (South dealt),
    also how the measurement counts a bid of South's under the least North's bid leaves it."""
    from spades_tutor.quiz import generate

    rules = st.Rules.preset("jokers", min_team_bid=4)
    seen = set()
    for seed in range(8):
        item = generate("best-bid", rules, seed, 1)
        last = item.check(item.answer()).explanation[-1]
        assert last.startswith("At this table a team bids at least 4 tricks together"), last
        north_first = item.dealer in (st.Seat.SOUTH, st.Seat.WEST)
        assert ("North bids first for North–South" in last) == north_first
        assert ("counted, in that deal, as the least bid South may make" in last) == north_first
        seen.add(north_first)
    assert seen == {True, False}
    standard = generate("best-bid", st.Rules.preset("jokers"), 0, 1)
    assert not any("least" in line for line in standard.check(standard.answer()).explanation)
