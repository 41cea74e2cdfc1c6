"""Hand odds: one hand played many times against random unseen cards by the heuristic bots.

What is pinned: the proven facts the measurement must agree with in every preset (the top
trump always wins a trick, so that hand never makes nil; the seat never takes fewer than its
sure tricks), the bookkeeping (counts add up to the deals, points are the engine's score of
the outcomes seen), reproducibility by seed, the seat's bid (nil when asked, never nil
otherwise), the batched play against the scalar bots deal by deal, and the hand's validation.
"""

from __future__ import annotations

import dataclasses
import random
import re
import subprocess
import sys

import pytest

import spades_tutor as st
from spades_tutor.bots import HeuristicBot, play_out
from spades_tutor.bots.base import Decision
from spades_tutor.lab.odds import SeatBidsPolicy, _deal_table, hands_odds
from spades_tutor.lab.table import play_out as batched_play_out
from spades_tutor.lab.words import round_words

PRESETS = st.Rules.preset_names()
DEALS = 200


def low_side_cards(rules: st.Rules, count: int, avoid: tuple[st.Card, ...] = ()) -> list[st.Card]:
    """The ``count`` lowest non-trump cards of the deck (two to nine first), for filling a hand."""
    side = [c for c in rules.deck() if not rules.is_trump(c) and c not in avoid]
    return sorted(side, key=lambda c: (c.rank, c.suit))[:count]


def hand_with(rules: st.Rules, trumps: list[st.Card]) -> tuple[st.Card, ...]:
    return (*trumps, *low_side_cards(rules, 13 - len(trumps), tuple(trumps)))


def right_of(seat: st.Seat) -> st.Seat:
    return next(s for s in st.Seat if s.left == seat)


# --- proven facts the measurement must agree with -----------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_the_top_trump_never_makes_nil(preset: str) -> None:
    rules = st.Rules.preset(preset)
    hand = hand_with(rules, [rules.trump_order()[0]])
    odds = st.hand_odds(rules, hand, seat=st.Seat.EAST, deals=DEALS, seed=3, nil=True)
    assert odds.p_nil_made == 0.0
    assert odds.seat_tricks[0] == 0
    assert odds.p_nil_made_interval is not None and odds.p_nil_made_interval[0] == 0.0
    assert set(odds.points) == {0} and odds.points[0] < 0  # a failed nil every time


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("nil", [False, True])
def test_the_seat_always_takes_its_sure_tricks(preset: str, nil: bool) -> None:
    rules = st.Rules.preset(preset)
    order = rules.trump_order()
    for trumps in ([order[0], order[1], order[3]], [order[1], order[2], order[3], order[4]]):
        hand = hand_with(rules, trumps)
        sure = st.sure_trick_count(rules, hand)
        assert sure >= 2  # the check below has something to bite on
        odds = st.hand_odds(rules, hand, deals=DEALS, seed=5, nil=nil)
        assert odds.chance_at_least(sure) == 1.0
        assert sum(odds.seat_tricks[:sure]) == 0


def test_a_hand_of_every_top_trump_takes_every_trick() -> None:
    rules = st.Rules.preset("jokers")
    odds = st.hand_odds(rules, rules.trump_order()[:13], deals=DEALS, seed=1)
    assert odds.seat_tricks[13] == DEALS and odds.team_tricks[13] == DEALS
    assert all(took == 13 and partner_took == 0 for took, _, _, partner_took, _ in odds.outcomes)


def test_a_weak_hand_playing_nil_makes_it_more_often_than_it_takes_no_trick_playing_for_tricks() -> None:
    # the seat ducks when it plays nil and tries to win when it bids a number: with K♥ Q♣ J♦ it
    # takes no trick in 43% of 200 deals playing for tricks, 86% playing nil. (A hand of only low
    # cards takes no trick either way, and once the opponents play to set a nil, a nil with it
    # fails a little more often than the same hand bidding a number takes a trick.)
    rules = st.Rules.preset("jokers")
    hand = st.cards("10S 4H 5H 6H KH 3C 4C 5C QC 3D 4D 5D JD")
    nil = st.hand_odds(rules, hand, deals=DEALS, seed=2, nil=True)
    tricks = st.hand_odds(rules, hand, deals=DEALS, seed=2)
    assert nil.p_zero > tricks.p_zero
    assert nil.mean_tricks < tricks.mean_tricks


