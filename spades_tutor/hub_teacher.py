"""The teacher view behind JupyterHub: a hub-managed service at ``/services/spades-teacher/``.

``jupyterhub_config.py`` runs it (``python -m spades_tutor.hub_teacher``) when ``SPADES_HUB_TEACHERS`` names
the teachers. The hub's own OAuth says who opens it (:class:`HubOAuthenticated`): a user the hub did not
log in is sent to the hub's login page, a user who is not one of the teachers gets 403, and only then is
anything of the class read. The learners' servers are told the same class database and session
(``SPADES_TUTOR_CLASS_DB``, ``SPADES_TUTOR_CLASS_SESSION``) and their kernels record answers exactly as
in the single-server class (:mod:`spades_tutor.ui.class_seat`); this page reads them: the grid of
learners × steps of the lesson most learners are in, and the room's answers to its latest question,
redrawn every half second. It shows the class; the pacing stays with the single-server teacher view.
"""

from __future__ import annotations

import html
import os
import secrets
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from tornado import ioloop, web

from .lessons import load_lessons
from .session.class_room import grid, question
from .session.class_store import CLASS_DB_ENV, CLASS_SESSION_ENV, ClassStore
from .ui.teacher_view import bars_html, grid_html

__all__ = ["TEACHERS_ENV", "app", "render", "teachers"]

#: the teachers' hub user names, comma-separated (from SPADES_HUB_TEACHERS)
TEACHERS_ENV = "SPADES_TUTOR_HUB_TEACHERS"
REFRESH_MS = 500
CSS = Path(__file__).parent / "ui" / "static" / "app.css"


def teachers(text: str) -> frozenset[str]:
    """The teachers' names in a comma-separated list.

    >>> sorted(teachers(" tess, ,tom "))
    ['tess', 'tom']
    """
    return frozenset(name.strip() for name in text.split(",") if name.strip())


def render(store: ClassStore, session_id: int, lessons: Any, now: float | None = None) -> str:
    """The class now: the lesson most learners are in (else the first), its grid and its latest question."""
    now = time.time() if now is None else now
    learners = store.learners(session_id)
    state = store.state(session_id)
    where = [x.lesson for x in learners if x.lesson is not None]
    number = state.lesson if state.lesson is not None else max(set(where), key=where.count) if where else None
    lesson = next((x for x in lessons if x.number == number), lessons[0])
    steps = len(lesson.steps)
    answers = store.answers(session_id, lesson=lesson.number)
    step = state.question_step if state.question_step is not None else max((a.step for a in answers), default=0)
    heading = (
        f'<h2 class="st-lesson-title">Teacher view · lesson {lesson.number}: {html.escape(lesson.title)}</h2>'
        f'<p class="st-teacher-counts" role="status">{len(learners)} learner{"s" if len(learners) != 1 else ""}'
        f" joined · {len(answers)} answer{'s' if len(answers) != 1 else ''}</p>"
    )
    table = grid_html(grid(learners, answers, lesson.number, steps, now), steps, state.anonymous, state.step_limit)
    bars = bars_html(question(answers, lesson.number, step), state.reveal, step)
    return (
        f'{heading}<div class="st-teacher-columns"><section class="st-teacher-section" aria-label="Learners">'
        f'<h3>Learners</h3>{table}</section><section class="st-teacher-section st-teacher-bars" '
        f"aria-label=\"The room's answers\"><h3>The room's answers</h3>{bars}</section></div>"
    )


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Teacher view · Spades with Jokers</title><style>{css}
body {{ font-family: system-ui, sans-serif; margin: 1em 2em; }}</style></head>
<body><main class="st-teacher" id="view" data-user="{user}">{view}</main>
<script>
setInterval(async () => {{
  try {{
    const r = await fetch("view", {{cache: "no-store", credentials: "same-origin"}});
    if (r.ok) document.getElementById("view").innerHTML = await r.text();
  }} catch (e) {{}}
}}, {every});
</script></body></html>"""


def app(env: dict[str, str] | None = None) -> web.Application:
    """The service's tornado app, from the environment the hub gives it."""
    # JupyterHub (the "hub" extra) only where the hub runs this service
    from jupyterhub.services.auth import HubOAuthCallbackHandler, HubOAuthenticated
    from jupyterhub.utils import url_path_join

    class TeacherHandler(HubOAuthenticated, web.RequestHandler):  # type: ignore[misc]
        """The page (``/``) and its redrawn part (``/view``), for the teachers only."""

        def teacher(self) -> str:
            user = self.current_user
            if not user or user.get("name") not in self.settings["teachers"]:
                raise web.HTTPError(403, "the teacher view is for the class's teachers")
            return str(user["name"])

        def view(self) -> str:
            return render(self.settings["store"], self.settings["session_id"], self.settings["lessons"])

        @web.authenticated
        def get(self, part: str = "") -> None:
            name = self.teacher()
            self.set_header("Cache-Control", "no-store")
            self.set_header("Content-Security-Policy", "default-src 'self'; style-src 'unsafe-inline'; "
                            "script-src 'unsafe-inline'; frame-ancestors 'none'")  # fmt: skip
            if part == "view":
                self.write(self.view())
            else:
                self.write(PAGE.format(css=CSS.read_text(encoding="utf-8"), user=html.escape(name), view=self.view(),
                                       every=REFRESH_MS))  # fmt: skip

    env = dict(os.environ) if env is None else env
    prefix = env.get("JUPYTERHUB_SERVICE_PREFIX", "/services/spades-teacher/")
    return web.Application(
        [
            (prefix + r"(view)?", TeacherHandler),
            (url_path_join(prefix, "oauth_callback"), HubOAuthCallbackHandler),
        ],
        cookie_secret=secrets.token_bytes(32),
        store=ClassStore(env[CLASS_DB_ENV]),
        session_id=int(env[CLASS_SESSION_ENV]),
        lessons=load_lessons(),
        teachers=teachers(env.get(TEACHERS_ENV, "")),
    )


def main() -> None:
    url = urlparse(os.environ["JUPYTERHUB_SERVICE_URL"])
    app().listen(url.port or 80, url.hostname or "127.0.0.1")
    ioloop.IOLoop.current().start()


if __name__ == "__main__":
    main()
