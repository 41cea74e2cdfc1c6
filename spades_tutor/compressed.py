"""Static files sent gzip-compressed, each compressed once: what a class's network carries.

Every page of the app fetches about a hundred scripts, styles and fonts (Voilà's, JupyterLab's and
the widget libraries', 9.7 MiB in all); the server sent them uncompressed. On a classroom's wifi,
thirty learners arriving at once share one link, so those bytes are the class's wait. Scripts and
styles compress about four to one.

:class:`CompressedStatic` is mixed into the server's static-file handlers. A request that accepts
gzip gets the file compressed, and the compressed bytes are kept (keyed on the file's path, size
and modification time), so each file is compressed once per server, off the event loop, and
learners arriving together wait for one compression, not one each. A range request, a client
that does not accept gzip, and files that do not shrink (images, ``woff2`` fonts) are served as
before. Both encodings carry ``Vary: Accept-Encoding`` and distinct ``Etag``\\ s, so no cache
hands one to a client that asked for the other.

>>> accepts_gzip("gzip, deflate, br"), accepts_gzip("br;q=1.0, gzip;q=0"), accepts_gzip("")
(True, False, False)
>>> compressible("/static/lab/remoteEntry.4bd1.js"), compressible("/static/fonts/x.woff2")
(True, False)
"""

from __future__ import annotations

import asyncio
import gzip
import os
import threading
from collections import OrderedDict
from typing import Any

import tornado.web

__all__ = ["CompressedStatic", "accepts_gzip", "compressible", "gzipped"]

# Files worth compressing, by extension: text, and fonts stored uncompressed.
COMPRESSIBLE = frozenset(
    {".js", ".mjs", ".cjs", ".css", ".json", ".map", ".svg", ".html", ".htm", ".txt", ".ttf", ".otf", ".eot", ".wasm"}
)
# Smaller files gain too little to be worth a second encoding.
MIN_SIZE = 1024
# Compressed bytes kept at most (the app's static files take about 3 MiB compressed).
CACHE_BYTES = 128 * 1024 * 1024
LEVEL = 6

_cache: OrderedDict[tuple[str, int, int], bytes | None] = OrderedDict()
_cache_bytes = 0
_lock = threading.Lock()
_pending: dict[tuple[str, int, int], asyncio.Future[bytes | None]] = {}


def accepts_gzip(header: str) -> bool:
    """Whether an ``Accept-Encoding`` header accepts gzip (``gzip`` or ``*`` listed without ``q=0``)."""
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        if name.strip().lower() not in ("gzip", "*"):
            continue
        q = params.strip().lower()
        if q.startswith("q="):
            try:
                return float(q[2:]) > 0
            except ValueError:
                return False
        return True
    return False


def compressible(path: str) -> bool:
    """Whether a file is of a kind worth sending compressed (by its extension)."""
    return os.path.splitext(path)[1].lower() in COMPRESSIBLE


def _compress(path: str) -> bytes | None:
    with open(path, "rb") as f:
        data = f.read()
    packed = gzip.compress(data, compresslevel=LEVEL, mtime=0)
    return packed if len(packed) < len(data) else None


def _keep(key: tuple[str, int, int], packed: bytes | None) -> None:
    global _cache_bytes
    with _lock:
        if key in _cache:
            return
        _cache[key] = packed
        _cache_bytes += len(packed or b"")
        while _cache_bytes > CACHE_BYTES and len(_cache) > 1:
            _, old = _cache.popitem(last=False)
            _cache_bytes -= len(old or b"")


async def gzipped(path: str) -> bytes | None:
    """The file at ``path`` gzip-compressed (``None`` if that does not make it smaller): compressed once
    in a worker thread, then kept while the file is unchanged; concurrent callers share one compression."""
    st = os.stat(path)
    key = (path, st.st_size, st.st_mtime_ns)
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    waiting = _pending.get(key)
    if waiting is not None:
        return await asyncio.shield(waiting)
    future: asyncio.Future[bytes | None] = asyncio.get_running_loop().create_future()
    _pending[key] = future
    try:
        packed = await asyncio.get_running_loop().run_in_executor(None, _compress, path)
    except BaseException as e:
        future.set_exception(e)
        future.exception()  # retrieved: a failed compression is the requests' error, not the loop's
        raise
    finally:
        _pending.pop(key, None)
    _keep(key, packed)
    future.set_result(packed)
    return packed


class CompressedStatic(tornado.web.StaticFileHandler):
    """Mixed in before a static-file handler class: gzip for the clients that accept it (see above)."""

    _gzip = False

    def compute_etag(self) -> str | None:
        etag = super().compute_etag()
        if etag and self._gzip:
            return etag[:-1] + '-gzip"' if etag.endswith('"') else etag + "-gzip"
        return etag

    async def get(self, path: str, include_body: bool = True) -> None:
        kind = compressible(path)
        if kind:
            self.set_header("Vary", "Accept-Encoding")
        wanted = (
            kind
            and self.settings.get("spades_tutor_compress", True)
            and "Range" not in self.request.headers
            and accepts_gzip(self.request.headers.get("Accept-Encoding", ""))
        )
        if not wanted:
            await super().get(path, include_body)
            return
        # As StaticFileHandler.get, up to the body: the same path checks, headers and 304.
        requested = path
        self.path = self.parse_url_path(path)
        absolute_path = self.get_absolute_path(self.root, self.path)
        self.absolute_path = self.validate_absolute_path(self.root, absolute_path)
        if self.absolute_path is None:
            return
        size = os.path.getsize(self.absolute_path)
        packed = await gzipped(self.absolute_path) if size >= MIN_SIZE else None
        if packed is None:  # too small, or it does not shrink: as it is
            await super().get(requested, include_body)
            return
        self._gzip = True
        self.modified = self.get_modified_time()
        self.set_headers()
        if self.should_return_304():
            self.set_status(304)
            return
        self.set_header("Content-Encoding", "gzip")
        self.set_header("Content-Length", len(packed))
        if include_body:
            self.write(packed)
        else:
            assert self.request.method == "HEAD"

    def head(self, path: str) -> Any:
        return self.get(path, include_body=False)
