"""The classroom benchmark's page without a browser (bench/widget_client.py): its framing, its reading of
the widgets' states, and its lesson script, driven against the real app in this process."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from ipywidgets.widgets.widget import _instances
from jupyter_server.services.kernels.connection.base import (
    deserialize_msg_from_ws_v1,
    serialize_binary_message,
    serialize_msg_to_ws_v1,
)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import widget_client as wc

from spades_tutor.ui.app import App


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 21)]  # 1..20
    assert wc.pct(values, 50) == 10.0
    assert wc.pct(values, 95) == 19.0
    assert wc.pct(values, 100) == 20.0
    assert wc.pct([3.0], 95) == 3.0


def test_v1_frames_read_as_jupyter_server_reads_them() -> None:
    msg = wc.message("comm_msg", {"comm_id": "abc", "data": {"method": "custom", "content": {"event": "click"}}}, "s1")
    channel, parts = deserialize_msg_from_ws_v1(wc.encode(msg, v1=True))
    assert channel == "shell"
    assert json.loads(parts[0])["msg_type"] == "comm_msg"
    assert json.loads(parts[3]) == msg["content"]


def test_server_frames_decoded_with_their_buffers() -> None:
    msg = wc.message("comm_msg", {"comm_id": "abc", "data": {"method": "update_states"}}, "s1")
    parts = [json.dumps(msg[k]).encode() for k in ("header", "parent_header", "metadata", "content")]
    v1 = wc.decode(serialize_msg_to_ws_v1([*parts, b"\x01\x02"], "iopub"), v1=True)
    assert (v1["channel"], v1["content"], v1["buffers"]) == ("iopub", msg["content"], [b"\x01\x02"])
    legacy = wc.decode(serialize_binary_message({**msg, "buffers": [b"xyz"]}), v1=False)
    assert (legacy["content"], legacy["buffers"]) == (msg["content"], [b"xyz"])


def test_button_found_by_description_and_boxes_walked_in_page_order() -> None:
    states: wc.States = {
        "root": {"_model_name": "VBoxModel", "children": ["IPY_MODEL_a", "IPY_MODEL_box"]},
        "box": {"_model_name": "HBoxModel", "children": ["IPY_MODEL_b", "IPY_MODEL_missing"]},
        "a": {"_model_name": "ButtonModel", "description": "◀ Back"},
        "b": {"_model_name": "ButtonModel", "description": "Next ▶"},
        "c": {"_model_name": "HTMLModel", "value": "Next ▶"},
    }
    assert wc.find_button(states, "Next ▶") == "b"
    assert wc.find_button(states, "Finish ✓") is None
    assert list(wc.descendants(states, "root")) == ["root", "a", "box", "b"]


# --- the lesson script against the app itself -----------------------------------------------------------------


class InProcessPage:
    """The states of the widgets built since it started, read as the kernel's ``update_states`` gives them."""

    def __init__(self) -> None:
        self.before = set(_instances)

    def states(self) -> wc.States:
        return {mid: dict(w.get_state()) for mid, w in list(_instances.items()) if mid not in self.before}

    def send(self, action: wc.Action) -> dict[str, Any]:
        """Deliver the action's comm message to its widget, as the kernel does; the answer widget's state after."""
        _instances[action.model_id]._handle_msg({"content": {"data": action.data}, "buffers": []})
        return dict(_instances[action.answer_id].get_state())


@pytest.fixture
def lesson_page() -> InProcessPage:
    page = InProcessPage()
    App("lesson=1")
    return page


def test_script_walks_lesson_one_answering_its_quizzes(lesson_page: InProcessPage) -> None:
    rng = random.Random(5)
    walk = wc.Walk()
    seen: list[tuple[str, tuple[int, int] | None]] = []
    for _ in range(40):
        states = lesson_page.states()
        step = wc.step_of(states)
        action = walk.next_action(states, rng)
        assert action is not None
        answer = lesson_page.send(action)
        # the answer the client waits for is there, in the widget and key the action names
        assert action.answer_key in answer
        if action.answer_text is not None:
            assert action.answer_text in str(answer[action.answer_key])
        seen.append((action.kind, step))
    kinds = [k for k, _ in seen]
    assert {"next", "back", "choose", "check"} <= set(kinds)
    # every quiz answer is checked after its choice, on the steps that hold a quiz
    for i, (kind, step) in enumerate(seen):
        if kind == "check":
            assert seen[i - 1][0] in ("choose", "toggle", "check")
            assert step is not None and step[0] in (3, 4)
    # walked to the last step (4 of 4) and back to the first
    steps = [s for _, s in seen if s is not None]
    assert (4, 4) in steps and (1, 4) in steps[steps.index((4, 4)) :]


