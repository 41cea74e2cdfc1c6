"""Renege penalties: what a side that did not follow suit when it could gives up, by the house rule.

house-rules.md: "renege: the side that reneged gives 3 tricks to the other side for each renege"
(`renege_penalty`: "three-tricks" / "two-tricks" / "set"). The expected scores below are worked
by hand from the scoring table of house-rules.md (10 a trick bid, 1 a bag, nil ±100), not by
calling score_hand.
"""

from __future__ import annotations

import json

import pytest

import spades_tutor as st
from spades_tutor import Seat, Team

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
PRESETS = st.Rules.preset_names()


def _rules(penalty: str, preset: str = "jokers") -> st.Rules:
    return st.Rules.preset(preset, renege_penalty=penalty)


BIDS = {N: 4, E: 3, S: 3, W: 2}
TRICKS = {N: 4, E: 3, S: 3, W: 3}  # NS 7 (bid 7), EW 6 (bid 5)


def test_the_default_renege_penalty_is_three_tricks():
    for preset in PRESETS:
        assert st.Rules.preset(preset).renege_penalty == "three-tricks"


@pytest.mark.parametrize("preset", PRESETS)
def test_three_tricks_moves_three_tricks_to_the_other_side(preset):
    ruling = st.apply_renege(_rules("three-tricks", preset), BIDS, TRICKS, Team.EW)
    assert sum(ruling.tricks[s] for s in Team.NS.seats) == 10
    assert sum(ruling.tricks[s] for s in Team.EW.seats) == 3
    # NS: contract 7 made with 10 -> 70 + 3 bags; EW: contract 5 with 3 -> set, -50
    assert ruling.scores[Team.NS].points == 73
    assert ruling.scores[Team.NS].bags == 3
    assert ruling.scores[Team.EW].points == -50


def test_two_tricks_moves_two_tricks_per_renege():
    ruling = st.apply_renege(_rules("two-tricks"), BIDS, TRICKS, "EW")
    assert sum(ruling.tricks[s] for s in Team.NS.seats) == 9
    assert ruling.scores[Team.NS].points == 72  # 70 + 2 bags
    assert ruling.scores[Team.EW].points == -50  # 4 of 5: set


def test_each_renege_costs_the_penalty_again():
    ruling = st.apply_renege(_rules("two-tricks"), BIDS, TRICKS, Team.EW, reneges=2)
    assert sum(ruling.tricks[s] for s in Team.NS.seats) == 11
    assert "reneged twice" in ruling.lines[0]
    assert "4 in all" in ruling.lines[0]


def test_a_side_gives_only_the_tricks_it_has():
    tricks = {N: 5, E: 1, S: 6, W: 1}
    ruling = st.apply_renege(_rules("three-tricks"), {N: 5, E: 1, S: 5, W: 1}, tricks, Team.EW)
    assert sum(ruling.tricks[s] for s in Team.EW.seats) == 0
    assert sum(ruling.tricks.values()) == 13
    assert "took only 2 tricks" in ruling.lines[2]


def test_a_trick_is_never_taken_from_a_nil_bidder():
    # East bid nil and took 2 (a failed nil); West bid 4 and took 2: only West's tricks can move
    bids = {N: 3, E: "nil", S: 3, W: 4}
    tricks = {N: 5, E: 2, S: 4, W: 2}
    ruling = st.apply_renege(_rules("three-tricks"), bids, tricks, Team.EW)
    assert ruling.tricks[E] == 2
    assert ruling.tricks[W] == 0
    ew = ruling.scores[Team.EW]
    # East's nil still fails (-100), West's 4 set (-40), East's 2 tricks are bags (+2)
    assert ew.points == -138


def test_a_trick_is_never_given_to_a_nil_bidder():
    bids = {N: "nil", E: 3, S: 4, W: 3}
    tricks = {N: 0, E: 4, S: 5, W: 4}
    ruling = st.apply_renege(_rules("three-tricks"), bids, tricks, Team.EW)
    assert ruling.tricks[N] == 0
    assert ruling.tricks[S] == 8
    ns = ruling.scores[Team.NS]
    assert ns.points == 100 + 40 + 4  # nil made, contract 4 made with 8
    assert ruling.scores[Team.EW].points == -60  # bid 6, 5 left after giving 3: set


def test_both_opponents_nil_means_no_trick_moves():
    bids = {N: "nil", E: 6, S: "nil", W: 5}
    tricks = {N: 0, E: 7, S: 0, W: 6}
    ruling = st.apply_renege(_rules("three-tricks"), bids, tricks, Team.EW)
    assert dict(ruling.tricks) == tricks
    assert ruling.scores == st.score_hand(_rules("three-tricks"), bids, tricks)
    assert "no trick moves" in ruling.lines[1]


