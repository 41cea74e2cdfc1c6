"""Benchmark: "where did that trick go?" and the sampled play hint (``spades_tutor.analysis``).

What it measures, on rounds dealt and played by the heuristic bots:

1. The whole hand judged after it is played (``analyse`` with the Play page's budget): seconds
   per hand, against the target of 10 s, and how many of the 13 tricks were judged exactly.
   Then the same hand judged as the Play page does it now, during play: each of South's cards
   handed to ``LiveAnalysis`` as it is played, its worker process's seconds for the 13 cards
   (the learner's thinking time must cover them; ``--pace`` plays at a learner's pace instead of
   waiting for the worker), then ``analyse`` after the hand with the page's budget, taking the
   worker's verdicts: how many tricks were judged exactly, before (after the hand only) and after.
2. The play hint from 13 (the first trick), 9, 6 and 4 tricks left (``play_hint`` with the page's 2 s
   budget): seconds, the hands it measured a hint in, the layouts solved (200 asked for; fewer than 20
   and the heuristic's sentence stays) and those dealt but left unsolved.

Run it from the project root::

    .venv/bin/python bench/analysis.py
    .venv/bin/python bench/analysis.py --hands 3 --preset jokers --pace 3
    .venv/bin/python bench/analysis.py --guard 3   # a machine three times busier

It prints its results and exits 0 whether or not the targets are met: it is not a test.
"""

from __future__ import annotations

import argparse
import statistics
import time

import spades_tutor as st
from spades_tutor.analysis import ANALYSIS_SECONDS, BAG, LiveAnalysis, analyse, play_hint
from spades_tutor.bots import HeuristicBot, play_round

TARGET_HAND_SECONDS = 10.0
TARGET_HINT_SECONDS = 2.0


def south_to_play_with(rules: st.Rules, seed: int, left: int) -> st.Round:
    """Round ``seed`` played by the bots up to South's card with ``left`` cards in hand."""
    bots = {s: HeuristicBot() for s in st.Seat}
    rnd = st.Round.deal(rules, seed=seed)
    while not (rnd.to_act == st.Seat.SOUTH and rnd.phase is st.Phase.PLAYING and len(rnd.hands[st.Seat.SOUTH]) == left):
        seat = rnd.to_act
        assert seat is not None
        view = rnd.view(seat)
        rnd.apply((bots[seat].bid(view) if rnd.phase is st.Phase.BIDDING else bots[seat].play(view)).action)
    return rnd


def judged_during_play(rnd: st.Round, pace: float | None) -> tuple[float, st.Round, LiveAnalysis]:
    """``rnd`` played again card by card, each of South's cards handed to a ``LiveAnalysis`` as the
    Play page does; with ``pace``, that many seconds between South's cards (a learner thinking), else
    waiting at the end for the worker. The seconds from the first card until every card was judged
    (or the hand ended, with ``pace``), the round replayed and the live analysis."""
    live = LiveAnalysis()
    fresh = st.Round.from_hands(rnd.rules, rnd.dealt, dealer=rnd.dealer)
    start = None
    for action in rnd.history:
        fresh.apply(action.value)
        if action.kind == "play" and action.seat == st.Seat.SOUTH:
            start = start or time.perf_counter()
            live.follow(fresh)
            if pace:
                time.sleep(pace)
    if pace is None:
        live.wait(fresh)
    return time.perf_counter() - (start or time.perf_counter()), fresh, live


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--preset", default="jokers")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pace", type=float, default=None, help="seconds between South's cards (default: wait)")
    parser.add_argument(
        "--guard",
        type=float,
        default=ANALYSIS_SECONDS,
        help="the time guard after the hand (default: the Play page's); less stands for a busier machine",
    )
    args = parser.parse_args()
    rules = st.Rules.preset(args.preset)
    seconds, exact, live_seconds, ended_seconds, live_exact = [], [], [], [], []
    for seed in range(args.seed, args.seed + args.hands):
        rnd = play_round(rules, {s: HeuristicBot() for s in st.Seat}, seed=seed)
        report = analyse(rnd, seconds=args.guard)
        seconds.append(report.seconds)
        exact.append(len(report.exact_tricks))
        print(
            f"hand {seed}: after the hand only: {report.seconds:.2f} s, {report.nodes:,} nodes, {len(report.exact_tricks)} "
            f"of 13 tricks exact (from trick {report.exact_tricks[0] if report.exact_tricks else '-'}), "
            f"{len(report.marked)} card(s) marked, {sum(v.mark == BAG for v in report.verdicts)} bag(s) given up"
        )
        during, played, live = judged_during_play(rnd, args.pace)
        try:
            ended = analyse(played, live=live, seconds=args.guard)
        finally:
            live.close()
        live_seconds.append(during)
        ended_seconds.append(ended.seconds)
        live_exact.append(len(ended.exact_tricks))
        print(
            f"        during play: the worker's {during:.2f} s "
            f"({'at ' + format(args.pace, 'g') + ' s a card' if args.pace else 'waited for'}), then {ended.seconds:.2f} s "
            f"after the hand; {len(ended.exact_tricks)} of 13 tricks exact ({ended.live} judged during play), "
            f"{len(ended.marked)} card(s) marked"
        )
    print(
        f"whole hand judged after it ({args.preset}, {args.hands} hands): median {statistics.median(seconds):.2f} s, "
        f"max {max(seconds):.2f} s (target <= {TARGET_HAND_SECONDS:.0f} s: ratio {max(seconds) / TARGET_HAND_SECONDS:.2f}); "
        f"tricks judged exactly: median {statistics.median(exact)} of 13, {sum(exact)} of {13 * len(exact)} in all"
    )
    print(
        f"judged during play: the worker's time median {statistics.median(live_seconds):.2f} s, max "
        f"{max(live_seconds):.2f} s a hand; after the hand median {statistics.median(ended_seconds):.2f} s, max "
        f"{max(ended_seconds):.2f} s; tricks judged exactly: median {statistics.median(live_exact)} of 13, "
        f"{sum(live_exact)} of {13 * len(live_exact)} in all (before: {sum(exact)})"
    )
    import spades_tutor.lab.experiments  # noqa: F401  (loaded on the Play page by the bidding helper's odds)

    for left in (13, 9, 6, 4):
        times, solved, unsolved = [], [], []
        for seed in range(args.seed, args.seed + args.hands):
            rnd = south_to_play_with(rules, seed, left)
            start = time.perf_counter()
            hint = play_hint(rnd.view(st.Seat.SOUTH), seed=seed)
            times.append(time.perf_counter() - start)
            solved.append(hint.layouts if hint else 0)
            unsolved.append(hint.unsolved if hint else 0)
        print(
            f"play hint from {left} tricks left: median {statistics.median(times):.2f} s, max {max(times):.2f} s "
            f"(target <= {TARGET_HINT_SECONDS:.0f} s, the guard stops it there); measured in "
            f"{sum(n > 0 for n in solved)} of {len(solved)} hands; layouts solved: median {statistics.median(solved)} "
            f"of 200, fewest {min(solved)}; left unsolved: median {statistics.median(unsolved)}, most {max(unsolved)}"
        )


if __name__ == "__main__":
    main()
