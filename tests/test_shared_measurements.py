"""The run's shared measurements (shared_measurements.py, set up by conftest.py): the measured quiz kinds'
hands measured once per run, read by every worker, with the same items and answers as measured afresh."""

from __future__ import annotations

import dataclasses
import functools
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import shared_measurements
from shared_measurements import INSTALLED, SharedMemo

import spades_tutor as st
from spades_tutor.engine.rules import BlindNil, FailedNilTricks, FirstLead, RenegePenalty
from spades_tutor.quiz import generate
from spades_tutor.quiz.kinds import best_bid, nil_safe

TESTS = Path(__file__).parent
ROOT = TESTS.parent

#: a few items of each measured kind (kind, preset, seed, level), cheap to generate
ITEMS = (("best-bid", "classic", 0, 1), ("best-bid", "jokers", 1, 3), ("nil-safe", "classic", 0, 1))


def _raw(module: Any, name: str) -> Any:
    """The product's measuring function under its ``lru_cache``, whether or not this run shares it."""
    inner = getattr(module, name).__wrapped__
    return inner.function if isinstance(inner, SharedMemo) else inner


def _answers(item: Any) -> dict[str, Any]:
    """What an item is and what it counts right, measurements included."""
    out = {"item": item.to_dict(), "answer": item.answer(), "odds": repr(item.odds())}
    if isinstance(item, best_bid.BestBidItem):
        out["accepted"] = list(item.accepted())
        out["bids"] = repr(item.bids())
    return out


def _generated() -> list[dict[str, Any]]:
    return [_answers(generate(kind, st.Rules.preset(preset), seed, level)) for kind, preset, seed, level in ITEMS]


def _share(monkeypatch: pytest.MonkeyPatch, directory: Path) -> list[SharedMemo]:
    """The measurements replaced, for this test, by fresh memos in ``directory`` (a worker of another run)."""
    memos = []
    for module_name, name in shared_measurements.MEASUREMENTS:
        module = importlib.import_module(module_name)
        memo = SharedMemo(_raw(module, name), directory)
        monkeypatch.setattr(module, name, functools.lru_cache(maxsize=None)(memo))
        memos.append(memo)
    shared_measurements.clear_built_on()  # built on them: measured again through the memos
    return memos


READER = """
import json, sys
sys.path.insert(0, {tests!r})
from pathlib import Path
import pytest
from test_shared_measurements import _generated, _share
with pytest.MonkeyPatch.context() as monkeypatch:
    memos = _share(monkeypatch, Path({directory!r}))
    items = _generated()
print(json.dumps({{"items": items, "computed": [m.computed for m in memos], "read": [m.read for m in memos]}}))
"""


