"""A plain minimax with no speed-up at all, on the engine's own objects: the solver's oracle.

It shares nothing with the search but the engine's ``legal_plays`` and ``trick_winner``:
every legal card of every seat is tried, no pruning, no table, no bitmask.

>>> import spades_tutor as st
>>> from spades_tutor.solver import Position
>>> pos = Position.from_hands(st.Rules.preset("jokers"), {"N": "AH", "E": "KH", "S": "2C", "W": "BJ"}, leader="N")
>>> brute_force_value(pos, (st.Seat.NORTH, st.Seat.SOUTH), st.Team.NS)
(0, 5)
"""

from __future__ import annotations

from collections.abc import Sequence

from spades_tutor.engine import Card, Seat, Team, legal_plays, trick_winner

from .position import Position

__all__ = ["brute_force_value"]


def brute_force_value(
    pos: Position, counted: Sequence[Seat], maximiser: Team, *, remember: bool = False
) -> tuple[int, int]:
    """(tricks the counted seats take of the remaining ones when ``maximiser`` plays to make that
    number high and the other team to make it low, nodes visited).

    ``remember`` keeps the value of each exact position met at a trick start (the same cards in
    the same hands, same leader), so that the oracle stays affordable on five-trick endings; it
    still tries every card and prunes nothing.
    """
    rules = pos.rules
    nodes = 0
    hands = [list(pos.hands[s]) for s in range(4)]
    counted_set = {int(s) for s in counted}
    memo: dict[tuple[object, ...], int] = {}

    def value(leader: int, trick: list[Card], broken: bool, first: bool) -> int:
        nonlocal nodes
        nodes += 1
        seat = (leader + len(trick)) % 4
        hand = hands[seat]
        if not hand:
            return 0
        key: tuple[object, ...] | None = None
        if remember and not trick:
            key = (leader, broken, *(frozenset(h) for h in hands))
            if key in memo:
                return memo[key]
        if first:
            options: Sequence[Card] = pos.legal_plays()
        else:
            options = legal_plays(rules, tuple(hand), tuple(trick), broken)
        results = []
        for card in options:
            hand.remove(card)
            trick.append(card)
            now_broken = broken or rules.is_trump(card)
            if len(trick) == 4:
                winner = (leader + trick_winner(rules, tuple(trick))) % 4
                results.append((winner in counted_set) + value(winner, [], now_broken, False))
            else:
                results.append(value(leader, trick, now_broken, False))
            trick.pop()
            hand.append(card)
        best = max(results) if Seat(seat).team == maximiser else min(results)
        if key is not None:
            memo[key] = best
        return best

    v = value(int(pos.leader), list(pos.trick), pos.spades_broken, True)
    return v, nodes
