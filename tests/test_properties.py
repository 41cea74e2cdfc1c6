"""Property tests: random rounds and games in every preset and house-rule combination.

A drawn ``Setup`` (rule set, deal seed, dealer, scores and bags before the hand,
and the seed of a random policy) plays whole rounds through the public API only,
and the invariants below are checked at every step. The oracles for the legal
set, the trick winner, the score and the game winner are written here from the
rule text (``reference/joker-spades-rules.txt`` and ``house-rules.md``), not
borrowed from the engine.

Every example prints as Python that rebuilds it (see ``Setup.__repr__``), so a
failure reproduces from the report alone.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from property_examples import examples

import spades_tutor as st

SPADES = st.Suit.SPADES
TWO_OF_CLUBS = st.Card.parse("2C")
PRESETS = st.Rules.preset_names()
SEATS = tuple(st.Seat)
TEAMS = tuple(st.Team)
ALL_CARDS = st.full_pack()  # all 54, so cards outside a rule set's deck are tried too

BLIND_NIL_CHOICES = ("off", "behind-100", "always")
FIRST_LEAD_CHOICES = ("left-of-dealer", "two-of-clubs")
FAILED_NIL_CHOICES = ("bags", "partner", "none")
MERCY_CHOICES = (None, -200)


# --- the flag space ------------------------------------------------------------------------


def playable_flags(preset: str) -> Iterator[dict[str, Any]]:
    """Every house-rule combination the constructor accepts for ``preset``.

    ``two-of-clubs`` needs the 2♣ in the deck. Blind nil is independent of nil
    (house-rules.md), so a no-nil table may still allow blind nil.
    """
    has_two_of_clubs = TWO_OF_CLUBS in st.Rules.preset(preset).deck()
    for nil in (False, True):
        for blind_nil in BLIND_NIL_CHOICES:
            for first_lead in FIRST_LEAD_CHOICES if has_two_of_clubs else ("left-of-dealer",):
                for failed in FAILED_NIL_CHOICES:
                    for mercy in MERCY_CHOICES:
                        yield {
                            "nil": nil,
                            "blind_nil": blind_nil,
                            "first_lead": first_lead,
                            "failed_nil_tricks": failed,
                            "mercy": mercy,
                        }


RULE_SETS: dict[str, list[st.Rules]] = {p: [st.Rules.preset(p, **f) for f in playable_flags(p)] for p in PRESETS}
ALL_RULE_SETS: list[st.Rules] = [r for p in PRESETS for r in RULE_SETS[p]]


def rules_id(rules: st.Rules) -> str:
    return "-".join(
        [
            rules.name,
            "nil" if rules.nil else "no_nil",
            f"blind_{rules.blind_nil}",
            rules.first_lead,
            f"failed_nil_{rules.failed_nil_tricks}",
            f"mercy_{rules.mercy}",
        ]
    )


def rules_code(rules: st.Rules) -> str:
    flags = ", ".join(f"{k}={v!r}" for k, v in rules.flags().items())
    return f"st.Rules.preset({rules.name!r}{', ' if flags else ''}{flags})"


# --- what a test draws ------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Setup:
    """One drawn round: the deal, the position before it, and the policy's seed."""

    rules: st.Rules
    seed: int
    dealer: st.Seat | None
    ns_score: int
    ew_score: int
    ns_bags: int
    ew_bags: int
    policy_seed: int

    @property
    def scores(self) -> dict[st.Team, int]:
        return {st.Team.NS: self.ns_score, st.Team.EW: self.ew_score}

    @property
    def bags(self) -> dict[st.Team, int]:
        return {st.Team.NS: self.ns_bags, st.Team.EW: self.ew_bags}

    def deal(self) -> st.Round:
        return st.Round.deal(self.rules, dealer=self.dealer, seed=self.seed, scores=self.scores, bags=self.bags)

    def __repr__(self) -> str:  # Python that rebuilds the example
        dealer = "None" if self.dealer is None else f"st.Seat.{self.dealer.name}"
        return (
            f"Setup(rules={rules_code(self.rules)}, seed={self.seed}, dealer={dealer}, "
            f"ns_score={self.ns_score}, ew_score={self.ew_score}, ns_bags={self.ns_bags}, "
            f"ew_bags={self.ew_bags}, policy_seed={self.policy_seed})"
        )

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:  # hypothesis prints examples with this
        p.text(repr(self))


