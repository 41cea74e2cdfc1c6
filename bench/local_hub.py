"""The repository's ``jupyterhub_config.py`` run for real on this machine, for bench/hub.py and tests/browser/test_hub.py.

``start`` runs ``jupyterhub -f jupyterhub_config.py`` in a folder of its own on free ports (hub, proxy API,
public proxy), with the config's local pair from the environment: ``DummyAuthenticator`` (any user name)
and ``SimpleLocalProcessSpawner`` (one server process per learner, as the hub's own user, homes under the
folder). The proxy is the project's ``configurable-http-proxy`` from npm (``npm ci``) and the idle culler
runs as the hub's service. The learners' servers and kernels import this checkout's spades_tutor.

Import it with bench/ on ``sys.path`` (the bench scripts' own folder), as bench/app.py is imported.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
from app import ROOT, free_port

CONFIG = ROOT / "jupyterhub_config.py"
PROXY = ROOT / "node_modules" / ".bin" / "configurable-http-proxy"
#: where a learner lands after logging in: the config's default URL under their server
APP_URL = "/user/{name}/voila/render/notebooks/app.ipynb"
STOP_GRACE_S = 90


def missing() -> list[str]:
    """The pieces of the hub not installed here (``make install-test`` installs them all), each with its install."""
    pieces = [
        f"the Python package {name} (pip install -e '.[hub]')"
        for name in ("jupyterhub", "jupyterhub_idle_culler")
        if importlib.util.find_spec(name) is None
    ]
    if not os.access(PROXY, os.X_OK):
        pieces.append(f"{PROXY.relative_to(ROOT)} (npm ci)")
    return pieces


@dataclass
class Hub:
    """The hub process (in a session of its own), its public URL, and every process seen under it."""

    base_url: str
    proc: subprocess.Popen[bytes]
    log_path: Path
    _log_file: Any = field(repr=False)
    seen: dict[int, psutil.Process] = field(default_factory=dict)
    #: the hub's own folder (SPADES_HUB_DATA): its database, cookie secret and pid files
    state: Path = Path()

    def url(self, path: str) -> str:
        return self.base_url + path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def processes(self) -> list[psutil.Process]:
        """The hub and its descendants now (proxy, culler, learners' servers, their kernels); remembered for teardown."""
        try:
            me = psutil.Process(self.proc.pid)
            found = [me, *me.children(recursive=True)]
        except psutil.NoSuchProcess:
            found = []
        self.seen.update((p.pid, p) for p in found)
        return found

    def learner_servers(self) -> dict[str, psutil.Process]:
        """The learners' single-user servers now running, by the user each serves (``JUPYTERHUB_USER``)."""
        servers = {}
        for p in self.processes():
            with contextlib.suppress(psutil.Error):
                if "jupyterhub.singleuser" in p.cmdline():
                    servers[p.environ()["JUPYTERHUB_USER"]] = p
        return servers

    def stop(self) -> None:
        """SIGTERM the hub, as an operator stops it: it stops the learners' servers and its proxy itself."""
        self.processes()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=STOP_GRACE_S)

    def kill_everything(self) -> None:
        """Teardown: whatever is still alive of all that ran under the hub is killed."""
        self.stop()
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        alive = [p for p in self.seen.values() if p.is_running()]
        for p in alive:
            with contextlib.suppress(psutil.Error):
                p.kill()
        psutil.wait_procs(alive, timeout=10)
        self._log_file.close()


def start(folder: Path, log_path: Path, timeout: float, env: dict[str, str] | None = None) -> Hub:
    """Start the hub in ``folder``, its output to ``log_path``, and wait until its API answers.

    ``env`` changes the config's settings (``SPADES_HUB_...``) from the local pair's. If the hub exits or
    does not answer in ``timeout`` seconds, everything it started is killed and a RuntimeError says so,
    with the end of its log."""
    port = free_port()
    state = folder / "hub-state"
    env = {
        **os.environ,
        "PYTHONUNBUFFERED": "1",
        # the learners' servers and kernels import this checkout's spades_tutor
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p),
        "SPADES_HUB_AUTHENTICATOR": "dummy",
        "SPADES_HUB_SPAWNER": "simple",
        "SPADES_HUB_URL": f"http://127.0.0.1:{port}",
        "SPADES_HUB_PORT_HUB": str(free_port()),
        "SPADES_HUB_PORT_PROXY_API": str(free_port()),
        "SPADES_HUB_PORT_TEACHER": str(free_port()),  # the teacher view's, when SPADES_HUB_TEACHERS turns it on
        "SPADES_HUB_DATA": str(state),
        "SPADES_HUB_HOMES": str(folder / "homes"),
        **(env or {}),
    }
    state.mkdir(exist_ok=True)  # as an operator would make it, with the umask's mode: the config closes it up
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log_file = log_path.open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyterhub", "-f", str(CONFIG)],
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=log_file,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    hub = Hub(f"http://127.0.0.1:{port}", proc, log_path, log_file, state=state)
    deadline = time.monotonic() + timeout
    while True:
        hub.processes()
        if proc.poll() is not None:
            problem = f"the hub exited with {proc.returncode}"
            break
        with (
            contextlib.suppress(urllib.error.URLError, ConnectionError, TimeoutError, ValueError),
            urllib.request.urlopen(hub.url("/hub/api/"), timeout=5) as response,
        ):
            if response.status == 200 and "version" in json.loads(response.read()):
                return hub
        if time.monotonic() > deadline:
            problem = f"the hub did not answer in {timeout} s"
            break
        time.sleep(0.5)
    hub.kill_everything()
    raise RuntimeError(f"{problem}; its log, {log_path}, ends:\n{hub.log()[-3000:]}")
