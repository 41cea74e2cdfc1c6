"""The double-dummy search: null-window alpha-beta over bitmask hands, the only one there is.

``run`` answers one threshold question: can the maximising team make the counted seats take at
least ``target`` of the remaining tricks? The file runs compiled with numba, or as plain Python
where numba cannot be imported (``jit.py``: ``search.compiled_core`` and ``search.python_core``
load it each way); both runs make the same moves in the same order, so they give the same answers
after the same number of nodes.

Every rule comes from the engine: ``Tables`` (``bits.py``) derives the card bits, suit groups and
trump group from the rule set's own tables, ``pack`` copies them into one integer array, and
``legal`` and ``winner`` read it (the tests hold both to the engine's ``legal_plays`` and
``trick_winner`` in every preset).

Speed-ups: equivalent-card pruning (cards of one hand with no other hand's card between them, nor
the trick's winning card, are one move: the trick's other cards leave with it); sure-trump (one
hand's trumps above the other side's, or the two top trumps split between partners when one holds
another trump), LaterTricks (DDS's: a side that needs every trick left loses one to an opponent's
second trump guarded behind its top one, or to the second and third trumps both the opponents', or,
no trump left, when the suits whose top card it holds are too short to give it every trick) and
quick-trick cutoffs at trick starts (top cards the leader can cash, and the partner's reached with
a small card, or a small card the partner ruffs); inside a trick, the player holding the highest card
that can still take it takes it if they like (DDS's quick trick for the second hand, in every seat):
that settles a question that hangs on this one trick; a nil bidder shut out at a trick start (not on lead, no
trump, each of its cards below every card the others hold in its suit) takes no trick more; move ordering (winners first unless an opponent can ruff, low to partner's winner or
ruff, not into the last hand's top or second card, a suit an opponent ruffs last, second hand low, third hand the cheapest card the last hand cannot beat, losers lowest by
relative rank; a seat whose own tricks work against its side's aim, as a nil bidder and the
opponents breaking the nil, ducks: the highest card that does not take the trick, then the lowest
that does; the best card a table entry kept first, then, at a trick start, the lead that last
cut off at the same ply: a killer move); rank equivalence by the cards that
mattered (as DDS's winRanks): once a card failed that lies below the lowest card of its suit group
the answers so far depended on, the smaller cards of that group are not tried. What a search
proves at a trick start is kept twice:

- the exact table: the position up to relative ranks (each suit group as the sequence of owners
  of its remaining cards, high to low) -> its proven bounds, a fixed-size hash table (one row of
  five int64 per entry: the key's three words, then the bounds, the best card and the cards the
  lower bound rests on, then the cards the upper bound rests on: each bound keeps its own, so
  neither rests on the other's cards; a few probes, the first replaced when they are all taken);
- the partition table (Ginsberg's partition search, as bridge solvers use it): each answer also
  says which cards it depended on, and holds for every position with the same leader, the same
  suit lengths in every hand and the same owners of those cards, whoever holds the smaller ones.
  So an ending proven once answers the many endings that differ only in small cards.

Of the entries of either table that answer a question, the one resting on the fewest cards is
taken (the answer above it then rests on fewer cards too).

The cutoffs at a trick start (sure trumps, LaterTricks, quick tricks) are tried before the tables
(for a team's count; a nil's question asks the tables first) and are not kept in them: they are
found again at once, and kept, they pushed answers that took a search out of the tables.

``stat`` carries the node count and the node limit: when the limit is passed the search returns
at once, storing nothing, and ``stat[ABORTED]`` says so. ``brute.py``, a plain minimax on the
engine's own objects, is the referee of its answers.

Time per node: compiled, every function is ``njit_plain`` (no reference counting: none allocates;
``run``'s stacks are made once per ``Search``, ``stacks()``), and ``run`` hands its stacks down
whole with the row ``d`` of the ply, never a row as an array of its own (in numba each such array
is counted in and out of its owner, atomically). A count of bits is LLVM's ``ctpop``. What ``run``
reads at every node and never writes (the node limit, the question's words), the node count and the
fields of the frame being worked on are locals (the frame is written to ``frames`` when going down a
ply and read back on returning): numba cannot tell the search's arrays apart, so a value kept in one
is read again after every store to any of them.
"""

from __future__ import annotations

import numpy as np

from .bits import TRUMP_SUIT, Tables
from .jit import compiling, njit_plain

__all__ = ["ENTRIES", "ROW", "legal", "pack", "question", "run", "stacks", "winner"]

# --- the packed tables (one int64 array) ---------------------------------------------------
SUIT_OF_BIT = 0  # 64 entries: bit number -> suit group
MASK_OF_BIT = 64  # 64 entries: bit number -> the mask of its suit group
SUIT_MASK = 128  # 4 entries
TRUMP = 132
OFFSET = 133  # 4 entries: lowest bit of each group
WIDTH = 137  # 4 entries: the group's mask shifted down to bit 0
TRUMP_GROUP = 141
TABLE_SIZE = 142

# --- the question (one int64 array) --------------------------------------------------------
COUNTED = 0
MAXIMISER = 1
QUICK_LOWER = 2  # 4 entries
QUICK_UPPER = 6  # 4 entries
QUICK_PARTNER = 10  # 4 entries
TEAM_COUNT = 14  # 1 when the counted seats are a team (LaterTricks' bounds apply)
QUESTION_SIZE = 15

# --- the counters (one int64 array) --------------------------------------------------------
NODES = 0
LIMIT = 1
ABORTED = 2

PROBES = 8
MAX_PLIES = 56
MAX_MOVES = 16


def pack(t: Tables) -> np.ndarray:
    """The tables of ``Tables`` as one array for the compiled functions."""
    side = [s for s in range(4) if s != TRUMP_SUIT]
    if any(t.blocks[s][1].bit_length() > 13 for s in side) or t.blocks[TRUMP_SUIT][1].bit_length() > 30:
        raise ValueError(f"rule set {t.rules.name!r}: a suit group too long for the compiled keys")
    a = np.zeros(TABLE_SIZE, dtype=np.int64)
    for b, s in enumerate(t.suit_of_bit):
        a[SUIT_OF_BIT + b] = s
        a[MASK_OF_BIT + b] = t.suit_mask[s]
    for s in range(4):
        a[SUIT_MASK + s] = t.suit_mask[s]
        a[OFFSET + s] = t.blocks[s][0]
        a[WIDTH + s] = t.blocks[s][1]
    a[TRUMP] = t.trump
    a[TRUMP_GROUP] = TRUMP_SUIT
    return a


def question(counted: int, maximiser: int) -> np.ndarray:
    """The objective as one array: the counted seats (a mask), the maximising team, and where the
    quick-trick bound applies. It applies to a leader on the maximising team who is counted (a
    lower bound), or a leader on the other team who is not counted (an upper bound); the partner's
    top cards count too when the partner is in the same case as the leader."""
    team = (0, 1, 0, 1)
    lower = [team[s] == maximiser and bool(counted >> s & 1) for s in range(4)]
    upper = [team[s] != maximiser and not counted >> s & 1 for s in range(4)]
    q = np.zeros(QUESTION_SIZE, dtype=np.int64)
    q[COUNTED] = counted
    q[MAXIMISER] = maximiser
    for s in range(4):
        q[QUICK_LOWER + s] = lower[s]
        q[QUICK_UPPER + s] = upper[s]
        q[QUICK_PARTNER + s] = (lower[s] and lower[(s + 2) & 3]) or (upper[s] and upper[(s + 2) & 3])
    q[TEAM_COUNT] = counted in (0b0101, 0b1010)
    return q


