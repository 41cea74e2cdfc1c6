"""Accessibility in Chromium: axe-core on every page in the states a learner meets, what a screen
reader is told, reduced motion.

axe-core 4.14.1 (``vendor/axe-core-4.14.1.min.js``, from npm, MPL-2.0) is injected into the page
and run on the whole document, Voilà's own markup included. The target is no finding of impact
critical, serious or moderate; minor findings are printed, not failed. A rule switched off for a
node the app cannot change is listed in ``EXCLUDED`` with its reason (none is needed today).
"""

from __future__ import annotations

import itertools
import json
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

import spades_tutor as st

from .conftest import FIRST_EXPECT_TIMEOUT_MS, Server, choose_questions
from .test_app_journeys import answer_score_quiz, go_on_from_a_kept_trick, south_cards
from .test_layout import PAGES, PROBLEMS, show_page

pytestmark = pytest.mark.browser

AXE_JS = Path(__file__).parent / "vendor" / "axe-core-4.14.1.min.js"
FAILING = ("critical", "serious", "moderate")
#: rule id -> (CSS selector of the nodes it is not run on, why): only markup that is not the app's
EXCLUDED: dict[str, tuple[str, str]] = {}

RUN_AXE = """async ([excluded]) => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations.map(v => ({
    id: v.id, impact: v.impact,
    nodes: v.nodes
      .filter(n => !(excluded[v.id] && n.target.some(t => document.querySelector(t)?.closest(excluded[v.id][0]))))
      .map(n => `${n.target.join(' ')} ${n.html.slice(0, 120)} | ${(n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 200)}`),
  })).filter(v => v.nodes.length);
}"""


def axe_findings(page: Page, state: str) -> list[str]:
    """axe-core's findings of impact moderate or worse on the page as it is now, one line per node."""
    page.wait_for_timeout(300)  # let the widgets finish drawing what the last message changed
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE_JS))
    assert page.evaluate("() => axe.version") == "4.14.1"
    violations = page.evaluate(RUN_AXE, [EXCLUDED])
    minor = [f"{state}: {v['id']} x{len(v['nodes'])}" for v in violations if v["impact"] not in FAILING]
    if minor:
        print("minor axe findings (not failed):", *minor, sep="\n  ")
    return [f"{state}: {v['impact']} {v['id']}: {n}" for v in violations if v["impact"] in FAILING for n in v["nodes"]]


def open_app(page: Page, server: Server, path: str = "/") -> None:
    page.goto(server.url(path), timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_role("button", name="Home")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.locator("[role=main]")).to_be_attached()


def go(page: Page, name: str) -> None:
    page.get_by_role("navigation", name="Pages").get_by_role("button", name=name, exact=True).click()


FIRST_OPEN = {
    "Home": ("/", "Learn Spades with Jokers"),
    "Lesson 3 step 3": ("/?lesson=3&step=3", "Step 3 of"),
    "Quiz yourself": ("/?page=quiz", "Question"),
    "Joker lab": ("/?page=lab", "Pick two rule sets"),
    "Classroom": ("/?deal=4127W&preset=jokers", "Deal 4127W"),
    "Play": ("/?page=play", "Press Deal to start."),
    "Glossary": ("/?page=glossary", "Find a term:"),
    "Your table": ("/?page=table&preset=deuces-high", "16 trumps instead of 15"),
    "Progress": ("/?page=progress", "No answers yet"),
    "Puzzles": ("/?page=puzzles", "Play problems from real rounds"),
}


@pytest.mark.parametrize("name", list(FIRST_OPEN))
def test_every_page_as_it_first_opens_has_no_axe_finding(page: Page, voila_server: Server, name: str) -> None:
    path, shown = FIRST_OPEN[name]
    open_app(page, voila_server, path)
    expect(page.get_by_text(shown).first).to_be_visible()
    expect(page).to_have_title(re.compile(rf"^{re.escape(name.split(' step')[0])}\b.* · Spades with Jokers tutor$"))
    # one banner, one navigation, one main; one h1, and no heading level skipped
    for role in ("banner", "navigation", "main"):
        expect(page.get_by_role(role)).to_have_count(1)
    levels = page.evaluate("() => [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].map(h => +h.tagName[1])")
    assert levels.count(1) == 1 and levels[0] == 1, levels
    assert all(b - a <= 1 for a, b in itertools.pairwise(levels)), levels
    assert axe_findings(page, name) == []


