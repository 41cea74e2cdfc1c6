"""``jupyterhub_config.py`` read as JupyterHub reads it (traitlets' loader), under chosen environments.

tests/browser/test_hub.py runs it for real; these pin what each setting is, fast and without a hub.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from traitlets.config.loader import PyFileConfigLoader

ROOT = Path(__file__).resolve().parents[1]


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
    c = hub_config(monkeypatch)
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

    args = hub_config(monkeypatch).Spawner.args
    settings = json.loads((ROOT / "jupyter_config.json").read_text(encoding="utf-8"))
    assert settings["MappingKernelManager"]["cull_idle_timeout"] > 0
    assert settings["ServerApp"]["jpserver_extensions"] == {"spades_tutor.server_extension": True}
    assert "jupyterlab-plotly" in settings["VoilaConfiguration"]["extension_denylist"]
    app = ServerApp()
    app.parse_command_line([a for a in args if a != "--allow-root"])
    classes = {
        "ServerApp": ServerApp,
        "MappingKernelManager": MappingKernelManager,
        "VoilaConfiguration": VoilaConfiguration,
    }
    for section, values in settings.items():
        traits = classes[section].class_traits()
        for name, value in values.items():
            read = app.config[section][name]
            if hasattr(read, "get_value"):  # kept as text until the class it configures reads it
                read = read.get_value(traits[name])
            assert read == value, (section, name, read)


def test_the_idle_culler_runs_as_a_hub_service_with_just_the_rights_it_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    c = hub_config(monkeypatch, IDLE_MINUTES="5")
    (service,) = c.JupyterHub.services
    assert service["command"][1:4] == ["-m", "jupyterhub_idle_culler", "--timeout=300"]
    (role,) = c.JupyterHub.load_roles
    assert role["services"] == [service["name"]]
    assert set(role["scopes"]) == {"list:users", "read:users:activity", "read:servers", "delete:servers"}
    assert hub_config(monkeypatch).JupyterHub.services[0]["command"][3] == "--timeout=1800"


def test_the_proxy_is_the_projects_own_from_npm(monkeypatch: pytest.MonkeyPatch) -> None:
    (command,) = hub_config(monkeypatch).ConfigurableHTTPProxy.command
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
