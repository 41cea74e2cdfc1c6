"""A game: rounds until a team reaches the target, the deal passing left.

>>> from spades_tutor.engine.rules import Rules
>>> game = Game(Rules.preset("jokers"), seed=11)
>>> game.round.deal_id, game.round.dealer
('907796W', <Seat.WEST: 3>)
>>> game.scores
{<Team.NS: 0>: 0, <Team.EW: 1>: 0}
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from .cards import Card
from .errors import SpadesError
from .round import Round, _below
from .rules import Rules
from .scoring import Bid, HandScore, explain_game
from .seats import Seat, Team

__all__ = ["Game"]

_FORMAT = "spades-tutor/game"


class Game:
    """Rounds to the target. Bid and play through ``game.bid``/``game.play`` (or the
    current ``game.round``); when a round ends it is scored and the next is dealt.

    Each round's seed comes from the game's seed, so the whole game is reproducible.
    """

    def __init__(self, rules: Rules, seed: int | None = None, dealer: Seat | str | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        self.rules = rules
        self.seed = seed
        self._rng = random.Random(seed)
        # a dealer chosen by the seed is drawn from the game's stream, so a record says which way it went
        self.dealer_chosen_by_seed = dealer is None
        self.first_dealer = Seat.parse(dealer) if dealer is not None else Seat(_below(self._rng, 4))
        self.scores: dict[Team, int] = {Team.NS: 0, Team.EW: 0}
        self.bags: dict[Team, int] = {Team.NS: 0, Team.EW: 0}
        self.rounds: list[Round] = []  # finished rounds, in order
        self.hand_scores: list[dict[Team, HandScore]] = []
        self.winner: Team | None = None
        self.result = "The game has just begun."
        self.round: Round = self._deal(self.first_dealer)

    def _deal(self, dealer: Seat) -> Round:
        return Round.deal(
            self.rules, dealer=dealer, seed=_below(self._rng, 1_000_000), scores=self.scores, bags=self.bags
        )

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def bid(self, bid: Bid | int | str, seat: Seat | None = None) -> None:
        self._check_open()
        self.round.bid(bid, seat)

    def play(self, card: Card | str, seat: Seat | None = None) -> None:
        self._check_open()
        self.round.play(card, seat)
        if self.round.is_over:
            self._finish_round()

    def apply(self, action: Any) -> None:
        self._check_open()
        self.round.apply(action)
        if self.round.is_over:
            self._finish_round()

    def _check_open(self) -> None:
        if self.winner is not None:
            from .errors import IllegalAction, Reason

            raise IllegalAction(Reason("game-over", f"The game is over: {self.result}"))

    def _finish_round(self) -> None:
        hand = self.round.score()
        for team, s in hand.items():
            self.scores[team] += s.points
            self.bags[team] = s.bags
        self.rounds.append(self.round)
        self.hand_scores.append(hand)
        self.winner, self.result = explain_game(self.rules, self.scores)
        if self.winner is None:
            self.round = self._deal(self.round.dealer.left)

    # --- records -------------------------------------------------------------------------

    def _all_rounds(self) -> list[Round]:
        """Finished rounds, then the one in play (once the game is won, the last is both)."""
        if self.rounds and self.rounds[-1] is self.round:
            return list(self.rounds)
        return [*self.rounds, self.round]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": _FORMAT,
            "version": 1,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "dealer": None if self.dealer_chosen_by_seed else self.first_dealer.letter,
            "actions": [[a.to_json() for a in r.history] for r in self._all_rounds()],
        }

    def to_json(self, **kwargs: Any) -> str:
        """The game as JSON; ``Game.from_json`` replays it to an identical state."""
        return json.dumps(self.to_dict(), ensure_ascii=False, **kwargs)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        if data.get("format") != _FORMAT:
            raise SpadesError(f"not a game record (format {data.get('format')!r})")
        from .round import Action

        game = cls(Rules.from_dict(data["rules"]), seed=int(data["seed"]), dealer=data.get("dealer"))
        for n, actions in enumerate(data.get("actions", [])):
            if n != len(game.rounds):
                raise SpadesError(f"round {n + 1} of the record starts before round {n} ended")
            for a in actions:
                game.apply(Action.from_json(a))
        return game

    @classmethod
    def from_json(cls, text: str) -> Game:
        return cls.from_dict(json.loads(text))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        mine, theirs = self._all_rounds(), other._all_rounds()
        return (
            self.to_dict() == other.to_dict()
            and self.scores == other.scores
            and self.bags == other.bags
            and len(mine) == len(theirs)
            and all(a == b for a, b in zip(mine, theirs, strict=True))
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        ns, ew = self.scores[Team.NS], self.scores[Team.EW]
        return f"<Game {self.rules.name} seed {self.seed}: N–S {ns}, E–W {ew}, round {len(self.rounds) + 1}>"
