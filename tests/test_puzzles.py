"""Puzzles: every shipped one proven by the solver, generation seeded and sharp, codes safe to share.

The proof is per card: after each legal card of the seat to act, the solver answers the goal
question against best defence; exactly the listed answers keep the goal. Goals counted in
tricks are checked again with the solver's plain minimax (every speed-up off).
"""

from __future__ import annotations

import base64
import dataclasses
import datetime
import json
import random

import pytest

import spades_tutor as st
from spades_tutor.puzzles import (
    GOALS,
    THEMES,
    Goal,
    Puzzle,
    PuzzleCodeError,
    daily,
    find_shipped,
    generate,
    goals,
    play_line,
    say_line,
    shipped,
    verify,
)
from spades_tutor.puzzles.generate import _DATA
from spades_tutor.session import Progress
from spades_tutor.solver import Answer, Budget, Position, can_take, solve

SHIPPED = shipped()


def ids(p: Puzzle) -> str:
    return f"{p.rules_name}-{p.id}"


def team_reaches(puzzle: Puzzle, pos: Position) -> bool | None:
    """The goal decided by plain minimax on tricks for the learner's side (None for the nil and bag
    goals, and beyond 4 tricks, where plain minimax is slow)."""
    g, team = puzzle.goal, puzzle.team
    ours = sum(pos.taken[s] for s in team.seats)
    theirs = sum(pos.taken[s] for s in team.other.seats)
    if g.kind in ("make_nil", "break_nil") or pos.tricks_left > 4:
        return None
    if g.kind in ("make_contract", "can_take"):
        best = ours + solve(pos, team, brute_force=True, with_cards=False).value
        need = g.number if g.kind == "make_contract" else g.number + sum(puzzle.taken[s] for s in team.seats)
        return best >= need
    if g.kind == "set_contract":  # the opponents' most, against our best
        return theirs + solve(pos, team.other, brute_force=True, with_cards=False).value < g.number
    return None  # keep_under: the opponents push tricks on us, a game solve() does not count


# --- the shipped set ---------------------------------------------------------------------------


def test_the_shipped_set_covers_every_rule_set_and_several_themes_and_goals() -> None:
    assert {p.rules_name for p in SHIPPED} == set(st.Rules.preset_names())
    assert all(sum(p.rules_name == r for p in SHIPPED) >= 3 for r in st.Rules.preset_names())
    assert len({p.theme for p in SHIPPED}) >= 6
    assert {p.goal.kind for p in SHIPPED} == set(GOALS)
    assert len({p.code for p in SHIPPED}) == len(SHIPPED)


@pytest.mark.parametrize("puzzle", SHIPPED, ids=ids)
def test_every_shipped_puzzle_has_exactly_its_answers_proven(puzzle: Puzzle) -> None:
    pos = puzzle.position
    assert 3 <= pos.tricks_left <= 5
    verdict = verify(puzzle)
    assert verdict.exact and verdict.holds
    assert set(verdict.working) == set(puzzle.answers)
    assert verdict.sharp  # a non-empty proper subset of the legal cards
    for card in pos.legal_plays():
        reached = team_reaches(puzzle, pos.play(card))
        if reached is not None:
            assert reached == (card in puzzle.answers), card


@pytest.mark.parametrize("puzzle", SHIPPED, ids=ids)
def test_shipped_themes_show_in_the_position(puzzle: Puzzle) -> None:
    assert puzzle.theme in THEMES
    g = puzzle.goal
    if puzzle.theme == "save the nil":
        assert g.kind == "make_nil" and g.seat == puzzle.learner
    if puzzle.theme == "cover partner's nil":
        assert g.kind == "make_nil" and g.seat == puzzle.learner.partner
    if puzzle.theme == "break the nil":
        assert g.kind == "break_nil" and g.seat.team != puzzle.team
    if puzzle.theme == "count the bags":
        assert g.kind == "keep_under" and g.bags > 0
    if puzzle.theme == "pull trumps with a joker":
        assert not puzzle.trick and any(c.is_joker for c in puzzle.answers)
    if puzzle.theme == "the 2♦ in deuces-high":
        assert puzzle.rules.suit_of(st.Card.parse("2D")) is st.Suit.SPADES


def test_the_data_file_is_what_the_puzzles_write() -> None:
    data = json.loads(_DATA.read_text(encoding="utf-8"))
    assert [Puzzle.from_dict(d).to_dict() for d in data["puzzles"]] == data["puzzles"]


