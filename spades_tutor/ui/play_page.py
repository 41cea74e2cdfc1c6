"""Play a hand or a game against the bots: the learner sits South with a bot partner.

The game itself is an engine ``Game``; this page only asks it, draws it and saves its
record (JSON) in the browser, so a reload picks the game up where it was.

A measured figure (the bidding helper's odds, a measured hint, the analysis after the hand) is said
in plain words, its technical terms linked to the glossary (``TermLinks``), with the detail (deals,
players, seed, interval) behind a "How was this measured?" disclosure beside it.
"""

from __future__ import annotations

import html
import json
import random
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from ..engine import (
    ActionKind,
    Bid,
    Card,
    Game,
    IllegalAction,
    Phase,
    Round,
    Rules,
    Seat,
    Team,
    Trick,
    explain_sure_tricks,
    nil_advice,
)
from ..engine.text import likely, number, signed
from ..measured import how_measured
from .cards import hand_view, trick_view
from .choices import ToggleButtons
from .errors import guarded
from .glossary import TECHNICAL, TermLinks
from .landmarks import live
from .measured import how_measured_html
from .scroll import ScrollTo
from .storage import BrowserStore
from .tree import held_by, replace_children

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..analysis import HandAnalysis, LiveAnalysis
    from ..lab.odds import HandOdds

PLAYER = Seat.SOUTH
#: the class of the line above the table, where a dealt hand scrolls the page to
TABLE_CLASS = "st-play-head"
STORAGE_KEY = "spades-tutor/play/v1"
NIL_ODDS_DEALS = 1000  # about 0.1 s of the batched bots a hand; the first also loads numpy (0.3 s)
ODDS_DEALS = NIL_ODDS_DEALS  # South's hand played for tricks, for the bidding hint's best bid
HINT_SECONDS = 2.0  # the play hint's layouts are solved for this long at most, then counted


def game_to(rules: Rules) -> str:
    """The Play page's whole-game choice, with the rule set's target: ``Game to 300``."""
    return f"Game to {number(rules.target)}"


