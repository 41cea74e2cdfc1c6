"""The game-winner, who-leads, may-lead and deck set-up kinds: each answer is the engine's."""

from __future__ import annotations

from pathlib import Path

import pytest

import spades_tutor as st
from spades_tutor.lessons import parse_lesson, validate_lesson
from spades_tutor.quiz import item_from_dict
from spades_tutor.quiz.kinds.deck_setup import OUT, SIDE, TRUMP, DeckSetupItem
from spades_tutor.quiz.kinds.first_leader import FirstLeaderItem
from spades_tutor.quiz.kinds.game_winner import GameWinnerItem
from spades_tutor.quiz.kinds.may_lead import MayLeadItem

JOKERS = st.Rules.preset("jokers")
DEUCES = st.Rules.preset("deuces-high")
NS, EW = st.Team.NS, st.Team.EW

# --- the engine's first leader ----------------------------------------------------------------


@pytest.mark.parametrize("dealer", list(st.Seat))
def test_the_first_leader_sits_left_of_the_dealer(dealer: st.Seat) -> None:
    seat, why = st.explain_first_leader(JOKERS, dealer)
    assert seat == dealer.left and dealer.label in why and seat.label in why


def test_a_table_that_opens_with_the_two_of_clubs_lets_its_holder_lead() -> None:
    rules = st.Rules.preset("jokers", first_lead="two-of-clubs")
    assert st.explain_first_leader(rules, st.Seat.WEST, st.Seat.EAST)[0] == st.Seat.EAST
    with pytest.raises(st.SpadesError, match="who holds it"):
        st.explain_first_leader(rules, st.Seat.WEST)


@pytest.mark.parametrize("first_lead", ["left-of-dealer", "two-of-clubs"])
def test_a_round_opens_with_the_leader_the_engine_names(first_lead: str) -> None:
    rules = st.Rules.preset("jokers", first_lead=first_lead)
    for seed in range(30):
        rnd = st.Round.deal(rules, seed=seed)
        for _ in range(4):
            rnd.bid(3)
        holder = next(s for s in st.Seat if st.Card.parse("2C") in rnd.hands[s])
        assert rnd.to_act == st.explain_first_leader(rules, rnd.dealer, holder)[0]


# --- who wins the game --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "ns", "ew", "answer"),
    [
        (JOKERS, 520, 530, "East–West"),
        (JOKERS, 510, 510, "another hand"),
        (JOKERS, 500, 499, "North–South"),
        (JOKERS, 300, -350, "another hand"),  # no mercy rule at this table
        (st.Rules.preset("jokers", mercy=-200), 300, -200, "North–South"),
        (st.Rules.preset("jokers", mercy=-200), -250, -250, "another hand"),
    ],
)
def test_who_wins_the_game_is_the_engines_decision(rules: st.Rules, ns: int, ew: int, answer: str) -> None:
    item = GameWinnerItem(rules, scores={NS: ns, EW: ew})
    assert item.answer() == answer
    feedback = item.check(answer)
    assert feedback.correct and feedback.explanation == (st.explain_game(rules, {NS: ns, EW: ew})[1],)
    assert not item.check("North–South" if answer != "North–South" else "East–West").correct
    assert item_from_dict(item.to_dict()).answer() == answer


def test_a_lesson_can_state_game_totals() -> None:
    text = "# Demo\n\n---\n\n## Game\n\n```quiz game-winner\nscores: NS 510, EW 510\n```\n"
    lesson = parse_lesson(text, Path("01-demo.md"))
    (block,) = lesson.steps[0].blocks
    assert block.quiz_item(lesson).answer() == "another hand"
    assert validate_lesson(lesson) == []


# --- may you lead it ------------------------------------------------------------------------------


