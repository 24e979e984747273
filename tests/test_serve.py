"""`phoneworld serve` end to end through Flask's test client: the agent API, sessions, the
phone shell, tasks, errors, and the pages for a person."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, replace

import pytest

pytest.importorskip("flask")

from phoneworld.serve.app import create_app  # noqa: E402
from tests.conftest import ROOT  # noqa: E402
from tests.shop import SCRIPT, TEMPLATE, shop_spec, splash_shop_spec  # noqa: E402

GEN = ROOT / "generated"
ELEMENT_KEYS = {"index", "text", "class", "resource_id", "content_desc", "bounds", "clickable",
                "editable", "checkable", "checked", "scrollable"}


@pytest.fixture(scope="module")
def shop_app():
    app = create_app([shop_spec()], chromium="/nonexistent/chromium")
    yield app
    app.extensions["phoneworld"].close()


@pytest.fixture
def client(shop_app):
    return shop_app.test_client()


@pytest.fixture(scope="module")
def phone_app():
    app = create_app(GEN, chromium="/nonexistent/chromium")
    yield app
    app.extensions["phoneworld"].close()


def new(client, **body) -> dict:
    r = client.post("/api/sessions", json=body)
    assert r.status_code == 201, r.json
    return r.json


def step(client, sid: str, action: dict, status: int = 200, **query) -> dict:
    r = client.post(f"/api/sessions/{sid}/step", json=action, query_string=query)
    assert r.status_code == status, r.json
    return r.json


def index_of(obs: dict, label: str) -> int:
    return next(e["index"] for e in obs["elements"] if label in (e["text"], e["content_desc"]))


# -- the agent API on one app ----------------------------------------------------------------

def test_create_observe_step_reset_delete(client):
    obs = new(client, seed=7)
    sid = obs["session"]
    assert (obs["app"], obs["package"], obs["screen"], obs["step"]) == ("shop", "com.shop",
                                                                      "home", 0)
    assert obs["apps"] == ["shop"] and obs["task"] is None
    assert obs["elements"] and all(set(e) == ELEMENT_KEYS for e in obs["elements"])
    assert all(len(e["bounds"]) == 4 for e in obs["elements"])
    got = step(client, sid, {"action_type": "click", "index": index_of(obs, "Settings")})
    assert got["screen"] == "settings" and got["step"] == 1 and "settings" in got["event"]
    switch = next(e for e in got["elements"] if e["checkable"])
    assert switch["checked"] is True
    got = step(client, sid, {"action_type": "click", "x": 500, "y": 250})  # by coordinates
    assert next(e for e in got["elements"] if e["checkable"])["checked"] is False
    assert client.get(f"/api/sessions/{sid}/observation").json["screen"] == "settings"
    info = client.get(f"/api/sessions/{sid}").json
    assert (info["steps"], info["seed"], info["screen"]) == (2, 7, "settings")
    r = client.post(f"/api/sessions/{sid}/reset", json={"seed": 3})
    assert r.status_code == 200 and r.json["screen"] == "home" and r.json["step"] == 0
    assert client.delete(f"/api/sessions/{sid}").status_code == 204
    r = client.get(f"/api/sessions/{sid}/observation")
    assert r.status_code == 404 and "POST /api/sessions" in r.json["error"]


def test_every_action_type_over_http(client):
    sid = new(client)["session"]
    obs = step(client, sid, {"action_type": "input_text", "text": "milk",
                             "index": index_of(new(client), "Search products")})
    assert any(e["text"] == "milk" for e in obs["elements"])
    assert step(client, sid, {"action_type": "keyboard_enter"})["screen"] == "results"
    step(client, sid, {"action_type": "navigate_back"})
    step(client, sid, {"action_type": "scroll", "direction": "down"})
    step(client, sid, {"action_type": "swipe", "direction": "up", "x": 500, "y": 1000})
    step(client, sid, {"action_type": "long_press", "index": 0})
    step(client, sid, {"action_type": "wait"})
    assert step(client, sid, {"action_type": "navigate_home"})["event"] == "left_app"
    assert step(client, sid, {"action_type": "open_app", "app_name": "Shop"})["screen"]
    assert step(client, sid, {"action_type": "answer", "text": "42"})["answer"] == "42"
    assert step(client, sid, {"action_type": "status", "goal_status": "complete"})["done"]
    r = client.post(f"/api/sessions/{sid}/step", json={"action_type": "wait"})
    assert r.status_code == 400 and "reset first" in r.json["error"]


@pytest.mark.parametrize("fmt, needle", [
    ("xml", "<hierarchy"), ("html", 'class="phone"'), ("none", None)])
def test_observation_formats(client, fmt, needle):
    sid = new(client)["session"]
    obs = client.get(f"/api/sessions/{sid}/observation?format={fmt}").json
    assert obs["format"] == fmt and "elements" not in obs
    if needle:
        assert needle in obs[fmt]
    if fmt == "xml":
        assert obs["xml"].startswith("<?xml") and 'package="com.shop"' in obs["xml"]
        assert 'bounds="[' in obs["xml"]


@pytest.mark.parametrize("body, field", [
    ({"action_type": "fly"}, "action_type"),
    ({"action_type": "click"}, "index"),
    ({"action_type": "click", "index": 999}, "index"),
    ({"action_type": "click", "index": -1}, "index"),
    ({"action_type": "click", "x": 5000, "y": 10}, "x"),
    ({"action_type": "click", "x": 10}, "y"),
    ({"action_type": "scroll", "direction": "sideways"}, "direction"),
    ({"action_type": "input_text", "index": 0}, "text"),
    ({"action_type": "open_app", "app_name": "Mail"}, "app_name"),
    ({"action_type": "click", "index": 1, "colour": "red"}, "colour"),
    ({"index": 1}, "action_type"),
    ([1, 2], "body"),
    ("not json{", "body"),
    ("", "action"),
])
def test_invalid_actions_are_400_naming_the_field(client, body, field):
    sid = new(client)["session"]
    data = body if isinstance(body, str) else json.dumps(body)
    r = client.post(f"/api/sessions/{sid}/step", data=data, content_type="application/json")
    assert r.status_code == 400 and r.is_json
    assert r.json["field"] == field and r.json["error"].startswith(f"{field}:")


@pytest.mark.parametrize("body, field", [
    ({"seed": "x"}, "seed"), ({"seed": True}, "seed"), ({"seed": 2**70}, "seed"),
    ({"app": "Mail"}, "app"), ({"app": 3}, "app"), ({"colour": 1}, "colour"),
    ({"task": 5}, "task")])
def test_bad_session_fields_are_400(client, body, field):
    r = client.post("/api/sessions", json=body)
    assert r.status_code == 400 and r.json["field"] == field


def test_unknown_session_is_404_everywhere(client):
    for method, path in [("get", "observation"), ("post", "step"), ("post", "reset"),
                         ("get", "check"), ("get", "screenshot")]:
        r = getattr(client, method)(f"/api/sessions/nope/{path}", json={"action_type": "wait"})
        assert r.status_code == 404 and "no session 'nope'" in r.json["error"]
    assert client.delete("/api/sessions/nope").status_code == 404
    assert client.get("/api/sessions/nope").status_code == 404


def test_unknown_routes_methods_and_big_bodies_are_json_4xx(client):
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.is_json
    r = client.put("/api/sessions")
    assert r.status_code == 405 and r.is_json and "POST" in r.headers["Allow"]
    sid = new(client)["session"]
    r = client.post(f"/api/sessions/{sid}/step", data=b"{" + b" " * 300_000 + b"}",
                    content_type="application/json")
    assert r.status_code == 413 and r.is_json
    r = client.post(f"/api/sessions/{sid}/step", data=b"[" * 50_000,
                    content_type="application/json")
    assert r.status_code == 400 and r.json["field"] == "body"
    r = client.get(f"/api/sessions/{sid}/observation?format=pdf")
    assert r.status_code == 400 and r.json["field"] == "format"


@pytest.mark.parametrize("path", [
    "/api/sessions/..%2F..%2Fetc%2Fpasswd/observation",
    "/api/sessions/../../etc/passwd",
    "/../../../../etc/passwd",
    "/static/../../pyproject.toml",
    "/static/app.py",
    "/graph?app=../../../../etc/passwd",
    "/graph.svg?app=..%2Fspec.pw",
    "/api/sessions/%2e%2e/observation",
    "/?session=../../etc/passwd",
])
def test_no_path_reaches_the_file_system(client, path):
    r = client.get(path)
    assert 400 <= r.status_code < 500
    assert b"root:" not in r.data and b"[project]" not in r.data and b"screen " not in r.data


def test_sessions_are_isolated(client):
    a, b = new(client), new(client)
    step(client, a["session"], {"action_type": "click", "index": index_of(a, "Settings")})
    assert client.get(f"/api/sessions/{b['session']}/observation").json["screen"] == "home"
    assert a["session"] != b["session"] and len(a["session"]) >= 20


def test_concurrent_requests_on_one_session_and_many(shop_app):
    shared = new(shop_app.test_client())["session"]
    own: list[str] = []
    errors: list[object] = []

    def work() -> None:
        c = shop_app.test_client()
        mine = new(c)["session"]
        own.append(mine)
        for i in range(25):
            for sid in (shared, mine):
                r = c.post(f"/api/sessions/{sid}/step", json={"action_type": "wait"})
                if r.status_code != 200:
                    errors.append(r.json)
                if i % 5 == 0:
                    c.get(f"/api/sessions/{sid}/observation?format=xml")

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    c = shop_app.test_client()
    assert not errors
    assert c.get(f"/api/sessions/{shared}").json["steps"] == 8 * 25
    assert {c.get(f"/api/sessions/{s}").json["steps"] for s in own} == {25}


def test_session_cap_is_429_until_one_goes():
    app = create_app([shop_spec()], max_sessions=2)
    c = app.test_client()
    first = new(c)["session"]
    new(c)
    r = c.post("/api/sessions")
    assert r.status_code == 429 and "maximum of 2" in r.json["error"]
    assert int(r.headers["Retry-After"]) >= 1
    c.delete(f"/api/sessions/{first}")
    new(c)


def test_fuzzed_requests_never_get_a_5xx(shop_app):
    hypothesis = pytest.importorskip("hypothesis")
    st = hypothesis.strategies
    c = shop_app.test_client()
    sid = new(c)["session"]
    scalars = st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | \
        st.text(max_size=12)
    values = st.recursive(scalars, lambda x: st.lists(x, max_size=3)
                          | st.dictionaries(st.text(max_size=8), x, max_size=3), max_leaves=6)
    keys = st.sampled_from(["action_type", "index", "x", "y", "text", "direction", "app_name",
                            "goal_status", "keycode", "clear_text", "seed", "app", "task"])
    types_ = st.sampled_from(["click", "long_press", "input_text", "scroll", "swipe",
                              "open_app", "status", "answer", "navigate_back", "wait"])
    bodies = st.dictionaries(keys, values, max_size=4) | st.fixed_dictionaries(
        {"action_type": types_}, optional={"index": values, "x": values, "y": values,
                                          "text": values, "direction": values}) | values

    @hypothesis.settings(max_examples=150, deadline=None,
                         suppress_health_check=list(hypothesis.HealthCheck))
    @hypothesis.given(bodies, st.sampled_from(["step", "reset", "new"]),
                      st.text(max_size=6))
    def check(body, where, fmt):
        path = {"step": f"/api/sessions/{sid}/step", "reset": f"/api/sessions/{sid}/reset",
                "new": "/api/sessions"}[where]
        r = c.post(path, data=json.dumps(body), query_string={"format": fmt or "elements"})
        assert r.status_code < 500, r.json
        if r.status_code >= 400:
            assert r.json["error"]
        if r.status_code == 201:
            c.delete(f"/api/sessions/{r.json['session']}")
        if r.status_code == 200 and r.json.get("done"):
            c.post(f"/api/sessions/{sid}/reset")

    check()


# -- the phone shell: several apps -----------------------------------------------------------

def test_phone_launcher_open_app_home_and_switching(phone_app):
    c = phone_app.test_client()
    obs = new(c)
    sid = obs["session"]
    assert (obs["app"], obs["package"]) == ("launcher", "com.android.launcher3")
    assert obs["apps"] == sorted(obs["apps"]) and len(obs["apps"]) >= 2
    first, second = obs["apps"][:2]
    icon = index_of(obs, first.capitalize())  # the icon shows the label tasks use
    got = step(c, sid, {"action_type": "click", "index": icon})
    assert got["app"] == first and got["package"] != "com.android.launcher3"
    clickable = [e for e in got["elements"] if e["clickable"]]
    moved = None
    for e in clickable:  # find a tap that leaves the start screen
        out = step(c, sid, {"action_type": "click", "index": e["index"]})
        if out["screen"] != got["screen"] and out["app"] == first:
            moved = out["screen"]
            break
        c.post(f"/api/sessions/{sid}/reset", json={"app": first})
    assert moved is not None
    home = step(c, sid, {"action_type": "navigate_home"})
    assert (home["app"], home["package"]) == ("launcher", "com.android.launcher3")
    assert step(c, sid, {"action_type": "open_app", "app_name": second})["app"] == second
    back = step(c, sid, {"action_type": "open_app", "app_name": first})
    assert back["screen"] == moved  # the app kept its state
    r = c.post(f"/api/sessions/{sid}/step", json={"action_type": "open_app",
                                                  "app_name": first[:-1]})
    assert r.status_code == 400 and r.json["field"] == "app_name"
    assert "did you mean" in r.json["error"]


def test_phone_session_can_start_in_an_app(phone_app):
    c = phone_app.test_client()
    name = new(c)["apps"][-1]
    obs = new(c, app=name)
    assert obs["app"] == name
    r = c.post("/api/sessions", json={"app": name[:-1]})
    assert r.status_code == 400 and "did you mean" in r.json["error"]


# -- tasks -----------------------------------------------------------------------------------

@dataclass
class _Result:
    success: bool
    reason: str


class _Task:
    kind = "state"
    template = "notifications_off"
    apps = ("shop",)

    def __init__(self, task_id: str) -> None:
        self.id = task_id
        self.instruction = "Turn off <b>notifications</b>"
        self.params = {"label": SCRIPT}

    def check(self, target):
        off = target.state.flag("notifications") is False
        return _Result(off, "notifications are off" if off else "notifications are on")


@pytest.fixture
def fake_tasks(monkeypatch):
    """The hand-written spec's tasks, by hand: a task with an instruction to escape."""
    from phoneworld.serve import tasks

    def find_task(specs, task_id):
        if task_id != "shop/notifications_off#0":
            raise LookupError(f"no task {task_id!r}")
        return _Task(task_id)

    monkeypatch.setattr(tasks, "find_task", find_task)
    monkeypatch.setattr(tasks, "sample_tasks",
                        lambda specs, n, seed: [_Task("shop/notifications_off#0")] * n)


