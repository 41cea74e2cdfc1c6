"""A quiz kind added as one module, with its wrong beliefs and its answers to try, and nothing else.

The module below is written to a file and imported, as a new module of
``spades_tutor.quiz.kinds`` would be: it registers its kind, declares its misconceptions (two
of the shared beliefs about the rule set and one of its own) and lets the base class offer its
answers. The kind then shows in the quiz page's menu, its levels and the mastery table, and passes
the very checks every built-in kind passes: the generic tests are called on it here, and run again
in a fresh pytest with the kind registered before they are collected, where their parametrisation
over the registry picks it up. No test names a kind's data for it.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import spades_tutor as st
from spades_tutor.quiz import DIFFICULTIES, QuizItem, generate, item_from_dict, kinds, mixed
from spades_tutor.quiz.mastery import RISE_RUN, mastery, next_practice
from spades_tutor.session.progress import Answer
from spades_tutor.ui import errors
from spades_tutor.ui.app import App

NAME = "which-suit"
TESTS = Path(__file__).parent

#: the whole kind, as a module of its own
MODULE = '''
"""Which suit does this card count as? (The engine's ``suit_of`` answers.)"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from spades_tutor.engine import Card, Rank, Rules, Suit, cards
from spades_tutor.quiz.base import Choice, Feedback, PositionReader, QuizItem, ShowCards, ViewSpec
from spades_tutor.quiz.kinds import register
from spades_tutor.quiz.misconceptions import Misconception, changed

_SUITS = tuple(s.plural for s in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS))


def _believed(item: Any, rules: Rules) -> str:
    return rules.suit_of(item.card).plural


MISCONCEPTIONS: tuple[Misconception, ...] = (
    changed("deuce-as-diamond", _believed),
    changed("side-ace-trump", _believed),
    Misconception(
        "black-is-spades",
        lambda item: "spades" if item.card.suit == Suit.CLUBS and not item.rules.is_trump(item.card) else None,
        lambda item: f"{item.card} is a club: the two black suits are still two suits.",
    ),
)


@register
@dataclasses.dataclass(frozen=True, eq=False)
class WhichSuitItem(QuizItem):
    """Which suit does this card count as?"""

    kind: ClassVar[str] = "which-suit"
    title: ClassVar[str] = "Which suit?"
    order: ClassVar[int] = 99
    levels: ClassVar[Mapping[int, str]] = {1: "A side card.", 2: "A spade or a side ace.", 3: "A trump or an ace."}
    position_keys: ClassVar[tuple[frozenset[str], frozenset[str]]] = (frozenset({"card"}), frozenset())
    misconceptions: ClassVar[tuple[Misconception, ...]] = MISCONCEPTIONS
    rules: Rules
    card: Card
    seed: int | None = None
    difficulty: int = 1

    @classmethod
    def generate(cls, rules: Rules, seed: int, difficulty: int) -> WhichSuitItem:
        rng = random.Random(f"which-suit/{difficulty}/{seed}")
        deck = rules.deck()
        aces = [c for c in deck if not c.is_joker and c.rank == Rank.ACE and not rules.is_trump(c)]
        pools = {
            1: [c for c in deck if not rules.is_trump(c) and c not in aces],
            2: [c for c in deck if rules.is_trump(c) and c.suit == Suit.SPADES] + aces,
            3: list(rules.trump_order()) + aces,
        }
        return cls(rules, rng.choice(pools[difficulty]), seed=seed, difficulty=difficulty)

    @classmethod
    def from_position(cls, rules: Rules, data: Mapping[str, Any], **common: Any) -> WhichSuitItem:
        (card,) = cards(data["card"])
        return cls(rules, card, **common)

    @classmethod
    def lesson_position(cls, rules: Rules, block: PositionReader) -> dict[str, Any]:
        return {"card": block.cards("card", 1, 1)}

    @property
    def prompt(self) -> str:
        return "Which suit does this card count as?"

    def answer(self) -> str:
        return str(self.rules.suit_of(self.card).plural)

    def given(self, response: Any) -> str | None:
        return response.strip().lower() if isinstance(response, str) else None

    def check(self, response: Any) -> Feedback:
        right = self.answer()
        correct = self.given(response) == right
        diagnosis = None if correct else self.diagnose(response)
        return Feedback(correct, right, (f"{self.card} counts as one of the {right}.",), diagnosis=diagnosis)

    def right_forms(self, rng: random.Random) -> Iterator[Any]:
        yield from (self.answer(), f" {self.answer().upper()} ")

    def position(self) -> dict[str, Any]:
        return {"card": str(self.card)}

    def view(self) -> ViewSpec:
        return ViewSpec((ShowCards((self.card,), "the card"), Choice(_SUITS, "Suit:", "Choose a suit first.")))
