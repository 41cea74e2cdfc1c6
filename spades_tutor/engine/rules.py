"""Rule sets as data: a frozen, keyword-only ``Rules`` with named presets.

The deck, the trump order and which cards count as spades are fields, so a
variant is a value, not a subclass.

>>> rules = Rules.preset("jokers")
>>> " ".join(str(c) for c in rules.trump_order()[:4])
'BJ LJ A♠ K♠'
>>> len(rules.deck()), len(rules.trump_order())
(52, 15)
>>> rules.suit_of(Card.parse("2d"))
<Suit.DIAMONDS: 1>
>>> Rules.preset("deuces-high").suit_of(Card.parse("2d"))
<Suit.SPADES: 3>
>>> import dataclasses
>>> dataclasses.replace(rules, nil=False).nil
False
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any

from . import records
from .cards import Card, Hand, Rank, Suit, cards, full_pack
from .errors import CardParseError, RecordError, RulesError, RulesRecordError, shown
from .text import number

__all__ = [
    "BLIND_NIL_CHOICES",
    "FAILED_NIL_CHOICES",
    "FIRST_LEAD_CHOICES",
    "PRESETS",
    "RENEGE_PENALTY_CHOICES",
    "BlindNil",
    "FailedNilTricks",
    "FirstLead",
    "RenegePenalty",
    "RuleOption",
    "Rules",
]


class RuleOption(StrEnum):
    """The choices of one house rule, declared once: each member is its plain name.

    A member equals its name, prints as it, is recorded as it and shows as it in a repr, so a rule
    set given, printed or saved with plain strings reads as it always has.

    >>> BlindNil.ALWAYS == "always", str(BlindNil.ALWAYS), repr(BlindNil.ALWAYS)
    (True, 'always', "'always'")
    >>> BlindNil.names()
    ('off', 'behind-100', 'always')
    """

    def __repr__(self) -> str:
        return repr(self.value)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The names a rule set (or a saved record) may give this rule, in the order offered."""
        return tuple(member.value for member in cls)


class BlindNil(RuleOption):
    """When a player may bid blind nil: never, when the team is ``blind_nil_behind`` points behind, or always."""

    OFF = "off"
    BEHIND_100 = "behind-100"
    ALWAYS = "always"


class FirstLead(RuleOption):
    """Who leads the first trick: the player left of the dealer, or whoever holds the 2♣ (leading it)."""

    LEFT_OF_DEALER = "left-of-dealer"
    TWO_OF_CLUBS = "two-of-clubs"


class FailedNilTricks(RuleOption):
    """Where a failed nil's tricks go: bags for the side, toward the partner's contract, or nowhere."""

    BAGS = "bags"
    PARTNER = "partner"
    NONE = "none"


class RenegePenalty(RuleOption):
    """What a side that reneged (did not follow suit when it could) gives up, per renege."""

    THREE_TRICKS = "three-tricks"
    TWO_TRICKS = "two-tricks"
    SET = "set"


#: the names of each option's choices, for code that lists them as strings: read from the
#: options above, never declared beside them
BLIND_NIL_CHOICES = BlindNil.names()
FIRST_LEAD_CHOICES = FirstLead.names()
FAILED_NIL_CHOICES = FailedNilTricks.names()
RENEGE_PENALTY_CHOICES = RenegePenalty.names()

#: each rule given as a :class:`RuleOption`, and its choices
OPTIONS: dict[str, type[RuleOption]] = {
    "blind_nil": BlindNil,
    "first_lead": FirstLead,
    "failed_nil_tricks": FailedNilTricks,
    "renege_penalty": RenegePenalty,
}

_SPADES_DOWN = "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S"

