"""Seeded randomness and the position helpers the quiz kinds share.

Every draw goes through ``getrandbits`` of a ``random.Random`` seeded with text, so a
``(kind, rules, seed, difficulty)`` gives the same item on every Python version.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from ..engine import Card, Rank, Round, Rules, Seat, Suit, deal_hands
from ..engine.round import uniform_below

MAX_ROUNDS = 400
MAX_DEALS = 3000

T = TypeVar("T")


# --- seeded randomness that never changes between Python versions ------------------------


def quiz_rng(kind: str, seed: int, difficulty: int, salt: str = "") -> random.Random:
    """The generator's own stream: seeding with text hashes it with SHA-512 (stable everywhere)."""
    return random.Random(f"spades-tutor/quiz/{kind}/{difficulty}/{seed}{salt}")


def uniform_between(rng: random.Random, lo: int, hi: int) -> int:
    """A uniform integer in [lo, hi]."""
    return lo + uniform_below(rng, hi - lo + 1)


def pick_from(rng: random.Random, items: Sequence[T]) -> T:
    return items[uniform_below(rng, len(items))]


def balanced_pick(kind: str, seed: int, difficulty: int, items: Sequence[T]) -> T:
    """One of ``items`` for ``seed``, so that every run of ``len(items)`` seeds from a multiple of it
    draws each item once, in a seeded order.

    A kind whose level has a few cases with different answers draws its case here: a
    plain ``pick_from`` per seed lets one answer pile up by chance (the same seeds in every
    rule set draw the same cases), and a learner could then score by giving it every time.

    >>> [balanced_pick("demo", seed, 1, ("a", "b")) for seed in range(6)].count("a")
    3
    """
    n = len(items)
    order = shuffled_copy(quiz_rng(kind, seed // n, difficulty, "/balanced"), items)
    return order[seed % n]


def coin_flip(rng: random.Random, p: float) -> bool:
    return rng.getrandbits(32) < p * (1 << 32)


def shuffled_copy(rng: random.Random, items: Sequence[T]) -> list[T]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = uniform_below(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def sample(rng: random.Random, items: Sequence[T], k: int) -> list[T]:
    return shuffled_copy(rng, items)[:k]


def _deal_seed(rng: random.Random) -> int:
    return rng.getrandbits(31)


# --- what makes a trump surprising -------------------------------------------------------


def extra_trumps_of(rules: Rules) -> frozenset[Card]:
    """Trumps that are not natural spades: the jokers, the 2♦ in deuces-high."""
    return frozenset(rules.extra_trumps())


def tricky_cards(rules: Rules) -> tuple[Card, ...]:
    """Trumps a newcomer misplaces: the extra trumps, and a 2 ranked above the ace."""
    order = rules.trump_order()
    out = []
    for place, card in enumerate(order):
        natural = card.suit == Suit.SPADES and not card.is_joker
        if not natural or (card.rank == Rank.TWO and place < len(order) - 1):
            out.append(card)
    return tuple(out)


def ace_of_spades(rules: Rules) -> Card | None:
    ace = Card(Rank.ACE, Suit.SPADES)
    return ace if ace in rules.trump_order() else None


# --- positions from seeded deals and played rounds ----------------------------------------


def _bid_all(rnd: Round, rng: random.Random) -> None:
    for _ in range(4):
        bid = uniform_between(rng, 1, 4)
        if rnd.why_bid_illegal(bid) is not None:  # under a least team bid: the least the team may bid
            bid = min(b.tricks for b in rnd.legal_bids() if not b.is_nil)
        rnd.bid(bid)


def play_through(rules: Rules, rng: random.Random, averse: bool, visit: Callable[[Round], None]) -> Round:
    """Deal a seeded round, bid, and play random legal cards to the end, calling ``visit``
    before each card. ``averse`` players avoid trumps when they can (spades stay unbroken longer).
    """
    rnd = Round.deal(rules, seed=_deal_seed(rng))
    _bid_all(rnd, rng)
    is_trump = rules.is_trump
    while not rnd.is_over:
        visit(rnd)
        legal = rnd.legal_plays()
        pool: Sequence[Card] = legal
        if averse:
            side = [c for c in legal if not is_trump(c)]
            if side and coin_flip(rng, 0.9):
                pool = side
        rnd.play(pick_from(rng, pool))
    return rnd


def random_hands(rules: Rules, rng: random.Random) -> Iterator[tuple[Card, ...]]:
    """Hands from seeded deals, one seat after another (never ending)."""
    while True:
        _, dealt = deal_hands(rules, _deal_seed(rng))
        for seat in shuffled_copy(rng, tuple(Seat)):
            yield tuple(dealt[seat])


def far_apart(rng: random.Random, n: int, k: int, gap: int) -> list[int]:
    """``k`` sorted indices below ``n``, each at least ``gap`` after the one before."""
    room = n - (gap - 1) * (k - 1)
    if room < k:  # too few trumps to spread out: any k will do
        return sorted(sample(rng, range(n), k))
    base = sorted(sample(rng, range(room), k))
    return [b + (gap - 1) * i for i, b in enumerate(base)]
