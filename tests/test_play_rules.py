"""The play: following suit, trumping, who wins a trick, when spades are broken, and the reasons given.

Each test quotes (in its docstring or the constants below) the sentence of
joker-spades-rules.txt or house-rules.md it pins.
"""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

import spades_tutor as st
from spades_tutor import Seat

C = st.Card.parse
ALL_PRESETS = st.Rules.preset_names()
JOKER_PRESETS = ("jokers", "deuces-high", "two-of-spades-third", "bicycle")
JOKERS = ("BJ", "LJ")

# house-rules.md, "Presets": trumps, highest first
_DOWN = "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S"
TRUMPS = {
    "jokers": f"BJ LJ {_DOWN} 2S",
    "deuces-high": f"BJ LJ 2D 2S {_DOWN}",
    "two-of-spades-third": f"BJ LJ 2S {_DOWN}",
    "bicycle": f"BJ LJ {_DOWN} 2S",
    "classic": f"{_DOWN} 2S",
}


def rules_of(preset: str) -> st.Rules:
    return st.Rules.preset(preset)


def as_set(cards) -> set:
    return set(st.cards(cards) if isinstance(cards, str) else cards)


def assert_sentence(reason, *words: str) -> None:
    assert isinstance(reason, st.Reason)
    text = str(reason)
    assert text[:1].isupper(), text
    assert text.rstrip().endswith("."), text
    assert len(text.split()) >= 5, text
    for word in words:
        assert word.lower() in text.lower(), f"{word!r} not in {text!r}"


def make_round(rules, fixed, avoid=None, dealer=Seat.WEST, **kwargs) -> st.Round:
    """A round whose hands hold the ``fixed`` cards, the rest of the deck dealt so that
    no seat gets a card that counts as a suit in ``avoid[seat]``."""
    fixed_cards = {seat: list(st.cards(text)) for seat, text in fixed.items()}
    used = [c for hand in fixed_cards.values() for c in hand]
    assert len(set(used)) == len(used)
    hands = {seat: list(fixed_cards.get(seat, [])) for seat in Seat}
    avoid = avoid or {}
    rest = [c for c in rules.deck() if c not in used]
    constrained = {suit for suits in avoid.values() for suit in suits}
    rest.sort(key=lambda c: rules.suit_of(c) not in constrained)
    for card in rest:
        allowed = [s for s in Seat if len(hands[s]) < 13 and rules.suit_of(card) not in avoid.get(s, ())]
        assert allowed, "the test's deal cannot be completed"
        seat = max(allowed, key=lambda s: 13 - len(hands[s]))
        hands[seat].append(card)
    return st.Round.from_hands(rules, hands, dealer=dealer, **kwargs)


def bid_all(rnd: st.Round, bid: int = 3) -> None:
    for _ in range(4):
        rnd.bid(bid)


# --- following suit ------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_must_follow_suit(preset):
    """'You must follow suit if you can.'"""
    rules = rules_of(preset)
    assert as_set(st.legal_plays(rules, "3H AS 5C QH", trick="KH")) == as_set("3H QH")
    assert_sentence(st.why_illegal(rules, "3H AS 5C QH", "AS", trick="KH"), "follow", "heart")
    assert_sentence(st.why_illegal(rules, "3H AS 5C QH", "5C", trick="KH"), "follow", "heart")


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_must_follow_suit_of_the_card_led_not_of_later_cards(preset):
    rules = rules_of(preset)
    assert as_set(st.legal_plays(rules, "3H 9C 5D", trick="KC AH 4S")) == as_set("9C")


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_void_in_the_suit_led_may_play_any_card_including_a_trump(preset):
    """'If you cannot, play any card, including a spade or a joker.'"""
    rules = rules_of(preset)
    hand = "AS 5C 9D" + (" LJ" if preset != "classic" else "")
    assert as_set(st.legal_plays(rules, hand, trick="KH")) == as_set(hand)
    for card in st.cards(hand):
        assert st.why_illegal(rules, hand, card, trick="KH") is None


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_spade_lead_must_be_followed_with_a_spade(preset):
    rules = rules_of(preset)
    assert as_set(st.legal_plays(rules, "AS 9H 4C", trick="5S")) == as_set("AS")
    assert_sentence(st.why_illegal(rules, "AS 9H 4C", "9H", trick="5S"), "follow", "spade")


# --- the jokers count as spades for every purpose ------------------------------------------------


