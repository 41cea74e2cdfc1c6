"""Benchmark: N learners logging in and opening the app through JupyterHub, against one learner alone on ``make app``.

What it does, in one run on this machine:

1. One learner alone on ``make app``: the app's server started by the command ``spades-tutor app`` runs
   (``spades_tutor.cli.voila_command``: Voilà with ``voila.json``'s pool of one preheated app kernel), and a
   Chromium page opens ``/?lesson=1``, ``--singles`` times one after the other (median reported). Time to
   interactive (TTI) = from ``page.goto`` until "Next ▶" is visible and enabled, clicked, and "Step 2 of"
   (written by the kernel) is visible, as bench/app.py and bench/classroom.py measure the app. Memory: the
   PSS of the whole server tree (server, the learner's kernel and the pool's spare) while the page is open.
2. The hub, started by bench/local_hub.py: ``jupyterhub -f jupyterhub_config.py`` in a temp folder on free
   ports, with the config's local pair from the environment (``DummyAuthenticator``,
   ``SimpleLocalProcessSpawner``: a server process per learner on this machine), its npm proxy and its idle
   culler. ``--learners`` (10) learners arrive at the same moment, each in a Chromium context of their own:
   the hub's login page, a user name, Sign in, then the hub's spawn page starts their server and sends them on
   to ``/user/<name>/voila/render/notebooks/app.ipynb?lesson=1`` (the login's ``next``); TTI = from opening
   the login page until "Step 2 of" is visible after the click, so it includes logging in and starting the
   learner's server, which ``make app`` never does. "Landed" = until the app's URL is reached. Bytes: what
   the app's page took over the network once interactive, the page and everything it fetched as sent
   (Chromium's ``transferSize``: compressed where the server compressed it), here and alone on ``make app``.
3. Memory once everyone is interactive and the machine has gone quiet: per learner, the PSS of their
   single-user server and its kernel (psutil, as bench/classroom.py reads it: ``classroom.memory``), and
   once, the hub's own processes (hub, proxy, culler). PSS counts each shared page once.

It prints the hub's figures against the one learner alone (a ratio) and exits 0: it is not a test.

Run it from the project root, after ``make install-test`` (jupyterhub, its idle culler, ``npm ci``)::

    .venv/bin/python bench/hub.py                  # 10 learners
    .venv/bin/python bench/hub.py --learners 2 --singles 1

Logs: ``test-artifacts/bench-hub.log`` (the hub and the learners' servers), ``test-artifacts/bench-hub-app.log``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import statistics
import sys
import tempfile
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import local_hub
from app import (
    APP_NOTEBOOK,
    APP_PATH,
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    MIB,
    ROOT,
    Server,
    free_port,
    launch,
    wait_quiet,
    wait_ready,
)
from classroom import HARMLESS_PAGE_ERRORS, interactive, memory, pct
from local_hub import APP_URL, Hub

from spades_tutor.cli import voila_command


@dataclass
class Learner:
    name: str
    landed_s: float = float("nan")
    tti_s: float = float("nan")
    mib: float = float("nan")  # what the app's page took over the network (transferSize), once interactive
    error: str = ""


@dataclass
class LearnerServer:
    """A learner's single-user server under the hub, shaped as ``classroom.memory`` reads a server."""

    user: str
    proc: psutil.Process

    def processes(self) -> list[psutil.Process]:
        try:
            return [self.proc, *self.proc.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []


def start_make_app() -> Server:
    """The app's server as ``make app`` starts it (``spades-tutor app``), on a free port, no browser."""
    port = free_port()
    command = voila_command(ROOT / APP_NOTEBOOK, port, open_browser=False)
    return launch("make-app", APP_NOTEBOOK, port, command, ARTIFACTS / "bench-hub-app.log")


# what a page has downloaded: the document and every resource, as sent (compressed where it was)
TRANSFERRED_JS = """() => [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")]
  .reduce((sum, e) => sum + (e.transferSize || 0), 0)"""


async def transferred_mib(page: Any) -> float:
    return float(await page.evaluate(TRANSFERRED_JS)) / MIB


async def one_alone(browser: Any, server: Server, timeout_s: float) -> tuple[float, float]:
    context = await browser.new_context(viewport={"width": 1280, "height": 1400})
    try:
        page = await context.new_page()
        page.set_default_timeout(timeout_s * 1000)
        start = time.perf_counter()
        await page.goto(server.url + APP_PATH.lstrip("/"), wait_until="commit")
        tti = await interactive(page, start)
        return tti, await transferred_mib(page)
    finally:
        await context.close()


async def hub_learner(
    browser: Any, hub: Hub, learner: Learner, timeout_s: float, release: asyncio.Event, arrived: list[Learner]
) -> None:
    context = await browser.new_context(viewport={"width": 1280, "height": 1400})
    errors: list[str] = []
    try:
        page = await context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.set_default_timeout(timeout_s * 1000)
        app = APP_URL.format(name=learner.name) + APP_PATH.lstrip("/")
        start = time.perf_counter()
        try:
            # after the login, the hub's spawn page starts the learner's server and then sends them on to the app
            then = "/hub/spawn?next=" + urllib.parse.quote(app, safe="")
            await page.goto(f"{hub.base_url}/hub/login?next={urllib.parse.quote(then, safe='')}", wait_until="commit")
            await page.get_by_label("Username").fill(learner.name)
            await page.get_by_label("Password").fill("any")
            await page.get_by_role("button", name="Sign in").click()
            landing = re.compile("^" + re.escape(hub.base_url + APP_URL.format(name=learner.name)))
            await page.wait_for_url(landing, wait_until="commit")
            learner.landed_s = time.perf_counter() - start
            learner.tti_s = await interactive(page, start)
            learner.mib = await transferred_mib(page)
        except Exception as e:
            learner.error = f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"
            with contextlib.suppress(Exception):
                await page.screenshot(path=str(ARTIFACTS / f"bench-hub-error-{learner.name}.png"))
        bad = [e for e in errors if not any(h in e for h in HARMLESS_PAGE_ERRORS)]
        if bad and not learner.error:
            learner.error = f"page error: {bad[0][:160]}"
        arrived.append(learner)
        await release.wait()  # the page stays open (its kernel connected) until memory has been read
    finally:
        await context.close()


def pss_mib(servers: list[Any]) -> list[float]:
    return [memory(s)["total_pss"] / MIB for s in servers]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--learners", type=int, default=10, help="learners arriving through the hub at once")
    parser.add_argument("--singles", type=int, default=2, help="one-learner runs on make app (median)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds a learner may take")
    args = parser.parse_args(argv)
    missing = local_hub.missing()
    if missing:
        print(f"bench/hub.py: needs {', '.join(missing)}: make install-test")
        return 1

    from playwright.async_api import async_playwright

    async def run() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            # 1. one learner alone on make app
            server = start_make_app()
            try:
                wait_ready(server, 120)
                wait_quiet([server], 60)
                alone = []
                for _ in range(args.singles):
                    alone.append(await one_alone(browser, server, args.timeout))
                    wait_quiet([server], 60)
                # memory with one learner's page open, as in the class
                context = await browser.new_context()
                page = await context.new_page()
                page.set_default_timeout(args.timeout * 1000)
                await interactive_page(page, server)
                wait_quiet([server], 60)
                out["alone_pss"] = memory(server)["total_pss"] / MIB
                await context.close()
            finally:
                server.stop()
            out["alone"] = alone
            # 2. the hub, N learners at once
            with tempfile.TemporaryDirectory(prefix="bench-hub-") as folder:
                hub = local_hub.start(Path(folder), ARTIFACTS / "bench-hub.log", 180)
                try:
                    learners = [Learner(f"learner{i:02d}") for i in range(args.learners)]
                    release = asyncio.Event()
                    arrived: list[Learner] = []
                    started = time.perf_counter()
                    tasks = [
                        asyncio.create_task(hub_learner(browser, hub, learner, args.timeout, release, arrived))
                        for learner in learners
                    ]
                    while len(arrived) < len(learners) and not all(t.done() for t in tasks):
                        await asyncio.sleep(0.5)
                    out["class_s"] = time.perf_counter() - started
                    servers = [LearnerServer(user, p) for user, p in hub.learner_servers().items()]
                    wait_quiet(servers, 120, threshold=10.0 + 2 * len(servers))
                    out["learner_pss"] = pss_mib(servers)
                    out["servers"] = len(servers)
                    learner_pids = {p.pid for s in servers for p in s.processes()}
                    out["hub_pss"] = sum(_pss(p) for p in hub.processes() if p.pid not in learner_pids) / MIB
                    release.set()
                    await asyncio.gather(*tasks, return_exceptions=True)
                    out["learners"] = learners
                finally:
                    hub.kill_everything()
            await browser.close()
        return out

    async def interactive_page(page: Any, server: Server) -> None:
        start = time.perf_counter()
        await page.goto(server.url + APP_PATH.lstrip("/"), wait_until="commit")
        await interactive(page, start)

    out = asyncio.run(run())
    learners: list[Learner] = out["learners"]
    ok = [x for x in learners if not x.error]
    tti = [x.tti_s for x in ok]
    landed = [x.landed_s for x in ok]
    alone = statistics.median(t for t, _ in out["alone"])
    alone_mib = statistics.median(m for _, m in out["alone"])
    per_learner = statistics.median(out["learner_pss"]) if out["learner_pss"] else float("nan")
    print(
        f"bench/hub.py: {len(learners)} learners arriving at once through JupyterHub (jupyterhub_config.py,"
        f" DummyAuthenticator + SimpleLocalProcessSpawner, this machine), against one learner alone on make app"
    )
    print(f"{'':44}{'alone (make app)':>18}{'hub':>12}{'ratio':>9}")
    for label, value in (("time to interactive p50", pct(tti, 50)), ("time to interactive p95", pct(tti, 95))):
        print(f"{label:44}{alone:>16.2f} s{value:>10.2f} s{value / alone:>8.2f}×")
    print(f"{'  of which logged in, server started (p50)':44}{'-':>18}{pct(landed, 50):>10.2f} s")
    hub_mib = statistics.median(x.mib for x in ok) if ok else float("nan")
    print(
        f"{'the app page a learner downloads (p50)':44}{alone_mib:>14.2f} MiB{hub_mib:>8.2f} MiB"
        f"{hub_mib / alone_mib:>8.2f}×"
    )
    print(
        f"{'memory per learner, server + kernel (PSS)':44}{out['alone_pss']:>14.0f} MiB{per_learner:>8.0f} MiB"
        f"{per_learner / out['alone_pss']:>8.2f}×"
    )
    if out["learner_pss"]:
        print(f"{'  per learner, max':44}{'':>18}{max(out['learner_pss']):>8.0f} MiB")
    print(f"{'the hub itself: hub, proxy, culler (PSS, once)':44}{'-':>18}{out['hub_pss']:>8.0f} MiB")
    print(f"{'whole class arrived in':44}{'':>18}{out['class_s']:>10.1f} s")
    print(f"{'servers running, one per learner':44}{'':>18}{out['servers']:>12}")
    print(f"{'errors':44}{0:>18}{len(learners) - len(ok):>12}")
    for x in learners:
        if x.error:
            print(f"  {x.name}: {x.error}")
    return 0


def _pss(p: psutil.Process) -> int:
    with contextlib.suppress(psutil.Error):
        return int(p.memory_full_info().pss)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
