"""The OpenAPI 3.1 description of the agent API, served at `/api/openapi.json`.

Written out by hand, next to the routes it describes; a test holds the two in step
(every `/api` route is described, and nothing else is).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from phoneworld.runtime.actions import ACTION_TYPES, DIRECTIONS, GOAL_STATUSES

_ID = {"name": "id", "in": "path", "required": True,
       "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"},
       "description": "The session id that POST /api/sessions returned."}
_FORMAT = {"name": "format", "in": "query", "required": False,
           "schema": {"type": "string", "enum": ["elements", "xml", "html", "none"],
                      "default": "elements"},
           "description": "The screen's form in the answer: the indexed element list, the "
                          "uiautomator XML dump, the phone-sized HTML page, or none."}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*codes: int) -> dict[str, Any]:
    why = {400: "Invalid request: the message names the field.",
           404: "No such session (deleted, expired or never made).",
           409: "Well-formed, but the app or the task's checker cannot do it here.",
           424: "No browser for screenshots (install chromium, or set PHONEWORLD_CHROMIUM).",
           429: "At the session cap, or the browser is busy: retry later (Retry-After)."}
    return {str(c): _json(_ref("Error"), why[c]) for c in codes}


def _obs(description: str, status: str = "200") -> dict[str, Any]:
    return {status: _json(_ref("Observation"), description)}


@lru_cache(maxsize=1)
def openapi() -> dict[str, Any]:
    """The OpenAPI document (a fresh dict is not needed: callers only serialise it)."""
    session_path = {"parameters": [_ID]}
    return {
        "openapi": "3.1.0",
        "info": {"title": "phoneworld agent API", "version": "1",
                 "description": "Mock Android apps compiled from recorded traces. Create a "
                                "session, read observations, send AndroidWorld JSON actions, "
                                "take screenshots and check the session's task."},
        "paths": {
            "/api": {"get": {"summary": "What this server serves", "operationId": "info",
                             "responses": {"200": _json({"type": "object"}, "Apps, limits.")}}},
            "/api/openapi.json": {"get": {
                "summary": "This document", "operationId": "openapi",
                "responses": {"200": _json({"type": "object"}, "OpenAPI 3.1.")}}},
            "/api/tasks": {"get": {
                "summary": "Draw task instances for the served apps", "operationId": "tasks",
                "parameters": [
                    {"name": "n", "in": "query", "schema": {"type": "integer", "default": 10}},
                    {"name": "seed", "in": "query", "schema": {"type": "integer",
                                                               "default": 0}}],
                "responses": {"200": _json({"type": "object", "properties": {
                    "tasks": {"type": "array", "items": _ref("Task")}}}, "Tasks."),
                    **_errors(400)}}},
            "/api/sessions": {"post": {
                "summary": "Create a session (its own machine, or phone for several apps)",
                "operationId": "createSession", "parameters": [_FORMAT],
                "requestBody": {"required": False, "content": {"application/json": {
                    "schema": _ref("NewSession")}}},
                "responses": {**_obs("The session's first observation, plus `apps` and "
                                     "`task`.", "201"), **_errors(400, 429)}}},
            "/api/sessions/{id}": {**session_path,
                "get": {"summary": "The session's app, screen, steps and task",
                        "operationId": "getSession",
                        "responses": {"200": _json({"type": "object"}, "The session."),
                                      **_errors(404)}},
                "delete": {"summary": "End the session", "operationId": "deleteSession",
                           "responses": {"204": {"description": "Deleted."},
                                         **_errors(404)}}},
            "/api/sessions/{id}/observation": {**session_path, "get": {
                "summary": "The current screen", "operationId": "observe",
                "parameters": [_FORMAT],
                "responses": {**_obs("The current screen."), **_errors(400, 404)}}},
            "/api/sessions/{id}/step": {**session_path, "post": {
                "summary": "Apply one AndroidWorld JSON action", "operationId": "step",
                "parameters": [_FORMAT],
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": _ref("Action")}}},
                "responses": {**_obs("The screen after the action."),
                              **_errors(400, 404, 409)}}},
            "/api/sessions/{id}/reset": {**session_path, "post": {
                "summary": "Back to the initial state (the task stays)", "operationId": "reset",
                "parameters": [_FORMAT],
                "requestBody": {"required": False, "content": {"application/json": {
                    "schema": {"type": "object", "additionalProperties": False, "properties": {
                        "seed": {"type": "integer"}, "app": {"type": "string"}}}}}},
                "responses": {**_obs("The initial screen."), **_errors(400, 404)}}},
            "/api/sessions/{id}/screenshot": {**session_path, "get": {
                "summary": "The current screen as PNG, drawn by Chromium",
                "operationId": "screenshot",
                "parameters": [{"name": "scale", "in": "query", "schema": {
                    "type": "string", "enum": ["device", "css"], "default": "device"},
                    "description": "device: the app's own pixels (e.g. 1080 wide), so "
                                   "coordinates transfer; css: 412 CSS pixels wide."},
                    {"name": "type", "in": "query", "schema": {
                        "type": "string", "enum": ["png", "jpeg"], "default": "png"},
                     "description": "png, or jpeg (quality 90, a smaller file)."}],
                "responses": {"200": {"description": "PNG; X-Screen-Size gives the app's "
                                                     "screen size.",
                                      "content": {"image/png": {}, "image/jpeg": {}}},
                              **_errors(400, 404, 424, 429)}}},
            "/api/sessions/{id}/check": {**session_path, "get": {
                "summary": "Whether the session's task is done", "operationId": "check",
                "responses": {"200": _json(_ref("CheckResult"), "The checker's verdict."),
                              **_errors(400, 404, 409)}}},
        },
        "components": {"schemas": {
            "NewSession": {"type": "object", "additionalProperties": False, "properties": {
                "app": {"type": "string", "description": "The app in front (name, title or "
                                                         "package); a phone's default is "
                                                         "the launcher."},
                "task": {"type": "string", "description": "A task id (GET /api/tasks)."},
                "seed": {"type": "integer"}}},
            "Action": {"type": "object", "required": ["action_type"],
                       "additionalProperties": False, "properties": {
                "action_type": {"type": "string", "enum": list(ACTION_TYPES)},
                "index": {"type": "integer", "minimum": 0},
                "x": {"type": "integer"}, "y": {"type": "integer"},
                "text": {"type": "string"},
                "direction": {"type": "string", "enum": list(DIRECTIONS)},
                "goal_status": {"type": "string", "enum": list(GOAL_STATUSES)},
                "app_name": {"type": "string"}, "keycode": {"type": "string"},
                "clear_text": {"type": "boolean"}}},
            "Element": {"type": "object", "properties": {
                "index": {"type": "integer"}, "text": {"type": "string"},
                "class": {"type": "string"}, "resource_id": {"type": "string"},
                "content_desc": {"type": "string"},
                "bounds": {"type": "array", "items": {"type": "integer"}, "minItems": 4,
                           "maxItems": 4, "description": "x1, y1, x2, y2 in app pixels"},
                "clickable": {"type": "boolean"}, "editable": {"type": "boolean"},
                "checkable": {"type": "boolean"}, "checked": {"type": "boolean"},
                "scrollable": {"type": "boolean"}}},
            "Observation": {"type": "object", "required": [
                "session", "app", "package", "screen", "event", "step", "done"], "properties": {
                "session": {"type": "string"},
                "app": {"type": "string", "description": "The app in front, or launcher."},
                "package": {"type": "string", "description": "The foreground package."},
                "screen": {"type": "string"}, "event": {"type": "string"},
                "step": {"type": "integer"}, "done": {"type": "boolean"},
                "answer": {"type": ["string", "null"]},
                "screen_size": {"type": "array", "items": {"type": "integer"}},
                "format": {"type": "string"},
                "elements": {"type": "array", "items": _ref("Element")},
                "xml": {"type": "string", "description": "As `uiautomator dump` writes it."},
                "html": {"type": "string"}}},
            "Task": {"type": "object", "properties": {
                "id": {"type": "string"}, "kind": {"type": "string"},
                "instruction": {"type": "string"},
                "apps": {"type": "array", "items": {"type": "string"}},
                "template": {"type": "string"}, "params": {"type": "object"}}},
            "CheckResult": {"type": "object", "required": ["success", "reason"], "properties": {
                "success": {"type": "boolean"}, "reason": {"type": "string"},
                "task": {"type": "string"}, "instruction": {"type": "string"}}},
            "Error": {"type": "object", "required": ["error", "status"], "properties": {
                "error": {"type": "string"}, "status": {"type": "integer"},
                "field": {"type": "string"}}},
        }},
    }
