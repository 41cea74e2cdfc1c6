"""Every lesson file checked against the engine, and the lesson format's parser and validator.

The lessons teach joker-spades-rules.txt; the tips quoted below are its section
"Tips from the table", word for word.
"""

from __future__ import annotations

import contextlib
import dataclasses
import html
import re
import sys
import types
from pathlib import Path

import pytest

import spades_tutor as st
from spades_tutor import Seat, Team
from spades_tutor.engine.text import number as in_words
from spades_tutor.lessons import (
    ANY,
    Block,
    Lesson,
    LessonError,
    lessons_dir,
    load_lesson,
    load_lessons,
    parse_lesson,
    validate_lesson,
)

C = st.Card.parse
LESSON_FILES = sorted(p for p in lessons_dir().iterdir() if re.match(r"^\d+-.*\.md$", p.name))


def _loadable() -> tuple[Lesson, ...]:
    """The lessons that load (a malformed file fails its own test below, not the whole module)."""
    out = []
    for path in LESSON_FILES:
        with contextlib.suppress(LessonError):
            out.append(load_lesson(path))
    return tuple(sorted(out, key=lambda lesson: lesson.number))


LESSONS = _loadable()
BY_NUMBER = {lesson.number: lesson for lesson in LESSONS}
PRESETS = st.Rules.preset_names()

# joker-spades-rules.txt, "Tips from the table" (each with the phrase a lesson must carry)
TIPS = {
    "Bid the big joker as a sure trick. The little joker is nearly as safe, but it can lose to the big joker, "
    "so be a touch more careful with it.": "bid the big joker as a sure trick",
    "With 15 trumps in the deck, side suits run out sooner. A king in a side suit is less likely to win than in "
    "regular Spades, so bid it more cautiously.": "side suits run out sooner",
    "Never bid nil holding the big joker. Nothing can beat it, so it is sure to take a trick.": (
        "never bid nil holding the big joker"
    ),
    "Once spades are broken, leading a joker early can pull two or three trumps from the other players and clear "
    "the way for your partner's side-suit winners.": "leading a joker early can pull two or three trumps",
}
# where each tip belongs: the lesson that teaches its subject
TIP_LESSON = {
    "bid the big joker as a sure trick": 6,
    "side suits run out sooner": 6,
    "never bid nil holding the big joker": 7,
    "leading a joker early can pull two or three trumps": 4,
}


def text_of(lesson: Lesson, kinds: tuple[str, ...] = ("markdown", "tip")) -> str:
    """The lesson's prose (and tips) as shown in its own preset, flattened for phrase matching."""
    parts = [lesson.title, lesson.summary_in(lesson.rules())]
    for step in lesson.steps:
        parts.append(step.title)
        parts.extend(b.text_in(lesson) for b in step.blocks if b.kind in kinds)
        parts.extend(b.label_in(lesson) for b in step.blocks if b.label)
    return re.sub(r"\s+", " ", " ".join(parts)).replace("’", "'")


def quiz_blocks(lesson: Lesson, kind: str | None = None) -> list[Block]:
    return [b for b in lesson.blocks("quiz") if kind is None or b.quiz_kind == kind]


def all_quiz_cases() -> list[tuple[Lesson, Block, st.Rules]]:
    return [(lesson, b, rules) for lesson in LESSONS for b in lesson.blocks("quiz") for rules in b.rule_sets(lesson)]


def case_id(case: tuple[Lesson, Block, st.Rules]) -> str:
    lesson, block, rules = case
    return f"{lesson.path.name}:{block.line}:{rules.name}"


# --- the real lessons -----------------------------------------------------------------------


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda path: path.name)
def test_every_lesson_loads_and_validates(path: Path) -> None:
    lesson = load_lesson(path)  # a LessonError names the file and line
    assert validate_lesson(lesson) == []
    assert load_lesson(path) == lesson  # loading is deterministic


def test_load_lessons_reads_them_all_in_order() -> None:
    assert load_lessons() == LESSONS and len(LESSONS) == len(LESSON_FILES) >= 12


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.path.name)
def test_every_lesson_is_a_few_short_steps_with_a_quiz(lesson: Lesson) -> None:
    assert 3 <= len(lesson.steps) <= 6
    assert lesson.summary and "\n" not in lesson.summary
    assert quiz_blocks(lesson), "each lesson has at least one quiz"
    for step in lesson.steps:
        assert step.title and step.blocks
    pictures = {"hand", "hands", "trick", "trumps", "deck", "compare", "score", "game", "play"}
    assert any(b.kind in pictures for b in lesson.blocks()), "illustrated, not only prose"


def test_lessons_0_to_11_exist_in_order_with_their_topics() -> None:
    numbers = [lesson.number for lesson in LESSONS]
    assert numbers[:12] == list(range(0, 12)) and numbers == sorted(set(numbers))
    topics = {
        0: ("two teams", "bids", "trick", "clockwise", "suit led", "trump", "leads the next", "wins the game"),
        1: ("deck", "jokers", "52", "13"),
        2: ("trump", "regular spades"),
        3: ("follow suit", "trumping", "discard", "spade lead"),
        4: ("broken", "leading a joker", "nothing but trumps"),
        5: ("wins", "highest trump", "suit led"),
        6: ("bid", "team contract", "sure trick", "little joker", "side king"),
        7: ("nil", "blind nil", "big joker"),
        8: ("made", "set", "bag", "10", "100", "nil"),
        9: ("500", "both", "higher score", "another hand", "−200"),
        10: ("deuces high", "two of spades third", "no nil"),
        11: ("trick", "bidding", "score"),
    }
    for number, words in topics.items():
        text = text_of(BY_NUMBER[number]).lower()
        for word in words:
            assert word in text, f"lesson {number} should speak of {word!r}"


# who leads the first trick changes with a house rule, allowed where the 2♣ is in the deck
FIRST_LEAD_RULE_SETS = [
    st.Rules.preset(name, **flags)
    for name in PRESETS
    for flags in ({}, {"first_lead": "two-of-clubs"})
    if not flags or C("2C") in st.Rules.preset(name).deck()
]


