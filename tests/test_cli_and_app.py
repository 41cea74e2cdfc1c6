"""The console script and the Voilà app it serves (``make app`` runs ``spades-tutor app``)."""

from __future__ import annotations

import dataclasses
import json
import os
import re
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


@pytest.mark.slow  # a real Voilà server running the app notebook in three kernels: seconds of CPU each
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


# --- the app's own server (spades_tutor.server): the guards, without a browser ---------------------------


def _legacy_frame(msg: dict[str, Any], *buffers: bytes) -> bytes:
    """A binary kernel-websocket message in the legacy framing, as jupyter_server writes it."""
    from jupyter_server.services.kernels.connection.base import serialize_binary_message

    return bytes(serialize_binary_message({**msg, "buffers": list(buffers)}))


def test_a_legacy_framed_message_is_read_in_its_own_framing_and_never_as_v1() -> None:
    """Voilà read this message as v1: an offset count of about 10^17, a loop that froze the server."""
    from spades_tutor.server import binary_message_header

    frame = _legacy_frame({"header": {"msg_type": "comm_msg", "msg_id": "1"}, "content": {}}, b"\x00" * 64)
    assert int.from_bytes(frame[:8], "little") > 10**15  # what Voilà's reader took for a count
    started = time.perf_counter()
    assert binary_message_header(frame, v1=True) is None
    assert binary_message_header(frame, v1=False) == {"msg_type": "comm_msg", "msg_id": "1"}
    assert time.perf_counter() - started < 0.1


def test_a_v1_framed_message_is_read_and_hostile_frames_are_refused_at_once() -> None:
    from jupyter_server.services.kernels.connection.base import serialize_msg_to_ws_v1

    from spades_tutor.server import binary_message_header

    parts = [json.dumps(p).encode() for p in ({"msg_type": "execute_input"}, {}, {}, {})]
    frame = serialize_msg_to_ws_v1([*parts, b"xyz"], "iopub")
    assert binary_message_header(frame, v1=True) == {"msg_type": "execute_input"}
    hostile = [
        b"",
        b"\xff" * 8,
        (2**62).to_bytes(8, "little") + b"\x00" * 64,
        (3).to_bytes(8, "little") + (10**12).to_bytes(8, "little") * 3,
        (2**31).to_bytes(4, "big") + b"\x00" * 16,
        (1).to_bytes(4, "big") + (10**9).to_bytes(4, "big") + b"{}",
        (1).to_bytes(4, "big") + (8).to_bytes(4, "big") + b"[1, 2]",
    ]
    started = time.perf_counter()
    for data in hostile:
        assert binary_message_header(data, v1=True) is None
        assert binary_message_header(data, v1=False) is None
    assert time.perf_counter() - started < 0.1


def _guard(**kw: Any) -> Any:
    from spades_tutor.server import Guard

    options: dict[str, Any] = {
        "allowed_hosts": [],
        "allow_local_addresses": False,
        "class_code": "",
        "kernels_per_client": 2,
        "max_kernels": 3,
    }
    return Guard(**{**options, **kw})


def test_kernels_are_bounded_per_client_and_in_all_and_freed_kernels_count_no_more() -> None:
    guard = _guard()
    assert guard.reserve("10.0.0.1") is None
    guard.owners["k1"] = "10.0.0.1"
    guard.unreserve("10.0.0.1")
    assert guard.reserve("10.0.0.1") is None  # a second page, still rendering
    assert guard.reserve("10.0.0.1") == "client"
    assert guard.reserve("10.0.0.2") is None
    assert guard.reserve("10.0.0.3") == "total"
    guard.prune(["k9"])  # k1 was shut down (tab closed or culled)
    assert guard.held_by("10.0.0.1") == 1 and guard.held() == 2
    assert guard.reserve("10.0.0.3") is None


def test_the_host_check_accepts_loopback_and_the_served_names_only() -> None:
    guard = _guard(allowed_hosts=["tutor.school.lan"])
    for host in ("127.0.0.1:8866", "localhost", "LOCALHOST:1", "[::1]:8866", "127.0.0.9", "tutor.school.lan:8866"):
        assert guard.host_allowed(host), host
    for host in ("", "evil.example", "127.0.0.1.nip.io", "localhost.evil.example", "tutor.school.lan.evil.example"):
        assert not guard.host_allowed(host), host
    # a server on every interface also answers to its own addresses (and no one else's)
    address = socket.gethostbyname(socket.gethostname())
    wide = _guard(allow_local_addresses=True)
    assert wide.host_allowed(f"{address}:8866")
    assert not wide.host_allowed("192.0.2.77:8866") and not _guard().host_allowed("192.0.2.77")


