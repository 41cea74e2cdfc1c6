"""One deal played out: dealing, bidding, thirteen tricks, the score.

>>> from spades_tutor.engine.rules import Rules
>>> rnd = Round.deal(Rules.preset("jokers"), dealer=Seat.WEST, seed=4127)
>>> rnd.deal_id, rnd.to_act, rnd.phase
('4127W', <Seat.NORTH: 0>, <Phase.BIDDING: 'bidding'>)
>>> for b in (3, "nil", 4, 2): rnd.bid(b)
>>> rnd.phase, rnd.to_act
(<Phase.PLAYING: 'playing'>, <Seat.NORTH: 0>)
>>> rnd.play(rnd.legal_plays()[0])
>>> len(rnd.trick.cards)
1
"""

from __future__ import annotations

import dataclasses
import enum
import json
import numbers
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from . import records
from .cards import Card, CardsLike, Hand, cards
from .errors import DealError, IllegalAction, InputError, Reason, RecordError, SpadesError, shown
from .play import Trick, first_lead_reason, legal_cards, why_illegal, winning_index
from .renege import RenegeRuling, apply_renege
from .rules import Rules
from .scoring import BLIND_NIL, Bid, HandScore, score_hand
from .seats import Seat, Team

__all__ = ["Action", "ActionKind", "Phase", "Round", "SeatView", "deal_hands", "explain_first_leader", "parse_deal_id"]

_FORMAT = "spades-tutor/round"
_TWO_OF_CLUBS = Card.parse("2C")
_SEAT_AT = tuple(Seat(i % 4) for i in range(8))  # seat i places round from North, without Enum calls
_SEAT_AFTER = {s: s.left for s in Seat}
_BIDS = tuple(Bid(n) for n in range(14))


class Phase(enum.Enum):
    BIDDING = "bidding"
    PLAYING = "playing"
    DONE = "done"


class ActionKind(enum.StrEnum):
    """What a seat did: bid or play a card (the word its record uses)."""

    BID = "bid"
    PLAY = "play"


class Action(NamedTuple):
    """One thing a seat did: ``Action(Seat.NORTH, ActionKind.BID, Bid(3))`` or a card played."""

    seat: Seat
    kind: ActionKind
    value: Bid | Card

    def __str__(self) -> str:
        return f"{self.seat.letter} {self.kind} {self.value}"

    def to_json(self) -> list[str]:
        return [self.seat.letter, self.kind, str(self.value)]

    @classmethod
    def from_json(cls, data: Sequence[str], field: str = "action") -> Action:
        """An action as ``to_json`` wrote it: ``["N", "bid", "3"]`` or ``["E", "play", "A♠"]``.

        >>> Action.from_json(["E", "play", "A♠"])
        Action(seat=<Seat.EAST: 1>, kind=<ActionKind.PLAY: 'play'>, value=Card.parse('A♠'))
        >>> Action.from_json(["E", "play"])
        Traceback (most recent call last):
        ...
        spades_tutor.engine.errors.RecordError: action: ['E', 'play'] is not a seat letter, "bid" or "play", and a bid or a card
        """
        expected = 'a seat letter, "bid" or "play", and a bid or a card'
        if not isinstance(data, list | tuple) or len(data) != 3 or not all(isinstance(x, str) for x in data):
            raise RecordError(field, data, expected)
        seat, kind, value = data
        if seat not in _SEAT_BY_LETTER or kind not in tuple(ActionKind) or len(value) > 12:
            raise RecordError(field, data, expected)
        try:
            what = ActionKind(kind)
            return cls(_SEAT_BY_LETTER[seat], what, Bid.parse(value) if what is ActionKind.BID else Card.parse(value))
        except SpadesError as e:
            raise RecordError(field, data, expected, problem=f"{list(data)!r}: {e}") from None


_SEAT_BY_LETTER = {s.letter: s for s in Seat}


def uniform_below(rng: random.Random, n: int) -> int:
    """A uniform integer in [0, n) from ``getrandbits``, whose output for a seed never changes
    (the quizzes and puzzles draw with it too).

    >>> uniform_below(random.Random(1), 0)
    Traceback (most recent call last):
    ...
    ValueError: empty range
    """
    if n <= 0:
        raise ValueError("empty range")
    k = n.bit_length()
    while True:
        r = rng.getrandbits(k)
        if r < n:
            return r


