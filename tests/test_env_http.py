"""The env's HTTP backend against `phoneworld serve` and against a tiny stand-in that
speaks the same API (so the client is tested even where serve is not installed), each
served from a thread on 127.0.0.1."""

from __future__ import annotations

import logging
import threading
import uuid
import warnings
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")
flask = pytest.importorskip("flask")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from phoneworld.env import make  # noqa: E402
from phoneworld.env.backends.http import HttpBackend, HttpError  # noqa: E402
from phoneworld.errors import InvalidAction, PhoneworldError  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "generated" / "shopping"


def stub_server(app_dir: Path):
    """The agent API's sessions, observation, step, reset, check and delete routes."""
    from phoneworld.apps import load_app
    from phoneworld.runtime import Machine

    spec = load_app(app_dir).spec
    sessions: dict[str, Machine] = {}
    app = flask.Flask("stub")

    def observation(sid: str, fmt: str):
        m = sessions[sid]
        out = {"session": sid, "screen": m.screen, "event": "", "apps": [spec.name],
               "screen_size": [spec.width, spec.height], "done": m.done, "task": None}
        out[fmt] = m.observe(fmt)
        return out

    def fmt() -> str:
        return flask.request.args.get("format", "elements")

    @app.post("/api/sessions")
    def create():
        if (flask.request.get_json(silent=True) or {}).get("task") is not None:
            return {"error": "this stand-in knows no tasks", "status": 400, "field": "task"}, 400
        sid = uuid.uuid4().hex
        sessions[sid] = Machine(spec)
        sessions[sid].reset((flask.request.get_json(silent=True) or {}).get("seed"))
        return observation(sid, fmt()), 201

    @app.get("/api/sessions/<sid>/observation")
    def observe(sid):
        return observation(sid, fmt())

    @app.post("/api/sessions/<sid>/step")
    def step(sid):
        try:
            sessions[sid].step(flask.request.get_json())
        except InvalidAction as err:
            return {"error": str(err), "status": 400, "field": err.field}, 400
        return observation(sid, fmt())

    @app.post("/api/sessions/<sid>/reset")
    def reset(sid):
        sessions[sid].reset((flask.request.get_json(silent=True) or {}).get("seed"))
        return observation(sid, fmt())

    @app.get("/api/sessions/<sid>/check")
    def check(sid):
        return {"error": "this session has no task", "status": 400, "field": "task"}, 400

    @app.delete("/api/sessions/<sid>")
    def delete(sid):
        sessions.pop(sid, None)
        return "", 204

    app.sessions = sessions  # type: ignore[attr-defined]
    return app


@pytest.fixture(scope="module", params=["serve", "stub"])
def server(request):
    if not (APP / "spec.pw").is_file():
        pytest.skip("generated/shopping is not here")
    kind = request.param
    if kind == "serve":
        try:
            from phoneworld.serve import create_app
        except ImportError:
            pytest.skip("phoneworld.serve is not here")
        app = create_app(APP)
    else:
        app = stub_server(APP)
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}", kind, app
    srv.shutdown()
    thread.join(timeout=10)


def test_check_env_passes_over_http(server):
    url, _, _ = server
    env = make(url, app="shopping")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env, skip_render_check=True)
    env.close()


def test_steps_go_to_the_served_app(server):
    url, _, _ = server
    env = make(url, app="shopping", max_steps=5)
    assert (env.width, env.height) == (1080, 2400) and env.backend.apps == ("shopping",)
    obs, info = env.reset(seed=0)
    assert info["screen"] == "main" and "Corner Shop" in obs["elements"]
    obs, _, _, _, info = env.step({"name": "click", "arguments": {"coordinate": [500, 127]}})
    assert info["screen"] == "search"
    held = obs
    obs, _, _, _, info = env.step("Action: back")
    assert info["screen"] == "main"
    # read after the next step: what the server showed then, not now
    assert "Corner Shop" not in held["xml"] and "Corner Shop" in obs["xml"]
    env.close()


def test_a_refused_action_is_an_invalid_step(server):
    url, _, _ = server
    env = make(url, app="shopping")
    env.reset()
    _, _, _, _, info = env.step({"action_type": "click", "index": 999})
    assert info["error_field"] == "index" and "out of range" in info["error"]
    assert not info["error"].startswith("index: index")
    env = make(url, app="shopping", invalid_action="raise")
    env.reset()
    with pytest.raises(InvalidAction):
        env.step({"action_type": "input_text", "text": "x"})  # no field has focus


def test_close_deletes_the_session(server):
    url, kind, app = server
    env = make(url, app="shopping")
    env.reset()
    sid = env.backend.session
    env.close()
    assert env.reset()[1]["screen"] == "main"  # a new session
    assert env.backend.session != sid
    env.close()
    if kind == "stub":
        assert sid not in app.sessions
    else:
        with pytest.raises(HttpError, match="404"):
            HttpBackend(url, app="shopping").request("GET", f"/sessions/{sid}/observation")


def test_a_task_the_server_refuses_is_a_clear_error(server):
    url, _, _ = server
    env = make(url, app="shopping")
    with pytest.raises(PhoneworldError, match=r"POST /sessions\?format=elements: \d{3}: "):
        env.reset(options={"task": "shopping/no-such-task#0"})


def test_an_unreachable_server_says_where_it_looked():
    with pytest.raises(HttpError, match=r"cannot reach the phoneworld server at "
                                        r"http://127.0.0.1:9/.*phoneworld serve"):
        HttpBackend("http://127.0.0.1:9/", app="shopping", timeout=2)
    with pytest.raises(PhoneworldError, match="not an http"):
        HttpBackend("ftp://example.com")
