"""Sure tricks by counting: a proven lower bound on the tricks a hand takes, in every rule set.

Rule text: a trump is beaten only by a higher trump, and each card played takes part in one
trick. So each trump the other three players hold can capture at most one of yours, and only
one lower than itself: the hand is sure of its trumps minus the most of them the outside
trumps can capture. The expected counts here come from an independent computation (the
largest matching of outside trumps to lower trumps of yours, found by augmenting paths), and
the bound is checked against real play: random and heuristic bots, every preset.
"""

from __future__ import annotations

import random

import pytest

import spades_tutor as st
from spades_tutor.bots import HeuristicBot, RandomBot, play_out, play_round
from spades_tutor.engine import hand_eval
from spades_tutor.engine.hand_eval import likely_tricks

PRESETS = st.Rules.preset_names()
C = st.Card.parse


def captures(rules: st.Rules, hand: list[st.Card]) -> int:
    """The most of this hand's trumps that the trumps outside it can capture, one each, each a lower one."""
    order = rules.trump_order()
    rank = {c: len(order) - i for i, c in enumerate(order)}  # higher is stronger
    mine = [c for c in order if c in hand]
    outside = [c for c in order if c not in hand]
    can_take = {o: [m for m in mine if rank[o] > rank[m]] for o in outside}
    taken_by: dict[st.Card, st.Card] = {}

    def augment(o: st.Card, seen: set[st.Card]) -> bool:
        for m in can_take[o]:
            if m in seen:
                continue
            seen.add(m)
            if m not in taken_by or augment(taken_by[m], seen):
                taken_by[m] = o
                return True
        return False

    return sum(augment(o, set()) for o in outside)


def brute_sure(rules: st.Rules, hand: list[st.Card]) -> int:
    trumps = sum(1 for c in hand if rules.is_trump(c))
    return trumps - captures(rules, hand)


def in_deck(rules: st.Rules, text: str) -> list[st.Card]:
    deck = set(rules.deck())
    return [c for c in st.cards(text) if c in deck]


EXAMPLES = (
    "AS KS QS",
    "LJ AS KS",
    "BJ LJ KS QS",
    "AS KS",
    "BJ",
    "LJ",
    "BJ AS",
    "BJ KS QS",
    "AS KS QS JS 9S 3S",
    "KS QS JS 10S",
    "2D 2S AS",
    "LJ 2S KS QS",
    "9S 5S 3S",
    "BJ AS KS JS 9S 5S 5H 9C 4C 2C AD QD 9D",
    "4H 5H AC",
    "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
)


# --- the count ------------------------------------------------------------------------------------


def test_the_examples_of_the_rule_in_the_jokers_preset() -> None:
    rules = st.Rules.preset("jokers")
    got = {h: st.sure_trick_count(rules, st.cards(h)) for h in ("AS KS QS", "LJ AS KS", "BJ LJ KS QS", "AS KS", "BJ")}
    assert got == {"AS KS QS": 1, "LJ AS KS": 2, "BJ LJ KS QS": 3, "AS KS": 0, "BJ": 1}
    # the unbroken run from the top said 0 and 0 for the first two
    assert st.sure_tricks(rules, st.cards("AS KS QS")) == () and st.sure_tricks(rules, st.cards("LJ AS KS")) == ()


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("text", EXAMPLES)
def test_the_count_matches_an_independent_matching_in_every_preset(preset: str, text: str) -> None:
    rules = st.Rules.preset(preset)
    hand = in_deck(rules, text)
    assert st.sure_trick_count(rules, hand) == brute_sure(rules, hand)
    assert len(st.sure_tricks(rules, hand)) <= st.sure_trick_count(rules, hand)  # the run is always sure


@pytest.mark.parametrize("preset", PRESETS)
def test_the_count_matches_the_matching_on_random_hands(preset: str) -> None:
    rules = st.Rules.preset(preset)
    rng = random.Random(preset)
    deck = list(rules.deck())
    trumps = list(rules.trump_order())
    for _ in range(600):
        hand = rng.sample(deck, 13)
        assert st.sure_trick_count(rules, hand) == brute_sure(rules, hand)
        many = rng.sample(trumps, rng.randint(0, len(trumps)))  # long trump holdings too
        assert st.sure_trick_count(rules, many) == brute_sure(rules, many)


# --- the bound holds in play ------------------------------------------------------------------------


def dealt(rules: st.Rules, seed: int) -> dict[st.Seat, list[st.Card]]:
    rnd = st.Round.deal(rules, seed=seed)
    return {s: list(h) for s, h in rnd.hands.items()}


