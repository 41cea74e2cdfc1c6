"""Learners' journeys through the app in Chromium, against the app served by Voilà.

Expected answers come from the engine (the lesson files and the quiz generators), never
from the test: the test only plays the learner.
"""

from __future__ import annotations

import base64
import itertools
import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

import spades_tutor as st
from spades_tutor.lessons import load_lessons
from spades_tutor.quiz import LegalPlaysItem
from spades_tutor.quiz.generators import generate

from .conftest import FIRST_EXPECT_TIMEOUT_MS, SCREENSHOTS, Server, choose_questions

pytestmark = pytest.mark.browser

LESSONS = {lesson.number: lesson for lesson in load_lessons()}


def open_app(page: Page, server: Server, path: str = "/") -> None:
    page.goto(server.url(path), timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
    expect(page.locator(".st-brand")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_role("button", name="Home")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)


def pick_rule_set(page: Page, name: str) -> None:
    page.get_by_label("Rule set:").select_option(label=preset_label(name))


def preset_label(name: str) -> str:
    return f"{st.Rules.preset(name).title} ({name})"


def card(scope: Page | Locator, c: st.Card) -> Locator:
    """A selectable card by its accessible name ("ace of hearts", "little joker")."""
    return scope.get_by_role("checkbox", name=re.compile(rf"^{re.escape(c.name)}\b"))


def open_lesson(page: Page, number: int) -> None:
    page.get_by_role("button", name="Learn", exact=True).click()
    lesson = LESSONS[number]
    page.get_by_role("button", name=re.compile(rf"^{number}\. {re.escape(lesson.title)}")).click()
    expect(page.get_by_text(f"Lesson {number}: {lesson.title}")).to_be_visible()


def first_quiz(lesson_number: int, kind: str) -> tuple[int, object]:
    """(step index, item) of the lesson's first fixed quiz of ``kind``, answered by the engine."""
    lesson = LESSONS[lesson_number]
    for i, step in enumerate(lesson.steps):
        for block in step.blocks:
            if block.kind == "quiz" and block.quiz_kind == kind and not block.adaptive:
                return i, block.quiz_item(lesson)
    raise AssertionError(f"lesson {lesson_number} has no {kind} quiz")


def test_lesson_3_can_be_followed_to_the_end_and_is_marked_done(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server)
    open_lesson(page, 3)
    total = len(LESSONS[3].steps)
    for n in range(1, total + 1):
        expect(page.get_by_text(f"Step {n} of {total}")).to_be_visible()
        expect(page.get_by_text(LESSONS[3].steps[n - 1].title, exact=True)).to_be_visible()
        page.get_by_role("button", name="Finish ✓" if n == total else "Next ▶").click()
    # the lesson's end: what it covered, and the next lesson a button away
    expect(page.get_by_role("heading", name=re.compile(r"^Lesson 3 done: "))).to_be_visible()
    expect(page.get_by_role("button", name=re.compile(r"^Next lesson: 4\. "))).to_be_focused()
    page.get_by_role("button", name="◀ All lessons").click()
    expect(page.get_by_role("button", name=re.compile(r"^3\. .* ✓$"))).to_be_visible()


def test_legal_play_quiz_right_then_wrong_shows_the_engines_feedback(page: Page, voila_server: Server) -> None:
    step, item = first_quiz(3, "legal-plays")
    assert isinstance(item, LegalPlaysItem)
    legal = item.answer()
    illegal = [c for c in item.hand if c not in legal]
    assert illegal, "the lesson's first legal-plays quiz should have an illegal card"
    open_app(page, voila_server)
    open_lesson(page, 3)
    for n in range(step):
        page.get_by_role("button", name="Next ▶").click()
        expect(page.get_by_text(f"Step {n + 2} of ")).to_be_visible()
    quiz = page.locator(".st-quiz").first
    for c in legal:
        card(quiz, c).click()
        expect(card(quiz, c)).to_have_attribute("aria-checked", "true")
    quiz.get_by_role("button", name="Check answer").click()
    expect(quiz.get_by_text("✓ Right!")).to_be_visible()

    # come back to the step for a fresh copy of the question, and answer it wrong
    total = len(LESSONS[3].steps)
    page.get_by_role("button", name="Next ▶").click()
    expect(page.get_by_text(f"Step {step + 2} of {total}")).to_be_visible()
    page.get_by_role("button", name="◀ Back").click()
    expect(page.get_by_text(f"Step {step + 1} of {total}")).to_be_visible()
    expect(page.get_by_text(LESSONS[3].steps[step].title, exact=True)).to_be_visible()
    quiz = page.locator(".st-quiz").first
    expect(quiz.get_by_role("button", name="Check answer")).to_be_enabled()  # the fresh copy, not the answered one
    card(quiz, illegal[0]).click()
    expect(card(quiz, illegal[0])).to_have_attribute("aria-checked", "true")
    quiz.get_by_role("button", name="Check answer").click()
    # a second try first: a hint of the rule, not the answer, and the choice left as it was
    expect(quiz.get_by_text("✗ Not quite — try again.")).to_be_visible()
    expect(quiz.locator(".st-hint")).to_contain_text(item.hint())
    expect(quiz.locator(".st-fb-answer")).to_have_count(0)
    expect(card(quiz, illegal[0])).to_have_attribute("aria-checked", "true")
    card(quiz, legal[0]).click()  # still wrong: the illegal card stays chosen
    expect(card(quiz, legal[0])).to_have_attribute("aria-checked", "true")
    quiz.get_by_role("button", name="Check again").click()
    expect(quiz.get_by_text("✗ Not quite.")).to_be_visible()
    answer_words = " ".join(str(c) for c in legal)
    expect(quiz.locator(".st-fb-answer")).to_contain_text(answer_words)
    reason = str(st.why_illegal(item.rules, item.hand, illegal[0], item.trick, item.spades_broken))
    expect(quiz.locator(".st-reasons")).to_contain_text(reason)
    expect(card(quiz, illegal[0])).to_have_class(re.compile("st-mark-illegal"))


def answer_score_quiz(page: Page, right: bool, preset: str = "jokers", second_try: bool = True) -> None:
    """On the Quiz yourself page with 'Score this hand' chosen: answer the shown question (a wrong
    answer twice, unless ``second_try`` is False: then the page is left at "try again")."""
    expect(page.locator(".st-quiz.st-quiz-score")).to_have_count(1)
    line = page.locator(".st-note").filter(has_text="Question").first
    expect(line).to_be_visible()
    seed = int(re.search(r"Question (\d+)", line.inner_text()).group(1))
    item = generate("score", st.Rules.preset(preset), seed, 1)
    answer = item.answer()
    for team in st.Team:
        points, bags = answer[team]
        points_field = page.get_by_label(f"{team.label} points:")
        bags_field = page.get_by_label("bags after:").nth(int(team))
        # a first guess, then the answer typed over it: the Check click right after must see the answer
        points_field.fill(str(points + 7))
        bags_field.fill(str(bags + 1))
        points_field.fill(str(points + (0 if right else 10)))
        bags_field.fill(str(bags))
    page.get_by_role("button", name="Check answer").click()
    if not right and second_try:  # the first wrong try earns a second: another wrong answer, then the answer
        expect(page.get_by_text("✗ Not quite — try again.")).to_be_visible()
        page.get_by_label(f"{st.Team.NS.label} points:").fill(str(answer[st.Team.NS][0] + 20))
        page.get_by_role("button", name="Check again").click()


def test_scoring_quiz_is_checked_by_the_engine_and_keeps_score(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server)
    page.get_by_role("button", name="Quiz yourself", exact=True).click()
    choose_questions(page, "Score this hand")
    answer_score_quiz(page, right=True)
    expect(page.get_by_text("✓ Right!")).to_be_visible()
    expect(page.get_by_text("Score 1 / 1 · streak 1")).to_be_visible()
    question = page.locator(".st-note").filter(has_text="Question").first
    first = question.inner_text()
    page.get_by_role("button", name="Next question ▶").click()
    expect(question).not_to_have_text(first)  # answer the new question, not the one before
    answer_score_quiz(page, right=False)
    expect(page.get_by_text("✗ Not quite.")).to_be_visible()
    expect(page.locator(".st-score-lines")).to_contain_text("Contract")
    expect(page.get_by_text("Score 1 / 2 · streak 0")).to_be_visible()


def open_trick_question(page: Page, server: Server) -> tuple[Locator, Locator, int, Any]:
    """The Quiz page on an easy "Who wins the trick?": (the quiz, its question line, the seed, the
    engine's item for the question shown)."""
    open_app(page, server, "/?page=quiz")
    choose_questions(page, "Who wins the trick?")
    quiz = page.locator(".st-quiz.st-quiz-trick-winner")
    expect(quiz).to_have_count(1)
    line = page.locator(".st-note").filter(has_text="Question").first
    expect(line).to_contain_text("Easy")
    seed = int(re.search(r"Question (\d+)", line.inner_text()).group(1))
    return quiz, line, seed, generate("trick-winner", st.Rules.preset("jokers"), seed, 1)


def test_a_wrong_answer_then_a_right_second_try_is_scored_as_a_second_try_and_kept(
    page: Page, voila_server: Server
) -> None:
    quiz, _line, _seed, item = open_trick_question(page, voila_server)
    right = item.answer()
    wrong = next(c for c in item.trick if c != right)
    wrong_card = quiz.get_by_role("radio", name=re.compile(rf"^{re.escape(wrong.name)}\b"))
    right_card = quiz.get_by_role("radio", name=re.compile(rf"^{re.escape(right.name)}\b"))
    wrong_card.click()
    expect(wrong_card).to_have_attribute("aria-checked", "true")
    quiz.get_by_role("button", name="Check answer").click()

    expect(quiz.get_by_text("✗ Not quite — try again.")).to_be_visible()
    expect(quiz.locator(".st-hint")).to_contain_text(item.hint())
    fb = quiz.locator(".st-result")
    expect(fb).not_to_contain_text(str(item.check([wrong]).explanation[0]))  # the explanation waits
    expect(quiz.locator(".st-fb-answer")).to_have_count(0)
    expect(quiz.locator(".st-mark-right, .st-mark-wrong")).to_have_count(0)  # no card marked yet
    expect(page.get_by_text("Score 0 / 0 · streak 0")).to_be_visible()  # not scored yet
    expect(wrong_card).to_have_attribute("aria-checked", "true")  # the choice is still there, and open
    right_card.click()
    expect(right_card).to_have_attribute("aria-checked", "true")
    quiz.get_by_role("button", name="Check again").click()

    expect(quiz.get_by_text("✓ Right on the second try!")).to_be_visible()
    expect(fb).to_contain_text(item.check([right]).explanation[0])
    board = "Score 1 / 1 · streak 1 · best streak 1 · right first try 0, on the second try 1"
    expect(page.get_by_text(board)).to_be_visible()
    expect(quiz.get_by_role("button", name="Check again")).to_be_disabled()
    href = page.get_by_text("Export this page's answers (CSV)").get_attribute("href") or ""
    rows = base64.b64decode(href.split("base64,", 1)[1]).decode().splitlines()
    assert rows[0].endswith(",source,try") and rows[1].endswith(f",{item.key},yes,quiz,2"), rows

    page.reload()  # the answer, and which try it was, are kept in the browser
    expect(page.locator(".st-brand")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_text(board)).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)


