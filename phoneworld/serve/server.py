"""Running the server: waitress in production, Werkzeug only with `--debug`.

    serve("generated/", port=8000)      # blocks until Ctrl-C or SIGTERM; returns 0

It binds to 127.0.0.1 unless told otherwise (sessions are capabilities, not accounts:
anyone who can reach the port can drive a session), prints the address it listens on
(`--port 0` picks a free port, printed), starts the browser thread early so the first
screenshot is quick, and stops the browser on the way out.
"""

from __future__ import annotations

import json
import logging
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from phoneworld.errors import MissingExtra, PhoneworldError

LOOPBACK = ("127.0.0.1", "::1", "localhost")
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")
"""The Host headers a loopback server answers (any other is DNS rebinding: a 400)."""


def _say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def serve(apps: str | Path | Sequence[Any], *, host: str = "127.0.0.1", port: int = 8000,
          threads: int = 8, debug: bool = False, max_sessions: int = 1000,
          idle_timeout: float = 1800.0, chromium: str | None = None,
          say: Callable[[str], None] = _say) -> int:
    """Serve `apps` (a generated app folder or a folder of them) until stopped."""
    if threads < 1:
        raise PhoneworldError(f"--threads must be at least 1, not {threads}")
    if not 0 <= port < 65536:
        raise PhoneworldError(f"--port must be 0..65535, not {port}")
    if max_sessions < 1 or idle_timeout <= 0:
        raise PhoneworldError("--max-sessions and --idle-timeout must be positive")
    try:
        from phoneworld.serve.app import create_app
    except ImportError as err:
        raise MissingExtra("phoneworld serve", "serve", err) from err
    app = create_app(apps, max_sessions=max_sessions, idle_timeout=idle_timeout,
                     chromium=chromium,
                     trusted_hosts=LOOPBACK_NAMES if host in LOOPBACK else None)
    served = app.extensions["phoneworld"]
    store = served.store
    if host not in LOOPBACK:
        say(f"warning: listening on {host}: anyone who can reach this port can create and "
            "drive sessions")
    kind = f"a phone with {len(store.specs)} apps" if store.phone else store.specs[0].name
    why = served.shots.unavailable_reason
    if why is None:
        served.shots.start()
    else:
        say(f"note: screenshots are off: {why}")
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _stop)
    try:
        if debug:
            from werkzeug.serving import make_server

            app.debug = True
            server = make_server(host, port, app, threaded=True)
            say(f"serving {kind} on http://{_url_host(host)}:{server.server_port} "
                "(Werkzeug, debug; Ctrl-C stops)")
            try:
                server.serve_forever()
            finally:
                server.server_close()
        else:
            _waitress(app, host, port, threads, max_sessions, kind, say)
    except KeyboardInterrupt:
        say("stopped")
    finally:
        served.close()
    return 0


def _waitress(app: Any, host: str, port: int, threads: int, max_sessions: int, kind: str,
              say: Callable[[str], None]) -> None:
    try:
        from waitress.server import create_server
    except ImportError as err:
        raise MissingExtra("phoneworld serve (without --debug)", "serve", err) from err
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    sockets: dict = {}
    try:
        # waitress refuses a body over the app's own limit before it reads (and spools)
        # it; its refusals are then JSON like every other answer (`json_errors`).
        server = create_server(app, map=sockets, host=host, port=port, threads=threads,
                               connection_limit=max(100, min(4 * max_sessions, 4000)),
                               asyncore_use_poll=True, channel_timeout=120,
                               max_request_body_size=app.config["MAX_CONTENT_LENGTH"],
                               clear_untrusted_proxy_headers=True, ident="phoneworld")
    except OSError as err:
        raise PhoneworldError(f"cannot listen on {host}:{port}: {err.strerror or err}") \
            from err
    json_errors(sockets.values())
    say(f"serving {kind} on http://{_url_host(host)}:{server.effective_port} "
        f"(waitress, {threads} threads; Ctrl-C stops)")
    try:
        server.run()
    finally:
        server.close()


def json_errors(servers: Any) -> None:
    """Make the waitress servers among `servers` answer their own refusals (a 413 for a
    body over the limit, a 400 for a malformed request, a 431 for huge headers) as JSON
    `{"error", "status"}`, as the app answers everything else."""
    from waitress.channel import HTTPChannel
    from waitress.server import BaseWSGIServer
    from waitress.task import ErrorTask

    class JsonErrorTask(ErrorTask):
        def execute(self) -> None:
            err = self.request.error
            body = json.dumps({"error": f"{err.reason}: {err.body}", "status": err.code},
                              separators=(",", ":")).encode()
            self.status = f"{err.code} {err.reason}"
            self.response_headers.extend([("Content-Type", "application/json"),
                                          ("X-Content-Type-Options", "nosniff")])
            self.set_close_on_finish()
            self.content_length = len(body)
            self.write(body)

    class JsonErrorChannel(HTTPChannel):
        error_task_class = JsonErrorTask

    for server in list(servers):
        if isinstance(server, BaseWSGIServer):
            server.channel_class = JsonErrorChannel


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