@pytest.mark.parametrize("preset", PRESETS)
def test_every_seat_takes_at_least_its_sure_count_in_random_and_bot_play(preset: str) -> None:
    rules = st.Rules.preset(preset)
    seen = {"random": 0, "heuristic": 0}
    for seed in range(300):
        hands = dealt(rules, seed)
        sure = {s: st.sure_trick_count(rules, h) for s, h in hands.items()}
        players = {
            "random": {s: RandomBot(seed=seed * 4 + int(s)) for s in st.Seat},
            "heuristic": {s: HeuristicBot() for s in st.Seat},
        }
        for name, bots in players.items():
            rnd = play_round(rules, bots, seed=seed)
            assert {s: list(h) for s, h in st.Round.deal(rules, seed=seed).hands.items()} == hands
            for seat in st.Seat:
                assert rnd.tricks_won[seat] >= sure[seat], (preset, name, seed, seat, hands[seat])
            seen[name] += sum(1 for n in sure.values() if n)
    assert seen["random"] > 50 and seen["heuristic"] > 50  # the bound was tested on hands that have one


@pytest.mark.parametrize("preset", PRESETS)
def test_a_seat_holding_many_trumps_takes_its_count_too(preset: str) -> None:
    """Dealt hands seldom hold long trumps: give one seat most of them and play it out."""
    rules = st.Rules.preset(preset)
    order = list(rules.trump_order())
    side = [c for c in rules.deck() if not rules.is_trump(c)]
    for seed in range(40):
        rng = random.Random(seed)
        n = rng.randint(5, min(13, len(order)))
        mine = rng.sample(order, n)
        rest = [c for c in rules.deck() if c not in mine]
        rng.shuffle(rest)
        south = mine + [c for c in rest if c in side][: 13 - n]
        others = [c for c in rest if c not in south]
        hands = {
            st.Seat.SOUTH: south,
            st.Seat.WEST: others[:13],
            st.Seat.NORTH: others[13:26],
            st.Seat.EAST: others[26:],
        }
        sure = st.sure_trick_count(rules, south)
        for bots in ({s: RandomBot(seed=seed + int(s)) for s in st.Seat}, {s: HeuristicBot() for s in st.Seat}):
            rnd = play_out(st.Round.from_hands(rules, hands, dealer=st.Seat(seed % 4)), bots)
            assert rnd.tricks_won[st.Seat.SOUTH] >= sure, (preset, seed, south)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_bound_is_tight_a_layout_takes_exactly_the_count(preset: str) -> None:
    """Three trumps just below the top ones (A♠ K♠ Q♠ with both jokers out, K♠ Q♠ J♠ with the
    A♠ out in regular Spades, ...) and the lowest side cards: some play takes exactly the count.

    East holds the higher trumps and is void in hearts; random play of this deal reaches a
    round where South takes no more than the count.
    """
    rules = st.Rules.preset(preset)
    order = list(rules.trump_order())
    above = 2 if rules.jokers else 1
    side = [c for c in rules.deck() if not rules.is_trump(c)]
    lowest = sorted(side, key=lambda c: c.rank)
    south = order[above : above + 3] + [c for c in lowest if c.suit is not None][:10]
    sure = st.sure_trick_count(rules, south)
    assert sure == brute_sure(rules, south) == 3 - above
    rest = [c for c in rules.deck() if c not in south]
    clubs = [c for c in rest if c.suit is st.Suit.CLUBS and not rules.is_trump(c)]
    diamonds = [c for c in rest if c.suit is st.Suit.DIAMONDS and not rules.is_trump(c)]
    east = [*order[:above], *clubs[: 13 - above - 5], *diamonds[:5]]
    others = [c for c in rest if c not in east]
    hands = {st.Seat.SOUTH: south, st.Seat.EAST: east, st.Seat.NORTH: others[:13], st.Seat.WEST: others[13:]}
    taken = [
        play_out(
            st.Round.from_hands(rules, hands, dealer=st.Seat.WEST),
            {s: RandomBot(seed=k * 4 + int(s)) for s in st.Seat},
        ).tricks_won[st.Seat.SOUTH]
        for k in range(600)
    ]
    assert min(taken) == sure


