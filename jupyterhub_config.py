# JupyterHub for many classes: each learner logs in and gets a Jupyter server of their own, cut down to the
# app (Voilà's server extension and spades_tutor's, nothing else: see spades_tutor/learner_server.py), and
# lands on the app at /user/<name>/voila/render/notebooks/app.ipynb.
#
# Set up and start it (from a checkout, after `make install-test` or `pip install -e '.[hub]'` and `npm ci`):
#
#     SPADES_HUB_AUTHENTICATOR=dummy SPADES_HUB_SPAWNER=simple .venv/bin/jupyterhub -f jupyterhub_config.py
#
# That pair (any user name, any password; servers as processes of the hub's own user, homes under a temp
# folder; no memory or CPU limit) is for trying it on one machine and for tests/browser/test_hub.py only:
# it isolates nobody, and it starts only on a loopback address.
# A school sets, through the environment (each one optional unless said):
#
#   SPADES_HUB_AUTHENTICATOR  who may log in (default "pam": the machine's accounts). Any JupyterHub
#                             authenticator by its short name or class, e.g. "shared-password" (one class
#                             password, SPADES_HUB_PASSWORD, at least 8 characters), "oauthenticator.
#                             GoogleOAuthenticator" or "ldapauthenticator.LDAPAuthenticator" (pip install them)
#   SPADES_HUB_ALLOWED_USERS  comma-separated user names allowed in
#   SPADES_HUB_ALLOWED_GROUPS comma-separated groups of the machine whose members are allowed in (PAM)
#   SPADES_HUB_ALLOW_ALL      "yes": everyone the authenticator lets in (an OAuth one kept to the school's
#                             domain, say). With "pam" one of the two lists is required (the hub refuses to
#                             start without: every account of the machine is not a class); "dummy" and
#                             "shared-password" let in everyone who logs in (the password is the class's key)
#   SPADES_HUB_SPAWNER        where learners' servers run (default "localprocess": one Unix account each);
#                             "systemd" or "docker" for enforced limits (below, recommended for real classes)
#   SPADES_HUB_MEM_LIMIT, SPADES_HUB_CPU_LIMIT   one learner's memory and CPUs (default 1G and 1), enforced
#                             by "systemd" and "docker" (and KubeSpawner), not by the local spawners
#   SPADES_HUB_KERNELS_PER_LEARNER   tabs of the app one learner may have open at once (default 3)
#   SPADES_HUB_URL            the address the hub listens on (default http://127.0.0.1:8000; put TLS in front)
#   SPADES_HUB_SUBDOMAIN_HOST each learner's server on a host of its own, https://<name>.<this host>: e.g.
#                             https://hub.school.example, with a wildcard DNS name and TLS certificate for
#                             *.hub.school.example. Required off loopback (the hub refuses to start without
#                             it): on one origin every learner's page can read and wipe every other learner's
#                             progress (kept in the browser's localStorage, which is per origin), and call
#                             their servers. SPADES_HUB_SHARED_ORIGIN=yes starts it anyway, for a hub whose
#                             learners never share a browser profile and do not attack one another
#   SPADES_HUB_PORT_HUB, SPADES_HUB_PORT_PROXY_API   internal ports (default 8081, 8001, on loopback)
#   SPADES_HUB_DATA           the hub's own folder: database, cookie secret, pid files, all 0600 in a 0700
#                             folder (default $XDG_STATE_HOME/spades-tutor-hub, i.e. ~/.local/state/...);
#                             never inside the folder the learners' servers serve
#   SPADES_HUB_HOMES          the home folders of the "simple" spawner (default /tmp/spades-hub-homes)
#   SPADES_HUB_APP_DIR        the checkout the learners' servers serve (default: this file's folder)
#   SPADES_HUB_IMAGE          the image of the "docker" spawner (default spades-tutor-learner: this project
#                             installed, the checkout at SPADES_HUB_APP_DIR in it)
#   SPADES_HUB_HUB_CONNECT_IP where the "docker" spawner's containers reach the hub (default
#                             host.docker.internal, the host's gateway on Docker's bridge)
#   SPADES_HUB_IDLE_MINUTES   stop a learner's server after this long without activity (default 30)
#   SPADES_HUB_MAX_LEARNERS   servers running at once; one more is told to come back later (default 40)
#   SPADES_HUB_TEACHERS       comma-separated user names of the class's teachers: turns on the class session
#                             behind the hub. Each learner's app joins it (a nickname, as in `make class`) and
#                             sends their answers to it; a teacher opens the teacher view, a service of the
#                             hub's, at <hub>/services/spades-teacher/ (the hub's login; anyone else gets 403)
#   SPADES_HUB_CLASS_DB       where the class's answers are kept, a SQLAlchemy URL (default a SQLite file in
#                             SPADES_HUB_DATA/class, which only servers running as the hub's own user can
#                             write: the "simple" spawner's). Learners' servers running as other users (PAM's
#                             "localprocess", "systemd", "docker", Kubernetes) need a database server:
#                             postgresql://user:password@host/db (pip install psycopg)
#   SPADES_HUB_PORT_TEACHER   the teacher view's internal port (default 8002, on loopback)
#
# Limits: the local spawners ("localprocess", "simple") enforce no memory or CPU limit (a learner's server
# is a plain process), so for real learners run one of these (pip install the one you choose), each of which
# enforces SPADES_HUB_MEM_LIMIT and SPADES_HUB_CPU_LIMIT:
#   - "systemd" (systemdspawner.SystemdSpawner), recommended on one machine: each learner's server in a
#     systemd unit of its own, as a user made for it (DynamicUser: no accounts to create, nothing of
#     another learner's or of the hub's readable), memory, CPU and a cap on processes; the hub runs as
#     root. Several such hubs, one per machine, behind a load balancer that keeps each learner on one.
#   - "docker" (dockerspawner.DockerSpawner): a container per learner from SPADES_HUB_IMAGE; with Docker
#     Swarm, the containers spread over the swarm's machines.
#   - KubeSpawner (kubespawner.KubeSpawner): a pod per learner on a Kubernetes cluster, spread over its
#     nodes by the scheduler; the usual route for many schools (the zero-to-jupyterhub Helm chart).
# Per learner, bench/hub.py measured the server + kernel memory and the time to interactive: see the
# README's "many classes" section.
import ipaddress
import json
import os
import sys
from pathlib import Path
from urllib.parse import urlparse

