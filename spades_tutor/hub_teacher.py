"""The teacher view behind JupyterHub: a hub-managed service at ``/services/spades-teacher/``.

``jupyterhub_config.py`` runs it (``python -m spades_tutor.hub_teacher``) when ``SPADES_HUB_TEACHERS`` names
the teachers. The hub's own OAuth says who opens it (:class:`HubOAuthenticated`): a user the hub did not
log in is sent to the hub's login page, a user who is not one of the teachers gets 403, and only then is
anything of the class read or changed. The learners' servers are told the same class database and session
(``SPADES_TUTOR_CLASS_DB``, ``SPADES_TUTOR_CLASS_SESSION``) and their kernels record answers and obey the
pacing exactly as in the single-server class (:mod:`spades_tutor.ui.class_seat` reads the session's state
every half second); this page writes that state.

It has the single-server teacher view's controls, through the same code
(:class:`~spades_tutor.session.class_teaching.Teaching`): the grid of learners × steps and the room's
answers to a step's question, redrawn every half second; the lesson taught; the right answer hidden until
revealed, then "N of M said X: <misconception>"; a snapshot pinned for the room; pacing (the last step
learners may reach, everyone brought to a step, every screen paused with a message); names hidden
everywhere on the page ("Learner 7"); the session's answers as a CSV file (``class-session-<id>.csv``);
and its data deleted, after a confirmation.

Each change is a form posted to ``act``: the hub's user must be a teacher, the form must carry the page's
XSRF token (JupyterHub's, bound to the hub login: tornado's ``xsrf_cookies``), every value is checked (a
lesson of the app, a step of the lesson taught, a message of at most 200 characters and no control
characters) and a teacher's changes are rate-limited as in the single-server view (429 beyond). An
accepted change answers 303 back to the page, which says what was done.
"""

from __future__ import annotations

import html
import json
import os
import re
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from tornado import ioloop, web

from .lessons import load_lessons
from .session.class_store import CLASS_DB_ENV, CLASS_SESSION_ENV, MESSAGE_MAX, ClassState, ClassStore, RateLimit
from .session.class_teaching import ACTIONS_BURST, ACTIONS_PER_S, Teaching, TooFast, check_message

__all__ = ["TEACHERS_ENV", "app", "page", "parts", "teachers"]

#: the teachers' hub user names, comma-separated (from SPADES_HUB_TEACHERS)
TEACHERS_ENV = "SPADES_TUTOR_HUB_TEACHERS"
REFRESH_MS = 500
CSS = Path(__file__).parent / "ui" / "static" / "app.css"
#: a form of the page is a few hundred bytes: a request body larger than this is refused unread
MAX_BODY = 16 * 1024
_NUMBER = re.compile(r"[0-9]{1,4}")
#: what a page may ask to be done (``action`` of the form posted to ``act``)
ACTIONS = ("lesson", "anonymous", "question", "reveal", "snapshot", "unsnap", "limit", "bring", "pause", "delete")


def teachers(text: str) -> frozenset[str]:
    """The teachers' names in a comma-separated list.

    >>> sorted(teachers(" tess, ,tom "))
    ['tess', 'tom']
    """
    return frozenset(name.strip() for name in text.split(",") if name.strip())


def number(text: object) -> int:
    """A number a form sent (1 to 4 digits, nothing else); ``ValueError`` otherwise.

    >>> number("12")
    12
    >>> number("1e3")
    Traceback (most recent call last):
    ...
    ValueError: Not a number: '1e3'.
    """
    if not isinstance(text, str) or not _NUMBER.fullmatch(text):
        raise ValueError(f"Not a number: {str(text)[:12]!r}.")
    return int(text)


def switch(text: object) -> bool:
    """A form's on/off value: "1" or "0", nothing else."""
    if text not in ("1", "0"):
        raise ValueError("Not an on/off value.")
    return text == "1"


def parts(teaching: Teaching) -> dict[str, Any]:
    """What the page redraws every half second: the counts, the grid, the room's answers, the snapshot."""
    drawn = teaching.drawn()
    return {
        "heading": drawn.heading,
        "grid": drawn.grid,
        "bars": drawn.bars,
        "snapshot": drawn.snapshot,
        "deleted": teaching.deleted,
    }


