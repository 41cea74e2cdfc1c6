"""The app's layout in Chromium at 800, 1366 and 1920 px wide, with and without projector mode.

Every page (Home, a lesson, Quiz, Play, Classroom with a deal, Joker lab with its plots): every
button, checkbox and dropdown lies wholly inside the viewport and shows its whole text; the page
never scrolls sideways. At 1920x1080 in projector mode the Classroom's four hands and its step
sentence are above the fold. Selected cards keep their top edge and their order badges in view.
Screenshots of every case go to ``test-artifacts/screenshots/layout/``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import FIRST_EXPECT_TIMEOUT_MS, SCREENSHOTS, Server, choose_questions
from .test_app_journeys import go_on_from_a_kept_trick, south_cards

pytestmark = pytest.mark.browser

WIDTHS = (800, 1366, 1920)
HEIGHT = 1080
PAGES = (
    "Home", "Learn", "Quiz yourself", "Play", "Classroom", "Joker lab", "Glossary", "Your table", "Progress", "Puzzles",
)  # fmt: skip
SHOTS = SCREENSHOTS / "layout"

# What the learner can be cut off from: each control's box and the text inside it.
PROBLEMS = """() => {
  const vw = document.documentElement.clientWidth;
  const problems = [];
  const name = el => (el.getAttribute('aria-label') || el.textContent || el.value || el.tagName).trim().slice(0, 40);
  const textWidth = (el, text) => {
    const probe = document.createElement('span');
    const s = getComputedStyle(el);
    probe.style.cssText = `position:absolute;visibility:hidden;white-space:pre;font:${s.font};letter-spacing:${s.letterSpacing}`;
    probe.textContent = text;
    document.body.appendChild(probe);
    const wd = probe.getBoundingClientRect().width;
    probe.remove();
    return wd;
  };
  const controls = document.querySelectorAll(
    '.st-app button, .st-app select, .st-app input, .st-app .widget-checkbox, .st-app .widget-dropdown, .st-app .widget-label');
  for (const el of controls) {
    if (el.closest('.js-plotly-plot')) continue;  // plotly's own toolbar
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    if (r.left < -0.5 || r.right > vw + 0.5)
      problems.push(`outside the viewport: ${el.tagName} "${name(el)}" spans ${Math.round(r.left)}..${Math.round(r.right)} of ${vw}`);
    // (a card of the Play page's hand is the strip of it that shows, by design: its corner is checked there)
    if (el.scrollWidth > el.clientWidth + 1 && el.tagName !== 'INPUT' && !el.matches('.st-play-hand .st-card'))
      problems.push(`text clipped: ${el.tagName} "${name(el)}" needs ${el.scrollWidth} px, has ${el.clientWidth}`);
    if (el.tagName === 'SELECT' && el.selectedIndex >= 0) {
      const s = getComputedStyle(el);
      const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
      const need = textWidth(el, el.options[el.selectedIndex].text);
      if (need > room + 1) problems.push(`choice clipped: SELECT "${el.options[el.selectedIndex].text}" needs ${Math.round(need)} px, has ${Math.round(room)}`);
    }
  }
  for (const label of document.querySelectorAll('.st-app .widget-checkbox .widget-label-basic span')) {
    const r = label.getBoundingClientRect();
    if (r.width && label.scrollWidth > label.clientWidth + 1)
      problems.push(`text clipped: checkbox "${name(label)}"`);
  }
  const doc = document.scrollingElement;
  if (doc.scrollWidth > doc.clientWidth + 1) problems.push(`the page scrolls sideways by ${doc.scrollWidth - doc.clientWidth} px`);
  const app = document.querySelector('.st-app');
  for (let el = app; el; el = el.parentElement) {
    if (el.scrollWidth > el.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX))
      problems.push(`the page scrolls sideways inside ${el.className || el.tagName} by ${el.scrollWidth - el.clientWidth} px`);
  }
  if (app.getBoundingClientRect().right > vw + 0.5) problems.push('the app is wider than the viewport');
  return problems;
}"""

# The share of an element's box, with its selection ring (3 px around it), that its clipping ancestors show.
SHOWN = """el => {
  const r = el.getBoundingClientRect(), ring = 3;
  let top = r.top - ring, bottom = r.bottom + ring, left = r.left - ring, right = r.right + ring;
  const area = (bottom - top) * (right - left);
  for (let a = el.parentElement; a; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const b = a.getBoundingClientRect();
    top = Math.max(top, b.top); bottom = Math.min(bottom, b.bottom);
    left = Math.max(left, b.left); right = Math.min(right, b.right);
  }
  return Math.max(0, bottom - top) * Math.max(0, right - left) / area;
}"""


def open_app(page: Page, server: Server, path: str) -> None:
    page.set_viewport_size({"width": 1366, "height": HEIGHT})
    page.goto(server.url(path), timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_role("button", name="Home")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)


def go(page: Page, name: str) -> None:
    page.locator(".st-nav-tabs").get_by_role("button", name=name, exact=True).click()


def projector_on(page: Page) -> None:
    go(page, "Home")
    page.get_by_text("Projector: large cards and text").click()
    expect(page.locator(".st-app.st-app-large")).to_be_attached()


def show_page(page: Page, name: str, run_lab: bool) -> None:
    """Open ``name`` and bring it to the state the layout is checked in."""
    go(page, name)
    if name == "Home":
        expect(page.get_by_text("Rule set", exact=True)).to_be_visible()
    elif name == "Learn":
        page.get_by_role("button", name=re.compile(r"^2\. ")).click()
        expect(page.get_by_role("button", name="Next ▶")).to_be_visible()
    elif name == "Quiz yourself":
        expect(page.locator(".st-quiz")).to_be_visible()
    elif name == "Play":
        expect(page.locator(".st-play")).to_be_visible()
    elif name == "Classroom":
        expect(page.get_by_text("Deal 4127W").first).to_be_visible()
    elif name == "Glossary":
        expect(page.locator(".st-gloss-entry").first).to_be_visible()
    elif name == "Your table":
        expect(page.get_by_role("heading", name="What changes at your table")).to_be_visible()
        page.get_by_label("Compare with:").select_option(label="Regular Spades")  # differences to lay out
        expect(page.get_by_role("heading", name=re.compile("trumps instead of"))).to_be_visible()
    elif name == "Progress":
        expect(page.get_by_role("heading", name="Progress", exact=True)).to_be_visible()
    elif name == "Puzzles":
        expect(page.locator(".st-puzzle-head")).to_contain_text("Puzzle", timeout=FIRST_EXPECT_TIMEOUT_MS)
    elif name == "Joker lab":
        expect(page.get_by_role("button", name="Run the lab ▶")).to_be_visible()
        if run_lab:
            page.get_by_label("Sample:").select_option(label="2,000 rounds each")
            page.get_by_role("button", name="Run the lab ▶").click()
            expect(page.locator(".st-plot .js-plotly-plot .cartesianlayer .trace").first).to_be_attached()
            expect(page.get_by_text("simulated and measured")).to_be_visible()
            expect(page.locator(".st-plot .js-plotly-plot")).to_have_count(5)


def check_widths(page: Page, label: str) -> list[str]:
    found = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": HEIGHT})
        page.wait_for_timeout(400)  # plotly and the widgets re-lay out on resize
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{label}-{width}.png"))
        found += [f"{label} at {width} px: {p}" for p in page.evaluate(PROBLEMS)]
    return found


@pytest.mark.parametrize("projector", [False, True], ids=["normal", "projector"])
def test_no_page_clips_a_control_or_scrolls_sideways_at_any_width(
    page: Page, voila_server: Server, projector: bool
) -> None:
    open_app(page, voila_server, "/?deal=4127W")
    if projector:
        projector_on(page)
    problems: list[str] = []
    for name in PAGES:
        show_page(page, name, run_lab=not projector)
        mode = "projector" if projector else "normal"
        problems += check_widths(page, f"{mode}-{name.split()[0].lower()}")
    assert not problems, "\n".join(problems)


def test_the_lab_plots_fill_their_width(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/?page=lab")
    show_page(page, "Joker lab", run_lab=True)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": HEIGHT})
        page.wait_for_timeout(600)
        box = page.locator(".st-lab-results").first.bounding_box()
        assert box is not None
        for plot in page.locator(".st-plot .js-plotly-plot .main-svg").all():
            plot_box = plot.bounding_box()
            assert plot_box is not None
            assert plot_box["width"] >= 0.95 * box["width"], (width, plot_box["width"], box["width"])
            assert plot_box["height"] >= 300, (width, plot_box)  # drawn, not collapsed by the resize


def test_projector_at_1920_shows_the_four_hands_and_the_step_above_the_fold(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/?deal=4127W")
    projector_on(page)
    go(page, "Classroom")
    page.set_viewport_size({"width": 1920, "height": 1080})
    expect(page.get_by_text("Deal 4127W").first).to_be_visible()
    page.get_by_role("button", name="Next ▶").click()  # a step with a sentence of its own
    page.wait_for_timeout(500)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "projector-classroom-1920x1080-step.png"))
    fold = page.evaluate("window.innerHeight")
    sentence = page.locator(".st-proj-sentence").bounding_box()
    assert sentence is not None and sentence["y"] + sentence["height"] <= fold
    hands = [page.get_by_role("list", name=f"{seat}'s hand") for seat in ("North", "East", "South", "West")]
    for hand in hands:
        cards = hand.get_by_role("listitem").all()
        assert len(cards) == 13
        for c in cards:
            b = c.bounding_box()
            assert b is not None and b["y"] >= 0 and b["y"] + b["height"] <= fold, (c.get_attribute("aria-label"), b)
    # and the page uses the projector's width
    app = page.locator(".st-app").bounding_box()
    assert app is not None and app["width"] >= 1800
    # the trick is what the room looks at: each of its places is larger than any card in a hand
    places = page.locator(".st-proj-table .st-table").locator(".st-card, .st-empty").all()
    assert len(places) == 4
    hand_card = hands[0].get_by_role("listitem").first.bounding_box()
    assert hand_card is not None
    for place in places:
        b = place.bounding_box()
        assert b is not None and b["height"] >= 1.25 * hand_card["height"], (b, hand_card)
        assert b["y"] + b["height"] <= fold


def test_a_classroom_step_on_a_768_high_projector_shows_its_sentence_and_the_trick(
    page: Page, voila_server: Server
) -> None:
    """At 1366x768 the trick started at y=625 and ended below the fold: a step taken now brings the step's
    line, its sentence, the buttons and the table into view (the deal's controls scroll away)."""
    open_app(page, voila_server, "/?deal=4127W")
    page.set_viewport_size({"width": 1366, "height": 768})
    projector_on(page)
    go(page, "Classroom")
    expect(page.get_by_text("Deal 4127W").first).to_be_visible()
    for _ in range(6):  # the four bids, then the first two cards of the first trick
        page.get_by_role("button", name="Next ▶").click()
    expect(page.locator(".st-proj-head")).to_contain_text("step 6 of")
    expect(page.locator(".st-proj-table .st-table .st-card")).to_have_count(2)
    fold = page.evaluate("window.innerHeight")
    boxes = {
        "the step's sentence": page.locator(".st-proj-sentence"),
        "the Next button": page.get_by_role("button", name="Next ▶"),
        "the trick": page.locator(".st-proj-table .st-table"),
    }

    def in_view() -> list[str]:
        out = []
        for what, where in boxes.items():
            b = where.bounding_box()
            if b is None or b["y"] < -1 or b["y"] + b["height"] > fold + 1:
                out.append(f"{what} at {b} is not within the window's {fold} px")
        return out

    page.wait_for_function(
        "() => { const t = document.querySelector('.st-proj-table .st-table').getBoundingClientRect();"
        " return t.top >= 0 && t.bottom <= innerHeight; }",
        timeout=10_000,
    )  # (the page scrolls smoothly)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "projector-classroom-1366x768-step.png"))
    assert in_view() == []
    page.keyboard.press("ArrowRight")  # the room's next card, by the arrow key: still in view
    expect(page.locator(".st-proj-head")).to_contain_text("step 7 of")
    page.wait_for_timeout(600)
    assert in_view() == []


@pytest.mark.parametrize("size", [(1366, 768), (375, 812)], ids=["laptop", "phone"])
def test_a_lessons_next_button_is_in_view_on_every_step(
    page: Page, voila_server: Server, size: tuple[int, int]
) -> None:
    """Next was at y=1,069 on lesson 0's first step at 768 high: Back and Next are docked at the bottom of
    the window, and a step's last line can still be scrolled to above them."""
    from .test_app_journeys import LESSONS

    width, height = size
    open_app(page, voila_server, "/?lesson=0")
    page.set_viewport_size({"width": width, "height": height})
    steps = len(LESSONS[0].steps)
    nav = page.locator(".st-lesson .st-nav")
    for step in range(1, steps + 1):
        expect(page.locator(".st-lesson")).to_contain_text(f"Step {step} of {steps}")
        nxt = page.locator(".st-lesson .st-next")
        box = nxt.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (step, box)
        if step == 1:
            page.screenshot(path=str(SHOTS / f"lesson-0-step-1-{width}x{height}.png"))
        # the step's last words are not hidden for good: at the page's end they sit above the docked bar
        page.locator(".st-lesson").evaluate(
            "el => { for (let e = el; e; e = e.parentElement)"
            " if (['auto', 'scroll'].includes(getComputedStyle(e).overflowY) && e.scrollHeight > e.clientHeight)"
            " { e.scrollTop = e.scrollHeight; return; } }"
        )  # the page scrolled to its end
        page.wait_for_timeout(200)
        last = page.locator(".st-lesson .st-step > *:visible").last.bounding_box()
        bar = nav.bounding_box()
        assert last is not None and bar is not None and last["y"] + last["height"] <= bar["y"] + 1, (step, last, bar)
        if step < steps:
            nxt.click()


@pytest.mark.parametrize(
    "size", [(1366, 768, False), (375, 812, False), (1920, 1080, True)], ids=["laptop", "phone", "projector"]
)
def test_a_lesson_asks_before_it_tells_and_ends_on_what_it_covered(
    page: Page, voila_server: Server, size: tuple[int, int, bool]
) -> None:
    """Lesson 0's last step asks who leads next; what the step says after the question waits for an
    answer. Finishing the lesson shows what it covered and "Next lesson", focused and in view."""
    import spades_tutor as st
    from spades_tutor.ui.lesson_player import LessonPlayer

    from .test_app_journeys import LESSONS, open_lesson

    width, height, projector = size
    lesson = LESSONS[0]
    last = len(lesson.steps) - 1
    held = LessonPlayer(lesson, st.Rules.preset("jokers"), step=last, seed=1)
    assert held.held, "lesson 0's last step says something after its first question"
    answer = held.quizzes[0].item.answer()
    open_app(page, voila_server, "/")
    page.set_viewport_size({"width": width, "height": height})
    if projector:
        projector_on(page)
    open_lesson(page, 0)
    for _ in range(last):
        page.locator(".st-lesson .st-next").click()
    expect(page.locator(".st-lesson")).to_contain_text(f"Step {last + 1} of {last + 1}")
    waiting = page.locator(".st-answer-first").first
    after = page.locator(".st-after-answer").first
    expect(waiting).to_be_visible()
    expect(after).to_be_hidden()
    quiz = page.locator(".st-lesson .st-quiz").first
    quiz.scroll_into_view_if_needed()
    quiz.locator(".widget-toggle-button", has_text=re.compile(rf"^{re.escape(str(answer))}$")).click()
    quiz.get_by_role("button", name="Check answer").click()
    expect(quiz.locator(".st-result")).to_contain_text("Right")
    expect(after).to_be_visible()
    expect(waiting).to_be_hidden()
    page.screenshot(path=str(SHOTS / f"lesson-0-answered-{width}x{height}.png"))
    page.locator(".st-lesson").get_by_role("button", name="Finish ✓").first.click()
    heading = page.get_by_role("heading", name=re.compile(r"^Lesson 0 done: "))
    expect(heading).to_be_visible()
    following = LESSONS[1]
    nxt = page.get_by_role("button", name=f"Next lesson: 1. {following.title} ▶")
    expect(nxt).to_be_focused()
    for what in (heading, nxt):
        box = what.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, box
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    for step in lesson.steps:
        expect(page.locator(".st-done-steps")).to_contain_text(step.title)
    expect(page.locator(".st-done-questions")).to_have_text("Its questions: 1 of 1 right on the first try.")
    assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    page.screenshot(path=str(SHOTS / f"lesson-0-done-{width}x{height}.png"))
    nxt.click()
    expect(page.get_by_text(f"Lesson 1: {following.title}")).to_be_visible()
    expect(page.locator(".st-lesson")).to_contain_text(f"Step 1 of {len(following.steps)}")


def test_the_projectors_header_takes_at_most_a_seventh_of_a_768_high_screen(page: Page, voila_server: Server) -> None:
    """The room looks at the cards: on the projector the menu keeps to a laptop's size."""
    open_app(page, voila_server, "/")
    page.set_viewport_size({"width": 1366, "height": 768})
    projector_on(page)
    for name in ("Classroom", "Learn", "Play"):
        go(page, name)
        header = page.locator(".st-header").bounding_box()
        assert header is not None and header["height"] <= 0.15 * 768, (name, header)
    page.screenshot(path=str(SHOTS / "projector-1366x768-header.png"))


def test_selected_cards_keep_their_top_edge_and_order_badges(page: Page, voila_server: Server) -> None:
    open_app(page, voila_server, "/?page=quiz")
    for projector in (False, True):
        if projector:
            projector_on(page)
            go(page, "Quiz yourself")
        page.get_by_label("Questions:").select_option(label="Trump order")
        quiz = page.locator(".st-quiz-trump-order")
        expect(quiz).to_be_visible()
        choices = quiz.get_by_role("checkbox")
        expect(choices.first).to_be_visible()
        badges = quiz.locator(".st-order-badge")
        for i in range(3):
            choices.nth(i).click()
            expect(badges).to_have_count(i + 1)  # each pick is drawn before the next click
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"selected-cards-{'projector' if projector else 'normal'}.png"))
        for badge in badges.all():
            assert badge.evaluate(SHOWN) == pytest.approx(1.0), "an order badge is cut"
        for c in quiz.locator(".st-card.st-selected").all():
            assert c.evaluate(SHOWN) == pytest.approx(1.0), "a selected card is cut"