def deal_hands(rules: Rules, seed: int, dealer: Seat | None = None) -> tuple[Seat, dict[Seat, Hand]]:
    """Shuffle the rule set's deck with ``seed`` and deal it one card at a time from the dealer's left.

    The dealer is chosen by the seed when not given. The same rules, seed and
    dealer always give the same deal, on any machine and Python version.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= records.MAX_SEED:
        raise DealError(f"a deal seed is a whole number from 0 to {records.MAX_SEED}, not {shown(seed)}")
    rng = random.Random(seed)
    # the seed always draws a dealer first, so "4127" and "4127" + that dealer's letter are the
    # same deal, and naming another dealer turns the same shuffle round the table
    drawn = Seat(uniform_below(rng, 4))
    if dealer is None:
        dealer = drawn
    deck = list(rules.deck())
    bits = rng.getrandbits
    for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates, with uniform_below inlined
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        deck[i], deck[j] = deck[j], deck[i]
    first = int(dealer) + 1  # the first card goes left of the dealer, then round clockwise
    return dealer, {s: rules.sort_hand(deck[(int(s) - first) % 4 :: 4]) for s in _SEAT_AT[:4]}


_DEAL_ID = re.compile(r"([0-9]{1,18})([NESWnesw]?)")


def parse_deal_id(deal_id: str) -> tuple[int, Seat | None]:
    """``'4127'`` → (4127, None: the seed picks the dealer); ``'4127W'`` → (4127, West).

    A deal id is 1 to 18 ASCII digits, optionally followed by the dealer's letter N, E, S or W
    (either case); nothing else is read as one, not even spaces around it.

    >>> parse_deal_id("4127w")
    (4127, <Seat.WEST: 3>)
    >>> parse_deal_id("12-34")
    Traceback (most recent call last):
    ...
    spades_tutor.engine.errors.DealError: not a deal id: '12-34' (a deal id is a number of up to 18 digits, optionally followed by the dealer N, E, S or W, such as 4127 or 4127W)
    """
    found = _DEAL_ID.fullmatch(deal_id) if isinstance(deal_id, str) else None
    if found is None:
        what = repr(deal_id) if isinstance(deal_id, str) and len(deal_id) <= 30 else "that"
        raise DealError(
            f"not a deal id: {what} (a deal id is a number of up to 18 digits, optionally followed by "
            "the dealer N, E, S or W, such as 4127 or 4127W)"
        )
    digits, letter = found.groups()
    return int(digits), _SEAT_BY_LETTER[letter.upper()] if letter else None


@dataclasses.dataclass(frozen=True)
class SeatView:
    """What one seat can see: its own hand, the bids, the cards played; never other hands."""

    seat: Seat
    rules: Rules
    dealer: Seat
    phase: Phase
    to_act: Seat | None
    hand: Hand
    bids: Mapping[Seat, Bid]
    tricks: tuple[Trick, ...]
    trick: Trick
    spades_broken: bool
    tricks_won: Mapping[Seat, int]
    legal: tuple[Card, ...]
    scores: Mapping[Team, int]
    legal_bids: tuple[Bid, ...] = ()  # while bidding, for the seat to act
    bags: Mapping[Team, int] = dataclasses.field(default_factory=dict)  # each team's bags before the hand


class Round:
    """A deal from the shuffle to the score. Acts for whoever is ``to_act``.

    Every illegal action raises ``IllegalAction`` with a ``.reason`` and leaves
    the round exactly as it was.
    """

    def __init__(
        self,
        rules: Rules,
        hands: Mapping[Seat, CardsLike],
        dealer: Seat,
        *,
        deal_id: str | None = None,
        scores: Mapping[Team, int] | None = None,
        bags: Mapping[Team, int] | None = None,
        _trusted: bool = False,
    ) -> None:
        self.rules = rules
        self.dealer = Seat(dealer)
        self.deal_id = deal_id
        self.scores_before: dict[Team, int] = {Team.NS: 0, Team.EW: 0}
        self.bags_before: dict[Team, int] = {Team.NS: 0, Team.EW: 0}
        if scores:
            self.scores_before.update(_given_teams(scores, "scores", -records.SCORE_LIMIT, records.SCORE_LIMIT))
        if bags:
            # bags carried into a hand are fewer than the limit: reaching it costs the penalty and drops 10
            self.bags_before.update(_given_teams(bags, "bags", 0, rules.bag_limit - 1))
        if not isinstance(hands, Mapping):
            raise DealError(f"the hands are a mapping from each seat to its cards, not {shown(hands)}")
        dealt: dict[Seat, Hand] = {}
        for s, h in hands.items():
            if not isinstance(h, str | Card | Iterable):
                raise DealError(f"{Seat.parse(s)}'s hand: {shown(h)} is not cards")
            dealt[Seat.parse(s)] = cards(h)
        if not _trusted:
            _check_deal(rules, dealt)
        self._dealt: dict[Seat, Hand] = {s: rules.sort_hand(dealt[s]) for s in Seat}
        self._hands: dict[Seat, list[Card]] = {s: list(self._dealt[s]) for s in Seat}
        self._bids: dict[Seat, Bid] = {}
        self._tricks: list[Trick] = []
        self._current: list[Card] = []
        self._leader: Seat = self.dealer.left
        self._to_act: Seat | None = self.dealer.left
        self._taken: dict[Seat, int] = {s: 0 for s in Seat}
        self._broken = False
        self._history: list[Action] = []
        self._phase = Phase.BIDDING
        self._legal_cache: list[Card] | None = None

    # --- making rounds -------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        rules: Rules,
        dealer: Seat | str | None = None,
        seed: int | None = None,
        *,
        scores: Mapping[Team, int] | None = None,
        bags: Mapping[Team, int] | None = None,
    ) -> Round:
        """Shuffle and deal. Without a seed, one is drawn and kept: ``deal_id`` reproduces the deal.

        >>> from spades_tutor.engine.rules import Rules
        >>> a = Round.deal(Rules.preset("jokers"), seed=7)
        >>> b = Round.from_deal_id(Rules.preset("jokers"), a.deal_id)
        >>> a.hands == b.hands and a.dealer == b.dealer
        True
        """
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        chosen = None if dealer is None else Seat.parse(dealer)
        real_dealer, hands = deal_hands(rules, seed, chosen)
        deal_id = str(seed) if chosen is None else f"{seed}{chosen.letter}"
        rnd = cls(rules, hands, real_dealer, deal_id=deal_id, scores=scores, bags=bags, _trusted=True)
        rnd.seed = seed
        return rnd

    seed: int | None = None

    @classmethod
    def from_deal_id(cls, rules: Rules, deal_id: str, **kwargs: Any) -> Round:
        """The deal a deal id names (with the same rule set's deck)."""
        seed, dealer = parse_deal_id(deal_id)
        return cls.deal(rules, dealer=dealer, seed=seed, **kwargs)

    @classmethod
    def from_hands(
        cls,
        rules: Rules,
        hands: Mapping[Seat, CardsLike],
        dealer: Seat | str = Seat.WEST,
        **kwargs: Any,
    ) -> Round:
        """A round from given hands (13 cards each, exactly the rule set's deck), for lessons.

        >>> from spades_tutor.engine.rules import Rules
        >>> Round.from_hands(Rules.preset("jokers"), {Seat.NORTH: "AS"}, dealer=Seat.WEST)
        Traceback (most recent call last):
        ...
        spades_tutor.engine.errors.DealError: every seat needs a hand: missing East, South, West
        """
        return cls(rules, hands, Seat.parse(dealer), **kwargs)

    def copy(self) -> Round:
        """An independent copy (for bots that look ahead)."""
        new = object.__new__(Round)
        new.__dict__.update(self.__dict__)
        new._hands = {s: list(h) for s, h in self._hands.items()}
        new._bids = dict(self._bids)
        new._tricks = list(self._tricks)
        new._current = list(self._current)
        new._taken = dict(self._taken)
        new._history = list(self._history)
        new.scores_before = dict(self.scores_before)
        new.bags_before = dict(self.bags_before)
        return new

    # --- state -----------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def to_act(self) -> Seat | None:
        """The seat whose turn it is, or None once the round is over."""
        return self._to_act

    @property
    def hands(self) -> dict[Seat, Hand]:
        """The cards each seat still holds, in display order."""
        return {s: Hand(h) for s, h in self._hands.items()}

    @property
    def dealt(self) -> dict[Seat, Hand]:
        """The hands as dealt."""
        return dict(self._dealt)

    @property
    def bids(self) -> dict[Seat, Bid]:
        """The bids so far, in bidding order."""
        return dict(self._bids)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks, in order."""
        return tuple(self._tricks)

    @property
    def trick(self) -> Trick:
        """The trick in progress (possibly empty); after the last trick, an empty one."""
        return Trick(self._leader, tuple(self._current))

    @property
    def spades_broken(self) -> bool:
        return self._broken

    @property
    def tricks_won(self) -> dict[Seat, int]:
        return dict(self._taken)

    @property
    def history(self) -> tuple[Action, ...]:
        return tuple(self._history)

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.DONE

    def team_contract(self, team: Team) -> int:
        """Partners' bids added (a nil adds 0)."""
        return sum(self._bids[s].tricks for s in team.seats if s in self._bids)

    def _where(self) -> str:
        deal = f"deal {self.deal_id}" if self.deal_id else "custom deal"
        if self._phase is Phase.BIDDING:
            step = f"bidding, {self._to_act} to bid"
        elif self._phase is Phase.PLAYING:
            step = f"trick {len(self._tricks) + 1}, {self._to_act} to play"
        else:
            step = "round over"
        return f"{deal}, {self.rules.name}, {step}"

    # --- bidding ---------------------------------------------------------------------

    def why_bid_illegal(self, bid: Bid | int | str, seat: Seat | None = None) -> Reason | None:
        """None if the bid is allowed now, else the reason it is not."""
        if self._phase is Phase.DONE:
            return Reason("wrong-phase", "The round is over: all 13 tricks have been played.")
        if self._phase is not Phase.BIDDING:
            return Reason("wrong-phase", "Bidding is over: it is time to play cards.")
        if seat is not None and seat != self._to_act:
            return Reason("wrong-seat", f"It is {self._to_act}'s turn to bid, not {Seat(seat)}'s.")
        try:
            b = Bid.parse(bid)
        except SpadesError as e:
            return Reason("not-a-bid", str(e)[:1].upper() + str(e)[1:] + ".")
        rules = self.rules
        if b.blind:
            if rules.blind_nil == "off":
                return Reason("blind-nil-not-allowed", "Blind nil is not allowed at this table.")
            if rules.blind_nil == "behind-100":
                assert self._to_act is not None
                team = self._to_act.team
                behind = self.scores_before[team.other] - self.scores_before[team]
                if behind < rules.blind_nil_behind:
                    return Reason(
                        "blind-nil-not-allowed",
                        f"Blind nil is only allowed for a team at least {rules.blind_nil_behind} points behind; "
                        f"{team.label} {'are ' + str(behind) + ' behind' if behind > 0 else 'are not behind'} "
                        "when the hand starts.",
                    )
            return None
        if b.tricks == 0:
            if not rules.nil:
                return Reason("nil-not-allowed", "This table plays without nil: bid 1 to 13 tricks.")
            return None
        if not 1 <= b.tricks <= 13:
            return Reason(
                "bid-out-of-range", f"A bid is 1 to 13 tricks{' or nil' if rules.nil else ''}, not {b.tricks}."
            )
        return self._why_under_team_minimum(b)

    def _why_under_team_minimum(self, b: Bid) -> Reason | None:
        """The reason a number bid leaves the team under ``min_team_bid``, if it does.

        Only the team's second bidder is held to it, as only then are both bids known. A nil (or
        blind nil) by either partner exempts the team: the nil is a contract of its own, and the
        partner may bid what the hand holds (the common house rule; a nil bidder's partner forced
        to 4 would make nil a trap).
        """
        need = self.rules.min_team_bid
        actor = self._to_act
        if not need or actor is None:
            return None
        partner = actor.partner
        if partner not in self._bids:
            return None
        first = self._bids[partner]
        if first.is_nil or first.tricks + b.tricks >= need:
            return None
        return Reason("under-team-minimum", f"{self._team_minimum_words(actor, first)[:-1]}, not {b.tricks}.")

    def _team_minimum_words(self, actor: Seat, first: Bid) -> str:
        """The least team bid as it binds ``actor``, whose partner bid ``first`` (a number of tricks)."""
        need, partner = self.rules.min_team_bid, actor.partner
        least = need - first.tricks
        nil_words = " or nil" if self.rules.nil else ""
        head = f"At this table a team bids at least {need} tricks together; {partner.label} bid {first.tricks}"
        if least <= 1:
            return f"{head}, so any bid of {actor.label}'s keeps the team there."
        return f"{head}, so {actor.label} must bid {least} or more{nil_words}."

    def team_minimum_words(self) -> str | None:
        """The least team bid (``min_team_bid``) as it binds the seat to bid now, in the engine's words
        (the same sentence that refuses a bid under it); None at a table without one, or out of bidding.

        >>> from .rules import Rules
        >>> rnd = Round.deal(Rules.preset("jokers", min_team_bid=4), seed=1, dealer="E")
        >>> print(rnd.team_minimum_words())
        At this table a team bids at least 4 tricks together (a nil by either partner frees the team of it); South bids first for North–South, and North must bring the team to 4.
        >>> rnd.bid(1); rnd.bid(2)
        >>> print(rnd.team_minimum_words())
        At this table a team bids at least 4 tricks together; South bid 1, so North must bid 3 or more or nil.
        """
        need, actor = self.rules.min_team_bid, self._to_act
        if not need or actor is None or self._phase is not Phase.BIDDING:
            return None
        partner = actor.partner
        first = self._bids.get(partner)
        if first is None:
            return (
                f"At this table a team bids at least {need} tricks together (a nil by either partner frees the "
                f"team of it); {actor.label} bids first for {actor.team.label}, and {partner.label} must bring "
                f"the team to {need}."
            )
        if first.is_nil:
            return (
                f"At this table a team bids at least {need} tricks together, but {partner.label} bid nil, which "
                f"frees the team of it: {actor.label} may bid what the hand holds."
            )
        return self._team_minimum_words(actor, first)

    def legal_bids(self) -> tuple[Bid, ...]:
        """Every bid the seat to act may make now."""
        if self._phase is not Phase.BIDDING:
            return ()
        options = _BIDS if self.rules.nil else _BIDS[1:]
        if self.rules.min_team_bid:
            options = tuple(b for b in options if b.is_nil or self._why_under_team_minimum(b) is None)
        if self.rules.blind_nil != "off" and self.why_bid_illegal(BLIND_NIL) is None:
            return (*options, BLIND_NIL)
        return options

    def bid(self, bid: Bid | int | str, seat: Seat | None = None) -> None:
        """Bid for the seat to act (``seat``, if given, must be that seat). 0 means nil."""
        reason = self.why_bid_illegal(bid, seat)
        if reason is not None:
            raise IllegalAction(reason, self._where())
        b = Bid.parse(bid)
        actor = self._to_act
        assert actor is not None
        self._bids[actor] = b
        self._history.append(Action(actor, ActionKind.BID, b))
        if len(self._bids) == 4:
            self._phase = Phase.PLAYING
            self._leader = self.first_leader()[0]
            self._to_act = self._leader
        else:
            self._to_act = actor.left

    def first_leader(self) -> tuple[Seat, str]:
        """Who leads the first trick of this deal, and the sentence saying why (``explain_first_leader``).

        >>> Round.from_deal_id(Rules.preset("jokers"), "4127W").first_leader()
        (<Seat.NORTH: 0>, "West dealt, so North, on the dealer's left, leads the first trick.")
        """
        holder = next((s for s in Seat if _TWO_OF_CLUBS in self._dealt[s]), None)
        return explain_first_leader(self.rules, self.dealer, holder)

    # --- play ------------------------------------------------------------------------

    def _legal_now(self) -> list[Card]:
        # cached until the next card is played: bots ask for the legal cards, then play one
        if self._legal_cache is not None:
            return self._legal_cache
        assert self._to_act is not None  # only called while playing
        hand = self._hands[self._to_act]
        if not self._tricks and not self._current and self.rules.first_lead == "two-of-clubs" and _TWO_OF_CLUBS in hand:
            legal = [_TWO_OF_CLUBS]
        else:
            legal = legal_cards(self.rules, hand, self._current, self._broken)
        self._legal_cache = legal
        return legal

    def legal_plays(self) -> tuple[Card, ...]:
        """The cards the seat to act may play (empty outside the play), in the hand's display
        order (``rules.sort_hand``): the batched simulator relies on this order."""
        if self._phase is not Phase.PLAYING:
            return ()
        return tuple(self._legal_cache if self._legal_cache is not None else self._legal_now())

    def why_illegal(self, card: Card | str, seat: Seat | None = None) -> Reason | None:
        """None if ``card`` may be played now, else the reason it may not."""
        if self._phase is not Phase.PLAYING:
            if self._phase is Phase.BIDDING:
                return Reason(
                    "wrong-phase", f"Nobody plays a card before the bidding ends: it is {self._to_act}'s turn to bid."
                )
            return Reason("wrong-phase", "The round is over: all 13 tricks have been played.")
        if seat is not None and seat != self._to_act:
            return Reason("wrong-seat", f"It is {self._to_act}'s turn to play, not {Seat(seat)}'s.")
        c = Card.parse(card) if isinstance(card, str) else card
        assert self._to_act is not None
        hand = self._hands[self._to_act]
        if c not in hand:
            return why_illegal(self.rules, hand, c, self._current, self._broken)
        if c in self._legal_now():
            return None
        if not self._tricks and not self._current and self.rules.first_lead == "two-of-clubs":
            return first_lead_reason()
        return why_illegal(self.rules, hand, c, self._current, self._broken)

    def play(self, card: Card | str, seat: Seat | None = None) -> None:
        """Play a card for the seat to act (``seat``, if given, must be that seat)."""
        c = Card.parse(card) if card.__class__ is str else card
        if self._phase is not Phase.PLAYING or (seat is not None and seat != self._to_act):
            raise IllegalAction(self.why_illegal(c, seat) or Reason("wrong-phase", "Not now."), self._where())
        actor = self._to_act
        legal = self._legal_cache if self._legal_cache is not None else self._legal_now()
        if c not in legal:
            reason = self.why_illegal(c)
            assert reason is not None
            raise IllegalAction(reason, self._where())
        assert actor is not None
        self._legal_cache = None
        self._hands[actor].remove(c)
        current = self._current
        current.append(c)
        self._history.append(Action(actor, ActionKind.PLAY, c))
        if self.rules.suit_table[c.index] == 3:
            self._broken = True
        if len(current) < 4:
            self._to_act = _SEAT_AFTER[actor]
            return
        w = winning_index(self.rules, current)
        winner = _SEAT_AT[self._leader + w]
        self._tricks.append(Trick(self._leader, tuple(current), winner, self.rules))
        self._taken[winner] += 1
        self._current = []
        self._leader = winner
        if len(self._tricks) == 13:
            self._phase = Phase.DONE
            self._to_act = None
        else:
            self._to_act = winner

    def apply(self, action: Action | Bid | Card | int | str) -> None:
        """Bid or play, whichever the phase calls for (a generic driver for bots and replays)."""
        if isinstance(action, Action):
            if action.kind == ActionKind.BID:
                self.bid(action.value, action.seat)  # type: ignore[arg-type]
            else:
                self.play(action.value, action.seat)  # type: ignore[arg-type]
        elif self._phase is Phase.BIDDING:
            self.bid(action)  # type: ignore[arg-type]
        else:
            self.play(action)  # type: ignore[arg-type]

    def legal_actions(self) -> tuple[Bid | Card, ...]:
        return self.legal_bids() if self._phase is Phase.BIDDING else self.legal_plays()

    def undo(self) -> Action:
        """Take back the last bid or card; the round is then exactly as it was before it.

        >>> from spades_tutor.engine.rules import Rules
        >>> rnd = Round.deal(Rules.preset("jokers"), dealer=Seat.WEST, seed=4127)
        >>> before = rnd.to_json()
        >>> rnd.bid(3)
        >>> rnd.undo()
        Action(seat=<Seat.NORTH: 0>, kind=<ActionKind.BID: 'bid'>, value=Bid(3))
        >>> rnd.to_json() == before
        True
        """
        if self._sealed:
            raise IllegalAction(
                Reason("round-scored", "This round has been scored in its game: it can no longer be taken back."),
                self._where(),
            )
        if not self._history:
            raise IllegalAction(Reason("nothing-to-undo", "Nothing to take back: no bid or card yet."), self._where())
        action = self._history.pop()
        actor = action.seat
        self._legal_cache = None
        if action.kind == ActionKind.BID:
            del self._bids[actor]
            self._phase = Phase.BIDDING
            self._leader = self.dealer.left
            self._to_act = actor
            return action
        card = action.value
        assert isinstance(card, Card)
        if not self._current:  # the card completed a trick: that trick is on the table again
            last = self._tricks.pop()
            assert last.winner is not None
            self._taken[last.winner] -= 1
            self._leader = last.leader
            self._current = list(last.cards)
        self._current.pop()
        held = set(self._hands[actor])
        held.add(card)
        self._hands[actor] = [c for c in self._dealt[actor] if c in held]
        suit_as = self.rules.suit_table
        self._broken = any(a.kind == ActionKind.PLAY and suit_as[a.value.index] == 3 for a in self._history)  # type: ignore[union-attr]
        self._phase = Phase.PLAYING
        self._to_act = actor
        return action

    _sealed = False  # set by a Game once it has scored the round

    # --- the score -------------------------------------------------------------------

    def score(self) -> dict[Team, HandScore]:
        """Each team's score for this round, line by line (the round must be over)."""
        if self._phase is not Phase.DONE:
            raise IllegalAction(
                Reason("wrong-phase", "A round is scored when all 13 tricks are played."), self._where()
            )
        return score_hand(self.rules, self._bids, self._taken, self.bags_before)

    def renege(self, offenders: Team | str, reneges: int = 1) -> RenegeRuling:
        """This round's score had ``offenders`` reneged at a real table, by ``rules.renege_penalty``.

        The engine refuses a renege, so this is the score a table would write down after one was found.
        """
        self.score()  # the round must be over
        return apply_renege(self.rules, self._bids, self._taken, offenders, reneges=reneges, bags=self.bags_before)

    # --- what a seat sees --------------------------------------------------------------

    def view(self, seat: Seat) -> SeatView:
        """What ``seat`` can see: its hand, the bids and the cards played."""
        return SeatView(
            seat=seat,
            rules=self.rules,
            dealer=self.dealer,
            phase=self._phase,
            to_act=self._to_act,
            hand=Hand(self._hands[seat]),
            bids=dict(self._bids),
            tricks=tuple(self._tricks),
            trick=self.trick,
            spades_broken=self._broken,
            tricks_won=dict(self._taken),
            legal=self.legal_plays() if seat == self._to_act else (),
            scores=dict(self.scores_before),
            legal_bids=self.legal_bids() if seat == self._to_act else (),
            bags=dict(self.bags_before),
        )

    # --- records -----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": _FORMAT,
            "version": 1,
            "rules": self.rules.to_dict(),
            "deal_id": self.deal_id,
            "dealer": self.dealer.letter,
            "hands": {s.letter: str(self._dealt[s]) for s in Seat},
            "scores": {t.short: v for t, v in self.scores_before.items()},
            "bags": {t.short: v for t, v in self.bags_before.items()},
            "actions": [a.to_json() for a in self._history],
        }

    def to_json(self, **kwargs: Any) -> str:
        """The deal and every action as JSON; ``Round.from_json`` replays it.

        >>> from spades_tutor.engine.rules import Rules
        >>> rnd = Round.deal(Rules.preset("jokers"), seed=1)
        >>> rnd.bid(4)
        >>> Round.from_json(rnd.to_json()) == rnd
        True
        """
        return json.dumps(self.to_dict(), ensure_ascii=False, **kwargs)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Round:
        """The round ``to_dict`` wrote, replayed action by action.

        A record that is damaged, out of range or not a legal history raises a ``RecordError``
        naming the field: ``Round.from_dict({"format": "x"})`` says ``format: 'x' is not …``.
        """
        data = check_format(data, "round", _FORMAT, _ROUND_FIELDS)
        rules = Rules.from_dict(data["rules"])
        dealer = read_seat(data["dealer"], "dealer")
        hands_data = records.record(data["hands"], "hands", required=tuple(_SEAT_BY_LETTER))
        hands: dict[Seat, Hand] = {}
        for letter, seat in _SEAT_BY_LETTER.items():
            where = records.place("hands", letter)
            try:
                hands[seat] = cards(records.text(hands_data[letter], where, max_len=200))
            except SpadesError as e:
                raise RecordError(where, hands_data[letter], "a hand of cards", problem=str(e)) from None
            in_order = rules.sort_hand(hands[seat])
            if list(hands[seat]) != list(in_order):  # a round writes its hands sorted: read back as written
                raise RecordError(
                    where, hands_data[letter], f"the hand in the order the rule set sorts it ({in_order})"
                )
        scores = _read_teams(data["scores"], "scores", -records.SCORE_LIMIT, records.SCORE_LIMIT)
        bags = _read_teams(data["bags"], "bags", 0, rules.bag_limit - 1)
        deal_id = data["deal_id"]
        seed: int | None = None
        if deal_id is not None:
            try:
                seed, named = parse_deal_id(records.text(deal_id, "deal_id", max_len=19))
            except DealError as e:
                raise RecordError("deal_id", deal_id, "a deal id", problem=str(e)) from None
            # a deal id names its deal: the hands and the dealer must be that deal's
            real_dealer, dealt = deal_hands(rules, seed, named)
            if real_dealer != dealer or any(set(dealt[s]) != set(hands[s]) for s in Seat):
                raise RecordError(
                    "hands", None, "", problem=f"not the deal {deal_id} names with these rules (or not its dealer)"
                )
        try:
            rnd = cls(rules, hands, dealer, deal_id=deal_id, scores=scores, bags=bags)
        except DealError as e:
            raise RecordError("hands", None, "", problem=str(e)) from None
        rnd.seed = seed
        actions = records.array(data["actions"], "actions", max_len=4 + 52)
        for i, a in enumerate(actions):
            rnd._replay_one(Action.from_json(a, records.place("actions", i)), records.place("actions", i))
        return rnd

    @classmethod
    def from_json(cls, text: str) -> Round:
        """``from_dict`` of JSON text: bad JSON, or too much of it, is a ``RecordError`` too."""
        return cls.from_dict(records.load_json(text, "round"))  # type: ignore[arg-type]

    def _replay_one(self, action: Action, field: str) -> None:
        """Apply a recorded action; one the rules forbid makes the record inconsistent."""
        try:
            self.apply(action)
        except IllegalAction as e:
            raise RecordError(field, action.to_json(), "", problem=f"{action} cannot happen here: {e.reason}") from None

    def replay(self, actions: Iterable[Action]) -> None:
        """Apply recorded actions in order (each checked like a live one)."""
        for action in actions:
            self.apply(action)

    def _key(self) -> tuple[Any, ...]:
        return (
            self.rules,
            self.dealer,
            self.deal_id,
            tuple(self._dealt[s] for s in Seat),
            tuple(sorted(self.scores_before.items())),
            tuple(sorted(self.bags_before.items())),
            tuple(self._history),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Round):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Round {self._where()}>"

    def _repr_html_(self) -> str:
        from .display import round_html  # at call time: display.py knows cards, tricks and rounds

        return round_html(self)


