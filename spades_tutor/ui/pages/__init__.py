"""The app's pages, one module each, registered in :mod:`.base`, which the shell (``ui/app.py``) reads.

Nothing here is imported until the app asks for the list of pages; each page's heavy parts (the
bots, the Joker lab's numpy) are imported only when that page is first opened.
"""

from .base import LINK_PAGES, PAGES, Page, SettingsChange, page_class, register, registered, unregister

__all__ = ["LINK_PAGES", "PAGES", "Page", "SettingsChange", "page_class", "register", "registered", "unregister"]