# --- generation --------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["jokers", "deuces-high", "classic"])
def test_generation_is_seeded_and_keeps_only_sharp_puzzles(preset: str) -> None:
    a = generate(preset, 11, count=2, rounds=10)
    b = generate(preset, 11, count=2, rounds=10)
    assert a == b and a
    for p in a:
        v = verify(p)
        assert v.sharp and set(v.working) == set(p.answers)
        assert 0 < len(p.answers) < len(p.legal_plays())


def test_another_seed_gives_other_puzzles() -> None:
    assert generate("jokers", 11, count=2, rounds=10) != generate("jokers", 12, count=2, rounds=10)


def test_a_puzzle_with_a_card_missing_from_its_answers_is_not_verified() -> None:
    p = next(p for p in SHIPPED if len(p.answers) >= 2)
    cut = dataclasses.replace(p, answers=p.answers[:1])
    assert set(verify(cut).working) != set(cut.answers)


# --- codes ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("puzzle", SHIPPED, ids=ids)
def test_codes_round_trip(puzzle: Puzzle) -> None:
    code = puzzle.code
    assert len(code) <= 60 and all(ch.isalnum() or ch in "-_" for ch in code)
    assert Puzzle.from_code(code) == puzzle
    assert find_shipped(code) == puzzle
    assert len(puzzle.id) == 8


def _recode(code: str, change: dict[int, int]) -> str:
    """A code with some bytes changed and its check characters made right again (a forged link)."""
    import hashlib

    raw = bytearray(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)))[:-2]
    for i, v in change.items():
        raw[i] = v
    body = bytes(raw)
    return base64.urlsafe_b64encode(body + hashlib.sha256(body).digest()[:2]).decode().rstrip("=")


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "x",
        "not a code",
        "<script>",
        "é" * 10,
        "A" * 500,
        "AQAsQyIBAAABHfAS",
    ],
)
def test_malformed_codes_are_refused_with_a_reason(bad: str) -> None:
    with pytest.raises(PuzzleCodeError) as e:
        Puzzle.from_code(bad)
    assert str(e.value)


def test_damaged_and_forged_codes_are_refused() -> None:
    code = SHIPPED[0].code
    flipped = code[:20] + ("A" if code[20] != "A" else "B") + code[21:]
    with pytest.raises(PuzzleCodeError, match="damaged"):
        Puzzle.from_code(flipped)
    with pytest.raises(PuzzleCodeError, match="version"):
        Puzzle.from_code(_recode(code, {0: 9}))
    with pytest.raises(PuzzleCodeError, match="rule set"):
        Puzzle.from_code(_recode(code, {1: 40}))
    with pytest.raises(PuzzleCodeError):
        Puzzle.from_code(_recode(code, {12: 0x00}))  # two cards moved into North's hand
    with pytest.raises(PuzzleCodeError, match="answer"):
        Puzzle.from_code(_recode(code, {8: 0}))  # no answer at all
    with pytest.raises(PuzzleCodeError):
        Puzzle.from_code(None)


def test_every_one_character_change_of_a_code_is_refused_or_another_valid_puzzle() -> None:
    code = SHIPPED[3].code
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    for i in range(len(code)):
        for ch in alphabet[::7]:
            changed = code[:i] + ch + code[i + 1 :]
            try:
                p = Puzzle.from_code(changed)
            except PuzzleCodeError:
                continue
            assert isinstance(p.position, Position)


# --- the daily puzzle -----------------------------------------------------------------------------


def test_the_daily_puzzle_depends_only_on_the_date() -> None:
    day = datetime.date(2026, 12, 2)
    assert daily(day) == daily(datetime.date(2026, 12, 2))
    assert daily(day) in SHIPPED
    days = [datetime.date(2026, 1, 1) + datetime.timedelta(d) for d in range(60)]
    assert len({daily(d).code for d in days}) > 5  # it changes from day to day
    assert all(daily(d, "classic").rules_name == "classic" for d in days[:10])


# --- lines in words --------------------------------------------------------------------------------


