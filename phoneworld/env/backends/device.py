"""The real-device backend: an env over the ADB bridge (`phoneworld.device`).

A reset restarts the app (stop, start, wait for a still screen); a step performs the
action through the `Bridge` and observes the settled screen. Success comes from the
task's own check on the final screen (a `ScreenTask`'s hierarchy predicate) or from a
pluggable judge, since a real app's database is out of reach.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from phoneworld.device.bridge import Bridge
from phoneworld.device.predicates import Judge
from phoneworld.device.protocol import Device, Screen
from phoneworld.device.stable import DEFAULT, Polling
from phoneworld.env.backends import verdict
from phoneworld.errors import PhoneworldError, did_you_mean
from phoneworld.runtime.actions import Action
from phoneworld.traces.assemble import normalise_activity


class DeviceView:
    """A settled `Screen` as a `View` (the element list is made on first read)."""

    def __init__(self, screen: Screen, event: str, bridge: Bridge) -> None:
        self._screen = screen
        self._bridge = bridge
        self._elements: list[dict[str, Any]] | None = None
        self.screen = normalise_activity(screen.component) or screen.package
        self.event = event

    @property
    def elements(self) -> list[dict[str, Any]]:
        if self._elements is None:
            self._elements = self._bridge.elements(self._screen)
        return self._elements

    @property
    def xml(self) -> str:
        return self._screen.xml

    def screenshot(self) -> Any:
        return self._screen.screenshot


class DeviceBackend:
    """A device as an env backend; its tasks check the last screen and the answer."""

    kind = "device"
    views_expire = False

    def __init__(self, device: Device, *, package: str | None = None,
                 activity: str | None = None, apps: Mapping[str, str] | None = None,
                 tasks: Sequence[Any] | None = None, judge: Judge | None = None,
                 polling: Polling = DEFAULT, screenshots: bool = False,
                 restart: bool = True, owns_device: bool = False) -> None:
        self.device = device
        self.package = package
        self.activity = activity
        self.bridge = Bridge(device, polling=polling, apps=apps, screenshots=screenshots)
        self.width, self.height = device.window_size()
        self.apps = tuple(apps) if apps else ((package,) if package else ())
        self.tasks = list(tasks or ())
        self.judge = judge
        self.restart = restart
        self.owns_device = owns_device
        self.last: Screen | None = None
        self.answer: str | None = None

    def _last(self) -> Screen:
        if self.last is None:
            raise PhoneworldError("the device has not been observed yet: reset the env first")
        return self.last

    # -- tasks -----------------------------------------------------------------------------------

    def find_task(self, task_id: str) -> Any:
        by_id = {str(t.id): t for t in self.tasks}
        if task_id not in by_id:
            raise PhoneworldError(f"no task {task_id!r} among this env's {len(by_id)} "
                                  f"tasks{did_you_mean(task_id, by_id)}")
        return by_id[task_id]

    def sample_task(self, rng: Any) -> Any | None:
        if not self.tasks:
            return None
        return self.tasks[int(rng.integers(len(self.tasks)))]

    # -- episodes ----------------------------------------------------------------------------------

    def reset(self, seed: int | None, task: Any | None) -> DeviceView:
        package = self.package
        if package is None and task is not None and getattr(task, "apps", None):
            package = self.bridge.resolve_app(str(task.apps[0]))
        if package is not None and self.restart:
            self.device.stop_app(package)
            self.device.start_app(package, self.activity)
        self.answer = None
        self.last = self.bridge.observe()
        return DeviceView(self.last, "reset", self.bridge)

    def step(self, action: Action) -> DeviceView:
        before = self._last()
        done = self.bridge.perform(action, before)
        if action.action_type == "answer":
            self.answer = action.text
        if done is None or done.kind == "answer":
            return DeviceView(before, action.action_type, self.bridge)
        self.last = self.bridge.observe()
        return DeviceView(self.last, done.kind, self.bridge)

    def check(self, task: Any) -> tuple[bool, str]:
        target = _Target(self._last(), self.answer)
        if self.judge is not None:
            return verdict(self.judge(task, target))
        return verdict(task.check(target))

    def close(self) -> None:
        if self.owns_device:
            self.device.close()


class _Target:
    """The final screen and answer, as a screen check reads them."""

    def __init__(self, screen: Screen, answer: str | None) -> None:
        self.screen = screen
        self.root = screen.root
        self.package = screen.package
        self.activity = screen.component
        self.answer = answer