@pytest.mark.parametrize("rules", FIRST_LEAD_RULE_SETS, ids=lambda rules: f"{rules.name}-{rules.first_lead}")
def test_lesson_0_says_who_leads_the_first_trick_as_the_engine_plays_it(rules: st.Rules) -> None:
    """'The player left of the dealer leads first' (or the 2♣ holder, where the table opens with it)."""
    from spades_tutor.ui.lesson_player import LessonPlayer

    lesson = BY_NUMBER[0]
    for block in lesson.blocks():  # the whole lesson holds in this rule set, the house rule included
        if block.adaptive:
            block.spec.check(block.resolved_in(lesson, rules))
    deals = [b for b in lesson.blocks("hands") if b.value(lesson, "first_lead", False)]
    assert deals, "lesson 0 shows who leads the first trick of a deal"
    for block in deals:
        seat, sentence = block.resolve(lesson, rules).first_leader()
        # the same deal bid through by the engine: the seat it then asks to lead
        rnd = st.Round.from_deal_id(rules, block.options["deal"])
        while rnd.phase is st.Phase.BIDDING:
            rnd.bid(3)
        assert rnd.to_act == seat and seat.label in sentence
        if rules.first_lead == "two-of-clubs":
            assert C("2C") in rnd.dealt[seat] and "2♣" in sentence
        else:
            assert seat == rnd.dealer.left and "2♣" not in sentence
        # the player shows that sentence on the step
        step = next(i for i, s in enumerate(lesson.steps) if block in s.blocks)
        player = LessonPlayer(lesson, rules, step=step)
        assert any(html.escape(sentence) in getattr(child, "value", "") for child in player.body.children)
    quiz = next(b for b in quiz_blocks(lesson, "first-leader") if b.options.get("question") == "first")
    item = quiz.quiz_item(lesson, rules)
    dealer, holder = quiz.value(lesson, "dealer"), quiz.value(lesson, "two_of_clubs")
    assert item.answer() == (holder if rules.first_lead == "two-of-clubs" else dealer.left).label


def test_lesson_0_deals_a_hand_where_the_house_rule_changes_who_leads() -> None:
    lesson = BY_NUMBER[0]
    for block in lesson.blocks("hands"):
        if block.value(lesson, "first_lead", False):
            usual = block.resolve(lesson, st.Rules.preset("jokers")).first_leader()[0]
            clubs = block.resolve(lesson, st.Rules.preset("jokers", first_lead="two-of-clubs")).first_leader()[0]
            assert usual != clubs


def test_lesson_1_the_deck() -> None:
    lesson, rules = BY_NUMBER[1], st.Rules.preset("jokers")
    text = text_of(lesson)
    assert len(rules.deck()) == 52 and "52 cards" in text
    assert "13" in text and len(rules.deck()) // 4 == 13
    assert [str(c) for c in rules.removed] == ["2♥", "2♦"]
    assert "two of hearts" in text and "two of diamonds" in text and "both jokers" in text
    (deck,) = lesson.blocks("deck")
    assert deck.adaptive
    # the adaptive deal re-deals from whichever deck the teacher picked
    (hands,) = lesson.blocks("hands")
    for name in PRESETS:
        picked = st.Rules.preset(name)
        dealt = hands.hands(lesson, picked)
        assert sorted(c for h in dealt.values() for c in h) == sorted(picked.deck())


def test_lesson_2_trump_order_matches_the_engine() -> None:
    lesson = BY_NUMBER[2]
    jokers, classic = st.Rules.preset("jokers"), st.Rules.preset("classic")
    text = text_of(lesson)
    assert len(jokers.trump_order()) == 15 and "15 trumps" in text
    assert f"{len(classic.trump_order())} trumps" in text
    assert jokers.trump_position(C("AS")) == "the third-highest trump" and "**third**" in text
    (trumps,) = lesson.blocks("trumps")
    assert trumps.adaptive
    # switching the app to deuces-high visibly changes the trump order shown in lesson 2
    shown = {name: trumps.rules(lesson, st.Rules.preset(name)).trump_order() for name in PRESETS}
    assert shown["jokers"][:3] == st.cards("BJ LJ AS")
    assert shown["deuces-high"][:4] == st.cards("BJ LJ 2D 2S") and len(shown["deuces-high"]) == 16
    assert len({tuple(order) for order in shown.values()}) >= 4
    (compare,) = lesson.blocks("compare")
    assert [r.name for r in compare.compared(lesson)] == ["classic", "jokers"]
    # the adaptive quiz's answer changes with the rule set picked
    (adaptive,) = [b for b in quiz_blocks(lesson, "highest-trump") if b.adaptive and "2S" in b.options["choices"]]
    answers = {str(adaptive.quiz_item(lesson, st.Rules.preset(n)).answer()) for n in PRESETS}
    assert answers == {"A♠", "2♠"}


def test_lesson_3_has_fixed_legal_plays_quizzes_including_jokers_following_spades() -> None:
    lesson = BY_NUMBER[3]
    fixed = [b for b in quiz_blocks(lesson, "legal-plays") if not b.generated]
    assert fixed
    items = [b.quiz_item(lesson) for b in fixed]
    # a joker follows a spade lead
    assert any(
        item.trick and item.rules.suit_of(item.trick[0]) == st.Suit.SPADES and any(c.is_joker for c in item.answer())
        for item in items
    )
    # a joker does not follow a side-suit lead
    assert any(
        item.trick and any(c.is_joker for c in item.hand) and not any(c.is_joker for c in item.answer())
        for item in items
    )
    # out of the suit: anything goes (a trump or a discard)
    assert any(item.trick and set(item.answer()) == set(item.hand) for item in items)


def test_lesson_4_breaking_spades_and_the_only_trumps_exception() -> None:
    lesson, rules = BY_NUMBER[4], st.Rules.preset("jokers")
    items = [b.quiz_item(lesson) for b in quiz_blocks(lesson, "legal-plays")]
    leads = [i for i in items if not i.trick]
    assert any(
        not i.spades_broken and any(c.is_joker for c in i.hand) and all(not rules.is_trump(c) for c in i.answer())
        for i in leads
    )
    assert any(not i.spades_broken and all(rules.is_trump(c) for c in i.hand) and i.answer() == i.hand for i in leads)
    assert any(i.spades_broken and any(c.is_joker for c in i.answer()) for i in leads)
    # the joker lead pulls trumps, as the tip says
    pulled = [t for t in (b.trick(lesson) for b in lesson.blocks("trick")) if t.cards[0].is_joker]
    assert pulled and sum(rules.is_trump(c) for c in pulled[0].cards[1:]) >= 2