@pytest.mark.parametrize("preset", JOKER_PRESETS)
@pytest.mark.parametrize("joker", JOKERS)
def test_a_joker_must_follow_a_spade_lead(preset, joker):
    """'When a spade is led, a joker is a legal way to follow' / 'The jokers count as spades for every purpose.'"""
    rules = rules_of(preset)
    hand = f"{joker} AH 5C"
    assert as_set(st.legal_plays(rules, hand, trick="KS")) == as_set(joker)
    assert_sentence(st.why_illegal(rules, hand, "AH", trick="KS"), "follow", "spade")


@pytest.mark.parametrize("preset", JOKER_PRESETS)
@pytest.mark.parametrize("joker", JOKERS)
def test_a_joker_may_be_played_on_a_spade_lead_beside_spades(preset, joker):
    rules = rules_of(preset)
    hand = f"{joker} 4S AH"
    assert as_set(st.legal_plays(rules, hand, trick="KS")) == as_set(f"{joker} 4S")
    assert st.why_illegal(rules, hand, joker, trick="KS") is None


@pytest.mark.parametrize("preset", JOKER_PRESETS)
@pytest.mark.parametrize("joker", JOKERS)
def test_a_joker_is_not_a_card_of_a_side_suit(preset, joker):
    """A joker is a spade, so it may not be played on a heart lead while holding a heart."""
    rules = rules_of(preset)
    hand = f"{joker} 3H 5C"
    assert as_set(st.legal_plays(rules, hand, trick="KH")) == as_set("3H")
    assert_sentence(st.why_illegal(rules, hand, joker, trick="KH"), "follow", "spade")


@pytest.mark.parametrize("preset", JOKER_PRESETS)
@pytest.mark.parametrize("joker", JOKERS)
def test_a_joker_trumps_a_side_suit_like_any_spade(preset, joker):
    """'When you are out of the suit led, a joker trumps like any spade.'"""
    rules = rules_of(preset)
    assert st.trick_winner(rules, f"KH AH {joker} QH") == 2
    assert st.trick_winner(rules, f"3C {joker} AC KC") == 1


@pytest.mark.parametrize("preset", JOKER_PRESETS)
@pytest.mark.parametrize("joker", JOKERS)
def test_a_joker_may_not_be_led_before_spades_are_broken(preset, joker):
    """'Leading a joker counts as leading a spade, so you cannot lead one until spades are broken.'"""
    rules = rules_of(preset)
    hand = f"{joker} 5C AH"
    assert as_set(st.legal_plays(rules, hand)) == as_set("5C AH")
    assert_sentence(st.why_illegal(rules, hand, joker), "spade", "broken")


@pytest.mark.parametrize("preset", JOKER_PRESETS)
@pytest.mark.parametrize("joker", JOKERS)
def test_a_joker_may_be_led_once_spades_are_broken(preset, joker):
    rules = rules_of(preset)
    hand = f"{joker} 5C AH"
    assert as_set(st.legal_plays(rules, hand, spades_broken=True)) == as_set(hand)
    assert st.why_illegal(rules, hand, joker, spades_broken=True) is None


@pytest.mark.parametrize("preset", JOKER_PRESETS)
@pytest.mark.parametrize("hand", ["BJ LJ 3S", "BJ LJ", "LJ", "BJ 5S", "LJ 4S 3S"])
def test_a_joker_may_be_led_before_spades_are_broken_by_a_leader_holding_only_trumps(preset, hand):
    """'... unless you have nothing but trumps left.'"""
    rules = rules_of(preset)
    assert as_set(st.legal_plays(rules, hand)) == as_set(hand)
    for card in st.cards(hand):
        assert st.why_illegal(rules, hand, card) is None


@pytest.mark.parametrize("preset", JOKER_PRESETS)
@pytest.mark.parametrize("joker", JOKERS)
def test_a_led_joker_is_a_spade_lead(preset, joker):
    """'Leading a joker counts as leading a spade.'"""
    rules = rules_of(preset)
    assert as_set(st.legal_plays(rules, "5S AH 9C", trick=joker)) == as_set("5S")
    assert_sentence(st.why_illegal(rules, "5S AH 9C", "AH", trick=joker), "follow", "spade")
    other = "LJ" if joker == "BJ" else "BJ"
    assert as_set(st.legal_plays(rules, f"{other} AH", trick=joker)) == as_set(other)
    # void in spades: anything
    assert as_set(st.legal_plays(rules, "AH 9C", trick=joker)) == as_set("AH 9C")


