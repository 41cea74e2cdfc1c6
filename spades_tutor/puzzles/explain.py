"""A puzzle's lines in words: the solver's best play after a card, trick by trick.

"After your queen of hearts, West plays the little joker and wins the trick; ..." The
cards are the solver's (``spades_tutor.solver.line``), each trick's winner the engine's.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import Any

from spades_tutor.engine import Card, Rules, Seat, trick_winner
from spades_tutor.engine.text import and_list
from spades_tutor.solver import Budget, Position

from .model import Puzzle

#: the most work one line may take (a page action), in seconds of this process's CPU: a class server
#: busy with thirty kernels stretches the wall clock, and the refutation a learner is shown must not
#: depend on how busy the machine is
LINE_BUDGET = Budget(seconds=3.0)

__all__ = ["Line", "LineTrick", "line_tricks", "play_line", "say_line", "say_tricks", "teacher_pick", "teaching_line"]


@dataclasses.dataclass(frozen=True)
class Line:
    """A card and the solver's best play after it: the plays, the position at the end, and
    whether the line reached the end of the round (False: the work budget ran out first)."""

    plays: tuple[tuple[Seat, Card], ...]  # the learner's card first
    end: Position
    complete: bool


def play_line(puzzle: Puzzle, card: Card, budget: Budget = LINE_BUDGET) -> Line:
    """The learner plays ``card``; then both sides play the solver's best for the goal to the end."""
    start = puzzle.position
    after = start.play(card)
    rest = teaching_line(after, puzzle.question(), budget=budget)
    end = after
    for _seat, c in rest:
        end = end.play(c)
    return Line(((start.to_act, card), *rest), end, end.tricks_left == 0)


def teaching_line(
    pos: Position, question: Callable[[Position], Any], budget: Budget = LINE_BUDGET
) -> tuple[tuple[Seat, Card], ...]:
    """Best play for both sides to the end (as the solver's ``line``), each card chosen as a teacher
    would show it among the cards that keep the best result (``teacher_pick``); stops early when
    the budget for the whole line runs out (``budget.seconds`` of this process's CPU time)."""
    start = time.process_time()
    out: list[tuple[Seat, Card]] = []
    limit = pos.tricks_left * 4 - len(pos.trick)
    while len(out) < limit and pos.tricks_left:
        if budget.seconds is not None and time.process_time() - start > budget.seconds:
            break
        best = question(pos).best_cards
        if not best:
            break
        card = teacher_pick(pos, best)
        out.append((pos.to_act, card))
        pos = pos.play(card)
    return tuple(out)


def teacher_pick(pos: Position, best: Sequence[Card]) -> Card:
    """Of cards equally good for the goal, the one a teacher would show: never one that takes the
    trick from a partner already winning it (trumping or overtaking a partner's winner is the habit
    lesson 14 calls a mistake), when another card as good leaves the trick to the partner.

    >>> import spades_tutor as st
    >>> pos = Position.from_hands(st.Rules.preset("jokers"), {"N": "AH 5S", "E": "3H 4C", "S": "6S 2C",
    ...                           "W": "9H 8C"}, leader="N", spades_broken=True).play(Card.parse("AH")).play(Card.parse("3H"))
    >>> teacher_pick(pos, [Card.parse("6S"), Card.parse("2C")])
    Card.parse('2♣')
    """
    trick = pos.trick
    if not trick:
        return best[0]
    rules = pos.rules
    winner = Seat((pos.leader + trick_winner(rules, trick)) % 4)
    if winner != Seat((pos.to_act + 2) % 4):
        return best[0]
    under = [c for c in best if Seat((pos.leader + trick_winner(rules, (*trick, c))) % 4) == winner]
    return under[0] if under else best[0]


def _who(seat: Seat, learner: Seat) -> str:
    return "you" if seat == learner else seat.name.title()


def say_line(puzzle: Puzzle, played: Line) -> str:
    """The line in words, ending with what it means for the goal."""
    tricks, outcome = say_tricks(puzzle, played)
    text = "; ".join(tricks)
    return f"{text[0].upper()}{text[1:]}. {outcome}"


