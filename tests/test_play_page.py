"""Playing against the bots, in Python: bids, illegal clicks, hints, taking back, score sheets, saving."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest

import spades_tutor as st
from spades_tutor.engine.text import signed
from spades_tutor.session.progress import Progress
from spades_tutor.session.settings import Settings
from spades_tutor.ui import errors
from spades_tutor.ui.app import App
from spades_tutor.ui.cards import CardsWidget
from spades_tutor.ui.play_page import PLAYER, PlayPage
from spades_tutor.ui.tree import widget_tree


def finish_hand(page: PlayPage, bid_index: int = 2) -> None:
    while not page.sheet_pending:
        rnd = page.game.round
        assert rnd.to_act == PLAYER, "the bots act until it is South's turn"
        if rnd.phase is st.Phase.BIDDING:
            page.bid_choice.value = page.bid_choice.options[bid_index][1]
            page.bid()
        else:
            page.play(rnd.legal_plays()[-1])
        while page.holding is not None:  # the trick kept on the table: the learner goes on
            page.go_on()


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
    helper = next(c.value for c in page.body.children if "Sure tricks" in str(getattr(c, "value", "")))
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
    while page.holding is not None:  # the trick kept on the table: the learner goes on
        page.go_on()
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
    assert html.escape(page.message) in page.said.value
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
        while page.holding is not None:  # the trick kept on the table: the learner goes on
            page.go_on()
    assert len(game.round.history) > len(before["actions"][-1]) + 1
    page.take_back()
    assert page.game is game  # the same game, taken back: not a copy rebuilt from its record
    assert game.to_dict() == before and game.round.to_act == PLAYER and card in game.round.hands[PLAYER]
    assert page.game == st.Game.from_dict(before)


def cards_widgets(page: PlayPage) -> list[CardsWidget]:
    """Every card widget on the page, the replay's included."""
    found: list[CardsWidget] = []

    def walk(widget: object) -> None:
        if isinstance(widget, CardsWidget):
            found.append(widget)
        for child in getattr(widget, "children", ()):
            walk(child)

    walk(page.body)
    return found


def test_after_a_reload_new_deals_use_the_current_rules_not_the_restored_games() -> None:
    old = PlayPage(st.Rules.preset("bicycle", blind_nil="always"))
    old.store.loaded = True
    old.new_game(seed=11)
    current = st.Rules.preset("jokers", blind_nil="off")
    page = PlayPage(current)
    page.store.value = old.store.value
    page.store.loaded = True
    assert page.game.rules == old.game.rules  # the restored game goes on in its own rules
    assert old.game.rules.title in page.body.children[0].value  # and says which
    page.new_game(seed=12)
    assert page.game.rules == current
    assert all(not b.blind for _, b in page.bid_choice.options)


def test_the_app_gives_the_play_page_its_saved_rules_and_four_colour_deck() -> None:
    app = App()
    try:
        app.nav.value = "Play"
        stored = Progress(settings=Settings(preset="classic", nil=False, four_colour=True))
        app.store.value = stored.to_json()
        app.store.loaded = True
        assert app.play.rules == app.rules and app.play.rules.nil is False
        app.play.new_game(seed=3)
        assert app.play.game.rules.name == "classic"
        assert cards_widgets(app.play) and all(c.four_colour for c in cards_widgets(app.play))
        app.picker.four_colour.value = False
        assert not any(c.four_colour for c in cards_widgets(app.play))
    finally:
        errors.remove_sink(app.show_error)


def test_the_four_colour_deck_reaches_the_play_page_and_its_replay() -> None:
    page = PlayPage(st.Rules.preset("jokers"), four_colour=True)
    page.new_game(seed=5)
    assert all(c.four_colour for c in cards_widgets(page))
    finish_hand(page)
    shown = cards_widgets(page)
    assert len(shown) >= 4 and all(c.four_colour for c in shown)  # the four hands as dealt


def test_without_nil_the_bidding_helper_never_calls_nil_safe() -> None:
    with_nil, without = PlayPage(st.Rules.preset("jokers")), PlayPage(st.Rules.preset("jokers", nil=False))
    for seed in range(1, 200):
        with_nil.new_game(seed=seed)
        if "Nil looks safe" in helper_text(with_nil):
            break
    else:
        raise AssertionError("no seed where nil looks safe")
    without.new_game(seed=seed)
    assert "Nil looks safe" not in helper_text(without) and "Nil:</b> not allowed" in helper_text(without)
    assert "Measured" not in helper_text(without)  # no nil odds where nil cannot be bid
    assert all(not b.is_nil for _, b in without.bid_choice.options)


