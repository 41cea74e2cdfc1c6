"""Widgets drawn for one step, question or trick are closed when the next replaces them.

Every widget open in a kernel is memory the class server keeps for that learner, and a model the
page keeps; a learner who steps through lessons for an hour must not leave thousands behind.
The persistent parts (the lesson list, its buttons, the pages) must stay open and keep working.
"""

from __future__ import annotations

import ipywidgets as w
from ipywidgets.widgets.widget import _instances

from spades_tutor.engine import Rules
from spades_tutor.lessons import load_lessons
from spades_tutor.ui.app import App
from spades_tutor.ui.lesson_player import LessonPlayer
from spades_tutor.ui.tree import held_by, replace_children, widget_tree

LESSONS = load_lessons()
JOKERS = Rules.preset("jokers")


def open_count() -> int:
    return len(_instances)


def all_closed(root: w.Widget) -> bool:
    return all(x.comm is None for x in widget_tree([root]))


def test_replace_children_keeps_what_the_new_children_use_and_closes_the_rest() -> None:
    shared = w.HTML("kept")
    gone_inner = w.Button(description="inner")
    gone = w.VBox([gone_inner, shared])
    box = w.VBox([gone])
    replace_children(box, [w.HBox([shared])])
    assert shared.comm is not None and shared.layout.comm is not None
    assert gone.comm is None and gone_inner.comm is None and gone_inner.style.comm is None
    assert box.comm is not None and box.children[0].children == (shared,)


def test_stepping_back_and_forth_through_a_lesson_leaves_no_widget_behind() -> None:
    lesson = next(x for x in LESSONS if x.number == 3)
    player = LessonPlayer(lesson, JOKERS, seed=4)
    for step in range(1, len(lesson.steps)):  # each step drawn once
        player.go(step)
    player.go(0)
    settled = open_count()
    for _ in range(10):
        for step in range(1, len(lesson.steps)):
            player.next.click()
            assert player.step == step
        for _ in range(1, len(lesson.steps)):
            player.back.click()
    assert player.step == 0 and open_count() <= settled
    before = list(widget_tree(player.body.children))
    player.next.click()
    assert all(x.comm is None for x in before), "the first step's widgets are still open"
    assert player.widget.comm is not None and player.next.comm is not None


def test_a_replayed_round_closes_each_trick_it_leaves() -> None:
    lesson = next(x for x in LESSONS if x.number == 11)
    player = LessonPlayer(lesson, JOKERS, seed=4)
    steppers = []
    for step in range(len(lesson.steps)):
        player.go(step)
        steppers = [x for x in widget_tree(player.body.children) if "st-stepper" in getattr(x, "_dom_classes", ())]
        if steppers:
            break
    assert steppers, "lesson 11 replays a round"
    stepper = steppers[0]
    table = stepper.children[2]
    forward = stepper.children[4].children[1]
    first = table.children[0]
    forward.click()
    settled = open_count()
    assert all_closed(first) and table.children[0].comm is not None
    for _ in range(11):
        forward.click()
    assert open_count() <= settled and player.step == step


def test_opening_another_lesson_closes_the_one_before_and_the_list_keeps_working(opened: list[App]) -> None:
    app = App(query="lesson=2")
    opened.append(app)
    first = app.learn.player
    assert first is not None
    app.learn.back.click()  # ◀ All lessons: the lesson's widgets go, the list is built
    assert app.learn.player is None and all_closed(first.widget)
    assert app.learn.back.comm is not None and app.learn.list_box.comm is not None
    buttons = app.learn._list_buttons
    buttons[3].click()
    player = app.learn.player
    assert player is not None and player.lesson.number == app.learn.lessons[3].number
    assert all(b.comm is not None for b in buttons)  # not shown while a lesson is, and still open
    app.learn.open(app.learn.lessons[6])  # a lesson opened from a lesson (a link, a reload)
    assert all_closed(player.widget) and app.learn.back.comm is not None
    last = app.learn.player
    assert last is not None
    while app.learn.player is last:  # to its end and Finish ✓ (the review skipped): the list again
        (last.finish if last.finish.layout.display is None else last.next).click()
    assert all_closed(last.widget)
    buttons[1].click()  # a list button still works after a lesson finished from inside itself
    assert app.learn.player is not None and app.learn.player.lesson.number == app.learn.lessons[1].number


def test_each_new_question_closes_the_one_before(opened: list[App]) -> None:
    app = App(query="page=quiz")
    opened.append(app)
    quiz = app.quiz
    quiz.next_item()

    def others() -> int:  # widgets open outside the question on show
        assert quiz.view is not None
        return open_count() - len(list(widget_tree([quiz.view.widget])))

    settled = others()
    for _ in range(15):
        view = quiz.view
        assert view is not None
        quiz.next_item()
        assert all_closed(view.widget) and quiz.slot.comm is not None
        assert others() == settled


