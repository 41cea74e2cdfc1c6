"""In Chromium: a lesson's closing review, and the Quiz page's Level menu rising while practising.

The answers given are the engine's (each question drawn again from the seed and level its line
shows); the test only plays the learner. Screenshots at 375 px and 1920x1080 go to
``test-artifacts/screenshots/review/``.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

import spades_tutor as st
from spades_tutor.lessons.review import REVIEW_QUESTIONS
from spades_tutor.quiz import kinds
from spades_tutor.quiz.generators import generate
from spades_tutor.quiz.mastery import RISE_RUN
from spades_tutor.session.progress import Progress
from spades_tutor.session.settings import Settings
from spades_tutor.ui.app import STORAGE_KEY

from .conftest import SCREENSHOTS, Server
from .test_a11y import axe_findings
from .test_app_journeys import LESSONS, card, open_app
from .test_layout import PROBLEMS

pytestmark = pytest.mark.browser

SHOTS = SCREENSHOTS / "review"
LEVELS = {"Easy": 1, "Medium": 2, "Tricky": 3}
CARD_FACE = re.compile(r'^text clipped: BUTTON "(\w+ of (spades|hearts|diamonds|clubs)|\w+ joker)\b')


def look(page: Page, label: str) -> list[str]:
    """Screenshots at a phone's width and a projector's size; what the layout check finds at each."""
    found = []
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((375, 812), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(400)
        nav = page.locator(".st-nav")  # a lesson's row that offers the review, or finishes it (no row on the Quiz page)
        if nav.count():
            nav.first.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"{label}-{width}.png"), full_page=True)
        # a card's face is drawn by the card widget, a few px over its button at a phone's width: not this page's
        found += [f"{label} at {width} px: {p}" for p in page.evaluate(PROBLEMS) if not CARD_FACE.search(p)]
    return found


def test_a_lesson_opened_at_its_last_step_goes_on_to_a_review_answered_and_scored(
    page: Page, voila_server: Server
) -> None:
    lesson = LESSONS[3]  # following suit: its quizzes are all "legal plays"
    total = len(lesson.steps)
    open_app(page, voila_server, f"/?lesson=3&step={total}")
    expect(page.get_by_text(f"Step {total} of {total}")).to_be_visible()
    expect(page.get_by_role("button", name="Finish ✓")).to_be_visible()  # the review is offered, not forced
    problems = look(page, "lesson-3-last-step")
    page.set_viewport_size({"width": 1366, "height": 900})
    page.get_by_role("button", name="Review ▶").click()
    expect(page.get_by_text(f"Review after step {total} of {total}")).to_be_visible()
    expect(page.locator(".st-review-why")).to_contain_text("“Legal plays”")
    rules = st.Rules.preset("jokers")
    for number in range(1, REVIEW_QUESTIONS + 1):
        where = page.locator(".st-review-where")
        expect(where).to_contain_text(f"Review question {number} of {REVIEW_QUESTIONS}")
        found = re.search(r"· (Easy|Medium|Tricky) · question (\d+)", where.inner_text())
        assert found is not None
        item = generate("legal-plays", rules, int(found[2]), LEVELS[found[1]])
        quiz = page.locator(".st-review .st-quiz.st-quiz-legal-plays")
        expect(quiz).to_have_count(1)
        for c in item.answer():
            card(quiz, c).click()
        if number == 1:
            problems += axe_findings(page, "review question, cards chosen")
        quiz.get_by_role("button", name="Check answer").click()
        expect(quiz.get_by_text("✓ Right!")).to_be_visible()
        if number < REVIEW_QUESTIONS:
            page.get_by_role("button", name="Next question ▶").click()
    score = page.locator(".st-review-score")
    expect(score).to_have_text(f"Review done: {REVIEW_QUESTIONS} of {REVIEW_QUESTIONS} right on the first try.")
    expect(page.get_by_role("button", name="Next question ▶")).to_be_hidden()
    problems += axe_findings(page, "review scored")
    problems += look(page, "lesson-3-review-scored")
    page.set_viewport_size({"width": 1366, "height": 900})
    page.get_by_role("button", name="Finish ✓").click()
    expect(page.locator(".st-done-review")).to_have_text(
        f"The review: {REVIEW_QUESTIONS} of {REVIEW_QUESTIONS} right on the first try."
    )
    page.get_by_role("button", name="◀ All lessons").click()
    expect(page.get_by_role("button", name=re.compile(r"^3\. .* ✓$"))).to_be_visible()
    saved = "k => (JSON.parse(window.localStorage.getItem(k) || '{}').answers || []).map(row => row[5]).join(' ')"
    page.wait_for_function(
        f"() => ({saved})({json.dumps(STORAGE_KEY)}) === {json.dumps(' '.join(['review'] * REVIEW_QUESTIONS))}"
    )
    assert problems == []


def known_but_one(target: str) -> Progress:
    """Every kind offered but ``target`` answered right four times lately (not due for a while);
    ``target`` never asked, so the practice begins with it."""
    stored = Progress()
    rules = Settings().rules()
    others = [cls.kind for cls in kinds.kinds() if cls.offered(rules) and cls.kind != target]
    for n in range(4):
        for kind in others:
            stored.record(kind, "jokers", f"{kind}:jokers:{n}/1", True)
    return stored


def test_practising_the_level_menu_shows_the_next_level_after_a_run_of_right_first_tries(
    page: Page, voila_server: Server
) -> None:
    stored = known_but_one("trick-winner")
    page.add_init_script(f"window.localStorage.setItem({json.dumps(STORAGE_KEY)}, {json.dumps(stored.to_json())});")
    open_app(page, voila_server, "/?page=quiz")
    expect(page.locator(".st-scoreboard")).to_contain_text(f"Score {stored.answered} / {stored.answered}")
    level = page.get_by_label("Level:")
    shown = "s => s.options[s.selectedIndex].text"
    assert level.evaluate(shown) == "Easy"
    page.get_by_role("button", name="Practice what I miss").click()
    line = page.locator(".st-note").filter(has_text="Question").first
    rules = st.Rules.preset("jokers")
    right = 0
    for _ in range(60):  # a question of another kind is passed over unanswered
        expect(line).to_contain_text("Practice what I miss")
        seed = int(re.search(r"Question (\d+) ", line.inner_text()).group(1))
        if page.locator(".st-quiz.st-quiz-trick-winner").count():
            assert level.evaluate(shown) == "Easy"
            item = generate("trick-winner", rules, seed, 1)
            quiz = page.locator(".st-quiz.st-quiz-trick-winner")
            quiz.get_by_role("radio", name=re.compile(rf"^{re.escape(item.answer().name)}\b")).click()
            quiz.get_by_role("button", name="Check answer").click()
            expect(quiz.get_by_text("✓ Right!")).to_be_visible()
            right += 1
            if right == RISE_RUN:
                break
        page.get_by_role("button", name="Next question ▶").click()
        expect(line).to_contain_text(f"Question {seed + 1} ")
    assert right == RISE_RUN
    expect(line).to_contain_text("Easy → Medium next in Who wins the trick?")
    assert level.evaluate(shown) == "Medium"
    problems = axe_findings(page, "quiz, level risen")
    problems += look(page, "quiz-level-risen")
    assert problems == []
