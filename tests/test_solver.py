"""The double-dummy solver against an independent plain minimax, in every preset.

The oracle (``spades_tutor.solver.brute``) plays the engine's own ``Card`` objects with the
engine's ``legal_plays`` and ``trick_winner``: every card tried, nothing pruned. The solver's
bitmask move generator is checked against the same two engine functions.
"""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
import time
from types import ModuleType

import numpy as np
import pytest

import spades_tutor as st
from spades_tutor.solver import (
    Budget,
    Position,
    PositionError,
    best_cards,
    break_nil,
    can_take,
    card_values,
    keep_under,
    kept_tables,
    line,
    make_contract,
    make_nil,
    search,
    set_contract,
    solve,
)
from spades_tutor.solver.bits import Tables
from spades_tutor.solver.brute import brute_force_value

PRESETS = st.Rules.preset_names()
NS, EW = st.Team.NS, st.Team.EW


def ending(rules: st.Rules, seed: int, tricks: int) -> Position:
    """Deal ``seed``, bid and play random legal cards until ``tricks`` tricks remain (the last of
    them possibly begun: 0-3 of its cards already played)."""
    rng = random.Random(seed)
    rnd = st.Round.deal(rules, seed=seed)
    while rnd.phase is st.Phase.BIDDING:
        rnd.apply(rng.choice(rnd.legal_bids()))
    begun = rng.randrange(4)
    for _ in range((13 - tricks) * 4 + begun):
        rnd.play(rng.choice(rnd.legal_plays()))
    pos = Position.from_round(rnd)
    assert pos.tricks_left == tricks
    return pos


def brute(pos: Position, team: st.Team) -> int:
    return brute_force_value(pos, team.seats, team, remember=pos.tricks_left > 2)[0]


# --- the search's move generator is the engine's ----------------------------------------------


def runs() -> list[tuple[str, ModuleType]]:
    """The search as it runs: the Python copy of ``core.py``, and the compiled one when numba is there."""
    out = [("python", search.python_core())]
    compiled = search.compiled_core()
    if compiled is not None:
        out.append(("compiled", compiled))
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_the_searchs_legal_cards_and_trick_winners_are_the_engines(preset: str) -> None:
    """``core.legal`` and ``core.winner`` read the tables ``bits.Tables`` derives from the rule set;
    in both runs of the file they agree with the engine's ``legal_plays`` and ``trick_winner``."""
    rules = st.Rules.preset(preset)
    t = Tables.of(rules)
    for name, core in runs():
        tab = core.pack(t)
        rng = random.Random(preset)
        deck = list(rules.deck())
        for _ in range(2000 if name == "compiled" else 500):
            rng.shuffle(deck)
            size = rng.randint(1, 13)
            hand, trick = deck[:size], deck[size : size + rng.randint(0, 3)]
            broken = rng.random() < 0.5
            got = core.legal(tab, t.mask(hand), t.mask(trick[:1]), broken)
            assert set(t.cards(int(got))) == set(st.legal_plays(rules, hand, trick, broken)), name
            full = deck[size : size + 4]
            trick_bits = np.array([t.mask((c,)) for c in full], dtype=np.int64)
            assert core.winner(tab, trick_bits) == st.trick_winner(rules, full), name


# --- equal to brute force ---------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_most_tricks_equals_plain_minimax_on_random_endings(preset: str) -> None:
    """400 endings per preset (2 000 in all): 1-2 tricks left (320), 3 (75), 4 (5); five-trick
    endings are in the slow test below (the plain minimax needs seconds for each)."""
    assert _check_endings(preset, [(1, 160), (2, 160), (3, 75), (4, 5)]) == 400


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_most_tricks_equals_plain_minimax_on_longer_endings(preset: str) -> None:
    """More four- and five-trick endings (the plain minimax is slow there)."""
    assert _check_endings(preset, [(4, 20), (5, 8)], first_seed=500) == 28


def _check_endings(preset: str, plan: list[tuple[int, int]], first_seed: int = 0) -> int:
    rules = st.Rules.preset(preset)
    checked = 0
    for tricks, count in plan:
        for seed in range(first_seed, first_seed + count):
            pos = ending(rules, 1000 * tricks + seed, tricks)
            team = NS if seed % 2 else EW
            r = solve(pos, team, with_cards=False)
            assert r.exact and r.lower == r.upper == r.value
            assert r.value == brute(pos, team), str(pos)
            checked += 1
    return checked