def explain_first_leader(rules: Rules, dealer: Seat, two_of_clubs: Seat | None = None) -> tuple[Seat, str]:
    """Who leads the first trick of a deal, and a sentence saying why.

    The player left of the dealer leads, unless the table plays ``first_lead="two-of-clubs"``
    (allowed only where the 2♣ is in the deck): then ``two_of_clubs``, the seat holding it, leads.

    >>> from spades_tutor.engine.rules import Rules
    >>> explain_first_leader(Rules.preset("jokers"), Seat.WEST)
    (<Seat.NORTH: 0>, "West dealt, so North, on the dealer's left, leads the first trick.")
    >>> rules = Rules.preset("jokers", first_lead="two-of-clubs")
    >>> explain_first_leader(rules, Seat.WEST, Seat.SOUTH)[1]
    'This table opens with the 2♣: South holds it and leads it to the first trick.'
    """
    left = dealer.left
    if rules.first_lead == "two-of-clubs":
        if two_of_clubs is None:
            raise SpadesError("a deal with the 2♣ in the deck: say who holds it")
        return (
            two_of_clubs,
            f"This table opens with the 2♣: {two_of_clubs.label} holds it and leads it to the first trick.",
        )
    return left, f"{dealer.label} dealt, so {left.label}, on the dealer's left, leads the first trick."


