"""After a hand, "where did that trick go?"; during one, a hint measured on sampled layouts.

``analyse(rnd)`` replays a finished round and asks the solver, for each of South's cards, how
many tricks N–S could take double dummy before and after it, whether South's nil, North's nil and
N–S's contract could still be made: a card that lowered one of them is marked, with the better
cards and the solver's line after the card played. The work is a node budget, spent from
the last trick backwards, so the late (cheap) positions are always exact and an early
position that ran out says so.

``play_hint(view)`` deals the cards South cannot see in layouts consistent with the play
(every seat's hand size, the cards gone, the voids shown), solves each layout, and
recommends the card that reaches the goal in the most of them: a simulation, with a 95%
interval.

>>> import spades_tutor as st
>>> from spades_tutor.bots import HeuristicBot
>>> from spades_tutor.bots.drivers import play_round
>>> rnd = play_round(st.Rules.preset("jokers"), {s: HeuristicBot() for s in st.Seat}, seed=3)
>>> report = analyse(rnd, nodes=40_000, seconds=None)
>>> eighth = report.verdicts[7]
>>> eighth.card, eighth.mark, eighth.before, eighth.after, eighth.better
(Card.parse('BJ'), 'cost a trick', 10, 9, (Card.parse('7♥'),))
>>> report.exact_tricks[-6:]  # the last tricks are always exact
(8, 9, 10, 11, 12, 13)
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Sequence

from .engine import Card, Phase, Round, Rules, Seat, SeatView, Suit, Team
from .engine.text import and_list, plural
from .solver import Answer, Budget, Position, Result, line, make_contract, make_nil, ready, solve
from .solver.search import core_in_use

__all__ = [
    "CONTRACT",
    "COST",
    "FINE",
    "NIL",
    "PARTNER_NIL",
    "UNKNOWN",
    "CardVerdict",
    "HandAnalysis",
    "Hint",
    "analyse",
    "line_words",
    "play_hint",
    "sample_layouts",
]

LEARNER = Seat.SOUTH
# the whole hand's work, by the solver's core: about 6 s on this machine with either
ANALYSIS_NODES = {"pure": 300_000, "compiled": 30_000_000}
ANALYSIS_SECONDS = 9.0  # a guard on slower machines: the hand never takes longer
LINE_NODES = {"pure": 20_000, "compiled": 500_000}  # each step of a line, by the solver's core
HINT_LAYOUTS = 200
# the sampled hint solves layouts from this many tricks left down, each with this much work, by the
# solver's core: nearly every layout solved exactly within the 2 s (about 0.2 s median on this machine)
HINT_TRICKS = {"pure": 6, "compiled": 9}
HINT_NODES = {"pure": 20_000, "compiled": 100_000}
HINT_SECONDS = 2.0
HINT_MIN_LAYOUTS = 20  # fewer solved layouts than this: the heuristic's sentence instead

FINE = "fine"
COST = "cost a trick"
CONTRACT = "lost the contract"
NIL = "lost the nil"
PARTNER_NIL = "lost partner's nil"
UNKNOWN = "not exact"

Progress = Callable[[int, int], object] | None


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
    """

    trick: int  # 1..13
    card: Card
    exact: bool
    before: int | None
    after: int | None
    best: tuple[Card, ...]  # every card keeping the most tricks for N–S (when exact)
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

    @property
    def mark(self) -> str:
        """The worst thing the card did: lost the nil (South's, then North's), the contract, a trick; or
        fine (or not exact)."""
        if self.nil_before and self.kept_nil is False:
            return NIL
        if self.partner_nil_before and self.kept_partner_nil is False:
            return PARTNER_NIL
        if not self.nil_bid and self.contract_before and self.kept_contract is False:
            return CONTRACT
        if not self.exact:
            return UNKNOWN
        lower = self.before is not None and self.after is not None and self.after < self.before
        return COST if lower and not self.nil_bid else FINE

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
                " (double dummy)."
            )
        if mark == FINE:
            if self.nil_bid and self.nil_before is not None:
                values += " Your nil " + ("could still be made." if self.nil_before else "was already lost.")
            return f"Fine: {values}"
        better = and_list(str(c) for c in self.better) or "another card"
        head = {
            NIL: f"Lost the nil: {better} would have kept it.",
            PARTNER_NIL: f"Lost partner's nil: {better} would have kept North's nil.",
            CONTRACT: f"Lost the contract: {better} would have kept it.",
            COST: f"Cost a trick: {better} would have kept it.",
        }[mark]
        return " ".join(part for part in (head, values, self.line_text) if part)