@pytest.mark.parametrize("preset", PRESETS)
def test_best_cards_and_thresholds_agree_with_plain_minimax(preset: str) -> None:
    rules = st.Rules.preset(preset)
    for seed in range(40):
        pos = ending(rules, 50_000 + seed, 1 + seed % 3)
        team = pos.to_act.team
        r = solve(pos, NS)
        values = {
            c: brute(pos.play(c), NS) + sum(pos.play(c).taken[s] - pos.taken[s] for s in NS.seats)
            for c in pos.legal_plays()
        }
        best = max(values.values()) if team == NS else min(values.values())
        assert best == r.value
        assert set(r.best_cards) == {c for c, v in values.items() if v == best}, str(pos)
        assert set(best_cards(pos, NS)) == set(r.best_cards)
        every = card_values(pos, NS)
        assert every.exact and every.values == values, str(pos)
        for k in range(pos.tricks_left + 2):
            assert can_take(pos, NS, k).holds is (r.value >= k)


def test_the_brute_force_path_of_solve_agrees() -> None:
    for i, preset in enumerate(PRESETS):
        pos = ending(st.Rules.preset(preset), 77 + i, 3)
        plain = solve(pos, NS, brute_force=True)
        fast = solve(pos, NS)
        assert plain.value == fast.value == brute(pos, NS)
        assert set(plain.best_cards) == set(fast.best_cards)
        assert plain.nodes > fast.nodes


# --- symmetry and monotonicity ------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_moving_every_seat_one_place_swaps_the_sides_answers(preset: str) -> None:
    rules = st.Rules.preset(preset)
    for seed in range(30):
        pos = ending(rules, 7000 + seed, 2 + seed % 4)
        turned = pos.rotated(1)
        assert turned.to_act == st.Seat((pos.to_act + 1) % 4)
        assert solve(pos, NS, with_cards=False).value == solve(turned, EW, with_cards=False).value
        assert solve(pos, EW, with_cards=False).value == solve(turned, NS, with_cards=False).value
        ns = solve(pos, NS, with_cards=False).value
        ew = solve(pos, EW, with_cards=False).value
        assert ns + ew >= pos.tricks_left  # each side's best is against the other's best defence


@pytest.mark.parametrize("preset", PRESETS)
def test_a_card_never_raises_the_movers_value_and_the_best_card_keeps_it(preset: str) -> None:
    rules = st.Rules.preset(preset)
    for seed in range(30):
        pos = ending(rules, 9000 + seed, 2 + seed % 4)
        side = pos.to_act.team
        before = solve(pos, side, with_cards=False).value
        after = []
        for c in pos.legal_plays():
            child = pos.play(c)
            won = sum(child.taken[s] - pos.taken[s] for s in side.seats)
            after.append(won + solve(child, side, with_cards=False).value)
        assert max(after) == before
        assert all(v <= before for v in after)


# --- objectives --------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_nil_answers_agree_with_plain_minimax(preset: str) -> None:
    rules = st.Rules.preset(preset)
    made = broken = 0
    for seed in range(60):
        played = ending(rules, 3000 + seed, 1 + seed % 4)
        seat = st.Seat(seed % 4)
        if played.taken[seat]:
            assert make_nil(played, seat).holds is False  # a trick taken already sinks the nil
        pos = dataclasses.replace(played, taken=(0, 0, 0, 0))  # as if no trick had been taken yet
        forced = brute_force_value(pos, (seat,), seat.team.other, remember=True)[0]
        expected = pos.taken[seat] == 0 and forced == 0
        assert make_nil(pos, seat).holds is expected, str(pos)
        assert break_nil(pos, seat).holds is (not expected)
        made += expected
        broken += not expected
    assert made and broken  # both answers occur