def test_the_bidding_helper_quotes_the_measured_nil_odds_of_souths_hand() -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    page.new_game(seed=4)
    south = page.game.round.hands[PLAYER]
    odds = st.hand_odds(page.game.rules, south, seat=PLAYER, deals=1000, seed=0, nil=True)
    assert odds.sentence().startswith("nil made ") and "1,000" not in odds.sentence()
    assert f"<b>Measured:</b> {html.escape(odds.sentence())}, the bots playing all four seats." in helper_text(page)
    # the deals and the seed are behind "How was this measured?", beside the figure
    how = helper_text(page).split("<summary>How was this measured?</summary>", 1)[1]
    assert "A simulation: 1,000 deals of your hand" in how and "Seed 0: " in how
    worked_out = page.measured_odds(page.game.rules, south, nil=True)
    page.hint()  # redrawn for the same hand: not measured again
    assert page.measured_odds(page.game.rules, south, nil=True) is worked_out and "Measured:" in helper_text(page)


def measured_best(rules: st.Rules, south: tuple[st.Card, ...]) -> tuple[str, float, tuple[float, float]]:
    """The bid with the most points for the side, nil included, from ``hand_odds`` as the page asks it."""
    tricks = st.hand_odds(rules, south, seat=PLAYER, deals=1000, seed=0, valuation="game")
    nil = st.hand_odds(rules, south, seat=PLAYER, deals=1000, seed=0, nil=True, valuation="game")
    points = {**tricks.points, 0: nil.points[0]}
    best = max(sorted(points), key=lambda b: points[b])
    interval = nil.points_interval[0] if best == 0 else tricks.points_interval[best]
    return ("nil" if best == 0 else str(best)), points[best], interval


@pytest.mark.parametrize("seed", [4, 5])  # a hand best bid nil, and one holding the big joker (best bid 2)
def test_the_bidding_hint_quotes_the_nil_odds_and_the_bid_that_scores_best_on_average(seed: int) -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    page.new_game(seed=seed)
    rules, south = page.game.rules, page.game.round.hands[PLAYER]
    nil = st.hand_odds(rules, south, seat=PLAYER, deals=1000, seed=0, nil=True)
    page.hint()
    assert page.message.startswith("Hint: bid ")
    said, points, (low, high) = measured_best(rules, south)
    assert (
        f"Measured: {nil.sentence()}; bidding {said} scores best on average: about {signed(round(points))} points"
        in page.message
    )
    assert f"(likely between {signed(round(low))} and {signed(round(high))}; " in page.message
    assert "points over the game: a bag scores 1" in page.message
    assert low < points < high
    if seed == 5:  # the big joker always takes a trick: nil is never made, and never the best bid
        assert st.Card.parse("BJ") in south and said != "nil"
        assert "nil made almost never (in fewer than 1 in 100 of the deals of this hand; " in page.message
        assert "about 0%" not in page.message and "1,000" not in page.message


def test_the_bidding_hint_measures_each_hand_once_and_reuses_the_helpers_nil_odds() -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    page.new_game(seed=4)
    rules, south = page.game.rules, page.game.round.hands[PLAYER]
    shown = page.measured_odds(rules, south, nil=True)  # measured when the bidding helper was drawn
    page.hint()
    tricks = page.measured_odds(rules, south, nil=False)
    page.hint()
    assert page.measured_odds(rules, south, nil=True) is shown and page.measured_odds(rules, south, nil=False) is tricks
    page.new_game(seed=5)  # a new hand is measured afresh
    assert page.measured_odds(page.game.rules, page.game.round.hands[PLAYER], nil=True) is not shown


def test_without_nil_the_bidding_hint_quotes_only_the_best_bid() -> None:
    page = PlayPage(st.Rules.preset("jokers", nil=False))
    page.new_game(seed=4)
    page.hint()
    assert "Measured: Bidding " in page.message and "scores best on average" in page.message
    assert "nil" not in page.message.split("Measured:")[1]


def helper_text(page: PlayPage) -> str:
    return next(c.value for c in page.body.children if "Sure tricks" in str(getattr(c, "value", "")))


def test_bid_with_nothing_chosen_says_choose_a_bid() -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    page.new_game(seed=5)
    before = page.game.to_json()
    page.bid_choice.value = None
    page.bid()
    assert page.message == "Choose a bid first." and "Choose a bid first." in page.said.value
    assert page.game.to_json() == before
    page.bid_choice.value = page.bid_choice.options[2][1]
    page.bid()
    assert page.message == "" and page.game.round.bids[PLAYER] == page.bid_choice.options[2][1]


