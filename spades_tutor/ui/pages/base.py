"""What every page of the app is, and the ordered list of them the shell, the tabs and links read.

A page is a class of its own module in this package, registered with :func:`register`: its tab's
title, the name a link uses for it (``?page=quiz``) and its place among the tabs. The shell builds a
page only when it is first needed (a page not visited costs the kernel nothing), shows its
``widget``, calls :meth:`Page.show` each time it becomes the page shown, and hands every page built
the one :class:`SettingsChange` that a link, the saved record or the rule-set picker makes.

Adding a page is one new module here (the modules of this package are found when the list is first
read), or one :func:`register` call from anywhere before the app is built.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, Literal, TypeVar, overload

import ipywidgets as w

from ...engine import Rules
from ...session import Settings

if TYPE_CHECKING:
    from ..app import App  # type-only: a page is handed the shell that builds it

#: where a settings change came from: the rule-set picker, a link's ``preset``, or a record (the
#: saved one arriving from the browser, another tab's merged in, or the progress reset)
Source = Literal["picker", "link", "record"]


@dataclasses.dataclass(frozen=True)
class SettingsChange:
    """The settings now (a copy of them, and their rules), and where the change came from.

    >>> change = SettingsChange.of(Settings(preset="classic"), "record")
    >>> change.rules.name, change.chosen, change.new_record
    ('classic', False, True)
    """

    settings: Settings
    rules: Rules
    source: Source

    @classmethod
    def of(cls, settings: Settings, source: Source) -> SettingsChange:
        return cls(dataclasses.replace(settings), settings.rules(), source)

    @property
    def chosen(self) -> bool:
        """The learner picked these settings, or a link named them: what a page shows is drawn again in them."""
        return self.source != "record"

    @property
    def new_record(self) -> bool:
        """The app's whole record was replaced (answers, lessons read, the quiz level), not only its settings."""
        return self.source == "record"


class Page:
    """One page of the app: a tab, a name for links, a widget, and what it does with a settings change.

    A page is built by the shell when it is first shown or asked for, with the app it belongs to.
    """

    #: the tab's label, the browser tab's title, and the name the stored place keeps
    title: ClassVar[str]
    #: the page's name in a link (``?page=<link>``)
    link: ClassVar[str]
    #: its place among the tabs (lowest first)
    order: ClassVar[int] = 1000
    #: a tab and a link name for everyone; a page not listed (the teacher view) is opened by the shell itself
    listed: ClassVar[bool] = True

    #: what the shell puts on the page while this page is shown (made by the page's constructor)
    widget: w.Widget

    def __init__(self, app: App) -> None:
        self.app = app

    def apply(self, change: SettingsChange) -> None:
        """Redraw what the new settings (or the new record) change; the app's own settings are already them."""

    def show(self) -> None:
        """The page has just become the one shown (its widget is on the page): fill what is filled late."""

    @property
    def shown(self) -> bool:
        """Whether this page is the one shown now."""
        return bool(self.app.nav.value == self.title)


P = TypeVar("P", bound=Page)

_REGISTRY: dict[str, type[Page]] = {}
_found = False


def _discover() -> None:
    """Import this package's modules once, each registering its page."""
    global _found
    if _found:
        return
    _found = True
    import importlib
    import pkgutil

    package = importlib.import_module(__package__ or "")
    for found in pkgutil.iter_modules(package.__path__):
        if found.name != "base" and not found.name.startswith("_"):
            importlib.import_module(f"{__package__}.{found.name}")


def register(cls: type[P]) -> type[P]:
    """Add a page (used as a class decorator); a title or link name already taken is refused.

    >>> class Ghost(Page):
    ...     title, link = "Learn", "ghost"
    >>> register(Ghost)
    Traceback (most recent call last):
    ...
    ValueError: a page is already registered as 'Learn' or as 'ghost'
    """
    _discover()
    taken = [other for other in _REGISTRY.values() if other is not cls]
    if any(cls.title == other.title or cls.link == other.link for other in taken):
        raise ValueError(f"a page is already registered as {cls.title!r} or as {cls.link!r}")
    _REGISTRY[cls.title] = cls
    return cls


def unregister(cls: type[Page]) -> None:
    """Take a page registered with :func:`register` off the list (apps built afterwards lack it)."""
    if _REGISTRY.get(cls.title) is cls:
        del _REGISTRY[cls.title]


def registered() -> tuple[type[Page], ...]:
    """Every page, in the order of the tabs."""
    _discover()
    return tuple(sorted(_REGISTRY.values(), key=lambda cls: cls.order))


def listed() -> tuple[type[Page], ...]:
    """The pages everyone has a tab and a link name for, in the order of the tabs."""
    return tuple(cls for cls in registered() if cls.listed)


def page_class(title: str) -> type[Page] | None:
    """The page of this tab title, if there is one."""
    _discover()
    return _REGISTRY.get(title)


class _Titles(Sequence[str]):
    """The tabs' titles, in order, as registered now.

    >>> PAGES[:3], "Play" in PAGES, LINK_PAGES["quiz"], list(LINK_PAGES)[-1]
    (('Home', 'Learn', 'Quiz yourself'), True, 'Quiz yourself', 'puzzles')
    """

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        titles = tuple(cls.title for cls in listed())
        return titles[index]

    def __iter__(self) -> Iterator[str]:
        return iter([cls.title for cls in listed()])

    def __len__(self) -> int:
        return len(listed())

    def __repr__(self) -> str:
        return repr(tuple(self))


class _LinkNames(Mapping[str, str]):
    """Each page's name in a link and its tab's title, in the order of the tabs, as registered now."""

    def _names(self) -> dict[str, str]:
        return {cls.link: cls.title for cls in listed()}

    def __getitem__(self, name: str) -> str:
        return self._names()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(listed())

    def __repr__(self) -> str:
        return repr(self._names())


#: the tabs' titles, in order (the pages registered now)
PAGES: Sequence[str] = _Titles()
#: the pages a link may ask for (``?page=quiz``), by the name used in links, in the order of the tabs
LINK_PAGES: Mapping[str, str] = _LinkNames()
