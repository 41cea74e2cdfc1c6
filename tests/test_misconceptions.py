"""Feedback aimed at the mistake: a wrong answer that a known wrong premise gives is named before the rule.

Each misconception's premise is the engine asked under one wrong belief (a changed rule set,
a changed position, or a named deviation on its result). These tests pin the common mistakes the README names
on positions built by hand, find every misconception in generated items of each preset where it
can arise, and check over many seeds that no other answer is ever diagnosed.
"""

from __future__ import annotations

import dataclasses
import html
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import spades_tutor as st
from spades_tutor.quiz import generate, item_from_dict, kinds
from spades_tutor.quiz.base import QuizItem
from spades_tutor.quiz.misconceptions import AnyOf, premises
from spades_tutor.ui.quiz_view import QuizView, feedback_html

JOKER_PRESETS = ("jokers", "deuces-high", "two-of-spades-third", "bicycle")
ALL = tuple(st.Rules.preset_names())
DIAGNOSED_KINDS = tuple(kinds.names())
#: kinds whose answer is a measurement (a few hundred simulated deals per item): fewer seeds
MEASURED_KINDS = ("nil-safe", "best-bid")
#: their tests are long: slow (make check leaves them to make test)
MEASURED = (pytest.mark.slow,)


# --- common mistakes, on positions built by hand ---------------------------------------------


def test_a_trump_overlooked_is_named_before_the_trick_rule() -> None:
    item = item_from_dict({"kind": "trick-winner", "preset": "jokers", "trick": "KH 3S AH 4H", "leader": "W"})
    fb = item.check("AH")
    assert not fb.correct
    assert fb.diagnosis == "That is the highest heart, but a trump was played: the 3♠ wins."
    assert fb.explanation == item.check("4H").explanation  # the rule is still given
    assert str(fb).index(fb.diagnosis) < str(fb).index(fb.explanation[0])


def test_a_forgotten_bag_penalty_is_named_with_the_bags_it_costs() -> None:
    item = item_from_dict(
        {
            "kind": "score",
            "preset": "jokers",
            "bids": {"N": 3, "E": 2, "S": 3, "W": 2},
            "tricks": {"N": 5, "E": 2, "S": 4, "W": 2},
            "bags": {"NS": 8, "EW": 0},
        }
    )
    assert item.answer()[st.Team.NS] == (60 + 3 - 100, 1)  # 8 + 3 bags reach 10: 100 off, 1 left
    fb = item.check({"NS": (63, 11), "EW": (40, 0)})
    assert fb.diagnosis is not None and fb.diagnosis.startswith("You forgot the bag penalty: 11 bags cost 100")
    assert fb.explanation


def test_a_failed_nils_tricks_counted_for_the_partner_at_a_table_that_makes_them_bags() -> None:
    position = {"bids": {"N": "nil", "E": 5, "S": 3, "W": 4}, "tricks": {"N": 2, "E": 5, "S": 2, "W": 4}}
    item = item_from_dict({"kind": "score", "preset": "jokers", **position})
    # at a table where they count for the partner, South's 2 + North's 2 make the 3 bid
    partner = dataclasses.replace(item.rules, failed_nil_tricks="partner")
    believed = st.score_hand(partner, item.bids, item.tricks)
    fb = item.check({t.short: (s.points, s.bags) for t, s in believed.items()})
    assert fb.diagnosis is not None
    assert fb.diagnosis.startswith("The failed nil's tricks do not count toward the partner's bid at this table")


def test_the_little_joker_taken_for_the_highest_trump() -> None:
    item = item_from_dict({"kind": "highest-trump", "preset": "jokers", "choices": "LJ AS BJ KH"})
    fb = item.check("LJ")
    assert fb.diagnosis is not None and fb.diagnosis.startswith("The little joker is not the highest trump")
    assert fb.answer == "BJ"


def test_leading_the_two_of_diamonds_before_spades_are_broken_in_deuces_high() -> None:
    item = item_from_dict(
        {"kind": "may-lead", "preset": "deuces-high", "hand": "2D 9D 5H KC", "card": "2D", "spades_broken": False}
    )
    assert item.answer() == "no"
    fb = item.check("yes")
    assert fb.diagnosis is not None
    assert fb.diagnosis.startswith("Spades are not broken: you may not lead the 2♦ in deuces-high")


