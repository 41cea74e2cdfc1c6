"""The Puzzles page: a position, a goal, and the card that reaches it, proven by the solver.

The learner plays the seat to act; they pick a card from their hand and check it. A right card
shows every card that works and the winning line; a wrong one shows the solver's refuting line
and allows a second try. Puzzles come from the shipped set (``spades_tutor.puzzles``), the
daily one from the date and the learner's puzzle rating, a shared one from a ``?puzzle=`` link
(checked by the solver before it is shown, within a work budget), a new one from the generator,
near the learner's rating.

Each puzzle shown counts once towards the learner's puzzle rating: the first card checked, right
or not, is reported (``on_result``) for the app to record; the rating is replayed from those
results (``spades_tutor.puzzles.rating``).
"""

from __future__ import annotations

import dataclasses
import datetime
import html
import random
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from ..engine import Card, Rules, Seat, Trick, why_illegal
from ..engine.text import and_list
from ..puzzles import (
    THEMES,
    Puzzle,
    PuzzleCodeError,
    daily,
    find_shipped,
    generate_near,
    line_tricks,
    play_line,
    say_tricks,
    shipped,
    verify,
)
from ..puzzles.rating import Standing, aim, nearest_difficulty
from ..solver import Budget
from .cards import CardsWidget, hand_view, trick_view
from .choices import Dropdown
from .errors import guarded
from .landmarks import live
from .tree import close_unused, held_by, replace_children

EVERY = "every"
#: the most work the solver may do per question when a shared puzzle is checked (5 tricks at most)
CHECK_BUDGET = Budget(nodes=200_000, seconds=1.0)
#: a new puzzle is looked for in this many bot-played rounds
NEW_ROUNDS = 40
#: what a puzzle rating is, in one sentence, under the learner's
RATING_MEANS = (
    "Puzzles are rated on the same scale: a puzzle rated as you are is one you solve on the first try "
    "about half the time. Your rating goes up when your first card works and down when it does not, "
    "more for a surprise; the daily puzzle and new ones are chosen near it."
)


#: the themes whose puzzles are about a nil (a table without nil makes none)
NIL_THEMES = ("save the nil", "cover partner's nil", "break the nil")


def can_show(rules: Rules, theme: str) -> bool:
    """Whether a rule set's deck can show a theme (no joker to lead in classic, no trump 2♦ but in deuces-high)."""
    if theme == "pull trumps with a joker":
        return any(c.is_joker for c in rules.deck())
    if theme == "the 2♦ in deuces-high":
        return rules.is_trump(Card.parse("2D"))
    return True


def _names(cards: tuple[Card, ...]) -> str:
    return and_list(f"the {c.name}" for c in cards)


