"""What a planner's search may do in a state of an app, and how it tells states apart.

    world = World(Machine(spec), facts)      # a machine or a phone, seen by the search
    candidate_actions(world, typed=("Hi",))  -> [{"action_type": "click", "index": 4}, ...]
    world.key(node)                          -> what the state shows and holds that matters

A search tries every action a person could take on the screen (wait where the screen
gives way by itself, tap what is clickable or what a recording tapped to some effect,
long-press what is long-clickable, swipe a list row sideways where a swipe was recorded
on it, type a task's text into a field, press enter, scroll a list either way, go back;
on a phone, open the task's app), with `snapshot`/`restore` between tries. States are
told apart by a key: the top screen with its parameter, typed text, scroll offsets and
focus, the screen and parameter below it (so `back` is not confused), and the tables and
flags that matter (those the goal reads and those that steer transitions); everything
else is left out so that toggling an unrelated switch is not a new state. The key is an
abstraction, so a plan is only a candidate until `demos.make_demo` replays it on a fresh
machine and the checker agrees.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from phoneworld.runtime.actions import Action as RuntimeAction
from phoneworld.runtime.cache import frozen
from phoneworld.runtime.expr import normalise
from phoneworld.runtime.machine import Machine, Snapshot
from phoneworld.runtime.phone import Phone
from phoneworld.spec.ast import AppSpec
from phoneworld.spec.walk import views
from phoneworld.tasks.schema import reads
from phoneworld.tasks.stategraph import Node, state_of

Action = dict[str, Any]


class World:
    """A machine or a phone seen by the search: act, look, remember, and key a state."""

    def __init__(self, target: Machine | Phone,
                 facts: Sequence[Callable[[World], bool]] = ()) -> None:
        self.target = target
        self.phone = target if isinstance(target, Phone) else None
        specs = list(target.specs.values()) if self.phone else [target.spec]
        self.relevant = {s.name: _steering(s) for s in specs}
        self.facts = list(facts)
        """What the goal is made of: a state is keyed by their truth, not by its data."""
        self.long_press = any(t.action == "long_press" for s in specs for t in s.transitions)
        self._swipes: dict[tuple[str, str], set[str]] = {}
        """(app, screen) -> the widgets a recorded swipe across a list row fires, where
        it never leads where a tap on them does (else they were slips of the finger)."""
        self._presses: dict[tuple[str, str], set[str]] = {}
        """(app, screen) -> the widgets a recorded tap made do something."""
        for s in specs:
            for t in s.transitions:
                if t.action == "tap" and (t.target != "stay" or t.effects):
                    self._presses.setdefault((s.name, t.screen), set()).add(t.widget)
            slips = slipped(s)
            for t in s.transitions:
                if t.action == "swipe" and (t.screen, t.widget) not in slips:
                    self._swipes.setdefault((s.name, t.screen), set()).add(t.widget)
        self._timed = {(s.name, t.screen) for s in specs for t in s.transitions
                       if t.action == "wait"}

    def machines(self) -> dict[str, Machine]:
        if self.phone is not None:
            return self.phone.machines
        return {self.target.spec.name: self.target}  # type: ignore[union-attr]

    def snapshot(self) -> Any:
        return self.target.snapshot()

    def restore(self, snap: Any) -> None:
        self.target.place(snap)

    def step(self, action: Action) -> Any:
        return self.target.step(action)

    @property
    def foreground(self) -> str | None:
        if self.phone is not None:
            return self.phone.foreground
        return self.target.spec.name  # type: ignore[union-attr]

    def timed(self) -> bool:
        """Whether the current screen gives way by itself (`on splash wait -> home`)."""
        app = self.foreground
        if not self._timed or app is None:
            return False
        return (app, self.machines()[app].screen) in self._timed

    def elements(self) -> list[dict[str, Any]]:
        return self.target.observe("elements")

    def texts(self) -> set[object]:
        """What the screen shows, normalised as `~` compares; a switch or a checkbox
        shows "on" or "off"."""
        out: set[object] = set()
        for e in self.elements():
            for v in (e["text"], e["content_desc"]):
                if v:
                    out.add(normalise(v))
            if e["checkable"]:
                out.add("on" if e["checked"] else "off")
        return out

    def key(self, node: Node | None = None) -> tuple:
        """The current state's search key: what it shows and holds that matters (see the
        module docstring), and the truth of each fact. `node`: the current state's node,
        which keeps the part its state alone decides."""
        part = node.part if node is not None else None
        if part is None:
            if node is None:
                snaps = {n: m.snapshot() for n, m in self.machines().items()}
            elif self.phone is None:
                snaps = {self.target.spec.name: node.snap}  # type: ignore[union-attr]
            else:
                snaps = dict(node.snap.machines)
            parts: list[Any] = [self.foreground]
            for name, m in self.machines().items():
                tables, flags = self.relevant[name]
                parts.append((_frames(snaps[name]), _data(m, tables, flags)))
            part = tuple(parts)
            if node is not None:
                node.part = part
        return part, tuple(f(self) for f in self.facts)

    def node(self) -> Node:
        """The current state's node (`stategraph`)."""
        return state_of(self.target, self.target.snapshot())

    def choices(self, node: Node, typed: tuple[str, ...], apps: tuple[str, ...]
                ) -> list[tuple[Action, Any, Any]]:
        """`candidate_actions` at `node`, each with its key and parsed form, found once
        per state; the target must be at `node` the first time."""
        got = node.choices.get((typed, apps))
        if got is None:
            got = node.choices[(typed, apps)] = [
                (a, *_keyed(a)) for a in candidate_actions(self, typed, apps)]
        return got

    def long_clickable(self) -> list[int]:
        """Element indexes of long-clickable views. The element list does not say which
        are; the rendering's boxes do, and it lists the elements' boxes in their order
        (`element_boxes`), so no view tree is built (a quarter of demo planning's time
        went into building one per screen)."""
        r = getattr(self.target, "current", self.target).rendered()
        boxes = r.boxes
        return [n for n, i in enumerate(r.element_boxes) if boxes[i].long_clickable]

    def pressable(self) -> list[int]:
        """Element indexes of views the view tree does not call clickable whose nearest
        named view a recording tapped to some effect (an icon inside a clickable bar:
        the tap reaches it all the same), one per such view."""
        app = self.foreground
        names = self._presses.get((app, self.machines()[app].screen)) if app else None
        if not names:
            return []
        r = self.machines()[app].rendered()  # type: ignore[index]
        boxes, taken, out = r.boxes, set(), []
        for e in self.elements():
            if e["clickable"] or e["checkable"]:
                continue
            named = next((i for i in r.ancestors(r.element_boxes[e["index"]])
                          if boxes[i].view.name), None)
            if named is None or named in taken or boxes[named].clickable or \
                    boxes[named].view.name not in names:
                continue
            taken.add(named)
            out.append(e["index"])
        return out

    def swipeable(self) -> list[int]:
        """Element indexes, one per list row that a recorded swipe takes (swipe an item
        to edit or delete it): the first element inside the row."""
        app = self.foreground
        names = self._swipes.get((app, self.machines()[app].screen)) if app else None
        if not names:
            return []
        m = self.machines()[app]  # type: ignore[index]
        rows = [b.bounds for b in m.rendered().boxes if b.row is not None and
                b.view.name in names]
        out: list[int] = []
        for e in self.elements():
            x0, y0, x1, y1 = e["bounds"]
            hit = next((b for b in rows if b[0] <= x0 and b[1] <= y0 and
                        x1 <= b[2] and y1 <= b[3]), None)
            if hit is not None:
                rows.remove(hit)
                out.append(e["index"])
        return out


