"""Markdown to HTML for lesson prose and glossary entries: markdown-it (CommonMark plus tables),
loaded on first use; raw HTML in the text is escaped, never passed through."""

from __future__ import annotations

from typing import Any

__all__ = ["markdown_html"]

_md: Any = None


def markdown_html(text: str) -> str:
    """Markdown to HTML with markdown-it (CommonMark plus tables); raw HTML is escaped."""
    global _md
    if _md is None:
        from markdown_it import MarkdownIt

        _md = MarkdownIt("commonmark", {"html": False, "typographer": True}).enable("table")
    return str(_md.render(text))