PRESETS: dict[str, dict[str, Any]] = {
    "jokers": {
        "title": "Spades with Jokers",
        "removed": cards("2H 2D"),
        "jokers": True,
        "trumps": cards("BJ LJ " + _SPADES_DOWN + " 2S"),
    },
    "deuces-high": {
        "title": "Deuces high",
        "removed": cards("2C 2H"),
        "jokers": True,
        "trumps": cards("BJ LJ 2D 2S " + _SPADES_DOWN),
    },
    "two-of-spades-third": {
        "title": "Two of spades third",
        "removed": cards("2H 2D"),
        "jokers": True,
        "trumps": cards("BJ LJ 2S " + _SPADES_DOWN),
    },
    "bicycle": {
        "title": "Bicycle (2♣ and 2♦ out)",
        "removed": cards("2C 2D"),
        "jokers": True,
        "trumps": cards("BJ LJ " + _SPADES_DOWN + " 2S"),
    },
    "classic": {
        "title": "Regular Spades",
        "removed": (),
        "jokers": False,
        "trumps": cards(_SPADES_DOWN + " 2S"),
    },
}

#: the whole-number fields and the values a playable rule set may give them
NUMBER_BOUNDS: dict[str, tuple[int, int]] = {
    "target": (1, 10_000),
    "trick_points": (1, 1_000),
    "nil_value": (0, 10_000),
    "blind_nil_value": (0, 10_000),
    "blind_nil_behind": (0, 10_000),
    "bag_limit": (1, 100),
    "bag_penalty": (0, 10_000),
    "min_team_bid": (0, 13),
    "ten_bid_bonus": (0, 10_000),
}
#: ``mercy`` is None (off) or a score in this range
MERCY_BOUNDS = (-10_000, -1)

_ORDINALS = (
    "highest",
    "second-highest",
    "third-highest",
    "fourth-highest",
    "fifth-highest",
    "sixth-highest",
    "seventh-highest",
    "eighth-highest",
    "ninth-highest",
    "tenth-highest",
    "eleventh-highest",
    "twelfth-highest",
    "thirteenth-highest",
    "fourteenth-highest",
    "fifteenth-highest",
    "sixteenth-highest",
)


#: fields added after rule sets were first saved: a record without one is read with its default
FIELDS_ADDED_LATER = ("renege_penalty", "min_team_bid", "ten_bid_bonus")
#: of those, the ones a record leaves out while they are off, so a rule set without them saves as before
_WRITTEN_IF_SET = ("min_team_bid", "ten_bid_bonus")


#: rule sets built by ``Rules.preset``, by name and flags (each is frozen, so it can be shared)
_PRESET_CACHE: dict[Any, Rules] = {}


