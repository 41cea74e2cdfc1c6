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

It prints its results and exits 0 whether or not the targets are met: it is not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import spades_tutor as st
from spades_tutor.bots import HeuristicBot, play_round
from spades_tutor.solver import Position, can_take, make_contract, search, solve

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

    if not args.endings:
        return
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


if __name__ == "__main__":
    main()
