"""spades_tutor: learn Spades with Jokers, step by step.

>>> import spades_tutor as st
>>> st.Card.parse("10h") == st.Card.parse("TH")
True
>>> [str(c) for c in st.Rules.preset("jokers").trump_order()[:3]]
['BJ', 'LJ', 'A♠']
"""

from __future__ import annotations

from .engine import *  # noqa: F403 - the engine's public face is the package's
from .engine import __all__ as _engine_all

__version__ = "0.1.0"

__all__ = [*_engine_all, "__version__"]