@dataclasses.dataclass(frozen=True, kw_only=True)
class Rules:
    """A rule set. Start from a preset and change flags with ``dataclasses.replace``.

    >>> import dataclasses
    >>> r = dataclasses.replace(Rules.preset("jokers"), blind_nil="behind-100", mercy=-200)
    >>> r.blind_nil, r.mercy, r.target
    ('behind-100', -200, 500)
    """

    name: str = "jokers"
    title: str = "Spades with Jokers"
    removed: tuple[Card, ...] = PRESETS["jokers"]["removed"]
    jokers: bool = True
    trumps: tuple[Card, ...] = PRESETS["jokers"]["trumps"]
    nil: bool = True
    blind_nil: BlindNil = BlindNil.OFF
    first_lead: FirstLead = FirstLead.LEFT_OF_DEALER
    failed_nil_tricks: FailedNilTricks = FailedNilTricks.BAGS
    renege_penalty: RenegePenalty = RenegePenalty.THREE_TRICKS
    target: int = 500
    mercy: int | None = None
    trick_points: int = 10
    nil_value: int = 100
    blind_nil_value: int = 200
    blind_nil_behind: int = 100
    bag_limit: int = 10
    bag_penalty: int = 100
    #: a team's two bids together must make at least this many tricks (0: no minimum); a team
    #: with a nil bidder is exempt, as the nil is a contract of its own (see ``Round.why_bid_illegal``)
    min_team_bid: int = 0
    #: a bonus for a team that bids 10 or more tricks together and makes them (0: no bonus)
    ten_bid_bonus: int = 0

    # derived tables, indexed by Card.index (not part of equality or repr)
    _deck: tuple[Card, ...] = dataclasses.field(init=False, repr=False, compare=False)
    _in_deck: tuple[bool, ...] = dataclasses.field(init=False, repr=False, compare=False)
    _suit_as: tuple[int, ...] = dataclasses.field(init=False, repr=False, compare=False)
    _power: tuple[int, ...] = dataclasses.field(init=False, repr=False, compare=False)
    _sort_key: tuple[int, ...] = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        removed = tuple(cards(self.removed))
        trumps = tuple(cards(self.trumps))
        object.__setattr__(self, "removed", removed)
        object.__setattr__(self, "trumps", trumps)
        self._check_flags()

        gone = set(removed)
        deck = tuple(c for c in full_pack() if (c.is_joker and self.jokers) or (not c.is_joker and c not in gone))
        if len(deck) != 52:
            raise RulesError(
                f"rule set {self.name!r}: the deck has {len(deck)} cards, not 52 "
                f"(removed {' '.join(map(str, removed)) or 'nothing'}, jokers {'in' if self.jokers else 'out'})"
            )
        in_deck = [False] * 54
        for c in deck:
            in_deck[c.index] = True
        if len(set(trumps)) != len(trumps):
            raise RulesError(f"rule set {self.name!r}: a card appears twice in the trump order")
        for c in trumps:
            if not in_deck[c.index]:
                raise RulesError(f"rule set {self.name!r}: trump {c} is not in the deck")
        for c in deck:
            if (c.is_joker or c.suit == Suit.SPADES) and c not in trumps:
                raise RulesError(f"rule set {self.name!r}: {c} is in the deck but not in the trump order")

        # a joker counts as a spade only where it is in play; where it is not, it has no suit (-1)
        suit_as = [-1 if c.suit is None else int(c.suit) for c in full_pack()]
        power = [0] * 54
        for pos, c in enumerate(trumps):
            suit_as[c.index] = int(Suit.SPADES)
            power[c.index] = 100 + len(trumps) - pos
        for c in deck:
            if power[c.index] == 0:
                power[c.index] = int(c.rank)
        object.__setattr__(self, "_deck", deck)
        object.__setattr__(self, "_in_deck", tuple(in_deck))
        object.__setattr__(self, "_suit_as", tuple(suit_as))
        object.__setattr__(self, "_power", tuple(power))
        # hands show the trumps together (highest first), then hearts, clubs, diamonds
        # so that colours alternate, each suit high to low
        suit_place = {3: 0, 2: 1, 0: 2, 1: 3, -1: 4}
        object.__setattr__(self, "_sort_key", tuple(suit_place[suit_as[i]] * 1000 - power[i] for i in range(54)))

    def _check_flags(self) -> None:
        def choose(flag: str, option: type[RuleOption]) -> None:
            """Check a rule's value against its choices, and keep it as the option (given as a plain string or as one)."""
            value = getattr(self, flag)
            if not isinstance(value, str) or value not in option.names():
                raise RulesError(f"{flag}={shown(value)} is not one of {', '.join(option.names())}")
            object.__setattr__(self, flag, option(value))

        def whole(flag: str, value: object, low: int, high: int, allow_none: bool = False) -> None:
            if value is None and allow_none:
                return
            if type(value) is not int:
                raise RulesError(
                    f"{flag}={shown(value)}: a whole number is needed" + (" (or None)" if allow_none else "")
                )
            if not low <= value <= high:
                note = " (the mercy score is negative, such as -200)" if flag == "mercy" else ""
                raise RulesError(f"{flag}={shown(value)}: a whole number from {low} to {high} is needed{note}")

        for flag in ("nil", "jokers"):
            if not isinstance(getattr(self, flag), bool):
                raise RulesError(f"{flag}={shown(getattr(self, flag))}: True or False is needed")
        for flag, (low, high) in NUMBER_BOUNDS.items():
            whole(flag, getattr(self, flag), low, high)
        whole("mercy", self.mercy, *MERCY_BOUNDS, allow_none=True)
        for flag, option in OPTIONS.items():
            choose(flag, option)
        if self.first_lead == FirstLead.TWO_OF_CLUBS and Card.parse("2C") in self.removed:
            raise RulesError(
                f"first_lead='two-of-clubs' needs the 2♣, which rule set {self.name!r} takes out of the deck"
            )

    # --- presets -----------------------------------------------------------------

    @classmethod
    def preset(cls, name: str = "jokers", **flags: Any) -> Rules:
        """A named rule set, optionally with house-rule flags.

        >>> Rules.preset("classic").jokers
        False
        >>> Rules.preset("no-such")
        Traceback (most recent call last):
        ...
        spades_tutor.engine.errors.RulesError: unknown rule set 'no-such'; the presets are jokers, deuces-high, two-of-spades-third, bicycle, classic
        """
        if name not in PRESETS:
            raise RulesError(f"unknown rule set {name!r}; the presets are {', '.join(PRESETS)}")
        try:
            key: Any = (cls, name, tuple(sorted(flags.items())))
            hash(key)
        except TypeError:  # an unhashable flag value: built, not kept
            key = None
        if key is not None and key in _PRESET_CACHE:
            return _PRESET_CACHE[key]
        try:
            rules = cls(**{"name": name, **PRESETS[name], **flags})
        except TypeError as e:  # an unknown flag
            raise RulesError(f"unknown house-rule flag in {sorted(flags)}: {e}") from None
        # a rule set is frozen, so one object serves every caller asking for the same one: lessons
        # ask for their presets block by block, each time a step is drawn
        if key is not None and len(_PRESET_CACHE) < 4096:
            _PRESET_CACHE[key] = rules
        return rules

    @staticmethod
    def preset_names() -> tuple[str, ...]:
        return tuple(PRESETS)

    # --- the deck and the trumps as data ------------------------------------------

    def sort_hand(self, hand: Iterable[Card]) -> Hand:
        """A hand in display order: trumps together, highest first, then ♥ ♣ ♦.

        >>> str(Rules.preset("jokers").sort_hand(cards("3C AH LJ 5S BJ")))
        'BJ LJ 5♠ A♥ 3♣'
        """
        key = self._sort_key
        return Hand(sorted(hand, key=lambda c: key[c.index]))

    def deck(self) -> tuple[Card, ...]:
        """The 52 cards in play, clubs to spades, low to high, then the jokers."""
        return self._deck

    def trump_order(self) -> tuple[Card, ...]:
        """The trumps, highest first."""
        return self.trumps

    def in_deck(self, card: Card) -> bool:
        return self._in_deck[card.index]

    def is_trump(self, card: Card) -> bool:
        """Whether the card counts as a spade (a trump)."""
        return self._suit_as[card.index] == 3

    @property
    def suit_table(self) -> tuple[int, ...]:
        """Each card's suit as play counts it, by ``Card.index``: 3 (spades) for every trump, the
        printed suit for a side card, -1 for a joker out of play. Fast paths read it.

        >>> jokers = Rules.preset("jokers")
        >>> [jokers.suit_table[Card.parse(c).index] for c in ("BJ", "2D", "AS")]
        [3, 1, 3]
        """
        return self._suit_as

    @property
    def power_table(self) -> tuple[int, ...]:
        """Each card's strength, by ``Card.index``: above 100 for a trump (higher first in the trump
        order), the rank for a side card, 0 for a card not in the deck. Fast paths read it.

        >>> jokers = Rules.preset("jokers")
        >>> [jokers.power_table[Card.parse(c).index] for c in ("BJ", "LJ", "AS", "KH")]
        [115, 114, 113, 13]
        """
        return self._power

    def suit_of(self, card: Card) -> Suit:
        """The suit a card counts as: jokers (and 2♦ in deuces-high) are spades."""
        suit = self._suit_as[card.index]
        if suit < 0:
            raise RulesError(f"the {card.name} is not in the {self.name} deck, so it has no suit here")
        return Suit(suit)

    def extra_trumps(self) -> tuple[Card, ...]:
        """Trumps that are not natural spades (the jokers, the 2♦ in deuces-high)."""
        return tuple(c for c in self.trumps if c.suit != Suit.SPADES)

    def trump_rank(self, card: Card) -> int | None:
        """1 for the highest trump, 2 for the next …; None for a card that is not a trump."""
        try:
            return self.trumps.index(card) + 1
        except ValueError:
            return None

    def trump_position(self, card: Card) -> str:
        """Where a trump stands, in words: ``'the second-highest trump'``.

        >>> Rules.preset("jokers").trump_position(Card.parse("AS"))
        'the third-highest trump'
        >>> Rules.preset("classic").trump_position(Card.parse("AS"))
        'the highest trump'
        """
        rank = self.trump_rank(card)
        if rank is None:
            return "not a trump"
        if rank == len(self.trumps):
            return "the lowest trump"
        return f"the {_ORDINALS[rank - 1]} trump"

    def beats(self, a: Card, b: Card, led: Suit) -> bool:
        """Whether card ``a`` beats card ``b`` in a trick where ``led`` was led."""
        return self.power(a, led) > self.power(b, led)

    def power(self, card: Card, led: Suit) -> int:
        """A number that orders cards within a trick: trumps, then the suit led, then 0."""
        p = self._power[card.index]
        if p > 100 or self._suit_as[card.index] == led:
            return p
        return 0

    def suit_cards(self, suit: Suit) -> tuple[Card, ...]:
        """The cards of the deck that count as ``suit``, highest first (trump order for spades)."""
        if suit == Suit.SPADES:
            return self.trumps
        return tuple(sorted((c for c in self._deck if self._suit_as[c.index] == suit), key=lambda c: -c.rank))

    def card_name(self, card: Card) -> str:
        """A card in words, naming its role where it is surprising.

        >>> Rules.preset("deuces-high").card_name(Card.parse("2d"))
        'the two of diamonds (a trump here)'
        """
        if card.is_joker:
            return f"the {card.name}"
        if self.is_trump(card) and card.suit != Suit.SPADES:
            return f"the {card.name} (a trump here)"
        return f"the {card.name}"

    def ace_rank_note(self) -> str:
        """A one-line reminder of where the ace of spades stands in this rule set."""
        return f"The A♠ is {self.trump_position(Card(Rank.ACE, Suit.SPADES))}."

    # --- description and serialisation ----------------------------------------------

    def flags(self) -> dict[str, Any]:
        """The house-rule fields that differ from the preset this rule set is named after."""
        base = PRESETS.get(self.name)
        if base is None:
            return {}
        reference = Rules(name=self.name, **base)
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.init and getattr(self, f.name) != getattr(reference, f.name)
        }

    def describe(self) -> str:
        """One sentence a teacher can read out.

        >>> Rules.preset("jokers").describe()
        'Spades with Jokers: 2♥ 2♦ out, both jokers in; 15 trumps: BJ LJ A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠; nil allowed; game to 500.'
        """
        parts = [
            f"{self.title}: "
            + (f"{' '.join(map(str, self.removed))} out" if self.removed else "all 52 cards")
            + (", both jokers in" if self.jokers else ", no jokers"),
            f"{len(self.trumps)} trumps: {' '.join(map(str, self.trumps))}",
            "nil allowed" if self.nil else "no nil",
        ]
        if self.blind_nil == BlindNil.ALWAYS:
            parts.append("blind nil allowed")
        elif self.blind_nil == BlindNil.BEHIND_100:
            parts.append(f"blind nil for a team {self.blind_nil_behind}+ behind")
        if self.first_lead == FirstLead.TWO_OF_CLUBS:
            parts.append("the 2♣ leads")
        if self.failed_nil_tricks != FailedNilTricks.BAGS:
            parts.append(f"a failed nil's tricks: {self.failed_nil_tricks}")
        if self.renege_penalty != RenegePenalty.THREE_TRICKS:
            parts.append(f"a renege costs: {self.renege_penalty}")
        if self.nil and self.nil_value != 100:
            parts.append(f"nil worth {number(self.nil_value)}")
        if self.min_team_bid:
            parts.append(f"a team bids at least {self.min_team_bid} together (unless one bids nil)")
        if self.ten_bid_bonus:
            parts.append(f"a bonus of {number(self.ten_bid_bonus)} for bidding and making 10 or more")
        if self.bag_limit != 10 or self.bag_penalty != 100:
            parts.append(f"{self.bag_limit} bags cost {number(self.bag_penalty)}")
        game = f"game to {self.target}"
        if self.mercy is not None:
            game += f", a team at {number(self.mercy)} loses"
        parts.append(game)
        return "; ".join(parts) + "."

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data; ``Rules.from_dict`` reads it back."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if not f.init:
                continue
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = [str(c) for c in value]
            elif isinstance(value, RuleOption):
                value = value.value  # the plain name, as records always held it
            elif f.name in _WRITTEN_IF_SET and value == f.default:
                continue  # off: the record reads as before the rule was added
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """The rule set ``to_dict`` wrote; anything else raises a ``RecordError`` naming the field.

        >>> Rules.from_dict(Rules.preset("classic").to_dict()) == Rules.preset("classic")
        True
        >>> Rules.from_dict("jokers")
        Traceback (most recent call last):
        ...
        spades_tutor.engine.errors.RulesRecordError: rules: 'jokers' is not an object of named fields
        """
        return cls._read(data, "rules")

    @classmethod
    def _read(cls, data: object, field: str) -> Rules:
        """``from_dict`` for the rule set at ``field`` of a record."""
        try:
            return cls._read_fields(data, field)
        except RecordError as e:
            raise RulesRecordError.of(e) from None

    @classmethod
    def _read_fields(cls, data: object, field: str) -> Rules:
        names = [f.name for f in dataclasses.fields(cls) if f.init and f.name not in FIELDS_ADDED_LATER]
        data = records.record(data, field, required=names, optional=FIELDS_ADDED_LATER)
        kwargs: dict[str, Any] = {
            "name": records.text(data["name"], records.place(field, "name"), max_len=40),
            "title": records.text(data["title"], records.place(field, "title"), max_len=120),
        }
        for key in ("removed", "trumps"):
            where = records.place(field, key)
            listed = records.array(data[key], where, max_len=54)
            try:
                kwargs[key] = tuple(Card.parse(records.text(c, where, max_len=12)) for c in listed)
            except CardParseError as e:
                raise RecordError(where, listed, "a list of cards", problem=str(e)) from None
        for key in ("jokers", "nil"):
            kwargs[key] = records.flag(data[key], records.place(field, key))
        for key, option in OPTIONS.items():
            if key in data:  # each is required but those added later (FIELDS_ADDED_LATER)
                kwargs[key] = option(records.choice(data[key], records.place(field, key), option.names()))
        for key, (low, high) in NUMBER_BOUNDS.items():
            if key not in data:  # only those added later may be missing (records.record checked)
                continue
            kwargs[key] = records.whole(data[key], records.place(field, key), low, high)
        mercy = data["mercy"]
        kwargs["mercy"] = None if mercy is None else records.whole(mercy, records.place(field, "mercy"), *MERCY_BOUNDS)
        try:
            return cls(**kwargs)
        except RulesError as e:  # fields fine one by one, not together (a trump outside the deck, say)
            raise RecordError(field, None, "", problem=f"not a playable rule set: {e}") from None
