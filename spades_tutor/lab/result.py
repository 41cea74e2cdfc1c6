"""``BatchResult``: the arrays a simulation leaves, with helpers to read them as cards and frames.

Seats are 0..3 = N, E, S, W and teams 0..1 = NS, EW, as in the engine. Cards are
``Card.index`` values (0..53; ``st.full_pack()[i]`` is the card); a hand is a uint64 mask
with bit ``Card.index`` set for each card held.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..engine import Card, Hand, Rules, Seat, full_pack

__all__ = ["BatchResult"]

_SEATS = "NESW"
_TEAMS = ("NS", "EW")


@dataclasses.dataclass(frozen=True, eq=False)
class BatchResult:
    """Simulated rounds ``rounds`` of ``(rules, seed, policy, dealer_choice)``, one row per round.

    ``plays[i, 4 * t + j]`` is the ``j``-th card of trick ``t`` (0-based), played by seat
    ``(leaders[i, t] + j) % 4``; ``play_seats()`` gives those seats.
    """

    rules: Rules
    seed: int
    policy: str
    dealer_choice: int | None  # the fixed dealer seat, or None: drawn per round from its words
    rounds: npt.NDArray[np.int64]  # (N,) round numbers: round r always gets the same deal and choices
    dealer: npt.NDArray[np.int8]  # (N,)
    hands: npt.NDArray[np.uint64]  # (N, 4) the hands as dealt, bit = Card.index
    bids: npt.NDArray[np.int8]  # (N, 4) tricks bid; 0 is nil (blind or not)
    blind_nil: npt.NDArray[np.bool_]  # (N, 4)
    plays: npt.NDArray[np.int8]  # (N, 52) Card.index in play order
    leaders: npt.NDArray[np.int8]  # (N, 13)
    winners: npt.NDArray[np.int8]  # (N, 13)
    tricks: npt.NDArray[np.int8]  # (N, 4) tricks taken
    points: npt.NDArray[np.int32]  # (N, 2) the hand's points per team (from 0 bags before)
    bags: npt.NDArray[np.int32]  # (N, 2) the team's bags after the hand (from 0 before)

    def __len__(self) -> int:
        return len(self.rounds)

    def play_seats(self) -> npt.NDArray[np.int8]:
        """``(N, 52)``: the seat that played each card of ``plays``."""
        offsets = np.tile(np.arange(4, dtype=np.int8), 13)
        seats: npt.NDArray[np.int8] = ((np.repeat(self.leaders, 4, axis=1) + offsets) % 4).astype(np.int8)
        return seats

    def hand(self, i: int, seat: Seat | int) -> Hand:
        """The cards row ``i`` dealt to ``seat``, in the rule set's display order."""
        mask = int(self.hands[i, int(seat)])
        return self.rules.sort_hand(c for c in full_pack() if mask >> c.index & 1)

    def count_in_hands(self, cards: Iterable[Card]) -> npt.NDArray[np.int8]:
        """``(N, 4)``: how many of ``cards`` each seat was dealt."""
        mask = np.uint64(sum(1 << c.index for c in cards))
        counts: npt.NDArray[np.int8] = np.bitwise_count(self.hands & mask).astype(np.int8)
        return counts

    @classmethod
    def concat(cls, parts: Sequence[BatchResult]) -> BatchResult:
        """Several results of the same simulation, one after another."""
        first = parts[0]
        arrays: dict[str, Any] = {
            f.name: np.concatenate([getattr(p, f.name) for p in parts])
            for f in dataclasses.fields(cls)
            if isinstance(getattr(first, f.name), np.ndarray)
        }
        return dataclasses.replace(first, **arrays)

    def to_frame(self) -> Any:
        """A pandas DataFrame, one row per round: dealer, bids, blind nils, tricks, points, bags."""
        import pandas as pd

        columns: dict[str, Any] = {"round": self.rounds, "dealer": self.dealer}
        for s, letter in enumerate(_SEATS):
            columns[f"bid_{letter}"] = self.bids[:, s]
        for s, letter in enumerate(_SEATS):
            columns[f"blind_nil_{letter}"] = self.blind_nil[:, s]
        for s, letter in enumerate(_SEATS):
            columns[f"tricks_{letter}"] = self.tricks[:, s]
        for t, team in enumerate(_TEAMS):
            columns[f"points_{team}"] = self.points[:, t]
        for t, team in enumerate(_TEAMS):
            columns[f"bags_{team}"] = self.bags[:, t]
        return pd.DataFrame(columns)

    def plays_frame(self) -> Any:
        """A long pandas DataFrame, one row per card played: round, trick, order, seat, card, won."""
        import pandas as pd

        n = len(self)
        seats = self.play_seats()
        winners = np.repeat(self.winners, 4, axis=1)
        names = np.array([str(c) for c in full_pack()], dtype=object)
        return pd.DataFrame(
            {
                "round": np.repeat(self.rounds, 52),
                "trick": np.tile(np.repeat(np.arange(13, dtype=np.int8), 4), n),
                "order": np.tile(np.arange(4, dtype=np.int8), 13 * n),
                "seat": seats.ravel(),
                "card": pd.Categorical(names[self.plays.ravel()]),
                "card_index": self.plays.ravel(),
                "won": (seats == winners).ravel(),
            }
        )
