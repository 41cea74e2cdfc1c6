"""``st.score_hand`` over many hands at once: points and bags per team, from 0 bags before.

>>> import spades_tutor as st
>>> bids = np.array([[4, 2, 3, 2], [0, 5, 2, 4]])
>>> tricks = np.array([[5, 3, 3, 2], [1, 6, 1, 5]])
>>> points, bags = score_batch(st.Rules.preset("jokers"), bids, np.zeros((2, 4), bool), tricks)
>>> points.tolist(), bags.tolist()
([[71, 41], [-119, 92]], [[1, 1], [1, 2]])
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..engine import Rules

__all__ = ["score_batch"]


def score_batch(
    rules: Rules,
    bids: npt.NDArray[np.integer],
    blind: npt.NDArray[np.bool_],
    tricks: npt.NDArray[np.integer],
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Points and bags after the hand, each ``(N, 2)`` (teams NS, EW), for ``(N, 4)`` seat arrays.

    ``bids`` are trick counts (0 = nil; ``blind`` marks a blind nil), ``tricks`` the tricks taken.
    The rules mirror ``scoring.score_side``: a nil bidder is scored alone; a failed nil's tricks
    follow ``rules.failed_nil_tricks``; every ``bag_limit`` bags cost ``bag_penalty``.
    """
    bid = bids.astype(np.int32)
    took = tricks.astype(np.int32)
    nil = bid == 0
    nil_value = np.where(blind, rules.blind_nil_value, rules.nil_value)
    nil_points = np.where(nil, np.where(took == 0, nil_value, -nil_value), 0)
    points = np.zeros((len(bid), 2), dtype=np.int32)
    new_bags = np.zeros((len(bid), 2), dtype=np.int32)
    for team in (0, 1):
        seats = [team, team + 2]
        t_nil, t_took, t_bid = nil[:, seats], took[:, seats], bid[:, seats]
        nil_tricks = (t_took * t_nil).sum(axis=1)
        contract = (t_bid * ~t_nil).sum(axis=1)
        counted = (t_took * ~t_nil).sum(axis=1)
        if rules.failed_nil_tricks == "partner":
            counted = counted + nil_tricks
        has_contract = (~t_nil).any(axis=1)
        made = counted >= contract
        over = np.where(has_contract & made, counted - contract, 0)
        contract_points = np.where(made, 1, -1) * rules.trick_points * contract * has_contract
        if rules.failed_nil_tricks == "partner":  # both nil: no contract, every trick is a bag
            over = over + np.where(has_contract, 0, nil_tricks)
        elif rules.failed_nil_tricks == "bags":
            over = over + nil_tricks
        points[:, team] = nil_points[:, seats].sum(axis=1) + contract_points + over
        new_bags[:, team] = over
    penalties = new_bags // rules.bag_limit
    return points - penalties * rules.bag_penalty, new_bags - penalties * rules.bag_limit
