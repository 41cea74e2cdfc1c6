"""No quiz level can be passed without reading its items: no constant answer, no tell in the prompt, no repeats.

Each level is measured as a learner meets it: 30 seeds in each of three rule sets
(Spades with Jokers, Regular Spades and Deuces high), 90 items. The measured kinds,
best-bid and nil-safe, have tests of their own.
"""

from __future__ import annotations

import collections
import json

import pytest

import spades_tutor as st
from spades_tutor.quiz import generate
from spades_tutor.quiz import kinds as registry
from spades_tutor.quiz.kinds.first_leader import FirstLeaderItem
from spades_tutor.quiz.kinds.may_lead import MayLeadItem
from spades_tutor.quiz.kinds.score import ScoreItem

PRESETS = ("jokers", "classic", "deuces-high")
SEEDS = range(30)
COUNTED = tuple(n for n in registry.names() if n not in ("best-bid", "nil-safe"))


def items(kind: str, level: int) -> list[st.quiz.QuizItem]:
    return [generate(kind, st.Rules.preset(name), seed, difficulty=level) for name in PRESETS for seed in SEEDS]


def answer_key(item: st.quiz.QuizItem) -> str:
    """The right answer, in the form the kind compares answers in, as text."""
    given = item.given(item.answer())
    if isinstance(given, dict):
        given = sorted((str(k), v) for k, v in given.items())
    elif isinstance(given, (set, frozenset)):
        given = sorted(map(str, given))
    return repr(given)


@pytest.mark.slow
@pytest.mark.parametrize("level", (1, 2, 3))
@pytest.mark.parametrize("kind", COUNTED)
def test_no_constant_answer_is_right_on_more_than_60_percent_of_a_level(kind: str, level: int) -> None:
    made = items(kind, level)
    answer, count = collections.Counter(answer_key(i) for i in made).most_common(1)[0]
    # the answer given every time is right on exactly the items whose answer it is
    assert all(item.check(item.answer()).correct for item in made)
    assert count <= 0.6 * len(made), f"{kind} level {level}: {answer} is right on {count} of {len(made)}"


@pytest.mark.slow
def test_may_lead_level_2_is_not_answered_by_the_word_broken_in_the_prompt() -> None:
    made = [i for i in items("may-lead", 2) if isinstance(i, MayLeadItem)]
    said_broken = ["Spades are broken." in i.prompt for i in made]
    yes = [i.answer() == "yes" for i in made]
    # the tell: "yes" exactly when the prompt says broken
    follows_the_prompt = sum(b == y for b, y in zip(said_broken, yes, strict=True))
    assert follows_the_prompt <= 0.75 * len(made)
    rules_of = {id(i): i.rules for i in made}
    side = [i for i in made if not rules_of[id(i)].is_trump(i.card)]
    only_trumps = [i for i in made if all(i.rules.is_trump(c) for c in i.hand)]
    assert len(side) >= 10 and len(only_trumps) >= 10
    assert all(i.answer() == "yes" for i in side + only_trumps)
    assert any(not i.spades_broken for i in side) and all(not i.spades_broken for i in only_trumps)
    # the cards led are never the jokers or the 2♦ (level 3 asks those) and no earlier tricks are shown
    assert all(i.card not in i.rules.extra_trumps() and not i.earlier for i in made)


def test_may_lead_names_the_side_card_a_learner_kept_back() -> None:
    item = MayLeadItem(st.Rules.preset("jokers"), hand=st.cards("AS 9S KH 4C"), card=st.Card.parse("KH"))
    assert item.answer() == "yes"
    assert item.check("no").diagnosis == "K♥ is not a trump: a side card may be led whether spades are broken or not."


@pytest.mark.slow
def test_who_leads_level_2_does_not_repeat_itself() -> None:
    made = items("first-leader", 2)
    distinct = {(i.rules.name, json.dumps(i.position(), sort_keys=True)) for i in made}
    assert len(distinct) == len(made)
    later = [i for i in made if isinstance(i, FirstLeaderItem) and i.question == "next-deal"]
    assert len({i.hands for i in later}) >= 5 and len(later) >= 20


def test_who_leads_a_later_deal_passes_the_deal_left_once_a_hand() -> None:
    jokers = st.Rules.preset("jokers")
    item = FirstLeaderItem(jokers, question="next-deal", dealer=st.Seat.WEST, hands=3)
    # West dealt: North, East, then South deal; West, on South's left, leads
    assert item.prompt == "West dealt this hand. Who leads the first trick 3 hands from now?"
    assert item.answer() == "West"
    assert item.check("N").diagnosis == "The deal passes left after each hand: South deals 3 hands from now."
    assert FirstLeaderItem.from_position(jokers, item.position()).answer() == "West"
    with pytest.raises(st.SpadesError):
        FirstLeaderItem(jokers, question="next-deal", hands=0)


def test_score_level_3_promises_blind_nil_only_where_the_table_plays_it() -> None:
    level_3 = ScoreItem.levels[3]
    default = [generate("score", st.Rules.preset(n), seed, difficulty=3) for n in PRESETS for seed in SEEDS]
    assert not any(b.blind for i in default for b in i.bids.values())  # the presets play without blind nil
    assert "blind nil where the table plays it" in level_3
    blind = st.Rules.preset("jokers", blind_nil="always")
    made = [generate("score", blind, seed, difficulty=3) for seed in SEEDS]
    assert sum(any(b.blind for b in i.bids.values()) for i in made) >= 3