@hst.composite
def setups(draw: hst.DrawFn, rule_sets: list[st.Rules]) -> Setup:
    rules = draw(hst.sampled_from(rule_sets))
    ns = draw(hst.integers(-400, 600))
    # the blind-nil boundary (exactly 100 behind) is drawn often, not left to luck
    gap = draw(hst.one_of(hst.sampled_from([-101, -100, -99, 0, 99, 100, 101]), hst.integers(-500, 500)))
    return Setup(
        rules=rules,
        seed=draw(hst.integers(0, 999_999)),
        dealer=draw(hst.none() | hst.sampled_from(SEATS)),
        ns_score=ns,
        ew_score=ns + gap,
        ns_bags=draw(hst.integers(0, rules.bag_limit - 1)),
        ew_bags=draw(hst.integers(0, rules.bag_limit - 1)),
        policy_seed=draw(hst.integers(0, 2**32 - 1)),
    )


# --- the random policy and the driver ---------------------------------------------------------


def choose_bid(rng: random.Random, legal: tuple[st.Bid, ...]) -> st.Bid:
    """Mostly small bids (so contracts are sometimes made), sometimes any legal bid."""
    if rng.random() < 0.7:
        return rng.choice([b for b in legal if b.tricks <= 4])
    return rng.choice(legal)


Check = Callable[[st.Round, Setup], None]


def play_round(setup: Setup, checks: tuple[Check, ...] = ()) -> st.Round:
    """Deal ``setup`` and play it out; every check runs before each action and once at the end."""
    rnd = setup.deal()
    rng = random.Random(setup.policy_seed)
    while True:
        for check in checks:
            check(rnd, setup)
        if rnd.is_over:
            return rnd
        seat = rnd.to_act if rng.random() < 0.2 else None  # the right seat named explicitly is fine
        if rnd.phase is st.Phase.BIDDING:
            rnd.bid(choose_bid(rng, rnd.legal_bids()), seat=seat)
        else:
            rnd.play(rng.choice(rnd.legal_plays()), seat=seat)


# --- oracles written from the rule text ------------------------------------------------------------


def counts_as(rules: st.Rules, card: st.Card) -> st.Suit:
    """A trump counts as a spade for every purpose; anything else is its own suit."""
    if card in rules.trump_order():
        return SPADES
    assert card.suit is not None
    return card.suit


def expected_legal(rules: st.Rules, rnd: st.Round) -> set[st.Card]:
    assert rnd.to_act is not None
    hand = set(rnd.hands[rnd.to_act])
    trick = rnd.trick.cards
    if trick:
        led = counts_as(rules, trick[0])
        follow = {c for c in hand if counts_as(rules, c) == led}
        return follow or hand
    if not rnd.tricks and rules.first_lead == "two-of-clubs" and TWO_OF_CLUBS in hand:
        return {TWO_OF_CLUBS}
    broken = any(counts_as(rules, c) == SPADES for t in rnd.tricks for c in t.cards)
    side = {c for c in hand if counts_as(rules, c) != SPADES}
    return hand if broken or not side else side


def expected_winner(rules: st.Rules, trick: st.Trick) -> st.Seat:
    """The highest trump if any, else the highest card of the suit led (ace high)."""
    order = rules.trump_order()
    played = trick.cards
    trumps = [i for i, c in enumerate(played) if c in order]
    if trumps:
        best = min(trumps, key=lambda i: order.index(played[i]))
    else:
        led = rules.suit_of(played[0])
        best = max((i for i, c in enumerate(played) if rules.suit_of(c) == led), key=lambda i: played[i].rank)
    return st.Seat((trick.leader + best) % 4)


def first_leader(rules: st.Rules, rnd: st.Round) -> st.Seat:
    if rules.first_lead == "two-of-clubs":
        return next(s for s in SEATS if TWO_OF_CLUBS in rnd.dealt[s])
    return rnd.dealer.left


def blind_nil_allowed(rules: st.Rules, setup: Setup, seat: st.Seat) -> bool:
    team = seat.team
    behind = setup.scores[team.other] - setup.scores[team]
    return rules.blind_nil == "always" or (rules.blind_nil == "behind-100" and behind >= rules.blind_nil_behind)


