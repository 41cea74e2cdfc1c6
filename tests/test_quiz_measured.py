"""The quizzes answered from measured odds: "Is nil safe?" and "What would you bid?"."""

from __future__ import annotations

import re
import time

import pytest

import spades_tutor as st
from spades_tutor.lab.odds import hand_odds, nil_made_counts
from spades_tutor.quiz import generate, item_from_dict
from spades_tutor.quiz.kinds.best_bid import BID_DEALS, BID_SLACK, BestBidItem
from spades_tutor.quiz.kinds.nil_safe import NIL_DEALS, NIL_SEED, RISKY, SAFE, NilSafeItem, nil_levels

#: seeds per level and preset: each item measures a few hands (about 0.3–0.6 s), so 200 seeds
#: a level in two presets would take ten minutes; 24 keep the sweep near a minute
SEEDS = range(24)
PRESETS = ("jokers", "deuces-high")


@pytest.fixture(scope="module")
def sweep() -> dict[tuple[str, int], list[NilSafeItem]]:
    out = {}
    for preset in PRESETS:
        rules = st.Rules.preset(preset)
        for level in (1, 2, 3):
            items = [generate("nil-safe", rules, seed, level) for seed in SEEDS]
            assert all(isinstance(i, NilSafeItem) for i in items)
            out[preset, level] = items  # type: ignore[assignment]
    return out


def test_nil_safe_answers_are_balanced_within_a_band(sweep: dict[tuple[str, int], list[NilSafeItem]]) -> None:
    for items in sweep.values():
        yes = sum(i.answer() for i in items)
        assert 6 <= yes <= 18, yes  # 24 fair coin flips land in 6..18 with probability > 0.99


def test_nil_safe_answers_follow_no_seed_parity(sweep: dict[tuple[str, int], list[NilSafeItem]]) -> None:
    for preset in PRESETS:
        items = [i for level in (1, 2, 3) for i in sweep[preset, level]]
        even = {i.answer() for i in items if (i.seed or 0) % 2 == 0}
        odd = {i.answer() for i in items if (i.seed or 0) % 2 == 1}
        assert even == odd == {True, False}
        answers = [i.answer() for i in sweep[preset, 1]]
        assert answers != [s % 2 == 0 for s in SEEDS] and answers != [s % 2 == 1 for s in SEEDS]


def test_every_safe_answer_is_measured_at_the_threshold_or_above(
    sweep: dict[tuple[str, int], list[NilSafeItem]],
) -> None:
    for (_, level), items in sweep.items():
        for item in items:
            p = item.odds()[0]
            odds = hand_odds(item.rules, item.hand, deals=NIL_DEALS, seed=NIL_SEED, nil=True)
            assert p == odds.p_nil_made  # the answer is the measurement, nothing else
            assert item.answer() == (p >= SAFE)
            if level < 3:
                assert not RISKY < p < SAFE  # borderline hands are asked only at level 3
            misses = sum(level not in nil_levels(i.odds()[0]) for i in items)
            assert misses <= 2  # almost every hand fits its level's band


def test_level_3_asks_borderline_hands(sweep: dict[tuple[str, int], list[NilSafeItem]]) -> None:
    for preset in PRESETS:
        rates = [i.odds()[0] for i in sweep[preset, 3]]
        assert any(RISKY < p < SAFE for p in rates)
        clear = [i.odds()[0] for i in sweep[preset, 1]]
        assert all(p >= 0.9 or p <= 0.25 for p in clear)


def _named_dangers(reason: str) -> list[str]:
    """The cards a reason names as beating the hand's card ("loses only to X and Y")."""
    found = re.search(r"loses only to (.*?)(?:,|$)", reason)
    if not found:
        return []
    return [n.strip() for n in re.split(r",| and ", found.group(1)) if n.strip()]


def _named(card: st.Card) -> str:
    return f"the {card.name}" if card.is_joker else str(card)


def test_no_reason_names_a_held_card_as_a_danger(sweep: dict[tuple[str, int], list[NilSafeItem]]) -> None:
    for items in sweep.values():
        for item in items:
            held = {_named(c) for c in item.hand}
            for reason in item.check("yes").explanation:
                assert not set(_named_dangers(reason)) & held, reason


def test_the_little_joker_beside_the_ace_of_spades_is_never_its_danger() -> None:
    rules = st.Rules.preset("jokers")
    item = NilSafeItem(rules, hand=st.cards("LJ AS 4S 9H 5H 3H 8C 6C 4C 9D 7D 5D 3D"))
    text = " ".join(item.check("no").explanation)
    assert item.answer() is False and "A♠ is the third-highest trump: it loses only to the big joker," in text
    assert "big joker and the little joker" not in text


def test_the_explanation_states_the_measurement_and_threshold() -> None:
    item = NilSafeItem(st.Rules.preset("jokers"), hand=st.cards("LJ 3S 4H 5H 6H 7C 8C 9C 3C 3D 4D 5D 6D"))
    p, low, high = item.odds()
    first = item.check("no").explanation[0]
    assert first.startswith(f"Nil made in {round(100 * p)}% of {NIL_DEALS} deals of this hand (95% interval ")
    assert f"{round(100 * low)}–{round(100 * high)}%" in first
    assert ("safe (80% or more)" in first) == (p >= SAFE)