def test_lesson_6_sure_tricks_as_the_tip_says() -> None:
    lesson = BY_NUMBER[6]
    answers = {
        b.quiz_item(lesson).rules.name + ":" + str(b.options["hand"]): b.quiz_item(lesson).answer()
        for b in quiz_blocks(lesson, "sure-tricks")
    }
    assert answers["jokers:BJ LJ KS 9H 5C 7D"] == 2
    # the big joker can take only one of the little joker, A♠ and K♠: two of them are sure
    assert answers["jokers:LJ AS KS 8H 4D"] == 2
    # the ace of spades is sure in regular Spades; with the jokers, they can take two of A♠ K♠ Q♠
    assert answers["classic:AS KS QS 9H 4C"] == 3 and answers["jokers:AS KS QS 9H 4C"] == 1


def test_a_lesson_before_scoring_that_shows_a_bag_says_what_a_bag_is_where_it_first_shows() -> None:
    """A bag is 1 point and counts toward a penalty (lesson 8 teaches it); earlier lessons say so in place."""
    from spades_tutor.ui.lesson_player import LessonPlayer

    teaches = min(lesson.number for lesson in LESSONS if any("bag" in s.title.lower() for s in lesson.steps))
    rules = st.Rules.preset("jokers")
    showing = []
    for lesson in LESSONS:
        if lesson.number >= teaches:
            continue
        player = LessonPlayer(lesson, rules, seed=1)
        for i, step in enumerate(lesson.steps):
            player.go(i)
            shown = " ".join(str(getattr(c, "value", "")) for c in player.body.children)
            if not re.search(r"\bbags?\b", re.sub(r"<[^>]+>", " ", shown), re.IGNORECASE):
                continue
            showing.append(lesson.number)
            prose = " ".join(b.text_in(lesson, rules) for b in step.blocks if b.kind == "markdown")
            prose = re.sub(r"\s+", " ", prose.replace("**", ""))
            explained = all(w in prose for w in ("bag", "1 point", "penalty", f"lesson {teaches}"))
            if lesson.number not in showing[:-1]:  # the first step of this lesson that shows a bag
                assert explained, f"lesson {lesson.number}, step {i + 1} shows a bag before saying what it is"
        for block in lesson.blocks("markdown"):  # and no prose names a bag without saying what it is
            if "bag" in block.text.lower():
                assert "1 point" in block.text, f"{lesson.path.name}:{block.line}"
    assert showing, "a score before the scoring lesson shows a bag"


def test_lesson_7_never_nil_with_the_big_joker() -> None:
    lesson = BY_NUMBER[7]
    items = [b.quiz_item(lesson) for b in quiz_blocks(lesson, "nil-safe")]
    assert any(C("BJ") in i.hand and i.answer() is False for i in items)
    assert any(i.answer() is True for i in items)
    blind = [b for b in lesson.blocks("score") if "blind" in b.options["bids"]]
    assert blind and blind[0].rules(lesson).blind_nil != "off"


def test_lesson_8_scoring_quotes_the_engine() -> None:
    lesson = BY_NUMBER[8]
    assert quiz_blocks(lesson, "score")
    text = text_of(lesson)
    scores = [b.score(lesson)[Team.NS] for b in lesson.blocks("score")]
    for claim in ("+71", "−47"):
        points = int(claim.replace("−", "-"))
        assert f"**{claim}**" in text and points in [s.points for s in scores]
    assert any(line.kind == "penalty" for s in scores for line in s.lines)
    assert any(line.kind == "contract" and line.points < 0 for s in scores for line in s.lines)


LESSON_9_TABLES = [
    st.Rules.preset("jokers"),
    st.Rules.preset("jokers", target=300),
    st.Rules.preset("jokers", mercy=-200),
    st.Rules.preset("classic", mercy=-300, target=250),
    st.Rules.preset("jokers", trick_points=5),
    st.Rules.preset("bicycle", nil=False, target=300, bag_limit=5, nil_value=50, min_team_bid=4, ten_bid_bonus=50),
]


@pytest.mark.parametrize(
    "rules", LESSON_9_TABLES, ids=lambda rules: "-".join(f"{k}{v}" for k, v in rules.flags().items())
)
def test_lesson_9_the_end_of_the_game_at_the_learners_table(rules: st.Rules) -> None:
    """Every step of lesson 9 judges the game at the learner's own table: its target, its mercy score
    (or none) and its scoring, each number from the engine."""
    lesson = BY_NUMBER[9]
    assert validate_lesson(lesson, house=[rules.flags()]) == []
    first, both, tie, mercy_example, at_your_table, final = lesson.blocks("game")
    assert first.game(lesson, rules)[1] == f"North–South reached {rules.target} ({rules.target + 12}) and win."
    assert both.game(lesson, rules)[0] == Team.EW and "higher score" in both.game(lesson, rules)[1]
    assert tie.game(lesson, rules) == (
        None,
        f"Both teams reached {rules.target} with exactly {rules.target + 10} each: play another hand.",
    )
    # the step on a low score: an example at a table that stops at −200, then the same scores at the learner's
    assert (
        mercy_example.rules(lesson, rules).mercy == -200 and "at or below −200" in mercy_example.game(lesson, rules)[1]
    )
    mine = st.explain_game(rules, {Team.NS: 120, Team.EW: -210})
    assert at_your_table.game(lesson, rules) == mine
    assert ("goes on" in mine[1]) == (rules.mercy is None or rules.mercy < -210)
    step_text = " ".join(b.text_in(lesson, rules) for b in lesson.steps[2].blocks if b.kind == "markdown")
    if rules.mercy is None:
        assert "Your table plays without this rule" in step_text
    else:
        assert f"a team at {in_words(rules.mercy)} or below loses" in step_text
    # "Will they win?": the totals just short of the target, the hand scored as this table scores it
    before = {Team.NS: rules.target - 35, Team.EW: rules.target - 60}
    question = " ".join(b.text_in(lesson, rules) for b in lesson.steps[3].blocks if b.kind == "markdown")
    assert f"North–South have {before[Team.NS]} points and East–West {before[Team.EW]}" in question
    (quiz,) = quiz_blocks(lesson, "score")
    item = quiz.quiz_item(lesson, rules)
    assert item.rules == rules
    answer = item.answer()
    after = {t: before[t] + answer[t][0] for t in Team}
    # the result: the engine adds the hand to the totals and judges the game on them
    view = final.resolve(lesson, rules).view()
    said = [part.text for part in view if hasattr(part, "text")]
    assert said[-2] == st.explain_totals(before, final.score(lesson, rules))[1]
    assert f"reach {after[Team.NS]}" in said[-2] and f"reach {after[Team.EW]}" in said[-2]
    assert final.game(lesson, rules) == st.explain_game(rules, after) and said[-1] == st.explain_game(rules, after)[1]


