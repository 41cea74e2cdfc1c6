"""Drivers that let bots play a round or a game through the public engine API only.

Each bot is handed ``rnd.view(seat)`` (never the ``Round``); its action goes
through ``rnd.bid`` / ``rnd.play``, and an illegal one raises ``IllegalBotAction``
(an ``st.IllegalAction``) naming the bot, its decision and the position.

>>> import spades_tutor as st
>>> from spades_tutor.bots import RandomBot
>>> bots = {s: RandomBot(seed=int(s)) for s in st.Seat}
>>> a = play_round(st.Rules.preset("jokers"), bots, seed=7)
>>> b = play_round(st.Rules.preset("jokers"), {s: RandomBot(seed=int(s)) for s in st.Seat}, seed=7)
>>> a == b and a.is_over
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import spades_tutor.engine as st

from .base import Bot, Decision

__all__ = ["IllegalBotAction", "play_game", "play_out", "play_round"]

OnDecision = Callable[[st.Seat, st.SeatView, Decision], None]


class IllegalBotAction(st.IllegalAction):
    """A bot chose an action the rules forbid (or one of the wrong kind)."""

    def __init__(self, reason: st.Reason, where: str, bot: Bot, decision: Decision) -> None:
        super().__init__(reason, f"{where}; {bot!r} chose {decision.action!s}: {decision.reason}")
        self.bot = bot
        self.decision = decision


def _act(
    rnd: st.Round,
    bots: Mapping[st.Seat, Bot],
    act: Callable[[st.Bid | st.Card, st.Seat], None],
    on_decision: OnDecision | None,
) -> None:
    seat = rnd.to_act
    assert seat is not None
    bot = bots[seat]
    view = rnd.view(seat)
    bidding = view.phase is st.Phase.BIDDING
    decision = bot.bid(view) if bidding else bot.play(view)
    if on_decision is not None:
        on_decision(seat, view, decision)
    action = decision.action
    if not isinstance(action, st.Bid if bidding else st.Card):
        what = "a bid" if bidding else "a card"
        raise IllegalBotAction(
            st.Reason("wrong-kind", f"The bot had to choose {what}, not {action!r}."), repr(rnd), bot, decision
        )
    try:
        act(action, seat)
    except st.IllegalAction as e:
        raise IllegalBotAction(e.reason, e.where, bot, decision) from e


def _round_act(rnd: st.Round) -> Callable[[st.Bid | st.Card, st.Seat], None]:
    def act(action: st.Bid | st.Card, seat: st.Seat) -> None:
        if isinstance(action, st.Bid):
            rnd.bid(action, seat)
        else:
            rnd.play(action, seat)

    return act


def play_out(rnd: st.Round, bots: Mapping[st.Seat, Bot], *, on_decision: OnDecision | None = None) -> st.Round:
    """Let the bots bid and play ``rnd`` from wherever it stands to the end; returns it.

    ``on_decision(seat, view, decision)`` is called before each action (to record reasons).
    """
    act = _round_act(rnd)
    while not rnd.is_over:
        _act(rnd, bots, act, on_decision)
    return rnd


def play_round(
    rules: st.Rules,
    bots: Mapping[st.Seat, Bot],
    seed: int,
    dealer: st.Seat | None = None,
    *,
    scores: Mapping[st.Team, int] | None = None,
    bags: Mapping[st.Team, int] | None = None,
    on_decision: OnDecision | None = None,
) -> st.Round:
    """Deal round ``seed`` (``Round.deal``) and let the bots bid and play it; returns the finished round."""
    rnd = st.Round.deal(rules, dealer=dealer, seed=seed, scores=scores, bags=bags)
    return play_out(rnd, bots, on_decision=on_decision)


def play_game(
    rules: st.Rules,
    bots: Mapping[st.Seat, Bot],
    seed: int,
    dealer: st.Seat | None = None,
    *,
    max_rounds: int = 1000,
    on_decision: OnDecision | None = None,
) -> st.Game:
    """Play ``st.Game(rules, seed, dealer)`` to its end (or ``max_rounds`` rounds); returns the game."""
    game = st.Game(rules, seed=seed, dealer=dealer)

    def act(action: st.Bid | st.Card, seat: st.Seat) -> None:
        if isinstance(action, st.Bid):
            game.bid(action, seat)
        else:
            game.play(action, seat)

    while not game.is_over and len(game.rounds) < max_rounds:
        _act(game.round, bots, act, on_decision)
    return game
