"""Play a script against a scripted app and record what a phone recorder would.

    s = Session(ShopApp, "add_yogurt", "Add two Greek yogurts to my cart.", seed=7)
    s.tap("category:dairy"); s.scroll("product_list", "down"); ...
    trace = s.trace()

Every action names its widget by the view's script key; the session finds it on the
current screen, works out where a finger would touch it, records the action, lets the
app handle it and records the next screen. A script that names a widget not on screen
fails at once, so a trace cannot show a tap on something that was not there.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from phoneworld.traces.model import Action, Observation, Step, Trace
from phoneworld.ui.hits import hit_test
from phoneworld.ui.node import Node, NodePath

from . import device
from .app import App
from .views import HEIGHT, WIDTH, View, walk


class ScriptError(AssertionError):
    """A trace script asked for something the screen does not offer."""


class Session:
    def __init__(self, app_class: type[App], name: str, instruction: str, seed: int) -> None:
        self.rng = random.Random(f"{seed}/{app_class.package}/{name}")
        self.clock = device.Clock.start(self.rng)
        self.app = app_class(self.clock)
        self.name = name
        self.instruction = instruction
        self.answer_text: str | None = None
        self.observations: list[Observation] = []
        self.steps: list[Step] = []
        self._observe()

    # -- actions ------------------------------------------------------------------------

    def tap(self, key: str) -> None:
        path, view = self._find(key)
        x, y, shadowed = self._touch_point(path, view)
        self._act(Action(kind="tap", x=x, y=y, target=path if shadowed else None),
                  self._handler(view.on_tap, key))

    def long_press(self, key: str) -> None:
        path, view = self._find(key)
        x, y, shadowed = self._touch_point(path, view)
        self._act(Action(kind="long_press", x=x, y=y, target=path if shadowed else None),
                  self._handler(view.on_long_press, key))

    def type(self, key: str, text: str) -> None:
        path, view = self._find(key)
        if not view.input_id or not view.focused:
            raise self._error(f"{key!r} is not a focused text field")
        x, y = _centre(view)
        self._act(Action(kind="type", text=text, x=x, y=y, target=path),
                  lambda: self.app.type_text(view.input_id, text))

    def key(self, name: str) -> None:
        if name == "back":
            handler = self.app.back
        elif name == "enter":
            focused = [v for _, v in walk(self.views) if v.focused and v.on_enter]
            if not focused:
                raise self._error("enter pressed with no focused field that submits")
            handler = focused[0].on_enter
        else:
            raise self._error(f"unknown key {name!r}")
        self._act(Action(kind="key", key=name), handler)

    def scroll(self, key: str, direction: str) -> None:
        path, view = self._find(key)
        if view.on_scroll is None:
            raise self._error(f"{key!r} does not scroll")
        x, y = _centre(view)
        on_scroll = view.on_scroll
        self._act(Action(kind="scroll", direction=direction, x=x, y=y, target=path),
                  lambda: on_scroll(direction))

    def answer(self, text: str) -> None:
        self.answer_text = text
        self.steps.append(Step(before=len(self.observations) - 1,
                               action=Action(kind="answer", text=text)))

    def trace(self) -> Trace:
        if not 6 <= len(self.steps) <= 20:
            raise self._error(f"{len(self.steps)} steps; example traces have 6-20")
        return Trace(format="phoneworld", name=self.name, app=self.app.package,
                     source=self.name, observations=tuple(self.observations),
                     steps=tuple(self.steps), instruction=self.instruction,
                     answer=self.answer_text)

    # -- recording ----------------------------------------------------------------------

    def _observe(self) -> None:
        content, dialog = self.app.render()
        windows = device.screen(self.app.package, content, dialog, self.clock,
                                self.app.status_icons())
        self.views = View("hierarchy", (0, 0, WIDTH, HEIGHT), children=[w for _, w in windows])
        self.root = Node(class_name="hierarchy", bounds=(0, 0, WIDTH, HEIGHT),
                         package=self.app.package,
                         children=tuple(w.to_node(pkg) for pkg, w in windows))
        self.observations.append(Observation(root=self.root, width=WIDTH, height=HEIGHT,
                                             package=self.app.package,
                                             activity=self.app.activity()))

    def _act(self, action: Action, handler: Callable[[], None]) -> None:
        if self.answer_text is not None:
            raise self._error("no actions after the answer")
        n = len(self.observations)
        self.steps.append(Step(before=n - 1, action=action, after=n))
        self.app.before_action()
        handler()
        self.clock.tick()
        self._observe()

    def _find(self, key: str) -> tuple[NodePath, View]:
        hits = [(p, v) for p, v in walk(self.views) if v.key == key]
        if len(hits) != 1:
            keys = sorted({v.key for _, v in walk(self.views) if v.key})
            raise self._error(f"{len(hits)} views named {key!r} on screen "
                              f"{self.app.route.name!r}; there are {keys}")
        return hits[0]

    def _handler(self, handler: Callable[[], None] | None, key: str) -> Callable[[], None]:
        if handler is None:
            raise self._error(f"{key!r} does nothing when touched")
        return handler

    def _touch_point(self, path: NodePath, view: View) -> tuple[int, int, bool]:
        """Where a finger lands on `view`: its centre, else the nearest point that hits it.

        Android gives a touch to the topmost window and, within a layout, to the last
        child drawn that takes it (`dispatch_target`); phoneworld's reader hit-tests by
        depth instead, which differs where views overlap (a floating button over a list,
        a dialog over the app). A point where both agree is preferred; where none exists
        the action names its target (returns shadowed=True).
        """
        x1, y1, x2, y2 = view.bounds
        cx, cy = _centre(view)
        grid = [(x1 + (x2 - x1) * i // 10, y1 + (y2 - y1) * j // 10)
                for i in range(1, 10) for j in range(1, 10)]
        grid.sort(key=lambda p: ((p[0] - cx) ** 2 + (p[1] - cy) ** 2, p))
        points = [p for p in [(cx, cy), *grid] if dispatch_target(self.root, *p) == path]
        if not points:
            raise self._error(f"{view.key!r} at {view.bounds} is covered by other views")
        for x, y in points:
            if hit_test(self.root, x, y) == path:
                return x, y, False
        return *points[0], True

    def _error(self, message: str) -> ScriptError:
        return ScriptError(f"{self.app.package} trace {self.name!r}, "
                           f"step {len(self.steps)}: {message}")


def dispatch_target(root: Node, x: int, y: int, path: NodePath = ()) -> NodePath | None:
    """The view Android hands a touch at (x, y): topmost first, the deepest one that takes it."""
    for i in range(len(root.children) - 1, -1, -1):
        child = root.children[i]
        b = child.bounds
        if child.visible and b[0] <= x < b[2] and b[1] <= y < b[3]:
            hit = dispatch_target(child, x, y, path + (i,))
            if hit is not None:
                return hit
    if root.clickable or root.long_clickable or root.checkable:
        return path
    return None


def _centre(view: View) -> tuple[int, int]:
    x1, y1, x2, y2 = view.bounds
    return (x1 + x2) // 2, (y1 + y2) // 2


Script = Callable[[Session], None]


def registry(traces: list[tuple[str, str, Script]]) -> Callable[[str, str], Callable]:
    """A decorator that adds `@trace(name, instruction)` scripts to `traces`, in order."""
    def trace(name: str, instruction: str) -> Callable[[Script], Script]:
        def register(script: Script) -> Script:
            traces.append((name, instruction, script))
            return script
        return register
    return trace