# --- bookkeeping -------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_counts_add_up_to_the_deals(preset: str) -> None:
    rules = st.Rules.preset(preset)
    hand = st.deal_hands(rules, seed=11)[1][st.Seat.NORTH]
    odds = st.hand_odds(rules, hand, seat=st.Seat.NORTH, deals=DEALS, seed=4)
    assert sum(odds.seat_tricks) == sum(odds.team_tricks) == sum(odds.bids) == DEALS
    assert sum(k for *_, k in odds.outcomes) == DEALS
    assert len(odds.seat_tricks) == len(odds.team_tricks) == 14
    assert odds.bids[0] == 0  # playing for tricks, the seat never bids nil
    assert odds.mean_team_tricks >= odds.mean_tricks
    for took, _, _, partner_took, _ in odds.outcomes:
        assert 0 <= took + partner_took <= 13
    low, high = odds.mean_tricks_interval
    assert low <= odds.mean_tricks <= high


HOUSE_RULES = [
    ("jokers", {}, False),
    ("jokers", {}, True),
    ("classic", {"failed_nil_tricks": "partner", "bag_limit": 3}, False),
    ("bicycle", {"failed_nil_tricks": "none"}, True),
]


@pytest.mark.parametrize(("preset", "house", "nil"), HOUSE_RULES)
def test_points_are_the_engines_score_of_the_outcomes_seen(preset: str, house: dict[str, object], nil: bool) -> None:
    rules = dataclasses.replace(st.Rules.preset(preset), **house)
    hand = [c for c in st.cards("LJ KS 10S 4S AH 9H 6H KC 7C 3C QD 8D 4D 3H") if rules.in_deck(c)][:13]
    seat = st.Seat.WEST
    odds = st.hand_odds(rules, hand, seat=seat, deals=DEALS, seed=9, nil=nil)
    assert set(odds.points) == ({0} if nil else set(range(1, 14)))
    if nil:  # the partner bid nil first in some deals: both partners' nils are scored too
        assert any(p_bid == 0 for _, p_bid, _, _, _ in odds.outcomes)
    for bid in odds.points:
        total = 0
        for took, p_bid, p_blind, p_took, deals in odds.outcomes:
            partner_bid = st.BLIND_NIL if p_blind else p_bid
            left, right = seat.left, seat.left.partner
            bids = {seat: bid, seat.partner: partner_bid, left: 4, right: 2}
            tricks = {seat: took, seat.partner: p_took, left: 0, right: 13 - took - p_took}
            total += deals * st.score_hand(rules, bids, tricks)[seat.team].points
        assert odds.points[bid] == pytest.approx(total / DEALS)
    assert odds.best_points == max(odds.points.values())
    low, high = odds.best_points_interval
    assert low < odds.best_points < high


def _least_south_bid(rules: st.Rules, dealer: st.Seat, north_bid: int) -> int:
    """The least number bid the engine lets South make once North has bid ``north_bid`` (if North bids first)."""
    rnd = st.Round.deal(rules, seed=0, dealer=dealer)
    while rnd.to_act is not st.Seat.SOUTH:
        rnd.bid(north_bid if rnd.to_act is st.Seat.NORTH else 3)
    return min(b.tricks for b in rnd.legal_bids() if not b.is_nil)


@pytest.mark.parametrize(("dealer", "after"), [(st.Seat.WEST, True), (st.Seat.SOUTH, True), (st.Seat.EAST, False)])
def test_a_bid_under_the_least_team_bid_counts_as_the_least_bid_the_engine_takes(dealer: st.Seat, after: bool) -> None:
    """At a table where a team bids at least 6 together, South bidding after North (dealer West or South)
    cannot bid under what brings the team to 6: the engine refuses it, so a number bid under it is scored
    as the least bid the engine takes in that deal. South bidding first (dealer East) bids freely."""
    rules = st.Rules.preset("jokers", min_team_bid=6)
    hand = st.cards("LJ KS 10S 4S AH 9H 6H KC 7C 3C QD 8D 4D")
    odds = st.hand_odds(rules, hand, seat=st.Seat.SOUTH, deals=DEALS, seed=9, dealer=dealer)
    least_after = {p: _least_south_bid(rules, dealer, p) for _, p, _, _, _ in odds.outcomes if p}
    for bid in odds.points:
        total = 0
        for took, p_bid, p_blind, p_took, deals in odds.outcomes:
            partner_bid = st.BLIND_NIL if p_blind else p_bid
            least = least_after[p_bid] if p_bid else 1
            bids = {st.Seat.SOUTH: max(bid, least), st.Seat.NORTH: partner_bid, st.Seat.WEST: 4, st.Seat.EAST: 2}
            tricks = {st.Seat.SOUTH: took, st.Seat.NORTH: p_took, st.Seat.WEST: 0, st.Seat.EAST: 13 - took - p_took}
            total += deals * st.score_hand(rules, bids, tricks)[st.Seat.SOUTH.team].points
        assert odds.points[bid] == pytest.approx(total / DEALS), bid
    # where South bids after North, North bid a number under 6 in some deals: South's low bids were raised
    assert any(least > 1 for least in least_after.values()) == after
    # the plot's reading says how a bid under the least counts, at this table only
    from spades_tutor.lab.bid_plot import bid_reading

    assert "at least 6 together" in bid_reading(odds, (odds.best_bid,))
    free = st.hand_odds(dataclasses.replace(rules, min_team_bid=0), hand, deals=DEALS, seed=9, dealer=dealer)
    assert "at least" not in bid_reading(free, (free.best_bid,))


