"""What changes at your table: each difference between two rule sets, shown on a hand the engine decides.

The differences are read from the ``Rules`` dataclass's own fields, so a house rule added to it
later is listed too: the deck and the trumps (``removed``, ``jokers``, ``trumps``) are one
difference, every other field (but the rule set's name and title) is its own. For each one the
finder changes only that field of the reference rule set and asks the engine, in a fixed, seeded
list of situations, for the first one whose answer the change alters: a trick won by another card,
a first lead by another seat, a bid allowed at one table and not the other, a hand scored
otherwise, a game that ends at another score, a renege paid otherwise. The example is then the
same situation decided by the engine in the learner's whole rule set and in the reference's,
side by side, and only kept when the two whole rule sets answer as the one change does (so the
example shows that change and nothing else). Nothing here decides a rule: every answer and every
sentence is the engine's.

>>> from spades_tutor.engine import Rules
>>> found = differences(Rules.preset("jokers", target=300), Rules.preset("jokers"))
>>> [d.heading for d in found]
['Game to 300 instead of 500']
>>> example = found[0].example
>>> example.kind, example.yours.answer, example.theirs.answer
('game', 'North–South win', 'The game goes on')
>>> print(example.yours.sentences[0])
North–South reached 300 (300) and win.
>>> differences(Rules.preset("jokers"), Rules.preset("jokers"))
()
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ..engine import (
    BLIND_NIL,
    NIL,
    Bid,
    Card,
    Round,
    Rules,
    RulesError,
    Seat,
    SpadesError,
    Team,
    Trick,
    apply_renege,
    describe_penalty,
    explain_first_leader,
    explain_game,
    explain_trick,
    score_hand,
    trick_winner,
)
from ..engine.scoring import HandScore
from ..engine.text import number, plural, signed
from ..quiz.base import QuizItem

__all__ = [
    "DECK_FIELDS",
    "REFERENCES",
    "Difference",
    "Example",
    "Outcome",
    "differences",
    "quiz_items",
    "rule_fields",
]

#: the rule sets a learner's table is compared with: the standard game and regular Spades
REFERENCES: dict[str, str] = {"jokers": "Spades with Jokers", "classic": "Regular Spades"}

#: the fields that together make the deck and the trump order: one difference
DECK_FIELDS = ("removed", "jokers", "trumps")
#: the fields that name a rule set rather than rule it
_LABELS = ("name", "title")

#: how many seeded deals the trick search plays out, per rule set
TRICK_DEALS = 24
#: how many seeded hands the scoring search tries after the hands written out below
SCORE_HANDS = 80
#: the seed of every search (the same examples on every machine, every time)
SEED = 32


@dataclasses.dataclass(frozen=True)
class Outcome:
    """One table's answer to an example: in a few words, the engine's sentences, and what to draw."""

    answer: str
    sentences: tuple[str, ...]
    scores: Mapping[Team, HandScore] | None = None
    trick: Trick | None = None
    #: False where the situation cannot come up at this table (a card not in its deck, a bid it refuses)
    possible: bool = True


@dataclasses.dataclass(frozen=True)
class Example:
    """One situation decided at both tables.

    ``kind`` is the search that found it (trick, first-lead, bid, score, game, renege); ``setting``
    says the situation in words; ``position`` is the situation as data (the quiz kinds read it).
    """

    kind: str
    setting: str
    position: Mapping[str, Any]
    yours: Outcome
    theirs: Outcome


@dataclasses.dataclass(frozen=True)
class Difference:
    """One rule that differs: its heading, what it changes, each table's value in words, an
    example (None when no situation searched shows it on its own), and a further one the quiz
    asks (so the question is not the example shown above it; None when only one was found)."""

    fields: tuple[str, ...]
    heading: str
    says: str
    yours: str
    theirs: str
    example: Example | None
    further: Example | None = None


# --- the fields -----------------------------------------------------------------------------------


def rule_fields(kind: type[Rules] = Rules) -> tuple[tuple[str, ...], ...]:
    """The differences two rule sets can have, read from the dataclass ``kind`` (``Rules``, or a rule
    set with more fields): the deck and trumps first, then every other field the constructor takes,
    in the dataclass's order.

    >>> rule_fields()[:3]
    (('removed', 'jokers', 'trumps'), ('nil',), ('blind_nil',))
    """
    names = [f.name for f in dataclasses.fields(kind) if f.init and f.name not in _LABELS]
    rest = tuple((name,) for name in names if name not in DECK_FIELDS)
    return (tuple(n for n in names if n in DECK_FIELDS), *rest)


def _values(rules: Rules, fields: Sequence[str]) -> dict[str, Any]:
    return {name: getattr(rules, name) for name in fields}


def _isolated(yours: Rules, theirs: Rules, fields: Sequence[str]) -> tuple[Rules, Rules] | None:
    """Two rule sets that differ in ``fields`` alone: the reference with the learner's values, else
    the learner's with the reference's (where the first is not a playable rule set)."""
    try:
        return dataclasses.replace(theirs, **_values(yours, fields)), theirs
    except (RulesError, SpadesError):
        pass
    try:
        return yours, dataclasses.replace(yours, **_values(theirs, fields))
    except (RulesError, SpadesError):
        return None


# --- the searches: each yields (setting, position, decide) for situations in a fixed order --------------

#: decides a situation at one table: (a key to compare, the outcome shown; with ``said=False`` the
#: key alone is wanted, and the outcome may be left unwritten)
Decide = Callable[..., tuple[Any, Outcome]]
_SILENT = Outcome("", ())
Candidate = tuple[str, dict[str, Any], Decide]


def _trick_outcome(rules: Rules, leader: Seat, played: tuple[Card, ...], said: bool = True) -> tuple[Any, Outcome]:
    missing = [c for c in played if not rules.in_deck(c)]
    if missing:
        card = missing[0]
        return ("absent", card), _SILENT if not said else Outcome(
            "Not in the deck",
            (f"The {card.name} is not in the {rules.title} deck, so this trick cannot be played there.",),
            possible=False,
        )
    trick = Trick.complete(rules, leader, played)
    if not said:
        return ("winner", trick.winner), _SILENT
    return ("winner", trick.winner), Outcome(
        f"{trick.winning_card} wins ({trick.winner})", (explain_trick(rules, played),), trick=trick
    )


@functools.lru_cache(maxsize=32)
def _played_tricks(rules: Rules) -> tuple[tuple[Seat, tuple[Card, ...]], ...]:
    """The tricks of ``TRICK_DEALS`` seeded deals played out with random legal cards."""
    from ..quiz.seeded import play_through  # the quiz's own seeded play

    rng = random.Random(SEED)
    out: list[tuple[Seat, tuple[Card, ...]]] = []
    for _ in range(TRICK_DEALS):
        rnd = play_through(rules, rng, False, lambda _rnd: None)
        out += [(t.leader, t.cards) for t in rnd.tricks]
    return tuple(out)


def _won_by_both(yours: Rules, theirs: Rules, played: tuple[Card, ...]) -> bool:
    """Whether the card that wins the trick (where every card of it is in the deck) is in both decks."""
    holder = yours if all(yours.in_deck(c) for c in played) else theirs
    winner = played[trick_winner(holder, played)]
    return yours.in_deck(winner) and theirs.in_deck(winner)


def _trick_candidates(yours: Rules, theirs: Rules) -> Iterator[Candidate]:
    tricks = [*_played_tricks(yours), *_played_tricks(theirs)]
    both = [all(yours.in_deck(c) and theirs.in_deck(c) for c in t[1]) for t in tricks]
    # tricks both tables can play first; then one with a card only one deck holds, those that card
    # wins (at the table that holds every card of the trick) before the others
    ordered = [t for t, fit in zip(tricks, both, strict=True) if fit] + sorted(
        (t for t, fit in zip(tricks, both, strict=True) if not fit),
        key=lambda t: _won_by_both(yours, theirs, t[1]),
    )
    for leader, played in ordered:
        setting = f"{leader} leads; the cards in play order: {' '.join(map(str, played))}."
        position = {"trick": " ".join(map(str, played)), "leader": leader.letter}
        yield setting, position, functools.partial(_trick_outcome, leader=leader, played=played)


def _first_lead_outcome(rules: Rules, dealer: Seat, holder: Seat, said: bool = True) -> tuple[Any, Outcome]:
    seat, why = explain_first_leader(rules, dealer, holder)
    return seat, Outcome(f"{seat} leads", (why,))


def _first_lead_candidates(yours: Rules, theirs: Rules) -> Iterator[Candidate]:
    for dealer in (Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH):
        for holder in (dealer.left.left, dealer, dealer.left.left.left, dealer.left):
            setting = f"{dealer} deals; {holder} holds the 2♣."
            position = {"question": "first", "dealer": dealer.letter, "two_of_clubs": holder.letter}
            yield setting, position, functools.partial(_first_lead_outcome, dealer=dealer, holder=holder)


#: the bids before the one asked about (North first, West dealing), and the bids asked about
_BID_SEQUENCES: tuple[tuple[Bid, ...], ...] = ((), (Bid(2), Bid(3)))
_BIDS_ASKED: tuple[Bid, ...] = (NIL, BLIND_NIL, *(Bid(n) for n in range(1, 14)))
_BEHIND = tuple(range(0, 1001, 50))


@functools.lru_cache(maxsize=256)
def _dealt(rules: Rules, behind: int) -> Round:
    return Round.deal(rules, dealer=Seat.WEST, seed=SEED, scores={Team.NS: 0, Team.EW: behind})


def _bid_outcome(
    rules: Rules, before: tuple[Bid, ...], bid: Bid, behind: int, said: bool = True
) -> tuple[Any, Outcome]:
    rnd = _dealt(rules, behind).copy()
    for earlier in before:
        if rnd.why_bid_illegal(earlier) is not None:
            return "unreachable", Outcome(
                "Not reached", ("These bids cannot all be made at this table.",), possible=False
            )
        rnd.bid(earlier)
    reason = rnd.why_bid_illegal(bid)
    seat = rnd.to_act
    if reason is None:
        return True, Outcome("Allowed", (f"{seat} may bid {bid} here.",))
    return False, Outcome("Not allowed", (reason.text,))


def _bid_candidates(yours: Rules, theirs: Rules) -> Iterator[Candidate]:
    for before in _BID_SEQUENCES:
        for bid in _BIDS_ASKED:
            for behind in _BEHIND:
                seats = (Seat.NORTH, Seat.EAST, Seat.SOUTH)
                said = ", ".join(f"{s} bids {b}" for s, b in zip(seats, before, strict=False))
                bidder = seats[len(before)]
                score = (
                    f"North–South are {behind} points behind (0 to {behind})"
                    if behind
                    else "The scores are level (0 to 0)"
                )
                setting = f"{score}; West deals{', ' + said if said else ''}. May {bidder} bid {bid}?"
                yield (
                    setting,
                    {"bids": [str(b) for b in before], "bid": str(bid), "behind": behind},
                    functools.partial(_bid_outcome, before=before, bid=bid, behind=behind),
                )
                if not bid.blind:
                    break  # only blind nil depends on the score


#: hands written out first (seat order N, E, S, W): bids, tricks taken and each team's bags before
_HANDS: tuple[tuple[tuple[Any, ...], tuple[int, ...], tuple[int, int]], ...] = (
    ((4, 3, 3, 2), (5, 3, 3, 2), (0, 0)),  # a contract made with a bag, one set
    (("nil", 4, 4, 4), (0, 4, 5, 4), (0, 0)),  # a nil made
    (("nil", 4, 3, 5), (1, 4, 4, 4), (0, 0)),  # a nil failed, the partner makes
    (("nil", 3, 5, 4), (2, 3, 4, 4), (0, 0)),  # a nil failed, its tricks short of the partner's bid
    (("blind nil", 4, 5, 3), (0, 4, 5, 4), (0, 0)),  # a blind nil made
    (("blind nil", 4, 4, 4), (1, 4, 4, 4), (0, 0)),  # a blind nil failed
    ((4, 3, 3, 2), (6, 2, 3, 2), (4, 0)),  # bags past five
    ((4, 3, 3, 2), (6, 2, 3, 2), (8, 0)),  # bags past ten
    (("nil", 3, "nil", 5), (1, 4, 2, 6), (0, 0)),  # both partners nil, both failed
)


Hand = tuple[dict[Seat, Any], dict[Seat, int], dict[Team, int]]


@functools.cache
def _seeded_hands() -> tuple[Hand, ...]:
    """The hands the scoring and renege searches try: those written out above, then seeded ones."""
    return tuple(_hands())


def _hands() -> Iterator[Hand]:
    seats = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
    for bids, took, bags in _HANDS:
        yield (
            dict(zip(seats, bids, strict=True)),
            dict(zip(seats, took, strict=True)),
            dict(zip(Team, bags, strict=True)),
        )
    rng = random.Random(SEED)
    for _ in range(SCORE_HANDS):
        bid: dict[Seat, Any] = {}
        for seat in seats:
            roll = rng.random()
            bid[seat] = "nil" if roll < 0.12 else "blind nil" if roll < 0.16 else rng.randint(1, 6)
        cuts = sorted(rng.randint(0, 13) for _ in range(3))
        parts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]
        yield (
            dict(zip(seats, bid.values(), strict=True)),
            dict(zip(seats, parts, strict=True)),
            {
                Team.NS: rng.randint(0, 9),
                Team.EW: rng.randint(0, 9),
            },
        )


def _hand_words(bids: Mapping[Seat, Any], took: Mapping[Seat, int], bags: Mapping[Team, int]) -> str:
    said = ", ".join(f"{s} bids {Bid.parse(bids[s])} and takes {plural(took[s], 'trick')}" for s in bids)
    before = ", ".join(f"{t.label} {plural(bags[t], 'bag')}" for t in Team)
    return f"{said}. Bags before the hand: {before}."


def _score_words(scores: Mapping[Team, HandScore]) -> str:
    return "; ".join(f"{t.label} {signed(s.points)}, {plural(s.bags, 'bag')} after" for t, s in scores.items())


@functools.lru_cache(maxsize=4096)
def _fits(rules: Rules, index: int) -> bool:
    return _hand_fits(rules, *_seeded_hands()[index])


def _hand_fits(rules: Rules, bids: Mapping[Seat, Any], took: Mapping[Seat, int], bags: Mapping[Team, int]) -> bool:
    """Whether the hand can be played at this table: its bids allowed, its bags under the limit (the
    score quiz's own check of a position)."""
    from ..quiz.kinds.score import ScoreItem

    try:
        ScoreItem(rules, bids={s: Bid.parse(b) for s, b in bids.items()}, tricks=dict(took), bags=dict(bags))
    except SpadesError:
        return False
    return True


def _score_outcome(
    rules: Rules, bids: Mapping[Seat, Any], took: Mapping[Seat, int], bags: Mapping[Team, int], said: bool = True
) -> tuple[Any, Outcome]:
    if not _hand_fits(rules, bids, took, bags):
        return "unplayable", Outcome(
            "Cannot happen", ("This hand's bids or bags are not possible at this table.",), possible=False
        )
    scores = score_hand(rules, bids, took, bags)
    key = tuple((s.points, s.bags) for s in scores.values())
    return key, Outcome(
        _score_words(scores), tuple(f"{t.label}: {line}" for t, s in scores.items() for line in s.lines), scores=scores
    )


def _hand_position(bids: Mapping[Seat, Any], took: Mapping[Seat, int], bags: Mapping[Team, int]) -> dict[str, Any]:
    return {
        "bids": {s.letter: Bid.parse(b).to_json() for s, b in bids.items()},
        "tricks": {s.letter: n for s, n in took.items()},
        "bags": {t.short: n for t, n in bags.items()},
    }


def _score_candidates(yours: Rules, theirs: Rules) -> Iterator[Candidate]:
    for index, (bids, took, bags) in enumerate(_seeded_hands()):
        if _fits(yours, index) and _fits(theirs, index):
            yield (
                _hand_words(bids, took, bags),
                _hand_position(bids, took, bags),
                functools.partial(_score_outcome, bids=bids, took=took, bags=bags),
            )


def _game_outcome(rules: Rules, scores: Mapping[Team, int], said: bool = True) -> tuple[Any, Outcome]:
    winner, why = explain_game(rules, scores)
    return winner, Outcome("The game goes on" if winner is None else f"{winner.label} win", (why,))


def _game_candidates(yours: Rules, theirs: Rules) -> Iterator[Candidate]:
    totals = sorted(range(-1500, 1510, 10), key=lambda t: (abs(t), -t))
    for total in totals:
        for gap in (70, 30, 150, 10, 0, 260):
            for scores in ({Team.NS: total, Team.EW: total - gap}, {Team.NS: total - gap, Team.EW: total}):
                setting = f"The totals after a hand: North–South {number(scores[Team.NS])}, East–West {number(scores[Team.EW])}."
                position = {"scores": {t.short: v for t, v in scores.items()}}
                yield setting, position, functools.partial(_game_outcome, scores=scores)
                if not gap:
                    break


def _renege_outcome(
    rules: Rules,
    bids: Mapping[Seat, Any],
    took: Mapping[Seat, int],
    bags: Mapping[Team, int],
    offenders: Team,
    said: bool = True,
) -> tuple[Any, Outcome]:
    if not _hand_fits(rules, bids, took, bags):
        return "unplayable", Outcome(
            "Cannot happen", ("This hand's bids or bags are not possible at this table.",), possible=False
        )
    ruling = apply_renege(rules, bids, took, offenders, bags=bags)
    key = (tuple(ruling.tricks[s] for s in Seat), tuple((s.points, s.bags) for s in ruling.scores.values()))
    return key, Outcome(_score_words(ruling.scores), ruling.lines, scores=ruling.scores)


def _renege_candidates(yours: Rules, theirs: Rules) -> Iterator[Candidate]:
    for index, (bids, took, bags) in enumerate(_seeded_hands()):
        if not (_fits(yours, index) and _fits(theirs, index)):
            continue
        for offenders in (Team.EW, Team.NS):
            setting = (
                f"{_hand_words(bids, took, bags)} After the hand {offenders.label} are found to have reneged once."
            )
            position = {**_hand_position(bids, took, bags), "offenders": offenders.short}
            yield (
                setting,
                position,
                functools.partial(_renege_outcome, bids=bids, took=took, bags=bags, offenders=offenders),
            )


#: the searches, in the order they are tried: the first that finds a situation gives the example
SEARCHES: tuple[tuple[str, Callable[[Rules, Rules], Iterator[Candidate]]], ...] = (
    ("trick", _trick_candidates),
    ("first-lead", _first_lead_candidates),
    ("bid", _bid_candidates),
    ("score", _score_candidates),
    ("game", _game_candidates),
    ("renege", _renege_candidates),
)


def find_examples(yours: Rules, theirs: Rules, fields: Sequence[str], count: int = 2) -> tuple[Example, ...]:
    """The first ``count`` situations of the searches that the change of ``fields`` alone decides
    otherwise (all found by the first search that finds one; those after the first ones the
    learner's table can hold, so that the quiz can ask them there).

    Preferred: situations the learner's and the reference's whole rule sets decide as that change
    does (the example shows that change and nothing else); else the first ones both decide otherwise
    too (where other differences of the two tables change the same answer, as a trick's value
    changes a nil's score line)."""
    pair = _isolated(yours, theirs, fields)
    if pair is None:
        return ()
    changed, unchanged = pair
    mixed: list[Example] = []
    for kind, search in SEARCHES:
        clean: list[Example] = []
        for setting, position, decide in search(yours, theirs):
            key_changed, _ = decide(changed, said=False)
            key_unchanged, _ = decide(unchanged, said=False)
            if key_changed == key_unchanged:
                continue
            key_yours, mine = decide(yours)
            key_theirs, other = decide(theirs)
            if key_yours == key_changed and key_theirs == key_unchanged:
                if clean and not mine.possible:
                    continue  # a further example is one the learner's table can be asked
                clean.append(Example(kind, setting, position, mine, other))
                if len(clean) == count:
                    break
            elif (
                len(mixed) < count
                and key_yours != key_theirs
                and "unplayable" not in (key_yours, key_theirs)
                and (not mixed or mixed[0].kind == kind)
            ):
                mixed.append(Example(kind, setting, position, mine, other))
        if clean:
            return tuple(clean)
    return tuple(mixed)


def find_example(yours: Rules, theirs: Rules, fields: Sequence[str]) -> Example | None:
    """The first situation :func:`find_examples` finds, or None."""
    found = find_examples(yours, theirs, fields, count=1)
    return found[0] if found else None


# --- the words: each field's heading, what it changes, and its value ---------------------------------


def _deck_words(rules: Rules) -> str:
    deck = f"{' '.join(map(str, rules.removed))} out" if rules.removed else "all 52 cards"
    jokers = "both jokers in" if rules.jokers else "no jokers"
    return f"{deck}, {jokers}; {len(rules.trumps)} trumps: {' '.join(map(str, rules.trumps))}"


_BLIND_NIL_WORDS = {"off": "never", "always": "at any score"}
_FIRST_LEAD_WORDS = {
    "left-of-dealer": "the player on the dealer's left leads the first trick",
    "two-of-clubs": "whoever holds the 2♣ leads it to the first trick",
}
_FAILED_NIL_WORDS = {
    "bags": "are bags for the side",
    "partner": "count toward the partner's bid",
    "none": "count for nothing",
}


def value_words(rules: Rules, fields: Sequence[str]) -> str:
    """One table's value of a difference, in words (a field this module does not know: its value).

    >>> value_words(Rules.preset("jokers", mercy=-200), ("mercy",))
    'a team at −200 or below loses'
    >>> value_words(Rules.preset("classic"), DECK_FIELDS)
    'all 52 cards, no jokers; 13 trumps: A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠'
    """
    if tuple(fields) == DECK_FIELDS:
        return _deck_words(rules)
    (field,) = fields
    value = getattr(rules, field)
    words: dict[str, Callable[[], str]] = {
        "nil": lambda: "nil may be bid" if value else "no nil bids",
        "blind_nil": lambda: (
            "blind nil: " + _BLIND_NIL_WORDS.get(value, f"for a side {rules.blind_nil_behind} or more points behind")
        ),
        "first_lead": lambda: _FIRST_LEAD_WORDS.get(value, str(value)),
        "failed_nil_tricks": lambda: f"a failed nil's tricks {_FAILED_NIL_WORDS.get(value, str(value))}",
        "renege_penalty": lambda: describe_penalty(rules)[:1].lower() + describe_penalty(rules)[1:].rstrip("."),
        "target": lambda: f"game to {number(value)}",
        "mercy": lambda: "no mercy rule" if value is None else f"a team at {number(value)} or below loses",
        "trick_points": lambda: f"{value} points a trick bid",
        "nil_value": lambda: f"nil worth {number(value)}",
        "blind_nil_value": lambda: f"blind nil worth {number(value)}",
        "blind_nil_behind": lambda: f"blind nil for a side {number(value)} or more points behind",
        "bag_limit": lambda: f"a bag penalty every {plural(value, 'bag')}",
        "bag_penalty": lambda: f"a bag penalty of {number(value)}",
        "min_team_bid": lambda: "no least team bid" if not value else f"a team bids at least {value} together",
        "ten_bid_bonus": lambda: (
            "no bonus for 10 or more" if not value else f"a bonus of {number(value)} for 10 or more"
        ),
    }
    said = words.get(field)
    return said() if said is not None else f"{field.replace('_', ' ')}: {value}"


#: a house rule's choices, each in a few words for a heading
_OPTION_HEADINGS: dict[str, dict[str, str]] = {
    "blind_nil": {"off": "No blind nil", "always": "Blind nil at any score"},
    "first_lead": {
        "left-of-dealer": "The dealer's left-hand player leads first",
        "two-of-clubs": "The 2♣ leads the first trick",
    },
    "failed_nil_tricks": {
        "bags": "A failed nil's tricks are bags",
        "partner": "A failed nil's tricks count for the partner",
        "none": "A failed nil's tricks count for nothing",
    },
    "renege_penalty": {
        "three-tricks": "A renege costs 3 tricks",
        "two-tricks": "A renege costs 2 tricks",
        "set": "A renege sets the side",
    },
}


def _option_heading(rules: Rules, field: str) -> str:
    value = getattr(rules, field)
    said = _OPTION_HEADINGS.get(field, {}).get(str(value))
    if said is not None:
        return said
    if field == "blind_nil":
        return f"Blind nil for a side {number(rules.blind_nil_behind)}+ behind"
    words = value_words(rules, (field,))
    return words[:1].upper() + words[1:]


def _deck_heading(yours: Rules, theirs: Rules) -> str:
    """The deck's difference in a few words: the jokers, the cards taken out, the trumps.

    >>> _deck_heading(Rules.preset("bicycle"), Rules.preset("jokers"))
    '2♣ 2♦ out instead of 2♥ 2♦'
    """
    parts: list[str] = []
    if yours.jokers != theirs.jokers:
        parts.append("Both jokers in" if yours.jokers else "No jokers")
    if set(yours.removed) != set(theirs.removed):
        out = f"{' '.join(map(str, yours.removed))} out" if yours.removed else "All 52 cards"
        if yours.removed and theirs.removed:
            out += f" instead of {' '.join(map(str, theirs.removed))}"
        parts.append(out)
    head = ", ".join([*parts[:1], *(p[:1].lower() + p[1:] for p in parts[1:])])
    mine, other = len(yours.trumps), len(theirs.trumps)
    if mine != other:
        trumps = f"{mine} trumps instead of {other}"
    elif yours.trumps != theirs.trumps:
        trumps = "another trump order"
    else:
        return head
    return f"{head}: {trumps}" if head else trumps[:1].upper() + trumps[1:]


def _heading(yours: Rules, theirs: Rules, fields: Sequence[str]) -> str:
    """The difference's heading in plain words ("Game to 300 instead of 500").

    >>> _heading(Rules.preset("jokers"), Rules.preset("classic"), DECK_FIELDS)
    'Both jokers in, 2♥ 2♦ out: 15 trumps instead of 13'
    >>> _heading(Rules.preset("jokers", renege_penalty="set"), Rules.preset("jokers"), ("renege_penalty",))
    'A renege sets the side (in Spades with Jokers: a renege costs 3 tricks)'
    """
    if tuple(fields) == DECK_FIELDS:
        return _deck_heading(yours, theirs)
    (field,) = fields
    a, b = getattr(yours, field), getattr(theirs, field)
    numbers = {
        "target": "Game to {}",
        "trick_points": "{} points a trick bid",
        "nil_value": "Nil worth {}",
        "blind_nil_value": "Blind nil worth {}",
        "blind_nil_behind": "Blind nil for a side {} behind",
        "bag_limit": "A bag penalty every {} bags",
        "bag_penalty": "A bag penalty of {}",
        "min_team_bid": "A team bids at least {}",
        "ten_bid_bonus": "A bonus of {} for bidding 10 or more",
    }
    if field in numbers and isinstance(a, int) and isinstance(b, int):
        return f"{numbers[field].format(number(a))} instead of {number(b)}"
    if field == "mercy":
        if a is None:
            return f"No mercy rule (in {theirs.title} a team at {number(b)} loses)"
        if b is None:
            return f"A team at {number(a)} or below loses"
        return f"A team loses at {number(a)} instead of {number(b)}"
    if field == "nil":
        return "Nil may be bid" if a else "No nil bids"
    other = _option_heading(theirs, field)
    return f"{_option_heading(yours, field)} (in {theirs.title}: {other[:1].lower()}{other[1:]})"


_SAYS = {
    "trick": "It changes which card wins a trick.",
    "first-lead": "It changes who leads the first trick.",
    "bid": "It changes which bids a player may make.",
    "score": "It changes the score of a hand.",
    "game": "It changes when the game ends and who wins it.",
    "renege": "It changes what a side pays for a renege.",
}


def differences(yours: Rules, theirs: Rules) -> tuple[Difference, ...]:
    """Each rule the learner's table (``yours``) plays otherwise than the reference (``theirs``), with
    an example the engine decides at both tables; none when the rule sets play alike.

    >>> [d.fields for d in differences(Rules.preset("jokers", nil=False, mercy=-200), Rules.preset("jokers"))]
    [('nil',), ('mercy',)]
    """
    found: list[Difference] = []
    kind = type(yours) if type(yours) is type(theirs) else Rules
    for fields in rule_fields(kind):
        if _values(yours, fields) == _values(theirs, fields):
            continue
        examples = find_examples(yours, theirs, fields)
        example = examples[0] if examples else None
        if example is not None:
            says = _SAYS.get(example.kind, "It changes how the engine decides a hand.")
        else:
            says = (
                "None of the tricks, deals, bids, hands and scores the app tried comes out otherwise "
                "because of this rule alone at your table (a rule about nil never comes up where nil is "
                "not bid, say), so there is no example to show here: the rule is as written above."
            )
        found.append(
            Difference(
                tuple(fields),
                _heading(yours, theirs, fields),
                says,
                value_words(yours, fields),
                value_words(theirs, fields),
                example,
                examples[1] if len(examples) > 1 else None,
            )
        )
    return tuple(found)


# --- the short quiz ---------------------------------------------------------------------------------

#: which quiz kind asks an example's question, by the search that found it (a bid or a renege has none)
QUIZ_KINDS = {"trick": "trick-winner", "first-lead": "first-leader", "score": "score", "game": "game-winner"}


def quiz_items(
    yours: Rules, theirs: Rules, found: Sequence[Difference], most: int = 5
) -> tuple[tuple[QuizItem, QuizItem | None], ...]:
    """A question on each difference with an example a quiz kind can ask (at most ``most``), on its
    further example where the learner's table can hold it, else on the one shown: the item in the
    learner's rules, and the same position in the reference's (None where that table cannot hold
    it), whose answer is the contrast.

    >>> items = quiz_items(Rules.preset("jokers", target=300), Rules.preset("jokers"),
    ...                    differences(Rules.preset("jokers", target=300), Rules.preset("jokers")))
    >>> [(item.kind, item.answer(), other.answer()) for item, other in items]
    [('game-winner', 'East–West', 'another hand')]
    """
    from ..quiz import kinds

    out: list[tuple[QuizItem, QuizItem | None]] = []
    for difference in found:
        if len(out) >= most:
            break
        item: QuizItem | None = None
        for example in (difference.further, difference.example):
            if example is None or example.kind not in QUIZ_KINDS:
                continue
            cls = kinds.get(QUIZ_KINDS[example.kind])
            position = dict(example.position)
            if example.kind == "first-lead" and yours.first_lead != "two-of-clubs":
                position.pop("two_of_clubs", None)  # the question names the 2♣ only where it leads
            try:
                item = cls.from_position(yours, position)
            except SpadesError:
                continue  # a position the learner's table cannot hold
            break
        if item is None or example is None:
            continue
        try:
            other: QuizItem | None = cls.from_position(theirs, dict(example.position))
        except SpadesError:
            other = None
        out.append((item, other))
    return tuple(out)


def contrast_words(item: QuizItem) -> tuple[str, tuple[str, ...]]:
    """An item's answer in words and the engine's explanation: the reference table's answer, shown
    after the learner answers at their own."""
    feedback = item.check(item.answer())
    return feedback.answer, tuple(feedback.explanation)