def test_a_hand_played_against_the_bots_closes_each_table_it_leaves_and_keeps_the_pages_controls() -> None:
    import spades_tutor as st
    from spades_tutor.ui.play_page import PLAYER, PlayPage

    page = PlayPage(JOKERS)
    page.new_game(seed=5)
    controls = held_by(page)
    assert page.bid_choice in controls and page.continue_button in controls
    counts = []
    while not page.sheet_pending:
        rnd = page.game.round
        assert rnd.to_act == PLAYER
        before = list(widget_tree(page.body.children))
        if rnd.phase is st.Phase.BIDDING:
            page.bid_choice.value = page.bid_choice.options[2][1]
            page.bid()
        else:
            page.play(rnd.legal_plays()[-1])
        while page.holding is not None:  # the trick kept on the table: the learner goes on
            page.go_on()
        kept = {id(x) for x in widget_tree([*page.body.children, *controls])}
        assert all(x.comm is None for x in before if id(x) not in kept), "a widget of the last table is still open"
        counts.append(open_count())
    assert all(x.comm is not None for x in controls), "one of the page's own controls was closed"
    # while the hand is played (the last count is the score sheet, a bigger table): no widget more per card
    assert max(counts[1:-1]) - min(counts[1:-1]) < 40, counts
    page.continue_button.click()  # the controls that were off the table still work: the next hand
    assert page.game.round.to_act == PLAYER and page.bid_choice.options


def test_the_projector_closes_the_table_of_each_step_it_leaves() -> None:
    from spades_tutor.ui.projector import ProjectorPage

    page = ProjectorPage(JOKERS, "4127W")
    page.forward()
    settled = open_count()
    for _ in range(30):
        before = list(widget_tree(page.table.children))
        page.forward()
        assert all(x.comm is None for x in before)
    assert open_count() <= settled + 5 and page.keys.comm is not None


def test_a_closed_lesson_is_freed_not_only_closed(opened: list[App]) -> None:
    """Closed widgets must also be garbage: anywidget keeps every widget whose ``_esm`` is a path
    (manzt/anywidget#929), so the app gives its scripts as text."""
    import gc
    import weakref

    app = App(query="lesson=11&step=2")
    opened.append(app)
    old = app.learn.player
    assert old is not None
    refs = [weakref.ref(x) for x in widget_tree([old.widget])]
    kinds = {type(x).__name__ for x in widget_tree([old.widget])}
    assert {"CardsWidget", "TermDisclosures"} <= kinds  # the app's own anywidgets are among them
    del old
    app.learn.open(app.learn.lessons[5])
    gc.collect()
    alive = sorted({type(r()).__name__ for r in refs if r() is not None})
    assert not alive, f"closed but still held: {alive}"


def test_a_puzzle_redrawn_closes_the_table_it_leaves_and_keeps_its_controls() -> None:
    import datetime

    from spades_tutor.ui.puzzle_page import PuzzlePage

    page = PuzzlePage(today=datetime.date(2026, 12, 2))
    page.render()
    settled = open_count()
    for _ in range(10):
        before = list(widget_tree(page.table.children))
        page.show_all.value = not page.show_all.value  # redraws with or without the other hands
        page.render()
        assert page.picker is not None and page.picker.comm is not None
        assert all(x.comm is None for x in before if x not in widget_tree(page.table.children))
    assert open_count() <= settled and page.check_button.comm is not None and page.show_all.comm is not None
    p = page.puzzle
    page.choose(p.answers[0])  # the redrawn picker still takes a card
    page.check()
    assert page.solved


def test_visiting_the_progress_page_again_opens_no_new_widget(opened: list[App]) -> None:
    app = App(query="page=progress")
    opened.append(app)
    app.progress.record("score", "jokers", "score:jokers:1/1", True, when=1_700_000_000.0)
    app.show("Home")
    app.show("Progress")
    settled = open_count()
    for _ in range(5):
        app.show("Home")
        app.show("Progress")
        assert open_count() == settled
    assert app.progress_page.timeline_plot in app.progress_page.body.children


def test_a_dismissed_note_and_a_replaced_or_dismissed_error_are_closed(opened: list[App]) -> None:
    app = App(query="lesson=99")  # a lesson no one wrote: the app says so above the page
    opened.append(app)
    assert len(app.notes.children) == 1
    app.add_notes(["a second note"])
    first, second = app.notes.children
    first.children[1].click()  # Dismiss
    assert app.notes.children == (second,) and all_closed(first) and second.comm is not None
    app.show_error("Something went wrong.", RuntimeError("x"))
    shown = app.error.children[0]
    app.show_error("Something else went wrong.", RuntimeError("y"))
    assert all_closed(shown) and "Something else" in app.error.children[0].children[0].value
    app.error.children[0].children[1].click()
    assert app.error.children == () and app.error.comm is not None