def done_words(done: str, state: ClassState) -> str:
    """What the page says after the change ``done`` (a name of :data:`ACTIONS`), as the state now is."""
    if done == "lesson":
        return f"Teaching lesson {state.lesson}: every step open, the answers hidden."
    if done == "anonymous":
        return "Names are hidden: learners are shown by number." if state.anonymous else "Names are shown."
    if done == "question" and state.question_step is not None:
        return f"Showing the answers to step {state.question_step + 1}'s question."
    if done == "reveal":
        return "The right answer is revealed." if state.reveal else "The right answer is hidden."
    if done == "snapshot":
        return "A snapshot of the answers is pinned for the room."
    if done == "unsnap":
        return "The snapshot is taken down."
    if done == "limit":
        if state.step_limit is None:
            return "Learners may reach every step."
        return f"Learners may reach step {state.step_limit + 1} at most."
    if done == "bring" and state.bring_step is not None:
        return f"Every learner was brought to step {state.bring_step + 1}."
    if done == "pause":
        return f"Screens paused: “{state.message}”" if state.paused else "Screens resumed."
    return ""


def _options(steps: int, chosen: int | None, every: bool = False) -> str:
    shown = [("all", "every step")] if every else []
    shown += [(str(i + 1), f"step {i + 1}") for i in range(steps)]
    pick = "all" if chosen is None else str(chosen + 1)
    return "".join(
        f'<option value="{value}"{" selected" if value == pick else ""}>{words}</option>' for value, words in shown
    )


def _button(xsrf: str, action: str, words: str, value: str = "", cls: str = "", extra: str = "") -> str:
    field = f'<input type="hidden" name="value" value="{value}">' if value else ""
    return (
        f'<form method="post" action="act" class="st-hub-form">{xsrf}<input type="hidden" name="action" '
        f'value="{action}">{field}{extra}<button type="submit" class="st-hub-button {cls}">{words}</button></form>'
    )


def _pick(xsrf: str, action: str, name: str, label: str, options: str, words: str, cls: str) -> str:
    ident = f"st-hub-{action}"
    return (
        f'<form method="post" action="act" class="st-hub-form">{xsrf}<input type="hidden" name="action" '
        f'value="{action}"><label for="{ident}">{label}</label> <select id="{ident}" name="{name}" class="{cls}">'
        f'{options}</select> <button type="submit" class="st-hub-button">{words}</button></form>'
    )


