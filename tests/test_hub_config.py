"""``jupyterhub_config.py`` read as JupyterHub reads it (traitlets' loader), under chosen environments.

tests/browser/test_hub.py runs it for real; these pin what each setting is, fast and without a hub.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from traitlets import Type
from traitlets.config.loader import PyFileConfigLoader
from traitlets.utils.importstring import import_item

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def state_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Where the config puts the hub's folder when SPADES_HUB_DATA is not set: a temp folder, not ~/.local/state."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state-home"))
    return tmp_path / "state-home"


def hub_config(monkeypatch: pytest.MonkeyPatch, **env: str) -> Any:
    for name in list(os.environ):
        if name.startswith("SPADES_HUB_"):
            monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(f"SPADES_HUB_{name}", value)
    return PyFileConfigLoader("jupyterhub_config.py", path=str(ROOT)).load_config()


def test_without_settings_the_hub_uses_the_machines_accounts_never_the_test_pair(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    c = hub_config(monkeypatch, ALLOWED_USERS="ada")
    assert c.JupyterHub.authenticator_class == "pam"
    assert c.JupyterHub.spawner_class == "localprocess"
    assert c.JupyterHub.bind_url == "http://127.0.0.1:8000"
    assert "--allow-root" not in c.Spawner.args


def test_learners_land_on_the_app_in_the_checkout_served(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    c = hub_config(monkeypatch, AUTHENTICATOR="dummy", SPAWNER="simple", HOMES=str(tmp_path))
    assert c.Spawner.default_url == "/voila/render/notebooks/app.ipynb"
    assert (Path(c.Spawner.notebook_dir) / "notebooks" / "app.ipynb").exists()
    assert c.SimpleLocalProcessSpawner.home_dir_template == str(tmp_path / "{username}")
    assert c.Spawner.cmd[1:] == ["-m", "jupyterhub.singleuser"]


def test_each_learners_server_gets_the_binder_servers_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every setting of jupyter_config.json, as the learner's server reads its command line (traitlets'
    loader): the scalars, the app's server extension (a dict) and Voilà's extension denylist (a list)."""
    from jupyter_server.serverapp import ServerApp
    from jupyter_server.services.kernels.kernelmanager import MappingKernelManager
    from voila.configuration import VoilaConfiguration

    args = hub_config(monkeypatch, ALLOWED_USERS="ada").Spawner.args
    settings = json.loads((ROOT / "jupyter_config.json").read_text(encoding="utf-8"))
    assert settings["MappingKernelManager"]["cull_idle_timeout"] > 0
    assert settings["ServerApp"]["jpserver_extensions"] == {"spades_tutor.server_extension": True}
    assert "jupyterlab-plotly" in settings["VoilaConfiguration"]["extension_denylist"]
    classes = {
        "ServerApp": ServerApp,
        "MappingKernelManager": MappingKernelManager,
        "VoilaConfiguration": VoilaConfiguration,
    }
    for section, values in settings.items():
        for name, value in values.items():
            read = server_setting(args, classes[section], name)
            if isinstance(value, dict):  # the learner's server adds extensions of its own (below)
                assert read.items() >= value.items(), (section, name, read)
            else:
                assert read == value, (section, name, read)


def server_setting(args: list[str], cls: type, name: str) -> Any:
    """What a learner's server started with ``args`` reads for ``cls``'s setting ``name`` (traitlets' loader)."""
    from jupyter_server.serverapp import ServerApp

    app = ServerApp()
    app.parse_command_line([a for a in args if a != "--allow-root"])
    read = app.config[cls.__name__][name]
    trait = cls.class_traits()[name]
    if hasattr(read, "get_value"):  # kept as text until the class it configures reads it
        read = read.get_value(trait)
    if isinstance(trait, Type) and isinstance(read, str):  # a class by its name, imported when read
        read = import_item(read)
    return read


