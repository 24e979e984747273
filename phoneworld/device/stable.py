"""Observing a real device: wait for a still hierarchy, retry flaky dumps.

    screen = observe(device, Polling(timeout=10, interval=0.25, settle=2))

Right after an action a phone is mid-animation: the hierarchy changes from one dump to
the next. `observe` dumps until `settle` dumps in a row are identical (the screen has
settled) or `timeout` passes; then the screen is returned with `stable=False` rather
than failing, because some screens never settle (a spinner, a video). A dump that
fails is retried `retries` times with a growing pause; a lost device (`DeviceLost`) is
never retried.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from phoneworld.device.protocol import Device, DeviceLost, Screen, parse_screen
from phoneworld.errors import DeviceError

T = TypeVar("T")


@dataclass(frozen=True)
class Polling:
    """How to wait for a screen to settle and how hard to retry."""

    timeout: float = 10.0
    """Seconds to wait for a still hierarchy before taking the last one as it is."""
    interval: float = 0.25
    """Seconds between dumps."""
    settle: int = 2
    """Identical dumps in a row that make a screen stable (1: take the first dump)."""
    retries: int = 3
    """Extra attempts for a failing device call."""
    backoff: float = 0.5
    """Pause before the first retry; doubled for each further one."""


def retry(device: Device, what: str, call: Callable[[], T], polling: Polling) -> T:
    """`call()`, retried on `DeviceError` (not on `DeviceLost`) as `polling` says."""
    pause = polling.backoff
    for attempt in range(polling.retries + 1):
        try:
            return call()
        except DeviceLost:
            raise
        except DeviceError as err:
            if attempt == polling.retries:
                raise DeviceError(f"device {device.serial}: {what} failed "
                                  f"{polling.retries + 1} times; last error: {err}") from err
            device.sleep(pause)
            pause *= 2
    raise AssertionError("unreachable")


DEFAULT = Polling()


def observe(device: Device, polling: Polling = DEFAULT, *, screenshot: bool = False) -> Screen:
    """The device's screen once it has settled (see the module docstring)."""
    deadline = device.now() + polling.timeout
    last: str | None = None
    same = 0
    stable = False
    while True:
        xml = retry(device, "dumping the hierarchy", device.dump_hierarchy, polling)
        same = same + 1 if xml == last else 1
        last = xml
        if same >= max(1, polling.settle):
            stable = True
            break
        if device.now() >= deadline:
            break
        device.sleep(polling.interval)
    package, activity = retry(device, "reading the foreground app", device.current_app,
                              polling)
    width, height = retry(device, "reading the screen size", device.window_size, polling)
    shot = retry(device, "taking a screenshot", device.screenshot, polling) \
        if screenshot else None
    return parse_screen(last, width=width, height=height, package=package, activity=activity,
                        screenshot=shot, stable=stable, serial=device.serial)