def test_task_session_checks_its_task(client, fake_tasks):
    listed = client.get("/api/tasks?n=2&seed=1").json["tasks"]
    assert len(listed) == 2 and listed[0]["id"] == "shop/notifications_off#0"
    assert listed[0]["params"] == {"label": SCRIPT}
    obs = new(client, task="shop/notifications_off#0")
    sid = obs["session"]
    assert obs["task"]["instruction"] == "Turn off <b>notifications</b>"
    r = client.get(f"/api/sessions/{sid}/check").json
    assert r == {"success": False, "reason": "notifications are on",
                 "task": "shop/notifications_off#0",
                 "instruction": "Turn off <b>notifications</b>"}
    step(client, sid, {"action_type": "click", "index": index_of(obs, "Settings")})
    step(client, sid, {"action_type": "click", "x": 500, "y": 250})
    assert client.get(f"/api/sessions/{sid}/check").json["success"] is True
    client.post(f"/api/sessions/{sid}/reset")  # the task stays, the state goes
    assert client.get(f"/api/sessions/{sid}/check").json["success"] is False
    r = client.post("/api/sessions", json={"task": "shop/nothing"})
    assert r.status_code == 400 and r.json["field"] == "task" and "no task" in r.json["error"]
    assert client.get("/api/tasks?n=0").status_code == 400
    assert client.get("/api/tasks?n=x").json["field"] == "n"