@pytest.mark.parametrize("puzzle", SHIPPED[::4], ids=ids)
def test_refutations_and_solutions_are_legal_play_to_the_end(puzzle: Puzzle) -> None:
    for card in puzzle.legal_plays():
        played = play_line(puzzle, card)
        assert played.complete
        rnd_pos = puzzle.position
        for seat, c in played.plays:
            assert seat == rnd_pos.to_act
            assert c in st.legal_plays(puzzle.rules, rnd_pos.hands[seat], rnd_pos.trick, rnd_pos.spades_broken)
            rnd_pos = rnd_pos.play(c)
        assert rnd_pos.tricks_left == 0
        # the line reaches the goal exactly when the card is an answer
        assert puzzle.ask(rnd_pos).holds == (card in puzzle.answers)
        text = say_line(puzzle, played)
        assert text.startswith(f"After your {card.name}")
        assert "wins the trick" in text or "win the trick" in text


def test_a_refutation_names_the_trick_winners_the_engine_names() -> None:
    p = next(p for p in SHIPPED if p.goal.kind == "make_nil")
    wrong = next(c for c in p.legal_plays() if c not in p.answers)
    played = play_line(p, wrong)
    text = say_line(p, played)
    pos, winners = p.position, []
    trick: list[st.Card] = list(pos.trick)
    for _seat, c in played.plays:
        leader = pos.leader
        trick.append(c)
        pos = pos.play(c)
        if len(trick) == 4:
            winners.append(st.Seat((leader + st.trick_winner(p.rules, trick)) % 4))
            trick = []
    said = [part.split(" wins the trick")[0].split()[-1] for part in text.split("; ") if " wins the trick" in part]
    named = [w.name.title() for w in winners if w != p.learner]
    assert said == named
    assert "the nil is broken" in text


# --- the Puzzles page, without a browser -------------------------------------------------------------

DAY = datetime.date(2026, 12, 2)


def test_the_page_opens_on_the_daily_puzzle_and_refutes_then_accepts() -> None:
    from spades_tutor.ui.puzzle_page import PuzzlePage

    page = PuzzlePage(today=DAY)
    p = page.puzzle
    assert p == daily(DAY, None, "easy") and p.difficulty == "easy"  # a new learner: an easy one
    wrong = next(c for c in p.legal_plays() if c not in p.answers)
    page.choose(wrong)
    page.check()
    assert page.tries == 1 and not page.solved
    assert f"Not the {wrong.name}" in page.verdict.value and "Try once more" in page.verdict.value
    assert f"after your {wrong.name}" in page.lines_text()
    (why_not,) = page.steppers
    assert why_not.tricks and why_not.tricks[0].cards[len(p.trick)] == wrong  # the refutation, on the cards
    page.choose(p.answers[0])
    page.check()
    assert page.solved and "Right" in page.verdict.value
    assert all(c.name in page.verdict.value for c in p.answers)
    assert "The winning line" in page.lines_text() and why_not.widget.comm is None  # the refutation's widgets closed
    assert page.check_button.disabled and page.picker is not None and page.picker.selectable == "none"


def test_two_wrong_cards_show_the_answer() -> None:
    from spades_tutor.ui.puzzle_page import PuzzlePage

    p = next(p for p in SHIPPED if len(p.legal_plays()) - len(p.answers) >= 2)
    page = PuzzlePage(code=p.code, today=DAY)
    assert page.puzzle == p
    wrongs = [c for c in p.legal_plays() if c not in p.answers]
    for c in wrongs[:2]:
        page.choose(c)
        page.check()
    assert page.tries == 2 and not page.solved
    assert "either" in page.verdict.value and all(c.name in page.verdict.value for c in p.answers)


def test_an_illegal_card_is_explained_and_costs_no_try() -> None:
    from spades_tutor.ui.puzzle_page import PuzzlePage

    p = next(p for p in SHIPPED if len(p.legal_plays()) < len(p.hands[p.learner]))
    page = PuzzlePage(code=p.code, today=DAY)
    illegal = next(c for c in p.hands[p.learner] if c not in p.legal_plays())
    page.choose(illegal)
    page.check()
    assert page.tries == 0 and "may not be played" in page.verdict.value


def test_the_page_shows_the_hands_the_goal_needs_and_all_on_request() -> None:
    from spades_tutor.ui.puzzle_page import PuzzlePage

    save = next(p for p in SHIPPED if p.theme == "save the nil")
    page = PuzzlePage(code=save.code, today=DAY)
    assert page.seen() == [save.learner]
    page.show_all.value = True
    assert sorted(page.seen()) == sorted(st.Seat)
    contract = next(p for p in SHIPPED if p.goal.kind == "make_contract")
    page = PuzzlePage(code=contract.code, today=DAY)
    assert page.seen() == [contract.learner.partner, contract.learner]
    assert (page.share.param, page.share.value) == ("puzzle", contract.code)