def page(teaching: Teaching, user: str, token: str, said: str = "", confirm: bool = False) -> str:
    """The whole page: the parts redrawn every half second, and the controls as the state is now.

    ``token`` is the page's XSRF token, which each form, the redrawing's requests and the CSV's link
    carry; ``said`` what the last change did; ``confirm``: ask whether to delete the session's data."""
    token = html.escape(token)
    xsrf = f'<input type="hidden" name="_xsrf" value="{token}">'
    if teaching.deleted:
        body = (
            '<div class="st-teacher-deleted" role="status"><h2>This session\'s data is deleted</h2><p>'
            f"{html.escape(said, quote=False)} Restart the hub for a new class session.</p></div>"
        )
        return PAGE.format(css=_css(), user=html.escape(user), token=token, body=body, script="")
    state, steps = teaching.state, teaching.steps
    drawn = parts(teaching)
    lessons = "".join(
        f'<option value="{x.number}"{" selected" if x.number == teaching.lesson.number else ""}>'
        f"{x.number}. {html.escape(x.title)}</option>"
        for x in teaching.lessons
    )
    room = (
        '<section class="st-teacher-section st-teacher-room" aria-labelledby="st-hub-room"><h3 id="st-hub-room">'
        'The room</h3><div class="st-hub-row">'
        + _pick(xsrf, "lesson", "lesson", "Lesson taught", lessons, "Teach this lesson", "st-teacher-lesson")
        + (
            _button(xsrf, "anonymous", "Show names", "0", "st-teacher-anonymous")
            if state.anonymous
            else _button(xsrf, "anonymous", "Hide names (for the projector)", "1", "st-teacher-anonymous")
        )
        + f'</div><div id="st-grid" class="st-teacher-grid-box">{drawn["grid"]}</div></section>'
    )
    answers = (
        '<section class="st-teacher-section st-teacher-answers" aria-labelledby="st-hub-answers">'
        '<h3 id="st-hub-answers">The room\'s answers</h3><div class="st-hub-row">'
        + _pick(
            xsrf,
            "question",
            "step",
            "Question of step",
            _options(steps, teaching.question_step()),
            "Show its answers",
            "st-teacher-question",
        )
        + (
            _button(xsrf, "reveal", "Hide the answer", "0", "st-teacher-reveal")
            if state.reveal
            else _button(xsrf, "reveal", "Reveal the answer", "1", "st-teacher-reveal")
        )
        + f'</div><div id="st-bars" class="st-teacher-bars">{drawn["bars"]}</div><div class="st-hub-row">'
        + _button(xsrf, "snapshot", "Pin a snapshot for the room", cls="st-teacher-snap")
        + (_button(xsrf, "unsnap", "Take the snapshot down", cls="st-teacher-unsnap") if state.snapshot else "")
        + f'</div><div id="st-snapshot" class="st-teacher-snapshot">{drawn["snapshot"]}</div></section>'
    )
    message = html.escape(state.message or "Eyes on me, please.")
    pause = (
        _button(xsrf, "pause", "Resume every screen", "0", "st-teacher-pause")
        if state.paused
        else _button(
            xsrf,
            "pause",
            "Pause every screen",
            "1",
            "st-teacher-pause",
            f'<label for="st-hub-message">Message</label> <input id="st-hub-message" name="message" type="text" '
            f'maxlength="{MESSAGE_MAX}" value="{message}" class="st-teacher-message"> ',
        )
    )
    pacing = (
        '<section class="st-teacher-section st-teacher-pacing" aria-labelledby="st-hub-pacing">'
        '<h3 id="st-hub-pacing">Pacing</h3>'
        + _pick(
            xsrf,
            "limit",
            "step",
            "Learners may reach",
            _options(steps, state.step_limit, every=True),
            "Set the limit",
            "st-teacher-limit",
        )
        + _pick(
            xsrf,
            "bring",
            "step",
            "Bring everyone to",
            _options(steps, state.bring_step),
            "Bring them",
            "st-teacher-bring-step",
        )
        + pause
        + "</section>"
    )
    if confirm:
        delete = (
            f'<p class="st-teacher-confirm" role="alert">{html.escape(teaching.delete_question())}</p>'
            '<div class="st-hub-row">'
            + _button(
                xsrf,
                "delete",
                "Delete for good",
                cls="st-hub-danger",
                extra='<input type="hidden" name="confirm" value="yes">',
            )
            + '<a class="st-hub-button" href="./">Keep it</a></div>'
        )
    else:
        delete = '<a class="st-hub-button st-hub-danger" href="?confirm=delete">Delete this session\'s data…</a>'
    name = teaching.csv_name
    data = (
        '<section class="st-teacher-section st-teacher-data" aria-labelledby="st-hub-data">'
        '<h3 id="st-hub-data">The session\'s data</h3>'
        f'<p><a class="st-hub-button st-teacher-csv-download" href="csv?_xsrf={token}" download="{name}">'
        f"Download the answers as CSV ({name})</a></p>{delete}</section>"
    )
    body = (
        f'<div id="st-heading">{drawn["heading"]}</div>'
        f'<div class="st-teacher-said" role="status">{f"<p>{html.escape(said, quote=False)}</p>" if said else ""}</div>'
        f'<div class="st-teacher-columns"><div>{room}{answers}</div><div>{pacing}{data}</div></div>'
    )
    return PAGE.format(css=_css(), user=html.escape(user), token=token, body=body, script=SCRIPT)


def _css() -> str:
    return CSS.read_text(encoding="utf-8") + SERVICE_CSS