def test_a_session_without_a_task_has_nothing_to_check(client):
    sid = new(client)["session"]
    r = client.get(f"/api/sessions/{sid}/check")
    assert r.status_code == 400 and "no task" in r.json["error"]


def test_real_tasks(phone_app):
    c = phone_app.test_client()
    listed = c.get("/api/tasks?n=3&seed=0").json["tasks"]
    assert listed, "sample_tasks gave nothing"
    obs = new(c, task=listed[0]["id"])
    r = c.get(f"/api/sessions/{obs['session']}/check")
    assert r.status_code == 200 and isinstance(r.json["success"], bool)
    assert r.json["task"] == listed[0]["id"]


# -- the description, the pages, escaping ---------------------------------------------------

def test_openapi_describes_every_api_route(shop_app):
    doc = shop_app.test_client().get("/api/openapi.json").json
    assert doc["openapi"].startswith("3.")
    described = {(p, m.upper()) for p, ops in doc["paths"].items() for m in ops
                 if m != "parameters"}
    routed = set()
    for rule in shop_app.url_map.iter_rules():
        if rule.rule.startswith("/api"):
            path = rule.rule.replace("<sid:session_id>", "{id}")
            routed |= {(path, m) for m in rule.methods - {"HEAD", "OPTIONS"}}
    assert described == routed


