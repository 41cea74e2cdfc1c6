"""``HeuristicBot()``'s card play for every round of a table, one round at a time, compiled.

``choose`` is ``HeuristicPolicy.play``: for each round it reads the position as the bot would
(its hand, the cards still out, the bids and tricks, the suits each seat has shown out of, the
trick so far) and applies the rules of ``bots/playing.py`` in their order. It is written once,
as scalar code over int64 masks of the simulator's display bits (every mask fits in 52 bits),
and compiled with numba where numba is there (``solver.jit.njit``, kept on disk); where it is
not, the same source runs as Python. The rule set reaches it only as tables
(``heuristic._htables`` and ``card_tables``): the bot's power of each card, the same-suit cards
above and below it, the cards that beat it for each suit led, the suit each card counts as.

The bot's tie-breaks: "the cheapest card" is the least power, then the shorter suit in hand,
then display order; "the highest" is the most power, then display order.
"""

from __future__ import annotations

import numpy as np

from ..solver.jit import compiling, njit

__all__ = ["choose", "warm"]

_SPADES = 3
_ALL = -1  # every bit set
_NONE = -1  # no card


@njit
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


if compiling():
    from numba.cpython.unsafe.numbers import trailing_zeros

    @njit
    def _low_bit(x: int) -> int:
        """The index of the lowest set bit of x != 0."""
        return trailing_zeros(x)  # type: ignore[call-arg]  # an LLVM intrinsic, typed by numba

else:

    def _low_bit(x: int) -> int:
        """The index of the lowest set bit of x != 0."""
        return int(x & -x).bit_length() - 1


@njit
def _lowest(mask: int, lengths: np.ndarray, power: np.ndarray, suit: np.ndarray) -> int:
    """The cheapest card of ``mask``: least power, then the shorter suit in hand, then display order."""
    best = _NONE
    best_key = 1 << 40
    while mask:
        b = _low_bit(mask)
        mask &= mask - 1
        key = (power[b] * 16 + lengths[suit[b]]) * 64 + b
        if key < best_key:
            best_key = key
            best = b
    return best


@njit
def _highest(mask: int, power: np.ndarray) -> int:
    """The highest card of ``mask``: most power, then display order."""
    best = _NONE
    best_key = 1 << 40
    while mask:
        b = _low_bit(mask)
        mask &= mask - 1
        key = (1024 - power[b]) * 64 + b
        if key < best_key:
            best_key = key
            best = b
    return best


@njit
def _bit(b: int) -> int:
    return 1 << b if b >= 0 else 0


@njit
def _nil_lead(
    legal: int,
    out: int,
    master: int,
    nil_left: bool,
    nil_right: bool,
    voids_left: int,
    voids_right: int,
    lengths: np.ndarray,
    power: np.ndarray,
    lower: np.ndarray,
    suit: np.ndarray,
    suit_mask: np.ndarray,
) -> tuple[int, int]:
    """``_Choice.lead_against_nil``: per suit an opponent's nil has not shown out of, the lowest
    legal card unless it is a master; of those, the fewest cards out below it, then least power,
    then the shorter suit, then the lower suit number (-1: none); and ``lead_low_against_nil``'s
    card, the lowest legal card of a suit an opponent's nil has not shown out of (-1: none)."""
    best = _NONE
    best_key = 1 << 40
    open_cards = 0
    for s in range(4):
        held = legal & suit_mask[s]
        open_s = (nil_left and (voids_left >> s) & 1 == 0) or (nil_right and (voids_right >> s) & 1 == 0)
        if not open_s or held == 0:
            continue
        open_cards |= held
        card = _lowest(held, lengths, power, suit)
        if (1 << card) & master:
            continue
        key = (_popcount(lower[card] & out) * 256 + power[card]) * 16 + lengths[s]
        if key < best_key:
            best = card
            best_key = key
    return best, _lowest(open_cards, lengths, power, suit)


