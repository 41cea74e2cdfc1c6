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


# Kernels (open tabs) one client address may hold, and the margin over the class size the server allows in all.
KERNELS_PER_CLIENT = 3
KERNELS_ALONE = 8


def kernel_limits(class_size: int | None, ip: str = "127.0.0.1") -> tuple[int, int]:
    """Default bounds on kernels: (per client address, in all), sized from the class.

    One person's app on loopback has one client, the machine itself: its tabs share the whole bound.

    >>> kernel_limits(30)
    (3, 36)
    >>> kernel_limits(2)
    (3, 6)
    >>> kernel_limits(None)
    (8, 8)
    >>> kernel_limits(None, "0.0.0.0")
    (3, 8)
    """
    if class_size is None:
        return (KERNELS_ALONE if is_loopback(ip) else KERNELS_PER_CLIENT), KERNELS_ALONE
    return KERNELS_PER_CLIENT, class_size + max(4, class_size // 5)


def class_banner(size: int | None, ip: str, port: int, code: str = "", limits: tuple[int, int] | None = None) -> str:
    """What the teacher reads when the server starts: when it is ready, and the link to give out."""
    import socket

    query = f"?code={code}" if code else ""
    if ip in ("0.0.0.0", "::", ""):
        host = socket.gethostname()
        where = f"http://{host}:{port}/{query} (or this machine's address on the room's network instead of {host})"
    else:
        where = f"http://{ip}:{port}/{query}"
    lines = []
    if size is not None:
        lines.append(
            f"spades-tutor: serving a class of {size}. Warming {size} app kernels (about half a second each);"
            f" the class can come in once Voilà logs 'Kernel pool of app.ipynb is filled'."
        )
    lines.append(f"spades-tutor: learners open {where}")
    if code:
        lines.append(
            f"spades-tutor: class code {code}: the link above carries it; without it a learner sees"
            " 'Ask your teacher for the class link'."
        )
    if limits is not None:
        lines.append(
            f"spades-tutor: at most {limits[0]} open tabs per computer and {limits[1]} in all"
            " (--kernels-per-client, --max-kernels)."
        )
    return "\n".join(lines)


def voila_command(
    notebook: Path,
    port: int | None,
    open_browser: bool,
    ip: str = "127.0.0.1",
    class_size: int | None = None,
    limits: tuple[int, int] | None = None,
    allowed_hosts: list[str] | None = None,
) -> list[str]:
    """The command that serves the app: Voilà inside the app's guarded server (``spades_tutor.server``)."""
    args = [sys.executable, "-m", "spades_tutor.server", str(notebook), f"--Voila.ip={ip}"]
    if port is not None:
        args.append(f"--port={port}")
    if not open_browser:
        args.append("--no-browser")
    if class_size is not None:
        args += [*class_options(class_size), f"--TutorVoila.class_size={class_size}"]
    per_client, total = limits or kernel_limits(class_size, ip)
    args += [f"--TutorVoila.kernels_per_client={per_client}", f"--TutorVoila.max_kernels={total}"]
    args += [f"--TutorVoila.allowed_hosts={host}" for host in allowed_hosts or []]
    return args


def is_loopback(ip: str) -> bool:
    """Whether the server listens on this machine only (``make app``) rather than a room's network."""
    from .server import is_loopback as loopback

    return loopback(ip) if ip else False


def class_code_for(ip: str, given: str | None) -> str | None:
    """The class code to serve with: ``given`` (checked; ``none`` for none), else a new one off loopback.

    Returns None for a code that is not letters and digits.

    >>> class_code_for("127.0.0.1", None)
    ''
    >>> class_code_for("0.0.0.0", "ab12cd")
    'AB12CD'
    >>> class_code_for("0.0.0.0", "none")
    ''
    >>> len(class_code_for("0.0.0.0", None) or "")
    6
    """
    from .server import new_class_code, normalise_code

    if given is not None:
        if given.lower() == "none":
            return ""
        code = normalise_code(given)
        return code if code.isascii() and code.isalnum() and 4 <= len(code) <= 64 else None
    return "" if is_loopback(ip) else new_class_code()


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
    app.add_argument(
        "--class-code",
        default=None,
        metavar="CODE",
        help="the code learners' links carry (default: a new one whenever --ip is not loopback; 'none' for no code)",
    )
    app.add_argument(
        "--kernels-per-client",
        type=int,
        default=None,
        metavar="N",
        help=f"open tabs one computer may hold at once (default {KERNELS_PER_CLIENT})",
    )
    app.add_argument(
        "--max-kernels",
        type=int,
        default=None,
        metavar="N",
        help="open tabs the whole server may hold (default: the class size plus a fifth, at least 4 more; alone 8)",
    )
    app.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another host name learners reach this machine by (repeatable); loopback and, on 0.0.0.0,"
        " this machine's own names and addresses are always accepted",
    )
    deal = sub.add_parser("deal", help="print a seeded deal")
    deal.add_argument("deal_id", help="a deal id such as 4127 or 4127W")
    deal.add_argument("--preset", default="jokers", help="rule set (default: jokers)")
    args = parser.parse_args(argv)

    if args.command == "app":
        if args.class_size is not None and args.class_size < 1:
            parser.error(f"--class-size must be at least 1, not {args.class_size}")
        per_client, total = kernel_limits(args.class_size, args.ip)
        per_client = args.kernels_per_client if args.kernels_per_client is not None else per_client
        total = args.max_kernels if args.max_kernels is not None else total
        if per_client < 1 or total < 1:
            parser.error("--kernels-per-client and --max-kernels must be at least 1")
        code = class_code_for(args.ip, args.class_code)
        if code is None:
            parser.error("--class-code takes letters and digits only (or 'none')")
        cmd = voila_command(
            app_notebook(),
            args.port,
            not args.no_browser,
            args.ip,
            args.class_size,
            (per_client, total),
            args.allow_host,
        )
        if args.class_size is not None or code:
            print(class_banner(args.class_size, args.ip, args.port or 8866, code, (per_client, total)), flush=True)
        from .server import CLASS_CODE_ENV

        env = {k: v for k, v in os.environ.items() if k != CLASS_CODE_ENV}
        if code:
            env[CLASS_CODE_ENV] = code
        os.chdir(_project_root())
        os.execve(cmd[0], cmd, env)
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
