"""The heuristic bidder: nil when the engine calls it safe, else the sure and likely tricks, rounded.

The partner's bid counts too: no nil beside a partner's nil, and no team contract over 13.

The rules of thumb live in the engine (``sure_trick_count``, ``nil_advice``,
``likely_tricks``), so a lesson, a quiz and this bot give the same reasons.

>>> import spades_tutor as st
>>> rnd = st.Round.from_hands(st.Rules.preset("jokers"), {
...     st.Seat.NORTH: "BJ 9S 4S KH 7H AC 8C 6C QD 9D 5D 3D 2C",
...     st.Seat.EAST: "LJ AS KS QS JS AH QH JH 10H 9H 8H KC QC",
...     st.Seat.SOUTH: "10S 8S 7S 6S 5S 6H 5H 4H 3H JC 10C 9C 7C",
...     st.Seat.WEST: "3S 2S 5C 4C 3C AD KD JD 10D 8D 7D 6D 4D"}, dealer=st.Seat.WEST)
>>> print(heuristic_bid(rnd.view(st.Seat.NORTH)).reason)
Bid 3: the big joker and A♣ should each win a trick, and K♥ and Q♦ add part of a trick each (2.59 in all).
"""

from __future__ import annotations

from collections.abc import Iterable

import spades_tutor.engine as st
from spades_tutor.engine.hand_eval import likely_tricks

from .base import Decision, Voice, card_words

__all__ = ["NIL_BELOW", "ROUND_UP_FROM", "heuristic_bid", "heuristic_bid_number"]

#: the fraction at which the estimate is rounded up. The estimate counts high cards only and the odd
#: low card wins a trick too (about 0.6 a hand in self-play), but a set costs more than a bag:
#: 0.3 gave the best score per hand net of bags over 1,500 self-play rounds in jokers and classic
ROUND_UP_FROM = 0.3
#: nil is considered only for a hand worth less than this many tricks (and then only if safe)
NIL_BELOW = 2.0


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def heuristic_bid_number(rules: st.Rules, hand: Iterable[st.Card], partner: st.Bid | None) -> int:
    """The number ``heuristic_bid`` bids with ``hand`` (0 for nil), ``partner`` the partner's bid if made.

    >>> rules = st.Rules.preset("jokers")
    >>> hand = st.cards("BJ 9S 4S KH 7H AC 8C 6C QD 9D 5D 3D 2C")
    >>> heuristic_bid_number(rules, hand, None), heuristic_bid_number(rules, hand, st.Bid(12))
    (3, 1)
    """
    hand = list(hand)
    total = sum(t.value for t in likely_tricks(rules, hand))
    if rules.nil and total < NIL_BELOW and (partner is None or not partner.is_nil) and st.nil_advice(rules, hand).safe:
        return 0
    bid = _rounded(total)
    if partner is not None and not partner.is_nil and partner.tricks + bid > 13:
        bid = max(1, 13 - partner.tricks)
    return bid


def _rounded(total: float) -> int:
    """The estimate of tricks as a bid, before the partner's bid caps it."""
    return max(1, min(13, int(total + 1 - ROUND_UP_FROM)))


def heuristic_bid(view: st.SeatView, *, speak_of_seat: bool = False) -> Decision:
    """Bid for ``view.seat``: nil with a safe hand, else sure plus likely tricks (at least 1).

    The reason speaks to the player ("your partner"), or with ``speak_of_seat`` of the seat's partner by name.
    """
    rules, hand = view.rules, view.hand
    v = Voice.of(view.seat if speak_of_seat else None)
    partner = view.bids.get(view.seat.partner)
    items = likely_tricks(rules, hand)
    total = sum(t.value for t in items)
    note = ""
    if rules.nil and total < NIL_BELOW:
        advice = st.nil_advice(rules, hand)
        if advice.safe and (partner is None or not partner.is_nil):
            return Decision(st.NIL, advice.reasons[0])
        if advice.safe:
            note = f"; nil looks safe, but {v.partner} already bid nil and the team needs tricks"
    bid = heuristic_bid_number(rules, hand, partner)
    if partner is not None and not partner.is_nil and partner.tricks + _rounded(total) > 13:
        note += f"; capped so the team contract is at most 13 ({v.partner} bid {partner.tricks})"
    need = rules.min_team_bid
    if need and partner is not None and not partner.is_nil and partner.tricks + bid < need:
        note += f"; raised to {need - partner.tricks}, as the team bids at least {need} together"
        bid = need - partner.tricks
    whole = [card_words(t.card) for t in items if t.value >= 0.85]
    part = [card_words(t.card) for t in items if t.value < 0.85]
    parts = []
    if whole:
        parts.append(f"{_and(whole)} should {'each ' if len(whole) > 1 else ''}win a trick")
    if part:
        parts.append(f"{_and(part)} {'adds part of a trick' if len(part) == 1 else 'add part of a trick each'}")
    if parts:
        why = f"{', and '.join(parts)} ({round(total, 2):g} in all)"
    else:
        why = "no card here is likely to win a trick, but a bid is at least 1"
    return Decision(st.Bid(bid), f"Bid {bid}: {why}{note}.")