def test_a_learners_server_serves_the_app_only_and_its_kernels_take_no_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """Voilà and the app's extension and no other (no JupyterLab, no terminals), whatever else is installed;
    the contents API and kernels of spades_tutor.learner_server; widget messages only to a kernel."""
    from jupyter_server.serverapp import ServerApp
    from jupyter_server.services.kernels.kernelmanager import MappingKernelManager

    from spades_tutor.learner_server import WIDGET_MESSAGES, AppKernels, AppOnlyContents

    c = hub_config(monkeypatch, AUTHENTICATOR="dummy", SPAWNER="simple", KERNELS_PER_LEARNER="2")
    args = c.Spawner.args
    extensions = server_setting(args, ServerApp, "jpserver_extensions")
    assert {name for name, on in extensions.items() if on} == {"voila", "spades_tutor.server_extension"}
    assert extensions["jupyterlab"] is False and extensions["jupyter_server_terminals"] is False
    assert c.Spawner.environment["JUPYTERHUB_SINGLEUSER_LOAD_OTHER_EXTENSIONS"] == "0"
    assert c.Spawner.disable_user_config is True
    assert server_setting(args, ServerApp, "terminals_enabled") is False
    assert server_setting(args, ServerApp, "contents_manager_class") is AppOnlyContents
    assert server_setting(args, ServerApp, "kernel_manager_class") is AppKernels
    assert server_setting(args, AppOnlyContents, "notebooks") == ["notebooks/app.ipynb"]
    assert c.Spawner.default_url == "/voila/render/" + server_setting(args, AppOnlyContents, "notebooks")[0]
    assert server_setting(args, AppKernels, "max_kernels") == 2
    assert server_setting(args, MappingKernelManager, "allowed_message_types") == WIDGET_MESSAGES
    assert "execute_request" not in WIDGET_MESSAGES


def test_pam_without_a_list_of_learners_refuses_to_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """The machine's accounts are not a class: with PAM, a list of names or a group of theirs is required."""
    with pytest.raises(ValueError, match="SPADES_HUB_ALLOWED_USERS"):
        hub_config(monkeypatch)
    with pytest.raises(ValueError, match="every account of this machine"):
        hub_config(monkeypatch, AUTHENTICATOR="pam", ALLOW_ALL="yes")
    c = hub_config(monkeypatch, ALLOWED_GROUPS="class4b, class4c")
    assert c.LocalAuthenticator.allowed_groups == {"class4b", "class4c"}
    assert "allow_all" not in c.Authenticator


def test_other_authenticators_let_in_everyone_only_when_told(monkeypatch: pytest.MonkeyPatch) -> None:
    google = "oauthenticator.GoogleOAuthenticator"
    with pytest.raises(ValueError, match="SPADES_HUB_ALLOW_ALL=yes"):
        hub_config(monkeypatch, AUTHENTICATOR=google)
    assert hub_config(monkeypatch, AUTHENTICATOR=google, ALLOW_ALL="yes").Authenticator.allow_all is True
    # one class password is the class's key; the dummy pair is the loopback test
    assert hub_config(monkeypatch, AUTHENTICATOR="shared-password").Authenticator.allow_all is True
    assert hub_config(monkeypatch, AUTHENTICATOR="dummy").Authenticator.allow_all is True


def test_off_loopback_each_learner_needs_an_origin_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Progress is in localStorage, one store per origin: one origin for all would let any learner's page
    read and wipe the others'. Off loopback the hub wants per-user hosts, or to be told to go without."""
    wide = {"URL": "http://0.0.0.0:8000", "ALLOWED_USERS": "ada"}
    with pytest.raises(ValueError, match="SPADES_HUB_SUBDOMAIN_HOST"):
        hub_config(monkeypatch, **wide)
    with pytest.raises(ValueError, match="SPADES_HUB_SUBDOMAIN_HOST"):
        hub_config(monkeypatch, **{**wide, "URL": "https://hub.school.example"})
    c = hub_config(monkeypatch, **wide, SUBDOMAIN_HOST="https://hub.school.example")
    assert c.JupyterHub.subdomain_host == "https://hub.school.example"
    assert "subdomain_host" not in hub_config(monkeypatch, **wide, SHARED_ORIGIN="yes").JupyterHub
    for loopback in ("http://127.0.0.1:8000", "http://127.0.0.2:9000", "http://localhost:8000", "http://[::1]:8000"):
        assert "subdomain_host" not in hub_config(monkeypatch, URL=loopback, ALLOWED_USERS="ada").JupyterHub
    with pytest.raises(ValueError, match="loopback only"):
        hub_config(monkeypatch, AUTHENTICATOR="dummy", URL="http://0.0.0.0:8000", SHARED_ORIGIN="yes")