@pytest.mark.parametrize("preset", JOKER_PRESETS)
@pytest.mark.parametrize("joker", JOKERS)
def test_a_led_joker_wins_over_lower_spades_and_side_cards(preset, joker):
    rules = rules_of(preset)
    assert st.trick_winner(rules, f"{joker} AS AH KS") == 0


# --- deuces high: the 2♦ is a spade --------------------------------------------------------------

DEUCES = "deuces-high"


def test_deuces_high_two_of_diamonds_alone_is_void_in_diamonds():
    """house-rules.md: 'in deuces-high a player whose only diamond is the 2♦ is void in diamonds'."""
    rules = rules_of(DEUCES)
    hand = "2D 5H 4C"
    assert as_set(st.legal_plays(rules, hand, trick="KD")) == as_set(hand)
    for card in st.cards(hand):
        assert st.why_illegal(rules, hand, card, trick="KD") is None


def test_deuces_high_two_of_diamonds_is_not_a_diamond_when_following():
    rules = rules_of(DEUCES)
    hand = "2D 5D 4C"
    assert as_set(st.legal_plays(rules, hand, trick="KD")) == as_set("5D")
    assert_sentence(st.why_illegal(rules, hand, "2D", trick="KD"), "follow", "spade")


def test_deuces_high_two_of_diamonds_must_follow_a_spade_lead():
    rules = rules_of(DEUCES)
    assert as_set(st.legal_plays(rules, "2D 5H 6D", trick="5S")) == as_set("2D")
    assert_sentence(st.why_illegal(rules, "2D 5H 6D", "6D", trick="5S"), "follow", "spade")


def test_deuces_high_two_of_diamonds_may_not_be_led_before_spades_are_broken():
    """house-rules.md: 'and may not lead the 2♦ before spades are broken'."""
    rules = rules_of(DEUCES)
    hand = "2D 5H 4C"
    assert as_set(st.legal_plays(rules, hand)) == as_set("5H 4C")
    assert_sentence(st.why_illegal(rules, hand, "2D"), "spade", "broken")
    assert st.why_illegal(rules, hand, "2D", spades_broken=True) is None
    assert as_set(st.legal_plays(rules, "2D 3S")) == as_set("2D 3S")


def test_deuces_high_two_of_diamonds_led_is_a_spade_lead():
    rules = rules_of(DEUCES)
    assert as_set(st.legal_plays(rules, "5D 3S", trick="2D")) == as_set("3S")
    assert as_set(st.legal_plays(rules, "5D 9H", trick="2D")) == as_set("5D 9H")
    assert st.trick_winner(rules, "2D AD KD QD") == 0


def test_deuces_high_two_of_diamonds_trumps_a_side_suit():
    rules = rules_of(DEUCES)
    assert st.trick_winner(rules, "KH AH 2D QH") == 2
    assert st.trick_winner(rules, "KD AD 2D QD") == 2


# --- who wins a trick ----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_the_trick_goes_to_the_highest_card_of_the_suit_led_when_no_trump_is_played(preset):
    """'A trick goes to the highest trump played in it, or if there is none, to the highest card of the suit led.'"""
    rules = rules_of(preset)
    assert st.trick_winner(rules, "5H AH KH 3C") == 1
    assert st.trick_winner(rules, "3H AC 5H AD") == 2  # off-suit aces do not win
    assert st.trick_winner(rules, "QC 3C 9D AH") == 0
    assert st.trick_winner(rules, "9D 10D JD 8D") == 2


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_the_trick_goes_to_the_highest_trump(preset):
    rules = rules_of(preset)
    assert st.trick_winner(rules, "KH 4S AH 3H") == 1
    assert st.trick_winner(rules, "KH 4S AH 5S") == 3
    assert st.trick_winner(rules, "AC KS QS 3C") == 1


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_trick_winner_of_an_incomplete_trick(preset):
    rules = rules_of(preset)
    assert st.trick_winner(rules, "5H") == 0
    assert st.trick_winner(rules, "5H 9H") == 1


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_trump_order_decides_every_pair_of_trumps(preset):
    """The order of house-rules.md decides between any two trumps, on a spade lead or trumping a side suit."""
    rules = rules_of(preset)
    order = st.cards(TRUMPS[preset])
    wrong = []
    for i, high in enumerate(order):
        for low in order[i + 1 :]:
            if st.trick_winner(rules, (high, low)) != 0:
                wrong.append(f"{high} led, {low} played")
            if st.trick_winner(rules, (low, high)) != 1:
                wrong.append(f"{low} led, {high} played")
            if st.trick_winner(rules, (C("9H"), low, high, C("AH"))) != 2:
                wrong.append(f"9H {low} {high} AH")
            if st.trick_winner(rules, (C("9H"), high, low, C("AH"))) != 1:
                wrong.append(f"9H {high} {low} AH")
    assert not wrong, f"{len(wrong)} tricks won by the wrong card, e.g. {wrong[:5]}"


