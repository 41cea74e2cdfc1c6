"""Seeded quiz generators: every kind, every rule set, three difficulty levels.

A generator only chooses a *position*; the item built from it asks the engine
for the answer and the explanation. Play positions are real: a seeded deal is
bid and played with random legal cards (``Round.legal_plays`` / ``Round.play``)
and the question is posed at a point that was actually reached. The same
``(kind, rules, seed, difficulty)`` always gives the same item, and each item
carries its ``seed`` and ``difficulty`` so it can be made again.

What the levels mean (``DIFFICULTY_NOTES`` says it in words for the app):

legal-plays
    1. a side suit was led and you can follow it (some cards are illegal);
    2. leading before spades are broken with trumps and side cards, void in the
       side suit led (anything goes), or a spade lead you must follow;
       no joker and no 2♦-as-trump anywhere in the position;
    3. a joker (or in deuces-high the 2♦) in your hand or led, or leading with
       nothing but trumps before spades are broken (the only-trumps exception).
trick-winner
    1. no trump in the trick: the highest card of the suit led wins;
    2. trumps in the trick, but not a fight between a joker (2♦) and other trumps;
    3. two or more trumps including a joker or the 2♦ (regular Spades: a side
       suit led and trumped twice).
highest-trump / trump-order
    1. three trumps far apart (at least three places between them);
    2. highest-trump: three trumps and a side ace or king as a decoy;
       trump-order: four trumps anywhere in the order;
    3. the close calls at the top: big joker against little joker, 2♦ / 2♠ / A♠
       in deuces-high, the 2♠ in two-of-spades-third (plus a decoy, or the 2♠
       where it is the lowest trump).
score
    1. no nil; each team makes its contract or is set; few bags, no penalty;
    2. a nil made or failed (without nil: bags on both sides), no penalty;
    3. a tricky case: a nil fails while the partner makes, bags roll past the
       limit from the count before the hand, blind nil (only where the rules
       allow it), a set team that still collects bags from a failed nil, or
       both partners bidding nil.
sure-tricks (each level's shapes come up about equally often)
    1. the top trump alone, or no high trump at all;
    2. a run from the top of two or more, or high trumps without the top one;
    3. more sure tricks than the run from the top, found by counting the higher
       trumps that are out, each able to take one lower trump (A♠ K♠ Q♠ with both
       jokers out counts 1, LJ A♠ K♠ counts 2); a gap under the top (BJ and A♠
       without the little joker counts 1); a run through the 2♦ / 2♠; or several
       high trumps and still none sure.
nil-safe (the answers are balanced: even seeds ask about a safe hand, odd seeds a risky one)
    1. obvious: the top trump, or three problems or more / a clean hand with
       no side king and at most two (low) trumps;
    2. one or two plain problems (a side ace, a high natural spade) / a safe
       hand with one guarded king or three low trumps;
    3. one subtle problem (an unguarded king, exactly four low trumps, a lone
       little joker, 2♦ or high 2♠) / safe although it holds two guarded kings,
       or a king and three trumps.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from ..engine import (
    BLIND_NIL,
    NIL,
    Bid,
    Card,
    Rank,
    Round,
    Rules,
    Seat,
    SpadesError,
    Suit,
    Team,
    deal_hands,
    legal_plays,
    nil_advice,
    score_hand,
    sure_trick_count,
    sure_tricks,
)
from .items import (
    HighestTrumpItem,
    LegalPlaysItem,
    NilSafeItem,
    QuizItem,
    ScoreItem,
    SureTricksItem,
    TrickWinnerItem,
    TrumpOrderItem,
)

__all__ = ["DIFFICULTIES", "DIFFICULTY_NOTES", "KINDS", "generate", "mixed"]

KINDS: tuple[str, ...] = (
    "legal-plays",
    "trick-winner",
    "highest-trump",
    "trump-order",
    "score",
    "sure-tricks",
    "nil-safe",
)
DIFFICULTIES = (1, 2, 3)  # 1 easy, 2 medium, 3 tricky

DIFFICULTY_NOTES: dict[str, dict[int, str]] = {
    "legal-plays": {
        1: "A side suit was led and you can follow it.",
        2: "Leading before spades are broken, void in the suit led, or following a spade lead.",
        3: "A joker (or the 2♦ in deuces-high) in your hand or led, or a hand of nothing but trumps.",
    },
    "trick-winner": {
        1: "No trump was played: the highest card of the suit led wins.",
        2: "A trump was played.",
        3: "Two or more trumps, jokers among them.",
    },
    "highest-trump": {
        1: "Three trumps far apart.",
        2: "Three trumps and a side card that is not a trump.",
        3: "Close calls at the top of the trump order.",
    },
    "trump-order": {
        1: "Three trumps far apart.",
        2: "Four trumps.",
        3: "Five trumps, with the close calls at the top.",
    },
    "score": {
        1: "Contracts made or set, no nil.",
        2: "Nil made or failed, and bags.",
        3: "Tricky cases: failed nils, bags rolling over, blind nil, both partners nil.",
    },
    "sure-tricks": {
        1: "The top trump alone, or no high trump at all.",
        2: "A run of top trumps, or high trumps without the top one.",
        3: "Counting the higher trumps that are out, gaps in the run, and the surprising trumps of the rule set.",
    },
    "nil-safe": {
        1: "Obvious hands.",
        2: "One or two plain problems, or an ordinary safe hand.",
        3: "One subtle problem, or safe although it looks risky.",
    },
}

#: deals (or played rounds) a generator may try before settling for a weaker match
MAX_ROUNDS = 400
MAX_DEALS = 3000

T = TypeVar("T")


# --- seeded randomness that never changes between Python versions ------------------------


def _rng(kind: str, seed: int, difficulty: int, salt: str = "") -> random.Random:
    """The generator's own stream: seeding with text hashes it with SHA-512 (stable everywhere)."""
    return random.Random(f"spades-tutor/quiz/{kind}/{difficulty}/{seed}{salt}")