def test_lesson_9_the_result_changes_with_the_tables_scoring() -> None:
    """The last step's ruling is the engine's at each table, not one written for 500 and 10 a trick."""
    lesson = BY_NUMBER[9]
    *_, final = lesson.blocks("game")
    standard = final.game(lesson, st.Rules.preset("jokers"))
    assert standard == (Team.NS, "Both teams reached 500; North–South win with the higher score, 516 to 510.")
    five_a_trick = final.game(lesson, st.Rules.preset("jokers", trick_points=5))
    assert five_a_trick == (None, "Neither team has reached 500: the game goes on (491 to 475).")


def test_lesson_10_variants_side_by_side() -> None:
    lesson = BY_NUMBER[10]
    compared = {r.name for b in lesson.blocks("compare") for r in b.compared(lesson)}
    assert {"classic", "jokers", "deuces-high", "two-of-spades-third"} <= compared
    text = text_of(lesson)
    assert f"{len(st.Rules.preset('deuces-high').trump_order())} trumps" in text
    deuces = [
        b for b in lesson.blocks("quiz") if b.rules(lesson).name == "deuces-high" and b.quiz_kind == "legal-plays"
    ]
    item = deuces[0].quiz_item(lesson)
    assert C("2D") in item.answer() and item.rules.suit_of(item.trick[0]) == st.Suit.DIAMONDS


def test_lesson_11_a_full_hand_trick_by_trick() -> None:
    lesson = BY_NUMBER[11]
    (play,) = lesson.blocks("play")
    rnd = play.round(lesson)
    assert rnd.is_over and len(rnd.tricks) == 13
    assert all(t.reason and t.winner is not None for t in rnd.tricks)  # a sentence for each trick
    (hands,) = lesson.blocks("hands")
    assert hands.hands(lesson) == rnd.dealt
    # the score shown and quizzed is the replayed hand's score
    assert all(b.score(lesson) == rnd.score() for b in lesson.blocks("score"))
    quiz = quiz_blocks(lesson, "score")[0].quiz_item(lesson)
    assert quiz.answer() == {t: (s.points, s.bags) for t, s in rnd.score().items()}
    # the prose's highlights are what happened
    rules = rnd.rules
    first_trump = next(i for i, t in enumerate(rnd.tricks) if any(rules.is_trump(c) for c in t.cards))
    assert first_trump == 3 and not rules.is_trump(rnd.tricks[3].cards[0]) and rnd.tricks[3].winner == Seat.NORTH
    assert rnd.tricks[4].cards[0] == C("BJ") and all(rules.is_trump(c) for c in rnd.tricks[4].cards)
    assert rnd.tricks[7].cards[0] == C("LJ") and rnd.tricks[7].leader == Seat.EAST
    text = text_of(lesson)
    for seat, bid in rnd.bids.items():
        assert f"bids **{bid}**" in text or f"{seat.label} bids **{bid}**" in text


def _step_text(lesson: Lesson, title: str) -> str:
    (step,) = [s for s in lesson.steps if s.title == title]
    return re.sub(r"\s+", " ", " ".join(b.text_in(lesson) for b in step.blocks if b.kind == "markdown"))


def test_lesson_1_asks_the_question_its_quiz_asks() -> None:
    lesson = BY_NUMBER[1]
    asked = 0
    for step in lesson.steps:
        prose = ""
        for block in step.blocks:
            if block.kind == "markdown":
                prose = block.text_in(lesson)
            elif block.kind == "quiz" and block.quiz_kind == "highest-trump":
                questions = [q for q in re.split(r"(?<=[.!?])\s+", re.sub(r"\s+", " ", prose)) if q.endswith("?")]
                prompt = block.quiz_item(lesson).prompt
                assert "highest trump" in prompt
                for question in questions:  # the prose asks what the quiz asks, not "which card is a trump?"
                    assert question == prompt, (question, prompt)
                asked += len(questions)
                prose = ""
    assert asked >= 1


def test_lesson_4_after_a_joker_lead_the_others_follow_with_a_trump_only_if_they_hold_one() -> None:
    lesson = BY_NUMBER[4]
    text = text_of(lesson)
    assert "A joker led is a spade lead" in text
    assert "must follow with a trump if they hold one" in text and "no trump at all may play any card" in text
    # a quiz puts it to the learner: the other joker must follow the big joker, the side cards may not
    joker_led = [
        item
        for b in quiz_blocks(lesson, "legal-plays")
        for item in (b.quiz_item(lesson, r) for r in b.rule_sets(lesson))
        if item.trick and item.trick[0].is_joker
    ]
    assert joker_led
    for item in joker_led:
        trumps = tuple(c for c in item.hand if item.rules.is_trump(c))
        assert trumps and len(trumps) < len(item.hand) and item.answer() == trumps
    # the engine, in every rule set with jokers: a joker, a spade, else anything
    for rules in (st.Rules.preset(name) for name in PRESETS):
        if not rules.jokers:
            continue
        assert st.legal_plays(rules, st.cards("LJ KH 4C"), st.cards("BJ"), True) == st.cards("LJ")
        assert st.legal_plays(rules, st.cards("KH 3S 4C"), st.cards("LJ"), True) == st.cards("3S")
        assert set(st.legal_plays(rules, st.cards("KH 4C 9D"), st.cards("BJ"), True)) == set(st.cards("KH 4C 9D"))


def test_lesson_6_a_side_king_is_sure_to_be_the_best_of_its_suit_only_once_the_ace_has_gone() -> None:
    from itertools import permutations

    from spades_tutor.engine.hand_eval import likely_tricks

    lesson, rules = BY_NUMBER[6], st.Rules.preset("jokers")
    text = text_of(lesson)
    # with its ace in the trick the king never wins it, wherever either is played
    for order in permutations(st.cards("AH KH 3H 4H")):
        assert order[st.trick_winner(rules, order)] == C("AH")
    # with the ace still out of the trick it can win, unless someone trumps
    assert st.trick_winner(rules, st.cards("KH 3H 4H 5H")) == 0
    assert st.trick_winner(rules, st.cards("KH 3H 2S 5H")) == 2
    assert "wins only if the ace has gone" not in text
    assert "it wins a trick only if that ace is not played to it" in text
    assert (
        "only once the ace has gone, played to an earlier trick, and even then a player out of the suit can trump it"
        in text
    )
    # "count a side king as about half a trick at most": the engine's estimate, over many hands
    kings = [
        t
        for seed in range(200)
        for hand in st.Round.deal(rules, dealer=Seat.WEST, seed=seed).hands.values()
        for t in likely_tricks(rules, hand)
        if t.card.rank == st.Rank.KING and not rules.is_trump(t.card)
    ]
    assert kings and max(t.value for t in kings) < 0.7 and "about half a trick at most" in text


