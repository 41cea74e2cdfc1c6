"""The engine's errors: all ``ValueError`` subclasses that carry what went wrong."""

from __future__ import annotations

import reprlib

__all__ = [
    "CardParseError",
    "DealError",
    "IllegalAction",
    "InputError",
    "Reason",
    "RecordError",
    "RulesError",
    "RulesRecordError",
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
        super().__init__(f"{field}: {shown(value)} is not {expected}")


class RecordError(InputError):
    """A stored record (a round, a game or a rule set read back from JSON) that cannot be read.

    ``.field`` is the path to what is wrong (``"rules.target"``, ``"actions[0][5]"``), so a damaged
    record names the place, whatever was done to it.

    >>> str(RecordError("version", 99, "1 (this version reads version 1 records)"))
    'version: 99 is not 1 (this version reads version 1 records)'

    ``problem``, when given, replaces the "is not …" sentence: ``RecordError("hands", None, "",
    problem="missing from the record")`` reads ``'hands: missing from the record'``.
    """

    def __init__(self, field: str, value: object, expected: str, *, problem: str | None = None) -> None:
        super().__init__(field, value, expected)
        if problem is not None:
            self.args = (f"{field}: {problem}",)


class RulesRecordError(RecordError, RulesError):
    """A rule set in a record that cannot be read: a ``RecordError`` (it names the field) that is
    also a ``RulesError``, like every other rule set that cannot be played."""

    @classmethod
    def of(cls, error: RecordError) -> RulesRecordError:
        new = cls(error.field, error.value, error.expected)
        new.args = error.args
        return new


class _ShortRepr(reprlib.Repr):
    """``repr`` that stays short and safe for anything JSON can hold (deep nesting, huge numbers)."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = 40
        self.maxother = 40
        self.maxlist = self.maxtuple = self.maxdict = 4

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 100:  # str() of a 4,300-digit int raises; say how big it is instead
            return f"a {'negative ' if x < 0 else ''}number of about {int(x.bit_length() * 0.30103) + 1} digits"
        return repr(x)


_short_repr = _ShortRepr()


def shown(value: object) -> str:
    """``value`` as a message shows it: a ``repr`` cut to about 60 characters, whatever the value.

    >>> shown("x" * 100)
    "'xxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxx'"
    >>> shown(10**4000)
    'a number of about 4001 digits'
    """
    try:
        text = _short_repr.repr(value)
    except Exception:  # a value whose own __repr__ fails still gets a message
        text = f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


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
