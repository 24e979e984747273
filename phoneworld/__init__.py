"""phoneworld: compile recorded GUI traces of real phone apps into runnable mock apps."""

from __future__ import annotations

from typing import Any

from phoneworld.errors import PhoneworldError, TraceError

__version__ = "0.1.0"

__all__ = ["PhoneworldError", "TraceError", "__version__", "make"]


def make(target: Any = None, **kwargs: Any) -> Any:
    """A gymnasium env on a mock app, a served app or a phone (see
    `phoneworld.env.registration.make`); needs the `env` extra."""
    from phoneworld.env.registration import make as make_env

    return make_env(target, **kwargs)
