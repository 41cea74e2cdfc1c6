"""The teacher view the hub serves (spades_tutor.hub_teacher): its page, each control, and what it refuses.

The service's tornado app runs for real on a free port against a temporary SQLite class store, with
JupyterHub's own OAuth and XSRF code (``HubOAuth``, ``HubOAuthenticated``). Only the hub's answer to
"whose token is this?" (``HubOAuth._api_request``, the one HTTP call to the hub's API) is faked, with
the models the hub gives: a teacher and a learner logged in to the hub carry the service's signed OAuth
cookie, as after the OAuth dance. A learner's kernel (the app, told the class as the hub tells each
learner's server) obeys the pacing set here. tests/browser/test_hub.py opens it for real through a
local hub."""

from __future__ import annotations

import asyncio
import csv
import io
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from tornado import web
from tornado.httpserver import HTTPServer
from tornado.testing import bind_unused_port

from spades_tutor import hub_teacher
from spades_tutor.hub_teacher import TEACHERS_ENV, teachers
from spades_tutor.lessons import load_lessons
from spades_tutor.session.class_store import CLASS_DB_ENV, CLASS_SESSION_ENV, ClassStore

pytest.importorskip("jupyterhub")

PREFIX = "/services/spades-teacher/"
CLIENT_ID = "service-spades-teacher"
ACCESS = "access:services!service=spades-teacher"
LESSONS = load_lessons()
LESSON = LESSONS[0]
#: what the hub's API says of each token: a teacher, a learner (no access to the service), and a user the
#: hub lets in (an admin, say) who is not one of the class's teachers
HUB_USERS = {
    "tess-token": {"kind": "user", "name": "tess", "admin": False, "groups": [], "scopes": [ACCESS]},
    "ben-token": {"kind": "user", "name": "ben", "admin": False, "groups": [], "scopes": []},
    "root-token": {"kind": "user", "name": "root", "admin": True, "groups": [], "scopes": [ACCESS]},
}


class Service:
    """The service on a free port, in a thread of its own; a browser-like session per hub user."""

    def __init__(self, store: ClassStore, session: int) -> None:
        self.store, self.session = store, session
        env = {
            CLASS_DB_ENV: store.url,
            CLASS_SESSION_ENV: str(session),
            TEACHERS_ENV: "tess,tom",
            "JUPYTERHUB_API_TOKEN": "the-service-s-own-token",
            "JUPYTERHUB_CLIENT_ID": CLIENT_ID,
            "JUPYTERHUB_SERVICE_PREFIX": PREFIX,
            "JUPYTERHUB_SERVICE_NAME": "spades-teacher",
            "JUPYTERHUB_API_URL": "http://127.0.0.1:9/hub/api",  # never reached: the call below answers
        }
        self.app = hub_teacher.app(env)
        self.asked: list[str] = []

        async def hub_api(method: str, url: str, /, **kwargs: Any) -> Any:
            token = kwargs["headers"]["Authorization"].removeprefix("token ")
            self.asked.append(token)
            return HUB_USERS.get(token)  # the hub answers 403 (None here) for a token it does not know

        self.app.settings["hub_auth"]._api_request = hub_api
        self.loop = asyncio.new_event_loop()
        sock, self.port = bind_unused_port()
        ready = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            server = HTTPServer(self.app, max_body_size=hub_teacher.MAX_BODY)
            server.add_sockets([sock])
            self.loop.call_soon(ready.set)
            self.loop.run_forever()
            server.stop()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        ready.wait(10)

    def url(self, path: str = "") -> str:
        return f"http://127.0.0.1:{self.port}{PREFIX}{path}"

    def browser(self, token: str | None) -> requests.Session:
        """A browser logged in to the hub as the token's user (the service's OAuth cookie, signed as the
        service signs it at the end of the OAuth dance); None: not logged in."""
        s = requests.Session()
        if token is not None:
            signed = web.create_signed_value(self.app.settings["cookie_secret"], CLIENT_ID, token)
            s.cookies.set(CLIENT_ID, signed.decode())
        return s

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture
def class_store(tmp_path: Path) -> Iterator[ClassStore]:
    store = ClassStore(f"sqlite:///{tmp_path / 'class.sqlite'}")
    yield store
    store.close()


@pytest.fixture
def service(class_store: ClassStore) -> Iterator[Service]:
    s = Service(class_store, class_store.start_session("hub"))
    yield s
    s.stop()