def test_a_forged_link_is_checked_by_the_solver_before_it_is_shown() -> None:
    from spades_tutor.ui.puzzle_page import PuzzlePage

    p = next(p for p in SHIPPED if len(p.answers) >= 2)
    cut = dataclasses.replace(p, answers=p.answers[:1], theme="general")  # not shipped: its code differs
    page = PuzzlePage(code=cut.code, today=DAY)
    assert set(page.puzzle.answers) == set(p.answers)
    assert "corrected" in page.note
    page = PuzzlePage(code="garbage!", today=DAY)
    assert page.puzzle == daily(DAY) and "could not be read" in page.note


def test_next_puzzle_follows_the_rule_set_and_theme_chosen() -> None:
    from spades_tutor.ui.puzzle_page import PuzzlePage

    page = PuzzlePage(today=DAY)
    page.rule_choice.value = "classic"
    seen = set()
    for _ in range(6):
        page.next_puzzle()
        assert page.puzzle.rules_name == "classic"
        seen.add(page.puzzle.code)
    assert len(seen) == sum(p.rules_name == "classic" for p in SHIPPED)
    page.rule_choice.value = "every"
    page.theme_choice.value = "count the bags"
    page.next_puzzle()
    assert page.puzzle.theme == "count the bags"


def test_choosing_a_rule_set_or_theme_shows_a_puzzle_of_it() -> None:
    from spades_tutor.ui.puzzle_page import PuzzlePage

    page = PuzzlePage(today=DAY)
    other = next(n for n in st.Rules.preset_names() if n != page.puzzle.rules_name)
    page.rule_choice.value = other
    assert page.puzzle.rules_name == other and "for this choice" in page.note
    shown = page.puzzle
    page.theme_choice.value = shown.theme  # it fits already: it stays, with the learner's card
    assert page.puzzle is shown
    page.theme_choice.value = next(
        t for t in THEMES if not any(p.theme == t and p.rules_name == other for p in SHIPPED)
    )
    assert page.puzzle is shown and "No shipped puzzle" in page.note  # nothing fits: said, not hidden


def test_a_new_puzzle_is_generated_from_the_pages_seed() -> None:
    from spades_tutor.ui.puzzle_page import PuzzlePage

    a, b = PuzzlePage(today=DAY, seed=5), PuzzlePage(today=DAY, seed=5)
    a.rule_choice.value = b.rule_choice.value = "jokers"
    a.new_puzzle()
    b.new_puzzle()
    assert a.puzzle == b.puzzle and a.puzzle.rules_name == "jokers"
    assert verify(a.puzzle).sharp
    a.theme_choice.value = "pull trumps with a joker"
    a.new_puzzle()
    assert a.puzzle.theme == "pull trumps with a joker" and verify(a.puzzle).sharp
    a.rule_choice.value = "classic"  # no joker in its deck: nothing is generated, the page says why
    a.new_puzzle()
    assert a.puzzle.rules_name == "jokers" and "cannot show" in a.note


def test_a_puzzle_link_opens_the_puzzles_page() -> None:
    from spades_tutor.ui.app import App, read_query

    p = SHIPPED[7]
    link, notes = read_query(f"puzzle={p.code}")
    assert link == {"page": "Puzzles", "puzzle": p.code} and not notes
    link, notes = read_query("puzzle=%3Cscript%3E")
    assert link == {"page": "Puzzles"} and "could not be read" in notes[0]
    link, notes = read_query(f"deal=4127&puzzle={p.code}")  # the Classroom's deal comes first
    assert link["page"] == "Classroom" and link["puzzle"] == p.code
    app = App(f"puzzle={p.code}")
    assert app.nav.value == "Puzzles" and app.puzzles.puzzle == p


def test_a_line_cut_short_by_its_budget_says_so() -> None:
    from spades_tutor.solver import Budget

    p = SHIPPED[0]
    played = play_line(p, p.answers[0], Budget(seconds=0.0))
    assert not played.complete and played.plays == ((p.learner, p.answers[0]),)
    assert "budget" in say_line(p, played)


