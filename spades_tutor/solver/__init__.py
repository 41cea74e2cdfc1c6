"""Double-dummy solver: every hand known, the best each side can do from any position.

The rules come from the engine (``legal_plays``, ``trick_winner`` and the rule set's
tables), so jokers, the 2♦ of deuces-high and spades broken work in every preset.

>>> import spades_tutor as st
>>> rnd = st.Round.deal(st.Rules.preset("jokers"), seed=11)
>>> for _ in range(38):  # the bids, eight tricks and two cards of the ninth
...     rnd.apply(rnd.legal_actions()[0])
>>> pos = Position.from_round(rnd)
>>> pos.tricks_left
5
>>> r = solve(pos, st.Team.NS)
>>> r.exact, 0 <= r.value <= 5
(True, True)
"""

from __future__ import annotations

from .api import (
    Answer,
    Budget,
    CardValues,
    Result,
    best_cards,
    break_nil,
    can_take,
    card_values,
    keep_under,
    kept_tables,
    line,
    make_contract,
    make_nil,
    reach,
    ready,
    set_contract,
    solve,
)
from .position import Position, PositionError

__all__ = [
    "Answer",
    "Budget",
    "CardValues",
    "Position",
    "PositionError",
    "Result",
    "best_cards",
    "break_nil",
    "can_take",
    "card_values",
    "keep_under",
    "kept_tables",
    "line",
    "make_contract",
    "make_nil",
    "reach",
    "ready",
    "set_contract",
    "solve",
]
