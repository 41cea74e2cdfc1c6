"""How the app is served: the rendered page, the Binder path, the repository's config, what is refused.

The page is ``conftest.page_under_test()`` (the engine tour stands in for notebooks/app.ipynb until it exists).
"""

from __future__ import annotations

import datetime
import http.client
import json
import time
import urllib.parse
import uuid
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from websockets.sync.client import connect

from .conftest import (
    FIRST_EXPECT_TIMEOUT_MS,
    PORT_TAKEN,
    READY_PATH,
    PageUnderTest,
    Server,
    http_get,
    kernel_id_from_html,
    start_server,
)

pytestmark = pytest.mark.browser


def render_path(page_nb: PageUnderTest, server: Server) -> str:
    """Where a server shows the page: standalone Voilà serves its one notebook at /."""
    return "/" if server.name == "voila-standalone" else f"/voila/render/{page_nb.notebook}"


def expect_rendered_without_source(page: Page, page_nb: PageUnderTest) -> None:
    expect(page.get_by_text(page_nb.known_text).first).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    expect(page.locator(".jp-CodeCell .jp-InputArea")).to_have_count(0)
    expect(page.get_by_text(page_nb.source_snippet)).to_have_count(0)


def test_standalone_voila_renders_the_page_without_its_code(
    page: Page, voila_server: Server, page_nb: PageUnderTest
) -> None:
    page.goto(voila_server.url(render_path(page_nb, voila_server)))
    expect_rendered_without_source(page, page_nb)


def test_binder_path_renders_the_same_notebook(page: Page, binder_server: Server, page_nb: PageUnderTest) -> None:
    page.goto(binder_server.url(render_path(page_nb, binder_server)))
    expect_rendered_without_source(page, page_nb)


def test_standalone_voila_runs_on_the_repositorys_voila_json(voila_server: Server, page_nb: PageUnderTest) -> None:
    """Started with no option but the port, Voilà listens on loopback, preheats a kernel and culls idle ones."""
    log = voila_server.log()
    assert f"Voilà is running at:\n{voila_server.base_url}/" in log
    assert "Culling kernels with idle durations > 120 seconds at 30 second intervals" in log
    assert "Culling kernels even with connected clients" not in log
    voila_server.wait_for_log(rf"Kernel pool of {page_nb.name} is filled with 1 kernel")
    status, html = http_get(voila_server.url(render_path(page_nb, voila_server)), timeout=120)
    assert status == 200
    kernel_id = kernel_id_from_html(html)
    voila_server.wait_for_log(rf"Using pre-heated kernel: {kernel_id} for {page_nb.name}", timeout=10)
    # kernels talk to the server over Unix sockets: no TCP port to collide when a class starts 30 at once
    kernel = voila_server.kernels().get(kernel_id)
    assert kernel, "the page's kernel process was not found under the server"
    connection_file = next(a for a in kernel.cmdline() if a.endswith(f"kernel-{kernel_id}.json"))
    connection = json.loads(Path(connection_file).read_text())
    assert connection["transport"] == "ipc" and connection["shell_port"] > 0


def test_the_kernels_under_a_server_leave_out_one_that_has_exited(tmp_path: Path) -> None:
    """A kernel that has exited but is not reaped yet is a zombie whose command line cannot be read.

    The pool's kernels come and go under a running server, so ``Server.kernels()`` must skip it
    rather than fail the test that asked (it once failed CI that way)."""
    import subprocess
    import sys

    import psutil

    script = (
        "import subprocess, sys, time\n"
        "gone = subprocess.Popen([sys.executable, '-c', 'pass', 'kernel-0a.json'])\n"  # never waited for
        "live = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)', 'kernel-1b.json'])\n"
        "time.sleep(60)\n"
    )
    log = tmp_path / "parent.log"
    with log.open("wb") as log_file:
        proc = subprocess.Popen(
            [sys.executable, "-c", script], stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True
        )
        server = Server("zombie-parent", "http://127.0.0.1:1", log, proc, log_file)
        try:
            deadline = time.monotonic() + 30
            while True:
                children = psutil.Process(proc.pid).children()
                statuses = sorted(c.status() for c in children)
                if len(children) == 2 and psutil.STATUS_ZOMBIE in statuses:
                    break
                assert time.monotonic() < deadline, f"no zombie child yet: {statuses}"
                time.sleep(0.1)
            kernels = server.kernels()
            assert list(kernels) == ["1b"]
            assert kernels["1b"].status() != psutil.STATUS_ZOMBIE
        finally:
            server.stop()


