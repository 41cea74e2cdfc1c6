"""The quizzes answered from measured odds: "Is nil safe?" and "What would you bid?"."""

from __future__ import annotations

import re
import subprocess
import sys
import time

import pytest

import spades_tutor as st
from spades_tutor.engine.text import likely, signed_points
from spades_tutor.lab.bid_plot import BID_PLOT_HEIGHT, bid_figure, bid_reading
from spades_tutor.lab.odds import bid_odds, hand_odds, nil_made_counts
from spades_tutor.lab.plots import data_table
from spades_tutor.quiz import generate, item_from_dict
from spades_tutor.quiz.kinds.best_bid import BID_DEALS, BestBidItem
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


@pytest.mark.slow
def test_nil_safe_answers_are_balanced_within_a_band(sweep: dict[tuple[str, int], list[NilSafeItem]]) -> None:
    for items in sweep.values():
        yes = sum(i.answer() for i in items)
        assert 6 <= yes <= 18, yes  # 24 fair coin flips land in 6..18 with probability > 0.99


@pytest.mark.slow
def test_nil_safe_answers_follow_no_seed_parity(sweep: dict[tuple[str, int], list[NilSafeItem]]) -> None:
    for preset in PRESETS:
        items = [i for level in (1, 2, 3) for i in sweep[preset, level]]
        even = {i.answer() for i in items if (i.seed or 0) % 2 == 0}
        odd = {i.answer() for i in items if (i.seed or 0) % 2 == 1}
        assert even == odd == {True, False}
        answers = [i.answer() for i in sweep[preset, 1]]
        assert answers != [s % 2 == 0 for s in SEEDS] and answers != [s % 2 == 1 for s in SEEDS]


@pytest.mark.slow
def test_every_safe_answer_is_measured_at_the_threshold_or_above(
    sweep: dict[tuple[str, int], list[NilSafeItem]],
) -> None:
    for (_, level), items in sweep.items():
        for item in items:
            p = item.odds()[0]
            odds = hand_odds(item.rules, item.hand, deals=NIL_DEALS, seed=NIL_SEED, nil=True)
            assert p == odds.p_nil_made  # the answer is the measurement, nothing else
            low = odds.p_zero_interval[0]
            assert item.answer() == (round(100 * low) >= round(100 * SAFE))  # its whole interval, as shown
            if level < 3:
                assert not RISKY < p < SAFE  # borderline hands are asked only at level 3
            misses = sum(level not in nil_levels(i.odds()[0]) for i in items)
            assert misses <= 2  # almost every hand fits its level's band


@pytest.mark.slow
def test_level_3_asks_borderline_hands(sweep: dict[tuple[str, int], list[NilSafeItem]]) -> None:
    for preset in PRESETS:
        rates = [i.odds()[0] for i in sweep[preset, 3]]
        assert any(RISKY < p < SAFE for p in rates)
        clear = [round(100 * i.odds()[0]) for i in sweep[preset, 1]]
        assert all(p >= 90 or p <= 25 for p in clear)


def _named_dangers(reason: str) -> list[str]:
    """The cards a reason names as beating the hand's card ("loses only to X and Y")."""
    found = re.search(r"loses only to (.*?)(?:,|$)", reason)
    if not found:
        return []
    return [n.strip() for n in re.split(r",| and ", found.group(1)) if n.strip()]


def _named(card: st.Card) -> str:
    return f"the {card.name}" if card.is_joker else str(card)


@pytest.mark.slow
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
    assert first.startswith(f"Nil made in about {round(100 * p)}% of the deals of this hand (likely between ")
    assert f"likely between {round(100 * low)}% and {round(100 * high)}%" in first
    assert first.split("%): ", 1)[1].startswith("safe: ") == item.answer() == (round(100 * low) >= 80)
    assert item.check("no").explanation[1].startswith("Judged by the computer players: ")


