"""The rules of Spades with Jokers (and regular Spades): standard library only.

Everything a lesson, quiz or outside user needs is re-exported from
``spades_tutor``; see the architecture notes in the README.
"""

from __future__ import annotations

from .cards import BIG_JOKER, LITTLE_JOKER, Card, CardsLike, Hand, Rank, Suit, cards, full_pack
from .errors import (
    CardParseError,
    DealError,
    IllegalAction,
    InputError,
    Reason,
    RecordError,
    RulesError,
    SpadesError,
)
from .game import Game
from .hand_eval import (
    LikelyTrick,
    NilAdvice,
    explain_sure_tricks,
    likely_tricks,
    nil_advice,
    sure_trick_count,
    sure_tricks,
)
from .inputs import parse_whole_number, whole_number
from .play import Trick, explain_trick, legal_plays, trick_winner, why_illegal
from .renege import RenegeRuling, apply_renege, describe_penalty
from .round import Action, ActionKind, Phase, Round, SeatView, deal_hands, explain_first_leader, parse_deal_id
from .rules import PRESETS, BlindNil, FailedNilTricks, FirstLead, RenegePenalty, RuleOption, Rules
from .scoring import BLIND_NIL, NIL, Bid, HandScore, ScoreLine, explain_game, explain_totals, game_winner, score_hand
from .seats import Seat, Team

__all__ = [
    "BIG_JOKER",
    "BLIND_NIL",
    "LITTLE_JOKER",
    "NIL",
    "PRESETS",
    "Action",
    "ActionKind",
    "Bid",
    "BlindNil",
    "Card",
    "CardParseError",
    "CardsLike",
    "DealError",
    "FailedNilTricks",
    "FirstLead",
    "Game",
    "Hand",
    "HandScore",
    "IllegalAction",
    "InputError",
    "LikelyTrick",
    "NilAdvice",
    "Phase",
    "Rank",
    "Reason",
    "RecordError",
    "RenegePenalty",
    "RenegeRuling",
    "Round",
    "RuleOption",
    "Rules",
    "RulesError",
    "ScoreLine",
    "Seat",
    "SeatView",
    "SpadesError",
    "Suit",
    "Team",
    "Trick",
    "apply_renege",
    "cards",
    "deal_hands",
    "describe_penalty",
    "explain_first_leader",
    "explain_game",
    "explain_sure_tricks",
    "explain_totals",
    "explain_trick",
    "full_pack",
    "game_winner",
    "legal_plays",
    "likely_tricks",
    "nil_advice",
    "parse_deal_id",
    "parse_whole_number",
    "score_hand",
    "sure_trick_count",
    "sure_tricks",
    "trick_winner",
    "whole_number",
    "why_illegal",
]