def test_a_server_whose_port_is_taken_is_started_again_on_a_free_one(page_nb: PageUnderTest) -> None:
    """``free_port()`` can name a port another connection takes before the server binds it; Voilà then
    serves on the next port while its URL names the taken one (a CI run waited 90 s on it and failed)."""
    import socket
    import sys

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()  # holds the port and answers nothing, like a port another process has
        port = taken.getsockname()[1]
        cmd = [sys.executable, "-m", "voila", page_nb.notebook, f"--port={port}", "--no-browser"]
        server = start_server("voila-port-taken", cmd)
        try:
            assert server.base_url != f"http://127.0.0.1:{port}"
            assert PORT_TAKEN not in server.log()  # the server that answers is one that got its port
            assert http_get(server.url(READY_PATH))[0] == 200
        finally:
            server.stop()


def test_binder_mode_reads_jupyter_config_json_via_post_build(binder_server: Server, page_nb: PageUnderTest) -> None:
    """jupyter_core no longer reads ./jupyter_config.json; binder/postBuild links it where Jupyter looks."""
    # the kernel manager logs its culling settings when the first kernel starts
    status, _ = http_get(binder_server.url(render_path(page_nb, binder_server)), timeout=120)
    assert status == 200
    binder_server.wait_for_log(r"Culling kernels with idle durations > 120 seconds at 30 second intervals")


# --- security ------------------------------------------------------------------------------------


def _message(msg_type: str, content: dict[str, Any]) -> dict[str, Any]:
    """A Jupyter-protocol message for the kernel websocket's JSON (non-subprotocol) framing."""
    return {
        "header": {
            "msg_id": uuid.uuid4().hex,
            "msg_type": msg_type,
            "username": "attacker",
            "session": uuid.uuid4().hex,
            "date": datetime.datetime.now(datetime.UTC).isoformat(),
            "version": "5.3",
        },
        "parent_header": {},
        "metadata": {},
        "content": content,
        "channel": "shell",
        "buffers": [],
    }


def send_code_over_kernel_websocket(server: Server, kernel_id: str, code: str) -> None:
    """Send ``execute_request`` for ``code``, then a ``kernel_info_request`` and wait for its reply.

    The reply proves the socket reached the kernel; shell requests are handled in order, so an
    execute_request that got through has run (or is running) by then.
    """
    ws_url = server.base_url.replace("http://", "ws://") + f"/api/kernels/{kernel_id}/channels"
    execute = _message(
        "execute_request",
        {
            "code": code,
            "silent": False,
            "store_history": False,
            "user_expressions": {},
            "allow_stdin": False,
            "stop_on_error": True,
        },
    )
    info = _message("kernel_info_request", {})
    with connect(ws_url, open_timeout=30) as ws:
        ws.send(json.dumps(execute))
        ws.send(json.dumps(info))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            raw = ws.recv(timeout=deadline - time.monotonic())
            if isinstance(raw, bytes):
                continue
            msg = json.loads(raw)
            if msg["parent_header"].get("msg_id") == info["header"]["msg_id"] and msg["header"]["msg_type"] == (
                "kernel_info_reply"
            ):
                return
        raise AssertionError("no kernel_info_reply over the kernel websocket")


def marker_code(marker: Path) -> str:
    return f"open({str(marker)!r}, 'w').write('executed')"


def test_standalone_voila_does_not_execute_code_sent_over_the_pages_kernel_websocket(
    page: Page, voila_server: Server, page_nb: PageUnderTest, tmp_path: Path
) -> None:
    page.goto(voila_server.url(render_path(page_nb, voila_server)))
    expect(page.get_by_text(page_nb.known_text).first).to_be_visible(timeout=FIRST_EXPECT_TIMEOUT_MS)
    kernel_id = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
    marker = tmp_path / "executed.txt"

    send_code_over_kernel_websocket(voila_server, kernel_id, marker_code(marker))

    time.sleep(2)
    assert not marker.exists(), "standalone Voilà executed code sent by a client"
    voila_server.wait_for_log(r'Received message of type "execute_request", which is not allowed', timeout=10)