SERVICE_CSS = """
body { font-family: system-ui, sans-serif; margin: 1em 2em; color: #1b2a22; }
.st-hub-title { font-size: 1.2em; margin: 0 0 0.3em; color: #0f5132; }
.st-hub-row { display: flex; flex-wrap: wrap; gap: 0.5em 1em; align-items: center; margin: 0.3em 0; }
.st-hub-form { display: flex; flex-wrap: wrap; gap: 0.4em; align-items: center; margin: 0.3em 0; }
.st-hub-form select, .st-hub-form input[type=text] { font: inherit; padding: 0.2em 0.3em; }
.st-hub-form input[type=text] { width: 18em; max-width: 100%; }
.st-hub-button { font: inherit; padding: 0.3em 0.8em; border: 1px solid #0f5132; border-radius: 0.4em;
  background: #fff; color: #0f5132; cursor: pointer; text-decoration: none; display: inline-block; }
.st-hub-button:hover, .st-hub-button:focus-visible { background: #e8f5e9; }
.st-hub-danger { border-color: #8e0000; color: #8e0000; }
.st-hub-danger:hover, .st-hub-danger:focus-visible { background: #ffebee; }
.st-teacher-said p { margin: 0.2em 0 0.6em; font-weight: 600; }
"""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Teacher view · Spades with Jokers</title><style>{css}</style></head>
<body><main class="st-teacher st-hub-teacher" data-user="{user}" data-xsrf="{token}">
<h1 class="st-hub-title">Spades with Jokers · your class through JupyterHub</h1>
{body}</main>{script}</body></html>"""

#: the page's redrawing: its parts every half second (a fetch carries the XSRF token, as JupyterHub asks)
SCRIPT = f"""<script>
const shown = {{}};
const xsrf = document.querySelector("main").dataset.xsrf;
setInterval(async () => {{
  try {{
    const r = await fetch("view", {{cache: "no-store", credentials: "same-origin", headers: {{"X-XSRFToken": xsrf}}}});
    if (!r.ok || !(r.headers.get("Content-Type") || "").startsWith("application/json")) return;
    const parts = await r.json();
    if (parts.deleted) {{ location.reload(); return; }}
    for (const name of ["heading", "grid", "bars", "snapshot"]) {{
      const box = document.getElementById("st-" + name);
      if (box && shown[name] !== parts[name]) {{ box.innerHTML = parts[name]; shown[name] = parts[name]; }}
    }}
  }} catch (e) {{}}
}}, {REFRESH_MS});
</script>"""

REFUSED = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not done · Teacher view</title></head>
<body><main><h1>Not done</h1><p role="alert">{why}</p><p><a href="./">Back to the teacher view</a></p></main>
</body></html>"""


