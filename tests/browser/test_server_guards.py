"""The app's own server (``spades-tutor app``) against a client on the classroom network that misbehaves.

One server, started as a teacher starts it for a room (``--ip 0.0.0.0`` with a class code), with small
kernel bounds. The raw HTTP clients each speak from their own loopback address (127.0.0.4, 127.0.0.5,
...): the server counts kernels per client address, so those tests do not share a budget. Chromium
always connects from 127.0.0.1: each browser test leaves its pages at the end (which frees their
kernels), so the next one starts with the whole budget.
"""

from __future__ import annotations

import http.client
import json
import re
import struct
import sys
import time
import urllib.parse
import uuid
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from websockets.sync.client import connect

from spades_tutor.compressed import MIN_SIZE

from .conftest import FIRST_EXPECT_TIMEOUT_MS, Server, free_port, kernel_id_from_html, start_server

pytestmark = [pytest.mark.browser, pytest.mark.timed]  # measures a server under attack: run with fewer beside it

CODE = "K7M2QX"
PER_CLIENT = 2
APP_TEXT = "Learn Spades with Jokers"


@pytest.fixture(scope="module")
def guarded_server() -> Iterator[Server]:
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "spades_tutor",
        "app",
        f"--port={port}",
        "--no-browser",
        "--ip",
        "0.0.0.0",
        "--class-code",
        CODE,
        "--kernels-per-client",
        str(PER_CLIENT),
        "--max-kernels",
        "12",
    ]
    server = start_server("guarded-server", cmd)
    server.wait_for_log(r"Kernel pool of app\.ipynb is filled", timeout=120)
    yield server
    server.stop()


def port_of(server: Server) -> int:
    return int(server.base_url.rsplit(":", 1)[1])


def at(server: Server, client: str, path: str) -> str:
    """The URL of ``path`` on ``server`` as a client at loopback address ``client`` reaches it."""
    return f"http://{client}:{port_of(server)}{path}"


def request(
    server: Server,
    client: str,
    path: str,
    *,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    timeout: float = 120,
) -> tuple[int, dict[str, str], str]:
    """A raw HTTP request from loopback address ``client``: status, headers (lower-case names, last wins), body."""
    conn = http.client.HTTPConnection(client, port_of(server), timeout=timeout, source_address=(client, 0))
    try:
        conn.request(method, path, headers=headers or {})
        response = conn.getresponse()
        return (
            response.status,
            {k.lower(): v for k, v in response.getheaders()},
            response.read().decode("utf-8", "replace"),
        )
    finally:
        conn.close()


def class_cookie(server: Server, client: str) -> str:
    """Present the class code as a learner's link does; the cookie the server sets for it."""
    status, headers, _ = request(server, client, f"/?code={CODE}")
    assert status == 302, status
    return headers["set-cookie"].split(";", 1)[0]


def kernels_started(server: Server) -> int:
    """Kernels the server has started or handed out so far (each shows up in its log)."""
    return len(re.findall(r"Kernel started: |Using pre-heated kernel: ", server.log()))


def settle(server: Server, quiet_s: float = 4, timeout: float = 90) -> None:
    """Wait until the server has started no kernel for ``quiet_s`` seconds (its pool refilled)."""
    deadline = time.monotonic() + timeout
    count, since = kernels_started(server), time.monotonic()
    while time.monotonic() - since < quiet_s:
        assert time.monotonic() < deadline, "the server kept starting kernels"
        time.sleep(0.3)
        if kernels_started(server) != count:
            count, since = kernels_started(server), time.monotonic()
    server.wait_for_log(r"Kernel pool of app\.ipynb is filled", timeout=timeout)


