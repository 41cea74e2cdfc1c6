"""The search against DDS, Bo Haglund's double-dummy solver (through ``endplay``), on the positions
where the two must agree: regular Spades with spades broken, which is bridge double dummy with spades
as trump. Every value, every best-card set and every single card's value is compared; a random
deal is played on at random to 1-8 tricks left, with 0-3 cards of the current trick down.
"""

from __future__ import annotations

import dataclasses

import pytest
from test_solver import ending
from test_solver_nodes import issue_29_deal  # bench/solver_positions.py's

import spades_tutor as st
from spades_tutor.solver import Position, card_values, solve
from spades_tutor.solver.dds import bridge_equivalent, dds_value, dds_values

RULES = st.Rules.preset("classic")


def broken(seed: int, tricks: int) -> Position:
    return dataclasses.replace(ending(RULES, seed, tricks), spades_broken=True)


def counted(pos: Position, team: st.Team) -> int:
    return sum(pos.taken[s] for s in team.seats)


@pytest.mark.parametrize("block", range(4))
def test_values_and_best_cards_are_ddss_on_random_positions(block: int) -> None:
    for seed in range(block * 75, block * 75 + 75):
        pos = broken(90_000 + seed, 1 + seed % 8)
        assert bridge_equivalent(pos)
        team = pos.to_act.team
        dds = dds_values(pos)
        assert set(dds) == set(pos.legal_plays())
        r = solve(pos, team)
        assert r.exact
        assert r.value == max(dds.values()), str(pos)
        assert set(r.best_cards) == {c for c, v in dds.items() if v == r.value}, str(pos)


def test_every_cards_value_is_ddss() -> None:
    """The value after each legal card, not only which cards are best: 40 positions, every card,
    asked card by card and all at once (``card_values``)."""
    for seed in range(40):
        pos = broken(91_000 + seed, 2 + seed % 7)
        team = pos.to_act.team
        dds = dds_values(pos)
        assert card_values(pos, team).values == dds, str(pos)
        for card, value in dds.items():
            after = pos.play(card)
            got = counted(after, team) - counted(pos, team) + solve(after, team, with_cards=False).value
            assert got == value, f"{pos} {card}"


def test_dds_is_asked_only_where_the_rules_are_bridges() -> None:
    pos = broken(92_000, 4)
    assert not bridge_equivalent(dataclasses.replace(pos, spades_broken=False))
    jokers = ending(st.Rules.preset("jokers"), 92_000, 4)
    with pytest.raises(ValueError, match="regular Spades"):
        dds_values(dataclasses.replace(jokers, spades_broken=True))


def test_issue_29s_worst_deal_is_worth_6_to_north_south_for_dds_too() -> None:
    """The value ``test_solver_nodes`` holds the search to on that deal is DDS's."""
    pos = issue_29_deal()
    assert bridge_equivalent(pos) and pos.to_act.team is st.Team.NS
    assert dds_value(pos) == 6
