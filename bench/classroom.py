"""Benchmark: a class of learners opening the app at once against one Voilà server, against one learner alone.

What it does, in one run on this machine:

1. Starts the app's server the way a teacher does for a class, ``spades-tutor app --class-size N``
   (N = ``--learners``; the options come from ``spades_tutor.cli.class_options``: a pool of N preheated
   app kernels, refilled 20 s after each is taken; loopback only here), with its guards on: a class
   code every learner presents (its link ``?code=...``, then the cookie it sets) and the kernel bounds
   ``make class`` would use (``spades_tutor.cli.kernel_limits``: 3 per computer, the class plus a
   margin in all). Every kernel-level learner connects from its own loopback address (127.0.0.10,
   127.0.0.11, ...), as each laptop of a room has its own; the Chromium pages share 127.0.0.1, as
   three tabs of one laptop would. ``--as-shipped`` serves with ``voila.json`` alone (the one-learner
   settings of ``make app``, no code, its total bound raised to the class) instead; ``--pool-size K``
   overrides the pool size for an experiment.
2. Single learner: one Chromium page opens ``/?lesson=1``, ``--singles`` times (default 3, one after
   the other, median reported); time to interactive (TTI) = from ``page.goto`` until "Next ▶" is visible
   and enabled, clicked, and "Step 2 of" (written by the kernel) is visible, as bench/app.py measures the
   app. Their kernels are then shut down and the pool left to refill and go quiet.
3. The class: ``--learners`` (30) learners start at the same moment: ``--browsers`` (3) real Chromium pages
   (one browser, a context each), measured as above, and the rest "kernel-level clients": an HTTP GET of
   ``/?lesson=1`` (Voilà executes the notebook server-side for that request in a pooled or new kernel;
   the kernel id is in the page's ``jupyter-config-data``), then a websocket to
   ``/api/kernels/<id>/channels`` that sends ``kernel_info_request``; their TTI = GET start until
   ``kernel_info_reply``. Every learner keeps its page / websocket open until memory has been read
   (a connected kernel is not culled: ``cull_connected`` is false).
4. Memory twice: once everyone is interactive, and again once the server has refilled its pool behind
   the class (what the machine holds for the rest of the lesson): RSS, USS and PSS of the server and
   every kernel process under it (psutil process tree), per-kernel median and total. PSS counts each
   shared page once, so its total is what the machine really spends; RSS summed over processes
   counts shared libraries once per kernel and is an upper bound.

Targets: 0 errors; class p95 TTI <= 4x the single learner's; total memory (server + kernels) <= 6 GiB,
checked on the larger of the two readings, by RSS (the upper bound).
It prints a table and exits 0 whether or not the targets are met: it is not a test.

Run it from the project root::

    .venv/bin/python bench/classroom.py                     # 30 learners, 3 in Chromium, class settings
    .venv/bin/python bench/classroom.py --as-shipped        # same, with voila.json's pool of 1
    .venv/bin/python bench/classroom.py --pool-size 10      # class settings with a pool of 10

Server log: ``test-artifacts/bench-classroom.log``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import math
import os
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import (
    APP_AFTER_CLICK,
    APP_NOTEBOOK,
    APP_PATH,
    APP_READY,
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    MIB,
    ROOT,
    Server,
    free_port,
    wait_quiet,
    wait_ready,
)

from spades_tutor.cli import CLASS_FILL_DELAY, app_pool_option, class_options, kernel_limits
from spades_tutor.server import CLASS_CODE_ENV, new_class_code

GIB = 2**30
TTI_RATIO_TARGET = 4.0
MEMORY_TARGET = 6 * GIB
# page errors that do not affect the app
HARMLESS_PAGE_ERRORS = ("r.setData is not a function",)
KERNEL_ID = re.compile(r'"kernelId"\s*:\s*"([0-9a-f-]{36})"')


def start_server(extra: list[str], code: str) -> Server:
    """Start the app's server (``spades_tutor.server``, as ``spades-tutor app`` does) on
    ``notebooks/app.ipynb``, plus ``extra`` options, with class code ``code`` (none if empty)."""
    ARTIFACTS.mkdir(exist_ok=True)
    port = free_port()
    log_path = ARTIFACTS / "bench-classroom.log"
    log_file = log_path.open("wb")
    env = {k: v for k, v in os.environ.items() if k != CLASS_CODE_ENV}
    if code:
        env[CLASS_CODE_ENV] = code
    proc = subprocess.Popen(
        [sys.executable, "-m", "spades_tutor.server", APP_NOTEBOOK, f"--port={port}", "--no-browser", *extra],
        cwd=ROOT,
        env={**env, "PYTHONUNBUFFERED": "1"},
        stdin=subprocess.DEVNULL,
        stdout=log_file,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    return Server("classroom", APP_NOTEBOOK, port, proc, log_path, _log_file=log_file)


def kernel_processes(server: Server) -> list[psutil.Process]:
    found = []
    for p in server.processes()[1:]:
        with contextlib.suppress(psutil.Error):
            if any(re.search(r"kernel-[0-9a-f-]+\.json", a) for a in p.cmdline()):
                found.append(p)
    return found


def wait_kernels(server: Server, count: int, timeout: float, fills: int = 0) -> None:
    """Wait until the pool has been filled ``fills`` times (Voilà's log line: kernels started AND notebook
    executed up to wait_for_request), the server runs ``count`` kernel processes, then until quiet."""
    deadline = time.monotonic() + timeout
    filled = re.compile(rf"Kernel pool of {re.escape(Path(APP_NOTEBOOK).name)} is filled")
    while count and len(filled.findall(server.log())) < fills and time.monotonic() < deadline:
        time.sleep(0.3)
    while len(kernel_processes(server)) != count:
        if time.monotonic() > deadline:  # e.g. a pooled kernel died at start: go on, and say so
            print(f"warning: {len(kernel_processes(server))} kernel processes, expected {count}", flush=True)
            break
        time.sleep(0.3)
    # idle kernels still poll a little: allow 1 % CPU each, and give up waiting for calm after 60 s
    wait_quiet([server], min(timeout, 60.0), threshold=10.0 + count)


@dataclass
class Result:
    kind: str  # "browser" or "kernel"
    tti_s: float | None = None
    kernel_id: str | None = None
    error: str | None = None


# --- real Chromium pages (async Playwright in one thread, one context per learner) -------------------------


async def browser_learner(
    browser: Any, url: str, timeout_s: float, release: asyncio.Event, progress: list[Result]
) -> Result:
    result = Result("browser")
    page_errors: list[str] = []
    context = await browser.new_context(viewport={"width": 1280, "height": 1400})
    try:
        page = await context.new_page()
        page.on("pageerror", lambda e: page_errors.append(str(e)))
        page.set_default_timeout(timeout_s * 1000)
        start = time.perf_counter()
        try:
            await page.goto(url, wait_until="commit")
            target = page.locator(APP_READY).first
            await target.wait_for(state="visible")
            while not await target.is_enabled():
                await asyncio.sleep(0.01)
            await target.click()
            await page.get_by_text(APP_AFTER_CLICK).first.wait_for(state="visible")
            result.tti_s = time.perf_counter() - start
            result.kernel_id = await page.evaluate(
                "JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
            )
        except Exception as e:
            result.error = f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"
            with contextlib.suppress(Exception):  # what the learner saw instead
                await page.screenshot(path=str(ARTIFACTS / f"bench-classroom-error-{len(progress)}.png"))
        bad = [e for e in page_errors if not any(h in e for h in HARMLESS_PAGE_ERRORS)]
        if bad and not result.error:
            result.error = f"page error: {bad[0][:160]}"
        progress.append(result)
        await release.wait()  # keep the page (and its kernel connection) open until memory is read
    finally:
        await context.close()
    return result


def run_browsers(
    n: int,
    url: str,
    timeout_s: float,
    go: threading.Barrier | None,
    done: threading.Event,
    out: list[Result],
    progress: list[Result],
) -> None:
    """Thread body: ``n`` Chromium pages at once; waits at ``go`` (the class's start), holds them until ``done``."""

    async def main() -> None:
        from playwright.async_api import async_playwright

        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            release = asyncio.Event()
            loop = asyncio.get_running_loop()
            if go is not None:
                await loop.run_in_executor(None, go.wait)
            tasks = [asyncio.create_task(browser_learner(browser, url, timeout_s, release, progress)) for _ in range(n)]

            async def releaser() -> None:
                await loop.run_in_executor(None, done.wait)
                release.set()

            rel = asyncio.create_task(releaser())
            results = await asyncio.gather(*tasks, return_exceptions=True)
            await rel
            for r in results:
                out.append(r if isinstance(r, Result) else Result("browser", error=f"{type(r).__name__}: {r}"))
            await browser.close()

    try:
        asyncio.run(main())
    except Exception as e:
        out.extend(Result("browser", error=f"browser thread: {type(e).__name__}: {e}") for _ in range(n - len(out)))


# --- kernel-level clients (HTTP GET + kernel websocket) -----------------------------------------------------


def learner_path(code: str) -> str:
    """The link a learner opens: the lesson, with the class code when the server wants one."""
    return APP_PATH + (f"&code={code}" if code else "")


def http_get(base: str, path: str, source: str, cookies: str, timeout: float) -> tuple[int, str, str, str]:
    """GET ``path`` from loopback address ``source``: status, Location, cookies set, body."""
    host = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(
        host.hostname or "127.0.0.1", host.port, timeout=timeout, source_address=(source, 0)
    )
    try:
        conn.request("GET", path, headers={"Cookie": cookies} if cookies else {})
        r = conn.getresponse()
        body = r.read().decode("utf-8", "replace")
        set_cookies = "; ".join(c.split(";", 1)[0] for k, c in r.getheaders() if k.lower() == "set-cookie")
        return r.status, r.getheader("Location") or "", set_cookies, body
    finally:
        conn.close()


def kernel_learner(
    base: str,
    source: str,
    code: str,
    timeout_s: float,
    go: threading.Barrier,
    done: threading.Event,
    progress: list[Result],
) -> Result:
    """One learner's laptop at loopback address ``source``: opens the class link, then talks to its kernel."""
    from websockets.sync.client import connect

    result = Result("kernel")
    go.wait()
    start = time.perf_counter()
    deadline = start + timeout_s
    try:
        path, cookies = learner_path(code), ""
        for _ in range(3):  # the class link answers with its cookie and a redirect to the lesson
            status, location, set_cookies, html = http_get(base, path, source, cookies, timeout_s)
            cookies = "; ".join(c for c in (cookies, set_cookies) if c)
            if status not in (301, 302, 303, 307):
                break
            path = location
        if status != 200:
            raise urllib.error.HTTPError(base + path, status, html[:80], None, None)  # type: ignore[arg-type]
        m = KERNEL_ID.search(html)
        if not m:
            raise RuntimeError("no kernelId in the page")
        result.kernel_id = m.group(1)
        session = uuid.uuid4().hex
        ws_url = base.replace("http://", "ws://") + f"api/kernels/{result.kernel_id}/channels?session_id={session}"
        headers = {"Cookie": cookies} if cookies else None
        with connect(
            ws_url,
            origin=base.rstrip("/"),
            additional_headers=headers,
            open_timeout=max(1.0, deadline - time.perf_counter()),
            max_size=None,
            source_address=(source, 0),
        ) as ws:
            msg_id = uuid.uuid4().hex
            ws.send(
                json.dumps(
                    {
                        "header": {
                            "msg_id": msg_id,
                            "msg_type": "kernel_info_request",
                            "session": session,
                            "username": "",
                            "date": datetime.now(UTC).isoformat(),
                            "version": "5.3",
                        },
                        "parent_header": {},
                        "metadata": {},
                        "content": {},
                        "channel": "shell",
                        "buffers": [],
                    }
                )
            )
            while True:
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise TimeoutError("no kernel_info_reply before the timeout")
                raw = ws.recv(timeout=left)
                if isinstance(raw, bytes):
                    continue
                msg = json.loads(raw)
                if (
                    msg.get("msg_type", msg.get("header", {}).get("msg_type")) == "kernel_info_reply"
                    and msg.get("parent_header", {}).get("msg_id") == msg_id
                ):
                    break
            result.tti_s = time.perf_counter() - start
            progress.append(result)
            done.wait(timeout=timeout_s + 120)  # hold the connection open, as an open tab does
    except urllib.error.HTTPError as e:
        result.error = f"HTTP {e.code}"
    except Exception as e:
        result.error = f"{type(e).__name__}: {str(e)[:160]}"
    if result.error:
        progress.append(result)
    return result


def shutdown_kernel(server: Server, kernel_id: str, code: str) -> None:
    """Shut a Chromium learner's kernel down as its own computer (127.0.0.1) may, with the class cookie."""
    cookies = "_xsrf=bench"
    if code:
        cookies += "; " + http_get(server.url, f"/?code={code}", "127.0.0.1", "", 30)[2]
    req = urllib.request.Request(
        f"{server.url}api/kernels/{kernel_id}", method="DELETE", headers={"Cookie": cookies, "X-XSRFToken": "bench"}
    )
    with urllib.request.urlopen(req, timeout=30):
        pass


# --- reporting ---------------------------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); nan for no values."""
    if not values:
        return math.nan
    s = sorted(values)
    return s[max(0, math.ceil(q / 100 * len(s)) - 1)]


def memory(server: Server) -> dict[str, Any]:
    """RSS, USS and PSS of the server and its kernels (and any other child process, e.g. a kernel launcher)."""
    kernel_pids = {p.pid for p in kernel_processes(server)}
    kernels: list[Any] = []
    others: list[Any] = []
    srv = None
    for p in server.processes():
        with contextlib.suppress(psutil.Error):
            m = p.memory_full_info()
            if p.pid == server.proc.pid:
                srv = m
            elif p.pid in kernel_pids:
                kernels.append(m)
            else:
                others.append(m)
    every = kernels + others + ([srv] if srv else [])
    return {
        "kernels": len(kernels),
        "median_rss": statistics.median([m.rss for m in kernels]) if kernels else 0,
        "median_uss": statistics.median([m.uss for m in kernels]) if kernels else 0,
        "median_pss": statistics.median([m.pss for m in kernels]) if kernels else 0,
        "server_rss": srv.rss if srv else 0,
        "server_uss": srv.uss if srv else 0,
        "total_rss": sum(m.rss for m in every),
        "total_uss": sum(m.uss for m in every),
        "total_pss": sum(m.pss for m in every),
    }


def wait_refill(server: Server, count: int, timeout: float) -> bool:
    """Wait until ``count`` kernel processes run (learners' kernels plus the refilled pool), then until quiet."""
    deadline = time.monotonic() + timeout
    while len(kernel_processes(server)) < count:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)
    wait_quiet([server], max(1.0, min(60.0, deadline - time.monotonic())), threshold=10.0 + count)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "Classroom benchmark").splitlines()[0])
    parser.add_argument("--learners", type=int, default=30, help="learners opening the app at once (default 30)")
    parser.add_argument("--browsers", type=int, default=3, help="of them, real Chromium pages (default 3)")
    parser.add_argument("--singles", type=int, default=3, help="single-learner runs before the class (default 3)")
    parser.add_argument(
        "--as-shipped",
        action="store_true",
        help="serve with voila.json alone (make app's one-learner settings), not spades-tutor app --class-size",
    )
    parser.add_argument(
        "--pool-size", type=int, default=None, help="preheated app.ipynb kernels (default: the class size)"
    )
    parser.add_argument(
        "--no-class-code", action="store_true", help="serve the class without a class code (to measure what it costs)"
    )
    parser.add_argument("--timeout", type=float, default=180, help="seconds allowed for the class (default 180)")
    parser.add_argument(
        "--voila-arg",
        action="append",
        default=[],
        help="extra Voilà option for this run only, repeatable (e.g. --voila-arg=--VoilaKernelManager.fill_delay=30)",
    )
    args = parser.parse_args(argv)
    if not os.access(CHROMIUM, os.X_OK):
        print(f"bench/classroom.py: {CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 1
    n_browsers = max(0, min(args.browsers, args.learners))
    n_kernel = args.learners - n_browsers
    voila_json = json.loads((ROOT / "voila.json").read_text())
    cull = voila_json.get("MappingKernelManager", {})
    if args.as_shipped:
        pools = voila_json.get("VoilaKernelManager", {}).get("kernel_pools_config", {})
        shipped = pools.get(Path(APP_NOTEBOOK).name, pools.get("default", {})).get("pool_size", 1)
        pool = args.pool_size if args.pool_size is not None else int(shipped)
        extra = [] if args.pool_size is None else [app_pool_option(pool, ROOT)]
        fill_delay = float(voila_json.get("VoilaKernelManager", {}).get("fill_delay", 1.0))
        per_client, total = kernel_limits(None, "0.0.0.0")[0], kernel_limits(args.learners)[1]
        code = ""
        setting = f"voila.json as shipped, app.ipynb pool {pool}, no class code"
    else:
        pool = args.pool_size if args.pool_size is not None else args.learners
        extra = class_options(pool, ROOT)
        fill_delay = CLASS_FILL_DELAY
        per_client, total = kernel_limits(args.learners)
        code = "" if args.no_class_code else new_class_code()
        setting = (
            f"spades-tutor app --class-size {pool} (pool {pool}, refilled {fill_delay:g} s after each is taken),"
            f" class code {'off' if args.no_class_code else 'on'}"
        )
    setting += f", at most {per_client} kernels per client address and {total} in all"
    extra += [f"--TutorVoila.kernels_per_client={per_client}", f"--TutorVoila.max_kernels={total}"]
    extra += args.voila_arg
    link = learner_path(code).lstrip("/")
    warm_timeout = max(120.0, 5.0 * pool)

    wall = time.monotonic()
    server = start_server(extra, code)
    singles: list[Result] = []
    results: list[Result] = []
    mem: dict[str, Any] = {}
    mem_refilled: dict[str, Any] = {}
    refilled = False
    class_wall = math.nan
    peak_kernels = 0
    pool_ex: ThreadPoolExecutor | None = None
    try:
        wait_ready(server, 120)
        wait_kernels(server, pool, warm_timeout, fills=1)
        print(
            f"server up on :{server.port}, {pool} preheated app kernel(s), {time.monotonic() - wall:.1f} s", flush=True
        )

        # 1. one learner alone, a few times; the pool is refilled and quiet before each
        for i in range(max(1, args.singles)):
            out: list[Result] = []
            done = threading.Event()
            done.set()
            run_browsers(1, server.url + link, 120, None, done, out, [])
            singles.append(out[0])
            print(f"single learner {i + 1}: TTI {out[0].tti_s} s, error {out[0].error}", flush=True)
            if out[0].kernel_id:
                with contextlib.suppress(Exception):
                    shutdown_kernel(server, out[0].kernel_id, code)
            wait_kernels(server, pool, warm_timeout + fill_delay, fills=2 + i)

        # 2. the class, all at once
        go = threading.Barrier(n_kernel + (1 if n_browsers else 0) + 1)
        done = threading.Event()
        browser_out: list[Result] = []
        progress: list[Result] = []
        bthread = None
        if n_browsers:
            bthread = threading.Thread(
                target=run_browsers,
                args=(n_browsers, server.url + link, args.timeout, go, done, browser_out, progress),
                daemon=True,
            )
            bthread.start()
        pool_ex = ThreadPoolExecutor(max_workers=max(1, n_kernel))
        futures = [
            pool_ex.submit(kernel_learner, server.url, f"127.0.0.{10 + i}", code, args.timeout, go, done, progress)
            for i in range(n_kernel)
        ]
        go.wait()
        t0 = time.monotonic()
        # wait until every learner is interactive or failed, or the timeout
        while time.monotonic() - t0 < args.timeout + 30:
            peak_kernels = max(peak_kernels, len(kernel_processes(server)))
            if len(progress) >= n_kernel + n_browsers:
                break
            time.sleep(0.5)
        class_wall = time.monotonic() - t0
        time.sleep(1.0)
        mem = memory(server)
        # 3. the pool refills behind the class: what the machine holds for the rest of the lesson
        in_class = len({r.kernel_id for r in progress if r.kernel_id and r.tti_s is not None})
        print(f"class in after {class_wall:.1f} s; waiting for the pool to refill", flush=True)
        refilled = wait_refill(server, in_class + pool, fill_delay + warm_timeout)
        peak_kernels = max(peak_kernels, len(kernel_processes(server)))
        mem_refilled = memory(server)
        done.set()
        for f in futures:
            try:
                results.append(f.result(timeout=10))
            except FutureTimeout:  # e.g. its kernel died and the server never finished the page
                results.append(Result("kernel", error="no page before the timeout"))
        if bthread:
            bthread.join(timeout=60)
        results += browser_out
        results += [Result("browser", error="not finished") for _ in range(n_browsers - len(browser_out))]
    except Exception as e:
        print(f"bench/classroom.py: {type(e).__name__}: {e}\nserver log: {server.log_path}", file=sys.stderr)
    finally:
        server.stop()  # also ends any request still hanging on it
        if pool_ex is not None:
            pool_ex.shutdown(wait=False, cancel_futures=True)
    leftover = []
    for p in psutil.process_iter(["cmdline"]):
        with contextlib.suppress(psutil.Error):
            if any(f"kernel-{r.kernel_id}.json" in a for r in results if r.kernel_id for a in p.info["cmdline"] or []):
                leftover.append(p)
    for p in leftover:
        with contextlib.suppress(psutil.Error):
            p.kill()

    # --- table
    def ttis(kind: str | None) -> list[float]:
        return [r.tti_s for r in results if r.tti_s is not None and (kind is None or r.kind == kind)]

    errors = [r for r in results if r.error] + [r for r in singles if r.error]
    single_ttis = [r.tti_s for r in singles if r.tti_s is not None]
    single_tti = statistics.median(single_ttis) if single_ttis else math.nan
    log = server.log()
    not_allowed = len(re.findall(r"which is not allowed", log))
    print()
    print(
        f"Classroom: {args.learners} learners at once ({n_browsers} Chromium pages, {n_kernel} kernel-level clients)"
        f" against one Voilà server: {setting};"
        f" culling: interval {cull.get('cull_interval')} s, idle timeout {cull.get('cull_idle_timeout')} s,"
        f" cull_connected {cull.get('cull_connected')}"
    )
    if args.voila_arg:
        print(f"extra Voilà options: {' '.join(args.voila_arg)}")
    print()
    print(f"{'':<40}{'p50':>9}{'p95':>9}{'max':>9}{'n':>5}")
    runs = ", ".join(f"{t:.2f}" for t in single_ttis)
    mx = max(single_ttis) if single_ttis else math.nan
    print(
        f"{'single learner TTI (Chromium, median)':<40}{single_tti:>9.2f}{'':>9}{mx:>9.2f}{len(single_ttis):>5}   ({runs})"
    )
    for label, kind in (
        ("class TTI, Chromium pages", "browser"),
        ("class TTI, kernel-level", "kernel"),
        ("class TTI, all", None),
    ):
        v = ttis(kind)
        mx = max(v) if v else math.nan
        print(f"{label:<40}{pct(v, 50):>9.2f}{pct(v, 95):>9.2f}{mx:>9.2f}{len(v):>5}")
    print()
    p95 = pct(ttis(None), 95)
    ratio = p95 / single_tti if single_tti else math.nan
    met = lambda ok: "met" if ok else "NOT met"  # noqa: E731
    peak_rss = max(m.get("total_rss", 0) for m in (mem, mem_refilled)) if mem else 0
    print(f"{'errors':<40}{len(errors):>9}   target 0              {met(not errors)}")
    print(
        f"{'p95 / single learner TTI':<40}{ratio:>8.2f}x   target <= {TTI_RATIO_TARGET:.0f}x           {met(ratio <= TTI_RATIO_TARGET)}"
    )
    if mem:
        print(
            f"{'total memory, RSS (larger reading)':<40}{peak_rss / GIB:>8.2f}G   target <= 6 GiB        {met(peak_rss <= MEMORY_TARGET)}"
        )
        print()
        print(f"{'memory':<40}{'class in':>12}{'pool refilled' if refilled else 'not refilled':>16}")
        rows = (
            ("kernel processes", "kernels", 1, ""),
            ("total RSS (upper bound)", "total_rss", GIB, "G"),
            ("total PSS (shared pages once)", "total_pss", GIB, "G"),
            ("total USS (private)", "total_uss", GIB, "G"),
            ("kernel RSS, median", "median_rss", MIB, "M"),
            ("kernel PSS, median", "median_pss", MIB, "M"),
            ("kernel USS, median", "median_uss", MIB, "M"),
            ("server RSS", "server_rss", MIB, "M"),
        )
        for label, key, unit, suffix in rows:
            a = mem.get(key, 0) / unit
            b = mem_refilled.get(key, 0) / unit

            def fmt(x: float, unit: int = unit, suffix: str = suffix) -> str:
                return f"{x:.0f}" if unit == 1 else f"{x:.2f}{suffix}" if suffix == "G" else f"{x:.0f}{suffix}"

            print(f"{label:<40}{fmt(a):>12}{fmt(b):>16}")
    print()
    print(f"{'kernels started for the class (ids)':<40}{len({r.kernel_id for r in results if r.kernel_id}):>9}")
    print(f"{'peak kernel processes':<40}{peak_kernels:>9}")
    print(f"{'class wall time':<40}{class_wall:>8.1f}s")
    if not_allowed:
        print(f"{'server: refused messages':<40}{not_allowed:>9}")
    if errors:
        print("\nerrors:")
        for r in errors[:10]:
            print(f"  {r.kind}: {r.error}")
        if len(errors) > 10:
            print(f"  ... and {len(errors) - 10} more")
    alive = [p for p in leftover if p.is_running()]
    print(f"\ncleanup: server stopped, {len(leftover)} kernel process(es) left over and killed, {len(alive)} alive")
    print(f"whole run {time.monotonic() - wall:.0f} s; server log {server.log_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
