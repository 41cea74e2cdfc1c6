"""The preheated kernel's wait for its learner's request (spades_tutor.ui.serving), without the Jupyter server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from spades_tutor.ui import serving

ROOT = Path(__file__).resolve().parents[1]
KERNEL_ID = "0b7c6f2e-1d5a-4a8e-9f7b-3c2d1e0f9a8b"


@pytest.fixture
def voila_query_server() -> Iterator[tuple[int, list[str], dict[str, str]]]:
    """A websocket server shaped like Voilà's RequestInfoSocketHandler: sends the request info on connect."""
    from websockets.sync.server import serve

    paths: list[str] = []
    payload = {"QUERY_STRING": "lesson=3&step=2&preset=deuces-high", "SCRIPT_NAME": "/", "PATH_INFO": ""}

    def handler(ws: object) -> None:
        paths.append(ws.request.path)  # type: ignore[attr-defined]
        ws.send(json.dumps(payload))  # type: ignore[attr-defined]

    with serve(handler, "127.0.0.1", 0) as server:
        port = server.socket.getsockname()[1]
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        yield port, paths, payload
        server.shutdown()
    thread.join(timeout=5)


def test_request_info_url_is_built_as_voila_builds_it() -> None:
    env = {"VOILA_APP_PORT": "9001", "VOILA_KERNEL_ID": KERNEL_ID, "VOILA_SERVER_URL": "/user/ann/"}
    assert serving.request_info_url(env) == f"ws://127.0.0.1:9001/user/ann/voila/query/{KERNEL_ID}"
    env |= {"VOILA_WS_BASE_URL": "/proxy/", "VOILA_WS_PROTOCOL": "wss", "VOILA_APP_IP": "10.0.0.2"}
    assert serving.request_info_url(env) == f"wss://10.0.0.2:9001/proxy/voila/query/{KERNEL_ID}"


def test_outside_a_preheated_kernel_it_returns_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    monkeypatch.delenv("QUERY_STRING", raising=False)
    # an address nobody listens on: were it contacted, the call would warn
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        serving.wait_for_request("ws://127.0.0.1:9/never")
    assert "QUERY_STRING" not in os.environ


def test_preheated_kernel_gets_the_learners_query_from_the_server(
    monkeypatch: pytest.MonkeyPatch, voila_query_server: tuple[int, list[str], dict[str, str]]
) -> None:
    port, paths, payload = voila_query_server
    for key in payload:
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setenv("VOILA_APP_PORT", str(port))
    monkeypatch.setenv("VOILA_KERNEL_ID", KERNEL_ID)
    monkeypatch.setenv("VOILA_SERVER_URL", "/")
    monkeypatch.delenv("VOILA_WS_BASE_URL", raising=False)
    monkeypatch.delenv("VOILA_APP_IP", raising=False)
    monkeypatch.delenv("VOILA_WS_PROTOCOL", raising=False)
    serving.wait_for_request()
    assert paths == [f"/voila/query/{KERNEL_ID}"]
    for key, value in payload.items():
        assert os.environ[key] == value
    from spades_tutor.ui.app import App

    link = App.from_environment().link
    assert (link["page"], link["lesson"], link["preset"]) == ("Learn", 3, "deuces-high")


def test_an_unreachable_server_warns_and_the_app_opens_without_a_query(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    with socket.socket() as s:  # a port that was free a moment ago: connection refused
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.delenv("QUERY_STRING", raising=False)
    with pytest.warns(UserWarning, match="could not get the page request"):
        serving.wait_for_request(f"ws://127.0.0.1:{port}/voila/query/{KERNEL_ID}", open_timeout=2)
    assert "QUERY_STRING" not in os.environ


def app_notebook_code() -> list[str]:
    cells = json.loads((ROOT / "notebooks" / "app.ipynb").read_text())["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def test_the_app_kernel_stays_light_it_never_imports_the_jupyter_server() -> None:
    """The app notebook's own cells, as a kernel runs them for a link to a lesson: the app built and
    warmed up, the wait, the link opened."""
    code = (
        "import sys\n" + "\n".join(app_notebook_code()) + "\nassert app.learn.player.lesson.number == 1\n"
        "heavy = sorted(m for m in ('voila', 'jupyter_server', 'nbconvert', 'jupyterlab_server', 'pandas',"
        " 'plotly', 'numpy') if m in sys.modules)\n"
        "print(','.join(heavy))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("VOILA_")} | {"QUERY_STRING": "lesson=1"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    assert out.stdout.strip() == ""


def test_the_app_notebook_waits_with_the_light_waiter() -> None:
    source = "\n".join(app_notebook_code())
    assert "from spades_tutor.ui.serving import wait_for_request" in source
    assert "voila" not in source.replace("Voilà", "").lower()


def test_the_app_notebook_builds_the_app_before_the_wait_and_opens_the_link_after_it() -> None:
    cells = app_notebook_code()
    waits = next(i for i, code in enumerate(cells) if "wait_for_request()" in code)
    before, after = "\n".join(cells[:waits]), "\n".join(cells[waits + 1 :])
    assert "App()" in before and "warm_up()" in before
    assert "open_link(" in after and "App(" not in after and "QUERY_STRING" in after