@pytest.mark.parametrize("preset", PRESETS)
def test_set_fails_every_bid_of_the_side_that_reneged(preset):
    ruling = st.apply_renege(_rules("set", preset), BIDS, TRICKS, Team.EW)
    assert dict(ruling.tricks) == TRICKS  # no trick moves
    ew = ruling.scores[Team.EW]
    assert ew.points == -50  # bid 5, took 6: set anyway, and the bag does not count
    assert ew.bags == 0
    assert ruling.scores[Team.NS].points == 70  # the other side as played


def test_set_fails_a_nil_of_the_side_that_reneged():
    bids = {N: "nil", E: 4, S: 5, W: 3}
    tricks = {N: 0, E: 4, S: 6, W: 3}
    ns = st.apply_renege(_rules("set"), bids, tricks, Team.NS, bags={Team.NS: 7}).scores[Team.NS]
    assert ns.points == -100 - 50
    assert ns.bags == 7  # no bags taken, none lost
    assert [line.kind for line in ns.lines] == ["nil", "contract"]
    assert sum(line.points for line in ns.lines) == ns.points


def test_the_explanation_says_the_penalty_in_words_and_what_moved():
    ruling = st.apply_renege(_rules("three-tricks"), BIDS, TRICKS, Team.EW)
    assert ruling.lines == (
        "East–West reneged once. At this table a renege costs 3 tricks: the side that reneged "
        "gives 3 tricks to the other side for each renege, 3 in all.",
        "East gives 3 tricks to North: North–South now have 10 tricks, East–West 3.",
    )
    text = str(ruling)
    assert "Contract 7 made" in text and "Contract 5 set" in text


def test_the_explanation_of_set_says_it_in_words():
    ruling = st.apply_renege(_rules("set"), BIDS, TRICKS, Team.NS)
    assert "At this table a renege sets the side" in ruling.lines[0] and "renege_penalty" not in ruling.lines[0]
    assert "North–South reneged once" in ruling.lines[0]
    assert str(ruling.scores[Team.NS].lines[0]) == "Contract 7 set by the renege (N 4 + S 3, took 7): −70"


def test_bad_reneges_and_bad_hands_raise_the_engines_error():
    with pytest.raises(st.SpadesError):
        st.apply_renege(_rules("set"), BIDS, TRICKS, Team.EW, reneges=0)
    with pytest.raises(st.SpadesError):
        st.apply_renege(_rules("set"), BIDS, {N: 4, E: 3, S: 3, W: 4}, Team.EW)
    with pytest.raises(ValueError):
        st.apply_renege(_rules("set"), BIDS, TRICKS, "NE")


def test_a_played_round_is_scored_after_a_renege():
    rules = st.Rules.preset("jokers")
    rnd = st.Round.deal(rules, dealer=Seat.WEST, seed=4127)
    for _ in range(4):
        rnd.bid(3)
    while not rnd.is_over:
        rnd.play(rnd.legal_plays()[0])
    ruling = rnd.renege(Team.NS)
    assert ruling == st.apply_renege(rules, rnd.bids, rnd.tricks_won, Team.NS)
    assert sum(ruling.tricks.values()) == 13


# --- the flag on the rule set -------------------------------------------------------------------


@pytest.mark.parametrize("value", ["three-tricks", "two-tricks", "set"])
def test_renege_penalty_round_trips(value):
    rules = _rules(value)
    assert st.Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


def test_a_rule_set_saved_before_the_flag_existed_loads_with_the_default():
    data = _rules("set").to_dict()
    del data["renege_penalty"]
    assert st.Rules.from_dict(data).renege_penalty == "three-tricks"


@pytest.mark.parametrize("bad", ["four-tricks", "Set", None, 3])
def test_a_bad_renege_penalty_is_an_error_naming_the_field(bad):
    with pytest.raises(st.RulesError, match="renege_penalty"):
        st.Rules.preset("jokers", renege_penalty=bad)
    data = st.Rules.preset("jokers").to_dict()
    data["renege_penalty"] = bad
    with pytest.raises(st.RecordError, match=r"rules\.renege_penalty"):
        st.Rules.from_dict(data)


def test_the_rule_set_says_a_non_default_penalty():
    assert "renege" not in st.Rules.preset("jokers").describe()
    assert "a renege costs: set" in _rules("set").describe()
    assert _rules("set").flags() == {"renege_penalty": "set"}
    assert "3 tricks" in st.describe_penalty(st.Rules.preset("jokers"))
    assert "2 tricks" in st.describe_penalty(_rules("two-tricks"))


# --- lesson 12 -------------------------------------------------------------------------------------


def _lesson_twelve():
    from spades_tutor.lessons import load_lessons

    (lesson,) = [lesson for lesson in load_lessons() if lesson.number == 12]
    return lesson


