"""Benchmark: the double-dummy solver (``spades_tutor.solver``) on positions from bot-played rounds.

What it measures, in one run:

1. Threshold queries on 8-trick positions: rounds dealt and played by heuristic bots
   (``spades_tutor.bots.play_round``), replayed to the start of trick 6; the question is
   "can North–South still make their contract?" (``make_contract``) and, the hardest
   threshold, "can N–S take one more trick than their double-dummy value?" (``can_take``).
   Target: p90 <= 50 ms.
2. Full 13-trick deals, before the first lead: the most tricks N–S can take
   (``solve(..., with_cards=False)``). Target: median <= 1 s.
3. Nodes on 5-trick endings against a plain minimax (``solve(..., brute_force=True)``: every
   legal card tried, no pruning, no table, no grouping). Target: >= 50x fewer nodes.

The search runs compiled (numba) when numba can be imported, else the same file as Python; ``--core``
chooses. It prints which core ran, and the compiled core's first call (the compile, or loading the
compiled code cached on disk) on its own line: that time is not in the figures.

Run it from the project root::

    .venv/bin/python bench/solver.py
    .venv/bin/python bench/solver.py --positions 40 --deals 10 --endings 10 --preset jokers
    .venv/bin/python bench/solver.py --core pure

4. Against DDS (Bo Haglund's double-dummy solver, through ``endplay``, a test extra), side by side on
   the same positions, interleaved (which solver goes first alternates): regular Spades with spades
   broken, which is bridge double dummy with spades as trump. Full 13-trick deals with North to
   lead (the value), and 8-trick positions (the value, and the value of every legal card). Ratios
   of medians; targets (issue 29): full-deal median <= 3x DDS with no deal over 2 s, 8 tricks <= 2x;
   and issue 29's worst deal (``solver_positions.issue_29_deal``) timed alone for each, under 2 s.
   The same full deals are then timed for this solver alone with spades unbroken, and dealt again in
   the joker presets. A deal over ``--cap`` seconds is stopped and counted as capped.

It prints its results and exits 0 whether or not the targets are met: it is not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from solver_positions import eight_tricks, full_deal, issue_29_deal

import spades_tutor as st
from spades_tutor.bots import HeuristicBot, play_round
from spades_tutor.solver import Position, can_take, card_values, make_contract, search, solve
from spades_tutor.solver.dds import dds_value

TARGET_THRESHOLD_P90 = 0.050
TARGET_FULL_MEDIAN = 1.0
TARGET_NODE_RATIO = 50.0


def position_after(rules: st.Rules, seed: int, tricks_played: int, extra_cards: int = 0) -> tuple[Position, int]:
    """The position of a heuristic-bot round ``seed`` after ``tricks_played`` tricks (and
    ``extra_cards`` of the next one), and N–S's contract."""
    played = play_round(rules, {s: HeuristicBot() for s in st.Seat}, seed=seed)
    rnd = st.Round.deal(rules, dealer=played.dealer, seed=seed)
    rnd.replay(played.history[: 4 + 4 * tricks_played + extra_cards])
    return Position.from_round(rnd), rnd.team_contract(st.Team.NS)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(x: float) -> str:
    return f"{x * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=60, help="8-trick positions per preset list")
    parser.add_argument("--deals", type=int, default=12, help="full 13-trick deals")
    parser.add_argument("--endings", type=int, default=12, help="5-trick endings for the node count")
    parser.add_argument("--preset", default=None, help="one preset (default: cycle through all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dds-deals", type=int, default=20, help="full deals against DDS (0: skip part 4)")
    parser.add_argument("--dds-positions", type=int, default=40, help="8-trick positions against DDS")
    parser.add_argument("--cap", type=float, default=20.0, help="seconds before a full deal is stopped")
    parser.add_argument("--core", choices=("auto", "compiled", "pure"), default="auto", help="the search core")
    args = parser.parse_args()
    presets = [args.preset] if args.preset else list(st.Rules.preset_names())
    rng = random.Random(args.seed)

    search.CORE = args.core
    start = time.perf_counter()
    core = search.core_in_use()  # imports numba (unless --core pure)
    imported = time.perf_counter() - start
    if core == "compiled":
        warm = Position.from_hands(
            st.Rules.preset("jokers"), {"N": "AH 3C", "E": "KH 4C", "S": "3H 5C", "W": "QH BJ"}, leader="N"
        )
        solve(warm, st.Team.NS)  # compiles, or loads the code compiled before from the disk cache
        first = time.perf_counter() - start
        print(
            f"core: compiled (numba); first call {first:.2f} s (numba import {imported:.2f} s, then compile or "
            "load from the disk cache), not in the figures below"
        )
    else:
        print("core: the search run as Python" + ("" if args.core == "pure" else " (numba cannot be imported)"))

    if args.positions:
        thresholds(args, presets, rng)
    if args.deals:
        full_deals(args, presets, rng)
    if args.endings:
        endings(args, presets, rng)
    if args.dds_deals:
        against_dds(args, rng)