def frame(message: str | bytes) -> bytes:
    return message if isinstance(message, bytes) else message.encode()


def test_a_late_answer_from_the_kernel_never_writes_an_old_number_back(page: Page, voila_server: Server) -> None:
    """The kernel's answer to an earlier edit arrives after the learner typed on: the field keeps the new number.

    The kernel's messages to the answer fields are held back and let through late, as on a busy
    classroom server: first its answer to the learner's first number (points + 7), while the learner
    has already typed the right points and moved on to the bags field. That answer must not put the
    old number back (the next edit would then send it as if typed), so the answer checks as right.
    """
    held: list[str | bytes] = []
    holding = {"on": False}
    to_page: list[Any] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()
        to_page.append(ws)

        def from_server(message: str | bytes) -> None:
            text = frame(message)
            if holding["on"] and b'"method": "update"' in text:  # widget state, held in order
                held.append(message)
            else:
                ws.send(message)

        server.on_message(from_server)
        ws.on_message(server.send)

    page.route_web_socket(re.compile(r"/api/kernels/[^/]+/channels"), route)
    open_app(page, voila_server)
    page.get_by_role("button", name="Quiz yourself", exact=True).click()
    choose_questions(page, "Score this hand")
    line = page.locator(".st-note").filter(has_text="Question").first
    expect(line).to_be_visible()
    seed = int(re.search(r"Question (\d+)", line.inner_text()).group(1))
    answer = generate("score", st.Rules.preset("jokers"), seed, 1).answer()
    ns_points, ns_bags = answer[st.Team.NS]
    points_field = page.get_by_label(f"{st.Team.NS.label} points:")
    bags_field = page.get_by_label("bags after:").nth(int(st.Team.NS))

    expect(points_field).to_be_visible()
    expect(bags_field).to_be_visible()
    page.wait_for_timeout(1000)  # the question drawn and settled before the kernel's answers are held
    holding["on"] = True
    points_field.fill(str(ns_points + 7))
    deadline = 200
    while not any(b'"values"' in frame(m) for m in held) and deadline:
        page.wait_for_timeout(50)
        deadline -= 1
    assert held, "the kernel never answered the first edit"
    stale = next(i for i, m in enumerate(held) if b'"values"' in frame(m)) + 1
    points_field.fill(str(ns_points))
    while not any(b'"values"' in frame(m) for m in held[stale:]) and deadline:
        page.wait_for_timeout(50)
        deadline -= 1
    assert len(held) > stale, "the kernel never answered the second edit"
    bags_field.focus()
    for message in held[:stale]:  # the answer to the first edit, late
        to_page[-1].send(message)
    page.wait_for_timeout(300)
    expect(points_field).to_have_value(str(ns_points))
    bags_field.fill(str(ns_bags))
    holding["on"] = False
    for message in held[stale:]:
        to_page[-1].send(message)
    held.clear()
    ew_points, ew_bags = answer[st.Team.EW]
    page.get_by_label(f"{st.Team.EW.label} points:").fill(str(ew_points))
    page.get_by_label("bags after:").nth(int(st.Team.EW)).fill(str(ew_bags))
    page.get_by_role("button", name="Check answer").click()
    expect(page.get_by_text("✓ Right!")).to_be_visible()