def test_an_arrival_ends_as_a_pages_tti_does_with_next_answered_by_step_two(lesson_page: InProcessPage) -> None:
    states = lesson_page.states()
    first = wc.step_on(states)
    assert first is not None and first.kind == "next" and first.answer_text == "Step 2 of"
    assert states[first.model_id]["description"] == wc.NEXT
    assert "Step 2 of" in str(lesson_page.send(first)["value"])
    assert wc.step_on({}) is None


def test_the_clients_stores_send_what_a_drawn_pages_stores_send(lesson_page: InProcessPage) -> None:
    """A fresh page's store views (storage.js) send only what they changed: the time zone and loaded (the
    value stored is empty on a first visit, the page not reloaded); the kernel takes both."""
    client = wc.KernelClient(object())
    states = lesson_page.states()
    stores = [mid for mid, s in states.items() if {"key", "value", "loaded"} <= s.keys()]
    assert stores
    for mid in stores:
        start = client.store_start(states[mid])
        assert start == {"time_zone": "UTC", "loaded": True}
        _instances[mid]._handle_msg({"content": {"data": {"method": "update", "state": start}}, "buffers": []})
        assert (_instances[mid].loaded, _instances[mid].time_zone) == (True, "UTC")
    # a store that holds a value already: the page's empty one is sent too
    assert client.store_start({"key": "k", "value": "x", "loaded": False}) == {
        "value": "",
        "time_zone": "UTC",
        "reloaded": False,
        "loaded": True,
    }


def test_traffic_counts_frames_by_kind_naming_each_comm_by_its_model() -> None:
    traffic = wc.Traffic()
    control = wc.message("comm_open", {"comm_id": "ctl", "target_name": wc.CONTROL_TARGET, "data": {}}, "s")
    states = {"b1": {"state": {"_model_name": "ButtonModel"}}, "h1": {"state": {"_model_name": "HTMLModel"}}}
    reply = wc.message("comm_msg", {"comm_id": "ctl", "data": {"method": "update_states", "states": states}}, "s")
    reply["channel"] = "iopub"
    click = wc.message("comm_msg", {"comm_id": "b1", "data": wc.click()}, "s")
    answer = wc.message("comm_msg", {"comm_id": "h1", "data": {"method": "update", "state": {"value": "x"}}}, "s")
    answer["channel"] = "iopub"
    traffic.frame("sent", wc.encode(control, True))
    traffic.frame("received", wc.encode(reply, True))
    traffic.frame("sent", wc.encode(click, True))
    traffic.frame("sent", wc.encode(click, True))
    traffic.frame("received", wc.encode(answer, False))  # JSON text: the legacy framing
    traffic.request("GET", "/api/kernels/0b7e1f2c-1a2b-4c3d-8e9f-0a1b2c3d4e5f?1796652829483")
    traffic.request("GET", "/voila/static/voila.js?v=123")
    traffic.request("GET", "page")
    traffic.open = False
    traffic.frame("sent", wc.encode(click, True))  # after the arrival: not counted
    assert traffic.counts == {
        ("sent", "shell comm_open jupyter.widget.control"): 1,
        ("received", "iopub comm_msg update_states jupyter.widget.control"): 1,
        ("sent", "shell comm_msg custom ButtonModel {event}"): 2,
        ("received", "iopub comm_msg update HTMLModel {value}"): 1,
        ("http", "GET /api/kernels/<id>"): 1,
        ("http", "GET static file"): 1,
        ("http", "GET page"): 1,
    }
    assert traffic.sizes[("sent", "shell comm_msg custom ButtonModel {event}")] == 2 * len(wc.encode(click, True))
    # when each kind first went by, in the order they did
    firsts = [traffic.first[("sent", "shell comm_open jupyter.widget.control")]]
    firsts.append(traffic.first[("sent", "shell comm_msg custom ButtonModel {event}")])
    firsts.append(traffic.first[("http", "GET static file")])
    assert 0 <= firsts[0] <= firsts[1] <= firsts[2]
    table = wc.traffic_table({"page": traffic, "client": wc.Traffic()})
    assert "page" in table[0] and any("custom ButtonModel" in row and " 2 " in row for row in table)


def test_answer_matches_only_its_widget_and_text() -> None:
    action = wc.Action("next", "btn", wc.click(), "label", "value", "Step 2 of")

    def update(comm_id: str, state: dict[str, Any], method: str = "update") -> dict[str, Any]:
        return {
            "header": {"msg_type": "comm_msg"},
            "content": {"comm_id": comm_id, "data": {"method": method, "state": state}},
        }

    assert action.answered_by(update("label", {"value": "<span>Step 2 of 4</span>"}))
    assert not action.answered_by(update("label", {"value": "<span>Step 1 of 4</span>"}))
    assert not action.answered_by(update("other", {"value": "<span>Step 2 of 4</span>"}))
    assert not action.answered_by(update("label", {"layout": "x"}))
    assert not action.answered_by(update("label", {"value": "Step 2 of 4"}, method="custom"))


