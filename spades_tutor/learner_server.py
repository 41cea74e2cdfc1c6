"""A learner's own Jupyter server under JupyterHub, cut down to the app: what ``jupyterhub_config.py``
hands every learner's server on its command line.

A stock single-user server is a workshop: JupyterLab, terminals, any kernel running any code, and
the contents API reading and writing every file under its root. Under the hub's local spawners all
of that runs on the hub's machine, and with the test pair (``SimpleLocalProcessSpawner``) as the
hub's own user, whose files are the hub's database and the checkout every learner is served from.
A learner only needs the app's page, so their server keeps only what that page uses:

- Voilà's server extension and :mod:`spades_tutor.server_extension`, nothing else (no JupyterLab,
  no terminals; ``jupyterhub_config.py`` turns the others off);
- :class:`AppOnlyContents`: the contents API (and so Voilà's renderer, which reads notebooks
  through it) sees the app's notebook and nothing else, read-only: no listing of the folder, no
  file of it served, nothing written, renamed or deleted. Voilà runs only the notebooks it can read,
  so no other notebook, and none a learner wrote, ever runs;
- :class:`AppKernels`: a few kernels per server (a learner's tabs), each started by Voilà for the
  app's page; the page talks to its kernel in widget messages only
  (``MappingKernelManager.allowed_message_types``, as standalone Voilà does), so no
  ``execute_request`` from a page, or from anyone holding the learner's token, runs code.
"""

from __future__ import annotations

import posixpath
from typing import Any

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado.web import HTTPError
from traitlets import Int, List, default

__all__ = ["WIDGET_MESSAGES", "AppKernels", "AppOnlyContents", "normal_path"]

#: What a Voilà page sends its kernel: the widgets' comm messages and the kernel-info handshake. The
#: same list as standalone Voilà's kernel manager (``voila.app.Voila.init_settings``); Voilà itself
#: runs the notebook's cells through its own client, not through the page's websocket.
WIDGET_MESSAGES = [
    "comm_open",
    "comm_close",
    "comm_msg",
    "comm_info_request",
    "kernel_info_request",
    "shutdown_request",
]


def normal_path(path: str) -> str:
    """An API path as the contents manager compares it: no leading or trailing slash, no ``.``,
    ``..`` folded (a path that climbs out of the root comes out starting with ``..``).

    >>> normal_path("/notebooks/./app.ipynb")
    'notebooks/app.ipynb'
    >>> normal_path("notebooks/../notebooks/app.ipynb/")
    'notebooks/app.ipynb'
    >>> normal_path("")
    ''
    >>> normal_path("notebooks/../../etc/passwd")
    '../etc/passwd'
    """
    path = posixpath.normpath(path.strip("/")) if path.strip("/") else ""
    return "" if path == "." else path


class AppOnlyContents(AsyncLargeFileManager):
    """The server's files as a learner may see them: the app's notebooks, read-only, and nothing else.

    Reading any other path (the root folder's listing included) answers 404, as if it were not
    there; writing, renaming, deleting and checkpoints answer 403. ``/files/`` is not served at all
    (the stock handler serves every file under the root straight from the disk)."""

    # a list of no declared item type, as Voilà's own lists: on a server's command line an extension's
    # class is unknown to the parser, and traitlets reads ``["a"]`` for a list of Unicode as ``['["a"]']``
    notebooks = List(
        ["notebooks/app.ipynb"],
        help="The notebooks (paths under the server's root) a learner's page may open; nothing else is readable.",
    ).tag(config=True)

    @default("files_handler_class")
    def _no_files_handler(self) -> None:
        return None

    def readable(self, path: str) -> bool:
        return normal_path(path) in {normal_path(str(p)) for p in self.notebooks}

    async def get(
        self, path: Any, content: Any = True, type: Any = None, format: Any = None, require_hash: Any = False
    ) -> Any:
        if not self.readable(path):
            raise HTTPError(404, f"No such file: {path}")
        return await super().get(  # type: ignore[no-untyped-call]
            path, content=content, type=type, format=format, require_hash=require_hash
        )

    async def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise HTTPError(403, "The app's files are read-only.")

    save = delete_file = rename_file = _refuse
    create_checkpoint = restore_checkpoint = delete_checkpoint = _refuse


class AppKernels(AsyncMappingKernelManager):
    """The server's kernels, at most ``max_kernels`` at once: one per open tab of the app.

    One more (a page opened past the bound, or a kernel asked of the kernel API) gets 503 and a
    sentence to close a tab; restarting a kernel the server holds is not a new one."""

    max_kernels = Int(3, help="Kernels (open tabs of the app) this server may run at once.").tag(config=True)

    _starting = 0

    async def start_kernel(self, **kwargs: Any) -> str:  # type: ignore[override]
        kernel_id = kwargs.get("kernel_id")
        new = kernel_id is None or kernel_id not in self
        if new and len(self.list_kernel_ids()) + self._starting >= self.max_kernels:
            self.log.warning("spades-tutor: no kernel: this server already runs %d", self.max_kernels)
            raise HTTPError(503, f"The app is open in {self.max_kernels} tabs already: close one and reload.")
        self._starting += 1
        try:
            kernel: str = await super().start_kernel(**kwargs)
        finally:
            self._starting -= 1
        return kernel
