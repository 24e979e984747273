"""The agent API under `/api`: sessions, observations, steps, screenshots, checks.

    POST   /api/sessions                      {"app"?, "task"?, "seed"?} -> 201 observation
    GET    /api/sessions/<id>/observation     ?format=elements|xml|html|none
    POST   /api/sessions/<id>/step            an AndroidWorld JSON action -> observation
    POST   /api/sessions/<id>/reset           {"seed"?, "app"?} -> observation
    GET    /api/sessions/<id>/screenshot      ?scale=device|css&type=png|jpeg -> image
    GET    /api/sessions/<id>/check           -> {"success", "reason", "task", ...}
    DELETE /api/sessions/<id>                 -> 204

Every answer is JSON (a PNG for screenshots); every refusal is a 4xx with
`{"error": ..., "status": ..., "field"?: ...}` (see `errors`). `openapi.json` describes
it all.
"""

from __future__ import annotations

import json
import time
from typing import Any

from flask import Blueprint, Response, current_app, request

from phoneworld.serve import tasks as task_api
from phoneworld.serve.errors import ApiError
from phoneworld.serve.openapi import openapi
from phoneworld.serve.sessions import FORMATS, Session
from phoneworld.serve.ui import frame_size

bp = Blueprint("api", __name__, url_prefix="/api")

_SESSION_FIELDS = ("app", "task", "seed")
_RESET_FIELDS = ("app", "seed")
_SCALES = ("css", "device")


def json_response(obj: Any, status: int = 200, headers: dict[str, str] | None = None
                  ) -> Response:
    """`obj` as compact JSON (faster than `jsonify`, which sorts keys); bytes are taken
    as JSON already."""
    body = obj if isinstance(obj, bytes) else json.dumps(obj, separators=(",", ":"))
    return Response(body, status, headers, mimetype="application/json")


def _served() -> Any:
    return current_app.extensions["phoneworld"]


# -- the server ------------------------------------------------------------------------------

@bp.get("")
def info() -> Response:
    """What this server serves."""
    s = _served()
    return json_response({
        "apps": [{"name": a.name, "title": a.title, "package": a.package,
                  "screen_size": [a.width, a.height]} for a in s.store.specs],
        "phone": s.store.phone, "sessions": len(s.store), "max_sessions": s.store.max_sessions,
        "idle_timeout_s": s.store.idle_timeout, "screenshots": s.shots.available,
        "openapi": "/api/openapi.json"})


@bp.get("/openapi.json")
def openapi_json() -> Response:
    return json_response(openapi())


@bp.get("/tasks")
def tasks() -> Response:
    """Task instances drawn from the served apps: `?n=10&seed=0`."""
    n = _int_arg("n", 10)
    seed = _int_arg("seed", 0)
    return json_response({"tasks": task_api.sample(_served().store.specs, n, seed)})


# -- sessions ----------------------------------------------------------------------------------

@bp.post("/sessions")
def create_session() -> Response:
    body = _body(_SESSION_FIELDS)
    fmt = _format()
    app, seed = _app_field(body), _seed(body)
    store = _served().store
    task = None
    if body.get("task") is not None:
        task = task_api.resolve_task(store.specs, body["task"])
    session = store.create(app=app, task=task, seed=seed)
    with store.use(session.id) as s:
        out = s.observation(fmt)
        out["apps"] = [a.name for a in store.specs]
        out["task"] = task_api.describe(task) if task is not None else None
    return json_response(out, 201, {"Location": f"/api/sessions/{session.id}"})


@bp.get("/sessions/<sid:session_id>")
def session_info(session_id: str) -> Response:
    store = _served().store
    with store.use(session_id) as s:
        return json_response(_describe(s))


@bp.delete("/sessions/<sid:session_id>")
def delete_session(session_id: str) -> Response:
    _served().store.delete(session_id)
    return Response(status=204)


@bp.get("/sessions/<sid:session_id>/observation")
def observation(session_id: str) -> Response:
    fmt = _format()
    with _served().store.use(session_id) as s:
        return json_response(s.observation_json(fmt))