def test_phone_page_uses_a_cookie_session_and_a_strict_csp(client):
    before = client.get("/api").json["sessions"]
    r = client.get("/")  # a visit makes no session: its script asks for one
    assert r.status_code == 200 and r.mimetype == "text/html"
    assert "Set-Cookie" not in r.headers and client.get("/api").json["sessions"] == before
    made = client.post("/session", json={})
    assert made.status_code == 201
    sid = made.headers["Set-Cookie"].split("phoneworld_session=")[1].split(";")[0]
    assert made.json["session"] == sid and "SameSite=Strict" in made.headers["Set-Cookie"]
    r = client.get("/")
    assert f"/api/sessions/{sid}" in r.text
    policy = r.headers["Content-Security-Policy"]
    nonce = policy.split("'nonce-")[1].split("'")[0]
    assert f'<script nonce="{nonce}">' in r.text and "default-src 'none'" in policy
    assert 'width: 412px; height: 915px' in r.text  # 1080x2400 at 412 CSS px wide
    again = client.get("/")
    assert "Set-Cookie" not in again.headers and f"/api/sessions/{sid}" in again.text
    assert '"watch": false' in again.text
    watched = client.get(f"/?session={sid}")  # following a session (an agent's): polls
    assert '"watch": true' in watched.text and "Set-Cookie" not in watched.headers
    assert client.get("/?session=nope").status_code == 404