def _check_deal(rules: Rules, hands: Mapping[Seat, Sequence[Card]]) -> None:
    missing = [s.label for s in Seat if s not in hands]
    if missing:
        raise DealError(f"every seat needs a hand: missing {', '.join(missing)}")
    problems = []
    for s in Seat:
        if len(hands[s]) != 13:
            problems.append(f"{s.label} has {len(hands[s])} cards, not 13")
    seen: dict[Card, Seat] = {}
    for s in Seat:
        for c in hands[s]:
            if c in seen:
                problems.append(f"{c} is dealt twice ({seen[c].label} and {s.label})")
            seen[c] = s
            if not rules.in_deck(c):
                problems.append(f"{c} ({s.label}) is not in the {rules.name} deck")
    if problems:
        raise DealError("not a deal: " + "; ".join(problems))


_ROUND_FIELDS = ("format", "version", "rules", "deal_id", "dealer", "hands", "scores", "bags", "actions")


def check_format(data: object, field: str, expected: str, keys: Sequence[str]) -> Mapping[str, Any]:
    """The record as a mapping with exactly ``keys``, once its format and version are the ones read here."""
    if not isinstance(data, Mapping):
        raise RecordError(field, data, "an object of named fields")
    if "format" in data and data["format"] != expected:
        raise RecordError("format", data["format"], repr(expected))
    if "version" in data and (type(data["version"]) is not int or data["version"] != 1):
        raise RecordError("version", data["version"], "1 (this version of spades_tutor reads version 1 records)")
    return records.record(data, field, required=keys, keys_at="")