def test_known_hands_are_judged_by_their_measurement() -> None:
    """Hands the rules of thumb alone called safe at level 1: K♠ (deuces high's sixth trump), and six
    clubs K Q J 8 6 3. The bots make these nils often, so the answer follows the measured rate."""
    for preset, hand in (
        ("deuces-high", "KS 3S QH 9H 8H 7H QC JC 8C 6C JD 9D 6D"),
        ("jokers", "8S QH 8H 5H KC QC JC 8C 6C 3C KD JD 6D"),
    ):
        item = NilSafeItem(st.Rules.preset(preset), hand=st.cards(hand))
        p = item.odds()[0]
        assert item.answer() == (p >= SAFE)
        assert item.check("yes").correct == (p >= SAFE)
    big_joker = NilSafeItem(st.Rules.preset("jokers"), hand=st.cards("BJ 3S 4H 5H 6H 7C 8C 9C 3C 3D 4D 5D 6D"))
    assert big_joker.answer() is False and big_joker.odds()[0] == 0.0


def test_a_long_side_suit_with_two_honours_is_named_as_a_rule_of_thumb() -> None:
    item = NilSafeItem(st.Rules.preset("jokers"), hand=st.cards("8S QH 8H 5H KC QC JC 8C 6C 3C KD JD 6D"))
    assert any("6 clubs with K♣ Q♣ J♣" in r for r in item.check("no").explanation)


def test_nil_made_counts_equal_hand_odds_hand_by_hand() -> None:
    rules = st.Rules.preset("bicycle")
    hands = ["LJ 3S 4H 5H 6H 7C 8C 9C 3C 3D 4D 5D 6D", "BJ 3S 4H 5H 6H 7C 8C 9C 3C 3D 4D 5D 6D"]
    counts = nil_made_counts(rules, hands, deals=60, seed=4)
    assert counts == tuple(hand_odds(rules, h, deals=60, seed=4, nil=True).seat_tricks[0] for h in hands)


def test_generating_a_nil_question_takes_about_half_a_second() -> None:
    rules = st.Rules.preset("classic")
    start = time.perf_counter()
    for seed in range(100, 106):
        generate("nil-safe", rules, seed, 1 + seed % 3)
    assert (time.perf_counter() - start) / 6 < 1.5  # measured 0.3–0.6 s on average; room for a busy machine


# --- What would you bid? ------------------------------------------------------------------------


def test_best_bid_accepts_the_best_bid_and_one_either_side_only() -> None:
    rules = st.Rules.preset("jokers")
    for seed in range(4):
        item = generate("best-bid", rules, seed, 1 + seed % 3)
        assert isinstance(item, BestBidItem)
        odds = hand_odds(rules, item.hand, st.Seat.SOUTH, deals=BID_DEALS, seed=0, dealer=item.dealer)
        best = odds.best_bid
        assert item.answer() == best
        for bid in range(1, 14):
            assert item.check(bid).correct == (abs(bid - best) <= BID_SLACK), (bid, best)
        assert not item.check("lots").correct


def test_best_bid_feedback_quotes_the_odds_and_charts_the_tricks() -> None:
    item = generate("best-bid", st.Rules.preset("classic"), 3, 2)
    assert isinstance(item, BestBidItem)
    odds = item.odds()
    feedback = item.check(13)
    text = " ".join(feedback.explanation)
    assert odds.sentence() in text and "Your bid of 13" in text
    chart = item.feedback_view(feedback).detail
    assert chart is not None
    shown = dict(chart.items)
    for k, n in enumerate(odds.seat_tricks):
        label = f"{k} trick{'s' if k != 1 else ''}"
        assert (label in shown) == (n > 0)
        if n:
            assert shown[label].endswith(f" {round(100 * n / odds.deals)}%")
    widest = max(odds.seat_tricks)
    assert shown[f"{odds.seat_tricks.index(widest)} tricks"].count("█") == 24 or widest == odds.seat_tricks[1]


def test_best_bid_levels_go_by_trump_count_and_the_dealer_varies() -> None:
    rules = st.Rules.preset("deuces-high")
    dealers = set()
    for level, (low, high) in {1: (0, 2), 2: (3, 4), 3: (5, 13)}.items():
        for seed in range(8):
            item = generate("best-bid", rules, seed, level)
            assert isinstance(item, BestBidItem)
            assert low <= sum(rules.is_trump(c) for c in item.hand) <= high
            dealers.add(item.dealer)
            again = item_from_dict(item.to_dict())
            assert isinstance(again, BestBidItem) and again.hand == item.hand and again.dealer == item.dealer
    assert len(dealers) >= 3


def test_the_quiz_view_draws_a_bid_question_and_its_tricks_chart() -> None:
    import html

    from spades_tutor.ui.quiz_view import QuizView

    item = generate("best-bid", st.Rules.preset("jokers"), 7, 1)
    assert isinstance(item, BestBidItem)
    seen: list[bool] = []
    view = QuizView(item, lambda i, fb, attempt: seen.append(fb.correct))
    assert view.numbers is not None and view.detail.value == ""
    best = item.answer()
    view.numbers._page_message(view.numbers, {"values": {"bid": str(best)}})
    feedback = view.check()
    assert feedback is not None and feedback.correct and seen == [True]
    shown = html.unescape(view.result.value + view.detail.value)
    assert item.odds().sentence() in shown
    assert f"Tricks South took in {BID_DEALS} deals" in shown and "█" in shown
