"""'Where did that trick go?' and the sampled play hint, checked against the solver and the engine.

Every verdict is re-derived here by asking the solver at the position itself (rebuilt from the
round with the engine), and every sampled layout is checked against what South saw.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable

import pytest

import spades_tutor as st
from spades_tutor.analysis import (
    BAG,
    CONTRACT,
    FINE,
    MISTAKES,
    NIL,
    OPPONENT_NIL,
    PARTNER_NIL,
    SET,
    TRICK,
    UNKNOWN,
    CardVerdict,
    HandAnalysis,
    LiveAnalysis,
    _positions,
    _Worker,
    analyse,
    play_hint,
    sample_layouts,
)
from spades_tutor.bots import HeuristicBot
from spades_tutor.bots.drivers import play_round
from spades_tutor.solver import Position, break_nil, make_contract, make_nil, set_contract, solve

SOUTH = st.Seat.SOUTH
NODES = 40_000  # small: the late tricks are exact, the early ones run out (and say so)


def bot_round(seed: int, preset: str = "jokers") -> st.Round:
    return play_round(st.Rules.preset(preset), {s: HeuristicBot() for s in st.Seat}, seed=seed)


def careless_round(
    seed: int, nil: bool, from_trick: int = 7, partner_nil: bool = False, east_nil: bool = False
) -> st.Round:
    """South bids like the bots (or nil), plays like them, then from ``from_trick`` on throws its
    highest card (bidding nil) or its lowest (bidding tricks); with ``partner_nil`` North bids nil,
    with ``east_nil`` East."""
    rules = st.Rules.preset("jokers")
    bots = {s: HeuristicBot() for s in st.Seat}
    rnd = st.Round.deal(rules, seed=seed)
    nils = {SOUTH: nil, st.Seat.NORTH: partner_nil, st.Seat.EAST: east_nil, st.Seat.WEST: False}
    while not rnd.is_over:
        seat = rnd.to_act
        assert seat is not None
        if rnd.phase is st.Phase.BIDDING and nils[seat]:
            rnd.bid(st.NIL)
        elif seat == SOUTH and rnd.phase is st.Phase.PLAYING and len(rnd.tricks) >= from_trick:
            rnd.play(rnd.legal_plays()[-1 if nil else 0])
        else:
            view = rnd.view(seat)
            decision = bots[seat].bid(view) if rnd.phase is st.Phase.BIDDING else bots[seat].play(view)
            rnd.apply(decision.action)
    return rnd


def positions_before_south(rnd: st.Round) -> dict[int, tuple[Position, st.Card]]:
    """Trick number -> (the position as South was to play, South's card), replayed by the engine
    from the deal and the round's record."""
    fresh = st.Round.from_hands(rnd.rules, rnd.dealt, dealer=rnd.dealer)
    out = {}
    for action in rnd.history:
        if action.kind == "play" and action.seat == SOUTH:
            assert isinstance(action.value, st.Card)
            out[len(fresh.tricks) + 1] = (Position.from_round(fresh), action.value)
        fresh.apply(action.value)
    return out


def ns_total(pos: Position) -> int:
    """N–S's tricks in the whole round, double dummy, from ``pos`` (no budget)."""
    return pos.taken[st.Seat.NORTH] + pos.taken[SOUTH] + solve(pos, st.Team.NS, with_cards=False).value


def assert_line_in_words(v: CardVerdict) -> None:
    """The solver's line after a marked card, in words: every card and seat of it, seats as the engine
    names them (capitalised, also after 'then')."""
    assert v.line and v.line_text.startswith(f"After {v.card}, ")
    assert all(str(c) in v.line_text for _s, c in v.line)
    assert all(str(seat) in v.line_text for seat, _c in v.line)
    assert not re.search(r"\b(north|east|south|west)\b", v.line_text)


def test_a_card_that_gave_up_only_a_bag_after_the_contract_was_safe_is_no_mistake() -> None:
    rnd = bot_round(3)
    report = analyse(rnd, nodes=NODES, seconds=None)
    bags = [v for v in report.verdicts if v.mark == BAG]
    assert bags, "the bots' South throws a winner away past its safe contract in deal 3"
    positions = positions_before_south(rnd)
    contract = rnd.team_contract(st.Team.NS)
    for v in bags:
        before, card = positions[v.trick]
        assert card == v.card
        after = before.play(card)
        assert v.before == ns_total(before) > ns_total(after) == v.after >= contract  # one trick fewer, still made
        assert make_contract(before, st.Team.NS, contract).holds and make_contract(after, st.Team.NS, contract).holds
        assert set(v.best) == set(solve(before, st.Team.NS).best_cards) and card not in v.best
        said = v.sentence()
        assert said.startswith("Gave up a bag, no mistake:") and "Cost a trick" not in said
        # what a bag costs, from the rules: the penalty over the bags that bring it
        penalty = rnd.rules.bag_penalty / rnd.rules.bag_limit
        assert f"costs about {penalty:g} over the game" in said and f"contract of {contract} was safe" in said
    assert not set(bags) & set(report.marked)  # not counted among the cards that cost points
    assert "gave up only a bag, which is no mistake" in report.summary()


def test_what_a_bag_costs_follows_the_rules() -> None:
    import dataclasses

    rules = dataclasses.replace(st.Rules.preset("jokers"), bag_limit=5, bag_penalty=50)
    rnd = play_round(rules, {s: HeuristicBot() for s in st.Seat}, seed=3)
    bags = [v for v in analyse(rnd, nodes=NODES, seconds=None).verdicts if v.mark == BAG]
    assert bags and all("costs about 10 over the game" in v.sentence() for v in bags)
    rules = dataclasses.replace(rules, bag_limit=10, bag_penalty=200)
    rnd = play_round(rules, {s: HeuristicBot() for s in st.Seat}, seed=3)
    bags = [v for v in analyse(rnd, nodes=NODES, seconds=None).verdicts if v.mark == BAG]
    assert bags and all("costs about 20 over the game" in v.sentence() for v in bags)


def test_every_exact_verdict_agrees_with_the_solver_at_that_position() -> None:
    rnd = bot_round(3)
    report = analyse(rnd, nodes=NODES, seconds=None)
    positions = positions_before_south(rnd)
    assert [v.trick for v in report.verdicts] == list(range(1, 14))
    exact = [v for v in report.verdicts if v.exact]
    assert report.exact_tricks[-5:] == (9, 10, 11, 12, 13), "the late tricks are always exact"
    for v in exact:
        before, card = positions[v.trick]
        if before.tricks_left > 8:
            continue  # solving without a budget is slow there; the late ones pin the values
        after = before.play(card)
        assert (v.before, v.after) == (ns_total(before), ns_total(after))
        assert v.contract_before == make_contract(before, st.Team.NS, report.contract).holds
        assert v.set_before == set_contract(before, st.Team.NS, rnd.team_contract(st.Team.EW)).holds
        if v.lost:
            assert v.mark == v.lost[0]
        elif v.after < v.before:  # a trick given up costs points only through a goal
            assert v.mark == (BAG if v.contract_before else TRICK)
        else:
            assert v.mark == FINE
    for v in report.verdicts:
        if not v.exact:
            assert v.mark == UNKNOWN and "Not exact" in v.sentence()
    assert report.summary().startswith("Judged exactly: tricks ")


def assert_lost_nil(v: CardVerdict, positions: dict[int, tuple[Position, st.Card]], seat: st.Seat) -> None:
    """``v`` lost ``seat``'s nil, as the solver sees it: makeable before the card, not after it, and
    after each better card; with its line in words."""
    before, card = positions[v.trick]
    assert make_nil(before, seat).holds is True
    assert make_nil(before.play(card), seat).holds is False
    assert v.better and all(make_nil(before.play(c), seat).holds for c in v.better)
    assert_line_in_words(v)


def test_a_card_that_lost_the_nil_is_marked_as_such() -> None:
    rnd = careless_round(11, nil=True)
    report = analyse(rnd, nodes=NODES, seconds=None)
    assert report.south_nil
    lost = [v for v in report.verdicts if v.mark == NIL]
    assert lost, "South throwing its highest cards loses the nil in deal 11"
    positions = positions_before_south(rnd)
    for v in lost:
        assert_lost_nil(v, positions, SOUTH)
        # said with the points at stake, from the rules
        assert v.sentence().startswith("Lost the nil: ")
        assert f"(a nil scores +{rnd.rules.nil_value} made, −{rnd.rules.nil_value} lost)" in v.sentence()
        assert v.stake == 2 * rnd.rules.nil_value and v in report.marked
    # after the nil is gone no later card is blamed for it
    first = lost[0].trick
    assert all(v.mark != NIL for v in report.verdicts if v.trick > first)
    # the nil is a nil bidder's goal: giving a trick away is not a fault
    assert {v.mark for v in report.verdicts} <= {NIL, FINE, UNKNOWN}
    for v in report.verdicts:
        if v.mark == FINE:  # the nil's state, as the solver saw it before the card
            before, _card = positions[v.trick]
            assert v.nil_before == make_nil(before, SOUTH).holds
            said = "could still be made" if v.nil_before else "was already lost"
            assert f"Your nil {said}." in v.sentence()


def test_a_card_that_lost_partners_nil_is_marked_as_such() -> None:
    rnd = careless_round(2, nil=False, from_trick=4, partner_nil=True)  # North bids nil, South ducks from trick 5
    report = analyse(rnd, nodes=NODES, seconds=None)
    north = st.Seat.NORTH
    lost = [v for v in report.verdicts if v.mark == PARTNER_NIL]
    assert lost, "South ducking with its lowest cards lets North's nil go in deal 2"
    positions = positions_before_south(rnd)
    for v in lost:
        assert_lost_nil(v, positions, north)
        assert v.sentence().startswith("Lost partner's nil") and "North's nil" in v.sentence()
        assert f"(+{rnd.rules.nil_value} made, −{rnd.rules.nil_value} lost)" in v.sentence()
    assert all(v.mark != PARTNER_NIL for v in report.verdicts if v.trick > lost[0].trick)  # blamed once
    for v in report.verdicts:  # every exact verdict says what the solver says of North's nil before the card
        if v.exact:
            assert v.partner_nil_before == make_nil(positions[v.trick][0], north).holds


@pytest.mark.slow  # a solve of 30 million nodes
def test_a_marked_card_whose_line_ran_out_of_budget_says_so() -> None:
    rnd = careless_round(18, nil=False, from_trick=1, partner_nil=True)
    report = analyse(rnd, nodes=30_000_000, seconds=None)  # the compiled core's budget, without the time guard
    marked = report.marked
    assert marked
    for v in marked:
        if v.line:
            assert v.line_text.startswith(f"After {v.card}, ")
        else:  # nothing is left blank: the sentence says the line was not worked out
            assert "not worked out" in v.sentence() or v.line_text.startswith(f"After {v.card}, ")


def test_a_card_that_lost_the_contract_is_marked_as_such() -> None:
    rnd = careless_round(24, nil=False)
    report = analyse(rnd, nodes=NODES, seconds=None)
    assert not report.south_nil and report.contract == rnd.team_contract(st.Team.NS)
    lost = [v for v in report.verdicts if v.mark == CONTRACT]
    assert lost, "South ducking with its lowest cards loses the contract in deal 24"
    positions = positions_before_south(rnd)
    for v in lost:
        before, card = positions[v.trick]
        assert make_contract(before, st.Team.NS, report.contract).holds is True
        assert make_contract(before.play(card), st.Team.NS, report.contract).holds is False
        assert v.better and all(make_contract(before.play(c), st.Team.NS, report.contract).holds for c in v.better)
        assert v.sentence().startswith("Lost the contract")
        points = rnd.rules.trick_points * report.contract
        assert f"(the contract of {report.contract} scores +{points} made, −{points} set)" in v.sentence()
        assert v in report.marked
        assert_line_in_words(v)
    assert "cost your side points" in report.summary()


def test_a_card_that_lost_the_set_of_the_opponents_is_marked_as_such() -> None:
    rnd = careless_round(13, nil=False, from_trick=6)  # South ducks from trick 7
    report = analyse(rnd, nodes=NODES, seconds=None)
    theirs = rnd.team_contract(st.Team.EW)
    lost = [v for v in report.verdicts if v.mark == SET]
    assert lost, "South ducking with its lowest cards lets East–West make their contract in deal 13"
    positions = positions_before_south(rnd)
    for v in lost:
        before, card = positions[v.trick]
        assert set_contract(before, st.Team.NS, theirs).holds is True
        assert set_contract(before.play(card), st.Team.NS, theirs).holds is False
        assert v.better and all(set_contract(before.play(c), st.Team.NS, theirs).holds for c in v.better)
        points = rnd.rules.trick_points * theirs
        assert v.sentence().startswith(f"Lost the set: {v.better[0]}")
        assert f"below their contract of {theirs} (+{points} for them made, −{points} set)" in v.sentence()
        assert v in report.marked
        assert_line_in_words(v)


@pytest.mark.parametrize("preset", st.Rules.preset_names())
def test_the_last_tricks_are_judged_exactly_in_every_rule_set(preset: str) -> None:
    rnd = bot_round(5, preset)
    report = analyse(rnd, nodes=5_000, seconds=None)
    positions = positions_before_south(rnd)
    assert report.exact_tricks[-4:] == (10, 11, 12, 13)
    for v in report.verdicts[-4:]:
        before, card = positions[v.trick]
        assert (v.before, v.after) == (ns_total(before), ns_total(before.play(card)))


def test_the_analysis_reports_progress_and_is_reproducible() -> None:
    rnd = bot_round(3)
    seen: list[tuple[int, int]] = []
    first = analyse(rnd, nodes=NODES, seconds=None, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(k, 13) for k in range(1, 14)]
    second = analyse(rnd, nodes=NODES, seconds=None)
    strip: Callable[[HandAnalysis], object] = lambda r: (r.verdicts, r.nodes)  # noqa: E731
    assert strip(first) == strip(second)


def test_an_unfinished_round_is_refused() -> None:
    rnd = st.Round.deal(st.Rules.preset("jokers"), seed=1)
    with pytest.raises(ValueError, match="finished"):
        analyse(rnd)


def test_a_card_that_let_an_opponents_nil_through_is_marked_as_such() -> None:
    rnd = careless_round(29, nil=False, from_trick=8, east_nil=True)  # East bids nil; South ducks from trick 9
    report = analyse(rnd, nodes=2 * NODES + 20_000, seconds=None)  # enough for the nil questions of trick 7
    east = st.Seat.EAST
    lost = [v for v in report.verdicts if v.mark == OPPONENT_NIL]
    assert lost and rnd.tricks_won[east] == 0, "South ducking lets East's nil through in deal 29"
    positions = positions_before_south(rnd)
    for v in lost:
        before, card = positions[v.trick]
        assert break_nil(before, east).holds is True and break_nil(before.play(card), east).holds is False
        assert v.better and all(break_nil(before.play(c), east).holds for c in v.better)
        value = rnd.rules.nil_value
        assert v.sentence().startswith(f"Let East's nil through: {v.better[0]}")
        assert f"would have broken it (+{value} for them made, −{value} broken)" in v.sentence()
        assert v in report.marked
        assert_line_in_words(v)


# --- judged during the hand -------------------------------------------------------------------------

LIVE_DEALS = (1, 2, 3)  # bench/analysis.py's first hands
THINKING_SECONDS = 150.0  # the most a hand's cards take the thread here, busy machine included: a learner's hand


def replay_following(rnd: st.Round, live: LiveAnalysis) -> st.Round:
    """``rnd`` dealt again and played card by card from its record, ``live`` told after each of South's
    cards as the Play page tells it; the round replayed."""
    fresh = st.Round.from_hands(rnd.rules, rnd.dealt, dealer=rnd.dealer)
    for action in rnd.history:
        fresh.apply(action.value)
        if action.kind == "play" and action.seat == SOUTH:
            live.follow(fresh)
    return fresh


@pytest.mark.slow  # a differential run: each hand judged live, by the solver and after the hand
@pytest.mark.parametrize("seed", LIVE_DEALS)
def test_every_trick_is_judged_exactly_when_the_cards_are_judged_during_the_hand(seed: int) -> None:
    rnd = bot_round(seed)
    live = LiveAnalysis()
    try:
        played = replay_following(rnd, live)
        assert live.wait(played, timeout=THINKING_SECONDS)
        report = analyse(played, live=live)  # the Play page's budget and time guard
    finally:
        live.close()
    assert report.exact_tricks == tuple(range(1, 14)) and report.live == 13
    assert report.summary().startswith("Judged exactly: every trick (13 of them while you played).")
    assert not any("budget ran out" in v.sentence() for v in report.verdicts)
    positions = positions_before_south(played)
    for v in report.verdicts:  # the solver, without a budget, agrees (where that is quick enough to ask)
        before, card = positions[v.trick]
        if before.tricks_left <= 10:
            assert (v.before, v.after) == (ns_total(before), ns_total(before.play(card)))
    after = analyse(played, nodes=NODES, seconds=None)  # and so does the analysis after the hand, where exact
    for late, early in zip(after.verdicts, report.verdicts, strict=True):
        if late.exact:
            assert (late.mark, late.before, late.after, late.better) == (
                early.mark,
                early.before,
                early.after,
                early.better,
            )


def test_a_card_the_thread_could_not_judge_exactly_is_judged_after_the_hand() -> None:
    rnd = bot_round(3)
    live = LiveAnalysis(nodes=2_000)  # too little for the early tricks
    try:
        played = replay_following(rnd, live)
        assert live.wait(played, timeout=THINKING_SECONDS) and live.judged(played) == 13
        report = analyse(played, nodes=NODES, seconds=None, live=live)
    finally:
        live.close()
    plain = analyse(played, nodes=NODES, seconds=None)
    assert 0 < report.live < 13
    assert set(report.exact_tricks) >= set(plain.exact_tricks)  # never worse than judging after the hand alone
    for mixed, alone in zip(report.verdicts, plain.verdicts, strict=True):
        if alone.exact:
            assert (mixed.mark, mixed.before, mixed.after) == (alone.mark, alone.before, alone.after)


def test_a_worker_that_stopped_leaves_its_cards_to_the_analysis_after_the_hand() -> None:
    rnd = bot_round(3)
    live = LiveAnalysis()
    live.worker = _Worker()  # its own, so the kernel's worker (and its warm tables) cannot finish first
    # a worker process that stops in the middle of the first card, as if the machine had stopped it
    live.worker.process = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.buffer.read(1)"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        played = replay_following(rnd, live)
        assert not live.wait(played, timeout=THINKING_SECONDS)  # some cards were not judged there
        assert live.judged(played) == 13  # the rest were: a new process took over
        report = analyse(played, nodes=NODES, seconds=None, live=live)
    finally:
        live.close()
        live.worker._stop_process()
    plain = analyse(played, nodes=NODES, seconds=None)
    assert report.live < 13 and len(report.verdicts) == 13
    assert [v.mark for v in report.verdicts if v.trick in plain.exact_tricks] == [
        v.mark for v in plain.verdicts if v.exact
    ]


def test_a_card_taken_back_or_a_new_deal_drops_what_the_thread_was_asked() -> None:
    live = LiveAnalysis(nodes=2_000)
    try:
        rnd = round_until_south_has(3, 11)  # South has played two cards
        live.follow(rnd)
        assert live.wait(rnd, timeout=THINKING_SECONDS) and live.judged(rnd) == 2
        first = live.job(next(key for *_r, key in reversed(_positions(rnd))))
        while rnd.history[-1].seat != SOUTH:  # take South's second card back, as practice mode does
            rnd.undo()
        taken_back = rnd.history[-1].value
        rnd.undo()
        other = next(c for c in rnd.legal_plays() if c != taken_back)
        rnd.play(other)
        assert live.follow(rnd) == 1 and live.wait(rnd, timeout=THINKING_SECONDS)
        verdicts = [live.job(key).result() for *_r, key in _positions(rnd)]  # type: ignore[union-attr]
        assert [v.card for v in verdicts][-1] == other and first is not None and first.result().card == taken_back
        new_deal = round_until_south_has(4, 12)
        live.follow(new_deal)
        assert live.judged(rnd) == 0 and all(live.job(key) is None for *_r, key in _positions(rnd))  # dropped
        assert live.wait(new_deal, timeout=THINKING_SECONDS) and live.judged(new_deal) == 1
    finally:
        live.close()


# --- sampled layouts ------------------------------------------------------------------------------


def round_until_south_has(seed: int, cards_left: int, preset: str = "jokers") -> st.Round:
    """A bot-played round stopped when South is to play with ``cards_left`` cards."""
    rules = st.Rules.preset(preset)
    bots = {s: HeuristicBot() for s in st.Seat}
    rnd = st.Round.deal(rules, seed=seed)
    while not (rnd.to_act == SOUTH and rnd.phase is st.Phase.PLAYING and len(rnd.hands[SOUTH]) == cards_left):
        seat = rnd.to_act
        assert seat is not None
        view = rnd.view(seat)
        rnd.apply((bots[seat].bid(view) if rnd.phase is st.Phase.BIDDING else bots[seat].play(view)).action)
    return rnd


def shown_voids(rnd: st.Round) -> dict[st.Seat, set[st.Suit]]:
    """Each seat's suits it failed to follow, from the record of the play."""
    rules = rnd.rules
    voids: dict[st.Seat, set[st.Suit]] = {s: set() for s in st.Seat}
    for trick in (*rnd.tricks, rnd.trick):
        if trick.cards:
            led = rules.suit_of(trick.cards[0])
            for seat, card in zip(trick.seats, trick.cards, strict=False):
                if rules.suit_of(card) != led:
                    voids[seat].add(led)
    return voids


@pytest.mark.parametrize(("preset", "seed", "left"), [("jokers", 3, 5), ("deuces-high", 8, 7), ("classic", 2, 4)])
def test_sampled_layouts_are_consistent_with_the_play(preset: str, seed: int, left: int) -> None:
    rnd = round_until_south_has(seed, left, preset)
    view = rnd.view(SOUTH)
    voids = shown_voids(rnd)
    played = {c for t in (*rnd.tricks, rnd.trick) for c in t.cards}
    unseen = set(rnd.rules.deck()) - played - set(rnd.hands[SOUTH])
    layouts = sample_layouts(view, 60, seed=7)
    assert len(layouts) == 60
    for layout in layouts:
        assert layout[SOUTH] == tuple(rnd.hands[SOUTH])  # the learner's hand is fixed
        for seat in st.Seat:
            assert len(layout[seat]) == len(rnd.hands[seat])  # hand sizes right
            assert not {rnd.rules.suit_of(c) for c in layout[seat]} & voids[seat]  # voids respected
        others = [c for s in st.Seat if s != SOUTH for c in layout[s]]
        assert len(others) == len(set(others)) and set(others) == unseen  # no card twice, none played
        # the layout is a legal position to solve from
        Position.from_hands(
            rnd.rules, layout, leader=rnd.trick.leader, trick=rnd.trick.cards, spades_broken=rnd.spades_broken
        )
    assert len({tuple(sorted(map(str, la[st.Seat.WEST]))) for la in layouts}) > 1  # they differ
    assert sample_layouts(view, 10, seed=7) == layouts[:10]  # seeded
    assert sample_layouts(view, 10, seed=8) != layouts[:10]


def test_the_layouts_respect_a_void_shown_in_the_play() -> None:
    for seed in range(1, 30):
        rnd = round_until_south_has(seed, 6)
        voids = shown_voids(rnd)
        if any(voids[s] for s in st.Seat if s != SOUTH):
            break
    else:
        pytest.fail("no seat showed a void by the eighth trick in 29 deals")
    seat = next(s for s in st.Seat if s != SOUTH and voids[s])
    suits = voids[seat]
    for layout in sample_layouts(rnd.view(SOUTH), 40, seed=3):
        assert not any(rnd.rules.suit_of(c) in suits for c in layout[seat])


# --- the sampled hint -------------------------------------------------------------------------------


def test_the_hint_is_measured_from_its_first_trick_on() -> None:
    from spades_tutor.analysis import HINT_TRICKS
    from spades_tutor.solver import ready

    core = ready()
    late = HINT_TRICKS[core]  # from the first trick with the compiled solver, from 6 tricks left with the pure one
    assert late == (13 if core == "compiled" else 6)
    if late < 13:
        early = round_until_south_has(3, late + 1)
        assert play_hint(early.view(SOUTH), seconds=None) is None  # the heuristic's sentence stands
    hint = play_hint(round_until_south_has(3, late).view(SOUTH), layouts=30, seconds=None)
    assert hint is not None and hint.layouts >= 20
    # the pure core never measures from a trick the compiled one would take too long on
    assert play_hint(round_until_south_has(3, 7).view(SOUTH), max_tricks=HINT_TRICKS["pure"], seconds=None) is None


def test_the_hint_recommends_the_card_that_makes_the_contract_in_the_most_layouts() -> None:
    rnd = round_until_south_has(3, 5)
    view = rnd.view(SOUTH)
    hint = play_hint(view, layouts=40, seed=2, seconds=None)
    assert hint is not None and hint.card in rnd.legal_plays()
    contract = rnd.team_contract(st.Team.NS)
    # recount every legal card over the same layouts, with the solver at each position
    made = dict.fromkeys(rnd.legal_plays(), 0)
    solved = 0
    for layout in sample_layouts(view, 40, seed=2):
        pos = Position.from_hands(
            rnd.rules,
            layout,
            leader=rnd.trick.leader,
            trick=rnd.trick.cards,
            spades_broken=rnd.spades_broken,
            taken=rnd.tricks_won,
        )
        solved += 1
        for card in made:
            made[card] += bool(make_contract(pos.play(card), st.Team.NS, contract).holds)
    assert hint.layouts == solved
    assert hint.made == made[hint.card] == max(made.values())
    assert hint.low <= hint.made / hint.layouts <= hint.high
    words = hint.sentence()
    share, low, high = (round(100 * x) for x in (hint.made / hint.layouts, hint.low, hint.high))
    assert f"in about {share}% of the ways the unseen cards may lie (likely between {low}% and {high}%)" in words
    assert "40" not in words and words.endswith(", measured by a simulation.")
    assert len(words) < 200  # short enough for a phone's docked hand: the rest is behind the disclosure
    # how many deals, the seed, how they were played and what they keep to are behind "How was this measured?"
    method = hint.method()
    assert "Double dummy: every hand known, both sides at their best." in method
    assert method[0].startswith("A simulation: 40 deals of the cards you cannot see") and "Seed 2: " in method[1]
    assert f"in {hint.made} of those 40 deals" in " ".join(method)
    voids = shown_voids(rnd)
    assert set(hint.voids) == {(s, suit) for s in st.Seat if s != SOUTH for suit in voids[s]}
    for seat, suit in hint.voids:
        assert f"{seat} has no {suit.plural}" in " ".join(method)
    again = play_hint(view, layouts=40, seed=2, seconds=None)
    assert again == hint  # seeded


# --- on the Play page -------------------------------------------------------------------------------


def test_the_play_page_judges_the_finished_hand_card_by_card_with_a_progress_bar() -> None:
    from spades_tutor.ui.play_page import PLAYER, PlayPage

    page = PlayPage(st.Rules.preset("jokers"))
    page.new_game(seed=5)
    page.hint_seconds = None  # every layout solved, however busy the machine
    hinted = False
    while not page.sheet_pending:
        rnd = page.game.round
        if rnd.phase is st.Phase.BIDDING:
            page.bid_choice.value = page.bid_choice.options[3][1]
            page.bid()
            continue
        if len(rnd.hands[PLAYER]) == 4 and not hinted:  # late in the hand the hint is measured on layouts
            page.hint()
            hinted = True
            assert page.message.startswith("Hint: play ") and "ways the unseen cards may lie" in page.message
        page.play(rnd.legal_plays()[-1])
        while page.holding is not None:  # the trick kept on the table: the learner goes on
            page.go_on()
    assert page.analysis_button in page.body.children and page.analysis_out in page.body.children
    assert page.analysis_list in page.body.children and page.replay.widget in page.body.children
    # each card was judged while the hand was played: waiting stands for the learner's thinking time
    assert page.live is not None and page.live.wait(page.game.rounds[-1], timeout=THINKING_SECONDS)
    steps: list[int] = []
    page.analysis_bar.observe(lambda change: steps.append(change["new"]), names="value")
    page.analysis_button.click()
    assert steps[-1] == 13 and steps == sorted(steps)  # the bar moved trick by trick
    rnd, report = page.analysis
    assert rnd is page.game.rounds[-1] and len(report.verdicts) == 13
    assert report.live == 13 and report.exact_tricks == tuple(range(1, 14))  # every trick judged exactly
    shown = page.analysis_out.value
    assert "Judged exactly: every trick (13 of them while you played)." in shown and "Not exact" not in shown
    assert report.summary().split(":")[0] in shown
    lines = page.analysis_list.children
    assert len(lines) == 13
    focused: list[object] = []
    sent = page.replay.next.send, page.replay.prev.send
    page.replay.next.send = lambda msg, **_: focused.append(("next", msg))  # type: ignore[method-assign]
    page.replay.prev.send = lambda msg, **_: focused.append(("prev", msg))  # type: ignore[method-assign]
    for v, line in zip(reversed(report.verdicts), reversed(lines), strict=True):
        words = line.description
        assert words.startswith(f"Trick {v.trick}, {v.card}: ") and v.sentence() in words
        assert ("st-verdict-bad" in line._dom_classes) == (v.mark in MISTAKES)
        if v.mark in MISTAKES:
            assert str(v.better[0]) in words and "✗" in words
        line.click()  # the replay turns to that trick and is brought into view
        assert page.replay.index == v.trick - 1 and f"Trick {v.trick} of 13" in page.replay.header.value
        assert focused[-1] == ("prev" if v.trick == 13 else "next", {"do": "focus"})
    page.replay.next.send, page.replay.prev.send = sent  # type: ignore[method-assign]
    page.render()  # the sheet drawn again keeps the verdicts of this hand
    assert page.analysis_out.value == shown
    assert [b.description for b in page.analysis_list.children] == [b.description for b in lines]


def test_a_hand_restored_from_its_saved_record_is_judged_the_same() -> None:
    from spades_tutor.ui.play_page import PlayPage

    page = PlayPage(st.Rules.preset("classic"))
    page.new_game(seed=9)
    while not page.sheet_pending:
        rnd = page.game.round
        if rnd.phase is st.Phase.BIDDING:
            page.bid_choice.value = page.bid_choice.options[3][1]
            page.bid()
        else:
            page.play(rnd.legal_plays()[0])
        while page.holding is not None:  # the trick kept on the table: the learner goes on
            page.go_on()
    restored = st.Game.from_dict(page.game.to_dict()).rounds[-1]  # as a reload brings it back
    again, first = (analyse(r, nodes=NODES, seconds=None) for r in (restored, page.game.rounds[-1]))
    assert (again.verdicts, again.nodes, again.deal_id) == (first.verdicts, first.nodes, first.deal_id)


def test_a_hint_says_how_many_layouts_it_left_unsolved() -> None:
    view = round_until_south_has(3, 13).view(SOUTH)
    full = play_hint(view, layouts=30, seed=1, seconds=None, nodes=10**9)
    short = play_hint(view, layouts=30, seed=1, seconds=None, nodes=100_000)  # the page's work a layout
    assert full is not None and full.unsolved == 0 and full.layouts == 30
    assert not any("left out" in line for line in full.method())
    assert short is not None and short.unsolved > 0 and short.layouts + short.unsolved == 30
    said = " ".join(short.method())
    assert f"{short.unsolved} more deal" in said and "left out" in said
