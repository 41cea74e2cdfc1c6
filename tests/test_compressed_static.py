"""Static files sent gzip-compressed, each compressed once (``spades_tutor.compressed``).

A small Tornado app, in a thread with its own event loop, serves a folder through the mixin on
Tornado's own static handler; the tests speak plain HTTP to it. The app's server mixes it into
Voilà's static handlers and jupyter_server's (the lab extensions): the browser test
``test_the_page_s_scripts_and_styles_arrive_compressed_and_whole`` checks those on the page.
"""

from __future__ import annotations

import asyncio
import gzip
import http.client
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import tornado.web

from spades_tutor import compressed
from spades_tutor.compressed import MIN_SIZE, CompressedStatic

SCRIPT = ("function deal(seed) { return shuffle(deck(), seed); }\n" * 400).encode()
SMALL = b"const x = 1;\n"
NOISE = os.urandom(8192)  # random bytes do not shrink


class Static(CompressedStatic, tornado.web.StaticFileHandler):
    pass


class Served:
    def __init__(self, root: Path, port: int) -> None:
        self.root, self.port = root, port

    def get(self, path: str, method: str = "GET", **headers: str) -> tuple[int, dict[str, str], bytes]:
        """One request, the bytes as sent (as a cache or a proxy sees them): status, headers, body."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, headers={k.replace("_", "-"): v for k, v in headers.items()})
            r = conn.getresponse()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
        finally:
            conn.close()


def serve(folder: Path, **settings: object) -> Iterator[Served]:
    ready = threading.Event()
    state: dict[str, object] = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        app = tornado.web.Application([(r"/s/(.*)", Static, {"path": str(folder)})], **settings)
        server = app.listen(0, "127.0.0.1")
        state["port"] = next(iter(server._sockets.values())).getsockname()[1]
        state["loop"], state["server"] = loop, server
        ready.set()
        loop.run_forever()
        server.stop()
        loop.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10)
    yield Served(folder, int(state["port"]))  # type: ignore[call-overload]
    loop = state["loop"]
    loop.call_soon_threadsafe(loop.stop)  # type: ignore[attr-defined]
    thread.join(10)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("site")
    root = folder / "public"
    root.mkdir()
    (folder / "secret.js").write_bytes(SCRIPT)
    (root / "app.js").write_bytes(SCRIPT)
    (root / "small.js").write_bytes(SMALL)
    (root / "noise.js").write_bytes(NOISE)
    (root / "font.woff2").write_bytes(SCRIPT)
    yield from serve(root)


def test_a_script_goes_compressed_to_a_client_that_accepts_gzip_and_unpacks_to_the_file(site: Served) -> None:
    status, headers, body = site.get("/s/app.js", Accept_Encoding="gzip, deflate, br")
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert headers["vary"] == "Accept-Encoding"
    assert "javascript" in headers["content-type"]
    assert int(headers["content-length"]) == len(body) < len(SCRIPT) / 4
    assert gzip.decompress(body) == SCRIPT


def test_a_client_that_does_not_accept_gzip_gets_the_file_as_it_is(site: Served) -> None:
    for headers in ({}, {"Accept_Encoding": "gzip;q=0, br"}, {"Accept_Encoding": "identity"}):
        status, got, body = site.get("/s/app.js", **headers)
        assert status == 200 and body == SCRIPT, headers
        assert "content-encoding" not in got
        assert got["vary"] == "Accept-Encoding"


def test_the_two_encodings_have_different_etags_and_each_revalidates_to_304(site: Served) -> None:
    _, packed, _ = site.get("/s/app.js", Accept_Encoding="gzip")
    _, plain, _ = site.get("/s/app.js")
    assert packed["etag"] != plain["etag"]
    status, _, body = site.get("/s/app.js", Accept_Encoding="gzip", If_None_Match=packed["etag"])
    assert status == 304 and body == b""
    status, _, body = site.get("/s/app.js", Accept_Encoding="gzip", If_None_Match=plain["etag"])
    assert status == 200 and gzip.decompress(body) == SCRIPT


def test_a_range_request_gets_the_plain_bytes_it_asked_for(site: Served) -> None:
    status, headers, body = site.get("/s/app.js", Accept_Encoding="gzip", Range="bytes=10-19")
    assert status == 206 and body == SCRIPT[10:20]
    assert "content-encoding" not in headers


def test_small_files_files_that_do_not_shrink_and_woff2_fonts_go_as_they_are(site: Served) -> None:
    assert len(SMALL) < MIN_SIZE
    for name, expected in (("small.js", SMALL), ("noise.js", NOISE), ("font.woff2", SCRIPT)):
        status, headers, body = site.get("/s/" + name, Accept_Encoding="gzip")
        assert status == 200 and body == expected, name
        assert "content-encoding" not in headers, name


def test_head_gives_the_compressed_length_and_no_body(site: Served) -> None:
    _, packed, _ = site.get("/s/app.js", Accept_Encoding="gzip")
    status, headers, body = site.get("/s/app.js", method="HEAD", Accept_Encoding="gzip")
    assert status == 200 and body == b""
    assert headers["content-encoding"] == "gzip"
    assert headers["content-length"] == packed["content-length"]


def test_a_changed_file_is_compressed_again(site: Served) -> None:
    (site.root / "changing.js").write_bytes(SCRIPT)
    site.get("/s/changing.js", Accept_Encoding="gzip")
    changed = SCRIPT + b"// one more line\n"
    (site.root / "changing.js").write_bytes(changed)
    _, _, body = site.get("/s/changing.js", Accept_Encoding="gzip")
    assert gzip.decompress(body) == changed


def test_a_path_outside_the_folder_is_refused_compressed_or_not(site: Served) -> None:
    for path in ("/s/../secret.js", "/s/%2e%2e/secret.js", "/s/..%2fsecret.js"):
        for headers in ({}, {"Accept_Encoding": "gzip"}):
            status, _, body = site.get(path, **headers)
            assert status in (403, 404), (path, headers, status)
            assert b"shuffle" not in body and body[:2] != b"\x1f\x8b"


def test_learners_arriving_together_wait_for_one_compression(site: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = compressed._compress

    def counted(path: str) -> bytes | None:
        calls.append(path)
        time.sleep(0.5)  # a big file: the others arrive while it is being compressed
        return real(path)

    fresh = site.root / "fresh.js"
    fresh.write_bytes(SCRIPT + b"// fresh\n")
    monkeypatch.setattr(compressed, "_compress", counted)
    start = threading.Barrier(8)

    def one(_: int) -> bytes:
        start.wait()
        return site.get("/s/fresh.js", Accept_Encoding="gzip")[2]

    with ThreadPoolExecutor(8) as ex:
        bodies = list(ex.map(one, range(8)))
    assert [gzip.decompress(b) for b in bodies] == [SCRIPT + b"// fresh\n"] * 8
    assert calls == [str(fresh)], f"compressed {len(calls)} times"


def test_switched_off_scripts_go_as_they_are(tmp_path: Path) -> None:
    """``--TutorVoila.compress_static=False`` (a proxy in front compresses): every file as it is."""
    (tmp_path / "app.js").write_bytes(SCRIPT)
    for site in serve(tmp_path, spades_tutor_compress=False):
        status, headers, body = site.get("/s/app.js", Accept_Encoding="gzip")
        assert status == 200 and body == SCRIPT
        assert "content-encoding" not in headers