if compiling():
    from numba.cpython.unsafe.numbers import leading_zeros
    from numba.extending import intrinsic

    @intrinsic
    def _ctpop(typingctx: object, src: object) -> object:
        """LLVM's ``ctpop``: one instruction (a loop over the bits set took a step, and a branch
        the processor mispredicts at its end, per call)."""

        def codegen(context: object, builder: object, signature: object, args: list[object]) -> object:
            return builder.ctpop(args[0])  # type: ignore[attr-defined]  # an llvmlite IRBuilder

        return src(src), codegen  # type: ignore[operator]  # a numba type, called to make a signature

    @njit_plain
    def _popcount(x: int) -> int:
        """``int.bit_count`` for 0 <= x < 2**63."""
        return _ctpop(x)  # type: ignore[call-arg]  # an LLVM intrinsic, typed by numba

    @njit_plain
    def _bitlen(x: int) -> int:
        """``int.bit_length`` for 0 <= x < 2**63."""
        return 64 - leading_zeros(x)  # type: ignore[call-arg]  # an LLVM intrinsic, typed by numba

else:

    def _popcount(x: int) -> int:
        """``int.bit_count`` for 0 <= x < 2**63."""
        return int(x).bit_count()

    def _bitlen(x: int) -> int:
        """``int.bit_length`` for 0 <= x < 2**63."""
        return int(x).bit_length()


@njit_plain
def legal(tab: np.ndarray, hand: int, lead: int, broken: bool) -> int:
    """The legal cards of ``hand``; ``lead`` the led card's bit, 0 when leading."""
    if lead:
        follow = hand & tab[MASK_OF_BIT + _bitlen(lead) - 1]
        return follow if follow else hand
    if broken:
        return hand
    rest = hand & ~tab[TRUMP]
    return rest if rest else hand


@njit_plain
def winner(tab: np.ndarray, trick: np.ndarray) -> int:
    """The index (0 = the lead) of the card that wins a trick of four bits."""
    return _winner(tab, trick[0], trick[1], trick[2], trick[3])


@njit_plain
def _winner(tab: np.ndarray, c0: int, c1: int, c2: int, c3: int) -> int:
    """``winner`` on the trick's four bits as values (the search passes no array row: in numba a
    row is a new array, counted in and out of its owner's reference count, atomically)."""
    allowed = tab[MASK_OF_BIT + _bitlen(c0) - 1] | tab[TRUMP]
    best = c0 if c0 & allowed else 0
    best_i = 0
    if c1 & allowed and c1 > best:
        best = c1
        best_i = 1
    if c2 & allowed and c2 > best:
        best = c2
        best_i = 2
    if c3 & allowed and c3 > best:
        best_i = 3
    return best_i


@njit_plain
def _won_by_rank(tab: np.ndarray, c0: int, c1: int, c2: int, c3: int, wi: int) -> int:
    """The winning card of a whole trick (its four bits; ``wi`` the winner's index) as a marker,
    when another card of its suit group was played to the trick (it won by rank); else 0: the only
    card of its group, any card of that group would have won (as DDS's winRanks)."""
    won = c0 if wi == 0 else (c1 if wi == 1 else (c2 if wi == 2 else c3))
    group = tab[MASK_OF_BIT + _bitlen(won) - 1]
    return won if (c0 | c1 | c2 | c3) & group != won else 0


@njit_plain
def _pattern(h0: int, h1: int, h2: int, h3: int, off: int, width: int) -> int:
    a = (h0 >> off) & width
    b = (h1 >> off) & width
    c = (h2 >> off) & width
    d = (h3 >> off) & width
    rest = a | b | c | d
    pat = 1
    while rest:
        i = _bitlen(rest) - 1
        rest ^= 1 << i
        # the owner of card i, without a branch (the hands hold no card in common): a 0, b 1, c 2, d 3
        pat = pat << 2 | ((b >> i) & 1) | ((c >> i) & 1) << 1 | ((d >> i) & 1) * 3
    return pat


# --- the transposition table: partition search ------------------------------------------------
# A bound proven at a trick start holds for every position that has the same leader, the same
# "broken" flag, the same suit lengths in every hand, and the same owners of the cards that
# mattered: in each suit group, the top r cards (relative ranks) for an r the search found
# (``relevance`` below). The table hashes the first three (the *shape*) to a bucket of ENTRIES
# entries; each entry keeps, per suit group, the owners of its top r cards, and the bounds.
# tt[b, 0] is the bucket's header: the shape's two words, then how many entries it holds, then the
# entry replaced last once it is full (a full bucket replaces its oldest entry);
# tt[b, 1 + e] an entry: four truncated owner patterns (one per suit group; the sentinel bit on
# top says r), then 1 | (lower + 64) << 1 | (upper + 64) << 9 | (best card's bit + 1) << 17.
ENTRIES = 16
ROW = 5
TAKEN = 1 << 62


@njit_plain
def _shape(tab: np.ndarray, hands: np.ndarray, leader: int, broken: bool, out: np.ndarray, d: int) -> None:
    """The shape of a trick start in two words (``out[d]``): suit lengths of every hand, leader,
    "broken"."""
    held = hands[0] | hands[1] | hands[2] | hands[3]
    brk = 1 if (broken or not (held & tab[TRUMP])) else 0
    w0 = TAKEN | leader << 40 | brk << 42
    w1 = TAKEN
    for h in range(4):
        for s in range(4):
            n = _popcount(hands[h] & tab[SUIT_MASK + s])
            if h < 2:
                w0 |= n << (20 * h + 5 * s)
            else:
                w1 |= n << (20 * (h - 2) + 5 * s)
    out[d, 0] = w0
    out[d, 1] = w1


@njit_plain
def _patterns(tab: np.ndarray, hands: np.ndarray, out: np.ndarray, d: int) -> None:
    """Per suit group, the owners of its remaining cards from the highest down (2 bits each,
    below a sentinel bit), in ``out[d]``."""
    for s in range(4):
        out[d, s] = _pattern(hands[0], hands[1], hands[2], hands[3], tab[OFFSET + s], tab[WIDTH + s])


# hashing on non-negative int64 words where no product reaches 2**63, so that the compiled and the
# Python run of this file agree bit for bit (numpy warns on a wrapping product; numba wraps silently)
PRIME = 2_147_483_647  # 2**31 - 1


@njit_plain
def _mix(h: int, word: int) -> int:
    """``h`` (below PRIME) folded with a word (0 <= word < 2**63), below PRIME again."""
    h = (h * 16_807 + (word & 0x7FFFFFFF)) % PRIME
    return (h * 48_271 + (word >> 31)) % PRIME


@njit_plain
def _home(h: int, mask: int) -> int:
    return (h ^ (h >> 13)) & mask