def test_a_link_the_solver_cannot_check_within_the_budget_is_not_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    from spades_tutor.solver import Budget
    from spades_tutor.ui import puzzle_page

    # the solver counts its budget in blocks of nodes: take the puzzle that needs the most work
    p = max((p for p in SHIPPED if len(p.answers) >= 2), key=lambda p: verify(p).nodes)
    if verify(p, Budget(nodes=1)).exact:
        pytest.skip("every shipped puzzle is proven within the solver's smallest block of work")
    forged = dataclasses.replace(p, answers=p.answers[:1], theme="general")
    monkeypatch.setattr(puzzle_page, "CHECK_BUDGET", Budget(nodes=1))
    page = puzzle_page.PuzzlePage(code=forged.code, today=DAY)
    assert page.puzzle == daily(DAY) and "work budget" in page.note


# --- the goals: one registered class each, and the codes already shared ----------------------------

#: codes made before the goals had classes of their own (shared links hold them): code -> rule set,
#: goal (kind, number, seat, bags), the learner's hand, the answers and the goal's sentence
OLD_CODES = {
    "AQAsQwEFAAADAv__8___H______w____8_ExIi_xAS8gM_APaqw": (
        ("jokers", "can_take", 5, "N", 0, "LJ AS TS 5S JD", "LJ AS"),
        "You play North: take 5 of the last 5 tricks for N–S.",
    ),
    "AQAUUAUAAQAGBPHzE0IS8P_______w___z____________8v7Ro": (
        ("jokers", "make_nil", 0, "E", 0, "TC 6C 3C", "6C 3C"),
        "You play East: you bid nil; take none of the last 3 tricks.",
    ),
    "AQAnJCIFAggFEP__AP__________H_________8fX_L0cjMvjb8": (
        ("jokers", "keep_under", 5, "S", 8, "LJ QS 8S", "LJ 8S"),
        "You play South: N–S have 8 bags and 4 tricks; take at most 5 in all, "
        "or a bag more brings the 10-bag penalty of 100.",
    ),
    "AQAEQgMIAgABHf______M_______P_____Ef__Ii_19BADAvVBU": (
        ("jokers", "make_contract", 8, "S", 0, "LJ 4S 3S 2S", "LJ"),
        "You play South: N–S bid 8 and have 4, so make the contract by taking 4 of the last 4 tricks.",
    ),
    "AQEcMBQAAQABDvHz_wISEP__D__xHw___zP_8vLy__M___D_B0o": (
        ("deuces-high", "break_nil", 0, "E", 0, "AS AC 9C AD 6D", "AS"),
        "You play North: East bid nil; make East take one of the last 5 tricks.",
    ),
    "AQIMUBMEAgADHf___xPyL__w_z8_____QPUx__L___8f_wL_Suw": (
        ("two-of-spades-third", "set_contract", 4, "S", 0, "2S AS QC JC", "2S AS"),
        "You play South: E–W bid 4 and have 3; set them by letting them take none of the last 4 tricks.",
    ),
}
#: each goal's number in a code: fixed for good, or the links already shared would change meaning
GOAL_CODES = {"make_contract": 0, "set_contract": 1, "make_nil": 2, "break_nil": 3, "keep_under": 4, "can_take": 5}


@pytest.mark.parametrize("code", list(OLD_CODES))
def test_a_code_shared_before_the_goal_classes_decodes_to_the_same_puzzle_and_its_goals_class(code: str) -> None:
    (rules, kind, number, seat, bags, hand, answers), sentence = OLD_CODES[code]
    p = Puzzle.from_code(code)
    d = p.to_dict()
    assert d["rules"] == rules and d["goal"] == {"kind": kind, "number": number, "seat": seat, "bags": bags}
    assert d["hands"][p.learner.letter] == hand and d["answers"] == answers
    assert p.sentence() == sentence and p.code == code  # said as before, and written back the same
    assert p.goal.rule is goals.get(kind) and p.goal.rule.code == GOAL_CODES[kind]
    assert set(verify(p).working) == set(p.answers)  # the goal's class asks the solver the same question


def test_each_goal_is_one_registered_class_with_its_number_for_good() -> None:
    assert GOALS == goals.names() == tuple(GOAL_CODES)
    assert {name: goals.get(name).code for name in goals.names()} == GOAL_CODES  # type: ignore[union-attr]
    assert {p.goal.kind for p in SHIPPED} == set(GOAL_CODES)  # every goal's words are shown by some puzzle
    assert goals.get("win_the_game") is None and goals.by_code(len(GOAL_CODES)) is None
    with pytest.raises(PuzzleCodeError, match="not a puzzle goal: 'win_the_game'"):
        dataclasses.replace(SHIPPED[0].goal, kind="win_the_game")


