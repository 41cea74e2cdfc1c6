"""Playing against the bots, in Python: bids, illegal clicks, hints, taking back, score sheets, saving."""

from __future__ import annotations

import json

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
    broken = PlayPage(st.Rules.preset("jokers"))
    broken.store.value = '{"game": {"format": "nonsense"}}'
    broken.store.loaded = True
    assert broken.game is None
