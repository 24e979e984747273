"""`ReplayDevice`: a device double that replays a recorded trace's real hierarchies.

    device = ReplayDevice(read_traces("../shared/traces/llamatouch/duolingo")[0])
    device.dump_hierarchy()        # screen 0 of the recording, as uiautomator XML
    device.press("home")           # the recorded step from screen 0 was [Home]: screen 1

A gesture that does what the recording did on the current screen (a tap on the node the
recorded tap hit, the same key, a swipe that scrolls the recorded list the recorded way,
text typed into the recorded field) moves to the recorded next screen; anything else
leaves the screen as it is, as a tap on a label does on a phone. Time is virtual
(`sleep` advances it, a dump costs `dump_seconds`), so timeouts are testable without
waiting. Knobs for what real devices do: `frames` (dumps that still show an animation
after each move), `fail_next` (dumps that fail), `offline`. `touches` scripts a person's
own gestures, delivered through `input_events` as `getevent` lines.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from phoneworld.device.protocol import DeviceLost, Key
from phoneworld.device.touches import Gesture, TouchAxes, describe_axes, encode
from phoneworld.errors import DeviceError
from phoneworld.traces.model import Step, Trace
from phoneworld.ui.hierarchy import to_uiautomator_xml
from phoneworld.ui.hits import hit_test
from phoneworld.ui.node import Node, NodePath

LAUNCHER = "com.android.launcher3"
_FINGER_TO_CONTENT = {"up": "down", "down": "up", "left": "right", "right": "left"}


@dataclass
class Call:
    """One call the double received (its log, for tests)."""

    name: str
    args: tuple = ()
    moved: bool = False


@dataclass
class ReplayDevice:
    """A `Device` (and `TouchSource`) that replays `trace` (see the module docstring)."""

    trace: Trace
    serial: str = "replay-1"
    frames: int = 0
    """Dumps after each move that still show an animation (each one differs)."""
    fail_next: int = 0
    """The next this-many dumps raise `DeviceError`."""
    offline: bool = False
    dump_seconds: float = 0.05
    touches: Sequence[Gesture] = ()
    touch_axes: TouchAxes = field(default_factory=lambda: TouchAxes("/dev/input/event2",
                                                                    0, 4095, 0, 4095))
    at: int | None = 0
    """The recorded screen shown, or None for the launcher (an app was stopped)."""
    log: list[Call] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.clock = 0.0
        self.focus: NodePath | None = None
        self._animating = 0
        self._frame = 0
        self._from: dict[int, list[Step]] = {}
        for s in self.trace.steps:
            self._from.setdefault(s.before, []).append(s)
        first = self.trace.observations[0]
        self.width, self.height = first.width, first.height

    # -- what the screen shows -----------------------------------------------------------------

    @property
    def root(self) -> Node:
        if self.at is None:
            return Node(class_name="android.widget.FrameLayout", package=LAUNCHER,
                        resource_id=f"{LAUNCHER}:id/workspace",
                        bounds=(0, 0, self.width, self.height))
        root = self.trace.observations[self.at].root
        assert root is not None, "a replayed screen needs its hierarchy"
        return root

    def _live(self) -> None:
        if self.offline:
            raise DeviceLost(f"device {self.serial} is offline")

    def window_size(self) -> tuple[int, int]:
        self._live()
        return self.width, self.height

    def dump_hierarchy(self) -> str:
        self._live()
        self.clock += self.dump_seconds
        if self.fail_next > 0:
            self.fail_next -= 1
            raise DeviceError(f"device {self.serial}: uiautomator dump failed (simulated)")
        xml = to_uiautomator_xml(self.root)
        if self._animating > 0:
            self._animating -= 1
            self._frame += 1
            return xml.replace("<hierarchy", f"<!-- frame {self._frame} --><hierarchy", 1)
        return xml

    def screenshot(self) -> bytes:
        self._live()
        shade = 40 + 20 * (self.at or 0) % 200
        return solid_png(max(1, self.width // 10), max(1, self.height // 10), shade)

    def current_app(self) -> tuple[str, str]:
        self._live()
        if self.at is None:
            return LAUNCHER, f"{LAUNCHER}.Launcher"
        obs = self.trace.observations[self.at]
        return obs.package, obs.activity

    # -- acting ----------------------------------------------------------------------------------

    def tap(self, x: int, y: int) -> None:
        self._live()
        path = hit_test(self.root, x, y)
        moved = self._follow(lambda s: s.action.kind == "tap" and self._same(s, path))
        if not moved and path is not None and self._editable(path) is not None:
            self.focus = self._editable(path)
        self.log.append(Call("tap", (x, y), moved))

    def long_press(self, x: int, y: int, duration: float = 1.0) -> None:
        self._live()
        path = hit_test(self.root, x, y)
        self.clock += duration
        moved = self._follow(lambda s: s.action.kind == "long_press" and self._same(s, path))
        self.log.append(Call("long_press", (x, y), moved))

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration: float = 0.3) -> None:
        self._live()
        self.clock += duration
        dx, dy = x2 - x1, y2 - y1
        finger = ("down" if dy > 0 else "up") if abs(dy) >= abs(dx) else \
            ("right" if dx > 0 else "left")
        content = _FINGER_TO_CONTENT[finger]
        root = self.root

        def matches(s: Step) -> bool:
            a = s.action
            if a.kind == "scroll" and a.direction == content:
                if a.target is None:
                    return True
                bx1, by1, bx2, by2 = root.at(a.target).bounds
                return bx1 <= x1 < bx2 and by1 <= y1 < by2
            if a.kind == "swipe" and a.x is not None and a.x2 is not None:
                rdx, rdy = a.x2 - a.x, (a.y2 or 0) - (a.y or 0)
                rfinger = ("down" if rdy > 0 else "up") if abs(rdy) >= abs(rdx) else \
                    ("right" if rdx > 0 else "left")
                return rfinger == finger
            return False

        moved = self._follow(matches)
        self.log.append(Call("swipe", (x1, y1, x2, y2), moved))

    def type_text(self, text: str, clear: bool = True) -> None:
        self._live()
        focus = self.focus
        moved = self._follow(lambda s: s.action.kind == "type" and (
            s.action.target is None or focus is None or s.action.target == focus))
        self.log.append(Call("type_text", (text, clear), moved))

    def press(self, key: Key) -> None:
        self._live()
        moved = self._follow(lambda s: s.action.kind == "key" and
                             (s.action.key or "").lower() == key)
        self.log.append(Call("press", (key,), moved))

    def start_app(self, package: str, activity: str | None = None) -> None:
        self._live()
        moved = self._follow(lambda s: s.action.kind == "open_app" and
                             s.action.package == package)
        if not moved:
            first = next((i for i, o in enumerate(self.trace.observations)
                          if o.package == package and not o.foreign), None)
            if first is None:
                raise DeviceError(f"device {self.serial}: {package} is not installed")
            self._go(first)
            moved = True
        self.log.append(Call("start_app", (package,), moved))

    def stop_app(self, package: str) -> None:
        self._live()
        if self.at is not None and self.trace.observations[self.at].package == package:
            self.at = None
            self.focus = None
        self.log.append(Call("stop_app", (package,)))

    def sleep(self, seconds: float) -> None:
        self.clock += max(0.0, seconds)

    def now(self) -> float:
        return self.clock

    def close(self) -> None:
        self.log.append(Call("close"))

    # -- a person's touches ------------------------------------------------------------------------

    def input_devices(self) -> str:
        self._live()
        return describe_axes(self.touch_axes)

    def input_events(self) -> Iterator[str]:
        """The scripted `touches` as getevent lines; each gesture acts on the double just
        before its last line is read, as a finger lifting does."""
        for n, g in enumerate(self.touches):
            start = self.clock + 0.5
            end = start + max(0.05, g.end - g.start)
            g = Gesture(kind=g.kind, x=g.x, y=g.y, x2=g.x2, y2=g.y2, start=start, end=end,
                        key=g.key)
            lines = encode(g, self.touch_axes, self.width, self.height, tracking_id=n + 1)
            for i, line in enumerate(lines):
                if i == len(lines) - 1:
                    self.clock = end
                    self._perform(g)
                yield line + "\n"

    def _perform(self, g: Gesture) -> None:
        if g.kind == "tap":
            self.tap(g.x, g.y)
        elif g.kind == "long_press":
            self.long_press(g.x, g.y, g.end - g.start)
        elif g.kind == "swipe":
            self.swipe(g.x, g.y, g.x2, g.y2, g.end - g.start)
        elif g.kind == "key" and g.key in ("back", "home", "enter"):
            self.press(g.key)  # type: ignore[arg-type]

    # -- following the recording ------------------------------------------------------------

    def _same(self, s: Step, path: NodePath | None) -> bool:
        """Whether a touch on `path` hits what step `s` touched."""
        target = s.action.target
        if target is None and s.action.x is not None and s.action.y is not None:
            target = hit_test(self.root, s.action.x, s.action.y)
        return path is not None and target == path

    def _follow(self, matches) -> bool:
        if self.at is None:
            return False
        for s in self._from.get(self.at, ()):
            if matches(s) and s.after is not None:
                self._go(s.after)
                return True
        return False

    def _go(self, index: int) -> None:
        if index != self.at:
            self.focus = None
            self._animating = self.frames
        self.at = index
        root = self.root
        self.focus = next((p for p, n in root.walk() if n.focused and n.editable), self.focus)

    def _editable(self, path: NodePath) -> NodePath | None:
        root = self.root
        for i in range(len(path), -1, -1):
            if root.at(path[:i]).editable:
                return path[:i]
        return None


def solid_png(width: int, height: int, shade: int = 128) -> bytes:
    """A grey PNG of the given size (stdlib only)."""
    row = b"\x00" + bytes([shade % 256]) * (width * 3)
    raw = zlib.compress(row * height, 1)

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(
            ">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + \
        chunk(b"IEND", b"")


def replay_actions(trace: Trace) -> list[dict]:
    """The AndroidWorld actions that redo `trace`'s steps on a device, in order (a step
    that has none, like an intent, is left out)."""
    out: list[dict] = []
    for s in trace.steps:
        a = s.action
        if a.kind in ("tap", "long_press") and a.x is not None:
            out.append({"action_type": "click" if a.kind == "tap" else "long_press",
                        "x": a.x, "y": a.y})
        elif a.kind == "type":
            act: dict = {"action_type": "input_text", "text": a.text or ""}
            if a.x is not None:
                act.update(x=a.x, y=a.y)
            out.append(act)
        elif a.kind == "key" and (a.key or "").lower() in ("back", "home", "enter"):
            out.append({"action_type": {"back": "navigate_back", "home": "navigate_home",
                                        "enter": "keyboard_enter"}[(a.key or "").lower()]})
        elif a.kind == "scroll" and a.direction:
            act = {"action_type": "scroll", "direction": a.direction}
            if a.x is not None:
                act.update(x=a.x, y=a.y)
            out.append(act)
        elif a.kind == "swipe" and a.direction:
            act = {"action_type": "swipe", "direction": a.direction}
            if a.x is not None:
                act.update(x=a.x, y=a.y)
            out.append(act)
        elif a.kind == "open_app" and a.package:
            out.append({"action_type": "open_app", "app_name": a.package})
        elif a.kind == "answer":
            out.append({"action_type": "answer", "text": a.text or ""})
        elif a.kind == "wait":
            out.append({"action_type": "wait"})
    return out
