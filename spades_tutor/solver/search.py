"""The double-dummy search: null-window alpha-beta over bitmask hands.

One ``Search`` answers threshold questions ("can the maximising team make the
counted seats take at least k of the remaining tricks?") for one objective:

- ``counted``: the seats whose tricks count (a team, or one nil bidder);
- ``maximiser``: the team that wants that count high.

Speed-ups: a transposition table at trick starts keyed on relative ranks (each
suit group as the sequence of owners of its remaining cards, high to low, so cards
equivalent once higher ones are gone give one key) holding proven bounds;
equivalent-card pruning (cards of one hand with no other hand's card between them,
nor the trick's winning card, are one move: the trick's other cards leave with it);
sure-trump and quick-trick cutoffs at trick starts (top cards the leader can cash,
and the partner's reached with a small card); move ordering (winners first unless
an opponent can ruff, low to partner's winner or ruff, second hand low, third hand
the cheapest card the last hand cannot beat, losers lowest by relative rank).
With ``plain=True`` all of them are off (for measuring).

The same search also runs compiled (``core.py``, with numba) when numba can be imported:
the same moves in the same order and the same cutoffs, so the same answers, and besides the same
table a partition table (an answer kept for every position that differs only in cards it did not
depend on), so fewer nodes. ``CORE``
chooses: "auto" (compiled if numba is there, else pure Python), "compiled" or "pure"; the
environment variable ``SPADES_TUTOR_SOLVER_CORE`` sets it at start. numba is imported when a
search first runs, never by ``import spades_tutor``.
"""

from __future__ import annotations

import os
import time
from types import ModuleType
from typing import Any

from .bits import Tables

__all__ = ["CORE", "OutOfBudget", "Search", "compiled_core", "core_in_use"]

CORE = os.environ.get("SPADES_TUTOR_SOLVER_CORE", "auto")

# a search with a time budget runs compiled in slices of nodes (the clock is read between them:
# each slice starts again from the root, the table keeping what the slices before proved)
FIRST_SLICE = 20_000
LARGEST_SLICE = 400_000


_core: ModuleType | None = None
_core_tried = False


def compiled_core() -> ModuleType | None:
    """The compiled search module, or None when numba cannot be imported (imported once)."""
    global _core, _core_tried
    if not _core_tried:
        _core_tried = True
        try:
            from . import core
        except ImportError:
            core = None  # type: ignore[assignment]
        _core = core
    return _core


def core_in_use(plain: bool = False) -> str:
    """'compiled' or 'pure': the core a new ``Search`` runs on with the current ``CORE``."""
    if plain or CORE == "pure":
        return "pure"
    if compiled_core() is None:
        if CORE == "compiled":
            raise RuntimeError("the compiled solver core needs numba, which cannot be imported")
        return "pure"
    return "compiled"


_TEAM = (0, 1, 0, 1)


class OutOfBudget(Exception):
    """The node or time budget of a call ran out before the answer was proven."""