def test_lesson_8_a_set_team_scores_nothing_for_its_bidders_tricks_but_a_failed_nils_tricks_by_their_rule() -> None:
    lesson = BY_NUMBER[8]
    text = _step_text(lesson, "Being set")
    assert "count for nothing" not in text
    assert "The tricks its bidders did win score nothing, not even bags" in text
    assert "By default each is still a bag for the team, set or not" in text
    assert st.Rules.preset(lesson.preset).failed_nil_tricks == "bags"  # "by default"
    (step,) = [s for s in lesson.steps if s.title == "Being set"]
    shown = [b.score(lesson)[Team.NS] for b in step.blocks if b.kind == "score"]
    set_with_a_bag = [
        s
        for s in shown
        if any(line.kind == "contract" and line.points < 0 for line in s.lines)
        and any(line.kind == "failed-nil-bags" for line in s.lines)
    ]
    assert set_with_a_bag and set_with_a_bag[0].bags == 1
    # in every setting the set contract's own tricks score nothing; the failed nil's trick is a bag only by default
    bids, tricks = (
        {Seat.NORTH: "nil", Seat.SOUTH: 3, Seat.EAST: 4, Seat.WEST: 3},
        {Seat.NORTH: 1, Seat.SOUTH: 1, Seat.EAST: 6, Seat.WEST: 5},
    )
    for setting, bags in (("bags", 1), ("partner", 0), ("none", 0)):
        ns = st.score_hand(st.Rules.preset("jokers", failed_nil_tricks=setting), bids, tricks)[Team.NS]
        assert [line.points for line in ns.lines if line.kind == "contract"] == [-30]
        assert not any(line.kind == "bags" for line in ns.lines)
        assert ns.bags == bags and ns.points == -130 + bags


def test_lesson_11_norths_bid_of_6_is_the_engines_estimate_rounded_down_and_the_bots_bid_is_quoted() -> None:
    from spades_tutor.bots.bidding import ROUND_UP_FROM, heuristic_bid
    from spades_tutor.engine.hand_eval import likely_tricks

    lesson = BY_NUMBER[11]
    (play,) = lesson.blocks("play")
    rnd = play.round(lesson)
    rules, hand = rnd.rules, rnd.dealt[Seat.NORTH]
    text = text_of(lesson)
    words = {"one": 1, "two": 2, "three": 3, "four": 4}
    sure = st.sure_trick_count(rules, hand)
    counted = re.search(r"North counts \*\*(\w+) sure tricks?\*\*", text)
    assert counted and words[counted.group(1)] == sure
    assert quiz_blocks(lesson, "sure-tricks")[0].quiz_item(lesson).answer() == sure
    # each likely trick as the prose weighs it, and their sum
    value = {str(t.card): t.value for t in likely_tricks(rules, hand)}
    assert sum(v == 1 for v in value.values()) == sure + 1  # the sure tricks and the ace of diamonds
    assert value["A♦"] == 1 and "the ace of diamonds wins the first diamond trick unless someone trumps it" in text
    assert value["K♠"] >= 0.85 and "The third of those top trumps is nearly a whole trick" in text
    assert value["J♠"] == value["9♠"] == value["5♠"] == 0.75
    assert "the jack of spades is about three quarters of one" in text and "about three quarters each" in text
    assert value["Q♦"] < 0.4 and "the queen of diamonds adds a little" in text
    total = round(sum(value.values()), 2)
    assert f"makes **{total:g}** tricks in all" in text
    # the bots' bid, quoted as the bots make it; North's is the same estimate rounded down
    fresh = st.Round.from_hands(rules, rnd.dealt, dealer=rnd.dealer)
    bot = heuristic_bid(fresh.view(Seat.NORTH)).action
    quoted = re.search(r"round a fraction of ([\d.]+) or more up, so they would bid \*\*(\d+)\*\*", text)
    assert quoted and float(quoted.group(1)) == ROUND_UP_FROM and st.Bid(int(quoted.group(2))) == bot
    assert rnd.bids[Seat.NORTH] == int(total) == 6 != bot


@pytest.mark.parametrize("case", all_quiz_cases(), ids=case_id)
def test_every_quiz_has_an_answer_the_engine_computes_and_accepts(case: tuple[Lesson, Block, st.Rules]) -> None:
    lesson, block, rules = case
    item = block.quiz_item(lesson, rules)
    assert item.kind == block.quiz_kind and item.rules == rules
    answer = item.answer()
    assert answer is not None
    feedback = item.check(answer)
    assert feedback.correct and feedback.explanation
    assert not (set(block.options) & {"answer", "answers", "correct", "solution"})


def test_quiz_kinds_cover_the_item_kinds() -> None:
    used = {b.quiz_kind for lesson in LESSONS for b in lesson.blocks("quiz")}
    assert used == set(st_quiz_kinds())


def st_quiz_kinds() -> tuple[str, ...]:
    from spades_tutor.quiz import ITEM_KINDS

    return tuple(ITEM_KINDS)


def test_adaptive_blocks_hold_in_every_preset_and_follow_the_teachers_pick() -> None:
    adaptive = [(lesson, b) for lesson in LESSONS for b in lesson.blocks() if b.adaptive]
    kinds = {b.kind for _, b in adaptive}
    assert {"deck", "trumps", "quiz"} <= kinds
    assert any(b.generated for _, b in adaptive)
    for lesson, block in adaptive:
        assert [r.name for r in block.rule_sets(lesson)] == list(PRESETS)
        flags = block.value(lesson, "flags", {})
        for name in PRESETS:
            picked = st.Rules.preset(name)
            if flags:  # a block that sets a rule of its own (nil allowed, say) keeps the rest of the pick
                assert block.rules(lesson, picked) == dataclasses.replace(picked, **flags)
            else:
                assert block.rules(lesson, picked) is picked
    # a teacher's house rules travel with the pick
    lesson, block = adaptive[0]
    house = st.Rules.preset("deuces-high", mercy=-200, nil=False)
    assert block.rules(lesson, house) == house
    # a block with a fixed preset (or none) ignores the pick
    fixed = next(b for b in BY_NUMBER[11].blocks("quiz") if b.preset is None)
    assert fixed.rules(BY_NUMBER[11], house).name == "jokers"
    # a block written for several presets takes the picked preset, without the teacher's house rules
    several = next(b for b in BY_NUMBER[7].blocks("quiz") if b.preset == "any with jokers")
    assert several.rules(BY_NUMBER[7], house) == st.Rules.preset("deuces-high")
    assert several.rules(BY_NUMBER[7], st.Rules.preset("classic")) == st.Rules.preset("jokers")