@njit_plain
def _bucket(tt: np.ndarray, k0: int, k1: int, make: bool) -> int:
    """The bucket of a shape (its two words), or -1 when it has none (with ``make``, one is taken: a free one
    near its home, else the one near its home holding the fewest entries, emptied)."""
    mask: int = tt.shape[0] - 1
    home = _home(_mix(_mix(0, k0), k1), mask)
    for i in range(PROBES):
        j = (home + i) & mask
        if tt[j, 0, 0] == k0 and tt[j, 0, 1] == k1:
            return j
        if not tt[j, 0, 0]:
            if not make:
                return -1
            tt[j, 0, 0] = k0
            tt[j, 0, 1] = k1
            tt[j, 0, 2] = 0
            return j
    if not make:
        return -1
    # every bucket near the home taken: the one holding fewest entries is emptied for this shape
    home_best = home
    fewest = ENTRIES + 1
    for i in range(PROBES):
        j = (home + i) & mask
        if tt[j, 0, 2] < fewest:
            fewest = tt[j, 0, 2]
            home_best = j
    home = home_best
    for e in range(ENTRIES + 1):
        for w in range(ROW):
            tt[home, e, w] = 0
    tt[home, 0, 0] = k0
    tt[home, 0, 1] = k1
    return home


@njit_plain
def _match_cards(
    tt: np.ndarray, b: int, e: int, p0: int, p1: int, p2: int, p3: int, n0: int, n1: int, n2: int, n3: int
) -> int:
    """Whether entry ``e`` of bucket ``b`` holds for the owner patterns ``p0..p3`` (``n0..n3`` their
    bit lengths, found once for every entry of the bucket): -1 when not, else how many cards it rests on."""
    t0 = _bitlen(tt[b, 1 + e, 0])
    if (p0 >> (n0 - t0)) != tt[b, 1 + e, 0]:
        return -1
    t1 = _bitlen(tt[b, 1 + e, 1])
    if (p1 >> (n1 - t1)) != tt[b, 1 + e, 1]:
        return -1
    t2 = _bitlen(tt[b, 1 + e, 2])
    if (p2 >> (n2 - t2)) != tt[b, 1 + e, 2]:
        return -1
    t3 = _bitlen(tt[b, 1 + e, 3])
    if (p3 >> (n3 - t3)) != tt[b, 1 + e, 3]:
        return -1
    # each pattern: a sentinel bit, then 2 bits a card
    return ((t0 - 1) >> 1) + ((t1 - 1) >> 1) + ((t2 - 1) >> 1) + ((t3 - 1) >> 1)


@njit_plain
def _markers(tab: np.ndarray, held: int, tt: np.ndarray, b: int, e: int) -> int:
    """An entry's relevance in this position: per suit group, its r-th highest card (the lowest
    of the cards that matter), as a mask."""
    depths = 0
    for s in range(4):
        depths |= ((_bitlen(tt[b, 1 + e, s]) - 1) >> 1) << (5 * s)
    return _depth_markers(tab, held, depths)


@njit_plain
def _truncated(pats: np.ndarray, d: int, depths: int, out: np.ndarray) -> None:
    """The owner patterns ``pats[d]`` cut to the cards that matter: in each suit group, its top r
    cards (``_depths``)."""
    for s in range(4):
        r = (depths >> (5 * s)) & 31
        n = (_bitlen(pats[d, s]) - 1) >> 1
        out[s] = pats[d, s] >> (2 * (n - r))


@njit_plain
def _exact_key(tab: np.ndarray, pats: np.ndarray, leader: int, brk: int, out: np.ndarray, d: int) -> None:
    """The whole position at a trick start up to relative ranks, in three words (``out[d]``): the
    owner patterns ``pats[d]`` of every suit group, the leader, "broken"."""
    trump_group = tab[TRUMP_GROUP]
    side = 0
    shift = 0
    for s in range(4):
        if s == trump_group:
            out[d, 2] = pats[d, s]
        elif shift < 54:
            side |= pats[d, s] << shift
            shift += 27
        else:
            out[d, 1] = pats[d, s]
    out[d, 0] = side | leader << 54 | brk << 56


@njit_plain
def _exact_slot(xt: np.ndarray, k0: int, k1: int, k2: int) -> int:
    """The exact table's slot holding the key of words ``k0, k1, k2``, or -1 - (a free or
    replaceable slot)."""
    mask: int = xt.shape[0] - 1
    home = _home(_mix(_mix(_mix(0, k0), k1), k2), mask)
    for i in range(PROBES):
        j = (home + i) & mask
        if not xt[j, 3]:
            return -1 - j
        if xt[j, 0] == k0 and xt[j, 1] == k1 and xt[j, 2] == k2:
            return j
    return -1 - home


@njit_plain
def _depths(tab: np.ndarray, held: int, rel: int) -> int:
    """Per suit group, how many of its top cards matter (down to the lowest marker of ``rel``),
    packed 5 bits each."""
    out = 0
    for s in range(4):
        sm = tab[SUIT_MASK + s]
        mk = rel & sm
        if mk:
            low = mk & -mk
            out |= _popcount(held & sm & ~(low - 1)) << (5 * s)
    return out


@njit_plain
def _depth_markers(tab: np.ndarray, held: int, depths: int) -> int:
    """``_depths`` back to markers in this position: per suit group, its r-th highest card."""
    out = 0
    for s in range(4):
        r = (depths >> (5 * s)) & 31
        if r:
            rest = held & tab[SUIT_MASK + s]
            bit = 0
            for _ in range(r):
                bit = 1 << (_bitlen(rest) - 1)
                rest ^= bit
            out |= bit
    return out


@njit_plain
def _exact_store(xt: np.ndarray, k0: int, k1: int, k2: int, lo: int, hi: int, best: int, d_lo: int, d_hi: int) -> None:
    """Keep the bounds ``lo..hi`` of a position (its key's words ``k0, k1, k2``), each with the cards it rests on (``d_lo``, ``d_hi``
    as ``_depths``): merged with the bounds kept before, each bound keeps its own."""
    j = _exact_slot(xt, k0, k1, k2)
    if j >= 0:
        old = xt[j, 3]
        if _lower(old) > lo or (_lower(old) == lo and _cards(old >> 30) < _cards(d_lo)):
            lo = _lower(old)
            d_lo = old >> 30
        if _upper(old) < hi or (_upper(old) == hi and _cards(xt[j, 4]) < _cards(d_hi)):
            hi = _upper(old)
            d_hi = xt[j, 4]
        if not best:
            best = _best(old)
    else:
        j = -1 - j
        xt[j, 0] = k0
        xt[j, 1] = k1
        xt[j, 2] = k2
    xt[j, 3] = 1 | (lo + 64) << 1 | (hi + 64) << 9 | _bitlen(best) << 17 | d_lo << 30
    xt[j, 4] = d_hi


@njit_plain
def _cards(depths: int) -> int:
    """How many cards a ``_depths`` value counts, in all suit groups."""
    n = 0
    for s in range(4):
        n += (depths >> (5 * s)) & 31
    return n


@njit_plain
def _lower(entry: int) -> int:
    return ((entry >> 1) & 255) - 64


@njit_plain
def _upper(entry: int) -> int:
    return ((entry >> 9) & 255) - 64


@njit_plain
def _best(entry: int) -> int:
    b = (entry >> 17) & 127
    return (1 << (b - 1)) if b else 0