class Search:
    def __init__(
        self,
        tables: Tables,
        counted: int,
        maximiser: int,
        *,
        plain: bool = False,
    ) -> None:
        self.t = tables
        self.counted = counted  # bitmask of seats 0..3
        self.maximiser = maximiser  # team 0 (N-S) or 1 (E-W)
        self.plain = plain
        self.tt: dict[tuple[int, ...], tuple[int, int, int]] = {}  # key -> (lower, upper, best lead)
        self.patterns: dict[int, int] = {}
        self.mask_of_bit = [tables.suit_mask[s] for s in tables.suit_of_bit]  # bit number -> its suit group
        self.nodes = 0
        self.node_limit = 1 << 62
        self.deadline = float("inf")
        # the quick-trick bound applies to a leader on the maximising team who is counted,
        # or a leader on the other team who is not counted (see _quick)
        self.quick_lower = [_TEAM[s] == maximiser and bool(counted >> s & 1) for s in range(4)]
        self.quick_upper = [_TEAM[s] != maximiser and not counted >> s & 1 for s in range(4)]
        # the partner's top cards count too when the partner is in the same case as the leader
        self.quick_partner = [
            (self.quick_lower[s] and self.quick_lower[(s + 2) & 3])
            or (self.quick_upper[s] and self.quick_upper[(s + 2) & 3])
            for s in range(4)
        ]
        self.core = core_in_use(plain)
        self._arrays: dict[str, Any] = {}
        if self.core == "compiled":
            try:
                self._tab = _packed(tables)
            except ValueError:  # a rule set whose suit groups do not fit the compiled keys
                self.core = "pure"

    # --- budget -------------------------------------------------------------------------

    def set_budget(self, nodes: int | None, seconds: float | None) -> None:
        self.node_limit = self.nodes + nodes if nodes is not None else 1 << 62
        self.deadline = time.perf_counter() + seconds if seconds is not None else float("inf")

    # --- the question -------------------------------------------------------------------

    def at_least(self, hands: list[int], leader: int, broken: bool, trick: list[int], target: int) -> bool:
        """Can the maximiser make the counted seats take >= ``target`` of the remaining tricks
        (the one in progress included)? Raises ``OutOfBudget``."""
        if self.core == "compiled":
            return self._compiled(hands, leader, broken, trick, target)
        return self._node(list(hands), leader, broken, list(trick), target)

    def _compiled(self, hands: list[int], leader: int, broken: bool, trick: list[int], target: int) -> bool:
        import numpy as np

        core = compiled_core()
        assert core is not None
        a = self._arrays
        if not a:
            left = max(h.bit_count() for h in hands)
            q = np.zeros(core.QUESTION_SIZE, dtype=np.int64)
            q[core.COUNTED] = self.counted
            q[core.MAXIMISER] = self.maximiser
            for s in range(4):
                q[core.QUICK_LOWER + s] = self.quick_lower[s]
                q[core.QUICK_UPPER + s] = self.quick_upper[s]
                q[core.QUICK_PARTNER + s] = self.quick_partner[s]
            a.update(
                tab=self._tab,
                q=q,
                stat=np.zeros(3, dtype=np.int64),
                # the exact table: 2**21 rows (64 MiB) for a full deal; the partition table's
                # buckets of shapes: 2**14 (about 11 MiB)
                xt=np.zeros((1 << min(21, 8 + left), 4), dtype=np.int64),
                tt=np.zeros((1 << min(14, 1 + left), core.ENTRIES + 1, core.ROW), dtype=np.int64),
            )
        stat = a["stat"]
        stat[core.NODES] = self.nodes
        slice_ = FIRST_SLICE
        while True:
            limit = self.node_limit
            timed = self.deadline != float("inf")
            if timed:
                limit = min(limit, self.nodes + slice_)
            stat[core.LIMIT] = limit
            held = np.array(hands, dtype=np.int64)
            played = np.zeros(4, dtype=np.int64)
            played[: len(trick)] = trick
            res = core.run(
                a["tab"], a["q"], stat, a["tt"], a["xt"], held, leader, bool(broken), played, len(trick), target,
            )  # fmt: skip
            self.nodes = int(stat[core.NODES])
            if not stat[core.ABORTED]:
                return bool(res)
            if self.nodes > self.node_limit or time.perf_counter() > self.deadline:
                raise OutOfBudget
            slice_ = min(2 * slice_, LARGEST_SLICE)

    def minimax(self, hands: list[int], leader: int, broken: bool, trick: list[int]) -> int:
        """The value itself by plain minimax over every legal card: no pruning, no table, no
        grouping (the ``brute_force`` path, for measuring what the speed-ups save)."""
        self.nodes += 1
        if self.nodes & 1023 == 0 and (self.nodes > self.node_limit or time.perf_counter() > self.deadline):
            raise OutOfBudget
        t = self.t
        n = len(trick)
        p = (leader + n) & 3
        if not hands[p]:
            return 0
        values = []
        for m in self._plain_moves(hands[p], trick, broken):
            hands[p] ^= m
            trick.append(m)
            nb = broken or bool(m & t.trump)
            if n == 3:
                w = (leader + t.winner(trick)) & 3
                values.append((self.counted >> w & 1) + self.minimax(hands, w, nb, []))
            else:
                values.append(self.minimax(hands, leader, nb, trick))
            trick.pop()
            hands[p] ^= m
        return max(values) if _TEAM[p] == self.maximiser else min(values)

    # --- the search ---------------------------------------------------------------------

    def _node(self, hands: list[int], leader: int, broken: bool, trick: list[int], target: int) -> bool:
        self.nodes += 1
        if self.nodes & 1023 == 0 and (self.nodes > self.node_limit or time.perf_counter() > self.deadline):
            raise OutOfBudget
        t = self.t
        n = len(trick)
        key: tuple[int, ...] | None = None
        hint = 0
        if n == 0:
            if target <= 0:
                return True
            left = hands[leader].bit_count()
            if target > left:
                return False
            if not self.plain:
                if left == 1:  # the last trick plays itself
                    last = [hands[(leader + i) & 3] for i in range(4)]
                    return bool(self.counted >> ((leader + t.winner(last)) & 3) & 1)
                key = self._key(hands, leader, broken)
                bounds = self.tt.get(key)
                if bounds is not None:
                    if bounds[0] >= target:
                        return True
                    if bounds[1] < target:
                        return False
                    hint = bounds[2]
                # sure trumps: a trump above every trump of the other group wins its trick
                counted = self.counted
                trump = t.trump
                cm = um = 0
                for s in range(4):
                    if counted >> s & 1:
                        cm |= hands[s] & trump
                    else:
                        um |= hands[s] & trump
                if um or cm:
                    sure_for = 0
                    above_u = ~((1 << um.bit_length()) - 1)
                    sure_against = 0
                    above_c = ~((1 << cm.bit_length()) - 1)
                    for s in range(4):
                        if counted >> s & 1:
                            k = (hands[s] & trump & above_u).bit_count()
                            if k > sure_for:
                                sure_for = k
                        else:
                            k = (hands[s] & trump & above_c).bit_count()
                            if k > sure_against:
                                sure_against = k
                    if sure_for >= target:
                        self._store(key, sure_for, left, 0)
                        return True
                    if left - sure_against < target:
                        self._store(key, 0, left - sure_against, 0)
                        return False
                if self.quick_lower[leader]:
                    q = self._quick(hands, leader, broken)
                    if q >= target:
                        self._store(key, q, left, 0)
                        return True
                elif self.quick_upper[leader]:
                    q = self._quick(hands, leader, broken)
                    if left - q < target:
                        self._store(key, 0, left - q, 0)
                        return False
        p = (leader + n) & 3
        maxer = _TEAM[p] == self.maximiser
        moves = self._plain_moves(hands[p], trick, broken) if self.plain else self._moves(hands, p, trick, broken)
        if hint and hint in moves and moves[0] != hint:
            moves.remove(hint)
            moves.insert(0, hint)
        trump = t.trump
        result = not maxer
        cut = 0
        for m in moves:
            hands[p] ^= m
            trick.append(m)
            nb = broken or bool(m & trump)
            if n == 3:
                w = (leader + t.winner(trick)) & 3
                need = target - (self.counted >> w & 1)
                if need <= 0:  # the child's first checks, without the call
                    self.nodes += 1
                    res = True
                elif need > hands[w].bit_count():
                    self.nodes += 1
                    res = False
                else:
                    res = self._node(hands, w, nb, [], need)
            else:
                res = self._node(hands, leader, nb, trick, target)
            trick.pop()
            hands[p] ^= m
            if res is maxer:
                result = maxer
                cut = m
                break
        if key is not None:
            if result:
                self._store(key, target, hands[leader].bit_count(), cut)
            else:
                self._store(key, 0, target - 1, cut)
        return result

    def _store(self, key: tuple[int, ...], lo: int, hi: int, best: int) -> None:
        old = self.tt.get(key)
        if old is not None:
            lo, hi = max(lo, old[0]), min(hi, old[1])
            best = best or old[2]
        self.tt[key] = (lo, hi, best)

    def _key(self, hands: list[int], leader: int, broken: bool) -> tuple[int, ...]:
        """The position at a trick start up to relative ranks: per suit group, the owners of its
        remaining cards from the highest down."""
        h0, h1, h2, h3 = hands
        pats = self.patterns
        key = [leader, broken or not ((h0 | h1 | h2 | h3) & self.t.trump)]
        for off, width in self.t.blocks:
            a = (h0 >> off) & width
            b = (h1 >> off) & width
            c = (h2 >> off) & width
            d = (h3 >> off) & width
            packed = a | b << 16 | c << 32 | d << 48
            pat = pats.get(packed)
            if pat is None:
                pat = 1
                bit = 1 << (width.bit_length() - 1)
                while bit:
                    if a & bit:
                        pat = pat << 2
                    elif b & bit:
                        pat = pat << 2 | 1
                    elif c & bit:
                        pat = pat << 2 | 2
                    elif d & bit:
                        pat = pat << 2 | 3
                    bit >>= 1
                pats[packed] = pat
            key.append(pat)
        return tuple(key)

    def _quick(self, hands: list[int], leader: int, broken: bool) -> int:
        """Tricks the leader's side can cash with top cards whatever the others do: the trumps on
        top of the remaining ones (if trumps may be led), then in each side suit the leader's top
        cards, each counted only while every other player who holds a trump still follows; last,
        when the partner's tricks count as the leader's, a small card led to the partner's top
        cards in one more side suit (counted while each opponent holding a trump follows)."""
        t = self.t
        h = hands[leader]
        others = [hands[(leader + i) & 3] for i in (1, 2, 3)]
        everyone = h | others[0] | others[1] | others[2]
        trump = t.trump
        total = 0
        if broken or not h & ~trump:
            rest = everyone & trump
            while rest:
                top = 1 << (rest.bit_length() - 1)
                if not h & top:
                    break
                total += 1
                rest ^= top
        ruffers = [o for o in others if o & trump]
        for s in range(3):
            sm = t.suit_mask[s]
            mine = h & sm
            if not mine:
                continue
            limit = 13
            for o in ruffers:
                k = (o & sm).bit_count()
                if k < limit:
                    limit = k
            if not limit:
                continue
            rest = everyone & sm
            q = 0
            while rest and q < limit:
                top = 1 << (rest.bit_length() - 1)
                if not mine & top:
                    break
                q += 1
                rest ^= top
            total += q
        if self.quick_partner[leader]:
            partner = hands[(leader + 2) & 3]
            foes = [o for o in (others[0], others[2]) if o & trump]
            best = 0
            for s in range(3):
                sm = t.suit_mask[s]
                theirs = partner & sm
                if not theirs or not h & sm:
                    continue
                rest = everyone & sm
                top = 1 << (rest.bit_length() - 1)
                if not theirs & top:
                    continue
                limit = 13
                for o in foes:
                    k = (o & sm).bit_count()
                    if k < limit:
                        limit = k
                q = 0
                while rest and q < limit:
                    top = 1 << (rest.bit_length() - 1)
                    if not theirs & top:
                        break
                    q += 1
                    rest ^= top
                if q > best:
                    best = q
            total += best
        return total

    def _plain_moves(self, hand: int, trick: list[int], broken: bool) -> list[int]:
        legal = self.t.legal(hand, trick[0] if trick else 0, broken)
        out = []
        while legal:
            low = legal & -legal
            out.append(low)
            legal ^= low
        return out

    def _moves(self, hands: list[int], p: int, trick: list[int], broken: bool) -> list[int]:
        """One card of each group of equivalent legal cards, best-looking first."""
        t = self.t
        h = hands[p]
        suit_of_bit = t.suit_of_bit
        mask_of_bit = self.mask_of_bit
        trump = t.trump
        held = hands[0] | hands[1] | hands[2] | hands[3]
        everyone = held
        win = 0
        n = len(trick)
        led_mask = 0
        if n:
            led_mask = mask_of_bit[trick[0].bit_length() - 1]
            legal = h & led_mask or h
            allowed = led_mask | trump
            for m in trick:
                everyone |= m
                if m & allowed and m > win:
                    win = m
        elif broken:
            legal = h
        else:
            legal = h & ~trump or h
        # group equivalent cards: walk from the top, skipping a card when no card of another
        # hand lies between it and the card above it in the same suit, nor the trick's winning
        # card (the trick's other cards leave with it, so they do not tell two cards apart)
        reps = []
        prev = 0
        prev_suit = -1
        foreign = (held & ~h) | win
        while legal:
            b = legal.bit_length() - 1
            bit = 1 << b
            legal ^= bit
            s = suit_of_bit[b]
            if s == prev_suit and not foreign & (prev - (bit << 1)):
                prev = bit
                continue
            reps.append(bit)
            prev = bit
            prev_suit = s
        if len(reps) == 1:
            return reps
        scored = []
        if not n:
            partner = hands[(p + 2) & 3]
            lho = hands[(p + 1) & 3]
            rho = hands[(p + 3) & 3]
            for bit in reps:
                b = bit.bit_length()
                sm = mask_of_bit[b - 1]
                rest = everyone & sm
                top = 1 << (rest.bit_length() - 1)
                ruffed = not sm & trump and ((not lho & sm and lho & trump) or (not rho & sm and rho & trump))
                if bit == top:
                    score = (150 if ruffed else 300) + b  # a winner: cash it
                elif partner & top and not ruffed:
                    score = 250 - b  # low to partner's winner
                elif not sm & trump and not partner & sm and partner & trump and not ruffed:
                    score = 240 - b  # partner ruffs
                elif rho & top:
                    score = 50 - b  # into the last hand's winner
                else:
                    score = 100 - b
                scored.append((score, bit))
        else:
            partner_winning = n - trick.index(win) == 2
            over = -1
            if n == 2:
                fourth = hands[(p + 1) & 3]
                over = fourth & led_mask or fourth & trump
            for bit in reps:
                b = bit.bit_length()
                if not (bit & allowed and bit > win):
                    # a card that loses: the lowest of its suit (relative rank) first
                    low = (everyone & mask_of_bit[b - 1] & (bit - 1)).bit_count()
                    score = (200 if partner_winning else 100) - low
                elif partner_winning:
                    score = 90 - b
                elif n == 1:
                    # second hand: win only with a card nobody can beat, else play low
                    score = (300 if (everyone & led_mask).bit_length() == b else 50) - b
                elif n == 2:
                    # third hand: the cheapest card the last hand cannot beat, else the cheapest winner
                    score = (250 if over < bit else 200) - b
                else:
                    score = 200 - b
                scored.append((score, bit))
        scored.sort(reverse=True)
        return [bit for _, bit in scored]


_PACKED: dict[int, Any] = {}


def _packed(t: Tables) -> Any:
    """The tables packed for the compiled core, once per rule set's ``Tables``."""
    got = _PACKED.get(id(t))
    if got is None or got[0] is not t:
        core = compiled_core()
        assert core is not None
        got = _PACKED[id(t)] = (t, core.pack(t))
    return got[1]
