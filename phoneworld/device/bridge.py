"""AndroidWorld actions on a real device: element lists, gestures, and what was done.

    bridge = Bridge(device)
    screen = bridge.observe()                         # settled, parsed
    bridge.elements(screen)                           # the indexed element list
    done = bridge.perform({"action_type": "scroll", "direction": "down"}, screen)
    done  -> Action(kind="scroll", x=540, y=1315, direction="down", target=(0, 0, 2))

`perform` turns an action into gestures (an index names an element of `elements`; a
scroll swipes across the list under the point, or under the screen's centre) and returns
the trace `Action` that records it, in phoneworld's trace conventions: a tap keeps its
point (the reader hit-tests it), typing names its field, a scroll names its list and
that list's centre. `status` and `unknown` do nothing on the phone and return None.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from phoneworld.device.protocol import Device, Screen
from phoneworld.device.stable import DEFAULT, Polling, observe
from phoneworld.errors import InvalidAction
from phoneworld.runtime.actions import Action
from phoneworld.traces.model import Action as TraceAction
from phoneworld.ui.hits import hit_test
from phoneworld.ui.node import Node, NodePath

Element = dict[str, Any]
_OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}


def element_paths(root: Node) -> list[NodePath]:
    """Paths of the indexed elements, by the rule the mock apps use: visible views that
    are interactive or labelled, in document order (a synthetic multi-window root is not
    one)."""
    out = []
    for path, n in root.walk():
        if not n.visible or n.class_name == "hierarchy":
            continue
        if (n.clickable or n.long_clickable or n.checkable or n.editable or n.scrollable
                or n.text or n.content_desc):
            out.append(path)
    return out


def elements(root: Node) -> list[Element]:
    """The indexed element list of a hierarchy (same keys as a mock app's elements)."""
    return [_element(i, root.at(p)) for i, p in enumerate(element_paths(root))]


def _element(index: int, n: Node) -> Element:
    return {"index": index, "text": n.text, "class": n.class_name, "resource_id": n.resource_id,
            "content_desc": n.content_desc, "bounds": list(n.bounds), "clickable": n.clickable,
            "editable": n.editable, "checkable": n.checkable, "checked": n.checked,
            "scrollable": n.scrollable}


def centre(n: Node) -> tuple[int, int]:
    x1, y1, x2, y2 = n.bounds
    return (x1 + x2) // 2, (y1 + y2) // 2


def ancestors(path: NodePath) -> list[NodePath]:
    """`path` and its ancestors' paths, innermost first."""
    return [path[:i] for i in range(len(path), -1, -1)]


def scrollable_at(root: Node, path: NodePath | None, width: int,
                  height: int) -> NodePath | None:
    """The list a scroll moves: the innermost scrollable around `path`; with no path,
    the innermost one under the screen's centre, else the largest one."""
    if path is not None:
        return next((p for p in ancestors(path) if root.at(p).scrollable), None)
    cx, cy = width // 2, height // 2
    best, best_depth, largest, largest_area = None, -1, None, -1
    for p, n in root.walk():
        if not (n.scrollable and n.visible):
            continue
        x1, y1, x2, y2 = n.bounds
        if x1 <= cx < x2 and y1 <= cy < y2 and len(p) > best_depth:
            best, best_depth = p, len(p)
        area = max(0, x2 - x1) * max(0, y2 - y1)
        if area > largest_area:
            largest, largest_area = p, area
    return best if best is not None else largest


def scroll_gesture(bounds: tuple[int, int, int, int], direction: str) -> tuple[int, ...]:
    """Finger start and end that move a list's content `direction` (AndroidWorld's sense:
    `down` shows what is below, so the finger moves up), over half the list."""
    x1, y1, x2, y2 = bounds
    cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
    h, w = max(1, y2 - y1), max(1, x2 - x1)
    if direction == "down":
        return cx, y1 + h * 3 // 4, cx, y1 + h // 4
    if direction == "up":
        return cx, y1 + h // 4, cx, y1 + h * 3 // 4
    if direction == "right":
        return x1 + w * 3 // 4, cy, x1 + w // 4, cy
    return x1 + w // 4, cy, x1 + w * 3 // 4, cy


class Bridge:
    """Observe a device and perform AndroidWorld actions on it."""

    def __init__(self, device: Device, *, polling: Polling = DEFAULT,
                 apps: Mapping[str, str] | None = None, screenshots: bool = False,
                 wait_seconds: float = 1.0) -> None:
        self.device = device
        self.polling = polling
        self.apps = {k.casefold(): v for k, v in (apps or {}).items()}
        """App names (and titles) -> packages, for `open_app`."""
        self.screenshots = screenshots
        self.wait_seconds = wait_seconds

    def observe(self) -> Screen:
        """The device's screen once it has settled."""
        return observe(self.device, self.polling, screenshot=self.screenshots)

    def elements(self, screen: Screen) -> list[Element]:
        return elements(screen.root)

    def resolve_app(self, name: str) -> str:
        """The package of an app named by name, title or package."""
        name = name.strip()
        got = self.apps.get(name.casefold())
        if got is not None:
            return got
        if "." in name and " " not in name:
            return name  # a package name
        known = ", ".join(sorted(set(self.apps))) or "none named"
        raise InvalidAction(f"no app {name!r} is known ({known}); give its package name "
                            f"(com.example.app)", field="app_name")

    def perform(self, action: Action | dict[str, Any], screen: Screen) -> TraceAction | None:
        """Do `action` on the device (on `screen`, the last observation); return the trace
        action that records it, or None for `status` and `unknown`."""
        a = Action.parse(action)
        a.check_screen(screen.width, screen.height)
        t = a.action_type
        d = self.device
        if t in ("click", "double_tap", "long_press"):
            x, y, _ = self._point(a, screen)
            if t == "long_press":
                d.long_press(x, y)
                return TraceAction(kind="long_press", x=x, y=y)
            d.tap(x, y)
            if t == "double_tap":
                d.tap(x, y)
            return TraceAction(kind="tap", x=x, y=y, raw=t if t == "double_tap" else "")
        if t == "input_text":
            return self._type(a, screen)
        if t == "keyboard_enter":
            d.press("enter")
            return TraceAction(kind="key", key="enter")
        if t in ("navigate_back", "navigate_home"):
            key = "back" if t == "navigate_back" else "home"
            d.press(key)
            return TraceAction(kind="key", key=key)
        if t == "scroll":
            return self._scroll(a, screen)
        if t == "swipe":
            x, y = (self._point(a, screen)[:2] if a.targeted
                    else (screen.width // 2, screen.height // 2))
            dx = {"left": -1, "right": 1}.get(a.direction or "", 0)
            dy = {"up": -1, "down": 1}.get(a.direction or "", 0)
            x2 = min(max(0, x + dx * screen.width // 3), screen.width - 1)
            y2 = min(max(0, y + dy * screen.height // 3), screen.height - 1)
            d.swipe(x, y, x2, y2)
            return TraceAction(kind="swipe", x=x, y=y, x2=x2, y2=y2, direction=a.direction)
        if t == "open_app":
            package = self.resolve_app(a.app_name or "")
            d.start_app(package)
            return TraceAction(kind="open_app", package=package)
        if t == "wait":
            d.sleep(self.wait_seconds)
            return TraceAction(kind="wait")
        if t == "answer":
            return TraceAction(kind="answer", text=a.text)
        return None  # status, unknown: nothing happens on the phone

    # -- helpers ---------------------------------------------------------------------------

    def _point(self, a: Action, screen: Screen) -> tuple[int, int, NodePath | None]:
        """The point an action names, and the node it lands on."""
        if a.index is not None:
            paths = element_paths(screen.root)
            if a.index >= len(paths):
                raise InvalidAction(f"{a.index} is out of range: the screen has {len(paths)} "
                                    f"elements (0..{len(paths) - 1})", field="index")
            path = paths[a.index]
            x, y = centre(screen.root.at(path))
            return x, y, path
        assert a.x is not None and a.y is not None
        return a.x, a.y, hit_test(screen.root, a.x, a.y)

    def _type(self, a: Action, screen: Screen) -> TraceAction:
        root = screen.root
        if a.targeted:
            x, y, path = self._point(a, screen)
            field = None if path is None else _editable_near(root, path)
            if field is None:
                raise InvalidAction("that element is not a text field",
                                    field="index" if a.index is not None else "x")
            if not root.at(field).focused:
                self.device.tap(x, y)
        else:
            field = next((p for p, n in root.walk() if n.focused and n.editable), None)
            if field is None:
                raise InvalidAction("no text field has focus: give index, or x and y",
                                    field="index")
            x, y = centre(root.at(field))
        self.device.type_text(a.text or "", clear=a.clear_text is not False)
        return TraceAction(kind="type", x=x, y=y, text=a.text or "", target=field)

    def _scroll(self, a: Action, screen: Screen) -> TraceAction:
        path = self._point(a, screen)[2] if a.targeted else None
        lst = scrollable_at(screen.root, path, screen.width, screen.height)
        node = screen.root.at(lst) if lst is not None else screen.root
        direction = a.direction or "down"
        self.device.swipe(*scroll_gesture(node.bounds, direction))
        x, y = centre(node)
        return TraceAction(kind="scroll", x=x, y=y, direction=direction, target=lst)


def _editable_near(root: Node, path: NodePath) -> NodePath | None:
    """The text field at `path`: the node itself, an ancestor, or its only editable
    descendant (a tap on a field's label or container)."""
    for p in ancestors(path):
        if root.at(p).editable:
            return p
    inside = [path + sub for sub, n in root.at(path).walk() if n.editable]
    return inside[0] if len(inside) == 1 else None


def opposite(direction: str) -> str:
    return _OPPOSITE[direction]
