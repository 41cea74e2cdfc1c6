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

from . import records
from .cards import Card
from .errors import IllegalAction, InputError, Reason, RecordError
from .inputs import whole_number
from .round import Action, Round, check_format, read_seat, uniform_below
from .rules import Rules
from .scoring import Bid, HandScore, explain_game
from .seats import Seat, Team

__all__ = ["Game"]

_FORMAT = "spades-tutor/game"


class Game:
    """Rounds to the target. Bid and play through ``game.bid``/``game.play`` or the current
    ``game.round``: either way, once a round's last trick is played the game scores it and
    deals the next (the round is then sealed: ``Round.undo`` no longer reaches it).

    Each round's seed comes from the game's seed, so the whole game is reproducible.

    >>> from spades_tutor.engine.rules import Rules
    >>> game = Game(Rules.preset("classic"), seed=3)
    >>> first = game.round
    >>> while not first.is_over:
    ...     first.apply(first.legal_actions()[0])
    >>> len(game.rounds), game.round is first, game.round.phase.value
    (1, False, 'bidding')
    """

    def __init__(self, rules: Rules, seed: int | None = None, dealer: Seat | str | None = None) -> None:
        if not isinstance(rules, Rules):
            raise InputError("rules", rules, "a rule set (Rules)")
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        self.rules = rules
        self.seed = whole_number(seed, field="seed", low=0, high=records.MAX_SEED)
        self._rng = random.Random(seed)
        # a dealer chosen by the seed is drawn from the game's stream, so a record says which way it went
        self.dealer_chosen_by_seed = dealer is None
        self.first_dealer = Seat.parse(dealer) if dealer is not None else Seat(uniform_below(self._rng, 4))
        self._scores: dict[Team, int] = {Team.NS: 0, Team.EW: 0}
        self._bags: dict[Team, int] = {Team.NS: 0, Team.EW: 0}
        self._rounds: list[Round] = []  # finished rounds, in order
        self._hand_scores: list[dict[Team, HandScore]] = []
        self._winner: Team | None = None
        self._result = "The game has just begun."
        self._round: Round = self._deal(self.first_dealer)

    def _deal(self, dealer: Seat) -> Round:
        return Round.deal(
            self.rules, dealer=dealer, seed=uniform_below(self._rng, 1_000_000), scores=self._scores, bags=self._bags
        )

    # --- the state, brought up to date whichever way the round was played --------------------

    def _sync(self) -> None:
        """Score the round in play if its last trick has been played (here or through ``game.round``)."""
        rnd = self._round
        if rnd.is_over and not (self._rounds and self._rounds[-1] is rnd):
            self._finish_round()

    @property
    def round(self) -> Round:
        """The round in play (once the game is won, the last round)."""
        self._sync()
        return self._round

    @property
    def scores(self) -> dict[Team, int]:
        """Each team's score after the finished rounds."""
        self._sync()
        return self._scores

    @property
    def bags(self) -> dict[Team, int]:
        """Each team's bags after the finished rounds."""
        self._sync()
        return self._bags

    @property
    def rounds(self) -> list[Round]:
        """The finished (scored) rounds, in order."""
        self._sync()
        return self._rounds

    @property
    def hand_scores(self) -> list[dict[Team, HandScore]]:
        """Each finished round's score, line by line."""
        self._sync()
        return self._hand_scores

    @property
    def winner(self) -> Team | None:
        self._sync()
        return self._winner

    @property
    def result(self) -> str:
        """A sentence on where the game stands (who won, or that it goes on)."""
        self._sync()
        return self._result

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    # --- acting ------------------------------------------------------------------------------

    def bid(self, bid: Bid | int | str, seat: Seat | None = None) -> None:
        self._check_open()
        self._round.bid(bid, seat)

    def play(self, card: Card | str, seat: Seat | None = None) -> None:
        self._check_open()
        self._round.play(card, seat)
        self._sync()

    def apply(self, action: Any) -> None:
        self._check_open()
        self._round.apply(action)
        self._sync()

    def _check_open(self) -> None:
        self._sync()
        if self._winner is not None:
            raise IllegalAction(Reason("game-over", f"The game is over: {self._result}"))

    def _finish_round(self) -> None:
        rnd = self._round
        hand = rnd.score()
        for team, s in hand.items():
            self._scores[team] += s.points
            self._bags[team] = s.bags
        rnd._sealed = True
        self._rounds.append(rnd)
        self._hand_scores.append(hand)
        self._winner, self._result = explain_game(self.rules, self._scores)
        if self._winner is None:
            self._round = self._deal(rnd.dealer.left)

    # --- records -------------------------------------------------------------------------

    def _all_rounds(self) -> list[Round]:
        """Finished rounds, then the one in play (once the game is won, the last is both)."""
        self._sync()
        if self._rounds and self._rounds[-1] is self._round:
            return list(self._rounds)
        return [*self._rounds, self._round]

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
        """The game ``to_dict`` wrote, replayed round by round.

        Anything else (a damaged or hostile record, a value out of range, a history the rules do
        not allow) raises a ``RecordError`` naming the field.
        """
        data = check_format(data, "game", _FORMAT, ("format", "version", "rules", "seed", "dealer", "actions"))
        rules = Rules.from_dict(data["rules"])
        seed = records.whole(data["seed"], "seed", 0, records.MAX_SEED)
        dealer = None if data["dealer"] is None else read_seat(data["dealer"], "dealer")
        game = cls(rules, seed=seed, dealer=dealer)
        listed = records.array(data["actions"], "actions", min_len=1, max_len=records.MAX_ROUNDS)
        for n, actions in enumerate(listed):
            field = records.place("actions", n)
            if game._winner is not None:
                raise RecordError(field, None, "", problem=f"a round after the end of the game ({game._result})")
            for i, a in enumerate(records.array(actions, field, max_len=4 + 52)):
                where = records.place(field, i)
                if len(game._rounds) > n:
                    raise RecordError(where, a, "", problem=f"an action after the last trick of round {n + 1}")
                game._round._replay_one(Action.from_json(a, where), where)
                game._sync()
            if n + 1 < len(listed) and len(game._rounds) == n:
                raise RecordError(field, None, "", problem=f"round {n + 1} stops before its last trick")
        if game._winner is None and len(game._rounds) == len(listed):
            raise RecordError(
                "actions", None, "", problem=f"round {len(listed)} is over, but the list of the next round is missing"
            )
        return game

    @classmethod
    def from_json(cls, text: str) -> Game:
        """``from_dict`` of JSON text: bad JSON, or too much of it, is a ``RecordError`` too."""
        return cls.from_dict(records.load_json(text, "game"))  # type: ignore[arg-type]

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