def app(env: dict[str, str] | None = None) -> web.Application:
    """The service's tornado app, from the environment the hub gives it."""
    # JupyterHub (the "hub" extra) only where the hub runs this service
    from jupyterhub.services.auth import HubOAuth, HubOAuthCallbackHandler, HubOAuthenticated
    from jupyterhub.utils import url_path_join

    env = dict(os.environ) if env is None else env
    prefix = env.get("JUPYTERHUB_SERVICE_PREFIX", "/services/spades-teacher/")
    scopes = env.get("JUPYTERHUB_OAUTH_ACCESS_SCOPES", "")
    service = env.get("JUPYTERHUB_SERVICE_NAME", "spades-teacher")
    auth = HubOAuth(
        api_token=env["JUPYTERHUB_API_TOKEN"],
        oauth_client_id=env["JUPYTERHUB_CLIENT_ID"],
        base_url=prefix,
        api_url=env.get("JUPYTERHUB_API_URL", "http://127.0.0.1:8081/hub/api"),
        access_scopes=set(json.loads(scopes)) if scopes else {f"access:services!service={service}"},
    )

    class Hubbed(HubOAuthenticated):  # type: ignore[misc]
        def initialize(self) -> None:
            self.hub_auth = self.settings["hub_auth"]
            self._asking_hub = False

        def get_current_user(self) -> Any:
            # Asking the hub who this is checks the XSRF token of a form posted with the cookie, and a new
            # token's cookie asks who the user is again, in the one thread HubOAuth asks the hub from,
            # which is busy with the first question: it would wait for ever. The question asked again
            # meanwhile is answered "nobody" (an anonymous token's cookie, which the form's check refuses).
            if self._asking_hub:
                return None
            self._asking_hub = True
            try:
                return super().get_current_user()
            finally:
                self._asking_hub = False

    class CallbackHandler(Hubbed, HubOAuthCallbackHandler):  # type: ignore[misc]
        """The end of the hub's OAuth, with this service's one HubOAuth."""

    class TeacherHandler(Hubbed, web.RequestHandler):
        """The page (``/``), its redrawn parts (``/view``), the CSV (``/csv``) and the changes (``POST /act``),
        for the teachers only."""

        def teacher(self) -> str:
            user = self.current_user
            if not user or user.get("name") not in self.settings["teachers"]:
                raise web.HTTPError(403, "the teacher view is for the class's teachers")
            return str(user["name"])

        def teaching(self, name: str) -> Teaching:
            rates: dict[str, RateLimit] = self.settings["rates"]
            rate = rates.setdefault(name, RateLimit(ACTIONS_PER_S, ACTIONS_BURST))
            return Teaching(self.settings["store"], self.settings["session_id"], self.settings["lessons"], rate)

        def set_default_headers(self) -> None:
            self.set_header("Cache-Control", "no-store")
            self.set_header("X-Content-Type-Options", "nosniff")
            self.set_header("Content-Security-Policy", "default-src 'self'; style-src 'unsafe-inline'; "
                            "script-src 'unsafe-inline'; frame-ancestors 'none'; form-action 'self'")  # fmt: skip

        @web.authenticated
        def get(self, part: str | None = None) -> None:
            name = self.teacher()
            teaching = self.teaching(name)
            if part == "view":
                self.write(parts(teaching))  # a dict: JSON
            elif part == "csv":
                self.set_header("Content-Type", "text/csv; charset=utf-8")
                self.set_header("Content-Disposition", f'attachment; filename="{teaching.csv_name}"')
                self.write(teaching.csv())
            else:
                done = self.get_query_argument("done", "")
                said = done_words(done, teaching.state) if done in ACTIONS else ""
                if done == "delete":
                    said = "Every answer and nickname of the session is gone."
                confirm = self.get_query_argument("confirm", "") == "delete"
                self.write(page(teaching, name, self.xsrf_token.decode("ascii"), said, confirm))

        @web.authenticated
        def post(self, part: str | None = None) -> None:
            name = self.teacher()
            if part != "act":
                raise web.HTTPError(405)
            teaching = self.teaching(name)
            try:
                action = self.field("action")
                if action not in ACTIONS:
                    raise ValueError("Not something the teacher view does.")
                self.act(teaching, action)
            except TooFast as e:
                self.refuse(429, str(e))
                return
            except ValueError as e:
                self.refuse(400, str(e))
                return
            self.redirect(f"{prefix}?done={action}", status=303)

        def field(self, name: str, default: str = "") -> str:
            """A field of the posted form as it was sent (tornado's own reading trims it and turns control
            characters into spaces: " 2" would pass for a step, a NUL for a space); one value at most."""
            values = self.request.body_arguments.get(name, [])
            if len(values) > 1:
                raise ValueError(f"The form sent {name} more than once.")
            try:
                return values[0].decode("utf-8") if values else default
            except UnicodeDecodeError:
                raise ValueError(f"The form's {name} is not UTF-8 text.") from None

        def act(self, teaching: Teaching, action: str) -> None:
            arg = self.field
            if action == "lesson":
                teaching.pick_lesson(number(arg("lesson", "")))
            elif action == "anonymous":
                teaching.set_anonymous(switch(arg("value", "")))
            elif action == "question":
                teaching.pick_question(number(arg("step", "")) - 1)
            elif action == "reveal":
                teaching.set_reveal(switch(arg("value", "")))
            elif action == "snapshot":
                teaching.pin_snapshot()
            elif action == "unsnap":
                teaching.take_down_snapshot()
            elif action == "limit":
                step = arg("step", "")
                teaching.set_limit(None if step == "all" else number(step) - 1)
            elif action == "bring":
                teaching.bring(number(arg("step", "")) - 1)
            elif action == "pause":
                paused = switch(arg("value", ""))
                teaching.set_pause(paused, check_message(arg("message", "")) if paused else "")
            elif action == "delete":
                if arg("confirm", "") != "yes":
                    raise ValueError("Deleting the session's data asks for a confirmation first.")
                teaching.delete()

        def refuse(self, status: int, why: str) -> None:
            self.set_status(status)
            self.write(REFUSED.format(why=html.escape(why)))

    return web.Application(
        [
            (prefix + r"(view|csv|act)?", TeacherHandler),
            (url_path_join(prefix, "oauth_callback"), CallbackHandler),
        ],
        cookie_secret=secrets.token_bytes(32),
        xsrf_cookies=True,
        hub_auth=auth,
        store=ClassStore(env[CLASS_DB_ENV]),
        session_id=int(env[CLASS_SESSION_ENV]),
        lessons=load_lessons(),
        teachers=teachers(env.get(TEACHERS_ENV, "")),
        rates={},
    )


def main() -> None:
    url = urlparse(os.environ["JUPYTERHUB_SERVICE_URL"])
    app().listen(url.port or 80, url.hostname or "127.0.0.1", max_body_size=MAX_BODY)
    ioloop.IOLoop.current().start()


if __name__ == "__main__":
    main()
