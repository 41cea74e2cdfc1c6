"""The Your table page: the differences of the learner's rules from the reference chosen, each on a hand,
then a short quiz whose answers come with the reference table's answer as the contrast."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_quiz_kinds import answer_as_given  # 0 in every number box, nothing chosen: checked as it stands

from spades_tutor import Rules
from spades_tutor.session.progress import Progress
from spades_tutor.ui import errors
from spades_tutor.ui.app import LINK_PAGES, App
from spades_tutor.ui.cards import CardsWidget
from spades_tutor.ui.differences_page import DifferencesPage
from spades_tutor.ui.pages.differences import DifferencesTab
from spades_tutor.ui.tree import widget_tree


@pytest.fixture
def app() -> Iterator[App]:
    built = App(query="page=table")
    try:
        yield built
    finally:
        errors.remove_sink(built.show_error)


def page_text(view: DifferencesPage) -> str:
    return " ".join(
        str(x.value) for x in widget_tree([view.widget]) if hasattr(x, "value") and isinstance(x.value, str)
    )


def headings(view: DifferencesPage) -> list[str]:
    return [d.heading for d in view.found]


def test_the_page_is_a_tab_and_a_link() -> None:
    assert LINK_PAGES["table"] == "Your table"


def test_the_standard_rules_change_nothing_and_the_page_says_where_to_choose_house_rules(app: App) -> None:
    tab = app.get_page(DifferencesTab)
    assert app.nav.value == "Your table" and app.page.children == (tab.widget,)
    assert tab.view.found == () and tab.view.quizzes == []
    text = page_text(tab.view)
    assert "plays Spades with Jokers exactly: nothing changes" in text and "choose them on Home" in text


def test_house_rules_chosen_on_home_are_each_listed_shown_and_quizzed(app: App) -> None:
    tab = app.get_page(DifferencesTab)
    app.picker.nil.value = False
    app.picker.mercy.value = True
    view = tab.view
    assert view.rules == Rules.preset("jokers", nil=False, mercy=-200)
    assert headings(view) == ["No nil bids", "A team at −200 or below loses"]
    text = page_text(view)
    for heading in headings(view):
        assert f">{heading}</h3>" in text
    assert "This table plays without nil: bid 1 to 13 tricks." in text  # the engine's own sentence
    assert "North may bid nil here." in text
    # one question: the mercy rule (no quiz kind asks whether a bid is allowed), in the learner's rules
    (quiz,) = view.quizzes
    assert quiz.item.kind == "game-winner" and quiz.item.rules == view.rules
    answer_as_given(quiz)
    quiz._choice.value = quiz.item.answer()  # type: ignore[union-attr]
    feedback = quiz.check()
    assert feedback is not None and feedback.correct
    assert "In Spades with Jokers the answer is <b>another hand</b>" in view.contrasts[0].value


def test_another_rule_set_compared_with_regular_spades_draws_the_trick_at_both_tables(app: App) -> None:
    tab = app.get_page(DifferencesTab)
    app.picker.preset.value = "deuces-high"
    view = tab.view
    assert headings(view) == ["2♣ 2♥ out instead of 2♥ 2♦: 16 trumps instead of 15"]
    tricks = [x for x in widget_tree([view.body]) if isinstance(x, CardsWidget) and x.arrangement == "table"]
    assert len(tricks) == 3  # one at each table, and the quiz's
    assert tricks[0].winner != tricks[1].winner  # the same trick, won by another seat
    view.reference.value = "classic"
    assert view.theirs == Rules.preset("classic")
    assert headings(view) == ["Both jokers in, 2♣ 2♥ out: 16 trumps instead of 13"]
    # the page's menu is untrusted: a null index leaves the choice as it was
    view.reference.set_state({"index": None})
    assert view.reference.value == "classic"


def test_a_settings_change_while_another_page_is_shown_is_listed_when_the_page_is_shown_again(app: App) -> None:
    tab = app.get_page(DifferencesTab)
    app.show("Home")
    stored = Progress()
    stored.settings.preset = "classic"
    app.store.value = stored.to_json()
    app.store.loaded = True
    assert tab.stale and tab.view.found == ()  # not drawn while hidden
    app.show("Your table")
    assert not tab.stale and headings(tab.view) == ["No jokers, all 52 cards: 13 trumps instead of 15"]
