"""What lesson text claims about the cards, checked against the rule set it is shown in.

Prose, tips and labels say things a rule set can make false: which cards are taken
out, that the jokers are in play, how many trumps there are, which card is the
highest trump. ``claims`` reads those statements from a sentence; ``contradictions``
asks the engine whether each holds. A sentence that names a rule set ("In regular
Spades the ace of spades is the highest card") is checked in the rule set it names.
Every fact comes from the engine (card names, the deck, the cards taken out, the
trump order); this module only reads English.

>>> import spades_tutor as st
>>> contradictions("Take out the two of hearts and the two of diamonds.", st.Rules.preset("deuces-high"))
['the two of diamonds is said to be taken out, but it is in the Deuces high deck (taken out: 2♣ 2♥)']
>>> contradictions("The big joker is the highest card of the game.", st.Rules.preset("classic"))
['speaks of the jokers, but Regular Spades has none']
>>> contradictions("In regular Spades the ace of spades is the highest card.", st.Rules.preset("jokers"))
[]
"""

from __future__ import annotations

import dataclasses
import functools
import re
from typing import TYPE_CHECKING

from .. import engine as st

if TYPE_CHECKING:
    from . import Block, Lesson, Step

__all__ = ["Claim", "check_block", "check_step", "claims", "contradictions"]

_NUMBER_WORDS = {
    word: n
    for n, word in enumerate(
        (
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
        )
    )
}  # fmt: skip
_ORDINAL = r"(?:[a-z]+-)?highest"
# verbs that say a card leaves the pack: "take out", "come out", "is out of this deck", "removed"
_REMOVAL = re.compile(
    r"\b(?:take|takes|taking|taken|took|come|comes|came|coming|leave|leaves|left|go|goes|went|are|is)\s+out\b"
    r"|\bout of (?:this|the) (?:deck|pack)\b|\bremov(?:e|ed|es|ing)\b|\btwos out\b",
    re.IGNORECASE,
)
_NO_JOKERS = re.compile(r"\b(?:no|without(?: the)?|not use the)\s+jokers\b", re.IGNORECASE)
_JOKER = re.compile(r"\bjokers?\b", re.IGNORECASE)


@dataclasses.dataclass(frozen=True)
class Claim:
    """One checkable statement of a sentence.

    ``kind`` is ``"jokers"`` (the jokers are in play), ``"no-jokers"``, ``"in-deck"``
    (a card named as a card of the game), ``"removed"`` (a card said to be taken
    out), ``"trump-count"`` (``value`` trumps) or ``"trump-place"`` (``card`` is the
    ``value`` trump, e.g. ``"the highest"``). ``presets`` are the rule sets the
    sentence names (empty: the one it is shown in).
    """

    kind: str
    words: str
    card: st.Card | None = None
    value: int | str | None = None
    presets: tuple[str, ...] = ()


@functools.cache
def _card_words() -> tuple[re.Pattern[str], dict[str, st.Card]]:
    """Every card's name in words and in symbols, longest first (from the engine's cards)."""
    by_words: dict[str, st.Card] = {}
    for card in st.full_pack():
        by_words[card.name.lower()] = card
        by_words[str(card).lower()] = card
    alternatives = sorted(by_words, key=len, reverse=True)
    pattern = re.compile(
        r"(?<![\w♠♥♦♣])(?:" + "|".join(re.escape(a) for a in alternatives) + r")(?![\w♠♥♦♣])", re.IGNORECASE
    )
    return pattern, by_words


@functools.cache
def _rule_set_names() -> tuple[re.Pattern[str], dict[str, str]]:
    """Each preset as a sentence names it: its title (without a bracket) or its multi-word name."""
    names: dict[str, str] = {}
    for name in st.Rules.preset_names():
        title = re.sub(r"\s*\(.*?\)", "", st.Rules.preset(name).title).strip().lower()
        names[title] = name
        if "-" in name:
            names[name.replace("-", " ")] = name
    pattern = re.compile(
        r"\b(?:" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")\b(?:\s*\([^)]*\))?",
        re.IGNORECASE,
    )
    return pattern, names


@functools.cache
def _fewest_trumps() -> int:
    """No rule set has fewer trumps: a number of trumps at least this large counts them all."""
    return min(len(st.Rules.preset(name).trump_order()) for name in st.Rules.preset_names())


