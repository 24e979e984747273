"""What an env runs on: one contract, three backends.

    LocalBackend(specs)          the in-process `Machine` (one app) or `Phone` (several)
    HttpBackend(url, app=...)    a session of `phoneworld serve`, over its JSON API
    DeviceBackend(device, ...)   a real phone through the ADB bridge (`phoneworld.device`)

A backend resets and steps its target and returns a `View` of the screen, whose forms
(element list, XML, screenshot) are fetched or rendered when first read; it resolves
tasks (by id, or drawn with the env's random generator) and judges them.
"""

from __future__ import annotations

from typing import Any, Protocol

from phoneworld.runtime.actions import Action


class View(Protocol):
    """One screen as a backend saw it."""

    screen: str
    event: str

    @property
    def elements(self) -> list[dict[str, Any]]: ...

    @property
    def xml(self) -> str: ...

    def screenshot(self) -> Any:
        """PNG bytes, an RGB array, or None when this backend has none."""
        ...


class Backend(Protocol):
    kind: str
    width: int
    height: int
    apps: tuple[str, ...]
    """Names `open_app` takes."""
    views_expire: bool
    """Whether a view's unread forms become unreadable after the next step (HTTP)."""

    def find_task(self, task_id: str) -> Any: ...

    def sample_task(self, rng: Any) -> Any | None: ...

    def reset(self, seed: int | None, task: Any | None) -> View: ...

    def step(self, action: Action) -> View: ...

    def check(self, task: Any) -> tuple[bool, str]: ...

    def close(self) -> None: ...


def verdict(result: Any) -> tuple[bool, str]:
    """(success, reason) from a checker's result: a CheckResult-like object, a bool, or a
    (bool, reason) pair."""
    if isinstance(result, bool):
        return result, ""
    if isinstance(result, tuple) and result and isinstance(result[0], bool):
        return result[0], str(result[1]) if len(result) > 1 else ""
    return bool(getattr(result, "success", False)), str(getattr(result, "reason", ""))
