"""The solver's node counts on a fixed benchmark: deterministic, so a change to the search can be
measured without the noise of a shared machine's clock.

- 12 full deals of regular Spades with spades broken (bridge double dummy, spades trump), North to
  lead: the most tricks for North–South, each capped at 10 M nodes;
- 60 eight-trick positions of the same rules (a random deal played on at random for five tricks):
  the value for the side to act, and the value of every legal card (``card_values``);
- nil questions (``make_nil``) on the same eight-trick positions, for every seat yet to take a
  trick, and on the first ``--nil-deals`` full deals for every seat (each capped at 5 M nodes).

It prints the nodes (and seconds) per part, and with ``--each`` every deal's. Run from the root::

    .venv/bin/python bench/solver_nodes.py
    .venv/bin/python bench/solver_nodes.py --preset jokers --unbroken
"""

from __future__ import annotations

import argparse
import time

from solver_positions import eight_tricks, full_deal

import spades_tutor as st
from spades_tutor.solver import Budget, card_values, make_nil, solve

CAP = 10_000_000
NIL_CAP = 5_000_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--unbroken", action="store_true", help="spades not broken at the start")
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--each", action="store_true", help="print every full deal's count")
    parser.add_argument("--first", type=int, default=0, help="the first deal's and position's number")
    parser.add_argument("--nil-deals", type=int, default=6, help="full deals for the nil questions")
    args = parser.parse_args()
    rules = st.Rules.preset(args.preset)
    broken = not args.unbroken
    solve(eight_tricks(rules, 1, True), st.Team.NS, with_cards=False)  # compile or load before timing

    total = capped = 0
    start = time.perf_counter()
    values = []
    for i in range(args.deals):
        pos = full_deal(rules, 500_000 + args.first + i, broken)
        t = time.perf_counter()
        r = solve(pos, st.Team.NS, with_cards=False, budget=Budget(nodes=CAP))
        total += r.nodes
        capped += not r.exact
        values.append(r.value if r.exact else None)
        if args.each:
            print(
                f"   deal {i:2d}: value {r.value if r.exact else '?':>2}  {r.nodes:9d} nodes  {time.perf_counter() - t:6.2f} s"
            )
    full_s = time.perf_counter() - start
    print(f"full deals ({args.deals}): {total:,} nodes, {capped} capped at {CAP:,}; {full_s:.1f} s; values {values}")

    total = 0
    start = time.perf_counter()
    values = []
    for i in range(args.positions):
        pos = eight_tricks(rules, 600_000 + args.first + i, broken)
        r = solve(pos, pos.to_act.team, with_cards=False)
        total += r.nodes
        values.append(r.value)
    print(
        f"8-trick positions ({args.positions}): {total:,} nodes; {time.perf_counter() - start:.2f} s; "
        f"value sum {sum(values)}"
    )

    total = 0
    start = time.perf_counter()
    every = 0
    for i in range(args.positions):
        pos = eight_tricks(rules, 600_000 + args.first + i, broken)
        cv = card_values(pos, pos.to_act.team)
        total += cv.nodes
        every += sum(cv.values.values())
    print(
        f"8-trick positions, every card's value ({args.positions}): {total:,} nodes; "
        f"{time.perf_counter() - start:.2f} s; value sum {every}"
    )

    total = asked = holds = 0
    start = time.perf_counter()
    for i in range(args.positions):
        pos = eight_tricks(rules, 600_000 + args.first + i, broken)
        for seat in st.Seat:
            if not pos.taken[seat]:
                a = make_nil(pos, seat)
                total += a.nodes
                asked += 1
                holds += bool(a.holds)
    print(f"nils, 8-trick positions ({asked}): {total:,} nodes; {time.perf_counter() - start:.2f} s; {holds} hold")
    total = capped = 0
    start = time.perf_counter()
    for i in range(args.nil_deals):
        pos = full_deal(rules, 500_000 + args.first + i, broken)
        for seat in st.Seat:
            a = make_nil(pos, seat, budget=Budget(nodes=NIL_CAP))
            total += a.nodes
            capped += not a.exact
    print(
        f"nils, full deals ({args.nil_deals} x 4 seats): {total:,} nodes, {capped} capped at {NIL_CAP:,}; "
        f"{time.perf_counter() - start:.1f} s"
    )


if __name__ == "__main__":
    main()