def expected_team_score(
    rules: st.Rules, team: st.Team, bids: dict[st.Seat, st.Bid], took: dict[st.Seat, int], bags_before: int
) -> tuple[int, int] | None:
    """(points, bags after) by the house rules; None where they are silent (both partners nil, ``partner``)."""
    points = 0
    new_bags = 0
    contract = counted = nil_tricks = 0
    bidders = 0
    for seat in team.seats:
        bid = bids[seat]
        if bid == st.NIL or bid == st.BLIND_NIL:
            value = rules.blind_nil_value if bid == st.BLIND_NIL else rules.nil_value
            points += value if took[seat] == 0 else -value
            nil_tricks += took[seat]
        else:
            bidders += 1
            contract += bid.tricks
            counted += took[seat]
    if rules.failed_nil_tricks == "partner":
        if not bidders and nil_tricks:
            return None
        counted += nil_tricks
    if bidders:
        if counted >= contract:
            points += rules.trick_points * contract + (counted - contract)
            new_bags += counted - contract
        else:
            points -= rules.trick_points * contract
    if rules.failed_nil_tricks == "bags":
        points += nil_tricks
        new_bags += nil_tricks
    total = bags_before + new_bags
    points -= rules.bag_penalty * (total // rules.bag_limit)
    return points, total % rules.bag_limit


def expected_game_winner(rules: st.Rules, scores: dict[st.Team, int]) -> st.Team | str | None:
    """The game winner by the house rules; ``'silent'`` where they do not say (both at or below mercy)."""
    ns, ew = scores[st.Team.NS], scores[st.Team.EW]
    over = [t for t in TEAMS if scores[t] >= rules.target]
    if len(over) == 2:
        return None if ns == ew else (st.Team.NS if ns > ew else st.Team.EW)
    if len(over) == 1:
        return over[0]
    if rules.mercy is not None:
        under = [t for t in TEAMS if scores[t] <= rules.mercy]
        if len(under) == 2:
            return "silent"
        if len(under) == 1:
            return under[0].other
    return None


# --- checks run at every step ----------------------------------------------------------------------


def check_every_card_in_one_place(rnd: st.Round, setup: Setup) -> None:
    rules = setup.rules
    hands = rnd.hands
    in_trick = rnd.trick.cards
    taken = [c for t in rnd.tricks for c in t.cards]
    everywhere = [c for s in SEATS for c in hands[s]] + list(in_trick) + taken
    twice = sorted(str(c) for c, n in Counter(everywhere).items() if n > 1)
    assert not twice, f"cards in two places: {twice}"
    assert len(everywhere) == 52
    assert set(everywhere) == set(rules.deck())
    assert all(len(t.cards) == 4 for t in rnd.tricks)
    assert len(rnd.tricks) <= 13 and len(in_trick) < 4
    # each seat still holds what it was dealt minus what it played
    dealt = rnd.dealt
    for seat in SEATS:
        played = [t.card_of(seat) for t in rnd.tricks]
        current = rnd.trick.card_of(seat)
        if current is not None:
            played.append(current)
        assert sorted([*hands[seat], *played]) == sorted(dealt[seat]), seat
    won = Counter(t.winner for t in rnd.tricks)
    assert rnd.tricks_won == {s: won[s] for s in SEATS}
    assert sum(rnd.tricks_won.values()) == len(rnd.tricks)
    if rnd.is_over:
        assert len(rnd.tricks) == 13 and not in_trick
        assert sum(rnd.tricks_won.values()) == 13
        assert all(len(hands[s]) == 0 for s in SEATS)


def check_turn_order_and_legal_set(rnd: st.Round, setup: Setup) -> None:
    rules = setup.rules
    if rnd.phase is st.Phase.BIDDING:
        assert list(rnd.bids) == [st.Seat((rnd.dealer + 1 + i) % 4) for i in range(len(rnd.bids))]
        assert rnd.to_act == st.Seat((rnd.dealer + 1 + len(rnd.bids)) % 4)
        assert rnd.legal_plays() == ()
        return
    if rnd.phase is st.Phase.DONE:
        assert rnd.to_act is None and rnd.legal_plays() == () and rnd.legal_bids() == ()
        return
    assert len(rnd.bids) == 4 and rnd.legal_bids() == ()
    leaders = [first_leader(rules, rnd)] + [t.winner for t in rnd.tricks]  # the winner leads next
    assert [t.leader for t in rnd.tricks] == leaders[: len(rnd.tricks)]
    assert rnd.trick.leader == leaders[len(rnd.tricks)]
    assert rnd.to_act == st.Seat((rnd.trick.leader + len(rnd.trick.cards)) % 4)
    legal = rnd.legal_plays()
    assert legal, "the legal set is empty while playing"
    assert len(set(legal)) == len(legal)
    assert set(legal) == expected_legal(rules, rnd)
    if not rnd.trick.cards:
        broken = any(rules.is_trump(c) for t in rnd.tricks for c in t.cards)
        assert rnd.spades_broken == broken


def check_history_is_legal(rnd: st.Round, setup: Setup) -> None:
    """Every recorded play was legal when made: replay the history against the oracle."""
    if not rnd.is_over:
        return
    rules = setup.rules
    shadow = setup.deal()
    for action in rnd.history:
        assert action.seat == shadow.to_act
        if action.kind == "play":
            assert action.value in expected_legal(rules, shadow)
            shadow.play(action.value)
        else:
            shadow.bid(action.value)
    assert shadow == rnd


def check_trick_winners(rnd: st.Round, setup: Setup) -> None:
    if rnd.is_over:
        for t in rnd.tricks:
            assert t.winner == expected_winner(setup.rules, t), str(t)
            assert t.winning_card == t.card_of(t.winner)
            assert t.is_complete


def check_score(rnd: st.Round, setup: Setup) -> None:
    rules = setup.rules
    if not rnd.is_over:
        return
    scores = rnd.score()
    assert set(scores) == set(TEAMS)
    for team, hs in scores.items():
        assert hs.team == team
        assert sum(line.points for line in hs.lines) == hs.points
        assert all(str(line.label).strip() for line in hs.lines)
        assert 0 <= hs.bags < rules.bag_limit
        expected = expected_team_score(rules, team, rnd.bids, rnd.tricks_won, setup.bags[team])
        if expected is not None:
            assert (hs.points, hs.bags) == expected, str(hs)
    assert scores == st.score_hand(rules, rnd.bids, rnd.tricks_won, setup.bags)


# --- illegal actions -----------------------------------------------------------------------------


def light_state(rnd: st.Round) -> tuple[Any, ...]:
    """Cheap enough to compare after every rejected action."""
    hand = rnd.hands[rnd.to_act] if rnd.to_act is not None else None
    return (rnd.phase, rnd.to_act, rnd.history, rnd.trick.cards, rnd.spades_broken, hand, len(rnd.bids))


def full_state(rnd: st.Round) -> tuple[Any, ...]:
    return (
        rnd.to_json(),
        rnd.phase,
        rnd.to_act,
        rnd.hands,
        rnd.dealt,
        rnd.bids,
        rnd.tricks,
        rnd.trick,
        rnd.spades_broken,
        rnd.tricks_won,
        rnd.history,
        rnd.legal_plays(),
        rnd.legal_bids(),
        rnd.is_over,
        rnd.scores_before,
        rnd.bags_before,
    )


def assert_rejected(rnd: st.Round, attempt: Callable[[], object], reason: st.Reason | None) -> None:
    before = light_state(rnd)
    with pytest.raises(st.IllegalAction) as info:
        attempt()
    got = info.value.reason
    assert isinstance(got, st.Reason) and got.code and str(got).strip(), repr(got)
    if reason is not None:
        assert got == reason, "the exception's reason and the why_illegal answer differ"
    assert light_state(rnd) == before, "a rejected action changed the round"


# candidate bids: the legal range, just outside it, nil and blind nil in every spelling
CANDIDATE_BIDS: tuple[Any, ...] = (-1, *range(15), 99, st.NIL, st.BLIND_NIL, "nil", "blind nil", "14")


def check_illegal_bids(rnd: st.Round, setup: Setup) -> None:
    rules = setup.rules
    before = full_state(rnd)
    if rnd.phase is st.Phase.BIDDING:
        assert rnd.to_act is not None
        expected = {st.Bid(n) for n in range(1, 14)}
        if rules.nil:
            expected.add(st.NIL)
        if blind_nil_allowed(rules, setup, rnd.to_act):
            expected.add(st.BLIND_NIL)
        legal = rnd.legal_bids()
        assert set(legal) == expected and len(legal) == len(expected)
        for bid in CANDIDATE_BIDS:
            why = rnd.why_bid_illegal(bid)
            if st.Bid.parse(bid) in expected:
                assert why is None, (bid, why)
            else:
                assert why is not None and str(why).strip(), bid
                assert_rejected(rnd, functools.partial(rnd.bid, bid), why)
        for other in SEATS:
            if other != rnd.to_act:
                why = rnd.why_bid_illegal(legal[0], seat=other)
                assert why is not None
                assert_rejected(rnd, functools.partial(rnd.bid, legal[0], seat=other), why)
        # wrong phase: no card is played during the bidding, not even one the seat holds
        for card in (*rnd.hands[rnd.to_act][:3], *rules.removed):
            why = rnd.why_illegal(card)
            assert why is not None
            assert_rejected(rnd, functools.partial(rnd.play, card), why)
    else:
        # wrong phase: bidding is over (or the round is)
        for bid in (1, 13, st.NIL, st.BLIND_NIL):
            why = rnd.why_bid_illegal(bid)
            assert why is not None
            assert_rejected(rnd, functools.partial(rnd.bid, bid), why)
    if not rnd.is_over:
        assert_rejected(rnd, rnd.score, None)
    assert full_state(rnd) == before


def check_illegal_plays(rnd: st.Round, setup: Setup) -> None:
    """Every one of the 54 cards (so also those outside the deck) is tried at every step."""
    sweep_plays(rnd, ALL_CARDS)


def check_illegal_plays_of_the_hand(rnd: st.Round, setup: Setup) -> None:
    """A lighter sweep: the hand to play, the cards outside the deck, and one card of each other place."""
    if rnd.phase is not st.Phase.PLAYING:
        sweep_plays(rnd, ALL_CARDS)
        return
    assert rnd.to_act is not None
    hands = rnd.hands
    others = [hands[s][0] for s in SEATS if s != rnd.to_act and hands[s]]
    played = [*rnd.trick.cards[-1:], *(rnd.tricks[-1].cards[:1] if rnd.tricks else ())]
    outside = [c for c in ALL_CARDS if not setup.rules.in_deck(c)]
    sweep_plays(rnd, (*hands[rnd.to_act], *others, *played, *outside))


def sweep_plays(rnd: st.Round, candidates: tuple[st.Card, ...]) -> None:
    if rnd.phase is st.Phase.BIDDING:
        return
    before = full_state(rnd)
    legal = rnd.legal_plays()
    for card in candidates:
        why = rnd.why_illegal(card)
        if card in legal:
            assert why is None, (str(card), why)
            continue
        assert why is not None and str(why).strip(), str(card)
        assert_rejected(rnd, functools.partial(rnd.play, card), why)
    if rnd.phase is st.Phase.PLAYING:
        for other in SEATS:
            if other != rnd.to_act:
                why = rnd.why_illegal(legal[0], seat=other)
                assert why is not None
                assert_rejected(rnd, functools.partial(rnd.play, legal[0], seat=other), why)
    assert full_state(rnd) == before


# --- JSON replay -----------------------------------------------------------------------------------


def assert_round_replays(rnd: st.Round) -> st.Round:
    text = rnd.to_json()
    copy = st.Round.from_json(text)
    assert copy == rnd
    assert copy.to_json() == text
    for attr in (
        "rules",
        "dealer",
        "deal_id",
        "seed",
        "phase",
        "to_act",
        "hands",
        "dealt",
        "bids",
        "tricks",
        "trick",
        "spades_broken",
        "tricks_won",
        "history",
        "scores_before",
        "bags_before",
        "is_over",
    ):
        assert getattr(copy, attr) == getattr(rnd, attr), attr
    assert copy.legal_plays() == rnd.legal_plays()
    assert copy.legal_bids() == rnd.legal_bids()
    assert [t.reason for t in copy.tricks] == [t.reason for t in rnd.tricks]
    if rnd.is_over:
        assert copy.score() == rnd.score()
    return copy


class ReplayChecker:
    """At a few random steps, replay the round from JSON, then keep the copy in step to the end."""

    def __init__(self, setup: Setup) -> None:
        rng = random.Random(setup.policy_seed ^ 0x5EED)
        self.at = set(rng.sample(range(57), 4))  # 4 bids + 52 plays: steps 0..56
        self.followers: list[st.Round] = []
        self.seen = 0

    def __call__(self, rnd: st.Round, setup: Setup) -> None:
        history = rnd.history
        for copy in self.followers:  # catch up with the action just taken
            for action in history[len(copy.history) :]:
                copy.apply(action)
            assert copy == rnd and copy.hands == rnd.hands and copy.tricks == rnd.tricks
        if len(history) in self.at:
            self.followers.append(assert_round_replays(rnd))
        if rnd.is_over:
            assert_round_replays(rnd)
            for copy in self.followers:
                assert copy.score() == rnd.score()


# --- the tests: the rule set itself --------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_rules_accept_a_flag_combination_exactly_when_it_is_playable(preset: str) -> None:
    has_two_of_clubs = TWO_OF_CLUBS in st.Rules.preset(preset).deck()
    for nil in (False, True):
        for blind_nil in BLIND_NIL_CHOICES:
            for first_lead in FIRST_LEAD_CHOICES:
                flags = {"nil": nil, "blind_nil": blind_nil, "first_lead": first_lead}
                playable = first_lead == "left-of-dealer" or has_two_of_clubs
                if playable:
                    assert st.Rules.preset(preset, **flags).first_lead == first_lead
                else:
                    with pytest.raises(st.RulesError):
                        st.Rules.preset(preset, **flags)
    assert len(RULE_SETS[preset]) == (12 if has_two_of_clubs else 6) * len(FAILED_NIL_CHOICES) * len(MERCY_CHOICES)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_trumps_are_exactly_the_cards_that_count_as_spades(preset: str) -> None:
    rules = st.Rules.preset(preset)
    deck = rules.deck()
    order = rules.trump_order()
    assert len(deck) == len(set(deck)) == 52
    assert len(order) == len(set(order)) and set(order) <= set(deck)
    for card in deck:
        assert rules.is_trump(card) == (card in order) == (rules.suit_of(card) == SPADES), str(card)
        if card not in order:
            assert rules.suit_of(card) == card.suit
    if rules.jokers:
        assert order[:2] == st.cards("BJ LJ")


# --- the tests: random rounds ------------------------------------------------------------------------

# Examples per preset and test, sized for the whole file to take about 25 s of CPU (one core of two):
# a round costs a few ms with the cheap checks, about 80 ms with the sweep of every illegal card.
ROUND_EXAMPLES = examples(30)  # a quarter in make check (property_examples.py)
SWEEP_EXAMPLES = 12
by_preset = pytest.mark.parametrize("preset", PRESETS)


@by_preset
@settings(max_examples=ROUND_EXAMPLES, deadline=None)
@given(data=hst.data())
def test_every_card_is_in_exactly_one_place_and_a_round_is_13_tricks_of_4(preset: str, data: hst.DataObject) -> None:
    setup = data.draw(setups(RULE_SETS[preset]), label="setup")
    play_round(setup, (check_every_card_in_one_place,))


@by_preset
@settings(max_examples=ROUND_EXAMPLES, deadline=None)
@given(data=hst.data())
def test_legal_plays_follow_suit_and_keep_trumps_unled_until_broken(preset: str, data: hst.DataObject) -> None:
    setup = data.draw(setups(RULE_SETS[preset]), label="setup")
    play_round(setup, (check_turn_order_and_legal_set, check_history_is_legal))


@by_preset
@settings(max_examples=ROUND_EXAMPLES, deadline=None)
@given(data=hst.data())
def test_trick_goes_to_the_highest_trump_else_the_highest_card_of_the_suit_led(
    preset: str, data: hst.DataObject
) -> None:
    setup = data.draw(setups(RULE_SETS[preset]), label="setup")
    play_round(setup, (check_trick_winners,))


@pytest.mark.slow  # every illegal card of every position: about 80 ms a round
@by_preset
@settings(max_examples=SWEEP_EXAMPLES, deadline=None)
@given(data=hst.data())
def test_illegal_plays_raise_with_a_reason_and_leave_the_round_unchanged(preset: str, data: hst.DataObject) -> None:
    setup = data.draw(setups(RULE_SETS[preset]), label="setup")
    play_round(setup, (check_illegal_plays,))


@by_preset
@settings(max_examples=ROUND_EXAMPLES, deadline=None)
@given(data=hst.data())
def test_illegal_bids_and_wrong_phase_raise_with_a_reason_and_leave_the_round_unchanged(
    preset: str, data: hst.DataObject
) -> None:
    setup = data.draw(setups(RULE_SETS[preset]), label="setup")
    play_round(setup, (check_illegal_bids,))


@by_preset
@settings(max_examples=ROUND_EXAMPLES, deadline=None)
@given(data=hst.data())
def test_score_lines_add_up_to_the_points_and_bags_stay_below_the_limit(preset: str, data: hst.DataObject) -> None:
    setup = data.draw(setups(RULE_SETS[preset]), label="setup")
    play_round(setup, (check_score,))


@by_preset
@settings(max_examples=ROUND_EXAMPLES, deadline=None)
@given(data=hst.data())
def test_json_replay_mid_round_gives_an_identical_round(preset: str, data: hst.DataObject) -> None:
    setup = data.draw(setups(RULE_SETS[preset]), label="setup")
    play_round(setup, (ReplayChecker(setup),))


CHEAP_CHECKS: tuple[Check, ...] = (
    check_every_card_in_one_place,
    check_turn_order_and_legal_set,
    check_history_is_legal,
    check_trick_winners,
    check_score,
)
SWEEPS: tuple[Check, ...] = (check_illegal_plays_of_the_hand, check_illegal_bids)


def at_some_steps(check: Check, setup: Setup, share: float) -> Check:
    """``check`` at a random ``share`` of the steps (drawn from the policy seed) and at the end."""
    rng = random.Random(f"{setup.policy_seed}:{check.__name__}")  # str seeds are stable across runs

    def sometimes(rnd: st.Round, setup: Setup) -> None:
        if rnd.is_over or rng.random() < share:
            check(rnd, setup)

    return sometimes


#: the quick loop (-m "not slow") plays every 7th combination, which holds each preset with each value
#: of each flag (checked below); make test plays all 288
QUICK_STRIDE = 7
FLAGS = ("nil", "blind_nil", "first_lead", "failed_nil_tricks", "mercy")


def test_the_quick_sample_of_flag_combinations_has_each_preset_with_each_flag_value() -> None:
    quick = ALL_RULE_SETS[::QUICK_STRIDE]
    for flag in FLAGS:
        assert {(r.name, getattr(r, flag)) for r in quick} == {(r.name, getattr(r, flag)) for r in ALL_RULE_SETS}


@pytest.mark.parametrize(
    "rules",
    [r if i % QUICK_STRIDE == 0 else pytest.param(r, marks=pytest.mark.slow) for i, r in enumerate(ALL_RULE_SETS)],
    ids=rules_id,
)
@settings(max_examples=1, deadline=None)
@given(data=hst.data())
def test_every_flag_combination_keeps_every_round_invariant(rules: st.Rules, data: hst.DataObject) -> None:
    # one random round per combination with every check; the sweeps of illegal actions run at a
    # quarter of the steps here (the tests above sweep every step) to keep 288 combinations quick
    setup = data.draw(setups([rules]), label="setup")
    sweeps = tuple(at_some_steps(check, setup, 0.25) for check in SWEEPS)
    play_round(setup, (*CHEAP_CHECKS, *sweeps, ReplayChecker(setup)))


# --- the tests: games -----------------------------------------------------------------------------------

GAME_TARGET = 150  # a short game keeps each example quick; the rules to 500 are the same
MAX_ROUNDS = 40  # random play can wander (about 8 rounds on average); the checks hold unfinished too


@dataclasses.dataclass(frozen=True)
class GameSetup:
    rules: st.Rules
    seed: int
    dealer: st.Seat | None
    policy_seed: int

    def start(self) -> st.Game:
        return st.Game(self.rules, seed=self.seed, dealer=self.dealer)

    def __repr__(self) -> str:
        dealer = "None" if self.dealer is None else f"st.Seat.{self.dealer.name}"
        return (
            f"GameSetup(rules={rules_code(self.rules)}, seed={self.seed}, dealer={dealer}, "
            f"policy_seed={self.policy_seed})"
        )

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(repr(self))


@hst.composite
def game_setups(draw: hst.DrawFn, dealer_given: bool | None = None) -> GameSetup:
    rules = dataclasses.replace(draw(hst.sampled_from(ALL_RULE_SETS)), target=GAME_TARGET)
    if dealer_given is None:
        dealer = draw(hst.none() | hst.sampled_from(SEATS))
    else:
        dealer = draw(hst.sampled_from(SEATS)) if dealer_given else None
    return GameSetup(rules, draw(hst.integers(0, 999_999)), dealer, draw(hst.integers(0, 2**32 - 1)))


def play_game(setup: GameSetup, on_action: Callable[[st.Game], None] | None = None) -> st.Game:
    game = setup.start()
    rng = random.Random(setup.policy_seed)
    while not game.is_over and len(game.rounds) < MAX_ROUNDS:
        rnd = game.round
        if rnd.phase is st.Phase.BIDDING:
            legal = rnd.legal_bids()
            # nil is rare here: random card play fails most nils, and the game should end
            game.bid(rng.choice([b for b in legal if 1 <= b.tricks <= 4]) if rng.random() < 0.9 else rng.choice(legal))
        else:
            game.play(rng.choice(rnd.legal_plays()))
        if on_action is not None:
            on_action(game)
    return game


def assert_game_replays(game: st.Game) -> None:
    text = game.to_json()
    copy = st.Game.from_json(text)
    assert copy == game
    assert copy.to_json() == text
    assert (copy.seed, copy.first_dealer, copy.rules) == (game.seed, game.first_dealer, game.rules)
    assert [r.deal_id for r in copy.rounds] == [r.deal_id for r in game.rounds]
    assert copy.round.deal_id == game.round.deal_id, "the replayed game is on a different deal"
    assert copy.rounds == game.rounds
    assert copy.round == game.round and copy.round.hands == game.round.hands
    assert copy.hand_scores == game.hand_scores
    assert (copy.scores, copy.bags, copy.winner, copy.result) == (game.scores, game.bags, game.winner, game.result)


@settings(max_examples=30, deadline=None)
@given(setup=game_setups())
def test_game_deal_passes_left_and_the_winner_agrees_with_the_scores(setup: GameSetup) -> None:
    game = play_game(setup)
    rules = setup.rules
    if setup.dealer is not None:
        assert game.first_dealer == setup.dealer
    rounds = [*game.rounds] + ([] if game.is_over else [game.round])
    for i, rnd in enumerate(rounds):
        assert rnd.dealer == st.Seat((game.first_dealer + i) % 4), f"round {i + 1}"
    running = {t: 0 for t in TEAMS}
    bags = {t: 0 for t in TEAMS}
    for i, (rnd, hand) in enumerate(zip(game.rounds, game.hand_scores, strict=True)):
        assert rnd.is_over and rnd.scores_before == running and rnd.bags_before == bags
        assert hand == rnd.score()
        for t in TEAMS:
            assert sum(line.points for line in hand[t].lines) == hand[t].points
            running[t] += hand[t].points
            bags[t] = hand[t].bags
            assert 0 <= bags[t] < rules.bag_limit
        winner = st.game_winner(rules, running)
        last = i == len(game.rounds) - 1 and game.is_over
        assert (winner is not None) == last, f"after round {i + 1}: {running}"
        expected = expected_game_winner(rules, running)
        if expected != "silent":
            assert winner == expected, running
    assert game.scores == running and game.bags == bags
    assert game.winner == st.game_winner(rules, game.scores)
    if game.is_over:
        assert game.winner is not None
        with pytest.raises(st.IllegalAction) as info:
            game.play(st.Card.parse("AS"))
        assert str(info.value.reason).strip()
        with pytest.raises(st.IllegalAction):
            game.bid(1)


@pytest.mark.parametrize("dealer_given", [True, False], ids=["dealer_given", "dealer_chosen_by_seed"])
@settings(max_examples=15, deadline=None)
@given(data=hst.data())
def test_game_json_replay_mid_game_gives_an_identical_game(dealer_given: bool, data: hst.DataObject) -> None:
    setup = data.draw(game_setups(dealer_given), label="setup")
    rng = random.Random(setup.policy_seed ^ 0x5EED)
    # replay at a few random points: mid-bidding, mid-trick, between rounds (a game is ~450 actions)
    at = set(rng.sample(range(1, 600), 4))

    def replay_now_and_then(game: st.Game) -> None:
        if not game.is_over and sum(len(r.history) for r in [*game.rounds, game.round]) in at:
            assert_game_replays(game)

    play_game(setup, replay_now_and_then)


@settings(max_examples=15, deadline=None)
@given(setup=game_setups(dealer_given=True))
def test_game_json_replay_of_a_finished_game_gives_an_identical_game(setup: GameSetup) -> None:
    game = play_game(setup)
    assert_game_replays(game)