class LineStepper:
    """A line of play on the cards (why a card fails, or the winning line): one trick at a time, with
    every hand as it stands after the trick, the trick on the table and the line's words for it; the
    whole line in words below, and what it means for the goal."""

    def __init__(self, puzzle: Puzzle, title: str, card: Card, *, four_colour: bool = False) -> None:
        played = play_line(puzzle, card)
        self.puzzle = puzzle
        self.title = title
        phrases, self.outcome = say_tricks(puzzle, played)
        self.tricks = line_tricks(puzzle, played, phrases)
        self.four_colour = four_colour
        self.index = 0
        self.where = live(w.HTML())
        self.table = w.Box()
        self.table.add_class("st-line-table")
        self.prev = w.Button(description="◀ Trick", tooltip="The trick before")
        self.next = w.Button(description="Trick ▶", tooltip="The next trick")
        self.prev.add_class("st-line-prev")
        self.next.add_class("st-line-next")
        self.prev.on_click(guarded(lambda _b: self.go(self.index - 1)))
        self.next.on_click(guarded(lambda _b: self.go(self.index + 1)))
        items = "".join(f"<li>{html.escape(t[0].upper() + t[1:])}.</li>" for t in phrases)
        self.words = (
            f"<details><summary>The whole line in words</summary>"
            f'<ol class="st-puzzle-tricks">{items}</ol></details>'
            f'<p class="st-line-outcome">{html.escape(self.outcome)}</p>'
        )
        buttons = w.HBox([self.prev, self.next])
        buttons.add_class("st-line-buttons")
        self.widget = w.VBox(
            [
                w.HTML(f'<div class="st-line-title"><b>{html.escape(title)}:</b></div>'),
                self.where,
                self.table,
                buttons,
                w.HTML(self.words),
            ]
        )
        self.widget.add_class("st-puzzle-line")
        self.render()

    def text(self) -> str:
        """The line in words, as the page says it: the title, each trick, what it means."""
        return " ".join([f"{self.title}:", *(t.said for t in self.tricks), self.outcome])

    def go(self, index: int) -> None:
        self.index = max(0, min(index, len(self.tricks) - 1))
        self.render()

    def render(self) -> None:
        if not self.tricks:
            self.where.value = '<p class="st-note">The solver ran out of time before the first trick.</p>'
            self.prev.disabled = self.next.disabled = True
            return
        p = self.puzzle
        t = self.tricks[self.index]
        n = len(self.tricks)
        said = t.said[0].upper() + t.said[1:]
        self.where.value = (
            f'<p class="st-line-where" role="status">Trick {self.index + 1} of {n}: {html.escape(said)}.</p>'
        )
        hands: list[w.Widget] = []
        for seat in (p.learner, p.learner.partner, Seat((p.learner + 1) % 4), Seat((p.learner + 3) % 4)):
            who = "You" if seat == p.learner else "Partner" if seat == p.learner.partner else "Opponent"
            held = t.hands[seat]
            box = w.VBox(
                [
                    w.HTML(f'<p class="st-caption st-puzzle-seat">{who}, {seat.name.title()}</p>'),
                    hand_view(
                        p.rules,
                        held,
                        label=f"{seat.name.title()}'s hand after this trick",
                        four_colour=self.four_colour,
                    )
                    if held
                    else w.HTML('<p class="st-note">No cards left.</p>'),
                ]
            )
            box.add_class("st-line-hand")
            hands.append(box)
        trick = trick_view(
            Trick(t.leader, t.cards), label=f"trick {self.index + 1} of the line", four_colour=self.four_colour
        )
        trick.add_class("st-line-trick")
        hands_box = w.Box(hands)
        hands_box.add_class("st-line-hands")
        replace_children(self.table, [trick, hands_box])
        self.prev.disabled = self.index == 0
        self.next.disabled = self.index == n - 1