def slipped(spec: AppSpec) -> set[tuple[str, str]]:
    """(screen, widget) of the list rows some recorded swipe across which led where a tap
    on them leads: slips of a finger that meant to tap (or to scroll), not a gesture of
    their own."""
    tapped = {(t.screen, t.widget, t.target) for t in spec.transitions if t.action == "tap"}
    return {(t.screen, t.widget) for t in spec.transitions
            if t.action == "swipe" and (t.screen, t.widget, t.target) in tapped}


def _frames(snap: Snapshot) -> tuple:
    stack = snap.stack
    screen, param, table, inputs, scroll, focus = stack[-1]
    focus_key = (focus[0], _pkey(focus[1])) if focus else None
    below = (stack[-2][0], _pkey(stack[-2][1])) if len(stack) > 1 else None
    return (screen, table, _pkey(param), inputs, scroll, focus_key, below, snap.left_app)


def _pkey(v: Any) -> Any:
    if isinstance(v, dict):
        return tuple(v.values())[:1]
    return v


def _data(m: Machine, tables: tuple[str, ...], flags: tuple[str, ...]) -> tuple:
    st = m.state
    return (tuple(tuple(tuple(r.values()) for r in st.rows(t)) for t in tables),
            tuple(st.flags.get(f) for f in flags))