@pytest.mark.parametrize(
    "scores, words",
    [
        ({st.Team.NS: 600, st.Team.EW: 100}, "You and North win, {ns} to {ew}."),
        ({st.Team.NS: -300, st.Team.EW: 600}, "East and West win, {ew} to {ns}."),
    ],
)
def test_game_over_tells_south_whether_they_won(scores: dict[st.Team, int], words: str) -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    page.mode.value = "Game to 500"
    page.new_game(seed=9)
    page.game.scores.update(scores)
    finish_hand(page)
    game = page.game
    assert game.is_over
    said = words.format(ns=game.scores[st.Team.NS], ew=game.scores[st.Team.EW]).replace("-", "−")
    assert said in page.status.value and game.result in page.status.value
    assert "−" in page.status.value or min(game.scores.values()) >= 0


# --- a complete trick stays on the table ---------------------------------------------------------------


def play_until_held(page: PlayPage) -> st.Trick:
    """South plays its last legal card until the page keeps a complete trick on the table; that trick."""
    while page.holding is None:
        rnd = page.game.round
        if rnd.phase is st.Phase.BIDDING:
            page.bid_choice.value = page.bid_choice.options[3][1]
            page.bid()
        else:
            page.play(rnd.legal_plays()[-1])
    return page.holding[0]


def shown(page: PlayPage) -> list[object]:
    """Every widget on the page's body, nested ones included."""
    return list(widget_tree(page.body.children))


def texts(page: PlayPage) -> str:
    return " ".join(c.value for c in shown(page) if isinstance(getattr(c, "value", None), str))


def test_a_complete_trick_stays_on_the_table_with_its_winner_until_the_learner_goes_on() -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    page.new_game(seed=5)
    trick = play_until_held(page)
    rnd = page.game.round
    assert trick is rnd.tricks[-1] and trick.is_complete and trick.winner != PLAYER
    assert not rnd.trick.cards and rnd.to_act == trick.winner  # the bots wait: the next trick is not begun
    tables = [c for c in cards_widgets(page) if c.arrangement == "table"]
    assert len(tables) == 1 and tables[0].winner == trick.winner.letter
    assert tables[0].names == [c.name for c in trick.cards]
    assert f"Trick {len(rnd.tricks)}: {trick.winner} wins it. {trick.reason}" in texts(page)
    assert page.next_trick_button in shown(page) and page.next_trick_button.description == "Next trick ▶"
    done = len(rnd.history)
    page.go_on()
    assert len(rnd.history) > done  # the bots played on
    assert page.holding is None or page.holding[0] is not trick


def test_going_on_at_once_keeps_no_trick_and_the_choice_is_saved() -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    page.store.loaded = True
    page.keep_tricks.value = False
    page.new_game(seed=5)
    finish_hand(page)  # (it would go on from a held trick: none is held)
    assert page.showing_sheet and page.holding is None
    assert json.loads(page.store.value)["keep_tricks"] is False
    again = PlayPage(st.Rules.preset("jokers"))
    again.store.value = page.store.value
    again.store.loaded = True
    assert again.keep_tricks.value is False


def test_the_last_trick_can_be_looked_at_again_and_the_hands_last_before_its_score() -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    page.new_game(seed=5)
    play_until_held(page)
    page.go_on()
    while page.holding is not None or page.game.round.to_act != PLAYER:
        page.go_on()
    rnd = page.game.round
    before = page.game.to_dict()
    page.look_back()
    assert page.holding is not None and page.holding[0] is rnd.tricks[-1] and page.looking
    assert page.next_trick_button.description == "Back to the play ▶"
    page.go_on()
    assert page.holding is None and page.game.to_dict() == before  # looking changed nothing
    while not page.sheet_pending:  # the hand to its end
        if page.holding is not None:
            page.go_on()
        else:
            page.play(page.game.round.legal_plays()[-1])
    last = page.game.rounds[-1].tricks[-1]
    assert page.holding is not None and page.holding[0] is last and page.holding[1] == 13
    assert page.next_trick_button.description == "See the score ▶"
    assert page.analysis_button not in page.body.children
    page.go_on()
    assert page.holding is None and page.analysis_button in page.body.children  # the score sheet


def test_a_reload_while_a_trick_is_kept_shows_it_again() -> None:
    page = PlayPage(st.Rules.preset("jokers"))
    page.store.loaded = True
    page.new_game(seed=5)
    trick = play_until_held(page)
    again = PlayPage(st.Rules.preset("jokers"))
    again.store.value = page.store.value
    again.store.loaded = True
    assert again.game == page.game and again.holding is not None and again.holding[0] == trick
    again.go_on()
    assert again.holding is None or again.holding[0] != trick