@dataclasses.dataclass(frozen=True)
class HandAnalysis:
    """Every card South played in one round, judged (``verdicts`` in play order)."""

    deal_id: str
    contract: int  # N–S's bids added (a nil adds 0)
    south_nil: bool
    verdicts: tuple[CardVerdict, ...]
    nodes: int
    seconds: float

    @property
    def exact_tricks(self) -> tuple[int, ...]:
        """The tricks (1..13) whose South card was judged exactly."""
        return tuple(v.trick for v in self.verdicts if v.exact)

    @property
    def marked(self) -> tuple[CardVerdict, ...]:
        return tuple(v for v in self.verdicts if v.mark not in (FINE, UNKNOWN))

    def summary(self) -> str:
        """One sentence: which tricks were judged exactly and how many cards cost something.

        >>> HandAnalysis("1", 5, False, (), 0, 0.0).summary()
        'Judged exactly: no trick (the solver ran out of budget). None of the cards judged cost anything (double dummy, every hand known).'
        """
        exact = self.exact_tricks
        if exact and len(exact) == len(self.verdicts):
            which = "every trick"
        elif exact:
            which = f"tricks {exact[0]} to {exact[-1]} (the earlier ones ran out of solver budget)"
        else:
            which = "no trick (the solver ran out of budget)"
        n = len(self.marked)
        found = f"{plural(n, 'card')} of yours cost something" if n else "None of the cards judged cost anything"
        return f"Judged exactly: {which}. {found[0].upper()}{found[1:]} (double dummy, every hand known)."


def _plays(rnd: Round) -> tuple[Round, list[tuple[Seat, Card]]]:
    """The round dealt again and bid as it was, at its first card; and the cards played, in order.
    (Replayed from the record: a round scored in a game can no longer be taken back.)"""
    start = Round.from_hands(rnd.rules, rnd.dealt, dealer=rnd.dealer)
    plays: list[tuple[Seat, Card]] = []
    for action in rnd.history:
        if action.kind == "play":
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


def _judge(
    trick: int,
    before: Position,
    card: Card,
    south_nil: bool,
    contract: int,
    pool: _Pool,
    share: int,
    north_nil: bool = False,
) -> CardVerdict:
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

    ns = Team.NS
    first = ask(lambda b: solve(before, ns, budget=b))
    before_total = after_total = None
    best: tuple[Card, ...] = ()
    if isinstance(first, Result):
        before_total = _tricks(before) + first.value
        best = first.best_cards
        if card in best:
            after_total = before_total
        else:
            second = ask(lambda b: solve(after, ns, budget=b, with_cards=False))
            if isinstance(second, Result):
                after_total = _tricks(after) + second.value
    nil_before = kept_nil = None
    nil_cards: tuple[Card, ...] = ()
    contract_cards: tuple[Card, ...] = ()
    if south_nil:
        nil = ask(lambda b: make_nil(before, LEARNER, budget=b))
        if isinstance(nil, Answer):
            nil_before = nil.holds
            kept_nil = card in nil.best_cards if nil.holds else None
            nil_cards = nil.best_cards
    partner_before = kept_partner = None
    partner_cards: tuple[Card, ...] = ()
    if north_nil:
        covered = ask(lambda b: make_nil(before, LEARNER.partner, budget=b))
        if isinstance(covered, Answer):
            partner_before = covered.holds
            kept_partner = card in covered.best_cards if covered.holds else None
            partner_cards = covered.best_cards
    contract_before = kept_contract = None
    if contract > 0 and not south_nil:
        made = ask(lambda b: make_contract(before, ns, contract, budget=b))
        if isinstance(made, Answer):
            contract_before = made.holds
            kept_contract = card in made.best_cards if made.holds else None
            contract_cards = made.best_cards
    exact = before_total is not None and after_total is not None
    exact = exact and (nil_before is not None if south_nil else contract <= 0 or contract_before is not None)
    exact = exact and (partner_before is not None or not north_nil)
    verdict = CardVerdict(
        trick, card, exact, before_total, after_total, best, nil_before, kept_nil, contract_before, kept_contract,
        (), (), "", south_nil, partner_before, kept_partner,
    )  # fmt: skip
    mark = verdict.mark
    if mark in (FINE, UNKNOWN):
        return verdict

    def step() -> Budget:  # each card of the line: a few nodes, and never past the analysis' time guard
        left = None if pool.deadline is None else max(0.001, pool.deadline - time.perf_counter())
        return Budget(nodes=LINE_NODES[core_in_use()], seconds=left)

    question: Callable[[Position], Result | Answer]
    if mark == NIL:
        better = nil_cards
        question = lambda p: make_nil(p, LEARNER, budget=step())  # noqa: E731
    elif mark == PARTNER_NIL:
        better = partner_cards
        question = lambda p: make_nil(p, LEARNER.partner, budget=step())  # noqa: E731
    elif mark == CONTRACT:
        better = contract_cards
        question = lambda p: make_contract(p, ns, contract, budget=step())  # noqa: E731
    else:
        better = best
        question = lambda p: solve(p, ns, budget=step())  # noqa: E731
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
    return dataclasses.replace(verdict, better=better, line=played, line_text=text)


