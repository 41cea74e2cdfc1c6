"""Cards: the notation people write, round trips, errors, names, and how a hand shows in a notebook.

Rule text: "add both jokers" / "agree which joker is big and which is little" (joker-spades-rules.txt);
house-rules.md: "show the two jokers so that they cannot be confused".
"""

from __future__ import annotations

import re

import pytest

import spades_tutor as st
from spades_tutor import Card

ALL_54 = st.full_pack()


def test_the_full_pack_is_52_suited_cards_and_two_jokers():
    assert len(ALL_54) == 54
    assert len(set(ALL_54)) == 54
    assert sum(c.is_joker for c in ALL_54) == 2
    assert st.BIG_JOKER in ALL_54 and st.LITTLE_JOKER in ALL_54
    suited = [c for c in ALL_54 if not c.is_joker]
    assert {(c.rank, c.suit) for c in suited} == {(r, s) for r in range(2, 15) for s in st.Suit}


@pytest.mark.parametrize("text", ["A♠", "AS", "as", "aS", "a♠", " AS "])
def test_ace_of_spades_notation(text):
    card = Card.parse(text)
    assert card.rank == st.Rank.ACE
    assert card.suit == st.Suit.SPADES
    assert card == Card.parse("A♠")
    assert str(card) == "A♠"


@pytest.mark.parametrize("text", ["10h", "10H", "TH", "th", "10♥", "T♥"])
def test_ten_of_hearts_notation_ten_or_t(text):
    card = Card.parse(text)
    assert card.rank == st.Rank.TEN
    assert card.suit == st.Suit.HEARTS
    assert str(card) == "10♥"


@pytest.mark.parametrize(
    ("text", "rank", "suit", "shown"),
    [
        ("KD", st.Rank.KING, st.Suit.DIAMONDS, "K♦"),
        ("qc", st.Rank.QUEEN, st.Suit.CLUBS, "Q♣"),
        ("J♥", st.Rank.JACK, st.Suit.HEARTS, "J♥"),
        ("2s", st.Rank.TWO, st.Suit.SPADES, "2♠"),
        ("9♦", st.Rank.NINE, st.Suit.DIAMONDS, "9♦"),
    ],
)
def test_rank_and_suit_notation(text, rank, suit, shown):
    card = Card.parse(text)
    assert (card.rank, card.suit, str(card)) == (rank, suit, shown)


@pytest.mark.parametrize("text", ["BJ", "bj", "Bj"])
def test_bj_is_the_big_joker(text):
    card = Card.parse(text)
    assert card == st.BIG_JOKER
    assert card.is_joker
    assert card.suit is None
    assert str(card) == "BJ"


@pytest.mark.parametrize("text", ["LJ", "lj"])
def test_lj_is_the_little_joker(text):
    card = Card.parse(text)
    assert card == st.LITTLE_JOKER
    assert card.is_joker
    assert card.suit is None
    assert str(card) == "LJ"


def test_the_big_and_little_joker_are_different_cards():
    assert Card.parse("BJ") != Card.parse("LJ")
    assert str(Card.parse("BJ")) != str(Card.parse("LJ"))
    assert Card.parse("BJ").name != Card.parse("LJ").name


@pytest.mark.parametrize("card", ALL_54, ids=str)
def test_parse_of_str_round_trips_for_every_card(card):
    assert Card.parse(str(card)) == card


@pytest.mark.parametrize("card", ALL_54, ids=str)
def test_eval_of_repr_round_trips_for_every_card(card):
    assert eval(repr(card), {"Card": Card}) == card


def test_every_card_has_its_own_notation():
    assert len({str(c) for c in ALL_54}) == 54


@pytest.mark.parametrize("text", ["", "1x", "11h", "1H", "ZS", "A", "10", "AX", "A♠♠", "joker", "0S", "15C"])
def test_a_bad_card_string_is_a_card_parse_error_naming_the_input(text):
    with pytest.raises(st.CardParseError) as info:
        Card.parse(text)
    assert isinstance(info.value, ValueError)
    assert repr(text) in str(info.value) or text in str(info.value)


def test_a_bad_card_in_a_list_of_cards_is_a_card_parse_error_naming_it():
    with pytest.raises(st.CardParseError) as info:
        st.cards("AS KH XY 10d")
    assert "XY" in str(info.value)


def test_card_parse_error_is_a_value_error_subclass():
    assert issubclass(st.CardParseError, ValueError)


