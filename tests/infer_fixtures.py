"""Small recorded apps built in code, for the inference passes' unit tests.

`App` lays out screens of one package (a toolbar title, buttons, switches, lists of
rows) and records steps between them, tapping at the centre of the named view, so each
test states the few observations and steps its pass needs to see.
"""

from __future__ import annotations

from phoneworld.infer.app import PASSES
from phoneworld.infer.facts import Facts, initial_facts, step_facts
from phoneworld.infer.graph import build_graph
from phoneworld.traces.model import Action, Observation, Step, Trace
from phoneworld.ui.node import Node

PKG = "com.example.app"
W, H = 1080, 2400


def _n(cls: str, rid: str = "", text: str = "", bounds=(0, 0, W, H), children=(),
       **flags) -> Node:
    return Node(class_name=f"android.widget.{cls}", resource_id=f"{PKG}:id/{rid}" if rid
                else "", text=text, package=PKG, bounds=bounds, children=tuple(children),
                **flags)


def title(text: str) -> Node:
    return _n("TextView", "title", text, (0, 0, W, 150))


def label(rid: str, text: str, y: int) -> Node:
    return _n("TextView", rid, text, (0, y, W, y + 100))


def button(rid: str, text: str, y: int) -> Node:
    return _n("Button", rid, text, (0, y, W, y + 100), clickable=True)


def switch(rid: str, checked: bool, y: int) -> Node:
    return _n("Switch", rid, "", (0, y, W, y + 100), clickable=True, checkable=True,
              checked=checked)


def edit(rid: str, y: int, text: str = "") -> Node:
    return _n("EditText", rid, text, (0, y, W, y + 100), clickable=True, editable=True,
              focused=True)


def rows(rid: str, items: list[tuple[str, ...]], y: int = 400, pitch: int = 200,
         row_buttons: tuple[str, ...] = ()) -> Node:
    """A RecyclerView of clickable rows, each a name and other texts (ids f1, f2, ...),
    plus small buttons (ids as given, labelled by their id) at the row's right end."""
    kids = []
    for i, texts in enumerate(items):
        top = y + i * pitch
        cells = [_n("TextView", f"f{j + 1}", t, (0, top, 600, top + pitch))
                 for j, t in enumerate(texts)]
        cells += [_n("ImageButton", b, "", (900, top, W, top + pitch), clickable=True,
                     content_desc=b) for b in row_buttons]
        kids.append(_n("LinearLayout", "row", "", (0, top, W, top + pitch), cells,
                       clickable=True))
    return _n("RecyclerView", rid, "", (0, y, W, H), kids, scrollable=True)


def screen(*children: Node, activity: str = ".Main") -> Node:
    return _n("FrameLayout", "", "", (0, 0, W, H), children)


def centre(node: Node) -> tuple[int, int]:
    b = node.bounds
    return (b[0] + b[2]) // 2, (b[1] + b[3]) // 2


class App:
    """One trace: `show` an observation, then `tap`/`type`/`back` on it."""

    def __init__(self) -> None:
        self.observations: list[Observation] = []
        self.steps: list[Step] = []

    def show(self, root: Node, activity: str = ".Main") -> App:
        self.observations.append(Observation(root=root, width=W, height=H, package=PKG,
                                             activity=f"{PKG}/{activity}",
                                             source=f"{len(self.observations)}.xml"))
        return self

    def _act(self, action: Action) -> App:
        n = len(self.observations)
        self.steps.append(Step(before=n - 1, after=n, action=action))
        return self

    def tap(self, *path: int) -> App:
        """Tap the view at child `path` of the last observation's root."""
        x, y = centre(self.observations[-1].root.at(tuple(path)))
        return self._act(Action(kind="tap", x=x, y=y))

    def type(self, text: str, *path: int) -> App:
        return self._act(Action(kind="type", text=text, target=tuple(path)))

    def scroll(self, direction: str, *path: int) -> App:
        """Scroll the view at child `path` (a list) of the last observation."""
        return self._act(Action(kind="scroll", direction=direction, target=tuple(path)))

    def back(self) -> App:
        return self._act(Action(kind="key", key="back"))

    def trace(self) -> Trace:
        steps = [s for s in self.steps if s.after < len(self.observations)]
        return Trace(format="phoneworld", name="t", app=PKG, source="t",
                     observations=tuple(self.observations), steps=tuple(steps))


def facts(*traces: Trace, until: str | None = None) -> Facts:
    """The facts after the passes up to and including `until` (all when None)."""
    steps = step_facts(traces)
    f = initial_facts("app", build_graph("app", traces, steps), traces, steps)
    for name, run in PASSES:
        f = run(f)
        if name == until:
            return f
    assert until is None, f"no pass named {until!r}"
    return f


def screen_of(f: Facts, trace: int, index: int) -> str:
    from phoneworld.ir.model import ObsRef

    return f.where[ObsRef(trace=trace, index=index)]
