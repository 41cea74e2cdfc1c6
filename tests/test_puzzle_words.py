"""A puzzle's words as a teacher would say them: its goal in plain numbers, and lines that show good habits.

The refuting line after a wrong card is the solver's best play for both sides; among cards
equally good for the goal it shows the one a teacher would (never taking a trick from a
partner already winning it, the habit lesson 14 calls a mistake).
"""

from __future__ import annotations

import pytest

from spades_tutor.engine import Card, Seat, trick_winner
from spades_tutor.puzzles import Puzzle, play_line, shipped

PUZZLES = shipped()


def overtaken_needlessly(puzzle: Puzzle, card: Card) -> list[str]:
    """Each play of the line after ``card`` that takes the trick from the player's partner while a
    card as good for the goal would have left it to the partner."""
    played = play_line(puzzle, card)
    pos, rules, found = puzzle.position, puzzle.rules, []
    for i, (seat, c) in enumerate(played.plays):
        trick = pos.trick
        if i and trick:
            winner = Seat((pos.leader + trick_winner(rules, trick)) % 4)
            partner = Seat((seat + 2) % 4)
            leader = pos.leader
            keeps = {x for x in pos.legal_plays() if Seat((leader + trick_winner(rules, (*trick, x))) % 4) == partner}
            if winner == partner and c not in keeps:
                others = [x for x in puzzle.ask(pos).best_cards if x in keeps]
                if others:
                    found.append(f"{seat.name} {c} over partner's trick (could play {others[0]})")
        pos = pos.play(c)
    return found


def test_a_goal_of_no_tricks_is_said_as_none() -> None:
    sentences = [PUZZLES[13].sentence(), PUZZLES[15].sentence()]
    assert all("at most 0" not in s for s in sentences)
    assert sentences == [
        "You play South: E–W bid 4 and have 3; set them by letting them take none of the last 4 tricks.",
        "You play North: E–W bid 3 and have 2; set them by letting them take none of the last 5 tricks.",
    ]
    assert not any("at most 0 " in p.sentence() for p in PUZZLES)


@pytest.mark.parametrize("number", (4, 5, 9))
def test_the_refuting_lines_of_puzzles_4_5_and_9_leave_a_partners_winning_card_alone(number: int) -> None:
    puzzle = PUZZLES[number]
    wrong = [c for c in puzzle.position.legal_plays() if c not in puzzle.answers]
    assert wrong
    for card in wrong:
        assert overtaken_needlessly(puzzle, card) == [], card


@pytest.mark.slow
def test_no_shipped_line_takes_a_partners_trick_when_an_equal_card_would_not() -> None:
    for n, puzzle in enumerate(PUZZLES):
        for card in puzzle.position.legal_plays():
            assert overtaken_needlessly(puzzle, card) == [], (n, card)
