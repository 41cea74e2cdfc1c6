"""The glossary: its content checked against the engine, the linker that opens a term's definition in
lesson prose, and the Glossary page."""

from __future__ import annotations

import dataclasses
import html
import re
from pathlib import Path

import pytest

import spades_tutor as st
from spades_tutor.lessons import LessonError, load_lessons, parse_lesson
from spades_tutor.lessons.claims import contradictions
from spades_tutor.lessons.glossary import Glossary, glossary_path, link_terms, load_glossary, parse_glossary
from spades_tutor.ui.app import LINK_PAGES, App
from spades_tutor.ui.glossary import MAX_SEARCH, GlossaryPage
from spades_tutor.ui.lesson_player import LessonPlayer
from spades_tutor.ui.storage import Place

GLOSSARY = load_glossary()
REQUIRED = (
    "Bags", "Bid", "Big joker", "Blind nil", "Board", "Books", "Broken spades", "Contract", "Cut",
    "Follow suit", "Joker Joker Deuce Deuce", "Jokers", "Lead", "Little joker", "Nil", "Partner", "Renege",
    "Set", "Trick", "Trump", "Void",
)  # fmt: skip
ALL_RULES = [st.Rules.preset(name) for name in st.Rules.preset_names()]


def small(text: str) -> Glossary:
    return parse_glossary("# Glossary\n\n" + text, Path("glossary.md"))


def buttons(markup: str) -> list[tuple[str, str]]:
    """Each linked term in ``markup``: (the term's anchor, the words linked)."""
    return re.findall(r'<button type="button" class="st-term"[^>]*data-term="([^"]+)">([^<]*)</button>', markup)


# --- the content ---------------------------------------------------------------------------------


def test_the_glossary_defines_every_term_the_game_needs_once() -> None:
    names = [t.name for t in GLOSSARY.terms]
    assert len(names) == len({n.lower() for n in names})
    assert set(REQUIRED) <= set(names)
    forms = [f.lower() for t in GLOSSARY.terms for f in t.forms]
    assert len(forms) == len(set(forms)), "an alias belongs to two terms"
    for term in GLOSSARY.terms:
        assert GLOSSARY.term(term.name) is term
        for alias in term.aliases:
            assert GLOSSARY.term(alias.upper()) is term


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: r.name)
def test_every_definition_is_one_or_two_sentences_and_true_in_the_rule_set_it_speaks_of(rules: st.Rules) -> None:
    for term in GLOSSARY.terms:
        text = term.definition(rules)
        assert "{" not in text, term.name
        assert 1 <= len(re.findall(r"[.!?](?=\s|$)", text)) <= 2, term.name
        assert contradictions(text, term.rules(rules)) == [], term.name


def test_no_definition_types_a_trump_order_or_a_score_the_engine_owns() -> None:
    for term in GLOSSARY.terms:
        assert not re.search(r"[♠♥♦♣]|\bBJ\b|\bLJ\b", term.text), term.name
        for number in re.findall(r"\d+", term.text):
            assert number in ("1", "4", "13"), f"{term.name}: {number} is typed, not filled by the engine"


def test_joker_joker_deuce_deuce_is_the_deuces_high_trump_order_whatever_the_pick() -> None:
    term = GLOSSARY.term("jjdd")
    order = " ".join(map(str, st.Rules.preset("deuces-high").trump_order()))
    assert order.startswith("BJ LJ 2♦ 2♠")
    for rules in ALL_RULES:
        assert order in term.definition(rules)
        assert ("Deuces high" in term.note(rules)) == (rules.name != "deuces-high")


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: r.name)
def test_trump_gives_the_engines_count_and_order(rules: st.Rules) -> None:
    text = GLOSSARY.term("trumps").definition(rules)
    order = rules.trump_order()
    assert f"there are {len(order)}, highest first: {' '.join(map(str, order))}." in text


