"""The hot routes (`serve.hot`) answer steps and observations exactly as Flask does: the
same requests go to two sessions with the same seed, one through the hot routes and one
through Flask alone, and the answers must match byte for byte (the session id aside)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("flask")

from werkzeug.test import Client  # noqa: E402

from phoneworld.serve.app import create_app  # noqa: E402
from phoneworld.serve.hot import HotRoutes  # noqa: E402
from phoneworld.serve.server import LOOPBACK_NAMES  # noqa: E402
from phoneworld.serve.sessions import Session  # noqa: E402
from tests.conftest import ROOT  # noqa: E402
from tests.shop import shop_spec  # noqa: E402

JSON = "application/json"

ACTIONS = [
    {"action_type": "wait"},
    {"action_type": "click", "index": 3},
    {"action_type": "click", "x": 500, "y": 250},
    {"action_type": "navigate_back"},
    {"action_type": "input_text", "text": "milk", "index": 1},
    {"action_type": "keyboard_enter"},
    {"action_type": "scroll", "direction": "down"},
    {"action_type": "fly"},
    {"action_type": "click", "index": 10_000},
    {"action_type": "click", "index": 1, "colour": "red"},
    {"action_type": "open_app", "app_name": "Mail"},
    {"action_type": "navigate_home"},
    {"action_type": "long_press", "index": 0},
    {"action_type": "answer", "text": "42"},
    {"action_type": "status", "goal_status": "complete"},
    {"action_type": "wait"},  # the episode is over: a 400
]
BODIES = [b"", b"  ", b"not json{", b"[1, 2]", b'"text"', b"[" * 50_000, b"{}",
          b"{" + b" " * 300_000 + b"}"]


@pytest.fixture(scope="module", params=["shop", "phone"])
def app(request):
    apps = [shop_spec()] if request.param == "shop" else ROOT / "generated"
    app = create_app(apps, chromium="/nonexistent/chromium", trusted_hosts=LOOPBACK_NAMES)
    yield app
    app.extensions["phoneworld"].close()


def clients(app) -> tuple[Client, Client, str, str, HotRoutes]:
    """(a client through the hot routes, one through Flask alone, their two sessions)."""
    hot = app.wsgi_app
    assert isinstance(hot, HotRoutes)
    fast, slow = Client(hot), Client(hot.app)
    a = fast.post("/api/sessions", json={"seed": 5}).json["session"]
    b = fast.post("/api/sessions", json={"seed": 5}).json["session"]
    return fast, slow, a, b, hot


def same(r1, r2, a: str, b: str) -> None:
    assert r1.status == r2.status
    assert r1.data.replace(a.encode(), b"<sid>") == r2.data.replace(b.encode(), b"<sid>")
    drop = ("Location",)
    h1 = {k: v for k, v in r1.headers.items() if k not in drop}
    h2 = {k: v for k, v in r2.headers.items() if k not in drop}
    assert h1 == h2


def test_steps_and_observations_match_flask_byte_for_byte(app):
    fast, slow, a, b, _ = clients(app)
    for action in ACTIONS:
        for fmt in ("", "?format=elements", "?format=none", "?format=xml"):
            same(fast.get(f"/api/sessions/{a}/observation{fmt}"),
                 slow.get(f"/api/sessions/{b}/observation{fmt}"), a, b)
        r1 = fast.post(f"/api/sessions/{a}/step", data=json.dumps(action),
                       content_type="application/json")
        r2 = slow.post(f"/api/sessions/{b}/step", data=json.dumps(action),
                       content_type="application/json")
        same(r1, r2, a, b)
        assert r1.status_code in (200, 400, 409)
    for body in BODIES:
        same(fast.post(f"/api/sessions/{a}/step", data=body, content_type=JSON),
             slow.post(f"/api/sessions/{b}/step", data=body, content_type=JSON), a, b)


def test_odd_requests_go_to_flask_and_get_its_answers(app):
    fast, slow, a, b, _ = clients(app)
    for method, path, kw in [
        ("get", "/api/sessions/nope/observation", {}),
        ("post", "/api/sessions/nope/step", {"json": {"action_type": "wait"}}),
        ("get", "/api/sessions/{}/step", {}),
        ("put", "/api/sessions/{}/observation", {}),
        ("head", "/api/sessions/{}/observation", {}),
        ("get", "/api/sessions/{}/observation?format=pdf", {}),
        ("get", "/api/sessions/{}/observation?format=xml&format=html", {}),
        ("get", "/api/sessions/{}/observation/", {}),
        ("post", "/api/sessions/{}/step", {"json": {"action_type": "wait"},
                                           "headers": {"Host": "evil.example"}}),
        ("post", "/api/sessions/{}/step", {"data": b"{}",
                                           "headers": {"Transfer-Encoding": "chunked"}}),
    ]:
        r1 = getattr(fast, method)(path.format(a), **kw)
        r2 = getattr(slow, method)(path.format(b), **kw)
        same(r1, r2, a, b)
        assert r1.status_code < 500
    r = fast.post(f"/api/sessions/{a}/step", json={"action_type": "wait"},
                  headers={"Host": "evil.example"})
    assert r.status_code == 400  # DNS rebinding: Flask's trusted-hosts check


def test_the_hot_routes_do_skip_flask(app, monkeypatch):
    fast, _, a, _, hot = clients(app)
    called: list[str] = []
    monkeypatch.setattr(hot, "app", lambda environ, start: called.append(
        environ["PATH_INFO"]) or [])
    assert fast.post(f"/api/sessions/{a}/step", json={"action_type": "wait"}).json["step"] == 1
    assert fast.get(f"/api/sessions/{a}/observation?format=xml").json["xml"]
    assert fast.get("/api/sessions/nope/observation").status_code == 404
    assert not called


def test_a_bug_is_a_logged_json_500_both_ways(app, monkeypatch, caplog):
    fast, slow, a, b, _ = clients(app)

    def broken(self, action):
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(Session, "step", broken)
    r1 = fast.post(f"/api/sessions/{a}/step", json={"action_type": "wait"})
    r2 = slow.post(f"/api/sessions/{b}/step", json={"action_type": "wait"})
    same(r1, r2, a, b)
    assert r1.status_code == 500 and "ZeroDivisionError" in r1.json["error"]
    assert sum("unexpected error on POST" in m for m in caplog.messages) == 2


def test_an_unchanged_screen_sends_the_same_form_and_a_changed_one_a_new_one(app):
    fast, _, a, _, _ = clients(app)
    first = fast.get(f"/api/sessions/{a}/observation").json
    again = fast.post(f"/api/sessions/{a}/step", json={"action_type": "wait"}).json
    assert again["elements"] == first["elements"] and again["step"] == 1
    editable = [e["index"] for e in again["elements"] if e["editable"]]
    if editable:  # the shop's search field (the phone's launcher has none)
        typed = fast.post(f"/api/sessions/{a}/step", json={
            "action_type": "input_text", "text": "zebra", "index": editable[0]}).json
        assert any(e["text"] == "zebra" for e in typed["elements"])