def test_switching_to_deuces_high_changes_the_trump_order_shown(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server)
    pick_rule_set(page, "deuces-high")
    expect(page.locator(".st-rules-line")).to_contain_text("16 trumps: BJ LJ 2♦ 2♠ A♠")
    open_lesson(page, 2)
    trumps = page.get_by_role("list", name="16 trumps, highest first")
    expect(trumps).to_be_visible()
    order = st.Rules.preset("deuces-high").trump_order()
    names = trumps.get_by_role("listitem")
    expect(names).to_have_count(len(order))
    for i, c in enumerate(order[:5]):
        expect(names.nth(i)).to_have_attribute("aria-label", c.name)
    # and back to the default: the 2♦ leaves the trumps
    page.get_by_role("button", name="Home").click()
    pick_rule_set(page, "jokers")
    page.get_by_role("button", name="Learn", exact=True).click()
    expect(page.get_by_role("list", name="15 trumps, highest first")).to_be_visible()


def test_progress_survives_a_reload_and_a_new_kernel(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server)
    pick_rule_set(page, "bicycle")
    page.get_by_role("button", name="Quiz yourself", exact=True).click()
    choose_questions(page, "Score this hand")
    answer_score_quiz(page, right=True, preset="bicycle")
    expect(page.get_by_text("Score 1 / 1 · streak 1")).to_be_visible()
    page.reload()  # a new page: a new kernel, nothing kept in Python
    open_app(page, voila_server)
    expect(page.get_by_text(re.compile(r"^Score 1 / 1"))).to_be_visible()  # the page the learner was on
    page.get_by_role("button", name="Home").click()
    expect(page.get_by_label("Rule set:").locator("option:checked")).to_have_text(preset_label("bicycle"))
    page.get_by_role("button", name="Quiz yourself", exact=True).click()
    expect(page.get_by_text("Score 1 / 1 · streak 1 · best streak 1")).to_be_visible()
    href = page.get_by_text("Export this page's answers (CSV)").get_attribute("href") or ""
    rows = base64.b64decode(href.split("base64,", 1)[1]).decode().splitlines()
    assert rows[0] == "time,kind,preset,item,correct,source,try"
    assert rows[1].split(",")[1:3] == ["score", "bicycle"] and rows[1].endswith(",yes,quiz,1")