def test_a_goal_added_as_one_class_is_asked_said_explained_and_coded() -> None:
    class TakeEveryTrick(goals.GoalKind):
        name = "take_every_trick"
        code = 6

        def ask(self, puzzle: Puzzle, pos: Position, budget: Budget) -> Answer:
            return can_take(pos, puzzle.team, pos.tricks_left, budget=budget)

        def sentence(self, puzzle: Puzzle) -> str:
            return f"Take all of the last {puzzle.tricks_left} tricks."

        def outcome(self, puzzle: Puzzle, end: Position) -> str:
            return f"{end.taken[puzzle.learner]} tricks for you."

    first = SHIPPED[0]  # can_take 5 of the last 5: the same question, asked by the new class
    code = ""
    goals.register(TakeEveryTrick)
    try:
        p = dataclasses.replace(first, goal=Goal("take_every_trick", 0, first.learner))
        assert p.sentence() == "Take all of the last 5 tricks."
        assert set(verify(p).working) == set(first.answers)
        assert say_line(p, play_line(p, p.answers[0])).endswith("tricks for you.")
        code = p.code
        assert code != first.code and Puzzle.from_code(code) == p
        with pytest.raises(st.SpadesError, match="clashes"):
            goals.register(type("Clash", (TakeEveryTrick,), {"name": "clash"}))
    finally:
        goals.unregister("take_every_trick")
    assert goals.names() == tuple(GOAL_CODES)
    with pytest.raises(PuzzleCodeError, match="names a goal, seat, theme or level we do not have"):
        Puzzle.from_code(code)


def test_the_share_link_shows_only_a_plain_code_and_takes_only_a_plain_parameter() -> None:
    from spades_tutor.ui.share import ShareLink

    link = ShareLink("puzzle")
    link.show(shipped()[0].code)
    assert link.value == shipped()[0].code
    for hostile in ('"><script>alert(1)</script>', "a b", "", "x" * 3000, "code?x=1"):
        link.show(hostile)
        assert link.value == "", hostile  # nothing shown rather than a link that is not a puzzle code
    with pytest.raises(ValueError, match="letters, digits"):
        ShareLink("puzzle&x")


def test_a_line_is_played_out_on_the_cards_one_trick_at_a_time_with_every_hand() -> None:
    """The refutation shown trick by trick: each trick's cards and winner are the engine's, the four
    hands shrink by the trick's cards, and the words for each trick are the line's."""
    from spades_tutor.ui.puzzle_page import PuzzlePage

    p = next(p for p in SHIPPED if p.trick and p.tricks_left >= 2 and len(p.legal_plays()) > len(p.answers))
    page = PuzzlePage(code=p.code, today=DAY)
    wrong = next(c for c in p.legal_plays() if c not in p.answers)
    page.choose(wrong)
    page.check()
    (line,) = page.steppers
    assert len(line.tricks) == p.tricks_left and line.tricks[0].cards[: len(p.trick)] == tuple(p.trick)
    before = {seat: set(p.hands[seat]) for seat in st.Seat}
    for i, trick in enumerate(line.tricks):
        line.go(i)
        assert f"Trick {i + 1} of {len(line.tricks)}" in line.where.value
        assert trick.winner == st.Seat((trick.leader + st.trick_winner(p.rules, trick.cards)) % 4)
        for seat in st.Seat:
            assert set(trick.hands[seat]) <= before[seat]
        shown = set().union(*before.values()) - set().union(*(set(h) for h in trick.hands))
        assert set(trick.cards) - set(p.trick) <= shown  # the trick's cards left the hands
        before = {seat: set(trick.hands[seat]) for seat in st.Seat}
        assert line.prev.disabled == (i == 0) and line.next.disabled == (i == len(line.tricks) - 1)
    line.next.click()  # past the last trick: it stays
    assert line.index == len(line.tricks) - 1
    assert line.outcome in line.text()


def _run(first_try: bool, n: int, difficulty: str = "medium") -> Progress:
    """A record of ``n`` puzzles (of ids of their own) right, or missed, on the first try."""
    p = Progress()
    for i in range(n):
        p.record_puzzle(f"{i:08x}", "jokers", difficulty, first_try, when=1_000.0 + i)
    return p