def test_generated_quizzes_are_reproducible() -> None:
    for lesson in LESSONS:
        for block in lesson.blocks("quiz"):
            if block.generated:
                for rules in block.rule_sets(lesson):
                    a, b = block.quiz_item(lesson, rules), block.quiz_item(lesson, rules)
                    assert a.position() == b.position() and a.seed == block.value(lesson, "seed")


@pytest.mark.parametrize("tip", list(TIPS), ids=list(TIPS.values()))
def test_every_tip_from_the_table_appears_where_it_belongs(tip: str) -> None:
    phrase = TIPS[tip]
    assert phrase in tip.lower()
    holders = [lesson.number for lesson in LESSONS if phrase in text_of(lesson, ("tip",)).lower()]
    assert TIP_LESSON[phrase] in holders
    # quoted whole, as a tip block
    lesson = BY_NUMBER[TIP_LESSON[phrase]]
    assert any(re.sub(r"\s+", " ", b.text).replace("’", "'") == tip for b in lesson.blocks("tip"))


# --- the format: parser and validator on small texts ---------------------------------------------

GOOD = """\
# A tiny lesson

summary: One step to test the parser.
preset: jokers

---

## Follow suit

Prose with **Markdown**.

```quiz legal-plays
hand: AH 3H LJ 5C
trick: KH
seat: N
```

```trick
cards: KH 5S AH 3H
leader: W
```

---

## Score

```score
bids: N 4, E 3, S 3, W 2
tricks: N 5, E 3, S 3, W 2
```

```tip
Bid the big joker as a sure trick.
```
"""
QUIZ_LINE = GOOD.splitlines().index("```quiz legal-plays") + 1
TRICK_LINE = GOOD.splitlines().index("```trick") + 1
TIP_LINE = GOOD.splitlines().index("```tip") + 1


def write(tmp_path: Path, text: str, name: str = "07-tiny.md") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(path: Path) -> list[str]:
    """What is wrong with a lesson file: a load error, or the validator's problems."""
    try:
        lesson = load_lesson(path)
    except LessonError as e:
        return [str(e)]
    return validate_lesson(lesson)


def test_a_good_lesson_parses_into_steps_and_blocks(tmp_path: Path) -> None:
    lesson = load_lesson(write(tmp_path, GOOD))
    assert (lesson.number, lesson.slug, lesson.title, lesson.preset) == (7, "tiny", "A tiny lesson", "jokers")
    assert lesson.summary == "One step to test the parser."
    assert [s.title for s in lesson.steps] == ["Follow suit", "Score"]
    kinds = [b.kind for b in lesson.blocks()]
    assert kinds == ["markdown", "quiz", "trick", "score", "tip"]
    quiz = lesson.steps[0].blocks[1]
    assert (quiz.quiz_kind, quiz.line, dict(quiz.options)) == (
        "legal-plays",
        QUIZ_LINE,
        {"hand": "AH 3H LJ 5C", "trick": "KH", "seat": "N"},
    )
    assert quiz.quiz_item(lesson).answer() == st.cards("AH 3H")
    assert quiz.trick(lesson).leader == Seat.WEST  # the seat to play (North) sits after the leader
    trick = next(lesson.blocks("trick")).trick(lesson)
    assert trick.winner == Seat.NORTH and trick.reason.startswith("5♠ wins")
    assert lesson.steps[0].blocks[0].text == "Prose with **Markdown**."
    assert validate_lesson(lesson) == []
    hash(lesson)  # frozen all the way down


def test_parse_lesson_reads_text_as_load_lesson_reads_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    assert parse_lesson(GOOD, path) == load_lesson(path)


def test_the_front_matter_is_optional(tmp_path: Path) -> None:
    text = GOOD.replace("summary: One step to test the parser.\npreset: jokers\n", "")
    lesson = load_lesson(write(tmp_path, text))
    assert (lesson.preset, lesson.summary) == ("jokers", "")


def test_continuation_lines_and_a_leading_separator_are_optional(tmp_path: Path) -> None:
    text = GOOD.replace("hand: AH 3H LJ 5C", "hand:\n  AH 3H\n  LJ 5C").replace(
        "preset: jokers\n\n---\n", "preset: jokers\n"
    )
    lesson = load_lesson(write(tmp_path, text))
    quiz = next(lesson.blocks("quiz"))
    assert quiz.options["hand"] == "AH 3H LJ 5C" and validate_lesson(lesson) == []


MALFORMED = [
    # (what, replace this, with this, the line the message must name)
    ("unknown block kind", "```trick\n", "```tricks\n", TRICK_LINE),
    ("unknown quiz kind", "```quiz legal-plays", "```quiz who-wins", QUIZ_LINE),
    ("a card not in the preset", "hand: AH 3H LJ 5C", "hand: AH 3H LJ 2H", QUIZ_LINE),
    ("a joker in regular Spades", "seat: N\n```", "seat: N\npreset: classic\n```", QUIZ_LINE),
    ("a trick with 5 cards", "trick: KH\n", "trick: KH QH JH 10H 9H\n", QUIZ_LINE),
    ("a legal-plays trick already complete", "trick: KH\n", "trick: KH QH JH 10H\n", QUIZ_LINE),
    ("a hand holding a card already in the trick", "hand: AH 3H LJ 5C", "hand: AH KH LJ 5C", QUIZ_LINE),
    ("a card twice in a hand", "hand: AH 3H LJ 5C", "hand: AH 3H LJ AH", QUIZ_LINE),
    ("a quiz that states its answer", "seat: N\n", "seat: N\nanswer: AH 3H\n", QUIZ_LINE + 4),
    ("a quiz that states the correct cards", "seat: N\n", "seat: N\ncorrect: AH\n", QUIZ_LINE + 4),
    ("an unknown key", "leader: W\n", "leader: W\nwinner: N\n", TRICK_LINE + 3),
    ("a card that is not a card", "cards: KH 5S AH 3H", "cards: KH 5S AH 1X", TRICK_LINE + 1),
    ("a trick with a card twice", "cards: KH 5S AH 3H", "cards: KH 5S AH KH", TRICK_LINE),
    ("a missing required key", "leader: W\n", "", TRICK_LINE),
    ("an unknown preset", "leader: W\n", "leader: W\npreset: hearts\n", TRICK_LINE + 3),
    ("an unknown house-rule flag", "leader: W\n", "leader: W\nflags: jokers_wild=true\n", TRICK_LINE + 3),
    ("tricks that do not add up to 13", "tricks: N 5, E 3, S 3, W 2", "tricks: N 5, E 3, S 3, W 3", 0),
    ("a nil at a table without nil", "bids: N 4,", "flags: nil=false\nbids: N nil,", 0),
    ("a fence left open before the next one", "seat: N\n```\n", "seat: N\n\n", QUIZ_LINE),
    ("a fence left open at the end", "sure trick.\n```\n", "sure trick.\n", TIP_LINE),
    ("a generated quiz that also states a position", "seat: N\n", "seat: N\ngenerate: true\nseed: 1\n", QUIZ_LINE + 1),
    ("a step without a title", "## Score\n", "Score\n", 0),
    ("two titles in one step", "## Score\n\n", "## Score\n\n## Another\n\n", 0),
]