class PlayPage:
    """``widget`` is the page. Every event acts on the engine's ``Game``, then ``render()`` redraws."""

    def __init__(self, rules: Rules, *, four_colour: bool = False) -> None:
        from ..bots import HeuristicBot

        self.rules = rules  # the rule set a new deal uses; a game in play keeps its own (``game.rules``)
        self.four_colour = four_colour
        self.bots = {seat: HeuristicBot() for seat in Seat if seat != PLAYER}
        self.adviser = HeuristicBot()
        self.game: Game | None = None
        # South's hand -> its measured odds, played nil (True) and for tricks (False), each worked out once
        self.odds: tuple[tuple[Rules, frozenset[Card]], dict[bool, HandOdds]] | None = None
        self.one_hand = True
        self.log: list[str] = []
        self.message = ""
        # a measured message, and how it was measured: shown behind a disclosure while it is the message
        self.method: tuple[str, tuple[str, ...]] | None = None
        self.terms = TermLinks(only=TECHNICAL)  # the words of measurement open their definitions in place
        self.store = BrowserStore(key=STORAGE_KEY)
        # a hand dealt brings the table into view: the trick, and the hand docked under it, without scrolling
        self.scroll = ScrollTo(target=TABLE_CLASS)
        self.store.observe(guarded(self._loaded), names="loaded")
        self.mode = ToggleButtons(options=["One hand", game_to(rules)], value="One hand")
        self.practice = w.Checkbox(value=True, description="Practice: allow taking back a card", indent=False)
        self.new_button = w.Button(description="Deal ▶", button_style="primary")
        self.new_button.add_class("st-play-new")
        self.hint_button = w.Button(description="Hint")
        self.back_button = w.Button(description="Take back")
        self.continue_button = w.Button(description="Next hand ▶", button_style="primary")
        # a complete trick kept on the table (``holding``: the trick and its number) until the learner goes on
        # once a trick is complete and a bot would lead the next: keep the four cards and their winner on
        # the table until the learner goes on (a click, or Enter on the focused button), or go on at once
        self.keep_tricks = w.Checkbox(value=True, description="Stop after each trick", indent=False)
        self.keep_tricks.add_class("st-play-keep-tricks")
        self.keep_tricks.observe(guarded(lambda _c: self.save()), names="value")
        self.holding: tuple[Trick, int] | None = None
        self.looking = False  # the hold is the learner looking back at the last trick, not the page waiting
        self._held: tuple[int, int] | None = None  # which trick the page is waiting on (round, tricks done)
        self._released: tuple[int, int] | None = None  # the last trick the learner went on from
        self.next_trick_button = w.Button(description="Next trick ▶", button_style="primary")
        self.next_trick_button.add_class("st-play-next-trick")
        self.next_trick_button.on_click(guarded(lambda _b: self.go_on()))
        self.last_trick_button = w.Button(description="See the last trick")
        self.last_trick_button.add_class("st-play-last-trick")
        self.last_trick_button.on_click(guarded(lambda _b: self.look_back()))
        self.new_button.on_click(guarded(lambda _b: self.new_game()))
        self.hint_button.on_click(guarded(lambda _b: self.hint()))
        self.back_button.on_click(guarded(lambda _b: self.take_back()))
        self.continue_button.on_click(guarded(lambda _b: self.next_hand()))
        self.bid_choice = ToggleButtons(
            options=[], description="Your bid:", style={"description_width": "initial", "button_width": "3.2em"}
        )
        self.bid_button = w.Button(description="Bid", button_style="primary")
        self.bid_button.on_click(guarded(lambda _b: self.bid()))
        self.status = live(w.HTML())  # whose turn, the trick's winner
        # why a card may not be played, a hint: said right under the hand the learner is looking at and clicking
        self.said = live(w.HTML())
        self.said.add_class("st-play-said")
        # "Where did that trick go?": the finished hand judged by the solver, card by card
        self.analysis: tuple[Round, HandAnalysis] | None = None
        # each of South's cards judged in a worker process as soon as it is played, so that the
        # early tricks (the solver's longest work) are judged exactly by the time the hand ends
        self.live: LiveAnalysis | None = None
        self.hint_seconds: float | None = HINT_SECONDS  # the measured hint's time (None: no limit)
        self.analysis_button = w.Button(description="Where did that trick go?", button_style="info")
        self.analysis_button.add_class("st-play-analyse")
        self.analysis_button.on_click(guarded(lambda _b: self.analyse_hand()))
        self.analysis_bar = w.IntProgress(
            min=0, max=13, value=0, description="Tricks judged:", style={"description_width": "initial"},
            layout=w.Layout(width="100%", display="none"),
        )  # fmt: skip
        self.analysis_bar.add_class("st-progress")
        self.analysis_out = live(w.HTML())
        self.analysis_out.add_class("st-analysis")
        # one line a card of South's, each a button that turns the replay below to its trick
        self.analysis_list = w.VBox()
        self.analysis_list.add_class("st-verdicts")
        self.replay: Any = None  # the sheet's TrickStepper, once drawn
        self.body = w.VBox()
        self.widget = w.VBox(
            [
                self.store,
                self.scroll,
                self.terms.widget,
                w.HTML(
                    '<h2 class="st-lesson-title">Play against the bots</h2><p>You sit South; your partner North and '
                    "both opponents are bots. Legal cards are outlined; a click on any other card says why it may "
                    "not be played.</p>"
                ),
                w.HBox([self.mode, self.new_button, self.practice, self.keep_tricks]),
                self.status,
                self.body,
            ]
        )
        self.widget.add_class("st-play")
        self.render()

    def set_rules(self, rules: Rules, *, four_colour: bool | None = None) -> None:
        """The app's settings changed: the next deal uses ``rules``; the cards are redrawn."""
        self.rules = rules
        if self.mode.options[1] != game_to(rules):  # "Game to 500" says the rule set's target
            whole_game = self.mode.value != "One hand"
            self.mode.options = ["One hand", game_to(rules)]
            self.mode.value = game_to(rules) if whole_game else "One hand"
        if four_colour is not None:
            self.four_colour = four_colour
        self.render()

    # --- the game ------------------------------------------------------------------------------

    def new_game(self, seed: int | None = None) -> None:
        rules = self.rules
        self.one_hand = self.mode.value == "One hand"
        self.game = Game(rules, seed=seed if seed is not None else random.SystemRandom().randrange(1, 1_000_000))
        self.log = [f"Deal {self.game.round.deal_id}: {self.game.round.dealer} deals."]
        self.message = ""
        self._let_go()
        if self.live is not None:
            self.live.clear()  # the last deal's cards are no longer asked about
        self.advance()
        self.scroll.bring()

    def advance(self) -> None:
        """Let the bots act until it is South's turn, or the hand is over; a trick just completed is
        kept on the table first, until the learner goes on (``keep_tricks``)."""
        game = self.game
        assert game is not None
        while not game.is_over and not self.showing_sheet:
            rnd = game.round
            seat = rnd.to_act
            if seat is None or seat == PLAYER or self._hold():
                break
            view = rnd.view(seat)
            bot = self.bots[seat]
            if rnd.phase is Phase.BIDDING:
                decision = bot.bid(view)
                game.bid(decision.action, seat)  # type: ignore[arg-type]
                self.log.append(f"{seat} bids {decision.action}.")
            else:
                decision = bot.play(view)
                done = len(rnd.tricks)
                game.play(decision.action, seat)  # type: ignore[arg-type]
                self.log.append(f"{seat} plays {decision.action}.")
                self._say_trick_winner(rnd, done)
        if self.showing_sheet:
            self._hold()  # the hand's last trick, before its score sheet
        self.save()
        self.render()
        if self.holding is not None and not self.looking:
            self.next_trick_button.focus()  # Enter or Space goes on

    # --- a complete trick kept on the table -----------------------------------------------------

    def _trick_to_hold(self) -> tuple[tuple[int, int], Trick, int] | None:
        """The trick just completed, if the page would move on past it now: a bot leads the next, or
        the hand is over. (When South leads, the trick stays on the table anyway until South plays.)"""
        game = self.game
        if game is None:
            return None
        if self.showing_sheet:
            rnd = game.rounds[-1]
        else:
            rnd = game.round
            if rnd.phase is not Phase.PLAYING or rnd.trick.cards or not rnd.tricks or rnd.to_act == PLAYER:
                return None
        if not rnd.tricks:
            return None
        return (id(rnd), len(rnd.tricks)), rnd.tricks[-1], len(rnd.tricks)

    def _hold(self) -> bool:
        """Keep the trick just completed on the table (unless the learner chose to go on at once, or
        went on from it already); whether the page now waits."""
        if not self.keep_tricks.value or self.holding is not None:
            return self.holding is not None and not self.looking
        found = self._trick_to_hold()
        if found is None or found[0] == self._released:
            return False
        self._held, trick, number = found
        self.holding, self.looking = (trick, number), False
        return True

    def go_on(self) -> None:
        """The learner goes on from the trick kept on the table."""
        if self.holding is None:
            return
        looked = self.looking
        self.holding, self.looking = None, False
        if looked:
            self.render()
            return
        self._released = self._held
        self.advance()

    def look_back(self) -> None:
        """Show the last complete trick of this hand again, with its winner, until the learner goes on."""
        game = self.game
        if game is None or self.holding is not None or self.showing_sheet or not game.round.tricks:
            return
        self.holding, self.looking = (game.round.tricks[-1], len(game.round.tricks)), True
        self.render()

    def _let_go(self) -> None:
        """Forget any trick kept on the table (a new deal, a card taken back, a game loaded)."""
        self.holding, self.looking, self._held = None, False, None

    @property
    def sheet_pending(self) -> bool:
        """A hand has just ended: show its score sheet before the next one starts."""
        game = self.game
        return game is not None and bool(game.rounds) and (game.is_over or not game.round.history)

    @property
    def showing_sheet(self) -> bool:
        """The sheet of the hand just ended is up (not yet passed by Next hand)."""
        return self.sheet_pending and self.game is not None and len(self.game.rounds) != self._sheet_seen

    def bid(self) -> None:
        game = self.game
        if game is None:
            return
        if self.bid_choice.value is None:
            self.message = "Choose a bid first."
            self.render()
            return
        try:
            game.bid(self.bid_choice.value, PLAYER)
        except IllegalAction as e:
            self.message = str(e.reason)
            self.render()
            return
        self.log.append(f"You bid {self.bid_choice.value}.")
        self.message = ""
        self.advance()

    def play(self, card: Card) -> None:
        game = self.game
        if game is None:
            return
        rnd = game.round
        done = len(rnd.tricks)
        try:
            game.play(card, PLAYER)
        except IllegalAction as e:
            self.message = f"Not {card}: {e.reason}"
            self.render()
            return
        self.holding, self.looking = None, False  # (a card played while looking back at the last trick)
        self.log.append(f"You play {card}.")
        self._say_trick_winner(rnd, done)
        self.message = ""
        self.advance()
        self.judge_during_play(rnd)

    def judge_during_play(self, rnd: Round) -> None:
        """Queue South's cards of ``rnd`` not judged yet for the solver's worker process
        (``analysis.LiveAnalysis``); the learner plays on meanwhile."""
        if self.live is None:
            from ..analysis import LiveAnalysis

            self.live = LiveAnalysis()
        self.live.follow(rnd)

    def _say_trick_winner(self, rnd: Round, done: int) -> None:
        """Once a play completes a trick (``done`` tricks were complete before it), the log says who won it."""
        if len(rnd.tricks) > done and rnd.tricks[-1].winner is not None:
            winner = rnd.tricks[-1].winner
            self.log.append("You win the trick." if winner == PLAYER else f"{winner} wins the trick.")

    def hint(self) -> None:
        game = self.game
        if game is None or game.round.to_act != PLAYER:
            return
        view = game.round.view(PLAYER)
        bidding = game.round.phase is Phase.BIDDING
        decision = self.adviser.bid(view) if bidding else self.adviser.play(view)
        self.message = (
            f"Hint: {'bid' if isinstance(decision.action, Bid) else 'play'} {decision.action}. {decision.reason}"
        )
        if not bidding:
            measured = self.play_hint_words(view, decision.action, decision.reason)
            if measured:
                self.message = measured
        if bidding:
            allowed = {b.tricks for b in game.round.legal_bids() if not b.blind}
            measured = self.best_bid_words(game.rules, game.round.hands[PLAYER], allowed or None)
            if measured:
                self.message += f" Measured: {measured}"
                self.method = (self.message, self.bid_method(game.rules))
        self.render()

    def play_hint_words(self, view: Any, heuristic: Any, reason: str) -> str:
        """The play hint measured on layouts of the unseen cards (``analysis.play_hint``), late in the
        hand; empty (the heuristic's sentence stands) early on or when too few layouts were solved."""
        from ..analysis import play_hint

        game = self.game
        assert game is not None
        seed = len(game.round.history)  # the same position, the same layouts
        prefer = heuristic if isinstance(heuristic, Card) else None
        try:
            hint = play_hint(view, seed=seed, prefer=prefer, seconds=self.hint_seconds)
        except ImportError:  # no numpy for the interval: the heuristic's sentence stands
            return ""
        if hint is None:
            return ""
        words = f"Hint: play {hint.card}. {hint.sentence('It')}"
        if hint.tied:
            words += f" Every card you may play does as well here, so the bots' reason decides: {reason}"
        self.method = (words, hint.method())
        return words

    # --- "where did that trick go?" ------------------------------------------------------------

    def analyse_hand(self) -> None:
        """Judge each of South's cards in the hand just finished (``analysis.analyse``), the progress
        bar moving trick by trick, then list the verdicts."""
        from ..analysis import analyse

        game = self.game
        if game is None or not game.rounds:
            return
        rnd = game.rounds[-1]
        self.analysis_button.disabled = True
        self.analysis_bar.value = 0
        self.analysis_bar.layout.display = None
        self.analysis_out.value = (
            '<div class="st-note" role="status">The solver is judging your cards, from the last trick back…</div>'
        )
        try:
            report = analyse(rnd, progress=self._analysis_step, live=self.live)
            self.analysis = (rnd, report)
            self._show_verdicts(report)
        finally:
            self.analysis_button.disabled = False
            self.analysis_bar.layout.display = "none"

    def _show_verdicts(self, report: HandAnalysis) -> None:
        self.terms.restart()
        rules = self.game.rules if self.game is not None else self.rules
        self.analysis_out.value = analysis_summary_html(report, lambda markup: self.terms.link(markup, rules))
        self.analysis_list.children = verdict_buttons(report, self.show_trick)

    def show_trick(self, number: int) -> None:
        """Turn the replay to trick ``number`` (1–13) and bring it into view (a verdict line's click)."""
        if self.replay is None:
            return
        self.replay.go(number - 1)
        # focus a button of the replay (the browser scrolls it into view); the one that still goes somewhere
        (self.replay.prev if self.replay.next.disabled else self.replay.next).focus()

    def _analysis_step(self, done: int, total: int) -> None:
        self.analysis_bar.max = total
        self.analysis_bar.value = done

    def take_back(self) -> None:
        """Practice mode: undo South's last card (and the bots' cards after it)."""
        game = self.game
        if game is None or not self.practice.value or self.sheet_pending:
            return
        rnd = game.round
        mine = [i for i, a in enumerate(rnd.history) if a.seat == PLAYER and a.kind == ActionKind.PLAY]
        if not mine:
            self.message = "There is no card of yours to take back in this hand."
            self.render()
            return
        while len(rnd.history) > mine[-1]:
            rnd.undo()
        self._let_go()
        self.log.append("You took back your last card.")
        self.message = ""
        self.save()
        self.render()

    def next_hand(self) -> None:
        game = self.game
        if game is None or game.is_over or self.one_hand:
            self.new_game()
            return
        self.log = [f"Deal {game.round.deal_id}: {game.round.dealer} deals."]
        self._sheet_seen = len(game.rounds)
        self._let_go()
        if self.live is not None:
            self.live.clear()  # the sheet, and its analysis, are gone
        self.advance()
        self.scroll.bring()

    _sheet_seen = 0

    # --- saving --------------------------------------------------------------------------------

    def save(self) -> None:
        if self.store.loaded and self.game is not None:
            self.store.value = json.dumps(
                {"game": self.game.to_dict(), "one_hand": self.one_hand, "keep_tricks": self.keep_tricks.value}
            )

    def _loaded(self, change: Any) -> None:
        from ..engine import RecordError, SpadesError
        from ..engine.records import load_json

        if not change["new"] or not self.store.value:
            return
        try:
            data = load_json(self.store.value, "saved game")
            if not isinstance(data, dict):
                raise RecordError("saved game", data, "an object with the game's record")
            game = Game.from_dict(data.get("game"))  # type: ignore[arg-type]
        except SpadesError as e:  # a damaged, stale or foreign record: say so, and deal a fresh game
            self.new_game()
            self.message = f"Your saved game could not be read ({e}), so here is a fresh deal."
            self.render()
            return
        self.game = game
        self.one_hand = bool(data.get("one_hand", True))
        if isinstance(data.get("keep_tricks"), bool):
            self.keep_tricks.value = data["keep_tricks"]
        self.log = ["Welcome back: your game is as you left it."]
        self._let_go()
        if game.round.phase is Phase.PLAYING:
            self.judge_during_play(game.round)  # the cards played before the reload
        self.advance()  # a trick completed before the reload is shown again, a bot's turn taken

    # --- drawing -------------------------------------------------------------------------------

    def render(self) -> None:
        game = self.game
        if game is None:
            self.status.value = '<div class="st-note">Press Deal to start.</div>'
            replace_children(self.body, [], keep=held_by(self))
            return
        if self.holding is not None and self.showing_sheet:  # the hand's last trick, then its score sheet
            self.next_trick_button.description = "See the score ▶"
            replace_children(self.body, self._held_trick(), keep=held_by(self))
            self.status.value = '<div class="st-proj-sentence" role="status">The hand is over: its last trick.</div>'
            return
        if self.showing_sheet:
            replace_children(self.body, self._sheet(), keep=held_by(self))
            said = self.game_over_words() if game.is_over else "The hand is over."
            self.status.value = f'<div class="st-proj-sentence" role="status">{html.escape(said)}</div>'
            return
        rules = game.rules
        rnd = game.round
        south = rnd.hands[PLAYER]
        your_turn = rnd.to_act == PLAYER
        legal = set(rnd.legal_plays()) if your_turn and rnd.phase is Phase.PLAYING else set()
        picker = hand_view(
            rules,
            south,
            selectable="one" if your_turn and rnd.phase is Phase.PLAYING else "none",
            label="your hand: choose a card to play" if legal else "your hand",
            marks={c: "legal" for c in legal},
            large=True,
            four_colour=self.four_colour,
        )
        picker.observe(guarded(lambda ch: self._picked(picker, ch)), names="selected")
        bids = " · ".join(f"{s.letter} {b}" for s, b in rnd.bids.items()) or "no bids yet"
        scores = " · ".join(f"{t.short} {number(game.scores[t])} ({game.bags[t]} bags)" for t in Team)
        head = w.HTML(
            f'<div class="st-proj-where" role="status">Deal {html.escape(rnd.deal_id or "")} · {html.escape(rules.title)} · '
            f"bids: {html.escape(bids)} · tricks N–S {rnd.tricks_won[Seat.NORTH] + rnd.tricks_won[Seat.SOUTH]}, "
            f"E–W {rnd.tricks_won[Seat.EAST] + rnd.tricks_won[Seat.WEST]} · game: {html.escape(scores)}</div>"
        )
        head.add_class(TABLE_CLASS)
        parts: list[w.Widget] = [head]
        if self.holding is not None:
            self.next_trick_button.description = "Back to the play ▶" if self.looking else "Next trick ▶"
            parts += self._held_trick()
        elif rnd.phase is not Phase.BIDDING:  # (while bidding there is no trick: the bidding takes its place)
            shown = rnd.trick if rnd.trick.cards or not rnd.tricks else rnd.tricks[-1]
            table = trick_view(shown, label="the trick on the table", large=True, four_colour=self.four_colour)
            table.add_class("st-play-table")
            parts.append(table)
        if rnd.phase is Phase.BIDDING and your_turn:
            options = [(str(b), b) for b in rnd.legal_bids()]
            self.bid_choice.options = options
            self.bid_choice.value = None
            nil = str(nil_advice(rules, south)) if rules.nil else "not allowed at this table."
            measured = self.nil_odds_words(rules, south) if rules.nil else ""
            # a least team bid, where the table has one: the engine's sentence of how it binds South now
            team = rnd.team_minimum_words()
            helper = (
                (f"<b>Team bid:</b> {html.escape(team)}<br>" if team else "")
                + f"<b>Sure tricks:</b> {html.escape(explain_sure_tricks(rules, south))}<br>"
                f"<b>Nil:</b> {html.escape(nil)}"
                + (f"<br><b>Measured:</b> {html.escape(measured)}" if measured else "")
            ) + (how_measured_html(self.bid_method(rules)) if measured else "")
            # the bids first, where the deal's scroll brings them (under the line above the table), then
            # the helper: on a phone its words would push the bids under the docked hand
            parts += [self.bid_choice, self.bid_button, w.HTML(f'<div class="st-tip">{helper}</div>')]
        # South's hand docked at the bottom of the window, whole and in one row (two on a phone), with what
        # is said about it (a hint, why a card may not be played) right above it and its buttons beside it
        picker.add_class("st-play-hand")
        tools = w.VBox([self.hint_button, self.back_button, self.last_trick_button])
        tools.add_class("st-play-tools")
        row = w.HBox([picker, tools])
        row.add_class("st-play-hand-row")
        dock = w.VBox([self.said, row])
        dock.add_class("st-play-dock")
        dock.add_class("st-dock")
        parts.append(dock)
        self.last_trick_button.disabled = self.holding is not None or not rnd.tricks
        self.back_button.disabled = not self.practice.value
        self.hint_button.disabled = not your_turn
        replace_children(self.body, parts, keep=held_by(self))
        last = " ".join(self.log[-6:])
        turn = "Your turn." if your_turn else ""
        self.status.value = f'<div class="st-note" role="status">{html.escape(last)} {turn}</div>'
        self.said.value = self.said_html(rules)

    def said_html(self, rules: Rules) -> str:
        """The message under the table; a measured one with its terms linked and how it was measured."""
        if not self.message:
            return ""
        if self.method is None or self.method[0] != self.message:
            return f'<div class="st-proj-question">{html.escape(self.message)}</div>'
        self.terms.restart()
        link = lambda markup: self.terms.link(markup, rules)  # noqa: E731
        said = self.terms.text(self.message, rules)
        return f'<div class="st-proj-question">{said}</div>{how_measured_html(self.method[1], link)}'

    def measured_odds(self, rules: Rules, south: tuple[Card, ...], nil: bool) -> HandOdds | None:
        """South's hand played ``NIL_ODDS_DEALS`` times by the bots (``hand_odds``, seed 0), nil or
        for tricks; each worked out once per hand and kept. None where the lab cannot run (no numpy)."""
        key = (rules, frozenset(south))
        if self.odds is None or self.odds[0] != key:
            self.odds = (key, {})
        known = self.odds[1]
        if nil not in known:
            try:
                from ..lab.odds import hand_odds
            except ImportError:
                return None
            deals = NIL_ODDS_DEALS if nil else ODDS_DEALS
            known[nil] = hand_odds(rules, south, seat=PLAYER, deals=deals, seed=0, nil=nil, valuation="game")
        return known[nil]

    def bid_method(self, rules: Rules) -> tuple[str, ...]:
        """How the bidding helper's odds were measured, for "How was this measured?"."""
        nil = " Where the table plays nil, it was played again as a nil over the same deals." if rules.nil else ""
        return how_measured(
            deals=ODDS_DEALS,
            what="of your hand",
            seed=0,
            more=(
                f"Your hand stays yours in every deal; the other three hands are dealt from the rest of the pack.{nil}",
            ),
        )

    def nil_odds_words(self, rules: Rules, south: tuple[Card, ...]) -> str:
        """South's measured nil odds in one sentence (``measured_odds``). Empty where the lab cannot run."""
        odds = self.measured_odds(rules, south, nil=True)
        return "" if odds is None else f"{odds.sentence()}, the bots playing all four seats."

    def best_bid_words(self, rules: Rules, south: tuple[Card, ...], allowed: set[int] | None = None) -> str:
        """The bidding hint's measured part: South's nil odds (where nil is allowed; the ones the bidding
        helper shows) and the bid with the most points on average for the side, nil included, with its
        95% interval, among the bids South may make now (``allowed``, 0 for nil: at a table with a least
        team bid, a bid under it is never the advice). Empty where the lab cannot run."""
        tricks = self.measured_odds(rules, south, nil=False)
        if tricks is None:
            return ""
        nil = self.measured_odds(rules, south, nil=True) if rules.nil else None
        points = dict(tricks.points)
        intervals = dict(tricks.points_interval)
        if nil is not None:
            points[0], intervals[0] = nil.points[0], nil.points_interval[0]
        if allowed is not None and allowed & set(points):
            points = {b: p for b, p in points.items() if b in allowed}
        best = max(sorted(points), key=lambda b: points[b])
        low, high = intervals[best]
        said = "nil" if best == 0 else str(best)
        from ..lab.odds import valuation_words

        words = (
            f"bidding {said} scores best on average: about {signed(round(points[best]))} points for your side "
            f"({likely(signed(round(low)), signed(round(high)))}; the bots playing this hand; "
            f"{valuation_words(rules, 'game')})."
        )
        if nil is None:
            return words[0].upper() + words[1:]
        return f"{nil.sentence()}; {words}"

    def game_over_words(self) -> str:
        """Who won, said to South ("You and North win, 562 to 310."), then the engine's reason."""
        game = self.game
        assert game is not None and game.winner is not None
        ours, theirs = game.scores[PLAYER.team], game.scores[PLAYER.team.other]
        if game.winner == PLAYER.team:
            who = f"You and {PLAYER.partner} win, {number(ours)} to {number(theirs)}."
        else:
            first, second = sorted((PLAYER.left, PLAYER.left.partner))
            who = f"{first} and {second} win, {number(theirs)} to {number(ours)}."
        return f"{who} {game.result}"

    def _picked(self, picker: Any, change: Any) -> None:
        chosen = change["new"]
        if not chosen:
            return
        card = Card.parse(chosen[-1])
        self.play(card)

    def _sheet(self) -> list[w.Widget]:
        from .lesson_player import TrickStepper, score_lines_html

        game = self.game
        assert game is not None
        rows = []
        ns = ew = 0
        for i, hand in enumerate(game.hand_scores, start=1):
            ns += hand[Team.NS].points
            ew += hand[Team.EW].points
            rows.append(
                f"<tr><td>{i}</td><td>{signed(hand[Team.NS].points)}</td><td>{hand[Team.NS].bags}</td>"
                f"<td>{signed(hand[Team.EW].points)}</td><td>{hand[Team.EW].bags}</td>"
                f"<td>{number(ns)}</td><td>{number(ew)}</td></tr>"
            )
        table = (
            '<table class="st-score-table st-score-sheet"><thead><tr><th>Hand</th><th>N–S</th><th>bags</th><th>E–W</th>'
            f"<th>bags</th><th>N–S total</th><th>E–W total</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )
        last = game.rounds[-1]
        sheet = w.HTML(
            f"<h3>Score sheet</h3>{table}<h4>This hand, line by line</h4>{score_lines_html(game.hand_scores[-1])}"
        )
        self.continue_button.description = "New hand ▶" if (self.one_hand or game.is_over) else "Next hand ▶"
        if self.analysis is None or self.analysis[0] is not last:
            self.analysis = None
            self.analysis_out.value = ""
            self.analysis_list.children = ()
        self.analysis_bar.layout.display = "none"
        self.replay = TrickStepper(last, large=True, four_colour=self.four_colour)
        self.terms.restart()
        intro = self.terms.link(
            "<p>The solver replays the hand double dummy, every card known and both sides at their best, and "
            "judges each card you played by your side's points: fine; a bag given up past a safe contract (no "
            "mistake: bags cost points); or it cost the contract, the set of East–West's, a nil or partner's "
            "nil, with the better card. It judged your cards while you played; click a line to see its "
            "trick in the replay below.</p>",
            game.rules,
        )
        return [
            sheet,
            self.continue_button,
            w.HTML(f"<h3>Where did that trick go?</h3>{intro}"),
            self.analysis_button,
            self.analysis_bar,
            self.analysis_out,
            self.analysis_list,
            w.HTML("<h3>Replay, all four hands face up</h3>"),
            self._four_hands(last),
            self.replay.widget,
        ]

    def _held_trick(self) -> list[w.Widget]:
        """The trick kept on the table: its four cards, the winner marked and why it won (the engine's
        words), and the button that goes on."""
        assert self.holding is not None
        trick, number = self.holding
        who = "You win" if trick.winner == PLAYER else f"{trick.winner} wins"
        said = f"Trick {number}: {who} it. {trick.reason}"
        # beside the trick where the width allows (so the four cards, the words and the button are seen
        # together), under it on a phone
        table = trick_view(trick, label=f"trick {number}, complete", large=True, four_colour=self.four_colour)
        table.add_class("st-play-table")
        row = w.HBox(
            [
                table,
                w.VBox(
                    [
                        live(w.HTML(f'<div class="st-proj-sentence st-play-trick-won">{html.escape(said)}</div>')),
                        self.next_trick_button,
                    ]
                ),
            ]
        )
        row.add_class("st-play-trick-row")
        return [row]

    def _four_hands(self, rnd: Any) -> w.Widget:
        rows = [
            w.VBox(
                [
                    w.HTML(f'<div class="st-proj-seat">{s} (bid {rnd.bids[s]}, took {rnd.tricks_won[s]})</div>'),
                    hand_view(rnd.rules, rnd.dealt[s], label=f"{s}'s hand as dealt", four_colour=self.four_colour),
                ]
            )
            for s in Seat
        ]
        return w.VBox(rows)


def analysis_summary_html(report: HandAnalysis, link: Callable[[str], str] | None = None) -> str:
    """The solver's one sentence over the hand (which tricks it judged exactly, what cost points), its
    terms linked to the glossary by ``link``, and how the hand was judged behind a disclosure."""
    said = html.escape(report.summary())
    if link is not None:
        said = link(said)
    return f'<div class="st-note" role="status">{said}</div>{how_measured_html(report.method(), link)}'


def verdict_kind(verdict: Any) -> str:
    """``bad`` (it cost the side points), ``unknown`` (not judged exactly) or ``ok``."""
    from ..analysis import MISTAKES, UNKNOWN

    return "bad" if verdict.mark in MISTAKES else "unknown" if verdict.mark == UNKNOWN else "ok"


def verdict_words(verdict: Any) -> str:
    """One verdict's line: the trick, the card, a sign and the verdict in words (not colour alone)."""
    sign = {"ok": "✓", "unknown": "?", "bad": "✗"}[verdict_kind(verdict)]
    return f"Trick {verdict.trick}, {verdict.card}: {sign} {verdict.sentence()}"


def verdict_buttons(report: HandAnalysis, show: Callable[[int], None]) -> tuple[w.Button, ...]:
    """Each of South's cards judged, one button a line, in trick order: a click shows that trick."""
    buttons = []
    for v in report.verdicts:
        button = w.Button(description=verdict_words(v), tooltip=f"See trick {v.trick} in the replay")
        button.add_class("st-verdict")
        button.add_class(f"st-verdict-{verdict_kind(v)}")
        button.on_click(guarded(lambda _b, trick=v.trick: show(trick)))
        buttons.append(button)
    return tuple(buttons)