@bp.post("/sessions/<sid:session_id>/step")
def step(session_id: str) -> Response:
    fmt = _format()
    with _served().store.use(session_id) as s:  # an unknown id is a 404 before all else
        s.step(_body(None, required=True))
        return json_response(s.observation_json(fmt))


@bp.post("/sessions/<sid:session_id>/reset")
def reset(session_id: str) -> Response:
    fmt = _format()
    with _served().store.use(session_id) as s:
        body = _body(_RESET_FIELDS)
        s.reset(_seed(body), _app_field(body))
        return json_response(s.observation_json(fmt))


@bp.get("/sessions/<sid:session_id>/screenshot")
def screenshot(session_id: str) -> Response:
    # The device's pixels by default: an AndroidWorld click at (x, y) lands where the
    # picture shows it; css (412 wide) only when asked.
    scale = request.args.get("scale", "device")
    if scale not in _SCALES:
        raise ApiError(f"{scale!r} must be device (the app's own pixels, the default) or "
                       "css (412 CSS pixels wide)", field="scale")
    served = _served()
    with served.store.use(session_id) as s:
        html = s.html()
        width, height = s.front.spec.width, s.front.spec.height
    kind = request.args.get("type", "png")
    if kind not in ("png", "jpeg"):
        raise ApiError(f"{kind!r} must be png (the default) or jpeg (quality 90)",
                       field="type")
    device = scale == "device"
    png = served.shots.shot(html, width=width, height=height, device=device,
                            jpeg=kind == "jpeg")
    fw, _ = frame_size(width, height)
    return Response(png, mimetype=f"image/{kind}", headers={
        "Cache-Control": "no-store", "X-Screen-Size": f"{width}x{height}",
        "X-Image-Scale": f"{width / fw if device else 1:.6g}"})


@bp.get("/sessions/<sid:session_id>/check")
def check(session_id: str) -> Response:
    with _served().store.use(session_id) as s:
        if s.task is None:
            raise ApiError("this session has no task to check; create a session with "
                           '{"task": "<id>"} (GET /api/tasks lists ids)', field="task")
        return json_response(task_api.check_task(s.task, s.target))


# -- request parsing ---------------------------------------------------------------------------

def _body(allowed: tuple[str, ...] | None, required: bool = False) -> dict[str, Any]:
    return parse_body(request.get_data(cache=False), allowed, required)


def parse_body(raw: bytes, allowed: tuple[str, ...] | None, required: bool = False
               ) -> dict[str, Any]:
    """The JSON object in the body (`{}` when empty and not `required`); with `allowed`,
    an unknown key is a 400 naming it."""
    if not raw.strip():
        if required:
            raise ApiError('the body must be a JSON object, an AndroidWorld action such as '
                           '{"action_type": "click", "index": 3}', field="action")
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError) as err:
        raise ApiError(f"the body is not JSON ({err})", field="body") from None
    if not isinstance(body, dict):
        raise ApiError(f"the body must be a JSON object, not {type(body).__name__}",
                       field="body")
    if allowed is not None:
        for key in body:
            if key not in allowed:
                raise ApiError(f"unknown field; fields are {', '.join(allowed)}", field=key)
    return body


def _format() -> str:
    fmt = request.args.get("format", "elements")
    if fmt not in FORMATS:
        raise ApiError(f"{fmt!r} must be one of {', '.join(FORMATS)}", field="format")
    return fmt


def _seed(body: dict[str, Any]) -> int | None:
    seed = body.get("seed")
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int) or not -2**63 <= seed < 2**63:
        raise ApiError("must be an integer (64-bit)", field="seed")
    return seed


def _app_field(body: dict[str, Any]) -> str | None:
    app = body.get("app")
    if app is not None and not isinstance(app, str):
        raise ApiError("must be a string: an app's name, title or package", field="app")
    return app


def _int_arg(name: str, default: int) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ApiError(f"{raw!r} is not an integer", field=name) from None


def _describe(s: Session) -> dict[str, Any]:
    now = time.monotonic()
    return {"session": s.id, "app": s.app, "screen": s.front.screen, "steps": s.steps,
            "seed": s.seed, "task": task_api.describe(s.task) if s.task is not None else None,
            "age_s": round(now - s.created, 3)}
