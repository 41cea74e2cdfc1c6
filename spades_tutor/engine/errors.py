"""The engine's errors: all ``ValueError`` subclasses that carry what went wrong."""

from __future__ import annotations

__all__ = [
    "CardParseError",
    "DealError",
    "IllegalAction",
    "InputError",
    "Reason",
    "RulesError",
    "SpadesError",
]


class SpadesError(ValueError):
    """Base class of every error the engine raises on bad input."""


class CardParseError(SpadesError):
    """Text that is not a card; ``.text`` is the input as given."""

    def __init__(self, text: str, hint: str = "") -> None:
        self.text = text
        self.hint = hint
        super().__init__(f"not a card: {text!r}" + (f" ({hint})" if hint else ""))


class RulesError(SpadesError):
    """A rule set that cannot be played (unknown preset, bad flag value, wrong deck)."""


class DealError(SpadesError):
    """Hands that are not a deal of the rule set's deck (wrong count, duplicates, stray cards)."""


class InputError(SpadesError):
    """A value from outside (a link, a form field, a stored record) that is not what it should be.

    ``.field`` names what was read (``"lesson"``, ``"deal"``, ``"scores.NS"``) and ``.value`` is the
    value as given, so the message says exactly what was not understood.
    """

    def __init__(self, field: str, value: object, expected: str) -> None:
        self.field = field
        self.value = value
        self.expected = expected
        shown = repr(value)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        super().__init__(f"{field}: {shown} is not {expected}")


class Reason:
    """Why an action is not allowed: a short ``code`` and a sentence for a learner.

    >>> r = Reason("must-follow-suit", "You must follow suit: hearts were led and you hold K♥.")
    >>> str(r)
    'You must follow suit: hearts were led and you hold K♥.'
    >>> r.code
    'must-follow-suit'
    """

    __slots__ = ("code", "text")

    def __init__(self, code: str, text: str) -> None:
        self.code = code
        self.text = text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Reason({self.code!r}, {self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reason) and (self.code, self.text) == (other.code, other.text)

    def __hash__(self) -> int:
        return hash((self.code, self.text))


class IllegalAction(SpadesError):
    """An action the rules forbid. ``.reason`` says why; the state is left as it was.

    The message also names the position (deal id, seat, trick) so that a bug
    report reproduces itself.
    """

    def __init__(self, reason: Reason, where: str = "") -> None:
        self.reason = reason
        self.where = where
        super().__init__(f"{reason}" + (f" [{where}]" if where else ""))