def thresholds(args: argparse.Namespace, presets: list[str], rng: random.Random) -> None:
    print("1. threshold queries, 8 tricks left (heuristic-bot rounds, presets " + ", ".join(presets) + ")")
    contract_times: list[float] = []
    hard_times: list[float] = []
    for i in range(args.positions):
        rules = st.Rules.preset(presets[i % len(presets)])
        pos, contract = position_after(rules, rng.randrange(10**6), 5)
        a = make_contract(pos, st.Team.NS, contract)
        contract_times.append(a.seconds)
        value = solve(pos, st.Team.NS, with_cards=False).value
        b = can_take(pos, st.Team.NS, value + 1)
        assert a.exact and b.exact and b.holds is False
        hard_times.append(b.seconds)
    for name, times in (("make the contract", contract_times), ("value + 1 (hardest)", hard_times)):
        if not times:
            continue
        p90 = quantile(times, 0.9)
        print(
            f"   {name:22s} n={len(times)}  median {ms(statistics.median(times))}  p90 {ms(p90)}  "
            f"max {ms(max(times))}  target p90 <= {ms(TARGET_THRESHOLD_P90)}: "
            + ("met" if p90 <= TARGET_THRESHOLD_P90 else f"MISSED by {p90 / TARGET_THRESHOLD_P90:.2f}x")
        )


def full_deals(args: argparse.Namespace, presets: list[str], rng: random.Random) -> None:
    print("2. full deals, 13 tricks: most tricks for N–S")
    full: list[float] = []
    for i in range(args.deals):
        rules = st.Rules.preset(presets[i % len(presets)])
        rnd = st.Round.deal(rules, seed=rng.randrange(10**6))
        pos = Position.from_round(rnd)
        start = time.perf_counter()
        r = solve(pos, st.Team.NS, with_cards=False)
        full.append(time.perf_counter() - start)
        print(f"   {rules.name:20s} deal {rnd.deal_id:>7s}: N–S {r.value:2d}  {full[-1]:6.2f} s  {r.nodes:8d} nodes")
    med = statistics.median(full)
    print(
        f"   median {med:.2f} s  max {max(full):.2f} s  target median <= {TARGET_FULL_MEDIAN:.1f} s: "
        + ("met" if med <= TARGET_FULL_MEDIAN else f"MISSED by {med / TARGET_FULL_MEDIAN:.2f}x")
    )


def endings(args: argparse.Namespace, presets: list[str], rng: random.Random) -> None:
    print("3. nodes on 5-trick endings: solver against plain minimax (the plain minimax runs in pure Python)")
    ratios: list[float] = []
    for i in range(args.endings):
        rules = st.Rules.preset(presets[i % len(presets)])
        pos, _ = position_after(rules, rng.randrange(10**6), 8, rng.randrange(4))
        fast = solve(pos, st.Team.NS, with_cards=False)
        plain = solve(pos, st.Team.NS, with_cards=False, brute_force=True)
        assert fast.value == plain.value
        ratios.append(plain.nodes / fast.nodes)
        print(
            f"   {rules.name:20s} {pos.tricks_left} tricks: plain {plain.nodes:9d}  solver {fast.nodes:6d}  "
            f"{ratios[-1]:8.1f}x"
        )
    med_ratio = statistics.median(ratios)
    print(
        f"   median {med_ratio:.0f}x fewer nodes (min {min(ratios):.0f}x)  target >= {TARGET_NODE_RATIO:.0f}x: "
        + ("met" if med_ratio >= TARGET_NODE_RATIO else f"MISSED by {TARGET_NODE_RATIO / med_ratio:.2f}x")
    )


