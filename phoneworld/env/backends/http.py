"""The HTTP backend: a session of `phoneworld serve`, driven over its JSON API.

    POST /api/sessions {"app", "task", "seed"}   a session (re-made when the task changes)
    POST /api/sessions/<id>/reset {"seed"}        a reset with the same task
    POST /api/sessions/<id>/step?format=elements  an action; the element list comes back
    GET  /api/sessions/<id>/observation?format=xml   the XML, only when read
    GET  /api/sessions/<id>/screenshot            a PNG, only when read
    GET  /api/sessions/<id>/check                 {"success", "reason"}

One keep-alive connection (stdlib `http.client`). The server keeps only the current
screen, so a view's unread forms expire with the next step (the env reads what is
still held before stepping). A 4xx refusal of an action is an `InvalidAction` with the
server's field; an unreachable server says which address it tried.
"""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlsplit

from phoneworld.env.backends import verdict
from phoneworld.errors import InvalidAction, PhoneworldError
from phoneworld.runtime.actions import Action


class HttpError(PhoneworldError):
    """The server refused or failed a request."""


class HttpView:
    """One screen of a served session; forms it did not come with are fetched on read."""

    def __init__(self, backend: HttpBackend, body: dict[str, Any], generation: int) -> None:
        self._backend = backend
        self._body = body
        self._generation = generation
        self.screen = str(body.get("screen", ""))
        self.event = str(body.get("event", ""))

    def _fetch(self, fmt: str) -> Any:
        if fmt not in self._body:
            if self._generation != self._backend.generation:
                raise PhoneworldError(f"this observation's {fmt} was not read before the "
                                      f"next step, and the server keeps only the current "
                                      f"screen")
            self._body[fmt] = self._backend.observation(fmt)
        return self._body[fmt]

    @property
    def elements(self) -> list[dict[str, Any]]:
        return self._fetch("elements")

    @property
    def xml(self) -> str:
        return self._fetch("xml")

    def screenshot(self) -> Any:
        if "png" not in self._body:
            if self._generation != self._backend.generation:
                raise PhoneworldError("this observation's screenshot was not read before the "
                                      "next step")
            self._body["png"] = self._backend.screenshot()
        return self._body["png"]


class HttpBackend:
    """A served app (or phone) as an env backend (see the module docstring)."""

    kind = "http"
    views_expire = True

    def __init__(self, url: str, app: str | None = None, *, timeout: float = 30.0,
                 prefetch: str = "elements") -> None:
        parts = urlsplit(url if "://" in url else f"http://{url}")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise PhoneworldError(f"{url!r} is not an http(s) URL of a phoneworld server")
        self.url = url
        self._https = parts.scheme == "https"
        self._host, self._port = parts.hostname, parts.port
        self._base = parts.path.rstrip("/") + "/api"
        self._timeout = timeout
        self._conn = self._connect()
        self.app = app
        self.prefetch = prefetch
        self.generation = 0
        self.session: str | None = None
        self.task_id: str | None = None
        self.instruction: str | None = None
        body = self._create(None, None)
        w, h = body.get("screen_size") or (1080, 2400)
        self.width, self.height = int(w), int(h)
        self.apps = tuple(str(a) for a in body.get("apps") or ([app] if app else []))

    # -- HTTP ------------------------------------------------------------------------------------

    def _connect(self) -> http.client.HTTPConnection:
        cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
        return cls(self._host, self._port, timeout=self._timeout)

    def request(self, method: str, path: str, body: Any = None,
                accept_json: bool = True) -> Any:
        """One request; the decoded JSON (or bytes); errors as `InvalidAction`/`HttpError`."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json"} if data is not None else {}
        for attempt in (0, 1):
            try:
                self._conn.request(method, self._base + path, body=data, headers=headers)
                resp = self._conn.getresponse()
                raw = resp.read()
                break
            except (ConnectionError, http.client.HTTPException, OSError) as err:
                self._conn.close()
                self._conn = self._connect()
                if attempt:  # a dropped keep-alive connection is retried once
                    raise HttpError(f"cannot reach the phoneworld server at {self.url} "
                                    f"({err}); is `phoneworld serve` running?") from err
        if resp.status >= 400:
            try:
                err_body = json.loads(raw)
            except ValueError:
                err_body = {"error": raw.decode("utf-8", "replace")[:200]}
            msg = str(err_body.get("error") or f"HTTP {resp.status}")
            field = err_body.get("field")
            if field and msg.startswith(f"{field}: "):
                msg = msg[len(field) + 2:]
            if 400 <= resp.status < 500 and path.split("?", 1)[0].endswith("/step"):
                raise InvalidAction(msg, field=field)
            raise HttpError(f"{method} {path}: {resp.status}: {msg}")
        if not accept_json:
            return raw
        return json.loads(raw) if raw else None

    # -- sessions ----------------------------------------------------------------------------------

    def _create(self, task_id: str | None, seed: int | None) -> dict[str, Any]:
        self._delete()
        body = {k: v for k, v in (("app", self.app), ("task", task_id), ("seed", seed))
                if v is not None}
        out = self.request("POST", f"/sessions?format={self.prefetch}", body)
        self.session = str(out["session"])
        self.task_id = task_id
        task = out.get("task") or {}
        self.instruction = task.get("instruction") if isinstance(task, dict) else None
        self.generation += 1
        return out

    def observation(self, fmt: str) -> Any:
        body = self.request("GET", f"/sessions/{self.session}/observation?format={fmt}")
        return body[fmt]

    def screenshot(self) -> bytes:
        return self.request("GET", f"/sessions/{self.session}/screenshot?scale=device",
                            accept_json=False)

    # -- the backend contract -----------------------------------------------------------------

    def find_task(self, task_id: str) -> Any:
        return _RemoteTask(task_id)

    def sample_task(self, rng: Any) -> Any | None:
        return None  # the session's own task, if any

    def reset(self, seed: int | None, task: Any | None) -> HttpView:
        task_id = None if task is None else str(task.id)
        if task_id != self.task_id or self.session is None:
            body = self._create(task_id, seed)
        else:
            body = self.request("POST", f"/sessions/{self.session}/reset?format="
                                        f"{self.prefetch}", {"seed": seed} if seed is not None
                                else {})
            self.generation += 1
        if task is not None and isinstance(task, _RemoteTask) and self.instruction:
            task.instruction = self.instruction
        return HttpView(self, body, self.generation)

    def step(self, action: Action) -> HttpView:
        body = self.request("POST", f"/sessions/{self.session}/step?format={self.prefetch}",
                            action.as_dict())
        self.generation += 1
        return HttpView(self, body, self.generation)

    def check(self, task: Any) -> tuple[bool, str]:
        return verdict(_Result(self.request("GET", f"/sessions/{self.session}/check")))

    def _delete(self) -> None:
        if self.session is not None:
            sid, self.session = self.session, None
            try:
                self.request("DELETE", f"/sessions/{sid}", accept_json=False)
            except PhoneworldError:
                pass  # gone already (expired, or the server stopped)

    def close(self) -> None:
        self._delete()
        self._conn.close()


class _RemoteTask:
    """A task known to the server by id (its checker runs there)."""

    def __init__(self, task_id: str) -> None:
        self.id = task_id
        self.instruction = ""

    def check(self, target: Any) -> Any:
        raise PhoneworldError("a served task is checked by the server")


class _Result:
    def __init__(self, body: dict[str, Any]) -> None:
        self.success = bool(body.get("success"))
        self.reason = str(body.get("reason", ""))
