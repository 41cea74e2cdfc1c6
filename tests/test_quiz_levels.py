"""Levels over 200 seeds: every kind draws many different items, no answer dominates,
and level 3 asks what level 1 does not (measured, per kind, level and rule set).

Each (kind, rule set, level) is drawn once for seeds 0–199 and shared by the tests below.
"""

from __future__ import annotations

import collections
import functools
import json
from typing import Any

import pytest

import spades_tutor as st
from spades_tutor.quiz import DIFFICULTIES, QuizItem, generate
from spades_tutor.quiz.kinds.deck_setup import DeckSetupItem
from spades_tutor.quiz.kinds.first_leader import FirstLeaderItem
from spades_tutor.quiz.kinds.game_winner import GameWinnerItem
from spades_tutor.quiz.kinds.legal_plays import LegalPlaysItem
from spades_tutor.quiz.kinds.may_lead import MayLeadItem
from spades_tutor.quiz.kinds.score import _score_case_holds
from spades_tutor.quiz.kinds.trick_winner import TrickWinnerItem, _trick_case

SEEDS = range(200)
PRESETS = ("jokers", "deuces-high")

#: kind -> the fewest distinct items 200 seeds draw at each level (a floor, measured well above it)
DISTINCT: dict[str, tuple[int, int, int]] = {
    "legal-plays": (190, 190, 190),
    "may-lead": (190, 190, 190),
    "trick-winner": (190, 190, 190),
    "first-leader": (90, 90, 180),  # level 1 and 2 ask some questions with only four answers
    "highest-trump": (140, 180, 150),
    "deck-setup": (35, 180, 90),  # level 1 asks about one card of the deck
    "trump-order": (150, 190, 180),
    "score": (190, 190, 190),
    "game-winner": (180, 180, 160),
}

#: kind -> the largest share one answer may take at each level
SHARE: dict[str, tuple[float, float, float]] = {
    "legal-plays": (0.1, 0.1, 0.1),
    "may-lead": (0.6, 0.6, 0.6),  # yes or no
    "trick-winner": (0.2, 0.2, 0.45),
    "first-leader": (0.36, 0.36, 0.36),  # four seats
    "highest-trump": (0.35, 0.3, 0.6),
    "deck-setup": (0.42, 0.1, 0.3),
    "trump-order": (0.1, 0.1, 0.15),
    "score": (0.05, 0.05, 0.05),
    "game-winner": (0.4, 0.56, 0.5),
}


@functools.cache
def drawn(kind: str, preset: str, level: int) -> tuple[QuizItem, ...]:
    rules = st.Rules.preset(preset)
    return tuple(generate(kind, rules, seed, level) for seed in SEEDS)


def answer_key(answer: Any) -> str:
    """An answer as text that compares equal for equal answers (a set of cards in any order)."""
    if isinstance(answer, dict):
        return json.dumps({t.short: v for t, v in answer.items()})
    if isinstance(answer, tuple) and answer and isinstance(answer[0], st.Card):
        return " ".join(sorted(map(str, answer)))
    return str(answer)


def share(items: tuple[QuizItem, ...], holds: Any) -> float:
    return sum(1 for i in items if holds(i)) / len(items)


CASES = [(kind, preset, level) for kind in DISTINCT for preset in PRESETS for level in DIFFICULTIES]


@pytest.mark.parametrize(("kind", "preset", "level"), CASES)
def test_200_seeds_draw_distinct_items_and_no_answer_dominates(kind: str, preset: str, level: int) -> None:
    items = drawn(kind, preset, level)
    positions = {json.dumps(i.position(), sort_keys=True, ensure_ascii=False) for i in items}
    assert len(positions) >= DISTINCT[kind][level - 1], (kind, preset, level, len(positions))
    answers = collections.Counter(answer_key(i.answer()) for i in items)
    (top, count), *_ = answers.most_common(1)
    assert count / len(items) <= SHARE[kind][level - 1], (kind, preset, level, top, count)
    assert all(i.check(i.answer()).correct for i in items)