def test_lesson_twelve_is_the_renege_lesson_and_validates():
    from spades_tutor.lessons import validate_lesson

    lesson = _lesson_twelve()
    assert lesson.path.name == "12-renege.md"
    assert validate_lesson(lesson) == []


@pytest.mark.parametrize("preset", PRESETS)
def test_lesson_twelve_shows_the_position_and_each_penalty_from_the_engine(preset):
    lesson = _lesson_twelve()
    picked = st.Rules.preset(preset)
    # the position: North holds a heart on a heart lead, so only the heart may be played
    (quiz,) = lesson.blocks("quiz")
    item = quiz.resolve(lesson, picked).quiz_item()
    assert set(item.answer()) == {st.Card.parse("7H")}
    assert not item.check([st.Card.parse("4S")]).correct
    assert item.rules.name == preset
    seen = set()
    for block in lesson.blocks("renege"):
        shown = block.resolve(lesson, picked)
        rules = shown.rules
        seen.add(rules.renege_penalty)
        bids, tricks = shown.value("bids"), shown.value("tricks")
        ruling = st.apply_renege(rules, bids, tricks, shown.value("reneged"), reneges=shown.value("reneges", 1))
        assert shown.score() == dict(ruling.scores)
        explained = [part.text for part in shown.view() if type(part).__name__ == "Explain"]
        assert explained == list(ruling.lines)
    assert seen == {"three-tricks", "two-tricks", "set"}


def test_lesson_twelve_numbers_are_the_engines_for_the_default_penalty():
    """The prose: North–South keep 6 and are set; East–West now have 7 and make their contract."""
    lesson = _lesson_twelve()
    blocks = list(lesson.blocks("renege"))
    first = blocks[0].resolve(lesson, st.Rules.preset("jokers"))
    scores = first.score()
    assert scores[Team.NS].points == -70
    assert scores[Team.EW].points == 52
    two = blocks[1].resolve(lesson, st.Rules.preset("jokers")).score()
    assert two[Team.NS].points == 70  # "keep 7 and still make their contract"


def test_a_renege_block_with_a_bad_side_names_its_line(tmp_path):
    from spades_tutor.lessons import LessonError, load_lesson, validate_lesson

    text = (
        _lesson_twelve().path.read_text(encoding="utf-8").replace("reneged: NS\nreneges: 2", "reneged: NE\nreneges: 2")
    )
    path = tmp_path / "12-renege.md"
    path.write_text(text, encoding="utf-8")
    try:
        problems = validate_lesson(load_lesson(path))
    except LessonError as e:
        problems = [str(e)]
    assert problems and all("reneged" in p for p in problems)


def test_the_lesson_player_shows_the_engines_renege_sentences():
    import html

    from spades_tutor.ui.lesson_player import LessonPlayer

    lesson = _lesson_twelve()
    rules = st.Rules.preset("classic")
    step = next(i for i, s in enumerate(lesson.steps) if any(b.kind == "renege" for b in s.blocks))
    player = LessonPlayer(lesson, rules, step=step)
    shown = html.unescape("".join(getattr(c, "value", "") for c in player.body.children))
    block = next(b for b in lesson.steps[step].blocks if b.kind == "renege")
    r = block.resolve(lesson, rules)
    ruling = st.apply_renege(rules, r.value("bids"), r.value("tricks"), r.value("reneged"))
    for line in ruling.lines:
        assert line in shown


def test_a_game_saved_before_the_flag_existed_replays_with_the_default():
    game = st.Game(st.Rules.preset("bicycle"), seed=12)
    data = json.loads(game.to_json())
    del data["rules"]["renege_penalty"]
    again = st.Game.from_json(json.dumps(data))
    assert again.rules == st.Rules.preset("bicycle")
    assert again.rules.renege_penalty == "three-tricks"


def test_the_glossary_says_what_a_renege_costs_at_this_table():
    from spades_tutor.lessons.glossary import load_glossary

    renege = load_glossary().term("renege")
    assert "costs the side that reneged 3 tricks, given to the other side, for each renege" in renege.definition(
        st.Rules.preset("jokers")
    )
    assert "2 tricks" in renege.definition(_rules("two-tricks"))
    assert "its whole bid, whatever it took" in renege.definition(_rules("set"))


def test_the_worked_example_of_house_rules():
    """house-rules.md: 'North bids 4, South 3, they take 9, but North reneged once ... set, −70
    (with renege_penalty="two-tricks": 7 of 7, +70)'."""
    bids = {N: 4, E: 3, S: 3, W: 2}
    tricks = {N: 5, E: 2, S: 4, W: 2}
    assert st.apply_renege(st.Rules.preset("jokers"), bids, tricks, Team.NS).scores[Team.NS].points == -70
    assert st.apply_renege(_rules("two-tricks"), bids, tricks, Team.NS).scores[Team.NS].points == 70
