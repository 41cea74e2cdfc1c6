"""Card views: a hand, a row of choices, or a trick drawn around the table.

One anywidget draws real card faces (``static/cards.js``). Python decides what is
shown; the page only reports which cards were chosen, and every value it sends is
checked here against the cards on show before anyone reads it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import anywidget
import traitlets

from ..engine import Card, Rules, Seat, Trick, cards
from . import static_text
from .numbers import read_seq


class CardsWidget(anywidget.AnyWidget):
    """Cards on show; ``selected`` holds the chosen card texts (validated)."""

    _esm = static_text("cards.js")
    _css = static_text("cards.css")

    cards = traitlets.List(traitlets.Unicode()).tag(sync=True)
    names = traitlets.List(traitlets.Unicode()).tag(sync=True)
    groups = traitlets.List(traitlets.Unicode()).tag(sync=True)
    arrangement = traitlets.Unicode("row").tag(sync=True)  # "row" or "table" (not `layout`: that is the DOM widget's)
    seats = traitlets.List(traitlets.Unicode()).tag(sync=True)  # table: the seat letter of each card
    leader = traitlets.Unicode("").tag(sync=True)
    winner = traitlets.Unicode("").tag(sync=True)
    selectable = traitlets.Unicode("none").tag(sync=True)  # none / one / many / order
    selected: traitlets.List[Any] = traitlets.List().tag(
        sync=True
    )  # any list from the page; _check_selected filters it
    marks = traitlets.Dict().tag(sync=True)  # card text -> legal / illegal / winner / right / wrong
    disabled = traitlets.Bool(False).tag(sync=True)
    four_colour = traitlets.Bool(False).tag(sync=True)
    large = traitlets.Bool(False).tag(sync=True)
    label = traitlets.Unicode("cards").tag(sync=True)
    seq = traitlets.Int(0).tag(sync=True)  # the last page choice read: the page shows ours only after it

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_msg(self._page_message)

    def _page_message(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        """The page's choice of cards; ``_check_selected`` filters whatever arrives."""
        if isinstance(content, dict) and isinstance(content.get("selected"), list):
            with self.hold_sync():
                self.seq = read_seq(content, self.seq)
                self.selected = content["selected"]

    @traitlets.validate("selected")
    def _check_selected(self, proposal: Any) -> list[str]:
        """Keep only cards on show, each once; never trust the page."""
        shown = set(self.cards)
        out: list[str] = []
        for value in proposal["value"]:
            if isinstance(value, str) and value in shown and value not in out:
                out.append(value)
        if self.selectable == "none":
            return []
        if self.selectable == "one":
            return out[-1:]
        return out

    @traitlets.validate("selectable")
    def _check_selectable(self, proposal: Any) -> str:
        value = proposal["value"]
        if value not in ("none", "one", "many", "order"):
            raise traitlets.TraitError(f"selectable must be none, one, many or order, not {value!r}")
        return str(value)

    @property
    def selected_cards(self) -> tuple[Card, ...]:
        return cards(self.selected)

    def show(self, shown: Sequence[Card], groups: Sequence[str] | None = None) -> None:
        with self.hold_sync():
            self.cards = [str(c) for c in shown]
            self.names = [c.name for c in shown]
            self.groups = list(groups) if groups is not None else [""] * len(shown)
            self.selected = []
            self.marks = {}


def _groups(rules: Rules, shown: Sequence[Card]) -> list[str]:
    return ["trumps" if rules.is_trump(c) else rules.suit_of(c).plural for c in shown]


def hand_view(
    rules: Rules,
    hand: Iterable[Card] | str,
    *,
    selectable: str = "none",
    sort: bool = True,
    label: str = "hand",
    marks: Mapping[Card, str] | None = None,
    four_colour: bool = False,
    large: bool = False,
) -> CardsWidget:
    """A hand sorted by suit with the trumps together (highest first)."""
    held = cards(hand)
    shown = tuple(rules.sort_hand(held)) if sort else held
    widget = CardsWidget(selectable=selectable, label=label, four_colour=four_colour, large=large, arrangement="row")
    widget.show(shown, _groups(rules, shown) if sort else None)
    if marks:
        widget.marks = {str(c): m for c, m in marks.items()}
    return widget


def trick_view(
    trick: Trick,
    *,
    selectable: str = "none",
    show_winner: bool = True,
    label: str = "trick",
    four_colour: bool = False,
    large: bool = False,
) -> CardsWidget:
    """A trick drawn around the table, N at the top; the winner highlighted once known."""
    seats = [s.letter for s in trick.seats]
    widget = CardsWidget(
        arrangement="table",
        selectable=selectable,
        label=label,
        leader=trick.leader.letter,
        four_colour=four_colour,
        large=large,
    )
    widget.show(trick.cards)
    widget.seats = seats
    if show_winner and trick.winner is not None:
        widget.winner = trick.winner.letter
    return widget


def seat_of(trick: Trick, card: Card) -> Seat:
    return trick.seats[trick.cards.index(card)]