# --- the words ------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("text", EXAMPLES)
def test_the_explanation_states_the_count_and_names_no_card_the_hand_holds_as_a_danger(preset: str, text: str) -> None:
    rules = st.Rules.preset(preset)
    hand = in_deck(rules, text)
    words = st.explain_sure_tricks(rules, hand)
    n = brute_sure(rules, hand)
    assert words.endswith(f": {n} sure trick{'' if n == 1 else 's'}." if n else ": no sure tricks.")
    danger = words.split(" can take ")[0] if " can take " in words else ""
    for card in hand:
        name = f"the {card.name}" if card.is_joker else str(card)
        assert name not in danger, words
    if not rules.jokers:
        assert "joker" not in words


def test_the_explanation_says_it_by_counting() -> None:
    jokers = st.Rules.preset("jokers")
    assert st.explain_sure_tricks(jokers, st.cards("AS KS QS 9H 4C")) == (
        "The big and little joker can take at most two of your three trumps, one each: 1 sure trick."
    )
    assert st.explain_sure_tricks(jokers, st.cards("LJ AS KS 8H 4D")) == (
        "The big joker can take at most one of your three trumps: 2 sure tricks."
    )
    deuces = st.Rules.preset("deuces-high")
    assert "2♦" in st.explain_sure_tricks(deuces, st.cards("AS KS QS"))  # 16 trumps: the 2♦ and 2♠ are out too
    classic = st.Rules.preset("classic")
    assert st.explain_sure_tricks(classic, st.cards("KS QS 4H")) == (
        "A♠ can take at most one of your two trumps: 1 sure trick."
    )


def test_the_bidding_helper_counts_a_k_q_j_9_3_of_spades() -> None:
    """The Play page's helper quotes the engine: A K Q J 9 3 of spades is sure of 2, not "No sure tricks"."""
    from spades_tutor.ui.play_page import PLAYER, PlayPage

    rules = st.Rules.preset("jokers")
    south = st.cards("AS KS QS JS 9S 3S 4H 5H 6H 4C 5C 6C 7C")
    rest = [c for c in rules.deck() if c not in south]
    page = PlayPage(rules)
    page.new_game(seed=1)
    assert page.game is not None
    hands = {PLAYER: south, st.Seat.WEST: rest[:13], st.Seat.NORTH: rest[13:26], st.Seat.EAST: rest[26:]}
    # Game deals its own rounds; this test seats a chosen hand at South in the game's open round
    page.game._round = st.Round.from_hands(rules, hands, dealer=st.Seat.EAST)  # South bids first
    page.render()
    helper = next(c.value for c in page.body.children if "Sure tricks" in str(getattr(c, "value", "")))
    assert "No sure tricks" not in helper and "no sure tricks" not in helper
    assert "2 sure tricks" in helper and "the big and little joker" in helper.lower()


# --- nil advice and bidding use it ------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_nil_advice_never_names_a_held_card_as_a_danger_and_a_sure_trick_makes_nil_impossible(preset: str) -> None:
    rules = st.Rules.preset(preset)
    for seed in range(120):
        for hand in dealt(rules, seed).values():
            advice = st.nil_advice(rules, hand)
            for reason in advice.reasons:
                if "loses only to " in reason:
                    dangers = reason.split("loses only to ")[1].split(", so")[0]
                    for card in hand:
                        name = f"the {card.name}" if card.is_joker else str(card)
                        assert name not in dangers, reason
            assert advice.impossible == (brute_sure(rules, hand) > 0)
            assert not (advice.safe and advice.impossible)


def test_nil_advice_for_the_little_joker_and_the_ace() -> None:
    rules = st.Rules.preset("jokers")
    hand = st.cards("LJ AS 4H 5H 6H 7H 8C 9C 10C JC 3D 4D 5D")
    advice = st.nil_advice(rules, hand)
    ace = next(r for r in advice.reasons if r.startswith("A♠"))
    assert "loses only to the big joker," in ace and "little joker" not in ace
    assert advice.impossible  # the big joker can take only one of the two


@pytest.mark.parametrize("preset", PRESETS)
def test_the_bots_count_the_sure_tricks_whole_and_bid_at_least_them(preset: str) -> None:
    rules = st.Rules.preset(preset)
    for seed in range(60):
        rnd = st.Round.deal(rules, dealer=st.Seat.WEST, seed=seed)
        for seat, hand in rnd.hands.items():
            sure = brute_sure(rules, list(hand))
            whole = [t for t in likely_tricks(rules, hand) if t.value == 1 and rules.is_trump(t.card)]
            assert len(whole) == sure
            decision = HeuristicBot().bid(rnd.view(seat)) if seat == st.Seat.NORTH else None
            if decision is not None:
                assert decision.action.tricks >= sure  # North bids first: no partner's bid caps it