def test_scoring_words_follow_the_engines_values_and_house_rules() -> None:
    rules = dataclasses.replace(
        st.Rules.preset("jokers"), bag_limit=5, bag_penalty=50, nil_value=75, blind_nil_value=150, trick_points=20
    )
    assert "Every 5 bags a team gathers cost it 50 points" in GLOSSARY.term("bags").definition(rules)
    assert "75 points if the bidder takes no trick, minus 75" in GLOSSARY.term("nil").definition(rules)
    assert "150 points if the bidder takes no trick, minus 150" in GLOSSARY.term("blind nil").definition(rules)
    assert "loses 20 points for every trick it bid" in GLOSSARY.term("set").definition(rules)
    # what the words say is what the engine scores: a bag is 1 point, a set costs trick_points per trick bid
    N, E, S, W = st.Seat.NORTH, st.Seat.EAST, st.Seat.SOUTH, st.Seat.WEST
    made = st.score_hand(rules, {N: 4, E: 3, S: 3, W: 2}, {N: 5, E: 2, S: 3, W: 3})[st.Team.NS]
    assert [line.points for line in made.lines] == [20 * 7, 1]
    setback = st.score_hand(rules, {N: 4, E: 3, S: 3, W: 2}, {N: 3, E: 4, S: 3, W: 3})[st.Team.NS]
    assert setback.points == -20 * 7
    nil = st.score_hand(rules, {N: st.NIL, E: 3, S: 3, W: 2}, {N: 0, E: 5, S: 3, W: 5})[st.Team.NS]
    assert nil.lines[0].points == 75


def test_house_rules_change_what_nil_blind_nil_and_the_lead_say() -> None:
    base = st.Rules.preset("jokers")
    assert GLOSSARY.term("bid").definition(base).endswith("1 to 13, or nil.")
    assert "this table plays without nil" in GLOSSARY.term("bid").definition(dataclasses.replace(base, nil=False))
    blind = GLOSSARY.term("blind nil")
    assert "plays without blind nil" in blind.definition(base)
    assert "only to a team 100 or more points behind" in blind.definition(
        dataclasses.replace(base, blind_nil="behind-100")
    )
    assert "to any player" in blind.definition(dataclasses.replace(base, blind_nil="always"))
    lead = GLOSSARY.term("lead")
    assert "left of the dealer" in lead.definition(base)
    assert "two of clubs" in lead.definition(st.Rules.preset("jokers", first_lead="two-of-clubs"))


def test_the_jokers_definitions_speak_of_a_rule_set_with_jokers() -> None:
    classic = st.Rules.preset("classic")
    for name in ("big joker", "little joker", "jokers"):
        term = GLOSSARY.term(name)
        assert term.rules(classic).jokers and term.note(classic) == "In the Spades with Jokers rule set."
    assert "the highest trump" in GLOSSARY.term("big joker").definition(st.Rules.preset("deuces-high"))
    little = st.Rules.preset("two-of-spades-third").trump_position(st.LITTLE_JOKER)
    assert little in GLOSSARY.term("little joker").definition(st.Rules.preset("two-of-spades-third"))
    assert "the two of clubs and the two of hearts come out" in GLOSSARY.term("jokers").definition(
        st.Rules.preset("deuces-high")
    )


def test_the_glossary_file_lives_with_the_lessons_and_is_no_lesson() -> None:
    assert glossary_path().parent == load_lessons()[0].path.parent
    assert all(lesson.path.name != "glossary.md" for lesson in load_lessons())


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("## Trick\nOne card each.\n\n## trick\nAgain.\n", "already defined"),
        ("## Trick\naliases: books\nOne card each.\n\n## Books\nTricks.\n", "already an alias of 'Trick'"),
        ("## Trick\naliases: hand\nOne.\n\n## Deal\naliases: hand\nTwo.\n", "already an alias of 'Trick'"),
        ("## Trick\n\n## Trump\nA card.\n", "has no definition"),
        ("## Trick\nOne. Two. Three.\n", "one or two whole sentences, not 3"),
        ("## Trick\nOne card each\n", "one or two whole sentences"),
        ("## Trump\nThere are {jokers count}.\n", "unknown placeholder"),
        ("## Trump\npreset: nope\nA card.\n", "unknown preset"),
        ("## Trump\naliases: <b>\nA card.\n", "is not a word"),
        ("## Trump\naliases: a, a\nA card.\n", "already"),
        ("## Trump\naliases: x\naliases: y\nA card.\n", "aliases: is given twice"),
    ],
)
def test_a_malformed_glossary_is_refused_naming_the_line(text: str, problem: str) -> None:
    with pytest.raises(LessonError, match=re.escape(problem)) as info:
        small(text)
    assert re.match(r"glossary\.md:\d+: ", str(info.value))