@pytest.mark.parametrize("preset", JOKER_PRESETS)
def test_big_joker_beats_little_joker_beats_ace_of_spades(preset):
    """'The big joker and little joker are the top two spades.'"""
    rules = rules_of(preset)
    assert st.trick_winner(rules, "AS LJ BJ KS") == 2
    assert st.trick_winner(rules, "LJ AS KS QS") == 0
    assert st.trick_winner(rules, "KS AS LJ QS") == 2
    assert st.trick_winner(rules, "AH BJ LJ KH") == 1


def test_deuces_high_order_big_little_two_of_diamonds_two_of_spades_ace():
    """'Deuces high: the trumps run big joker, little joker, two of diamonds, two of spades, then the ace of spades down.'"""
    rules = rules_of(DEUCES)
    assert st.trick_winner(rules, "AS 2S 2D LJ") == 3
    assert st.trick_winner(rules, "AS 2S 2D KS") == 2
    assert st.trick_winner(rules, "AS 2S KS QS") == 1
    assert st.trick_winner(rules, "3S 4S 2S AS") == 2


def test_two_of_spades_third_order():
    """'Two of spades third: the trumps run big joker, little joker, two of spades, then the ace of spades down to the three.'"""
    rules = rules_of("two-of-spades-third")
    assert st.trick_winner(rules, "AS 2S KS QS") == 1
    assert st.trick_winner(rules, "2S LJ AS KS") == 1
    assert st.trick_winner(rules, "3S 2S 4S AS") == 1


@pytest.mark.parametrize("preset", ["jokers", "bicycle", "classic"])
def test_the_two_of_spades_is_the_lowest_trump(preset):
    rules = rules_of(preset)
    assert st.trick_winner(rules, "2S 3S") == 1
    assert st.trick_winner(rules, "KH 2S AH QH") == 1  # still trumps a side suit


# --- spades broken -------------------------------------------------------------------------------


def _breakers(preset: str) -> list[str]:
    extra = {"deuces-high": ["2D"]}.get(preset, [])
    jokers = list(JOKERS) if preset in JOKER_PRESETS else []
    return [*jokers, *extra, "AS"]


BREAK_CASES = [(p, b) for p in ALL_PRESETS for b in _breakers(p)]


def _break_round(preset: str, breaker: str) -> st.Round:
    """N leads A♥; E is void in hearts and holds ``breaker``, K♠ and 5♣; S and W follow with hearts."""
    rules = rules_of(preset)
    rnd = make_round(
        rules,
        {Seat.NORTH: "AH 3S 4C", Seat.EAST: f"{breaker} KS 5C", Seat.SOUTH: "KH", Seat.WEST: "QH"},
        avoid={Seat.EAST: {st.Suit.HEARTS}},
    )
    bid_all(rnd)
    return rnd