def test_the_right_answer_and_an_unreadable_answer_get_no_diagnosis() -> None:
    item = item_from_dict({"kind": "trick-winner", "preset": "jokers", "trick": "KH 3S AH 4H", "leader": "W"})
    assert item.check("3S").diagnosis is None
    assert item.check("no such card").diagnosis is None
    assert item.check(42).diagnosis is None


def test_a_wrong_answer_no_premise_gives_gets_only_the_rule() -> None:
    # 4♥ is neither the highest heart, nor a trump, nor the highest rank shown: no premise picks it
    item = item_from_dict({"kind": "trick-winner", "preset": "jokers", "trick": "KH 3S AH 4H", "leader": "W"})
    fb = item.check("4H")
    assert not fb.correct and fb.diagnosis is None
    assert fb.explanation == (st.explain_trick(item.rules, item.trick),)


def test_a_nil_called_safe_with_the_big_joker_is_named_a_sure_trick() -> None:
    from spades_tutor.quiz.kinds.nil_safe import NilSafeItem

    item = NilSafeItem(st.Rules.preset("jokers"), hand=st.cards("BJ 3S QH 9H 8H 7H QC JC 8C 6C JD 9D 6D"))
    assert item.answer() is False  # measured: the big joker always takes a trick
    fb = item.check("yes")
    assert fb.diagnosis == (
        "This hand is sure of 1 trick whatever the others hold: a nil holding a sure trick always fails."
    )
    assert item.check("no").diagnosis is None


def test_a_nil_judged_by_its_trumps_alone_is_named_with_the_side_ace() -> None:
    from spades_tutor.quiz.kinds.nil_safe import NilSafeItem

    item = NilSafeItem(st.Rules.preset("jokers"), hand=st.cards("3S 2S AH 5H 3H 8C 6C 4C 2C 9D 7D 5D 3D"))
    assert item.answer() is False
    fb = item.check("yes")
    assert fb.diagnosis == "Low trumps are not all a nil needs: A♥ wins any heart trick unless someone trumps it."


def test_a_bid_of_the_sure_tricks_alone_or_of_the_sides_tricks_is_named() -> None:
    from spades_tutor.quiz.kinds.best_bid import BestBidItem

    item = BestBidItem(st.Rules.preset("jokers"), hand=st.cards("BJ AS KS 5S AH KH 3H 8C 6C 4C 9D 7D 5D"))
    sure = st.sure_trick_count(item.rules, item.hand)
    assert sure not in item.accepted()
    assert (item.check(str(sure)).diagnosis or "").startswith("You bid only the sure tricks")
    side = round(sum(k * n for k, n in enumerate(item.odds().team_tricks)) / item.odds().deals)
    assert side not in item.accepted()
    assert (item.check(str(side)).diagnosis or "").startswith("That is about what your side takes together")
    for bid in item.accepted():
        assert item.check(str(bid)).diagnosis is None


# --- every misconception, found in generated items of each preset where it can arise -------------

