"""Classroom projector mode: the hand's script from the engine and the bots, and the page's controls."""

from __future__ import annotations

import html
import re

import pytest

import spades_tutor as st
from spades_tutor.bots import HeuristicBot, play_out
from spades_tutor.session.classroom import ClassroomHand
from spades_tutor.ui import errors
from spades_tutor.ui.app import App, parse_query
from spades_tutor.ui.projector import ProjectorPage


@pytest.mark.parametrize("preset", st.Rules.preset_names())
def test_a_classroom_hand_has_the_deal_four_bids_and_52_cards_each_with_a_sentence(preset: str) -> None:
    rules = st.Rules.preset(preset)
    hand = ClassroomHand.from_deal_id(rules, "2024E")
    assert len(hand.steps) == 57 and all(s.sentence for s in hand.steps)
    assert hand.dealt.dealer == st.Seat.EAST and hand.dealt.hands == st.Round.from_deal_id(rules, "2024E").hands
    final = hand.round_at(56)
    assert final.is_over and sum(final.tricks_won.values()) == 13
    for n in (8, 20, 56):  # a step that ends a trick says who won it, in the engine's words
        trick = hand.round_at(n).tricks[n // 4 - 2]
        assert trick.reason in hand.steps[n].sentence and f"{trick.winner} takes trick" in hand.steps[n].sentence


def test_ask_the_class_answer_is_the_engines_legal_set_with_reasons() -> None:
    hand = ClassroomHand.from_deal_id(st.Rules.preset("jokers"), "4127W")
    for n in range(5, 57):
        before = hand.round_at(n - 1)
        legal, reasons = hand.answer(n)
        assert legal == before.legal_plays()
        assert hand.steps[n].card in legal
        assert set(reasons) == set(before.hands[before.to_act]) - set(legal)
        assert hand.question(n) == f"What may {before.to_act} play?"


def test_projector_steps_forward_and_back_and_asks_before_each_card() -> None:
    page = ProjectorPage(st.Rules.preset("jokers"), "4127W")
    for _ in range(5):
        page.forward()
    assert page.step == 5 and "North plays" in page.sentence.value
    page.ask.value = True
    page.forward()
    assert page.asking and page.step == 5 and "What may East play?" in page.sentence.value
    page.reveal()
    assert "must follow suit" in page.detail.value
    # each reason once, with every card it rules out
    _, reasons = page.hand.answer(page._pending)
    shown = html.unescape(page.detail.value)
    assert shown.count("<li>") == len({str(r) for r in reasons.values()}) < len(reasons)
    for card, reason in reasons.items():
        assert str(reason) in shown and f"{card} " in shown.replace("</b>", " ")
    page.forward()
    assert not page.asking and page.step == 6 and "East plays" in page.sentence.value
    page._key(page.keys, {"key": "back"})
    assert page.step == 5
    for junk in ({"key": "evil"}, "junk", None, {"key": ["next"]}):
        page._key(page.keys, junk)
    assert page.step == 5


def test_a_bad_deal_id_is_explained_and_the_page_keeps_its_deal() -> None:
    page = ProjectorPage(st.Rules.preset("jokers"), "4127W")
    seen: list[str] = []
    sink = lambda message, exc: seen.append(message)  # noqa: E731
    errors.add_sink(sink)
    try:
        page.deal_box.value = "41x7"
        page.deal_button.click()
    finally:
        errors.remove_sink(sink)
    assert seen and "41x7" in seen[0] and "Try a number" in seen[0]
    assert page.hand is not None and page.hand.deal_id == "4127W"


def test_a_link_with_a_deal_opens_the_classroom_in_its_rule_set() -> None:
    assert parse_query("deal=4127w&preset=bicycle") == {"page": "Classroom", "deal": "4127W", "preset": "bicycle"}
    assert parse_query("deal=<script>") == {"page": "Classroom"}  # on its usual deal, with a note
    app = App(query="deal=77&preset=deuces-high")
    try:
        assert app.nav.value == "Classroom"
        assert app.projector.hand.deal_id == "77" and app.projector.rules.name == "deuces-high"
    finally:
        errors.remove_sink(app.show_error)


@pytest.mark.parametrize("how", ["show this deal", "deal a new one", "rule set"])
def test_a_new_deal_starts_on_its_own_first_step_not_on_the_last_deals_question(how: str) -> None:
    page = ProjectorPage(st.Rules.preset("jokers"), "4127W")
    page.ask.value = True
    for _ in range(5):
        page.forward()
    page.reveal()
    assert page.asking and "What may" in page.sentence.value and page.detail.value
    if how == "show this deal":
        page.deal_box.value = "77"
        page.deal_button.click()
    elif how == "deal a new one":
        page.random_button.click()
    else:
        page.set_rules(st.Rules.preset("classic"))
    assert not page.asking and page.step == 0
    assert "What may" not in page.sentence.value and page.detail.value == ""
    assert page.hand is not None and page.hand.steps[0].sentence in html.unescape(page.sentence.value)
    assert page.back.disabled and page.reveal_button.disabled
    page.forward()
    assert page.step == 1 and "bids" in page.sentence.value  # Next goes on from the new deal


YOU = re.compile(r"\b(you|your|yours|yourself)\b", re.IGNORECASE)


@pytest.mark.parametrize("seat", list(st.Seat))
def test_the_engine_says_why_a_card_is_illegal_of_a_seat_when_asked(seat: st.Seat) -> None:
    rules = st.Rules.preset("jokers")
    cases = [("AH 3H LJ 5C", "LJ", "KH", False), ("BJ AS 4C", "BJ", "", False), ("AH 3H", "KD", "", True)]
    for hand, card, trick, broken in cases:
        to_you = st.why_illegal(rules, hand, card, trick, broken)
        of_seat = st.why_illegal(rules, hand, card, trick, broken, seat=seat)
        assert to_you is not None and of_seat is not None and to_you.code == of_seat.code
        assert YOU.search(str(to_you)) and not YOU.search(str(of_seat)), str(of_seat)
        assert str(of_seat).startswith(str(seat)) and f"{seat} " in str(of_seat)
    assert str(st.why_illegal(rules, "AH 3H LJ", "LJ", "KH", seat=seat)).startswith(
        f"{seat} must follow suit: a heart was led and {seat} holds A♥ and 3♥."
    )


@pytest.mark.parametrize("preset", st.Rules.preset_names())
def test_ask_the_class_reasons_speak_of_the_seat_not_to_you(preset: str) -> None:
    hand = ClassroomHand.from_deal_id(st.Rules.preset(preset), "2024E")
    checked = 0
    for n in range(5, 57):
        seat = hand.steps[n].seat
        for reason in hand.answer(n)[1].values():
            assert not YOU.search(str(reason)), (n, str(reason))
            assert str(seat) in str(reason)
            checked += 1
    assert checked > 20
    page = ProjectorPage(st.Rules.preset(preset), "2024E")
    page.ask.value = True
    while page.step < 56:
        page.forward()
        if page.asking:
            page.reveal()
            assert not YOU.search(html.unescape(page.detail.value)), page.detail.value


def test_the_first_lead_rule_is_said_of_the_seat_too() -> None:
    rules = st.Rules.preset("classic", first_lead="two-of-clubs")
    hand = ClassroomHand.from_deal_id(rules, "2024E")
    seat = hand.steps[5].seat
    assert hand.steps[5].card == st.Card.parse("2C")
    legal, reasons = hand.answer(5)
    assert legal == (st.Card.parse("2C"),) and len(reasons) == 12
    assert {str(r) for r in reasons.values()} == {f"The first trick must be led with the 2♣, and {seat} holds it."}
    rnd = hand.round_at(4)
    other = next(c for c in rnd.hands[seat] if c not in legal)
    assert (
        str(rnd.why_illegal(other)) == "The first trick must be led with the 2♣, and you hold it."
    )  # the player's own


@pytest.mark.parametrize("preset", st.Rules.preset_names())
def test_the_narration_speaks_of_the_seats_not_to_you(preset: str) -> None:
    rules = st.Rules.preset(preset)
    for deal in ("4127W", "2024E", "77", "31337N"):
        hand = ClassroomHand.from_deal_id(rules, deal)
        for step in hand.steps:
            assert not YOU.search(step.sentence), step.sentence
        # the same hand as the bots play it for a learner, whose hints speak to "you"
        rnd = st.Round.from_deal_id(rules, deal)
        play_out(rnd, {s: HeuristicBot() for s in st.Seat})
        assert rnd.history == hand.round_at(56).history
    follows = [s.sentence for s in hand.steps if "must follow suit" in s.sentence]
    assert follows and all(
        re.search(rf"\b{s.seat} must follow suit", s.sentence) for s in hand.steps if "must follow suit" in s.sentence
    )


def test_a_seat_voice_names_the_partner_and_the_team() -> None:
    from spades_tutor.bots.base import Voice

    v = Voice.of(st.Seat.EAST)
    assert (v.you, v.your, v.partner, v.partners, v.teams) == ("East", "East's", "West", "West's", "East–West's")
    assert v.made(6) == "East–West have made their contract of 6"
    you = Voice.of(None)
    assert (you.you, you.your, you.partner, you.teams) == ("you", "your", "your partner", "your team's")
    assert you.made(6) == "your team has made its contract of 6"


def test_the_classroom_shows_the_class_link_and_its_qr_code_when_the_server_serves_a_room(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``spades-tutor app`` off loopback hands its first link to its kernels: the projector shows it to the room."""
    from spades_tutor.ui.serving import CLASS_LINK_ENV

    monkeypatch.delenv(CLASS_LINK_ENV, raising=False)
    assert ProjectorPage(st.Rules.preset("jokers"), "4127W").class_link.value == ""  # make app: no room
    url = "http://192.168.1.20:8866/?code=K7M2QX"
    monkeypatch.setenv(CLASS_LINK_ENV, url)
    page = ProjectorPage(st.Rules.preset("jokers"), "4127W")
    shown = page.class_link.value
    assert page.class_link in page.widget.children
    assert shown.startswith('<details class="st-proj-link"><summary>The class link and its QR code</summary>')
    assert f'role="img" aria-label="QR code of the class link: {url}"><svg ' in shown
    assert f'<p class="st-proj-link-url">{url}</p>' in shown
    # another link, another code; and the link is text, never markup
    monkeypatch.setenv(CLASS_LINK_ENV, url.replace("K7M2QX", "K7M2QY"))
    assert ProjectorPage(st.Rules.preset("jokers"), "4127W").class_link.value.split("<svg")[1] != shown.split("<svg")[1]
    monkeypatch.setenv(CLASS_LINK_ENV, 'http://x/"><script>alert(1)</script>')
    assert "<script>" not in ProjectorPage(st.Rules.preset("jokers"), "4127W").class_link.value