def test_a_process_reads_the_hands_another_measured_and_generates_the_same_items(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Generated through fresh memos, every hand is measured by the product's function and written; a
    fresh process given the same directory measures none, reads each one, and makes the same items with
    the same answers, measurements and bids counted right."""
    memos = _share(monkeypatch, tmp_path)
    written = _generated()
    computed = [m.computed for m in memos]
    assert all(computed) and [m.read for m in memos] == [0] * len(memos)
    assert len(list(tmp_path.glob("*.pickle"))) == sum(computed) and not list(tmp_path.glob("*.part"))
    shared_measurements.clear_built_on()  # (their values were measured through this test's memos)

    code = READER.format(tests=str(TESTS), directory=str(tmp_path))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env, timeout=120)
    read = json.loads(out.stdout)
    assert read["computed"] == [0] * len(memos) and read["read"] == computed
    assert read["items"] == json.loads(json.dumps(written))


def test_the_products_functions_give_the_items_the_shared_measurements_give(request: pytest.FixtureRequest) -> None:
    """This run's memo (read or measured) and the product's own functions, caches emptied, agree."""
    shared = _generated()
    with shared_measurements.uncached(request.config.stash.get(INSTALLED, [])):
        assert _generated() == shared


def test_the_key_tells_every_rule_set_hand_dealer_and_nil_apart(tmp_path: Path) -> None:
    memo = SharedMemo(_raw(best_bid, "_played"), tmp_path)
    classic = st.Rules.preset("classic")
    rule_sets = [st.Rules.preset(name) for name in st.Rules.preset_names()]
    rule_sets += [dataclasses.replace(classic, blind_nil=b) for b in BlindNil.names() if b != classic.blind_nil]
    rule_sets += [dataclasses.replace(classic, first_lead=f) for f in FirstLead.names() if f != classic.first_lead]
    rule_sets += [
        dataclasses.replace(classic, failed_nil_tricks=f)
        for f in FailedNilTricks.names()
        if f != classic.failed_nil_tricks
    ]
    rule_sets += [
        dataclasses.replace(classic, renege_penalty=r) for r in RenegePenalty.names() if r != classic.renege_penalty
    ]
    rule_sets += [
        dataclasses.replace(classic, **{flag: value})
        for flag, value in (
            ("nil", False),
            ("target", 300),
            ("mercy", -200),
            ("trick_points", 5),
            ("nil_value", 50),
            ("blind_nil_value", 100),
            ("blind_nil_behind", 200),
            ("bag_limit", 5),
            ("bag_penalty", 50),
        )
    ]
    hand = tuple(st.cards("AS 7S 3S KH 9H 4H AC 10C 6C 2C JD 7D 3D"))
    keys = [memo.key(rules, hand, st.Seat.EAST, False) for rules in rule_sets]
    assert len(set(keys)) == len(rule_sets) and len(rule_sets) > 20
    other_hand = (*hand[:-1], st.Card.parse("4D"))
    others = {
        memo.key(classic, other_hand, st.Seat.EAST, False),
        memo.key(classic, hand, st.Seat.WEST, False),
        memo.key(classic, hand, st.Seat.EAST, True),
        memo.key(classic, hand, 2, False),  # an int is not the seat it numbers
    }
    assert len(others) == 4 and keys[rule_sets.index(classic)] not in others
    # equal arguments, equal keys: the same rule set built another way
    again = st.Rules.preset("bicycle", bag_limit=5)
    built = dataclasses.replace(st.Rules.preset("bicycle"), bag_limit=5)
    assert memo.key(again, hand, st.Seat.EAST, False) == memo.key(built, hand, st.Seat.EAST, False)
    with pytest.raises(TypeError, match="no stable key"):
        memo.key(classic, object())


@pytest.mark.uncached_measurements
def test_a_test_marked_uncached_measures_with_the_products_own_functions_caches_emptied(
    request: pytest.FixtureRequest,
) -> None:
    installed = request.config.stash[INSTALLED]
    assert [one.name for one in installed] == ["_played", "_played_together", "_measured", "_measured_together"]
    for one in installed:
        assert getattr(one.module, one.name) is one.original and one.original.cache_info().currsize == 0
    assert best_bid._measured.cache_info().currsize == 0 and len(best_bid._AHEAD) == len(nil_safe._AHEAD) == 0


def test_other_tests_read_and_write_the_runs_directory(request: pytest.FixtureRequest) -> None:
    installed = request.config.stash[INSTALLED]
    for one in installed:
        assert getattr(one.module, one.name) is one.shared and isinstance(one.memo, SharedMemo)
        assert one.memo.function is one.original.__wrapped__ and one.memo.directory.is_dir()
    assert len({one.memo.directory for one in installed}) == 1


PROBE = """
import json, os
from spades_tutor.quiz.kinds import best_bid, nil_safe

def test_probe():
    directories = {str(f.__wrapped__.directory) for f in (best_bid._played, nil_safe._measured)}
    (directory,) = directories
    with open(os.environ["PROBE_OUT"], "a") as out:
        out.write(json.dumps([os.environ["PYTEST_XDIST_WORKER"], directory, os.path.isdir(directory)]) + "\\n")
"""


def test_the_workers_of_a_run_share_a_directory_of_their_own_deleted_when_the_run_ends(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A run of two xdist workers (each running the probe), with this conftest.py as its plugin (and no
    other plugin but xdist: each of the three processes starts in a fraction of a second)."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_probe.py").write_text(PROBE)
    out = tmp_path / "probe.jsonl"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), str(ROOT)]), "PROBE_OUT": str(out)}
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    args = ["-p", "xdist.plugin", "-p", "conftest", "-p", "no:cacheprovider", "-q", "-n", "2", "--dist", "each"]
    subprocess.run(
        [sys.executable, "-m", "pytest", *args, "test_probe.py"], cwd=tmp_path, env=env, check=True, timeout=180
    )
    seen = sorted(json.loads(line) for line in out.read_text().splitlines())
    assert [worker for worker, _, _ in seen] == ["gw0", "gw1"]
    assert seen[0][1:] == seen[1][1:] and seen[0][2] is True  # one directory, there while the tests ran
    directory = Path(seen[0][1])
    assert not directory.exists()  # deleted when the run ended
    ours = request.config.stash[INSTALLED][0].memo.directory
    assert directory != ours and ours.is_dir()