BADGES_CLEAR = """() => {
  const area = (a, b) => {
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return Math.max(0, w) * Math.max(0, h);
  };
  const cards = [...document.querySelectorAll(".st-quiz-trump-order .st-card.st-selected")];
  return cards.length > 0 && cards.every(card => {
    const badge = card.querySelector(".st-order-badge"), face = card.querySelector(".st-face");
    if (!badge || !face) return false;
    const b = badge.getBoundingClientRect();
    if (area(b, face.getBoundingClientRect()) >= 1) return false;  // the badge sits above the face
    const words = card.querySelector(".st-joker-size");  // and never on BIG / LITTLE
    return !words || area(b, words.getBoundingClientRect()) === 0;
  });
}"""


def test_an_order_badge_sits_above_its_card_not_on_the_jokers_words(page: Page, voila_server: Server) -> None:
    """The badge covered BIG / LITTLE on the jokers: it now sits wholly above the card's face."""
    open_app(page, voila_server, "/?page=quiz")
    for projector in (False, True):
        if projector:
            projector_on(page)
            go(page, "Quiz yourself")
        if projector:
            page.get_by_label("Questions:").select_option(label="Trump order")
        else:
            choose_questions(page, "Trump order")
        quiz = page.locator(".st-quiz-trump-order")
        choices = quiz.get_by_role("checkbox")
        expect(choices.first).to_be_visible()
        for i in range(choices.count()):
            choices.nth(i).click()
            expect(quiz.locator(".st-order-badge")).to_have_count(i + 1)
        page.screenshot(path=str(SHOTS / f"order-badges-{'projector' if projector else 'normal'}.png"))
        # measured in the page at once, once the cards have settled (two separate measurements raced a
        # card still moving on a loaded machine)
        page.wait_for_function(BADGES_CLEAR, timeout=10_000)