#: misconception -> the presets (with house rules where it needs them) where it can arise;
#: per kind, only the misconceptions the kind lists
HOUSE = {
    "failed-nil-bags": [("jokers", {"failed_nil_tricks": "partner"}), ("classic", {"failed_nil_tricks": "none"})],
    "blind-nil-as-nil": [(p, {"blind_nil": "always"}) for p in ("jokers", "classic")],
    "mercy-forgotten": [(p, {"mercy": -200}) for p in ("jokers", "classic")],
    "left-of-dealer-at-two-of-clubs-table": [
        (p, {"first_lead": "two-of-clubs"}) for p in ("jokers", "two-of-spades-third", "classic")
    ],
}
WHERE = {
    "jokers-swapped": JOKER_PRESETS,
    "deuce-as-diamond": ("deuces-high",),
    "two-of-spades-low": ("deuces-high", "two-of-spades-third"),
    "ace-of-spades-highest": JOKER_PRESETS,
    "jokers-wild": JOKER_PRESETS,
    "joker-led-unbroken": JOKER_PRESETS,
    "only-trumps": ("jokers", "deuces-high", "two-of-spades-third"),
    "natural-spades-only": JOKER_PRESETS,
    "regular-deck": JOKER_PRESETS,
    # measured kinds: each item costs a simulation, so three rule sets, jokers and not
    "sure-trick-nil": ("jokers", "deuces-high", "classic"),
    "trumps-only-for-nil": ("jokers", "deuces-high", "classic"),
    "one-card-sinks-nil": ("jokers", "classic"),
    "sure-tricks-only": ("jokers", "deuces-high", "classic"),
    "every-high-card": ("deuces-high", "classic"),
    "side-tricks": ("jokers", "deuces-high", "classic"),
    "nil-missed": ("jokers", "deuces-high", "classic"),
    "nil-without-sure-trick": ("jokers", "deuces-high", "classic"),
}
#: words each diagnosis must say (the misconception named in the game's words)
SAYS = {
    "ignores-trumps": r"^That is the highest (heart|club|diamond), but a trump was played: the .+ wins\.$",
    "jokers-swapped": r"^The little joker is not the highest trump: (the big joker is higher|a higher trump is still out, and it can take it)\.$",
    "deuce-as-diamond": r"2♦ (is a trump, not a diamond|in deuces-high, where it counts as a spade)",
    "two-of-spades-low": r"^The 2♠ is not the lowest trump here: it is the (second|third|fourth)-highest trump\.$",
    "ace-of-spades-highest": r"^The A♠ is not the highest trump here: it is the (third|fourth|fifth)-highest trump\.$",
    "side-ace-trump": r"^A side ace is not a trump",
    "first-trump-wins": r"was beaten by a higher trump",
    "discard-wins": r"cannot win: it is neither a \w+ \(the suit led\) nor a trump",
    "lowest-first": r"highest trump comes first",
    "jokers-wild": r"counts as a spade, not a \w+: it may not be played",
    "ignores-follow-suit": r"^You must follow suit: ",
    "must-trump": r"you may play any card: you need not trump\.$",
    "ignores-unbroken-spades": r"^Spades are not broken: you may not lead ",
    "thinks-unbroken": r"^Spades are broken",
    "only-trumps": r"^You hold nothing but trumps, so you may lead one",
    "no-bag-penalty": r"^You forgot the bag penalty: \d+ bags cost 100",
    "failed-nil-bags": r"^At this table the failed nil's tricks are not bags for the team: they (count toward|are ignored)",
    "failed-nil-partner": r"^The failed nil's tricks do not count toward the partner's bid at this table",
    "failed-nil-none": r"^At this table the failed nil's tricks are not ignored: they (count toward|are bags)",
    "bags-at-trick-value": r"^An overtrick is a bag worth 1 point, not 10",
    "nil-forgotten": r"^You left out the nil: a nil made scores 100, a nil failed costs 100\. It shows in the (North–South|East–West) points box\.$",
    "blind-nil-as-nil": r"^A blind nil is worth 200, not 100",
    "high-trumps-sure": r"^Not all of .* are sure: (a higher trump is|\d+ higher trumps are) still out, and (it|each) can take one of them\.$",
    "side-aces-sure": r"^A side ace is not a sure trick",
    "run-from-top-only": r"^More than the run from the top is sure",
    "every-trump-sure": r"^Not every trump is sure",
    "leader-leads-again": r"^The winner of a trick leads the next one",
    "dealer-leads": r"^The dealer does not lead",
    "deal-stays": r"^The deal passes left",
    "deal-passes-right": r"^The deal passes left, not right",
    "left-of-dealer-at-two-of-clubs-table": r"opens with the 2♣",
    "target-must-be-passed": r"^Reaching the target is enough",
    "mercy-forgotten": r"loses at once \(the mercy rule\)",
    "below-zero-loses": r"without the mercy rule",
    "natural-spades-only": r"(counts as a spade here, so it is a trump|count as spades here, so they are trumps) too\.$",
    "regular-deck": r"^This is not a regular deck",
    "trumps-instead-of-following": r"^You must follow suit while you hold an? [a-z]+: playing (the|a trump) .* instead of .* is a renege\.$",
    "joker-led-unbroken": r"counts as a spade: it may not be led before spades are broken\.$",
    "side-card-waits": r"is not a trump: a side card may be led whether spades are broken or not\.$",
    "sure-trick-nil": r"^This hand is sure of \d+ tricks? whatever the others hold: a nil holding a sure trick always fails\.$",
    "trumps-only-for-nil": r"^Low trumps are not all a nil needs: [AK][♥♣♦] ",
    "one-card-sinks-nil": r"^A card that looks dangerous does not sink this nil by itself: the computer players made it (in about \d+%|almost)",
    "sure-tricks-only": r"^You bid only the sure tricks: .* took \d+\.\d tricks on average",
    "every-high-card": r"^Not every ace, king and high trump is a trick",
    "side-tricks": r"^That is about what your side takes together \(\d+\.\d tricks on average\): bid your own",
    "nil-missed": r"^This hand is worth more as a nil: the bots made the nil (in about \d+% of the deals|almost (never|always)) \(.*\), [+−]\d+ points",
    "nil-without-sure-trick": r"^Holding no sure trick does not make a nil pay: the bots made this nil (in about \d+% of|almost)",
}