# --- the linker ----------------------------------------------------------------------------------

TINY = small(
    "## Trump\naliases: trumps, trumped\nA card that counts as a spade.\n\n"
    "## Set\naliases: is set\nFewer tricks than the contract.\n\n"
    "## Rule set\naliases: rule sets\nThe rules a table plays.\n\n"
    "## Deuce\naliases: deuces, two\nA two, {trump count} trumps.\n\n"
    "## Bid\nA number of tricks.\n"
)
JOKERS = st.Rules.preset("jokers")


def test_only_the_first_use_of_a_term_in_a_step_is_linked_whatever_its_form() -> None:
    seen: set[str] = set()
    first = link_terms("<p>Trumps win. A trump is high; trumped.</p>", TINY, JOKERS, seen)
    assert buttons(first) == [("glossary-trump", "Trumps")]
    later = link_terms("<p>The trump again, and a bid.</p>", TINY, JOKERS, seen)  # a later block of the step
    assert buttons(later) == [("glossary-bid", "bid")]
    assert seen == {"glossary-trump", "glossary-bid"}
    assert buttons(link_terms("<p>The trump again.</p>", TINY, JOKERS, set())) == [("glossary-trump", "trump")]


def test_terms_match_whole_words_in_any_case_and_keep_their_words() -> None:
    markup = "<p>Trumpet, bidder, rebid, sub-bid, bid-ding; then BID, and TRUMPED.</p>"
    assert buttons(link_terms(markup, TINY, JOKERS, set())) == [("glossary-bid", "BID"), ("glossary-trump", "TRUMPED")]
    across_lines = link_terms("<p>the rule\nsets differ</p>", TINY, JOKERS, set())
    assert buttons(across_lines) == [("glossary-rule-set", "rule\nsets")]


def test_the_longest_form_wins_so_rule_set_is_not_set() -> None:
    linked = link_terms("<p>Pick a rule set. A team is set. Set!</p>", TINY, JOKERS, set())
    assert buttons(linked) == [("glossary-rule-set", "rule set"), ("glossary-set", "is set")]


def test_code_links_headings_buttons_and_card_names_are_never_linked() -> None:
    markup = (
        "<h2>Trump</h2><p><code>trump</code> <a href='#x'>bid</a> <button>deuce</button> "
        'the two of spades, the deuce of hearts, 2♦ <img alt="bid"> and a deuce.</p>'
    )
    linked = link_terms(markup, TINY, JOKERS, set())
    assert buttons(linked) == [("glossary-deuce", "deuce")]
    assert linked.startswith("<h2>Trump</h2><p><code>trump</code> <a href='#x'>bid</a> <button>deuce</button> ")
    assert '<img alt="bid">' in linked


def test_a_definition_opens_in_place_next_to_its_term_filled_for_the_rule_set() -> None:
    ids = iter(["d1", "d2"])
    linked = link_terms("<p>a deuce</p>", TINY, st.Rules.preset("deuces-high"), set(), make_id=lambda: next(ids))
    assert linked == (
        '<p>a <button type="button" class="st-term" aria-expanded="false" aria-controls="d1" '
        'data-term="glossary-deuce">deuce</button><span class="st-term-def" id="d1" hidden>'
        "<b>Deuce:</b> A two, 16 trumps.</span></p>"
    )