CLEAR_OF_ITS_NAME = """letter => {
  const seat = document.querySelector(`.st-quiz-trick-winner .st-table .st-seat-${letter}`);
  const card = seat && seat.querySelector(".st-card.st-selected");
  const name = seat && seat.querySelector(".st-seat-name");
  if (!card || !name) return false;
  const a = card.getBoundingClientRect(), b = name.getBoundingClientRect();
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return !(w > 0 && h > 0);
}"""


def test_a_card_chosen_in_a_trick_leaves_its_seats_name_readable(page: Page, voila_server: Server) -> None:
    """A chosen card used to lift onto its seat's name ("North · wins"); in a trick it is ringed where it lies."""
    open_app(page, voila_server, "/?page=quiz")
    choose_questions(page, "Who wins the trick?")
    quiz = page.locator(".st-quiz-trick-winner")
    table = quiz.locator(".st-table")
    expect(table).to_be_visible()
    for letter in "NWES":
        card = table.locator(f".st-seat-{letter} .st-card")
        if not card.count():
            continue
        card.click()
        expect(table.locator(f".st-seat-{letter} .st-card.st-selected")).to_have_count(1)
        page.mouse.move(0, 0)  # and not merely hovered
        # measured in one go in the page: the widget may draw the trick again when the kernel answers the click
        page.wait_for_function(CLEAR_OF_ITS_NAME, arg=letter, timeout=10_000)
    page.screenshot(path=str(SHOTS / "trick-choice.png"))