def tab_to(page: Page, pattern: str, limit: int = 80) -> None:
    """Press Tab until the focused element's text or accessible name matches ``pattern``."""
    rx = re.compile(pattern)
    for _ in range(limit):
        page.keyboard.press("Tab")
        label = page.evaluate(
            "() => { const e = document.activeElement; return (e && ((e.getAttribute('aria-label') || '') + ' ' + (e.innerText || e.value || ''))) || ''; }"
        )
        if rx.search(label):
            return
    raise AssertionError(f"no focusable element matching {pattern!r} within {limit} tabs")


def test_a_lesson_quiz_can_be_done_by_keyboard_only(page: Page, voila_server: Server) -> None:
    step, item = first_quiz(3, "legal-plays")
    legal = set(item.answer())
    open_app(page, voila_server)
    tab_to(page, r"Learn ▶")
    page.keyboard.press("Enter")
    # the lesson list drawn by the kernel before tabbing through it
    expect(page.get_by_role("button", name=re.compile(r"^3\. "))).to_be_visible()
    tab_to(page, r"^\s*3\. ")
    page.keyboard.press("Enter")
    expect(page.get_by_text(f"Lesson 3: {LESSONS[3].title}")).to_be_visible()
    for _ in range(step):
        tab_to(page, r"Next ▶")
        page.keyboard.press("Enter")
    # into the hand: one tab stop, arrows move, space picks
    quiz = page.locator(".st-quiz").first
    hand = quiz.get_by_role("group", name=re.compile("select every card you may play"))
    # a card's accessible name starts with its name (a glossary term such as "little joker" in the
    # prose above is a tab stop too, named by its words alone)
    tab_to(page, "^(?:" + "|".join(re.escape(c.name) for c in item.hand) + ")")
    for _ in range(len(item.hand)):
        name = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
        if any(name.startswith(c.name) for c in legal):
            page.keyboard.press("Space")
        page.keyboard.press("ArrowRight")
    for c in legal:
        expect(card(hand, c)).to_have_attribute("aria-checked", "true")
    tab_to(page, r"Check answer")
    page.keyboard.press("Enter")
    expect(quiz.get_by_text("✓ Right!")).to_be_visible()