def test_a_definition_cannot_inject_markup() -> None:
    evil = small("## Bid\nA <script>x</script> bid & more.\n")
    linked = link_terms("<p>bid</p>", evil, JOKERS, set())
    assert "<script>" not in linked and "&lt;script&gt;" in linked


# --- the lesson player and the page --------------------------------------------------------------


def test_a_lesson_step_links_each_term_once_across_its_prose_and_tips() -> None:
    lesson = parse_lesson(
        "# Demo\n\n---\n\n## Bags\n\nA **bag** is a trick over the contract; two bags, `bags`.\n\n"
        "```tip\nBags add up, and so does a contract.\n```\n\n---\n\n## Again\n\nBags again.\n",
        Path("01-demo.md"),
    )
    player = LessonPlayer(lesson, JOKERS)
    body = "".join(c.value for c in player.body.children)
    assert [b[0] for b in buttons(body)] == ["glossary-bags", "glossary-trick", "glossary-contract"]
    assert "<code>bags</code>" in body
    for control in re.findall(r'aria-controls="([^"]+)"', body):
        assert body.count(f'id="{control}"') == 1
    player.go(1)  # a new step links its first uses again
    assert buttons("".join(c.value for c in player.body.children)) == [("glossary-bags", "Bags")]


def test_every_lesson_links_some_terms_each_once_a_step() -> None:
    for lesson in load_lessons():
        player = LessonPlayer(lesson, JOKERS)
        linked = 0
        for step in range(len(lesson.steps)):
            player.go(step)
            markup = "".join(getattr(c, "value", "") for c in player.body.children)
            slugs = [b[0] for b in buttons(markup)]
            assert len(slugs) == len(set(slugs)), (lesson.slug, step)
            linked += len(slugs)
        assert linked, lesson.slug


def test_the_glossary_page_lists_every_term_alphabetically_under_its_anchor() -> None:
    page = GlossaryPage(JOKERS)
    anchors = re.findall(r'<div class="st-gloss-entry" id="([^"]+)"><dt><dfn>([^<]+)</dfn>', page.list.value)
    assert [name for _, name in anchors] == sorted((t.name for t in GLOSSARY.terms), key=str.lower)
    assert [a for a, _ in anchors] == [GLOSSARY.term(name).slug for _, name in anchors]
    assert f"{len(GLOSSARY.terms)} terms" in page.count.value
    assert "BJ LJ A♠" in page.list.value
    page.set_rules(st.Rules.preset("classic"))
    assert "In Regular Spades there are 13, highest first: A♠ K♠" in page.list.value


def test_the_glossary_search_finds_by_name_alias_and_definition() -> None:
    page = GlossaryPage(JOKERS)
    page.search.value = "SANDBAG"
    assert re.findall(r"<dfn>([^<]+)</dfn>", page.list.value) == ["Bags"]
    assert "1 term matches “SANDBAG”" in page.count.value
    page.search.value = "opposite"
    assert re.findall(r"<dfn>([^<]+)</dfn>", page.list.value) == ["Partner"]
    page.search.value = "<b>zzz"
    assert page.list.value == "" and "No term matches “&lt;b&gt;zzz”" in page.count.value
    page.search.value = "bags" + " " * 100 + "x"
    assert page.shown() == [GLOSSARY.term("bags")]  # only the first MAX_SEARCH characters are read
    assert MAX_SEARCH < 100


def test_the_glossary_is_a_page_of_the_app_a_link_and_a_saved_place_can_name() -> None:
    assert LINK_PAGES["glossary"] == "Glossary"
    app = App(query="page=glossary")
    assert "Glossary" in app.nav.options
    assert app.nav.value == "Glossary" and app.page.children == (app.glossary.widget,)
    assert html.unescape(app.landmarks.title).startswith("Glossary · ")
    app.settings_changed(dataclasses.replace(app.settings, preset="deuces-high"))
    assert "In Deuces high there are 16" in app.glossary.list.value
    assert Place.from_json(Place("Glossary").to_json()) == Place("Glossary")