c = get_config()  # noqa: F821  (JupyterHub defines get_config when it loads this file)

ROOT = Path(__file__).resolve().parent
APP_NOTEBOOK = "notebooks/app.ipynb"
APP_PATH = f"/voila/render/{APP_NOTEBOOK}"


def setting(name: str, default: str) -> str:
    return os.environ.get(f"SPADES_HUB_{name}", "") or default


def names(text: str) -> set[str]:
    return {name.strip() for name in text.split(",") if name.strip()}


def is_loopback(url: str) -> bool:
    """Whether ``url``'s host is this machine only (127.0.0.0/8, ::1, localhost)."""
    host = urlparse(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class HubSettingError(ValueError):
    """A setting (or a missing one) that would put learners at risk: the hub does not start."""


# --- who logs in ------------------------------------------------------------------------------------------
authenticator = setting("AUTHENTICATOR", "pam")
c.JupyterHub.authenticator_class = authenticator
if setting("PASSWORD", ""):
    c.SharedPasswordAuthenticator.user_password = setting("PASSWORD", "")
allowed = names(setting("ALLOWED_USERS", ""))
groups = names(setting("ALLOWED_GROUPS", ""))
if allowed:
    c.Authenticator.allowed_users = allowed
if groups:
    c.LocalAuthenticator.allowed_groups = groups
is_pam = authenticator in ("pam", "default") or authenticator.endswith("PAMAuthenticator")
# these two let in whoever logs in, and that is the point: "dummy" is the loopback test pair, and the class
# password of "shared-password" is the class's key
lets_in_whoever_logs_in = authenticator in ("dummy", "shared-password") or authenticator.endswith(
    ("DummyAuthenticator", "SharedPasswordAuthenticator")
)
if not (allowed or groups):
    if lets_in_whoever_logs_in or (setting("ALLOW_ALL", "") == "yes" and not is_pam):
        c.Authenticator.allow_all = True
    elif is_pam:
        raise HubSettingError(
            "SPADES_HUB_AUTHENTICATOR=pam would let in every account of this machine: say who the learners are"
            " with SPADES_HUB_ALLOWED_USERS (names) or SPADES_HUB_ALLOWED_GROUPS (a group of theirs)"
        )
    else:
        raise HubSettingError(
            f"SPADES_HUB_AUTHENTICATOR={authenticator}: say who may log in with SPADES_HUB_ALLOWED_USERS, or"
            " SPADES_HUB_ALLOW_ALL=yes if the authenticator already keeps everyone else out"
        )
# A link into a learner's server that is not running (a lesson link through /hub/user-redirect/, say, once
# the culler has stopped it) starts it after this many seconds, instead of a page asking them to.
c.JupyterHub.implicit_spawn_seconds = 1
# A learner who logs out on a shared computer keeps their server (a tab elsewhere may still use it);
# the idle culler below frees it.
c.JupyterHub.shutdown_on_logout = False

# --- where the hub listens, and its proxy (configurable-http-proxy from npm, installed by `npm ci`) ------
c.JupyterHub.bind_url = setting("URL", "http://127.0.0.1:8000")
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{setting('PORT_HUB', '8081')}"
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{setting('PORT_PROXY_API', '8001')}"
c.ConfigurableHTTPProxy.command = [str(ROOT / "node_modules" / ".bin" / "configurable-http-proxy")]
# Progress is kept in the browser's localStorage, one store per origin: with every learner's server under
# the hub's one origin (/user/<name>/), a page of one learner's server can read and wipe every other's, and
# call their servers with their cookies. Each server on a host of its own keeps them apart.
subdomain_host = setting("SUBDOMAIN_HOST", "")
if subdomain_host:
    c.JupyterHub.subdomain_host = subdomain_host
elif not is_loopback(c.JupyterHub.bind_url) and setting("SHARED_ORIGIN", "") != "yes":
    raise HubSettingError(
        f"SPADES_HUB_URL={c.JupyterHub.bind_url} is not a loopback address, and without SPADES_HUB_SUBDOMAIN_HOST"
        " every learner's server shares the hub's one origin: any learner's page could read or wipe the others'"
        " progress. Set SPADES_HUB_SUBDOMAIN_HOST=https://hub.your.school (wildcard DNS and certificate for"
        " *.hub.your.school), or SPADES_HUB_SHARED_ORIGIN=yes to accept that"
    )
if "dummy" in authenticator.lower() and not is_loopback(c.JupyterHub.bind_url):
    raise HubSettingError("SPADES_HUB_AUTHENTICATOR=dummy lets in any name with any password: loopback only")

# --- the hub's own files: a folder of its own, 0700, never one the learners' servers serve ------------------
app_dir = Path(setting("APP_DIR", str(ROOT))).resolve()
state_home = Path(os.environ.get("XDG_STATE_HOME", "") or Path.home() / ".local" / "state")
data = Path(setting("DATA", str(state_home / "spades-tutor-hub"))).resolve()
if data == app_dir or app_dir in data.parents:
    raise HubSettingError(
        f"SPADES_HUB_DATA={data} is inside SPADES_HUB_APP_DIR={app_dir}, which every learner's server serves:"
        " keep the hub's database and cookie secret elsewhere"
    )
data.mkdir(mode=0o700, parents=True, exist_ok=True)
data.chmod(0o700)
db_file = data / "jupyterhub.sqlite"
db_file.touch(mode=0o600)  # SQLite creates a database with the umask's mode (0644), and its journals alike
db_file.chmod(0o600)
c.JupyterHub.db_url = f"sqlite:///{db_file}"
c.JupyterHub.cookie_secret_file = str(data / "jupyterhub_cookie_secret")  # JupyterHub writes it 0600
c.JupyterHub.pid_file = str(data / "jupyterhub.pid")
c.ConfigurableHTTPProxy.pid_file = str(data / "jupyterhub-proxy.pid")
# Stopping the hub stops every learner's server and the proxy it started.
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True

# --- each learner's server ------------------------------------------------------------------------------
spawner = setting("SPAWNER", "localprocess")
local = spawner in ("simple", "localprocess", "default") or spawner.endswith("LocalProcessSpawner")
c.JupyterHub.spawner_class = spawner
c.Spawner.default_url = APP_PATH
c.Spawner.notebook_dir = str(app_dir)
# no ~/.jupyter of the learner's account changes what their server loads
c.Spawner.disable_user_config = True
# the server loads the extensions its command line names (below), not every one installed beside it
c.Spawner.environment = {"JUPYTERHUB_SINGLEUSER_LOAD_OTHER_EXTENSIONS": "0"}
if local or spawner in ("systemd", "systemdspawner.SystemdSpawner"):
    # the hub's own Python (the project's venv), whatever PATH the learner's account has
    c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
c.SimpleLocalProcessSpawner.home_dir_template = str(Path(setting("HOMES", "/tmp/spades-hub-homes")) / "{username}")
# The same server settings as Binder's (jupyter_config.json: kernel culling, no tracebacks, no theme or
# template from the URL), given on the command line so they hold wherever the spawner runs the server.
server_config = json.loads((ROOT / "jupyter_config.json").read_text(encoding="utf-8"))
# And, unlike Binder's, the app only (spades_tutor/learner_server.py): no JupyterLab, no terminals, no
# folder listed, no file written, and kernels that take widget messages but no code: otherwise every learner
# runs any code they like on the machine their server runs on.
learner_config: dict[str, dict[str, object]] = {
    "ServerApp": {
        "jpserver_extensions": {
            "voila": True,
            **{
                name: False
                for name in (
                    "jupyterlab",
                    "jupyter_lsp",
                    "jupyter_server_terminals",
                    "notebook",
                    "notebook_shim",
                    "nbclassic",
                    "jupyter_server_ydoc",
                    "jupyter_collaboration",
                    "jupyter_server_fileid",
                    "jupyter_resource_usage",
                )
            },
        },
        "terminals_enabled": False,
        "contents_manager_class": "spades_tutor.learner_server.AppOnlyContents",
        "kernel_manager_class": "spades_tutor.learner_server.AppKernels",
    },
    "AppOnlyContents": {"notebooks": [APP_NOTEBOOK]},
    "AppKernels": {"max_kernels": int(setting("KERNELS_PER_LEARNER", "3"))},
    # what a Voilà page sends its kernel (spades_tutor.learner_server.WIDGET_MESSAGES, standalone Voilà's list)
    "MappingKernelManager": {
        "allowed_message_types": [
            "comm_open",
            "comm_close",
            "comm_msg",
            "comm_info_request",
            "kernel_info_request",
            "shutdown_request",
        ]
    },
}
for section, values in learner_config.items():
    for name, value in values.items():
        mine = server_config.setdefault(section, {})
        mine[name] = {**mine[name], **value} if isinstance(value, dict) and name in mine else value


# the classes the server's own parser knows (the rest, an extension's, it keeps as text until they read it)
SERVER_CLASSES = {"ServerApp", "MappingKernelManager"}


def command_line(section: str, name: str, value: object) -> list[str]:
    """One setting of jupyter_config.json as the server's command line takes it: a dict as one
    ``key=value`` per entry, a list as one option per item for a class the server's parser knows and as
    JSON for an extension's (which reads it from that text), anything else as it prints."""
    if isinstance(value, dict):
        return [f"--{section}.{name}={key}={item}" for key, item in value.items()]
    if isinstance(value, list) and section in SERVER_CLASSES:
        return [f"--{section}.{name}={item}" for item in value]
    if isinstance(value, list):
        return [f"--{section}.{name}={json.dumps(value)}"]
    return [f"--{section}.{name}={value}"]


server_args = [
    arg
    for section, values in server_config.items()
    for name, value in values.items()
    for arg in command_line(section, name, value)
]
if spawner in ("simple", "jupyterhub.spawner.SimpleLocalProcessSpawner") and os.geteuid() == 0:
    # those servers run as the hub's own user: root in a container or on CI, where Jupyter wants it said
    server_args.append("--allow-root")
c.Spawner.args = server_args

# --- limits -----------------------------------------------------------------------------------------------
# What one learner may use; enforced by SystemdSpawner, DockerSpawner and KubeSpawner, not by local processes.
c.Spawner.mem_limit = setting("MEM_LIMIT", "1G")
c.Spawner.cpu_limit = float(setting("CPU_LIMIT", "1"))
if spawner in ("systemd", "systemdspawner.SystemdSpawner"):
    # a user made for each server (nothing to create; the system read-only, homes out of reach), its own
    # /tmp, no devices, no sudo, and a bound on processes (a fork bomb stops there). The checkout
    # (SPADES_HUB_APP_DIR) and the venv must be readable by all.
    c.SystemdSpawner.dynamic_users = True
    c.SystemdSpawner.isolate_tmp = True
    c.SystemdSpawner.isolate_devices = True
    c.SystemdSpawner.disable_user_sudo = True
    c.SystemdSpawner.unit_extra_properties = {"TasksMax": "128"}
elif spawner in ("docker", "dockerspawner.DockerSpawner"):
    c.DockerSpawner.image = setting("IMAGE", "spades-tutor-learner")
    c.DockerSpawner.cmd = ["python", "-m", "jupyterhub.singleuser"]
    c.DockerSpawner.remove = True
    # the containers reach the hub's API over Docker's bridge, at the host's gateway address
    c.JupyterHub.hub_ip = "0.0.0.0"
    c.JupyterHub.hub_connect_ip = setting("HUB_CONNECT_IP", "host.docker.internal")
    c.DockerSpawner.extra_host_config = {"pids_limit": 128, "extra_hosts": {"host.docker.internal": "host-gateway"}}
elif local:
    print(
        f"jupyterhub_config.py: SPADES_HUB_SPAWNER={spawner} enforces no memory or CPU limit and runs every"
        " learner's server on this machine: for real learners use SPADES_HUB_SPAWNER=systemd or docker",
        file=sys.stderr,
    )
# A server starts Python, Jupyter and Voilà: seconds, longer while a class arrives at once.
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 120
# Servers starting at once (the rest wait and retry), and running at once.
c.JupyterHub.concurrent_spawn_limit = 20
c.JupyterHub.active_server_limit = int(setting("MAX_LEARNERS", "40"))

# --- culling: jupyterhub-idle-culler (from PyPI) as a hub service stops idle learners' servers ----------
idle_seconds = int(float(setting("IDLE_MINUTES", "30")) * 60)
c.JupyterHub.services = [
    {
        "name": "idle-culler",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={idle_seconds}", "--cull-every=60"],
    }
]
c.JupyterHub.load_roles = [
    {
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    }
]

# --- a class session behind the hub: the learners' answers, the teacher view as a service of the hub's ----
# Turned on by naming the teachers. The learners' servers are told the class's database and session as
# `make class` tells its kernels, so their answers are recorded as in a single-server class (a learner
# joins with a nickname; no class code: the hub has logged them in). No teacher code either: the hub's
# own OAuth says who opens the service, and it opens only for the teachers named here.
class_teachers = names(setting("TEACHERS", ""))
if class_teachers:
    from spades_tutor.session.class_store import CLASS_DB_ENV, CLASS_SESSION_ENV, ClassStore

    class_folder = data / "class"
    class_folder.mkdir(mode=0o700, exist_ok=True)
    class_db = setting("CLASS_DB", f"sqlite:///{class_folder / 'class.sqlite'}")
    class_store = ClassStore(class_db)
    # the session started last goes on after a restart (nothing is lost); the first start makes one
    class_session = class_store.latest_session() or class_store.start_session("JupyterHub class")
    class_store.close()
    class_env = {CLASS_DB_ENV: class_db, CLASS_SESSION_ENV: str(class_session)}
    c.Spawner.environment = {**c.Spawner.environment, **class_env}
    teacher_port = setting("PORT_TEACHER", "8002")
    c.JupyterHub.services.append(
        {
            "name": "spades-teacher",
            "display": True,
            "url": f"http://127.0.0.1:{teacher_port}",
            "command": [sys.executable, "-m", "spades_tutor.hub_teacher"],
            "environment": {**class_env, "SPADES_TUTOR_HUB_TEACHERS": ",".join(sorted(class_teachers))},
            # a teacher logged in to the hub goes straight in, without a page asking them to allow it
            "oauth_no_confirm": True,
        }
    )
    # only the teachers may log in to the service through the hub (and the service checks again)
    c.JupyterHub.load_roles.append(
        {
            "name": "spades-teachers",
            "scopes": ["access:services!service=spades-teacher"],
            "users": sorted(class_teachers),
        }
    )
    if allowed:  # the teachers log in too
        c.Authenticator.allowed_users = allowed | class_teachers