@pytest.mark.parametrize(("preset", "breaker"), BREAK_CASES)
def test_any_trump_played_breaks_spades_from_the_next_trick(preset, breaker):
    """'you cannot lead one until spades are broken: a spade or joker has to have been played on an earlier trick'.
    house-rules.md: counting as a spade applies to 'breaking spades' (jokers, and the 2♦ in deuces-high)."""
    rnd = _break_round(preset, breaker)
    assert not rnd.spades_broken
    rnd.play("AH")
    assert not rnd.spades_broken
    rnd.play(breaker)  # East trumps
    rnd.play("KH")
    rnd.play("QH")
    assert len(rnd.tricks) == 1
    assert rnd.tricks[0].winner == Seat.EAST
    assert rnd.to_act == Seat.EAST
    assert rnd.spades_broken
    legal = as_set(rnd.legal_plays())
    assert C("KS") in legal
    assert C("5C") in legal
    assert rnd.why_illegal("KS") is None
    rnd.play("KS")  # leading a trump is now allowed
    assert rnd.trick.cards == (C("KS"),)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_spades_are_not_broken_while_no_trump_has_been_played(preset):
    rnd = _break_round(preset, "AS")
    for card in ("AH", "5C", "KH", "QH"):  # East discards a club instead of trumping
        rnd.play(card)
    assert rnd.tricks[0].winner == Seat.NORTH
    assert rnd.to_act == Seat.NORTH
    assert not rnd.spades_broken
    legal = as_set(rnd.legal_plays())
    assert C("3S") not in legal
    assert C("4C") in legal
    assert all(not rnd.rules.is_trump(c) for c in legal)
    before = rnd.to_json()
    with pytest.raises(st.IllegalAction) as info:
        rnd.play("3S")
    assert_sentence(info.value.reason, "spade", "broken")
    assert rnd.to_json() == before


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_trump_may_not_be_led_to_the_first_trick_unless_the_leader_holds_only_trumps(preset):
    """house-rules.md: 'opening lead: the player left of the dealer, any card but a trump'."""
    rules = rules_of(preset)
    rnd = make_round(rules, {Seat.NORTH: "AH 3S 4C"})
    bid_all(rnd)
    assert rnd.to_act == Seat.NORTH
    assert all(not rules.is_trump(c) for c in rnd.legal_plays())
    assert rnd.legal_plays()

    only_trumps = make_round(rules, {Seat.NORTH: st.cards(TRUMPS[preset])[:13]})
    bid_all(only_trumps)
    assert as_set(only_trumps.legal_plays()) == as_set(st.cards(TRUMPS[preset])[:13])
    lead = st.cards(TRUMPS[preset])[12]
    only_trumps.play(lead)
    assert only_trumps.trick.cards == (lead,)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_trump_led_by_a_leader_holding_only_trumps_breaks_spades(preset):
    rules = rules_of(preset)
    rnd = make_round(rules, {Seat.NORTH: st.cards(TRUMPS[preset])[:13]})
    bid_all(rnd)
    for _ in range(4):
        rnd.play(rnd.legal_plays()[-1])
    assert rnd.spades_broken


# --- the first lead ------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("dealer", list(Seat))
def test_the_player_left_of_the_dealer_leads_first(preset, dealer):
    """'The player left of the dealer leads first.'"""
    rnd = st.Round.deal(rules_of(preset), dealer=dealer, seed=5)
    said, why = rnd.first_leader()  # asked before the bidding, as a lesson asks it
    bid_all(rnd)
    assert rnd.phase == st.Phase.PLAYING
    assert rnd.to_act == dealer.left == said
    assert why == f"{dealer.label} dealt, so {said.label}, on the dealer's left, leads the first trick."


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_the_winner_leads_next(preset):
    """'The winner leads next.'"""
    rnd = st.Round.deal(rules_of(preset), seed=11)
    bid_all(rnd)
    while not rnd.is_over:
        rnd.play(rnd.legal_plays()[0])
        if not rnd.trick.cards and not rnd.is_over:
            assert rnd.to_act == rnd.tricks[-1].winner
            assert rnd.trick.leader == rnd.tricks[-1].winner


PRESETS_WITH_TWO_OF_CLUBS = ("jokers", "two-of-spades-third", "classic")


@pytest.mark.parametrize("preset", PRESETS_WITH_TWO_OF_CLUBS)
@pytest.mark.parametrize("holder", list(Seat))
def test_two_of_clubs_first_lead_flag_the_holder_leads_it(preset, holder):
    """house-rules.md: '`two-of-clubs`: the 2♣ holder leads it (only where 2♣ is in the deck)'."""
    rules = dataclasses.replace(rules_of(preset), first_lead="two-of-clubs")
    rnd = make_round(rules, {holder: "2C AH 5D"}, dealer=Seat.WEST)
    assert rnd.to_act == Seat.NORTH  # the bidding still starts left of the dealer
    said, why = rnd.first_leader()
    assert said == holder and f"{holder.label} holds it" in why
    bid_all(rnd)
    assert rnd.to_act == holder
    assert rnd.first_leader() == (said, why)  # the same answer once the bidding is over
    assert rnd.legal_plays() == (C("2C"),)
    before = rnd.to_json()
    with pytest.raises(st.IllegalAction) as info:
        rnd.play("AH")
    assert isinstance(info.value.reason, st.Reason)
    assert rnd.to_json() == before
    rnd.play("2C")
    assert rnd.trick.cards == (C("2C"),)
    assert rnd.trick.leader == holder


