"""Bots: they see only their seat's view, never act illegally, and play by named rules of thumb.

Rule text ("Tips from the table", joker-spades-rules.txt): "Bid the big joker as a sure trick. The
little joker is nearly as safe [...]" · "With 15 trumps in the deck, side suits run out sooner. A
king in a side suit is less likely to win [...]" · "Never bid nil holding the big joker." · "Once
spades are broken, leading a joker early can pull two or three trumps from the other players and
clear the way for your partner's side-suit winners."
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import gc
import importlib.util
import multiprocessing
import os
import statistics
import typing
from collections.abc import Iterator

import pytest

import spades_tutor as st
from spades_tutor.bots import (
    Bot,
    Decision,
    HeuristicBot,
    IllegalBotAction,
    RandomBot,
    legal_bids,
    play_game,
    play_out,
    play_round,
)
from spades_tutor.engine.hand_eval import likely_tricks

N, E, S, W = st.Seat
PRESETS = st.Rules.preset_names()
JOKER_PRESETS = tuple(p for p in PRESETS if st.Rules.preset(p).jokers)
HEARTS, CLUBS, DIAMONDS, SPADES = st.Suit.HEARTS, st.Suit.CLUBS, st.Suit.DIAMONDS, st.Suit.SPADES
C = st.Card.parse
TWO_OF_CLUBS = C("2C")


# --- helpers -------------------------------------------------------------------------------------


def rule_variants(preset: str) -> list[tuple[st.Rules, dict[st.Team, int] | None]]:
    """The preset and its house-rule flags, each with the scores before the hand it is played at."""
    base = st.Rules.preset(preset)
    variants: list[tuple[st.Rules, dict[st.Team, int] | None]] = [
        (base, None),
        (dataclasses.replace(base, nil=False), None),
        (dataclasses.replace(base, blind_nil="always"), None),
        (dataclasses.replace(base, nil=False, blind_nil="always"), None),
        (dataclasses.replace(base, blind_nil="behind-100"), {st.Team.NS: 0, st.Team.EW: 150}),
        (dataclasses.replace(base, blind_nil="behind-100"), {st.Team.NS: 230, st.Team.EW: 120}),
        (dataclasses.replace(base, failed_nil_tricks="partner"), None),
        (dataclasses.replace(base, failed_nil_tricks="none", mercy=-200), None),
    ]
    if TWO_OF_CLUBS in base.deck():
        variants.append((dataclasses.replace(base, first_lead="two-of-clubs"), None))
        variants.append((dataclasses.replace(base, first_lead="two-of-clubs", nil=False, blind_nil="always"), None))
    return variants


def make_round(rules: st.Rules, fixed: dict[st.Seat, str], avoid=None, dealer=W) -> st.Round:
    """A round whose hands hold the ``fixed`` cards; the rest of the deck is dealt so that no seat
    gets a card that counts as a suit in ``avoid[seat]``."""
    hands = {seat: list(st.cards(fixed.get(seat, ""))) for seat in st.Seat}
    used = [c for hand in hands.values() for c in hand]
    assert len(set(used)) == len(used)
    avoid = avoid or {}
    rest = [c for c in rules.deck() if c not in used]
    constrained = {suit for suits in avoid.values() for suit in suits}
    rest.sort(key=lambda c: rules.suit_of(c) not in constrained)
    for card in rest:
        allowed = [s for s in st.Seat if len(hands[s]) < 13 and rules.suit_of(card) not in avoid.get(s, ())]
        assert allowed, "the test's deal cannot be completed"
        hands[max(allowed, key=lambda s: 13 - len(hands[s]))].append(card)
    return st.Round.from_hands(rules, hands, dealer=dealer)


def bid(rnd: st.Round, *bids) -> None:
    for b in bids:
        rnd.bid(b)


def play(rnd: st.Round, text: str) -> None:
    for card in st.cards(text):
        rnd.play(card)


def decide(rnd: st.Round) -> Decision:
    """The heuristic bot's decision for the seat to act, from that seat's view only."""
    view = rnd.view(rnd.to_act)
    bot = HeuristicBot()
    return bot.bid(view) if view.phase is st.Phase.BIDDING else bot.play(view)


def assert_one_sentence(reason: str, *words: str) -> None:
    assert (reason[:1].isupper() or reason[:1].isdigit()) and reason.endswith("."), reason  # "7♣ wins …"
    assert ". " not in reason, f"more than one sentence: {reason!r}"
    assert len(reason.split()) >= 5, reason
    for word in words:
        assert word.lower() in reason.lower(), f"{word!r} not in {reason!r}"


def lowest_of(rules: st.Rules, cards, suit: st.Suit) -> st.Card:
    return min((c for c in cards if rules.suit_of(c) == suit), key=lambda c: rules.power(c, suit))


# --- the API: decisions, the protocol, what a bot may see -------------------------------------------


def test_a_decision_is_frozen_and_prints_its_reason():
    d = Decision(C("AS"), "Lead A♠: it is the highest trump left.")
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.action = C("KS")  # type: ignore[misc]
    assert str(d) == d.reason


@pytest.mark.parametrize("bot", [RandomBot(seed=1), HeuristicBot(), HeuristicBot(seed=3)], ids=repr)
def test_bots_take_a_seat_view_and_return_a_decision(bot):
    assert isinstance(bot, Bot)
    for method in (type(bot).bid, type(bot).play):
        hints = typing.get_type_hints(method)
        assert hints["view"] is st.SeatView
        assert hints["return"] is Decision
        assert list(hints) == ["view", "return"], "a bot is handed the seat's view and nothing else"


def _reachable(root: object, stop_at_rules: bool = False, limit: int = 20_000) -> Iterator[object]:
    """Every object reachable from ``root`` through references, except classes and modules,
    and (with ``stop_at_rules``) not through a rule set, which lists the whole deck as printed rules do."""
    seen = {id(root)}
    todo = [root]
    while todo and len(seen) < limit:
        obj = todo.pop()
        yield obj
        if obj is not root and isinstance(obj, st.Rules) and stop_at_rules:
            continue
        for ref in gc.get_referents(obj):
            if id(ref) in seen or isinstance(ref, type) or type(ref).__name__ in ("module", "function"):
                continue
            seen.add(id(ref))
            todo.append(ref)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_seat_view_holds_no_other_hand_and_no_way_back_to_the_round(preset):
    rnd = st.Round.deal(st.Rules.preset(preset), seed=41)
    bid(rnd, 3, 3, 3, 3)
    for _ in range(9):  # into the third trick, a trick in progress
        rnd.play(rnd.legal_plays()[0])
    for seat in st.Seat:
        view = rnd.view(seat)
        assert not any(isinstance(obj, st.Round) for obj in _reachable(view))
        played = {c for t in view.tricks for c in t.cards} | set(view.trick.cards)
        assert set(view.hand) == set(rnd.hands[seat])
        seen = {obj for obj in _reachable(view, stop_at_rules=True) if isinstance(obj, st.Card)}
        assert seen <= set(view.hand) | played, "the view shows cards of another hand"


def test_the_drivers_hand_each_bot_only_its_own_seat_view():
    calls = []

    class Spy:
        def __init__(self) -> None:
            self.inner = HeuristicBot()

        def bid(self, view: st.SeatView) -> Decision:
            calls.append(view)
            return self.inner.bid(view)

        def play(self, view: st.SeatView) -> Decision:
            calls.append(view)
            return self.inner.play(view)

    rnd = play_round(st.Rules.preset("jokers"), {s: Spy() for s in st.Seat}, seed=5)
    assert len(calls) == 4 + 52
    assert all(type(v) is st.SeatView and v.seat == v.to_act for v in calls)
    assert [v.seat for v in calls] == [a.seat for a in rnd.history]


@pytest.mark.parametrize("preset", PRESETS)
def test_legal_bids_from_the_view_are_the_engines(preset):
    """SeatView carries the legal cards but not the legal bids; legal_bids(view) follows the engine."""
    for rules, scores in rule_variants(preset):
        for seed in range(3):
            rnd = st.Round.deal(rules, seed=seed, scores=scores)
            while rnd.phase is st.Phase.BIDDING:
                for seat in st.Seat:
                    expected = rnd.legal_bids() if seat == rnd.to_act else ()
                    assert legal_bids(rnd.view(seat)) == expected, (rules.flags(), scores, seat)
                rnd.bid(rnd.legal_bids()[seed])
            assert legal_bids(rnd.view(rnd.to_act)) == ()


def test_an_illegal_bot_action_raises_naming_the_bot_and_leaves_the_round_as_it_was():
    class Cheat:
        def bid(self, view: st.SeatView) -> Decision:
            return Decision(st.Bid(3), "Bid 3: a fine bid.")

        def play(self, view: st.SeatView) -> Decision:
            return Decision(view.hand[-1], "Play the last card in the hand, legal or not.")

    rnd = make_round(st.Rules.preset("jokers"), {N: "BJ 4C", E: "5C"}, avoid={E: (SPADES,)})
    with pytest.raises(IllegalBotAction) as caught:
        play_out(rnd, {s: Cheat() for s in st.Seat})
    assert isinstance(caught.value, st.IllegalAction)
    assert caught.value.reason.code in ("spades-not-broken", "must-follow-suit")
    assert "Cheat" in str(caught.value) and "legal or not" in str(caught.value)
    assert not rnd.is_over and len(rnd.history) < 56

    class WrongKind:
        def bid(self, view: st.SeatView) -> Decision:
            return Decision(view.hand[0], "Bid a card.")

        play = bid

    with pytest.raises(IllegalBotAction, match="had to choose a bid"):
        play_round(st.Rules.preset("jokers"), {s: WrongKind() for s in st.Seat}, seed=1)


# --- reproducibility -------------------------------------------------------------------------------


def test_random_bots_are_reproducible_from_their_seeds():
    rules = st.Rules.preset("jokers", blind_nil="always")

    def history(offset: int) -> tuple:
        return play_round(rules, {s: RandomBot(seed=int(s) + offset) for s in st.Seat}, seed=12).history

    assert history(0) == history(0)
    assert history(0) != history(100)


def test_heuristic_bots_are_reproducible_and_remember_nothing_a_fresh_bot_would_not_see():
    """A long-lived bot (with its memory of played cards) decides exactly as a fresh bot given the same view."""
    rules = st.Rules.preset("jokers")
    for seed in range(40):
        shared = HeuristicBot()
        checked = []

        def check(seat: st.Seat, view: st.SeatView, decision: Decision, checked=checked, seed=seed) -> None:
            fresh = HeuristicBot()
            again = fresh.bid(view) if view.phase is st.Phase.BIDDING else fresh.play(view)
            assert again == decision, (seed, seat, str(view.trick))
            checked.append(decision)

        first = play_round(rules, {s: shared for s in st.Seat}, seed=seed, on_decision=check)
        second = play_round(rules, {s: HeuristicBot() for s in st.Seat}, seed=seed)
        assert first.history == second.history and len(checked) == 56
        seeded = [play_round(rules, {s: HeuristicBot(seed=9) for s in st.Seat}, seed=seed) for _ in range(2)]
        assert seeded[0].history == seeded[1].history


def test_a_shared_bot_is_not_confused_by_copies_of_a_round_that_go_different_ways():
    rules = st.Rules.preset("jokers")
    shared = HeuristicBot()
    rnd = st.Round.deal(rules, seed=8)
    bid(rnd, 3, 3, 3, 3)
    for _ in range(4 * 5):
        rnd.play(shared.play(rnd.view(rnd.to_act)).action)
    other = rnd.copy()
    while not rnd.is_over:
        for r, pick in ((rnd, 0), (other, -1)):  # the copy goes its own way: always the last legal card
            view = r.view(r.to_act)
            decision = shared.play(view)
            assert decision == HeuristicBot().play(view)
            r.play(decision.action if pick == 0 else view.legal[pick])


# --- never an illegal action -----------------------------------------------------------------------

ROUNDS = 10_000
MIXED_ROUNDS = 2_000


def _check_reason(seat: st.Seat, view: st.SeatView, decision: Decision) -> None:
    assert decision.reason and decision.reason.endswith("."), decision


def _table(kind: str, seed: int) -> dict[st.Seat, Bot]:
    """The bots of one round; random bots are seeded by the round, so any round replays alone."""
    if kind == "heuristic":
        return {s: HeuristicBot() for s in st.Seat}
    if kind == "random":
        return {s: RandomBot(seed=4 * seed + int(s)) for s in st.Seat}
    # "mixed": each heuristic bot partnered with a random one, whose wild nils it must cover
    return {N: HeuristicBot(), E: HeuristicBot(seed=seed), S: RandomBot(4 * seed), W: RandomBot(4 * seed + 1)}


def _play_rounds(preset: str, kind: str, seeds: range) -> list[str]:
    """Play the rounds ``seeds`` (cycling through the preset's house-rule variants) through the
    checked engine API; every illegal action or unfinished round, described with what replays it."""
    variants = rule_variants(preset)
    problems = []
    for seed in seeds:
        rules, scores = variants[seed % len(variants)]
        try:
            on_decision = _check_reason if seed % 50 == 0 else None
            rnd = play_round(rules, _table(kind, seed), seed=seed, scores=scores, on_decision=on_decision)
            assert rnd.is_over and sum(rnd.tricks_won.values()) == 13
        except Exception as e:  # reported with the round that reproduces it
            problems.append(f"{kind} bots, {preset} {rules.flags()}, round {seed}, scores {scores}: {e!r}")
    return problems


@pytest.fixture(scope="module")
def workers() -> Iterator[concurrent.futures.Executor | None]:
    """Two worker processes when two cores are there (and this module can be imported by name)."""
    if (os.cpu_count() or 1) < 2 or importlib.util.find_spec(__name__) is None:
        yield None
        return
    context = multiprocessing.get_context("spawn")  # no fork: other tests may have started threads
    with concurrent.futures.ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        yield pool


def _play_everywhere(workers, preset: str, kind: str, rounds: int) -> list[str]:
    if workers is None:
        return _play_rounds(preset, kind, range(rounds))
    half = rounds // 2
    jobs = [workers.submit(_play_rounds, preset, kind, r) for r in (range(half), range(half, rounds))]
    return [problem for job in jobs for problem in job.result()]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["heuristic", "random"])
@pytest.mark.parametrize("preset", PRESETS)
def test_bots_never_attempt_an_illegal_action_in_10000_rounds(workers, preset, kind):
    """10,000 rounds per preset, four bots of a kind, cycling through the house-rule flags (nil off,
    blind nil always or behind 100 with a team that far behind, two-of-clubs where the 2♣ is in the
    deck, failed-nil tricks, mercy). Every action goes through the engine's checked API."""
    problems = _play_everywhere(workers, preset, kind, ROUNDS)
    assert not problems, "\n".join(problems[:10])


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_heuristic_bots_beside_random_partners_never_attempt_an_illegal_action(workers, preset):
    problems = _play_everywhere(workers, preset, "mixed", MIXED_ROUNDS)
    assert not problems, "\n".join(problems[:10])


@pytest.mark.parametrize("preset", PRESETS)
def test_every_decision_comes_with_one_plain_sentence(preset):
    seen = []

    def check(seat: st.Seat, view: st.SeatView, decision: Decision) -> None:
        assert_one_sentence(decision.reason)
        seen.append(decision.reason)

    bots: dict[st.Seat, Bot] = {N: HeuristicBot(), E: HeuristicBot(), S: HeuristicBot(), W: RandomBot(seed=4)}
    for seed, (rules, scores) in enumerate(rule_variants(preset) * 4):
        play_round(rules, bots, seed=seed, scores=scores, on_decision=check)
    assert len(set(seen)) > 100


def test_games_with_blind_nil_for_a_team_behind_are_played_to_the_end():
    rules = st.Rules.preset("jokers", blind_nil="behind-100", mercy=-200)
    for seed in range(10):
        bots: dict[st.Seat, Bot] = {N: HeuristicBot(), S: HeuristicBot(), E: RandomBot(seed), W: RandomBot(seed + 1)}
        game = play_game(rules, bots, seed=seed)
        assert game.is_over


# --- the bidder --------------------------------------------------------------------------------------

JUNK = "3S 4H 5H 6H 3C 4C 5C 6C 7C 3D 4D 5D 6D"  # no 2s, so it is in every preset's deck


@pytest.mark.parametrize("preset", JOKER_PRESETS)
def test_never_bids_nil_holding_the_big_joker(preset):
    rules = st.Rules.preset(preset)
    safe = make_round(rules, {N: JUNK})
    assert decide(safe).action == st.NIL  # the same hand without the big joker is a nil
    with_joker = make_round(rules, {N: JUNK.replace("7C", "BJ")})
    d = decide(with_joker)
    assert d.action != st.NIL and d.action.tricks >= 1
    assert_one_sentence(d.reason, "big joker")


@pytest.mark.parametrize("preset", PRESETS)
def test_bids_nil_only_where_nil_is_allowed_and_never_beside_a_partner_nil(preset):
    rules = st.Rules.preset(preset)
    d = decide(make_round(rules, {N: JUNK}))
    assert d.action == st.NIL
    assert_one_sentence(d.reason, "nil looks safe")
    no_nil = decide(make_round(dataclasses.replace(rules, nil=False), {N: JUNK}))
    assert no_nil.action == st.Bid(1)
    beside = make_round(rules, {N: JUNK, S: "7S 7H 8H 9H 8C 9C 10C JC 7D 8D 9D 10D JD"})
    bid(beside, st.NIL, 4)
    d = decide(beside)
    assert d.action != st.NIL and "partner already bid nil" in d.reason


@pytest.mark.parametrize("preset", PRESETS)
def test_bids_at_least_one_and_counts_sure_and_likely_tricks(preset):
    rules = st.Rules.preset(preset)
    top = " ".join(str(c) for c in rules.trump_order()[:3])
    d = decide(make_round(rules, {N: top + " AH AC AD"}, avoid={N: (SPADES,)}))
    # three sure trumps and three aces (in suits no longer than 4)
    assert 6 <= d.action.tricks <= 8
    assert_one_sentence(d.reason, "should each win a trick")
    weak = make_round(dataclasses.replace(rules, nil=False), {N: "3S 4H 5H 6H 3C 4C 5C 6C 7C 3D 4D 5D 6D"})
    assert decide(weak).action == st.Bid(1)


@pytest.mark.parametrize("preset", PRESETS)
def test_likely_tricks_count_the_engines_sure_tricks_whole_and_everything_else_as_less(preset):
    rules = st.Rules.preset(preset)
    for seed in range(100):
        for hand in st.Round.deal(rules, seed=seed).hands.values():
            items = likely_tricks(rules, hand)
            # the hand's top ``sure_trick_count`` trumps count whole: the run from the top, and more by counting
            trumps = [c for c in rules.trump_order() if c in hand]
            whole = tuple(t.card for t in items if t.value == 1 and rules.is_trump(t.card))
            assert whole == tuple(trumps[: st.sure_trick_count(rules, hand)])
            assert whole[: len(st.sure_tricks(rules, hand))] == st.sure_tricks(rules, hand)
            assert all(0 < t.value <= 1 and t.card in hand for t in items)
            assert len({t.card for t in items}) == len(items)
            for t in items:
                assert_one_sentence(t.reason)


def test_side_kings_are_bid_more_cautiously_with_more_trumps():
    hand = st.cards("9S 4S KH 7H 5H 8C 6C 4C QD 9D 5D 3D 10C")
    king = {p: next(t.value for t in likely_tricks(st.Rules.preset(p), hand) if t.card == C("KH")) for p in PRESETS}
    assert king["classic"] > king["jokers"] > king["deuces-high"]  # 13, 15, 16 trumps
    assert king["jokers"] <= 0.5  # lesson 6: "count a side king as half a trick at most"


@pytest.mark.parametrize("preset", JOKER_PRESETS)
def test_the_little_joker_alone_is_nearly_a_sure_trick(preset):
    rules = st.Rules.preset(preset)
    alone = next(t.value for t in likely_tricks(rules, st.cards("LJ 4H 5H")) if t.card == C("LJ"))
    beside = next(t.value for t in likely_tricks(rules, st.cards("BJ LJ 4H")) if t.card == C("LJ"))
    assert 0.5 < alone < beside == 1.0


def test_considers_the_partners_bid():
    rules = st.Rules.preset("jokers")
    rnd = make_round(rules, {S: "BJ LJ AS KS QS JS 10S AH KH AC KC AD KD"})
    bid(rnd, 11, 1)  # North 11, East 1, South to bid
    d = decide(rnd)
    assert d.action == st.Bid(2)
    assert_one_sentence(d.reason, "partner bid 11")


# --- the player: positions -----------------------------------------------------------------------------


def test_follows_low_when_it_cannot_win():
    rules = st.Rules.preset("jokers")
    rnd = make_round(rules, {N: "AH", E: "KH 9H 4H"}, avoid={E: (HEARTS,)})
    bid(rnd, 3, 3, 3, 3)
    play(rnd, "AH")
    d = decide(rnd)
    assert d.action == C("4H")
    assert d.reason == "Lowest heart: you must follow suit and cannot beat the A♥."


def test_wins_with_the_cheapest_winning_card():
    rules = st.Rules.preset("jokers")
    rnd = make_round(rules, {N: "5H", E: "3H", S: "10H", W: "AH KH QH 4H"}, avoid={W: (HEARTS,)})
    bid(rnd, 3, 3, 3, 3)
    play(rnd, "5H 3H 10H")
    d = decide(rnd)  # West plays last: the queen is enough
    assert d.action == C("QH")
    assert_one_sentence(d.reason, "wins cheaply", "10♥")
    # second to play, the cheapest card that nothing still out can beat
    rnd = make_round(rules, {N: "QH", E: "AH KH 4H"}, avoid={E: (HEARTS,)})
    bid(rnd, 3, 3, 3, 3)
    play(rnd, "QH")
    d = decide(rnd)
    assert d.action == C("KH")
    assert_one_sentence(d.reason, "wins cheaply", "Q♥")


@pytest.mark.parametrize("preset", PRESETS)
def test_trumps_when_void_in_the_suit_led(preset):
    rules = st.Rules.preset(preset)
    rnd = make_round(rules, {N: "AH", E: "9S 7S 5C"}, avoid={E: (HEARTS,)})
    bid(rnd, 3, 3, 3, 3)
    play(rnd, "AH")
    d = decide(rnd)
    east = rnd.hands[E]
    assert d.action == lowest_of(rules, east, SPADES)
    assert_one_sentence(d.reason, "Trump with", "no hearts")


def test_discards_low_when_void_and_the_partner_is_winning():
    rules = st.Rules.preset("jokers")
    rnd = make_round(rules, {N: "AH", E: "3H", S: "9S 3C KD"}, avoid={S: (HEARTS,)})
    bid(rnd, 3, 3, 3, 3)
    play(rnd, "AH 3H")
    d = decide(rnd)
    assert not rules.is_trump(d.action), "does not trump the partner's winning ace"
    assert_one_sentence(d.reason, "partner's A♥ is already winning")


@pytest.mark.parametrize("preset", PRESETS)
def test_covers_a_partners_nil(preset):
    rules = st.Rules.preset(preset)
    rnd = make_round(rules, {N: "5H", E: "3H", S: "KH 8H 4H"}, avoid={S: (HEARTS,)})
    bid(rnd, st.NIL, 3, 3, 3)
    play(rnd, "5H 3H")  # North (nil) is winning the trick with the 5♥
    d = decide(rnd)
    assert d.action == C("8H")  # not the 4♥ it would play under a partner who bid tricks
    assert_one_sentence(d.reason, "cover your partner's nil", "5♥")


def test_plays_high_in_front_of_a_partners_nil():
    rules = st.Rules.preset("jokers")
    rnd = make_round(rules, {W: "5H", N: "KH 9H 4H"}, avoid={N: (HEARTS,)}, dealer=S)
    bid(rnd, 3, 3, 3, st.NIL)  # West, North, East, South (nil) bid
    play(rnd, "5H")
    d = decide(rnd)  # North plays second, its nil partner last
    assert d.action == C("KH")
    assert_one_sentence(d.reason, "partner bid nil and plays after you")


def test_a_nil_bidder_stays_under_the_winning_card():
    rules = st.Rules.preset("jokers")
    rnd = make_round(rules, {N: "JH", E: "AH 10H 4H"}, avoid={E: (HEARTS,)})
    bid(rnd, 3, st.NIL, 3, 3)
    play(rnd, "JH")
    d = decide(rnd)
    assert d.action == C("10H")  # the highest heart that still loses
    assert_one_sentence(d.reason, "you bid nil")


@pytest.mark.parametrize("preset", PRESETS)
def test_leads_low_into_an_opponents_nil(preset):
    """Against a nil, the lead is the low card with the fewest cards still out below it (3♣: only the
    2♣ or nothing), not a winner, and never a card nothing beats (the diamonds here)."""
    rules = st.Rules.preset(preset)
    rnd = make_round(rules, {N: "AS KS AH 9H 8H 3C AD KD QD JD 10D 9D 8D"})
    bid(rnd, 3, st.NIL, 3, 3)  # North, East (nil), South, West
    d = decide(rnd)
    assert d.action == C("3C")  # without a nil at the table North cashes an ace
    assert_one_sentence(d.reason, "Lead 3♣, low in clubs", "East bid nil", "set the nil")
    no_nil = make_round(rules, {N: "AS KS AH 9H 8H 3C AD KD QD JD 10D 9D 8D"})
    bid(no_nil, 3, 3, 3, 3)
    assert decide(no_nil).action in (C("AH"), C("AD"))


@pytest.mark.parametrize("preset", PRESETS)
def test_ducks_in_front_of_an_opponents_nil(preset):
    rules = st.Rules.preset(preset)
    rnd = make_round(rules, {N: "9H", E: "AH 10H 3H"})
    bid(rnd, 3, 3, st.NIL, 3)  # South bids nil and plays after East
    play(rnd, "9H")
    d = decide(rnd)
    assert d.action == C("3H")  # not the A♥ that would win the trick
    assert_one_sentence(d.reason, "Play 3♥ low", "South bid nil and plays after you", "set the nil")


@pytest.mark.parametrize("preset", PRESETS)
def test_stays_under_an_opponents_winning_nil_card(preset):
    rules = st.Rules.preset(preset)
    rnd = make_round(rules, {N: "4H", E: "5H", S: "8H", W: "KH 7H 6H"})
    bid(rnd, 3, 3, st.NIL, 3)
    play(rnd, "4H 5H 8H")  # South (nil) is winning with the 8♥; West plays last
    d = decide(rnd)
    assert d.action == C("7H")  # the highest heart under the 8♥, not the K♥ that takes the trick
    assert_one_sentence(d.reason, "under South's 8♥", "South bid nil and is winning the trick")


@pytest.mark.parametrize("preset", PRESETS)
def test_ducks_once_the_contract_is_made(preset):
    rules = st.Rules.preset(preset)
    fixed = {N: "AH AC 4D", E: "3H 3C 9D", S: "4H 5C AD QD 8D 3D", W: "5H 4C"}
    rnd = make_round(rules, fixed, avoid={S: (DIAMONDS,), N: (HEARTS, CLUBS)})
    bid(rnd, 1, 3, 1, 3)  # North-South contract: 2
    play(rnd, "AH 3H 4H 5H")  # North wins
    play(rnd, "AC 3C 5C 4C")  # North wins: the contract is made
    play(rnd, "4D 9D")
    d = decide(rnd)
    assert d.action == C("8D"), "the highest diamond that loses to the 9♦, not the ace or queen"
    assert_one_sentence(d.reason, "made its contract of 2", "avoid bags")
    # with the contract still to make, the same seat wins the trick
    rnd = make_round(rules, fixed, avoid={S: (DIAMONDS,), N: (HEARTS, CLUBS)})
    bid(rnd, 4, 3, 3, 3)
    play(rnd, "AH 3H 4H 5H AC 3C 5C 4C 4D 9D")
    assert decide(rnd).action in (C("QD"), C("AD"))


@pytest.mark.parametrize("preset", JOKER_PRESETS)
def test_leads_a_joker_to_pull_trumps_when_spades_are_broken_and_it_holds_the_top_trump(preset):
    rules = st.Rules.preset(preset)
    low_trump = str(rules.trump_order()[-1])
    rnd = make_round(rules, {N: "AC", E: "3C", S: f"BJ {low_trump} AH KH", W: "4C"}, avoid={S: (CLUBS,)})
    bid(rnd, 3, 3, 3, 3)
    play(rnd, f"AC 3C {low_trump} 4C")  # South trumps the club: spades are broken and South leads
    assert rnd.spades_broken and rnd.to_act == S
    d = decide(rnd)
    assert d.action == st.BIG_JOKER
    assert_one_sentence(d.reason, "spades are broken", "highest trump left", "pulls trumps")


@pytest.mark.parametrize("preset", JOKER_PRESETS)
def test_does_not_lead_the_little_joker_while_the_big_joker_is_out(preset):
    rules = st.Rules.preset(preset)
    low_trump = str(rules.trump_order()[-1])
    rnd = make_round(rules, {N: "AC BJ", E: "3C", S: f"LJ {low_trump} AH KH", W: "4C"}, avoid={S: (CLUBS,)})
    bid(rnd, 3, 3, 3, 3)
    play(rnd, f"AC 3C {low_trump} 4C")
    d = decide(rnd)
    assert d.action != st.LITTLE_JOKER
    assert d.action == C("AH")  # cashes the highest heart left instead
    assert_one_sentence(d.reason, "highest heart left")


def test_never_leads_a_joker_before_spades_are_broken():
    rules = st.Rules.preset("jokers")
    rnd = make_round(rules, {N: "BJ LJ AS KS QS 4C"})
    bid(rnd, 5, 3, 3, 3)
    assert not rules.is_trump(decide(rnd).action)


def test_the_two_of_clubs_leads_where_the_table_says_so():
    rules = st.Rules.preset("jokers", first_lead="two-of-clubs")
    rnd = make_round(rules, {E: "2C AH"})
    bid(rnd, 3, 3, 3, 3)
    d = decide(rnd)
    assert d.action == TWO_OF_CLUBS
    assert_one_sentence(d.reason, "2♣")


# --- against random play -------------------------------------------------------------------------------

GAMES = 200
#: a heuristic team finishes a game to 500 far ahead of a random one: over these 200 seeded games the
#: measured mean lead is about 2,200 points and the smallest about 1,300 (random bids are mostly set)
MARGIN = 1_000


@pytest.mark.slow
def test_heuristic_bots_beat_random_bots():
    rules = st.Rules.preset("jokers")
    diffs = []
    for seed in range(GAMES):
        smart = st.Team.NS if seed % 2 == 0 else st.Team.EW  # both partnerships, both dealing orders
        bots: dict[st.Seat, Bot] = {
            s: HeuristicBot() if s.team == smart else RandomBot(seed=seed * 4 + int(s)) for s in st.Seat
        }
        game = play_game(rules, bots, seed=seed)
        assert game.is_over
        diffs.append(game.scores[smart] - game.scores[smart.other])
    assert statistics.mean(diffs) > MARGIN, statistics.mean(diffs)
    assert sum(d > 0 for d in diffs) >= 0.98 * GAMES


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_heuristic_bids_are_closer_to_the_tricks_taken_than_random_bids(preset):
    rules = st.Rules.preset(preset)

    def mean_miss(make_bot) -> float:
        misses = []
        for seed in range(300):
            rnd = play_round(rules, {s: make_bot(seed, s) for s in st.Seat}, seed=seed)
            misses += [abs(b.tricks - rnd.tricks_won[s]) for s, b in rnd.bids.items() if not b.is_nil]
        return statistics.mean(misses)

    heuristic = mean_miss(lambda seed, s: HeuristicBot())
    random_ = mean_miss(lambda seed, s: RandomBot(seed=seed * 4 + int(s)))
    # measured over these 300 rounds: about 0.8-0.9 tricks off for the heuristic bidder, 4.3 for random bids
    assert heuristic < 1.2 < 3.0 < random_, (heuristic, random_)
