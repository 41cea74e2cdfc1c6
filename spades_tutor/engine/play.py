"""Positions in the play: legal cards, why a card is illegal, who wins a trick and why.

These are pure functions of a rule set, a hand, the trick so far and whether
spades are broken, so lessons and quizzes can pose any position.

>>> from spades_tutor.engine.rules import Rules
>>> rules = Rules.preset("jokers")
>>> legal_plays(rules, "AH 3H LJ 5C", trick="KH")
(Card.parse('A♥'), Card.parse('3♥'))
>>> print(why_illegal(rules, "AH 3H LJ 5C", "LJ", trick="KH"))
You must follow suit: a heart was led and you hold A♥ and 3♥. The little joker counts as a spade, not a heart.
>>> trick_winner(rules, "KH 2S AH LJ")
3
>>> print(explain_trick(rules, "KH 2S AH LJ"))
The little joker wins: it is the second-highest trump, and no higher trump was played (2♠ is lower).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, CardsLike, Suit, cards
from .errors import Reason
from .rules import Rules
from .seats import Seat
from .text import and_list, capitalised

__all__ = [
    "Trick",
    "explain_trick",
    "first_lead_reason",
    "legal_plays",
    "trick_winner",
    "why_illegal",
]


def _as_cards(value: CardsLike | Sequence[Card]) -> tuple[Card, ...]:
    if isinstance(value, tuple) and all(isinstance(c, Card) for c in value):
        return value
    return cards(value)


def legal_cards(rules: Rules, hand: Sequence[Card], trick: Sequence[Card], spades_broken: bool) -> list[Card]:
    """The fast core of ``legal_plays``, for a hand and trick already checked: the engine's hot path
    (``Round`` calls it on every move; the solver's move tables are checked against it)."""
    suit_as = rules.suit_table
    if trick:
        led = suit_as[trick[0].index]
        follow = [c for c in hand if suit_as[c.index] == led]
        return follow if follow else list(hand)
    if spades_broken:
        return list(hand)
    side = [c for c in hand if suit_as[c.index] != 3]
    return side if side else list(hand)


def legal_plays(
    rules: Rules,
    hand: CardsLike | Sequence[Card],
    trick: CardsLike | Sequence[Card] = (),
    spades_broken: bool = False,
) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to ``trick`` (the cards so far, lead first).

    Leading: any card once spades are broken; before that, any card but a trump,
    unless the hand holds nothing but trumps. Following: a card of the suit led
    (the suit each card *counts as*), or any card when void in it.

    >>> from spades_tutor.engine.rules import Rules
    >>> legal_plays(Rules.preset("jokers"), "BJ AS 4C")
    (Card.parse('4♣'),)
    >>> legal_plays(Rules.preset("jokers"), "BJ AS")
    (Card.parse('BJ'), Card.parse('A♠'))
    """
    return tuple(legal_cards(rules, _as_cards(hand), _as_cards(trick), spades_broken))


def _words(rules: Rules, card: Card) -> str:
    """``'the big joker'`` for a joker, ``'A♥'`` for a plain card, in a sentence."""
    if card.is_joker:
        return f"the {card.name}"
    if rules.is_trump(card) and card.suit != Suit.SPADES:
        return f"the {card}"
    return str(card)


_SIDE_ORDER = (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


_and = and_list  # the engine's sentences list cards and seats this way
_cap = capitalised


def _led_words(rules: Rules, lead: Card) -> str:
    suit = rules.suit_of(lead)
    if lead.is_joker:
        return f"{_words(rules, lead)} was led, which is a spade lead,"
    if suit == Suit.SPADES and lead.suit != Suit.SPADES:
        return f"{_words(rules, lead)} was led, which counts as a spade lead,"
    return f"a {suit.singular} was led"


class _Voice:
    """Whom a reason speaks of: the player ("you hold") or, said to a room, the seat ("West holds")."""

    __slots__ = ("name", "s")

    def __init__(self, seat: Seat | None) -> None:
        self.name = "you" if seat is None else str(Seat(seat))
        self.s = "" if seat is None else "s"  # the verb's ending: "you hold", "West holds"

    @property
    def subject(self) -> str:
        return _cap(self.name)

    def does_not(self) -> str:
        return "don't" if not self.s else "doesn't"


def why_illegal(
    rules: Rules,
    hand: CardsLike | Sequence[Card],
    card: Card | str,
    trick: CardsLike | Sequence[Card] = (),
    spades_broken: bool = False,
    *,
    seat: Seat | None = None,
) -> Reason | None:
    """None if ``card`` may be played, else the ``Reason`` it may not.

    The reason speaks to the player ("you hold"); with ``seat`` it speaks of that seat
    ("West holds"), for a room watching the hand.

    >>> from spades_tutor.engine.rules import Rules
    >>> print(why_illegal(Rules.preset("jokers"), "BJ 4C", "BJ"))
    You may not lead the big joker yet: the big joker counts as a spade, and spades are not broken (no trump has been played to an earlier trick), and you still hold clubs.
    >>> print(why_illegal(Rules.preset("jokers"), "AH 3H LJ", "LJ", trick="KH", seat=Seat.WEST))
    West must follow suit: a heart was led and West holds A♥ and 3♥. The little joker counts as a spade, not a heart.
    >>> why_illegal(Rules.preset("jokers"), "BJ 4C", "4C") is None
    True
    """
    hand_t = _as_cards(hand)
    trick_t = _as_cards(trick)
    card = Card.parse(card) if isinstance(card, str) else card
    who = _Voice(seat)
    if card not in hand_t:
        where = "" if rules.in_deck(card) else f" ({_words(rules, card)} is not even in the {rules.name} deck)"
        return Reason("not-in-hand", f"{who.subject} {who.does_not()} hold {_words(rules, card)}{where}.")
    legal = legal_cards(rules, hand_t, trick_t, spades_broken)
    if card in legal:
        return None
    if trick_t:
        led_suit = rules.suit_of(trick_t[0])
        holding = _and(_words(rules, c) for c in legal)
        text = f"{who.subject} must follow suit: {_led_words(rules, trick_t[0])} and {who.name} hold{who.s} {holding}."
        if rules.is_trump(card) and (card.is_joker or card.suit != Suit.SPADES):
            text += f" {_cap(_words(rules, card))} counts as a spade, not a {led_suit.singular}."
        elif card.suit is not None and rules.suit_of(card) != card.suit:
            text += f" {_cap(_words(rules, card))} counts as a spade here."
        return Reason("must-follow-suit", text)
    held = sorted({rules.suit_of(c) for c in legal}, key=_SIDE_ORDER.index)
    side = _and(s.plural for s in held)
    if card.is_joker or card.suit != Suit.SPADES:
        what = f"{_words(rules, card)} counts as a spade, and spades"
    else:
        what = "spades"
    return Reason(
        "spades-not-broken",
        f"{who.subject} may not lead {_words(rules, card)} yet: {what} are not broken "
        f"(no trump has been played to an earlier trick), and {who.name} still hold{who.s} {side}.",
    )


def first_lead_reason(seat: Seat | None = None) -> Reason:
    """Why only the 2♣ may lead the first trick, where the rules say so (``seat`` as in ``why_illegal``).

    >>> print(first_lead_reason(Seat.NORTH))
    The first trick must be led with the 2♣, and North holds it.
    """
    who = _Voice(seat)
    return Reason("two-of-clubs-leads", f"The first trick must be led with the 2♣, and {who.name} hold{who.s} it.")


def trick_winner(rules: Rules, trick: CardsLike | Sequence[Card]) -> int:
    """The index (0 = the lead) of the card that wins ``trick``, complete or not.

    >>> from spades_tutor.engine.rules import Rules
    >>> trick_winner(Rules.preset("jokers"), "AS LJ BJ 2S")
    2
    >>> trick_winner(Rules.preset("classic"), "5H AH 2S KH")
    2
    """
    t = _as_cards(trick)
    if not t:
        raise ValueError("an empty trick has no winner")
    return winning_index(rules, t)


def winning_index(rules: Rules, trick: Sequence[Card]) -> int:
    """The fast core of ``trick_winner``, for a trick already checked (at least one card)."""
    power = rules.power_table
    suit_as = rules.suit_table
    led = suit_as[trick[0].index]
    best, best_power = 0, -1
    for i, c in enumerate(trick):
        p = power[c.index]
        if p < 100 and suit_as[c.index] != led:
            p = 0
        if p > best_power:
            best, best_power = i, p
    return best


def explain_trick(rules: Rules, trick: CardsLike | Sequence[Card]) -> str:
    """A sentence saying which card wins ``trick`` and why.

    >>> from spades_tutor.engine.rules import Rules
    >>> print(explain_trick(Rules.preset("jokers"), "KH 5S AH 3H"))
    5♠ wins: it trumps the heart lead, and any trump beats every heart.
    >>> print(explain_trick(Rules.preset("jokers"), "KH QH AH 3C"))
    A♥ wins: it is the highest heart, the suit led, and no trump was played.
    """
    t = _as_cards(trick)
    w = trick_winner(rules, t)
    card = t[w]
    name = _cap(_words(rules, card))
    led = rules.suit_of(t[0])
    if rules.is_trump(card):
        others = [c for i, c in enumerate(t) if i != w and rules.is_trump(c)]
        if rules.trump_rank(card) == 1:
            return f"{name} wins: it is the highest trump, so nothing can beat it."
        if not others and led != Suit.SPADES:
            return f"{name} wins: it trumps the {led.singular} lead, and any trump beats every {led.singular}."
        position = rules.trump_position(card)
        if not others:
            return f"{name} wins: it is {position}, and no other trump was played."
        lower = _and(str(c) for c in others)
        return (
            f"{name} wins: it is {position}, and no higher trump was played "
            f"({lower} {'is' if len(others) == 1 else 'are'} lower)."
        )
    return f"{name} wins: it is the highest {led.singular}, the suit led, and no trump was played."


class Trick:
    """A trick as played: who led, the cards in play order, and (once complete) the winner.

    >>> from spades_tutor.engine.rules import Rules
    >>> t = Trick.complete(Rules.preset("jokers"), Seat.WEST, cards("KH 5S AH 3H"))
    >>> t.winner, t.seats
    (<Seat.NORTH: 0>, (<Seat.WEST: 3>, <Seat.NORTH: 0>, <Seat.EAST: 1>, <Seat.SOUTH: 2>))
    >>> t.card_of(Seat.EAST)
    Card.parse('A♥')
    >>> t.reason
    '5♠ wins: it trumps the heart lead, and any trump beats every heart.'
    """

    __slots__ = ("_reason", "_rules", "cards", "leader", "winner")

    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat | None

    def __init__(
        self,
        leader: Seat,
        cards: tuple[Card, ...] = (),
        winner: Seat | None = None,
        rules: Rules | None = None,
    ) -> None:
        self.leader = leader
        self.cards = cards
        self.winner = winner
        self._rules = rules
        self._reason: str | None = None

    @classmethod
    def complete(cls, rules: Rules, leader: Seat, played: Sequence[Card]) -> Trick:
        played_t = tuple(played)
        w = winning_index(rules, played_t)
        return cls(leader, played_t, Seat((leader + w) % 4), rules)

    @property
    def reason(self) -> str:
        """Why the winner won, in one sentence (written when first read); '' while incomplete."""
        if self._reason is None:
            done = self.winner is not None and self._rules is not None
            self._reason = explain_trick(self._rules, self.cards) if done else ""  # type: ignore[arg-type]
        return self._reason

    @property
    def winning_card(self) -> Card | None:
        return None if self.winner is None else self.card_of(self.winner)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Trick):
            return NotImplemented
        return (self.leader, self.cards, self.winner) == (other.leader, other.cards, other.winner)

    def __hash__(self) -> int:
        return hash((self.leader, self.cards, self.winner))

    def __repr__(self) -> str:
        return f"<Trick {self}>"

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seat of each card, in play order."""
        return tuple(Seat((self.leader + i) % 4) for i in range(len(self.cards)))

    def card_of(self, seat: Seat) -> Card | None:
        i = (seat - self.leader) % 4
        return self.cards[i] if i < len(self.cards) else None

    @property
    def is_complete(self) -> bool:
        return len(self.cards) == 4

    def __str__(self) -> str:
        played = " ".join(f"{s.letter}:{c}" for s, c in zip(self.seats, self.cards, strict=True))
        return played + (f" → {self.winner.letter}" if self.winner is not None else "")

    def _repr_html_(self) -> str:
        from .display import trick_html  # at call time: display.py knows cards, tricks and rounds

        return trick_html(self)
