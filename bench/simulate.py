"""Benchmark: the batched simulator (``spades_tutor.lab``) side by side with OpenSpiel's ``spades``.

What it measures, in one run:

1. Random-policy full rounds per second (deal, four bids, 52 cards, the score):
   - batched: ``simulate(rules, CHUNK, seed, start=...)`` calls, with the default worker
     threads (2: numpy releases the GIL in its loops) and, for information, with one thread;
   - OpenSpiel (regular Spades): 52 chance actions for the deal, 4 bids and 52 plays, each
     ``state.apply_action(rng.choice(state.legal_actions()))``, then ``state.returns()``
     (the same peer loop as ``bench/engine.py``).
   The time is split into alternating rounds (batched first, then OpenSpiel first, …) so that
   machine noise hits both sides alike. Target: batched >= 10x OpenSpiel.
2. Heuristic-bot rounds per second with the batched heuristic policy, when one is registered
   (``spades_tutor.lab.policy.POLICIES["heuristic"]``). Target: >= 1x OpenSpiel's random rate.
3. The lab page's default comparison: 20,000 random rounds of ``jokers`` and 20,000 of
   ``classic`` (simulation plus the one-row-per-round frames), against the time OpenSpiel
   needs for 20,000 random rounds, measured in the same run. Target: no more time.

Run it from the project root::

    .venv/bin/python bench/simulate.py
    .venv/bin/python bench/simulate.py --seconds 5 --preset jokers --seed 7

It prints its results and exits 0 whether or not the targets are met: it is not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from peer import load_pyspiel_game, pyspiel_hands

import spades_tutor as st
from spades_tutor.lab import simulate
from spades_tutor.lab.simulate import DEFAULT_WORKERS

TARGET_RANDOM = 10.0
TARGET_HEURISTIC = 1.0
LAB_ROUNDS = 20_000
LAB_PRESETS = ("jokers", "classic")
CHUNK = 32_768  # rounds per simulate() call on the batched side
WARMUP_HANDS = 30


def batched_rounds(
    rules: st.Rules, seed: int, first: int, seconds: float, workers: int, policy: str = "random"
) -> tuple[int, float]:
    """Simulate CHUNK-round slices for about ``seconds``; (rounds, elapsed seconds)."""
    clock = time.perf_counter
    done = 0
    start = clock()
    while True:
        simulate(rules, CHUNK, seed, policy, start=first + done, workers=workers)
        done += CHUNK
        now = clock()
        if now - start >= seconds:
            return done, now - start


def _heuristic_available() -> str | None:
    """None if the batched heuristic policy can run, else why not."""
    try:
        import spades_tutor.bots  # noqa: F401
    except ImportError:
        return "spades_tutor.bots is missing"
    from spades_tutor.lab.policy import POLICIES

    if "heuristic" not in POLICIES:
        return "no batched heuristic policy in spades_tutor.lab.policy.POLICIES"
    return None


def lab_comparison(seed: int) -> tuple[float, float]:
    """Seconds for the lab page's default comparison: (simulation + frames, experiments on top)."""
    clock = time.perf_counter
    start = clock()
    results = [simulate(st.Rules.preset(name), LAB_ROUNDS, seed) for name in LAB_PRESETS]
    for res in results:
        res.to_frame()
    simulated = clock() - start
    try:
        from spades_tutor.lab.experiments import EXPERIMENTS
    except ImportError:
        return simulated, float("nan")
    start = clock()
    for res in results:
        for experiment in EXPERIMENTS.values():
            experiment(res)
    return simulated, clock() - start


