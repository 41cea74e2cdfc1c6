"""Cells for the CSV files the app writes, safe to open in a spreadsheet.

A spreadsheet reads a cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or a carriage
return, which some tools strip first) as a formula: a stored answer or a name could then run one
on the teacher's machine ("CSV injection"). Such text cells are written with a leading ``'``, which
spreadsheets show as text; numbers stay numbers.

>>> safe_cell("=HYPERLINK(\\"http://x\\")")
'\\'=HYPERLINK("http://x")'
>>> safe_cell("legal-plays"), safe_cell(-80)
('legal-plays', -80)
"""

from __future__ import annotations

from typing import Any

__all__ = ["FORMULA_STARTS", "safe_cell", "safe_frame"]

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """``value`` with a ``'`` in front if it is text a spreadsheet would read as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def safe_frame(frame: Any) -> Any:
    """A copy of a pandas DataFrame whose text cells and column names are :func:`safe_cell`-ed."""
    out = frame.rename(columns=safe_cell)
    for column in out.columns:
        if out[column].dtype.kind not in "biufcmM":  # numbers, booleans and dates are never formulas
            out[column] = out[column].map(safe_cell)
    return out