@pytest.mark.parametrize("preset", PRESETS)
def test_contract_set_and_bag_answers_agree_with_plain_minimax(preset: str) -> None:
    rules = st.Rules.preset(preset)
    for seed in range(40):
        pos = ending(rules, 4000 + seed, 1 + seed % 3)
        for team in (NS, EW):
            already = sum(pos.taken[s] for s in team.seats)
            most = already + brute(pos, team)  # the most the team can take in the round
            # the fewest it can keep to, the other team pushing tricks onto it
            fewest = already + brute_force_value(pos, team.seats, team.other, remember=True)[0]
            for contract in range(already, already + pos.tricks_left + 2):
                assert make_contract(pos, team, contract).holds is (most >= contract)
                assert set_contract(pos, team.other, contract).holds is (most < contract)
                assert keep_under(pos, team, contract).holds is (fewest <= contract)


def test_the_nil_cards_listed_keep_the_nil() -> None:
    rules = st.Rules.preset("jokers")
    pos = Position.from_hands(
        rules, {"N": "AH 3C", "E": "KH 4C", "S": "3H 5C", "W": "QH BJ"}, leader="N", spades_broken=True
    )
    # North must cash A♥ first: after 3♣ West may discard Q♥ and South's 5♣ wins
    a = make_nil(pos, st.Seat.SOUTH)
    assert a.holds is True and a.exact
    assert a.best_cards == (st.Card.parse("AH"),)


# --- positions and budget ----------------------------------------------------------------------


def test_a_round_at_its_start_and_the_two_of_clubs_lead() -> None:
    rules = st.Rules.preset("classic", first_lead="two-of-clubs")
    rnd = st.Round.deal(rules, seed=5)
    two = st.Card.parse("2C")
    pos = Position.from_round(rnd)
    assert pos.legal_plays() == (two,) and two in pos.hands[pos.leader]
    with pytest.raises(PositionError):
        pos.play(next(c for c in pos.hands[pos.leader] if c != two))
    while rnd.phase is st.Phase.BIDDING:
        rnd.apply(rnd.legal_bids()[1])
    assert Position.from_round(rnd) == pos  # the same position once the bidding is over
    r = solve(pos, NS, budget=Budget(nodes=20_000))
    assert r.best_cards in ((), (two,))


def test_positions_with_wrong_card_counts_are_refused() -> None:
    rules = st.Rules.preset("jokers")
    with pytest.raises(PositionError, match="should hold"):
        Position.from_hands(rules, {"N": "AH 3C", "E": "KH", "S": "3H 5C", "W": "QH BJ"}, leader="N")
    with pytest.raises(PositionError, match="twice"):
        Position.from_hands(rules, {"N": "AH", "E": "AH", "S": "3H", "W": "QH"}, leader="N")


def test_a_tiny_budget_returns_quickly_and_says_it_is_not_exact() -> None:
    rules = st.Rules.preset("jokers")
    pos = Position.from_round(st.Round.deal(rules, seed=4128))
    solve(ending(rules, 1, 1), NS)  # the first search loads (or compiles) the compiled core: not budgeted
    start = time.perf_counter()
    r = solve(pos, NS, budget=Budget(nodes=2000))
    assert time.perf_counter() - start < 2.0
    assert not r.exact and r.nodes <= 3000 and r.best_cards == ()
    assert 0 <= r.lower <= r.value <= r.upper <= 13
    start = time.perf_counter()
    a = make_contract(pos, NS, 8, budget=Budget(seconds=0.001))  # it needs about 430,000 nodes
    assert time.perf_counter() - start < 0.5
    assert a.holds is None and not a.exact
    every = card_values(pos, NS, budget=Budget(nodes=2000))
    assert not every.exact and every.values == {} and every.nodes <= 3000


@pytest.mark.parametrize("preset", PRESETS)
def test_a_line_is_legal_play_that_keeps_the_value_and_the_nil_answer(preset: str) -> None:
    rules = st.Rules.preset(preset)
    for seed in range(12):
        pos = ending(rules, 5000 + seed, 1 + seed % 4)
        value = solve(pos, NS, with_cards=False).value
        plays = line(pos, lambda p: solve(p, NS))
        assert len(plays) == pos.tricks_left * 4 - len(pos.trick)
        at = pos
        for seat, c in plays:
            assert seat == at.to_act and c in at.legal_plays()
            at = at.play(c)
            # best play by both sides: N–S's tricks so far plus what they can still take stay the value
            gained = sum(at.taken[s] for s in NS.seats) - sum(pos.taken[s] for s in NS.seats)
            assert gained + (solve(at, NS, with_cards=False).value if at.tricks_left else 0) == value
        seat = st.Seat(seed % 4)
        answer = make_nil(pos, seat).holds
        end = pos
        for _, c in line(pos, lambda p, s=seat: make_nil(p, s)):
            end = end.play(c)
        assert (end.taken[seat] == 0) is answer  # the line plays the nil's answer out
    assert line(pos, lambda p: solve(p, NS), cards=2) == plays[:2]


