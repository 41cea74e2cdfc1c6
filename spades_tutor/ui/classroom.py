"""The classroom hand, as the app's modules once imported it: it now lives in
:mod:`spades_tutor.session.classroom`, below the widgets (``ui/projector.py`` draws it).

The names stay importable from here for code written against the old place.
"""

from ..session.classroom import DEAL_ID_FORM, MAX_DEAL_ID, ClassroomHand, Step, read_deal_id

__all__ = ["DEAL_ID_FORM", "MAX_DEAL_ID", "ClassroomHand", "Step", "read_deal_id"]
