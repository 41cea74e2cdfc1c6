"""The ``spades-tutor`` command: ``--version``, ``app`` (serve the lesson app) and ``deal``."""

from __future__ import annotations

import argparse
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


def voila_command(notebook: Path, port: int | None, open_browser: bool) -> list[str]:
    args = [sys.executable, "-m", "voila", str(notebook), "--Voila.ip=127.0.0.1"]
    if port is not None:
        args.append(f"--port={port}")
    if not open_browser:
        args.append("--no-browser")
    return args


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="spades-tutor", description="Learn Spades with Jokers.")
    parser.add_argument("--version", action="version", version=f"spades-tutor {__version__}")
    sub = parser.add_subparsers(dest="command")
    app = sub.add_parser("app", help="serve the lesson app with Voilà on 127.0.0.1")
    app.add_argument("--port", type=int, default=None, help="port (default: Voilà's 8866)")
    app.add_argument("--no-browser", action="store_true", help="do not open a browser tab")
    deal = sub.add_parser("deal", help="print a seeded deal")
    deal.add_argument("deal_id", help="a deal id such as 4127 or 4127W")
    deal.add_argument("--preset", default="jokers", help="rule set (default: jokers)")
    args = parser.parse_args(argv)

    if args.command == "app":
        cmd = voila_command(app_notebook(), args.port, not args.no_browser)
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
