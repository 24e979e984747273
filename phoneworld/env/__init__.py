"""Agents' side of phoneworld: a gymnasium env over three backends.

    import gymnasium, phoneworld.env                      # registers phoneworld/<app>-v0
    env = gymnasium.make("phoneworld/shopping-v0")       # or phoneworld.env.make(...)

Modules: `env` (the gymnasium env), `spaces` (its spaces), `observation` (lazy
observation dicts), `registration` (env ids, `make`), `backends` (in-process, HTTP,
device). The action formats and text observations it reads and writes are
`phoneworld.agent`'s. Importing this package registers the env ids with gymnasium
where gymnasium is installed (see `registration`).
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import Any

from phoneworld.env.registration import make, register_envs
from phoneworld.errors import MissingExtra

__all__ = ["PhoneworldEnv", "make", "register_envs"]

if find_spec("gymnasium") is not None:  # without the env extra there is nothing to register
    register_envs()


def __getattr__(name: str) -> Any:
    # The env class needs gymnasium and numpy; the backends below it do not.
    if name == "PhoneworldEnv":
        try:
            from phoneworld.env.env import PhoneworldEnv
        except ModuleNotFoundError as err:
            raise MissingExtra("phoneworld.env.PhoneworldEnv", "env", err) from err
        return PhoneworldEnv
    raise AttributeError(f"module 'phoneworld.env' has no attribute {name!r}")
