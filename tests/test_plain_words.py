"""Plain words for measured figures (issue 30, point 3).

A learner reads a measured figure as "about 20% (likely between 16% and 24%)": no seed, no deal
count, no "heuristic", "layout", "95%" or code identifier in the words beside it. Those details
sit behind a "How was this measured?" disclosure beside the figure, which says how many deals,
which players, the seed and the interval's method. The words of measurement (double dummy,
simulation, solver, likely range) link to the glossary, as lessons link their terms. And a figure
that rounds to 0% or 100% is said "almost never" / "almost always", never contradicted beside it.
"""

from __future__ import annotations

import html
import re

import pytest

import spades_tutor as st
from spades_tutor.analysis import HandAnalysis, Hint
from spades_tutor.engine.text import how_often, percent
from spades_tutor.lab.odds import BidOdds
from spades_tutor.lessons.glossary import load_glossary
from spades_tutor.quiz import generate
from spades_tutor.quiz.kinds.best_bid import BID_DEALS, BID_SEED, BestBidItem
from spades_tutor.quiz.kinds.nil_safe import NIL_DEALS, NIL_SEED, NilSafeItem, nil_verdict
from spades_tutor.ui.glossary import TECHNICAL, TermLinks
from spades_tutor.ui.measured import how_measured_html
from spades_tutor.ui.play_page import PlayPage
from spades_tutor.ui.quiz_view import QuizView, feedback_html

#: words a learner never reads beside a figure (they may sit behind "How was this measured?")
TECHNICAL_WORDS = re.compile(r"(?i)\bseeds?\b|heuristic|layouts?\b|95%|wilson")
#: code identifiers: snake_case, CamelCase, CONSTANT_CASE
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[A-Z][a-z]+[A-Z]\w*\b|\b[A-Z]{2,}_[A-Z_]+\b")
DISCLOSURE = re.compile(r'<details class="st-measured">.*?</details>', re.S)
SUMMARY = '<details class="st-measured"><summary>How was this measured?</summary>'