def test_known_hands_are_judged_by_their_measurement() -> None:
    """Hands the rules of thumb alone call safe: K♠ (deuces high's sixth trump), and six clubs
    K Q J 8 6 3. Opponents who play to set a nil (lead low into it, duck in front of it, stay under
    it) set these often enough that they are measured not safe; an all-low hand stays safe."""
    for preset, hand in (
        ("deuces-high", "KS 3S QH 9H 8H 7H QC JC 8C 6C JD 9D 6D"),
        ("jokers", "8S QH 8H 5H KC QC JC 8C 6C 3C KD JD 6D"),
    ):
        rules = st.Rules.preset(preset)
        assert st.nil_advice(rules, st.cards(hand)).safe  # the rules of thumb see no danger
        item = NilSafeItem(rules, hand=st.cards(hand))
        p = item.odds()[0]
        assert p < SAFE, (preset, hand, p)
        assert item.answer() is False and item.check("no").correct and not item.check("yes").correct
        odds = hand_odds(rules, hand, deals=NIL_DEALS, seed=NIL_SEED, nil=True)
        assert odds.p_nil_made == p and odds.p_zero_interval[1] < 0.8
    low = NilSafeItem(st.Rules.preset("deuces-high"), hand=st.cards("3S 4S 3H 4H 5H 6H 3C 4C 5C 6C 3D 4D 5D"))
    assert low.answer() is True and low.odds()[0] >= 0.95
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


@pytest.mark.uncached_measurements  # every hand measured here, none read from the run's shared measurements
def test_generating_a_nil_question_takes_about_half_a_second_of_work() -> None:
    # the work is this process's CPU time, not the wall clock, which a busy shared machine stretches
    # (a CI run beside another measured 1.8 s of wall time a question for 0.5 s of work)
    rules = st.Rules.preset("classic")
    start = time.process_time()
    for seed in range(100, 106):
        generate("nil-safe", rules, seed, 1 + seed % 3)
    assert (time.process_time() - start) / 6 < 1.5  # measured 0.3–0.6 s on average


# --- What would you bid? ------------------------------------------------------------------------


def test_best_bid_feedback_quotes_the_odds_and_plots_what_each_bid_scores() -> None:
    rules = st.Rules.preset("classic")
    item = generate("best-bid", rules, 3, 2)
    assert isinstance(item, BestBidItem)
    # measured again here, not read from the item: the plot must draw the measurement's own numbers
    odds = bid_odds(rules, item.hand, st.Seat.SOUTH, deals=BID_DEALS, seed=0, dealer=item.dealer)
    assert odds.accepted == item.accepted() and 0 in odds.points
    feedback = item.check(13)
    text = " ".join(feedback.explanation)
    best = odds.best_bid
    low, high = odds.points_interval[best]
    assert f"scores best: about {signed_points(odds.points[best])} points to the side on average" in text
    assert f"({likely(signed_points(low), signed_points(high))})" in text and "Your bid of 13" in text
    assert "Judged by the computer players" in text and "points over the game" in text
    plot = item.feedback_view(feedback).plot
    assert plot is not None and plot.height == BID_PLOT_HEIGHT
    bars: dict[int, tuple[str, float, float, float]] = {}
    for trace in plot.spec["data"]:
        assert trace["type"] == "bar"
        err = trace["error_y"]
        for x, y, plus, minus in zip(trace["x"], trace["y"], err["array"], err["arrayminus"], strict=True):
            assert x not in bars  # each bid drawn once
            bars[x] = (trace["name"], y, y - minus, y + plus)
    assert sorted(bars) == list(range(0, 14))  # nil at 0, then 1 to 13
    for bid, (group, y, low, high) in bars.items():
        assert y == pytest.approx(odds.points[bid])
        assert (low, high) == pytest.approx(odds.points_interval[bid])
        assert group == ("best bid" if bid == best else "counted right" if bid in odds.accepted else "other bids")
    assert [a["x"] for a in plot.spec["layout"]["annotations"] if a["text"] == "best"] == [best]
    low, high = odds.points_interval[best]
    assert plot.reading.startswith(
        f"{'Nil' if best == 0 else f'Bid {best}'} scores best: about {signed_points(odds.points[best])} points to "
        f"the side on average ({likely(signed_points(low), signed_points(high))}) over the deals the bots played"
    )
    right = odds.accepted
    if right == (0,):
        assert plot.reading.endswith("; nil counts as right.")
    elif len(right) == 1:
        assert plot.reading.endswith(f"; bid {right[0]} counts as right.")
    else:
        words = ["nil" if b == 0 else str(b) for b in right]
        assert plot.reading.endswith(f"{', '.join(words[:-1])} and {words[-1]} count as right.") or (
            0 not in right and plot.reading.endswith(f"bids {right[0]}–{right[-1]} count as right.")
        )
    # its text alternative: one row per bid, the best first
    table = data_table(dict(plot.spec), plot.reading)
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th><td>(\d+)</td><td>([^<]+)</td><td>([^<]+)</td></tr>', table)
    assert len(rows) == 14 and rows[0][:3] == ("best bid", str(best), f"{odds.points[best]:.2f}")


