"""Errors in a served kernel: the page gets the friendly message, the server's log the traceback.

The kernel test starts a real IPython kernel as Voilà does (with Voilà's environment variables),
builds the app in it, and then talks to it as a browser does: comm messages on the shell
channel, everything the kernel publishes read from iopub — which is what the page (and anyone
holding its websocket) receives.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spades_tutor.ui import errors

ROOT = Path(__file__).resolve().parents[1]
FRIENDLY = errors.friendly(RuntimeError("x"))


def test_report_logs_the_traceback_to_the_servers_log_not_to_the_root_logger() -> None:
    """In a kernel, the root logger's last resort is ``sys.stderr``, which iopub carries to the page."""
    seen: list[str] = []
    sink = lambda message, _exc: seen.append(message)  # noqa: E731
    at_root: list[logging.LogRecord] = []
    root_handler = logging.Handler()
    root_handler.emit = at_root.append  # type: ignore[method-assign]
    logging.getLogger().addHandler(root_handler)
    errors.add_sink(sink)
    try:
        errors.guarded(lambda: 1 / 0)()
    finally:
        errors.remove_sink(sink)
        logging.getLogger().removeHandler(root_handler)
    assert seen == [FRIENDLY]
    assert errors.server_handler() in errors.log.handlers
    assert [r for r in at_root if r.name.startswith("spades_tutor")] == []


class Kernel:
    """A kernel driven like a Voilà page drives it: comm messages in, iopub messages out."""

    def __init__(self, stderr_path: Path, env: dict[str, str]) -> None:
        from jupyter_client.manager import start_new_kernel

        self._stderr = stderr_path.open("w")
        base = {k: v for k, v in os.environ.items() if not k.startswith("VOILA_")}
        self.km, self.kc = start_new_kernel(
            kernel_name="python3", env={**base, "PYTHONPATH": str(ROOT), **env}, stderr=self._stderr, cwd=ROOT
        )

    def _until_idle(self, msg_id: str, timeout: float = 60) -> list[dict[str, Any]]:
        """Every iopub message up to the kernel going idle after request ``msg_id``."""
        out: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                msg = self.kc.get_iopub_msg(timeout=1)
            except queue.Empty:
                continue
            out.append(msg)
            if (
                msg["msg_type"] == "status"
                and msg["parent_header"].get("msg_id") == msg_id
                and msg["content"]["execution_state"] == "idle"
            ):
                return out
        raise AssertionError(f"the kernel did not answer {msg_id} in {timeout} s")

    def run(self, code: str) -> str:
        """Run set-up code (the page never can: Voilà refuses execute requests); its stdout."""
        msg_id = self.kc.execute(code)
        msgs = self._until_idle(msg_id)
        failed = [m for m in msgs if m["msg_type"] == "error"]
        assert not failed, failed[0]["content"]["evalue"]
        return "".join(m["content"]["text"] for m in msgs if m["msg_type"] == "stream")

    def send(self, msg_type: str, content: dict[str, Any]) -> list[dict[str, Any]]:
        """Send a message as the page would; what the kernel published in answer."""
        msg = self.kc.session.msg(msg_type, content)
        self.kc.shell_channel.send(msg)
        return self._until_idle(msg["header"]["msg_id"])

    def comm(self, comm_id: str, data: Any) -> list[dict[str, Any]]:
        return self.send("comm_msg", {"comm_id": comm_id, "data": data})

    def stop(self) -> None:
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)
        self._stderr.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Kernel, dict[str, str], Path]]:
    """A kernel as Voilà starts one, running the app; the comm ids the tests talk to; its stderr."""
    log = tmp_path_factory.mktemp("kernel") / "stderr.log"
    kernel = Kernel(log, {"VOILA_KERNEL_ID": "test-kernel", "VOILA_PREHEAT": "False"})
    try:
        ids = kernel.run(
            "from spades_tutor.ui.app import App\n"
            "import json\n"
            "app = App()\n"
            "app.widget\n"
            "print(json.dumps({'nav': app.nav.model_id, 'store': app.store.model_id, 'error': app.error.model_id}))\n"
        )
        yield kernel, json.loads(ids), log
    finally:
        kernel.stop()


def leaks(msgs: list[dict[str, Any]]) -> list[str]:
    """Published messages that carry a traceback or a path of this machine."""
    bad = []
    for m in msgs:
        text = json.dumps(m["content"])
        if (
            m["msg_type"] == "error"
            or any(s in text for s in ("Traceback", "site-packages", str(ROOT), sys.prefix))
            or re.search(r'File \\?"|\.py\\?", line', text)
        ):
            bad.append(f"{m['msg_type']}: {text[:300]}")
    return bad


def shows_friendly_message(msgs: list[dict[str, Any]]) -> bool:
    return any(
        m["msg_type"] in ("comm_open", "comm_msg") and FRIENDLY.replace("'", "&#x27;") in json.dumps(m["content"])
        for m in msgs
    )


def test_a_failing_page_callback_shows_the_friendly_message_and_logs_the_traceback_on_the_server(
    served: tuple[Kernel, dict[str, str], Path],
) -> None:
    kernel, ids, log = served
    # a fault in the Learn page: opening it (a click on the Learn tab) fails
    kernel.run(
        "def broken_lesson_list():\n"
        "    raise RuntimeError('the lesson list broke in ' + __import__('spades_tutor').__file__)\n"
        "app.learn.show_list = broken_lesson_list\n"
    )
    published = kernel.comm(ids["nav"], {"method": "update", "state": {"index": 1}, "buffer_paths": []})
    assert shows_friendly_message(published)
    assert leaks(published) == []
    server_log = log.read_text()
    assert "RuntimeError: the lesson list broke in" in server_log and "Traceback" in server_log


@pytest.mark.parametrize(
    "data",
    [
        {"method": "update", "state": {"value": 12}, "buffer_paths": []},  # a value of the wrong type
        {"state": {}},  # no method
        None,  # no data at all
    ],
    ids=["wrong-type", "no-method", "no-data"],
)
def test_a_hostile_widget_message_publishes_no_traceback(
    served: tuple[Kernel, dict[str, str], Path], data: Any
) -> None:
    kernel, ids, log = served
    published = kernel.comm(ids["store"], data)
    assert leaks(published) == []
    assert shows_friendly_message(published)
    assert "Traceback" in log.read_text()


def test_the_served_page_has_its_heartbeat(served: tuple[Kernel, dict[str, str], Path]) -> None:
    kernel, _ids, _log = served
    assert kernel.run("print(app.heartbeat in app.widget.children)").strip() == "True"


def test_a_hostile_comm_open_publishes_no_traceback(served: tuple[Kernel, dict[str, str], Path]) -> None:
    kernel, _ids, log = served
    published = kernel.send(
        "comm_open", {"comm_id": "hostile", "target_name": "jupyter.widget", "data": {"state": {"_model_name": "x"}}}
    )
    assert leaks(published) == []
    assert "Exception opening comm with target" in log.read_text()


def test_a_kernel_outside_voila_keeps_its_tracebacks(tmp_path: Path) -> None:
    """In JupyterLab the notebook's author still sees the traceback of a failing widget callback."""
    kernel = Kernel(tmp_path / "stderr.log", {})
    try:
        ids = kernel.run("from spades_tutor.ui.app import App\napp = App()\nprint(app.store.model_id)")
        published = kernel.comm(ids.strip(), None)
        assert [m for m in published if m["msg_type"] == "error"]
        # and no connection banner over the whole lab: the notebook shows its kernel's state itself
        assert kernel.run("print(app.heartbeat is None)").strip() == "True"
    finally:
        kernel.stop()
