"""The batched heuristic policy (``spades_tutor.lab.heuristic``) against the scalar ``HeuristicBot``.

- Same rounds as the scalar bots: a sample of rounds in every preset and several house-rule
  sets, and a sample of the rounds where someone bid nil (the opponents play to set it), is dealt as the simulator deals it and played by ``bots.play_out`` with
  ``HeuristicBot()`` at every seat (``scalar_heuristic_round``), through the engine's checked
  API (an illegal card raises); the deal, dealer, bids, every card, trick leaders and
  winners, tricks, points and bags must equal the simulator's arrays.
- The vectorised bid estimate equals the engine's ``likely_tricks`` total (in hundredths) and
  ``nil_advice(...).safe`` hand by hand; its parts are asked of the engine, so a rule the engine
  changes is followed by the batched bidder with no change to it: the side suits' shares
  (``side_card_value`` valuing jacks), the trump shares (``_trump_shares`` valuing an uncounted
  high trump), the ruffers (``ruffing_trumps`` ruffing twice beside a singleton) and the nil risks
  (``nil_risks`` fearing three trumps and a queen as a king).
- Invariants over thousands of rounds: every card once, by its holder, following suit, no
  trump led before spades are broken (unless the leader has nothing else).
- Reproducibility: the same rounds whatever the batching, threads or first round.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

import spades_tutor as st
from spades_tutor.engine import hand_eval
from spades_tutor.engine.hand_eval import likely_tricks
from spades_tutor.lab import BatchResult, HeuristicPolicy, get_policy, heuristic, scalar_heuristic_round, simulate
from spades_tutor.lab.heuristic import _bid_estimates, _htables
from spades_tutor.lab.table import deal
from spades_tutor.lab.words import round_words

PRESETS = st.Rules.preset_names()
SAMPLE = 100

RULE_SETS = {
    **{name: st.Rules.preset(name) for name in PRESETS},
    "jokers/no-nil": st.Rules.preset("jokers", nil=False),
    "jokers/failed-nil-partner": st.Rules.preset("jokers", failed_nil_tricks="partner"),
    "deuces-high/blind-nil-always/partner": st.Rules.preset(
        "deuces-high", blind_nil="always", failed_nil_tricks="partner"
    ),
    "classic/two-of-clubs/failed-nil-none": st.Rules.preset(
        "classic", first_lead="two-of-clubs", failed_nil_tricks="none"
    ),
    "two-of-spades-third/two-of-clubs/no-nil": st.Rules.preset(
        "two-of-spades-third", first_lead="two-of-clubs", nil=False
    ),
    "jokers/least-team-bid-5": st.Rules.preset("jokers", min_team_bid=5),
    "jokers/no-nil/least-team-bid-4": st.Rules.preset("jokers", nil=False, min_team_bid=4, bag_limit=5),
}


def _mask(cards: Iterable[st.Card]) -> int:
    return sum(1 << c.index for c in cards)


def _compare(rules: st.Rules, res: BatchResult, i: int) -> None:
    rnd = scalar_heuristic_round(rules, res.seed, int(res.rounds[i]), res.dealer_choice)
    where = f"{rules.name} {rules.flags()} seed {res.seed} round {int(res.rounds[i])}"
    assert int(res.dealer[i]) == rnd.dealer, where
    for seat in st.Seat:
        assert int(res.hands[i, seat]) == _mask(rnd.dealt[seat]), (where, seat)
        bid = rnd.bids[seat]
        assert (int(res.bids[i, seat]), bool(res.blind_nil[i, seat])) == (bid.tricks, bid.blind), (where, seat)
        assert int(res.tricks[i, seat]) == rnd.tricks_won[seat], (where, seat)
    assert len(rnd.tricks) == 13
    for t, trick in enumerate(rnd.tricks):
        assert [c.index for c in trick.cards] == res.plays[i, 4 * t : 4 * t + 4].tolist(), (where, t)
        assert (int(res.leaders[i, t]), int(res.winners[i, t])) == (trick.leader, trick.winner), (where, t)
    score = rnd.score()
    assert res.points[i].tolist() == [score[team].points for team in st.Team], where
    assert res.bags[i].tolist() == [score[team].bags for team in st.Team], where


@pytest.mark.parametrize("key", list(RULE_SETS))
def test_heuristic_policy_matches_the_scalar_bots_round_by_round(key: str) -> None:
    rules = RULE_SETS[key]
    res = simulate(rules, 2000, seed=13, policy="heuristic", batch_size=600)
    assert res.policy == "heuristic"
    rows = np.random.default_rng(3).choice(len(res), SAMPLE, replace=False)
    for i in rows:
        _compare(rules, res, int(i))
    # the nil paths of the player were exercised
    assert (res.bids == 0).any() == rules.nil
    if rules.min_team_bid:  # every team bid reaches the least team bid, or has a nil; some only just
        team = res.bids[:, :2].astype(int) + res.bids[:, 2:]
        free = (res.bids[:, :2] == 0) | (res.bids[:, 2:] == 0)
        assert ((team >= rules.min_team_bid) | free).all()
        assert ((team == rules.min_team_bid) & ~free).any()


@pytest.mark.parametrize("key", [*PRESETS, "jokers/failed-nil-partner", "deuces-high/blind-nil-always/partner"])
def test_heuristic_policy_matches_the_scalar_bots_in_nil_rounds(key: str) -> None:
    """Rounds where a seat bid nil: the nil bidder, its partner covering and the opponents setting it."""
    rules = RULE_SETS[key]
    res = simulate(rules, 2000, seed=17, policy="heuristic", batch_size=600)
    nil_rounds = np.flatnonzero((res.bids == 0).any(axis=1))
    assert len(nil_rounds) >= 200, len(nil_rounds)
    rows = np.random.default_rng(5).choice(nil_rounds, 60, replace=False)
    for i in rows:
        _compare(rules, res, int(i))
    # both answers of a nil were compared: some made, some set
    took = res.tricks[rows][res.bids[rows] == 0]
    assert (took == 0).any() and (took > 0).any()


def test_fixed_dealer_matches_the_scalar_bots() -> None:
    rules = st.Rules.preset("bicycle")
    res = simulate(rules, 300, seed=4, policy="heuristic", dealer=st.Seat.SOUTH, start=10_000)
    assert (res.dealer == int(st.Seat.SOUTH)).all()
    for i in range(0, 300, 10):
        _compare(rules, res, i)


@pytest.mark.parametrize("name", PRESETS)
def test_bid_estimates_match_the_engine(name: str) -> None:
    rules = st.Rules.preset(name)
    table = deal(rules, round_words(9, 0, 150))
    hands = table.dealt.reshape(-1)
    hundredths, safe = _bid_estimates(rules, hands)
    cards = _htables(rules).hand_cards
    for k, m in enumerate(hands.tolist()):
        hand = [cards[b] for b in range(52) if m >> b & 1]
        total = sum(t.value for t in likely_tricks(rules, hand))
        assert round(total * 100) == hundredths[k], (name, k, total)
        assert st.nil_advice(rules, hand).safe == safe[k], (name, k)


def test_bid_estimates_follow_a_side_card_value_only_the_engine_knows(monkeypatch: pytest.MonkeyPatch) -> None:
    """The side suits' shares come from ``hand_eval.side_card_value`` for every rank: when the engine starts
    to count a jack in a suit of 3 to 5 cards, the batched estimate counts it too, with no change to the lab."""
    real = hand_eval.side_card_value

    def with_jacks(rank: st.Rank, length: int, *, ace_beside: bool, fade: float) -> float:
        if rank == st.Rank.JACK and 3 <= length <= 5:
            return 0.2
        return real(rank, length, ace_beside=ace_beside, fade=fade)

    rules = st.Rules.preset("jokers", target=487)  # a rule set no other test bids: its tables are built here
    hands = deal(rules, round_words(9, 0, 150)).dealt.reshape(-1)
    before, _ = _bid_estimates(rules, hands)
    heuristic._bid_tables.cache_clear()
    monkeypatch.setattr(hand_eval, "side_card_value", with_jacks)
    try:
        hundredths, _ = _bid_estimates(rules, hands)
    finally:
        heuristic._bid_tables.cache_clear()  # the tables built with the patched engine
    cards = _htables(rules).hand_cards
    for k, m in enumerate(hands.tolist()):
        hand = [cards[b] for b in range(52) if m >> b & 1]
        total = sum(t.value for t in likely_tricks(rules, hand))  # the engine, jacks counted
        assert round(total * 100) == hundredths[k], (k, total)
    assert (hundredths > before).sum() >= 100  # the jacks changed many estimates


def _patched_estimates(
    monkeypatch: pytest.MonkeyPatch, rules: st.Rules, name: str, patch: object, rounds: int = 150
) -> tuple[list[list[st.Card]], tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """The hands of ``rounds`` rounds, and ``_bid_estimates`` for them before and after ``hand_eval.<name>``
    is patched (the lab's tables cleared around it, so they are asked of the patched engine)."""
    table = deal(rules, round_words(9, 0, rounds))
    hands = table.dealt.reshape(-1)
    cards = _htables(rules).hand_cards
    listed = [[cards[b] for b in range(52) if m >> b & 1] for m in hands.tolist()]
    heuristic._bid_tables.cache_clear()
    try:
        before = _bid_estimates(rules, hands)
        heuristic._bid_tables.cache_clear()
        monkeypatch.setattr(hand_eval, name, patch)
        after = _bid_estimates(rules, hands)
    finally:
        heuristic._bid_tables.cache_clear()  # the tables built with the patched engine
    return listed, before, after


def test_bid_estimates_follow_trump_shares_only_the_engine_knows(monkeypatch: pytest.MonkeyPatch) -> None:
    """The trump holdings' totals and spare trumps come from the engine's trump shares: when it starts
    to count an unguarded trump among the top eight as 0.2 of a trick, the batched estimate counts it
    too (and no longer counts it as a spare trump to ruff with)."""
    real = hand_eval._trump_shares

    def eight_high(rules: st.Rules, held: list[st.Card]) -> list[object]:
        return [
            s._replace(value=0.2, kind="half-guarded") if s.kind == "" and s.place < 8 else s for s in real(rules, held)
        ]

    rules = st.Rules.preset("jokers", target=488)
    hands, (before, _), (hundredths, _) = _patched_estimates(monkeypatch, rules, "_trump_shares", eight_high)
    for k, hand in enumerate(hands):
        total = sum(t.value for t in likely_tricks(rules, hand))  # the engine, patched
        assert round(total * 100) == hundredths[k], (k, total)
    assert (hundredths != before).sum() >= 100  # the new share changed many estimates


def test_bid_estimates_follow_a_ruffing_rule_only_the_engine_knows(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ruffers come from ``hand_eval.ruffing_trumps``: when a singleton, like a void, leaves room
    for two ruffs, the batched estimate follows."""

    def singletons_twice(spare: int, lengths: list[int]) -> int:
        return min(spare, sum(2 for n in lengths if n <= 1))

    rules = st.Rules.preset("jokers", target=489)
    hands, (before, _), (hundredths, _) = _patched_estimates(monkeypatch, rules, "ruffing_trumps", singletons_twice)
    for k, hand in enumerate(hands):
        total = sum(t.value for t in likely_tricks(rules, hand))  # the engine, patched
        assert round(total * 100) == hundredths[k], (k, total)
    assert (hundredths > before).sum() >= 20 and not (hundredths < before).any()


def test_bid_estimates_follow_nil_risks_only_the_engine_knows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether a nil is safe comes from ``hand_eval.nil_risks`` of the trumps and of each side suit:
    when three trumps are already too many, and a queen is as hard to throw as a king, the
    batched safety follows, for the trumps and for the side suits."""
    real = hand_eval.nil_risks

    def wary(rules: st.Rules, hand: Iterable[st.Card]) -> tuple[hand_eval.NilRisk, ...]:
        hand = list(hand)
        risks = list(real(rules, hand))
        trumps = [c for c in hand if rules.is_trump(c)]
        if len(trumps) == 3:
            risks.append(hand_eval.NilRisk("many trumps", number=3))
        for card in hand:
            if card.rank == st.Rank.QUEEN and not rules.is_trump(card):
                lower = sum(1 for c in hand if c.suit == card.suit and c.rank < card.rank and not rules.is_trump(c))
                if lower < 2:
                    risks.append(hand_eval.NilRisk("unguarded king", card, lower))
        return tuple(risks)

    rules = st.Rules.preset("jokers", target=490)
    hands, (_, before), (_, safe) = _patched_estimates(monkeypatch, rules, "nil_risks", wary, rounds=500)
    why: set[str] = set()
    for k, hand in enumerate(hands):
        assert st.nil_advice(rules, hand).safe == safe[k], k  # the engine, patched
        if before[k] and not safe[k]:
            why |= {r.kind for r in wary(rules, hand)}
    assert (before & ~safe).sum() >= 30 and not (safe & ~before).any()
    assert why == {"many trumps", "unguarded king"}  # both new risks reached the batched safety


@pytest.mark.parametrize("key", [*PRESETS, "classic/two-of-clubs/failed-nil-none"])
def test_invariants(key: str) -> None:
    rules = RULE_SETS[key]
    res = simulate(rules, 5000, seed=21, policy="heuristic")
    n = len(res)
    rows = np.arange(n)
    trump = np.uint64(_mask(rules.trump_order()))
    suit_mask = np.array([_mask(c for c in rules.deck() if rules.suit_of(c) == s) for s in st.Suit], np.uint64)
    suit_of = np.full(54, -1)
    for c in rules.deck():
        suit_of[c.index] = rules.suit_of(c)
    assert (np.sort(res.plays, axis=1) == np.array(sorted(c.index for c in rules.deck()))).all()
    seats = res.play_seats().astype(np.intp)
    held = res.hands.copy()
    broken = np.zeros(n, bool)
    for t in range(13):
        lead = res.plays[:, 4 * t].astype(np.intp)
        led = suit_of[lead]
        leader_hand = held[rows, seats[:, 4 * t]]
        led_trump = (trump >> lead.astype(np.uint64)) & np.uint64(1) == 1
        assert (~led_trump | broken | ((leader_hand & ~trump) == 0)).all(), f"trump led too early, trick {t}"
        for j in range(4):
            card = res.plays[:, 4 * t + j].astype(np.intp)
            bit = np.uint64(1) << card.astype(np.uint64)
            hand = held[rows, seats[:, 4 * t + j]]
            assert ((hand & bit) != 0).all(), f"card not held, trick {t}"
            if j:
                assert ((suit_of[card] == led) | ((hand & suit_mask[led]) == 0)).all(), f"revoke, trick {t}"
            held[rows, seats[:, 4 * t + j]] = hand & ~bit
        broken |= ((trump >> res.plays[:, 4 * t : 4 * t + 4].astype(np.uint64)) & np.uint64(1)).any(axis=1)
    assert (held == 0).all()
    assert (res.tricks.sum(axis=1) == 13).all()
    assert ((res.bids >= 0) & (res.bids <= 13)).all() and not res.blind_nil.any()


def test_reproducible_whatever_the_batching() -> None:
    rules = st.Rules.preset("jokers")
    a = simulate(rules, 1500, seed=5, policy="heuristic")
    b = simulate(rules, 1500, seed=5, policy=HeuristicPolicy(), batch_size=256, workers=3)
    c = simulate(rules, 500, seed=5, policy="heuristic", start=1000, batch_size=77)
    for name in ("dealer", "hands", "bids", "plays", "leaders", "winners", "tricks", "points", "bags"):
        assert (getattr(a, name) == getattr(b, name)).all(), name
        assert (getattr(a, name)[1000:] == getattr(c, name)).all(), name
    assert isinstance(get_policy("heuristic"), HeuristicPolicy)
    # the bots are not the random policy
    assert not (simulate(rules, 200, seed=5).plays == a.plays[:200]).all()


def test_the_play_source_run_as_python_plays_as_it_does_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """``heuristic_play`` is one source: loaded again as plain Python (as where numba is missing),
    it plays every card of the same rounds as the compiled copy, nil rounds included."""
    import importlib.util

    from spades_tutor.solver import jit

    spec = importlib.util.find_spec("spades_tutor.lab.heuristic_play")
    assert spec is not None and spec.loader is not None
    python_copy = importlib.util.module_from_spec(spec)
    with jit.as_python():
        spec.loader.exec_module(python_copy)
    assert not hasattr(python_copy.choose, "py_func")  # plain Python, not a numba dispatcher
    rules = st.Rules.preset("jokers")
    compiled = simulate(rules, 60, seed=7, policy="heuristic")
    monkeypatch.setattr(heuristic, "choose", python_copy.choose)
    as_python = simulate(rules, 60, seed=7, policy="heuristic")
    assert (compiled.bids == 0).any()  # a nil to set or keep is among them
    for name in ("plays", "leaders", "winners", "tricks", "points"):
        assert (getattr(compiled, name) == getattr(as_python, name)).all(), name