def test_the_class_code_is_compared_as_typed_and_its_cookie_is_not_the_code() -> None:
    guard = _guard(class_code="k7m2qx")
    assert guard.code_required
    assert guard.code_matches("K7M2QX") and guard.code_matches("k7m-2qx ")
    assert not guard.code_matches("K7M2QY") and not guard.code_matches("") and not guard.code_matches("K7M2QX1")
    assert "K7M2QX" not in guard.cookie_value.upper()
    assert guard.cookie_matches(guard.cookie_value) and not guard.cookie_matches(None)
    assert not guard.cookie_matches(_guard(class_code="OTHER1").cookie_value)
    # the cookie is keyed by a secret drawn at each start: another start's cookie (or one computed from a
    # guessed code) does not match, and a cookie does not tell the code without the secret
    assert not guard.cookie_matches(_guard(class_code="K7M2QX").cookie_value)
    secret = b"s" * 32
    assert (
        _guard(class_code="K7M2QX", secret=secret).cookie_value
        == _guard(class_code="K7M2QX", secret=secret).cookie_value
    )
    assert not _guard().code_required


def test_the_app_command_runs_the_guarded_server_with_kernel_bounds_sized_from_the_class() -> None:
    cmd = cli.voila_command(cli.app_notebook(ROOT), 8899, open_browser=False, ip="0.0.0.0", class_size=30)
    assert cmd[1:3] == ["-m", "spades_tutor.server"]
    assert "--TutorVoila.kernels_per_client=3" in cmd and "--TutorVoila.max_kernels=36" in cmd
    alone = cli.voila_command(cli.app_notebook(ROOT), 8899, open_browser=False)
    assert "--TutorVoila.max_kernels=8" in alone and "--Voila.ip=127.0.0.1" in alone
    # one person on loopback is one client: a fourth tab of the same learner is not refused
    assert "--TutorVoila.kernels_per_client=8" in alone
    assert not any("class_code" in a for a in cmd + alone)  # the code travels in the environment, not in `ps`
    hosts = cli.voila_command(cli.app_notebook(ROOT), None, False, "0.0.0.0", None, None, ["a.lan", "b.lan"])
    from spades_tutor.server import TutorVoila

    app = TutorVoila()
    app.parse_command_line(hosts[3:])
    assert app.allowed_hosts == ["a.lan", "b.lan"] and app.ip == "0.0.0.0"
    assert (app.kernels_per_client, app.max_kernels) == cli.kernel_limits(None, "0.0.0.0") == (3, 8)


def test_a_class_off_loopback_gets_a_code_in_the_link_and_loopback_stays_open() -> None:
    assert cli.class_code_for("127.0.0.1", None) == ""
    codes = {cli.class_code_for("0.0.0.0", None) for _ in range(20)}
    assert len(codes) == 20 and all(c and len(c) == 6 and c.isalnum() for c in codes)
    assert cli.class_code_for("0.0.0.0", "ab-12cd") == "AB12CD"
    assert cli.class_code_for("0.0.0.0", "<script>") is None
    banner = cli.class_banner(30, "0.0.0.0", 8866, "AB12CD", (3, 36))
    assert ":8866/?code=AB12CD " in banner and "at most 3 open tabs per computer and 36 in all" in banner
    assert "?code=" not in cli.class_banner(30, "127.0.0.1", 8866, "", (3, 36))