def answer(store: ClassStore, session: int, nickname: str, said: str, diagnosis: str = "", step: int = 2) -> int:
    learner = store.join(session, nickname)
    store.reach(learner.id, LESSON.number, step)
    store.record(session, learner.id, lesson=LESSON.number, step=step, kind="seat", item_key="q", answer=said,
                 right_answer="North", correct=said == "North", attempt=1, diagnosis=diagnosis)  # fmt: skip
    return learner.id


def token_of(page: str) -> str:
    found = re.search(r'name="_xsrf" value="([^"]+)"', page)
    assert found, "the page has no XSRF token"
    return found.group(1)


def open_page(browser: requests.Session, service: Service, query: str = "") -> tuple[str, str]:
    """The page (as a browser navigates to it) and the XSRF token its forms carry."""
    r = browser.get(service.url(query), headers={"Sec-Fetch-Mode": "navigate"}, allow_redirects=False)
    assert r.status_code == 200, (r.status_code, r.text[:300])
    return r.text, token_of(r.text)


def post(browser: requests.Session, service: Service, token: str | None, **fields: Any) -> requests.Response:
    data = dict(fields) if token is None else {"_xsrf": token, **fields}
    return browser.post(service.url("act"), data=data, allow_redirects=False, headers={"Sec-Fetch-Mode": "navigate"})


def view(browser: requests.Session, service: Service, token: str) -> dict[str, Any]:
    """The parts the page redraws, fetched as its script fetches them (with the XSRF header)."""
    r = browser.get(service.url("view"), headers={"X-XSRFToken": token, "Sec-Fetch-Mode": "cors"})
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("application/json"), r.status_code
    result: dict[str, Any] = r.json()
    return result


def test_the_page_shows_every_learner_and_the_rooms_answers_and_hides_names_everywhere(service: Service) -> None:
    store, session = service.store, service.session
    tess = service.browser("tess-token")
    page, token = open_page(tess, service)
    assert "No learner has joined yet" in page and "Teacher view · lesson" in page
    assert store.state(session).lesson == LESSON.number  # a lesson is taught: the learners' pacing applies to it
    answer(store, session, "Ana", "North")
    answer(store, session, "Ben & co", "East", "The jokers swapped.")
    parts = view(tess, service, token)
    assert "2 learners joined · 2 in this lesson now · 2 answers" in parts["heading"]
    assert "Ana" in parts["grid"] and "Ben &amp; co" in parts["grid"] and "Ben & co" not in parts["grid"]
    assert parts["grid"].count("st-cell-first") == 1 and parts["grid"].count("st-cell-missed") == 1
    assert "2 answers to step 3" in parts["bars"] and "hidden until you reveal" in parts["bars"]
    assert "✓ right answer" not in parts["bars"] and "jokers swapped" not in parts["bars"]
    page, token = open_page(tess, service)
    assert "Ana" in page and "Hide names (for the projector)" in page

    assert post(tess, service, token, action="anonymous", value="1").status_code == 303
    page, token = open_page(tess, service, "?done=anonymous")
    for shown in (page, *view(tess, service, token).values()):
        assert "Ana" not in str(shown) and "Ben" not in str(shown)
    assert "Learner 1" in page and "Learner 2" in page and "Names are hidden" in page and "Show names" in page
    assert post(tess, service, token, action="snapshot").status_code == 303
    page, token = open_page(tess, service)
    assert "Snapshot of step 3" in page and "North: 1" in page and "Ana" not in page
    assert post(tess, service, token, action="anonymous", value="0").status_code == 303
    assert "Ana" in view(tess, service, token)["grid"]