@njit_plain
def _store(tt: np.ndarray, k0: int, k1: int, tp: np.ndarray, lo: int, hi: int, best: int) -> None:
    """Keep the bounds ``lo..hi`` for the positions of shape ``k0, k1`` matching ``tp``."""
    b = _bucket(tt, k0, k1, True)
    slot = -1
    for e in range(ENTRIES):
        if not tt[b, 1 + e, 4]:
            break
        if (
            tt[b, 1 + e, 0] == tp[0]
            and tt[b, 1 + e, 1] == tp[1]
            and tt[b, 1 + e, 2] == tp[2]
            and tt[b, 1 + e, 3] == tp[3]
        ):
            slot = e
            break
    if slot >= 0:
        old = tt[b, 1 + slot, 4]
        if _lower(old) > lo:
            lo = _lower(old)
        if _upper(old) < hi:
            hi = _upper(old)
        if not best:
            best = _best(old)
    else:
        slot = tt[b, 0, 2]
        if slot < ENTRIES:
            tt[b, 0, 2] = slot + 1
        else:  # the bucket is full: the oldest entry gives way
            tt[b, 0, 3] = (tt[b, 0, 3] + 1) % ENTRIES
            slot = tt[b, 0, 3]
        for s in range(4):
            tt[b, 1 + slot, s] = tp[s]
    tt[b, 1 + slot, 4] = 1 | (lo + 64) << 1 | (hi + 64) << 9 | _bitlen(best) << 17


@njit_plain
def _keep(
    tab: np.ndarray,
    tt: np.ndarray,
    xt: np.ndarray,
    key: np.ndarray,
    xkey: np.ndarray,
    pats: np.ndarray,
    d: int,
    held: int,
    rel: int,
    lo: int,
    hi: int,
    best: int,
    tp: np.ndarray,
) -> None:
    """Keep bounds proven at a trick start: in the exact table (this position, with how many cards
    of each suit group mattered), and, when some cards did not matter, in the partition table for
    every position that agrees on the ones that did. The keys are row ``d`` of ``key``, ``xkey``
    and ``pats``, as ``_probe`` wrote them."""
    depths = _depths(tab, held, rel)
    if lo > 0:  # a lower bound proven (the upper one is the tricks left)
        _exact_store(xt, xkey[d, 0], xkey[d, 1], xkey[d, 2], lo, hi, best, depths, 0)
    else:
        _exact_store(xt, xkey[d, 0], xkey[d, 1], xkey[d, 2], lo, hi, best, 0, depths)
    for s in range(4):
        if (depths >> (5 * s)) & 31 < _popcount(held & tab[SUIT_MASK + s]):
            _truncated(pats, d, depths, tp)
            _store(tt, key[d, 0], key[d, 1], tp, lo, hi, best)
            return


@njit_plain
def _probe(
    tab: np.ndarray,
    tt: np.ndarray,
    xt: np.ndarray,
    hands: np.ndarray,
    ld: int,
    brk: bool,
    tgt: int,
    k: np.ndarray,
    xk: np.ndarray,
    pats: np.ndarray,
    d: int,
) -> tuple[int, int, int]:
    """Ask the tables about a trick start (its keys written to row ``d`` of ``k``, ``xk``, ``pats``:
    rows, not row arrays, as numba counts each new array's references atomically): 1 or 0 when
    an entry answers (with the cards the answer rests on), -1 when none does; and the best card an
    entry kept (the hint: the exact table's first), if any. Of the entries that answer, in either
    table, the one resting on the fewest cards is taken: the answer then holds for more positions
    above (against the first one found, exact table first: 6% fewer nodes on bench/solver_nodes.py's
    full deals, classic, and 17% jokers)."""
    held = hands[0] | hands[1] | hands[2] | hands[3]
    _shape(tab, hands, ld, brk, k, d)
    _patterns(tab, hands, pats, d)
    _exact_key(tab, pats, ld, k[d, 0] >> 42 & 1, xk, d)
    hint = 0
    xhint = 0
    j = _exact_slot(xt, xk[d, 0], xk[d, 1], xk[d, 2])
    b = _bucket(tt, k[d, 0], k[d, 1], False)
    chosen = -1
    fewest = 1 << 20
    if b >= 0:
        p0 = pats[d, 0]
        p1 = pats[d, 1]
        p2 = pats[d, 2]
        p3 = pats[d, 3]
        n0 = _bitlen(p0)
        n1 = _bitlen(p1)
        n2 = _bitlen(p2)
        n3 = _bitlen(p3)
        for e in range(ENTRIES):
            entry = tt[b, 1 + e, 4]
            if not entry:
                break
            cards = _match_cards(tt, b, e, p0, p1, p2, p3, n0, n1, n2, n3)
            if cards < 0:
                continue
            if _lower(entry) >= tgt or _upper(entry) < tgt:
                if cards < fewest:
                    fewest = cards
                    chosen = e
            elif not hint:
                hint = _best(entry) & hands[ld]
    if j >= 0:
        entry = xt[j, 3]
        if _lower(entry) >= tgt or _upper(entry) < tgt:
            yes = _lower(entry) >= tgt
            depths = entry >> 30 if yes else xt[j, 4]
            if _cards(depths) < fewest:
                return (1 if yes else 0), _depth_markers(tab, held, depths), 0
        xhint = _best(entry) & hands[ld]
    if chosen >= 0:
        entry = tt[b, 1 + chosen, 4]
        return (1 if _lower(entry) >= tgt else 0), _markers(tab, held, tt, b, chosen), 0
    return -1, 0, xhint if xhint else hint


@njit_plain
def _quick(tab: np.ndarray, q: np.ndarray, hands: np.ndarray, leader: int, broken: bool, need: int) -> tuple[int, int]:
    """Tricks the leader's side can cash with top cards whatever the others do: the trumps on top
    of the remaining ones (if trumps may be led), then in each side suit the leader's top cards,
    each counted only while every other player who holds a trump still follows; last, when the
    partner's tricks count as the leader's, a small card led to the partner's top cards in one more
    side suit (counted while each opponent holding a trump follows), or one trick for a small card
    the partner ruffs (void in that suit with a trump left after the trumps cashed, each opponent
    following or without a trump). And the cards the count rests on: per suit group its lowest card
    counted (a cashed top card, or the partner's), so the count holds for every position with the
    same suit lengths and the same owners down to it. The card that stopped a run is not among them:
    held by the leader's side instead, it would only add to the count (against marking it too,
    bench/solver_nodes.py's full deals took 53% fewer nodes, classic, and 33% fewer jokers). The
    count stops once it reaches ``need``, the tricks that settle the question (2% fewer again)."""
    h = hands[leader]
    o0 = hands[(leader + 1) & 3]
    o1 = hands[(leader + 2) & 3]
    o2 = hands[(leader + 3) & 3]
    everyone = h | o0 | o1 | o2
    trump = tab[TRUMP]
    total = 0
    seen = 0
    drawn = 0
    if broken or not h & ~trump:
        rest = everyone & trump
        while rest:
            top = 1 << (_bitlen(rest) - 1)
            if not h & top:
                break
            seen |= top
            total += 1
            rest ^= top
            if total >= need:
                return total, seen
        drawn = total
    for s in range(4):
        if s == tab[TRUMP_GROUP]:
            continue
        sm = tab[SUIT_MASK + s]
        mine = h & sm
        if not mine:
            continue
        limit = 13
        for o in (o0, o1, o2):
            if o & trump:
                k = _popcount(o & sm)
                if k < limit:
                    limit = k
        if not limit:
            continue
        rest = everyone & sm
        n = 0
        while rest and n < limit:
            top = 1 << (_bitlen(rest) - 1)
            if not mine & top:
                break
            seen |= top
            n += 1
            rest ^= top
            if total + n >= need:
                return total + n, seen
        total += n
    if q[QUICK_PARTNER + leader]:
        partner = o1
        best = 0
        best_seen = 0
        for s in range(4):
            if s == tab[TRUMP_GROUP]:
                continue
            sm = tab[SUIT_MASK + s]
            theirs = partner & sm
            if not h & sm:
                continue
            if not theirs:
                # a small card led for the partner to ruff, both opponents following or trumpless
                if (
                    _popcount(partner & trump) > drawn
                    and (o0 & sm or not o0 & trump)
                    and (o2 & sm or not o2 & trump)
                    and best < 1
                ):
                    best = 1
                    best_seen = 0
                continue
            rest = everyone & sm
            top = 1 << (_bitlen(rest) - 1)
            if not theirs & top:
                continue
            limit = 13
            for o in (o0, o2):
                if o & trump:
                    k = _popcount(o & sm)
                    if k < limit:
                        limit = k
            n = 0
            run = 0
            while rest and n < limit and total + n < need:
                top = 1 << (_bitlen(rest) - 1)
                if not theirs & top:
                    break
                run |= top
                n += 1
                rest ^= top
            if n > best:
                best = n
                best_seen = run
        total += best
        seen |= best_seen
    return total, seen