def test_a_hand_dealt_brings_the_table_into_view_and_docks_the_hand_under_it() -> None:
    """Each deal (a new game, the next hand) asks the page once to scroll to the line above the table;
    a card played or a bid does not move the page. South's hand, what is said about it and its buttons
    are one docked box, the last thing on the page; while bidding there is no empty table."""
    from spades_tutor.ui.play_page import TABLE_CLASS

    page = PlayPage(st.Rules.preset("jokers"))
    page.mode.value = "Game to 500"
    assert page.scroll.target == TABLE_CLASS and page.scroll.seq == 0
    page.new_game(seed=3)
    assert page.scroll.seq == 1

    def dock() -> Any:
        last = page.body.children[-1]
        assert "st-play-dock" in last._dom_classes
        return last

    tree = list(widget_tree([dock()]))
    assert page.said in tree and page.hint_button in tree and page.last_trick_button in tree
    assert any("st-play-hand" in getattr(w, "_dom_classes", ()) for w in tree)
    assert TABLE_CLASS in page.body.children[0]._dom_classes
    assert page.game.round.phase is st.Phase.BIDDING
    assert not any("st-play-table" in getattr(w, "_dom_classes", ()) for w in widget_tree([page.body]))
    page.bid_choice.value = page.bid_choice.options[3][1]
    page.bid()
    assert any("st-play-table" in getattr(w, "_dom_classes", ()) for w in widget_tree([page.body]))
    page.play(page.game.round.legal_plays()[0])
    dock()
    while page.holding is not None:
        page.go_on()
    assert page.scroll.seq == 1  # bidding and playing leave the page where the learner has it
    finish_hand(page)
    page.next_hand()
    assert page.scroll.seq == 2


def test_the_bidding_helper_says_how_the_least_team_bid_binds_south() -> None:
    """At a table where a team bids at least 4 together, North's bid bounds South's: the helper says so in the
    engine's own sentence, and the bids offered are those it allows (nil included)."""
    rules = st.Rules.preset("jokers", min_team_bid=4)
    page = PlayPage(rules)
    for seed in range(1, 200):
        page.new_game(seed=seed)
        north = page.game.round.bids.get(st.Seat.NORTH)
        if north is not None and not north.is_nil and north.tricks < 3:
            break
    else:
        raise AssertionError("no deal where North bids 1 or 2 before South")
    rnd = page.game.round
    least = 4 - north.tricks
    said = rnd.team_minimum_words()
    assert said == (
        f"At this table a team bids at least 4 tricks together; North bid {north.tricks}, "
        f"so South must bid {least} or more or nil."
    )
    assert f"Team bid:</b> {html.escape(said)}" in helper_text(page)
    offered = [b for _, b in page.bid_choice.options]
    assert min(b.tricks for b in offered if not b.is_nil) == least and any(b.is_nil for b in offered)
    # the sentence is the one the engine refuses a bid under it with
    assert str(rnd.why_bid_illegal(least - 1)).startswith(said[:-1])
    # a table without a least team bid says nothing of one
    plain = PlayPage(st.Rules.preset("jokers"))
    plain.new_game(seed=seed)
    assert "Team bid" not in helper_text(plain)


def test_at_a_table_with_a_least_team_bid_the_measured_best_bid_is_one_south_may_make() -> None:
    """The bidding hint's measured best bid is chosen among the bids South may make now: at a table where a team
    bids at least 4 together, a weak hand whose best bid alone is under what North's bid leaves is told the best
    bid it may make."""
    rules = st.Rules.preset("jokers", min_team_bid=4, nil=False)
    page = PlayPage(rules)
    said_under = re.compile(r"Measured: Bidding (\d+) scores best")
    for seed in range(1, 400):
        page.new_game(seed=seed)
        rnd = page.game.round
        north = rnd.bids.get(st.Seat.NORTH)
        if north is None or north.tricks >= 3:
            continue
        least = 4 - north.tricks
        alone = page.best_bid_words(rules, rnd.hands[PLAYER])  # every bid, as if the table had no least bid
        unbound = re.match(r"Bidding (\d+) scores best", alone)
        assert unbound is not None, alone
        if int(unbound.group(1)) < least:
            break
    else:
        raise AssertionError("no deal where South's best bid alone is under what North's bid leaves")
    page.hint()
    hinted = said_under.search(page.message)
    assert hinted is not None, page.message
    assert int(hinted.group(1)) >= least and int(hinted.group(1)) in {b.tricks for b in rnd.legal_bids()}
