"""The glossary (``lessons/glossary.md``): terms, their aliases and definitions, and the linker that
turns the first use of a term in a lesson step into a button that opens its definition in place.

A definition's rule facts are placeholders the engine fills (``{trumps}``, ``{bag limit}`` …),
in the rule set picked, or in the term's own ``preset:`` when the pick is not one of them.

>>> g = parse_glossary(
...     "# Glossary\\n\\n## Trick\\naliases: tricks\\nOne card from each player.\\n\\n"
...     "## Trump\\naliases: trumps\\nThere are {trump count} trumps.\\n",
...     Path("glossary.md"),
... )
>>> [t.name for t in g.terms], g.term("TRUMPS").definition(st.Rules.preset("deuces-high"))
(['Trick', 'Trump'], 'There are 16 trumps.')
>>> linked = link_terms("<p>Trumps win tricks; a trump is high.</p>", g, st.Rules.preset("classic"), set())
>>> [m for m in re.findall(r'class="st-term"[^>]*>([^<]*)<', linked)]
['Trumps', 'tricks']
"""

from __future__ import annotations

import dataclasses
import functools
import html
import itertools
import re
from collections.abc import Callable
from pathlib import Path

from .. import engine as st
from .placeholders import fill_placeholders
from .values import LessonError, preset_selection, source_place

__all__ = ["Glossary", "Term", "glossary_path", "link_terms", "load_glossary", "parse_glossary"]

_TITLE = re.compile(r"^#\s+(\S.*?)\s*$")
_TERM = re.compile(r"^##\s+(\S.*?)\s*$")
_KEY = re.compile(r"^(aliases|preset)\s*:(.*)$", re.IGNORECASE)
_SEPARATOR = re.compile(r"^ {0,3}-{3,}\s*$")
_FORM = re.compile(r"^[A-Za-z][A-Za-z' -]*[A-Za-z]$|^[A-Za-z]$")
# a sentence ends at . ! or ? followed by a space or the end (definitions use no abbreviations)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
#: elements whose text is never linked: code, links, headings, buttons and the like
_SKIP = frozenset({"a", "abbr", "button", "code", "kbd", "pre", "samp", "script", "style", "summary", "dfn"})
_SKIP |= {f"h{n}" for n in range(1, 7)}
_TAG = re.compile(r"(<[^>]*>)")
_TAG_NAME = re.compile(r"^<(/?)([A-Za-z][A-Za-z0-9]*)")


def _key(form: str) -> str:
    """A form as the linker compares it: lower case, single spaces, plain apostrophes."""
    return " ".join(form.replace("’", "'").lower().split())


