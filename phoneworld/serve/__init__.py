"""Serving mock apps over HTTP: the phone for a person, the JSON API for agents.

    from phoneworld.serve import create_app, serve
    app = create_app("generated/")            # a Flask app (test_client() for tests)
    serve("generated/", port=8000)            # waitress, until Ctrl-C

Modules, one concept each: `sessions` (isolated, capped, expiring sessions), `api` (the
agent routes), `hot` (steps and observations without Flask's per-request work),
`openapi` (their description), `screenshots` (the browser thread), `graph`
(the screen graph as SVG), `ui` (the pages for a person), `app` (the Flask factory and
error handling), `server` (waitress/Werkzeug), `commands` (the `serve` subcommand),
`tasks` (tasks through `phoneworld.tasks`), `errors` (4xx answers).

Flask is imported only when `create_app` or `serve` is first used.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app", "serve"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from phoneworld.serve.app import create_app

        return create_app
    if name == "serve":
        from phoneworld.serve.server import serve

        return serve
    raise AttributeError(f"module 'phoneworld.serve' has no attribute {name!r}")