def test_each_control_changes_the_class_and_says_what_it_did(service: Service) -> None:
    store, session = service.store, service.session
    answer(store, session, "Ana", "North")
    answer(store, session, "Ben", "East", "The jokers swapped.")
    tess = service.browser("tess-token")
    page, token = open_page(tess, service)

    def do(query: str = "", **fields: str) -> str:
        r = post(tess, service, token, **fields)
        assert r.status_code == 303 and r.headers["Location"] == f"{PREFIX}?done={fields['action']}", r.text[:300]
        return open_page(tess, service, query or f"?done={fields['action']}")[0]

    page = do(action="reveal", value="1")
    assert "The right answer is revealed." in page and "North ✓ right answer" in page
    assert "1 of 2 said East: The jokers swapped." in page and "Hide the answer" in page
    page = do(action="question", step="2")
    assert store.state(session).question_step == 1 and not store.state(session).reveal
    assert "No answer to step 2's question yet." in page and "Showing the answers to step 2's question." in page
    page = do(action="question", step="3")
    page = do(action="snapshot")
    assert "Snapshot of step 3's answers" in page and "Take the snapshot down" in page
    page = do(action="unsnap")
    assert store.state(session).snapshot == "" and "Snapshot of step" not in page

    page = do(action="limit", step="2")
    assert store.state(session).step_limit == 1 and "Learners may reach step 2 at most." in page
    page = do(action="bring", step="4")  # the limit is raised to the step they are brought to
    state = store.state(session)
    assert state.bring_step == 3 and state.bring_count == 1 and state.step_limit == 3
    assert "Every learner was brought to step 4." in page
    page = do(action="limit", step="all")
    assert store.state(session).step_limit is None and "Learners may reach every step." in page
    page = do(action="pause", value="1", message="Pencils down <b>now</b>")
    state = store.state(session)
    assert state.paused and state.message == "Pencils down <b>now</b>"
    assert "Screens paused: “Pencils down &lt;b&gt;now&lt;/b&gt;”" in page and "Resume every screen" in page
    assert "screens paused" in page
    page = do(action="pause", value="0")
    assert not store.state(session).paused and "Screens resumed." in page

    other = LESSONS[1]
    page = do(action="lesson", lesson=str(other.number))
    state = store.state(session)
    assert state.lesson == other.number and state.question_step is None and state.step_limit is None
    assert f"Teaching lesson {other.number}" in page and f"lesson {other.number}: " in page
    # the step choices follow the lesson taught: the question's, the limit's (and "every step"), the bringing's
    assert page.count('<option value="') == len(LESSONS) + 3 * len(other.steps) + 1


def test_the_csv_downloads_and_the_data_is_deleted_only_after_a_confirmation(service: Service) -> None:
    store, session = service.store, service.session
    answer(store, session, "Ana", "North")
    answer(store, session, "-Bo", "East")
    tess = service.browser("tess-token")
    page, token = open_page(tess, service)
    assert f'href="csv?_xsrf={token}" download="class-session-{session}.csv"' in page
    r = tess.get(service.url(f"csv?_xsrf={token}"), headers={"Sec-Fetch-Mode": "navigate"})
    assert r.status_code == 200 and r.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert r.headers["Content-Disposition"] == f'attachment; filename="class-session-{session}.csv"'
    rows = list(csv.reader(io.StringIO(r.text)))
    assert len(rows) == 3 and [row[2] for row in rows[1:]] == ["Ana", "'-Bo"]

    # delete asks first; a post without the confirmation deletes nothing
    assert "Delete this session's data…" in page and "for good?" not in page
    page, token = open_page(tess, service, "?confirm=delete")
    assert "Delete the 2 answers and the nicknames of 2 learners of this session for good?" in page
    assert "Delete for good" in page and "Keep it" in page and "Ana" not in page.split("for good?")[0][-200:]
    r = post(tess, service, token, action="delete")
    assert r.status_code == 400 and "confirmation" in r.text and len(store.answers(session)) == 2
    r = post(tess, service, token, action="delete", confirm="yes")
    assert r.status_code == 303
    assert not store.session_exists(session) and store.answers(session) == [] and store.learners(session) == []
    page = tess.get(service.url("?done=delete"), headers={"Sec-Fetch-Mode": "navigate"}).text
    assert "This session's data is deleted" in page and "<script>" not in page and "<form" not in page
    assert view(tess, service, token)["deleted"] is True
    r = post(tess, service, token, action="reveal", value="1")
    assert r.status_code == 400 and "deleted" in r.text


