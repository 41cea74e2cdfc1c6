"""After a hand, "where did that trick go?"; during one, a hint measured on sampled layouts.

``analyse(rnd)`` replays a finished round and asks the solver, for each of South's cards, what it
did to the side's points, double dummy: whether South's nil, North's nil, N–S's contract, the set
of E–W's contract and the break of an opponent's nil could still be reached before the card and
after it, and how many tricks N–S could take. A card that gave a goal away is marked, with the
better cards, the points at stake and the solver's line after it. A card that gave up only a trick
is not a mistake: past a safe contract it gave up a bag, which scores a point now and brings the
bag penalty nearer (``bag_cost``: about a tenth of the penalty at ten bags), so throwing winners
away there is the right play; with the contract already out of reach it cost nothing.

The early positions are the expensive ones (a whole deal to search), so ``LiveAnalysis`` judges
each card in a worker process as soon as it is played, while the learner plays on; ``analyse``
takes those verdicts and judges only what is left, with a node budget spent from the last trick
backwards (late positions are cheap and always exact; an early one that ran out says so).

``play_hint(view)`` deals the cards South cannot see in layouts consistent with the play
(every seat's hand size, the cards gone, the voids shown), solves each layout, and
recommends the card that reaches the goal in the most of them: a simulation, with a 95%
interval. The hint says so in plain words ("in about 60% of the ways the unseen cards may lie");
how many layouts, the seed and the interval's method are its ``method()``, for the page's
"How was this measured?" disclosure.

>>> import spades_tutor as st
>>> from spades_tutor.bots import HeuristicBot
>>> from spades_tutor.bots.drivers import play_round
>>> rnd = play_round(st.Rules.preset("jokers"), {s: HeuristicBot() for s in st.Seat}, seed=3)
>>> report = analyse(rnd, nodes=40_000, seconds=None)
>>> eighth = report.verdicts[7]
>>> eighth.card, eighth.mark, eighth.before, eighth.after, report.contract
(Card.parse('BJ'), 'gave up a bag', 10, 9, 8)
>>> eighth.sentence().split(":")[0]
'Gave up a bag, no mistake'
>>> report.exact_tricks[-6:]  # the last tricks are always exact
(8, 9, 10, 11, 12, 13)
"""

from __future__ import annotations

import dataclasses
import queue
import random
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future

from .engine import ActionKind, Card, Phase, Round, Rules, Seat, SeatView, Suit, Team
from .engine.text import and_list, how_often, number, plural
from .measured import DOUBLE_DUMMY, how_measured
from .solver import (
    Answer,
    Budget,
    Position,
    Result,
    kept_tables,
    line,
    make_contract,
    make_nil,
    reach,
    ready,
    solve,
)
from .solver import search as solver_search
from .solver.search import core_in_use

__all__ = [
    "BAG",
    "CONTRACT",
    "FINE",
    "MISTAKES",
    "NIL",
    "OPPONENT_NIL",
    "PARTNER_NIL",
    "SET",
    "TRICK",
    "UNKNOWN",
    "CardVerdict",
    "HandAnalysis",
    "Hint",
    "LiveAnalysis",
    "analyse",
    "bag_cost",
    "line_words",
    "play_hint",
    "sample_layouts",
]

LEARNER = Seat.SOUTH
# the whole hand's work after it ends, by the solver's core: about 6 s on this machine with either
ANALYSIS_NODES = {"pure": 300_000, "compiled": 30_000_000}
ANALYSIS_SECONDS = 9.0  # a guard on slower machines: the hand never takes longer once it is over
# each card judged during the hand, in a worker process while the learner plays on: a guard
# per card (a whole deal to search at trick 1 takes about 1 s with the compiled core, 11 s on a busy
# machine for the hardest deals), so a hand left unfinished never keeps the machine working for long
LIVE_NODES = {"pure": 1_500_000, "compiled": 300_000_000}
LIVE_SECONDS = 40.0
LIVE_IDLE_SECONDS = 30.0  # the worker process (and its thread) stops when no card has come for this long
LINE_NODES = {"pure": 20_000, "compiled": 500_000}  # each step of a line, by the solver's core
HINT_LAYOUTS = 200
# the sampled hint solves layouts from this many tricks left down (compiled: from the first trick), each
# with this much work, by the solver's core, for 2 s at most: from 9 tricks left nearly every layout is
# solved (about 0.2 s median on this machine); from 13, about half to nine in ten of them in the 2 s
# (bench/analysis.py); the hint counts the solved ones and says how many were left out
HINT_TRICKS = {"pure": 6, "compiled": 13}
HINT_NODES = {"pure": 20_000, "compiled": 100_000}
HINT_SECONDS = 2.0
HINT_MIN_LAYOUTS = 20  # fewer solved layouts than this: the heuristic's sentence instead

FINE = "fine"
BAG = "gave up a bag"  # a trick past a safe contract: no mistake (a bag costs points over the game)
TRICK = "gave up a trick"  # a trick when the contract was already out of reach: no points
CONTRACT = "lost the contract"
SET = "lost the set"  # E–W could be held below their contract before the card, not after it
NIL = "lost the nil"
PARTNER_NIL = "lost partner's nil"
OPPONENT_NIL = "let a nil through"  # an opponent's nil could be broken before the card, not after it
UNKNOWN = "not exact"
#: the marks that cost the side points, worst first when a card did more than one
MISTAKES = (NIL, PARTNER_NIL, CONTRACT, SET, OPPONENT_NIL)

Progress = Callable[[int, int], object] | None


