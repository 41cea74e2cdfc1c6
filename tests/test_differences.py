"""What changes at your table: every difference of two rule sets is listed, and each example is one the
engine really decides otherwise at the two tables."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from spades_tutor import Rules
from spades_tutor.engine import (
    Bid,
    Round,
    Seat,
    Team,
    apply_renege,
    cards,
    explain_first_leader,
    explain_game,
    score_hand,
    trick_winner,
)
from spades_tutor.lessons.differences import (
    DECK_FIELDS,
    SEED,
    Difference,
    differences,
    quiz_items,
    rule_fields,
)

JOKERS = Rules.preset("jokers")
CLASSIC = Rules.preset("classic")


def decided(rules: Rules, kind: str, position: dict[str, Any]) -> Any:
    """The engine's answer to an example's situation at one table, asked afresh from its position."""
    if kind == "trick":
        played = cards(position["trick"])
        if not all(rules.in_deck(c) for c in played):
            return "not in the deck"
        return trick_winner(rules, played)
    if kind == "first-lead":
        holder = Seat.parse(position["two_of_clubs"])
        return explain_first_leader(rules, Seat.parse(position["dealer"]), holder)[0]
    if kind == "bid":
        rnd = Round.deal(rules, dealer=Seat.WEST, seed=SEED, scores={Team.NS: 0, Team.EW: position["behind"]})
        for bid in position["bids"]:
            rnd.bid(bid)
        return rnd.why_bid_illegal(position["bid"]) is None
    bids = {Seat.parse(s): Bid.parse(b) for s, b in position.get("bids", {}).items()}
    tricks = {Seat.parse(s): n for s, n in position.get("tricks", {}).items()}
    bags = {Team.parse(t): n for t, n in position.get("bags", {}).items()}
    if kind == "score":
        return {t: (s.points, s.bags) for t, s in score_hand(rules, bids, tricks, bags).items()}
    if kind == "game":
        return explain_game(rules, {Team.parse(t): v for t, v in position["scores"].items()})[0]
    assert kind == "renege"
    ruling = apply_renege(rules, bids, tricks, position["offenders"], bags=bags)
    return {t: (s.points, s.bags) for t, s in ruling.scores.items()}


def only(yours: Rules, theirs: Rules) -> Difference:
    found = differences(yours, theirs)
    assert len(found) == 1, [d.heading for d in found]
    return found[0]


def assert_shown(difference: Difference, yours: Rules, theirs: Rules) -> None:
    """The difference has an example, and the engine, asked again, answers it otherwise at the two tables."""
    example = difference.example
    assert example is not None, difference.heading
    mine, other = (
        decided(yours, example.kind, dict(example.position)),
        decided(theirs, example.kind, dict(example.position)),
    )
    assert mine != other, (difference.heading, example.setting, mine, other)
    assert example.yours.answer != example.theirs.answer
    assert example.yours.sentences and example.theirs.sentences
    assert difference.heading and difference.says and difference.yours != difference.theirs


def test_the_same_rules_have_no_difference() -> None:
    for name in Rules.preset_names():
        rules = Rules.preset(name, mercy=-200)
        assert differences(rules, rules) == ()
    assert quiz_items(JOKERS, JOKERS, ()) == ()


def test_every_field_of_the_rules_is_a_difference_and_the_deck_is_one() -> None:
    """Read from the dataclass: a field added to ``Rules`` later is compared too."""
    listed = [name for group in rule_fields() for name in group]
    expected = {f.name for f in dataclasses.fields(Rules) if f.init} - {"name", "title"}
    assert sorted(listed) == sorted(expected) and len(listed) == len(set(listed))
    assert rule_fields()[0] == DECK_FIELDS


def test_jokers_against_regular_spades_is_the_deck_shown_on_a_trick() -> None:
    difference = only(JOKERS, CLASSIC)
    assert difference.fields == DECK_FIELDS
    assert difference.heading == "Both jokers in, 2♥ 2♦ out: 15 trumps instead of 13"
    assert_shown(difference, JOKERS, CLASSIC)
    assert difference.example is not None and difference.example.kind == "trick"
    # and the other way round
    back = only(CLASSIC, JOKERS)
    assert back.heading.startswith("No jokers, all 52 cards")
    assert_shown(back, CLASSIC, JOKERS)


def test_deuces_high_against_jokers_is_a_trick_both_decks_can_play() -> None:
    deuces = Rules.preset("deuces-high")
    difference = only(deuces, JOKERS)
    assert_shown(difference, deuces, JOKERS)
    example = difference.example
    assert example is not None and example.kind == "trick"
    played = cards(example.position["trick"])
    assert all(deuces.in_deck(c) and JOKERS.in_deck(c) for c in played)  # the same trick at both tables
    assert example.yours.trick is not None and example.theirs.trick is not None


@pytest.mark.parametrize(
    ("flags", "kind", "heading"),
    [
        ({"target": 300}, "game", "Game to 300 instead of 500"),
        ({"nil": False}, "bid", "No nil bids"),
        ({"bag_limit": 5}, "score", "A bag penalty every 5 bags instead of 10"),
        ({"mercy": -200}, "game", "A team at −200 or below loses"),
        ({"first_lead": "two-of-clubs"}, "first-lead", "The 2♣ leads the first trick"),
        ({"failed_nil_tricks": "partner"}, "score", "A failed nil's tricks count for the partner"),
        ({"failed_nil_tricks": "none"}, "score", "A failed nil's tricks count for nothing"),
        ({"renege_penalty": "set"}, "renege", "A renege sets the side"),
        ({"renege_penalty": "two-tricks"}, "renege", "A renege costs 2 tricks"),
        ({"blind_nil": "always"}, "bid", "Blind nil at any score"),
        ({"blind_nil": "behind-100"}, "bid", "Blind nil for a side 100+ behind"),
        ({"trick_points": 5}, "score", "5 points a trick bid instead of 10"),
        ({"nil_value": 150}, "score", "Nil worth 150 instead of 100"),
        ({"bag_penalty": 50}, "score", "A bag penalty of 50 instead of 100"),
    ],
)
def test_each_house_rule_alone_is_listed_and_shown(flags: dict[str, Any], kind: str, heading: str) -> None:
    for reference in (JOKERS, CLASSIC):
        yours = dataclasses.replace(reference, **flags)
        difference = only(yours, reference)
        assert difference.fields == tuple(flags)
        assert difference.heading.startswith(heading)
        assert_shown(difference, yours, reference)
        assert difference.example is not None and difference.example.kind == kind


def test_rules_of_blind_nil_are_shown_where_blind_nil_is_bid() -> None:
    behind = Rules.preset("jokers", blind_nil="behind-100")
    for flags, kind in (({"blind_nil_behind": 200}, "bid"), ({"blind_nil_value": 300}, "score")):
        yours = dataclasses.replace(behind, **flags)
        difference = only(yours, behind)
        assert_shown(difference, yours, behind)
        assert difference.example is not None and difference.example.kind == kind


def test_many_house_rules_at_once_each_listed_each_example_decided_by_the_engine() -> None:
    yours = Rules.preset(
        "jokers",
        target=300,
        nil=False,
        bag_limit=5,
        mercy=-200,
        first_lead="two-of-clubs",
        failed_nil_tricks="partner",
        renege_penalty="set",
        blind_nil="always",
    )
    found = differences(yours, JOKERS)
    assert [d.fields for d in found] == [
        ("nil",), ("blind_nil",), ("first_lead",), ("failed_nil_tricks",), ("renege_penalty",), ("target",),
        ("mercy",), ("bag_limit",),
    ]  # fmt: skip
    by_field = {d.fields[0]: d for d in found}
    # without nil a failed nil never comes up: listed, said plainly, with no example
    assert by_field["failed_nil_tricks"].example is None
    assert "no example to show" in by_field["failed_nil_tricks"].says
    for difference in found:
        if difference.example is not None:
            assert_shown(difference, yours, JOKERS)
    assert differences(yours, JOKERS) == found  # seeded: the same examples every time


def test_the_quiz_asks_each_shown_difference_in_the_learners_rules() -> None:
    yours = Rules.preset("jokers", target=300, bag_limit=5, first_lead="two-of-clubs", renege_penalty="set")
    found = differences(yours, JOKERS)
    items = quiz_items(yours, JOKERS, found)
    assert [item.kind for item, _ in items] == ["first-leader", "game-winner", "score"]  # no quiz kind asks a renege
    shown = {d.example.kind: d for d in found if d.example is not None}
    for item, other in items:
        assert item.rules == yours
        assert other is not None and other.rules == JOKERS and other.position() == item.position()
        assert item.answer() != other.answer()
        assert item.check(item.answer()).correct
    # the question is the further example, not the one shown above it
    for difference in found:
        if difference.further is not None:
            assert difference.further.position != difference.example.position  # type: ignore[union-attr]
            assert_shown(dataclasses.replace(difference, example=difference.further), yours, JOKERS)
    assert shown["game"].further is not None
    deck = quiz_items(JOKERS, CLASSIC, differences(JOKERS, CLASSIC))
    ((item, other),) = deck
    assert item.kind == "trick-winner" and other is None  # the trick holds a joker: Regular Spades cannot ask it
    assert any(c.is_joker for c in cards(item.position()["trick"]))


@dataclasses.dataclass(frozen=True, kw_only=True)
class HouseRules(Rules):
    """A rule set with a house rule the engine does not play yet (as a flag added to ``Rules`` later)."""

    minimum_team_bid: int = 0


def test_a_rule_added_to_the_rules_later_is_listed_and_said_plainly_without_an_example() -> None:
    theirs = HouseRules(**{f.name: getattr(JOKERS, f.name) for f in dataclasses.fields(Rules) if f.init})
    yours = dataclasses.replace(theirs, minimum_team_bid=4)
    assert ("minimum_team_bid",) in rule_fields(HouseRules)
    (difference,) = differences(yours, theirs)
    assert difference.fields == ("minimum_team_bid",)
    assert difference.heading == "Minimum team bid: 4 (in Spades with Jokers: minimum team bid: 0)"
    assert difference.example is None and "no example to show" in difference.says
    assert quiz_items(yours, theirs, (difference,)) == ()


def test_regular_spades_against_jokers_quizzes_a_trick_regular_spades_can_hold() -> None:
    (difference,) = differences(CLASSIC, JOKERS)
    assert difference.example is not None and not difference.example.yours.possible  # a joker's trick shown
    ((item, other),) = quiz_items(CLASSIC, JOKERS, (difference,))
    assert item.kind == "trick-winner" and all(CLASSIC.in_deck(c) for c in cards(item.position()["trick"]))
    assert other is None  # the 2♥ or 2♦ in it is not in the jokers' deck