@njit_plain
def _trump_tricks(mine: int, theirs: int, need: int) -> tuple[int, int]:
    """The tricks one hand's trumps ``mine`` take for its group against the other group's trumps
    ``theirs``, whatever anyone plays: the most, over i, of i less the number of ``theirs`` above
    its i-th highest trump (each of its trumps falls on a trick of its own, and each of theirs can
    beat at most one of them), or the first such count that reaches ``need``. With the marker the
    count rests on: that i-th trump (the owners of the trumps down to it), or 0 when the other group
    has no trump (then the lengths decide)."""
    best = 0
    mark = 0
    i = 0
    rest = mine
    while rest:
        top = 1 << (_bitlen(rest) - 1)
        rest ^= top
        i += 1
        c = i - _popcount(theirs & ~((top << 1) - 1))
        if c > best:
            best = c
            mark = top if theirs else 0
            if c >= need:
                break
    return best, mark


@njit_plain
def _owner(hands: np.ndarray, card: int) -> int:
    """The seat holding ``card``."""
    for s in range(4):
        if hands[s] & card:
            return s
    return -1


@njit_plain
def _later_tricks(tab: np.ndarray, hands: np.ndarray, ld: int) -> tuple[bool, int]:
    """At a trick start, whether the leader's side surely loses a trick (so cannot take them all),
    and the marker the fact rests on (DDS's LaterTricks, for every rule set: only the order of each
    suit group counts). When trumps are left, the top trump the leader's side's (were it an
    opponent's, that is a sure trump trick, found before) and the second an opponent's who holds
    another trump:

    - that opponent sits right after the top trump's holder (marker: the second trump). While the
      leader's side keeps the lead, it plays after the top trump to every trick: it wins any trick
      the top trump is not played to, and when the top trump comes, it plays another card (it still
      has one: a trump spent earlier would have won that trick, the second trump played instead);
    - or the third trump is an opponent's too (marker: the third trump): the top trump can take
      only one of the two, and a trick holding either without it goes to the opponents.

    When no trump is left, the leader's side takes tricks only in suit groups whose top card it
    holds (an opponent keeps a top card until its suit is led, and takes that trick), at most as
    many as the longer of its two hands there: when those add up to fewer than the tricks left, it
    loses one (marker: the opponents' top cards, each where another hand holds a card of its group)."""
    trump = tab[TRUMP]
    held = hands[0] | hands[1] | hands[2] | hands[3]
    side = ld & 1
    rest = held & trump
    if rest:
        t1 = 1 << (_bitlen(rest) - 1)
        if _owner(hands, t1) & 1 != side:
            return False, 0
        rest ^= t1
        if not rest:
            return False, 0
        t2 = 1 << (_bitlen(rest) - 1)
        h2 = _owner(hands, t2)
        if h2 & 1 == side or _popcount(hands[h2] & trump) < 2:
            return False, 0
        if _owner(hands, t1) == (h2 + 3) & 3:
            return True, t2
        rest ^= t2
        t3 = 1 << (_bitlen(rest) - 1)  # not 0: the holder of t2 has another trump
        if _owner(hands, t3) & 1 != side:
            return True, t3
        return False, 0
    left = _popcount(hands[ld])
    total = 0
    marks = 0
    for s in range(4):
        sm = tab[SUIT_MASK + s]
        cs = held & sm
        if not cs:
            continue
        top = 1 << (_bitlen(cs) - 1)
        o = _owner(hands, top)
        if o & 1 == side:
            a = _popcount(hands[o] & sm)
            b = _popcount(hands[o ^ 2] & sm)
            total += a if a > b else b
        elif cs != (hands[o] & sm):
            marks |= top
    if total < left:
        return True, marks
    return False, 0


@njit_plain
def _shut_out(tab: np.ndarray, hands: np.ndarray, seats: int, leader: int) -> tuple[bool, int]:
    """At a trick start, whether the ``seats`` (a mask) can take no trick whatever anyone plays: none
    of them is on lead nor holds a trump, and in every other suit group each of their cards lies below
    every card the other seats hold in it. Then a suit is only ever led by another seat, whose card
    beats every card of theirs in it, and void they discard (no trump to ruff with), so the lead never
    comes to them. With the markers the fact rests on: in each group both sides hold, the other
    seats' lowest card (the owners from the top down to it; below it, the lengths say the rest)."""
    if seats >> leader & 1:
        return False, 0
    mine = 0
    theirs = 0
    for s in range(4):
        if seats >> s & 1:
            mine |= hands[s]
        else:
            theirs |= hands[s]
    if mine & tab[TRUMP]:
        return False, 0
    mark = 0
    for g in range(4):
        if g == tab[TRUMP_GROUP]:
            continue
        m = mine & tab[SUIT_MASK + g]
        o = theirs & tab[SUIT_MASK + g]
        if m and o:
            low = o & -o
            if m > low:  # one of their cards lies above the others' lowest
                return False, 0
            mark |= low
    return True, mark


