"""The learner's data below the widgets: ``spades_tutor.session`` is plain data that loads, checks,
saves and exports a learner's record, the classroom hand and a class's database, without ipywidgets, plotly or any of
``spades_tutor.ui``. A record saved in the browser comes back as it was, settings included.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import spades_tutor
from spades_tutor.engine import BlindNil, Rules
from spades_tutor.session import Answer, ClassroomHand, Progress, Settings

ROOT = Path(spades_tutor.__file__).resolve().parents[1]

# run in a fresh interpreter: this one has imported the widgets for other tests already
ISOLATION = """
import sys
import spades_tutor.session as s
assert s.__file__.startswith(sys.argv[1]), s.__file__

p = s.Progress()
p.record("score", "jokers", "score:jokers:1", True, when=10.0)
p.reach("the-deck", 2)
back = s.Progress.from_json(p.to_json())
assert back == p and not back.notes
assert back.to_csv().startswith("time,kind,preset,item,correct,source,try")
assert back.mastery_csv().startswith("kind,level,box")
hand = s.ClassroomHand.from_deal_id(back.settings.rules(), "4127W")
assert hand.answer(5)[0]
assert s.merge(p, back) == p
assert s.read_deal_id(" 4127w ") == "4127W"
from spades_tutor.session.class_room import grid, question
from spades_tutor.session.class_store import ClassStore
store = ClassStore("sqlite://")  # a class's database, in memory
session = store.start_session()
seat = store.join(session, "Ada")
store.record(session, seat.id, lesson=1, step=0, kind="k", item_key="q", answer="a", right_answer="a", correct=True,
             attempt=1)
assert grid(store.learners(session), store.answers(session), 1, 2, now=0.0)[0][1][0].result == "first"
assert question(store.answers(session), 1, 0).total == 1 and store.csv(session).count("\\n") == 2

loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("ipywidgets", "plotly", "anywidget", "traitlets"))
loaded += sorted(m for m in sys.modules if m == "spades_tutor.ui" or m.startswith("spades_tutor.ui."))
print(" ".join(loaded))
"""


def test_session_imports_no_widgets_and_nothing_of_the_ui() -> None:
    """Loading, saving, merging and exporting a record, and playing out a classroom hand, import
    neither the widgets nor any module of ``spades_tutor.ui``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", ISOLATION, str(ROOT)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []


def a_record() -> Progress:
    """A record with every part set: answers from each place and try, lessons, settings, times."""
    p = Progress()
    p.record("score", "jokers", "score:jokers:1", True, when=1_700_000_000.0)
    p.record("nil-safe", "jokers", "nil-safe:jokers:ab12", False, when=1_700_000_005.5, source="lesson")
    p.record("nil-safe", "jokers", "nil-safe:jokers:ab12", True, when=1_700_000_006.0, source="lesson", attempt=2)
    p.record("trick-winner", "classic", "trick-winner:classic:9", True, when=1_700_000_010.0, source="review")
    p.reach("following-suit", 3)
    p.reach("the-deck", 0)
    p.settings = Settings(
        preset="classic", nil=False, blind_nil="behind-100", mercy=True, four_colour=True, large=True, quiz_level=3
    )
    p.settings.retries = 0
    p.settings.practice_from = 1_700_000_005.5
    p.settings_time = 1_700_000_020.25
    p.reset_at = 1_699_999_000.0
    return p


def test_progress_round_trips_through_its_stored_json() -> None:
    p = a_record()
    text = p.to_json()
    stored = json.loads(text)
    assert stored["format"] == "spades-tutor/progress" and stored["version"] == 1
    assert stored["settings"] == {
        "preset": "classic",
        "nil": False,
        "blind_nil": "behind-100",
        "mercy": True,
        "four_colour": True,
        "large": True,
        "quiz_level": 3,
        "retries": 0,
        "practice_from": 1_700_000_005.5,
    }
    assert stored["lessons"] == {"following-suit": 3, "the-deck": 0}
    assert [row[5:7] for row in stored["answers"]] == [["quiz", 1], ["lesson", 1], ["lesson", 2], ["review", 1]]
    back = Progress.from_json(text)
    assert back == p
    assert back.notes == []
    assert (back.settings_time, back.reset_at) == (p.settings_time, p.reset_at)
    assert all(isinstance(a, Answer) for a in back.answers)
    assert [a.id for a in back.answers] == [a.id for a in p.answers]
    assert back.to_json() == text  # saved again, byte for byte the same
    assert (back.correct, back.first_try, back.second_try, back.streak) == (3, 2, 1, 2)


@pytest.mark.parametrize("preset", Rules.preset_names())
@pytest.mark.parametrize("blind_nil", ["off", "behind-100", "always"])
def test_settings_round_trip_and_make_their_rules(preset: str, blind_nil: str) -> None:
    s = Settings(preset=preset, blind_nil=blind_nil, mercy=True, quiz_level=2, retries=0)
    notes: list[str] = []
    back = Settings.from_data(json.loads(json.dumps(dataclasses.asdict(s))), notes)
    assert back == s and notes == []
    rules = back.rules()
    assert rules == Rules.preset(preset, nil=True, blind_nil=blind_nil, mercy=-200)


def test_settings_the_app_does_not_offer_are_left_at_their_defaults_and_named() -> None:
    notes: list[str] = []
    s = Settings.from_data({"preset": "nope", "blind_nil": "sometimes", "retries": True, "quiz_level": 2}, notes)
    assert s == Settings(quiz_level=2)
    assert notes == [
        "Some saved settings could not be read (rule set, blind nil, second try), so the usual ones are used there."
    ]


def test_a_classroom_hand_is_plain_data_of_the_session() -> None:
    hand = ClassroomHand.from_deal_id(Rules.preset("jokers"), "4127W")
    assert hand.deal_id == "4127W" and len(hand.steps) == 57
    assert type(hand).__module__ == "spades_tutor.session.classroom"
    played = hand.round_at(len(hand.steps) - 1)
    assert played.is_over and len(played.tricks) == 13
    assert not hand.round_at(0).tricks and hand.round_at(0).hands == hand.dealt.hands


def test_stored_blind_nil_is_read_as_the_engines_option() -> None:
    for name in ("off", "behind-100", "always"):
        s = Settings.from_data({"blind_nil": name})
        assert s.blind_nil is BlindNil(name) and s.blind_nil == name
        assert json.loads(Progress(settings=s).to_json())["settings"]["blind_nil"] == name
    assert Settings().blind_nil is BlindNil.OFF
