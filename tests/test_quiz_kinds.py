"""The quiz kinds' registry: one class per kind, found by the generators, the lessons and the UI."""

from __future__ import annotations

import dataclasses
import html
import importlib
import pkgutil
import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

import ipywidgets
import pytest

import spades_tutor as st
from spades_tutor.lessons import parse_lesson, validate_lesson
from spades_tutor.quiz import DIFFICULTIES, Feedback, QuizItem, generate, item_from_dict, kinds, mixed
from spades_tutor.quiz.base import Choice, Numbers, PickCards, PositionReader, ShowCards, ViewSpec
from spades_tutor.ui import errors
from spades_tutor.ui.app import App, QuizPage
from spades_tutor.ui.quiz_view import QuizView

BUILT_IN = (
    "legal-plays",
    "may-lead",
    "trick-winner",
    "first-leader",
    "highest-trump",
    "deck-setup",
    "trump-order",
    "score",
    "game-winner",
    "sure-tricks",
    "nil-safe",
    "best-bid",
)


def answer_through_the_view(view: QuizView) -> None:
    """Enter the engine's own answer with the view's controls, as a learner would."""
    item, answer = view.item, view.item.answer()
    control = view.spec.answer
    if isinstance(control, PickCards):
        assert view.picker is not None
        chosen = (answer,) if isinstance(answer, st.Card) else tuple(answer)
        view.picker.selected = [str(c) for c in chosen]
    elif isinstance(control, Numbers):
        assert view.numbers is not None
        if isinstance(answer, Mapping):  # {team: (points, bags)}
            values = {f"{t.short}-points": p for t, (p, _) in answer.items()}
            values |= {f"{t.short}-bags": b for t, (_, b) in answer.items()}
        else:
            (field,) = control.fields
            values = {field.key: answer}
        view.numbers.values = {**view.numbers.values, **values}
    else:
        assert isinstance(control, Choice) and view._choice is not None
        view._choice.value = {True: "yes", False: "no"}.get(answer, answer)
    assert view.missing() == "", item.kind


def answer_as_given(view: QuizView) -> None:
    """Let the view be checked as it stands, whatever the kind: nothing chosen, or 0 in every number box."""
    view.missing = lambda: ""  # type: ignore[method-assign]
    if view.numbers is not None:
        view.numbers.set(**dict.fromkeys(view.numbers.values, 0))


def test_the_registry_lists_the_built_in_kinds_in_their_order() -> None:
    # every module of the kinds package registers its kind; a kind registered elsewhere comes in its order
    found = {cls.kind: cls for m in _kind_modules() for cls in vars(m).values() if _registered_here(cls, m)}
    assert len(found) == len(_kind_modules()), "one kind a module"
    assert set(found) <= set(kinds.names())
    assert [n for n in kinds.names() if n in BUILT_IN] == list(BUILT_IN)  # the built-in ones, in their order
    assert set(BUILT_IN) <= set(found)
    assert kinds.names() == tuple(sorted(kinds.names(), key=lambda n: kinds.get(n).order))
    assert [cls.kind for cls in kinds.kinds()] == list(kinds.names())
    assert all(cls.title and tuple(cls.levels) == DIFFICULTIES for cls in kinds.kinds())


def _kind_modules() -> list[Any]:
    """The modules of the kinds package (each holds one kind)."""
    package = Path(kinds.__file__).parent
    return [importlib.import_module(f"{kinds.__name__}.{m.name}") for m in pkgutil.iter_modules([str(package)])]


def _registered_here(cls: object, module: Any) -> bool:
    return (
        isinstance(cls, type)
        and issubclass(cls, QuizItem)
        and cls.__module__ == module.__name__
        and kinds.REGISTRY.get(cls.kind) is cls
    )


@pytest.mark.parametrize("kind", kinds.names())
@pytest.mark.parametrize("preset", ["jokers", "classic"])
def test_every_registered_kind_is_drawn_from_its_view_and_answered_through_it(kind: str, preset: str) -> None:
    for difficulty in DIFFICULTIES:
        item = generate(kind, st.Rules.preset(preset), seed=11, difficulty=difficulty)
        view = QuizView(item)
        shown = "".join(c.value for c in view.widget.children if isinstance(c, ipywidgets.HTML))
        assert html.escape(str(item.position())) not in shown  # never the raw position
        assert f"Quiz · {html.escape(kinds.get(kind).title)}" in shown
        assert sum(x is not None for x in (view.picker, view.numbers, view._choice)) == 1
        answer_through_the_view(view)
        feedback = view.check()
        assert feedback is not None and feedback.correct, (kind, difficulty)
        assert view.check_button.disabled


def test_the_quiz_page_offers_exactly_the_registered_kinds() -> None:
    app = App()
    try:
        offered = [kind for _, kind in app.quiz.kind.options if kind != "mixed"]
        titles = [title for title, kind in app.quiz.kind.options if kind != "mixed"]
    finally:
        errors.remove_sink(app.show_error)
    assert offered == list(kinds.names())
    assert titles == [cls.title for cls in kinds.kinds()]