def open_with_code(page: Page, server: Server, query: str = "") -> str:
    """Open the app as a learner with the class link; the page's kernel id."""
    page.goto(
        at(server, "127.0.0.1", f"/?code={CODE}{'&' + query if query else ''}"), timeout=2 * FIRST_EXPECT_TIMEOUT_MS
    )
    expect(page.locator(".st-brand")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    assert "code=" not in page.url, "the class code stays out of the address once the cookie is set"
    return str(page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"))


def leave(page: Page, server: Server, timeout: float = 15) -> None:
    """Leave the page (as closing its tab does) and wait until the server has shut its kernel down."""
    kernel_id = page.evaluate(
        "(() => { const e = document.getElementById('jupyter-config-data');"
        " return e ? JSON.parse(e.textContent).kernelId : null; })()"
    )
    page.goto("about:blank")
    if kernel_id:
        server.wait_for_log(rf"Kernel shutdown: {kernel_id}", timeout=timeout)


# --- 1. the freeze ---------------------------------------------------------------------------------------


def legacy_message(msg_type: str, content: dict[str, object], session: str) -> dict[str, object]:
    """A shell message as a client of the legacy kernel-websocket protocol sends it (JSON, with its channel)."""
    return {
        "header": {
            "msg_id": uuid.uuid4().hex,
            "msg_type": msg_type,
            "session": session,
            "username": "",
            "date": "2026-12-01T00:00:00Z",
            "version": "5.3",
        },
        "parent_header": {},
        "metadata": {},
        "content": content,
        "channel": "shell",
    }


def legacy_binary(msg: dict[str, object], *buffers: bytes) -> bytes:
    """``msg`` with its buffers in the legacy binary framing (4-byte big-endian count and offsets)."""
    parts = [json.dumps(msg).encode(), *buffers]
    offsets = [4 * (len(parts) + 1)]
    for part in parts[:-1]:
        offsets.append(offsets[-1] + len(part))
    return struct.pack(f"!{len(parts) + 1}I", len(parts), *offsets) + b"".join(parts)


def test_a_legacy_websocket_client_on_the_joker_lab_does_not_freeze_the_server(
    page: Page, browser: Browser, guarded_server: Server
) -> None:
    """A kernel websocket without the v1 subprotocol, on a kernel running the lab: HTTP still answers at once.

    The lab's plots travel as text now, so the client makes the kernel send binary messages itself:
    a widget update carrying a buffer is echoed at once to every client of the kernel (ipywidgets'
    ``echo_update``), in binary. Voilà read each such message in the v1 framing whatever the
    connection's protocol, and a legacy-framed one read as ~10^17 offsets froze the server.
    """
    client = "127.0.0.1"
    kernel_id = open_with_code(page, guarded_server, "page=lab")
    page.get_by_label("Sample:").select_option(label="2,000 rounds each")
    cookie = next(c for c in page.context.cookies() if c["name"] == "spades_tutor_class")
    session = uuid.uuid4().hex
    ws_url = f"ws://{client}:{port_of(guarded_server)}/api/kernels/{kernel_id}/channels?session_id={session}"
    binary_frames = 0
    with connect(  # no subprotocol asked for: the legacy framing
        ws_url,
        origin=f"http://{client}:{port_of(guarded_server)}",
        additional_headers={"Cookie": f"{cookie['name']}={cookie['value']}"},
        open_timeout=30,
        max_size=None,
    ) as ws:
        assert ws.subprotocol is None
        ws.send(json.dumps(legacy_message("comm_info_request", {"target_name": "jupyter.widget"}, session)))
        comms: list[str] = []
        deadline = time.monotonic() + 30
        while not comms and time.monotonic() < deadline:
            frame = ws.recv(timeout=30)
            if isinstance(frame, str):
                reply = json.loads(frame)
                if reply.get("msg_type") == "comm_info_reply" or reply["header"]["msg_type"] == "comm_info_reply":
                    comms = sorted(reply["content"]["comms"])
        assert comms, "the kernel listed no widget"
        page.get_by_role("button", name="Run the lab ▶").click()
        deadline = time.monotonic() + 60
        for i in range(40):
            update = {
                "method": "update",
                "state": {"_model_module_version": {}},
                "buffer_paths": [["_model_module_version"]],
            }
            ws.send(
                legacy_binary(
                    legacy_message("comm_msg", {"comm_id": comms[i % len(comms)], "data": update}, session),
                    b"\x00" * 64,
                )
            )
            try:
                while True:
                    binary_frames += isinstance(ws.recv(timeout=0.2), bytes)
            except TimeoutError:
                pass
            started = time.monotonic()
            status, _, _ = request(
                guarded_server, "127.0.0.1", "/voila/labextensions/anywidget/package.json", timeout=1
            )
            assert status == 200 and time.monotonic() - started < 1.0
            assert time.monotonic() < deadline
    assert binary_frames > 0, "the kernel sent no binary message to the legacy client: the test proves nothing"
    # and a learner arriving now still gets the app
    context = browser.new_context()
    try:
        fresh = context.new_page()
        fresh.set_default_timeout(FIRST_EXPECT_TIMEOUT_MS)
        open_with_code(fresh, guarded_server)
        expect(fresh.get_by_text(APP_TEXT).first).to_be_visible()
        leave(fresh, guarded_server)
    finally:
        context.close()
    leave(page, guarded_server)


# --- 2. theme and template from the address ------------------------------------------------------------


def test_the_theme_and_template_in_the_address_change_nothing(guarded_server: Server) -> None:
    client = "127.0.0.5"
    cookie = class_cookie(guarded_server, client)
    payload = '"><img src=x onerror=alert(1)>'
    status, _, html = request(
        guarded_server, client, "/?theme=" + urllib.parse.quote(payload), headers={"Cookie": cookie}
    )
    assert status == 200
    assert "onerror" not in html and "<img src=x" not in html
    # the pool refills behind that page (a page asked for while no kernel is ready is started cold, never
    # made to wait for the refill: spades_tutor.kernel_pool), so the next one can be handed a warm kernel
    settle(guarded_server)
    status, _, html = request(guarded_server, client, "/?template=x&lesson=2", headers={"Cookie": cookie})
    assert status == 200
    kernel_id = kernel_id_from_html(html)
    # the normal app, on a warm kernel of the pool (a template override used to start a cold one)
    guarded_server.wait_for_log(rf"Using pre-heated kernel: {kernel_id} for app\.ipynb", timeout=10)


def test_voila_json_turns_the_theme_and_template_overrides_off() -> None:
    """Also for a plain ``voila`` run on the repository's configuration (and Binder's jupyter_config.json)."""
    from .conftest import ROOT

    for name in ("voila.json", "jupyter_config.json"):
        config = json.loads((ROOT / name).read_text())["VoilaConfiguration"]
        assert config["allow_theme_override"] == "NO" and config["allow_template_override"] == "NO", name


def test_plain_voila_on_voila_json_does_not_reflect_the_theme(voila_server: Server) -> None:
    status, _, html = request(
        voila_server, "127.0.0.1", "/?theme=" + urllib.parse.quote('"><img src=x onerror=alert(1)>')
    )
    assert status == 200 and "onerror" not in html


# --- 3. the host check ------------------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:8866", "127.0.0.1.nip.io"])
def test_a_foreign_host_header_is_refused_for_pages_and_websockets(guarded_server: Server, host: str) -> None:
    client = "127.0.0.7"
    cookie = class_cookie(guarded_server, client)
    before = kernels_started(guarded_server)
    status, _, body = request(guarded_server, client, "/?lesson=1", headers={"Host": host, "Cookie": cookie})
    assert status == 403 and "Wrong address" in body
    status, _, _ = request(guarded_server, client, f"/?code={CODE}", headers={"Host": host})
    assert status == 403
    ws_headers = {
        "Host": host,
        "Cookie": cookie,
        "Connection": "Upgrade",
        "Upgrade": "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    }
    status, _, _ = request(guarded_server, client, f"/api/kernels/{uuid.uuid4()}/channels", headers=ws_headers)
    assert status == 403
    assert kernels_started(guarded_server) == before
    # the names the server does serve
    for good in (f"127.0.0.7:{port_of(guarded_server)}", f"localhost:{port_of(guarded_server)}"):
        assert (
            request(guarded_server, client, "/voila/labextensions/anywidget/package.json", headers={"Host": good})[0]
            == 200
        )


# --- 4. the class code -------------------------------------------------------------------------------------


def test_without_the_class_code_there_is_no_page_and_no_kernel(guarded_server: Server) -> None:
    client = "127.0.0.8"
    settle(guarded_server)
    before = kernels_started(guarded_server)
    processes = {p.pid for p in guarded_server.kernels().values()}
    for path in ("/", "/?lesson=4", "/?code=WRONG1", "/?lesson=4&code="):
        status, _, body = request(guarded_server, client, path)
        assert status == 403, path
        expected = "That is not the class code" if "WRONG" in path else "Ask your teacher for the class link"
        assert expected in body and '<input id="code" name="code"' in body
        assert "jupyter-config-data" not in body and CODE not in body
    # nor any other route
    assert request(guarded_server, client, f"/api/kernels/{uuid.uuid4()}")[0] == 403
    time.sleep(2)
    assert kernels_started(guarded_server) == before
    assert not {p.pid for p in guarded_server.kernels().values()} - processes  # no new kernel process


def test_the_class_link_sets_a_cookie_and_a_lesson_link_with_the_code_still_opens_the_lesson(
    page: Page, guarded_server: Server
) -> None:
    client = "127.0.0.9"
    status, headers, _ = request(guarded_server, client, f"/?lesson=4&step=2&code={CODE.lower()}")
    assert status == 302
    assert headers["location"] == "/?lesson=4&step=2"
    cookie = headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and CODE not in cookie
    # the link opened again with the cookie: the same clean link; and never a redirect off this server
    again = request(guarded_server, client, f"/?lesson=4&code={CODE}", headers={"Cookie": cookie.split(";")[0]})
    assert again[0] == 302 and again[1]["location"] == "/?lesson=4"
    status, headers, _ = request(guarded_server, client, f"//attacker.example/?code={CODE}")
    assert status == 302 and headers["location"].startswith("/attacker.example")
    page.goto(at(guarded_server, "127.0.0.1", f"/?lesson=4&step=2&code={CODE}"), timeout=2 * FIRST_EXPECT_TIMEOUT_MS)
    expect(page.get_by_text("Step 2 of")).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.get_by_role("button", name="Next ▶").click()
    expect(page.get_by_text("Step 3 of")).to_be_visible()  # the kernel websocket works with the cookie
    assert page.url.endswith("/?lesson=4&step=2")
    leave(page, guarded_server)


def test_the_banner_prints_the_link_with_the_code(guarded_server: Server) -> None:
    log = guarded_server.log()
    assert re.search(rf"learners open http://\S+:{port_of(guarded_server)}/\?code={CODE}\b", log), log[:2000]


# --- 5. kernels per client ------------------------------------------------------------------------------


def test_one_client_gets_a_clear_page_and_no_kernel_past_its_bound(guarded_server: Server) -> None:
    client = "127.0.0.4"
    cookie = class_cookie(guarded_server, client)
    kernel_ids = set()
    for lesson in range(1, PER_CLIENT + 1):
        status, _, html = request(guarded_server, client, f"/?lesson={lesson}", headers={"Cookie": cookie})
        assert status == 200
        kernel_ids.add(kernel_id_from_html(html))
    assert len(kernel_ids) == PER_CLIENT
    settle(guarded_server)  # the pool refills behind those two: let it finish
    before = kernels_started(guarded_server)
    processes = {p.pid for p in guarded_server.kernels().values()}
    status, _, body = request(guarded_server, client, "/?lesson=3", headers={"Cookie": cookie})
    assert status == 429
    assert "Too many open tabs from this computer: close one and reload" in body
    assert "jupyter-config-data" not in body
    time.sleep(2)
    assert kernels_started(guarded_server) == before
    assert not {p.pid for p in guarded_server.kernels().values()} - processes  # no new kernel process
    # another computer is not affected
    other = "127.0.0.10"
    status, _, html = request(
        guarded_server, other, "/?lesson=3", headers={"Cookie": class_cookie(guarded_server, other)}
    )
    assert status == 200 and kernel_id_from_html(html) not in kernel_ids
    # and a kernel is the business of the computer it was given to only
    foreign = request(guarded_server, other, f"/api/kernels/{next(iter(kernel_ids))}", headers={"Cookie": cookie})
    assert foreign[0] == 403


# --- 6. closing a tab frees its kernel -----------------------------------------------------------------


def test_closing_a_tab_shuts_its_kernel_down_at_once(page: Page, guarded_server: Server) -> None:
    kernel_id = open_with_code(page, guarded_server)
    assert kernel_id in guarded_server.kernels()
    page.goto("about:blank")  # leaving the page sends Voilà's shutdown beacon
    deadline = time.monotonic() + 10
    while kernel_id in guarded_server.kernels():
        assert time.monotonic() < deadline, "the closed tab's kernel is still running 10 s later"
        time.sleep(0.2)
    assert f"Kernel shutdown: {kernel_id}" in guarded_server.log()
    assert not re.search(rf"403 POST /voila/api/shutdown/{kernel_id}", guarded_server.log())


def test_the_shutdown_route_still_wants_the_xsrf_token(page: Page, guarded_server: Server) -> None:
    kernel_id = open_with_code(page, guarded_server)
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies() if c["name"] != "_xsrf")
    status, _, _ = request(
        guarded_server, "127.0.0.1", f"/voila/api/shutdown/{kernel_id}", method="POST", headers={"Cookie": cookies}
    )
    assert status == 403
    expect(page.get_by_role("button", name="Home")).to_be_visible()
    assert kernel_id in guarded_server.kernels()
    leave(page, guarded_server)


# --- what a page costs the classroom's network --------------------------------------------------------


def test_a_page_asks_nothing_of_any_other_host_even_when_the_outside_network_stalls(
    page: Page, guarded_server: Server
) -> None:
    """Voilà's page links two stylesheets on a CDN. A classroom network that drops outside traffic made
    every learner's page wait for them (a 20 s stall, a 20 s wait). The server's Content-Security-Policy
    keeps the browser from asking: here every outside request stalls for 30 s, and the lesson still
    answers its first click within the usual time, with no request sent beyond the server."""
    outside: list[str] = []

    def stall(route: object) -> None:
        outside.append(route.request.url)  # type: ignore[attr-defined]
        time.sleep(30)
        route.abort()  # type: ignore[attr-defined]

    origin = at(guarded_server, "127.0.0.1", "")
    documents: list[object] = []
    page.on("response", lambda r: documents.append(r) if r.request.resource_type == "document" else None)
    page.route(lambda url: not url.startswith(origin) and not url.startswith(("blob:", "data:")), stall)
    start = time.monotonic()
    open_with_code(page, guarded_server, "lesson=1")
    next_button = page.get_by_role("button", name="Next ▶")
    expect(next_button).to_be_enabled(timeout=FIRST_EXPECT_TIMEOUT_MS)
    next_button.click()
    expect(page.get_by_text("Step 2 of").first).to_be_visible()
    assert time.monotonic() - start < 25, "the page waited for an outside host"
    assert outside == [], f"the page asked other hosts: {outside}"
    lesson = [r for r in documents if r.status == 200]  # type: ignore[attr-defined]
    assert lesson, "the page itself was not seen"
    policy = lesson[-1].headers.get("content-security-policy", "")  # type: ignore[attr-defined]
    assert "default-src 'self'" in policy and "frame-ancestors 'self'" in policy, policy
    page.unroute_all(behavior="ignoreErrors")  # a routed page's unload beacon is not sent
    leave(page, guarded_server)


def test_the_page_s_scripts_and_styles_arrive_compressed_and_whole(page: Page, guarded_server: Server) -> None:
    """Every script and style the page fetches (but the few under 1 KiB) comes gzip-compressed (the browser
    asks for it), and what
    the browser unpacks is byte for byte the file the server holds; in all, the page's static files take
    well under half the bytes they did uncompressed."""
    responses: list[object] = []
    page.on("response", lambda r: responses.append(r))
    open_with_code(page, guarded_server, "lesson=1")
    expect(page.get_by_role("button", name="Next ▶")).to_be_enabled(timeout=FIRST_EXPECT_TIMEOUT_MS)
    static = [
        r
        for r in responses
        if r.request.method == "GET"  # type: ignore[attr-defined]
        and r.status == 200  # type: ignore[attr-defined]
        and re.search(r"/voila/(static|templates|labextensions)/.*\.(js|css)(\?|$)", r.url)  # type: ignore[attr-defined]
    ]
    assert len(static) >= 20, f"only {len(static)} scripts and styles seen"
    sent = unpacked = 0
    plain = []
    for r in static:
        parts = urllib.parse.urlsplit(r.url)  # type: ignore[attr-defined]
        headers, whole = raw_get(guarded_server, "127.0.0.9", parts.path + (f"?{parts.query}" if parts.query else ""))
        assert "content-encoding" not in headers, "a client that does not ask for gzip gets the file as it is"
        assert r.body() == whole, f"{r.url} unpacked differs from the file"  # type: ignore[attr-defined]
        if r.headers.get("content-encoding") != "gzip" and len(whole) >= MIN_SIZE:  # type: ignore[attr-defined]
            plain.append(r.url)  # type: ignore[attr-defined]
        sent += int(r.headers["content-length"])  # type: ignore[attr-defined]
        unpacked += len(whole)
    assert plain == [], f"sent uncompressed: {plain[:5]}"
    assert sent < 0.45 * unpacked, f"{sent} bytes sent for {unpacked} bytes of files"
    leave(page, guarded_server)


def raw_get(server: Server, client: str, path: str) -> tuple[dict[str, str], bytes]:
    """A GET without ``Accept-Encoding``: the headers (lower-case names) and the body's bytes."""
    conn = http.client.HTTPConnection(client, port_of(server), timeout=60, source_address=(client, 0))
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        assert response.status == 200, (path, response.status)
        return {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def test_plotly_s_script_is_fetched_only_by_a_page_that_draws_a_plot(page: Page, guarded_server: Server) -> None:
    """The app's pages leave out JupyterLab's plotly extension (4.7 MiB of script every page loaded); a
    plot loads plotly from the server the first time its page draws one, once, compressed."""
    plotly: list[object] = []
    page.on("response", lambda r: plotly.append(r) if "plotly" in r.url.lower() else None)
    open_with_code(page, guarded_server, "lesson=1")
    expect(page.get_by_role("button", name="Next ▶")).to_be_enabled(timeout=FIRST_EXPECT_TIMEOUT_MS)
    page.wait_for_timeout(1000)
    assert plotly == [], f"a page with no plot fetched {[r.url for r in plotly]}"  # type: ignore[attr-defined]
    leave(page, guarded_server)

    open_with_code(page, guarded_server, "page=lab")
    expect(page.get_by_text("What do the jokers change?")).to_be_visible()
    page.get_by_label("Sample:").select_option(label="2,000 rounds each")
    page.get_by_role("button", name="Run the lab ▶").click()
    expect(page.get_by_text("simulated and measured, and the nils played by the bots")).to_be_visible(
        timeout=FIRST_EXPECT_TIMEOUT_MS
    )
    expect(page.locator(".st-plot .js-plotly-plot .cartesianlayer .trace").first).to_be_attached(
        timeout=FIRST_EXPECT_TIMEOUT_MS
    )
    expect(page.locator(".st-plot .js-plotly-plot")).to_have_count(5)
    assert [urllib.parse.urlsplit(r.url).path for r in plotly] == ["/spades_tutor/static/plotly.min.js"]  # type: ignore[attr-defined]
    assert plotly[0].headers.get("content-encoding") == "gzip"  # type: ignore[attr-defined]
    leave(page, guarded_server)
    # the route serves that one file of plotly's folder, nothing else
    cookie = {"Cookie": class_cookie(guarded_server, "127.0.0.6")}
    for path in ("/spades_tutor/static/widgetbundle.js", "/spades_tutor/static/../__init__.py"):
        status, _, body = request(guarded_server, "127.0.0.6", path, headers=cookie)
        assert status in (302, 404) and "plotly" not in body.lower(), (path, status)
    status, _, body = request(guarded_server, "127.0.0.6", "/spades_tutor/static/plotly.min.js")
    assert status == 200 and "plotly.js" in body[:2000], "the script itself needs no class code, as every static file"