def test_the_daily_puzzle_fits_the_learner_their_rule_set_and_rating() -> None:
    """A new learner gets an easy puzzle of their rule set; a run of puzzles solved, a hard one; a
    record that arrives (or a rule set picked) while today's puzzle is shown untried chooses it again."""
    from spades_tutor.ui.puzzle_page import PuzzlePage

    page = PuzzlePage(today=DAY, rules_name="jokers", standing=Progress().puzzle_standing())
    assert (page.puzzle.rules_name, page.puzzle.difficulty) == ("jokers", "easy")
    assert page.rule_choice.value == "jokers" and "easy for you (you are new here)" in page.head.value
    assert "Your puzzle rating: 1500 (new: it settles as you solve puzzles)." in page.rating_line.value
    strong = _run(True, 6)
    page.fit("deuces-high", strong.puzzle_standing())
    assert page.rule_choice.value == "deuces-high"
    assert (page.puzzle.rules_name, page.puzzle.difficulty) == ("deuces-high", "hard")
    assert "near your puzzle rating" in page.head.value
    assert f"Your puzzle rating: {round(strong.puzzle_standing().learner.rating)}" in page.rating_line.value
    # tried, it stays: a record arriving does not take a puzzle from under the learner
    wrong = next(c for c in page.puzzle.legal_plays() if c not in page.puzzle.answers)
    page.choose(wrong)
    page.check()
    shown = page.puzzle
    page.fit("deuces-high", Progress().puzzle_standing())
    assert page.puzzle is shown and page.tries == 1
    # classic has no easy puzzle: the nearest level, and the page says so
    page = PuzzlePage(today=DAY, rules_name="classic")
    assert page.puzzle.rules_name == "classic" and page.puzzle.difficulty == "medium"
    assert "no easy one in this rule set" in page.head.value


def test_the_page_reports_each_puzzle_shown_once_by_its_first_card() -> None:
    """The first legal card checked is the puzzle's result (an illegal one is not); a second try
    adds nothing; the same puzzle shown again counts again."""
    from spades_tutor.ui.puzzle_page import PuzzlePage

    told: list[tuple[str, bool]] = []
    p = next(p for p in SHIPPED if len(p.legal_plays()) < len(p.hands[p.learner]))
    page = PuzzlePage(code=p.code, today=DAY, on_result=lambda puzzle, right: told.append((puzzle.id, right)))
    illegal = next(c for c in p.hands[p.learner] if c not in p.legal_plays())
    page.choose(illegal)
    page.check()
    assert told == []
    wrong = next(c for c in p.legal_plays() if c not in p.answers)
    page.choose(wrong)
    page.check()
    page.choose(p.answers[0])
    page.check()
    assert told == [(p.id, False)] and page.solved
    page.load(p)
    page.choose(p.answers[0])
    page.check()
    page.check()  # solved: checking again does nothing
    assert told == [(p.id, False), (p.id, True)]


def test_a_new_puzzle_is_made_near_the_learners_rating() -> None:
    from spades_tutor.puzzles import generate_near
    from spades_tutor.puzzles.rating import aim
    from spades_tutor.ui.puzzle_page import PuzzlePage

    strong = _run(True, 6).puzzle_standing()
    page = PuzzlePage(today=DAY, seed=5, rules_name="jokers", standing=strong)
    assert page.puzzle.difficulty == "hard"
    page.new_puzzle()
    seed = random.Random(5).randrange(1_000_000)
    assert page.puzzle == generate_near("jokers", seed, aim(strong.learner), standing=strong, rounds=40)
    assert page.puzzle.difficulty == "hard" and "near your puzzle rating" in page.head.value
    assert verify(page.puzzle).sharp


# --- a table without nil ------------------------------------------------------------------------


def test_nil_themes_are_the_themes_of_the_goals_about_a_nil() -> None:
    from spades_tutor.ui.puzzle_page import NIL_THEMES

    assert any(p.goal.rule.about_nil for p in SHIPPED)
    for p in SHIPPED:
        assert (p.theme in NIL_THEMES) == p.goal.rule.about_nil, p.code
    assert {k for k in goals.names() if goals.get(k).about_nil} == {"make_nil", "break_nil"}  # type: ignore[union-attr]


def test_a_table_without_nil_gets_no_nil_puzzle_daily() -> None:
    from spades_tutor.ui.puzzle_page import PuzzlePage

    days = [DAY + datetime.timedelta(days=d) for d in range(60)]
    # with nil, some days' puzzle is about a nil: the choice below has something to leave out
    assert any(daily(d, "jokers").goal.rule.about_nil for d in days)
    for d in days:
        for near in (None, 1100.0, 1500.0, 1900.0):
            for name in (None, *st.Rules.preset_names()):
                assert not daily(d, name, near=near, nil=False).goal.rule.about_nil, (d, near, name)
    page = PuzzlePage(today=DAY, rules_name="jokers", nil=False)
    for d in days:
        page.today = d
        page.show_daily()
        assert not page.puzzle.goal.rule.about_nil and page.puzzle.rules_name == "jokers", d