@lru_cache(maxsize=64)
def _steering(spec: AppSpec) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The state tables and flags that steer the app: read by a transition's `when` or
    `with`, or a list's `where`, or by the effects that change those."""
    names: set[str] = set()
    for t in spec.transitions:
        names |= reads(t.when) | reads(t.with_param)
    for s in spec.screens:
        for v in views(s.root):
            if v.items is not None:
                names |= reads(v.items.where)
    grew = True
    while grew:
        grew = False
        for t in spec.transitions:
            for e in t.effects:
                if e.target in names:
                    more = reads(e.where) | {n for _, x in e.values for n in reads(x)}
                    if not more <= names:
                        names |= more
                        grew = True
    state = [t.name for t in spec.tables if t.kind == "state" and t.name in names]
    flags = [f.name for f in spec.flags if f.name in names]
    return tuple(state), tuple(flags)


# -- the actions worth trying ----------------------------------------------------------------

def candidate_actions(world: World, typed: Sequence[str] = (),
                      apps: Sequence[str] = ()) -> list[Action]:
    """Every action worth trying on the current screen, in a fixed order. On a phone,
    outside the apps the goal is in only opening one of them is: apps do not touch one
    another's state."""
    if apps and world.foreground not in apps:
        return [{"action_type": "open_app", "app_name": app} for app in apps]
    els = world.elements()
    # A splash or an ad is left by waiting, first: what a person does there.
    acts: list[Action] = [{"action_type": "wait"}] if world.timed() else []
    for e in els:
        if e["clickable"] or e["checkable"]:
            acts.append({"action_type": "click", "index": e["index"]})
    acts += [{"action_type": "click", "index": i} for i in world.pressable()]
    if world.long_press:
        acts += [{"action_type": "long_press", "index": i} for i in world.long_clickable()]
    # Across a list (a vertical one's rows are swiped sideways): only where it was recorded.
    acts += [{"action_type": "swipe", "direction": "left", "index": i}
             for i in world.swipeable()]
    editable = [e["index"] for e in els if e["editable"]]
    for i in editable:
        for text in typed:
            acts.append({"action_type": "input_text", "index": i, "text": text})
    if editable and typed:
        acts.append({"action_type": "keyboard_enter"})
    for e in els:
        if e["scrollable"]:
            acts.append({"action_type": "scroll", "direction": "down", "index": e["index"]})
            acts.append({"action_type": "scroll", "direction": "up", "index": e["index"]})
    acts.append({"action_type": "navigate_back"})
    for app in apps:
        if world.foreground != app:
            acts.append({"action_type": "open_app", "app_name": app})
    return acts


def _keyed(action: Action) -> tuple[Any, Any]:
    """(`action` as a hashable key, its values with their types (1 is not True); the
    runtime `Action` it parses to), parsed once per distinct action (a search tries the
    same few hundred on thousands of states)."""
    try:
        key = tuple((k, type(v), v) for k, v in action.items())
        got = _PARSED.get(key)
    except TypeError:  # an unhashable value: parsed where it is stepped
        return ("unhashable", frozen(action)), action
    if got is None:
        if len(_PARSED) >= 4096:
            _PARSED.clear()
        try:
            got = _PARSED[key] = RuntimeAction.parse(action)
        except Exception:  # noqa: BLE001 - refused where it is stepped, as before
            got = _PARSED[key] = action
    return key, got


_PARSED: dict[tuple, Any] = {}