def test_the_seat_bids_what_the_bot_would_bid_were_nil_not_allowed() -> None:
    # a hand the bot bids nil with; the seat bids first (dealer on its right), so no partner's bid caps it
    rules = st.Rules.preset("jokers")
    hand = st.cards("9S 4H 5H 6H 8H 3C 4C 5C 6C 3D 4D 5D 8D")
    seat = st.Seat.SOUTH
    others = [c for c in rules.deck() if c not in hand]
    hands = {seat: hand, **{s: others[i::3] for i, s in enumerate(s for s in st.Seat if s != seat)}}
    dealer = right_of(seat)
    with_nil = st.Round.from_hands(rules, hands, dealer=dealer)
    assert HeuristicBot().bid(with_nil.view(seat)).action == st.NIL
    without = st.Round.from_hands(dataclasses.replace(rules, nil=False), hands, dealer=dealer)
    number = HeuristicBot().bid(without.view(seat)).action
    odds = st.hand_odds(rules, hand, seat=seat, deals=DEALS, seed=6, dealer=dealer)
    assert odds.bids[number.tricks] == DEALS


# --- reproducibility -----------------------------------------------------------------------------


def test_same_seed_same_result_and_another_seed_another() -> None:
    rules = st.Rules.preset("classic")
    hand = st.cards("AS QS 8S 3S KH 10H 4H AC 9C 2C JD 7D 5D")
    a = st.hand_odds(rules, hand, deals=DEALS, seed=12)
    b = st.hand_odds(rules, hand, deals=DEALS, seed=12)
    c = st.hand_odds(rules, hand, deals=DEALS, seed=13)
    assert a == b and a.points == b.points and a.points_interval == b.points_interval
    assert (a.seat_tricks, a.team_tricks, a.outcomes) != (c.seat_tricks, c.team_tricks, c.outcomes)
    assert a.seed == 12 and a.deals == DEALS


def test_a_deal_does_not_depend_on_the_batch_size() -> None:
    rules = st.Rules.preset("jokers")
    hand = st.cards("BJ AS 7S 3S KH 10H 4H AC 9C 3C JD 7D 5D")
    whole = st.hand_odds(rules, hand, deals=DEALS, seed=8)
    assert st.hand_odds(rules, hand, deals=DEALS, seed=8, batch_size=64) == whole
    first = st.hand_odds(rules, hand, deals=64, seed=8)
    assert all(x <= y for x, y in zip(first.seat_tricks, whole.seat_tricks, strict=True))


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("nil", [False, True])
def test_hands_played_together_are_each_played_as_alone(preset: str, nil: bool) -> None:
    """``hands_odds`` is ``hand_odds`` for every hand, whichever hands share the batch: a bot's bid is
    asked per hand and partner's bid, never taken from another hand's deals."""
    rules = st.Rules.preset(preset)
    if nil and not rules.nil:
        pytest.skip("this rule set plays without nil")
    deck = list(rules.deck())
    hands = [tuple(random.Random(f"{preset}/{k}").sample(deck, 13)) for k in range(5)]
    for dealer, batch in ((None, DEALS), (st.Seat.WEST, 64)):
        together = hands_odds(rules, hands, deals=DEALS, seed=5, nil=nil, dealer=dealer, batch_size=batch)
        alone = [
            st.hand_odds(rules, hand, deals=DEALS, seed=5, nil=nil, dealer=dealer, batch_size=batch) for hand in hands
        ]
        assert list(together) == alone
        assert (
            hands_odds(rules, hands[::-1], deals=DEALS, seed=5, nil=nil, dealer=dealer, batch_size=batch)
            == (together[::-1])
        )
    assert hands_odds(rules, [], deals=DEALS) == ()


# --- the batched play is the bots' play ----------------------------------------------------------


class _NilBidder:
    """The heuristic bot, except that it bids nil."""

    def __init__(self, bot: HeuristicBot) -> None:
        self.bot = bot

    def bid(self, view: st.SeatView) -> Decision:
        return Decision(st.NIL, "nil, as asked")

    def play(self, view: st.SeatView) -> Decision:
        return self.bot.play(view)