def read(markup: str) -> str:
    """What the learner reads in ``markup`` outside the disclosure, the glossary's hidden definitions left out."""
    markup = DISCLOSURE.sub("", markup)
    markup = re.sub(r'<span class="st-term-def"[^>]*>.*?</span>', "", markup, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def disclosure(markup: str) -> str:
    """The text of the disclosure(s) in ``markup``."""
    found = DISCLOSURE.findall(markup)
    assert found, markup
    return " ".join(read(re.sub(r"</?details[^>]*>", "", d)) for d in found)


def plain(text: str) -> None:
    assert not TECHNICAL_WORDS.search(text), TECHNICAL_WORDS.search(text)
    assert not IDENTIFIER.search(text), IDENTIFIER.search(text)


def linked(markup: str) -> set[str]:
    """The glossary terms linked in ``markup`` (their anchors)."""
    return set(re.findall(r'class="st-term"[^>]*data-term="([^"]+)"', markup))


# --- "almost never", "almost always": a figure at 0% or 100% ------------------------------------------


@pytest.mark.parametrize(
    ("p", "said"),
    [
        (0.0, "almost never (in fewer than 1 in 100 of the deals; likely between 0% and 1%)"),
        (0.004, "almost never (in fewer than 1 in 100 of the deals; likely between 0% and 1%)"),
        (0.006, "in about 1% of the deals (likely between 0% and 1%)"),
        (0.994, "in about 99% of the deals (likely between 99% and 100%)"),
        (0.996, "almost always (in more than 99 in 100 of the deals; likely between 99% and 100%)"),
        (1.0, "almost always (in more than 99 in 100 of the deals; likely between 99% and 100%)"),
    ],
)
def test_a_figure_at_the_edges_is_said_in_words_that_agree_with_it(p: float, said: str) -> None:
    low, high = (0.0, 0.0095) if p < 0.5 else (0.986, 1.0)
    assert how_often(p, low, high) == said
    assert "about 0%" not in said and "about 100%" not in said


def test_the_nil_verdict_beside_a_figure_of_almost_never_says_the_same() -> None:
    rate, low, high = 0, 0, 1
    figure = how_often(0.0, 0.0, 0.01)
    safe, verdict = nil_verdict(rate, low, high)
    assert not safe and figure.startswith("almost never") and "almost never" in verdict
    assert not re.search(r"(?<!\d)0%", verdict)
    # a measured nil holding the big joker: the figure and the verdict say "almost never", not "0%"
    item = NilSafeItem(st.Rules.preset("jokers"), hand=st.cards("BJ 3S 4H 5H 6H 7C 8C 9C 3C 3D 4D 5D 6D"))
    first = item.check("no").explanation[0]
    assert percent(item.odds()[0]) == 0  # the big joker always takes a trick
    assert first.startswith("Nil made almost never (in fewer than 1 in 100 of the deals of this hand; ")
    assert "made almost never" in first.split(": ", 1)[1] and "about 0%" not in first


def test_hand_odds_at_the_edges_say_almost_never() -> None:
    rules = st.Rules.preset("jokers")
    strong = st.hand_odds(rules, "BJ LJ AS KS QS JS AH KH AC KC AD KD QD", deals=60, seed=1)
    assert strong.p_zero == 0
    said = strong.sentence()
    assert "no trick taken almost never (in fewer than 1 in 100 of the deals;" in said and "about 0%" not in said
    nil = st.hand_odds(rules, strong.hand, deals=60, seed=1, nil=True)
    assert nil.sentence().startswith("nil made almost never") and "60" not in nil.sentence()
    both = BidOdds(strong, nil).sentence()
    assert "nil made almost never (in fewer than 1 in 100 of them;" in both and "about 0%" not in both


# --- the measured quiz kinds: plain feedback, the detail behind the disclosure, the terms linked -------


@pytest.fixture(scope="module")
def nil_item() -> NilSafeItem:
    return NilSafeItem(st.Rules.preset("jokers"), hand=st.cards("LJ 3S 4H 5H 6H 7C 8C 9C 3C 3D 4D 5D 6D"))


@pytest.fixture(scope="module")
def bid_item() -> BestBidItem:
    item = generate("best-bid", st.Rules.preset("classic"), 3, 2)
    assert isinstance(item, BestBidItem)
    return item


def test_the_nil_feedback_is_plain_and_its_disclosure_holds_the_method(nil_item: NilSafeItem) -> None:
    for answer in ("yes", "no"):
        feedback = nil_item.check(answer)
        text = " ".join((*feedback.explanation, feedback.diagnosis or ""))
        plain(text)
        assert str(NIL_DEALS) not in text and "likely between" in text
        method = " ".join(feedback.measured)
        assert f"A simulation: {NIL_DEALS} deals of this hand" in method and f"Seed {NIL_SEED}: " in method
        assert "computer players" in method and "Wilson" in method and "95%" in method


def test_the_best_bid_feedback_is_plain_and_its_disclosure_holds_the_method(bid_item: BestBidItem) -> None:
    for answer in (bid_item.answer(), 13, 0):
        feedback = bid_item.check(answer)
        text = " ".join((*feedback.explanation, feedback.diagnosis or ""))
        plain(text)
        assert str(BID_DEALS) not in text
        plot = bid_item.feedback_view(feedback).plot
        assert plot is not None
        plain(plot.reading)
        assert str(BID_DEALS) not in plot.reading
        method = " ".join(feedback.measured)
        assert f"A simulation: {BID_DEALS} deals of this hand" in method and f"Seed {BID_SEED}: " in method
        assert "Wilson" in method and "overlaps the best bid's" in method


@pytest.mark.parametrize("kind", ["nil", "bid"])
def test_the_measured_feedback_links_its_terms_and_discloses_the_detail(
    kind: str, nil_item: NilSafeItem, bid_item: BestBidItem
) -> None:
    item = nil_item if kind == "nil" else bid_item
    view = QuizView(item)
    if kind == "nil":
        assert view._choice is not None
        view._choice.value = "no"
    else:
        assert view.numbers is not None
        view.numbers._page_message(view.numbers, {"values": {"bid": str(bid_item.answer())}})
    feedback = view.check()
    assert feedback is not None
    shown = view.result.value
    # the figure's range and the simulation behind it open their definitions in place
    assert {"glossary-likely-range", "glossary-simulation"} <= linked(shown)
    assert any(type(c).__name__ == "TermDisclosures" for c in view.widget.children)
    # the disclosure is there, closed, and holds the detail; the words outside it are plain
    assert shown.count(SUMMARY) == 1 and "<details open" not in shown
    plain(read(shown))
    said = disclosure(shown)
    assert "Seed " in said and "Wilson" in said and ("400 deals" in said)


def test_a_kind_that_is_not_measured_has_no_disclosure_and_no_links() -> None:
    item = generate("trick-winner", st.Rules.preset("jokers"), 1, 1)
    feedback = item.check(None)
    assert feedback.measured == ()
    assert "st-measured" not in feedback_html(feedback) and "st-term" not in feedback_html(feedback)


def test_only_the_words_of_measurement_are_linked_outside_lessons() -> None:
    terms = TermLinks(only=TECHNICAL)
    rules = st.Rules.preset("jokers")
    markup = terms.text(
        "A simulation of tricks and bids: the solver plays double dummy, likely between 1 and 2.", rules
    )
    assert linked(markup) == {
        "glossary-simulation",
        "glossary-solver",
        "glossary-double-dummy",
        "glossary-likely-range",
    }
    glossary = load_glossary()
    for name in TECHNICAL:  # every term linked is defined, in plain words
        definition = glossary.term(name).definition(rules)
        plain(definition)


def test_the_disclosure_escapes_its_lines_and_is_empty_without_any() -> None:
    assert how_measured_html(()) == ""
    markup = how_measured_html(["<b>400</b> deals"])
    assert markup.startswith(SUMMARY) and "<b>" not in markup and "&lt;b&gt;400" in markup


# --- the Play page: the analysis and the measured hints -------------------------------------------


def finished(page: PlayPage) -> None:
    """Play the hand out (South's last legal card each time) up to its score sheet."""
    page.keep_tricks.value = False
    while not page.sheet_pending:
        rnd = page.game.round
        if rnd.phase is st.Phase.BIDDING:
            page.bid_choice.value = page.bid_choice.options[3][1]
            page.bid()
        else:
            page.play(rnd.legal_plays()[-1])


def test_the_play_analysis_links_its_terms_and_says_how_the_hand_was_judged() -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    page.new_game(seed=7)
    finished(page)
    intro = next(c.value for c in page.body.children if "Where did that trick go?" in str(getattr(c, "value", "")))
    assert {"glossary-solver", "glossary-double-dummy"} <= linked(intro)
    plain(read(intro))
    report = HandAnalysis("7", 5, False, (), 0, 0.0, live=4)
    page._show_verdicts(report)
    shown = page.analysis_out.value
    assert shown.count(SUMMARY) == 1 and report.summary() in read(shown)
    said = disclosure(shown)
    assert "Double dummy: every hand known, both sides at their best." in said
    assert "It judged 4 of your cards while you played" in said and "not exact" in said
    assert "glossary-solver" in linked(shown)
    assert page.terms.widget in page.widget.children  # the hidden widget that opens the definitions
    if page.live is not None:
        page.live.close()


def test_a_measured_hint_is_plain_and_discloses_its_deals_and_seed() -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    page.new_game(seed=7)
    hint = Hint(st.Card.parse("AH"), "makes your side's contract of 7", 150, 200, 0.68, 0.81, False, (), seed=12)
    page.message = f"Hint: play {hint.card}. {hint.sentence()}"
    page.method = (page.message, hint.method())
    page.render()
    shown = page.said.value
    plain(read(shown))
    assert "200" not in read(shown) and "in about 75% of the ways the unseen cards may lie" in read(shown)
    assert {"glossary-simulation", "glossary-double-dummy"} <= linked(shown)
    said = disclosure(shown)
    assert "A simulation: 200 deals of the cards you cannot see" in said and "Seed 12: " in said
    assert "in 150 of those 200 deals" in said and "Wilson" in said
    page.message = "Not K♠: you must follow suit."  # another message: no disclosure, no links
    page.render()
    assert "st-measured" not in page.said.value and "st-term" not in page.said.value


def test_the_bidding_helper_discloses_how_its_odds_were_measured() -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    page.new_game(seed=4)
    helper = next(c.value for c in page.body.children if "Sure tricks" in str(getattr(c, "value", "")))
    plain(read(helper))
    assert "1,000" not in read(helper)
    said = disclosure(helper)
    assert "A simulation: 1,000 deals of your hand" in said and "Seed 0: " in said and "Wilson" in said
    page.hint()
    assert page.message.startswith("Hint: bid ") and "1,000" not in page.message
    plain(read(page.said.value))
    assert "A simulation: 1,000 deals of your hand" in disclosure(page.said.value)
