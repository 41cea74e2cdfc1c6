"""Seeded quiz generators: every kind, every rule set, three difficulty levels.

A generator only chooses a *position*; the item built from it asks the engine
for the answer and the explanation. Play positions are real: a seeded deal is
bid and played with random legal cards (``Round.legal_plays`` / ``Round.play``)
and the question is posed at a point that was actually reached. The same
``(kind, rules, seed, difficulty)`` always gives the same item, and each item
carries its ``seed`` and ``difficulty`` so it can be made again.

Each kind's generator and what its levels mean live with the kind, in its module of
``spades_tutor.quiz.kinds`` (``DIFFICULTY_NOTES`` says it in words for the app);
``generate`` and ``mixed`` take any kind the registry there lists.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import Rules, SpadesError
from .base import DIFFICULTIES, QuizItem
from .kinds import get, names, offered
from .kinds import kinds as _kinds
from .seeded import MAX_DEALS, MAX_ROUNDS, pick_from, quiz_rng, shuffled_copy

__all__ = ["DIFFICULTIES", "DIFFICULTY_NOTES", "KINDS", "MAX_DEALS", "MAX_ROUNDS", "generate", "mixed"]

#: the kinds' names when the package was imported (``kinds.names()`` also lists any registered since)
KINDS: tuple[str, ...] = names()

#: kind -> difficulty -> what it asks, in words (each kind's ``levels``)
DIFFICULTY_NOTES: dict[str, dict[int, str]] = {cls.kind: dict(cls.levels) for cls in _kinds()}


def _check_inputs(kind: object, rules: object, seed: object, difficulty: object) -> type[QuizItem]:
    cls = get(kind)
    if not isinstance(rules, Rules):
        raise SpadesError(f"rules must be a Rules (such as Rules.preset('jokers')), not {rules!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise SpadesError(f"a quiz seed is a whole number 0 or more, not {seed!r}")
    if isinstance(difficulty, bool) or difficulty not in DIFFICULTIES:
        raise SpadesError(f"difficulty {difficulty!r} is not one of {', '.join(map(str, DIFFICULTIES))}")
    return cls


def generate(kind: str, rules: Rules, seed: int, difficulty: int = 1) -> QuizItem:
    """A quiz item of ``kind`` for ``rules``: the same arguments always give the same item.

    ``seed`` is a whole number 0 or more; ``difficulty`` is 1 (easy), 2 (medium) or
    3 (tricky). The answer and the explanation come from the engine.

    >>> import spades_tutor as st
    >>> rules = st.Rules.preset("jokers")
    >>> item = generate("trick-winner", rules, seed=7, difficulty=3)
    >>> item.kind, item.seed, item.difficulty
    ('trick-winner', 7, 3)
    >>> item.check(item.answer()).correct
    True
    >>> generate("trick-winner", rules, seed=7, difficulty=3).to_dict() == item.to_dict()
    True
    >>> sum(rules.is_trump(c) for c in item.trick) >= 2  # level 3: trumps fight, jokers among them
    True
    >>> item = generate("score", rules, seed=1, difficulty=3)
    >>> print(item.check({"NS": (0, 0), "EW": (0, 0)}).correct)
    False
    >>> generate("bidding", rules, seed=1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    spades_tutor.engine.errors.SpadesError: unknown quiz kind 'bidding'; the kinds are legal-plays, may-lead, ...
    """
    cls = _check_inputs(kind, rules, seed, difficulty)
    return cls.generate(rules, seed, difficulty)


def mixed(
    rules: Rules,
    seed: int,
    count: int = 10,
    difficulty: int | None = None,
    kinds: Sequence[str] | None = None,
) -> list[QuizItem]:
    """``count`` items of mixed kinds for "Quiz yourself", all different.

    Kinds are dealt in shuffled rounds, so each kind comes up about equally often
    and never twice in a row (when there are two kinds or more). With no
    ``difficulty`` each item's level is drawn. Without ``kinds``, every kind is
    kind the registry lists is used that the table offers (not "nil-safe" at a table
    that plays without nil).

    >>> import spades_tutor as st
    >>> items = mixed(st.Rules.preset("deuces-high"), seed=3, count=len(KINDS))
    >>> sorted(item.kind for item in items) == sorted(KINDS)
    True
    >>> all(item.check(item.answer()).correct for item in items)
    True
    """
    if not isinstance(rules, Rules):
        raise SpadesError(f"rules must be a Rules (such as Rules.preset('jokers')), not {rules!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise SpadesError(f"a quiz seed is a whole number 0 or more, not {seed!r}")
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 1000:
        raise SpadesError(f"count {count!r} is not a whole number from 0 to 1000")
    if difficulty is not None and (isinstance(difficulty, bool) or difficulty not in DIFFICULTIES):
        raise SpadesError(f"difficulty {difficulty!r} is not one of {', '.join(map(str, DIFFICULTIES))} or None")
    known = names()
    if kinds is None:
        pool = list(offered(rules))
    else:
        if isinstance(kinds, str):
            raise SpadesError(f"kinds is a sequence of kind names, not the text {kinds!r}")
        pool = list(dict.fromkeys(kinds))
        bad = [k for k in pool if k not in known]
        if bad or not pool:
            raise SpadesError(f"unknown quiz kind(s) {bad or kinds!r}; the kinds are {', '.join(known)}")
    rng = quiz_rng("mixed", seed, difficulty or 0, "/" + ",".join(pool))
    order: list[str] = []
    while len(order) < count:
        block = shuffled_copy(rng, pool)
        if order and len(block) > 1 and block[0] == order[-1]:
            block.append(block.pop(0))
        order.extend(block)
    items: list[QuizItem] = []
    seen: set[str] = set()
    for kind in order[:count]:
        for _ in range(50):
            level = difficulty if difficulty is not None else pick_from(rng, DIFFICULTIES)
            item = generate(kind, rules, rng.getrandbits(31), level)
            position = repr((kind, sorted(item.position().items())))
            if position not in seen:
                break
        seen.add(position)
        items.append(item)
    return items
