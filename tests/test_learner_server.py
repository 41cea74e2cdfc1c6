"""spades_tutor.learner_server: the contents and kernels of a learner's server under JupyterHub.

tests/browser/test_hub.py checks them through a real hub; these pin each rule, fast and without one.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
from tornado.web import HTTPError

from spades_tutor.learner_server import AppKernels, AppOnlyContents

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def served(tmp_path: Path) -> Path:
    """A folder served as a learner's server serves the checkout: the app's notebook and files beside it."""
    (tmp_path / "notebooks").mkdir()
    shutil.copy(ROOT / "notebooks" / "app.ipynb", tmp_path / "notebooks")
    shutil.copy(ROOT / "notebooks" / "00-engine-tour.ipynb", tmp_path / "notebooks")
    (tmp_path / "jupyterhub.sqlite").write_text("the hub's secrets")
    return tmp_path


def refused(awaitable: object) -> int:
    with pytest.raises(HTTPError) as raised:
        asyncio.run(awaitable)  # type: ignore[arg-type]
    return raised.value.status_code


def test_the_app_notebook_is_all_a_learner_can_read(served: Path) -> None:
    contents = AppOnlyContents(root_dir=str(served))
    model = asyncio.run(contents.get("notebooks/app.ipynb"))
    assert model["type"] == "notebook" and model["content"]["cells"]
    assert asyncio.run(contents.get("/notebooks/./app.ipynb"))["path"]
    for path in ("", "/", "notebooks", "notebooks/00-engine-tour.ipynb", "jupyterhub.sqlite", "notebooks/../x"):
        assert refused(contents.get(path)) == 404, path
    # no /files/ route: the stock one serves every file under the root from the disk
    assert contents.files_handler_class is None and contents.get_extra_handlers() == []


def test_nothing_is_written_renamed_or_deleted(served: Path) -> None:
    contents = AppOnlyContents(root_dir=str(served))
    app = served / "notebooks" / "app.ipynb"
    before = app.read_bytes()
    text = {"type": "file", "format": "text", "content": "print('mine')"}
    assert refused(contents.save(text, "notebooks/mine.py")) == 403
    assert refused(contents.new_untitled("notebooks", type="notebook")) == 403
    assert refused(contents.copy("notebooks/app.ipynb", "notebooks")) == 403
    assert refused(contents.rename("notebooks/app.ipynb", "notebooks/gone.ipynb")) == 403
    assert refused(contents.delete("notebooks/app.ipynb")) == 403
    assert refused(contents.create_checkpoint("notebooks/app.ipynb")) == 403
    assert app.read_bytes() == before
    assert sorted(p.name for p in (served / "notebooks").iterdir()) == ["00-engine-tour.ipynb", "app.ipynb"]


def test_a_server_runs_at_most_its_bound_of_kernels(tmp_path: Path) -> None:
    async def scenario() -> tuple[int, int]:
        kernels = AppKernels(max_kernels=1, root_dir=str(tmp_path))
        first = await kernels.start_kernel(kernel_name="python3")
        try:
            with pytest.raises(HTTPError) as raised:
                await kernels.start_kernel(kernel_name="python3")
            await kernels.restart_kernel(first)  # the same kernel again, not one more
            return raised.value.status_code, len(kernels.list_kernel_ids())
        finally:
            await kernels.shutdown_all()

    assert asyncio.run(scenario()) == (503, 1)
