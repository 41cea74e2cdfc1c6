"""The measured quiz kinds measure their next candidate hands together (``quiz.ahead``): the items and
every figure in them are the ones measuring a hand at a time gives."""

from __future__ import annotations

from typing import Any

import pytest

import spades_tutor as st
from spades_tutor.quiz import generate
from spades_tutor.quiz.ahead import Ahead
from spades_tutor.quiz.kinds import best_bid, nil_safe

#: (kind, preset, seed, level): a nil target and number targets, a table without nil, each nil-safe band
ITEMS = (
    ("best-bid", "jokers", 0, 1),
    ("best-bid", "classic", 2, 2),
    ("best-bid", "deuces-high", 1, 3),
    ("best-bid", "bicycle", 3, 1),
    ("nil-safe", "jokers", 0, 1),
    ("nil-safe", "classic", 1, 2),
    ("nil-safe", "jokers", 2, 3),
)


def _emptied() -> None:
    for cached in (best_bid._played, best_bid._played_together, best_bid._measured, nil_safe._measured):
        cached.cache_clear()
    nil_safe._measured_together.cache_clear()
    best_bid._AHEAD.cache_clear()
    nil_safe._AHEAD.cache_clear()


def _made() -> list[dict[str, Any]]:
    out = []
    for kind, preset, seed, level in ITEMS:
        item = generate(kind, st.Rules.preset(preset), seed, level)
        out.append({"item": item.to_dict(), "answer": item.answer(), "odds": repr(item.odds())})
    return out


@pytest.mark.slow
@pytest.mark.uncached_measurements
def test_measuring_ahead_makes_the_items_measuring_one_hand_at_a_time_makes(monkeypatch: pytest.MonkeyPatch) -> None:
    _emptied()
    ahead = _made()
    assert best_bid._played_together.cache_info().misses > 0
    assert nil_safe._measured_together.cache_info().misses > 0  # (the batches were measured)
    _emptied()
    monkeypatch.setattr(best_bid, "_measure_ahead", lambda *args: None)
    monkeypatch.setattr(nil_safe, "_measure_ahead", lambda *args: None)
    alone = _made()
    assert best_bid._played_together.cache_info().misses == nil_safe._measured_together.cache_info().misses == 0
    assert alone == ahead
    _emptied()


def test_a_result_measured_ahead_is_handed_out_once_and_the_oldest_go_first() -> None:
    ahead: Ahead[str] = Ahead(size=3)
    for k in range(5):
        ahead.put(k, str(k))
    assert len(ahead) == 3 and [ahead.take(k) for k in range(5)] == [None, None, "2", "3", "4"]
    assert len(ahead) == 0 and ahead.take(4) is None
    ahead.put("x", "y")
    ahead.cache_clear()
    assert ahead.take("x") is None
