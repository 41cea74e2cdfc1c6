"""A round played out, the game to the target, records, and how a round shows in a notebook.

Rule text: "Deal the 52 cards one at a time, so each player has 13. The deal passes to the left after
each hand." "The first team to 500 wins. If both teams pass 500 on the same hand, the higher score wins.
Many tables also end the game when a team falls to minus 200." (joker-spades-rules.txt)
house-rules.md: "game end: checked after each hand: a team at or over 500 wins; both over → the higher
score; an exact tie → another hand" · "`mercy`: a team at or below −200 loses (off by default)".
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from typing import Any

import pytest

import spades_tutor as st
from spades_tutor import Seat, Team
from spades_tutor.engine.errors import InputError

ALL_PRESETS = st.Rules.preset_names()
NS, EW = Team.NS, Team.EW


def first_legal(rnd: st.Round) -> st.Card:
    return rnd.legal_plays()[0]


def exact_bids(rnd: st.Round) -> dict[Seat, int]:
    """The tricks each seat will take if everyone plays its first legal card (the play ignores bids)."""
    look = rnd.copy()
    while look.phase == st.Phase.BIDDING:
        look.bid(3)
    while not look.is_over:
        look.play(first_legal(look))
    return look.tricks_won


def play_round(rnd: st.Round, bids=None) -> None:
    bids = bids or {s: 3 for s in Seat}
    while rnd.phase == st.Phase.BIDDING:
        rnd.bid(bids[rnd.to_act])
    while not rnd.is_over:
        rnd.play(first_legal(rnd))


def play_game(game: st.Game, max_rounds: int = 40) -> None:
    """Every seat bids exactly what it will take (0 = nil), so both teams score every hand."""
    while not game.is_over and len(game.rounds) < max_rounds:
        bids = exact_bids(game.round)
        while game.round.phase == st.Phase.BIDDING:
            game.bid(bids[game.round.to_act])
        while game.round.phase == st.Phase.PLAYING:
            game.play(first_legal(game.round))
    assert game.is_over, "the test game did not finish"


# --- a round -------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_the_deal_gives_13_cards_to_each_player_from_the_rule_sets_deck(preset):
    """'Deal the 52 cards one at a time, so each player has 13.'"""
    rules = st.Rules.preset(preset)
    for seed in range(5):
        rnd = st.Round.deal(rules, seed=seed)
        hands = rnd.hands
        assert all(len(hands[s]) == 13 for s in Seat)
        dealt = [c for s in Seat for c in hands[s]]
        assert len(set(dealt)) == 52
        assert set(dealt) == set(rules.deck())


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_seeded_deal_is_reproducible(preset):
    rules = st.Rules.preset(preset)
    a = st.Round.deal(rules, dealer=Seat.SOUTH, seed=4127)
    b = st.Round.deal(rules, dealer=Seat.SOUTH, seed=4127)
    assert a.hands == b.hands and a.dealer == b.dealer == Seat.SOUTH
    c = st.Round.deal(rules, dealer=Seat.SOUTH, seed=4128)
    assert c.hands != a.hands


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_from_hands_rejects_a_hand_that_is_not_a_deal(preset):
    rules = st.Rules.preset(preset)
    hands = st.Round.deal(rules, seed=3).hands
    short = {**hands, Seat.NORTH: hands[Seat.NORTH][:12]}
    with pytest.raises(st.DealError):
        st.Round.from_hands(rules, short)
    twice = {**hands, Seat.NORTH: (*hands[Seat.NORTH][:12], hands[Seat.EAST][0])}
    with pytest.raises(st.DealError):
        st.Round.from_hands(rules, twice)


def test_from_hands_rejects_a_card_not_in_the_deck():
    rules = st.Rules.preset("jokers")
    hands = dict(st.Round.deal(rules, seed=3).hands)
    hands[Seat.NORTH] = (*hands[Seat.NORTH][:12], st.Card.parse("2H"))  # 2♥ is out of the jokers deck
    with pytest.raises(st.DealError):
        st.Round.from_hands(rules, hands)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_round_is_13_tricks_and_scores_by_the_tricks_taken(preset):
    rules = st.Rules.preset(preset)
    rnd = st.Round.deal(rules, seed=21, bags={NS: 4, EW: 7})
    play_round(rnd, {Seat.NORTH: 4, Seat.EAST: 3, Seat.SOUTH: 2, Seat.WEST: 3})
    assert rnd.phase == st.Phase.DONE and rnd.is_over
    assert rnd.to_act is None
    assert len(rnd.tricks) == 13
    assert all(t.is_complete for t in rnd.tricks)
    assert sum(rnd.tricks_won.values()) == 13
    assert all(len(h) == 0 for h in rnd.hands.values())
    for seat in Seat:
        assert rnd.tricks_won[seat] == sum(t.winner == seat for t in rnd.tricks)
    assert rnd.score() == st.score_hand(rules, rnd.bids, rnd.tricks_won, {NS: 4, EW: 7})


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_every_trick_of_a_round_goes_to_the_trick_winner(preset):
    rules = st.Rules.preset(preset)
    rnd = st.Round.deal(rules, seed=8)
    play_round(rnd)
    for trick in rnd.tricks:
        assert trick.winner == trick.seats[st.trick_winner(rules, trick.cards)]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_every_card_played_in_a_round_was_legal_when_played(preset):
    """Replays the round with the pure functions: each card was legal for its hand, trick and broken state."""
    rules = st.Rules.preset(preset)
    rnd = st.Round.deal(rules, seed=12)
    play_round(rnd)
    hands = {s: list(h) for s, h in rnd.dealt.items()}
    broken = False
    for trick in rnd.tricks:
        for i, (seat, card) in enumerate(zip(trick.seats, trick.cards, strict=True)):
            assert card in st.legal_plays(rules, hands[seat], trick.cards[:i], broken)
            hands[seat].remove(card)
        broken = broken or any(rules.is_trump(c) for c in trick.cards)


def test_the_score_of_an_unfinished_round_is_an_illegal_action():
    rnd = st.Round.deal(st.Rules.preset("jokers"), seed=1)
    with pytest.raises(st.IllegalAction):
        rnd.score()


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_an_illegal_play_raises_and_leaves_the_round_exactly_as_it_was(preset):
    rules = st.Rules.preset(preset)
    rnd = st.Round.deal(rules, seed=31)
    play_round_until = 5
    for _ in range(4):
        rnd.bid(3)
    for _ in range(play_round_until):
        rnd.play(first_legal(rnd))
    seat = rnd.to_act
    hand = rnd.hands[seat]
    illegal = [c for c in hand if c not in rnd.legal_plays()]
    not_held = next(c for c in rules.deck() if c not in hand)
    other_seat = seat.left
    attempts = [((c,), {}) for c in illegal[:3]] + [((not_held,), {}), ((first_legal(rnd),), {"seat": other_seat})]
    for args, kwargs in attempts:
        before = rnd.to_json()
        state = (rnd.to_act, rnd.hands, rnd.tricks, rnd.trick.cards, rnd.spades_broken, rnd.tricks_won)
        with pytest.raises(st.IllegalAction) as info:
            rnd.play(*args, **kwargs)
        assert isinstance(info.value, ValueError)
        assert isinstance(info.value.reason, st.Reason)
        assert str(info.value.reason).strip()
        assert rnd.to_json() == before
        assert (rnd.to_act, rnd.hands, rnd.tricks, rnd.trick.cards, rnd.spades_broken, rnd.tricks_won) == state


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_play_after_the_round_is_over_is_an_illegal_action(preset):
    rnd = st.Round.deal(st.Rules.preset(preset), seed=2)
    play_round(rnd)
    before = rnd.to_json()
    with pytest.raises(st.IllegalAction):
        rnd.play(st.Card.parse("AS"))
    with pytest.raises(st.IllegalAction):
        rnd.bid(3)
    assert rnd.to_json() == before


# --- records -------------------------------------------------------------------------------------


def _stages(rnd: st.Round):
    yield "dealt", rnd
    rnd.bid(2)
    yield "one bid", rnd
    while rnd.phase == st.Phase.BIDDING:
        rnd.bid(st.NIL if rnd.to_act == Seat.SOUTH else 3)
    yield "bid", rnd
    for _ in range(6):
        rnd.play(first_legal(rnd))
    yield "mid-trick", rnd
    while not rnd.is_over:
        rnd.play(first_legal(rnd))
    yield "done", rnd


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_round_json_round_trip(preset):
    rules = dataclasses.replace(st.Rules.preset(preset), failed_nil_tricks="partner", mercy=-200)
    rnd = st.Round.deal(rules, dealer=Seat.EAST, seed=77, scores={NS: 120, EW: -40}, bags={NS: 3, EW: 8})
    for stage, live in _stages(rnd):
        text = live.to_json()
        json.loads(text)  # it is JSON
        again = st.Round.from_json(text)
        assert again == live, stage
        assert again.to_json() == text, stage
        assert again.rules == live.rules
        assert again.hands == live.hands
        assert again.bids == live.bids
        assert again.tricks == live.tricks
        assert again.trick.cards == live.trick.cards
        assert (again.to_act, again.phase, again.spades_broken) == (live.to_act, live.phase, live.spades_broken)
        assert again.tricks_won == live.tricks_won
        assert again.dealer == live.dealer
        if live.is_over:
            assert again.score() == live.score()


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_round_json_round_trip_of_a_custom_deal(preset):
    rules = st.Rules.preset(preset)
    hands = st.Round.deal(rules, seed=5).hands
    rnd = st.Round.from_hands(rules, hands, dealer=Seat.NORTH)
    play_round(rnd)
    assert st.Round.from_json(rnd.to_json()) == rnd


# --- the end of the game -------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize(
    ("ns", "ew", "winner"),
    [
        (500, 220, NS),  # at the target wins
        (220, 500, EW),
        (499, 0, None),
        (0, 499, None),
        (650, 100, NS),
        (520, 530, EW),  # both over: the higher score
        (530, 520, NS),
        (600, 500, NS),
        (510, 510, None),  # an exact tie: another hand
        (500, 500, None),
        (-150, 300, None),
        (-1000, 400, None),  # mercy is off by default
    ],
)
def test_game_winner_default_rules(preset, ns, ew, winner):
    assert st.game_winner(st.Rules.preset(preset), {NS: ns, EW: ew}) == winner


@pytest.mark.parametrize(
    ("ns", "ew", "winner"),
    [
        (100, -200, NS),  # at the mercy score loses
        (-200, 100, EW),
        (100, -250, NS),
        (100, -199, None),
        (-199, -150, None),
        (520, -300, NS),
    ],
)
def test_game_winner_mercy_flag(ns, ew, winner):
    rules = dataclasses.replace(st.Rules.preset("jokers"), mercy=-200)
    assert st.game_winner(rules, {NS: ns, EW: ew}) == winner


def test_mercy_is_off_by_default():
    rules = st.Rules.preset("jokers")
    assert rules.mercy is None
    assert st.game_winner(rules, {NS: 100, EW: -200}) is None
    assert st.game_winner(rules, {NS: -5000, EW: 0}) is None


@pytest.mark.parametrize(("ns", "ew", "winner"), [(300, 0, NS), (299, 0, None), (310, 320, EW), (305, 305, None)])
def test_game_winner_target_flag(ns, ew, winner):
    rules = dataclasses.replace(st.Rules.preset("jokers"), target=300)
    assert st.game_winner(rules, {NS: ns, EW: ew}) == winner


# --- a game --------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("dealer", list(Seat))
def test_game_deal_passes_left_each_round(preset, dealer):
    """'The deal passes to the left after each hand.'"""
    game = st.Game(st.Rules.preset(preset), seed=3, dealer=dealer)
    assert game.round.dealer == dealer
    dealers = [game.round.dealer]
    for _ in range(5):
        play_round_in_game(game)
        if game.is_over:
            break
        dealers.append(game.round.dealer)
    assert len(dealers) >= 2
    for before, after in itertools.pairwise(dealers):
        assert after == before.left


def play_round_in_game(game: st.Game) -> None:
    n = len(game.rounds)
    while len(game.rounds) == n and not game.is_over:
        if game.round.phase == st.Phase.BIDDING:
            game.bid(3)
        else:
            game.play(first_legal(game.round))


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_game_scores_and_bags_accumulate_over_rounds(preset):
    game = st.Game(st.Rules.preset(preset), seed=9)
    running = {NS: 0, EW: 0}
    for _ in range(4):
        play_round_in_game(game)
        last = game.hand_scores[-1]
        assert last == game.rounds[-1].score()
        for team in Team:
            running[team] += last[team].points
        assert game.scores == running
        if game.is_over:
            break
        # the next hand starts from the scores and bags so far
        assert game.round.scores_before == game.scores
        assert game.round.bags_before == {team: last[team].bags for team in Team}


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_game_ends_when_a_team_reaches_the_target(preset):
    """'The first team to 500 wins.' Checked after each hand."""
    rules = st.Rules.preset(preset)
    game = st.Game(rules, seed=17)
    play_game(game)
    assert game.winner is not None
    assert game.winner == st.game_winner(rules, game.scores)
    assert game.scores[game.winner] >= rules.target
    assert game.scores[game.winner] > game.scores[game.winner.other] or game.scores[game.winner.other] < rules.target
    # the game was not over after any earlier hand
    running = {NS: 0, EW: 0}
    for hand in game.hand_scores[:-1]:
        for team in Team:
            running[team] += hand[team].points
        assert st.game_winner(rules, running) is None
    # nothing more can be done once it is over
    with pytest.raises(st.IllegalAction):
        game.bid(3)
    with pytest.raises(st.IllegalAction):
        game.play(st.Card.parse("AS"))


def test_game_ends_at_a_lower_target():
    rules = dataclasses.replace(st.Rules.preset("jokers"), target=200)
    game = st.Game(rules, seed=17)
    play_game(game)
    assert max(game.scores.values()) >= 200
    assert max(game.scores.values()) < 500


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_game_is_reproducible_from_its_seed(preset):
    a = st.Game(st.Rules.preset(preset), seed=42)
    b = st.Game(st.Rules.preset(preset), seed=42)
    assert a.round.hands == b.round.hands
    assert a.round.dealer == b.round.dealer


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_game_json_round_trip_during_the_game(preset):
    rules = dataclasses.replace(st.Rules.preset(preset), target=300)
    game = st.Game(rules, seed=5, dealer=Seat.SOUTH)
    checkpoints = [game.to_json()]
    play_round_in_game(game)
    checkpoints.append(game.to_json())
    game.bid(2)
    checkpoints.append(game.to_json())
    for text in checkpoints:
        again = st.Game.from_json(text)
        assert again.to_json() == text
    again = st.Game.from_json(checkpoints[-1])
    assert again == game
    assert again.scores == game.scores
    assert again.round == game.round


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_game_json_round_trip_when_the_seed_chose_the_first_dealer(preset):
    """house-rules.md: 'first dealer: chosen by the seed'; Game.to_json: 'Game.from_json replays it to an identical state'."""
    game = st.Game(st.Rules.preset(preset), seed=11)  # no dealer given
    again = st.Game.from_json(game.to_json())
    assert again.first_dealer == game.first_dealer
    assert again.round.deal_id == game.round.deal_id
    assert again.round.hands == game.round.hands
    while game.round.phase == st.Phase.BIDDING:
        game.bid(3)
    game.play(first_legal(game.round))
    again = st.Game.from_json(game.to_json())
    assert again.round == game.round


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_game_json_round_trip_of_a_finished_game(preset):
    """Game.to_json: 'the game as JSON; Game.from_json replays it to an identical state' (also once it is won)."""
    rules = dataclasses.replace(st.Rules.preset(preset), target=300)
    game = st.Game(rules, seed=5, dealer=Seat.SOUTH)
    play_game(game)
    text = game.to_json()
    final = st.Game.from_json(text)
    assert final == game
    assert final.scores == game.scores
    assert final.bags == game.bags
    assert final.winner == game.winner
    assert len(final.rounds) == len(game.rounds)


# --- a round in a notebook -----------------------------------------------------------------------


# --- the game owns the end of a round; a round takes back its last action ------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_round_played_through_game_round_is_scored_and_the_next_dealt(preset):
    """Game: 'Bid and play through game.bid/game.play or the current game.round: either way, once a
    round's last trick is played the game scores it and deals the next.'"""
    rules = st.Rules.preset(preset)
    through_round = st.Game(rules, seed=21, dealer=Seat.EAST)
    through_game = st.Game(rules, seed=21, dealer=Seat.EAST)
    rnd = through_round.round
    while not rnd.is_over:
        rnd.apply(3 if rnd.phase == st.Phase.BIDDING else first_legal(rnd))
    play_round_in_game(through_game)
    assert len(through_round.rounds) == 1 and through_round.rounds[0] is rnd
    assert through_round.hand_scores == through_game.hand_scores == [rnd.score()]
    assert through_round.scores == {t: rnd.score()[t].points for t in Team} == through_game.scores
    assert through_round.round is not rnd and through_round.round.dealer == Seat.SOUTH
    assert through_round.round.phase == st.Phase.BIDDING
    # and the game goes on: the next bid is the new round's, not "Bidding is over"
    through_round.bid(3)
    through_game.bid(3)
    assert through_round == through_game
    assert st.Game.from_json(through_round.to_json()) == through_round


def test_a_game_won_through_game_round_says_it_is_over():
    rules = dataclasses.replace(st.Rules.preset("jokers"), target=100)
    game = st.Game(rules, seed=4)
    for _ in range(40):
        rnd = game.round
        if game.is_over:
            break
        made = exact_bids(rnd)  # every contract made: someone reaches 100 soon
        while not rnd.is_over:
            rnd.apply(made[rnd.to_act] if rnd.phase == st.Phase.BIDDING else first_legal(rnd))
    assert game.is_over and game.winner == st.game_winner(rules, game.scores)
    with pytest.raises(st.IllegalAction, match="The game is over") as caught:
        game.bid(3)
    assert caught.value.reason.code == "game-over"


def test_a_finished_round_says_it_is_over_to_a_bid():
    rnd = st.Round.deal(st.Rules.preset("jokers"), seed=8)
    while not rnd.is_over:
        rnd.apply(3 if rnd.phase == st.Phase.BIDDING else first_legal(rnd))
    assert str(rnd.why_bid_illegal(3)) == "The round is over: all 13 tricks have been played."


def _state(rnd: st.Round) -> tuple:
    """Everything a round shows, in order (the hands' order too)."""
    return (
        rnd.to_dict(),
        rnd.phase,
        rnd.to_act,
        {s: tuple(h) for s, h in rnd.hands.items()},
        list(rnd.bids.items()),
        rnd.tricks,
        rnd.trick,
        rnd.spades_broken,
        rnd.tricks_won,
        rnd.legal_plays(),
        rnd.legal_bids(),
        rnd.history,
    )


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("seed", range(6))
def test_undo_after_every_action_equals_replaying_the_record_without_it(preset, seed):
    """Round.undo: 'take back the last bid or card; the round is then exactly as it was before it'."""
    import random

    base = st.Rules.preset(preset)
    two_of_clubs_leads = seed % 2 == 0 and st.Card.parse("2C") not in base.removed
    rules = dataclasses.replace(
        base, blind_nil="always", first_lead="two-of-clubs" if two_of_clubs_leads else "left-of-dealer"
    )
    rng = random.Random(seed)
    rnd = st.Round.deal(rules, seed=seed * 97, scores={NS: 40, EW: 150}, bags={NS: 2, EW: 9})
    while not rnd.is_over:
        rnd.apply(rng.choice(rnd.legal_actions()))
        record = rnd.to_dict()
        replayed = st.Round.from_dict({**record, "actions": record["actions"][:-1]})
        action = rnd.history[-1]
        assert rnd.undo() == action
        assert _state(rnd) == _state(replayed)
        rnd.apply(action)
        assert rnd.to_dict() == record
    assert rnd.score() == st.Round.from_dict(rnd.to_dict()).score()


def test_undo_with_nothing_to_take_back_or_a_scored_round_is_an_illegal_action():
    rnd = st.Round.deal(st.Rules.preset("jokers"), seed=3)
    with pytest.raises(st.IllegalAction) as caught:
        rnd.undo()
    assert caught.value.reason.code == "nothing-to-undo"
    game = st.Game(st.Rules.preset("jokers"), seed=3)
    first = game.round
    play_round_in_game(game)
    with pytest.raises(st.IllegalAction) as caught:
        first.undo()
    assert caught.value.reason.code == "round-scored"
    assert first.is_over and game.rounds == [first]


def test_undo_through_game_round_keeps_the_game_in_step():
    game = st.Game(st.Rules.preset("classic"), seed=12)
    while game.round.phase == st.Phase.BIDDING:
        game.bid(3)
    before = game.to_json()
    game.play(first_legal(game.round))
    game.round.undo()
    assert game.to_json() == before and game == st.Game.from_json(before)


def _opening_tag(html: str, name: str) -> str:
    m = re.search(rf'<span[^>]*aria-label="{name}"[^>]*>', html)
    assert m, f"no card labelled {name!r}"
    return m.group(0)


def _label_text(html: str, name: str) -> str:
    m = re.search(rf'<span[^>]*aria-label="{name}"[^>]*>(.*?)</span></span>', html, re.S)
    assert m, f"no card labelled {name!r}"
    return re.sub(r"<[^>]+>", "", m.group(1)).strip()


@pytest.mark.parametrize("stage", ["dealt", "mid-trick"])
def test_a_round_shows_as_html_with_every_card_named(stage):
    rules = st.Rules.preset("jokers")
    rnd = st.Round.deal(rules, seed=4127, dealer=Seat.WEST)
    if stage == "mid-trick":
        for _ in range(4):
            rnd.bid(3)
        rnd.play(first_legal(rnd))
        rnd.play(first_legal(rnd))
    html = rnd._repr_html_()
    assert isinstance(html, str) and html.lstrip().startswith("<")
    for seat in Seat:
        assert seat.label in html
    for card in rules.deck():  # in a hand or on the table
        assert f'aria-label="{card.name}"' in html, card


def test_a_round_shows_the_jokers_so_they_cannot_be_confused():
    html = st.Round.deal(st.Rules.preset("jokers"), seed=4127)._repr_html_()
    big, little = _opening_tag(html, "big joker"), _opening_tag(html, "little joker")
    strip = lambda tag: re.sub(r'(aria-label|title)="[^"]*"', "", tag)  # noqa: E731
    assert strip(big) != strip(little)
    assert _label_text(html, "big joker") != _label_text(html, "little joker")


def test_a_round_shows_red_suits_in_colour():
    html = st.Round.deal(st.Rules.preset("jokers"), seed=4127)._repr_html_()

    def colour(name: str) -> str:
        m = re.search(r"(?<![-\w])color:\s*([^;\"]+)", _opening_tag(html, name))
        assert m, name
        return m.group(1).strip()

    red = {colour("ace of hearts"), colour("king of diamonds")}
    black = {colour("ace of spades"), colour("king of clubs")}
    assert len(red) == 1
    assert red.isdisjoint(black)


def test_a_hand_of_a_round_shows_as_html():
    rnd = st.Round.deal(st.Rules.preset("jokers"), seed=4127)
    for seat in Seat:
        html = rnd.hands[seat]._repr_html_()
        for card in rnd.hands[seat]:
            assert f'aria-label="{card.name}"' in html


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ({"scores": {NS: 1.5}}, "scores.N–S"),  # int() would have read 1
        ({"scores": {EW: True}}, "scores.E–W"),
        ({"scores": {NS: "120"}}, "scores.N–S"),
        ({"scores": {NS: 10**30}}, "scores.N–S"),
        ({"bags": {EW: 10}}, "bags.E–W"),  # the limit is reached within a hand, never carried into one
        ({"bags": {NS: -1}}, "bags.N–S"),
        ({"bags": [3, 4]}, "bags"),
    ],
)
def test_scores_and_bags_before_a_hand_are_whole_numbers_in_range(given: dict[str, Any], field: str) -> None:
    rules = st.Rules.preset("jokers")
    with pytest.raises(st.SpadesError) as caught:
        st.Round.deal(rules, seed=3, **given)
    assert isinstance(caught.value, InputError) and caught.value.field == field
    ok = st.Round.deal(rules, seed=3, scores={NS: -1_000_000, EW: 1_000_000}, bags={NS: 0, EW: 9})
    assert ok.scores_before == {NS: -1_000_000, EW: 1_000_000} and ok.bags_before == {NS: 0, EW: 9}