# --- one search, run compiled (numba) or as Python ---------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_the_compiled_and_the_python_run_give_the_same_answers_after_the_same_nodes(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One source, two runs: numba's integers and the interpreter's must not part anywhere (a
    wrapping product, a shift past 63 bits, a float), or the answers or the node counts differ."""
    pytest.importorskip("numba")
    rules = st.Rules.preset(preset)
    for seed in range(10):
        pos = ending(rules, 60_000 + seed, 1 + seed % 5)
        seat = st.Seat(seed % 4)
        answers = {}
        for name in ("pure", "compiled"):
            monkeypatch.setattr(search, "CORE", name)
            r = solve(pos, NS)
            nil = make_nil(pos, seat)
            under = keep_under(pos, seat.team, sum(pos.taken[s] for s in seat.team.seats) + 1)
            assert r.exact and nil.exact and under.exact
            answers[name] = (r.value, r.nodes, r.best_cards, nil.holds, nil.nodes, nil.best_cards, under.holds)
        assert answers["pure"] == answers["compiled"], str(pos)


def test_inside_a_trick_the_holder_of_the_card_nobody_can_beat_settles_a_one_trick_question_at_once() -> None:
    """East, second to play, holds the ace of the suit led and nobody has a trump: E–W can take
    one of the three tricks and N–S cannot take all three, each answered at the first node (DDS's
    quick trick for the second hand), and rightly (the referee). So too with the ace in the last
    hand, West's."""
    from spades_tutor.solver.search import Search

    rules = st.Rules.preset("classic")
    t = Tables.of(rules)
    for east, west in (("AH 5C 6C", "4H 9C TC"), ("4H 5C 6C", "AH 9C TC")):
        hands = {"N": "3C 4C", "E": east, "S": "3H 7C 8C", "W": west}
        pos = Position.from_hands(rules, hands, leader="N", trick="2H", spades_broken=True)
        masks = [t.mask(pos.hands[s]) for s in range(4)]
        lead = [t.mask(pos.trick)]
        ew, ns = Search(t, 0b1010, 1), Search(t, 0b0101, 0)
        assert ew.at_least(list(masks), 0, True, lead, 1) and ew.nodes == 1
        assert not ns.at_least(list(masks), 0, True, lead, 3) and ns.nodes == 1
        assert brute(pos, EW) >= 1 and brute(pos, NS) < 3


def test_a_guarded_second_trump_behind_the_top_one_stops_the_leading_side_taking_every_trick() -> None:
    """East holds K♠ 2♠ behind North's A♠: while N–S lead they cannot take all three tricks, and
    with E–W leading and the cards turned round, N–S take one; each answered at the first node
    (DDS's LaterTricks), and rightly (the referee). With the second trump's own side on lead there
    is no such trick: East leads the 2♠, North wins with the 3♠ and cashes the A♠."""
    from spades_tutor.solver.search import Search

    rules = st.Rules.preset("classic")
    t = Tables.of(rules)
    deals = (
        ("N", {"N": "AS 4H 5H", "E": "KS 2S 6D", "S": "7H 8H 9H", "W": "7D 8D 9D"}, 3, False),
        ("E", {"E": "AS 4H 5H", "S": "KS 2S 6D", "W": "7H 8H 9H", "N": "7D 8D 9D"}, 1, True),
    )
    for leader, hands, k, holds in deals:
        pos = Position.from_hands(rules, hands, leader=leader, spades_broken=True)
        masks = [t.mask(pos.hands[s]) for s in range(4)]
        ns = Search(t, 0b0101, 0)
        assert ns.at_least(list(masks), int(pos.leader), True, [], k) is holds and ns.nodes == 1
        assert (brute(pos, NS) >= k) is holds
    pos = Position.from_hands(
        rules, {"N": "AS 3S", "E": "KS 2S", "S": "4H 5H", "W": "6H 7H"}, leader="E", spades_broken=True
    )
    assert solve(pos, NS).value == brute(pos, NS) == 2


