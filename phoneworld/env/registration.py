"""Env ids and `make`: `phoneworld/<app>-v0` for every example app.

    import gymnasium, phoneworld.env     # importing phoneworld.env registers the ids
    env = gymnasium.make("phoneworld/shopping-v0")
    env = gymnasium.make("phoneworld.env:phoneworld/shopping-v0")  # gymnasium imports it
    env = phoneworld.make("generated/shopping")                  # any generated app
    env = phoneworld.make(["shopping", "messages"])              # a phone of several
    env = phoneworld.make("http://127.0.0.1:8000", app="shopping")   # a served app
    env = phoneworld.make("adb://emulator-5554", package="com.example.shop", tasks=[...])

Gymnasium 1.x has no plugin entry points (they were removed in 1.0): a package registers
its ids when it is imported, and `gymnasium.make("module:id")` imports the module first.
So `phoneworld.env` registers them as it is imported; `import phoneworld` (and with it
`phoneworld --help`) does not, since importing gymnasium costs more than the whole CLI.
Registering twice is harmless.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from phoneworld.errors import MissingExtra

if TYPE_CHECKING:
    from pathlib import Path

ENTRY_POINT = "phoneworld.env.env:PhoneworldEnv"
PHONE = "phone"
"""`phoneworld/phone-v0`: every example app on one phone."""


def example_apps() -> dict[str, Path]:
    """The example apps compiled into this checkout's `generated/` (none when phoneworld
    is installed without them); $PHONEWORLD_APPS names another folder."""
    from pathlib import Path  # here: keeps `import phoneworld` cheap

    root = os.environ.get("PHONEWORLD_APPS") or os.path.join(
        os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
        "generated")
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return {}
    return {e.name: Path(e.path) for e in entries  # hidden: a writer's leftovers
            if not e.name.startswith(".") and e.is_dir()
            and os.path.isfile(os.path.join(e.path, "spec.pw"))}


def register_envs() -> None:
    """Register `phoneworld/<app>-v0` ids (and `phoneworld/phone-v0`) with gymnasium."""
    import gymnasium

    apps = example_apps()
    ids = {f"phoneworld/{name}-v0": str(path) for name, path in apps.items()}
    if len(apps) > 1 and PHONE not in apps:
        ids[f"phoneworld/{PHONE}-v0"] = [str(p) for p in apps.values()]  # type: ignore
    for env_id, app in ids.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=ENTRY_POINT, kwargs={"app": app})


def make(target: Any = None, **kwargs: Any) -> Any:
    """A `PhoneworldEnv` for `target` (see the module docstring).

    `target` is an example app's name, a generated app folder, a folder of apps or a
    list (a phone), an `http(s)://` URL of `phoneworld serve` (`app=` picks the app,
    `prefetch=` the form each step brings back), an `adb://SERIAL` (or `adb://` for the
    only device) or a `Device` object (`package=`, `activity=`, `apps=`, `tasks=`,
    `judge=`, `polling=`, `restart=` configure it). Other keyword arguments go to
    `PhoneworldEnv`.
    """
    try:
        from phoneworld.env.env import PhoneworldEnv
    except ModuleNotFoundError as err:
        raise MissingExtra("a phoneworld env", "env", err) from err

    if isinstance(target, str) and target.startswith(("http://", "https://")):
        from phoneworld.env.backends.http import HttpBackend

        backend = HttpBackend(target, app=kwargs.pop("app", None),
                              timeout=kwargs.pop("timeout", 30.0),
                              prefetch=kwargs.pop("prefetch", "elements"))
        return PhoneworldEnv(backend=backend, **kwargs)
    device = None
    owns = False
    if isinstance(target, str) and target.startswith("adb:"):
        from phoneworld.device.adb import AdbDevice

        serial = target[len("adb:"):].lstrip("/") or None
        device, owns = AdbDevice.connect(serial), True
    elif target is not None and hasattr(target, "dump_hierarchy") and hasattr(target, "tap"):
        device = target
    if device is not None:
        from phoneworld.device.stable import Polling
        from phoneworld.env.backends.device import DeviceBackend

        shots = bool(kwargs.get("screenshot")) or "screenshot" in kwargs.get("observe", ())
        try:
            backend = DeviceBackend(
                device, package=kwargs.pop("package", None),
                activity=kwargs.pop("activity", None), apps=kwargs.pop("apps", None),
                tasks=kwargs.pop("tasks", None), judge=kwargs.pop("judge", None),
                polling=kwargs.pop("polling", Polling()), screenshots=shots,
                restart=kwargs.pop("restart", True), owns_device=owns)
            return PhoneworldEnv(backend=backend, **kwargs)
        except BaseException:
            if owns:
                device.close()
            raise
    return PhoneworldEnv(target, **kwargs)