CONTRAST = """([a, b]) => {
  const lum = el => {
    const [r, g, b] = getComputedStyle(el).backgroundColor.match(/[\\d.]+/g).slice(0, 3).map(Number).map(v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}"""


def test_a_chosen_answer_button_stands_out_from_the_others(page: Page, voila_server: Server) -> None:
    """A chosen yes/no was a barely darker grey: it now differs from the others by at least 3:1."""
    open_app(page, voila_server, "/?page=quiz")
    choose_questions(page, "May you lead it?")
    quiz = page.locator(".st-quiz-may-lead")
    yes, no = quiz.get_by_role("button", name="yes", exact=True), quiz.get_by_role("button", name="no", exact=True)
    expect(yes).to_be_visible()
    yes.click()
    expect(yes).to_have_class(re.compile(r"\bmod-active\b"))
    page.mouse.move(0, 0)
    ratio = page.evaluate(CONTRAST, [yes.element_handle(), no.element_handle()])
    assert ratio >= 3, ratio
    page.screenshot(path=str(SHOTS / "chosen-answer.png"))


def test_the_page_the_learner_is_on_stands_out_in_the_menu(page: Page, voila_server: Server) -> None:
    """The current page's tab was the same barely darker grey as a chosen answer: it now differs by 3:1 or more."""
    open_app(page, voila_server, "/?page=quiz")
    tabs = page.locator(".st-nav-tabs")
    for name, other in (("Quiz yourself", "Home"), ("Play", "Learn")):
        go(page, name)
        here = tabs.get_by_role("button", name=name, exact=True)
        expect(here).to_have_class(re.compile(r"\bmod-active\b"))
        page.mouse.move(0, 0)
        away = tabs.get_by_role("button", name=other, exact=True)
        ratio = page.evaluate(CONTRAST, [here.element_handle(), away.element_handle()])
        assert ratio >= 3, (name, ratio)
    page.screenshot(path=str(SHOTS / "menu-current-page.png"))


