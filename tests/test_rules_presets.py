"""Rule sets: each preset's deck and trump order as in house-rules.md, and the house-rule flags.

Rule text: "Take out the two of hearts and the two of diamonds, then add both jokers" and
"That makes 15 trumps instead of the usual 13" (joker-spades-rules.txt); the preset table and
the flags of house-rules.md.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

import spades_tutor as st

PRESETS = st.Rules.preset_names()

# house-rules.md, "Presets": cards removed, trumps highest first, what counts as a spade
REMOVED = {
    "jokers": "2H 2D",
    "deuces-high": "2C 2H",
    "two-of-spades-third": "2H 2D",
    "bicycle": "2C 2D",
    "classic": "",
}
JOKERS_IN = {"jokers": True, "deuces-high": True, "two-of-spades-third": True, "bicycle": True, "classic": False}
_DOWN = "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S"
TRUMPS = {
    "jokers": f"BJ LJ {_DOWN} 2S",
    "deuces-high": f"BJ LJ 2D 2S {_DOWN}",
    "two-of-spades-third": f"BJ LJ 2S {_DOWN}",
    "bicycle": f"BJ LJ {_DOWN} 2S",
    "classic": f"{_DOWN} 2S",
}
TRUMP_COUNT = {"jokers": 15, "deuces-high": 16, "two-of-spades-third": 15, "bicycle": 15, "classic": 13}
EXTRA_SPADES = {
    "jokers": "BJ LJ",
    "deuces-high": "BJ LJ 2D",
    "two-of-spades-third": "BJ LJ",
    "bicycle": "BJ LJ",
    "classic": "",
}
WITH_TWO_OF_CLUBS = [p for p in PRESETS if "2C" not in REMOVED[p].split()]
WITHOUT_TWO_OF_CLUBS = [p for p in PRESETS if "2C" in REMOVED[p].split()]


def test_the_presets_are_the_five_of_house_rules():
    assert set(PRESETS) == set(REMOVED)
    assert len(PRESETS) == 5
    assert isinstance(PRESETS, tuple)


def test_the_default_preset_is_jokers():
    assert st.Rules.preset() == st.Rules.preset("jokers")
    assert st.Rules() == st.Rules.preset("jokers")


def test_an_unknown_preset_is_a_rules_error():
    with pytest.raises(st.RulesError):
        st.Rules.preset("no-such-rules")


# --- the deck ------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_each_deck_has_52_distinct_cards(preset):
    deck = st.Rules.preset(preset).deck()
    assert len(deck) == 52
    assert len(set(deck)) == 52


@pytest.mark.parametrize("preset", PRESETS)
def test_each_deck_has_the_right_cards_removed(preset):
    rules = st.Rules.preset(preset)
    deck = set(rules.deck())
    removed = set(st.cards(REMOVED[preset]))
    for card in removed:
        assert card not in deck, f"{card} should be out of the {preset} deck"
        assert not rules.in_deck(card)
    for card in st.full_pack():
        if not card.is_joker and card not in removed:
            assert card in deck, f"{card} should be in the {preset} deck"


@pytest.mark.parametrize("preset", PRESETS)
def test_each_deck_has_both_jokers_or_neither(preset):
    deck = set(st.Rules.preset(preset).deck())
    jokers = {st.BIG_JOKER, st.LITTLE_JOKER}
    if JOKERS_IN[preset]:
        assert jokers <= deck
    else:
        assert not (jokers & deck)


@pytest.mark.parametrize("preset", PRESETS)
def test_each_deck_deals_13_cards_a_player(preset):
    rnd = st.Round.deal(st.Rules.preset(preset), seed=1)
    assert all(len(rnd.hands[s]) == 13 for s in st.Seat)
    assert set().union(*map(set, rnd.hands.values())) == set(st.Rules.preset(preset).deck())


# --- the trumps ----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_trump_order_is_exactly_the_house_rules_table(preset):
    assert tuple(st.Rules.preset(preset).trump_order()) == st.cards(TRUMPS[preset])


@pytest.mark.parametrize("preset", PRESETS)
def test_number_of_trumps(preset):
    assert len(st.Rules.preset(preset).trump_order()) == TRUMP_COUNT[preset]


@pytest.mark.parametrize("preset", [p for p in PRESETS if JOKERS_IN[p]])
def test_the_big_joker_and_little_joker_are_the_two_highest_trumps(preset):
    assert st.Rules.preset(preset).trump_order()[:2] == (st.BIG_JOKER, st.LITTLE_JOKER)


@pytest.mark.parametrize("preset", ["jokers", "bicycle"])
def test_the_ace_of_spades_drops_to_third_with_jokers(preset):
    assert st.Rules.preset(preset).trump_order()[2] == st.Card.parse("AS")


def test_classic_ace_of_spades_is_the_highest_trump():
    assert st.Rules.preset("classic").trump_order()[0] == st.Card.parse("AS")


@pytest.mark.parametrize("preset", PRESETS)
def test_every_trump_is_in_the_deck(preset):
    rules = st.Rules.preset(preset)
    assert set(rules.trump_order()) <= set(rules.deck())


@pytest.mark.parametrize("preset", PRESETS)
def test_counts_as_a_spade_for_every_card(preset):
    rules = st.Rules.preset(preset)
    trumps = set(st.cards(TRUMPS[preset]))
    for card in rules.deck():
        if card in trumps:
            assert rules.suit_of(card) == st.Suit.SPADES, card
            assert rules.is_trump(card), card
        else:
            assert rules.suit_of(card) == card.suit, card
            assert not rules.is_trump(card), card


@pytest.mark.parametrize("preset", PRESETS)
def test_counts_as_a_spade_extra_cards(preset):
    rules = st.Rules.preset(preset)
    for card in st.cards(EXTRA_SPADES[preset]):
        assert rules.suit_of(card) == st.Suit.SPADES
        assert rules.is_trump(card)


@pytest.mark.parametrize("preset", [p for p in PRESETS if JOKERS_IN[p]])
@pytest.mark.parametrize("joker", ["BJ", "LJ"])
def test_jokers_count_as_spades(preset, joker):
    rules = st.Rules.preset(preset)
    assert rules.suit_of(st.Card.parse(joker)) == st.Suit.SPADES
    assert rules.is_trump(st.Card.parse(joker))


def test_deuces_high_two_of_diamonds_counts_as_a_spade():
    rules = st.Rules.preset("deuces-high")
    two = st.Card.parse("2D")
    assert rules.suit_of(two) == st.Suit.SPADES
    assert rules.is_trump(two)
    assert two in rules.trump_order()


def test_classic_two_of_diamonds_is_a_diamond():
    rules = st.Rules.preset("classic")
    two = st.Card.parse("2D")
    assert rules.suit_of(two) == st.Suit.DIAMONDS
    assert not rules.is_trump(two)


# --- Rules is a frozen, keyword-only value -------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_rules_is_frozen(preset):
    rules = st.Rules.preset(preset)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.nil = False  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.target = 300  # type: ignore[misc]


def test_rules_is_keyword_only():
    with pytest.raises(TypeError):
        st.Rules("jokers")  # type: ignore[misc]


def test_rules_is_hashable_and_compares_by_value():
    assert st.Rules.preset("jokers") == st.Rules.preset("jokers")
    assert hash(st.Rules.preset("jokers")) == hash(st.Rules.preset("jokers"))
    assert st.Rules.preset("jokers") != st.Rules.preset("bicycle")


def test_rules_default_flags_are_the_house_rules_defaults():
    rules = st.Rules.preset("jokers")
    assert rules.nil is True
    assert rules.blind_nil == "off"
    assert rules.first_lead == "left-of-dealer"
    assert rules.failed_nil_tricks == "bags"
    assert rules.target == 500
    assert rules.mercy is None


FLAG_VALUES = [
    ("nil", False),
    ("nil", True),
    ("blind_nil", "off"),
    ("blind_nil", "behind-100"),
    ("blind_nil", "always"),
    ("first_lead", "left-of-dealer"),
    ("failed_nil_tricks", "bags"),
    ("failed_nil_tricks", "partner"),
    ("failed_nil_tricks", "none"),
    ("target", 300),
    ("target", 250),
    ("mercy", -200),
    ("mercy", None),
    ("nil_value", 50),
    ("blind_nil_value", 100),
    ("bag_limit", 5),
    ("bag_penalty", 50),
]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(("flag", "value"), FLAG_VALUES)
def test_dataclasses_replace_sets_a_house_rule_flag(preset, flag, value):
    base = st.Rules.preset(preset)
    rules = dataclasses.replace(base, **{flag: value})
    assert getattr(rules, flag) == value
    # the deck and the trumps are untouched
    assert rules.deck() == base.deck()
    assert rules.trump_order() == base.trump_order()
    assert rules.name == base.name


@pytest.mark.parametrize("preset", PRESETS)
def test_dataclasses_replace_several_flags_at_once(preset):
    rules = dataclasses.replace(
        st.Rules.preset(preset), mercy=-200, blind_nil="behind-100", failed_nil_tricks="partner", target=300
    )
    assert (rules.mercy, rules.blind_nil, rules.failed_nil_tricks, rules.target) == (-200, "behind-100", "partner", 300)


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_takes_flags(preset):
    rules = st.Rules.preset(preset, nil=False, mercy=-200)
    assert rules.nil is False and rules.mercy == -200
    assert rules.trump_order() == st.Rules.preset(preset).trump_order()


@pytest.mark.parametrize("preset", WITH_TWO_OF_CLUBS)
def test_two_of_clubs_first_lead_allowed_where_the_two_of_clubs_is_in_the_deck(preset):
    rules = dataclasses.replace(st.Rules.preset(preset), first_lead="two-of-clubs")
    assert rules.first_lead == "two-of-clubs"


@pytest.mark.parametrize("preset", WITHOUT_TWO_OF_CLUBS)
def test_two_of_clubs_first_lead_is_a_rules_error_without_the_two_of_clubs(preset):
    with pytest.raises(st.RulesError):
        dataclasses.replace(st.Rules.preset(preset), first_lead="two-of-clubs")
    with pytest.raises(st.RulesError):
        st.Rules.preset(preset, first_lead="two-of-clubs")


BAD_FLAG_VALUES = [
    ("blind_nil", "sometimes"),
    ("blind_nil", True),
    ("blind_nil", "Always"),
    ("first_lead", "dealer"),
    ("first_lead", "two-of-spades"),
    ("failed_nil_tricks", "lost"),
    ("failed_nil_tricks", None),
    ("mercy", 200),
    ("mercy", 0),
    ("target", 0),
    ("target", -500),
    ("bag_limit", 0),
]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(("flag", "value"), BAD_FLAG_VALUES)
def test_a_bad_flag_value_is_a_rules_error(preset, flag, value):
    with pytest.raises(st.RulesError):
        dataclasses.replace(st.Rules.preset(preset), **{flag: value})
    with pytest.raises(st.RulesError):
        st.Rules.preset(preset, **{flag: value})


# house-rules.md: "Flag names in `Rules`: `nil` (bool) ... `target` (500), `mercy` (`None` or a score such as −200)"
BAD_FLAG_TYPES = [
    ("nil", "no"),
    ("target", "500"),
    ("mercy", "-200"),
]


@pytest.mark.parametrize(("flag", "value"), BAD_FLAG_TYPES)
def test_a_flag_of_the_wrong_type_is_a_rules_error(flag, value):
    with pytest.raises(st.RulesError):
        dataclasses.replace(st.Rules.preset("jokers"), **{flag: value})


def test_an_unknown_house_rule_flag_is_a_rules_error():
    with pytest.raises(st.RulesError):
        st.Rules.preset("jokers", no_such_flag=True)


def test_rules_error_is_a_value_error():
    assert issubclass(st.RulesError, ValueError)


# --- serialisation -------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_rules_to_dict_from_dict_round_trip(preset):
    rules = st.Rules.preset(preset)
    again = st.Rules.from_dict(rules.to_dict())
    assert again == rules
    assert again.deck() == rules.deck()
    assert again.trump_order() == rules.trump_order()


@pytest.mark.parametrize("preset", PRESETS)
def test_rules_to_dict_from_dict_round_trip_through_json_with_flags(preset):
    rules = dataclasses.replace(
        st.Rules.preset(preset), nil=True, blind_nil="always", failed_nil_tricks="none", mercy=-200, target=300
    )
    again = st.Rules.from_dict(json.loads(json.dumps(rules.to_dict())))
    assert again == rules
    assert (again.blind_nil, again.failed_nil_tricks, again.mercy, again.target) == ("always", "none", -200, 300)
    assert again.trump_order() == rules.trump_order()


def test_rules_from_dict_rejects_unknown_fields():
    data = st.Rules.preset("jokers").to_dict()
    data["colour_of_the_table"] = "green"
    with pytest.raises(st.RulesError):
        st.Rules.from_dict(data)


# --- the rule options: Enums declared once by the engine, still given, printed and recorded as names ---

OPTIONS = {
    "blind_nil": (st.BlindNil, ("off", "behind-100", "always")),
    "first_lead": (st.FirstLead, ("left-of-dealer", "two-of-clubs")),
    "failed_nil_tricks": (st.FailedNilTricks, ("bags", "partner", "none")),
    "renege_penalty": (st.RenegePenalty, ("three-tricks", "two-tricks", "set")),
}

# a rule set as records saved it while its options were plain strings (json.dumps of to_dict())
SAVED_CLASSIC = (
    '{"name": "classic", "title": "Regular Spades", "removed": [], "jokers": false, "trumps": ["A\\u2660", '
    '"K\\u2660", "Q\\u2660", "J\\u2660", "10\\u2660", "9\\u2660", "8\\u2660", "7\\u2660", "6\\u2660", "5\\u2660", '
    '"4\\u2660", "3\\u2660", "2\\u2660"], "nil": true, "blind_nil": "behind-100", "first_lead": "two-of-clubs", '
    '"failed_nil_tricks": "partner", "renege_penalty": "set", "target": 500, "mercy": null, "trick_points": 10, '
    '"nil_value": 100, "blind_nil_value": 200, "blind_nil_behind": 100, "bag_limit": 10, "bag_penalty": 100}'
)


@pytest.mark.parametrize("flag", OPTIONS)
def test_each_rule_option_is_an_enum_of_its_names(flag):
    option, names = OPTIONS[flag]
    assert issubclass(option, st.RuleOption) and option.names() == names
    assert getattr(st.Rules(), flag) is option(names[0])  # the default is a member too
    for name in names:
        rules = st.Rules.preset("classic", **{flag: name})
        value = getattr(rules, flag)
        assert value is option(name) and value == name and str(value) == name and repr(value) == repr(name)
        assert dataclasses.replace(st.Rules.preset("classic"), **{flag: name}) == rules
        assert st.Rules.preset("classic", **{flag: option(name)}) is rules  # a member or its name: one rule set


def test_a_rule_set_with_options_prints_and_records_as_it_did_with_strings():
    rules = st.Rules.preset(
        "classic", blind_nil="behind-100", first_lead="two-of-clubs", failed_nil_tricks="partner", renege_penalty="set"
    )
    assert json.dumps(rules.to_dict()) == SAVED_CLASSIC
    assert not any(isinstance(v, st.RuleOption) for v in rules.to_dict().values())  # plain names, as JSON has them
    assert "blind_nil='behind-100', first_lead='two-of-clubs', failed_nil_tricks='partner', renege_penalty='set'" in (
        repr(rules)
    )
    loaded = st.Rules.from_dict(json.loads(SAVED_CLASSIC))
    assert loaded == rules and loaded.failed_nil_tricks is st.FailedNilTricks.PARTNER
    assert loaded.renege_penalty is st.RenegePenalty.SET and loaded.first_lead is st.FirstLead.TWO_OF_CLUBS
    assert json.dumps(loaded.to_dict()) == SAVED_CLASSIC


@pytest.mark.parametrize("flag", OPTIONS)
def test_a_record_naming_no_option_of_the_rule_is_refused_by_name(flag):
    names = OPTIONS[flag][1]
    data = json.loads(SAVED_CLASSIC)
    data[flag] = "sometimes"
    with pytest.raises(st.RecordError, match=", ".join(repr(n) for n in names)):
        st.Rules.from_dict(data)
    with pytest.raises(st.RulesError, match=f"{flag}='sometimes' is not one of {', '.join(names)}"):
        st.Rules.preset("classic", **{flag: "sometimes"})