def test_graph_lights_the_current_screen(client):
    obs = new(client)
    sid = obs["session"]
    step(client, sid, {"action_type": "click", "index": index_of(obs, "Settings")})
    svg = client.get(f"/graph.svg?session={sid}")
    assert svg.mimetype == "image/svg+xml"
    assert 'class="screen current" data-screen="settings"' in svg.text
    page = client.get(f"/graph?session={sid}")
    assert page.status_code == 200 and "The session is on settings." in page.text
    assert 'class="screen current"' not in client.get("/graph.svg").text  # no session


def test_graph_svg_is_well_formed_for_every_generated_app(phone_app):
    from lxml import etree

    c = phone_app.test_client()
    for name in new(c)["apps"]:
        svg = c.get(f"/graph.svg?app={name}")
        root = etree.fromstring(svg.data)
        assert root.tag.endswith("svg") and root.findall(".//{*}rect")
    assert c.get("/graph?app=nothing").status_code == 404


def test_graph_names_a_timed_transition_wait_alone():
    from phoneworld.serve.graph import screen_graph_svg

    svg = screen_graph_svg(splash_shop_spec())
    assert "splash \u2192 home: wait</title>" in svg  # no widget, no trailing space


def test_trace_text_is_escaped_everywhere():
    spec = replace(shop_spec(), title=SCRIPT)
    app = create_app([spec])
    c = app.test_client()
    sid = c.post("/session", json={}).json["session"]
    r = c.get("/")
    assert "<script>alert(1)</script>" not in r.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in r.text  # the title, shown as text
    obs = c.get(f"/api/sessions/{sid}/observation?format=html").json
    assert "<script>alert" not in obs["html"] and "&lt;script&gt;" in obs["html"]
    assert TEMPLATE in obs["html"]  # a template expression is shown, never evaluated
    els = c.get(f"/api/sessions/{sid}/observation").json["elements"]
    assert SCRIPT in {e["text"] for e in els}  # JSON carries the text as it is
    graph = c.get("/graph").text
    assert "<script>alert" not in graph