def test_projector_checkboxes_grow_with_the_text(page: Page, voila_server: Server) -> None:
    """The browser draws a checkbox at 13 px whatever the font: beside 24 px text a room cannot see it."""
    open_app(page, voila_server, "/")
    boxes = page.locator(".st-app .widget-checkbox input[type=checkbox]")
    expect(boxes.first).to_be_visible()
    normal = boxes.first.bounding_box()
    projector_on(page)
    large = boxes.first.bounding_box()
    assert normal is not None and large is not None
    assert normal["height"] < 18 and large["height"] >= 20 and large["width"] >= 20, (normal, large)


def bid_one_at(page: Page, server: Server, width: int, height: int) -> None:
    """The Play page at ``width`` x ``height``: a hand dealt and South's bid of 1 made (the mode's two
    buttons, then Nil, 1)."""
    open_app(page, server, "/?page=play")
    page.set_viewport_size({"width": width, "height": height})
    page.get_by_role("button", name="Deal ▶").click()
    expect(page.get_by_text("Sure tricks:")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.locator(".st-play .widget-toggle-buttons button").nth(3).click()
    page.get_by_role("button", name="Bid", exact=True).click()


def test_on_a_phone_the_measured_hint_is_short_and_leaves_the_trick_in_view(page: Page, voila_server: Server) -> None:
    """A measured hint with how it was measured open filled most of a phone's window, over the trick: the hint
    says its figure, range and method in one sentence, and what is said above the hand takes at most a
    quarter of the window, scrolling inside beyond it."""
    bid_one_at(page, voila_server, 375, 740)
    expect(south_cards(page)).to_have_count(13)
    page.get_by_role("button", name="Hint").click()
    said = page.locator(".st-play .st-play-said")
    words = said.locator(".st-proj-question")
    expect(words).to_contain_text(", measured by a simulation.", use_inner_text=True, timeout=30_000)
    figure = words.inner_text().split(", measured by a simulation.")[0]
    assert len(figure) < 200, figure  # "Hint: play X. It makes ... (likely between a% and b%)"
    said.locator("details.st-measured summary").click()
    expect(said.locator("details.st-measured")).to_have_attribute("open", "")
    box = said.bounding_box()
    fold = page.evaluate("window.innerHeight")
    assert box is not None and box["height"] <= fold / 4 + 1, (box, fold)
    inner = said.evaluate("e => [e.scrollHeight, e.clientHeight, getComputedStyle(e).overflowY]")
    assert inner[0] > inner[1] and inner[2] == "auto", inner  # the rest is there, scrolled to
    said.evaluate("e => { e.scrollTop = 0; }")
    expect(words).to_be_in_viewport()
    table = page.locator(".st-play .st-play-table")
    expect(table).to_be_visible()
    dock = page.locator(".st-play .st-play-dock").bounding_box()
    assert dock is not None and dock["height"] <= 0.6 * fold, (dock, fold)  # room above it for the trick
    page.screenshot(path=str(SHOTS / "play-hint-open-375x740.png"))


def test_on_a_1024_projector_the_play_buttons_sit_in_a_row_and_the_dock_leaves_the_trick_in_view(
    page: Page, voila_server: Server
) -> None:
    """A classroom projector of 1024x768 with the large cards: the three play buttons were stacked under the
    hand, and the docked hand took 481 px of the 768, over the trick. Under the hand they sit in one row."""
    open_app(page, voila_server, "/")
    page.set_viewport_size({"width": 1024, "height": 768})
    projector_on(page)
    go(page, "Play")
    page.get_by_role("button", name="Deal ▶").click()
    expect(page.get_by_text("Sure tricks:")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.locator(".st-play .widget-toggle-buttons button").nth(3).click()
    page.get_by_role("button", name="Bid", exact=True).click()
    expect(south_cards(page)).to_have_count(13)
    tools = page.locator(".st-play .st-play-tools")
    buttons = [
        tools.get_by_role("button", name=name, exact=True) for name in ("Hint", "Take back", "See the last trick")
    ]
    # the bidding over (its buttons gone, the trick drawn) and South's turn to play: the bots have bid and played
    # to it, the dock redrawn after each of their actions and now still
    expect(page.get_by_role("button", name="Bid", exact=True)).to_have_count(0, timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.locator(".st-play .st-play-table")).to_be_visible()
    expect(buttons[0]).to_be_enabled(timeout=FIRST_EXPECT_TIMEOUT_MS)
    for button in buttons:
        expect(button).to_be_visible()
    boxes = [b.bounding_box() for b in buttons]
    assert all(b is not None for b in boxes)
    tops = {round(b["y"]) for b in boxes if b is not None}
    assert len(tops) == 1, boxes  # one row
    dock = page.locator(".st-play .st-play-dock").bounding_box()
    fold = page.evaluate("window.innerHeight")
    assert dock is not None and dock["height"] <= 0.55 * fold, (dock, fold)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1024
    page.screenshot(path=str(SHOTS / "play-projector-1024x768.png"))


def test_why_not_and_the_hint_are_said_right_by_the_hand(page: Page, voila_server: Server) -> None:
    """They were written in the status line near the top of the page, while the learner clicks a card at the
    bottom: they are said right above the hand, docked at the bottom of the window."""
    bid_one_at(page, voila_server, 1366, 768)
    hand = page.locator(".st-play [aria-label^='your hand']")
    cards = south_cards(page)
    expect(cards).to_have_count(13)
    said = page.locator(".st-play .st-play-said .st-proj-question")

    def by_the_hand(what: str) -> None:
        expect(said).to_be_visible()
        h, s = hand.bounding_box(), said.bounding_box()
        assert h is not None and s is not None
        assert h["y"] - 60 <= s["y"] + s["height"] <= h["y"] + 1, (what, h, s)
        fold = page.evaluate("window.innerHeight")
        assert s["y"] >= 0 and s["y"] + s["height"] <= fold, (what, s, fold)  # in view where the learner clicked

    page.get_by_role("button", name="Hint").click()
    expect(said).to_contain_text("Hint")
    by_the_hand("the hint")
    shown = False
    for left in range(13, 8, -1):
        expect(cards).to_have_count(left)
        go_on_from_a_kept_trick(page)
        illegal = page.locator(".st-play [role=radio]:not(.st-mark-legal)")
        if illegal.count():
            illegal.first.click()
            expect(said).to_contain_text("Not ")
            by_the_hand("why not")
            page.screenshot(path=str(SHOTS / "play-why-not-1366x768.png"))
            shown = True
            break
        page.locator(".st-play .st-mark-legal").first.click()
    assert shown, "no card was illegal in five tricks"
