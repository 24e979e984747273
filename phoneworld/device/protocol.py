"""The `Device` protocol: what phoneworld needs from a phone, and one observed screen.

    device.dump_hierarchy() -> uiautomator XML      device.tap(x, y)
    device.screenshot()     -> PNG bytes            device.swipe(x1, y1, x2, y2)
    device.current_app()    -> (package, activity)  device.press("back" | "home" | "enter")

`AdbDevice` (uiautomator2 over adb) implements it for real phones and emulators;
`ReplayDevice` replays recorded hierarchies for tests. A `Screen` is one observation,
parsed by the same reader as recorded dumps, so a live screen and a recorded one are
the same kind of value.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

from phoneworld.errors import DeviceError
from phoneworld.traces.assemble import foreground_package
from phoneworld.traces.model import Observation
from phoneworld.ui.hierarchy import HierarchyError, parse_hierarchy
from phoneworld.ui.node import Node

Key = Literal["back", "home", "enter"]
KEYS: tuple[Key, ...] = ("back", "home", "enter")


class DeviceLost(DeviceError):
    """The device is gone (offline, unplugged, no adb): retrying will not help."""


@runtime_checkable
class Device(Protocol):
    """A phone: observe it and act on it. Every method raises `DeviceError` on failure."""

    serial: str

    def window_size(self) -> tuple[int, int]:
        """The screen's (width, height) in pixels, in the current rotation."""
        ...

    def dump_hierarchy(self) -> str:
        """The view hierarchy as uiautomator XML."""
        ...

    def screenshot(self) -> bytes:
        """The screen as PNG bytes."""
        ...

    def current_app(self) -> tuple[str, str]:
        """(package, activity) in the foreground; activity may be ""."""
        ...

    def tap(self, x: int, y: int) -> None: ...

    def long_press(self, x: int, y: int, duration: float = 1.0) -> None: ...

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration: float = 0.3) -> None: ...

    def type_text(self, text: str, clear: bool = True) -> None:
        """Type into the focused field (replacing its text when `clear`)."""
        ...

    def press(self, key: Key) -> None: ...

    def start_app(self, package: str, activity: str | None = None) -> None: ...

    def stop_app(self, package: str) -> None: ...

    def sleep(self, seconds: float) -> None:
        """Wait (a device double waits in virtual time)."""
        ...

    def now(self) -> float:
        """Seconds on a monotonic clock (the double's is virtual)."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class TouchSource(Protocol):
    """A device that can also report a person's own touches (`adb shell getevent`)."""

    def input_devices(self) -> str:
        """`getevent -lp` output: the input devices and their axis ranges."""
        ...

    def input_events(self) -> Iterator[str]:
        """`getevent -lt` lines, as they happen, until the session ends."""
        ...


@dataclass(frozen=True)
class Screen:
    """One observation of a device: the dump as it came, parsed, and where it was taken."""

    xml: str
    root: Node
    width: int
    height: int
    package: str = ""
    activity: str = ""
    screenshot: bytes | None = field(default=None, repr=False)
    stable: bool = True
    """False when the hierarchy was still changing when polling gave up."""

    @property
    def component(self) -> str:
        """`package/activity`, as `adb shell dumpsys` writes it (for a trace manifest)."""
        if not self.activity:
            return self.package
        return f"{self.package}/{self.activity}"

    def observation(self, screenshot: str | None = None) -> Observation:
        """As a trace `Observation` (what the recorder writes)."""
        return Observation(root=self.root, width=self.width, height=self.height,
                           package=self.package, activity=self.component,
                           screenshot=screenshot)


def parse_screen(xml: str, *, width: int, height: int, package: str = "", activity: str = "",
                 screenshot: bytes | None = None, stable: bool = True,
                 serial: str = "") -> Screen:
    """A `Screen` from a live dump; a dump that is not a hierarchy is a `DeviceError`."""
    try:
        root, _ = parse_hierarchy(xml.encode("utf-8"))
    except HierarchyError as err:
        where = f"device {serial}: " if serial else ""
        raise DeviceError(f"{where}the hierarchy dump is unreadable ({err}); "
                          f"the app may be mid-transition, try again") from err
    if not package:
        package = foreground_package(root)
    return Screen(xml=xml, root=root, width=width, height=height, package=package,
                  activity=activity, screenshot=screenshot, stable=stable)