def timed(f: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    out = f()
    return time.perf_counter() - start, out


def our_every_card(pos: Position) -> dict[st.Card, int]:
    """Each legal card's value (``card_values``: the cards' questions share their tables, each card
    starting from the card before's value, as DDS's do)."""
    return card_values(pos, pos.to_act.team).values


def line_of(name: str, ours: list[float], theirs: list[float], goal: float) -> str:
    a, b = statistics.median(ours), statistics.median(theirs)
    ratio = a / b
    return (
        f"   {name:26s} this {ms(a)} / p90 {ms(quantile(ours, 0.9))} / max {ms(max(ours))}   "
        f"DDS {ms(b)} / p90 {ms(quantile(theirs, 0.9))} / max {ms(max(theirs))}   "
        f"ratio {ratio:6.1f}x  target <= {goal:.0f}x: " + ("met" if ratio <= goal else f"MISSED by {ratio / goal:.1f}x")
    )


def against_dds(args: argparse.Namespace, rng: random.Random) -> None:
    from spades_tutor.solver import Budget
    from spades_tutor.solver.dds import dds_values

    classic = st.Rules.preset("classic")
    print(f"4. against DDS: regular Spades, spades broken, the same positions interleaved (cap {args.cap:.0f} s)")
    seeds = [rng.randrange(10**6) for _ in range(args.dds_deals)]
    ours: list[float] = []
    theirs: list[float] = []
    capped = 0
    for i, seed in enumerate(seeds):
        pos = full_deal(classic, seed, broken=True)
        runs = [
            ("ours", lambda p=pos: solve(p, st.Team.NS, with_cards=False, budget=Budget(seconds=args.cap))),
            ("dds", lambda p=pos: dds_value(p)),
        ]
        got: dict[str, Any] = {}
        for name, f in runs if i % 2 == 0 else runs[::-1]:
            t, got[name] = timed(f)
            (ours if name == "ours" else theirs).append(t)
        r = got["ours"]
        if not r.exact:
            capped += 1
        else:
            assert r.value == got["dds"], (seed, r.value, got["dds"])
    print(line_of(f"full deal, value (n={len(seeds)})", ours, theirs, 3.0))
    over = sum(t > 2.0 for t in ours)
    print(f"   deals over 2 s: {over} of {len(seeds)} (target 0); capped at {args.cap:.0f} s: {capped}")
    worst = issue_29_deal()
    t_dds, v_dds = timed(lambda: dds_value(worst))
    start = time.perf_counter()
    r = solve(worst, st.Team.NS, with_cards=False, budget=Budget(seconds=args.cap))
    t_ours = time.perf_counter() - start
    print(
        f"   issue 29's worst deal: this {t_ours:.2f} s ({r.nodes:,} nodes, value "
        f"{r.value if r.exact else 'capped'})  DDS {t_dds:.2f} s (value {v_dds})  ratio {t_ours / t_dds:.1f}x  "
        "target < 2 s"
    )

    value_ours: list[float] = []
    value_dds: list[float] = []
    cards_ours: list[float] = []
    cards_dds: list[float] = []
    for i in range(args.dds_positions):
        seed = rng.randrange(10**6)
        pos = eight_tricks(classic, seed, broken=True)
        first = i % 2 == 0
        for who in ("ours", "dds") if first else ("dds", "ours"):
            if who == "ours":
                value_ours.append(timed(lambda p=pos: solve(p, p.to_act.team, with_cards=False))[0])
                cards_ours.append(timed(lambda p=pos: our_every_card(p))[0])
            else:
                value_dds.append(timed(lambda p=pos: dds_value(p))[0])
                cards_dds.append(timed(lambda p=pos: dds_values(p))[0])
    print(line_of(f"8 tricks, value (n={len(value_ours)})", value_ours, value_dds, 2.0))
    print(line_of("8 tricks, every card's value", cards_ours, cards_dds, 2.0))

    print("   this solver alone on the same deals (North to lead):")
    for name, preset, broken in (
        ("classic, spades unbroken", "classic", False),
        ("jokers, spades unbroken", "jokers", False),
        ("deuces-high, unbroken", "deuces-high", False),
    ):
        times = []
        capped = 0
        for seed in seeds:
            pos = full_deal(st.Rules.preset(preset), seed, broken)
            t, res = timed(lambda p=pos: solve(p, st.Team.NS, with_cards=False, budget=Budget(seconds=args.cap)))
            times.append(t)
            capped += not res.exact  # type: ignore[attr-defined]
        print(
            f"   {name:26s} median {ms(statistics.median(times))}  p90 {ms(quantile(times, 0.9))}  "
            f"max {ms(max(times))}  capped {capped}  (DDS full-deal median above: {ms(statistics.median(theirs))})"
        )


if __name__ == "__main__":
    main()