# --- the decisions as data: what the lab's batched bidder asks ----------------------------------------


SIDE = (st.Suit.HEARTS, st.Suit.CLUBS, st.Suit.DIAMONDS)


def random_hands(rules: st.Rules, n: int, seed: int) -> list[list[st.Card]]:
    """``n`` hands of 13, every third one with 4 to 11 trumps (long, guarded and spare trumps)."""
    rng = random.Random(seed)
    deck = list(rules.deck())
    trumps = list(rules.trump_order())
    hands = []
    for k in range(n):
        if k % 3:
            hands.append(rng.sample(deck, 13))
        else:
            held = rng.sample(trumps, rng.randint(4, 11))
            hands.append(held + rng.sample([c for c in deck if c not in held], 13 - len(held)))
    return hands


@pytest.mark.parametrize("preset", PRESETS)
def test_trump_shares_and_ruffing_trumps_are_the_trump_values_of_likely_tricks(preset: str) -> None:
    """``likely_tricks``' trump entries are the trumps with a share in ``trump_shares`` (highest first,
    the same values), then the lowest spare trumps as ruffers, ``ruffing_trumps`` of them."""
    rules = st.Rules.preset(preset)
    ruffed = 0
    for hand in random_hands(rules, 600, seed=len(preset)):
        held = [c for c in rules.trump_order() if c in hand]
        shares = hand_eval.trump_shares(rules, hand)
        assert len(shares) == len(held)
        entries = [(t.card, t.value) for t in likely_tricks(rules, hand) if rules.is_trump(t.card)]
        counted = [(c, v) for c, v in zip(held, shares, strict=True) if v]
        spare = [c for c, v in zip(held, shares, strict=True) if not v][::-1]  # lowest first
        lengths = [sum(1 for c in hand if not rules.is_trump(c) and c.suit == s) for s in SIDE]
        ruffers = hand_eval.ruffing_trumps(len(spare), lengths)
        assert entries == counted + [(c, hand_eval.RUFFING_TRUMP_VALUE) for c in spare[:ruffers]], hand
        ruffed += ruffers > 0
    assert ruffed >= 20


@pytest.mark.parametrize("preset", PRESETS)
def test_nil_risks_are_nil_advice_s_reasons(preset: str) -> None:
    """No risk: the nil is safe; otherwise one reason per risk, naming the risk's card, and the nil is
    impossible exactly when a risk is a sure trick."""
    rules = st.Rules.preset(preset)
    safe = 0
    for hand in random_hands(rules, 600, seed=len(preset)) + [
        list(h) for s in range(60) for h in dealt(rules, s).values()
    ]:
        risks = hand_eval.nil_risks(rules, hand)
        advice = st.nil_advice(rules, hand)
        assert advice.safe == (not risks)
        safe += advice.safe
        if risks:
            assert len(advice.reasons) == len(risks)
            assert advice.impossible == any(r.kind in ("sure trump", "sure count") for r in risks)
            for risk, reason in zip(risks, advice.reasons, strict=True):
                assert risk.card is None or risk.card in hand
                if risk.card is not None:
                    name = f"the {risk.card.name}" if risk.card.is_joker else str(risk.card)
                    assert reason.lower().startswith(name.lower()), (risk, reason)
    assert safe >= 5


# --- the lessons teach the count ------------------------------------------------------------------


def test_lessons_6_and_11_count_as_the_engine_does() -> None:
    from spades_tutor.lessons import load_lessons

    words = ("no", "one", "two", "three", "four", "five")
    lessons = {lesson.number: lesson for lesson in load_lessons()}
    for number in (6, 11):
        lesson = lessons[number]
        prose = " ".join(
            b.text_in(lesson) for step in lesson.steps for b in step.blocks if b.kind in ("markdown", "tip")
        )
        prose = " ".join(prose.split())
        for block in lesson.blocks("quiz"):
            if block.quiz_kind != "sure-tricks":
                continue
            item = block.quiz_item(lesson)
            assert item.answer() == brute_sure(item.rules, list(item.hand))
        assert "can take" in prose  # the reasoning is the count, not the run from the top
    north = next(b.quiz_item(lessons[11]) for b in lessons[11].blocks("quiz") if b.quiz_kind == "sure-tricks")
    said = " ".join(
        " ".join(b.text_in(lessons[11]) for b in s.blocks if b.kind == "markdown") for s in lessons[11].steps
    )
    assert f"{words[north.answer()]} sure tricks" in " ".join(said.split())
