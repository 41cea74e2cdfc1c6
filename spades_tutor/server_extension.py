"""What the app's own server does for a page, for a Jupyter server that serves the app with Voilà's
server extension: each learner's server under JupyterHub, and Binder's.

``jupyter_config.json`` enables it (``ServerApp.jpserver_extensions``); ``jupyterhub_config.py`` hands
that file's settings to every learner's server (with the cut-down contents and kernels of
:mod:`spades_tutor.learner_server`, and no other extension but Voilà's), and ``binder/postBuild`` links it
where Binder's server reads it. Loaded, it

- compresses what the server sends (Tornado's gzip transform, what ``compress_response`` turns on):
  the page's scripts and styles reach a learner's browser in about a third of their size, which on a
  classroom's shared wifi is most of what a class waits for (see ``bench/classroom.py --link-mbit``);
- sets the app server's Content-Security-Policy (``spades_tutor.server.PAGE_POLICY``), so no page asks
  another host for anything (Voilà's page links two stylesheets on a CDN, which a school network that
  drops outside traffic made every learner wait for), keeping the ``frame-ancestors`` JupyterHub sets;
- serves plotly's script where the app's plots fetch it (``spades_tutor.ui.PLOTLY_SCRIPT``), so Voilà
  can leave JupyterLab's plotly extension out of every page (``VoilaConfiguration.extension_denylist``
  in ``jupyter_config.json``): a plot loads plotly the first time its page draws one.
"""

from __future__ import annotations

import re
from typing import Any

from tornado.web import GZipContentEncoding

from spades_tutor import message_dates
from spades_tutor.compressed import CompressedStatic
from spades_tutor.server import PAGE_POLICY, PlotlyScriptHandler, plotly_route


class CompressedPlotlyScript(CompressedStatic, PlotlyScriptHandler):
    """plotly.min.js, compressed once for the server's life (4.7 MiB, 1.4 MiB sent)."""


def page_policy(existing: str | None) -> str:
    """:data:`PAGE_POLICY`, with the ``frame-ancestors`` of an ``existing`` policy if it has one.

    >>> page_policy("frame-ancestors 'none'; report-uri /hub/security/csp-report").endswith("frame-ancestors 'none'")
    True
    >>> page_policy(None) == PAGE_POLICY
    True
    """
    found = re.search(r"(?:^|;)\s*frame-ancestors\s+([^;]+)", existing or "")
    if not found:
        return PAGE_POLICY
    return re.sub(r"frame-ancestors [^;]+", "frame-ancestors " + found.group(1).strip(), PAGE_POLICY)


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "spades_tutor.server_extension"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    message_dates.install()  # every kernel message's header is read here: 40% less time for its two dates
    web_app = serverapp.web_app
    # the transform Tornado adds for ``compress_response``: that setting is read only when an
    # Application is built, and this one already is
    if GZipContentEncoding not in web_app.transforms:
        web_app.transforms.append(GZipContentEncoding)
    headers = web_app.settings.setdefault("headers", {})
    headers["Content-Security-Policy"] = page_policy(headers.get("Content-Security-Policy"))
    web_app.add_handlers(r".*$", [plotly_route(serverapp.base_url, CompressedPlotlyScript)])
    serverapp.log.info("spades_tutor: responses compressed, pages kept to this server, plotly served for the plots")
