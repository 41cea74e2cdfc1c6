"""The measured quiz kinds' measurements, kept on disk for the xdist workers of one test run.

"best-bid" and "nil-safe" measure each candidate hand by playing it hundreds of times
(``lab.odds.hand_odds``, or a few candidates together with ``hands_odds``): most of the CPU time of the tests that need no browser. Each measurement is
seeded, so the same arguments always give the same result, and the product keeps them in its process
(``functools.lru_cache``). The tests generate the same items again in every worker and in many test
files; here ``best_bid._played`` and ``nil_safe._measured`` (and their batches, ``*_together``) are replaced, for the run only, by the same
``lru_cache`` over a memo whose values are pickled in a directory that all the run's workers share: a
hand measured by one worker is read by the others.

The directory is made by the process that starts the run (the xdist controller, which hands it to its
workers in ``workerinput``, or the only process without xdist) and deleted when that process ends: a
result is never read by another run, so a change to the code is never hidden by an old measurement.
A test marked ``uncached_measurements`` (one that measures the cost of generating) runs with the
product's own functions, their caches emptied.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import functools
import hashlib
import importlib
import os
import pickle
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from spades_tutor.engine import Card

#: the module-level functions that measure (each an ``lru_cache``, called by its module through its global name)
MEASUREMENTS: tuple[tuple[str, str], ...] = (
    ("spades_tutor.quiz.kinds.best_bid", "_played"),
    ("spades_tutor.quiz.kinds.best_bid", "_played_together"),
    ("spades_tutor.quiz.kinds.nil_safe", "_measured"),
    ("spades_tutor.quiz.kinds.nil_safe", "_measured_together"),
)
#: caches built on the measurements (the generators' batches measured ahead among them), emptied with
#: them when a test runs uncached
BUILT_ON: tuple[tuple[str, str], ...] = (
    ("spades_tutor.quiz.kinds.best_bid", "_measured"),
    ("spades_tutor.quiz.kinds.best_bid", "_AHEAD"),
    ("spades_tutor.quiz.kinds.nil_safe", "_AHEAD"),
)
#: the mark of a test that runs with the product's own functions
UNCACHED = "uncached_measurements"
#: the ``workerinput`` key that hands the run's directory to its workers
WORKER_KEY = "spades_tutor_measurements"

DIRECTORY = pytest.StashKey[Path]()  # the run's directory, in the process that made it
INSTALLED = pytest.StashKey["list[Installed]"]()  # the functions replaced in this process


def stable(value: object) -> object:
    """``value`` as plain tuples, strings and numbers whose ``repr`` is the same in every process.

    A card is its index, an enum member its class and value, a dataclass (a ``Rules``) its class and every
    field it is built from, house rules included. Anything else raises: a key is never guessed.
    """
    if isinstance(value, Card):
        return ("Card", value.index)
    if isinstance(value, enum.Enum):
        return (type(value).__qualname__, value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        return (type(value).__qualname__, tuple((f.name, stable(getattr(value, f.name))) for f in fields if f.init))
    if isinstance(value, tuple | list):
        return (type(value).__name__, tuple(stable(v) for v in value))
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"no stable key for {value!r}")


class SharedMemo:
    """``function``'s results, pickled in ``directory`` under a hash of its name and arguments.

    A result is written to a file of its own and renamed into place, so two workers measuring the same
    hand at once each write a whole file, and a reader never sees half of one. ``computed`` and ``read``
    count the calls that measured and the calls that read.
    """

    def __init__(self, function: Callable[..., Any], directory: Path) -> None:
        functools.update_wrapper(self, function)
        self.function = function
        self.directory = directory
        self.computed = 0
        self.read = 0

    def key(self, *args: object) -> str:
        named = (self.function.__module__, self.function.__qualname__, stable(args))
        return hashlib.sha256(repr(named).encode()).hexdigest()

    def __call__(self, *args: object) -> Any:
        path = self.directory / f"{self.key(*args)}.pickle"
        try:
            with path.open("rb") as file:
                value = pickle.load(file)
        except FileNotFoundError:
            pass
        else:
            self.read += 1
            return value
        value = self.function(*args)
        self.computed += 1
        fd, written = tempfile.mkstemp(dir=self.directory, suffix=".part")
        with os.fdopen(fd, "wb") as file:
            pickle.dump(value, file, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(written, path)
        return value


@dataclasses.dataclass(frozen=True)
class Installed:
    """One measurement replaced: the module, the name, the product's function and the one put in its place."""

    module: Any
    name: str
    original: Any
    shared: Any

    @property
    def memo(self) -> SharedMemo:
        return self.shared.__wrapped__  # type: ignore[no-any-return]


