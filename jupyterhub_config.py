# JupyterHub for many classes: each learner logs in and gets a Jupyter server of their own (the
# Voilà server extension in it), and lands on the app at /user/<name>/voila/render/notebooks/app.ipynb.
#
# Set up and start it (from a checkout, after `make install-test` or `pip install -e '.[hub]'` and `npm ci`):
#
#     SPADES_HUB_AUTHENTICATOR=dummy SPADES_HUB_SPAWNER=simple .venv/bin/jupyterhub -f jupyterhub_config.py
#
# That pair (any user name, any password; servers as processes of the hub's own user, homes under a temp
# folder) is for trying it on one machine and for tests/browser/test_hub.py only: it isolates nobody.
# A school sets, through the environment (each one optional):
#
#   SPADES_HUB_AUTHENTICATOR  who may log in (default "pam": the machine's accounts). Any JupyterHub
#                             authenticator by its short name or class, e.g. "shared-password" (one class
#                             password, SPADES_HUB_PASSWORD, at least 8 characters), "oauthenticator.
#                             GoogleOAuthenticator" or "ldapauthenticator.LDAPAuthenticator" (pip install them)
#   SPADES_HUB_ALLOWED_USERS  comma-separated user names allowed in (default: all who authenticate)
#   SPADES_HUB_SPAWNER        where learners' servers run (default "localprocess": one Unix account each)
#   SPADES_HUB_URL            the address learners open (default http://127.0.0.1:8000; put TLS in front)
#   SPADES_HUB_PORT_HUB, SPADES_HUB_PORT_PROXY_API   internal ports (default 8081, 8001, on loopback)
#   SPADES_HUB_DATA           where the hub keeps its database, cookie secret and pid file (default: cwd)
#   SPADES_HUB_HOMES          the home folders of the "simple" spawner (default /tmp/spades-hub-homes)
#   SPADES_HUB_APP_DIR        the checkout the learners' servers serve (default: this file's folder)
#   SPADES_HUB_IDLE_MINUTES   stop a learner's server after this long without activity (default 30)
#   SPADES_HUB_MAX_LEARNERS   servers running at once; one more is told to come back later (default 40)
#
# Past one machine: the hub and its proxy stay on one small machine; the learners' servers go where a
# spawner puts them (none of these is installed here; pip install the one you choose):
#   - DockerSpawner (dockerspawner.DockerSpawner): a container per learner from an image with this
#     project installed (SPADES_HUB_APP_DIR = the checkout's path in the image); with Docker Swarm, the
#     containers spread over the swarm's machines. mem_limit / cpu_limit below are enforced.
#   - KubeSpawner (kubespawner.KubeSpawner): a pod per learner on a Kubernetes cluster, spread over its
#     nodes by the scheduler; the usual route for many schools (the zero-to-jupyterhub Helm chart).
#   - SystemdSpawner (systemdspawner.SystemdSpawner): one machine, each learner's server in a systemd
#     unit of its own with enforced memory and CPU limits; several such hubs, one per machine, behind a
#     load balancer that keeps each learner on one machine.
# Per learner, bench/hub.py measured the server + kernel memory and the time to interactive: see the
# README's "many classes" section.
import json
import os
import sys
from pathlib import Path

c = get_config()  # noqa: F821  (JupyterHub defines get_config when it loads this file)

ROOT = Path(__file__).resolve().parent
APP_PATH = "/voila/render/notebooks/app.ipynb"


def setting(name: str, default: str) -> str:
    return os.environ.get(f"SPADES_HUB_{name}", "") or default


# --- who logs in ------------------------------------------------------------------------------------------
c.JupyterHub.authenticator_class = setting("AUTHENTICATOR", "pam")
if setting("PASSWORD", ""):
    c.SharedPasswordAuthenticator.user_password = setting("PASSWORD", "")
allowed = {name.strip() for name in setting("ALLOWED_USERS", "").split(",") if name.strip()}
if allowed:
    c.Authenticator.allowed_users = allowed
else:
    c.Authenticator.allow_all = True
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
data = Path(setting("DATA", os.getcwd()))
c.JupyterHub.db_url = f"sqlite:///{data / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(data / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(data / "jupyterhub.pid")
# Stopping the hub stops every learner's server and the proxy it started.
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True

# --- each learner's server ------------------------------------------------------------------------------
spawner = setting("SPAWNER", "localprocess")
c.JupyterHub.spawner_class = spawner
c.Spawner.default_url = APP_PATH
c.Spawner.notebook_dir = setting("APP_DIR", str(ROOT))
if spawner in ("simple", "localprocess", "default") or spawner.endswith("LocalProcessSpawner"):
    # the hub's own Python (the project's venv), whatever PATH the learner's account has
    c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
c.SimpleLocalProcessSpawner.home_dir_template = str(Path(setting("HOMES", "/tmp/spades-hub-homes")) / "{username}")
# The same server settings as Binder's (jupyter_config.json: kernel culling, no tracebacks, no theme or
# template from the URL), given on the command line so they hold wherever the spawner runs the server.
server_config = json.loads((ROOT / "jupyter_config.json").read_text(encoding="utf-8"))


def command_line(section: str, name: str, value: object) -> list[str]:
    """One setting of jupyter_config.json as the server's command line takes it: a dict as one
    ``key=value`` per entry, a list as JSON, anything else as it prints."""
    if isinstance(value, dict):
        return [f"--{section}.{name}={key}={item}" for key, item in value.items()]
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
# What one learner may use; enforced by DockerSpawner, KubeSpawner and SystemdSpawner (not by local processes).
c.Spawner.mem_limit = "1G"
c.Spawner.cpu_limit = 1.0
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