def bag_cost(rules: Rules) -> float:
    """What one bag costs over a game, in points: the penalty spread over the bags that bring it.

    (It scores one point in the hand it is taken; ``bag_cost`` is the penalty's share alone.)

    >>> import spades_tutor as st
    >>> bag_cost(st.Rules.preset("jokers"))
    10.0
    """
    return rules.bag_penalty / rules.bag_limit


@dataclasses.dataclass(frozen=True)
class _Goals:
    """What each side bid, as the solver's questions need it: whose tricks count toward each contract
    (a nil bidder's count only where a failed nil's tricks go to the partner), and who bid nil."""

    rules: Rules
    south_nil: bool
    north_nil: bool
    nil_value: int  # South's nil (blind or not)
    partner_nil_value: int
    contract: int  # N–S's bids added (a nil adds 0)
    counted: tuple[Seat, ...]
    their_contract: int
    their_counted: tuple[Seat, ...]
    their_nils: tuple[tuple[Seat, int], ...]  # an opponent who bid nil, and what the nil is worth

    @classmethod
    def of(cls, rnd: Round) -> _Goals:
        rules = rnd.rules
        bids = rnd.bids

        def counted(team: Team) -> tuple[Seat, ...]:
            if rules.failed_nil_tricks == "partner":
                return team.seats
            return tuple(s for s in team.seats if not bids[s].is_nil)

        def value(seat: Seat) -> int:
            return rules.blind_nil_value if bids[seat].blind else rules.nil_value

        north = LEARNER.partner
        return cls(
            rules,
            bids[LEARNER].is_nil,
            bids[north].is_nil,
            value(LEARNER),
            value(north),
            rnd.team_contract(Team.NS),
            counted(Team.NS),
            rnd.team_contract(Team.EW),
            counted(Team.EW),
            tuple((s, value(s)) for s in Team.EW.seats if bids[s].is_nil),
        )


