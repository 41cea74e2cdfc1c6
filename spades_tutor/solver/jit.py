"""One source for the search, run two ways: ``njit`` compiles a function with numba, or, while a
copy of the search is loaded as plain Python (``as_python``), leaves it as it is.

So ``core.py`` is the only search there is: ``search.compiled_core()`` imports it compiled,
``search.python_core()`` loads a second copy of the same file that runs in the interpreter (where
numba cannot be imported, and in the tests that hold the two runs to the same answers and the same
node counts). numba itself is imported only when a compiled function is made.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

__all__ = ["as_python", "compiling", "njit", "njit_plain"]

F = TypeVar("F", bound=Callable[..., object])

_python = threading.local()
_loading = threading.Lock()


def compiling() -> bool:
    """Whether the module being loaded now is compiled (numba can be imported, and no Python copy
    is being loaded)."""
    if getattr(_python, "on", False):
        return False
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def njit(f: F) -> F:
    """``numba.njit(cache=True, nogil=True)`` when ``compiling()``, else ``f`` itself: compiled, a
    search lets go of the GIL, so searches in two threads keep two cores busy (the perfect judge's)."""
    return _compiled(f, nrt=True)


def njit_plain(f: F) -> F:
    """As ``njit``, without numba's reference counting (NRT), for a function that allocates no
    array: the arrays it is passed are not counted in and out at every call, each count an atomic
    instruction (in the search's helpers, called at every node, they took a fifth of a full deal's
    time)."""
    return _compiled(f, nrt=False)


def _compiled(f: F, nrt: bool) -> F:
    if not compiling():
        return f
    from numba import njit as numba_njit

    options: dict[str, Any] = {} if nrt else {"_nrt": False}  # numba's own option, not in its stubs
    return numba_njit(cache=True, nogil=True, **options)(f)  # type: ignore[no-any-return]  # a dispatcher, called as f is


@contextlib.contextmanager
def as_python() -> Iterator[None]:
    """While a copy of a module is loaded in this block, its ``njit`` functions stay Python."""
    with _loading:
        _python.on = True
        try:
            yield
        finally:
            _python.on = False
