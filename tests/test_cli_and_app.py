"""The console script and the Voilà app it serves (``make app`` runs ``spades-tutor app``)."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import spades_tutor as st
from spades_tutor import cli

ROOT = Path(__file__).resolve().parent.parent


def stop_group(proc: subprocess.Popen[Any]) -> None:
    """SIGTERM a server started in its own session (Voilà shuts its kernels down), SIGKILL after 20 s."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "spades_tutor", *args], capture_output=True, text=True, timeout=60, cwd=ROOT
    )


def test_version_flag_prints_the_package_version() -> None:
    out = run_cli("--version")
    assert out.returncode == 0
    assert out.stdout.strip() == f"spades-tutor {st.__version__}"


def test_deal_command_prints_the_engines_deal_for_the_id() -> None:
    out = run_cli("deal", "4127W", "--preset", "deuces-high")
    assert out.returncode == 0, out.stderr
    rnd = st.Round.from_deal_id(st.Rules.preset("deuces-high"), "4127W")
    for seat in st.Seat:
        assert f"{seat.label:<5} {rnd.hands[seat]}" in out.stdout
    assert "dealer West" in out.stdout


def test_deal_command_rejects_a_bad_deal_id_with_the_input_named() -> None:
    out = run_cli("deal", "42x7")
    assert out.returncode != 0
    assert "42x7" in out.stderr


@pytest.mark.parametrize("deal_id", ["²", "12-34", " 1", "4127W ", "٣", "1" * 19])
def test_deal_command_reads_only_a_documented_deal_id_and_says_so_in_one_line(deal_id: str) -> None:
    """README: "`spades-tutor deal 4127W` prints a deal" -- a deal id is digits, then maybe the dealer."""
    out = run_cli("deal", deal_id)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("spades-tutor: not a deal id"), out.stderr
    assert "Traceback" not in out.stderr


def test_app_serves_the_lesson_app_or_the_engine_tour() -> None:
    notebook = cli.app_notebook(ROOT)
    assert notebook.parent == ROOT / "notebooks"
    assert notebook.name in ("app.ipynb", "00-engine-tour.ipynb")
    cmd = cli.voila_command(notebook, 8899, open_browser=False)
    assert "--Voila.ip=127.0.0.1" in cmd and "--no-browser" in cmd and "--port=8899" in cmd


def test_notebooks_are_stored_without_outputs() -> None:
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = json.loads(path.read_text())
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                assert not cell.get("outputs"), f"{path.name} has stored outputs"
                assert cell.get("execution_count") is None, f"{path.name} has execution counts"


def test_house_rules_doc_names_every_preset_and_flag() -> None:
    doc = (ROOT / "lessons" / "house-rules.md").read_text()
    for name in st.Rules.preset_names():
        assert f"`{name}`" in doc, name
    structural = {"name", "title", "removed", "jokers", "trumps"}
    for field in dataclasses.fields(st.Rules):
        if field.init and field.name not in structural:
            assert f"`{field.name}`" in doc, f"flag {field.name} is not documented"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
def test_spades_tutor_app_renders_the_notebook_with_voila_on_loopback() -> None:
    port = _free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "spades_tutor", "app", "--port", str(port), "--no-browser"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 90
        page = ""
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60) as response:
                    assert response.status == 200
                    page = response.read().decode()
                    break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.5)
        assert page, "Voilà did not answer on 127.0.0.1"
        # the first cell's output, computed by the kernel: the rule set described by the engine
        assert st.Rules.preset("jokers").describe().split(":")[0] in page
        # source code is not served
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/files/notebooks/00-engine-tour.ipynb", timeout=30)
    finally:
        stop_group(proc)


def test_every_lesson_has_a_notebook_for_jupyterlab() -> None:
    from spades_tutor.lessons import load_lessons

    names = {p.name for p in (ROOT / "notebooks").glob("lesson-*.ipynb")}
    expected = {f"lesson-{lesson.number:02d}-{lesson.slug}.ipynb" for lesson in load_lessons()}
    assert names == expected
    for name in sorted(expected):
        number = int(name.split("-")[1])
        source = "".join("".join(c["source"]) for c in json.loads((ROOT / "notebooks" / name).read_text())["cells"])
        assert f"show_lesson({number}," in source, name


def test_binder_pins_every_runtime_dependency_and_installs_the_project() -> None:
    import re
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {re.split(r"[<>=!~ \[]", dep, maxsplit=1)[0].lower() for dep in project["dependencies"]}
    lines = [
        line.strip()
        for line in (ROOT / "binder" / "requirements.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert "." in lines, "binder/requirements.txt must install the project itself"
    pins = dict(line.lower().split("==") for line in lines if line != ".")
    assert wanted <= set(pins), f"not pinned for Binder: {sorted(wanted - set(pins))}"
    assert (ROOT / "binder" / "runtime.txt").read_text().strip() == "python-3.11"


def test_readme_badge_opens_the_app_through_voila_on_binder() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "mybinder.org/v2/gh/" in readme and "urlpath=voila/render/notebooks/app.ipynb" in readme
    assert (ROOT / "notebooks" / "app.ipynb").exists()


def test_class_size_rejects_an_empty_class() -> None:
    out = run_cli("app", "--class-size", "0", "--no-browser")
    assert out.returncode == 2 and "--class-size must be at least 1" in out.stderr


def test_class_server_warms_a_kernel_per_learner_and_gives_each_arrival_a_warm_one() -> None:
    """``spades-tutor app --class-size 3``: three app kernels run the notebook before anyone arrives."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "spades_tutor", "app", "--port", str(port), "--no-browser", "--class-size", "3"],
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True)  # type: ignore[union-attr]
    reader.start()
    try:
        deadline = time.monotonic() + 120
        while not any("Kernel pool of app.ipynb is filled with 3 kernel(s)" in line for line in lines):
            assert time.monotonic() < deadline, "".join(lines[-20:])
            assert proc.poll() is None, "".join(lines[-20:])
            time.sleep(0.2)
        assert any("serving a class of 3" in line for line in lines)
        assert any(f"learners open http://127.0.0.1:{port}/" in line for line in lines)

        def fetch(lesson: int) -> str:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/?lesson={lesson}", timeout=90) as response:
                return response.read().decode()

        with ThreadPoolExecutor(3) as ex:
            pages = list(ex.map(fetch, (1, 2, 3)))
        kernel_ids = {
            json.loads(p.split('<script id="jupyter-config-data" type="application/json">')[1].split("</script>")[0])[
                "kernelId"
            ]
            for p in pages
        }
        assert len(kernel_ids) == 3
        warm = [line for line in lines if "Using pre-heated kernel" in line]
        assert len(warm) == 3 and all(any(k in line for line in warm) for k in kernel_ids)
    finally:
        stop_group(proc)