@pytest.mark.parametrize("preset", ["jokers", "classic"])
@pytest.mark.parametrize("nil", [False, True])
def test_each_deal_is_played_as_the_scalar_bots_play_it(preset: str, nil: bool) -> None:
    rules = st.Rules.preset(preset)
    aces = [c for c in rules.deck() if not rules.is_trump(c) and c.rank == st.Rank.ACE][:2]
    hand = hand_with(rules, [*rules.trump_order()[1:4], *aces])
    seat = st.Seat.EAST
    table = _deal_table(rules, st.cards(hand), int(seat), round_words(21, 0, 12), None)
    batched_play_out(table, SeatBidsPolicy(int(seat), nil))
    cards = st.full_pack()
    for d in range(12):
        hands = {s: [cards[i] for i in range(54) if int(table.dealt_cards[d, s]) >> i & 1] for s in st.Seat}
        assert set(hands[seat]) == set(hand)
        rnd = st.Round.from_hands(rules, hands, dealer=st.Seat(int(table.dealer[d])))
        bot = HeuristicBot()
        bots = {s: bot for s in st.Seat}
        if nil:
            bots[seat] = _NilBidder(bot)  # type: ignore[assignment]
        rnd = play_out(rnd, bots)
        assert [int(rnd.bids[s].tricks) for s in st.Seat] == table.bids[d].tolist()
        assert [rnd.tricks_won[s] for s in st.Seat] == table.taken[d].tolist()


# --- words and validation ------------------------------------------------------------------------


def test_the_sentence_gives_the_share_the_deals_and_the_interval() -> None:
    rules = st.Rules.preset("jokers")
    odds = st.hand_odds(rules, "9S 4H 5H 6H 8H 3C 4C 5C 6C 3D 4D 5D 8D", deals=DEALS, seed=2, nil=True)
    low, high = odds.p_zero_interval
    expected = (
        f"nil made in about {round(100 * odds.p_zero)}% of the deals of this hand "
        f"(likely between {round(100 * low)}% and {round(100 * high)}%)"
    )
    assert odds.sentence() == expected == str(odds)
    assert re.fullmatch(r"nil made in about \d+% of the deals of this hand \(likely between \d+% and \d+%\)", expected)
    assert low <= odds.p_zero <= high
    number = st.hand_odds(rules, odds.hand, deals=DEALS, seed=2)
    assert f"best bid {number.best_bid}" in number.sentence() and "over the deals of this hand" in number.sentence()
    # how many deals is said behind "How was this measured?", not in the sentence
    assert "200" not in number.sentence() and "200" not in odds.sentence()


@pytest.mark.parametrize("preset", PRESETS)
def test_a_hand_that_is_not_one_raises_a_clear_value_error(preset: str) -> None:
    rules = st.Rules.preset(preset)
    hand = list(hand_with(rules, [rules.trump_order()[0]]))
    stray = next(c for c in st.full_pack() if not rules.in_deck(c))
    with pytest.raises(ValueError, match="it has 12 cards, not 13"):
        st.hand_odds(rules, hand[:12], deals=10)
    with pytest.raises(ValueError, match="it has 14 cards, not 13"):
        st.hand_odds(rules, [*hand, next(c for c in rules.deck() if c not in hand)], deals=10)
    with pytest.raises(ValueError, match=f"{re.escape(str(stray))} is not in the {rules.name} deck"):
        st.hand_odds(rules, [*hand[:12], stray], deals=10)
    with pytest.raises(ValueError, match=f"{re.escape(str(hand[0]))} is in it twice"):
        st.hand_odds(rules, [*hand[:12], hand[0]], deals=10)


def test_deals_seed_and_nil_are_checked() -> None:
    rules = st.Rules.preset("jokers")
    hand = hand_with(rules, [rules.trump_order()[0]])
    with pytest.raises(ValueError, match="deals must be a whole number 1 or more"):
        st.hand_odds(rules, hand, deals=0)
    with pytest.raises(ValueError, match="seed must be a whole number 0 or more"):
        st.hand_odds(rules, hand, seed=-1)
    with pytest.raises(ValueError, match="does not allow nil"):
        st.hand_odds(dataclasses.replace(rules, nil=False), hand, nil=True)
    with pytest.raises(ValueError, match="batch_size must be a whole number 1 or more"):
        st.hand_odds(rules, hand, batch_size=0)
    with pytest.raises(ValueError, match="not a seat"):
        st.hand_odds(rules, hand, seat="Q")


def test_importing_the_package_does_not_import_numpy_until_hand_odds_is_asked_for() -> None:
    code = (
        "import sys, spades_tutor as st\n"
        "assert 'numpy' not in sys.modules\n"
        "assert callable(st.hand_odds) and 'numpy' in sys.modules\n"
        "assert 'hand_odds' in dir(st)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