def test_binder_mode_does_execute_code_sent_over_the_kernel_websocket(
    binder_server: Server, page_nb: PageUnderTest, tmp_path: Path
) -> None:
    """The control for the test above (its message is valid); also pins why Binder mode is for Binder only: it runs any code."""
    status, html = http_get(binder_server.url(render_path(page_nb, binder_server)), timeout=120)
    assert status == 200
    marker = tmp_path / "executed.txt"

    send_code_over_kernel_websocket(binder_server, kernel_id_from_html(html), marker_code(marker))

    deadline = time.monotonic() + 10
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert marker.read_text() == "executed"


def raw_get(server: Server, path: str) -> tuple[int, str]:
    """GET a path exactly as written (no client-side normalisation of ``..`` or escapes)."""
    host = urllib.parse.urlsplit(server.base_url)
    conn = http.client.HTTPConnection(host.hostname or "127.0.0.1", host.port, timeout=30)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    finally:
        conn.close()


@pytest.mark.parametrize(
    "path",
    [
        "/voila/files/notebooks/app.ipynb",
        "/voila/files/notebooks/00-engine-tour.ipynb",
        "/voila/files/app.ipynb",
        "/voila/files/00-engine-tour.ipynb",
        "/voila/files/spades_tutor/cli.py",
        "/voila/files/../spades_tutor/cli.py",
        "/voila/files/%2e%2e/spades_tutor/cli.py",
        "/voila/files/..%2fspades_tutor%2fcli.py",
        "/voila/files/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/voila/files/../../../../etc/passwd",
    ],
)
def test_standalone_voila_does_not_serve_notebooks_sources_or_paths_outside_its_root(
    voila_server: Server, path: str
) -> None:
    status, body = raw_get(voila_server, path)
    assert status in (403, 404), f"{path} answered {status}"
    for leak in ('"cells"', "def main(", "root:x:0:0"):
        assert leak not in body, f"{path} leaked file contents"


def test_binder_mode_serves_the_app_compressed_kept_to_itself_and_without_the_plotly_extension(
    binder_server: Server,
) -> None:
    """jupyter_config.json enables spades_tutor.server_extension, as the app's own server does for a
    class: what the server sends is gzip-compressed, the page's policy keeps it from asking any other
    host, and plotly's script is served where the app's plots fetch it, so Voilà leaves JupyterLab's
    plotly extension (4.7 MiB) out of every page."""
    import gzip
    import importlib.util
    import re
    import urllib.request

    def get(path: str) -> tuple[Any, bytes]:
        request = urllib.request.Request(binder_server.url(path), headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.headers, response.read()

    headers, body = get("/voila/render/notebooks/app.ipynb")
    assert headers["Content-Encoding"] == "gzip"
    html = gzip.decompress(body).decode("utf-8")
    policy = headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'self'" in policy, policy
    config = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', html, re.S)
    assert config, "no jupyter-config-data in the page"
    extensions = [e["name"] for e in json.loads(config.group(1))["federated_extensions"]]
    assert "@jupyter-widgets/jupyterlab-manager" in extensions and "jupyterlab-plotly" not in extensions

    headers, body = get("/voila/static/voila.js")
    assert headers["Content-Encoding"] == "gzip" and len(gzip.decompress(body)) > len(body)

    spec = importlib.util.find_spec("plotly")
    assert spec is not None and spec.submodule_search_locations
    script = Path(spec.submodule_search_locations[0], "package_data", "plotly.min.js").read_bytes()
    headers, body = get("/spades_tutor/static/plotly.min.js?v=1")
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == script
    assert len(body) < 0.4 * len(script)
    for path in ("/spades_tutor/static/plotly.js", "/spades_tutor/static/../__init__.py"):
        status, _ = http_get(binder_server.url(path))
        assert status == 404, (path, status)