@pytest.mark.slow
def test_the_app_command_on_every_interface_prints_a_link_with_a_fresh_class_code(tmp_path: Path) -> None:
    """A link for each of this machine's addresses on a network, the host name only where it resolves to one,
    and the first link's QR code in the console and as an SVG file (under TMPDIR)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "spades_tutor", "app", "--port", str(_free_port()), "--no-browser", "--ip", "0.0.0.0"],
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "TMPDIR": str(tmp_path)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    try:
        for line in proc.stdout:  # type: ignore[union-attr]
            if line.startswith("[TutorVoila]"):  # the banner is over: Voilà's own log begins
                break
            lines.append(line)
    finally:
        stop_group(proc)
    assert re.search(r"learners open http://\S+:\d+/\?code=[A-Z0-9]{6} ", lines[0]), lines
    links = [
        m.group(1) for line in lines if (m := re.search(r"(?:learners open|   or) http://([^/:]+):\d+/\?code=", line))
    ]
    addresses = {address for address, _ in cli.room_addresses()}
    named = cli.reachable_host_name()
    if addresses:
        assert set(links) == addresses | ({named} if named else set()), lines
        # a name this machine alone resolves (or only to loopback) is no link for the room
        if named is None:
            assert not any(f"//{socket.gethostname()}:" in line for line in lines), lines
        first = lines[0].split()[3]
        svg = next(
            m.group(1) for line in lines if (m := re.search(r"the QR code of .* to show the room: (\S+\.svg)", line))
        )
        assert Path(svg).parent.parent == tmp_path and Path(svg).read_text().count(first) == 2  # title and desc
        assert any("▀" in line or "▄" in line for line in lines)  # the code itself, in the console
    else:  # no network here: this machine's own link, and no QR code for a room
        assert links == ["127.0.0.1"] and not any("QR code" in line for line in lines)


def test_the_class_links_are_the_machines_addresses_and_its_name_only_where_it_resolves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import types

    import psutil

    def nic(family: int, address: str) -> Any:
        return types.SimpleNamespace(family=family, address=address)

    monkeypatch.setattr(
        psutil,
        "net_if_addrs",
        lambda: {
            "lo": [nic(socket.AF_INET, "127.0.0.1")],
            "wg0": [nic(socket.AF_INET, "10.8.0.3")],
            "eth0": [nic(socket.AF_INET6, "fe80::1"), nic(socket.AF_INET, "192.168.1.20")],
            "eth1": [nic(socket.AF_INET, "169.254.7.7")],  # link-local: no network's own
        },
    )
    monkeypatch.setattr(cli, "_outgoing_address", lambda: "192.168.1.20")
    assert cli.room_addresses() == [("192.168.1.20", "eth0"), ("10.8.0.3", "wg0")]

    monkeypatch.setattr(socket, "gethostname", lambda: "vm")
    resolves: dict[str, Any] = {}

    def getaddrinfo(host: str, *args: Any) -> Any:
        if host not in resolves:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (resolves[host], 0))]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    assert cli.reachable_host_name() is None  # the room's computers cannot know it either
    resolves["vm"] = "127.0.1.1"
    assert cli.reachable_host_name() is None  # this machine's own idea of itself
    resolves["vm"] = "192.168.1.20"
    assert cli.reachable_host_name() == "vm"

    links = cli.class_links("0.0.0.0", 8866, "K7M2QX", addresses=cli.room_addresses(), host_name=None)
    assert links == [
        ("http://192.168.1.20:8866/?code=K7M2QX", "on this machine's network eth0"),
        ("http://10.8.0.3:8866/?code=K7M2QX", "on this machine's network wg0"),
    ]
    named = cli.class_links("::", 8866, "K7M2QX", addresses=[], host_name="vm", allowed_hosts=["tutor.school.lan"])
    assert [url for url, _ in named] == ["http://tutor.school.lan:8866/?code=K7M2QX", "http://vm:8866/?code=K7M2QX"]
    one = cli.class_links("192.168.1.20", 9000, "K7M2QX", addresses=[("10.8.0.3", "wg0")], host_name="vm")
    assert one == [("http://192.168.1.20:9000/?code=K7M2QX", "the address given with --ip")]
    banner = cli.class_banner(2, "0.0.0.0", 8866, "K7M2QX", (3, 6), links)
    assert "learners open http://192.168.1.20:8866/?code=K7M2QX (on this machine's network eth0)" in banner
    assert "           or http://10.8.0.3:8866/?code=K7M2QX (on this machine's network wg0)" in banner
    assert "//vm:" not in banner


def test_the_class_link_s_qr_code_is_written_as_an_svg_that_names_the_link(tmp_path: Path) -> None:
    url = "http://192.168.1.20:8866/?code=K7M2QX"
    text, path = cli.class_link_qr(url, tmp_path / "qr", 8866)
    assert path == tmp_path / "qr" / "class-link-8866.svg"
    svg = path.read_text()
    assert svg.startswith("<?xml") and "<svg" in svg and f"<title>Class link: {url}</title>" in svg
    lines = text.splitlines()
    assert len(lines) > 10 and len({len(line) for line in lines}) == 1  # a square of half blocks
    other, _ = cli.class_link_qr(url.replace("K7M2QX", "K7M2QY"), tmp_path / "qr", 8867)
    assert other != text


@pytest.mark.slow  # a real class server, warming two app kernels
def test_the_class_server_says_no_warnings_and_its_page_without_the_code_takes_it_typed() -> None:
    """``make class``'s console had a traitlets DeprecationWarning and a "Notebook app.ipynb is not trusted"
    per kernel warmed; a learner without the link types the code into the page's form (GET, no script)."""
    import http.client
    import threading

    port = _free_port()
    cmd = [sys.executable, "-m", "spades_tutor", "app", "--port", str(port), "--no-browser", "--class-size", "2"]
    proc = subprocess.Popen(
        [*cmd, "--ip", "127.0.0.1", "--class-code", "ROOM42"],
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

    def get(path: str, cookie: str = "") -> tuple[int, dict[str, str], str]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=90)
        try:
            conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
            response = conn.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read().decode()
        finally:
            conn.close()

    try:
        deadline = time.monotonic() + 120
        while not any("Kernel pool of app.ipynb is filled with 2 kernel(s)" in line for line in lines):
            assert time.monotonic() < deadline, "".join(lines[-20:])
            assert proc.poll() is None, "".join(lines[-20:])
            time.sleep(0.2)
        status, _, page = get("/?lesson=3")
        assert status == 403 and "Ask your teacher for the class link" in page
        assert '<html lang="en">' in page and "<h1>" in page
        form = re.search(r'<form method="get" action="">(.*?)</form>', page, re.S)
        assert form, page
        assert re.search(r'<label for="code">[^<]*<input id="code" name="code"', form.group(1))
        assert '<button type="submit">' in form.group(1)
        # the form sends ?code=<typed> to the page's own address: a wrong code is told so, with the box again
        status, _, page = get("/?code=ROOM43")
        assert status == 403 and "That is not the class code" in page and "Check the code with your teacher" in page
        assert 'name="code"' in page and "jupyter-config-data" not in page
        status, headers, _ = get("/?code=room42")  # typed in lower case
        assert status == 302 and headers["location"] == "/"
        status, _, page = get("/", cookie=headers["set-cookie"].split(";")[0])
        assert status == 200 and "jupyter-config-data" in page
        time.sleep(2)  # what the page's render logs
    finally:
        stop_group(proc)
    reader.join(timeout=10)
    console = "".join(lines)
    assert "Using pre-heated kernel" in console
    assert "DeprecationWarning" not in console and "Warning:" not in console, console
    assert "not trusted" not in console, console