def test_the_hubs_files_are_its_own_0600_in_a_0700_folder_away_from_the_learners(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, state_home: Path
) -> None:
    c = hub_config(monkeypatch, ALLOWED_USERS="ada")
    folder = state_home / "spades-tutor-hub"
    db = folder / "jupyterhub.sqlite"
    assert c.JupyterHub.db_url == f"sqlite:///{db}"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(db.stat().st_mode) == 0o600
    for name in ("cookie_secret_file", "pid_file"):
        assert Path(c.JupyterHub[name]).parent == folder
    assert Path(c.ConfigurableHTTPProxy.pid_file).parent == folder
    assert ROOT not in folder.parents and Path(c.Spawner.notebook_dir) == ROOT
    # a database left 0644 by an earlier hub is closed up
    older = tmp_path / "older"
    older.mkdir(mode=0o755)
    (older / "jupyterhub.sqlite").touch(mode=0o644)
    (older / "jupyterhub.sqlite").chmod(0o644)
    hub_config(monkeypatch, ALLOWED_USERS="ada", DATA=str(older))
    assert stat.S_IMODE((older / "jupyterhub.sqlite").stat().st_mode) == 0o600
    assert stat.S_IMODE(older.stat().st_mode) == 0o700
    for inside in (ROOT, ROOT / ".hub-state"):
        with pytest.raises(ValueError, match="inside SPADES_HUB_APP_DIR"):
            hub_config(monkeypatch, ALLOWED_USERS="ada", DATA=str(inside))


def test_limits_are_set_for_the_spawners_that_enforce_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    c = hub_config(monkeypatch, ALLOWED_USERS="ada", SPAWNER="systemd", MEM_LIMIT="768M", CPU_LIMIT="0.5")
    assert (c.Spawner.mem_limit, c.Spawner.cpu_limit) == ("768M", 0.5)
    assert c.SystemdSpawner.dynamic_users is True and c.SystemdSpawner.unit_extra_properties["TasksMax"]
    assert c.Spawner.cmd[1:] == ["-m", "jupyterhub.singleuser"]
    assert "no memory or CPU limit" not in capsys.readouterr().err
    c = hub_config(monkeypatch, ALLOWED_USERS="ada", SPAWNER="docker", IMAGE="school/spades:1")
    assert (c.Spawner.mem_limit, c.Spawner.cpu_limit) == ("1G", 1.0)
    assert c.DockerSpawner.image == "school/spades:1" and c.DockerSpawner.extra_host_config["pids_limit"]
    # a container reaches the hub's API through the host's gateway, not the hub's loopback address
    assert c.JupyterHub.hub_connect_ip == "host.docker.internal"
    assert c.DockerSpawner.extra_host_config["extra_hosts"] == {"host.docker.internal": "host-gateway"}
    hub_config(monkeypatch, ALLOWED_USERS="ada")
    assert "SPADES_HUB_SPAWNER=localprocess enforces no memory or CPU limit" in capsys.readouterr().err


def test_the_idle_culler_runs_as_a_hub_service_with_just_the_rights_it_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    c = hub_config(monkeypatch, IDLE_MINUTES="5", ALLOWED_USERS="ada")
    (service,) = c.JupyterHub.services
    assert service["command"][1:4] == ["-m", "jupyterhub_idle_culler", "--timeout=300"]
    (role,) = c.JupyterHub.load_roles
    assert role["services"] == [service["name"]]
    assert set(role["scopes"]) == {"list:users", "read:users:activity", "read:servers", "delete:servers"}
    assert hub_config(monkeypatch, ALLOWED_USERS="ada").JupyterHub.services[0]["command"][3] == "--timeout=1800"


def test_the_proxy_is_the_projects_own_from_npm(monkeypatch: pytest.MonkeyPatch) -> None:
    (command,) = hub_config(monkeypatch, ALLOWED_USERS="ada").ConfigurableHTTPProxy.command
    assert Path(command) == ROOT / "node_modules" / ".bin" / "configurable-http-proxy"
    wanted = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]["configurable-http-proxy"]
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    locked = lock["packages"]["node_modules/configurable-http-proxy"]["version"]
    assert wanted.lstrip("~^").split(".")[:2] == locked.split(".")[:2]


