"""The ``spades-tutor`` command: ``--version``, ``app`` (serve the lesson app) and ``deal``."""

from __future__ import annotations

import argparse
import contextlib
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


# A class arrives within a minute: refill the pool only once no kernel has been handed out for this
# long, one kernel at a time (spades_tutor.kernel_pool), so refills do not compete with the learners'
# own pages for the CPU (bench/classroom.py measured it).
CLASS_FILL_DELAY = 20.0


def app_pool_option(size: int) -> str:
    """The option of the app's server that gives ``app.ipynb`` a pool of ``size`` warm kernels, keeping
    ``voila.json``'s other pools (``TutorVoila.app_pool_size``).

    >>> app_pool_option(4)
    '--TutorVoila.app_pool_size=4'
    """
    return f"--TutorVoila.app_pool_size={size}"


def class_options(size: int) -> list[str]:
    """Options of the app's server (:mod:`spades_tutor.server`) for serving a class of ``size`` learners at once.

    A pool of ``size`` preheated app kernels (each runs the app notebook up to the learner's
    request, so a page opens without starting Python), refilled one kernel at a time once none
    has been taken for ``CLASS_FILL_DELAY`` seconds. The other pools and the culling settings stay as ``voila.json``
    has them.

    >>> class_options(30)
    ['--TutorVoila.app_pool_size=30', '--VoilaKernelManager.fill_delay=20.0']
    """
    if size < 1:
        raise ValueError(f"a class has at least one learner, not {size}")
    return [app_pool_option(size), f"--VoilaKernelManager.fill_delay={CLASS_FILL_DELAY}"]


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


#: the addresses a server listening on every interface is reached by
WILDCARDS = ("0.0.0.0", "::", "")


