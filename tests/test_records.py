"""Records read back (Round, Game, Rules): a damaged or hostile record is a RecordError naming the
field, never another exception and never accepted silently.

Round.from_dict / Game.from_dict: "Anything else (a damaged or hostile record, a value out of range,
a history the rules do not allow) raises a RecordError naming the field."
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst
from property_examples import examples

import spades_tutor as st
from spades_tutor import Seat
from spades_tutor.engine.rules import FIELDS_ADDED_LATER

ALL_PRESETS = st.Rules.preset_names()


def play(rnd_or_game: Any, steps: int, seed: int) -> None:
    """``steps`` random legal actions (fewer if a game ends first)."""
    rng = random.Random(seed)
    for _ in range(steps):
        rnd = rnd_or_game.round if isinstance(rnd_or_game, st.Game) else rnd_or_game
        if rnd.is_over or (isinstance(rnd_or_game, st.Game) and rnd_or_game.is_over):
            return
        rnd_or_game.apply(rng.choice(rnd.legal_actions()))


def round_record(preset: str = "jokers", seed: int = 7, steps: int = 20) -> dict[str, Any]:
    rules = dataclasses.replace(st.Rules.preset(preset), mercy=-300, blind_nil="always")
    rnd = st.Round.deal(rules, seed=seed, scores={st.Team.NS: 120, st.Team.EW: -40}, bags={st.Team.NS: 3})
    play(rnd, steps, seed)
    return rnd.to_dict()


def game_record(preset: str = "jokers", seed: int = 7, steps: int = 70, target: int = 500) -> dict[str, Any]:
    game = st.Game(dataclasses.replace(st.Rules.preset(preset), target=target), seed=seed)
    play(game, steps, seed)
    return game.to_dict()


def assert_record_error(kind: type, data: Any, field: str) -> st.RecordError:
    with pytest.raises(st.RecordError) as caught:
        kind.from_dict(data)
    assert caught.value.field == field, str(caught.value)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, st.SpadesError)
    assert str(caught.value).startswith(field), str(caught.value)
    return caught.value


# --- each example of a bad record ----------------------------------------------------------------


@pytest.mark.parametrize("seed", [1.5, True, -1, "12", None, 10**18, 10**4000])
def test_a_game_seed_must_be_a_whole_number_in_range(seed):
    assert_record_error(st.Game, {**game_record(), "seed": seed}, "seed")


@pytest.mark.parametrize("field", ["N–S", "E–W"])
@pytest.mark.parametrize("score", [10**4000, -(10**4000), 1_000_001, 2.5, "10", True, None])
def test_round_scores_are_range_checked(field, score):
    data = round_record()
    data["scores"][field] = score
    error = assert_record_error(st.Round, data, f"scores.{field}")
    assert len(str(error)) < 200


@pytest.mark.parametrize("bags", [-1, 10, 10**4000])
def test_round_bags_lie_below_the_bag_limit(bags):
    data = round_record()
    data["bags"]["N–S"] = bags
    assert_record_error(st.Round, data, "bags.N–S")


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("trick_points", -10),
        ("target", 10**30),
        ("target", 0),
        ("mercy", 200),
        ("mercy", -(10**30)),
        ("bag_limit", 0),
        ("bag_penalty", -100),
        ("nil_value", 10**9),
        ("blind_nil_behind", 1.0),
        ("nil", 1),
        ("jokers", "yes"),
        ("blind_nil", "sometimes"),
        ("first_lead", None),
        ("removed", "2H 2D"),
        ("removed", ["2H", "XX"]),
        ("trumps", [["AS"]]),
        ("name", ""),
        ("title", "x" * 1000),
    ],
)
def test_every_rule_value_is_type_and_range_checked(key, value):
    data = st.Rules.preset("jokers").to_dict()
    data[key] = value
    assert_record_error(st.Rules, data, f"rules.{key}")
    assert_record_error(st.Round, {**round_record(), "rules": data}, f"rules.{key}")
    assert_record_error(st.Game, {**game_record(), "rules": data}, f"rules.{key}")


@pytest.mark.parametrize("data", [[], "jokers", None, 7, ["name", "jokers"]])
def test_a_rule_set_record_is_an_object(data):
    error = assert_record_error(st.Rules, data, "rules")
    assert "unknown rule fields" not in str(error)
    assert isinstance(error, st.RulesError)  # still a rule set that cannot be played


def test_rules_from_dict_names_a_missing_or_unknown_field_and_a_deck_that_does_not_add_up():
    data = st.Rules.preset("jokers").to_dict()
    del data["target"]
    assert str(assert_record_error(st.Rules, data, "rules.target")) == "rules.target: missing from the record"
    data = {**st.Rules.preset("jokers").to_dict(), "colour": "green"}
    assert "'colour'" in str(assert_record_error(st.Rules, data, "rules"))
    data = {**st.Rules.preset("jokers").to_dict(), "removed": ["2C", "2H", "2D"]}
    assert "52" in str(assert_record_error(st.Rules, data, "rules"))


@pytest.mark.parametrize("kind", [st.Round, st.Game])
@pytest.mark.parametrize("version", [99, 0, True, "1", 1.0, None])
def test_only_version_1_records_are_read(kind, version):
    data = round_record() if kind is st.Round else game_record()
    error = assert_record_error(kind, {**data, "version": version}, "version")
    assert "version 1" in str(error)


@pytest.mark.parametrize("kind", [st.Round, st.Game])
def test_a_record_of_the_other_kind_or_no_format_is_refused(kind):
    other = game_record() if kind is st.Round else round_record()
    assert_record_error(kind, other, "format")
    assert_record_error(kind, {**other, "format": ["spades-tutor/round"]}, "format")


@pytest.mark.parametrize("kind", [st.Round, st.Game])
@pytest.mark.parametrize("depth", [50, 5_000, 200_000])
def test_deeply_nested_json_is_a_record_error(kind, depth):
    text = "[" * depth + "]" * depth
    with pytest.raises(st.RecordError):
        kind.from_json(text)
    data = round_record() if kind is st.Round else game_record()
    nested: Any = []
    for _ in range(depth):
        nested = [nested]
    for key in data:
        with pytest.raises(st.RecordError):
            kind.from_dict({**data, key: nested})
    inside = json.dumps(data).replace('"actions": [', '"actions": [' + "[" * depth + "]" * depth + ",", 1)
    with pytest.raises(st.RecordError):
        kind.from_json(inside)


@pytest.mark.parametrize("kind", [st.Round, st.Game])
@pytest.mark.parametrize(
    "text", ["", "{", "null", "[]", "NaN", '{"seed": 1' + "0" * 5000 + "}", "x" * 5_000_000, b"{}", None, 7]
)
def test_text_that_is_not_a_json_record_is_a_record_error(kind, text):
    with pytest.raises(st.RecordError):
        kind.from_json(text)


WRONG_VALUES = [None, True, 0, -1, 1.5, float("nan"), 10**4000, "", "x" * 300, [], [[]], {}, {"a": 1}]


@pytest.mark.parametrize("kind", [st.Round, st.Game])
@pytest.mark.parametrize("value", WRONG_VALUES, ids=repr)
def test_a_wrong_type_anywhere_at_the_top_is_a_record_error(kind, value):
    data = round_record() if kind is st.Round else game_record()
    for key in data:
        if kind is st.Round and key == "deal_id" and value is None:
            continue  # a custom deal has no deal id
        if kind is st.Game and key == "dealer" and value is None:
            continue  # the seed chose the first dealer
        if key == "actions" and value == ([] if kind is st.Round else [[]]):
            continue  # a round just dealt, a game just begun
        with pytest.raises(st.RecordError) as caught:
            kind.from_dict({**data, key: value})
        # seed 0 is a seed, of another game: the record's history does not fit it
        named = "actions" if (key, value) == ("seed", 0) else key
        assert caught.value.field.split(".")[0].split("[")[0] in (named, "round", "game"), (key, str(caught.value))


@pytest.mark.parametrize(
    "action",
    [["N", "bid"], ["N", "bid", 3], ["N", "bid", "²"], ["X", "play", "AS"], ["N", "pass", "3"], "N bid 3", None],
)
def test_an_unreadable_action_names_its_place(action):
    data = round_record(steps=0)
    data["actions"] = [action]
    assert_record_error(st.Round, data, "actions[0]")


@pytest.mark.parametrize("kind", [st.Round, st.Game])
def test_a_missing_field_is_named(kind):
    data = round_record() if kind is st.Round else game_record()
    for key in list(data):
        damaged = {k: v for k, v in data.items() if k != key}
        assert str(assert_record_error(kind, damaged, key)) == f"{key}: missing from the record"


@pytest.mark.parametrize("seed", [-1, 10**18, 10**4000])
def test_a_deal_seed_is_one_a_deal_id_can_name(seed):
    with pytest.raises(st.DealError, match="a deal seed is a whole number from 0 to 999999999999999999"):
        st.Round.deal(st.Rules.preset("jokers"), seed=seed)


@pytest.mark.parametrize("hands", [None, "AS KS", 7, {Seat.NORTH: 7}, {Seat.NORTH: None}, {"Z": "AS"}])
def test_round_from_hands_refuses_what_is_not_a_deal_with_a_deal_error(hands):
    with pytest.raises(st.DealError if not isinstance(hands, dict) or "Z" not in hands else st.SpadesError):
        st.Round.from_hands(st.Rules.preset("jokers"), hands)


# --- histories the rules do not allow ------------------------------------------------------------


def test_an_illegal_action_in_a_round_record_names_its_place_and_why():
    data = round_record(steps=10)
    actions = data["actions"]
    actions[6] = actions[5]  # the same seat again, the same card again
    error = assert_record_error(st.Round, data, "actions[6]")
    assert "cannot happen here" in str(error)


def test_hands_that_are_not_the_deal_the_deal_id_names_are_refused():
    data = round_record(steps=0)
    data["hands"]["N"], data["hands"]["S"] = data["hands"]["S"], data["hands"]["N"]
    assert_record_error(st.Round, data, "hands")
    data = round_record(steps=0)
    data["deal_id"] = "12-34"
    assert_record_error(st.Round, data, "deal_id")
    data = round_record(steps=0)
    data["dealer"] = Seat(("NESW".index(data["dealer"]) + 1) % 4).letter
    assert_record_error(st.Round, data, "hands")


def test_a_hand_out_of_its_rule_sets_order_is_refused_not_read_differently():
    """A record whose rule set no longer counts 2♦ as a trump lists a hand with 2♦ among the trumps:
    read, the hand would be sorted anew and written back otherwise, so it is refused."""
    rnd = st.Round.from_hands(
        st.Rules.preset("deuces-high"),
        {s: h for s, h in zip(Seat, st.Round.deal(st.Rules.preset("deuces-high"), seed=0).hands.values(), strict=True)},
    )
    data = rnd.to_dict()
    holder = next(s for s in Seat if "2♦" in data["hands"][s.letter])
    data["rules"]["trumps"] = [c for c in data["rules"]["trumps"] if c != "2♦"]
    assert_record_error(st.Round, data, f"hands.{holder.letter}")
    data["hands"][holder.letter] = str(
        st.Rules.from_dict(data["rules"]).sort_hand(st.cards(data["hands"][holder.letter]))
    )
    assert st.Round.from_dict(data).to_dict() == data


def test_a_custom_deal_with_a_card_twice_is_refused():
    rnd = st.Round.from_hands(st.Rules.preset("jokers"), st.Round.deal(st.Rules.preset("jokers"), seed=2).hands)
    data = rnd.to_dict()
    data["hands"]["N"] = data["hands"]["S"]
    assert "twice" in str(assert_record_error(st.Round, data, "hands"))
    data["hands"]["N"] = "AS KS"
    assert_record_error(st.Round, data, "hands")


def test_game_histories_must_end_rounds_where_the_rules_do():
    data = game_record(steps=70)  # one round over, the second under way
    assert len(data["actions"]) == 2 and len(data["actions"][0]) == 56
    extra = copy.deepcopy(data)
    extra["actions"][0].append(extra["actions"][1][0])
    assert "at most 56" in str(assert_record_error(st.Game, extra, "actions[0]"))
    short = copy.deepcopy(data)
    short["actions"][0].pop()
    assert "stops before its last trick" in str(assert_record_error(st.Game, short, "actions[0]"))
    over = game_record(steps=56)
    over["actions"].pop()
    assert "list of the next round is missing" in str(assert_record_error(st.Game, over, "actions"))
    assert_record_error(st.Game, {**data, "actions": []}, "actions")


def test_a_round_after_the_end_of_the_game_is_refused():
    game = st.Game(dataclasses.replace(st.Rules.preset("classic"), target=50, mercy=-100), seed=3)
    play(game, 2_000, 3)
    assert game.is_over
    data = game.to_dict()
    data["actions"].append([])
    assert "after the end of the game" in str(
        assert_record_error(st.Game, data, f"actions[{len(data['actions']) - 1}]")
    )


# --- random damage to real records ----------------------------------------------------------------

JSON_LEAVES = hst.one_of(
    hst.none(),
    hst.booleans(),
    hst.integers(),
    hst.sampled_from([10**30, -(10**30), 10**4000, 2**63, -1, 0, 1, 13, 99, 10_000, 10_001]),
    hst.floats(allow_nan=True, allow_infinity=True),
    hst.text(max_size=20),
    hst.sampled_from(["N", "E", "S", "W", "N–S", "bid", "play", "nil", "blind nil", "A♠", "BJ", "²", "12-34", "7W"]),
)


def _json_containers(inner: hst.SearchStrategy[Any]) -> hst.SearchStrategy[Any]:
    return hst.lists(inner, max_size=4) | hst.dictionaries(hst.text(max_size=8), inner, max_size=4)


JSON_VALUES = hst.recursive(JSON_LEAVES, _json_containers, max_leaves=10)


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*path, i))
    return out


@hst.composite
def damaged(draw: Any, make: Any) -> Any:
    """A real record with one to three random changes: a key dropped, a value replaced (wrong type,
    huge number, string, nesting), an item added, a neighbour's value copied in."""
    data = make(
        preset=draw(hst.sampled_from(ALL_PRESETS)),
        seed=draw(hst.integers(0, 50)),
        steps=draw(hst.integers(0, 70)),
    )
    for _ in range(draw(hst.integers(1, 3))):
        paths = _paths(data)
        path = draw(hst.sampled_from(paths))
        how = draw(hst.sampled_from(["drop", "replace", "nest", "add", "copy", "stringify"]))
        if not path:
            if how == "drop":
                return draw(JSON_VALUES)
            if how == "add":
                data[draw(hst.text(max_size=8))] = draw(JSON_VALUES)
            continue
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        if how == "drop":
            del parent[key]
        elif how == "replace":
            parent[key] = draw(JSON_VALUES)
        elif how == "nest":
            parent[key] = [parent[key]] if draw(hst.booleans()) else {"value": parent[key]}
        elif how == "add" and isinstance(parent, list):
            parent.insert(key, draw(JSON_VALUES))
        elif how == "copy":
            parent[key] = copy.deepcopy(draw(hst.sampled_from([data, *[_at(data, p) for p in paths[:40]]])))
        elif how == "stringify":
            parent[key] = json.dumps(parent[key], ensure_ascii=False)
    return data