def test_the_top_trump_cannot_catch_both_trumps_below_it_nor_a_side_take_a_suit_without_its_top_card() -> None:
    """More of DDS's LaterTricks, in the joker presets' trump order too: the top trump is N–S's,
    the second an opponent's with another trump and the third an opponent's as well, so leading
    N–S cannot take every trick; and with no trump left, a side takes tricks only in the suits whose
    top card it holds, at most the longer of its two hands in each (here 2 of 3). Each answered at
    the first node, and rightly (the referee); East's K♠ given to North, N–S take all three."""
    from spades_tutor.solver.search import Search

    deals = (
        ("classic", {"N": "4H 5H 6H", "E": "KS 2S 6D", "S": "AS 7H 8H", "W": "QS 8D 9D"}),
        ("jokers", {"N": "4H 5H 6H", "E": "LJ 2S 6D", "S": "BJ 7H 8H", "W": "AS 8D 9D"}),
        ("deuces-high", {"N": "4H 5H 6H", "E": "LJ 2S 6D", "S": "BJ 7H 8H", "W": "2D 8D 9D"}),
        ("classic", {"N": "AH KH 2C", "E": "AC 7D 8D", "S": "QH 5D 6D", "W": "9C TC JD"}),
    )
    for preset, hands in deals:
        rules = st.Rules.preset(preset)
        t = Tables.of(rules)
        pos = Position.from_hands(rules, hands, leader="N", spades_broken=True)
        masks = [t.mask(pos.hands[s]) for s in range(4)]
        ns = Search(t, 0b0101, 0)
        assert not ns.at_least(list(masks), 0, True, [], 3) and ns.nodes == 1, preset
        assert brute(pos, NS) < 3
    rules = st.Rules.preset("classic")
    pos = Position.from_hands(
        rules, {"N": "KS 5H 6H", "E": "4H 2S 6D", "S": "AS 7H 8H", "W": "QS 8D 9D"}, leader="N", spades_broken=True
    )
    assert solve(pos, NS).value == brute(pos, NS) == 3


@pytest.mark.slow
def test_an_answer_is_kept_for_every_ending_that_differs_only_in_cards_it_did_not_depend_on() -> None:
    """The partition table: after one ending is solved, the same ending with the two lowest cards
    of a suit swapped between two hands is often answered from the table at once (one node), and
    always rightly (a search that kept nothing says so, and on some the referee's minimax)."""
    from spades_tutor.solver.search import Search

    rules = st.Rules.preset("jokers")
    t = Tables.of(rules)
    at_once = 0
    for seed in range(40):
        rng = random.Random(seed)
        deck = list(rules.deck())
        rng.shuffle(deck)
        hands = [t.mask(deck[5 * s : 5 * s + 5]) for s in range(4)]
        # the two lowest cards of a side suit that two different hands hold: swap them
        swapped = None
        for suit in range(3):
            cards = sorted(
                (b, s) for s in range(4) for b in range(64) if hands[s] >> b & 1 and t.suit_of_bit[b] == suit
            )
            if len(cards) >= 2 and cards[0][1] != cards[1][1]:
                (b0, s0), (b1, s1) = cards[:2]
                swapped = list(hands)
                swapped[s0] ^= 1 << b0 | 1 << b1
                swapped[s1] ^= 1 << b0 | 1 << b1
                break
        if swapped is None:
            continue
        leader, counted = seed % 4, 0b0101
        k = 1 + seed % 5
        solver = Search(t, counted, 0)
        solver.at_least(list(hands), leader, True, [], k)
        before = solver.nodes
        got = solver.at_least(list(swapped), leader, True, [], k)
        fresh = Search(t, counted, 0)
        assert got == fresh.at_least(list(swapped), leader, True, [], k)  # a search with nothing kept
        if seed % 10 == 0:  # and the referee (a second or more for each five-trick ending)
            pos = Position.from_hands(
                rules, {st.Seat(s): t.cards(swapped[s]) for s in range(4)}, leader=st.Seat(leader), spades_broken=True
            )
            assert got == (brute(pos, NS) >= k)
        at_once += solver.nodes - before == 1 < fresh.nodes  # from the table, not a cutoff at the root
    assert at_once >= 10  # 22 of the 40 here; none without the partition table