def test_a_kernel_level_learner_fetches_the_static_files_over_six_connections_as_a_browser(tmp_path: Path) -> None:
    """bench/classroom.py's fetch of a page's static files: every file once, its bytes counted, the
    requests spread over the six connections Chromium opens to one host (not one after another)."""
    import http.server
    import threading
    import time

    import classroom

    for k in range(18):
        (tmp_path / f"f{k}.js").write_bytes(b"x" * (1000 + k))
    seen: list[tuple[str, int]] = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the server does

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(tmp_path), **kwargs)

        def do_GET(self) -> None:
            seen.append((self.path, self.client_address[1]))
            super().do_GET()

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        files = [f"/f{k}.js" for k in range(18)]
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        received = classroom.fetch_files(base, files, "127.0.0.1", "", time.perf_counter() + 30)
    finally:
        server.shutdown()
        server.server_close()
    assert received == sum(1000 + k for k in range(18))
    assert sorted(path for path, _ in seen) == sorted(files)
    assert len({port for _, port in seen}) == classroom.BROWSER_CONNECTIONS == 6


# --- a class session: the learner joins, the teacher view counts the answers -----------------------------------


def test_a_client_joins_the_class_and_the_teacher_views_count_follows_its_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spades_tutor.session.class_store import (
        CLASS_DB_ENV,
        CLASS_SESSION_ENV,
        TEACHER_DIGEST_ENV,
        ClassStore,
        default_url,
        teacher_digest,
    )
    from spades_tutor.ui import errors
    from spades_tutor.ui.pages.teacher import TeacherTab

    store = ClassStore(default_url(tmp_path / "class-data"))
    session = store.start_session()
    monkeypatch.setenv(CLASS_DB_ENV, store.url)
    monkeypatch.setenv(CLASS_SESSION_ENV, str(session))
    monkeypatch.setenv(TEACHER_DIGEST_ENV, teacher_digest("TCH7QX"))
    apps: list[App] = []
    try:
        page = InProcessPage()
        learner = App("lesson=1")
        apps.append(learner)
        assert learner.class_seat is not None
        learner.class_seat.token_store.value = ""  # what a fresh page's store sends (KernelClient.start_page)
        learner.class_seat.token_store.loaded = True
        actions = wc.join_actions(page.states(), "Client 3")
        assert actions is not None and [a.kind for a in actions] == ["type", "join"]
        for action in actions:
            answer = page.send(action)
            assert action.answer_text is not None and action.answer_text in str(answer[action.answer_key])
        assert [x.nickname for x in store.learners(session)] == ["Client 3"]

        # the teacher's page: the lesson taught picked, the heading's count read from its state
        learner_states = page.states()
        teacher_page = InProcessPage()
        boss = App("teacher=TCH7QX")
        apps.append(boss)
        states = teacher_page.states()
        heading = wc.teacher_heading(states)
        assert heading is not None
        # the view opens on the lesson the learners are on: lesson 1, nothing to pick; another is picked
        assert "lesson 1:" in str(states[heading]["value"]) and wc.teach_lesson(states, 1) is None
        pick = wc.teach_lesson(states, 2)
        assert pick is not None and "lesson 2:" in str(teacher_page.send(pick)["value"])
        states = teacher_page.states()
        pick = wc.teach_lesson(states, 1)
        assert pick is not None and "lesson 1:" in str(teacher_page.send(pick)["value"])
        with pytest.raises(ValueError):
            wc.teach_lesson(learner_states, 1)  # a learner's page has no teacher view
        assert wc.teacher_answers(teacher_page.states()[heading]) == 0

        # the learner checks answers; each final one is one more on the teacher's heading at its next look
        walk, rng, checks = wc.Walk(), random.Random(5), 0
        while checks < 2:
            action = walk.next_action(page.states(), rng)
            assert action is not None
            answer = page.send(action)
            checks += action.kind == "check" and wc.final_verdict(answer["value"])  # a first wrong try is not kept
        view = boss.get_page(TeacherTab).view
        assert view is not None
        view.refresh()
        assert wc.teacher_answers(teacher_page.states()[heading]) == checks == len(store.answers(session))
    finally:
        for app in apps:
            errors.remove_sink(app.show_error)
            if app.class_seat is not None:
                app.class_seat.close()
        store.close()