def _at(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data


def check_read_back(kind: type, data: Any) -> None:
    """Either a RecordError naming a field, or a record read exactly as written."""
    try:
        obj = kind.from_dict(data)
    except st.RecordError as e:
        assert isinstance(e.field, str) and e.field
        assert isinstance(e, ValueError)
        assert len(str(e)) < 400
        return
    # nothing accepted silently: what was read is what was written, save a field a rule set gained
    # after records were first saved, which an older record lacks and is read with its default
    assert obj.to_dict() == with_later_rule_fields(data)
    assert kind.from_dict(obj.to_dict()) == obj


def with_later_rule_fields(data: Any) -> Any:
    """``data`` with every rule set in it given the default of each field added later that it lacks."""
    defaults = st.Rules().to_dict()
    if isinstance(data, dict):
        out = {key: with_later_rule_fields(value) for key, value in data.items()}
        if "failed_nil_tricks" in out:  # a rule set's record
            for name in FIELDS_ADDED_LATER:
                if name in defaults:
                    out.setdefault(name, defaults[name])
                elif type(out.get(name)) is int and out[name] == 0:
                    del out[name]  # a rule that is off is left out of the record written
        return out
    if isinstance(data, list):
        return [with_later_rule_fields(value) for value in data]
    return data


FUZZ = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(damaged(round_record))
def test_a_damaged_round_record_is_read_exactly_or_refused_with_a_record_error(data):
    check_read_back(st.Round, data)


@FUZZ
@given(damaged(lambda **kw: game_record(target=150, **{**kw, "steps": kw["steps"] * 4})))
def test_a_damaged_game_record_is_read_exactly_or_refused_with_a_record_error(data):
    check_read_back(st.Game, data)


@FUZZ
@given(damaged(lambda **kw: st.Rules.preset(kw["preset"]).to_dict()))
def test_a_damaged_rules_record_is_read_exactly_or_refused_with_a_record_error(data):
    check_read_back(st.Rules, data)


@FUZZ
@given(
    hst.sampled_from([st.Round, st.Game]),
    hst.integers(0, 30),
    hst.lists(hst.tuples(hst.integers(0, 10**6), hst.text(max_size=3)), min_size=1, max_size=3),
)
def test_damaged_json_text_is_read_exactly_or_refused_with_a_record_error(kind, seed, cuts):
    text = json.dumps(round_record(seed=seed) if kind is st.Round else game_record(seed=seed), ensure_ascii=False)
    for at, insert in cuts:
        at %= len(text) + 1
        text = text[:at] + insert + text[at + len(insert) :]
    try:
        obj = kind.from_json(text)
    except st.RecordError:
        return
    assert kind.from_json(obj.to_json()) == obj


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_real_records_of_every_preset_read_back_equal(preset):
    for steps in (0, 3, 4, 30, 56):
        data = round_record(preset, steps=steps)
        assert st.Round.from_dict(data).to_dict() == data
    for steps in (0, 56, 57, 200):
        data = game_record(preset, steps=steps, target=150)
        assert st.Game.from_dict(data).to_dict() == data