def run(seconds: float = 3.0, preset: str = "classic", seed: int = 1, rounds: int = 6) -> dict[str, Any]:
    """Run the benchmark and print it; returns the figures."""
    rules = st.Rules.preset(preset)
    clock = time.perf_counter
    t0 = clock()
    simulate(rules, 1000, seed)  # the first call builds the lookup tables
    first_call = clock() - t0
    game = load_pyspiel_game()
    peer_rng = random.Random(seed)
    if game is not None:
        pyspiel_hands(game, random.Random(-1), hands_wanted=WARMUP_HANDS)
    heuristic_missing = _heuristic_available()

    slice_ = seconds / rounds
    totals: dict[str, list[float]] = {}
    ratios: list[float] = []
    print(
        f"spades_tutor batched simulator benchmark: preset {preset!r}, seed {seed}, {seconds:g} s per side "
        f"in {rounds} alternating rounds; peer: {'OpenSpiel spades' if game else 'pyspiel not installed'}"
    )
    print(f"  first simulate() call in this process (builds the tables, 1,000 rounds): {first_call:.2f} s")
    if preset != "classic" and game is not None:
        print("  note: OpenSpiel plays regular Spades (no jokers); the ratio is indicative only")
    next_round = 0

    def ours(workers: int, policy: str = "random") -> tuple[int, float]:
        nonlocal next_round  # every slice simulates new rounds
        n, elapsed = batched_rounds(rules, seed, next_round, slice_, workers, policy)
        next_round += n
        return n, elapsed

    for r in range(rounds):
        sides: list[tuple[str, Callable[[], tuple[int, float]]]] = [
            ("batched", lambda: ours(DEFAULT_WORKERS)),
            ("batched-1-thread", lambda: ours(1)),
        ]
        if heuristic_missing is None:
            sides.append(("heuristic", lambda: ours(DEFAULT_WORKERS, "heuristic")))
        if game is not None:
            sides.append(("pyspiel", lambda: pyspiel_hands(game, peer_rng, slice_)))
        if r % 2:
            sides.reverse()
        rates: dict[str, float] = {}
        for name, fn in sides:
            n, elapsed = fn()
            total = totals.setdefault(name, [0, 0.0])
            total[0] += n
            total[1] += elapsed
            rates[name] = n / elapsed
        line = f"  round {r + 1}: batched {rates['batched']:>10,.0f} rounds/s   1 thread {rates['batched-1-thread']:>10,.0f}"
        if "pyspiel" in rates:
            ratios.append(rates["batched"] / rates["pyspiel"])
            line += f"   pyspiel {rates['pyspiel']:>8,.0f} hands/s   ratio {ratios[-1]:.1f}"
        print(line)

    def rate(name: str) -> float:
        return totals[name][0] / totals[name][1]

    result: dict[str, Any] = {"preset": preset, "seed": seed, "batched": rate("batched")}
    result["batched_1_thread"] = rate("batched-1-thread")
    print(
        f"batched random:   {rate('batched'):>10,.0f} rounds/s ({DEFAULT_WORKERS} threads; "
        f"{int(totals['batched'][0]):,} rounds in {totals['batched'][1]:.2f} s)"
    )
    print(f"batched random:   {rate('batched-1-thread'):>10,.0f} rounds/s (1 thread)")
    if game is None:
        print("pyspiel: not installed (pip install open-spiel): no ratios")
        return result
    peer = rate("pyspiel")
    ratio = rate("batched") / peer
    print(
        f"pyspiel random:   {peer:>10,.0f} hands/s ({int(totals['pyspiel'][0]):,} hands in {totals['pyspiel'][1]:.2f} s)"
    )
    print(
        f"ratio batched/pyspiel: {ratio:.1f} (1 thread: {rate('batched-1-thread') / peer:.1f}; per round: median "
        f"{statistics.median(ratios):.1f}, min {min(ratios):.1f}, max {max(ratios):.1f})"
    )
    print(f"target batched random >= {TARGET_RANDOM:g}x pyspiel: {'met' if ratio >= TARGET_RANDOM else 'NOT met'}")
    result.update(pyspiel=peer, ratio=ratio)

    # ---- heuristic bots (batched heuristic policy) ---------------------------------------------
    if heuristic_missing is None:
        h_ratio = rate("heuristic") / peer
        print(f"heuristic bots:   {rate('heuristic'):>10,.0f} rounds/s, {h_ratio:.2f}x pyspiel's random rate")
        print(f"target heuristic >= {TARGET_HEURISTIC:g}x pyspiel random: {'met' if h_ratio >= 1 else 'NOT met'}")
        result["heuristic"] = rate("heuristic")
    else:
        print(f"heuristic bots: not measured yet ({heuristic_missing})")

    # ---- the lab page's default comparison ------------------------------------------------------
    lab_seed = seed + 1
    _, peer_time = pyspiel_hands(game, peer_rng, hands_wanted=LAB_ROUNDS)
    lab_time, experiments_time = lab_comparison(lab_seed)
    label = " + ".join(LAB_PRESETS)
    print(
        f"lab page default comparison ({label}, 2 x {LAB_ROUNDS:,} random rounds, simulate + to_frame): "
        f"{lab_time:.2f} s; pyspiel, {LAB_ROUNDS:,} random hands: {peer_time:.2f} s "
        f"({peer_time / lab_time:.1f}x longer)"
    )
    if experiments_time == experiments_time:  # not NaN
        print(
            f"  plus the lab's experiments on both results: {experiments_time:.2f} s "
            f"(total {lab_time + experiments_time:.2f} s)"
        )
    met = lab_time <= peer_time
    print(f"target lab comparison <= pyspiel's {LAB_ROUNDS:,} random hands: {'met' if met else 'NOT met'}")
    result.update(lab_seconds=lab_time, lab_experiments_seconds=experiments_time, pyspiel_lab_seconds=peer_time)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "Simulator benchmark").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="timed seconds per side (default 3)")
    parser.add_argument(
        "--preset", default="classic", choices=st.Rules.preset_names(), help="our rule set (default classic)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed for the deals and the random choices (default 1)")
    parser.add_argument("--rounds", type=int, default=6, help="alternating rounds the time is split into (default 6)")
    args = parser.parse_args(argv)
    run(seconds=max(args.seconds, 0.01), preset=args.preset, seed=args.seed, rounds=max(args.rounds, 1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
