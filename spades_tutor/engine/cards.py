"""Cards, suits and ranks, with a text notation that round-trips.

>>> Card.parse("A♠") == Card.parse("as") == Card.parse("AS")
True
>>> str(Card.parse("th")), str(Card.parse("BJ"))
('10♥', 'BJ')
>>> Card.parse("LJ").name
'little joker'

Every card is a singleton: ``Card.parse("AS") is Card.parse("A♠")``, so cards
compare and hash by identity, which keeps the engine fast.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import ClassVar, TypeAlias

from .errors import CardParseError

__all__ = [
    "BIG_JOKER",
    "LITTLE_JOKER",
    "Card",
    "CardsLike",
    "Hand",
    "Rank",
    "Suit",
    "cards",
    "full_pack",
]


class Suit(enum.IntEnum):
    """The four suits, in the order bridge and OpenSpiel use (clubs lowest)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def plural(self) -> str:
        """``'spades'``, ``'hearts'`` …, as a sentence says it."""
        return self.name.lower()

    @property
    def singular(self) -> str:
        return self.plural[:-1]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    def __str__(self) -> str:
        return self.symbol


class Rank(enum.IntEnum):
    """Ranks 2 to ace, then the two jokers above them."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    LITTLE_JOKER = 15
    BIG_JOKER = 16

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOLS[self]

    @property
    def word(self) -> str:
        return _RANK_WORDS[self]


_RANK_SYMBOLS = {
    **{Rank(n): str(n) for n in range(2, 11)},
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
    Rank.LITTLE_JOKER: "LJ",
    Rank.BIG_JOKER: "BJ",
}
_RANK_WORDS = {
    Rank.TWO: "two",
    Rank.THREE: "three",
    Rank.FOUR: "four",
    Rank.FIVE: "five",
    Rank.SIX: "six",
    Rank.SEVEN: "seven",
    Rank.EIGHT: "eight",
    Rank.NINE: "nine",
    Rank.TEN: "ten",
    Rank.JACK: "jack",
    Rank.QUEEN: "queen",
    Rank.KING: "king",
    Rank.ACE: "ace",
    Rank.LITTLE_JOKER: "little joker",
    Rank.BIG_JOKER: "big joker",
}


class Card:
    """One playing card; the jokers have no suit of their own.

    >>> Card.parse("10d")
    Card.parse('10♦')
    >>> Card.parse("qc").name
    'queen of clubs'
    """

    __slots__ = ("_text", "index", "rank", "suit")

    rank: Rank
    suit: Suit | None
    index: int  # 0..53: 13*suit + rank-2 for suited cards, 52 little joker, 53 big joker
    _text: str

    _ALL: ClassVar[tuple[Card, ...]]
    _BY_TEXT: ClassVar[dict[str, Card]]

    def __new__(cls, rank: Rank | int, suit: Suit | int | None = None) -> Card:
        rank = Rank(rank)
        if rank >= Rank.LITTLE_JOKER:
            if suit is not None:
                raise CardParseError(f"{rank.word}+{suit}", "a joker has no suit")
            return cls._ALL[52 if rank == Rank.LITTLE_JOKER else 53]
        if suit is None:
            raise CardParseError(rank.symbol, "a card other than a joker needs a suit")
        return cls._ALL[13 * int(suit) + int(rank) - 2]

    @classmethod
    def _make(cls, rank: Rank, suit: Suit | None, index: int) -> Card:
        card = object.__new__(cls)
        card.rank = rank
        card.suit = suit
        card.index = index
        card._text = rank.symbol if suit is None else rank.symbol + suit.symbol
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: ``A♠``, ``AS``, ``as``, ``10h``, ``TH``, ``BJ``, ``LJ``.

        >>> Card.parse("bj") is BIG_JOKER
        True
        >>> Card.parse("1x")
        Traceback (most recent call last):
        ...
        spades_tutor.engine.errors.CardParseError: not a card: '1x' (write a rank 2-10, J, Q, K or A and a suit S, H, D, C or ♠ ♥ ♦ ♣, or BJ / LJ for the jokers)
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardParseError(repr(text), "a card is written as text such as 'A♠' or 'BJ'")
        card = cls._BY_TEXT.get(text.strip().upper())
        if card is None:
            raise CardParseError(
                text,
                "write a rank 2-10, J, Q, K or A and a suit S, H, D, C or ♠ ♥ ♦ ♣, or BJ / LJ for the jokers",
            )
        return card

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def name(self) -> str:
        """The card in words, as a screen reader or a lesson says it."""
        if self.suit is None:
            return self.rank.word
        return f"{self.rank.word} of {self.suit.plural}"

    @property
    def letters(self) -> str:
        """ASCII notation, e.g. ``'TH'`` for the ten of hearts."""
        if self.suit is None:
            return self.rank.symbol
        return ("T" if self.rank == Rank.TEN else self.rank.symbol) + self.suit.letter

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self._text!r})"

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self._text,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def _repr_html_(self) -> str:
        from .display import card_html  # at call time: display.py knows cards, tricks and rounds

        return card_html(self)


def _build_cards() -> None:
    all_cards: list[Card] = []
    for suit in Suit:
        for rank in range(2, 15):
            all_cards.append(Card._make(Rank(rank), suit, len(all_cards)))
    all_cards.append(Card._make(Rank.LITTLE_JOKER, None, 52))
    all_cards.append(Card._make(Rank.BIG_JOKER, None, 53))
    Card._ALL = tuple(all_cards)

    by_text: dict[str, Card] = {}
    for card in all_cards:
        if card.suit is None:
            by_text[card.rank.symbol] = card
            continue
        ranks = {card.rank.symbol}
        if card.rank == Rank.TEN:
            ranks |= {"T"}
        for rank_text in ranks:
            for suit_text in (card.suit.symbol, card.suit.letter):
                by_text[rank_text + suit_text] = card
            # the white suit symbols some keyboards and fonts produce
            by_text[rank_text + "♤♡♢♧"[3 - card.suit]] = card
    by_text.update(
        {
            "BIG JOKER": Card._ALL[53],
            "LITTLE JOKER": Card._ALL[52],
            "BIG": Card._ALL[53],
            "LITTLE": Card._ALL[52],
            "JB": Card._ALL[53],
            "JL": Card._ALL[52],
            "🃏": Card._ALL[53],
        }
    )
    Card._BY_TEXT = by_text


_build_cards()

BIG_JOKER: Card = Card._ALL[53]
LITTLE_JOKER: Card = Card._ALL[52]

CardsLike: TypeAlias = str | Card | Iterable[str | Card]


class Hand(tuple[Card, ...]):
    """A player's cards: a tuple that prints as notation and shows as cards in a notebook.

    >>> h = cards("AS KH BJ")
    >>> str(h), len(h), h[0]
    ('A♠ K♥ BJ', 3, Card.parse('A♠'))
    """

    __slots__ = ()

    def __str__(self) -> str:
        return " ".join(c._text for c in self)

    def _repr_html_(self) -> str:
        from .display import cards_html  # at call time: display.py knows cards, tricks and rounds

        return cards_html(self)


def cards(text: CardsLike) -> Hand:
    """Several cards from text or an iterable, in the order given.

    Cards may be separated by spaces or commas; a single card also works.

    >>> cards("AS KH BJ 10d")
    (Card.parse('A♠'), Card.parse('K♥'), Card.parse('BJ'), Card.parse('10♦'))
    >>> cards(["qs", Card.parse("LJ")])
    (Card.parse('Q♠'), Card.parse('LJ'))
    """
    if isinstance(text, Card):
        return Hand((text,))
    if isinstance(text, str):
        return Hand(Card.parse(part) for part in text.replace(",", " ").split())
    return Hand(part if isinstance(part, Card) else Card.parse(part) for part in text)


def full_pack() -> tuple[Card, ...]:
    """All 54 cards: the 52 suited cards, then the little and big joker."""
    return Card._ALL