def test_cards_reads_several_cards_in_order_as_a_tuple():
    hand = st.cards("AS KH BJ 10d")
    assert isinstance(hand, tuple)
    assert hand == (Card.parse("A♠"), Card.parse("K♥"), st.BIG_JOKER, Card.parse("10♦"))


def test_cards_accepts_commas_and_card_objects():
    assert st.cards("AS, KH,LJ") == st.cards("AS KH LJ")
    assert st.cards(["qs", st.LITTLE_JOKER]) == (Card.parse("Q♠"), st.LITTLE_JOKER)


def test_cards_of_an_empty_string_is_no_cards():
    assert st.cards("") == ()


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("AS", "ace of spades"),
        ("10h", "ten of hearts"),
        ("qc", "queen of clubs"),
        ("2d", "two of diamonds"),
        ("KS", "king of spades"),
        ("JD", "jack of diamonds"),
        ("BJ", "big joker"),
        ("LJ", "little joker"),
    ],
)
def test_accessible_names(text, name):
    assert Card.parse(text).name == name


def test_accessible_names_are_unique():
    assert len({c.name for c in ALL_54}) == 54


# --- a hand in a notebook ------------------------------------------------------------------------


def _card_elements(html: str) -> dict[str, str]:
    """aria-label -> the whole element for each card drawn in ``html``."""
    found = {}
    for m in re.finditer(r'<span[^>]*aria-label="([^"]+)"', html):
        start = m.start()
        depth, i = 0, start
        while True:  # the element ends where its <span> nesting closes
            nxt_open = html.find("<span", i + 1)
            nxt_close = html.find("</span>", i + 1)
            if nxt_open != -1 and nxt_open < nxt_close:
                depth += 1
                i = nxt_open
            else:
                if depth == 0:
                    found[m.group(1)] = html[start : nxt_close + len("</span>")]
                    break
                depth -= 1
                i = nxt_close
    return found


def _colour(element: str) -> str | None:
    m = re.search(r"(?<![-\w])color:\s*([^;\"]+)", element.split(">", 1)[0])
    return m.group(1).strip() if m else None


def _visible(element: str) -> str:
    """The element without its accessible label (what a sighted user sees and how it is styled)."""
    return re.sub(r'(aria-label|title)="[^"]*"', "", element)


HAND_HTML_CASES = {
    "cards": lambda: st.cards("BJ LJ AH 10D AS 3C"),
    "round hand": lambda: st.Round.from_hands(
        st.Rules.preset("jokers"),
        {
            st.Seat.NORTH: "BJ LJ AH 10D AS 3C KS QS JS 10S 9S 8S 7S",
            st.Seat.EAST: "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 6S 5S",
            st.Seat.SOUTH: "2C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 4S",
            st.Seat.WEST: "3D 4D 5D 6D 7D 8D 9D JD QD KD AD 3S 2S",
        },
        dealer=st.Seat.WEST,
    ).hands[st.Seat.NORTH],
}


@pytest.mark.parametrize("make", HAND_HTML_CASES.values(), ids=HAND_HTML_CASES.keys())
def test_a_hand_shows_as_html_with_accessible_names(make):
    html = make()._repr_html_()
    assert isinstance(html, str)
    assert "<" in html and ">" in html
    elements = _card_elements(html)
    for name in ["big joker", "little joker", "ace of hearts", "ten of diamonds", "ace of spades", "three of clubs"]:
        assert name in elements, f"no element labelled {name!r}"


@pytest.mark.parametrize("make", HAND_HTML_CASES.values(), ids=HAND_HTML_CASES.keys())
def test_a_hand_shows_the_big_and_little_joker_so_they_cannot_be_confused(make):
    elements = _card_elements(make()._repr_html_())
    big, little = elements["big joker"], elements["little joker"]
    assert _visible(big) != _visible(little)
    # the visible text, not only the styling, tells them apart
    text = lambda el: re.sub(r"<[^>]+>", "", _visible(el)).strip()  # noqa: E731
    assert text(big) != text(little)


@pytest.mark.parametrize("make", HAND_HTML_CASES.values(), ids=HAND_HTML_CASES.keys())
def test_a_hand_shows_red_suits_in_a_different_colour_from_black_suits(make):
    elements = _card_elements(make()._repr_html_())
    red = {_colour(elements["ace of hearts"]), _colour(elements["ten of diamonds"])}
    black = {_colour(elements["ace of spades"]), _colour(elements["three of clubs"])}
    assert None not in red and len(red) == 1
    assert red.isdisjoint(black)


def test_a_single_card_shows_as_html_with_its_name():
    html = Card.parse("QH")._repr_html_()
    assert "queen of hearts" in html