def test_a_card_is_chosen_when_its_key_goes_down_and_once(page: Page, voila_server: Server) -> None:
    # a choice made on the key press itself cannot be lost to a redraw before the key comes up
    # (the kernel reading an earlier choice redraws the hand), nor toggled twice by the button's click
    step, item = first_quiz(3, "legal-plays")
    open_app(page, voila_server, f"/?lesson=3&step={step + 1}")
    hand = page.locator(".st-quiz").first.get_by_role("group", name=re.compile("select every card you may play"))
    first, second = item.hand[0], item.hand[1]
    card(hand, first).focus()
    page.keyboard.down(" ")
    expect(card(hand, first)).to_have_attribute("aria-checked", "true")
    page.keyboard.up(" ")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    for c in (first, second):
        expect(card(hand, c)).to_have_attribute("aria-checked", "true")
    # the kernel has read both choices: nothing changes once it has answered
    page.wait_for_timeout(500)
    for c in (first, second):
        expect(card(hand, c)).to_have_attribute("aria-checked", "true")
    page.keyboard.press("Space")
    expect(card(hand, second)).to_have_attribute("aria-checked", "false")
    expect(card(hand, first)).to_have_attribute("aria-checked", "true")


def test_a_link_opens_a_lesson_step_in_a_rule_set(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/?lesson=2&step=1&preset=two-of-spades-third")
    expect(page.get_by_text("Lesson 2: " + LESSONS[2].title)).to_be_visible()
    expect(page.get_by_text(f"Step 1 of {len(LESSONS[2].steps)}")).to_be_visible()
    trumps = page.get_by_role("list", name="15 trumps, highest first")
    expect(trumps.get_by_role("listitem").nth(2)).to_have_attribute("aria-label", "two of spades")


def test_the_app_works_through_the_binder_path(page: Page, binder_server: Server) -> None:
    open_app(page, binder_server, "/voila/render/notebooks/app.ipynb")
    open_lesson(page, 1)
    page.get_by_role("button", name="Next ▶").click()
    expect(page.get_by_text(f"Step 2 of {len(LESSONS[1].steps)}")).to_be_visible()


def test_joker_lab_runs_a_small_comparison_and_shows_plots_and_the_table(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/?page=lab")
    expect(page.get_by_text("What do the jokers change?")).to_be_visible()
    page.get_by_label("Sample:").select_option(label="2,000 rounds each")
    page.get_by_role("button", name="Run the lab ▶").click()
    expect(page.get_by_text("simulated and measured, and the nils played by the bots")).to_be_visible(
        timeout=FIRST_EXPECT_TIMEOUT_MS
    )
    # the reading above the plot (its data table's caption repeats it, inside a closed disclosure)
    readings = page.locator(".st-reading")
    expect(readings.filter(has_text="A side king held twice is trumped")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.locator(".js-plotly-plot")).to_have_count(5, timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.locator(".st-lab-table table")).to_be_visible()
    expect(page.get_by_text("Download all results (CSV)")).to_be_visible()
    page.get_by_role("button", name="Play the bots ▶").click()
    expect(readings.filter(has_text="The bots miss their bid by")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(readings.filter(has_text=re.compile(r"A game to 500 takes [\d.]+ hands on average"))).to_be_visible()
    expect(page.locator(".js-plotly-plot")).to_have_count(8, timeout=FIRST_EXPECT_TIMEOUT_MS)


def test_projector_is_stepped_by_the_arrow_keys_and_asks_the_class(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/?deal=4127W&preset=jokers")
    where = page.locator(".st-proj-where")
    expect(where).to_contain_text("Deal 4127W", timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(where).to_contain_text("step 0 of 56")
    page.locator(".st-brand").click()  # focus the page, not a field
    for n in range(1, 6):
        page.keyboard.press("ArrowRight")
        expect(where).to_contain_text(f"step {n} of 56")
    expect(page.locator(".st-proj-sentence")).to_contain_text("North plays")
    page.keyboard.press("ArrowLeft")
    expect(where).to_contain_text("step 4 of 56")
    page.get_by_text("Ask the class before each card").click()
    page.locator(".st-brand").click()
    page.keyboard.press("ArrowRight")  # step 5 is a card: the class is asked first
    expect(page.locator(".st-proj-question")).to_contain_text("What may North play?")
    page.get_by_role("button", name="Reveal the answer").click()
    expect(page.locator(".st-proj-reasons")).to_contain_text("spades are not broken")


def test_a_deal_link_shows_the_same_deal_in_a_fresh_browser(browser: Any, voila_server: Server) -> None:
    seen = []
    for _ in range(2):
        context = browser.new_context(viewport={"width": 1280, "height": 1400})
        try:
            page = context.new_page()
            open_app(page, voila_server, "/?deal=93&preset=deuces-high")
            expect(page.locator(".st-proj-where")).to_contain_text(
                "Deal 93 · Deuces high", timeout=FIRST_EXPECT_TIMEOUT_MS
            )
            north = page.get_by_role("list", name="North's hand").get_by_role("listitem")
            expect(north).to_have_count(13)
            seen.append([north.nth(i).get_attribute("aria-label") for i in range(13)])
        finally:
            context.close()
    rnd = st.Round.from_deal_id(st.Rules.preset("deuces-high"), "93")
    assert seen[0] == seen[1] == [c.name for c in rnd.hands[st.Seat.NORTH]]


def south_cards(page: Page) -> Locator:
    """South's cards on the Play page, whether South may play now or not (a radio each only then)."""
    return page.locator(".st-play [aria-label^='your hand'] .st-card")


NEXT_TRICK = ".st-play .st-play-next-trick"


def go_on_from_a_kept_trick(page: Page) -> None:
    """Once South may play, or the page keeps a complete trick on the table (a bot won it, or the hand
    ended): go on from the trick, as the learner does."""
    expect(page.locator(f".st-play .st-mark-legal, {NEXT_TRICK}, .st-play .st-score-sheet").first).to_be_visible(
        timeout=FIRST_EXPECT_TIMEOUT_MS
    )
    button = page.locator(NEXT_TRICK)
    if button.count() and button.is_visible():
        button.click()
        expect(button).to_have_count(0)


def test_a_hand_against_the_bots_with_an_illegal_click_a_hint_and_a_reload(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/?page=play")
    page.get_by_role("button", name="Deal ▶").click()
    expect(page.get_by_text("Sure tricks:")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.get_by_role("button", name="Hint").click()
    expect(page.get_by_text(re.compile(r"^Hint: bid "))).to_be_visible()
    page.locator(".st-play .widget-toggle-buttons button").nth(3).click()
    page.get_by_role("button", name="Bid", exact=True).click()
    expect(south_cards(page)).to_have_count(13)
    explained = False
    for left in range(13, 10, -1):  # play three cards, trying an illegal one first when there is one
        expect(south_cards(page)).to_have_count(left)
        go_on_from_a_kept_trick(page)
        cards = south_cards(page)
        legal = page.locator(".st-play .st-mark-legal")
        expect(legal.first).to_be_visible()
        if not explained and cards.count() > legal.count():
            page.locator(".st-play [role=radio]:not(.st-mark-legal)").first.click()
            expect(page.locator(".st-proj-question")).to_contain_text("Not ")
            expect(south_cards(page)).to_have_count(left)  # nothing changed
            explained = True
        legal.first.click()
    expect(south_cards(page)).to_have_count(10)
    page.reload()  # a new kernel: the game comes back from the browser
    open_app(page, voila_server, "/?page=play")
    expect(page.get_by_text("Welcome back")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(south_cards(page)).to_have_count(10)
    for left in range(10, 0, -1):
        expect(south_cards(page)).to_have_count(left)
        go_on_from_a_kept_trick(page)
        page.locator(".st-play .st-mark-legal").first.click()
    page.get_by_role("button", name="See the score ▶").click()  # the hand's last trick, then its score
    expect(page.get_by_text("Score sheet")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_text("Replay, all four hands face up")).to_be_visible()


KEPT_IN_VIEW = """() => {
  const table = document.querySelector(".st-play .st-table");
  const said = document.querySelector(".st-play .st-play-trick-won");
  const button = document.querySelector(".st-play .st-play-next-trick");
  if (!table || !said || !button) return false;
  // in the window and not under South's hand, docked at its bottom
  const dock = document.querySelector(".st-play .st-play-dock");
  const floor = Math.min(innerHeight, dock ? dock.getBoundingClientRect().top : innerHeight);
  const inView = el => { const r = el.getBoundingClientRect(); return r.top >= -1 && r.bottom <= floor + 1; };
  return table.querySelectorAll(".st-card").length === 4 && inView(table) && inView(said) && inView(button);
}"""

#: where the Play page's table, docked hand and what is said about it are, in the window's coordinates
PLAY_LAYOUT = """() => {
  const box = el => { if (!el) return null; const r = el.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; };
  const q = s => document.querySelector(".st-play " + s);
  const said = q(".st-play-said .st-proj-question");
  return {
    height: innerHeight,
    width: innerWidth,
    dock: box(q(".st-play-dock")),
    table: box(q(".st-play-table .st-table")),
    said: box(said),
    cards: [...document.querySelectorAll(".st-play .st-play-hand .st-card")].map(box),
    // each card's corner (its rank and suit, a joker's word) is on top where it is drawn: a tap there is on it
    hidden: [...document.querySelectorAll(".st-play .st-play-hand .st-card")].filter(card => {
      const mark = card.querySelector(".st-corner, .st-joker-size");
      const r = mark.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return !hit || hit.closest(".st-card") !== card;
    }).map(card => card.getAttribute("aria-label")),
  };
}"""


def docked_hand_in_view(layout: dict[str, Any], rows: int) -> list[str]:
    """What is wrong with the docked hand: each card whole in the window, inside the dock, in ``rows`` rows at most."""
    problems = []
    height, width = layout["height"], layout["width"]
    dock = layout["dock"]
    if dock is None or not layout["cards"]:
        return ["no docked hand"]
    if dock[1] > height + 1:
        problems.append(f"the dock ends at {dock[1]:.0f}, below the window's {height}")
    for top, bottom, left, right in layout["cards"]:
        if top < dock[0] - 1 or bottom > min(dock[1], height) + 1 or left < -1 or right > width + 1:
            problems.append(f"a card at {top:.0f}–{bottom:.0f} × {left:.0f}–{right:.0f} is cut")
    tops = sorted(card[0] for card in layout["cards"])
    taken = 1 + sum(b - a > 20 for a, b in itertools.pairwise(tops))  # a lifted card moves 12 px only
    if taken > rows:
        problems.append(f"the hand takes {taken} rows, not {rows}")
    if layout["hidden"]:
        problems.append(f"cards whose corner is covered: {layout['hidden']}")
    return problems


@pytest.mark.parametrize("size", [(1366, 768), (375, 812)], ids=["laptop", "phone"])
def test_a_trick_a_bot_wins_stays_on_the_table_until_the_learner_goes_on(
    page: Page, voila_server: Server, size: tuple[int, int]
) -> None:
    """The four cards, the winner and why it won stay in view after the fourth card; Enter goes on."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_app(page, voila_server, "/?page=play")
    page.get_by_role("button", name="Deal ▶").click()
    expect(page.get_by_text("Sure tricks:")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.locator(".st-play .widget-toggle-buttons button").nth(3).click()
    page.get_by_role("button", name="Bid", exact=True).click()
    button = page.locator(NEXT_TRICK)
    for left in range(13, 0, -1):
        expect(south_cards(page)).to_have_count(left)
        expect(page.locator(f".st-play .st-mark-legal, {NEXT_TRICK}").first).to_be_visible()
        if button.count():
            break
        page.locator(".st-play .st-mark-legal").last.click()
    else:
        pytest.fail("the bots won no trick in the hand")
    said = page.locator(".st-play .st-play-trick-won")
    expect(said).to_contain_text(re.compile(r"^Trick \d+: (North|East|West) wins it\. .+ wins: "))
    expect(page.locator(".st-play .st-table .st-card")).to_have_count(4)
    expect(page.locator(".st-play .st-table .st-winner")).to_have_count(1)  # the winner marked
    expect(page.locator(".st-play .st-table")).to_contain_text(" · wins")
    expect(page.locator(".st-play .st-mark-legal")).to_have_count(0)  # the bots wait: no card to play yet
    # the four cards, the words and the button together, above the docked hand, without the learner scrolling
    page.wait_for_function(KEPT_IN_VIEW, timeout=10_000)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"play-trick-kept-{size[0]}.png"))
    expect(button).to_be_focused()
    page.keyboard.press("Enter")  # the button has the focus: Enter goes on
    expect(button).to_have_count(0)
    expect(page.locator(".st-play .st-mark-legal").first).to_be_visible()
    page.get_by_role("button", name="See the last trick").click()  # and the last trick can be seen again
    expect(said).to_be_visible()
    page.get_by_role("button", name="Back to the play ▶").click()
    expect(page.locator(".st-play .st-mark-legal").first).to_be_visible()


@pytest.mark.parametrize("size", [(1366, 768), (375, 812), (1920, 1080)], ids=["laptop", "phone", "projector"])
def test_the_hand_is_docked_whole_with_the_trick_and_what_is_said_in_view(
    page: Page, voila_server: Server, size: tuple[int, int]
) -> None:
    """South's hand at the bottom of the window, in one row (two on a phone), the trick above it, a hint
    and "why not this card" right above the hand: all seen without the learner scrolling."""
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    if width >= 1920:  # the teacher's projector: large cards and text, set on Home
        open_app(page, voila_server, "/")
        page.get_by_role("checkbox", name="Projector: large cards and text").check()
        page.get_by_role("button", name="Play", exact=True).click()
    else:
        open_app(page, voila_server, "/?page=play")
    page.get_by_role("button", name="Deal ▶").click()
    expect(south_cards(page)).to_have_count(13, timeout=FIRST_EXPECT_TIMEOUT_MS)
    rows = 2 if width < 480 else 1
    page.wait_for_timeout(800)  # the page brings the table into view, smoothly
    layout = page.evaluate(PLAY_LAYOUT)
    assert docked_hand_in_view(layout, rows) == []  # while bidding too
    # the bids are in view above the docked hand as dealt, without scrolling (the helper's words under them)
    bid = page.get_by_role("button", name="Bid", exact=True).bounding_box()
    first = page.locator(".st-play .widget-toggle-buttons button").nth(2).bounding_box()
    for what, box in (("the Bid button", bid), ("the first bid", first)):
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= layout["dock"][0] + 1, (what, box)
    page.locator(".st-play .widget-toggle-buttons button").nth(4).click()
    page.get_by_role("button", name="Bid", exact=True).click()
    legal = page.locator(".st-play .st-mark-legal")
    expect(legal.first).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.wait_for_timeout(800)
    layout = page.evaluate(PLAY_LAYOUT)
    problems = docked_hand_in_view(layout, rows)
    table = layout["table"]
    if table is None or table[0] < -1 or table[1] > layout["dock"][0] + 1:
        problems.append(f"the trick at {table} is not in view above the hand (dock {layout['dock']})")
    # a hint, and a card that may not be played, are answered right above the hand, in view
    page.get_by_role("button", name="Hint").click()
    said = page.locator(".st-play .st-play-said .st-proj-question")
    expect(said).to_contain_text("Hint: play ")
    checks = [("hint", page.evaluate(PLAY_LAYOUT))]
    illegal = page.locator(".st-play .st-play-hand [role=radio]:not(.st-mark-legal)")
    if illegal.count():
        illegal.first.click()
        expect(said).to_contain_text("Not ")
        checks.append(("why not", page.evaluate(PLAY_LAYOUT)))
    for what, seen in checks:
        box, dock = seen["said"], seen["dock"]
        if box is None or box[0] < dock[0] - 1 or box[1] > min(dock[1], seen["height"]) + 1:
            problems.append(f"the {what} at {box} is not in the docked hand's box {dock}")
        problems += [f"with the {what}: {p}" for p in docked_hand_in_view(seen, rows)]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"play-docked-{width}.png"))
    from .test_layout import PROBLEMS  # (test_layout imports this module)

    problems += page.evaluate(PROBLEMS)
    assert not problems, "\n".join(problems)
    legal.first.click()
    expect(south_cards(page)).to_have_count(12)