@pytest.mark.parametrize(("what", "old", "new", "line"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_lessons_are_rejected_naming_the_file_and_line(
    tmp_path: Path, what: str, old: str, new: str, line: int
) -> None:
    assert GOOD.count(old) == 1
    text = GOOD.replace(old, new)
    path = write(tmp_path, text)
    problems = problems_of(path)
    assert problems, f"{what} was not caught"
    where = [p for p in problems if p.startswith(f"{path}:")]
    assert where, problems
    if line:
        assert any(p.startswith(f"{path}:{line}:") for p in problems), problems
    else:  # the message names some line of the file
        assert all(re.match(re.escape(str(path)) + r":\d+: ", p) for p in problems), problems


def test_a_quiz_block_never_carries_an_answer_however_it_is_spelled(tmp_path: Path) -> None:
    for key in ("answer", "answers", "Answer", "solution", "expected"):
        text = GOOD.replace("seat: N\n", f"seat: N\n{key}: AH 3H\n")
        with pytest.raises(LessonError, match=r"never the answer|unknown key"):
            load_lesson(write(tmp_path, text))


def test_bad_titles_and_file_names(tmp_path: Path) -> None:
    with pytest.raises(LessonError, match=r"07-tiny\.md:1: a lesson starts with its title"):
        load_lesson(write(tmp_path, GOOD.replace("# A tiny lesson", "A tiny lesson")))
    with pytest.raises(LessonError, match=r"tiny\.md:1: a lesson file is named NN-slug\.md"):
        load_lesson(write(tmp_path, GOOD, name="tiny.md"))
    with pytest.raises(LessonError, match=r"07-tiny\.md:4: after the title come only"):
        load_lesson(write(tmp_path, GOOD.replace("preset: jokers", "level: 2")))
    with pytest.raises(LessonError, match=r"07-tiny\.md:1: unknown lesson preset"):
        load_lesson(write(tmp_path, GOOD.replace("preset: jokers", "preset: any")))


def test_adaptive_blocks_are_checked_in_every_preset(tmp_path: Path) -> None:
    # fine with the jokers, wrong in regular Spades, which has none
    text = GOOD.replace("```trick\ncards: KH 5S AH 3H", "```trick\npreset: any\ncards: KH 5S AH LJ")
    problems = problems_of(write(tmp_path, text))
    assert problems == [
        f"{tmp_path / '07-tiny.md'}:{TRICK_LINE}: trick block [rule set classic]: cards: LJ is not in the classic deck (it has no jokers)"
    ]
    # 2♥ is out of three decks
    text = GOOD.replace("```trick\ncards: KH 5S AH 3H", "```trick\npreset: any\ncards: KH 5S AH 2H")
    named = sorted(re.findall(r"rule set (\S+)\]", " ".join(problems_of(write(tmp_path, text)))))
    assert named == ["deuces-high", "jokers", "two-of-spades-third"]


# --- the validator catches errors in the real lessons --------------------------------------------


def mutate(tmp_path: Path, lesson: Lesson, old: str, new: str) -> tuple[Path, list[str]]:
    text = lesson.path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = write(tmp_path, text.replace(old, new), name=lesson.path.name)
    return path, problems_of(path)


def line_of(lesson: Lesson, text: str) -> int:
    return lesson.path.read_text(encoding="utf-8").splitlines().index(text) + 1


def fence_above(lesson: Lesson, text: str) -> int:
    """The line of the fence that opens the block holding ``text``."""
    lines = lesson.path.read_text(encoding="utf-8").splitlines()
    number = line_of(lesson, text)
    return next(n for n in range(number, 0, -1) if lines[n - 1].startswith("```"))


def test_the_validator_catches_an_illegal_play_in_the_full_hand(tmp_path: Path) -> None:
    lesson = BY_NUMBER[11]
    # trick 2: North holds a heart (5♥) but throws a club
    path, problems = mutate(tmp_path, lesson, "  4H 5H TH AH", "  4H 4C TH AH")
    assert len(problems) == 1
    line = line_of(lesson, "```play")
    assert problems[0].startswith(f"{path}:{line}: play block: trick 2, North: You must follow suit"), problems


def test_the_validator_catches_a_broken_deal(tmp_path: Path) -> None:
    lesson = BY_NUMBER[11]
    old = "W: TS 6S QH 8H 7H 4H QC JC 6C KD TD 7D 5D\ndealer: W\n```\n\n---\n\n## The bidding"
    path, problems = mutate(tmp_path, lesson, old, old.replace("5D", "AS"))
    line = line_of(lesson, "```hands")
    assert any(p.startswith(f"{path}:{line}: hands block: not a deal") and "A♠ is dealt twice" in p for p in problems)


def test_the_validator_catches_an_illegal_quiz_position(tmp_path: Path) -> None:
    lesson = BY_NUMBER[3]
    path, problems = mutate(tmp_path, lesson, "hand: AH 3H LJ 5C", "hand: AH KH LJ 5C")
    assert problems and "K♥" in problems[0]
    assert problems[0].startswith(f"{path}:{fence_above(lesson, 'hand: AH 3H LJ 5C')}:")


def test_the_validator_catches_a_card_outside_the_preset(tmp_path: Path) -> None:
    lesson = BY_NUMBER[10]
    path, problems = mutate(tmp_path, lesson, "hand: 2D 8C 4H", "hand: 2D 8C 2H")
    assert problems and "2♥ is not in the deuces-high deck" in problems[0] and str(path) in problems[0]


def test_the_validator_catches_an_adaptive_block_that_fails_somewhere(tmp_path: Path) -> None:
    lesson = BY_NUMBER[2]
    path, problems = mutate(tmp_path, lesson, "choices: KS AS 2S 10S", "choices: KS AS 2S LJ")
    line = line_of(lesson, "choices: KS AS 2S 10S") - 2  # the fence, above preset: any
    assert problems == [
        f"{path}:{line}: quiz block [rule set classic]: choices: LJ is not in the classic deck (it has no jokers)"
    ]


def test_the_validator_catches_a_score_that_cannot_happen(tmp_path: Path) -> None:
    lesson = BY_NUMBER[8]
    old = "bags: NS {bag limit-1}, EW 0"
    path, problems = mutate(tmp_path, lesson, old, "bags: NS {bag limit+2}, EW 0")
    # the block follows the learner's table (preset: any): the bags are over the limit in each preset,
    # and at each table with house rules, said once a preset (12 at a standard table, 7 at one of 5 bags)
    assert all(p.startswith(f"{path}:{fence_above(lesson, old)}: ") for p in problems)
    assert sum("bags before the hand: 12 is not 0 to 9" in p for p in problems) == len(PRESETS)
    assert sum("bags before the hand: 7 is not 0 to 4" in p for p in problems) == len(PRESETS)
    assert len(problems) == 2 * len(PRESETS)


# --- finding and ordering the lessons, generated quizzes ------------------------------------------


def test_lessons_dir_finds_the_repository_folder_and_honours_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert lessons_dir().resolve() == (Path(__file__).resolve().parent.parent / "lessons")
    monkeypatch.setenv("SPADES_TUTOR_LESSONS", str(tmp_path))
    assert lessons_dir() == tmp_path
    write(tmp_path, GOOD, name="10-ten.md")
    write(tmp_path, GOOD.replace("A tiny lesson", "Two"), name="02-two.md")
    (tmp_path / "house-rules.md").write_text("# Not a lesson\n", encoding="utf-8")
    assert [lesson.slug for lesson in load_lessons()] == ["two", "ten"]
    write(tmp_path, GOOD, name="02-again.md")
    with pytest.raises(LessonError, match="lesson number 2"):
        load_lessons()
    monkeypatch.setenv("SPADES_TUTOR_LESSONS", str(tmp_path / "missing"))
    with pytest.raises(LessonError, match="not a folder"):
        lessons_dir()


GENERATED = GOOD.replace(
    "hand: AH 3H LJ 5C\ntrick: KH\nseat: N\n", "preset: any\ngenerate: true\nseed: 41\ndifficulty: 2\n"
)


def test_a_generated_quiz_asks_the_generator(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str, int, int]] = []

    def generate(kind: str, rules: st.Rules, seed: int, difficulty: int) -> object:
        calls.append((kind, rules.name, seed, difficulty))
        from spades_tutor.quiz import item_from_dict

        return dataclasses.replace(item_from_dict({"kind": kind, "hand": "AH 3H", "seed": seed}), rules=rules)

    monkeypatch.setitem(sys.modules, "spades_tutor.quiz.generators", types.SimpleNamespace(generate=generate))
    lesson = load_lesson(write(tmp_path, GENERATED))
    quiz = next(lesson.blocks("quiz"))
    assert quiz.generated and quiz.adaptive
    picked = st.Rules.preset("two-of-spades-third")
    assert quiz.quiz_item(lesson, picked).rules is picked
    assert calls == [("legal-plays", "two-of-spades-third", 41, 2)]
    assert validate_lesson(lesson, house=[{}]) == []
    assert [c[1] for c in calls[1:]] == list(PRESETS)
    # the checker draws it at tables with house rules too, each preset with each set of them
    del calls[:]
    assert validate_lesson(lesson) == []
    assert list(dict.fromkeys(c[1] for c in calls)) == list(PRESETS) and len(calls) > len(PRESETS)


def test_a_generated_quiz_without_the_generators_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "spades_tutor.quiz.generators", None)  # import fails
    path = write(tmp_path, GENERATED)
    problems = problems_of(path)
    assert len(problems) == len(PRESETS)
    assert all(p.startswith(f"{path}:{QUIZ_LINE}: quiz block [rule set ") and "generators" in p for p in problems)