def _plain(text: str) -> str:
    """Markdown to plain words: emphasis, code marks and links dropped, one line."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[*_`]+", "", text).replace("’", "'")
    return re.sub(r"\s+", " ", text).strip()


def _sentences(text: str) -> list[str]:
    out: list[str] = []
    for paragraph in re.split(r"\n\s*\n|\n\s*[|#>-]", text):
        out.extend(s for s in re.split(r"(?<=[.!?;])\s+", _plain(paragraph)) if s)
    return out


def claims(text: str) -> list[Claim]:
    """The checkable statements of a text (Markdown allowed), sentence by sentence.

    >>> [(c.kind, str(c.card)) for c in claims("Take out the two of clubs; the 2♦ is a trump.")]
    [('removed', '2♣'), ('in-deck', '2♦')]
    """
    cards_re, by_words = _card_words()
    names_re, preset_of = _rule_set_names()
    out: list[Claim] = []
    for sentence in _sentences(text):
        named = tuple(
            dict.fromkeys(preset_of[m.group(0).split("(")[0].strip().lower()] for m in names_re.finditer(sentence))
        )
        rest = names_re.sub(" ", sentence)  # "two of spades third" names a rule set, not a card
        found = [(m, by_words[m.group(0).lower()]) for m in cards_re.finditer(rest)]
        removal = _REMOVAL.search(rest) is not None
        for m, card in found:
            if not card.is_joker:
                out.append(Claim("removed" if removal else "in-deck", m.group(0), card, presets=named))
        negated = _NO_JOKERS.search(rest)
        if negated:
            out.append(Claim("no-jokers", negated.group(0), presets=named))
        elif _JOKER.search(rest):
            out.append(Claim("jokers", _JOKER.search(rest).group(0), presets=named))  # type: ignore[union-attr]
        for m in re.finditer(r"\b(\d+|[a-z]+)\s+trumps\b", rest, re.IGNORECASE):
            word = m.group(1).lower()
            count = int(word) if word.isdigit() else _NUMBER_WORDS.get(word)
            if count is not None and count >= _fewest_trumps():
                out.append(Claim("trump-count", m.group(0), value=count, presets=named))
        for i, (m, card) in enumerate(found):
            # the clause after the card, up to the next card named
            end = found[i + 1][0].start() if i + 1 < len(found) else len(rest)
            after = rest[m.end() : end]
            place = re.match(
                rf"[^,;:]*?\b(?:is|as)\s+(?:only\s+|now\s+|always\s+)?(the\s+{_ORDINAL})\s+(?:trump|card)\b", after
            )
            if place:
                out.append(Claim("trump-place", m.group(0) + place.group(0), card, place.group(1), named))
            elif re.match(r"\s+(?:beats|wins over) everything\b(?!\s+(?:but|except|else))", after):
                out.append(Claim("trump-place", m.group(0) + " beats everything", card, "the highest", named))
    return out


def _holds(claim: Claim, rules: st.Rules) -> str | None:
    """None if the claim holds in ``rules``, else what is wrong, in words."""
    card = claim.card
    gone = f"taken out: {' '.join(map(str, rules.removed))}" if rules.removed else "nothing taken out"
    if claim.kind == "jokers" and not rules.jokers:
        return f"speaks of the jokers, but {rules.title} has none"
    if claim.kind == "no-jokers" and rules.jokers:
        return f"says {claim.words!r}, but {rules.title} plays with both jokers"
    if claim.kind == "in-deck" and card is not None and not rules.in_deck(card):
        return f"speaks of the {card.name}, which is not in the {rules.title} deck ({gone})"
    if claim.kind == "removed" and card is not None and rules.in_deck(card):
        return f"the {card.name} is said to be taken out, but it is in the {rules.title} deck ({gone})"
    if claim.kind == "trump-count" and claim.value != len(rules.trump_order()):
        return f"says {claim.words!r}, but {rules.title} has {len(rules.trump_order())} trumps"
    if claim.kind == "trump-place" and card is not None and rules.in_deck(card):  # (a card not in the deck: above)
        actual = rules.trump_position(card)
        if not actual.startswith(f"{claim.value} "):
            return f"says {claim.words!r}, but in {rules.title} the {card.name} is {actual}"
    return None


def contradictions(text: str, rules: st.Rules) -> list[str]:
    """What ``text`` says that is false in ``rules`` (a sentence naming rule sets is checked in those).

    A claim in a sentence naming several rule sets holds if it holds in one of them.
    """
    problems = []
    for claim in claims(text):
        where = [st.Rules.preset(name) for name in claim.presets] or [rules]
        wrong = [_holds(claim, r) for r in where]
        if all(wrong):
            problems.append(str(wrong[0]))
    return list(dict.fromkeys(problems))


def check_block(lesson: Lesson, block: Block, picked: st.Rules) -> list[str]:
    """What a block's words (prose, tip, label) say that is false in the rule set it is shown in."""
    if not block.shown(lesson, picked):
        return []
    rules = block.rules(lesson, picked)
    text = block.text_in(lesson, picked) if block.spec.text_body else block.label_in(lesson, picked)
    where = f"{lesson.path}:{block.line}: {block.kind} block [shown in {rules.name}, picked {picked.name}]"
    return [f"{where}: {problem}" for problem in contradictions(text, rules)]


def check_step(lesson: Lesson, step: Step, picked: st.Rules) -> list[str]:
    """Every contradiction in one step of a lesson, as the player shows it for ``picked``."""
    return [problem for block in step.blocks for problem in check_block(lesson, block, picked)]
