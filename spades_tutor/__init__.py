"""spades_tutor: learn Spades with Jokers, step by step.

>>> import spades_tutor as st
>>> st.Card.parse("10h") == st.Card.parse("TH")
True
>>> [str(c) for c in st.Rules.preset("jokers").trump_order()[:3]]
['BJ', 'LJ', 'A♠']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .engine import *  # noqa: F403 - the engine's public face is the package's
from .engine import __all__ as _engine_all

if TYPE_CHECKING:
    from .lab.odds import HandOdds as HandOdds
    from .lab.odds import PerfectOdds as PerfectOdds
    from .lab.odds import hand_odds as hand_odds

__version__ = "0.1.0"

__all__ = [*_engine_all, "__version__"]

# measured, not ruled: these live in the lab (numpy) and are imported on first use, so that
# ``import spades_tutor`` stays light
_LAB_NAMES = {"hand_odds": "odds", "HandOdds": "odds", "PerfectOdds": "odds"}


def __getattr__(name: str) -> Any:
    module = _LAB_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".lab.{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAB_NAMES])