def test_wrong_class_codes_slow_one_computer_down_and_never_lock_out_the_right_code_elsewhere() -> None:
    from spades_tutor.server import CODE_TRIES_BURST, CODE_TRY_INTERVAL_S, SERVER_TRIES_BURST

    guard = _guard(class_code="K7M2QX")
    start = time.monotonic()
    for _ in range(CODE_TRIES_BURST):
        assert guard.code_try_wait("10.0.0.5", now=start) == 0
        guard.wrong_code("10.0.0.5", now=start)
    # the guesser waits a couple of seconds per try, not ten minutes
    wait = guard.code_try_wait("10.0.0.5", now=start)
    assert 0 < wait <= CODE_TRY_INTERVAL_S
    assert guard.code_try_wait("10.0.0.5", now=start + wait) == 0
    # another computer is not slowed down by it
    assert guard.code_try_wait("10.0.0.6", now=start) == 0
    # guessing from many addresses at once is bounded by the server's own rate
    crowd = _guard(class_code="K7M2QX")
    for i in range(SERVER_TRIES_BURST):
        crowd.wrong_code(f"10.1.{i // 250}.{i % 250}", now=start)
    assert crowd.code_try_wait("10.9.9.9", now=start) > 0
    assert crowd.code_try_wait("10.9.9.9", now=start + 1) == 0


def test_a_second_tab_does_not_take_a_place_kept_for_the_class() -> None:
    guard = _guard(kernels_per_client=3, max_kernels=8, class_size=4)
    granted = []
    for client in ("10.0.0.1", "10.0.0.2", "10.0.0.3"):
        for _ in range(3):
            granted.append(guard.reserve(client))
    # three computers asking three times each leave a place for the class's fourth learner
    assert granted.count("class") == 2 and guard.held() == 7
    assert guard.reserve("10.0.0.4") is None
    assert guard.reserve("10.0.0.5") == "total"
    # without a class size, second tabs take what is left, as before
    free = _guard(kernels_per_client=3, max_kernels=8)
    assert [free.reserve(c) for c in ("10.0.0.1",) * 3 + ("10.0.0.2",) * 3 + ("10.0.0.3",) * 3].count(None) == 8


def test_a_kernel_whose_page_never_connects_is_found_unused() -> None:
    from spades_tutor.server import RECLAIM_UNCONNECTED_S

    guard = _guard()
    guard.handed("k1", "10.0.0.1", now=0.0)
    guard.handed("k2", "10.0.0.2", now=0.0)
    assert guard.unused({"k2": 1}, now=RECLAIM_UNCONNECTED_S - 1) == []
    assert guard.unused({"k2": 1}, now=RECLAIM_UNCONNECTED_S) == ["k1"]
    # a page that closed its websocket gets the same time to come back
    assert guard.unused({}, now=RECLAIM_UNCONNECTED_S + 1) == ["k1"]
    assert guard.unused({}, now=2 * RECLAIM_UNCONNECTED_S) == ["k1", "k2"]


def test_readme_tells_a_teacher_about_the_network() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Serving a class", 1)[1].split("\n## ", 1)[0]
    for needed in (
        "127.0.0.1",
        "0.0.0.0",
        "?code=",
        "CLASS_CODE=",
        "--class-code",
        "Host",
        "--allow-host",
        "--kernels-per-client",
        "--max-kernels",
        "Too many open tabs from this computer",
        "Ask your teacher for the class link",
        "| server | one learner |",  # the measured table stays
    ):
        assert needed in section, needed