class PuzzlePage:
    """One puzzle at a time; ``load(puzzle)`` shows another, ``render()`` redraws from the state."""

    def __init__(
        self,
        code: str | None = None,
        today: datetime.date | None = None,
        seed: int | None = None,
        *,
        rules_name: str | None = None,
        standing: Standing | None = None,
        on_result: Callable[[Puzzle, bool], None] | None = None,
        nil: bool = True,
    ) -> None:
        self.today = today or datetime.date.today()
        self.rng = random.Random(seed)
        self.four_colour = False
        #: the learner's rule set and puzzle rating (``Progress.puzzle_standing``): the daily puzzle fits them
        self.rules_name = rules_name
        self.standing = standing or Standing()
        #: the learner's table plays nil: without it, the daily puzzle and new ones set no nil goal
        self.nil = nil
        #: told of each puzzle's result, once per puzzle shown: the puzzle, and whether the first card checked worked
        self.on_result = on_result
        self.reported = False  # the puzzle shown has had its result reported
        #: the puzzle shown is today's, chosen for the learner and not yet tried: a new record refits it
        self.fitted = False
        self._fitting = False  # the page itself is setting the rule set chosen
        self.puzzle: Puzzle = daily(self.today, nil=nil)
        self.tries = 0  # wrong cards checked so far
        self.solved = False
        self.said = ""  # the verdict
        self.steppers: list[LineStepper] = []  # the lines behind it, on the cards
        self.note = ""  # where the puzzle came from, or why a link's puzzle was not shown
        self.picker: CardsWidget | None = None
        self.chosen: Card | None = None  # the card picked, kept while the page redraws

        self.rule_choice = Dropdown(
            options=[("Every rule set", EVERY), *((n, n) for n in Rules.preset_names())],
            value=EVERY if code is not None else self._learners_choice(),  # a link's puzzle names its own
            description="Rule set:",
            style={"description_width": "initial"},
            layout=w.Layout(width="auto", max_width="100%"),
        )
        self.theme_choice = Dropdown(
            options=self._theme_options(),
            value=EVERY,
            description="Theme:",
            style={"description_width": "initial"},
            layout=w.Layout(width="auto", max_width="100%"),
        )
        for choice in (self.rule_choice, self.theme_choice):
            choice.observe(guarded(lambda _c: self._choice_changed()), names="value")
        self.daily_button = w.Button(description="Daily puzzle", tooltip="The same puzzle all day, for everyone")
        self.next_button = w.Button(description="Next puzzle", tooltip="The next puzzle of the rule set and theme")
        self.new_button = w.Button(description="Make a new one", tooltip="A new puzzle from rounds the bots play")
        for b, name in ((self.daily_button, "daily"), (self.next_button, "next"), (self.new_button, "new")):
            b.add_class(f"st-puzzle-{name}")
            b.layout.width = "auto"
        self.daily_button.on_click(guarded(lambda _b: self.show_daily()))
        self.next_button.on_click(guarded(lambda _b: self.next_puzzle()))
        self.new_button.on_click(guarded(lambda _b: self.new_puzzle()))
        self.show_all = w.Checkbox(value=False, description="Show all hands", indent=False)
        self.show_all.add_class("st-puzzle-show-all")
        self.show_all.observe(guarded(lambda _c: self.render()), names="value")
        self.check_button = w.Button(description="Check card", button_style="primary", layout=w.Layout(width="auto"))
        self.check_button.add_class("st-puzzle-check")
        self.check_button.on_click(guarded(lambda _b: self.check()))

        self.rating_line = w.HTML()
        self.rating_line.add_class("st-puzzle-rating")
        self.head = w.HTML()
        self.goal = w.HTML()
        self.goal.add_class("st-puzzle-goal")
        self.table = w.HBox(layout=w.Layout(flex_flow="row wrap", align_items="flex-start"))
        self.table.add_class("st-puzzle-table")
        self.verdict = live(w.HTML())  # read out when it changes
        self.verdict.add_class("st-puzzle-verdict")
        self.lines = w.VBox()
        self.lines.add_class("st-puzzle-lines")
        from .share import ShareLink

        self.share = ShareLink("puzzle")
        self.share.add_class("st-puzzle-share")
        controls = w.HBox(
            [self.rule_choice, self.theme_choice, self.daily_button, self.next_button, self.new_button],
            layout=w.Layout(flex_flow="row wrap", align_items="center"),
        )
        controls.add_class("st-puzzle-controls")
        self.widget = w.VBox(
            [
                w.HTML(
                    '<h2 class="st-lesson-title">Puzzles</h2><p class="st-note">Play problems from real rounds. '
                    "Every answer is proven by a double-dummy solver: it assumes every hand is known and both "
                    "sides play their best, so a card that works, works against any defence. Each puzzle is "
                    "played in the deck and trumps of the rule set it names; its goal counts tricks, which your "
                    "table's house rules (its scoring, its target, a least team bid) do not change. At a table "
                    "that plays without nil, no puzzle offered has a nil to make, cover or break.</p>"
                ),
                self.rating_line,
                controls,
                self.head,
                self.goal,
                self.show_all,
                self.table,
                self.check_button,
                self.verdict,
                self.lines,
                self.share,
            ],
            layout=w.Layout(max_width="60em"),
        )
        self.widget.add_class("st-puzzle-page")
        self._say_rating()
        if code is not None:
            self.open_code(code)
        else:
            self.show_daily()

    # --- choosing a puzzle -----------------------------------------------------------------

    def pool(self) -> list[Puzzle]:
        """The shipped puzzles of the rule set and theme chosen; at a table without nil, none about a nil."""
        rules, theme = self.rule_choice.value, self.theme_choice.value
        return [
            p
            for p in shipped()
            if rules in (EVERY, p.rules_name) and theme in (EVERY, p.theme) and (self.nil or not p.goal.rule.about_nil)
        ]

    def _learners_choice(self) -> str:
        """The rule set to choose for the learner: theirs, where a shipped puzzle plays it."""
        name = self.rules_name
        return name if name is not None and any(p.rules_name == name for p in shipped()) else EVERY

    def _theme_options(self) -> list[tuple[str, str]]:
        """The themes offered: at a table without nil, none about a nil."""
        return [("Every theme", EVERY), *((t.capitalize(), t) for t in THEMES if self.nil or t not in NIL_THEMES)]

    def _choice_changed(self) -> None:
        """A rule set or theme chosen: the puzzle shown follows it, unless it fits already."""
        if self._fitting:
            return
        if self.puzzle not in self.pool():
            self.next_puzzle()

    def _say_rating(self) -> None:
        self.rating_line.value = (
            f'<p class="st-puzzle-rating-said"><b>{html.escape(self.standing.words())}</b> '
            f'<span class="st-note">{html.escape(RATING_MEANS)}</span></p>'
        )

    def show_daily(self) -> None:
        """Today's puzzle, of the rule set chosen, near the learner's puzzle rating (the same all day
        for them while their rating stays near)."""
        rules = self.rule_choice.value
        target = aim(self.standing.learner)
        wanted = nearest_difficulty(target)
        puzzle = daily(self.today, None if rules == EVERY else rules, near=target, standing=self.standing, nil=self.nil)
        why = "you are new here" if not self.standing.tried else "near your puzzle rating"
        said = f"The puzzle of {self.today:%d %B %Y}, chosen {puzzle.difficulty} for you ({why})."
        if puzzle.difficulty != wanted:
            said = (
                f"The puzzle of {self.today:%d %B %Y}: no {wanted} one in this rule set, so a {puzzle.difficulty} one."
            )
        self.load(puzzle, said)
        self.fitted = True

    def fit(self, rules_name: str, standing: Standing, nil: bool = True) -> None:
        """The learner's rule set or record changed: their rating is shown again, and while today's
        puzzle is shown untried, the rule set chosen follows theirs and today's puzzle is chosen
        again for them (``nil``: whether their table plays nil)."""
        self.rules_name, self.standing, self.nil = rules_name, standing, nil
        self._say_rating()
        options = self._theme_options()
        if list(self.theme_choice.options) != options:
            theme = self.theme_choice.value
            self._fitting = True
            try:  # a nil theme chosen at a table that has lost nil goes back to every theme
                self.theme_choice.options = options
                self.theme_choice.value = theme if theme in dict(options).values() else EVERY
            finally:
                self._fitting = False
        if not self.fitted or self.tries or self.solved:
            return  # a puzzle from a link, chosen, or tried stays, and so does the rule set chosen
        self._fitting = True
        try:
            self.rule_choice.value = self._learners_choice()
        finally:
            self._fitting = False
        self.show_daily()

    def next_puzzle(self) -> None:
        pool = self.pool()
        if not pool:
            self.load(
                self.puzzle, "No shipped puzzle has this rule set and theme; try another theme, or make a new one."
            )
            return
        at = pool.index(self.puzzle) + 1 if self.puzzle in pool else 0
        self.load(pool[at % len(pool)], f"Puzzle {at % len(pool) + 1} of {len(pool)} for this choice.")

    def new_puzzle(self) -> None:
        rules, theme = self.rule_choice.value, self.theme_choice.value
        if rules == EVERY:
            rules = self.rng.choice([n for n in Rules.preset_names() if can_show(Rules.preset(n), theme)])
        if not can_show(Rules.preset(rules), theme):
            self.load(self.puzzle, f"The rule set {rules} cannot show the theme “{theme}”; pick another.")
            return
        seed = self.rng.randrange(1_000_000)
        self.verdict.value = '<div class="st-puzzle-said st-puzzle-info" role="status">Looking for a new puzzle …</div>'
        self.new_button.disabled = True
        try:
            found = generate_near(
                Rules.preset(rules, nil=self.nil),  # at a table without nil the bots bid none: no nil goal
                seed,
                aim(self.standing.learner),
                standing=self.standing,
                rounds=NEW_ROUNDS,
                theme=None if theme == EVERY else theme,
            )
        finally:
            self.new_button.disabled = False
        if found is None:
            self.load(
                self.puzzle, f"No new puzzle of this rule set and theme came up in {NEW_ROUNDS} rounds; try again."
            )
            return
        self.load(found, "A new puzzle from rounds the bots played, near your puzzle rating, proven by the solver.")

    def open_code(self, code: str) -> None:
        """A puzzle from a link: a shipped one at once, any other only once the solver agrees."""
        try:
            puzzle = Puzzle.from_code(code)
        except PuzzleCodeError as e:
            self.load(daily(self.today), f"This puzzle link could not be read ({e}), so here is today's puzzle.")
            return
        if find_shipped(puzzle.code) is not None:
            self.load(puzzle, "The puzzle from the link.")
            return
        verdict = verify(puzzle, CHECK_BUDGET)
        if not verdict.exact:
            self.load(
                daily(self.today),
                "The puzzle from this link could not be checked within the solver's work budget, "
                "so here is today's puzzle.",
            )
        elif not verdict.sharp:
            self.load(
                daily(self.today),
                "The position in this link is not a puzzle (no card, or every card, reaches the goal), "
                "so here is today's puzzle.",
            )
        elif set(verdict.working) != set(puzzle.answers):
            fixed = dataclasses.replace(puzzle, answers=verdict.working)
            self.load(fixed, "The puzzle from the link; the solver corrected the cards that work.")
        else:
            self.load(puzzle, "The puzzle from the link, checked by the solver.")

    def load(self, puzzle: Puzzle, note: str = "") -> None:
        self.puzzle = puzzle
        self.fitted = False
        self.reported = False
        self.tries = 0
        self.solved = False
        self.chosen = None
        self.said = ""
        self._show_lines([])
        self.note = note
        self.render()

    def set_rules(self, rules: Rules, **_display: Any) -> None:
        """The app's rule set changed: puzzles keep their own (each names it)."""

    # --- the learner's card -------------------------------------------------------------------

    def choose(self, card: Card | str) -> None:
        """Pick a card as the page would (tests and keyboard users alike)."""
        assert self.picker is not None
        self.picker.selected = [str(Card.parse(card) if isinstance(card, str) else card)]

    def _picked(self, change: Any) -> None:
        chosen = self.picker.selected_cards if self.picker is not None else ()
        self.chosen = chosen[0] if chosen else None

    def check(self) -> None:
        p = self.puzzle
        if self.solved or self.tries >= 2:
            return
        card = self.chosen
        if card is None:
            self.said = "Pick a card from your hand first."
            self.render()
            return
        reason = why_illegal(p.rules, p.hands[p.learner], card, p.trick, p.spades_broken)
        if reason is not None:
            self.said = f"The {card.name} may not be played here: {reason}"
            self.render()
            return
        first = not self.reported  # the first card checked of this puzzle shown: its result
        if p.is_answer(card):
            self.solved = True
            others = tuple(c for c in p.answers if c != card)
            also = (
                f" The {'other card that works is' if len(others) == 1 else 'others that work are'} {_names(others)}."
                if others
                else " It is the only card that works."
            )
            self.said = f"Right: the {card.name} works.{also}"
            self._show_lines([("The winning line", card)])
        else:
            self.tries += 1
            if self.tries < 2:
                self.said = f"Not the {card.name}: against best defence it fails. Try once more."
                self._show_lines([("Why not", card)])
            else:
                self.said = (
                    f"Not the {card.name} either. The {'card that works is' if len(p.answers) == 1 else 'cards that work are'} "
                    f"{_names(p.answers)}."
                )
                self._show_lines([("Why not", card), ("The winning line", p.answers[0])])
        if first:
            self.reported = True
            if self.on_result is not None:
                self.on_result(p, self.solved)
        self.render()

    def _show_lines(self, lines: list[tuple[str, Card]]) -> None:
        """The solver's lines after these cards, each played out on the cards (``LineStepper``)."""
        old = self.steppers
        self.steppers = [LineStepper(self.puzzle, title, card, four_colour=self.four_colour) for title, card in lines]
        self.lines.children = [s.widget for s in self.steppers]
        if old:
            close_unused([s.widget for s in old])

    def lines_text(self) -> str:
        """The lines shown, in words."""
        return " ".join(s.text() for s in self.steppers)

    # --- drawing --------------------------------------------------------------------------------

    def seen(self) -> list[Seat]:
        """The hands on show: the learner's, the partner's when the goal counts it, or all four."""
        p = self.puzzle
        me = p.learner
        if self.show_all.value:
            return [Seat((me + i) % 4) for i in (2, 1, 3, 0)]  # partner, the opponents, then you
        return ([me.partner] if p.goal.rule.shows_partner(p) else []) + [me]

    def render(self) -> None:
        p = self.puzzle
        rules = p.rules
        me = p.learner
        theme = p.theme.capitalize()
        self.head.value = (
            f'<div class="st-puzzle-head" role="status"><b>Puzzle {html.escape(p.id)}</b> · {html.escape(rules.title)}'
            f" · {html.escape(theme)} · {html.escape(p.difficulty)}"
            f" (rated {round(self.standing.puzzle_rating(p.id, p.difficulty).rating)})"
            + (f'<div class="st-note">{html.escape(self.note)}</div>' if self.note else "")
            + "</div>"
        )
        taken = " · ".join(f"{s.letter} {p.taken[s]}" for s in Seat)
        broken = "spades broken" if p.spades_broken else "spades not broken yet"
        self.goal.value = (
            f'<p class="st-puzzle-sentence"><b>Goal.</b> {html.escape(p.sentence())}</p>'
            f'<p class="st-note">Tricks taken so far: {taken} · {broken} · {p.tricks_left} tricks left.</p>'
        )
        parts: list[w.Widget] = []
        hands: list[w.Widget] = []
        lead = "You lead to this trick." if not p.trick else f"{p.leader.name.title()} led; the trick so far:"
        parts.append(w.HTML(f'<p class="st-caption">{html.escape(lead)}</p>'))
        if p.trick:
            parts.append(
                trick_view(Trick(p.leader, tuple(p.trick)), label="the trick so far", four_colour=self.four_colour)
            )
        legal = set(p.legal_plays())
        for seat in self.seen():
            if seat == me:
                done = self.solved or self.tries >= 2
                marks: dict[Card, str] = {c: "legal" for c in legal}
                if done:
                    marks.update({c: "right" for c in p.answers})
                self.picker = hand_view(
                    rules,
                    p.hands[me],
                    selectable="none" if done else "one",
                    label=f"your hand ({me.name.title()}): choose a card to play",
                    marks=marks,
                    four_colour=self.four_colour,
                )
                if self.chosen is not None and not done:
                    self.picker.selected = [str(self.chosen)]
                self.picker.observe(guarded(self._picked), names="selected")
                caption = f"You, {me.name.title()}"
            else:
                view = hand_view(
                    rules, p.hands[seat], label=f"{seat.name.title()}'s hand", four_colour=self.four_colour
                )
                caption = f"{'Partner' if seat == me.partner else 'Opponent'}, {seat.name.title()}"
            hands.append(w.HTML(f'<p class="st-caption st-puzzle-seat">{html.escape(caption)}</p>'))
            hands.append(self.picker if seat == me else view)
        # the trick beside the hands where there is room, above them on a phone
        trick_box, hands_box = w.VBox(parts), w.VBox(hands)
        hands_box.add_class("st-puzzle-hands")
        replace_children(self.table, [trick_box, hands_box], keep=held_by(self))
        done = self.solved or self.tries >= 2
        self.check_button.disabled = done
        kind = "right" if self.solved else "wrong" if self.tries else "info"
        self.verdict.value = (
            f'<div class="st-puzzle-said st-puzzle-{kind}" role="status">{html.escape(self.said)}</div>'
            if self.said
            else ""
        )
        self.share.show(p.code)
