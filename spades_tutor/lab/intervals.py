"""The 95% intervals every measured figure in the app prints beside it.

A proportion measured by simulation (how often a nil made, how often a card won its trick) is
shown with its Wilson score interval: unlike the plain normal interval it stays inside 0–100% and
is honest for small counts and for proportions near 0 or 1. Light on purpose (numpy only), so the
Play hint and the analysis can use it without loading the lab's experiments.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["CONFIDENCE", "wilson"]

#: the confidence of every interval the app prints
CONFIDENCE = 0.95


def wilson(
    successes: Any, trials: Any, confidence: float = CONFIDENCE
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Wilson score intervals for proportions, element-wise (NaN where there are no trials).

    >>> low, high = wilson([5], [10])
    >>> round(float(low[0]), 3), round(float(high[0]), 3)
    (0.237, 0.763)
    """
    from statistics import NormalDist

    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    k = np.atleast_1d(np.asarray(successes, dtype=float))
    n = np.atleast_1d(np.asarray(trials, dtype=float))
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = np.where(n > 0, np.where(k <= 0, 0.0, np.clip(centre - half, 0, 1)), np.nan)
    high = np.where(n > 0, np.where(k >= n, 1.0, np.clip(centre + half, 0, 1)), np.nan)
    return low, high