@dataclasses.dataclass(frozen=True)
class Term:
    """One glossary entry: its name, the other forms prose may use, a definition with placeholders."""

    name: str
    aliases: tuple[str, ...]
    text: str
    preset: str | None = None
    line: int = 0

    @property
    def slug(self) -> str:
        """The term's anchor on the Glossary page: ``Broken spades`` -> ``glossary-broken-spades``."""
        return "glossary-" + "-".join(re.findall(r"[a-z0-9]+", self.name.lower()))

    @property
    def forms(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    def presets(self) -> tuple[str, ...]:
        """The presets the definition is written for (every preset when the term names none)."""
        return preset_selection(self.preset) if self.preset else st.Rules.preset_names()

    def rules(self, picked: st.Rules) -> st.Rules:
        """The rule set the definition is shown in: the pick when it is one of the term's presets, else the first."""
        names = self.presets()
        return picked if picked.name in names else st.Rules.preset(names[0])

    def definition(self, picked: st.Rules) -> str:
        """The definition with its placeholders filled by the engine, in :meth:`rules` of ``picked``."""
        return fill_placeholders(self.text, self.rules(picked))

    def note(self, picked: st.Rules) -> str:
        """Which rule set the definition speaks of, when it is not the one picked ('' when it is)."""
        shown = self.rules(picked)
        return "" if shown.name == picked.name else f"In the {shown.title} rule set."


@dataclasses.dataclass(frozen=True)
class Glossary:
    """Every term, in the order of the file; :meth:`sorted` gives them alphabetically."""

    terms: tuple[Term, ...]
    path: Path = Path("glossary.md")

    @functools.cached_property
    def _by_form(self) -> dict[str, Term]:
        return {_key(form): term for term in self.terms for form in term.forms}

    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        """Every form of every term, longest first, as whole words in any case and across line breaks."""
        forms = sorted(self._by_form, key=lambda f: (-len(f), f))
        alternatives = "|".join(r"\s+".join(re.escape(w).replace("'", "['’]") for w in f.split()) for f in forms)
        return re.compile(rf"(?<![\w'’-])(?:{alternatives})(?![\w-])", re.IGNORECASE)

    def term(self, form: str) -> Term:
        """The term ``form`` names (its name or an alias, in any case); ``KeyError`` if none."""
        return self._by_form[_key(form)]

    def sorted(self) -> tuple[Term, ...]:
        return tuple(sorted(self.terms, key=lambda t: t.name.lower()))


def _problem(path: Path, line: int, message: str) -> LessonError:
    return LessonError(f"{source_place(path, line)}: {message}")


def parse_glossary(text: str, path: Path) -> Glossary:
    """The glossary in ``text``; a malformed entry raises ``LessonError`` naming the file and line.

    Checked here: each term defined once, every alias belonging to one term only, a definition of
    one or two sentences, its placeholders known and its ``preset:`` a preset selection.
    """
    path = Path(path)
    lines = text.splitlines()
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or not _TITLE.match(lines[i]):
        raise _problem(path, i + 1, "the glossary starts with its title, a line `# Glossary`")
    while i < len(lines) and not _TERM.match(lines[i]):
        i += 1
    entries: list[tuple[int, str, list[tuple[int, str]]]] = []
    for number, line in enumerate(lines[i:], start=i + 1):
        m = _TERM.match(line)
        if m:
            entries.append((number, m.group(1), []))
        elif _TITLE.match(line) or _SEPARATOR.match(line):
            raise _problem(path, number, "between terms only `## Term` lines, `aliases:`, `preset:` and definitions")
        else:
            entries[-1][2].append((number, line))
    terms: list[Term] = []
    seen: dict[str, tuple[str, int]] = {}
    for number, name, body in entries:
        options: dict[str, str] = {}
        prose: list[str] = []
        for n, line in body:
            key = _KEY.match(line)
            if key and not prose:
                k = key.group(1).lower()
                if k in options:
                    raise _problem(path, n, f"{k}: is given twice for {name!r}")
                options[k] = key.group(2).strip()
            elif line.strip():
                prose.append(line.strip())
        aliases = tuple(a.strip() for a in options.get("aliases", "").split(",") if a.strip())
        for form in (name, *aliases):
            if not _FORM.match(form.replace("’", "'")):
                raise _problem(path, number, f"{form!r} is not a word or words (letters, spaces, ' and -)")
            other = seen.get(_key(form))
            if other is not None:
                where = "defined" if _key(other[0]) == _key(form) else f"an alias of {other[0]!r}"
                raise _problem(path, number, f"{form!r} is already {where} (line {other[1]})")
            seen[_key(form)] = (name, number)
        definition = " ".join(prose)
        if not definition:
            raise _problem(path, number, f"{name!r} has no definition")
        sentences = len(_SENTENCE_END.findall(definition))
        if not 1 <= sentences <= 2 or not _SENTENCE_END.search(definition[-1:] + " "):
            raise _problem(path, number, f"{name!r}: a definition is one or two whole sentences, not {sentences}")
        term = Term(name, aliases, definition, options.get("preset") or None, number)
        try:
            for preset in term.presets():
                fill_placeholders(definition, st.Rules.preset(preset))
        except ValueError as e:
            raise _problem(path, number, f"{name!r}: {e}") from None
        terms.append(term)
    if not terms:
        raise _problem(path, len(lines), "the glossary defines no term")
    return Glossary(tuple(terms), path)


def glossary_path() -> Path:
    """``glossary.md`` in the lessons folder."""
    from .reading import lessons_dir

    return lessons_dir() / "glossary.md"


@functools.cache
def _load(path: Path, mtime: float) -> Glossary:
    return parse_glossary(path.read_text(encoding="utf-8"), path)


def load_glossary(path: Path | None = None) -> Glossary:
    """The glossary file (default: :func:`glossary_path`), read again only when it changes."""
    path = glossary_path() if path is None else Path(path)
    try:
        return _load(path, path.stat().st_mtime)
    except OSError as e:
        raise LessonError(f"{path}: cannot read the glossary: {e}") from None


@functools.cache
def _card_names() -> re.Pattern[str]:
    """Card names the engine uses (``two of spades``, ``A♠``, ``10♥``), which are never linked."""
    words = {c.name for c in st.full_pack() if not c.is_joker} | {str(c) for c in st.full_pack()}
    words |= {"deuce of " + s.plural for s in st.Suit}
    alternatives = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


_ids = itertools.count(1)


def _next_id() -> str:
    return f"st-term-{next(_ids)}"


def term_html(term: Term, shown: str, picked: st.Rules, ident: str, render: Callable[[str], str]) -> str:
    """A term in prose: a button showing ``shown`` that opens its definition just after it."""
    note = term.note(picked)
    definition = render(term.definition(picked)) + (f" <i>{html.escape(note)}</i>" if note else "")
    return (
        f'<button type="button" class="st-term" aria-expanded="false" aria-controls="{ident}" '
        f'data-term="{term.slug}">{shown}</button>'
        f'<span class="st-term-def" id="{ident}" hidden><b>{html.escape(term.name)}:</b> {definition}</span>'
    )


def link_terms(
    markup: str,
    glossary: Glossary,
    picked: st.Rules,
    seen: set[str],
    *,
    render: Callable[[str], str] = html.escape,
    make_id: Callable[[], str] = _next_id,
) -> str:
    """``markup`` (HTML of lesson prose) with the first use of each glossary term made a disclosure button.

    ``seen`` holds the slugs of the terms already linked in this step (updated here), so a term is
    linked once per step however many blocks use it. Text inside code, links, headings, buttons and
    card names (``the two of spades``, ``A♠``) is left alone. ``render`` turns a definition into HTML.
    """
    out: list[str] = []
    skipping: list[str] = []
    for part in _TAG.split(markup):
        if not part:
            continue
        if part.startswith("<"):
            m = _TAG_NAME.match(part)
            if m:
                closing, name = m.group(1) == "/", m.group(2).lower()
                if name in _SKIP and not part.endswith("/>"):
                    if closing:
                        if name in skipping:
                            del skipping[len(skipping) - 1 - skipping[::-1].index(name) :]
                    else:
                        skipping.append(name)
            out.append(part)
            continue
        if skipping:
            out.append(part)
            continue
        cards = [(c.start(), c.end()) for c in _card_names().finditer(part)]
        pieces: list[str] = []
        last = 0
        for m in glossary.pattern.finditer(part):
            if any(a < m.end() and m.start() < b for a, b in cards):
                continue
            term = glossary.term(m.group(0))
            if term.slug in seen:
                continue
            seen.add(term.slug)
            pieces.append(part[last : m.start()])
            pieces.append(term_html(term, m.group(0), picked, make_id(), render))
            last = m.end()
        pieces.append(part[last:])
        out.append("".join(pieces))
    return "".join(out)