def test_only_a_teacher_with_the_pages_xsrf_token_and_valid_values_changes_anything(service: Service) -> None:
    store, session = service.store, service.session
    answer(store, session, "Ana", "North")
    tess = service.browser("tess-token")
    _, token = open_page(tess, service)
    before = store.state(session)

    # not logged in to the hub: sent to the hub's login (the OAuth dance), nothing shown or changed
    anon = service.browser(None)
    r = anon.get(service.url(), allow_redirects=False)
    assert r.status_code == 302 and "/hub/api/oauth2/authorize" in r.headers["Location"] and "Ana" not in r.text
    assert anon.post(service.url("act"), data={"action": "reveal", "value": "1"}).status_code == 403
    # logged in, but not one of the class's teachers: 403 whether the hub lets them in or not
    for name in ("ben-token", "root-token"):
        other = service.browser(name)
        r = other.get(service.url(), headers={"Sec-Fetch-Mode": "navigate"}, allow_redirects=False)
        assert r.status_code == 403 and "Ana" not in r.text, (name, r.status_code)
        assert other.get(service.url("csv"), allow_redirects=False).status_code == 403
        # even with the teacher's token (a page of hers, say, read somehow): the XSRF token is bound to her login
        assert post(other, service, token, action="reveal", value="1").status_code == 403
    # the teacher's own browser, without the page's token or with another: a forged form from another site
    assert post(tess, service, None, action="reveal", value="1").status_code == 403
    assert post(tess, service, "2|abcdef|0123|456", action="reveal", value="1").status_code == 403
    assert tess.get(service.url("view"), headers={"Sec-Fetch-Mode": "cors"}, allow_redirects=False).status_code == 302
    assert store.state(session) == before

    # values checked: steps of the lesson taught, lessons of the app, on/off, the message
    steps = len(LESSON.steps)
    for fields in (
        {"action": "bring", "step": "0"},
        {"action": "bring", "step": str(steps + 1)},
        {"action": "bring", "step": "1e3"},
        {"action": "bring", "step": " 2"},
        {"action": "bring"},
        {"action": "limit", "step": "-1"},
        {"action": "limit", "step": "99999"},
        {"action": "question", "step": "x"},
        {"action": "lesson", "lesson": "999"},
        {"action": "reveal", "value": "yes"},
        {"action": "pause", "value": "1", "message": "x" * 201},
        {"action": "pause", "value": "1", "message": "line\x00break"},
        {"action": "pause", "value": "1", "message": "bell\x07"},
        {"action": "pause", "value": "1", "message": "evil\u202eright to left"},
        {"action": ["reveal", "pause"], "value": "1"},
        {"action": "format-the-disk"},
        {"action": "snapshot"},  # no answer to the question shown yet: nothing to pin
    ):
        if fields.get("action") == "snapshot":
            post(tess, service, token, action="question", step="1")
            before = store.state(session)
        r = post(tess, service, token, **fields)
        assert r.status_code == 400, (fields, r.status_code)
        assert "Back to the teacher view" in r.text and "<script" not in r.text
        assert store.state(session) == before, fields
    assert post(tess, service, token, action="pause", value="1", message="y" * 200).status_code == 303
    assert store.state(session).message == "y" * 200
    r = tess.post(service.url("act"), data={"_xsrf": token, "action": "pause", "value": "1", "message": "z" * 20_000})
    assert r.status_code in (400, 413)

    # a burst of changes, then this teacher waits (429), as in the single-server view
    statuses = [post(tess, service, token, action="reveal", value=str(i % 2)).status_code for i in range(30)]
    assert statuses[0] == 303 and statuses[-1] == 429
    assert "Too many changes" in post(tess, service, token, action="reveal", value="1").text


def test_a_learners_kernel_told_the_class_as_the_hub_tells_it_obeys_the_services_pacing(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spades_tutor.ui import errors
    from spades_tutor.ui.app import App

    store, session = service.store, service.session
    # jupyterhub_config.py gives each learner's server these two, and no teacher code
    monkeypatch.setenv(CLASS_DB_ENV, store.url)
    monkeypatch.setenv(CLASS_SESSION_ENV, str(session))
    monkeypatch.delenv("SPADES_TUTOR_TEACHER_DIGEST", raising=False)
    ana = App(query=f"lesson={LESSON.number}&step=2")
    seat = ana.class_seat
    assert seat is not None
    try:
        seat.token_store.value = ""
        seat.token_store.loaded = True
        assert seat.join("Ana") is not None
        player = ana.learn.player
        assert player is not None and player.step == 1
        tess = service.browser("tess-token")
        _, token = open_page(tess, service)
        assert post(tess, service, token, action="limit", step="2").status_code == 303
        seat.poll()
        assert player.next.disabled and "wait here" in player.gate.value
        assert post(tess, service, token, action="bring", step="1").status_code == 303
        seat.poll()
        assert player.step == 0
        assert post(tess, service, token, action="pause", value="1", message="Eyes up").status_code == 303
        seat.poll()
        assert seat.overlay.layout.display is None and "Eyes up" in seat.overlay.value
        assert post(tess, service, token, action="pause", value="0").status_code == 303
        seat.poll()
        assert seat.overlay.layout.display == "none"
    finally:
        errors.remove_sink(ana.show_error)
        seat.close()


def test_the_service_imports_nothing_of_the_widgets_or_the_ui() -> None:
    """It runs at the server's floor beside the hub: the class's store and the shared controls, no widgets."""
    code = (
        "import sys, spades_tutor.hub_teacher; "
        "print(sorted(m for m in sys.modules if m.startswith(('spades_tutor.ui', 'ipywidgets'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_teachers_are_a_list_of_names() -> None:
    assert teachers(" tess, tom,, ") == {"tess", "tom"}
    assert teachers("") == frozenset()