def test_screenshot_without_a_browser_says_what_to_install(client):
    sid = new(client)["session"]
    r = client.get(f"/api/sessions/{sid}/screenshot")
    assert r.status_code == 424 and "chromium" in r.json["error"].lower()
    assert client.get(f"/api/sessions/{sid}/screenshot?scale=huge").json["field"] == "scale"


def test_info_lists_apps_and_limits(phone_app):
    info = phone_app.test_client().get("/api").json
    assert info["phone"] is True and info["max_sessions"] == 1000
    assert {a["name"] for a in info["apps"]} >= {"shopping", "messages", "settings"}


def test_a_wait_step_lets_an_ad_give_way():
    app = create_app([splash_shop_spec()], chromium="/nonexistent/chromium")
    try:
        client = app.test_client()
        sid = new(client)["session"]
        assert client.get(f"/api/sessions/{sid}/observation").json["screen"] == "splash"
        assert step(client, sid, {"action_type": "wait"})["screen"] == "home"
    finally:
        app.extensions["phoneworld"].close()


def test_a_screenshots_wait_is_given_or_set_in_the_environment(monkeypatch) -> None:
    from phoneworld.errors import PhoneworldError
    from phoneworld.serve.screenshots import TIMEOUT, TIMEOUT_ENV, screenshot_timeout

    monkeypatch.delenv(TIMEOUT_ENV, raising=False)
    assert screenshot_timeout() == TIMEOUT == 10.0
    monkeypatch.setenv(TIMEOUT_ENV, " 45 ")
    assert screenshot_timeout() == 45.0 and screenshot_timeout(3) == 3
    for bad in ("soon", "0", "-5", "nan"):
        monkeypatch.setenv(TIMEOUT_ENV, bad)
        with pytest.raises(PhoneworldError, match=f"PHONEWORLD_SCREENSHOT_TIMEOUT is '{bad}'"):
            screenshot_timeout()