@pytest.mark.parametrize("preset", PRESETS)
def test_level_3_trick_winner_is_not_always_won_by_a_joker(preset: str) -> None:
    items = drawn("trick-winner", preset, 3)
    assert all(isinstance(i, TrickWinnerItem) for i in items)
    assert share(items, lambda i: i.answer().is_joker) <= 0.6
    cases = collections.Counter(_trick_case(i.rules, i.trick) for i in items)
    # big against little joker, a joker led into players void in spades, the 2s and the ace fighting
    assert cases["big-little"] >= 30 and cases["joker-led-void"] >= 30 and cases["no-joker"] >= 60
    assert share(drawn("trick-winner", preset, 1), lambda i: i.answer().is_joker) == 0


@pytest.mark.parametrize("preset", PRESETS)
def test_level_3_legal_plays_rarely_lets_every_card_be_played(preset: str) -> None:
    def every_card(item: QuizItem) -> bool:
        assert isinstance(item, LegalPlaysItem)
        return len(item.answer()) == len(item.hand)

    assert share(drawn("legal-plays", preset, 3), every_card) <= 0.25
    assert share(drawn("legal-plays", preset, 1), every_card) == 0
    single = share(drawn("legal-plays", preset, 3), lambda i: len(i.answer()) == 1)
    assert single >= 0.2  # one legal card: a side card among trumps, or the one trump to a spade lead


@pytest.mark.parametrize("preset", PRESETS)
def test_level_3_trump_questions_use_many_card_sets(preset: str) -> None:
    def card_sets(kind: str, level: int) -> int:
        return len({frozenset(i.choices) for i in drawn(kind, preset, level)})  # type: ignore[attr-defined]

    assert card_sets("trump-order", 3) >= 40  # ten before
    assert card_sets("highest-trump", 3) >= 80  # sixteen before


@pytest.mark.parametrize("preset", PRESETS)
def test_score_level_3_shows_a_bag_penalty_from_a_failed_nils_bags(preset: str) -> None:
    def case(item: QuizItem, name: str) -> bool:
        scores = st.score_hand(item.rules, item.bids, item.tricks, item.bags)  # type: ignore[attr-defined]
        return _score_case_holds(scores, name)

    assert share(drawn("score", preset, 3), lambda i: case(i, "nil-bags-penalty")) >= 0.05
    for name in ("nil-fails-partner-makes", "set-with-nil-bags", "both-nil", "nil-bags-penalty"):
        assert not any(case(i, name) for i in drawn("score", preset, 2)), name


@pytest.mark.parametrize("preset", PRESETS)
def test_new_kinds_ask_their_hard_cases_at_level_3(preset: str) -> None:
    games = drawn("game-winner", preset, 3)
    assert all(isinstance(i, GameWinnerItem) for i in games)
    tie = [i for i in games if i.scores[st.Team.NS] == i.scores[st.Team.EW]]  # type: ignore[attr-defined]
    assert tie and all(i.answer() == "another hand" for i in tie)
    leads = [i for i in drawn("may-lead", preset, 3) if isinstance(i, MayLeadItem)]
    assert len(leads) == 200 and all(i.earlier for i in leads)
    assert {i.spades_broken for i in leads} == {True, False}  # the tricks shown decide it, either way
    assert any(i.card.is_joker for i in leads) and any(all(i.rules.is_trump(c) for c in i.hand) for i in leads)
    firsts = [i for i in drawn("first-leader", preset, 3) if isinstance(i, FirstLeaderItem)]
    assert {i.question for i in firsts} == {"next-trick"}  # this table opens left of the dealer
    decks = [i for i in drawn("deck-setup", preset, 3) if isinstance(i, DeckSetupItem)]
    assert {i.question for i in decks} == {"card", "trumps", "count"}
