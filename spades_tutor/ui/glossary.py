"""The Glossary page, and the glossary's terms linked in lesson prose and the app's other words.

The page lists every term of ``lessons/glossary.md`` alphabetically, each under its own anchor
(``?page=glossary#glossary-bags`` opens the page at the term), with a box that narrows the list as the learner types. In a lesson step the
first use of a term is a button that shows its definition just after it (``static/glossary.js``,
no round trip to the kernel), so the learner keeps their place.
"""

from __future__ import annotations

import html
from typing import Any

import anywidget
import ipywidgets as w

from ..engine import Rules
from ..lessons.glossary import Glossary, Term, glossary_path, link_terms, load_glossary
from . import static_text
from .errors import guarded
from .landmarks import live

#: the most of a search the page reads (the box is untrusted input like any other)
MAX_SEARCH = 60


class TermDisclosures(anywidget.AnyWidget):
    """Hidden: opens and closes the definitions of the glossary terms linked in prose."""

    _esm = static_text("glossary.js")


def markdown_inline(text: str) -> str:
    """One line of Markdown to inline HTML (no paragraph around it); raw HTML is escaped."""
    from .markdown import markdown_html

    out = markdown_html(text).strip()
    return out[3:-4] if out.startswith("<p>") and out.endswith("</p>") else out


def glossary_or_none() -> Glossary | None:
    """The glossary, or None where the lessons folder has none (a teacher's own folder, say)."""
    path = glossary_path()
    return load_glossary(path) if path.is_file() else None


def link_prose(markup: str, rules: Rules, seen: set[str]) -> str:
    """Lesson prose (HTML) with the first use of each glossary term in the step made a disclosure."""
    glossary = glossary_or_none()
    if glossary is None:
        return markup
    return link_terms(markup, glossary, rules, seen, render=markdown_inline)


#: the terms of measurement, linked wherever a measured figure is said outside a lesson
TECHNICAL = ("Double dummy", "Likely range", "Simulation", "Solver")


class TermLinks:
    """The glossary's terms linked in a page's words, as lessons link them: ``widget`` (the hidden
    ``TermDisclosures``) goes on the page once, and ``link`` makes the first use of each term since
    ``restart`` a button that opens its definition in place. The lesson player restarts at each
    step and links every term; the Play page and a measured quiz's feedback link only ``only``
    (``TECHNICAL``: the words of measurement), so the game's everyday words stay plain text there.
    """

    def __init__(self, only: tuple[str, ...] | None = None) -> None:
        self.widget = TermDisclosures()
        self.only = only
        self.seen: set[str] = set()
        self.restart()

    def restart(self) -> None:
        """Link each term again at its next use (a new step, a new piece of words)."""
        self.seen = set()
        glossary = glossary_or_none()
        if self.only is not None and glossary is not None:
            keep = {glossary.term(name).slug for name in self.only if _defined(glossary, name)}
            self.seen = {t.slug for t in glossary.terms} - keep  # the others count as linked already

    def link(self, markup: str, rules: Rules) -> str:
        """``markup`` (HTML) with the first use of each term not yet linked made a disclosure."""
        return link_prose(markup, rules, self.seen)

    def text(self, text: str, rules: Rules) -> str:
        """Plain ``text``, escaped, with its terms linked."""
        return self.link(html.escape(text), rules)


def _defined(glossary: Glossary, name: str) -> bool:
    try:
        glossary.term(name)
    except KeyError:
        return False
    return True


def matches(term: Term, query: str, rules: Rules) -> bool:
    """Whether the term's name, an alias or its definition holds ``query`` (any case)."""
    q = " ".join(query.lower().split())
    return not q or any(q in text.lower() for text in (*term.forms, term.definition(rules)))


def entry_html(term: Term, rules: Rules) -> str:
    note = term.note(rules)
    aliases = (
        f'<div class="st-note st-aliases">Also: {html.escape(", ".join(term.aliases))}</div>' if term.aliases else ""
    )
    return (
        f'<div class="st-gloss-entry" id="{term.slug}"><dt><dfn>{html.escape(term.name)}</dfn></dt>'
        f"<dd>{markdown_inline(term.definition(rules))}"
        + (f' <i class="st-note">{html.escape(note)}</i>' if note else "")
        + f"{aliases}</dd></div>"
    )


class GlossaryPage:
    """Every term, alphabetically, in the rule set picked; a search box narrows the list."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.search = w.Text(
            value="",
            placeholder="a word, such as bags",
            description="Find a term:",
            continuous_update=True,
            style={"description_width": "initial"},
            layout=w.Layout(width="100%", max_width="30em"),
        )
        self.search.add_class("st-gloss-search")
        self.search.observe(guarded(lambda _c: self.render()), names="value")
        self.count = live(w.HTML())
        self.list = w.HTML()
        self.list.add_class("st-glossary")
        self.widget = w.VBox(
            [
                TermDisclosures(),  # scrolls to the term a link names (#glossary-bags)
                w.HTML(
                    '<h2 class="st-lesson-title">Glossary</h2><p class="st-gloss-intro">The words of the game, '
                    "A to Z. Where a definition depends on the rules, it follows the rule set picked on the "
                    "Home page. In a lesson, a dotted word opens its definition in place.</p>"
                ),
                self.search,
                self.count,
                self.list,
            ]
        )
        self.widget.add_class("st-glossary-page")
        self.render()

    def set_rules(self, rules: Rules, **_display: Any) -> None:
        self.rules = rules
        self.render()

    def shown(self) -> list[Term]:
        """The terms the list shows: every term, or those the search matches, alphabetically."""
        glossary = glossary_or_none()
        if glossary is None:
            return []
        query = self.search.value[:MAX_SEARCH]
        return [t for t in glossary.sorted() if matches(t, query, self.rules)]

    def render(self) -> None:
        terms = self.shown()
        query = " ".join(self.search.value[:MAX_SEARCH].split())
        if not query:
            said = f"{len(terms)} terms"
        elif terms:
            verb = "term matches" if len(terms) == 1 else "terms match"
            said = f"{len(terms)} {verb} “{html.escape(query)}”"
        else:
            said = f"No term matches “{html.escape(query)}”"
        self.count.value = f'<div class="st-note st-gloss-count" role="status">{said}</div>'
        entries = "".join(entry_html(t, self.rules) for t in terms)
        self.list.value = f'<dl class="st-gloss-list">{entries}</dl>' if entries else ""
