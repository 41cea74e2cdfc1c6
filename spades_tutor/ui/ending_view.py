"""An ending to play out: the learner plays their seat, the solver plays the other three.

A lesson's ``ending`` block (``lessons.blocks.Ending``) sets the last tricks of a hand with
every card known and a goal ("set East–West's 6"). The learner picks a card and plays it;
partner plays the solver's best for the goal and the opponents the solver's best against it
(``puzzles.teacher_pick`` among equally good cards). Each finished trick stays on the table,
its winner marked, until the learner goes on. At the end the page says how the goal went and
which cards reach it (the solver's proof); the learner may play it again.

``on_answer(puzzle, feedback, attempt)`` hears of each play to the end: the lesson player
opens what the step says after the ending at the first.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from ..engine import Card, Seat, Trick, why_illegal
from ..engine.text import and_list
from ..puzzles import Line, Puzzle, say_tricks
from ..puzzles.explain import LINE_BUDGET, teacher_pick
from ..quiz import Feedback
from .cards import CardsWidget, hand_view, trick_view
from .errors import guarded
from .landmarks import live
from .tree import replace_children

__all__ = ["EndingView"]

EndingCallback = Callable[[Puzzle, Feedback, int], None]


def _names(cards: tuple[Card, ...]) -> str:
    return and_list(f"the {c.name}" for c in cards)


class EndingView:
    """One ending, played from its start: ``play(card)`` as the learner, ``go_on()`` past a finished trick."""

    def __init__(
        self,
        puzzle: Puzzle,
        on_answer: EndingCallback | None = None,
        *,
        four_colour: bool = False,
        large: bool = False,
    ) -> None:
        self.puzzle = puzzle
        self.on_answer = on_answer
        self.four_colour = four_colour
        self.large = large
        self.attempt = 0
        #: how the last play to the end went (None: not played to the end yet)
        self.feedback: Feedback | None = None
        self.picker: CardsWidget | None = None
        self.goal = w.HTML(f'<p class="st-ending-goal"><b>Your goal.</b> {html.escape(puzzle.sentence())}</p>')
        self.status = live(w.HTML())
        self.table = w.Box()
        self.table.add_class("st-line-table")
        self.log = w.HTML()
        self.play_button = w.Button(description="Play card", button_style="primary", tooltip="Play the card chosen")
        self.play_button.add_class("st-ending-play")
        self.play_button.on_click(guarded(lambda _b: self._play_chosen()))
        self.on_button = w.Button(description="Next trick ▶", tooltip="Take the trick off the table and go on")
        self.on_button.add_class("st-ending-next")
        self.on_button.on_click(guarded(lambda _b: self.go_on()))
        self.again = w.Button(description="Play it again", tooltip="The ending from its start")
        self.again.add_class("st-ending-again")
        self.again.on_click(guarded(lambda _b: self.restart()))
        buttons = w.HBox([self.play_button, self.on_button, self.again])
        buttons.add_class("st-line-buttons")
        self.widget = w.VBox([self.goal, self.table, self.status, buttons, self.log])
        self.widget.add_class("st-ending")
        self.restart()

    # --- the play ---------------------------------------------------------------------------------

    def restart(self) -> None:
        """The ending from its start, the learner to play."""
        p = self.puzzle
        self.attempt += 1
        self.pos = p.position
        self.plays: list[tuple[Seat, Card]] = []
        self.on_table: list[Card] = list(p.trick)
        self.leader = p.leader
        self.last: Trick | None = None  # the trick just finished, shown until the learner goes on
        self.chosen: Card | None = None
        self.said = "Choose a card from your hand and play it."
        self.over = False
        self._others()  # a position always starts with the learner to act; kept for a shared ending
        self.render()

    @property
    def learner(self) -> Seat:
        return self.puzzle.learner

    def legal(self) -> tuple[Card, ...]:
        """The cards the learner may play now (none while a finished trick is shown, or at the end)."""
        if self.over or self.last is not None or self.pos.to_act != self.learner:
            return ()
        return self.pos.legal_plays()

    def play(self, card: Card | str) -> None:
        """The learner plays ``card`` (refused, with the engine's reason, if it may not be played)."""
        card = Card.parse(card) if isinstance(card, str) else card
        if not self.legal():
            return
        p = self.pos
        if card not in p.hands[self.learner]:
            self.said = f"The {card.name} is not in your hand."
            self.render()
            return
        reason = why_illegal(p.rules, p.hands[self.learner], card, p.trick, p.spades_broken)
        if reason is not None:
            self.said = f"The {card.name} may not be played here: {reason}"
            self.render()
            return
        self.chosen = None
        if not self._put(card):
            self._others()
        self._after_trick()
        self.render()

    def go_on(self) -> None:
        """The finished trick leaves the table; the others play up to the learner's turn."""
        if self.last is None or self.over:
            return
        self.last = None
        self.on_table = []
        self._others()
        led = self.on_table[0] if self.on_table else None
        self.said = "Your lead." if led is None else f"Your turn: {self.leader.name.title()} led the {led.name}."
        self._after_trick()
        self.render()

    def _put(self, card: Card) -> bool:
        """A card onto the table; True when it finishes the trick."""
        if not self.pos.trick:
            self.leader = self.pos.to_act
            self.on_table = []
        self.plays.append((self.pos.to_act, card))
        self.on_table.append(card)
        self.pos = self.pos.play(card)
        if len(self.on_table) == 4:
            self.last = Trick.complete(self.pos.rules, self.leader, tuple(self.on_table))
            return True
        return False

    def _others(self) -> None:
        """Partner and the opponents play the solver's best until the learner is to act or the trick is over."""
        while self.pos.tricks_left and self.pos.to_act != self.learner and self.last is None:
            best = self.puzzle.ask(self.pos, LINE_BUDGET).best_cards or self.pos.legal_plays()
            self._put(teacher_pick(self.pos, best))

    def _after_trick(self) -> None:
        if self.last is None:
            return
        winner = self.last.winner
        who = "You win" if winner == self.learner else f"{winner.name.title() if winner else '?'} wins"
        self.said = f"{who} the trick."
        if self.pos.tricks_left == 0:
            self._end()

    def _end(self) -> None:
        p = self.puzzle
        self.over = True
        outcome = p.goal.rule.outcome(p, self.pos)
        reached = bool(p.ask(self.pos).holds)
        first = self.plays[0][1]
        works = "is the only card that works" if len(p.answers) == 1 else "works"
        if reached:
            others = tuple(c for c in p.answers if c != first)
            also = (
                f" The {'other card that works is' if len(others) == 1 else 'others that work are'} {_names(others)}."
                if others
                else ""
            )
            said = f"Well played. {outcome} Your {first.name} {works}, as the solver proves.{also}"
        else:
            cards = "card that works is" if len(p.answers) == 1 else "cards that work are"
            said = (
                f"Not this time. {outcome} The {cards} {_names(p.answers)}: against their best play every "
                "other card fails (the solver proves it). Play it again to try it."
            )
        self.said = said
        self.feedback = Feedback(
            correct=reached,
            answer=_names(p.answers),
            explanation=(outcome,),
        )
        if self.on_answer is not None:
            self.on_answer(p, self.feedback, self.attempt)

    def _play_chosen(self) -> None:
        chosen = self.picker.selected_cards if self.picker is not None else ()
        if not chosen:
            self.said = "Choose a card from your hand first."
            self.render()
            return
        self.play(chosen[0])

    def _picked(self, _change: Any) -> None:
        chosen = self.picker.selected_cards if self.picker is not None else ()
        self.chosen = chosen[0] if chosen else None

    # --- words --------------------------------------------------------------------------------

    def tricks_said(self) -> list[str]:
        """The tricks played so far, one phrase each (the solver's cards named as the puzzles name them)."""
        if not self.plays:
            return []
        phrases, _ = say_tricks(self.puzzle, Line(tuple(self.plays), self.pos, False))
        return phrases

    def text(self) -> str:
        """What the view says now, in words: the goal, what just happened, the tricks so far."""
        return " ".join([self.puzzle.sentence(), self.said, *self.tricks_said()])

    # --- drawing --------------------------------------------------------------------------------

    def render(self) -> None:
        p = self.puzzle
        rules = p.rules
        opts: dict[str, Any] = {"four_colour": self.four_colour, "large": self.large}
        tally = " · ".join(f"{s.letter} {self.pos.taken[s]}" for s in Seat)
        if self.last is not None:
            trick = trick_view(self.last, label="the trick just played", **opts)
            where = "The trick just played"
        else:
            trick = trick_view(Trick(self.leader, tuple(self.on_table)), label="the trick so far", **opts)
            where = "You lead" if not self.on_table else "The trick so far"
        trick.add_class("st-line-trick")
        centre = w.VBox(
            [
                w.HTML(f'<p class="st-caption">{where} · tricks taken: {html.escape(tally)}</p>'),
                trick,
            ]
        )
        legal = set(self.legal())
        hands: list[w.Widget] = []
        for seat in (self.learner, self.learner.partner, Seat((self.learner + 1) % 4), Seat((self.learner + 3) % 4)):
            held = self.pos.hands[seat]
            who = "You" if seat == self.learner else "Partner" if seat == self.learner.partner else "Opponent"
            if seat == self.learner and held:
                self.picker = hand_view(
                    rules,
                    held,
                    selectable="one" if legal else "none",
                    label=f"your hand ({seat.name.title()}): choose a card to play",
                    marks=dict.fromkeys(legal, "legal"),
                    **opts,
                )
                if self.chosen is not None and self.chosen in legal:
                    self.picker.selected = [str(self.chosen)]
                self.picker.observe(guarded(self._picked), names="selected")
                view: w.Widget = self.picker
            elif held:
                view = hand_view(rules, held, label=f"{seat.name.title()}'s hand", **opts)
            else:
                view = w.HTML('<p class="st-note">No cards left.</p>')
            box = w.VBox([w.HTML(f'<p class="st-caption st-puzzle-seat">{who}, {seat.name.title()}</p>'), view])
            box.add_class("st-line-hand")
            if seat == self.learner:
                box.add_class("st-ending-mine")
            hands.append(box)
        hands_box = w.Box(hands)
        hands_box.add_class("st-line-hands")
        # at the end every hand is empty: the last trick alone stays on the table
        replace_children(
            self.table, [centre] if self.over else [centre, hands_box]
        )  # the old table's widgets (the old hand too) are closed
        kind = "info" if self.feedback is None or not self.over else "right" if self.feedback.correct else "wrong"
        self.status.value = (
            f'<div class="st-puzzle-said st-puzzle-{kind} st-ending-said" role="status">{html.escape(self.said)}</div>'
        )
        self.play_button.layout.display = None if legal else "none"
        self.on_button.layout.display = None if self.last is not None and not self.over else "none"
        self.again.layout.display = None if self.over else "none"
        phrases = self.tricks_said()
        self.log.value = (
            '<details class="st-ending-log"><summary>The tricks so far in words</summary><ol>'
            + "".join(f"<li>{html.escape(t[0].upper() + t[1:])}.</li>" for t in phrases)
            + "</ol></details>"
            if phrases
            else ""
        )
