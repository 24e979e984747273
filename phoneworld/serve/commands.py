"""The `serve` subcommand: `phoneworld serve PATH [--host] [--port] [--threads] ...`.

`register(subparsers)` adds it to the `phoneworld` command; the command parses its
arguments and makes one library call (`server.serve`). Flask, waitress and Playwright are
imported only when it runs, so `phoneworld --help` stays fast.
"""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add `serve` to an `add_subparsers()` object; returns its parser."""
    p = subparsers.add_parser(
        "serve", help="serve mock apps: a phone page for people, a JSON API for agents",
        description="Serve generated apps over HTTP: the phone at /, the screen graph at "
                    "/graph, the agent API at /api (described at /api/openapi.json). "
                    "Several apps are one phone with a launcher.")
    p.add_argument("path", help="a generated app folder, or a folder of them")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free)")
    p.add_argument("--threads", type=int, default=8,
                   help="request threads (default 8; a screenshot holds one while the "
                        "browser draws)")
    p.add_argument("--max-sessions", type=int, default=1000,
                   help="most live sessions at once (default 1000)")
    p.add_argument("--idle-timeout", type=float, default=1800.0,
                   help="seconds before an unused session is dropped (default 1800)")
    p.add_argument("--chromium", default=None,
                   help="Chromium for screenshots (default $PHONEWORLD_CHROMIUM, "
                        "else /usr/bin/chromium)")
    p.add_argument("--debug", action="store_true",
                   help="Werkzeug's development server with Flask's debug mode")
    p.set_defaults(func=run)
    return p


def run(args: argparse.Namespace) -> int:
    """Run `serve` with parsed arguments; the exit code."""
    from phoneworld.serve.server import serve

    return serve(args.path, host=args.host, port=args.port, threads=args.threads,
                 debug=args.debug, max_sessions=args.max_sessions,
                 idle_timeout=args.idle_timeout, chromium=args.chromium)
