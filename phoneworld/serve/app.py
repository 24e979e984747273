"""The Flask application: `create_app(apps)` wires sessions, screenshots, the agent API
and the pages for a person.

    app = create_app("generated/")            # every app under it, behind a launcher
    app = create_app("generated/shopping")    # one app
    app.test_client().post("/api/sessions")   # -> 201 {"session": ..., "elements": ...}

Routes: `/` (the phone, for a person) and `POST /session` (the page's session, asked for
by its script), `/graph` and `/graph.svg` (the screen graph, the current screen lit),
`/api/...` (see `api`). Writes are same-origin JSON only (see `guard`). There is no
static-file route and no route takes a path: ids are matched by a strict pattern and apps
by name, so nothing reaches the file system. Every error is JSON with a 4xx status; an
unexpected exception is a bug, logged with its traceback and answered as a JSON 500.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException
from werkzeug.routing import BaseConverter

from phoneworld.apps import GeneratedApp, find_apps, load_app
from phoneworld.errors import PhoneworldError
from phoneworld.runtime.look import ASSET_NAME, asset_source
from phoneworld.serve.api import bp as api_bp
from phoneworld.serve.api import json_response, parse_body
from phoneworld.serve.errors import ApiError, bug_body, refusal
from phoneworld.serve.graph import screen_graph_svg
from phoneworld.serve.guard import check_write
from phoneworld.serve.hot import HotRoutes
from phoneworld.serve.screenshots import Screenshotter
from phoneworld.serve.sessions import Session, SessionStore
from phoneworld.serve.ui import csp, graph_page, phone_page
from phoneworld.spec.ast import AppSpec

COOKIE = "phoneworld_session"
_log = logging.getLogger("phoneworld.serve")


class SessionIdConverter(BaseConverter):
    """A session id: 1-64 URL-safe characters (anything else is a 404, never a path)."""

    regex = r"[A-Za-z0-9_-]{1,64}"


@dataclass
class Served:
    """What one server holds, at `app.extensions["phoneworld"]`."""

    store: SessionStore
    shots: Screenshotter

    def close(self) -> None:
        """Stop the browser and drop every session."""
        self.shots.close()
        self.store.clear()


def load_specs(apps: str | Path | Sequence[AppSpec | GeneratedApp | str | Path]
               ) -> list[AppSpec]:
    """Specs from an app folder, a folder of them, or a list of specs or folders."""
    if isinstance(apps, (str, Path)):
        return [load_app(p).spec for p in find_apps(apps)]
    out: list[AppSpec] = []
    for a in apps:
        if isinstance(a, AppSpec):
            out.append(a)
        elif isinstance(a, GeneratedApp):
            out.append(a.spec)
        else:
            out.extend(load_specs(a))
    names = [s.name for s in out]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise PhoneworldError(f"two apps are both named {', '.join(dupes)}; serve each "
                              "name once")
    return out


def create_app(apps: str | Path | Sequence[AppSpec | GeneratedApp | str | Path], *,
               max_sessions: int = 1000, idle_timeout: float = 1800.0,
               chromium: str | None = None, screenshot_timeout: float | None = None,
               max_body: int = 256 * 1024, trusted_hosts: Sequence[str] | None = None
               ) -> Flask:
    """The server for `apps`: one app's machine per session, or, for several apps, a
    phone with all of them behind a launcher.

    Args:
        apps: a generated app folder, a folder of them, or specs.
        max_sessions: the cap on live sessions (creating more is a 429).
        idle_timeout: seconds without a request after which a session is dropped.
        chromium: the browser for screenshots (default $PHONEWORLD_CHROMIUM, else
            /usr/bin/chromium).
        screenshot_timeout: seconds a screenshot may wait for the browser (None:
            $PHONEWORLD_SCREENSHOT_TIMEOUT, else 10).
        max_body: the largest request body in bytes (a 413 beyond).
        trusted_hosts: the only Host headers answered (others get a 400); `serve` sets
            the loopback names when bound to loopback, which stops DNS rebinding.
    """
    specs = load_specs(apps)
    if not specs:
        raise PhoneworldError("no apps to serve")
    app = Flask("phoneworld.serve", static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = max_body
    if trusted_hosts is not None:
        app.config["TRUSTED_HOSTS"] = list(trusted_hosts)
    app.url_map.converters["sid"] = SessionIdConverter
    app.url_map.strict_slashes = True
    served = Served(SessionStore(specs, max_sessions=max_sessions, idle_timeout=idle_timeout),
                    Screenshotter(chromium, timeout=screenshot_timeout,
                                  assets=asset_source(s.look for s in specs)))
    served.shots.prepare(specs)  # the recorded plates decoded and encoded ahead
    app.extensions["phoneworld"] = served
    app.register_blueprint(api_bp)
    # Steps and observations skip Flask's per-request work (see `hot`); Flask answers the
    # rest, and answers those too whenever a request is out of the ordinary.
    hot = HotRoutes(app.wsgi_app, served.store, max_body=max_body,
                    trusted_hosts=app.config["TRUSTED_HOSTS"])
    app.wsgi_app = hot  # type: ignore[method-assign]
    _ui_routes(app, served)
    _error_handlers(app)

    @app.before_request
    def _guard() -> None:
        check_write(request.environ)  # same-origin JSON writes only (see `guard`)

    @app.after_request
    def _headers(resp: Response) -> Response:
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("Referrer-Policy", "no-referrer")
        return resp

    return app


def _ui_routes(app: Flask, served: Served) -> None:
    store = served.store

    @app.get("/")
    def phone() -> Response:
        """The phone for a person: `?session=<id>` shows that session and follows it
        (an agent's, say); else the browser's own session (a cookie). A visit never makes
        a session: a page without one asks for it (`POST /session`), so that no link,
        image or crawler can fill the server with sessions."""
        sid = request.args.get("session")
        if sid is None:
            sid = request.cookies.get(COOKIE)
            if sid is not None and not _alive(store, sid):
                sid = None
        nonce = secrets.token_urlsafe(16)
        if sid is None:
            spec = _app_spec(store, request.args.get("app"))
            page = phone_page(session=None, title=_title(store), width=spec.width,
                              height=spec.height, nonce=nonce, graph_url="/graph",
                              graph_svg="/graph.svg?", app=request.args.get("app"))
        else:
            with store.use(sid) as s:
                spec = s.front.spec
                query = urlencode({"session": s.id})
                page = phone_page(session=s.id, title=_title(store), width=spec.width,
                                  height=spec.height, nonce=nonce,
                                  graph_url=f"/graph?{query}", graph_svg=f"/graph.svg?{query}",
                                  watch=request.args.get("session") is not None)
        resp = Response(page, mimetype="text/html")
        resp.headers["Content-Security-Policy"] = csp(nonce)
        resp.headers["Cache-Control"] = "no-store"
        return resp

    @app.post("/session")
    def browser_session() -> Response:
        """The phone page's own session, made when its script asks (a same-origin JSON
        POST: see `guard`) and kept in a cookie: `{"app"?}` -> 201 `{"session", ...}`."""
        body = parse_body(request.get_data(cache=False), ("app",))
        app_name = body.get("app")
        if app_name is not None and not isinstance(app_name, str):
            raise ApiError("must be a string: an app's name, title or package", field="app")
        s = store.create(app=app_name)
        query = urlencode({"session": s.id})
        resp = json_response({"session": s.id, "api": f"/api/sessions/{s.id}",
                              "graph_url": f"/graph?{query}",
                              "graph_svg": f"/graph.svg?{query}"}, 201)
        resp.set_cookie(COOKIE, s.id, httponly=True, samesite="Strict",
                        max_age=int(store.idle_timeout))
        return resp

    @app.get("/favicon.ico")
    def favicon() -> Response:
        return Response(status=204)

    @app.get("/assets/<name>")
    def asset(name: str) -> Response:
        """An image of an app's recorded look (content-addressed: cached for good)."""
        data = served.shots.assets(name) if ASSET_NAME.match(name) else None
        if data is None:
            return Response(status=404)
        kind = {"webp": "image/webp", "png": "image/png", "jpg": "image/jpeg"}
        resp = Response(data, mimetype=kind[name.rsplit(".", 1)[1]])
        resp.headers["Cache-Control"] = "public, max-age=31536000, immutable"
        return resp

    @app.get("/graph")
    def graph() -> Response:
        """The screen graph as a page: `?app=` picks the app, `?session=` lights its
        screen, `?refresh=N` reloads every N seconds."""
        spec, current, sid = _graph_target(store)
        refresh = request.args.get("refresh", type=int)
        links = [{"name": s.name, "url": "/graph?" + urlencode(
            {k: v for k, v in (("app", s.name), ("session", sid)) if v})} for s in store.specs]
        if current is None and sid is not None:
            where = "The session is on another app's screen, or on the launcher."
        elif current is not None:
            where = f"The session is on {current}."
        else:
            where = ""
        page = graph_page(app=spec.name, svg=screen_graph_svg(spec, current), apps=links,
                          where=where, session=sid, self_url=request.full_path,
                          refresh=max(1, refresh) if refresh else None)
        resp = Response(page, mimetype="text/html")
        resp.headers["Content-Security-Policy"] = csp()
        return resp

    @app.get("/graph.svg")
    def graph_svg() -> Response:
        spec, current, _ = _graph_target(store)
        resp = Response(screen_graph_svg(spec, current), mimetype="image/svg+xml")
        resp.headers["Content-Security-Policy"] = csp()
        resp.headers["Cache-Control"] = "no-store"
        return resp