@njit
def _lead(
    legal: int,
    me: int,
    voids: np.ndarray,
    master: int,
    out_trumps: int,
    my_nil: bool,
    partner_nil: bool,
    setting: int,
    made: bool,
    lengths: np.ndarray,
    power: np.ndarray,
    suit: np.ndarray,
    suit_mask: np.ndarray,
) -> int:
    spade = suit_mask[_SPADES]
    trumps = legal & spade
    side = legal & ~spade
    if my_nil:
        return _lowest(legal, lengths, power, suit)
    if partner_nil:
        return _highest(legal, power)
    if setting >= 0:
        return setting
    if made:
        return _lowest(legal, lengths, power, suit)
    top = _highest(trumps, power)
    top_master = trumps != 0 and (_bit(top) & master) != 0
    if top_master and out_trumps >= 2 and side != 0:  # pull trumps
        return top
    opp = voids[(me + 1) & 3] | voids[(me + 3) & 3]
    blocked = 0
    if out_trumps > 0:
        for s in range(3):
            if (opp >> s) & 1:
                blocked |= suit_mask[s]
    masters = side & master & ~blocked
    if masters != 0:
        return _highest(masters, power)
    if side != 0:  # the lowest card of the longest side suit (ties: the lowest suit number)
        longest = 0
        best_len = -1
        for s in range(4):
            if (side & suit_mask[s]) != 0 and lengths[s] > best_len:
                longest = s
                best_len = lengths[s]
        return _lowest(side & suit_mask[longest], lengths, power, suit)
    if top_master:
        return top
    return _lowest(trumps, lengths, power, suit)


@njit
def _follow(
    legal: int,
    pos: int,
    me: int,
    led: int,
    wcard: int,
    winner: int,
    voids: np.ndarray,
    master: int,
    out_trumps: int,
    my_nil: bool,
    partner_nil: bool,
    nil_left: bool,
    nil_right: bool,
    made: bool,
    strong: bool,
    lengths: np.ndarray,
    power: np.ndarray,
    beats: np.ndarray,
    suit: np.ndarray,
    suit_mask: np.ndarray,
) -> int:
    beaters = legal & beats[led * 64 + wcard]
    under = legal & ~beaters
    following = (legal & suit_mask[led]) != 0
    last = pos == 3
    partner = (me + 2) & 3
    has_beat = beaters != 0
    has_under = under != 0
    low_legal = _lowest(legal, lengths, power, suit)
    if has_under:
        nil_like = _highest(under, power)  # own nil / contract made: the highest card that loses
    elif last:
        nil_like = _highest(beaters, power)
    else:
        nil_like = _lowest(beaters, lengths, power, suit)
    if my_nil:
        return nil_like
    partner_wins = winner == partner
    if pos >= 2:
        if partner_nil and partner_wins:
            return _lowest(beaters, lengths, power, suit) if has_beat else low_legal
    elif partner_nil and has_beat:
        return _highest(beaters, power)
    left, right = (me + 1) & 3, (me + 3) & 3
    # an opponent's nil: low when the nil bidder (only the left one can be still to play) has not shown
    # out of the suit led; under the nil bidder's winning card
    if not last and nil_left and (voids[left] >> led) & 1 == 0:
        return low_legal
    nil_wins = (nil_left and winner == left) or (nil_right and winner == right)
    if nil_wins and has_under:
        return _highest(under, power)
    if strong:
        # a nil bidder has played under another card and none plays after: throw the highest card
        # (a side card when not following), keeping the low ones to stay under the nil later.
        # The right-hand opponent has always played before a follower; the left one only when last.
        played_nil = nil_right or (last and nil_left)
        pending_nil = (not last) and nil_left
        if played_nil and not pending_nil and not nil_wins:
            if following:
                return _highest(legal, power)
            side_legal = legal & ~suit_mask[_SPADES]
            return _highest(side_legal, power) if side_legal != 0 else low_legal
    if made:
        return nil_like
    # _Choice.safe(card, led) for every card at once: nobody still to play can beat it
    later_void = False  # a player still to come has shown out of the suit led
    for k in range(1, 4 - pos):
        if (voids[(me + k) & 3] >> led) & 1:
            later_void = True
    spade = suit_mask[_SPADES]
    if last:
        safe_cards = _ALL  # nobody later
    else:
        # spade cards: not beaten in suit, or (led is not spades and nobody later is void in the led suit)
        safe_spades = spade & (master | (0 if (led == _SPADES or later_void) else _ALL))
        # side cards: not beaten in suit and not (trumps out and a later player void in the led suit)
        safe_side = ~spade & (0 if (out_trumps > 0 and later_void) else master)
        safe_cards = safe_spades | safe_side
    safe_beaters = beaters & safe_cards
    if partner_wins:
        if last or (_bit(wcard) & safe_cards) != 0 or safe_beaters == 0:
            return low_legal
        return _lowest(safe_beaters, lengths, power, suit)
    if not has_beat:
        return low_legal
    if last:
        return _lowest(beaters, lengths, power, suit)
    if safe_beaters != 0:
        return _lowest(safe_beaters, lengths, power, suit)
    if not following and led != _SPADES:  # trumping: the cheapest trump that wins
        return _lowest(beaters, lengths, power, suit)
    return _highest(beaters, power) if pos == 2 else low_legal


