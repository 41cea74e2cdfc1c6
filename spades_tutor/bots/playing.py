"""The heuristic card player: a few plain rules of good play, each with its reason.

In order of priority, for the seat to play:

1. its own nil: stay under the winning card, shedding the most dangerous card;
2. a partner's nil: lead high, and play over the partner when they are winning
   (or take the trick high when they play after);
3. an opponent's nil (not yet set): play to set it, as strong players defend. Lead low in a
   suit the nil bidder has not shown out of (the card with the fewest cards still out below it,
   never a card nothing out beats); with no such lead, lead the lowest card of a suit the nil
   bidder still holds rather than cash winners or pull trumps, which would let the nil bidder
   throw its high cards under them; follow low when the nil bidder plays after, stay under the
   nil bidder's card when it is winning, and once the nil bidder has played under another card,
   throw the highest card (the low ones are kept to play under the nil bidder's high cards
   later). ``nil_defence="plain"`` keeps the earlier, weaker defence (lead low, follow low,
   stay under), for measuring one against the other;
4. the team's contract made: duck to avoid bags, shedding high cards;
5. otherwise win tricks: lead the top trump to pull trumps once spades are broken,
   cash the highest card left in a side suit, else lead low from the longest suit;
   follow low when it cannot win (or the partner is winning), win with the cheapest
   card that holds the trick, trump when void.

The player remembers which cards have gone (and who has shown out of a suit)
from ``view.tricks`` and ``view.trick``, updating only the new tricks, so a
decision costs a few microseconds. Cards are bits of an int inside (``Card.index``);
only cards and sentences come out.

>>> import spades_tutor as st
>>> rules = st.Rules.preset("jokers")
>>> rnd = st.Round.from_hands(rules, {
...     st.Seat.NORTH: "BJ 9S 4S KH 7H AC 8C 6C QD 9D 5D 3D 2C",
...     st.Seat.EAST: "LJ AS KS QS JS AH QH JH 10H 9H 8H KC QC",
...     st.Seat.SOUTH: "10S 8S 7S 6S 5S 6H 5H 4H 3H JC 10C 9C 7C",
...     st.Seat.WEST: "3S 2S 5C 4C 3C AD KD JD 10D 8D 7D 6D 4D"}, dealer=st.Seat.WEST)
>>> for b in (2, 4, 1, 2): rnd.bid(b)
>>> rnd.play("KH")
>>> print(HeuristicPlayer().play(rnd.view(st.Seat.EAST)).reason)
A♥ wins cheaply: it is your lowest card that beats the K♥, and nothing still out should beat it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import spades_tutor.engine as st

from .base import Decision, Voice
from .base import card_words as _words

__all__ = ["NIL_DEFENCES", "HeuristicPlayer"]

#: how the bots defend against an opponent's nil: "strong" (the default, rule 3 in full) or
#: "plain" (the earlier defence: lead low into the nil, follow low, stay under it)
NIL_DEFENCES = ("strong", "plain")

_SPADES = 3
_CARDS = st.full_pack()  # Card.index -> Card
_SEATS = tuple(st.Seat)  # seat number -> Seat
_TWO_OF_CLUBS = st.Card.parse("2C")


class _Table:
    """Lookups by ``Card.index`` for one rule set, built once from the public ``Rules`` API."""

    __slots__ = ("deck_mask", "higher", "lower", "power", "rules", "suit", "trump_mask")

    def __init__(self, rules: st.Rules) -> None:
        self.rules = rules
        order = rules.trump_order()
        power = [0] * 54
        suit = [-1] * 54
        deck_mask = 0
        for c in rules.deck():
            deck_mask |= 1 << c.index
            suit[c.index] = int(rules.suit_of(c))
            power[c.index] = int(c.rank)
        for place, c in enumerate(order):
            power[c.index] = 100 + len(order) - place  # every trump above every side card
        higher = [0] * 54  # the cards of the same (counted) suit that beat this one
        lower = [0] * 54  # ... and those it beats
        for c in rules.deck():
            for o in rules.deck():
                if suit[o.index] == suit[c.index] and power[o.index] > power[c.index]:
                    higher[c.index] |= 1 << o.index
                    lower[o.index] |= 1 << c.index
        self.power = power
        self.suit = suit
        self.deck_mask = deck_mask
        self.trump_mask = sum(1 << c.index for c in order)
        self.higher = higher
        self.lower = lower


class _Memory:
    """The cards gone and the suits each seat has shown out of, from the completed tricks."""

    __slots__ = ("count", "first", "last", "played", "voids")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.first: st.Trick | None = None  # the first and last trick read, to know the round again
        self.last: st.Trick | None = None
        self.count = 0
        self.played = 0
        self.voids = [0, 0, 0, 0]  # per seat, a bit per suit

    def update(self, tricks: tuple[st.Trick, ...], suit: list[int]) -> None:
        # A round shows the same Trick objects in every view, so only the new tricks need reading.
        # Anything else (another round, an earlier position, a copy that went another way) starts over.
        count = self.count
        if count and (len(tricks) < count or tricks[0] is not self.first or tricks[count - 1] is not self.last):
            self.reset()
            count = 0
        if len(tricks) == count:
            return
        played, voids = self.played, self.voids
        for t in tricks[count:]:
            seat = int(t.leader)
            led = suit[t.cards[0].index]
            for c in t.cards:
                played |= 1 << c.index
                if suit[c.index] != led:
                    voids[seat] |= 1 << led
                seat = (seat + 1) & 3
        self.played = played
        self.count = len(tricks)
        self.first, self.last = tricks[0], tricks[-1]


def _bare(card: st.Card) -> str:
    """``'big joker'``, ``'K♥'``: a card after "the", "your" or "their"."""
    return card.name if card.is_joker else str(card)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


_SINGULAR = tuple(s.singular for s in st.Suit)
_PLURAL = tuple(s.plural for s in st.Suit)


def _suit_word(suit: int, plural: bool = False) -> str:
    return _PLURAL[suit] if plural else _SINGULAR[suit]


class HeuristicPlayer:
    """Chooses a card from a ``SeatView`` by the rules in the module docstring.

    ``seed`` breaks ties between equally good cards (say two threes to throw away);
    without it the tie goes to the card from the shorter suit, then hand order.
    The reasons speak to the player ("you must follow suit"); with ``speak_of_seat`` they
    speak of the seat, for a room watching the hand ("West must follow suit").
    ``nil_defence`` is one of ``NIL_DEFENCES`` (see rule 3).
    """

    def __init__(self, seed: int | None = None, *, speak_of_seat: bool = False, nil_defence: str = "strong") -> None:
        if nil_defence not in NIL_DEFENCES:
            raise ValueError(f"nil_defence must be one of {', '.join(NIL_DEFENCES)}, not {nil_defence!r}")
        self._rng = None if seed is None else random.Random(seed)
        self._of_seat = speak_of_seat
        self.nil_defence = nil_defence
        self._table: _Table | None = None
        self._memory = _Memory()

    def _table_for(self, rules: st.Rules) -> _Table:
        table = self._table
        if table is None or table.rules is not rules:
            table = _TABLES.get(id(rules))
            if table is None or table.rules is not rules:
                table = _TABLES[id(rules)] = _Table(rules)
                if len(_TABLES) > 64:  # rule sets are few; drop the oldest of any passing flood
                    del _TABLES[next(iter(_TABLES))]
            self._table = table
        return table

    def play(self, view: st.SeatView) -> Decision:
        legal = view.legal
        if not legal:
            raise ValueError(f"{view.seat} has no card to play now")
        table = self._table_for(view.rules)
        voice = Voice.of(view.seat if self._of_seat else None)
        if len(legal) == 1:  # no choice to weigh (the memory catches up at the next real choice)
            return _forced(view, table, voice)
        memory = self._memory
        memory.update(view.tricks, table.suit)
        return _Choice(self, view, table, memory, voice).decide()


_TABLES: dict[int, _Table] = {}


def _forced(view: st.SeatView, table: _Table, v: Voice) -> Decision:
    """The only legal card, and why it is the only one."""
    card = view.legal[0]
    name = _words(card)
    cur = view.trick.cards
    if not cur:
        if not view.tricks and view.rules.first_lead == "two-of-clubs" and card is _TWO_OF_CLUBS:
            return Decision(card, "Lead the 2♣: at this table the holder of the 2♣ leads it to the first trick.")
        if len(view.hand) == 1:
            return Decision(card, f"Lead {name}: it is {v.your} last card.")
        return Decision(card, f"Lead {name}: it is {v.your} only card that may be led now (spades are not broken).")
    led = table.suit[cur[0].index]
    if table.suit[card.index] == led:
        return Decision(card, f"Play {name}: it is {v.your} only {_suit_word(led)}, and {v.you} must follow suit.")
    return Decision(card, f"Play {name}: it is {v.your} last card.")


class _Choice:
    """One decision: the position worked out once, then the rules in order."""

    __slots__ = (
        "contract",
        "cur",
        "higher",
        "leader",
        "legal",
        "lengths",
        "lower",
        "made",
        "me",
        "my_nil",
        "nil_opponents",
        "out",
        "partner",
        "partner_nil",
        "power",
        "rng",
        "strong",
        "suit",
        "trump_mask",
        "v",
        "view",
        "voids",
    )

    def __init__(
        self, player: HeuristicPlayer, view: st.SeatView, table: _Table, memory: _Memory, voice: Voice
    ) -> None:
        self.v = voice
        self.rng = player._rng
        self.strong = player.nil_defence == "strong"
        self.view = view
        self.legal = view.legal
        self.power = table.power
        self.suit = table.suit
        self.higher = table.higher
        self.lower = table.lower
        self.trump_mask = table.trump_mask
        suit = table.suit
        me_seat = view.seat
        me = self.me = int(me_seat)
        partner_seat = _SEATS[(me + 2) & 3]
        self.partner = int(partner_seat)
        trick = view.trick
        cur = self.cur = trick.cards
        leader = self.leader = int(trick.leader)
        played = memory.played
        voids = memory.voids
        if cur:
            voids = list(voids)
            led = suit[cur[0].index]
            seat = leader
            for c in cur:
                played |= 1 << c.index
                if suit[c.index] != led:
                    voids[seat] |= 1 << led
                seat = (seat + 1) & 3
        self.voids = voids
        hand_mask = 0
        lengths = [0, 0, 0, 0]
        for c in view.hand:
            hand_mask |= 1 << c.index
            lengths[suit[c.index]] += 1
        self.lengths = lengths
        self.out = table.deck_mask & ~played & ~hand_mask  # cards the other three may hold
        bids, won = view.bids, view.tricks_won
        mine, theirs = bids[me_seat].tricks, bids[partner_seat].tricks
        self.contract = mine + theirs
        counted = (won[me_seat] if mine else 0) + (won[partner_seat] if theirs else 0)
        if view.rules.failed_nil_tricks == "partner":  # a failed nil's tricks count toward the partner's bid
            counted += (0 if mine else won[me_seat]) + (0 if theirs else won[partner_seat])
        self.made = counted >= self.contract
        self.my_nil = mine == 0 and won[me_seat] == 0
        self.partner_nil = theirs == 0 and won[partner_seat] == 0
        # the opponents whose nil may still be set (left first, then right)
        self.nil_opponents = tuple(
            s for s in ((me + 1) & 3, (me + 3) & 3) if bids[_SEATS[s]].tricks == 0 and won[_SEATS[s]] == 0
        )

    # --- helpers ---------------------------------------------------------------------

    def pw(self, card: st.Card, led: int) -> int:
        """The card's strength in a trick where ``led`` was led (0: it cannot win)."""
        p = self.power[card.index]
        return p if p > 100 or self.suit[card.index] == led else 0

    def pick(self, cards: list[st.Card] | tuple[st.Card, ...], key: Callable[[st.Card], Any]) -> st.Card:
        """The card with the smallest key; ties by the seeded rng, else the first."""
        best = min(cards, key=key)
        if self.rng is None:
            return best
        k = key(best)
        ties = [c for c in cards if key(c) == k]
        return ties[self.rng.randrange(len(ties))] if len(ties) > 1 else best

    def lowest(self, cards: list[st.Card] | tuple[st.Card, ...]) -> st.Card:
        """The cheapest card to give up: a side card before a trump, low before high, short suit first."""
        power, suit, lengths = self.power, self.suit, self.lengths
        return self.pick(cards, lambda c: (power[c.index], lengths[suit[c.index]]))

    def highest(self, cards: list[st.Card] | tuple[st.Card, ...]) -> st.Card:
        power = self.power
        return self.pick(cards, lambda c: -power[c.index])

    def is_master(self, card: st.Card) -> bool:
        """No card still out can beat it in its own suit."""
        return not self.higher[card.index] & self.out

    def safe(self, card: st.Card, led: int) -> bool:
        """Whether nobody still to play can beat ``card`` (assuming players follow suit unless shown out)."""
        n = len(self.cur)
        later = [(self.me + k) & 3 for k in range(1, 4 - n)]
        if not later:
            return True
        beaten_in_suit = self.higher[card.index] & self.out
        out_trumps = self.out & self.trump_mask
        if self.suit[card.index] == _SPADES:
            if led == _SPADES or not beaten_in_suit:
                return not beaten_in_suit
            return not any(self.voids[s] >> led & 1 for s in later)
        if beaten_in_suit:
            return False
        return not (out_trumps and any(self.voids[s] >> led & 1 for s in later))

    def highest_out(self, suit: int) -> st.Card | None:
        best: st.Card | None = None
        power = self.power
        out = self.out
        for c in _CARDS:
            if (
                out >> c.index & 1
                and self.suit[c.index] == suit
                and (best is None or power[c.index] > power[best.index])
            ):
                best = c
        return best

    # --- the decision ----------------------------------------------------------------

    def decide(self) -> Decision:
        if not self.cur:
            return self.lead()
        return self.follow()

    # leading

    def lead(self) -> Decision:
        legal, suit, power, v = self.legal, self.suit, self.power, self.v
        if self.my_nil:
            card = self.lowest(legal)
            return Decision(card, f"Lead {_words(card)}, {v.your} lowest card: {v.you} bid nil, so let the others win.")
        if self.partner_nil:
            card = self.highest(legal)
            return Decision(
                card,
                f"Lead {_words(card)}, {v.your} highest card: {v.partner} bid nil, so lead high for them to play under.",
            )
        if self.nil_opponents:
            setting = self.lead_against_nil()
            if setting is None and self.strong:
                setting = self.lead_low_against_nil()
            if setting is not None:
                return setting
        if self.made:
            card = self.lowest(legal)
            return Decision(
                card,
                f"Lead {_words(card)}, {v.your} lowest card: {v.made(self.contract)}, "
                "so give the lead away and avoid bags.",
            )
        trumps = [c for c in legal if suit[c.index] == _SPADES]
        side = [c for c in legal if suit[c.index] != _SPADES]
        out_trumps = (self.out & self.trump_mask).bit_count()
        if trumps:
            top = max(trumps, key=lambda c: power[c.index])
            if self.is_master(top) and out_trumps >= 2 and side:
                return Decision(  # trumps may be led with side cards in hand: spades are broken
                    top,
                    f"Lead {_words(top)}: spades are broken and it is the highest trump left, so it wins and pulls trumps "
                    f"from the others ({out_trumps} still out), clearing the way for {v.partners} side-suit winners.",
                )
        opponents = ((self.me + 1) & 3, (self.me + 3) & 3)
        voids = self.voids
        masters = [
            c
            for c in side
            if self.is_master(c) and not (out_trumps and any(voids[s] >> suit[c.index] & 1 for s in opponents))
        ]
        if masters:
            card = self.highest(masters)
            return Decision(
                card,
                f"Lead {_words(card)}: it is the highest {_suit_word(suit[card.index])} left, "
                f"so it should win a trick toward {v.teams} contract of {self.contract}.",
            )
        if side:
            lengths = self.lengths
            longest = max({suit[c.index] for c in side}, key=lambda s: lengths[s])
            card = self.lowest([c for c in side if suit[c.index] == longest])
            return Decision(
                card,
                f"Lead {_words(card)}, low from {v.your} longest suit ({_suit_word(longest, True)}): "
                f"it keeps {v.your} high cards to win later tricks.",
            )
        card = max(trumps, key=lambda c: power[c.index])
        if self.is_master(card):
            return Decision(
                card, f"Lead {_words(card)}: {v.you} hold{v.s} only trumps, and it is the highest one left."
            )
        card = self.lowest(trumps)
        return Decision(
            card,
            f"Lead {_words(card)}, {v.your} lowest trump: {v.you} hold{v.s} only trumps, and higher ones are still out.",
        )

    def lead_against_nil(self) -> Decision | None:
        """Lead low where an opponent's nil can still be forced to win: in a suit the nil bidder has
        not shown out of, the lowest card, choosing the one with the fewest cards still out below it
        (the fewest ways to play under it); never a card that nothing still out beats."""
        suit, power, lower, out = self.suit, self.power, self.lower, self.out
        voids = self.voids
        best: st.Card | None = None
        for s in range(4):
            held = [c for c in self.legal if suit[c.index] == s]
            if not held or all(voids[o] >> s & 1 for o in self.nil_opponents):
                continue
            card = min(held, key=lambda c: power[c.index])
            if self.is_master(card):
                continue
            if best is None or self.nil_lead_key(card) < self.nil_lead_key(best):
                best = card
        if best is None:
            return None
        s = suit[best.index]
        nil = next(o for o in self.nil_opponents if not voids[o] >> s & 1)
        below = (lower[best.index] & out).bit_count()
        under = (
            "no card still out is lower"
            if not below
            else f"only {below} card{' still out is' if below == 1 else 's still out are'} lower"
        )
        return Decision(
            best,
            f"Lead {_words(best)}, low in {_suit_word(s, True)}: {_SEATS[nil]} bid nil and has not shown out of "
            f"{_suit_word(s, True)}, and {under}, so their card may be left winning the trick and set the nil.",
        )

    def lead_low_against_nil(self) -> Decision | None:
        """No lead can force the nil now: lead the lowest card of a suit the nil bidder still holds
        (not a winner to cash, nor a top trump), so the nil bidder throws as little as possible under it."""
        suit, voids = self.suit, self.voids
        held = [c for c in self.legal if not all(voids[o] >> suit[c.index] & 1 for o in self.nil_opponents)]
        if not held:
            return None
        card = self.lowest(held)
        s = suit[card.index]
        nil = next(o for o in self.nil_opponents if not voids[o] >> s & 1)
        return Decision(
            card,
            f"Lead {_words(card)}, low: {_SEATS[nil]} bid nil, and a high card led now would only let them "
            f"throw their own high {_suit_word(s, True)} under it; keep the high cards and the nil in danger.",
        )

    def nil_lead_key(self, card: st.Card) -> tuple[int, int, int]:
        """Fewest cards still out below it, then the lowest, then from the shorter suit."""
        i = card.index
        return ((self.lower[i] & self.out).bit_count(), self.power[i], self.lengths[self.suit[i]])

    # following

    def follow(self) -> Decision:
        cur, legal, v = self.cur, self.legal, self.v
        suit, power = self.suit, self.power
        led = suit[cur[0].index]
        w = 0
        wp = power[cur[0].index]
        for i in range(1, len(cur)):
            x = cur[i].index
            p = power[x]
            if p > wp and (p > 100 or suit[x] == led):  # a trump, or higher in the suit led
                w, wp = i, p
        winner_card = cur[w]
        winner = (self.leader + w) & 3
        beaters: list[st.Card] = []
        under: list[st.Card] = []
        for c in legal:
            p = power[c.index]
            (beaters if p > wp and (p > 100 or suit[c.index] == led) else under).append(c)
        following = suit[legal[0].index] == led
        last = len(cur) == 3
        wbare = _bare(winner_card)
        wthe = f"the {wbare}"
        led_word, led_plural = _suit_word(led), _suit_word(led, True)

        if self.my_nil:
            if under:
                card = self.highest(under)
                if following:
                    return Decision(
                        card,
                        f"Play {_words(card)}, {v.your} highest {led_word} below {wthe}: {v.you} bid nil, "
                        f"so stay under the winning card and keep {v.your} low ones for later.",
                    )
                return Decision(
                    card,
                    f"Discard {_words(card)}: {v.you} bid nil and ha{v.ve} no {led_plural}, "
                    f"so throw away {v.your} most dangerous card that stays under {wthe}.",
                )
            if last:
                card = self.highest(beaters)
                why = f"{v.you} must take this trick, so get rid of {v.your} highest card"
            else:
                card = self.lowest(beaters)
                why = f"every card {v.you} may play beats the winning card, so play low and hope a later card goes over"
            return Decision(card, f"Play {_words(card)}: {v.you} bid nil, but {why}.")

        partner_played = (self.partner - self.leader) & 3 < len(cur)
        if self.partner_nil:
            if partner_played and winner == self.partner:
                if beaters:
                    card = self.lowest(beaters)
                    return Decision(
                        card,
                        f"Play {_words(card)} to cover {v.partners} nil: it is {v.your} lowest card "
                        f"that beats their {wbare}.",
                    )
                card = self.lowest(legal)
                return Decision(
                    card,
                    f"Play {_words(card)}: {v.partner} bid nil and is winning with {wthe}, "
                    f"but {v.you} ha{v.ve} nothing that beats it.",
                )
            if not partner_played and beaters:
                card = self.highest(beaters)
                return Decision(
                    card,
                    f"Play {_words(card)}, {v.your} highest winning card: {v.partner} bid nil and plays after "
                    f"{v.you}, so take the trick high for them to play under.",
                )

        if self.nil_opponents:
            setting = self.follow_against_nil(winner, winner_card, under, following, led)
            if setting is not None:
                return setting

        if self.made:
            if under:
                card = self.highest(under)
                how = f"Play {_words(card)} under {wthe}" if following else f"Discard {_words(card)}"
                return Decision(
                    card,
                    f"{how}: {v.made(self.contract)}, "
                    "so stay out of the trick to avoid bags and get rid of a high card.",
                )
            if last:
                card = self.highest(beaters)
                why = f"{v.you} must take this trick, so get rid of {v.your} highest card"
            else:
                card = self.lowest(beaters)
                why = f"every card {v.you} may play beats the winning card, so play low and let a later card go over"
            made = v.made(self.contract).rsplit(" of ", 1)[0]
            return Decision(card, f"Play {_words(card)}: {made}, but {why}.")

        if winner == self.partner:
            if last or self.safe(winner_card, led):
                card = self.lowest(legal)
                how = f"Play {_words(card)}, {v.your} lowest {led_word}" if following else f"Discard {_words(card)}"
                sure = "" if last else ", and nothing still out can beat it"
                return Decision(card, f"{how}: {v.partners} {wbare} is already winning the trick{sure}.")
            safe = [c for c in beaters if self.safe(c, led)]
            if safe:
                card = self.lowest(safe)
                return Decision(
                    card,
                    f"Play {_words(card)} over {v.partners} {wbare}: their card could still be beaten, "
                    f"and {_words(card)} holds the trick.",
                )
            card = self.lowest(legal)
            return Decision(
                card,
                f"Play {_words(card)} low: {v.partners} {wbare} is winning, "
                f"and {v.you} ha{v.ve} no card that would make the trick safer.",
            )

        if not beaters:
            card = self.lowest(legal)
            if following:
                return Decision(card, f"Lowest {led_word}: {v.you} must follow suit and cannot beat {wthe}.")
            return Decision(
                card,
                f"Discard {_words(card)}, {v.your} cheapest card: {v.you} ha{v.ve} no {led_plural} "
                f"and cannot beat {wthe}.",
            )
        trumping = not following and led != _SPADES
        cheapest = self.lowest(beaters)
        if last:
            if trumping:
                return Decision(
                    cheapest,
                    f"Trump with {_words(cheapest)}: {v.you} ha{v.ve} no {led_plural}, "
                    f"and it is {v.your} lowest trump that beats {wthe}.",
                )
            return Decision(
                cheapest,
                f"{_cap(_words(cheapest))} wins cheaply: it is {v.your} lowest card that beats {wthe}, "
                f"and {v.you} play{v.s} last.",
            )
        safe = [c for c in beaters if self.safe(c, led)]
        if safe:
            card = self.lowest(safe)
            if trumping:
                return Decision(
                    card,
                    f"Trump with {_words(card)}: {v.you} ha{v.ve} no {led_plural}, and it is {v.your} lowest trump "
                    f"that beats {wthe} and should hold the trick.",
                )
            if card is cheapest:
                return Decision(
                    card,
                    f"{_cap(_words(card))} wins cheaply: it is {v.your} lowest card that beats {wthe}, "
                    "and nothing still out should beat it.",
                )
            return Decision(
                card,
                f"{_cap(_words(card))} takes the trick: nothing still out should beat it, "
                f"while {_words(cheapest)} could be overtaken.",
            )
        if trumping:
            return Decision(
                cheapest,
                f"Trump with {_words(cheapest)}: {v.you} ha{v.ve} no {led_plural}, "
                f"and it is {v.your} lowest trump that beats {wthe}.",
            )
        if len(cur) == 2:  # third to play: only one opponent still to come
            card = self.highest(beaters)
            return Decision(
                card,
                f"Play {_words(card)}, {v.your} highest {led_word}: it beats {wthe}, "
                f"and only one opponent plays after {v.you}.",
            )
        card = self.lowest(legal)
        best = self.highest(beaters)
        danger = self.highest_out(led)
        if danger is not None and self.pw(danger, led) > self.pw(best, led):
            still = f"the {_bare(danger)} is still out"
        else:
            still = f"a player who is out of {led_plural} may trump"
        return Decision(
            card,
            f"Play {_words(card)} low, second to play: {still}, so save {v.your} higher {led_plural} "
            f"and let {v.partner} try.",
        )

    def follow_against_nil(
        self, winner: int, winner_card: st.Card, under: list[st.Card], following: bool, led: int
    ) -> Decision | None:
        """Play to set an opponent's nil: low when the nil bidder plays after (unless they have shown
        out of the suit led), under the nil bidder's card when it is winning."""
        v = self.v
        later = [(self.me + k) & 3 for k in range(1, 4 - len(self.cur))]
        for nil in self.nil_opponents:
            if nil in later and not self.voids[nil] >> led & 1:
                card = self.lowest(self.legal)
                how = f"Play {_words(card)} low" if following else f"Discard {_words(card)}"
                return Decision(
                    card,
                    f"{how}: {_SEATS[nil]} bid nil and plays after {v.you}, so keep the trick low "
                    "for their card to win it and set the nil.",
                )
        if winner in self.nil_opponents and under:
            card = self.highest(under)
            how = f"Play {_words(card)} under" if following else f"Discard {_words(card)} under"
            return Decision(
                card,
                f"{how} {_SEATS[winner]}'s {_bare(winner_card)}: {_SEATS[winner]} bid nil and is winning the trick, "
                "so let them take it and set the nil.",
            )
        if not self.strong or any(nil in later for nil in self.nil_opponents) or winner in self.nil_opponents:
            return None
        before = [(self.leader + k) & 3 for k in range(len(self.cur))]
        played = next((nil for nil in self.nil_opponents if nil in before), None)
        if played is None:
            return None
        # the nil bidder has played under another card: this trick cannot set the nil, so throw the
        # highest card and keep the low ones to stay under the nil bidder's high cards later
        if following:
            card = self.highest(self.legal)
            how = f"Play {_words(card)}, {v.your} highest {_suit_word(led)}"
        else:
            side = [c for c in self.legal if self.suit[c.index] != _SPADES]
            card = self.highest(side) if side else self.lowest(self.legal)
            how = f"Discard {_words(card)}" if side else f"Play {_words(card)}, {v.your} lowest trump"
        return Decision(
            card,
            f"{how}: {_SEATS[played]} bid nil and has played under the {_bare(winner_card)}, so this trick cannot set the nil; keep {v.your} low cards to play under their high ones later.",
        )