def test_the_learners_table_losing_nil_refits_todays_untried_puzzle() -> None:
    from spades_tutor.puzzles.rating import Standing
    from spades_tutor.ui.puzzle_page import PuzzlePage

    pages = (PuzzlePage(today=DAY + datetime.timedelta(days=d), rules_name="jokers") for d in range(60))
    page = next(p for p in pages if p.puzzle.goal.rule.about_nil)  # today's puzzle for the learner is a nil one
    assert page.puzzle.goal.rule.about_nil
    page.fit("jokers", Standing(), nil=False)
    assert not page.puzzle.goal.rule.about_nil and not page.nil
    page.fit("jokers", Standing(), nil=True)
    assert page.puzzle.goal.rule.about_nil


def test_a_table_without_nil_makes_no_nil_puzzle() -> None:
    from spades_tutor.ui.puzzle_page import NIL_THEMES as NIL_THEMES_
    from spades_tutor.ui.puzzle_page import PuzzlePage

    # the generator's bots at a table without nil bid none: no nil goal comes up, even when asked for one
    assert generate("jokers", 4, count=1, rounds=40, theme="cover partner's nil")
    assert not generate(st.Rules.preset("jokers", nil=False), 4, count=1, rounds=40, theme="cover partner's nil")
    found = generate(st.Rules.preset("jokers", nil=False), 3, count=8, rounds=40)
    assert len(found) == 8 and not any(p.goal.rule.about_nil for p in found)
    page = PuzzlePage(today=DAY, seed=5, rules_name="jokers", nil=False)
    page.rule_choice.value = "jokers"
    for _ in range(4):
        page.new_puzzle()
        assert not page.puzzle.goal.rule.about_nil and "A new puzzle" in page.note
    # its theme menu offers no nil theme to ask for
    offered = {value for _, value in page.theme_choice.options}
    assert not offered & set(NIL_THEMES_) and "endplay" in offered
    with_nil = PuzzlePage(today=DAY, seed=5, rules_name="jokers")
    with_nil.rule_choice.value = "jokers"
    with_nil.theme_choice.value = "cover partner's nil"
    with_nil.new_puzzle()
    assert with_nil.puzzle.goal.rule.about_nil and "A new puzzle" in with_nil.note


def test_next_puzzle_at_a_table_without_nil_skips_the_shipped_nil_puzzles() -> None:
    from spades_tutor.ui.puzzle_page import EVERY as EVERY_RULE_SET
    from spades_tutor.ui.puzzle_page import NIL_THEMES as NIL_THEMES_
    from spades_tutor.ui.puzzle_page import PuzzlePage

    page = PuzzlePage(today=DAY, rules_name="jokers", nil=False)
    with_nil = PuzzlePage(today=DAY, rules_name="jokers")
    for p in (page, with_nil):
        p.rule_choice.value = EVERY_RULE_SET
    assert any(p.goal.rule.about_nil for p in with_nil.pool())  # something to leave out
    assert page.pool() == [p for p in with_nil.pool() if not p.goal.rule.about_nil]
    seen = []
    for _ in range(len(page.pool()) + 1):
        page.next_puzzle()
        seen.append(page.puzzle)
        assert not page.puzzle.goal.rule.about_nil
    assert {p.code for p in seen} == {p.code for p in page.pool()}  # every other puzzle comes round
    # a learner at a table with nil chooses a nil theme; their table then loses nil: the menu leaves the nil
    # themes out and goes back to every theme, and today's untried puzzle is chosen again without nil
    with_nil.theme_choice.value = "save the nil"
    assert with_nil.puzzle.goal.rule.about_nil
    with_nil.show_daily()
    with_nil.fit("jokers", with_nil.standing, nil=False)
    assert with_nil.theme_choice.value == EVERY_RULE_SET
    assert not {value for _, value in with_nil.theme_choice.options} & set(NIL_THEMES_)
    assert not with_nil.puzzle.goal.rule.about_nil
    with_nil.fit("jokers", with_nil.standing, nil=True)
    assert {value for _, value in with_nil.theme_choice.options} >= set(NIL_THEMES_)
