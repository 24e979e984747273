"""Agents' side of phoneworld: a gymnasium env and the action formats it reads.

    import gymnasium, phoneworld
    env = gymnasium.make("phoneworld/shopping-v0")       # or phoneworld.make(...)
    from phoneworld.env import parse_action, to_phonebuddy, from_phonebuddy

Modules: `env` (the gymnasium env), `spaces` (its spaces), `observation` (text forms,
lazy observation dicts), `formats` (AndroidWorld JSON <-> PhoneBuddy tool calls), `parse`
(actions out of a model's raw text), `registration` (env ids, `make`), `backends`
(in-process, HTTP, device). Importing this package imports neither gymnasium nor numpy;
only `env` and `spaces` need them.
"""

from __future__ import annotations

from typing import Any

__all__ = ["PhoneworldEnv", "from_phonebuddy", "make", "parse_action", "register_envs",
           "to_phonebuddy"]

_WHERE = {"PhoneworldEnv": "phoneworld.env.env", "from_phonebuddy": "phoneworld.env.formats",
          "to_phonebuddy": "phoneworld.env.formats", "parse_action": "phoneworld.env.parse",
          "make": "phoneworld.env.registration",
          "register_envs": "phoneworld.env.registration"}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'phoneworld.env' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