def read_seat(value: object, field: str) -> Seat:
    if not isinstance(value, str) or value not in _SEAT_BY_LETTER:
        raise RecordError(field, value, "a seat letter N, E, S or W")
    return _SEAT_BY_LETTER[value]


def _given_teams(values: object, field: str, low: int, high: int) -> dict[Team, int]:
    """Each team's number given from Python (scores or bags before the hand): whole, within ``[low, high]``.

    >>> _given_teams({"NS": 120, Team.EW: -40}, "scores", -1000, 1000) == {Team.NS: 120, Team.EW: -40}
    True
    >>> _given_teams({"EW": 12}, "bags", 0, 9)
    Traceback (most recent call last):
    ...
    spades_tutor.engine.errors.InputError: bags.E–W: 12 is not a whole number from 0 to 9
    """
    if not isinstance(values, Mapping):
        raise InputError(field, values, "a mapping from each team to a whole number")
    given: dict[Team, int] = {}
    for key, value in values.items():
        team = Team.parse(key)
        whole = None if isinstance(value, bool) or not isinstance(value, numbers.Integral) else int(value)
        if whole is None or not low <= whole <= high:
            raise InputError(records.place(field, team.short), value, f"a whole number from {low} to {high}")
        given[team] = whole
    return given


def _read_teams(value: object, field: str, low: int, high: int) -> dict[Team, int]:
    data = records.record(value, field, required=[t.short for t in Team])
    return {t: records.whole(data[t.short], records.place(field, t.short), low, high) for t in Team}