def _graph_target(store: SessionStore) -> tuple[AppSpec, str | None, str | None]:
    """(the app to draw, its screen the session shows or None, the session id or None)."""
    sid = request.args.get("session") or request.cookies.get(COOKIE)
    session: Session | None = None
    if sid is not None and _alive(store, sid):
        session = store.get(sid)
    name = request.args.get("app")
    if name is None:
        name = session.app if session is not None and session.app in _names(store) \
            else store.specs[0].name
    by_name = {s.name: s for s in store.specs}
    spec = by_name.get(name)
    if spec is None:
        raise ApiError(f"no app {name!r} is served; apps: {', '.join(by_name)}", 404,
                       field="app")
    current = None
    if session is not None:
        with session.lock:
            if session.app == spec.name:
                current = session.front.screen
    return spec, current, session.id if session is not None else None


def _app_spec(store: SessionStore, name: str | None) -> AppSpec:
    """The app a new session of the page will show: `name` if served, else the first."""
    return next((s for s in store.specs if s.name == name), store.specs[0])


def _names(store: SessionStore) -> set[str]:
    return {s.name for s in store.specs}


def _alive(store: SessionStore, sid: str) -> bool:
    try:
        store.get(sid)
    except ApiError:
        return False
    return True


def _title(store: SessionStore) -> str:
    if store.phone:
        return "phone: " + ", ".join(s.title or s.name for s in store.specs)
    s = store.specs[0]
    return s.title or s.name


def _error_handlers(app: Flask) -> None:
    @app.errorhandler(PhoneworldError)
    def _refused(err: PhoneworldError) -> Response:
        # ApiError, InvalidAction and the rest: one mapping, shared with the hot routes.
        return json_response(*refusal(err))

    @app.errorhandler(HTTPException)
    def _http_error(err: HTTPException) -> Response:
        status = err.code or 400
        message = {404: "no such page or endpoint; the API is described at "
                        "/api/openapi.json",
                   413: f"the body is larger than {app.config['MAX_CONTENT_LENGTH']} bytes",
                   }.get(status, err.description or err.name)
        resp = json_response({"error": message, "status": status}, status)
        allowed = getattr(err, "valid_methods", None)
        if status == 405 and allowed:
            resp.headers["Allow"] = ", ".join(allowed)
        return resp

    @app.errorhandler(Exception)
    def _bug(err: Exception) -> Response:
        _log.exception("unexpected error on %s %s", request.method, request.path)
        return json_response(bug_body(err), 500)
