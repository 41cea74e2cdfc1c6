"""The two commands of the README: ``make app`` installs only the app, ``make test`` adds the test tools.

The Makefile is read by ``make`` itself (``make -n`` prints what a target would run on a fresh
machine, without running it), so these pin what really happens, not the Makefile's text.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEST_TOOLS = ("pytest", "ruff", "mypy", "playwright", "open-spiel", "hypothesis", "nbval")

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def dry_run(target: str, venv: Path) -> list[str]:
    """The commands ``make <target>`` would run with an empty virtual environment at ``venv``."""
    out = subprocess.run(
        ["make", "-n", target, f"VENV={venv}"], cwd=ROOT, capture_output=True, text=True, check=True, timeout=30
    )
    return out.stdout.splitlines()


def installs(lines: list[str]) -> list[str]:
    """What each ``pip install`` (but the upgrade of pip) is asked to install: the words after ``install``."""
    return [
        line.split(" pip install ", 1)[1] for line in lines if " pip install " in line and "--upgrade pip" not in line
    ]


def test_make_app_installs_the_app_without_the_test_tools(tmp_path: Path) -> None:
    lines = dry_run("app", tmp_path / "venv")
    assert installs(lines), "make app installs the package"
    for line in installs(lines):
        assert "[test]" not in line and not any(tool in line for tool in TEST_TOOLS), line
    assert any("spades-tutor app" in line for line in lines)


def test_make_test_installs_the_test_tools_once_on_top_of_the_app(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    lines = dry_run("test", venv)
    pip = installs(lines)
    assert len(pip) == 2 and "[test" not in pip[0] and "'.[test,hub]'" in pip[1], pip
    # each install has its own stamp: once both exist, neither runs again
    stamps = [line.split()[-1] for line in lines if line.startswith("touch ")]
    assert len(stamps) == 2 and len(set(stamps)) == 2
    venv.mkdir()
    for stamp in stamps:
        Path(stamp).touch()
    assert not installs(dry_run("test", venv)) and not installs(dry_run("app", venv))


def test_the_app_stamp_alone_does_not_skip_the_test_tools(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    stamps = [line.split()[-1] for line in dry_run("app", venv) if line.startswith("touch ")]
    venv.mkdir()
    for stamp in stamps:
        Path(stamp).touch()
    assert not installs(dry_run("app", venv))
    assert any("[test," in line for line in installs(dry_run("test", venv)))


def test_make_test_installs_the_hubs_proxy_from_npms_lock_file_and_make_app_does_not(tmp_path: Path) -> None:
    def would_run(target: str) -> list[str]:
        # -W: as if package-lock.json had just changed, which on a fresh clone (no node_modules/) it has
        out = subprocess.run(
            ["make", "-n", "-W", "package-lock.json", target, f"VENV={tmp_path / 'venv'}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        )
        return out.stdout.splitlines()

    assert "npm ci --no-audit --no-fund" in would_run("test")
    assert not any(line.startswith("npm ") for line in would_run("app"))


def installed(tmp_path: Path) -> Path:
    """A virtual environment at ``tmp_path`` whose install stamps exist, as after a first ``make test``."""
    venv = tmp_path / "venv"
    stamps = [line.split()[-1] for line in dry_run("test", venv) if line.startswith("touch ")]
    venv.mkdir()
    for stamp in stamps:
        Path(stamp).touch()
    return venv


def pytest_runs(lines: list[str]) -> list[list[str]]:
    """The arguments of each pytest run among ``lines``, the recipe's lines as ``make -n`` prints them
    (a shell command may go on over lines ending in a backslash, and hold commands joined by ``;`` or ``||``)."""
    runs = []
    for command in re.split(r";|\|\||\n", "\n".join(lines).replace("\\\n", " ")):
        words = shlex.split(command)
        if "pytest" in words and "-m" in words[: words.index("pytest")]:  # python -m pytest
            runs.append(words[words.index("pytest") + 1 :])
    return runs


def marker_expression(run: list[str]) -> str:
    return run[run.index("-m") + 1] if "-m" in run else ""


def selects(expression: str, marks: set[str]) -> bool:
    """Whether ``pytest -m expression`` runs a test with ``marks`` (markers: and, or, not, names, brackets)."""
    names = {name: name in marks for name in re.findall(r"\b(?!and\b|or\b|not\b)\w+", expression)}
    return not expression or bool(
        eval(expression, {"__builtins__": {}}, names)
    )  # the expression holds only names and words


def test_make_check_lints_types_and_runs_the_quick_tests_as_make_test_spreads_them(tmp_path: Path) -> None:
    lines = dry_run("check", installed(tmp_path))
    assert not installs(lines) and not any(line.startswith("npm ") for line in lines)
    assert any(line.endswith("ruff check spades_tutor tests bench") for line in lines)
    assert any(line.endswith("ruff format --check spades_tutor tests bench") for line in lines)
    assert any(line.endswith("/mypy") for line in lines)
    (run,) = pytest_runs(lines)
    assert marker_expression(run) == "not browser and not slow"
    assert "-n" in run, run  # spread over the cores
    assert "--hypothesis-profile=quick" in run, run  # a quarter of the examples (tests/property_examples.py)


def test_make_test_runs_every_test_exactly_once_and_the_browser_tests_a_file_to_a_worker(tmp_path: Path) -> None:
    runs = [run for run in pytest_runs(dry_run("pytest", installed(tmp_path))) if "--nbval-lax" not in run]
    assert len(runs) >= 3
    for marks in (
        {"browser"},
        {"browser", "slow"},
        {"browser", "timed"},
        {"browser", "timed", "slow"},
        {"slow"},
        set(),
    ):
        chosen = [marker_expression(run) for run in runs if selects(marker_expression(run), marks)]
        assert len(chosen) == 1, (marks, chosen)
    for run in runs:
        if selects(marker_expression(run), {"browser"}) or selects(marker_expression(run), {"browser", "timed"}):
            assert run[run.index("--dist") + 1] == "loadfile", run  # a file's servers and Chromium on one worker
        assert not any(word.startswith("--hypothesis-profile") for word in run), run  # every example tried