@njit_plain
def _sure_winner(tab: np.ndarray, hands: np.ndarray, leader: int, trick: np.ndarray, d: int, n: int) -> tuple[int, int]:
    """In a trick begun (``n`` of its cards down, in ``trick[d]``), the highest card that can still take it: the
    winning card so far, or the best card a player still to play may play to it (the top card of the
    suit led, or, void in it, the top trump): whatever the others do, its owner can take the trick.
    Returns its owner's seat, and the card as the marker the fact rests on, or 0 when no other card
    of its suit group can be played to the trick (then any card of that group would do: the suit
    lengths decide, as DDS's winRanks)."""
    led = tab[MASK_OF_BIT + _bitlen(trick[d, 0]) - 1]
    allowed = led | tab[TRUMP]
    best = 0
    who = leader
    cands = 0
    for i in range(n):
        m = trick[d, i]
        if m & allowed:
            cands |= m
            if m > best:
                best = m
                who = (leader + i) & 3
    for i in range(n, 4):
        seat = (leader + i) & 3
        h = hands[seat]
        mine = h & led
        if not mine:
            mine = h & tab[TRUMP]
        if mine:
            top = 1 << (_bitlen(mine) - 1)
            cands |= top
            if top > best:
                best = top
                who = seat
    rivals = cands & ~best & tab[MASK_OF_BIT + _bitlen(best) - 1]
    return who, best if rivals else 0


@njit_plain
def _moves(
    tab: np.ndarray,
    hands: np.ndarray,
    p: int,
    trick: np.ndarray,
    d: int,
    n: int,
    broken: bool,
    out: np.ndarray,
    scores: np.ndarray,
    lows: np.ndarray,
    duck: bool,
) -> int:
    """One card of each group of equivalent legal cards, best-looking first (for a player who
    would rather not take the trick with ``duck``), written to ``out[d]`` (the group's highest card)
    with the group's lowest card in ``lows[d]``; returns how many. ``trick[d]`` holds the trick's
    ``n`` cards so far."""
    h = hands[p]
    trump = tab[TRUMP]
    held = hands[0] | hands[1] | hands[2] | hands[3]
    everyone = held
    win = 0
    led_mask = 0
    allowed = 0
    legal_cards = legal(tab, h, trick[d, 0] if n else 0, broken)
    if n:
        led_mask = tab[MASK_OF_BIT + _bitlen(trick[d, 0]) - 1]
        allowed = led_mask | trump
        for i in range(n):
            m = trick[d, i]
            everyone |= m
            if m & allowed and m > win:
                win = m
    count = 0
    prev = 0
    prev_suit = -1
    foreign = (held & ~h) | win
    while legal_cards:
        b = _bitlen(legal_cards) - 1
        bit = 1 << b
        legal_cards ^= bit
        s = tab[SUIT_OF_BIT + b]
        if s == prev_suit and not foreign & (prev - (bit << 1)):
            prev = bit
            lows[d, count - 1] = bit
            continue
        out[d, count] = bit
        lows[d, count] = bit
        count += 1
        prev = bit
        prev_suit = s
    if count == 1:
        return 1
    if duck:  # a player who would rather not take the trick: the highest card that does not win it,
        # then the lowest that does (leading: the lowest by relative rank)
        for i in range(count):
            bit = out[d, i]
            b = _bitlen(bit)
            low = _popcount(everyone & tab[MASK_OF_BIT + b - 1] & (bit - 1))
            if n and not (bit & allowed and bit > win):
                scores[d, i] = 200 + low
            else:
                scores[d, i] = 100 - low
    elif not n:
        partner = hands[(p + 2) & 3]
        lho = hands[(p + 1) & 3]
        rho = hands[(p + 3) & 3]
        for i in range(count):
            bit = out[d, i]
            b = _bitlen(bit)
            sm = tab[MASK_OF_BIT + b - 1]
            rest = everyone & sm
            top = 1 << (_bitlen(rest) - 1)
            ruffed = (not sm & trump) and (
                ((not lho & sm) and (lho & trump) != 0) or ((not rho & sm) and (rho & trump) != 0)
            )
            if bit == top:
                # a suit an opponent ruffs is led last, its top card first
                score = (-60 if ruffed else (270 if sm & trump else 300)) + b
            elif ruffed:
                score = -60 - b
            elif partner & top:
                score = 250 - b
            elif (not sm & trump) and (not partner & sm) and (partner & trump):
                score = 240 - b
            elif rho & top or (rho & (1 << (_bitlen(rest ^ top) - 1)) and _popcount(rho & sm) > 1):
                score = 50 - b  # into the last hand's top card, or its second one not alone
            elif lho & top and partner & (1 << (_bitlen(rest ^ top) - 1)):
                score = 200 - b  # through the second hand's winner to partner's next card
            else:
                score = 100 - b
            scores[d, i] = score
    else:
        w = 0
        for i in range(n):
            if trick[d, i] == win:
                w = i
        partner_winning = n - w == 2
        over = -1
        if n == 2:
            fourth = hands[(p + 1) & 3]
            over = fourth & led_mask
            if not over:
                over = fourth & trump
        for i in range(count):
            bit = out[d, i]
            b = _bitlen(bit)
            if not (bit & allowed and bit > win):
                low = _popcount(everyone & tab[MASK_OF_BIT + b - 1] & (bit - 1))
                score = (200 if partner_winning else 100) - low
            elif partner_winning:
                # third hand over partner's card only when the last hand would beat it, and not this one
                score = (260 if n == 2 and over > win and over < bit else 90) - b
            elif n == 1:
                if bit & trump and not led_mask & trump:
                    score = 250 - b  # second hand void: ruff, low
                else:
                    score = (300 if _bitlen(everyone & led_mask) == b else 50) - b
            elif n == 2:
                score = (250 if over < bit else 200) - b
            else:
                score = 200 - b
            scores[d, i] = score
    # sort by (score, bit), highest first
    for i in range(1, count):
        sc = scores[d, i]
        bt = out[d, i]
        lw = lows[d, i]
        j = i - 1
        while j >= 0 and (scores[d, j] < sc or (scores[d, j] == sc and out[d, j] < bt)):
            scores[d, j + 1] = scores[d, j]
            out[d, j + 1] = out[d, j]
            lows[d, j + 1] = lows[d, j]
            j -= 1
        scores[d, j + 1] = sc
        out[d, j + 1] = bt
        lows[d, j + 1] = lw
    return count


@njit_plain
def _promote(mv: np.ndarray, lw: np.ndarray, d: int, at: int, count: int, card: int, exact: bool) -> bool:
    """Move the move standing for ``card`` (its group's top card when ``exact``, else any card of
    its group) to place ``at`` of row ``d``, the moves between moving down one; whether it was found."""
    for i in range(at, count):
        if mv[d, i] == card if exact else lw[d, i] <= card <= mv[d, i]:
            top = mv[d, i]
            low = lw[d, i]
            for j in range(i, at, -1):
                mv[d, j] = mv[d, j - 1]
                lw[d, j] = lw[d, j - 1]
            mv[d, at] = top
            lw[d, at] = low
            return True
    return False


# the frame of one node, one row per ply below the root
F_LEADER = 0
F_BROKEN = 1
F_N = 2
F_TARGET = 3
F_COUNT = 4  # moves to try
F_I = 5  # the move being tried
F_RESULT = 6  # unused: the node's result and cutting move are run's locals (a frame goes down only before a cutoff)
F_CUT = 7  # unused, as F_RESULT
F_KEYED = 8
F_MAXER = 9
F_P = 10
F_REL = 11  # the cards that mattered below this node (the union over the moves tried so far)
F_WON = 12  # the card that won by rank the trick the move being tried completed (0: none)
F_FIXED = 13  # the suit groups (a bit each) where a card below the lowest one that mattered failed
F_BELOW = 14  # the cards below that lowest card, in those groups: not tried
FRAME = 15