def test_the_real_generators_answer_every_generated_block() -> None:
    pytest.importorskip("spades_tutor.quiz.generators")
    blocks = [(lesson, b) for lesson in LESSONS for b in lesson.blocks("quiz") if b.generated]
    assert blocks
    for lesson, block in blocks:
        for rules in block.rule_sets(lesson):
            item = block.quiz_item(lesson, rules)
            assert item.kind == block.quiz_kind and item.check(item.answer()).correct


def test_any_is_the_adaptive_preset_name() -> None:
    assert ANY == "any" and ANY not in PRESETS


def test_every_block_kind_is_used_by_a_lesson_and_drawn_by_the_player() -> None:
    import ipywidgets

    from spades_tutor.lessons import BLOCK_KINDS
    from spades_tutor.ui.lesson_player import LessonPlayer

    first: dict[str, tuple[Lesson, int, Block]] = {}
    for lesson in load_lessons():
        for i, step in enumerate(lesson.steps):
            for block in step.blocks:
                first.setdefault(block.kind, (lesson, i, block))
    assert set(first) == set(BLOCK_KINDS)
    for kind, (lesson, i, block) in first.items():
        player = LessonPlayer(lesson, lesson.rules(), step=i)
        parts = player.block_widgets(block)
        assert parts and all(isinstance(p, ipywidgets.Widget) for p in parts), kind
        shown = "".join(p.value for p in player.body.children if isinstance(p, ipywidgets.HTML))
        assert "could not be shown" not in shown, kind


def test_a_block_resolved_once_builds_what_the_block_accessors_build() -> None:
    lesson = parse_lesson(
        "# Demo\n\n---\n\n## Trick\n\n```trick\npreset: any\ncards: AH KH LJ 3H\nleader: W\n"
        "label: {Top trump} wins\n```\n",
        Path("01-demo.md"),
    )
    (block,) = lesson.steps[0].blocks
    classic, jokers = st.Rules.preset("classic"), st.Rules.preset("jokers")
    shown = block.resolve(lesson, jokers)
    assert shown.rules == block.rules(lesson, jokers) == jokers
    assert shown.trick().winner == block.trick(lesson, jokers).winner == Seat.EAST  # the little joker trumps
    assert shown.label() == block.label_in(lesson, jokers) == "The big joker wins"
    with pytest.raises(LessonError, match=r"\[rule set classic\]: cards: LJ is not in the classic deck"):
        block.resolve(lesson, classic).trick()
