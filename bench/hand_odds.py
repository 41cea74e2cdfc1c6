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

Then it prints the nil-defence table: twenty holdings known to be dangerous for a nil (a high
trump with little under it, a side ace or king with one low card, a long suit with honours...),
each played as a nil ``NIL_TABLE_DEALS`` times from the same deals against the earlier
("plain") defence and against the bots' defence now ("strong": see ``bots.playing``, rule 3),
the made-rates side by side with their 95% intervals::

    .venv/bin/python bench/hand_odds.py --nil-table      # the table alone

``--perfect`` times the perfect-play judge instead (``hand_odds(..., judge="perfect")``, issue 29's point 5):
for each of ``--repeats`` hands, 200 deals solved double dummy as a nil and for the team's tricks, beside the
bots' judgement of the same 200 deals; targets: median <= 2 s a hand for the nil, <= 5 s for the team's tricks::

    .venv/bin/python bench/hand_odds.py --perfect --repeats 5 --preset jokers
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
NIL_TABLE_DEALS = 1000
PERFECT_DEALS = 200
#: the perfect judge's targets, seconds a hand (median): the nil, the team's tricks
PERFECT_TARGETS = {"nil": 2.0, "tricks": 5.0}

#: holdings known to be dangerous for a nil: (preset, what makes it dangerous, the hand)
DANGEROUS_NILS: tuple[tuple[str, str, str], ...] = (
    ("jokers", "K♠ 4♠ 3♠", "KS 4S 3S 9H 7H 5H 3H 8C 6C 4C 9D 6D 4D"),
    ("jokers", "a lone Q♠", "QS 9H 7H 5H 3H 8C 6C 4C 3C 9D 6D 4D 3D"),
    ("jokers", "J♠ 3♠", "JS 3S 9H 7H 5H 3H 8C 6C 4C 3C 7D 6D 4D"),
    ("jokers", "10♠ 9♠ 3♠", "10S 9S 3S 9H 7H 5H 3H 8C 6C 4C 9D 6D 4D"),
    ("jokers", "four middle spades", "8S 7S 6S 5S 9H 7H 5H 3H 8C 6C 4C 6D 4D"),
    ("jokers", "A♥ 5♥ (ace and one low)", "AH 5H 7H 4S 3S 9C 7C 5C 3C 8D 6D 4D 3D"),
    ("jokers", "K♥ 4♥ (king and one low)", "KH 4H 3S 9C 7C 5C 3C 8D 6D 4D 3D 7S 6S"),
    ("jokers", "a lone A♣", "AC 4S 9H 7H 5H 3H 8H 9D 7D 6D 4D 3D 3S"),
    ("jokers", "Q♦ J♦ 5♦", "QD JD 5D 3S 4S 9H 7H 5H 3H 8C 6C 4C 3C"),
    ("jokers", "five hearts K Q J", "KH QH JH 9H 5H 3S 4S 8C 6C 4C 7D 5D 3D"),
    ("classic", "K♠ 4♠ 3♠", "KS 4S 3S 9H 7H 5H 3H 8C 6C 4C 9D 6D 4D"),
    ("classic", "a lone Q♠", "QS 9H 7H 5H 3H 8C 6C 4C 2C 9D 6D 4D 3D"),
    ("classic", "J♠ 10♠ 2♠", "JS 10S 2S 9H 7H 5H 3H 8C 6C 4C 9D 6D 4D"),
    ("classic", "A♥ 5♥ (ace and one low)", "AH 5H 4S 3S 9C 7C 5C 3C 8D 6D 4D 3D 2D"),
    ("classic", "K♦ 2♦ (king and one low)", "KD 2D 3S 2S 9H 7H 5H 3H 8C 6C 4C 2C 5D"),
    ("classic", "five hearts K Q J", "KH QH JH 9H 5H 3S 8C 6C 4C 7D 5D 3D 2D"),
    ("deuces-high", "K♠ 4♠ 3♠", "KS 4S 3S 9H 7H 5H 3H 8C 6C 4C 9D 6D 4D"),
    ("deuces-high", "a lone Q♠", "QS 9H 7H 5H 3H 8C 6C 4C 3C 9D 6D 4D 3D"),
    ("deuces-high", "A♦ 4♦ (ace and one low)", "AD 4D 3S 4S 9H 7H 5H 3H 8C 6C 4C 3C 5D"),
    ("deuces-high", "six clubs K Q J", "KC QC JC 8C 6C 3C 8S QH 8H 5H KD JD 6D"),
)


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


def perfect(preset: str = "classic", repeats: int = 5, seed: int = 1, deals: int = PERFECT_DEALS) -> dict[str, Any]:
    """The perfect-play judge's seconds per hand (``deals`` deals), nil and team's tricks, beside the bots'."""
    from spades_tutor.lab.odds import PERFECT_WORKERS
    from spades_tutor.solver import ready

    rules = st.Rules.preset(preset)
    clock = time.perf_counter
    load = os.getloadavg()
    print(
        f"perfect-play judge: preset {preset!r}, {deals} deals per hand, {repeats} hands, seed {seed}; "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores; solver core {ready()}, "
        f"{PERFECT_WORKERS} threads"
    )
    seconds: dict[str, list[float]] = {"nil": [], "tricks": [], "bots": []}
    undecided = {"nil": 0, "tricks": 0}
    for rep in range(repeats):
        hand = st.deal_hands(rules, seed + 1 + rep)[1][st.Seat.NORTH]
        t = clock()
        bots = st.hand_odds(rules, hand, seat="N", deals=deals, seed=seed + rep)
        bots_nil = st.hand_odds(rules, hand, seat="N", deals=deals, seed=seed + rep, nil=True)
        seconds["bots"].append(clock() - t)
        t = clock()
        nil = st.hand_odds(rules, hand, seat="N", deals=deals, seed=seed + rep, nil=True, judge="perfect")
        seconds["nil"].append(clock() - t)
        t = clock()
        tricks = st.hand_odds(rules, hand, seat="N", deals=deals, seed=seed + rep, judge="perfect")
        seconds["tricks"].append(clock() - t)
        undecided["nil"] += nil.undecided
        undecided["tricks"] += tricks.undecided
        print(
            f"  {hand}: nil {seconds['nil'][-1]:5.1f} s (survives {nil.p_nil_made or 0:.0%}, bots made "
            f"{bots_nil.p_zero:.0%}), team's tricks {seconds['tricks'][-1]:5.1f} s (mean {tricks.mean_team_tricks:.2f}, "
            f"bots {bots.mean_team_tricks:.2f}), best bid {tricks.best_bid} (bots {bots.best_bid})"
        )
    bots_median = statistics.median(seconds["bots"])
    result: dict[str, Any] = {"load": load, "bots": bots_median}
    for part, target in PERFECT_TARGETS.items():
        median = statistics.median(seconds[part])
        result[part] = median
        print(
            f"perfect judge, {part}: median {median:.2f} s a hand (min {min(seconds[part]):.2f}, max "
            f"{max(seconds[part]):.2f}); {undecided[part]} of {repeats * deals} deals undecided; "
            f"target <= {target:g} s: {'met' if median <= target else 'NOT met'}; "
            f"{median / bots_median:.0f}x the bots' judgement of the same deals ({bots_median:.2f} s, number bids and nil)"
        )
    return result


def nil_table(deals: int = NIL_TABLE_DEALS, seed: int = 0) -> list[dict[str, Any]]:
    """Each dangerous holding played as a nil ``deals`` times (the same deals) against the plain and
    the strong defence, printed as a table; returns its rows."""
    print(
        f"Nil made-rates of {len(DANGEROUS_NILS)} dangerous holdings, {deals:,} deals each (seed {seed}), "
        "the opponents defending as before (plain) and now (strong); 95% intervals:"
    )
    head = f"{'rule set':<12} {'holding':<26} {'plain':>15} {'strong':>15} {'change':>7}"
    print(head)
    print("-" * len(head))
    rows = []
    for preset, name, hand in DANGEROUS_NILS:
        rules = st.Rules.preset(preset)
        made = {}
        for defence in ("plain", "strong"):
            odds = st.hand_odds(rules, hand, deals=deals, seed=seed, nil=True, nil_defence=defence)
            made[defence] = (odds.p_zero, *odds.p_zero_interval)
        cells = [f"{100 * p:3.0f}% ({100 * lo:.0f}–{100 * hi:.0f}%)" for p, lo, hi in made.values()]
        change = 100 * (made["strong"][0] - made["plain"][0])
        print(f"{preset:<12} {name:<26} {cells[0]:>15} {cells[1]:>15} {change:+6.0f}%")
        rows.append({"preset": preset, "holding": name, "hand": hand, **made})
    plain = sum(r["plain"][0] for r in rows) / len(rows)
    strong = sum(r["strong"][0] for r in rows) / len(rows)
    print(f"{'mean':<39} {100 * plain:15.1f}% {100 * strong:14.1f}% {100 * (strong - plain):+6.1f}%")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "hand_odds benchmark").splitlines()[0])
    parser.add_argument(
        "--preset", default="classic", choices=st.Rules.preset_names(), help="rule set (default classic)"
    )
    parser.add_argument("--repeats", type=int, default=10, help="hands measured, each against the peer (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the hands and their deals (default 1)")
    parser.add_argument("--nil", action="store_true", help="the hands play nil")
    parser.add_argument("--nil-table", action="store_true", help="print only the nil-defence table")
    parser.add_argument("--perfect", action="store_true", help="time only the perfect-play judge")
    args = parser.parse_args(argv)
    if args.perfect:
        perfect(preset=args.preset, repeats=max(1, args.repeats), seed=args.seed)
        return 0
    if not args.nil_table:
        run(preset=args.preset, repeats=max(1, args.repeats), seed=args.seed, nil=args.nil)
        print()
    nil_table()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