def test_ports_places_and_limits_follow_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    c = hub_config(
        monkeypatch,
        URL="http://127.0.0.1:9000",
        PORT_HUB="9001",
        PORT_PROXY_API="9002",
        DATA=str(tmp_path),
        MAX_LEARNERS="12",
        ALLOWED_USERS="ada, alan,",
    )
    assert c.JupyterHub.bind_url == "http://127.0.0.1:9000"
    assert c.JupyterHub.hub_bind_url == "http://127.0.0.1:9001"
    assert c.ConfigurableHTTPProxy.api_url == "http://127.0.0.1:9002"
    assert c.JupyterHub.db_url == f"sqlite:///{tmp_path / 'jupyterhub.sqlite'}"
    assert c.JupyterHub.active_server_limit == 12
    assert c.Authenticator.allowed_users == {"ada", "alan"}
    assert "allow_all" not in c.Authenticator


def test_the_class_behind_the_hub_is_off_unless_teachers_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    c = hub_config(monkeypatch, ALLOWED_USERS="ada")
    assert [s["name"] for s in c.JupyterHub.services] == ["idle-culler"]
    assert [r["name"] for r in c.JupyterHub.load_roles] == ["idle-culler"]
    assert set(c.Spawner.environment) == {"JUPYTERHUB_SINGLEUSER_LOAD_OTHER_EXTENSIONS"}


def test_named_teachers_get_the_teacher_view_as_a_service_and_learners_the_class_database(
    monkeypatch: pytest.MonkeyPatch, state_home: Path
) -> None:
    """The learners' servers and the service are told one database and one session (the session goes on
    after a restart); only the teachers may log in to the service; the teachers are let in to the hub."""
    from spades_tutor.session.class_store import CLASS_DB_ENV, CLASS_SESSION_ENV, TEACHER_DIGEST_ENV, ClassStore

    c = hub_config(monkeypatch, ALLOWED_USERS="ada, alan", TEACHERS=" tess,tom ,", PORT_TEACHER="9003")
    service = next(s for s in c.JupyterHub.services if s["name"] == "spades-teacher")
    assert service["url"] == "http://127.0.0.1:9003"
    assert service["command"][1:] == ["-m", "spades_tutor.hub_teacher"]
    assert service["oauth_no_confirm"] is True
    assert service["environment"]["SPADES_TUTOR_HUB_TEACHERS"] == "tess,tom"
    role = next(r for r in c.JupyterHub.load_roles if r["name"] == "spades-teachers")
    assert role == {
        "name": "spades-teachers",
        "scopes": ["access:services!service=spades-teacher"],
        "users": ["tess", "tom"],
    }
    assert c.Authenticator.allowed_users == {"ada", "alan", "tess", "tom"}
    env = c.Spawner.environment
    folder = state_home / "spades-tutor-hub" / "class"
    assert env[CLASS_DB_ENV] == f"sqlite:///{folder / 'class.sqlite'}" == service["environment"][CLASS_DB_ENV]
    assert env[CLASS_SESSION_ENV] == service["environment"][CLASS_SESSION_ENV]
    assert TEACHER_DIGEST_ENV not in env  # no teacher code behind the hub: a learner's kernel opens no teacher view
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert ClassStore(env[CLASS_DB_ENV]).session_exists(int(env[CLASS_SESSION_ENV]))
    # restarted: the same session
    again = hub_config(monkeypatch, ALLOWED_USERS="ada", TEACHERS="tess").Spawner.environment
    assert again[CLASS_SESSION_ENV] == env[CLASS_SESSION_ENV]


def test_a_class_database_url_set_for_the_hub_is_passed_on_never_printed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'class-secret-name.sqlite'}"
    c = hub_config(monkeypatch, AUTHENTICATOR="dummy", SPAWNER="simple", TEACHERS="tess", CLASS_DB=url)
    assert c.Spawner.environment["SPADES_TUTOR_CLASS_DB"] == url
    printed = capsys.readouterr()
    assert "class-secret-name" not in printed.out + printed.err
