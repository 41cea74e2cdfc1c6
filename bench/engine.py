"""Benchmark: random full rounds through our engine's checked public API, side by side with OpenSpiel.

What it measures: hands per second for a whole random round (deal, four bids,
52 card plays, the score) on each side, and the ratio ours / OpenSpiel.

- ours: ``st.Round.deal(rules, seed=...)``, then ``rnd.bid(rng.choice(rnd.legal_bids()))``
  four times, ``rnd.play(rng.choice(rnd.legal_plays()))`` 52 times, ``rnd.score()``.
  Every action goes through the checked API (an illegal one would raise).
- OpenSpiel (``pyspiel.load_game("spades")``, regular Spades): 52 chance actions for the
  deal, 4 bids and 52 plays, each ``state.apply_action(rng.choice(state.legal_actions()))``,
  then ``state.returns()``. ``--checked-peer`` uses ``apply_action_with_legality_check``
  instead (slower, so it flatters the ratio; the default is the faster, stricter peer).

Both sides pay the same driver cost (``rng.choice`` on the legal list). The time is
split into several alternating rounds (ours first, then OpenSpiel first, …) so that
machine noise hits both sides alike. The target is ratio >= 0.25. With
``--preset jokers`` our side plays Spades with Jokers while OpenSpiel still plays
regular Spades (it has no jokers), so that ratio is only indicative.

Run it from the project root::

    .venv/bin/python bench/engine.py
    .venv/bin/python bench/engine.py --seconds 5 --preset jokers --seed 7

It prints its results and exits 0 whether or not the target is met: it is not a test.
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

TARGET = 0.25
WARMUP_HANDS = 30


def ours_hands(rules: st.Rules, first_seed: int, rng: random.Random, seconds: float) -> tuple[int, float]:
    """Play random rounds through the checked API for about ``seconds``; (hands, elapsed seconds)."""
    choice = rng.choice
    deal = st.Round.deal
    clock = time.perf_counter
    hands = 0
    start = clock()
    end = start + seconds
    while True:
        rnd = deal(rules, seed=first_seed + hands)
        for _ in range(4):
            rnd.bid(choice(rnd.legal_bids()))
        for _ in range(52):
            rnd.play(choice(rnd.legal_plays()))
        rnd.score()
        hands += 1
        now = clock()
        if now >= end:
            return hands, now - start


def run(
    seconds: float = 3.0, preset: str = "classic", seed: int = 1, rounds: int = 6, checked_peer: bool = False
) -> dict[str, Any]:
    """Run the benchmark and print it; returns the figures (for notebooks or other scripts)."""
    rules = st.Rules.preset(preset)
    game = load_pyspiel_game()
    ours_rng = random.Random(seed)
    peer_rng = random.Random(seed)
    next_seed = random.Random(seed).randrange(10**9)  # our deal seeds: next_seed, next_seed + 1, …

    # warm up both sides (imports, caches) outside the timed rounds: one hand per call
    for _ in range(WARMUP_HANDS):
        ours_hands(rules, next_seed, random.Random(-1), 0.0)
        if game is not None:
            pyspiel_hands(game, random.Random(-1), 0.0, checked=checked_peer)

    slice_ = seconds / rounds
    totals = {"ours": [0, 0.0], "pyspiel": [0, 0.0]}
    ratios: list[float] = []
    peer = "OpenSpiel spades" + (" (apply_action_with_legality_check)" if checked_peer else "")
    print(
        f"spades_tutor engine benchmark: preset {preset!r}, seed {seed}, "
        f"{seconds:g} s per side in {rounds} alternating rounds; peer: {peer if game else 'pyspiel not installed'}"
    )
    if preset != "classic" and game is not None:
        print("  note: OpenSpiel plays regular Spades (no jokers); the ratio is indicative only")
    for r in range(rounds):
        sides: list[tuple[str, Callable[[], tuple[int, float]]]] = [
            ("ours", lambda: ours_hands(rules, next_seed + int(totals["ours"][0]), ours_rng, slice_)),
        ]
        if game is not None:
            sides.append(("pyspiel", lambda: pyspiel_hands(game, peer_rng, slice_, checked=checked_peer)))
        if r % 2:
            sides.reverse()
        rates: dict[str, float] = {}
        for name, fn in sides:
            hands, elapsed = fn()
            totals[name][0] += hands
            totals[name][1] += elapsed
            rates[name] = hands / elapsed
        line = f"  round {r + 1}: ours {rates['ours']:>9,.0f} hands/s"
        if "pyspiel" in rates:
            ratios.append(rates["ours"] / rates["pyspiel"])
            line += f"   pyspiel {rates['pyspiel']:>9,.0f} hands/s   ratio {ratios[-1]:.3f}"
        print(line)

    ours_rate = totals["ours"][0] / totals["ours"][1]
    print(f"ours:    {ours_rate:>9,.0f} hands/s  ({int(totals['ours'][0]):,} hands in {totals['ours'][1]:.2f} s)")
    result: dict[str, Any] = {"preset": preset, "seed": seed, "ours": ours_rate, "pyspiel": None, "ratio": None}
    if game is None:
        print("pyspiel: not installed (pip install open-spiel): no ratio")
        return result
    peer_rate = totals["pyspiel"][0] / totals["pyspiel"][1]
    ratio = ours_rate / peer_rate
    print(f"pyspiel: {peer_rate:>9,.0f} hands/s  ({int(totals['pyspiel'][0]):,} hands in {totals['pyspiel'][1]:.2f} s)")
    print(
        f"ratio ours/pyspiel: {ratio:.3f} (per round: median {statistics.median(ratios):.3f}, "
        f"min {min(ratios):.3f}, max {max(ratios):.3f})"
    )
    met = ratio >= TARGET
    print(f"target ratio >= {TARGET}: {'met' if met else 'NOT met'}")
    result.update(pyspiel=peer_rate, ratio=ratio, target_met=met)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "Engine benchmark").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="timed seconds per side (default 3)")
    parser.add_argument(
        "--preset", default="classic", choices=st.Rules.preset_names(), help="our rule set (default classic)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed for the deals and the random choices (default 1)")
    parser.add_argument("--rounds", type=int, default=6, help="alternating rounds the time is split into (default 6)")
    parser.add_argument(
        "--checked-peer",
        action="store_true",
        help="drive OpenSpiel with apply_action_with_legality_check instead of apply_action",
    )
    args = parser.parse_args(argv)
    run(
        seconds=max(args.seconds, 0.01),
        preset=args.preset,
        seed=args.seed,
        rounds=max(args.rounds, 1),
        checked_peer=args.checked_peer,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