def test_the_bid_plot_is_plain_json_built_without_plotly() -> None:
    code = (
        "import json, sys, spades_tutor as st\n"
        "from spades_tutor.quiz import generate\n"
        "item = generate('best-bid', st.Rules.preset('jokers'), 5, 3)\n"
        "plot = item.feedback_view(item.check(4)).plot\n"
        "json.dumps(dict(plot.spec))\n"
        "assert not [m for m in sys.modules if m.startswith('plotly')], 'plotly imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_the_bid_figure_for_a_notebook_is_titled_by_its_reading() -> None:
    item = generate("best-bid", st.Rules.preset("jokers"), 5, 3)
    assert isinstance(item, BestBidItem)
    fig = bid_figure(item.bids(), item.accepted())
    assert fig.layout.title.text == bid_reading(item.bids(), item.accepted())
    assert list(fig.data[0].x) == [item.answer()]


@pytest.mark.slow
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


def shown_text(markup: str) -> str:
    """What the learner reads in ``markup``: its text, without the glossary's hidden definitions."""
    import html
    import re

    markup = re.sub(r'<span class="st-term-def"[^>]*>.*?</span>', "", markup)
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def test_the_quiz_view_draws_a_bid_question_and_its_plot_with_the_data_table() -> None:
    import html

    from spades_tutor.ui.quiz_view import QuizView

    # an item with a bid counted right beside the best, so that the plot draws all three colours
    item = next(
        i
        for seed in range(40)
        for i in [generate("best-bid", st.Rules.preset("jokers"), seed, 1)]
        if len(i.accepted()) > 1
    )
    assert isinstance(item, BestBidItem)
    seen: list[bool] = []
    view = QuizView(item, lambda i, fb, attempt: seen.append(fb.correct))
    assert view.numbers is not None and view.plot is None
    before = len(view.widget.children)
    assert not any("st-plot" in c._dom_classes for c in view.widget.children)  # no empty plot box held open
    best = item.answer()
    view.numbers._page_message(view.numbers, {"values": {"bid": str(best)}})
    feedback = view.check()
    assert feedback is not None and feedback.correct and seen == [True]
    assert item.check(best).explanation[1] in shown_text(view.result.value)
    terms, reading, slot, key, data = view.widget.children[before:]
    assert type(terms).__name__ == "TermDisclosures"  # the measured feedback's glossary terms open in place
    plot = item.feedback_view(feedback).plot
    assert plot is not None
    # the reading comes just before the plot box (the page names the figure by it), the data after it
    assert html.unescape(reading.value) == f'<div class="st-reading"><b>{plot.reading}</b></div>'
    assert slot is view.plot and {"st-plot", "st-plot-small"} <= set(slot._dom_classes)
    drawn = slot.outputs[0]["data"]["application/vnd.plotly.v1+json"]
    assert drawn["data"] == plot.spec["data"] and drawn["layout"]["height"] == BID_PLOT_HEIGHT
    assert drawn["config"]["responsive"] and "width" not in drawn["layout"]
    # the key under the plot names every colour the bars are drawn in
    colours = [(t["name"], t["marker"]["color"]) for t in plot.spec["data"]]
    assert plot.key == tuple(colours) and [n for n, _ in colours] == ["best bid", "counted right", "other bids"]
    for name, colour in colours:
        assert f'style="background:{colour}" aria-hidden="true"></span>{name}</li>' in key.value
    shown = html.unescape(data.value)
    assert shown.startswith("<details><summary>Data of this plot</summary>")  # closed until opened
    assert f"<caption>{plot.reading}</caption>" in shown and 'tabindex="0"' in shown