def say_tricks(puzzle: Puzzle, played: Line) -> tuple[list[str], str]:
    """The line trick by trick (one phrase a trick, the first begun 'after your …'), and what it
    means for the goal."""
    learner = puzzle.learner
    pos = puzzle.position
    rules = puzzle.rules
    phrases: list[str] = []
    current: list[str] = []
    for i, (seat, card) in enumerate(played.plays):
        trick_cards = (*pos.trick, card)
        leader = pos.leader
        who = _who(seat, learner)
        if i == 0:
            current.append(f"after your {card.name}" if seat == learner else f"after {who}'s {card.name}")
        else:
            current.append(f"{who} {_verb(rules, pos.trick, card, who == 'you')} the {card.name}")
        pos = pos.play(card)
        if len(trick_cards) == 4:
            winner = Seat((leader + trick_winner(rules, trick_cards)) % 4)
            w = _who(winner, learner)
            current.append(f"{w} {'win' if w == 'you' else 'wins'} the trick")
            phrases.append(_join(current))
            current = []
    if current:
        phrases.append(_join(current))
    return phrases, _outcome(puzzle, played)


@dataclasses.dataclass(frozen=True)
class LineTrick:
    """One trick of a line as the table shows it: its leader and cards (lead first; the first trick
    holds the cards played before the learner's), who won it (None: the line stopped inside it), the
    four hands once it is over (indexed by seat), and the line's phrase for it."""

    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat | None
    hands: tuple[tuple[Card, ...], ...]
    said: str


def line_tricks(puzzle: Puzzle, played: Line, phrases: Sequence[str] | None = None) -> tuple[LineTrick, ...]:
    """``played`` trick by trick, to be shown on the cards: the phrases are ``say_tricks``' (pass
    them when they are said already), each winner the engine's (``trick_winner``).

    >>> from spades_tutor.puzzles import shipped
    >>> p = shipped()[0]
    >>> line = play_line(p, p.answers[0], Budget(seconds=60.0))  # a first search may compile the solver
    >>> tricks = line_tricks(p, line)
    >>> line.complete, len(tricks) == p.position.tricks_left, sum(len(t.cards) for t in tricks) == 4 * len(tricks)
    (True, True, True)
    >>> all(t.winner is not None for t in tricks), sum(len(h) for h in tricks[-1].hands)
    (True, 0)
    """
    if phrases is None:
        phrases, _ = say_tricks(puzzle, played)
    rules = puzzle.rules
    pos = puzzle.position
    cards = list(pos.trick)
    leader = pos.leader
    out: list[LineTrick] = []
    for _seat, card in played.plays:
        if not cards:
            leader = pos.leader
        cards.append(card)
        pos = pos.play(card)
        if len(cards) == 4:
            winner = Seat((leader + trick_winner(rules, tuple(cards))) % 4)
            out.append(LineTrick(leader, tuple(cards), winner, tuple(map(tuple, pos.hands)), phrases[len(out)]))
            cards = []
    if cards:
        out.append(LineTrick(leader, tuple(cards), None, tuple(map(tuple, pos.hands)), phrases[len(out)]))
    return tuple(out)


def _verb(rules: Rules, trick: tuple[Card, ...], card: Card, you: bool) -> str:
    """'leads', 'plays' (following suit), 'trumps with' or 'discards': the card against the lead."""
    if not trick:
        verb = "lead"
    elif rules.suit_of(card) is rules.suit_of(trick[0]):
        verb = "play"
    elif rules.is_trump(card):
        verb = "trump with"
    else:
        verb = "discard"
    if you:
        return verb
    return {"lead": "leads", "play": "plays", "trump with": "trumps with", "discard": "discards"}[verb]


def _join(parts: list[str]) -> str:
    """'a', 'a, b', 'a, b and c': the plays of one trick, then who won it."""
    return ", ".join(parts) if len(parts) < 3 else and_list(parts)


def _outcome(puzzle: Puzzle, played: Line) -> str:
    if not played.complete:
        return "(The line stops here: the solver's work budget for it ran out.)"
    return puzzle.goal.rule.outcome(puzzle, played.end)
