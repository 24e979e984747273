"""Shortest action sequences that make a task's checker true, by breadth-first search.

    plan(Machine(spec), [Goal("settings", turn_on_wifi, {"k": 1, ...})], show=...)
      -> [{"action_type": "click", "index": 4}, {"action_type": "click", "index": 2}]

The search runs the app itself: from each state it tries every action a person could
take on the screen (wait where the screen gives way by itself, tap what is clickable or
what a recording tapped to some effect, long-press what is long-clickable, swipe a list
row sideways where a swipe was recorded on it, type a task's text into a field, press
enter, scroll a list either way, go back; on a phone, open the task's app), with
`snapshot`/`restore` between tries. States are told apart by a key: the top screen
with its parameter, typed text, scroll offsets and focus, the screen and parameter below
it (so `back` is not confused), and the tables and flags that matter (those the goal
reads and those that steer transitions); everything else is left out so that toggling an
unrelated switch is not a new state. The key is an abstraction, so a plan is only a
candidate until `demos.make_demo` replays it on a fresh machine and the checker agrees.

A task is planned in stages: first look at each fact the task asks for (its subject and
the expected answer on one screen), then reach each state goal (a composite's in the
order its wording gives them), then each screen goal,
each by a shortest search from where the last stage ended and keeping what earlier
stages achieved; then answer. A single-goal task is one search, so its plan is shortest
(in the abstraction); a composite one is shortest stage by stage.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from phoneworld.runtime.actions import Action as RuntimeAction
from phoneworld.runtime.cache import frozen
from phoneworld.runtime.expr import display, evaluate, filter_rows, normalise
from phoneworld.runtime.machine import Machine, Snapshot
from phoneworld.runtime.phone import Phone
from phoneworld.spec.ast import AppSpec, BoolOp, Call, Compare, Const, Expr, Ref
from phoneworld.spec.names import ROOTS
from phoneworld.spec.walk import views, walk
from phoneworld.tasks.checkers import (
    Goal,
    conjuncts,
    expected_answers,
    goal_holds,
    machine_of,
    scope_for,
)
from phoneworld.tasks.schema import reads
from phoneworld.tasks.stategraph import Node, state_of, trim

MAX_STATES = 6000
"""States one search stage may visit before it gives up."""
MAX_DEPTH = 24

Action = dict[str, Any]


@dataclass(frozen=True)
class Plan:
    actions: tuple[Action, ...]
    states: int
    """How many states the search visited (all stages)."""


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


# -- one search ----------------------------------------------------------------------------

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


def search(world: World, goal: Callable[[World], bool], *, typed: Sequence[str] = (),
           apps: Sequence[str] = (), max_states: int = MAX_STATES,
           max_depth: int = MAX_DEPTH) -> tuple[list[Action], int] | None:
    """A shortest action list from the world's current state to one where `goal` holds
    (and the number of states visited), or None within the limits. The world is left in
    the goal state.

    Where an earlier search of this process stepped the same action in the same whole
    state, its outcome is taken from `stategraph` instead of stepping again; the target
    is placed at a state only to look at it (its key's facts, the goal, the actions worth
    trying there), so the search visits what it would by stepping, in the same order."""
    start = world.snapshot()
    if goal(world):
        return [], 1
    trim()
    typed, apps = tuple(typed), tuple(apps)
    root = world.node()
    at: Node | None = root
    """The node the target is at, where known."""
    seen = {world.key(root)}
    met = {root}
    """Nodes whose keys are in `seen`."""
    queue: deque[tuple[Node, tuple[Action, ...]]] = deque([(root, ())])
    while queue:
        node, path = queue.popleft()
        if len(path) >= max_depth:
            continue
        if at is not node and (typed, apps) not in node.choices:
            world.restore(node.snap)
            at = node
        for action, key, parsed in world.choices(node, typed, apps):
            try:
                edge = node.edges[key]
            except KeyError:
                if at is not node:
                    world.restore(node.snap)
                edge, stayed = _step(world, action, parsed)
                node.edges[key] = edge
                at = edge if edge is not None else node if stayed else None
            if edge is None or edge in met:
                continue
            met.add(edge)
            if at is not edge:
                world.restore(edge.snap)
                at = edge
            k = world.key(edge)
            if k in seen:
                continue
            seen.add(k)
            new = (*path, action)
            if goal(world):
                return list(new), len(seen)
            if len(seen) >= max_states:
                world.restore(start)
                return None
            queue.append((edge, new))
    world.restore(start)
    return None


def _step(world: World, action: Action, parsed: Any) -> tuple[Node | None, bool]:
    """Step `action` (`parsed`) in the world's current state: (the node it led to, or
    None where a search does not go on from there (refused, a no-op, out of the app);
    whether the target is still in the state it was in)."""
    try:
        # Only the event is kept: an outcome still held when the machine moves on is
        # rendered first (`Machine._freeze`), and most tries are never looked at.
        event = world.step(parsed).event
    except Exception:  # noqa: BLE001 - an action the screen refuses is no move
        return None, False
    if event.startswith("no-op"):
        # A press that fires nothing leaves the state as it was (a text field it
        # focuses aside).
        return None, action.get("action_type") not in (
            "long_press", "input_text", "keyboard_enter") and not _focuses(world, action)
    if (world.phone is None and world.target.left_app) or \
            (world.phone is not None and world.phone.foreground is None):
        return None, False
    return world.node(), True


# -- a task in stages ------------------------------------------------------------------------

def plan(target: Machine | Phone, goals: Sequence[Goal], *,
         show: Sequence[tuple[str, Sequence[object]]] = (), typed: Sequence[str] = (),
         max_states: int = MAX_STATES, in_order: bool = True) -> Plan | None:
    """Actions from `target`'s current state that make every goal hold, ending with an
    answer where a goal wants one (see the module docstring); None when none is found.

    `show` lists, per app, what must be on one screen before the answer may be given
    (the question's subject; the expected answer is added), or, for an app with no
    question, what must be seen there before anything else (a fact used elsewhere);
    `typed` is text the plan may type into fields. With `in_order`, the state goals of
    a composite (`a and b`) are reached one after the other, as its wording asks ("first
    a; after that, b"); else in one search, whichever order is shorter."""
    facts = [_holds(Goal(g.app, c, g.bindings)) for g in goals
             for c in conjuncts(g.condition) if "answer" not in reads(c)]
    facts += [_counts(g, call) for g in goals for call in _table_calls(g.condition)]
    world = World(target, facts)
    actions: list[Action] = []
    visited = 0
    answer: str | None = None
    stages: list[tuple[str, Callable[[World], bool]]] = []
    for g in goals:
        if not g.wants_answer:
            continue
        expected = expected_answers(g.condition, scope_for(target, g))
        if len(expected) == 0 or answer is not None:
            return None
        answer = display(expected[0])
        counted = _counted(g.condition)
        if counted is not None:  # a count is seen as the rows it counts, on their row's page
            stages.append((g.app, _sees_rows(g.app, counted, scope_for(target, g))))
            continue
        must = [*next((list(v) for app, v in show if app == g.app), []), expected[0]]
        on: set[str] = set()
        if (last := _placed_row(g.condition, scope_for(target, g))) is not None:
            must[-1] = last  # a place in a list is counted down to its row: seen, not read
            on = _listing(world.machines()[g.app].spec, _placed_table(g.condition))
        stages.append((g.app, _sees(g.app, must, on)))
    asked = {g.app for g in goals if g.wants_answer}
    stages = [(app, _sees(app, list(v))) for app, v in show if app not in asked and v] + stages
    kept: list[Callable[[World], bool]] = []
    for part in ("state", "screen"):
        for g in goals:
            pieces = [g.condition]
            if in_order and part == "state" and isinstance(g.condition, BoolOp) and \
                    g.condition.op == "and":
                pieces = list(g.condition.items)
            for piece in pieces:
                rest = [c for c in conjuncts(piece)
                        if "answer" not in reads(c) and _is_screen(c) == (part == "screen")]
                if rest:
                    stages.append((g.app, _holds(Goal(g.app, _and(rest), g.bindings))))
    for app, stage in stages:
        done = list(kept)

        def reached(w: World, stage=stage, done=done) -> bool:
            return stage(w) and all(k(w) for k in done)

        apps = [app] if world.phone is not None else []
        found = search(world, reached, typed=typed, apps=apps, max_states=max_states)
        if found is None:
            return None
        steps, n = found
        actions += steps
        visited += n
        if stage.__name__ != "sees":
            kept.append(stage)
    if answer is not None:
        world.step({"action_type": "answer", "text": answer})
        actions.append({"action_type": "answer", "text": answer})
    if not all(goal_holds(target, g) for g in goals):
        return None
    return Plan(tuple(actions), visited)


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


def _focuses(world: World, action: Action) -> bool:
    """Whether a click may have focused a text field (which changes the state)."""
    i = action.get("index")
    if i is None:
        return False
    els = world.elements()
    return i < len(els) and bool(els[i]["editable"])


def _sees(app: str, values: Sequence[object], on: set[str] | frozenset[str] = frozenset()
          ) -> Callable[[World], bool]:
    """Whether `app`'s screen (one of `on`, where given) shows every one of `values`."""
    want = [normalise(v) for v in values]

    def sees(w: World) -> bool:
        if w.foreground != app or on and w.machines()[app].screen not in on:
            return False
        shown = w.texts()
        return all(v in shown for v in want)
    return sees


def _counted(e: Expr) -> Call | None:
    """The `count(t where ctx == k)` an answer is compared with (`counts`), or None."""
    for c in conjuncts(e):
        if isinstance(c, Compare) and c.left == Ref(("answer",)) and \
                isinstance(c.right, Call) and c.right.func == "count" and \
                isinstance(c.right.where, Compare) and c.right.where.left == Ref(("ctx",)) \
                and isinstance(c.right.where.right, Const):
            return c.right
    return None


def _placed_table(e: Expr) -> str | None:
    """The table an answer's `count(t where id <= k)` counts (`positions`), or None."""
    for c in conjuncts(e):
        if isinstance(c, Compare) and c.left == Ref(("answer",)) and \
                isinstance(c.right, Call) and c.right.func == "count" and \
                isinstance(c.right.where, Compare) and c.right.where.op == "<=":
            return c.right.table
    return None


def _listing(spec: AppSpec, table: str | None) -> set[str]:
    """The screens of `spec` whose lists show rows of `table`: where a place in it is
    counted (the row's name on another screen, a chat beside a contact, is not it)."""
    return {s.name for s in spec.screens if table is not None and any(
        v.items is not None and v.items.table == table for v in views(s.root))}


def _placed_row(e: Expr, scope) -> str | None:
    """The first text of the row an answer's `count(t where id <= k)` ends on (the place
    of row `k` in its list: `positions`), or None where the answer is no such count."""
    for c in conjuncts(e):
        if isinstance(c, Compare) and c.left == Ref(("answer",)) and \
                isinstance(c.right, Call) and c.right.func == "count" and \
                isinstance(c.right.where, Compare) and c.right.where.op == "<=" and \
                c.right.where.left == Ref(("id",)):
            rows = filter_rows(c.right.table, c.right.where, scope)
            return next((v for k, v in rows[-1].items() if k not in ("id", "ctx") and
                         isinstance(v, str) and v.strip()), None) if rows else None
    return None


def _sees_rows(app: str, call: Call, scope) -> Callable[[World], bool]:
    """On a screen opened on row `k` of the call's `ctx == k`, with every row counted in
    view (their first texts): where a person counts them."""
    key = call.where.right.value  # type: ignore[union-attr]
    rows = filter_rows(call.table, call.where, scope)
    want = [normalise(next((v for c, v in r.items() if c not in ("id", "ctx") and
                            isinstance(v, str) and v.strip()), "")) for r in rows]

    def sees(w: World) -> bool:
        m = w.machines().get(app)
        if w.foreground != app or m is None or not isinstance(m.param, dict) or \
                m.param.get("id") != key:
            return False
        shown = w.texts()
        return all(v in shown for v in want)
    sees.__name__ = "sees"
    return sees


def _holds(goal: Goal) -> Callable[[World], bool]:
    def holds_(w: World) -> bool:
        return goal_holds(w.target, goal)
    return _per_version(goal, goal.condition, holds_)


def _table_calls(e: Expr) -> list[Call]:
    """The `count(...)`/`exists(...)` calls in a condition."""
    return [x for x in walk(e, enter=lambda x: not isinstance(x, Call))
            if isinstance(x, Call) and x.table is not None]


def _counts(goal: Goal, call: Call) -> Callable[[World], Any]:
    """How many rows a goal's table call matches: progress towards a goal ("two rows
    to remove, one left") that its truth alone does not show."""
    count = Call("count", table=call.table, where=call.where)

    def matching(w: World) -> Any:
        return evaluate(count, scope_for(w.target, goal))
    return _per_version(goal, count, matching)


def _per_version(goal: Goal, e: Expr, f: Callable[[World], Any]) -> Callable[[World], Any]:
    """`f`, remembered per data version of the goal's app (`State.version`: the same
    number, the same rows and flags) when `e` reads only tables, flags and the task's
    parameters. A search keys every state it meets by its facts, and most of them are
    counts over tables that few actions change."""
    if not _data_only(e):
        return f
    memo: dict[int, Any] = {}

    def per_version(w: World) -> Any:
        v = machine_of(w.target, goal.app).state.version
        if v not in memo:
            memo[v] = f(w)
        return memo[v]
    per_version.__name__ = f.__name__
    return per_version


def _data_only(e: Expr) -> bool:
    """Whether `e` names no screen, parameter, field, list item or answer (`ROOTS`)."""
    return not any(isinstance(x, Ref) and x.path[0] in ROOTS for x in walk(e))


def _is_screen(e: Expr) -> bool:
    return "screen" in reads(e)


def _and(items: list[Expr]) -> Expr:
    return items[0] if len(items) == 1 else BoolOp("and", tuple(items))

