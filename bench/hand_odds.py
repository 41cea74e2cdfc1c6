"""Benchmark: ``st.hand_odds`` (1,000 deals of one hand, heuristic bots) against OpenSpiel's time
for 1,000 random rounds of ``spades``, measured in the same run.

Each repetition measures a new hand (North's cards of deal ``seed + rep``, so the scoring cache
is only as warm as earlier hands left it) and then 1,000 random OpenSpiel hands (chance deal,
bids, plays, returns: the peer loop of ``bench/simulate.py``); the order alternates between
repetitions so that machine noise hits both sides alike. The very first call of the process is
timed apart: it also builds the rule set's lookup tables. Target: ratio (ours / OpenSpiel) <= 1.

Run it from the project root::

    .venv/bin/python bench/hand_odds.py
    .venv/bin/python bench/hand_odds.py --repeats 20 --preset jokers --nil

It prints its results and exits 0 whether or not the target is met: it is not a test.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

from peer import load_pyspiel_game, pyspiel_hands

import spades_tutor as st

DEALS = 1000
TARGET = 1.0
WARMUP_HANDS = 30


def run(preset: str = "classic", repeats: int = 10, seed: int = 1, nil: bool = False) -> dict[str, Any]:
    rules = st.Rules.preset(preset)
    clock = time.perf_counter
    load = os.getloadavg()
    print(
        f"hand_odds benchmark: preset {preset!r}, {DEALS:,} deals per hand{' played nil' if nil else ''}, "
        f"{repeats} hands, seed {seed}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
        f"on {os.cpu_count()} cores"
    )
    first_hand = st.deal_hands(rules, seed)[1][st.Seat.NORTH]
    t0 = clock()
    st.hand_odds(rules, first_hand, seat=st.Seat.NORTH, deals=DEALS, seed=seed, nil=nil)
    first = clock() - t0
    print(f"  first call in this process (imports numpy, builds the tables, cold scoring cache): {first:.3f} s")
    game = load_pyspiel_game()
    if game is None:
        print("pyspiel: not installed (pip install open-spiel): no ratio")
    else:
        pyspiel_hands(game, random.Random(-1), hands_wanted=WARMUP_HANDS)
    peer_rng = random.Random(seed)
    ours: list[float] = []
    theirs: list[float] = []
    for rep in range(repeats):
        hand = st.deal_hands(rules, seed + 1 + rep)[1][st.Seat.NORTH]

        def one(hand: st.Hand = hand, rep: int = rep) -> None:
            t = clock()
            odds = st.hand_odds(rules, hand, seat=st.Seat.NORTH, deals=DEALS, seed=seed + rep, nil=nil)
            ours.append(clock() - t)
            if rep == 0:
                print(f"  e.g. {hand}: {odds.sentence()}")

        def peer() -> None:
            if game is not None:
                theirs.append(pyspiel_hands(game, peer_rng, hands_wanted=DEALS)[1])

        for fn in (one, peer) if rep % 2 == 0 else (peer, one):
            fn()
    result: dict[str, Any] = {"first_call": first, "hand_odds": statistics.median(ours), "load": load}
    print(
        f"hand_odds, {DEALS:,} deals: median {statistics.median(ours):.3f} s "
        f"(min {min(ours):.3f}, max {max(ours):.3f}) over {repeats} hands"
    )
    if not theirs:
        return result
    peer_median = statistics.median(theirs)
    ratio = sum(ours) / sum(theirs)
    print(f"pyspiel, {DEALS:,} random hands: median {peer_median:.3f} s (min {min(theirs):.3f}, max {max(theirs):.3f})")
    print(
        f"ratio hand_odds / pyspiel (total time): {ratio:.2f}; per repetition: median "
        f"{statistics.median(o / p for o, p in zip(ours, theirs, strict=True)):.2f}"
    )
    print(f"target ratio <= {TARGET:g}: {'met' if ratio <= TARGET else 'NOT met'}")
    if preset != "classic":
        print("  note: OpenSpiel plays regular Spades (no jokers); the ratio is indicative only")
    result.update(pyspiel=peer_median, ratio=ratio)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "hand_odds benchmark").splitlines()[0])
    parser.add_argument(
        "--preset", default="classic", choices=st.Rules.preset_names(), help="rule set (default classic)"
    )
    parser.add_argument("--repeats", type=int, default=10, help="hands measured, each against the peer (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the hands and their deals (default 1)")
    parser.add_argument("--nil", action="store_true", help="the hands play nil")
    args = parser.parse_args(argv)
    run(preset=args.preset, repeats=max(1, args.repeats), seed=args.seed, nil=args.nil)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