'''


def _import(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import does: its dataclass reads its annotations there
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def which_suit(tmp_path: Path) -> Iterator[type[QuizItem]]:
    """The kind of MODULE, imported from its own file (importing it registers it)."""
    before = kinds.names()
    path = tmp_path / "which_suit.py"
    path.write_text(MODULE, encoding="utf-8")
    try:
        module = _import(path)
        yield module.WhichSuitItem
    finally:
        kinds.unregister(NAME)
        sys.modules.pop(path.stem, None)
    assert kinds.names() == before


def test_a_kind_in_one_module_is_in_the_menus_the_levels_and_the_mastery_table(which_suit: type[QuizItem]) -> None:
    assert kinds.names()[-1] == NAME and kinds.get(NAME) is which_suit
    rules = st.Rules.preset("deuces-high")
    app = App()
    try:
        assert ("Which suit?", NAME) in app.quiz.kind.options
    finally:
        errors.remove_sink(app.show_error)
    levels = [generate(NAME, rules, seed, level) for level in DIFFICULTIES for seed in range(20)]
    assert {item.difficulty for item in levels} == set(DIFFICULTIES)
    extras = set(rules.extra_trumps())  # the jokers and the 2♦: the third level asks them
    assert any(item.card in extras for item in levels if item.difficulty == 3)  # type: ignore[attr-defined]
    assert sum(item.kind == NAME for item in mixed(rules, 1, count=2 * len(kinds.names()))) == 2
    assert NAME in mastery([]) and mastery([])[NAME].level == 1
    assert NAME in {next_practice([], seed)[0] for seed in range(300)}
    run = [Answer(0.0, NAME, "jokers", f"{NAME}:jokers:{i}/1", True, "quiz", 1) for i in range(RISE_RUN)]
    assert mastery(run)[NAME].level == 2  # a run of right first tries lifts the level, as for every kind
    assert item_from_dict(levels[0].to_dict()).position() == levels[0].position()


def test_a_kind_in_one_module_names_its_wrong_beliefs(which_suit: type[QuizItem]) -> None:
    item = item_from_dict({"kind": NAME, "preset": "deuces-high", "card": "2D"})
    assert item.answer() == "spades"
    assert (item.check("diamonds").diagnosis or "").startswith("In deuces-high the 2♦ is a trump, not a diamond")
    club = item_from_dict({"kind": NAME, "preset": "classic", "card": "9C"})
    assert club.check("spades").diagnosis == "9♣ is a club: the two black suits are still two suits."
    ace = item_from_dict({"kind": NAME, "preset": "classic", "card": "AH"})
    assert (ace.check("spades").diagnosis or "").startswith("A side ace is not a trump")
    assert ace.check("clubs").diagnosis is None and ace.check("hearts").correct


def test_a_kind_in_one_module_passes_the_checks_every_kind_passes(which_suit: type[QuizItem]) -> None:
    import test_misconceptions as tm
    import test_quiz as tq
    import test_quiz_kinds as tk

    for preset in st.Rules.preset_names():
        for difficulty in DIFFICULTIES:
            tq.test_generated_items_every_preset(preset=preset, kind=NAME, difficulty=difficulty)
        tk.test_every_registered_kind_is_drawn_from_its_view_and_answered_through_it(NAME, preset)
    tm.test_every_kind_with_common_mistakes_has_a_catalogue()
    tm.test_a_diagnosis_is_only_given_for_an_answer_a_premise_gives(NAME)
    for m in which_suit.misconceptions:
        for preset, flags in tm._tables(m.name):
            tm.test_each_misconception_turns_up_and_is_named(NAME, m.name, preset, flags)


@pytest.mark.slow
def test_the_existing_tests_pass_with_a_kind_registered_before_they_are_collected(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    (tmp_path / "which_suit.py").write_text(MODULE, encoding="utf-8")
    (tmp_path / "register_which_suit.py").write_text("import which_suit  # noqa: F401\n", encoding="utf-8")
    chosen = [
        "which-suit",  # every test parametrised over the registry, for the new kind
        "test_the_registry_lists",
        "test_the_quiz_page_offers",
        "test_a_kind_without_levels",
        "test_a_kind_registered_in_one_place",
        "test_mixed_uses_every_kind",
        "test_every_kind_with_common_mistakes",
        "test_an_empty_history_serves_every_kind",
        "test_stored_answers_to_unknown_kinds",
    ]
    root = TESTS.parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(root), os.environ.get("PYTHONPATH", "")])}
    files = ["test_quiz.py", "test_misconceptions.py", "test_quiz_kinds.py", "test_mastery.py"]
    # the same marks as this run: the quick loop (-m "not slow") leaves out there what it leaves out here,
    # such as the mixed sets of every kind, whose measured kinds take seconds; make test runs them all
    marks = request.config.getoption("markexpr")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "register_which_suit",
            "-p",
            "no:cacheprovider",
            *(["-m", marks] if marks else []),
            "-k",
            " or ".join(chosen),
            *(str(TESTS / f) for f in files),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
        timeout=900,
    )
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr
    assert run.returncode == 0, textwrap.shorten(run.stdout[-3000:] + run.stderr[-2000:], 5000)
    assert " passed" in summary and "failed" not in summary and "error" not in summary, summary
    passed = int(summary.split(" passed")[0].split()[-1])
    assert passed >= 8 * 3 + 2 * 3, summary  # every preset and level, and the registry's own tests, ran
    assert NAME not in kinds.names()  # registered in that process only
