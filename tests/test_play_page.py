"""Playing against the bots, in Python: bids, illegal clicks, hints, taking back, score sheets, saving."""

from __future__ import annotations

import html
import json

import pytest

import spades_tutor as st
from spades_tutor.ui.play_page import PLAYER, PlayPage


def finish_hand(page: PlayPage, bid_index: int = 2) -> None:
    while not page.sheet_pending:
        rnd = page.game.round
        assert rnd.to_act == PLAYER, "the bots act until it is South's turn"
        if rnd.phase is st.Phase.BIDDING:
            page.bid_choice.value = page.bid_choice.options[bid_index][1]
            page.bid()
        else:
            page.play(rnd.legal_plays()[-1])


def test_a_whole_hand_against_the_bots_ends_on_a_score_sheet_and_a_replay() -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    page.new_game(seed=5)
    assert page.game.round.to_act == PLAYER
    finish_hand(page)
    finished = page.game.rounds[-1]
    assert finished.is_over and finished.history[-1].kind == "play"
    html = page.body.children[0].value
    assert "Score sheet" in html and str(page.game.hand_scores[-1][st.Team.NS].points) in html
    assert any(type(c).__name__ == "VBox" for c in page.body.children)  # the replay with all four hands


def test_an_illegal_click_explains_why_and_changes_nothing() -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    for seed in range(1, 40):
        page.new_game(seed=seed)
        page.bid_choice.value = page.bid_choice.options[2][1]
        page.bid()
        rnd = page.game.round
        illegal = [c for c in rnd.hands[PLAYER] if c not in rnd.legal_plays()]
        if illegal:
            break
    before = page.game.to_json()
    page.play(illegal[0])
    assert page.game.to_json() == before
    assert page.message.startswith(f"Not {illegal[0]}:") and str(rnd.why_illegal(illegal[0])) in page.message


def test_the_bidding_helper_and_the_hint_come_from_the_engine_and_the_bots() -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    page.new_game(seed=5)
    helper = next(c.value for c in page.body.children if "Sure tricks" in getattr(c, "value", ""))
    south = page.game.round.hands[PLAYER]
    assert st.explain_sure_tricks(page.rules, south).split(":")[0] in helper
    page.hint()
    assert page.message.startswith("Hint: bid ")
    page.bid_choice.value = page.bid_choice.options[2][1]
    page.bid()
    page.hint()
    assert page.message.startswith("Hint: play ") and len(page.message) > 20


def test_practice_mode_takes_back_the_last_card() -> None:
    page = PlayPage(st.Rules.preset("classic"))
    page.new_game(seed=3)
    page.bid_choice.value = page.bid_choice.options[3][1]
    page.bid()
    first = page.game.round.legal_plays()[0]
    page.play(first)
    page.take_back()
    assert first in page.game.round.hands[PLAYER] and page.game.round.to_act == PLAYER
    page.practice.value = False
    page.play(first)
    page.take_back()
    assert first not in page.game.round.hands[PLAYER]


def test_a_game_to_500_goes_on_hand_after_hand() -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    page.mode.value = "Game to 500"
    page.new_game(seed=9)
    for hand in (1, 2):
        finish_hand(page)
        assert len(page.game.rounds) == hand and page.continue_button.description == "Next hand ▶"
        page.next_hand()
    assert page.game.round.to_act == PLAYER


def test_a_game_in_progress_survives_a_reload() -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    page.store.loaded = True
    page.new_game(seed=11)
    page.bid_choice.value = page.bid_choice.options[2][1]
    page.bid()
    page.play(page.game.round.legal_plays()[0])
    saved = json.loads(page.store.value)
    assert saved["game"]["format"] == "spades-tutor/game"
    again = PlayPage(st.Rules.preset("jokers"))
    again.store.value = page.store.value
    again.store.loaded = True
    assert again.game == page.game and again.game.round.to_act == PLAYER


def _stored_game(**changes: object) -> str:
    record = st.Game(st.Rules.preset("jokers"), seed=4).to_dict()
    for path, value in changes.items():
        *parents, key = path.split("__")
        at = record
        for p in parents:
            at = at[p]
        at[key] = value
    return json.dumps({"game": record, "one_hand": True})


@pytest.mark.parametrize(
    "stored",
    [
        '{"game": {"format": "nonsense"}}',
        "not JSON at all",
        "[" * 100_000 + "]" * 100_000,
        "7",
        '{"one_hand": true}',
        _stored_game(seed=1.5),
        _stored_game(version=99),
        _stored_game(rules__target=10**30),
        _stored_game(rules__trick_points=-10),
        _stored_game(actions=[[["N", "play", "BJ"]]]),
    ],
    ids=["foreign", "not-json", "deep", "number", "no-game", "seed", "version", "target", "trick-points", "illegal"],
)
def test_a_bad_stored_game_gives_a_fresh_game_and_says_why(stored: str) -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    page.store.value = stored
    page.store.loaded = True
    assert page.game is not None and not page.game.rounds and page.game.round.to_act == PLAYER
    assert page.message.startswith("Your saved game could not be read (") and "fresh deal" in page.message
    assert html.escape(page.message) in page.status.value
    assert st.Game.from_dict(json.loads(page.store.value)["game"]) == page.game  # the fresh game is saved


def test_taking_back_undoes_the_game_in_place_to_just_before_the_card() -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    page.new_game(seed=7)
    game = page.game
    page.bid_choice.value = page.bid_choice.options[3][1]
    page.bid()
    for _ in range(5):  # a few tricks in: South's card, then the bots' cards after it
        before = game.to_dict()
        card = game.round.legal_plays()[-1]
        page.play(card)
    assert len(game.round.history) > len(before["actions"][-1]) + 1
    page.take_back()
    assert page.game is game  # the same game, taken back: not a copy rebuilt from its record
    assert game.to_dict() == before and game.round.to_act == PLAYER and card in game.round.hands[PLAYER]
    assert page.game == st.Game.from_dict(before)
