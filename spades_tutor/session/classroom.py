"""A hand for the classroom: a deal played out by the heuristic bots, step by step, each step a sentence.

Pure data (no widgets): the projector view (``ui/projector.py``) draws it. Step 0 is the deal;
then the four bids; then the 52 cards. Each step says what happened and why, in the bots' and the
engine's words; at a card step the class can first be asked what the player may play.

>>> import spades_tutor as st
>>> script = ClassroomHand.from_deal_id(st.Rules.preset("jokers"), "4127W")
>>> len(script.steps), script.steps[0].sentence
(57, 'Deal 4127W, Spades with Jokers: West deals, so North bids first and leads the first trick.')
>>> script.round_at(5).trick.cards[0] == script.steps[5].card
True
"""

from __future__ import annotations

import dataclasses

from ..engine import Action, ActionKind, Bid, Card, Reason, Round, Rules, Seat, parse_deal_id, why_illegal
from ..engine.errors import InputError
from ..engine.play import first_lead_reason

#: what a deal id looks like, for the messages that refuse one
DEAL_ID_FORM = "a deal id. Try a number such as 4127, or 4127W to name the dealer"
MAX_DEAL_ID = 20


def read_deal_id(text: object) -> str:
    """A deal id typed in the Classroom's box or given in a link, in its usual form, or an ``InputError``.

    Spaces around it and a small dealer letter are forgiven; anything the engine's
    :func:`parse_deal_id` refuses is an ``InputError`` (a ``SpadesError``) whose message says
    what a deal id looks like.

    >>> read_deal_id(" 4127w ")
    '4127W'
    >>> read_deal_id("²")
    Traceback (most recent call last):
    ...
    spades_tutor.engine.errors.InputError: deal: '²' is not a deal id. Try a number such as 4127, or 4127W to name the dealer
    """
    # a deal id is ASCII: int() would read "٣" as 3, another deal than the one asked for
    if not isinstance(text, str) or len(text.strip()) > MAX_DEAL_ID or not text.isascii():
        raise InputError("deal", text, DEAL_ID_FORM)
    try:
        seed, dealer = parse_deal_id(text.strip().upper())
    except ValueError:  # the engine's SpadesError, or int()'s own for digits only str.isdigit() knows
        raise InputError("deal", text, DEAL_ID_FORM) from None
    return f"{seed}{dealer.letter if dealer is not None else ''}"


@dataclasses.dataclass(frozen=True)
class Step:
    """One step of the hand: who acted, what, and the sentence for the class."""

    seat: Seat | None
    action: Bid | Card | None
    sentence: str

    @property
    def card(self) -> Card | None:
        return self.action if isinstance(self.action, Card) else None


@dataclasses.dataclass(frozen=True)
class ClassroomHand:
    rules: Rules
    deal_id: str
    dealt: Round  # the round before any bid (never mutated)
    steps: tuple[Step, ...]

    @classmethod
    def from_deal_id(cls, rules: Rules, deal_id: str) -> ClassroomHand:
        """The deal a deal id names, bid and played by four heuristic bots."""
        from ..bots import HeuristicBot, play_out

        start = Round.from_deal_id(rules, deal_id)
        played = start.copy()
        reasons: list[str] = []
        bots = {s: HeuristicBot(speak_of_seat=True) for s in Seat}  # the room hears "West must follow suit"
        play_out(played, bots, on_decision=lambda _s, _v, d: reasons.append(d.reason))
        first = start.dealer.left
        steps = [
            Step(
                None,
                None,
                f"Deal {start.deal_id}, {rules.title}: {start.dealer} deals, so {first} bids first and leads the first trick.",
            )
        ]
        replay = start.copy()
        for action, why in zip(played.history, reasons, strict=True):
            replay.apply(action)
            if action.kind == ActionKind.BID:
                steps.append(Step(action.seat, action.value, f"{action.seat} bids {action.value}. {why}"))
                continue
            sentence = f"{action.seat} plays {action.value}. {why}"
            if not replay.trick.cards and replay.tricks:  # this card completed a trick
                trick = replay.tricks[-1]
                sentence += f" {trick.reason} {trick.winner} takes trick {len(replay.tricks)}."
            steps.append(Step(action.seat, action.value, sentence))
        return cls(rules, start.deal_id or deal_id, start, tuple(steps))

    def round_at(self, step: int) -> Round:
        """The round after ``step`` steps (0: as dealt)."""
        rnd = self.dealt.copy()
        for s in self.steps[1 : step + 1]:
            assert s.seat is not None and s.action is not None
            rnd.apply(Action(s.seat, ActionKind.BID if isinstance(s.action, Bid) else ActionKind.PLAY, s.action))
        return rnd

    def question(self, step: int) -> str:
        """At a card step: the question for the class, asked before the card is shown."""
        s = self.steps[step]
        if s.card is None or s.seat is None:
            return ""
        return f"What may {s.seat} play?"

    def answer(self, step: int) -> tuple[tuple[Card, ...], dict[Card, Reason]]:
        """At a card step: the cards the player may play, and why each other card may not be.

        The reasons speak of the seat ("West must follow suit"), not to "you": the room is watching.
        """
        rnd = self.round_at(step - 1)
        legal = rnd.legal_plays()
        seat = rnd.to_act
        assert seat is not None
        hand = rnd.hands[seat]
        reasons = {}
        for card in hand:
            if card not in legal:
                said = rnd.why_illegal(card)  # the round's reason, in the words of the seat's own
                if said is not None and said.code == "two-of-clubs-leads":
                    why: Reason | None = first_lead_reason(seat)
                else:
                    why = why_illegal(self.rules, hand, card, rnd.trick.cards, rnd.spades_broken, seat=seat)
                if why is not None:
                    reasons[card] = why
        return legal, reasons