@njit
def _voids_of(
    r: int, step: int, plays: np.ndarray, leaders: np.ndarray, leader: int, suit: np.ndarray, voids: np.ndarray
) -> None:
    """The suits each seat has shown out of in round ``r``, read from its first ``step`` plays."""
    for i in range(4):
        voids[i] = 0
    for j in range(step):
        t = j // 4
        p = j % 4
        if p == 0:
            continue
        first = leaders[t, r] if j < step - step % 4 else leader
        led = suit[plays[4 * t, r]]
        if suit[plays[j, r]] != led:
            voids[(first + p) & 3] |= 1 << led


@njit
def choose(
    legal: np.ndarray,
    seat: np.ndarray,
    hands: np.ndarray,
    bids: np.ndarray,
    taken: np.ndarray,
    plays: np.ndarray,
    leaders: np.ndarray,
    leader: np.ndarray,
    trick: np.ndarray,
    best_pos: np.ndarray,
    led: np.ndarray,
    played: np.ndarray,
    step: int,
    power: np.ndarray,
    higher: np.ndarray,
    lower: np.ndarray,
    beats: np.ndarray,
    suit: np.ndarray,
    suit_mask: np.ndarray,
    trump_mask: int,
    deck_mask: int,
    strong: bool,
    partner_counts: bool,
    out_bits: np.ndarray,
) -> None:
    """``out_bits[r]``: the display bit the bot plays from ``legal[r]`` in each round ``r`` (masks as int64)."""
    pos = step % 4
    voids = np.zeros(4, dtype=np.int64)
    lengths = np.zeros(4, dtype=np.int64)
    for r in range(legal.shape[0]):
        me = seat[r]
        partner = (me + 2) & 3
        hand = hands[r, me]
        _voids_of(r, step, plays, leaders, leader[r], suit, voids)
        for s in range(4):
            lengths[s] = _popcount(hand & suit_mask[s])
        out = deck_mask & ~played[r] & ~hand
        mine = bids[r, me]
        theirs = bids[r, partner]
        won_me = taken[r, me]
        won_p = taken[r, partner]
        counted = (won_me if mine != 0 else 0) + (won_p if theirs != 0 else 0)
        if partner_counts:  # a failed nil's tricks count toward the partner's bid
            counted += (0 if mine != 0 else won_me) + (0 if theirs != 0 else won_p)
        made = counted >= mine + theirs
        my_nil = mine == 0 and won_me == 0
        partner_nil = theirs == 0 and won_p == 0
        left, right = (me + 1) & 3, (me + 3) & 3
        nil_left = bids[r, left] == 0 and taken[r, left] == 0
        nil_right = bids[r, right] == 0 and taken[r, right] == 0
        out_trumps = _popcount(out & trump_mask)
        # the cards no card still out can beat in their own suit (``is_master``)
        master = 0
        for s in range(4):
            o = out & suit_mask[s]
            master |= higher[_highest(o, power)] if o != 0 else suit_mask[s]
        if pos == 0:
            setting, open_low = _nil_lead(
                legal[r], out, master, nil_left, nil_right, voids[left], voids[right], lengths, power, lower, suit,
                suit_mask,
            )  # fmt: skip
            if strong and setting < 0:  # no lead forces the nil: the lowest card of a suit the nil bidder holds
                setting = open_low
            out_bits[r] = _lead(
                legal[r], me, voids, master, out_trumps, my_nil, partner_nil, setting, made, lengths, power, suit,
                suit_mask,
            )  # fmt: skip
        else:
            wpos = best_pos[r]
            out_bits[r] = _follow(
                legal[r], pos, me, led[r], trick[wpos, r], (leader[r] + wpos) & 3, voids, master, out_trumps,
                my_nil, partner_nil, nil_left, nil_right, made, strong, lengths, power, beats, suit, suit_mask,
            )  # fmt: skip


def warm() -> None:
    """Compile ``choose`` (or load it from disk) now rather than at the first simulation."""
    import spades_tutor as st

    from .simulate import simulate

    simulate(st.Rules.preset("jokers"), 4, seed=0, policy="heuristic")
