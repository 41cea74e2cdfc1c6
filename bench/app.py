"""Benchmark: the app page against a plain one-button Voilà page, in Chromium, measured in the same run.

What it measures, for each page, in a fresh browser context (empty cache, like a first visit):

- time to interactive: from the call to ``page.goto`` until the page answers a click through its kernel:
  the ready selector is visible and enabled, it is clicked (the click selector), and the text the
  kernel writes in reply (``--after-click-text``) is visible. Without ``--after-click-text`` nothing is
  clicked on either page and the time stops at "ready selector visible and enabled".
  The plain page (``bench/plain_button.ipynb``) is one ``ipywidgets.Button("Next")`` whose Python
  callback renames it "Clicked": ready = ``text=Next``, then clicked, then ``Clicked`` seen.
- kernel memory: RSS (and USS, what closing that page's kernel would free) of the kernel process
  behind the page, read from psutil once the page is interactive and ``--settle`` seconds have passed.

Fairness: both pages are served by two Voilà servers started identically from the repository root,
``python -m voila <notebook> --port=P --no-browser``, so both read the repository's ``voila.json``
(a preheated pool of one kernel per notebook, the same culling, no progressive rendering). Both pages
are therefore served from a pooled kernel. After each page the bench shuts that kernel down and waits
until both servers have refilled their pool and gone quiet, so a refill never competes with the next
measurement. Measurements alternate (app first, then plain first, ...) after ``--warmup`` rounds;
the table shows medians. Targets: app/plain <= 1.3x for time to interactive and for kernel RSS.

While ``notebooks/app.ipynb`` does not exist, the engine tour stands in for it. The tour has no widget,
so the defaults then become: ready = the last cell's kernel output visible, no click, and the plain
page is measured to "button visible and enabled" too; the ratio is only indicative.

Run it from the project root::

    .venv/bin/python bench/app.py            # the app at /?lesson=1: Next visible, clicked, "Step 2 of" seen
    .venv/bin/python bench/app.py --reps 7 --app-path / --ready-selector "text=Learn ▶" --after-click-text "short lessons, in order"
    .venv/bin/python bench/app.py --ready-selector ".st-app button.next" --click-selector ".st-app button.next" \\
        --after-click-text "Trick 1"

``--ready-selector`` / ``--click-selector`` are Playwright selectors (``text=...``, CSS, ``role=button[name="Next"]``);
the click selector defaults to the ready selector. Server logs: ``test-artifacts/bench-*.log``.
It prints its results and exits 0 whether or not the targets are met: it is not a test.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
READY_PATH = "/voila/labextensions/anywidget/package.json"
APP_NOTEBOOK = "notebooks/app.ipynb"
# an interactive lesson step: a link straight to lesson 1's first step, whose Next button the kernel answers
APP_PATH = "/?lesson=1"
APP_READY = 'role=button[name="Next ▶"]'
APP_AFTER_CLICK = "Step 2 of"
STAND_IN = "notebooks/00-engine-tour.ipynb"
STAND_IN_READY = "text=North's nil failed"  # the last cell's output in the engine tour
PLAIN_NOTEBOOK = "bench/plain_button.ipynb"
PLAIN_READY = "text=Next"
PLAIN_AFTER_CLICK = "Clicked"
TARGET = 1.3
MIB = 2**20


@dataclass
class Server:
    name: str
    notebook: str
    port: int
    proc: subprocess.Popen[bytes]
    log_path: Path
    consumed: int = 0  # pooled kernels handed out so far
    _log_file: Any = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def processes(self) -> list[psutil.Process]:
        try:
            me = psutil.Process(self.proc.pid)
            return [me, *me.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def kernel_process(self, kernel_id: str) -> psutil.Process:
        for p in self.processes()[1:]:
            try:
                if any(f"kernel-{kernel_id}.json" in arg for arg in p.cmdline()):
                    return p
            except psutil.NoSuchProcess:
                continue
        raise RuntimeError(f"{self.name}: no process for kernel {kernel_id}")

    def shutdown_kernel(self, kernel_id: str) -> None:
        # The kernels API wants an XSRF token: send the same value as cookie and header (double submit).
        req = urllib.request.Request(
            f"{self.url}api/kernels/{kernel_id}",
            method="DELETE",
            headers={"Cookie": "_xsrf=bench", "X-XSRFToken": "bench"},
        )
        with urllib.request.urlopen(req, timeout=30):
            pass

    def stop(self) -> None:
        descendants = self.processes()[1:]
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        _, alive = psutil.wait_procs(descendants, timeout=5)
        for p in alive:
            p.kill()
        if self._log_file:
            self._log_file.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def launch(
    name: str,
    notebook: str,
    port: int,
    command: list[str],
    log_path: Path | None = None,
    env: dict[str, str] | None = None,
) -> Server:
    """Run ``command``, a server of ``notebook`` on ``port``, from the repository root in a session of its own,
    with ``env`` (this process's environment if None) and unbuffered Python output; its output goes to
    ``log_path`` (``test-artifacts/bench-<name>.log`` if None)."""
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = log_path or ARTIFACTS / f"bench-{name}.log"
    log_file = log_path.open("wb")
    proc = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**(os.environ if env is None else env), "PYTHONUNBUFFERED": "1"},
        stdin=subprocess.DEVNULL,
        stdout=log_file,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    return Server(name, notebook, port, proc, log_path, _log_file=log_file)


def start_server(name: str, notebook: str) -> Server:
    """``voila <notebook>`` from the repository root, as the app is started; only port and --no-browser added."""
    port = free_port()
    return launch(name, notebook, port, [sys.executable, "-m", "voila", notebook, f"--port={port}", "--no-browser"])


def wait_ready(server: Server, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise RuntimeError(f"{server.name} exited ({server.proc.returncode}); see {server.log_path}")
        try:
            with urllib.request.urlopen(server.url + READY_PATH.lstrip("/"), timeout=5) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.3)
    raise RuntimeError(f"{server.name} did not answer in {timeout} s; see {server.log_path}")


def wait_pool_filled(server: Server, timeout: float) -> None:
    """Wait until the pool has been refilled after every kernel handed out (one fill line per refill)."""
    pattern = re.compile(rf"Kernel pool of {re.escape(Path(server.notebook).name)} is filled")
    deadline = time.monotonic() + timeout
    while len(pattern.findall(server.log())) < server.consumed + 1:
        if time.monotonic() > deadline:
            raise RuntimeError(f"{server.name}: kernel pool not refilled in {timeout} s; is it named in voila.json?")
        time.sleep(0.2)


def wait_quiet(servers: list[Server], timeout: float, threshold: float = 10.0) -> None:
    """Wait until the servers and their kernels use < ``threshold`` % CPU in two 0.5 s windows running."""
    deadline = time.monotonic() + timeout
    calm = 0
    while calm < 2 and time.monotonic() < deadline:
        procs = [p for s in servers for p in s.processes()]
        for p in procs:
            with contextlib.suppress(psutil.NoSuchProcess):
                p.cpu_percent(None)
        time.sleep(0.5)
        total = 0.0
        for p in procs:
            with contextlib.suppress(psutil.NoSuchProcess):
                total += p.cpu_percent(None)
        calm = calm + 1 if total < threshold else 0


@dataclass
class Sample:
    ready_s: float
    interactive_s: float
    rss: int
    uss: int


def measure(
    browser: Any,
    server: Server,
    path: str,
    ready: str,
    click: str | None,
    after_click: str | None,
    timeout_s: float,
    settle_s: float,
) -> Sample:
    context = browser.new_context(viewport={"width": 1280, "height": 1400})
    try:
        page = context.new_page()
        page.set_default_timeout(timeout_s * 1000)
        start = time.perf_counter()
        try:
            page.goto(server.url + path.lstrip("/"), wait_until="commit")
            target = page.locator(ready).first
            target.wait_for(state="visible")
            while not target.is_enabled():
                time.sleep(0.01)
            ready_s = time.perf_counter() - start
            if click and after_click:
                page.locator(click).first.click()
                page.get_by_text(after_click).first.wait_for(state="visible")
            interactive_s = time.perf_counter() - start
        except Exception:
            shot = ARTIFACTS / f"bench-{server.name}-failure.png"
            page.screenshot(path=str(shot))
            print(f"bench/app.py: {server.name} page at the failure: {shot}", file=sys.stderr)
            raise
        kernel_id = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
        server.consumed += 1
        time.sleep(settle_s)
        mem = server.kernel_process(kernel_id).memory_full_info()
    finally:
        context.close()
    server.shutdown_kernel(kernel_id)
    return Sample(ready_s, interactive_s, mem.rss, mem.uss)


def resolve_app(args: argparse.Namespace) -> tuple[str, str, str | None, str | None, str]:
    """(notebook, ready, click, after-click text, note) for the app side, the stand-in if app.ipynb is missing."""
    notebook, note = args.app_notebook, ""
    if not (ROOT / notebook).exists():
        if notebook != APP_NOTEBOOK:
            raise SystemExit(f"bench/app.py: {notebook} does not exist")
        notebook, note = STAND_IN, f"stand-in: {APP_NOTEBOOK} does not exist yet"
    stand_in = notebook == STAND_IN
    if stand_in and not note:
        note = f"stand-in for {APP_NOTEBOOK}"
    ready = args.ready_selector or (STAND_IN_READY if stand_in else APP_READY)
    click = args.click_selector if args.click_selector is not None else ready
    after = args.after_click_text if args.after_click_text is not None else (None if stand_in else APP_AFTER_CLICK)
    if stand_in and args.ready_selector is None:
        click, after = None, None
    return notebook, ready, click or None, after, note


def row(label: str, app: float, plain: float, unit: str, fmt: str, target: bool) -> str:
    ratio = app / plain if plain else float("nan")
    verdict = ("met" if ratio <= TARGET else "NOT met") if target else "(info)"
    goal = f"<= {TARGET}x" if target else ""
    return f"{label:<26}{app:>10{fmt}} {unit:<4}{plain:>10{fmt}} {unit:<4}{ratio:>9.2f}x  {goal:<9}{verdict}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "App benchmark").splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="measured rounds, each page once per round (default 5)")
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured rounds first (default 1)")
    parser.add_argument("--app-notebook", default=APP_NOTEBOOK, help=f"default {APP_NOTEBOOK}, else {STAND_IN}")
    parser.add_argument(
        "--app-path", default=APP_PATH, help=f"address of the app page (default {APP_PATH}: lesson 1's first step)"
    )
    parser.add_argument(
        "--ready-selector", default=None, help=f"Playwright selector of the app's first control (default {APP_READY})"
    )
    parser.add_argument(
        "--click-selector", default=None, help="what to click once ready (default: the ready selector; '' for no click)"
    )
    parser.add_argument(
        "--after-click-text", default=None, help="text the kernel shows after the click (no click without it)"
    )
    parser.add_argument("--timeout", type=float, default=120, help="seconds allowed for each page and server step")
    parser.add_argument("--settle", type=float, default=1.0, help="seconds between interactive and the memory reading")
    args = parser.parse_args(argv)

    if not os.access(CHROMIUM, os.X_OK):
        print(f"bench/app.py: {CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    app_nb, ready, click, after, note = resolve_app(args)
    clicking = bool(click and after)
    plain_click, plain_after = (PLAIN_READY, PLAIN_AFTER_CLICK) if clicking else (None, None)

    servers = {"app": start_server("app", app_nb), "plain": start_server("plain", PLAIN_NOTEBOOK)}
    samples: dict[str, list[Sample]] = {"app": [], "plain": []}
    pw = sync_playwright().start()
    try:
        for s in servers.values():
            wait_ready(s, args.timeout)
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        setups = {
            "app": (args.app_path, ready, click, after),
            "plain": ("/", PLAIN_READY, plain_click, plain_after),
        }
        for i in range(args.warmup + args.reps):
            order = ("app", "plain") if i % 2 == 0 else ("plain", "app")
            for name in order:
                for s in servers.values():
                    wait_pool_filled(s, args.timeout)
                wait_quiet(list(servers.values()), args.timeout)
                sample = measure(browser, servers[name], *setups[name], args.timeout, args.settle)
                measured = i >= args.warmup
                if measured:
                    samples[name].append(sample)
                print(
                    f"{'round ' + str(i - args.warmup + 1) if measured else 'warm-up':<9} {name:<6}"
                    f" ready {sample.ready_s:6.2f} s  interactive {sample.interactive_s:6.2f} s"
                    f"  RSS {sample.rss / MIB:6.1f} MiB  USS {sample.uss / MIB:6.1f} MiB",
                    flush=True,
                )
        browser.close()
    except Exception as e:
        print(f"bench/app.py: {type(e).__name__}: {e}\nserver logs: {ARTIFACTS}/bench-*.log", file=sys.stderr)
        return 1
    finally:
        pw.stop()
        for s in servers.values():
            s.stop()

    def med(name: str, attr: str) -> float:
        return statistics.median(getattr(x, attr) for x in samples[name])

    print()
    print(f"App page vs plain Voilà page: medians of {args.reps} alternating rounds, Chromium {CHROMIUM}")
    print(f"  app:   {app_nb}{'  (' + note + ')' if note else ''}")
    print(f"         ready {ready!r}" + (f", click {click!r}, then {after!r}" if clicking else ", no click"))
    print(
        f"  plain: {PLAIN_NOTEBOOK}  ready {PLAIN_READY!r}"
        + (f", click, then {PLAIN_AFTER_CLICK!r}" if clicking else ", no click")
    )
    if not clicking:
        print("  time to interactive = ready selector visible and enabled (no --after-click-text: no click round trip)")
    print()
    print(f"{'':<26}{'app':>10}     {'plain':>10}     {'app/plain':>10}  {'target':<9}")
    if clicking:
        print(row("ready (visible, enabled)", med("app", "ready_s"), med("plain", "ready_s"), "s", ".2f", False))
    print(row("time to interactive", med("app", "interactive_s"), med("plain", "interactive_s"), "s", ".2f", True))
    print(row("kernel RSS", med("app", "rss") / MIB, med("plain", "rss") / MIB, "MiB", ".1f", True))
    print(row("kernel USS", med("app", "uss") / MIB, med("plain", "uss") / MIB, "MiB", ".1f", False))
    if note:
        print(f"\nnote: {note}; the ratios are indicative only")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
