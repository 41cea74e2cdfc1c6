"""The ``spades-tutor`` command: ``--version``, ``app`` (serve the lesson app) and ``deal``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from . import __version__


def _project_root() -> Path:
    """The checkout the package runs from (``make app`` installs it editable)."""
    return Path(__file__).resolve().parent.parent


def app_notebook(root: Path | None = None) -> Path:
    """The notebook the app serves: the lesson app once it exists, else the engine tour."""
    notebooks = (root or _project_root()) / "notebooks"
    for name in ("app.ipynb", "00-engine-tour.ipynb"):
        if (notebooks / name).exists():
            return notebooks / name
    raise SystemExit(f"spades-tutor: no app notebook in {notebooks} (run from a checkout of the project)")


# A class arrives within a minute: refill the pool only once the burst is over, so refills do not
# compete with the learners' own pages for the CPU (bench/classroom.py measured it).
CLASS_FILL_DELAY = 20.0


def app_pool_option(size: int, root: Path | None = None) -> str:
    """The Voilà option that keeps ``voila.json``'s kernel pools but gives ``app.ipynb`` a pool of ``size``.

    >>> json.loads(app_pool_option(4).split("=", 1)[1])["app.ipynb"]
    {'pool_size': 4}
    """
    config = json.loads(((root or _project_root()) / "voila.json").read_text(encoding="utf-8"))
    pools = dict(config.get("VoilaKernelManager", {}).get("kernel_pools_config", {}))
    pools["app.ipynb"] = {**pools.get("app.ipynb", {}), "pool_size": size}
    return f"--VoilaKernelManager.kernel_pools_config={json.dumps(pools, separators=(',', ':'))}"


def class_options(size: int, root: Path | None = None) -> list[str]:
    """Voilà options for serving a class of ``size`` learners at once from one machine.

    A pool of ``size`` preheated app kernels (each runs the app notebook up to the learner's
    request, so a page opens without starting Python), refilled ``CLASS_FILL_DELAY`` seconds
    after each kernel is taken. The other pools and the culling settings stay as ``voila.json``
    has them.

    >>> opts = class_options(30)
    >>> json.loads(opts[0].split("=", 1)[1])["app.ipynb"]
    {'pool_size': 30}
    >>> opts[1]
    '--VoilaKernelManager.fill_delay=20.0'
    """
    if size < 1:
        raise ValueError(f"a class has at least one learner, not {size}")
    return [app_pool_option(size, root), f"--VoilaKernelManager.fill_delay={CLASS_FILL_DELAY}"]


def class_banner(size: int, ip: str, port: int) -> str:
    """What the teacher reads when the class server starts: when it is ready, and the address to give out."""
    import socket

    if ip in ("0.0.0.0", "::", ""):
        host = socket.gethostname()
        where = f"http://{host}:{port}/ (or this machine's address on the room's network instead of {host})"
    else:
        where = f"http://{ip}:{port}/"
    return (
        f"spades-tutor: serving a class of {size}. Warming {size} app kernels (about half a second each);"
        f" the class can come in once Voilà logs 'Kernel pool of app.ipynb is filled'.\n"
        f"spades-tutor: learners open {where}"
    )


def voila_command(
    notebook: Path, port: int | None, open_browser: bool, ip: str = "127.0.0.1", class_size: int | None = None
) -> list[str]:
    args = [sys.executable, "-m", "voila", str(notebook), f"--Voila.ip={ip}"]
    if port is not None:
        args.append(f"--port={port}")
    if not open_browser:
        args.append("--no-browser")
    if class_size is not None:
        args += class_options(class_size)
    return args


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="spades-tutor", description="Learn Spades with Jokers.")
    parser.add_argument("--version", action="version", version=f"spades-tutor {__version__}")
    sub = parser.add_subparsers(dest="command")
    app = sub.add_parser("app", help="serve the lesson app with Voilà on 127.0.0.1")
    app.add_argument("--port", type=int, default=None, help="port (default: Voilà's 8866)")
    app.add_argument("--no-browser", action="store_true", help="do not open a browser tab")
    app.add_argument(
        "--class-size",
        type=int,
        default=None,
        metavar="N",
        help="serve a class of N learners opening the app at once: N kernels ready before they arrive",
    )
    app.add_argument(
        "--ip",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 lets a room's laptops in)",
    )
    deal = sub.add_parser("deal", help="print a seeded deal")
    deal.add_argument("deal_id", help="a deal id such as 4127 or 4127W")
    deal.add_argument("--preset", default="jokers", help="rule set (default: jokers)")
    args = parser.parse_args(argv)

    if args.command == "app":
        if args.class_size is not None and args.class_size < 1:
            parser.error(f"--class-size must be at least 1, not {args.class_size}")
        cmd = voila_command(app_notebook(), args.port, not args.no_browser, args.ip, args.class_size)
        if args.class_size is not None:
            print(class_banner(args.class_size, args.ip, args.port or 8866), flush=True)
        os.chdir(_project_root())
        os.execv(cmd[0], cmd)
    if args.command == "deal":
        from .engine import Round, Rules, Seat, SpadesError

        try:
            rnd = Round.from_deal_id(Rules.preset(args.preset), args.deal_id)
        except SpadesError as e:
            print(f"spades-tutor: {e}", file=sys.stderr)
            return 2
        print(f"Deal {rnd.deal_id} ({rnd.rules.title}), dealer {rnd.dealer}")
        for seat in Seat:
            print(f"  {seat.label:<5} {rnd.hands[seat]}")
        return 0
    parser.print_help()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
