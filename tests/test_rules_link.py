"""The whole rule set in one ``rules=`` link value, and stored house rules: read back exactly, and
anything hostile refused with a note and the usual rules, nothing else lost."""

from __future__ import annotations

import pytest

from spades_tutor.engine import Rules
from spades_tutor.session.settings import HOUSE_FLAGS, LINK_CODES, RulesLinkError, Settings
from spades_tutor.ui.app import read_query

LESSONS = {0: 3, 9: 5}


def test_every_engine_flag_has_a_link_code_and_a_setting() -> None:
    import dataclasses

    flags = {f.name for f in dataclasses.fields(Rules) if f.init} - {"name", "title", "removed", "jokers", "trumps"}
    assert flags == set(LINK_CODES)
    assert set(HOUSE_FLAGS) == flags - {"nil", "blind_nil"}


def test_a_non_default_rule_set_round_trips() -> None:
    s = Settings(preset="bicycle", nil=False, house={"target": 300, "bag_limit": 5, "min_team_bid": 4})
    s.house.update(ten_bid_bonus=50, renege_penalty="set", mercy=-300)
    s.mercy = True
    link = s.to_link()
    assert link == "1.bicycle.n0.t300.m-300.bl5.mb4.tb50.rp2"
    back = Settings.from_link(link)
    assert back.rules() == s.rules()
    rules = back.rules()
    assert (rules.target, rules.nil, rules.bag_limit, rules.min_team_bid, rules.ten_bid_bonus) == (300, False, 5, 4, 50)


def test_the_link_sets_the_whole_rule_set() -> None:
    out, notes = read_query("page=learn&lesson=9&rules=1.jokers.t300.n0.bl5.mb4.tb50", lessons=LESSONS)
    assert notes == []
    assert out["rules"] == "1.jokers.n0.t300.bl5.mb4.tb50" and out["preset"] == "jokers"


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("2.jokers.t300", "version"),
        ("1.nope.t300", "rule set is not one of"),
        ("1.jokers.zz5", "not a rule it knows"),
        ("1.jokers.t0", "not a rule set the game can play"),
        ("1.jokers.t99999999", "whole number"),
        ("1.jokers.bl500", "not a rule set the game can play"),
        ("1.jokers.n2", "nil is 0"),
        ("1.jokers.rp9", "choice from 0 to 2"),
        ("1.jokers.t300.t400", "twice"),
        ("1.jokers.t", "whole number"),
        ("1.jokers.t3-0", "whole number"),
        ("1.bicycle.fl1", "not a rule set the game can play"),  # the 2♣ leads, but it is out of the deck
        ("1.jokers." + "t300." * 40, "longer than"),
    ],
)
def test_a_bad_rules_value_gets_a_note_and_the_usual_rules(value: str, why: str) -> None:
    with pytest.raises(RulesLinkError, match=why):
        Settings.from_link(value)
    out, notes = read_query(f"rules={value}", lessons=LESSONS)
    assert out["rules"] == "1.jokers" and out["preset"] == "jokers"
    assert len(notes) == 1 and "could not be read" in notes[0] and "usual rules" in notes[0]
    assert Settings.from_link(out["rules"]).rules() == Rules.preset("jokers")
    out, notes = read_query(f"preset=classic&rules={value}", lessons=LESSONS)  # the preset asked for is kept
    assert out["rules"] == "1.classic" and out["preset"] == "classic" and len(notes) == 1


def test_stored_house_rules_are_checked() -> None:
    good = Settings.from_data({"preset": "jokers", "house": {"target": 300, "ten_bid_bonus": 100}})
    assert good.rules().target == 300 and good.rules().ten_bid_bonus == 100
    for hostile in (
        {"target": "300"},
        {"target": 0},
        {"no_such": 1},
        {"renege_penalty": "never"},
        {"bag_limit": True},
        ["target", 300],
        {"first_lead": "two-of-clubs"},  # with bicycle, the 2♣ is out
    ):
        notes: list[str] = []
        s = Settings.from_data({"preset": "bicycle", "quiz_level": 2, "house": hostile}, notes)
        assert s.house == {} and s.preset == "bicycle" and s.quiz_level == 2, hostile
        assert notes and "house rules" in notes[0]
