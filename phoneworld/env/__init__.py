"""Agents' side of phoneworld: a gymnasium env over three backends.

    import gymnasium
    env = gymnasium.make("phoneworld/shopping-v0")       # or phoneworld.env.make(...)

Modules: `env` (the gymnasium env), `spaces` (its spaces), `observation` (lazy
observation dicts), `registration` (env ids, `make`), `backends` (in-process, HTTP,
device). The action formats and text observations it reads and writes are
`phoneworld.agent`'s. Importing this package imports neither gymnasium nor numpy;
only `env` and `spaces` need them.
"""

from __future__ import annotations

from typing import Any

__all__ = ["PhoneworldEnv", "make", "register_envs"]

_WHERE = {"PhoneworldEnv": "phoneworld.env.env", "make": "phoneworld.env.registration",
          "register_envs": "phoneworld.env.registration"}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'phoneworld.env' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
