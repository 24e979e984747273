"""Env ids and `make`: `phoneworld/<app>-v0` for every example app, without paying for it.

    import phoneworld                    # calls register_envs(): cheap, imports nothing big
    import gymnasium                     # ... the ids are registered as gymnasium loads
    env = gymnasium.make("phoneworld/shopping-v0")
    env = phoneworld.make("generated/shopping")                  # any generated app
    env = phoneworld.make(["shopping", "messages"])              # a phone of several
    env = phoneworld.make("http://127.0.0.1:8000", app="shopping")   # a served app
    env = phoneworld.make("adb://emulator-5554", package="com.example.shop", tasks=[...])

Importing gymnasium costs more than the whole `phoneworld --help`, so `register_envs`
registers at once only when gymnasium is already imported; otherwise, if it is
installed, a one-shot import hook registers the ids right after gymnasium finishes
loading. Without gymnasium nothing happens. Registering twice is harmless.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from typing import TYPE_CHECKING, Any

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
    """Register `phoneworld/<app>-v0` ids with gymnasium, now or as soon as it is imported."""
    if "gymnasium" in sys.modules:
        _register()
        return
    if any(isinstance(f, _AfterGymnasium) for f in sys.meta_path):
        return
    if importlib.util.find_spec("gymnasium") is None:
        return
    sys.meta_path.insert(0, _AfterGymnasium())


def _register() -> None:
    import gymnasium

    apps = example_apps()
    ids = {f"phoneworld/{name}-v0": str(path) for name, path in apps.items()}
    if len(apps) > 1 and PHONE not in apps:
        ids[f"phoneworld/{PHONE}-v0"] = [str(p) for p in apps.values()]  # type: ignore
    for env_id, app in ids.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=ENTRY_POINT, kwargs={"app": app})


class _AfterGymnasium:
    """A meta path finder that finds nothing itself: when gymnasium is about to load, it
    wraps the real loader so that our ids are registered right after gymnasium has
    loaded, then steps aside. (Not an `importlib.abc` subclass: that import alone costs
    more than all of this.)"""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "gymnasium":
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        loader = getattr(spec, "loader", None)
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        inner = loader.exec_module

        def exec_module(module: Any) -> None:
            inner(module)
            try:
                _register()
            except Exception as err:  # never break `import gymnasium` over our ids
                import warnings

                warnings.warn(f"phoneworld could not register its envs: {err}", stacklevel=2)

        loader.exec_module = exec_module  # this loader instance serves this module only
        return spec


def make(target: Any = None, **kwargs: Any) -> Any:
    """A `PhoneworldEnv` for `target` (see the module docstring).

    `target` is an example app's name, a generated app folder, a folder of apps or a
    list (a phone), an `http(s)://` URL of `phoneworld serve` (`app=` picks the app,
    `prefetch=` the form each step brings back), an `adb://SERIAL` (or `adb://` for the
    only device) or a `Device` object (`package=`, `activity=`, `apps=`, `tasks=`,
    `judge=`, `polling=`, `restart=` configure it). Other keyword arguments go to
    `PhoneworldEnv`.
    """
    from phoneworld.env.env import PhoneworldEnv

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
