"""Benchmark: a learner's kernel after a long session, against a plain one-button kernel clicked as often.

A class server keeps one kernel per learner for as long as the learner stays. This bench starts two
kernels side by side with the project's Python (jupyter_client, as Voilà starts them):

- the app: ``App(query="lesson=1")``, then ``--actions`` actions as a learner takes them, drawn from
  ``--seed``: mostly Next ▶, sometimes ◀ Back, Finish ✓ at a lesson's end, then the next lesson or the list;
- the peer: ``bench/plain_button.ipynb``'s one ``ipywidgets.Button`` whose callback renames it, clicked
  as many times.

Each action runs in the kernel through the widgets' own click handlers, so it sends the page what a
click sends (the client drains every message). The kernel's RSS and USS (psutil) and the widgets open
in it are read before the actions and after each quarter. Target: once warm (over the second half,
when the lessons' imports and caches are done), the app's kernel grows no more per 100 actions than
the plain one plus 0.5 MiB of allocator noise: memory a class server pays per learner stays what it
was at the start of the lesson, however long the learner stays. It also prints the widgets open in
the app's kernel and its RSS against the plain kernel's.

    .venv/bin/python bench/session_memory.py                  # 1,200 actions: 100 min at one per 5 s
    .venv/bin/python bench/session_memory.py --actions 3000 --seed 3
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import psutil
from jupyter_client.manager import start_new_kernel

MIB = 1024 * 1024
#: what the app's kernel may grow per 100 actions, once warm, beyond the plain kernel: allocator noise
GROWTH_NOISE_MIB = 0.5

APP_SETUP = """
import random
from ipywidgets.widgets.widget import _instances
from spades_tutor.ui.app import App
app = App(query="lesson=1")
rng = random.Random({seed})

def act():
    learn = app.learn
    player = learn.player
    done = learn.done_panel
    if player is None and done is not None:  # a lesson's end: mostly the next lesson, else the list
        nxt = done.next_lesson.layout.display is None and rng.random() < 0.7
        (done.next_lesson if nxt else done.all_lessons).click()
        return
    if player is None:  # the list: a lesson, mostly the next ones
        learn._list_buttons[rng.randrange(len(learn._list_buttons))].click()
        return
    roll = rng.random()
    if player.step and roll < 0.15:
        player.back.click()
    elif player.step == len(player.lesson.steps) - 1 and roll < 0.5:
        player.finish.click() if player.finish.layout.display is None else player.next.click()
    else:
        player.next.click()
"""

PLAIN_SETUP = """
import ipywidgets as w
from ipywidgets.widgets.widget import _instances
button = w.Button(description="Next")
def clicked(b):
    b.description = "Clicked" if b.description == "Next" else "Next"
button.on_click(clicked)

def act():
    button.click()
"""


class Kernel:
    def __init__(self, name: str, setup: str) -> None:
        self.name = name
        self.km, self.kc = start_new_kernel(kernel_name="python3")
        self.proc = psutil.Process(self.km.provisioner.process.pid)  # type: ignore[union-attr]
        self.run(setup)

    def run(self, code: str) -> dict[str, Any]:
        reply = self.kc.execute_interactive(code, output_hook=lambda _m: None, timeout=3600)
        if reply["content"]["status"] != "ok":
            raise RuntimeError(f"{self.name}: {reply['content'].get('ename')}: {reply['content'].get('evalue')}")
        return reply

    def reading(self) -> dict[str, float]:
        out: list[str] = []

        def hook(msg: dict[str, Any]) -> None:
            if msg["msg_type"] == "stream":
                out.append(msg["content"]["text"])

        self.kc.execute_interactive("import gc; gc.collect(); print(len(_instances))", output_hook=hook, timeout=120)
        mem = self.proc.memory_full_info()
        return {"rss": mem.rss / MIB, "uss": mem.uss / MIB, "widgets": float("".join(out).strip() or "nan")}

    def stop(self) -> None:
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--actions", type=int, default=1200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the readings as JSON too")
    args = ap.parse_args(argv)

    kernels = [Kernel("app", APP_SETUP.format(seed=args.seed)), Kernel("plain", PLAIN_SETUP)]
    readings: dict[str, list[dict[str, float]]] = {k.name: [] for k in kernels}
    marks = [0, *(args.actions * q // 4 for q in (1, 2, 3, 4))]
    try:
        for k in kernels:
            readings[k.name].append(k.reading())
        done = 0
        start = time.monotonic()
        for mark in marks[1:]:
            batch = mark - done
            for k in kernels:  # side by side: each batch on both before the next
                k.run(f"for _ in range({batch}):\n    act()")
                readings[k.name].append(k.reading())
            done = mark
            print(f"  {done} actions each, {time.monotonic() - start:.0f} s", file=sys.stderr)
    finally:
        for k in kernels:
            k.stop()

    print(f"\nSession memory: {args.actions} actions (seed {args.seed}) in each kernel, read after gc.collect()")
    print(f"{'':<8}{'after':>8}{'RSS MiB':>10}{'USS MiB':>10}{'widgets open':>14}")
    for name, rows in readings.items():
        for mark, r in zip(marks, rows, strict=True):
            print(f"{name:<8}{mark:>8}{r['rss']:>10.1f}{r['uss']:>10.1f}{r['widgets']:>14.0f}")
    app, plain = readings["app"], readings["plain"]
    ratio = app[-1]["rss"] / plain[-1]["rss"]
    half = len(marks) // 2  # the second half: the first lessons' imports and caches are warm by then
    growth = (app[-1]["rss"] - app[half]["rss"]) / max(1, marks[-1] - marks[half]) * 100
    peer_growth = (plain[-1]["rss"] - plain[half]["rss"]) / max(1, marks[-1] - marks[half]) * 100
    print()
    print(
        f"RSS growth per 100 actions over the second half: app {growth:.2f} MiB, plain {peer_growth:.2f} MiB"
        f"   target app <= plain + {GROWTH_NOISE_MIB} MiB   {'met' if growth <= peer_growth + GROWTH_NOISE_MIB else 'NOT met'}"
    )
    print(
        f"widgets open in the app's kernel over the second half: {app[half]['widgets']:.0f} -> {app[-1]['widgets']:.0f}"
    )
    print(
        f"app / plain RSS after the session: {ratio:.2f}x (at arrival {app[0]['rss'] / plain[0]['rss']:.2f}x;"
        " the rest is what the lessons import and cache once, in the first half)"
    )
    if args.json:
        print(json.dumps({"actions": args.actions, "seed": args.seed, "readings": readings}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
