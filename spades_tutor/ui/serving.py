"""Serving the app with Voilà: a preheated kernel waits here for its learner's request.

Voilà's preheated kernels run ``notebooks/app.ipynb`` before anyone asks for it and pause at
:func:`wait_for_request`; when a learner opens the page, Voilà hands that kernel the request
(its query string, ``?lesson=3&preset=deuces-high``) over a websocket and the notebook goes on.

Voilà ships the same helper as ``voila.utils.wait_for_request``, but importing ``voila.utils``
pulls in the whole Jupyter server (jupyter_server, jupyterlab_server, nbconvert): about 4.5 s
of CPU and 50 MiB in every kernel, which is what a class of 30 opening the app at once pays
thirty times over. This module speaks the same small protocol with ``websockets`` alone.

Protocol (voila 0.5, ``RequestInfoSocketHandler``): connect to
``{VOILA_WS_PROTOCOL}://{VOILA_APP_IP}:{VOILA_APP_PORT}{VOILA_WS_BASE_URL or VOILA_SERVER_URL}voila/query/{VOILA_KERNEL_ID}``;
the server sends one JSON object of environment variables (``QUERY_STRING``, ``SCRIPT_NAME``, ...)
once the kernel has been given to a request; they are copied into ``os.environ``.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Mapping

__all__ = ["CLASS_LINK_ENV", "request_info_url", "wait_for_request"]

#: the class link ``spades-tutor app`` printed first (the one its QR code carries), in the server's environment
#: and so in its kernels': the Classroom page shows it, with its QR code, for the projector
CLASS_LINK_ENV = "SPADES_TUTOR_CLASS_LINK"


def request_info_url(env: Mapping[str, str]) -> str:
    """The websocket address Voilà sends this kernel's request to (as ``voila.utils`` builds it)."""
    protocol = env.get("VOILA_WS_PROTOCOL", "ws")
    ip = env.get("VOILA_APP_IP", "127.0.0.1")
    port = env.get("VOILA_APP_PORT", "8866")
    base = env.get("VOILA_WS_BASE_URL", env.get("VOILA_SERVER_URL", "/"))
    return f"{protocol}://{ip}:{port}{base}voila/query/{env.get('VOILA_KERNEL_ID')}"


def wait_for_request(url: str | None = None, open_timeout: float = 5.0) -> None:
    """In a preheated Voilà kernel, block until a learner's request arrives and put its details in ``os.environ``.

    Outside a preheated kernel (JupyterLab, a plain ``voila`` without a pool, tests) it returns at once.
    If the server cannot be reached it warns and returns, and the app opens with no query: the
    learner sees the home page rather than an error.
    """
    if os.environ.get("VOILA_PREHEAT", "False") == "False":
        return
    from websockets.exceptions import WebSocketException
    from websockets.sync.client import connect  # only here: a plain kernel never needs it

    target = url or request_info_url(os.environ)
    try:
        with connect(target, open_timeout=open_timeout) as ws:
            info = ws.recv()
    except (TimeoutError, OSError, WebSocketException) as e:
        warnings.warn(f"could not get the page request from Voilà at {target}: {e}", stacklevel=2)
        return
    for key, value in json.loads(info).items():
        os.environ[key] = value