def test_without_numba_the_search_runs_as_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "_compiled_tried", True)
    monkeypatch.setattr(search, "_compiled", None)  # as when numba cannot be imported
    monkeypatch.setattr(search, "CORE", "auto")
    assert search.core_in_use() == "pure"
    pos = ending(st.Rules.preset("jokers"), 31, 3)
    assert solve(pos, NS, with_cards=False).value == brute(pos, NS)
    monkeypatch.setattr(search, "CORE", "compiled")
    with pytest.raises(RuntimeError, match="numba"):
        solve(pos, NS)


def test_the_python_run_is_the_same_file_with_nothing_compiled() -> None:
    python, compiled = search.python_core(), search.compiled_core()
    assert python.__file__ == search.__file__.replace("search.py", "core.py")
    assert python.run.__code__.co_filename == python.__file__  # a plain function, not a numba dispatcher
    if compiled is not None:
        assert compiled.__file__ == python.__file__ and compiled is not python
        assert hasattr(compiled.run, "py_func") and not hasattr(python.run, "py_func")


def test_importing_the_package_and_the_solver_does_not_import_numba() -> None:
    code = (
        "import sys, spades_tutor\n"
        "from spades_tutor.solver import solve, Position\n"
        "import spades_tutor.ui.app\n"
        "assert 'numba' not in sys.modules, 'numba imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


# --- tables kept across the questions of one deal ------------------------------------------------


def test_inside_kept_tables_a_question_asked_again_is_answered_from_what_the_first_proved() -> None:
    pos = ending(st.Rules.preset("jokers"), 73, 10)
    first = solve(pos, NS, with_cards=False)
    assert solve(pos, NS, with_cards=False).nodes == first.nodes  # outside the block nothing is kept
    with kept_tables():
        a = solve(pos, NS, with_cards=False)
        b = solve(pos, NS, with_cards=False)
        nil = make_nil(pos, st.Seat.EAST)  # another objective: its own tables
    assert a.nodes == first.nodes and a.value == b.value == first.value
    assert b.nodes * 20 < a.nodes
    assert nil.holds == make_nil(pos, st.Seat.EAST).holds
    assert solve(pos, NS, with_cards=False).nodes == first.nodes  # let go when the block ended


def test_kept_tables_give_the_same_answers_along_a_whole_hand() -> None:
    """Every position of a played hand from 6 tricks left, asked in play order with the tables kept
    and each with fresh ones: the same values, the same best cards, the same goal answers."""
    rules = st.Rules.preset("deuces-high")
    rng = random.Random(5)
    rnd = st.Round.deal(rules, seed=5)
    while rnd.phase is st.Phase.BIDDING:
        rnd.apply(rng.choice(rnd.legal_bids()))
    positions = []
    while rnd.phase is st.Phase.PLAYING:
        pos = Position.from_round(rnd)
        if pos.tricks_left <= 6:
            positions.append(pos)
        rnd.play(rng.choice(rnd.legal_plays()))

    def answers(pos: Position) -> tuple[object, ...]:
        r = solve(pos, EW)
        nil = make_nil(pos, st.Seat.NORTH)
        return r.value, r.best_cards, nil.holds, nil.best_cards

    fresh = [answers(p) for p in positions]
    with kept_tables():
        kept = [answers(p) for p in positions]
    assert kept == fresh


def test_kept_tables_are_the_threads_own_and_bounded() -> None:
    import threading

    t = Tables.of(st.Rules.preset("classic"))
    with kept_tables():
        mine = search.search_for(t, 0b0101, 0)
        assert search.search_for(t, 0b0101, 0) is mine
        other: list[search.Search] = []
        thread = threading.Thread(target=lambda: other.append(search.search_for(t, 0b0101, 0)))
        thread.start()
        thread.join()
        assert other[0] is not mine  # another thread outside any block of its own
        for counted in range(1, search.KEPT + 1):  # KEPT other objectives push the oldest out
            search.search_for(t, counted, 1)
        assert search.search_for(t, 0b0101, 0) is not mine
    assert search.search_for(t, 0b0101, 0) is not search.search_for(t, 0b0101, 0)