def _tables(name: str) -> list[tuple[str, dict[str, Any]]]:
    if name in HOUSE:
        return HOUSE[name]
    return [(p, {}) for p in WHERE.get(name, ALL)]


CASES = [
    pytest.param(kind, m.name, preset, flags, id=f"{kind}-{m.name}-{preset}{'+house' if flags else ''}")
    for kind in DIAGNOSED_KINDS
    for m in kinds.get(kind).misconceptions
    for preset, flags in _tables(m.name)
    # these beliefs change nothing the kind asks in that preset
    if not (m.name == "ace-of-spades-highest" and kind == "first-leader" and preset == "jokers")
]


def _first_diagnosed(item: QuizItem, name: str) -> Any:
    """The answer the misconception ``name`` gives, if it is the first of the kind's list to give it."""
    right = item.given(item.answer())
    earlier: list[Any] = []
    for m in item.misconceptions:
        wrong = m.premise(item)
        if isinstance(wrong, AnyOf):  # several answers: the first (in a stable order) not already named
            options = sorted((a for a in wrong.answers if a != right and a not in earlier), key=repr)
            if m.name == name:
                return options[0] if options else None
            earlier.extend(options)
            continue
        if m.name == name:
            return wrong if wrong is not None and wrong != right and wrong not in earlier else None
        if wrong is not None and wrong != right:
            earlier.append(wrong)
    raise AssertionError(f"{name} is not a misconception of {item.kind}")


def _response(item: QuizItem, given: Any) -> Any:
    """An answer as a learner gives it, from the form the kind compares."""
    if isinstance(given, (tuple, frozenset)):
        return " ".join(str(c) for c in given)
    if isinstance(given, dict):
        return {t.short: {"points": p, "bags": b} for t, (p, b) in given.items()}
    return given


def test_every_kind_with_common_mistakes_has_a_catalogue() -> None:
    counts = {k: len(kinds.get(k).misconceptions) for k in DIAGNOSED_KINDS}
    assert all(n >= 3 for k, n in counts.items() if k not in ("game-winner",)), counts
    assert counts["game-winner"] >= 2
    assert sum(counts.values()) >= 40


@pytest.mark.parametrize(
    ("kind", "name", "preset", "flags"),
    [pytest.param(*c.values, id=c.id, marks=MEASURED if c.values[0] in MEASURED_KINDS else ()) for c in CASES],
)
def test_each_misconception_turns_up_and_is_named(kind: str, name: str, preset: str, flags: dict[str, Any]) -> None:
    rules = st.Rules.preset(preset, **flags)
    (m,) = [m for m in kinds.get(kind).misconceptions if m.name == name]
    for seed in range(600):
        item = generate(kind, rules, seed, difficulty=seed % 3 + 1)
        wrong = _first_diagnosed(item, name)
        if wrong is None:
            continue
        fb = item.check(_response(item, wrong))
        assert not fb.correct
        # the words each belief of the built-in kinds must say; a kind added since, its own sentence
        said = SAYS.get(name) or f"^{re.escape(m.says(item))}$"
        assert fb.diagnosis is not None and re.search(said, fb.diagnosis), (seed, fb.diagnosis)
        assert fb.explanation, "the rule is still given"
        assert item.check(_response(item, item.given(item.answer()))).diagnosis is None
        return
    pytest.fail(f"{name} never arose for {kind} in {preset} {flags}")


# --- over many seeds: a diagnosis only for an answer a premise gives ----------------------------------


def _candidates(item: QuizItem, rng: random.Random) -> Iterator[Any]:
    """Answers a learner might give (right, wrong, and what each premise gives), as responses."""
    right = item.given(item.answer())
    yield _response(item, right)
    for wrong in premises(item).values():
        if isinstance(wrong, AnyOf):
            yield from (_response(item, a) for a in wrong.answers)
        elif wrong is not None:
            yield _response(item, wrong)
    yield from item.likely_answers(rng)  # the kind's own: its cards, its options, numbers near the answer