def analyse(
    rnd: Round,
    *,
    nodes: int | None = None,
    seconds: float | None = ANALYSIS_SECONDS,
    progress: Progress = None,
) -> HandAnalysis:
    """Each of South's cards in the finished ``rnd``, judged double dummy, from the last trick back.

    ``nodes`` is the solver's work for the whole hand (None: ``ANALYSIS_NODES`` for the core in
    use, the compiled one doing a hundred times more in the same time), each position getting an equal share of
    what is left (so the cheap late positions leave more for the early ones); ``seconds`` (None:
    no limit) stops the work on a slower machine. ``progress(done, 13)`` is called after each trick.
    """
    if not rnd.is_over:
        raise ValueError(f"round {rnd.deal_id}: the analysis needs a finished round")
    core = ready()  # the compiled search loaded before the clock starts
    if nodes is None:
        nodes = ANALYSIS_NODES[core]
    start = time.perf_counter()
    replay, plays = _plays(rnd)
    bid = rnd.bids[LEARNER]
    south_nil = bid.tricks == 0
    north_nil = rnd.bids[LEARNER.partner].tricks == 0
    contract = rnd.team_contract(Team.NS)
    positions: list[tuple[int, Position, Card]] = []
    for i, (seat, card) in enumerate(plays):
        if seat == LEARNER:
            positions.append((i // 4 + 1, Position.from_round(replay), card))
        replay.play(card, seat)
    pool = _Pool(nodes, seconds)
    verdicts: list[CardVerdict] = []
    total = len(positions)
    for k, (trick, before, card) in enumerate(reversed(positions)):
        share = pool.left // (total - k)
        verdicts.append(_judge(trick, before, card, south_nil, contract, pool, share, north_nil))
        if progress is not None:
            progress(k + 1, total)
    verdicts.reverse()
    return HandAnalysis(rnd.deal_id or "", contract, south_nil, tuple(verdicts), pool.used, time.perf_counter() - start)


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

    def sentence(self) -> str:
        share = self.made / self.layouts
        shown = ""
        if self.voids:
            shown = "; " + and_list(f"{seat} has no {suit.plural}" for seat, suit in self.voids)
        return (
            f"{self.card} {self.goal} in {share:.0%} ({self.low:.0%}–{self.high:.0%}) of {self.layouts} layouts of "
            f"the unseen cards consistent with the play{shown} (a simulation: each layout solved double dummy; "
            "95% interval)."
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
    from .lab.experiments import wilson  # numpy: loaded before the clock starts

    me = view.seat
    nil = view.bids[me].tricks == 0
    contract = sum(view.bids[s].tricks for s in me.team.seats)
    goal = "keeps your nil" if nil else f"makes your side's contract of {contract}"
    deadline = None if seconds is None else time.perf_counter() + seconds
    counts = dict.fromkeys(view.legal, 0)
    solved = 0
    rules: Rules = view.rules
    taken: dict[Seat | str, int] = {s: view.tricks_won.get(s, 0) for s in Seat}
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
    return Hint(card, goal, top, solved, float(low[0]), float(high[0]), len(tops) == len(view.legal), shown)