def _below(rng: random.Random, n: int) -> int:
    """A uniform integer in [0, n) from ``getrandbits`` (as the engine's dealer does)."""
    if n <= 0:
        raise ValueError("empty range")
    k = n.bit_length()
    while True:
        r = rng.getrandbits(k)
        if r < n:
            return r


def _between(rng: random.Random, lo: int, hi: int) -> int:
    """A uniform integer in [lo, hi]."""
    return lo + _below(rng, hi - lo + 1)


def _choice(rng: random.Random, items: Sequence[T]) -> T:
    return items[_below(rng, len(items))]


def _chance(rng: random.Random, p: float) -> bool:
    return rng.getrandbits(32) < p * (1 << 32)


def _shuffled(rng: random.Random, items: Sequence[T]) -> list[T]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = _below(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _sample(rng: random.Random, items: Sequence[T], k: int) -> list[T]:
    return _shuffled(rng, items)[:k]


def _deal_seed(rng: random.Random) -> int:
    return rng.getrandbits(31)


# --- input checks ------------------------------------------------------------------------


def _check_inputs(kind: object, rules: object, seed: object, difficulty: object) -> None:
    if kind not in KINDS:
        raise SpadesError(f"unknown quiz kind {kind!r}; the kinds are {', '.join(KINDS)}")
    if not isinstance(rules, Rules):
        raise SpadesError(f"rules must be a Rules (such as Rules.preset('jokers')), not {rules!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise SpadesError(f"a quiz seed is a whole number 0 or more, not {seed!r}")
    if isinstance(difficulty, bool) or difficulty not in DIFFICULTIES:
        raise SpadesError(f"difficulty {difficulty!r} is not one of {', '.join(map(str, DIFFICULTIES))}")


# --- what makes a trump surprising -------------------------------------------------------


def _extras(rules: Rules) -> frozenset[Card]:
    """Trumps that are not natural spades: the jokers, the 2♦ in deuces-high."""
    return frozenset(rules.extra_trumps())


def _tricky(rules: Rules) -> tuple[Card, ...]:
    """Trumps a newcomer misplaces: the extra trumps, and a 2 ranked above the ace."""
    order = rules.trump_order()
    out = []
    for place, card in enumerate(order):
        natural = card.suit == Suit.SPADES and not card.is_joker
        if not natural or (card.rank == Rank.TWO and place < len(order) - 1):
            out.append(card)
    return tuple(out)


def _ace_of_spades(rules: Rules) -> Card | None:
    ace = Card(Rank.ACE, Suit.SPADES)
    return ace if ace in rules.trump_order() else None


# --- legal-plays -------------------------------------------------------------------------


def _bid_all(rnd: Round, rng: random.Random) -> None:
    for _ in range(4):
        rnd.bid(_between(rng, 1, 4))


def _play_through(rules: Rules, rng: random.Random, averse: bool, visit: Callable[[Round], None]) -> Round:
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
            if side and _chance(rng, 0.9):
                pool = side
        rnd.play(_choice(rng, pool))
    return rnd


def _legal_tags(rules: Rules, hand: Sequence[Card], trick: Sequence[Card], broken: bool) -> set[str]:
    """The position types a legal-plays position belongs to (several may apply)."""
    tags: set[str] = set()
    if len(hand) < 2:
        return tags
    extras = _extras(rules)
    is_trump = rules.is_trump
    suit_of = rules.suit_of
    trumps_in_hand = sum(1 for c in hand if is_trump(c))
    side_in_hand = len(hand) - trumps_in_hand
    plain = not any(c in extras for c in hand) and not any(c in extras for c in trick)
    if not trick:
        if not broken and side_in_hand == 0:
            tags.add("only-trumps")
        if plain and not broken and trumps_in_hand and side_in_hand:
            tags.add("lead-unbroken")
    else:
        led = suit_of(trick[0])
        following = sum(1 for c in hand if suit_of(c) == led)
        if plain and led != Suit.SPADES:
            if following and following < len(hand):
                tags.add("follow")
            if not following:
                tags.add("void")
        if plain and led == Suit.SPADES and following and following < len(hand):
            tags.add("trump-lead")
    if not (not trick and broken):  # a free lead teaches nothing about the special cards
        for card in extras:
            if card in hand or (trick and trick[0] == card):
                tags.add("deuce" if card.suit is not None else "joker")
    return tags


_LEGAL_LEVELS: dict[int, tuple[str, ...]] = {
    1: ("follow",),
    2: ("lead-unbroken", "void", "trump-lead"),
    3: ("only-trumps", "joker", "deuce"),
}


def _legal_plays(rules: Rules, seed: int, difficulty: int) -> LegalPlaysItem:
    rng = _rng("legal-plays", seed, difficulty)
    extras = _extras(rules)
    possible = [t for t in _LEGAL_LEVELS[difficulty] if t != "joker" or any(c.is_joker for c in extras)]
    possible = [t for t in possible if t != "deuce" or any(not c.is_joker for c in extras)]
    wanted = _choice(rng, possible)
    fallback: list[tuple[Any, ...]] = []  # the first position of another type of the level
    found: list[tuple[Any, ...]] = []  # positions of the wanted type in the current round
    level = set(possible)

    def visit(rnd: Round) -> None:
        seat = rnd.to_act
        assert seat is not None
        hand = rnd.hands[seat]
        trick = rnd.trick.cards
        broken = rnd.spades_broken
        level_tags = _legal_tags(rules, hand, trick, broken) & level
        if not level_tags:
            return
        # the position as the engine's pure function sees it must be the table's
        # (not so for the 2♣ opening lead, a rule of the round alone)
        if set(legal_plays(rules, hand, trick, broken)) != set(rnd.legal_plays()):
            return
        entry = (hand, trick, broken, seat)
        if wanted in level_tags:
            found.append(entry)
        elif not fallback:
            fallback.append(entry)

    for attempt in range(MAX_ROUNDS):
        found.clear()
        # only-trumps positions come from players who hoard their trumps
        averse = wanted == "only-trumps" and attempt % 3 != 2
        _play_through(rules, rng, averse, visit)
        if found:
            hand, trick, broken, seat = _choice(rng, found)
            break
        if attempt >= MAX_ROUNDS // 4 and fallback:
            hand, trick, broken, seat = fallback[0]
            break
    else:  # pragma: no cover - never seen: every level turns up within a few rounds
        raise SpadesError(f"no legal-plays position of difficulty {difficulty} found for seed {seed} in {rules.name}")
    return LegalPlaysItem(
        rules, hand=tuple(hand), trick=tuple(trick), spades_broken=broken, seat=seat, seed=seed, difficulty=difficulty
    )


# --- trick-winner ------------------------------------------------------------------------


def _trick_level(rules: Rules, trick: Sequence[Card]) -> int:
    """1: no trump; 3: two or more trumps with a joker/2♦ among them (regular Spades:
    a side suit trumped twice); 2: any other trick with a trump in it."""
    trumps = [c for c in trick if rules.is_trump(c)]
    if not trumps:
        return 1
    extras = _extras(rules)
    if len(trumps) >= 2:
        if extras and any(c in extras for c in trumps):
            return 3
        if not extras and not rules.is_trump(trick[0]):
            return 3
    return 2


def _trick_winner(rules: Rules, seed: int, difficulty: int) -> TrickWinnerItem:
    rng = _rng("trick-winner", seed, difficulty)
    for _ in range(MAX_ROUNDS):
        rnd = _play_through(rules, rng, False, lambda _rnd: None)
        found = [t for t in rnd.tricks if _trick_level(rules, t.cards) == difficulty]
        if found:
            trick = _choice(rng, found)
            return TrickWinnerItem(rules, trick=trick.cards, leader=trick.leader, seed=seed, difficulty=difficulty)
    raise SpadesError(  # pragma: no cover - every level turns up in the first few rounds
        f"no trick of difficulty {difficulty} found for seed {seed} in {rules.name}"
    )


# --- highest-trump and trump-order -------------------------------------------------------


def _far_apart(rng: random.Random, n: int, k: int, gap: int) -> list[int]:
    """``k`` sorted indices below ``n``, each at least ``gap`` after the one before."""
    room = n - (gap - 1) * (k - 1)
    if room < k:  # too few trumps to spread out: any k will do
        return sorted(_sample(rng, range(n), k))
    base = sorted(_sample(rng, range(room), k))
    return [b + (gap - 1) * i for i, b in enumerate(base)]


def _decoys(rules: Rules) -> list[Card]:
    """High side cards that are not trumps: side aces and kings."""
    return [
        c for c in rules.deck() if not rules.is_trump(c) and c.rank in (Rank.ACE, Rank.KING) and c.suit != Suit.SPADES
    ]


def _close_window(rules: Rules, rng: random.Random, size: int) -> list[Card]:
    """``size`` adjacent trumps near the top, containing a surprising one if the rules have any."""
    order = rules.trump_order()
    tricky = set(_tricky(rules))
    top = min(len(order), 6)
    windows = [list(order[i : i + size]) for i in range(0, top - size + 1)]
    good = [w for w in windows if tricky & set(w)] or windows
    return _choice(rng, good)


def _highest_trump(rules: Rules, seed: int, difficulty: int) -> HighestTrumpItem:
    rng = _rng("highest-trump", seed, difficulty)
    order = rules.trump_order()
    if difficulty == 1:
        choices = [order[i] for i in _far_apart(rng, len(order), 3, 3)]
    elif difficulty == 2:
        choices = [order[i] for i in sorted(_sample(rng, range(len(order)), 3))]
        choices.append(_choice(rng, _decoys(rules)))
    else:
        choices = _close_window(rules, rng, _between(rng, 2, 3))
        low_two = order[-1] if order[-1].rank == Rank.TWO else None
        traps: list[Card] = [c for c in _decoys(rules) if c.rank == Rank.ACE]
        if low_two is not None and low_two not in choices:
            traps.append(low_two)  # a 2 that is the lowest trump here
        choices.append(_choice(rng, traps))
    shown = _shuffled(rng, choices)
    best = min((c for c in shown if rules.is_trump(c)), key=order.index)
    if shown[0] == best:  # do not always put the answer first
        shown.append(shown.pop(0))
    return HighestTrumpItem(rules, choices=tuple(shown), seed=seed, difficulty=difficulty)


def _trump_order(rules: Rules, seed: int, difficulty: int) -> TrumpOrderItem:
    rng = _rng("trump-order", seed, difficulty)
    order = rules.trump_order()
    if difficulty == 1:
        chosen = [order[i] for i in _far_apart(rng, len(order), 3, 3)]
    elif difficulty == 2:
        chosen = _sample(rng, order, 4)
    else:
        tricky = list(_tricky(rules))
        must = _sample(rng, tricky, min(len(tricky), _between(rng, 2, 3))) if len(tricky) >= 2 else tricky
        ace = _ace_of_spades(rules)
        if ace is not None and ace not in must:
            must.append(ace)
        pool = [c for c in order[:7] if c not in must]
        if order[-1].rank == Rank.TWO and order[-1] not in must:
            pool.append(order[-1])
        chosen = (must + _sample(rng, pool, max(0, 5 - len(must))))[:5]
    shown = _shuffled(rng, chosen)
    answer = sorted(chosen, key=order.index)
    if shown == answer:  # already in order: rotate so there is something to do
        shown = shown[1:] + shown[:1]
    return TrumpOrderItem(rules, choices=tuple(shown), seed=seed, difficulty=difficulty)


# --- score -------------------------------------------------------------------------------


def _split(rng: random.Random, total: int, least: int = 0) -> tuple[int, int]:
    """Two parts, each at least ``least``, adding to ``total``."""
    a = _between(rng, least, total - least)
    return a, total - a


def _plain_team(
    rng: random.Random, taken: int, made: bool, max_over: int, min_over: int = 0
) -> tuple[tuple[Bid, Bid], tuple[int, int]] | None:
    """Bids and tricks of a team where both partners bid a number."""
    if made:
        top = min(max_over, taken - 2)
        if top < min_over:
            return None
        contract = taken - _between(rng, min_over, top)
    else:
        contract = taken + _between(rng, 1, 4)
        if contract < 2 or contract > 13:
            return None
    a, b = _split(rng, contract, 1)
    # each partner takes about what they bid
    took_a = min(taken, max(0, round(taken * a / contract) + _between(rng, -1, 1)))
    return (Bid(a), Bid(b)), (took_a, taken - took_a)


def _nil_team(
    rng: random.Random, rules: Rules, taken: int, nil_made: bool, partner_made: bool, blind: bool, max_over: int
) -> tuple[tuple[Bid, Bid], tuple[int, int]] | None:
    """Bids and tricks of a team where one partner bids (blind) nil; the nil bidder comes first."""
    nil_took = 0 if nil_made else _between(rng, 1, min(3, max(taken, 1)))
    if nil_took > taken:
        return None
    partner_took = taken - nil_took
    counted = partner_took + (nil_took if rules.failed_nil_tricks == "partner" else 0)
    if partner_made:
        if counted < 1:
            return None
        bid = counted - _between(rng, 0, min(max_over, counted - 1))
    else:
        bid = counted + _between(rng, 1, 3)
        if bid > 13:
            return None
    return ((BLIND_NIL if blind else NIL), Bid(bid)), (nil_took, partner_took)


def _seat_pairs(team: Team, rng: random.Random) -> tuple[Seat, Seat]:
    a, b = team.seats
    return (a, b) if _chance(rng, 0.5) else (b, a)


def _score_cases(rules: Rules) -> list[str]:
    cases = ["rollover"]
    if rules.nil:
        cases += ["nil-fails-partner-makes", "both-nil"]
        if rules.failed_nil_tricks == "bags":
            cases.append("set-with-nil-bags")
    if rules.blind_nil != "off":
        cases.append("blind-nil")
    return cases


def _lines(scores: dict[Team, Any], team: Team, kind: str) -> list[int]:
    return [line.points for line in scores[team].lines if line.kind == kind]


def _score_case_holds(scores: dict[Team, Any], case: str) -> bool:
    """Whether the engine's score shows the tricky case (judged from its labelled lines)."""
    for team in Team:
        nil = _lines(scores, team, "nil") + _lines(scores, team, "blind-nil")
        contract = _lines(scores, team, "contract")
        if case == "rollover" and _lines(scores, team, "penalty"):
            return True
        if case == "blind-nil" and _lines(scores, team, "blind-nil"):
            return True
        if case == "both-nil" and len(nil) == 2:
            return True
        if case == "nil-fails-partner-makes" and any(p < 0 for p in nil) and contract and contract[0] > 0:
            return True
        if case == "set-with-nil-bags" and contract and contract[0] < 0 and _lines(scores, team, "failed-nil-bags"):
            return True
    return False


def _score_position(
    rules: Rules, rng: random.Random, difficulty: int, case: str, strict: bool = True
) -> tuple[dict[Seat, Bid], dict[Seat, int], dict[Team, int]] | None:
    """One attempt at a position for ``difficulty`` (and, at level 3, ``case``); None if it did not fit.

    Not ``strict``: levels 1 and 2 may show a bag penalty (for a bag limit so low that
    every bag is a penalty).
    """
    limit = rules.bag_limit
    focus = _choice(rng, tuple(Team))
    other = focus.other
    nil_team = rules.nil if difficulty == 2 else case in ("blind-nil", "nil-fails-partner-makes", "set-with-nil-bags")
    if case == "both-nil":
        focus_took = _between(rng, 0, 3)  # two nil bidders rarely take many tricks
    elif nil_team:
        focus_took = _between(rng, 1, 8)
    else:
        focus_took = _between(rng, 2, 11)
    taken = {focus: focus_took, other: 13 - focus_took}
    bags = {t: _between(rng, 0, min(3, limit - 1)) for t in Team}
    plans: dict[Team, tuple[tuple[Bid, Bid], tuple[int, int]] | None] = {}
    seats = {t: _seat_pairs(t, rng) for t in Team}

    def plain(team: Team, max_over: int, min_over: int = 0, made: bool | None = None) -> None:
        made = _chance(rng, 0.7) if made is None else made
        plans[team] = _plain_team(rng, taken[team], made, max_over, min_over)

    def nil(blind: bool, nil_made: bool | None = None, partner_made: bool | None = None) -> None:
        nil_made = _chance(rng, 0.5) if nil_made is None else nil_made
        partner_made = _chance(rng, 0.6) if partner_made is None else partner_made
        plans[focus] = _nil_team(rng, rules, taken[focus], nil_made, partner_made, blind, 3)

    if difficulty == 1:
        plain(focus, 2)
        plain(other, 2)
    elif difficulty == 2:
        bags = {t: _between(rng, 0, limit - 1) for t in Team}
        if nil_team:
            nil(False)
        else:
            plain(focus, 4, 1, made=True)
        plain(other, 4)
    else:
        plain(other, 3)
        if case == "rollover":
            gap = _between(rng, 1, min(3, limit))
            bags[focus] = limit - gap
            plain(focus, gap + 3, gap, made=True)
        elif case == "blind-nil":
            nil(True)
        elif case == "nil-fails-partner-makes":
            nil(False, nil_made=False, partner_made=True)
        elif case == "set-with-nil-bags":
            nil(False, nil_made=False, partner_made=False)
        else:  # both-nil
            first = _between(rng, 0, focus_took)
            plans[focus] = ((NIL, NIL), (first, focus_took - first))
    bids: dict[Seat, Bid] = {}
    tricks: dict[Seat, int] = {}
    for team in Team:
        plan = plans.get(team)
        if plan is None:
            return None
        (bid_a, bid_b), (took_a, took_b) = plan
        first, second = seats[team]
        bids[first], bids[second] = bid_a, bid_b
        tricks[first], tricks[second] = took_a, took_b
    numbers = [b.tricks for b in bids.values() if not b.is_nil]
    if sum(tricks.values()) != 13 or max(numbers) > 9 or not 6 <= sum(numbers) <= 16:
        return None  # bids a real table would make
    scores = score_hand(rules, bids, tricks, bags)
    penalty = strict and any(_lines(scores, t, "penalty") for t in Team)
    if difficulty == 1 and (penalty or any(b.is_nil for b in bids.values())):
        return None
    if difficulty == 2:
        if penalty or any(b.blind for b in bids.values()):
            return None
        bagged = any(scores[t].new_bags for t in Team)
        if (strict and not bagged) or rules.nil != any(b.is_nil for b in bids.values()):
            return None
    if difficulty == 3 and not _score_case_holds(scores, case):
        return None
    # ordered as at the table, North first
    return {s: bids[s] for s in Seat}, {s: tricks[s] for s in Seat}, bags


def _score(rules: Rules, seed: int, difficulty: int) -> ScoreItem:
    rng = _rng("score", seed, difficulty)
    cases = _score_cases(rules)
    case = _choice(rng, cases) if difficulty == 3 else ""
    for attempt in range(2000):
        if difficulty == 3 and attempt and attempt % 200 == 0:
            case = _choice(rng, cases)  # a case these rules make hard to reach: try another
        position = _score_position(rules, rng, difficulty, case, strict=attempt < 1000)
        if position is not None:
            bids, tricks, bags = position
            return ScoreItem(rules, bids=bids, tricks=tricks, bags=bags, seed=seed, difficulty=difficulty)
    raise SpadesError(  # pragma: no cover - a position fits within a few dozen attempts
        f"no score position of difficulty {difficulty} found for seed {seed} in {rules.name}"
    )


# --- sure-tricks and nil-safe ------------------------------------------------------------


def _hands(rules: Rules, rng: random.Random) -> Iterator[tuple[Card, ...]]:
    """Hands from seeded deals, one seat after another (never ending)."""
    while True:
        _, dealt = deal_hands(rules, _deal_seed(rng))
        for seat in _shuffled(rng, tuple(Seat)):
            yield tuple(dealt[seat])


def _sure_shape(rules: Rules, hand: Sequence[Card]) -> str:
    """What the sure-tricks question tests for this hand; ``_SURE_LEVELS`` groups the shapes by level."""
    order = rules.trump_order()
    held = set(hand)
    run = len(sure_tricks(rules, hand))  # the top trumps held: each sure on its own
    count = sure_trick_count(rules, hand)
    near = [i for i in range(min(6, len(order))) if order[i] in held]
    tricky = set(_tricky(rules))
    if count > run:
        return "counted"  # sure of more than the run: count the higher trumps that are out
    if run >= 1 and any(run < i <= 5 for i in near):
        return "gap"  # the cards after the gap are not sure
    if run >= 2 and any(c in tricky and not c.is_joker for c in order[:run]):
        return "tricky-run"  # a run through the 2♦ or a high 2♠
    if run == 0 and sum(1 for i in near if 1 <= i <= 4) >= 2:
        return "strong-no-top"  # strong trumps, yet the top one is missing
    if run >= 2:
        return "run"
    if run == 0 and any(i in (1, 2) for i in near):
        return "no-top"
    return "top-alone" if run == 1 else "no-high"


_SURE_LEVELS: dict[int, tuple[str, ...]] = {
    1: ("top-alone", "no-high"),
    2: ("run", "no-top"),
    3: ("counted", "gap", "tricky-run", "strong-no-top"),
}


def _sure_tricks(rules: Rules, seed: int, difficulty: int) -> SureTricksItem:
    rng = _rng("sure-tricks", seed, difficulty)
    shapes = _SURE_LEVELS[difficulty]
    if not any(not c.is_joker for c in _tricky(rules)):
        shapes = tuple(s for s in shapes if s != "tricky-run")
    wanted = _choice(rng, shapes)
    second_best: tuple[Card, ...] | None = None
    for n, hand in enumerate(_hands(rules, rng)):
        shape = _sure_shape(rules, hand)
        if shape == wanted or (n >= MAX_DEALS and shape in shapes):
            return SureTricksItem(rules, hand=rules.sort_hand(hand), seed=seed, difficulty=difficulty)
        if second_best is None and shape in shapes:
            second_best = hand
        if n >= 4 * MAX_DEALS and second_best is not None:
            return SureTricksItem(rules, hand=rules.sort_hand(second_best), seed=seed, difficulty=difficulty)
    raise AssertionError("unreachable")  # pragma: no cover - _hands never ends


def _nil_level(rules: Rules, hand: Sequence[Card]) -> int:
    """How hard the nil question is for this hand (the answer itself comes from the engine)."""
    advice = nil_advice(rules, hand)
    order = rules.trump_order()
    trumps = [c for c in hand if rules.is_trump(c)]
    side = [c for c in hand if not rules.is_trump(c)]
    if advice.safe:
        kings = sum(1 for c in side if c.rank == Rank.KING)
        if kings >= 2 or (kings and len(trumps) >= 3):
            return 3  # looks risky, yet every king is guarded and every trump low
        if not kings and len(trumps) <= 2:
            return 1
        return 2
    problems = len(advice.reasons)
    if order[0] in hand or problems >= 3:
        return 1
    if problems == 1:
        high = [c for c in order[:5] if c in hand]
        tricky = set(_tricky(rules))
        unguarded_king = any(
            c.rank == Rank.KING and sum(1 for d in side if d.suit == c.suit and d.rank < c.rank) < 2 for c in side
        )
        subtle_trump = len(high) == 1 and (high[0] in tricky)
        if unguarded_king or subtle_trump or (not high and len(trumps) >= 4):
            return 3
    return 2


def _nil_safe(rules: Rules, seed: int, difficulty: int) -> NilSafeItem:
    rng = _rng("nil-safe", seed, difficulty)
    want_safe = seed % 2 == 0  # consecutive seeds alternate yes and no
    second_best: tuple[Card, ...] | None = None
    last: tuple[Card, ...] = ()
    for n, hand in enumerate(_hands(rules, rng)):
        last = hand
        if nil_advice(rules, hand).safe == want_safe:
            if _nil_level(rules, hand) == difficulty:
                return NilSafeItem(rules, hand=rules.sort_hand(hand), seed=seed, difficulty=difficulty)
            if second_best is None:
                second_best = hand
        if n >= 4 * MAX_DEALS:
            break
    # not reached in practice: the wanted answer and level turn up within a few hundred hands
    chosen = second_best if second_best is not None else last
    return NilSafeItem(rules, hand=rules.sort_hand(chosen), seed=seed, difficulty=difficulty)


# --- the public face ---------------------------------------------------------------------

_GENERATORS: dict[str, Callable[[Rules, int, int], QuizItem]] = {
    "legal-plays": _legal_plays,
    "trick-winner": _trick_winner,
    "highest-trump": _highest_trump,
    "trump-order": _trump_order,
    "score": _score,
    "sure-tricks": _sure_tricks,
    "nil-safe": _nil_safe,
}


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
    >>> generate("bidding", rules, seed=1)
    Traceback (most recent call last):
    ...
    spades_tutor.engine.errors.SpadesError: unknown quiz kind 'bidding'; the kinds are legal-plays, trick-winner, highest-trump, trump-order, score, sure-tricks, nil-safe
    """
    _check_inputs(kind, rules, seed, difficulty)
    return _GENERATORS[kind](rules, seed, difficulty)


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
    used, except "nil-safe" at a table that plays without nil.

    >>> import spades_tutor as st
    >>> items = mixed(st.Rules.preset("deuces-high"), seed=3, count=7)
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
    if kinds is None:
        pool = [k for k in KINDS if k != "nil-safe" or rules.nil]
    else:
        if isinstance(kinds, str):
            raise SpadesError(f"kinds is a sequence of kind names, not the text {kinds!r}")
        pool = list(dict.fromkeys(kinds))
        bad = [k for k in pool if k not in KINDS]
        if bad or not pool:
            raise SpadesError(f"unknown quiz kind(s) {bad or kinds!r}; the kinds are {', '.join(KINDS)}")
    rng = _rng("mixed", seed, difficulty or 0, "/" + ",".join(pool))
    order: list[str] = []
    while len(order) < count:
        block = _shuffled(rng, pool)
        if order and len(block) > 1 and block[0] == order[-1]:
            block.append(block.pop(0))
        order.extend(block)
    items: list[QuizItem] = []
    seen: set[str] = set()
    for kind in order[:count]:
        for _ in range(50):
            level = difficulty if difficulty is not None else _choice(rng, DIFFICULTIES)
            item = generate(kind, rules, rng.getrandbits(31), level)
            position = repr((kind, sorted(item.position().items())))
            if position not in seen:
                break
        seen.add(position)
        items.append(item)
    return items