def install(directory: Path) -> list[Installed]:
    """Replace each measurement by the same ``lru_cache`` over a ``SharedMemo`` of the product's function."""
    installed = []
    for module_name, name in MEASUREMENTS:
        module = importlib.import_module(module_name)
        original = getattr(module, name)
        memo = SharedMemo(original.__wrapped__, directory)
        shared = functools.lru_cache(maxsize=original.cache_info().maxsize)(memo)
        setattr(module, name, shared)
        installed.append(Installed(module, name, original, shared))
    return installed


def uninstall(installed: list[Installed]) -> None:
    for one in installed:
        setattr(one.module, one.name, one.original)


def clear_built_on() -> None:
    for module_name, name in BUILT_ON:
        getattr(importlib.import_module(module_name), name).cache_clear()


@contextlib.contextmanager
def uncached(installed: list[Installed]) -> Iterator[None]:
    """The product's own measurements, their caches (and the caches built on them) empty, inside the block."""
    for one in installed:
        one.original.cache_clear()
        setattr(one.module, one.name, one.original)
    clear_built_on()
    try:
        yield
    finally:
        for one in installed:
            one.original.cache_clear()
            setattr(one.module, one.name, one.shared)
        clear_built_on()  # (its values are the same, but were not measured through the shared memo)


# --- the plugin's part, called by conftest.py's hooks ---


def _controller(config: pytest.Config) -> bool:
    """Whether this process hands the tests to xdist workers (and runs none itself)."""
    distributing = getattr(config.option, "dist", "no") != "no" and bool(getattr(config.option, "tx", None))
    return distributing and not hasattr(config, "workerinput")  # (as xdist decides, after its command line)


def configure(config: pytest.Config) -> None:
    workerinput = getattr(config, "workerinput", None)
    given = None if workerinput is None else workerinput.get(WORKER_KEY)
    if given is not None:
        directory = Path(given)
    else:  # the run starts here: its directory, deleted when it ends
        directory = Path(tempfile.mkdtemp(prefix="spades-tutor-measurements-"))
        config.stash[DIRECTORY] = directory
    if not _controller(config):
        config.stash[INSTALLED] = install(directory)


def configure_node(node: Any) -> None:
    """Hand a worker xdist is starting the run's directory."""
    node.workerinput[WORKER_KEY] = str(node.config.stash[DIRECTORY])


def unconfigure(config: pytest.Config) -> None:
    installed = config.stash.get(INSTALLED, None)
    if installed is not None:
        uninstall(installed)
        del config.stash[INSTALLED]
    directory = config.stash.get(DIRECTORY, None)
    if directory is not None:
        shutil.rmtree(directory, ignore_errors=True)
        del config.stash[DIRECTORY]


@contextlib.contextmanager
def for_test(item: pytest.Item) -> Iterator[None]:
    """Around a test: uncached if it is marked so (and this process replaced the measurements)."""
    installed = item.config.stash.get(INSTALLED, None)
    if item.get_closest_marker(UNCACHED) is None or installed is None:
        yield
        return
    with uncached(installed):
        yield