@pytest.mark.parametrize(
    "kind", [pytest.param(k, marks=MEASURED) if k in MEASURED_KINDS else k for k in DIAGNOSED_KINDS]
)
def test_a_diagnosis_is_only_given_for_an_answer_a_premise_gives(kind: str) -> None:
    rng = random.Random(f"misconceptions/{kind}")
    tables = [st.Rules.preset(p) for p in ALL] + [st.Rules.preset("jokers", **f) for _, f in HOUSE_FLAGS]
    diagnosed = 0
    for seed in range(24 if kind in MEASURED_KINDS else 200):
        rules = tables[seed % len(tables)]
        item = generate(kind, rules, seed, difficulty=seed % 3 + 1)
        right = item.given(item.answer())
        given_by = {name: wrong for name, wrong in premises(item).items() if wrong is not None and wrong != right}
        for response in _candidates(item, rng):
            fb = item.check(response)
            answer = item.given(response)
            if fb.correct:
                assert fb.diagnosis is None
                continue
            named = [
                m
                for m in item.misconceptions
                if m.name in given_by
                and (
                    answer in given_by[m.name].answers
                    if isinstance(given_by[m.name], AnyOf)
                    else given_by[m.name] == answer
                )
            ]
            if kind == "score" and answer is not None:  # a wrong score always names its wrong boxes
                assert fb.diagnosis is not None
                boxes = re.findall(r"(?i:the) (North–South|East–West) (points|“bags after”) box", fb.diagnosis)
                wrong = {
                    (t.label, "points" if i == 0 else "“bags after”")
                    for t in st.Team
                    for i in (0, 1)
                    if answer[t][i] != right[t][i]
                }
                assert set(boxes) == wrong, (seed, response, fb.diagnosis)
            if named:  # a premise gives it: the first such misconception is named
                assert fb.diagnosis is not None and fb.diagnosis.startswith(named[0].says(item)), (seed, response)
                diagnosed += 1
            elif kind != "score" or answer is None:
                assert fb.diagnosis is None, (seed, response, fb.diagnosis)
            assert fb.explanation
    assert diagnosed > 0


HOUSE_FLAGS = [
    ("partner", {"failed_nil_tricks": "partner"}),
    ("blind", {"blind_nil": "always", "mercy": -200, "first_lead": "two-of-clubs"}),
]


# --- on screen: the diagnosis is its own line, before the explanation -------------------------------


def test_the_quiz_view_shows_the_diagnosis_first_on_its_own_line() -> None:
    item = item_from_dict({"kind": "highest-trump", "preset": "jokers", "choices": "LJ AS BJ KH"})
    view = QuizView(item)
    assert view.picker is not None
    view.picker.selected = ["LJ"]
    fb = view.check()
    assert fb is not None and fb.diagnosis
    shown = view.result.value
    line = re.search(r'<p class="st-fb-diagnosis">([^<]*)</p>', shown)
    assert line is not None and line.group(1) == fb.diagnosis
    assert shown.index("st-fb-diagnosis") < shown.index(fb.explanation[0])
    right = feedback_html(item.check("BJ"))
    assert "st-fb-diagnosis" not in right and "st-fb-diagnosis" not in feedback_html(item.check("KH"))


def test_a_first_miss_names_the_mistake_but_not_the_answer_and_the_second_try_can_still_be_right() -> None:
    item = item_from_dict({"kind": "trick-winner", "preset": "jokers", "trick": "KH 3S AH 4H", "leader": "W"})
    missed = item.check("AH")
    assert missed.diagnosis and "3♠" in missed.diagnosis  # the whole sentence names the winner
    view = QuizView(item, retries=1)
    assert view.picker is not None
    view.picker.selected = ["A♥"]
    assert view.check() is None and view.retrying  # a first miss: try again
    shown = view.result.value
    line = re.search(r'<p class="st-fb-diagnosis">([^<]*)</p>', shown)
    assert line is not None and line.group(1) == html.escape(missed.diagnosis.split(": ")[0]) + "."
    assert "3♠" not in shown and "try again" in shown  # the mistake is named, the answer is not given
    view.picker.selected = ["3♠"]
    second = view.check()
    assert second is not None and second.correct and view.tries == 2
    assert "Right on the second try" in view.result.value