_ENTER, _NEXT, _RETURN, _CHILD_DONE = 0, 1, 2, 3


def stacks() -> tuple[np.ndarray, ...]:
    """The arrays ``run`` works in (one row per ply): the moves, their scores and their groups'
    lowest cards, the table keys (shape, exact key, owner patterns, a truncated pattern), the
    tricks, the frames and the killer moves. Made once per ``Search``, not per ``run``."""
    return (
        np.zeros((MAX_PLIES, MAX_MOVES), dtype=np.int64),
        np.zeros((MAX_PLIES, MAX_MOVES), dtype=np.int64),
        np.zeros((MAX_PLIES, MAX_MOVES), dtype=np.int64),
        np.zeros((MAX_PLIES, 2), dtype=np.int64),
        np.zeros((MAX_PLIES, 3), dtype=np.int64),
        np.zeros((MAX_PLIES, 4), dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        np.zeros((MAX_PLIES, 4), dtype=np.int64),
        np.zeros((MAX_PLIES, FRAME), dtype=np.int64),
        np.zeros(MAX_PLIES, dtype=np.int64),
    )


@njit_plain
def run(
    tab: np.ndarray,
    q: np.ndarray,
    stat: np.ndarray,
    tt: np.ndarray,
    xt: np.ndarray,
    hands: np.ndarray,
    leader: int,
    broken: bool,
    trick: np.ndarray,
    n: int,
    target: int,
    work: tuple[np.ndarray, ...],
) -> bool:
    """Can the maximiser make the counted seats take >= ``target``
    of the remaining tricks? ``hands`` (four masks) is used as scratch; ``trick`` holds the ``n``
    cards played so far; ``work`` is the search's stacks (``stacks()``), made once per ``Search``.
    When ``stat[ABORTED]`` is set on return, the answer means nothing.

    The recursion as a loop over a stack of frames (one per ply), with the
    partition search's bookkeeping: every answer comes with the cards it depended on (``rel``, a
    mask of "markers": in each suit group, the answer holds whatever the owners of the cards
    below the lowest marker, as long as the suit lengths stay). A trick's winning card is a
    marker when another card of its suit group was played to the trick (it won by rank); a cutoff keeps the cutting move's markers; a node where every move failed keeps the
    union of its moves' markers, and when a move stood for a group of equivalent cards whose top
    card is at or above a marker, the group's lowest card is marked too (so the group stays the
    same hand's in every position the answer is kept for)."""
    moves, scores, lows, keybuf, xkeybuf, patbuf, tpbuf, tricks, frames, killers = work
    # every row is written before it is read, but the killers and the root's trick: those start empty
    for i in range(MAX_PLIES):
        killers[i] = 0
    for i in range(4):
        tricks[0, i] = trick[i] if i < n else 0
    stat[ABORTED] = 0
    # the node count, the limit and the question's words as locals: kept in memory, each was read
    # again after every store to any of the search's arrays (numba cannot tell they do not overlap)
    nodes = stat[NODES]
    limit = stat[LIMIT]
    team_count = q[TEAM_COUNT] != 0
    maximiser = q[MAXIMISER]
    counted = q[COUNTED]
    trump = tab[TRUMP]
    d = 0
    # the frame being worked on, in locals (written to frames[d] when going down a ply, read back
    # on returning): kept in memory, every field was read again after every store to any array
    ld = leader
    brk = broken
    nn = n
    tgt = target
    p = 0
    maxer = False
    count = 0
    i = 0
    f_rel = 0
    won = 0
    result = False
    cut = 0
    keyed = False
    fixed = 0
    below = 0
    phase = _ENTER
    ret = False
    ret_rel = 0
    res = False
    res_rel = 0
    while True:
        if phase == _ENTER:
            nodes += 1
            if nodes > limit:
                stat[NODES] = nodes
                stat[ABORTED] = 1
                return False
            keyed = False
            hint = 0
            phase = _RETURN
            ret_rel = 0
            if nn == 0:
                if tgt <= 0:
                    ret = True
                    continue
                left = _popcount(hands[ld])
                if tgt > left:
                    ret = False
                    continue
                if left == 1:  # the last trick plays itself
                    c0 = hands[ld]
                    c1 = hands[(ld + 1) & 3]
                    c2 = hands[(ld + 2) & 3]
                    c3 = hands[(ld + 3) & 3]
                    wi = _winner(tab, c0, c1, c2, c3)
                    ret = (counted >> ((ld + wi) & 3) & 1) != 0
                    ret_rel = _won_by_rank(tab, c0, c1, c2, c3, wi)
                    continue
                # a nil's question asks the tables first (its cutoffs below answer on no fewer cards)
                tables_first = not team_count
                if tables_first:
                    keyed = True
                    found, ret_rel, hint = _probe(tab, tt, xt, hands, ld, brk, tgt, keybuf, xkeybuf, patbuf, d)
                    if found >= 0:
                        ret = found == 1
                        continue
                # the cutoffs below come before the tables are asked, and are not kept in them: they
                # are found again at once, and kept, they pushed answers that took a search out of
                # the tables (bench/solver_nodes.py's full deals: 7% fewer nodes, classic; 4% jokers);
                # asked first, they answer on fewer cards than a table entry often does (4-5% more)
                # sure trumps: one hand's top i trumps, of which the other group's trumps can beat at
                # most the a_i above the i-th, win i - a_i tricks for its group whatever is played
                cm = 0
                um = 0
                for s in range(4):
                    if counted >> s & 1:
                        cm |= hands[s] & trump
                    else:
                        um |= hands[s] & trump
                if um or cm:
                    sure_for = 0
                    mark_for = 0
                    sure_against = 0
                    mark_against = 0
                    need_against = left - tgt + 1  # the other group's tricks that keep the count short
                    for s in range(4):
                        if counted >> s & 1:
                            c, mk = _trump_tricks(hands[s] & trump, um, tgt)
                            if c > sure_for:
                                sure_for = c
                                mark_for = mk
                        else:
                            c, mk = _trump_tricks(hands[s] & trump, cm, need_against)
                            if c > sure_against:
                                sure_against = c
                                mark_against = mk
                    # the two top trumps in partners' hands, one of them with a trump to spare: two
                    # tricks (they need not fall together), where the two play for the same count
                    second = 0
                    t1 = 1 << (_bitlen(um | cm) - 1)
                    rest_t = (um | cm) ^ t1
                    if rest_t:
                        t2 = 1 << (_bitlen(rest_t) - 1)
                        h1 = 0
                        h2 = 0
                        for s in range(4):
                            if hands[s] & t1:
                                h1 = s
                            if hands[s] & t2:
                                h2 = s
                        if (
                            h1 ^ h2 == 2
                            and q[QUICK_PARTNER + h1]
                            and (_popcount(hands[h1] & trump) > 1 or _popcount(hands[h2] & trump) > 1)
                        ):
                            second = t2
                            if counted >> h1 & 1:
                                if sure_for < tgt <= 2:
                                    sure_for = 2
                                    mark_for = second
                            elif sure_against < need_against <= 2:
                                sure_against = 2
                                mark_against = second
                    if sure_for >= tgt:
                        ret_rel = mark_for
                        ret = True
                        continue
                    if left - sure_against < tgt:
                        ret_rel = mark_against
                        ret = False
                        continue
                # a nil bidder who can take no trick whatever is played (left with small cards; tgt >= 1
                # here): for a team's count the same test paid nothing (+0.5% nodes on full deals)
                if not team_count:
                    shut, mark = _shut_out(tab, hands, counted, ld)
                    if shut:
                        ret_rel = mark
                        ret = False
                        continue
                # the leading team needs every trick left, and surely loses one (DDS's LaterTricks)
                c_leads = counted >> ld & 1
                if team_count and ((c_leads and tgt == left) or (not c_leads and tgt == 1)):
                    lost, guard = _later_tricks(tab, hands, ld)
                    if lost:
                        ret_rel = guard
                        ret = not c_leads
                        continue
                if q[QUICK_LOWER + ld]:
                    qt, seen = _quick(tab, q, hands, ld, brk, tgt)
                    if qt >= tgt:
                        ret_rel = seen
                        ret = True
                        continue
                elif q[QUICK_UPPER + ld]:
                    qt, seen = _quick(tab, q, hands, ld, brk, left - tgt + 1)
                    if left - qt < tgt:
                        ret_rel = seen
                        ret = False
                        continue
                if not tables_first:
                    keyed = True
                    found, ret_rel, hint = _probe(tab, tt, xt, hands, ld, brk, tgt, keybuf, xkeybuf, patbuf, d)
                    if found >= 0:
                        ret = found == 1
                        continue
            p = (ld + nn) & 3
            if nn:
                # the player who can take this trick whatever the others do, where that settles the question
                owner, marker = _sure_winner(tab, hands, ld, tricks, d, nn)
                if q[QUICK_LOWER + owner] and tgt <= 1:
                    ret = True
                    ret_rel = marker
                    continue
                if q[QUICK_UPPER + owner] and tgt >= _popcount(hands[p]):
                    ret = False
                    ret_rel = marker
                    continue
            maxer = (p & 1) == maximiser
            # a seat whose own tricks work against its side's aim ducks: a nil bidder, and its opponents
            duck = (counted >> p & 1 != 0) != maxer
            count = _moves(tab, hands, p, tricks, d, nn, brk, moves, scores, lows, duck)
            first = 0
            if hint and _promote(moves, lows, d, 0, count, hint, True):
                first = 1
            if nn == 0 and killers[d] & hands[p]:  # the lead that cut off last at this ply next
                _promote(moves, lows, d, first, count, killers[d], False)
            result = not maxer
            cut = 0
            i = 0
            f_rel = 0
            won = 0
            # what a return to this frame reads back; the rest is written when going down
            frames[d, F_LEADER] = ld
            frames[d, F_BROKEN] = 1 if brk else 0
            frames[d, F_N] = nn
            frames[d, F_TARGET] = tgt
            frames[d, F_KEYED] = 1 if keyed else 0
            frames[d, F_P] = p
            frames[d, F_MAXER] = 1 if maxer else 0
            frames[d, F_COUNT] = count
            fixed = 0
            below = 0
            phase = _NEXT
        elif phase == _NEXT:
            if i >= count:  # every move tried, or a cutoff: the node's result stands
                ret = result
                rel = f_rel
                if not cut:
                    # every move failed: a group of equivalent cards reaching a marker stays whole
                    for j in range(count):
                        top = moves[d, j]
                        low = lows[d, j]
                        if low != top and rel & tab[MASK_OF_BIT + _bitlen(top) - 1] & ((top << 1) - 1):
                            rel |= low
                ret_rel = rel
                if keyed:
                    held = hands[0] | hands[1] | hands[2] | hands[3]
                    if ret:
                        lo, hi = tgt, _popcount(hands[ld])
                    else:
                        lo, hi = 0, tgt - 1
                    _keep(tab, tt, xt, keybuf, xkeybuf, patbuf, d, held, rel, lo, hi, cut, tpbuf)
                phase = _RETURN
                continue
            m = moves[d, i]
            hands[p] ^= m
            tricks[d, nn] = m
            won = 0
            nb = brk or (m & trump) != 0
            if nn == 3:
                c0 = tricks[d, 0]
                c1 = tricks[d, 1]
                c2 = tricks[d, 2]
                wi = _winner(tab, c0, c1, c2, m)
                w = (ld + wi) & 3
                won = _won_by_rank(tab, c0, c1, c2, m, wi)
                need = tgt - (counted >> w & 1)
                if need <= 0:  # the child's first checks, without the call
                    nodes += 1
                    res = True
                    res_rel = 0
                    phase = _CHILD_DONE
                    continue
                if need > _popcount(hands[w]):
                    nodes += 1
                    res = False
                    res_rel = 0
                    phase = _CHILD_DONE
                    continue
                for c4 in range(4):
                    tricks[d + 1, c4] = 0
                # going down: what changed in this frame since it was entered, then the child's
                frames[d, F_I] = i
                frames[d, F_REL] = f_rel
                frames[d, F_WON] = won
                frames[d, F_FIXED] = fixed
                frames[d, F_BELOW] = below
                ld = w
                nn = 0
                tgt = need
            else:
                for c4 in range(4):
                    tricks[d + 1, c4] = tricks[d, c4]
                frames[d, F_I] = i
                frames[d, F_REL] = f_rel
                frames[d, F_WON] = won
                frames[d, F_FIXED] = fixed
                frames[d, F_BELOW] = below
                nn += 1
            brk = nb
            d += 1
            phase = _ENTER
        elif phase == _RETURN:
            if d == 0:
                stat[NODES] = nodes
                return ret
            d -= 1
            ld = frames[d, F_LEADER]
            brk = frames[d, F_BROKEN] != 0
            nn = frames[d, F_N]
            tgt = frames[d, F_TARGET]
            keyed = frames[d, F_KEYED] != 0
            p = frames[d, F_P]
            maxer = frames[d, F_MAXER] != 0
            count = frames[d, F_COUNT]
            i = frames[d, F_I]
            f_rel = frames[d, F_REL]
            won = frames[d, F_WON]
            fixed = frames[d, F_FIXED]
            below = frames[d, F_BELOW]
            result = not maxer  # a frame goes down only while no move has cut off
            cut = 0
            res = ret
            res_rel = ret_rel
            phase = _CHILD_DONE
        else:  # _CHILD_DONE: take the move back, then cut off or go on
            m = moves[d, i]
            hands[p] ^= m
            tricks[d, nn] = 0
            child_rel = res_rel | won  # who won the trick this move completed counts
            if res == maxer:
                result = maxer
                cut = m
                killers[d] = m
                f_rel = child_rel
                i = count  # no more moves: the node finishes in _NEXT
            else:
                rel = f_rel | child_rel
                f_rel = rel
                # rank equivalence by the cards that mattered: a card of this suit group below the
                # lowest one that mattered so far failed, so every smaller one left fails too
                ms = tab[SUIT_OF_BIT + _bitlen(m) - 1]
                if not fixed >> ms & 1:
                    sm = tab[SUIT_MASK + ms]
                    mk = rel & sm
                    lw = (mk & -mk) if mk else TAKEN
                    if m < lw:
                        fixed |= 1 << ms
                        below |= sm & (lw - 1)
                i += 1
                while i < count and moves[d, i] & below:
                    i += 1
            phase = _NEXT