def test_the_quiz_after_a_right_and_a_wrong_answer_has_no_axe_finding(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/?page=quiz")
    choose_questions(page, "Score this hand")
    found = axe_findings(page, "score question")
    answer_score_quiz(page, right=True)
    expect(page.get_by_text("✓ Right!")).to_be_visible()
    found += axe_findings(page, "right answer")
    page.get_by_role("button", name="Next question ▶").click()
    answer_score_quiz(page, right=False, second_try=False)
    expect(page.get_by_text("✗ Not quite — try again.")).to_be_visible()
    found += axe_findings(page, "wrong first try, a hint shown")
    page.get_by_label(f"{st.Team.NS.label} points:").fill("999")  # more than any one hand scores: wrong again
    page.get_by_role("button", name="Check again").click()
    expect(page.get_by_text("✗ Not quite.")).to_be_visible()
    found += axe_findings(page, "wrong answer")
    choose_questions(page, "Trump order")
    quiz = page.locator(".st-quiz-trump-order")
    quiz.get_by_role("checkbox").first.click()
    expect(quiz.locator(".st-order-badge")).to_have_count(1)
    found += axe_findings(page, "trump order, a card picked")
    assert found == []


def test_play_mid_hand_with_a_hint_and_an_illegal_click_has_no_axe_finding(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/?page=play")
    page.get_by_role("button", name="Deal ▶").click()
    expect(page.get_by_text("Sure tricks:")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.get_by_role("button", name="Hint").click()
    expect(page.get_by_text(re.compile(r"^Hint: bid "))).to_be_visible()
    found = axe_findings(page, "bidding with a hint")
    page.locator(".st-play .widget-toggle-buttons button").nth(3).click()
    page.get_by_role("button", name="Bid", exact=True).click()
    cards = south_cards(page)
    expect(cards).to_have_count(13)
    found += axe_findings(page, "first card to play")
    for left in range(13, 10, -1):
        expect(cards).to_have_count(left)
        if page.locator(".st-play .st-play-next-trick").count():
            found += axe_findings(page, f"a complete trick kept on the table with {left} cards left")
        go_on_from_a_kept_trick(page)
        legal = page.locator(".st-play .st-mark-legal")
        expect(legal.first).to_be_visible()
        illegal = page.locator(".st-play [role=radio]:not(.st-mark-legal)")
        if illegal.count():
            illegal.first.click()
            expect(page.locator(".st-proj-question")).to_contain_text("Not ")
            found += axe_findings(page, f"an illegal click with {left} cards left")
        legal.first.click()
    expect(cards).to_have_count(10)
    found += axe_findings(page, "mid-hand")
    assert found == []


def test_the_classroom_asking_the_class_in_projector_mode_and_four_colours_has_no_axe_finding(
    page: Page, voila_server: Server
) -> None:
    open_app(page, voila_server, "/?deal=4127W&preset=jokers")
    go(page, "Home")
    page.get_by_text("Projector: large cards and text").click()
    page.get_by_text("Four-colour deck").click()
    expect(page.locator(".st-app.st-app-large")).to_be_attached()
    found = axe_findings(page, "Home, projector and four colours")
    go(page, "Classroom")
    where = page.locator(".st-proj-where")
    expect(where).to_contain_text("step 0 of 56")
    found += axe_findings(page, "Classroom, projector and four colours")
    for n in range(1, 5):
        page.get_by_role("button", name="Next ▶").click()
        expect(where).to_contain_text(f"step {n} of 56")
    page.get_by_text("Ask the class before each card").click()
    page.get_by_role("button", name="Next ▶").click()  # step 5 is a card: the class is asked first
    expect(page.locator(".st-proj-question")).to_contain_text("What may North play?")
    found += axe_findings(page, "the class is asked")
    page.get_by_role("button", name="Reveal the answer").click()
    expect(page.locator(".st-proj-reasons")).to_contain_text("spades are not broken")
    found += axe_findings(page, "the answer revealed")
    go(page, "Quiz yourself")
    choose_questions(page, "Trump order")
    expect(page.locator(".st-quiz-trump-order").get_by_role("checkbox").first).to_be_visible()
    found += axe_findings(page, "Quiz, projector and four colours")
    assert found == []


def test_the_lab_with_its_plots_has_no_axe_finding(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/?page=lab")
    page.get_by_label("Sample:").select_option(label="2,000 rounds each")
    page.get_by_role("button", name="Run the lab ▶").click()
    expect(page.get_by_text("simulated and measured")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.locator(".st-plot .js-plotly-plot")).to_have_count(5)
    assert axe_findings(page, "the lab with its plots") == []


def test_every_rule_sets_lesson_2_has_no_axe_finding(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/")
    found = []
    for i, name in enumerate(st.Rules.preset_names()):
        go(page, "Home")
        page.get_by_label("Rule set:").select_option(label=f"{st.Rules.preset(name).title} ({name})")
        expect(page.locator(".st-rules-line")).to_contain_text(st.Rules.preset(name).describe()[:20])
        go(page, "Learn")
        if i == 0:  # the lesson stays open, redrawn in each rule set
            page.get_by_role("button", name=re.compile(r"^2\. ")).click()
        expect(page.get_by_text(re.compile(r"^Lesson 2: "))).to_be_visible()
        found += axe_findings(page, f"lesson 2 in {name}")
    assert found == []


def live_text(page: Page) -> list[str]:
    """The text of every polite live region on the page: what a screen reader reads out as it changes."""
    return page.locator("[aria-live=polite]").all_inner_texts()


def test_a_screen_reader_is_told_verdicts_turns_reasons_hints_and_readings(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/?page=quiz")
    choose_questions(page, "Score this hand")
    answer_score_quiz(page, right=False)
    expect(page.get_by_text("✗ Not quite.")).to_be_visible()
    main = page.get_by_role("main")
    assert "✗ Not quite." in main.aria_snapshot()
    assert any("✗ Not quite." in t for t in live_text(page)), live_text(page)

    go(page, "Play")
    page.get_by_role("button", name="Deal ▶").click()
    expect(page.get_by_text("Sure tricks:")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.get_by_role("button", name="Hint").click()
    expect(page.get_by_text(re.compile(r"^Hint: bid "))).to_be_visible()
    assert "Hint: bid" in main.aria_snapshot()
    assert any("Hint: bid" in t for t in live_text(page)), live_text(page)
    page.locator(".st-play .widget-toggle-buttons button").nth(3).click()
    page.get_by_role("button", name="Bid", exact=True).click()
    cards = south_cards(page)
    expect(cards).to_have_count(13)
    assert any(re.search(r"\byour turn\b|\bYou\b", t, re.I) for t in live_text(page)), live_text(page)
    said_illegal = said_winner = False
    for left in range(13, 8, -1):
        expect(cards).to_have_count(left)
        go_on_from_a_kept_trick(page)
        illegal = page.locator(".st-play [role=radio]:not(.st-mark-legal)")
        if not said_illegal and illegal.count():
            illegal.first.click()
            expect(page.locator(".st-proj-question")).to_contain_text("Not ")
            reason = page.locator(".st-proj-question").inner_text()
            assert reason in main.aria_snapshot() or reason.split("\n")[0] in main.aria_snapshot()
            assert any(reason.split("\n")[0] in t for t in live_text(page)), live_text(page)
            said_illegal = True
        page.locator(".st-play .st-mark-legal").first.click()
        if any(re.search(r"\bwins? the trick\b|\btook the trick\b|\bwon\b", t) for t in live_text(page)):
            said_winner = True
    assert said_winner, live_text(page)

    go(page, "Joker lab")
    page.get_by_label("Sample:").select_option(label="2,000 rounds each")
    page.get_by_role("button", name="Run the lab ▶").click()
    expect(page.get_by_text("simulated and measured")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    # the readings are sent one message each, after the summary: wait for them all
    deadline = time.monotonic() + FIRST_EXPECT_TIMEOUT_MS / 1000
    while True:
        readings = [t for t in live_text(page) if t.strip() and "Press “Run the lab”" not in t]
        if len(readings) >= 6 or time.monotonic() > deadline:
            break
        page.wait_for_timeout(200)
    assert len(readings) >= 6, readings  # the summary and the five plots' readings
    # each plot is a figure named by its reading: its text alternative
    figures = page.get_by_role("figure")
    expect(figures).to_have_count(5)
    for i in range(5):
        expect(figures.nth(i)).not_to_have_attribute("aria-label", re.compile("Press “Run the lab”"))
        name = figures.nth(i).get_attribute("aria-label") or ""
        assert name.strip() and name.strip() in [r.strip() for r in readings], name
    for reading in readings[:3]:
        assert reading.split("\n")[0][:40] in main.aria_snapshot()


def test_reduced_motion_keeps_a_selected_card_still(page: Page, voila_server: Server) -> None:
    page.emulate_media(reduced_motion="reduce")
    open_app(page, voila_server, "/?page=quiz")
    choose_questions(page, "Trump order")
    quiz = page.locator(".st-quiz-trump-order")
    first = quiz.get_by_role("checkbox").first
    first.click()
    expect(first).to_have_class(re.compile("st-selected"))
    # the cards redraw when the kernel echoes the choice: a card caught mid-redraw is detached and has
    # no computed style (""), so read it again until it is in the page
    read = "el => { const s = getComputedStyle(el); return [s.transform, s.transitionDuration]; }"
    style = first.evaluate(read)
    for _ in range(50):
        if all(style):
            break
        page.wait_for_timeout(100)
        style = first.evaluate(read)
    assert style == ["none", "0s"], json.dumps(style)
    page.emulate_media(reduced_motion="no-preference")
    page.wait_for_timeout(100)
    moved = first.evaluate("el => getComputedStyle(el).transform")
    assert moved != "none"  # the lift is there for those who have not asked for less motion


@pytest.mark.parametrize("width", [320, 640], ids=["320px", "200pct-zoom"])
def test_at_320_px_and_200_percent_zoom_every_control_is_reachable_without_sideways_scrolling(
    page: Page, voila_server: Server, width: int
) -> None:
    # 640 CSS px is a 1280 px window at 200% zoom; 320 CSS px is WCAG's reflow width (1280 px at 400%)
    open_app(page, voila_server, "/?deal=4127W")
    page.set_viewport_size({"width": width, "height": 900})
    problems: list[str] = []
    for name in PAGES:
        show_page(page, name, run_lab=False)
        page.wait_for_timeout(400)
        problems += [f"{name} at {width} px: {p}" for p in page.evaluate(PROBLEMS)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("width", [320, 640], ids=["320px", "200pct-zoom"])
def test_a_lesson_step_and_a_hand_in_play_reflow_at_320_px_and_200_percent_zoom(
    page: Page, voila_server: Server, width: int
) -> None:
    """Deeper states than the pages as they open: a lesson step with its quiz, and Play mid-hand."""
    page.set_viewport_size({"width": width, "height": 900})
    problems: list[str] = []
    open_app(page, voila_server, "/?lesson=3&step=3")
    expect(page.get_by_text("Step 3 of")).to_be_visible()
    page.wait_for_timeout(400)
    problems += [f"lesson 3 step 3 at {width} px: {p}" for p in page.evaluate(PROBLEMS)]
    open_app(page, voila_server, "/?page=play")
    page.get_by_role("button", name="Deal ▶").click()
    expect(page.get_by_text("Sure tricks:")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.wait_for_timeout(400)
    problems += [f"Play bidding at {width} px: {p}" for p in page.evaluate(PROBLEMS)]
    page.locator(".st-play .widget-toggle-buttons button").nth(3).click()
    page.get_by_role("button", name="Bid", exact=True).click()
    cards = south_cards(page)
    expect(cards).to_have_count(13)
    for left in (13, 12):
        expect(cards).to_have_count(left)
        go_on_from_a_kept_trick(page)
        page.locator(".st-play .st-mark-legal").first.click()
    expect(cards).to_have_count(11)
    page.wait_for_timeout(400)
    problems += [f"Play mid-hand at {width} px: {p}" for p in page.evaluate(PROBLEMS)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "size", [(1366, 768, False), (375, 812, False), (1920, 1080, True)], ids=["laptop", "phone", "projector"]
)
def test_a_lesson_14_ending_is_played_to_its_end_against_the_solver(
    page: Page, voila_server: Server, size: tuple[int, int, bool]
) -> None:
    """Lesson 14 step 2: the learner plays the ending's three tricks; the solver plays the others. Each
    finished trick stays on the table with its winner until "Next trick"; the end says how the goal went
    and which card works; the explanation waits until then. axe at each state."""
    from .test_layout import PROBLEMS, SHOTS, projector_on

    width, height, projector = size
    open_app(page, voila_server, "/")
    page.set_viewport_size({"width": width, "height": height})
    if projector:
        projector_on(page)
    page.goto(voila_server.url("/?lesson=14&step=2"), timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
    ending = page.locator(".st-ending").first
    expect(ending).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(ending).to_contain_text("Your goal. You play South: E–W bid 6 and have 3")
    after = page.locator(".st-after-answer").first
    expect(page.locator(".st-answer-first").first).to_have_text("Play the ending out: the explanation follows it.")
    expect(after).to_be_hidden()
    found = axe_findings(page, f"ending to play {width}")
    mine = ending.locator(".st-ending-mine")

    def play(card: str) -> None:
        chosen = mine.locator(f'[data-card="{card}"].st-mark-legal')  # the hand of this turn, drawn
        expect(chosen).to_be_visible()
        chosen.click()
        ending.get_by_role("button", name="Play card").click()

    # the common mistake: the club; West's ace wins, and the trick stays on the table with its winner
    play("7♣")
    trick = ending.locator(".st-line-trick")
    expect(ending.locator(".st-ending-said")).to_have_text("West wins the trick.")
    expect(trick.locator('[data-card="A♣"]')).to_be_visible()
    expect(trick).to_contain_text("West · wins")
    expect(mine.locator("[data-card]")).to_have_count(2)
    found += axe_findings(page, f"a finished trick kept {width}")
    page.screenshot(path=str(SHOTS / f"lesson-14-ending-trick-{width}x{height}.png"))
    ending.get_by_role("button", name="Next trick ▶").click()
    expect(ending.locator(".st-ending-said")).to_have_text("Your turn: West led the four of hearts.")
    play("A♥")  # too late: East trumps it
    expect(trick).to_contain_text("East · wins")
    ending.get_by_role("button", name="Next trick ▶").click()
    play("6♦")
    said = ending.locator(".st-ending-said")
    expect(said).to_contain_text("Not this time. E–W end with 6 tricks: their 6 is made.")
    expect(said).to_contain_text("The card that works is the ace of hearts")
    expect(after).to_be_visible()
    expect(after).to_contain_text("The common mistake")
    box = said.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    found += axe_findings(page, f"the ending missed {width}")
    # played again the right way: the ace at once
    ending.get_by_role("button", name="Play it again").click()
    play("A♥")
    expect(trick).to_contain_text("South · led · wins")
    ending.get_by_role("button", name="Next trick ▶").click()
    expect(ending.locator(".st-ending-said")).to_have_text("Your lead.")
    play(mine.locator(".st-mark-legal").first.get_attribute("data-card") or "")
    ending.get_by_role("button", name="Next trick ▶").click()
    play(mine.locator(".st-mark-legal").first.get_attribute("data-card") or "")
    expect(said).to_contain_text("Well played. E–W end with 5 tricks: their 6 is set.")
    assert page.evaluate(PROBLEMS) == []
    assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    page.screenshot(path=str(SHOTS / f"lesson-14-ending-set-{width}x{height}.png"), full_page=True)
    found += axe_findings(page, f"the ending set {width}")
    assert found == []
