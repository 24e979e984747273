"""A person's own touches, read from `adb shell getevent`: raw input events -> gestures.

    axes = touch_axes(device.input_devices())        # `getevent -lp`: the touchscreen's ranges
    reader = TouchReader(axes, width=1080, height=2400)
    for line in device.input_events():               # `getevent -lt`, line by line
        for gesture in reader.feed(line):
            ...  # Gesture(kind="tap", x=540, y=1200, ...), Gesture(kind="key", key="back")

The first finger of a touch is followed (multi-touch slot 0); raw coordinates are scaled
from the touchscreen's axis range to screen pixels (portrait, rotation 0). A touch that
moves less than `slop` pixels is a tap, or a long press when held `long_press` seconds
or more; anything else is a swipe from its first to its last point. The back, home and
enter keys come through as `key` gestures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

_DEVICE = re.compile(r"^add device \d+:\s*(\S+)")
_AXIS = re.compile(r"(ABS_MT_POSITION_X|ABS_MT_POSITION_Y|ABS_X|ABS_Y)\s*:\s*value\s*-?\d+,\s*"
                   r"min\s*(-?\d+),\s*max\s*(-?\d+)")
_EVENT = re.compile(r"^\[\s*(\d+\.\d+)\]\s*(\S+):\s+(\w+)\s+(\w+)\s+(\w+)")
_KEYS = {"KEY_BACK": "back", "KEY_HOMEPAGE": "home", "KEY_HOME": "home", "KEY_ENTER": "enter"}
_UP = 0xFFFFFFFF


@dataclass(frozen=True)
class TouchAxes:
    """Where the touchscreen is and the range of its raw coordinates."""

    device: str
    x_min: int
    x_max: int
    y_min: int
    y_max: int


@dataclass(frozen=True)
class Gesture:
    """One finished touch (or a key press), in screen pixels and seconds."""

    kind: Literal["tap", "long_press", "swipe", "key"]
    x: int = 0
    y: int = 0
    x2: int = 0
    y2: int = 0
    start: float = 0.0
    end: float = 0.0
    key: str | None = None


def touch_axes(getevent_lp: str) -> TouchAxes | None:
    """The touchscreen in `getevent -lp` output (the device with multi-touch X/Y), or None."""
    found: dict[str, dict[str, tuple[int, int]]] = {}
    device = ""
    for line in getevent_lp.splitlines():
        m = _DEVICE.match(line.strip())
        if m:
            device = m.group(1)
            found[device] = {}
            continue
        m = _AXIS.search(line)
        if m and device:
            found[device][m.group(1)] = (int(m.group(2)), int(m.group(3)))
    for prefer in (("ABS_MT_POSITION_X", "ABS_MT_POSITION_Y"), ("ABS_X", "ABS_Y")):
        for dev, axes in found.items():
            if all(a in axes for a in prefer):
                (x0, x1), (y0, y1) = axes[prefer[0]], axes[prefer[1]]
                return TouchAxes(dev, x0, x1, y0, y1)
    return None


@dataclass
class _Touch:
    start: float
    points: list[tuple[int, int]] = field(default_factory=list)
    end: float = 0.0


class TouchReader:
    """Turns `getevent -lt` lines into `Gesture`s (see the module docstring)."""

    def __init__(self, axes: TouchAxes | None, width: int, height: int, *, slop: int = 30,
                 long_press: float = 0.5) -> None:
        self.axes = axes
        self.width = width
        self.height = height
        self.slop = slop
        self.long_press = long_press
        self._slot = 0
        self._touch: _Touch | None = None
        self._x: int | None = None
        self._y: int | None = None
        self._lifted = False

    @property
    def touching(self) -> bool:
        """Whether a finger is down (a gesture has begun and not ended)."""
        return self._touch is not None

    def feed(self, line: str) -> list[Gesture]:
        """Read one line; return the gestures it finished (usually none)."""
        m = _EVENT.match(line.strip())
        if not m:
            return []
        t, dev, kind, code, value = float(m.group(1)), m.group(2), m.group(3), m.group(4), \
            m.group(5)
        if kind == "EV_KEY" and code in _KEYS:
            return [Gesture(kind="key", key=_KEYS[code], start=t, end=t)] \
                if value == "UP" else []
        if self.axes is not None and dev != self.axes.device:
            return []
        if kind == "EV_ABS":
            v = int(value, 16) if re.fullmatch(r"[0-9a-fA-F]+", value) else 0
            if code == "ABS_MT_SLOT":
                self._slot = v
            elif self._slot != 0:
                return []
            elif code == "ABS_MT_TRACKING_ID":
                if v == _UP:
                    self._lifted = True
                elif self._touch is None:
                    self._touch = _Touch(start=t)
            elif code in ("ABS_MT_POSITION_X", "ABS_X"):
                self._x = self._scale(v, "x")
            elif code in ("ABS_MT_POSITION_Y", "ABS_Y"):
                self._y = self._scale(v, "y")
        elif kind == "EV_KEY" and code == "BTN_TOUCH":
            if value == "DOWN" and self._touch is None:
                self._touch = _Touch(start=t)
            elif value == "UP":
                self._lifted = True
        elif kind == "EV_SYN" and code == "SYN_REPORT":
            return self._report(t)
        return []

    def _report(self, t: float) -> list[Gesture]:
        touch = self._touch
        if touch is None:
            return []
        if self._x is not None and self._y is not None:
            if not touch.points or touch.points[-1] != (self._x, self._y):
                touch.points.append((self._x, self._y))
        if not self._lifted:
            return []
        self._touch, self._lifted = None, False
        touch.end = t
        if not touch.points:
            return []
        (x, y), (x2, y2) = touch.points[0], touch.points[-1]
        moved = max(max(abs(px - x), abs(py - y)) for px, py in touch.points)
        if moved < self.slop:
            kind = "long_press" if touch.end - touch.start >= self.long_press else "tap"
            return [Gesture(kind=kind, x=x, y=y, x2=x, y2=y, start=touch.start, end=t)]
        return [Gesture(kind="swipe", x=x, y=y, x2=x2, y2=y2, start=touch.start, end=t)]

    def _scale(self, raw: int, axis: str) -> int:
        size = self.width if axis == "x" else self.height
        if self.axes is None:
            return min(max(0, raw), size - 1)
        lo, hi = (self.axes.x_min, self.axes.x_max) if axis == "x" else \
            (self.axes.y_min, self.axes.y_max)
        span = max(1, hi - lo + 1)
        return min(max(0, (raw - lo) * size // span), size - 1)


def encode(g: Gesture, axes: TouchAxes, width: int, height: int, *,
           tracking_id: int = 1) -> list[str]:
    """The `getevent -lt` lines a touchscreen writes for `g` (for device doubles and tests)."""
    dev = axes.device

    def raw(v: int, size: int, lo: int, hi: int) -> int:
        return lo + (v * (hi - lo + 1) + size - 1) // size  # read back exactly

    def line(t: float, kind: str, code: str, value: str) -> str:
        return f"[{t:14.6f}] {dev}: {kind:<12} {code:<20} {value}"

    if g.kind == "key":
        code = {"back": "KEY_BACK", "home": "KEY_HOMEPAGE", "enter": "KEY_ENTER"}[g.key or ""]
        return [line(g.start, "EV_KEY", code, "DOWN"), line(g.start, "EV_SYN", "SYN_REPORT",
                                                            "00000000"),
                line(g.end, "EV_KEY", code, "UP"), line(g.end, "EV_SYN", "SYN_REPORT",
                                                        "00000000")]
    steps = 1 if g.kind != "swipe" else 6
    out = [line(g.start, "EV_ABS", "ABS_MT_TRACKING_ID", f"{tracking_id:08x}"),
           line(g.start, "EV_KEY", "BTN_TOUCH", "DOWN")]
    for i in range(steps + 1 if g.kind == "swipe" else 1):
        f = i / steps
        x = round(g.x + (g.x2 - g.x) * f)
        y = round(g.y + (g.y2 - g.y) * f)
        t = g.start + (g.end - g.start) * f if g.kind == "swipe" else g.start
        out += [line(t, "EV_ABS", "ABS_MT_POSITION_X",
                     f"{raw(x, width, axes.x_min, axes.x_max):08x}"),
                line(t, "EV_ABS", "ABS_MT_POSITION_Y",
                     f"{raw(y, height, axes.y_min, axes.y_max):08x}"),
                line(t, "EV_SYN", "SYN_REPORT", "00000000")]
    out += [line(g.end, "EV_ABS", "ABS_MT_TRACKING_ID", "ffffffff"),
            line(g.end, "EV_KEY", "BTN_TOUCH", "UP"),
            line(g.end, "EV_SYN", "SYN_REPORT", "00000000")]
    return out


def describe_axes(axes: TouchAxes, name: str = "touchscreen") -> str:
    """`getevent -lp` output for one touchscreen (for device doubles and tests)."""
    return (f"add device 1: {axes.device}\n  name:     \"{name}\"\n  events:\n"
            f"    ABS (0003): ABS_MT_SLOT           : value 0, min 0, max 9, fuzz 0, flat 0, "
            f"resolution 0\n"
            f"                ABS_MT_POSITION_X     : value 0, min {axes.x_min}, max "
            f"{axes.x_max}, fuzz 0, flat 0, resolution 0\n"
            f"                ABS_MT_POSITION_Y     : value 0, min {axes.y_min}, max "
            f"{axes.y_max}, fuzz 0, flat 0, resolution 0\n"
            f"                ABS_MT_TRACKING_ID    : value 0, min 0, max 65535, fuzz 0, "
            f"flat 0, resolution 0\n")