@pytest.mark.parametrize("preset", PRESETS_WITH_TWO_OF_CLUBS)
def test_two_of_clubs_first_lead_only_binds_the_first_trick(preset):
    rules = dataclasses.replace(rules_of(preset), first_lead="two-of-clubs")
    rnd = make_round(rules, {Seat.SOUTH: "2C"})
    bid_all(rnd)
    for _ in range(4):
        rnd.play(rnd.legal_plays()[0])
    winner = rnd.tricks[0].winner
    assert rnd.to_act == winner
    hand = rnd.hands[winner]
    assert as_set(rnd.legal_plays()) == as_set(st.legal_plays(rules, hand, (), rnd.spades_broken))


# --- reasons and explanations --------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_why_illegal_is_none_exactly_for_legal_cards(preset):
    rules = rules_of(preset)
    rng = random.Random(preset)
    deck = list(rules.deck())
    for _ in range(150):
        rng.shuffle(deck)
        hand = tuple(deck[: rng.randint(1, 13)])
        trick = tuple(deck[13 : 13 + rng.randint(0, 3)])
        broken = rng.random() < 0.5
        legal = set(st.legal_plays(rules, hand, trick, broken))
        assert legal, "a player always has a legal card"
        for card in hand:
            reason = st.why_illegal(rules, hand, card, trick, broken)
            if card in legal:
                assert reason is None
            else:
                assert isinstance(reason, st.Reason)
                assert str(reason).endswith(".")


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_why_illegal_a_card_not_held(preset):
    reason = st.why_illegal(rules_of(preset), "AH 5C", "KD")
    assert isinstance(reason, st.Reason)
    assert str(reason).endswith(".")


@pytest.mark.parametrize("preset", JOKER_PRESETS)
def test_explain_trick_little_joker_is_the_second_highest_trump(preset):
    text = st.explain_trick(rules_of(preset), "KH 3S AH LJ")
    assert "little joker" in text.lower()
    assert "second-highest" in text
    assert text[:1].isupper() and text.endswith(".")


@pytest.mark.parametrize("preset", JOKER_PRESETS)
def test_explain_trick_big_joker_is_the_highest_trump(preset):
    text = st.explain_trick(rules_of(preset), "AS BJ LJ KS")
    assert "big joker" in text.lower()
    assert "highest" in text
    assert "little" not in text.lower().split("wins")[0]


def test_explain_trick_deuces_high_two_of_diamonds():
    text = st.explain_trick(rules_of(DEUCES), "AS 2S 2D KS")
    assert "2♦" in text or "two of diamonds" in text
    assert "third-highest" in text


def test_explain_trick_two_of_spades_third():
    text = st.explain_trick(rules_of("two-of-spades-third"), "AS 2S KS QS")
    assert text.startswith("2♠") or "two of spades" in text.lower().split("wins")[0]
    assert "third-highest" in text


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_explain_trick_highest_card_of_the_suit_led(preset):
    text = st.explain_trick(rules_of(preset), "KH QH AH 3C")
    assert "A♥" in text or "ace of hearts" in text
    assert "heart" in text
    assert text[:1].isupper() and text.endswith(".")


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_explain_trick_a_trump_on_a_side_suit(preset):
    text = st.explain_trick(rules_of(preset), "KH 5S AH 3H")
    assert text.startswith("5♠")
    assert "trump" in text


# --- a trick in a notebook -----------------------------------------------------------------------


def test_a_trick_shows_as_html_with_both_jokers_labelled_differently():
    rules = rules_of("jokers")
    trick = st.Trick.complete(rules, Seat.WEST, st.cards("KH LJ AH BJ"))
    html = trick._repr_html_()
    assert isinstance(html, str) and html.lstrip().startswith("<")
    for name in ("big joker", "little joker", "king of hearts", "ace of hearts"):
        assert name in html
    assert trick.winner == Seat.SOUTH
    # the winning explanation is shown
    assert "big joker" in st.explain_trick(rules, "KH LJ AH BJ").lower()
    for seat in ("North", "East", "South", "West"):
        assert seat in html
    big = re.search(r'<span[^>]*aria-label="big joker"[^>]*>(.*?)</span></span>', html, re.S)
    little = re.search(r'<span[^>]*aria-label="little joker"[^>]*>(.*?)</span></span>', html, re.S)
    assert big and little
    strip = lambda m: re.sub(r'(aria-label|title)="[^"]*"', "", m.group(0))  # noqa: E731
    assert strip(big) != strip(little)
    assert re.sub(r"<[^>]+>", "", big.group(1)) != re.sub(r"<[^>]+>", "", little.group(1))
