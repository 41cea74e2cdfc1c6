"""Spreadsheet-safe CSV cells, as the app's modules once imported them: they now live in
:mod:`spades_tutor.session.export`, below the widgets, beside the progress CSV that needs them.
"""

from ..session.export import FORMULA_STARTS, safe_cell, safe_frame

__all__ = ["FORMULA_STARTS", "safe_cell", "safe_frame"]