@dataclasses.dataclass(frozen=True)
class CardVerdict:
    """One of South's cards, judged double dummy (every hand known) at the moment it was played.

    ``before``/``after``: the most tricks N–S could take in the whole round (those already taken
    counted) before and after the card, or None where the budget ran out (``exact`` False).
    ``nil_before``/``contract_before``: whether the nil (South bid nil) and N–S's contract could
    still be made before the card (None: not asked, or out of budget); ``kept_nil``/``kept_contract``
    whether the card kept them. ``better``: the cards that did best on the goal the card missed.
    When South bid nil (``nil_bid``) the nil is the only goal judged: a nil bidder's card that gave a
    trick away, or left partner's contract short, is not blamed for it. When North bid nil,
    ``partner_nil_before``/``kept_partner_nil`` say whether North's nil could still be made before the
    card and whether the card kept it (covering partner's nil is South's job too).
    ``set_before``/``kept_set``: whether N–S could hold E–W below their contract before the card, and
    whether the card kept that; ``opponent_nil``/``break_before``/``kept_break`` the same for breaking
    an opponent's nil. ``stake``: the points the goal the card gave away was worth to the side (the
    swing between reaching it and not), ``bag``: what a bag costs over the game (``bag_cost``).
    """

    trick: int  # 1..13
    card: Card
    exact: bool
    before: int | None
    after: int | None
    best: tuple[Card, ...]  # the cards keeping the most tricks for N–S (asked when the card gave one up)
    nil_before: bool | None
    kept_nil: bool | None
    contract_before: bool | None
    kept_contract: bool | None
    better: tuple[Card, ...]
    line: tuple[tuple[Seat, Card], ...]
    line_text: str
    nil_bid: bool = False
    partner_nil_before: bool | None = None
    kept_partner_nil: bool | None = None
    contract: int = 0
    their_contract: int = 0
    set_before: bool | None = None
    kept_set: bool | None = None
    opponent_nil: Seat | None = None
    break_before: bool | None = None
    kept_break: bool | None = None
    stake: int = 0
    bag: float = 0.0

    @property
    def lost(self) -> tuple[str, ...]:
        """Every goal the card gave away (``MISTAKES``, worst first)."""
        out = []
        if self.nil_before and self.kept_nil is False:
            out.append(NIL)
        if self.partner_nil_before and self.kept_partner_nil is False:
            out.append(PARTNER_NIL)
        if not self.nil_bid and self.contract_before and self.kept_contract is False:
            out.append(CONTRACT)
        if not self.nil_bid and self.set_before and self.kept_set is False:
            out.append(SET)
        if not self.nil_bid and self.break_before and self.kept_break is False:
            out.append(OPPONENT_NIL)
        return tuple(out)

    @property
    def mark(self) -> str:
        """The worst thing the card did, by the side's points: a goal given away (``MISTAKES``); else,
        judged exactly, a bag or a trick given up at no cost, or fine (or not exact)."""
        lost = self.lost
        if lost:
            return lost[0]
        if not self.exact:
            return UNKNOWN
        lower = self.before is not None and self.after is not None and self.after < self.before
        if not lower or self.nil_bid:
            return FINE
        return BAG if self.contract_before else TRICK

    def sentence(self) -> str:
        """The verdict in words, for the list after the hand."""
        mark = self.mark
        if mark == UNKNOWN:
            return (
                f"Not exact: with {plural(14 - self.trick, 'trick')} to play the solver's budget ran out before it "
                "could judge this card."
            )
        values = ""
        if self.before is not None and self.after is not None:
            values = (
                f"N–S could take {plural(self.before, 'trick')} before it and {plural(self.after, 'trick')} after it"
                " (every hand known, both sides at their best)."
            )
        if mark == FINE:
            if self.nil_bid and self.nil_before is not None:
                values += " Your nil " + ("could still be made." if self.nil_before else "was already lost.")
            return f"Fine: {values}"
        if mark == BAG:
            return (
                f"Gave up a bag, no mistake: {values} The contract of {self.contract} was safe either way, and a bag "
                f"scores 1 point but costs about {self.bag:g} over the game (the bag penalty spread over the bags "
                "that bring it), so getting rid of a winner here is good play."
            )
        if mark == TRICK:
            return (
                f"Gave up a trick, at no cost in points: {values} The contract of {self.contract} was already out of "
                "reach, whatever you played."
            )
        better = and_list(str(c) for c in self.better) or "another card"
        stake = number(self.stake // 2)
        head = {
            NIL: f"Lost the nil: {better} would have kept it (a nil scores +{stake} made, −{stake} lost).",
            PARTNER_NIL: (f"Lost partner's nil: {better} would have kept North's nil (+{stake} made, −{stake} lost)."),
            CONTRACT: (
                f"Lost the contract: {better} would have kept it (the contract of {self.contract} scores +{stake} "
                f"made, −{stake} set)."
            ),
            SET: (
                f"Lost the set: {better} would have held East–West below their contract of {self.their_contract} "
                f"(+{stake} for them made, −{stake} set)."
            ),
            OPPONENT_NIL: (
                f"Let {self.opponent_nil}'s nil through: {better} would have broken it (+{stake} for them made, "
                f"−{stake} broken)."
            ),
        }[mark]
        also = self.lost[1:]
        more = f" It also {and_list(also)}." if also else ""
        return " ".join(part for part in (head + more, values, self.line_text) if part)


@dataclasses.dataclass(frozen=True)
class HandAnalysis:
    """Every card South played in one round, judged (``verdicts`` in play order)."""

    deal_id: str
    contract: int  # N–S's bids added (a nil adds 0)
    south_nil: bool
    verdicts: tuple[CardVerdict, ...]
    nodes: int
    seconds: float
    live: int = 0  # how many verdicts were worked out during the hand (``LiveAnalysis``)

    @property
    def exact_tricks(self) -> tuple[int, ...]:
        """The tricks (1..13) whose South card was judged exactly."""
        return tuple(v.trick for v in self.verdicts if v.exact)

    @property
    def marked(self) -> tuple[CardVerdict, ...]:
        """The cards that cost the side points (a bag or a trick given up at no cost is not one)."""
        return tuple(v for v in self.verdicts if v.mark in MISTAKES)

    def method(self) -> tuple[str, ...]:
        """How the hand was judged, for "How was this measured?" (exact: no deals sampled, no interval)."""
        during = (
            f" It judged {self.live} of your cards while you played, the rest once the hand was over."
            if self.live
            else ""
        )
        return how_measured(
            interval=False,
            more=(
                "The solver replayed this very deal, the cards as they were dealt, from the moment each of your "
                "cards was played: could your side still make its contract (or a nil, or set the opponents) "
                f"before the card, and after it?{during}",
                "Each card gets a time budget; a card the solver could not finish judging within it is marked "
                "“not exact”. The last tricks are always judged exactly.",
                DOUBLE_DUMMY,
            ),
        )

    def summary(self) -> str:
        """One sentence: which tricks were judged exactly and how many cards cost something.

        >>> HandAnalysis("1", 5, False, (), 0, 0.0).summary()
        'Judged exactly: no trick (the solver ran out of budget). None of the cards judged cost your side points (every hand known, both sides at their best).'
        """
        exact = self.exact_tricks
        if exact and len(exact) == len(self.verdicts):
            which = "every trick"
        elif exact and exact == tuple(range(exact[0], len(self.verdicts) + 1)):
            which = f"tricks {exact[0]} to {exact[-1]} (the earlier ones ran out of solver budget)"
        elif exact:
            missed = and_list(str(v.trick) for v in self.verdicts if not v.exact)
            which = f"{len(exact)} of {len(self.verdicts)} tricks (not {missed}: the solver ran out of budget)"
        else:
            which = "no trick (the solver ran out of budget)"
        n = len(self.marked)
        found = (
            f"{plural(n, 'card')} of yours cost your side points"
            if n
            else "None of the cards judged cost your side points"
        )
        bags = sum(v.mark == BAG for v in self.verdicts)
        spared = f" {plural(bags, 'card')} gave up only a bag, which is no mistake." if bags else ""
        during = f" ({self.live} of them while you played)" if self.live else ""
        return f"Judged exactly: {which}{during}. {found[0].upper()}{found[1:]} (every hand known, both sides at their best).{spared}"


def _plays(rnd: Round) -> tuple[Round, list[tuple[Seat, Card]]]:
    """The round dealt again and bid as it was, at its first card; and the cards played, in order.
    (Replayed from the record: a round scored in a game can no longer be taken back.)"""
    start = Round.from_hands(rnd.rules, rnd.dealt, dealer=rnd.dealer)
    plays: list[tuple[Seat, Card]] = []
    for action in rnd.history:
        if action.kind == ActionKind.PLAY:
            assert isinstance(action.value, Card)
            plays.append((action.seat, action.value))
        else:
            start.apply(action.value)
    return start, plays


def _tricks(pos: Position, team: Team = Team.NS) -> int:
    return sum(pos.taken[s] for s in team.seats)


def line_words(pos: Position, plays: Sequence[tuple[Seat, Card]], played: Card | None = None) -> str:
    """A line of play in words, trick by trick, from ``pos`` (``played``: the card just played).

    >>> import spades_tutor as st
    >>> pos = Position.from_hands(st.Rules.preset("jokers"), {"N": "AH 3C", "E": "KH 4C", "S": "3H 5C", "W": "QH BJ"},
    ...                          leader="N", spades_broken=True)
    >>> line_words(pos, [(st.Seat.NORTH, st.Card.parse("AH")), (st.Seat.EAST, st.Card.parse("KH")),
    ...                  (st.Seat.SOUTH, st.Card.parse("3H")), (st.Seat.WEST, st.Card.parse("QH"))])
    'North leads A♥, East K♥, South 3♥, West Q♥: North wins the trick.'
    """
    parts: list[str] = []
    current: list[str] = []
    for seat, card in plays:
        if not current:
            current.append(f"{seat} {'plays' if pos.trick else 'leads'} {card}")
        else:
            current.append(f"{seat} {card}")
        pos = pos.play(card)
        if not pos.trick:
            parts.append(f"{', '.join(current)}: {pos.leader} wins the trick")
            current = []
    if current:
        parts.append(", ".join(current))
    text = "; then ".join(parts)
    if played is not None and text:
        text = f"after {played}, {text}"
    return text[:1].upper() + text[1:] + "." if text else ""


class _Pool:
    """The analysis' node budget (and a time guard), spent position by position."""

    def __init__(self, nodes: int, seconds: float | None) -> None:
        self.left = nodes
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.used = 0

    def budget(self, share: int) -> Budget | None:
        """The budget of the next call with ``share`` nodes for it; None when nothing is left."""
        if share <= 0 or self.left <= 0:
            return None
        seconds = None
        if self.deadline is not None:
            seconds = self.deadline - time.perf_counter()
            if seconds <= 0:
                return None
        return Budget(nodes=min(share, self.left), seconds=seconds)

    def spend(self, nodes: int) -> None:
        self.left -= nodes
        self.used += nodes


def _reach(pos: Position, counted: tuple[Seat, ...], maximiser: Team, k: int, negate: bool, budget: Budget) -> Answer:
    """Can ``maximiser`` make the ``counted`` seats take ``k`` tricks in the round (tricks taken count)?
    With ``negate``: can the other team stop it? (The solver's questions, with the counted seats
    chosen: a nil bidder's tricks count toward the contract only where the rules give them to it.)"""
    return reach(pos, counted, maximiser, k, stop=negate, budget=budget)


def _breaking(pos: Position, seat: Seat) -> Callable[[Budget], Answer]:
    """The question 'can N–S make ``seat`` (an opponent who bid nil) take a trick?'"""
    return lambda budget: _reach(pos, (seat,), Team.NS, 1, False, budget)


def _judge(trick: int, before: Position, card: Card, goals: _Goals, pool: _Pool, share: int) -> CardVerdict:
    """One of South's cards judged with at most ``share`` nodes of ``pool``."""
    after = before.play(card)
    spent = 0

    def ask(question: Callable[[Budget], Result | Answer]) -> Result | Answer | None:
        nonlocal spent
        budget = pool.budget(share - spent)
        if budget is None:
            return None
        answer = question(budget)
        spent += answer.nodes
        pool.spend(answer.nodes)
        return answer if answer.exact else None

    ns, ew = Team.NS, Team.EW
    south_nil = goals.south_nil

    def goal(question: Callable[[Budget], Answer]) -> tuple[bool | None, bool | None, tuple[Card, ...]]:
        """Could the goal be reached before the card, did the card keep it, and the cards that did."""
        answer = ask(question)
        if not isinstance(answer, Answer):
            return None, None, ()
        kept = card in answer.best_cards if answer.holds else None
        return answer.holds, kept, answer.best_cards

    # the points first: nils, the contract, the set, an opponent's nil
    nil_before = kept_nil = None
    nil_cards: tuple[Card, ...] = ()
    if south_nil:
        nil_before, kept_nil, nil_cards = goal(lambda b: _reach(before, (LEARNER,), ew, 1, True, b))
    partner_before = kept_partner = None
    partner_cards: tuple[Card, ...] = ()
    if goals.north_nil:
        partner_before, kept_partner, partner_cards = goal(lambda b: _reach(before, (LEARNER.partner,), ew, 1, True, b))
    contract_before = kept_contract = None
    contract_cards: tuple[Card, ...] = ()
    set_before = kept_set = None
    set_cards: tuple[Card, ...] = ()
    opponent: Seat | None = None
    break_before = kept_break = None
    break_cards: tuple[Card, ...] = ()
    opponent_value = 0
    if not south_nil:
        if goals.contract > 0:
            contract_before, kept_contract, contract_cards = goal(
                lambda b: _reach(before, goals.counted, ns, goals.contract, False, b)
            )
        if goals.their_contract > 0:
            set_before, kept_set, set_cards = goal(
                lambda b: _reach(before, goals.their_counted, ew, goals.their_contract, True, b)
            )
        for seat, value in goals.their_nils:  # the first opponent's nil that could be broken
            holds, kept, cards = goal(_breaking(before, seat))
            opponent, break_before, kept_break, break_cards, opponent_value = seat, holds, kept, cards, value
            if holds is not False:
                break
    # then the tricks: did the card give one up?
    before_total = after_total = None
    best: tuple[Card, ...] = ()
    first = ask(lambda b: solve(before, ns, budget=b, with_cards=False))
    if isinstance(first, Result):
        before_total = _tricks(before) + first.value
        second = ask(lambda b: solve(after, ns, budget=b, with_cards=False))
        if isinstance(second, Result):
            after_total = _tricks(after) + second.value
    exact = before_total is not None and after_total is not None
    if south_nil:
        exact = exact and nil_before is not None
    else:
        exact = exact and (goals.contract <= 0 or contract_before is not None)
        exact = exact and (goals.their_contract <= 0 or set_before is not None)
        exact = exact and (not goals.their_nils or break_before is not None)
    exact = exact and (partner_before is not None or not goals.north_nil)
    rules = goals.rules
    verdict = CardVerdict(
        trick, card, exact, before_total, after_total, best, nil_before, kept_nil, contract_before, kept_contract,
        (), (), "", south_nil, partner_before, kept_partner, goals.contract, goals.their_contract,
        set_before, kept_set, opponent, break_before, kept_break, 0, bag_cost(rules),
    )  # fmt: skip
    mark = verdict.mark
    if mark in (BAG, TRICK):  # the cards that would have kept the trick, for the record
        keeping = ask(lambda b: solve(before, ns, budget=b))
        if isinstance(keeping, Result):
            verdict = dataclasses.replace(verdict, best=keeping.best_cards)
    if mark not in MISTAKES:
        return verdict

    def step() -> Budget:  # each card of the line: a few nodes, and never past the analysis' time guard
        left = None if pool.deadline is None else max(0.001, pool.deadline - time.perf_counter())
        return Budget(nodes=LINE_NODES[core_in_use()], seconds=left)

    question: Callable[[Position], Result | Answer]
    if mark == NIL:
        better, stake = nil_cards, 2 * goals.nil_value
        question = lambda p: _reach(p, (LEARNER,), ew, 1, True, step())  # noqa: E731
    elif mark == PARTNER_NIL:
        better, stake = partner_cards, 2 * goals.partner_nil_value
        question = lambda p: _reach(p, (LEARNER.partner,), ew, 1, True, step())  # noqa: E731
    elif mark == CONTRACT:
        better, stake = contract_cards, 2 * rules.trick_points * goals.contract
        question = lambda p: _reach(p, goals.counted, ns, goals.contract, False, step())  # noqa: E731
    elif mark == SET:
        better, stake = set_cards, 2 * rules.trick_points * goals.their_contract
        question = lambda p: _reach(p, goals.their_counted, ew, goals.their_contract, True, step())  # noqa: E731
    else:
        assert opponent is not None
        seat = opponent
        better, stake = break_cards, 2 * opponent_value
        question = lambda p: _reach(p, (seat,), ns, 1, False, step())  # noqa: E731
    # the rest of the trick and the next one, as the solver plays them for both sides
    length = min((4 - len(after.trick)) % 4 + 4, after.tricks_left * 4 - len(after.trick))
    played = line(after, question, cards=length)
    if after.trick and not played:
        text = "The play after it was not worked out: the solver's budget ran out."
    elif after.trick:
        text = line_words(after, played, card)
    else:  # South's card ended the trick: who won it, then the next one
        rest = line_words(after, played)
        text = f"After {card}, {after.leader} wins the trick" + (f"; then {rest}" if rest else ".")
    return dataclasses.replace(verdict, better=better, stake=stake, line=played, line_text=text)


_Key = tuple[object, ...]


def _positions(rnd: Round) -> list[tuple[int, Position, Card, _Key]]:
    """Each card South played so far in ``rnd``: its trick (1..13), the position before it, the card,
    and a key naming the card in this deal and bidding after this play (a card taken back and
    played again judges the same; another card, or other bids, does not)."""
    replay, plays = _plays(rnd)
    head: _Key = (
        rnd.rules,
        rnd.dealer,
        tuple(tuple(rnd.dealt[s]) for s in Seat),
        tuple((s, str(b), b.blind) for s, b in rnd.bids.items()),
    )
    out = []
    for i, (seat, card) in enumerate(plays):
        if seat == LEARNER:
            out.append((i // 4 + 1, Position.from_round(replay), card, (*head, tuple(plays[: i + 1]))))
        replay.play(card, seat)
    return out


_Task = tuple[int, Position, Card, _Goals, int | None, float | None, str]


def _judge_task(trick: int, pos: Position, card: Card, goals: _Goals, nodes: int | None, seconds: float | None,
                core: str) -> CardVerdict:  # fmt: skip
    """One card judged as ``LiveAnalysis`` asks: ``nodes`` (None: ``LIVE_NODES``) and ``seconds`` for it,
    on the solver's ``core`` setting (``search.CORE``) of the page that asked."""
    solver_search.CORE = core
    chosen = ready()
    if nodes is None:
        nodes = LIVE_NODES[chosen]
    with kept_tables():
        return _judge(trick, pos, card, goals, _Pool(nodes, seconds), nodes)


def _serve() -> None:
    """``LiveAnalysis``' worker process: judges the cards it is sent (each a pickled ``_Task`` on its
    standard input), one at a time, and writes each verdict back, pickled, on its standard output;
    it ends when its input does (the kernel that started it stopped, or closed it)."""
    import os
    import pickle
    import sys

    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything printed goes to the error stream, never among the verdicts
    source = sys.stdin.buffer
    while True:
        try:
            task = pickle.load(source)
        except EOFError:
            return
        answer: tuple[str, object]
        try:
            answer = ("ok", _judge_task(*task))
        except Exception as e:  # sent back: the page's analysis reads it from the card's job
            answer = ("error", e)
        pickle.dump(answer, out)
        out.flush()


class _Worker:
    """The worker process judging cards for every ``LiveAnalysis`` of this kernel, one card at a time,
    and the daemon thread handing them to it: started at the first card, both stopped after
    ``LIVE_IDLE_SECONDS`` without one (one process however many pages ask: it holds the solver's
    tables, about 240 MB)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.queue: queue.SimpleQueue[tuple[Future[CardVerdict], _Task]] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.process: subprocess.Popen[bytes] | None = None

    def submit(self, task: _Task) -> Future[CardVerdict]:
        """Queue ``task``; the thread (started if there is none) runs it in turn."""
        job: Future[CardVerdict] = Future()
        with self.lock:
            if self.thread is None:
                self.thread = threading.Thread(target=self._work, name="spades-tutor-analysis", daemon=True)
                self.thread.start()
            self.queue.put((job, task))
        return job

    def _work(self) -> None:
        while True:
            try:
                job, task = self.queue.get(timeout=LIVE_IDLE_SECONDS)
            except queue.Empty:
                with self.lock:  # (``submit`` queues under the lock: nothing comes meanwhile)
                    if self.queue.empty():
                        self.thread = None  # an idle kernel keeps no thread and no process
                        self._stop_process()
                        return
                continue
            if not job.set_running_or_notify_cancel():
                continue  # cancelled while queued
            try:
                job.set_result(self._run(task))
            except BaseException as e:  # the page reads it from the job (an error page, not a dead thread)
                job.set_exception(e)

    def _run(self, task: _Task) -> CardVerdict:
        """``task`` judged by the worker process (started if it is not running)."""
        import pickle
        import sys

        with self.lock:
            process = self.process
            if process is None or process.poll() is not None:
                try:
                    process = subprocess.Popen(
                        [sys.executable, "-c", "from spades_tutor.analysis import _serve; _serve()"],
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                    )
                except OSError:  # no process can be started here: the thread judges the card
                    process = None
                self.process = process
        if process is None:
            return _judge_task(*task)
        assert process.stdin is not None and process.stdout is not None
        try:
            pickle.dump(task, process.stdin)
            process.stdin.flush()
            status, value = pickle.load(process.stdout)
        except (EOFError, OSError, pickle.UnpicklingError) as e:
            process.kill()
            raise RuntimeError("the analysis' worker process stopped before it judged the card") from e
        if status != "ok":
            assert isinstance(value, BaseException)
            raise value
        assert isinstance(value, CardVerdict)
        return value

    def _stop_process(self) -> None:
        """End the worker process (its input closed; killed if it does not end at once)."""
        process, self.process = self.process, None
        if process is None:
            return
        try:
            assert process.stdin is not None
            process.stdin.close()
            process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()


_WORKER = _Worker()


class LiveAnalysis:
    """South's cards judged while the hand is played, one at a time, beside the kernel.

    The page calls ``follow(rnd)`` after every card of South's; each card not yet judged is
    queued, and judged (every question exact) with ``LIVE_NODES`` and at most ``LIVE_SECONDS`` of
    work, while the learner plays on: the early positions, which take the solver the longest, are
    done long before the hand ends. ``analyse(rnd, live=...)`` takes the verdicts from here.

    A background thread hands the cards to a worker process (``_serve``; one for the kernel,
    ``worker``), started at the first card and stopped after ``LIVE_IDLE_SECONDS`` without one: the
    compiled solver keeps the interpreter's lock while it searches, so judging on a thread of the
    kernel itself would leave the page a few milliseconds in every few hundred, and play would
    crawl. The process also runs on another core where there is one. (Where no process can be
    started, the thread judges the cards itself.) The thread is a daemon, and the process ends
    with its input, once the card it is on is judged: a kernel that stops leaves neither for long.
    """

    def __init__(self, *, nodes: int | None = None, seconds: float | None = LIVE_SECONDS) -> None:
        self.nodes = nodes
        self.seconds = seconds
        self.worker = _WORKER
        self._lock = threading.Lock()
        self._jobs: dict[_Key, Future[CardVerdict]] = {}

    def follow(self, rnd: Round) -> int:
        """Queue every card South has played in ``rnd`` and that is not judged yet; the number queued.
        A finished round, or a new deal, drops the cards of other deals not started yet."""
        positions = _positions(rnd) if rnd.phase is not Phase.BIDDING else []
        keys = {key for *_rest, key in positions}
        queued = 0
        head = positions[0][3][:4] if positions else None
        with self._lock:
            for key, job in list(self._jobs.items()):
                if key in keys:
                    continue
                job.cancel()  # a card taken back, or another deal's: not needed unless played again
                if key[:4] != head or job.cancelled():
                    del self._jobs[key]  # (one being judged finishes within its guard, unread)
            goals = _Goals.of(rnd) if positions else None
            for trick, pos, card, key in positions:
                assert goals is not None
                known = self._jobs.get(key)
                if known is None or known.cancelled():
                    self._jobs[key] = self.worker.submit(
                        (trick, pos, card, goals, self.nodes, self.seconds, solver_search.CORE)
                    )
                    queued += 1
        return queued

    def job(self, key: _Key) -> Future[CardVerdict] | None:
        with self._lock:
            return self._jobs.get(key)

    def judged(self, rnd: Round) -> int:
        """How many of South's cards in ``rnd`` are judged already."""
        jobs = [self.job(key) for *_rest, key in _positions(rnd)]
        return sum(1 for j in jobs if j is not None and j.done() and not j.cancelled())

    def wait(self, rnd: Round, timeout: float | None = None) -> bool:
        """Wait (at most ``timeout`` seconds; None: as long as it takes) for South's cards in ``rnd`` to
        be judged; whether they all are."""
        deadline = None if timeout is None else time.perf_counter() + timeout
        judged = True
        for *_rest, key in _positions(rnd):
            job = self.job(key)
            if job is None:
                return False
            left = None if deadline is None else max(0.0, deadline - time.perf_counter())
            try:
                job.result(timeout=left)
            except TimeoutError:
                return False
            except Exception:  # the card could not be judged there: it is judged after the hand
                judged = False
        return judged

    def clear(self) -> None:
        """Forget every card: a new deal starts (the card being judged finishes within its guard)."""
        with self._lock:
            for job in self._jobs.values():
                job.cancel()
            self._jobs.clear()

    def close(self) -> None:
        """Drop this page's queued cards (the worker, shared, stops by itself when idle)."""
        self.clear()


def analyse(
    rnd: Round,
    *,
    nodes: int | None = None,
    seconds: float | None = ANALYSIS_SECONDS,
    progress: Progress = None,
    live: LiveAnalysis | None = None,
) -> HandAnalysis:
    """Each of South's cards in the finished ``rnd``, judged double dummy.

    With ``live``, the cards it judged during the hand are taken as they are (those it is still
    working on waited for, within ``seconds``). The rest are judged here from the last trick back:
    ``nodes`` is the solver's work for them (None: ``ANALYSIS_NODES`` for the core in use, the
    compiled one doing a hundred times more in the same time), each position getting an equal share
    of what is left (so the cheap late positions leave more for the early ones); ``seconds`` (None:
    no limit) stops the work on a slower machine. ``progress(done, 13)`` is called after each trick.
    """
    if not rnd.is_over:
        raise ValueError(f"round {rnd.deal_id}: the analysis needs a finished round")
    core = ready()  # the compiled search loaded before the clock starts
    if nodes is None:
        nodes = ANALYSIS_NODES[core]
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    goals = _Goals.of(rnd)
    positions = _positions(rnd)
    total = len(positions)
    found: dict[int, CardVerdict] = {}
    if live is not None:
        live.follow(rnd)  # a card the page has not passed on yet
        jobs = {k: live.job(key) for k, (*_rest, key) in enumerate(positions)}
        for k in range(total):  # in play order, as the thread works: each waited for within the guard
            job = jobs[k]
            if job is None or job.cancelled():
                continue
            left = None if deadline is None else deadline - time.perf_counter()
            if not job.done() and left is not None and left <= 0:
                continue
            try:
                verdict = job.result(timeout=left)
            except Exception:  # not ready in time, or the worker failed: judged here instead
                continue
            if verdict.exact:
                found[k] = verdict
                if progress is not None:
                    progress(len(found), total)
    pool = _Pool(nodes, None if deadline is None else deadline - time.perf_counter())
    rest = [k for k in range(total) if k not in found]
    if live is not None:
        for k in rest:  # judged here: the thread need not (one it has started finishes within its guard)
            job = live.job(positions[k][3])
            if job is not None and not job.done():
                job.cancel()
    with kept_tables():  # what one card's questions proved answers the next card's
        for n, k in enumerate(reversed(rest)):
            trick, before, card, _key = positions[k]
            share = pool.left // (len(rest) - n)
            found[k] = _judge(trick, before, card, goals, pool, share)
            if progress is not None:
                progress(total - len(rest) + n + 1, total)
    verdicts = tuple(found[k] for k in range(total))
    return HandAnalysis(
        rnd.deal_id or "", goals.contract, goals.south_nil, verdicts, pool.used, time.perf_counter() - start,
        total - len(rest),
    )  # fmt: skip


# --- the hint: sampled layouts ----------------------------------------------------------------


def _seen(view: SeatView) -> tuple[dict[Seat, int], dict[Seat, set[Suit]], set[Card]]:
    """From what ``view.seat`` saw: cards each seat played, each seat's known voids, every card gone."""
    rules = view.rules
    played = {s: 0 for s in Seat}
    voids: dict[Seat, set[Suit]] = {s: set() for s in Seat}
    gone: set[Card] = set()
    for trick in (*view.tricks, view.trick):
        if not trick.cards:
            continue
        led = rules.suit_of(trick.cards[0])
        for seat, card in zip(trick.seats, trick.cards, strict=False):
            played[seat] += 1
            gone.add(card)
            if rules.suit_of(card) != led:  # did not follow: has none of the suit led
                voids[seat].add(led)
    return played, voids, gone


def sample_layouts(view: SeatView, n: int, seed: int = 0) -> list[dict[Seat, tuple[Card, ...]]]:
    """``n`` deals of the cards ``view.seat`` cannot see to the other seats, each consistent with the
    play: the right number of cards in every hand, no card played or held by the viewer, and no card
    of a suit a seat has shown void in. The viewer's hand is its own. Seeded.

    >>> import spades_tutor as st
    >>> rnd = st.Round.deal(st.Rules.preset("jokers"), seed=4)
    >>> for _ in range(4 + 9):  # the bids and nine cards
    ...     rnd.apply(rnd.legal_actions()[0])
    >>> layouts = sample_layouts(rnd.view(st.Seat.SOUTH), 3, seed=1)
    >>> [len(h) for h in layouts[0].values()] == [len(rnd.hands[s]) for s in layouts[0]]
    True
    """
    rules = view.rules
    me = view.seat
    played, voids, gone = _seen(view)
    sizes = {s: len(view.hand) + played[me] - played[s] for s in Seat if s != me}
    unseen = [c for c in rules.deck() if c not in gone and c not in view.hand]
    allowed = {c: [s for s in sizes if rules.suit_of(c) not in voids[s]] for c in unseen}
    rng = random.Random(seed)
    out: list[dict[Seat, tuple[Card, ...]]] = []
    tries = 0
    while len(out) < n and tries < 20 * n + 100:
        tries += 1
        cards = list(unseen)
        rng.shuffle(cards)
        cards.sort(key=lambda c: len(allowed[c]))  # the most constrained cards first (stable: still shuffled)
        room = dict(sizes)
        hands: dict[Seat, list[Card]] = {s: [] for s in sizes}
        for c in cards:
            seats = [s for s in allowed[c] if room[s] > 0]
            if not seats:
                break
            seat = rng.choices(seats, weights=[room[s] for s in seats])[0]
            hands[seat].append(c)
            room[seat] -= 1
        else:
            layout = {s: rules.sort_hand(hands[s]) if s != me else view.hand for s in Seat}
            layout[me] = view.hand
            out.append({s: tuple(layout[s]) for s in Seat})
    return out


@dataclasses.dataclass(frozen=True)
class Hint:
    """The card that reached the goal in the most sampled layouts, and how often."""

    card: Card
    goal: str  # "makes the contract of 7" / "keeps your nil"
    made: int
    layouts: int
    low: float
    high: float
    tied: bool  # every legal card did as well: the goal is settled whatever South plays
    voids: tuple[tuple[Seat, Suit], ...] = ()  # the voids the play has shown, which every layout keeps
    seed: int = 0  # the layouts' seed (said only behind "How was this measured?")
    unsolved: int = 0  # layouts dealt but not solved within their work: left out, and said in ``method``

    def sentence(self, subject: str = "") -> str:
        """The hint in one short sentence, short enough for a phone's docked hand: the card (or
        ``subject``, "It" after the card was named), how often it reaches the goal, its likely range,
        and that a simulation measured it. What the layouts keep to (the voids shown), how they were
        played, how many there were and the seed are in ``method``."""
        share = self.made / self.layouts
        often = how_often(share, self.low, self.high, of="the ways the unseen cards may lie")
        return f"{subject or self.card} {self.goal} {often}, measured by a simulation."

    def method(self) -> tuple[str, ...]:
        """How the hint was measured, for "How was this measured?"."""
        return how_measured(
            deals=self.layouts,
            what="of the cards you cannot see",
            players="the solver, double dummy",
            seed=self.seed,
            double_dummy=True,
            more=(
                "Each deal keeps to what the play has shown: every hand its right size, no card already played, "
                "and no card of a suit a player has shown they are out of"
                + (
                    " (" + and_list(f"{seat} has no {suit.plural}" for seat, suit in self.voids) + ")."
                    if self.voids
                    else "."
                ),
                f"The card recommended {self.goal} in {self.made} of those {self.layouts} deals.",
                *(
                    (
                        f"{self.unsolved} more {'deal' if self.unsolved == 1 else 'deals'} took the solver longer than "
                        f"its share of the time and {'is' if self.unsolved == 1 else 'are'} left out.",
                    )
                    if self.unsolved
                    else ()
                ),
            ),
        )


def play_hint(
    view: SeatView,
    *,
    layouts: int = HINT_LAYOUTS,
    seed: int = 0,
    max_tricks: int | None = None,
    nodes: int | None = None,
    seconds: float | None = HINT_SECONDS,
    prefer: Card | None = None,
) -> Hint | None:
    """The card of ``view.seat`` (to act, in play) that makes the team's contract (or its nil) in the
    most layouts sampled by ``sample_layouts``; each layout is solved with ``nodes`` of work, and the
    whole hint stops after ``seconds`` (None: no limit). ``prefer`` (the heuristic's card) breaks ties.
    ``max_tricks`` and ``nodes`` default to ``HINT_TRICKS`` and ``HINT_NODES`` for the solver's core.

    None when there is nothing to measure: more than ``max_tricks`` tricks left, not this seat's card,
    or fewer than ``HINT_MIN_LAYOUTS`` layouts solved in time (then the heuristic's reason stands).
    """
    if view.phase is not Phase.PLAYING or view.to_act != view.seat or not view.legal:
        return None
    core = ready()  # the compiled search loaded before the clock starts
    if max_tricks is None:
        max_tricks = HINT_TRICKS[core]
    if nodes is None:
        nodes = HINT_NODES[core]
    if len(view.hand) > max_tricks:
        return None
    from .lab.intervals import wilson  # numpy: loaded before the clock starts

    me = view.seat
    nil = view.bids[me].tricks == 0
    contract = sum(view.bids[s].tricks for s in me.team.seats)
    goal = "keeps your nil" if nil else f"makes your side's contract of {contract}"
    deadline = None if seconds is None else time.perf_counter() + seconds
    counts = dict.fromkeys(view.legal, 0)
    solved = unsolved = 0
    rules: Rules = view.rules
    taken: dict[Seat | str, int] = {s: view.tricks_won.get(s, 0) for s in Seat}
    with kept_tables():  # the layouts share most of their cards: what one proved helps the next
        for layout in sample_layouts(view, layouts, seed):
            remaining = None if deadline is None else deadline - time.perf_counter()
            if remaining is not None and remaining <= 0:
                break
            pos = Position.from_hands(
                rules,
                {s: layout[s] for s in Seat},
                leader=view.trick.leader,
                trick=view.trick.cards,
                spades_broken=view.spades_broken,
                taken=taken,
            )
            budget = Budget(nodes=nodes, seconds=remaining)
            answer = make_nil(pos, me, budget=budget) if nil else make_contract(pos, me.team, contract, budget=budget)
            if not answer.exact:
                unsolved += 1
                continue
            solved += 1
            if answer.holds:
                for c in answer.best_cards:
                    counts[c] += 1
    if solved < HINT_MIN_LAYOUTS:
        return None
    top = max(counts.values())
    tops = [c for c in view.legal if counts[c] == top]
    card = prefer if prefer in tops else tops[0]
    low, high = wilson([top], [solved])
    _played, voids, _gone = _seen(view)
    shown = tuple((seat, suit) for seat in Seat if seat != me for suit in Suit if suit in voids[seat])
    return Hint(
        card, goal, top, solved, float(low[0]), float(high[0]), len(tops) == len(view.legal), shown, seed, unsolved
    )
