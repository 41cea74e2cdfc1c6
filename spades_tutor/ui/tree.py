"""Replacing what a box shows without leaving the old widgets open.

A widget lives in its kernel (and as a model in the page) until it is closed; replacing a box's
children only stops showing the old ones. Every step of a lesson, every quiz question and every
trick of a replay is drawn anew, so without closing them a learner stepping through lessons for an
hour leaves thousands of widgets behind: kernel memory a class server pays for each learner, and
models the page keeps. :func:`replace_children` shows the new children, then closes every widget of
the old ones that the new ones do not use (their layouts and styles included).

Use it only where the old children were built for that one showing; a box that swaps between
widgets kept elsewhere (the app's pages) must keep setting ``children`` itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import ipywidgets as w


def widget_tree(roots: Iterable[w.Widget]) -> Iterator[w.Widget]:
    """Every widget reachable from ``roots`` through their synced traits (children, layout, style, ...), once each."""
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        widget = stack.pop()
        if id(widget) in seen:
            continue
        seen.add(id(widget))
        yield widget
        for name in widget.keys:
            value = getattr(widget, name, None)
            if isinstance(value, w.Widget):
                stack.append(value)
            elif isinstance(value, (tuple, list)):
                stack.extend(v for v in value if isinstance(v, w.Widget))


def replace_children(box: w.Box, children: Sequence[w.Widget], keep: Iterable[w.Widget] = ()) -> None:
    """Show ``children`` in ``box``, then close the widgets of its old children that they do not use.

    Widgets in ``keep`` (and what they hold) stay open too: a page's own controls that it shows in
    some renderings only (see :func:`held_by`). The children are set first, so the page applies the
    new content before the old models go.

    >>> box = w.VBox([w.HTML("old")])
    >>> old = box.children[0]
    >>> replace_children(box, [w.HTML("new")])
    >>> old.comm is None, old.layout.comm is None, box.children[0].comm is not None
    (True, True, True)
    """
    old = box.children
    box.children = tuple(children)
    close_unused(old, keep=[*children, *keep])


def held_by(owner: object) -> list[w.Widget]:
    """The widgets ``owner`` keeps as its attributes: its own controls, which outlive any one rendering."""
    return [x for x in vars(owner).values() if isinstance(x, w.Widget)]


def close_unused(old: Iterable[w.Widget], keep: Iterable[w.Widget] = ()) -> None:
    """Close every widget reachable from ``old`` that is not reachable from ``keep``."""
    kept = {id(x) for x in widget_tree(keep)}
    for widget in list(widget_tree(old)):
        if id(widget) not in kept:
            widget.close()
