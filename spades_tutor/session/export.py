"""Cells for the CSV files the app writes, safe to open in a spreadsheet.

A spreadsheet reads a cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or a carriage
return, which some tools strip first) as a formula: a stored answer or a name could then run one
on the teacher's machine ("CSV injection"). Spreadsheets and import tools also skip leading spaces
and line breaks, so a cell such as ``"\\n=1+1"`` is a formula too: the starters are looked for after
any leading white space. Such text cells are written with a leading ``'``, which spreadsheets show
as text; numbers stay numbers.

>>> safe_cell("=HYPERLINK(\\"http://x\\")")
'\\'=HYPERLINK("http://x")'
>>> safe_cell("\\n=1+1"), safe_cell("  @SUM(A1)")
("'\\n=1+1", "'  @SUM(A1)")
>>> safe_cell("legal-plays"), safe_cell(-80), safe_cell(" 7 tricks")
('legal-plays', -80, ' 7 tricks')
"""

from __future__ import annotations

from typing import Any

__all__ = ["FORMULA_STARTS", "safe_cell", "safe_frame"]

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """``value`` with a ``'`` in front if it is text a spreadsheet would read as a formula."""
    if isinstance(value, str) and _starts_a_formula(value):
        return "'" + value
    return value


def _starts_a_formula(text: str) -> bool:
    """Whether a starter comes first, or after white space only (spaces, line breaks, Unicode spaces,
    which spreadsheets skip; a tab or a CR among them is a starter itself)."""
    for char in text:
        if char in FORMULA_STARTS:
            return True
        if not char.isspace():
            return False
    return False


def safe_frame(frame: Any) -> Any:
    """A copy of a pandas DataFrame whose text cells and column names are :func:`safe_cell`-ed."""
    out = frame.rename(columns=safe_cell)
    for column in out.columns:
        if out[column].dtype.kind not in "biufcmM":  # numbers, booleans and dates are never formulas
            out[column] = out[column].map(safe_cell)
    return out
