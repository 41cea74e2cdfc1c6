"""The quiz kinds, one module and one class each, and the registry that lists them.

Each module of this package defines one ``QuizItem`` subclass marked ``@register``:
it owns the kind's name, title and levels, its seeded generator, how its position is
read (from plain data and from a lesson block), how an answer is checked and
explained, and how it is shown. Importing this package imports every module in it,
so adding a kind is one new module (and its tests); the quiz page, mixed quizzes,
lessons and ``item_from_dict`` find it here.

>>> names()[:4]  # in their order; a kind added is listed too, so only the first few are shown
('legal-plays', 'may-lead', 'trick-winner', 'first-leader')
>>> get("score").title
'Score this hand'
>>> from spades_tutor import Rules
>>> "nil-safe" in offered(Rules.preset("jokers")), "nil-safe" in offered(Rules.preset("jokers", nil=False))
(True, False)
>>> get("bidding")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
spades_tutor.engine.errors.SpadesError: unknown quiz kind 'bidding'; the kinds are legal-plays, may-lead, trick-winner, ...
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TypeVar

from ...engine import Rules, SpadesError
from ..base import DIFFICULTIES, QuizItem

__all__ = ["REGISTRY", "get", "kinds", "names", "offered", "register", "unregister"]

#: kind name -> its class, in the kinds' ``order``
REGISTRY: dict[str, type[QuizItem]] = {}

K = TypeVar("K", bound=type[QuizItem])


def register(cls: K) -> K:
    """Add a kind to the registry (a class decorator); a kind's name, title and levels must be given."""
    name = cls.kind
    if not isinstance(name, str) or not name:
        raise SpadesError(f"{cls.__name__} names no quiz kind (set kind = 'some-name')")
    if REGISTRY.get(name, cls) is not cls:
        raise SpadesError(f"quiz kind {name!r} is already registered by {REGISTRY[name].__name__}")
    if not cls.title or tuple(sorted(cls.levels)) != DIFFICULTIES:
        raise SpadesError(f"quiz kind {name!r} needs a title and a note for each level {DIFFICULTIES}")
    every: dict[str, type[QuizItem]] = {**REGISTRY, name: cls}
    ordered = sorted(every.values(), key=lambda c: c.order)
    REGISTRY.clear()
    REGISTRY.update((c.kind, c) for c in ordered)
    return cls


def unregister(name: str) -> None:
    """Take a kind out of the registry (tests that register a kind of their own clean up with it)."""
    REGISTRY.pop(name, None)


def names() -> tuple[str, ...]:
    """The kinds' names, in order."""
    return tuple(REGISTRY)


def offered(rules: Rules) -> tuple[str, ...]:
    """The names of the kinds a table with ``rules`` asks, in order (no nil question without nil)."""
    return tuple(cls.kind for cls in REGISTRY.values() if cls.offered(rules))


def kinds() -> tuple[type[QuizItem], ...]:
    """The kinds' classes, in order."""
    return tuple(REGISTRY.values())


def get(name: object) -> type[QuizItem]:
    """The class of the kind ``name``; an unknown name raises ``SpadesError`` listing the kinds."""
    if not isinstance(name, str) or name not in REGISTRY:
        raise SpadesError(f"unknown quiz kind {name!r}; the kinds are {', '.join(REGISTRY)}")
    return REGISTRY[name]


for _module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    importlib.import_module(f"{__name__}.{_module.name}")