def _outgoing_address() -> str | None:
    """The IPv4 address this machine's default route leaves from (UDP: choosing it sends nothing), if any."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.254.254.254", 9))
            return str(s.getsockname()[0])
        except OSError:
            return None


def room_addresses() -> list[tuple[str, str]]:
    """This machine's IPv4 addresses another computer can reach it by, each with its interface's name.

    Loopback, link-local (169.254.x.x, no network's own) and unspecified addresses are left out;
    the address of the default route comes first (the room's network, most likely).
    """
    import ipaddress
    import socket

    import psutil  # type: ignore[import-untyped]

    found: list[tuple[str, str]] = []
    for interface, addresses in sorted(psutil.net_if_addrs().items()):
        for address in addresses:
            if address.family != socket.AF_INET:
                continue
            ip = ipaddress.ip_address(address.address)
            if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified) and address.address not in dict(found):
                found.append((address.address, interface))
    primary = _outgoing_address()
    return sorted(found, key=lambda found_address: found_address[0] != primary)


def reachable_host_name() -> str | None:
    """This machine's host name, if it resolves here to an address other computers can reach.

    A name that does not resolve, or resolves to loopback only (``127.0.1.1``, as many systems set
    up their own name), is no link for a room: None.
    """
    import ipaddress
    import socket

    name = socket.gethostname()
    try:
        infos = socket.getaddrinfo(name, None, socket.AF_INET)
    except (OSError, UnicodeError):
        return None
    if any(not ipaddress.ip_address(info[4][0]).is_loopback for info in infos):
        return name
    return None


def class_links(
    ip: str,
    port: int,
    code: str,
    *,
    addresses: list[tuple[str, str]],
    host_name: str | None,
    allowed_hosts: list[str] | None = None,
) -> list[tuple[str, str]]:
    """The links to the app a learner can open, each with what it is: (url, label).

    On every interface (``0.0.0.0``): the names given with ``--allow-host``, then each of
    ``addresses`` (this machine's, on its networks), then ``host_name`` (when it resolves). On one
    address: that address, then the ``--allow-host`` names.

    >>> class_links("0.0.0.0", 8866, "K7M2QX", addresses=[("192.168.1.20", "eth0")], host_name=None)
    [('http://192.168.1.20:8866/?code=K7M2QX', "on this machine's network eth0")]
    >>> class_links("10.0.0.5", 8866, "K7M2QX", addresses=[("192.168.1.20", "eth0")], host_name="tutor")[0][0]
    'http://10.0.0.5:8866/?code=K7M2QX'
    >>> class_links("127.0.0.1", 9000, "", addresses=[], host_name=None)
    [('http://127.0.0.1:9000/', 'this machine only')]
    """
    query = f"?code={code}" if code else ""

    def url(host: str) -> str:
        return f"http://{f'[{host}]' if ':' in host else host}:{port}/{query}"

    given = [(url(host), "the name given with --allow-host") for host in allowed_hosts or []]
    if ip not in WILDCARDS:
        return [(url(ip), "this machine only" if is_loopback(ip) else "the address given with --ip"), *given]
    links = given + [(url(address), f"on this machine's network {interface}") for address, interface in addresses]
    if host_name:
        links.append((url(host_name), "by this machine's name, if the room's computers know it"))
    return links or [(url("127.0.0.1"), "this machine only: it has no address on a network")]


def class_banner(
    size: int | None,
    ip: str,
    port: int,
    code: str = "",
    limits: tuple[int, int] | None = None,
    links: list[tuple[str, str]] | None = None,
) -> str:
    """What the teacher reads when the server starts: when it is ready, and the links to give out.

    ``links`` (from :func:`class_links`) default to this machine's own addresses and name.
    """
    if links is None:
        wide = ip in WILDCARDS
        links = class_links(
            ip,
            port,
            code,
            addresses=room_addresses() if wide else [],
            host_name=reachable_host_name() if wide else None,
        )
    lines = []
    if size is not None:
        lines.append(
            f"spades-tutor: serving a class of {size}. Warming {size} app kernels (about half a second each);"
            f" the class can come in once Voilà logs 'Kernel pool of app.ipynb is filled'."
        )
    for i, (url, label) in enumerate(links):
        lines.append(f"spades-tutor: {'learners open' if i == 0 else '           or'} {url} ({label})")
    if code:
        lines.append(
            f"spades-tutor: class code {code}: the link{'s' if len(links) > 1 else ''} above carr"
            f"{'y' if len(links) > 1 else 'ies'} it; without it a learner sees"
            " 'Ask your teacher for the class link' and a box to type it."
        )
    if limits is not None:
        lines.append(
            f"spades-tutor: at most {limits[0]} open tabs per computer and {limits[1]} in all"
            " (--kernels-per-client, --max-kernels)."
        )
    return "\n".join(lines)


def qr_folder() -> Path:
    """Where the class link's QR code is written: a folder of this user's under the system's temp dir."""
    import getpass
    import tempfile

    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no name for this user id (a container): the id does
        user = str(os.getuid()) if hasattr(os, "getuid") else "user"
    return Path(tempfile.gettempdir()) / f"spades-tutor-{user}"


def class_link_qr(url: str, folder: Path, port: int) -> tuple[str, Path]:
    """The QR code of ``url``: as text for a terminal, and written as ``class-link-<port>.svg`` in ``folder``.

    The SVG carries the link as its title and description (what a screen reader says for it).
    """
    import io

    import segno

    qr = segno.make(url, error="m")
    text = io.StringIO()
    qr.terminal(out=text, compact=True)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / f"class-link-{port}.svg"
    qr.save(str(path), kind="svg", scale=10, border=4, title=f"Class link: {url}", desc=url)
    return text.getvalue(), path


def show_qr(url: str, port: int) -> bool:
    """Print the class link's QR code for the teacher's console and write it as an SVG file, saying where.

    Whether ``url`` is a link for the room (not this machine's loopback, which no other computer can open).
    """
    from urllib.parse import urlsplit

    if is_loopback(urlsplit(url).hostname or ""):
        return False
    try:
        text, path = class_link_qr(url, qr_folder(), port)
    except OSError as e:
        print(f"spades-tutor: the QR code of {url} could not be written: {e}", flush=True)
        return True
    print(
        f"spades-tutor: the QR code of {url}, to show the room: {path} (and on the app's Classroom page)",
        flush=True,
    )
    with contextlib.suppress(UnicodeEncodeError):  # a console that cannot print its blocks: the file has it
        print(text, end="", flush=True)
    return True


#: a class started again within this many hours goes on with the same session (its seats and answers)
RESUME_HOURS = 12.0


def class_session(url: str, new: bool, within_h: float = RESUME_HOURS) -> tuple[int, str]:
    """The class session to serve from the database at ``url``: the latest, if it started within
    ``within_h`` hours and ``new`` is not asked, else a new one; and a line for the teacher saying which.

    >>> import tempfile
    >>> from spades_tutor.session.class_store import default_url
    >>> url = default_url(tempfile.mkdtemp())
    >>> class_session(url, new=False)[0], class_session(url, new=False)[0], class_session(url, new=True)[0]
    (1, 1, 2)
    """
    from .session.class_store import ClassStore

    store = ClassStore(url)
    try:
        latest = None if new else store.latest_session(within_s=within_h * 3600)
        if latest is None:
            session = store.start_session()
            said = f"class session {session}, new"
        else:
            session = latest
            learners, answers = len(store.learners(session)), len(store.answers(session))
            said = (
                f"class session {session}, going on ({learners} learner{'s' if learners != 1 else ''}, "
                f"{answers} answer{'s' if answers != 1 else ''} kept; --new-session for a new one)"
            )
    finally:
        store.close()
    return session, said


def cookie_secret(folder: Path) -> str:
    """The class cookie's secret kept in ``folder`` (made, readable by this user only, if missing), in hex.

    >>> import tempfile
    >>> where = Path(tempfile.mkdtemp())
    >>> first = cookie_secret(where)
    >>> len(first), cookie_secret(where) == first, oct((where / "cookie-secret").stat().st_mode & 0o777)
    (64, True, '0o600')
    """
    import secrets

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "cookie-secret"
    with contextlib.suppress(OSError, ValueError):
        text = path.read_text(encoding="ascii").strip()
        if len(bytes.fromhex(text)) >= 16:
            return text
    text = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(text)
    return text


def shown_url(url: str) -> str:
    """A database URL as the console shows it: without its password.

    >>> shown_url("postgresql://tutor:s3cret@db.school/class")
    'postgresql://tutor:***@db.school/class'
    """
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


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
    app.add_argument(
        "--teacher-code",
        default=None,
        metavar="CODE",
        help="the code of the teacher view's link (default: a new one for each class, printed only here)",
    )
    app.add_argument(
        "--class-data",
        default="class-data",
        metavar="DIR",
        help="the folder of the class's SQLite database (default: ./class-data where the command runs)",
    )
    app.add_argument(
        "--class-db",
        default=None,
        metavar="URL",
        help="the class's database as a SQLAlchemy URL, e.g. postgresql://user@host/db"
        " (default: $SPADES_TUTOR_CLASS_DB, else SQLite in --class-data)",
    )
    app.add_argument(
        "--new-session",
        action="store_true",
        help=f"start a new class session (default: go on with the last one if it started within {RESUME_HOURS:g} h)",
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
        class_link = ""
        if args.class_size is not None or code:
            port = args.port or 8866
            wide = args.ip in WILDCARDS
            links = class_links(
                args.ip,
                port,
                code,
                addresses=room_addresses() if wide else [],
                host_name=reachable_host_name() if wide else None,
                allowed_hosts=args.allow_host,
            )
            print(class_banner(args.class_size, args.ip, port, code, (per_client, total), links), flush=True)
            if not is_loopback(args.ip) and show_qr(links[0][0], port):
                class_link = links[0][0]
        from .server import CLASS_CODE_ENV, COOKIE_SECRET_ENV, TEACHER_CODE_ENV
        from .session.class_store import CLASS_DB_ENV, CLASS_SESSION_ENV, TEACHER_DIGEST_ENV
        from .ui.serving import CLASS_LINK_ENV

        given_db = args.class_db or os.environ.get(CLASS_DB_ENV, "")
        ours = {CLASS_CODE_ENV, CLASS_LINK_ENV, TEACHER_CODE_ENV, CLASS_DB_ENV, CLASS_SESSION_ENV, TEACHER_DIGEST_ENV}
        ours.add(COOKIE_SECRET_ENV)
        env = {k: v for k, v in os.environ.items() if k not in ours}
        if code:
            env[CLASS_CODE_ENV] = code
        if class_link:
            env[CLASS_LINK_ENV] = class_link
        if args.class_size is not None or code:  # a class: its database, its session, the teacher view
            from .server import new_class_code, normalise_code
            from .session.class_store import default_url

            teacher = normalise_code(args.teacher_code) if args.teacher_code else new_class_code()
            if not (teacher.isascii() and teacher.isalnum() and 4 <= len(teacher) <= 64) or teacher == code:
                parser.error("--teacher-code takes letters and digits only, and is not the class code")
            url = given_db or default_url(Path(args.class_data))
            try:
                session, said = class_session(url, args.new_session)
            except Exception as e:  # a URL no database answers: said plainly, before any kernel starts
                parser.error(f"the class database {shown_url(url)} could not be opened: {e}")
            port = args.port or 8866
            query = f"?code={code}&teacher={teacher}" if code else f"?teacher={teacher}"
            host = "127.0.0.1" if args.ip in WILDCARDS or is_loopback(args.ip) else args.ip
            print(
                f"spades-tutor: the class's answers are kept in {shown_url(url)} ({said}); delete a session's"
                " data from the teacher view, or the whole folder when the class is over.\n"
                f"spades-tutor: teacher view, for you only (do not project this line): http://{host}:{port}/{query}",
                flush=True,
            )
            env[TEACHER_CODE_ENV] = teacher
            # the cookie a learner was given survives a restart with the same class code
            env[COOKIE_SECRET_ENV] = cookie_secret(Path(args.class_data).resolve())
            env[CLASS_DB_ENV] = url
            env[CLASS_SESSION_ENV] = str(session)
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