def test_a_joker_may_not_be_led_before_spades_are_broken_unless_the_hand_is_all_trumps() -> None:
    hand = st.cards("LJ 5S KH 3C")
    item = MayLeadItem(JOKERS, hand=hand, card=st.Card.parse("LJ"))
    assert item.answer() == "no"
    why = st.why_illegal(JOKERS, hand, st.Card.parse("LJ"), (), False)
    assert why is not None and str(why) in item.check("no").explanation
    assert MayLeadItem(JOKERS, hand=hand, card=st.Card.parse("LJ"), spades_broken=True).answer() == "yes"
    assert MayLeadItem(JOKERS, hand=st.cards("LJ 5S"), card=st.Card.parse("LJ")).answer() == "yes"
    # the 2♦ is a trump in deuces-high, a diamond elsewhere
    assert MayLeadItem(DEUCES, hand=st.cards("2D KH"), card=st.Card.parse("2D")).answer() == "no"
    assert MayLeadItem(st.Rules.preset("bicycle"), hand=st.cards("2H KH"), card=st.Card.parse("2H")).answer() == "yes"


def test_the_earlier_tricks_say_whether_spades_are_broken() -> None:
    earlier = ((st.Seat.NORTH, st.cards("AH 3H 4S 5H")),)
    item = MayLeadItem(JOKERS, hand=st.cards("KS 2C"), card=st.Card.parse("KS"), spades_broken=True, earlier=earlier)
    feedback = item.check("yes")
    assert feedback.correct and "4♠" in feedback.explanation[0] and "trick 1" in feedback.explanation[0]
    assert item_from_dict(item.to_dict()).earlier == earlier


# --- deck set-up ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "card", "answer"),
    [
        (JOKERS, "2D", OUT),
        (DEUCES, "2D", TRUMP),
        (DEUCES, "2C", OUT),
        (JOKERS, "2C", SIDE),
        (JOKERS, "2S", TRUMP),
        (st.Rules.preset("classic"), "BJ", OUT),
    ],
)
def test_a_cards_place_in_the_deck_is_the_rule_sets(rules: st.Rules, card: str, answer: str) -> None:
    item = DeckSetupItem(rules, question="card", card=st.Card.parse(card))
    assert item.answer() == answer and item.check(answer).correct
    assert not item.check(next(a for a in (TRUMP, SIDE, OUT) if a != answer)).correct


def test_counting_a_suit_and_selecting_the_trumps_follow_the_rule_set() -> None:
    assert DeckSetupItem(JOKERS, question="count", suit=st.Suit.HEARTS).answer() == 12
    assert DeckSetupItem(JOKERS, question="count", suit=st.Suit.SPADES).answer() == 15
    assert DeckSetupItem(DEUCES, question="count", suit=st.Suit.DIAMONDS).answer() == 12
    item = DeckSetupItem(DEUCES, question="trumps", choices=st.cards("2D AH LJ 3S 2S KC"))
    assert set(item.answer()) == set(st.cards("2D LJ 3S 2S"))
    assert item.check("LJ 2S 3S 2D").correct and not item.check("LJ 2S 3S").correct
    plain = DeckSetupItem(JOKERS, question="trumps", choices=st.cards("2C AH LJ 3S 2S KC"))
    assert set(plain.answer()) == set(st.cards("LJ 3S 2S"))  # the 2♣ is a club here


# --- who leads -------------------------------------------------------------------------------------


def test_the_winner_of_a_trick_leads_the_next_and_the_deal_passes_left() -> None:
    trick = FirstLeaderItem(JOKERS, question="next-trick", trick=st.cards("KD 3D LJ AD"), leader=st.Seat.EAST)
    assert trick.answer() == st.Seat.WEST.label  # the little joker, third from East
    assert trick.check("W").correct and not trick.check("N").correct
    deal = FirstLeaderItem(JOKERS, question="next-deal", dealer=st.Seat.WEST)
    assert deal.answer() == st.Seat.EAST.label  # North deals next, East leads
    opening = FirstLeaderItem(
        st.Rules.preset("jokers", first_lead="two-of-clubs"),
        question="first",
        dealer=st.Seat.WEST,
        two_of_clubs=st.Seat.SOUTH,
    )
    assert opening.answer() == st.Seat.SOUTH.label
    assert item_from_dict(opening.to_dict()).answer() == st.Seat.SOUTH.label