def test_a_kind_without_levels_or_a_taken_name_is_refused() -> None:
    class NoLevels(QuizItem):
        kind: ClassVar[str] = "no-levels"
        title: ClassVar[str] = "No levels"

    class Twice(QuizItem):
        kind: ClassVar[str] = "score"
        title: ClassVar[str] = "Score again"
        levels: ClassVar[Mapping[int, str]] = {1: "a", 2: "b", 3: "c"}

    before = kinds.names()
    with pytest.raises(st.SpadesError, match="a note for each level"):
        kinds.register(NoLevels)
    with pytest.raises(st.SpadesError, match="already registered"):
        kinds.register(Twice)
    assert kinds.names() == before and kinds.get("score") is not Twice


# --- a kind of the tests' own: registered here, found everywhere -----------------------------------


@dataclasses.dataclass(frozen=True, eq=False)
class CountsAsItem(QuizItem):
    """Which suit does this card count as? (The engine's ``suit_of`` answers.)"""

    kind: ClassVar[str] = "counts-as"
    title: ClassVar[str] = "Which suit?"
    order: ClassVar[int] = 99
    levels: ClassVar[Mapping[int, str]] = {1: "A plain card.", 2: "A spade.", 3: "A joker or a 2♦."}
    position_keys: ClassVar[tuple[frozenset[str], frozenset[str]]] = (frozenset({"hand"}), frozenset())
    rules: st.Rules
    card: st.Card
    seed: int | None = None
    difficulty: int = 1

    @classmethod
    def generate(cls, rules: st.Rules, seed: int, difficulty: int) -> CountsAsItem:
        rng = random.Random(f"counts-as/{difficulty}/{seed}")
        pools = {
            1: [c for c in rules.deck() if not rules.is_trump(c)],
            2: [c for c in rules.deck() if c.suit == st.Suit.SPADES and rules.is_trump(c)],
            3: list(rules.extra_trumps()) or list(rules.trump_order()[:2]),
        }
        return cls(rules, rng.choice(pools[difficulty]), seed=seed, difficulty=difficulty)

    @classmethod
    def from_position(cls, rules: st.Rules, data: Mapping[str, Any], **common: Any) -> CountsAsItem:
        (card,) = st.cards(data["hand"])
        return cls(rules, card, **common)

    @classmethod
    def lesson_position(cls, rules: st.Rules, block: PositionReader) -> dict[str, Any]:
        return {"hand": block.cards("hand", 1, 1)}

    @property
    def prompt(self) -> str:
        return "Which suit does this card count as?"

    def answer(self) -> str:
        return self.rules.suit_of(self.card).plural

    def check(self, response: Any) -> Feedback:
        right = self.answer()
        return Feedback(response == right, right, (f"{self.card} counts as one of the {right}.",))

    def position(self) -> dict[str, Any]:
        return {"hand": str(self.card)}

    def view(self) -> ViewSpec:
        suits = tuple(s.plural for s in st.Suit)
        return ViewSpec((ShowCards((self.card,), "the card"), Choice(suits, "Suit:", "Choose a suit first.")))


@pytest.fixture
def counts_as() -> Iterator[type[CountsAsItem]]:
    before = kinds.names()
    kinds.register(CountsAsItem)
    try:
        yield CountsAsItem
    finally:
        kinds.unregister(CountsAsItem.kind)
    assert kinds.names() == before


def test_a_kind_registered_in_one_place_is_generated_mixed_and_rebuilt(counts_as: type[CountsAsItem]) -> None:
    rules = st.Rules.preset("jokers")
    assert kinds.names()[-1] == "counts-as"
    item = generate("counts-as", rules, seed=4, difficulty=3)
    assert isinstance(item, CountsAsItem) and item.card.is_joker and item.answer() == "spades"
    assert item_from_dict(item.to_dict()).position() == item.position()
    items = mixed(rules, seed=2, count=2 * len(kinds.names()))
    assert sum(i.kind == "counts-as" for i in items) == 2  # dealt in rounds like every kind
    with pytest.raises(st.SpadesError, match="counts-as"):
        generate("no-such-kind", rules, seed=1)


def test_a_kind_registered_in_one_place_is_shown_by_the_view_and_offered_by_the_quiz_page(
    counts_as: type[CountsAsItem],
) -> None:
    item = generate("counts-as", st.Rules.preset("deuces-high"), seed=1, difficulty=1)
    view = QuizView(item)
    assert "Quiz · Which suit?" in view.widget.children[0].value
    assert view.check() is None and "Choose a suit first." in view.result.value
    answer_through_the_view(view)
    feedback = view.check()
    assert feedback is not None and feedback.correct
    app = App()
    try:
        assert ("Which suit?", "counts-as") in QuizPage(app).kind.options
    finally:
        errors.remove_sink(app.show_error)


def test_a_kind_registered_in_one_place_can_be_asked_in_a_lesson(counts_as: type[CountsAsItem]) -> None:
    text = "# Demo\n\n---\n\n## Jokers\n\n```quiz counts-as\nhand: LJ\n```\n"
    lesson = parse_lesson(text, Path("01-demo.md"))
    (block,) = lesson.steps[0].blocks
    assert block.quiz_item(lesson).answer() == "spades"
    assert validate_lesson(lesson) == []
    with pytest.raises(st.SpadesError, match="hand: 2 cards"):
        block_two = parse_lesson(text.replace("hand: LJ", "hand: LJ BJ"), Path("01-demo.md"))
        block_two.steps[0].blocks[0].quiz_item(block_two)
