"""The two routes an agent calls every step, answered without Flask's per-request work.

    app.wsgi_app = HotRoutes(app.wsgi_app, store, max_body=..., trusted_hosts=...)

`POST /api/sessions/<id>/step` and `GET /api/sessions/<id>/observation` are nearly all
of a busy server's traffic, and for them Flask's request and app contexts, URL map,
request and response objects and hooks cost about as much CPU as the step itself
(measured in-process: 0.17 ms of 0.32 ms per step). Here they make the same session
calls and send the same JSON bytes and the same headers. A request that is the least bit
unusual goes on to Flask, which stays the reference for every answer: another method, a
query other than `format=<a known format>`, no Content-Length or one over the limit, a
chunked body, a body that is not JSON, an Origin header (a browser's: `guard` judges
it), a Host header not yet checked by werkzeug's own rule. Tests send the same
requests both ways and compare the answers byte for byte.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Collection, Iterable
from typing import Any

from werkzeug.http import HTTP_STATUS_CODES
from werkzeug.sansio.utils import host_is_trusted

from phoneworld.errors import PhoneworldError
from phoneworld.serve.api import parse_body
from phoneworld.serve.errors import bug_body, refusal
from phoneworld.serve.guard import is_json
from phoneworld.serve.sessions import FORMATS, SessionStore

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

_ROUTE = re.compile(r"/api/sessions/([A-Za-z0-9_-]{1,64})/(step|observation)")
"""The session id pattern is `app.SessionIdConverter`'s."""
_METHODS = {"step": "POST", "observation": "GET"}
_QUERIES = {"": "elements", **{f"format={f}": f for f in FORMATS}}
_SECURITY = [("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer")]
"""What `app.create_app`'s `after_request` hook adds to every answer."""
_MAX_HOSTS = 64
_log = logging.getLogger("phoneworld.serve")


class HotRoutes:
    """WSGI middleware: step and observation requests answered here, the rest by `app`."""

    def __init__(self, app: WSGIApp, store: SessionStore, *, max_body: int,
                 trusted_hosts: Collection[str] | None = None) -> None:
        self.app = app
        self.store = store
        self.max_body = max_body
        self.trusted_hosts = trusted_hosts
        self._hosts: set[str] = set()
        """Host header values werkzeug's `host_is_trusted` accepted (a few; loopback)."""

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]
                 ) -> Iterable[bytes]:
        route = _ROUTE.fullmatch(environ.get("PATH_INFO", ""))
        if route is None or environ.get("REQUEST_METHOD") != _METHODS[route[2]]:
            return self.app(environ, start_response)
        fmt = _QUERIES.get(environ.get("QUERY_STRING", ""))
        if fmt is None or not self._host_ok(environ.get("HTTP_HOST")):
            return self.app(environ, start_response)
        length = -1
        if route[2] == "step":
            length = _length(environ)
            if length < 0 or length > self.max_body or "HTTP_ORIGIN" in environ \
                    or "HTTP_SEC_FETCH_SITE" in environ \
                    or (length and not is_json(environ.get("CONTENT_TYPE", ""))):
                return self.app(environ, start_response)  # Flask's guard judges these
        try:
            with self.store.use(route[1]) as s:
                if length >= 0:
                    s.step(parse_body(environ["wsgi.input"].read(length), None,
                                      required=True))
                body, status, headers = s.observation_json(fmt), 200, None
        except PhoneworldError as err:
            obj, status, headers = refusal(err)
            body = json.dumps(obj, separators=(",", ":")).encode()
        except Exception as err:
            _log.exception("unexpected error on %s %s", environ["REQUEST_METHOD"],
                           environ["PATH_INFO"])
            body = json.dumps(bug_body(err), separators=(",", ":")).encode()
            status, headers = 500, None
        out = [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
        if headers:
            out.extend(headers.items())
        start_response(f"{status} {HTTP_STATUS_CODES[status].upper()}", out + _SECURITY)
        return [body]

    def _host_ok(self, host: str | None) -> bool:
        """Whether Flask would accept this Host header (`TRUSTED_HOSTS`, valid
        characters); unknown ones are checked with werkzeug's own function."""
        if host is None:
            return False
        if host in self._hosts:
            return True
        if len(self._hosts) < _MAX_HOSTS and host_is_trusted(host, self.trusted_hosts):
            self._hosts.add(host)
            return True
        return False


def _length(environ: dict[str, Any]) -> int:
    """The body's declared length, or -1 when there is none or it is chunked (Flask
    then reads the body its own way)."""
    raw = environ.get("CONTENT_LENGTH", "")
    if "HTTP_TRANSFER_ENCODING" in environ or not (raw.isascii() and raw.isdigit()):
        return -1
    return int(raw)
