"""The machine that runs one app: navigation, typed text, scrolling and state, step by step.

    m = Machine(spec)
    obs = m.reset()
    obs = m.step({"action_type": "click", "index": 3})   # lazy: nothing rendered yet
    obs.elements, obs.xml, obs.html                      # rendered on first access
    m.check(task.condition)                              # -> bool

An action (see `gestures` for each type) fires at most one transition: the first of
(screen, widget, action) whose `when` holds; `wait` fires the screen's timed transition
(`on splash wait -> home`), whose target takes the timed screen's place on the stack.
Its effects run in order, then `with_param` is evaluated, then the machine navigates:
`target` pushes a frame (a screen with its parameter, typed texts, scroll offsets and
focus), `back` pops, `stay` stays. Where no transition matches nothing changes, as when
a label is tapped on a real phone. Leaving the app (back on the last screen, home) is
recorded in `left_app`; the screen stays (the phone shell, not the machine, owns the
launcher).

Rendering is lazy: an outcome renders on first access; a step that finds an earlier
outcome still unread but held renders it first, from the state it describes. Rendered
screens are kept (`cache`) under the data's version and the frame they show, so a screen
met again, in this episode or a later one, is not rendered again.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from phoneworld.errors import InvalidAction, did_you_mean
from phoneworld.runtime.actions import Action
from phoneworld.runtime.cache import SHARED, RenderCache, screen_key
from phoneworld.runtime.effects import apply_effect
from phoneworld.runtime.expr import Scope, evaluate, filter_rows, holds
from phoneworld.runtime.gestures import HANDLERS
from phoneworld.runtime.layout import ViewPlan, plan_screen
from phoneworld.runtime.opened import opened_row
from phoneworld.runtime.render import Box, Element, Frame, Rendering, render_boxes
from phoneworld.runtime.state import Row, State
from phoneworld.spec.ast import AppSpec, Expr, Task, Transition, Value
from phoneworld.spec.check import check_once
from phoneworld.ui.node import Node

ObserveFormat = Literal["elements", "xml", "html", "node"]


class Outcome:
    """What a reset or step returns; the screen's forms are rendered on first access."""

    __slots__ = ("screen", "event", "transition", "done", "rendering")

    def __init__(self, screen: str, event: str, transition: Transition | None, done: bool,
                 rendering: Rendering) -> None:
        self.screen = screen
        self.event = event
        """What the action did, e.g. `tap home.search -> results`, `no-op`, `left_app`."""
        self.transition = transition
        self.done = done
        self.rendering = rendering

    @property
    def elements(self) -> list[Element]:
        return self.rendering.elements

    @property
    def xml(self) -> str:
        return self.rendering.xml

    @property
    def html(self) -> str:
        return self.rendering.html

    @property
    def node(self) -> Node:
        return self.rendering.node

    def __repr__(self) -> str:
        return f"Outcome(screen={self.screen!r}, event={self.event!r}, done={self.done})"


@dataclass(frozen=True)
class Snapshot:
    """The whole state of a machine at one moment (restore it with `Machine.restore`)."""

    image: bytes
    stack: tuple[tuple[Any, ...], ...]
    answer: str | None
    status: str | None
    left_app: bool
    version: int | None = field(default=None, compare=False)
    """`State.version` of `image` (restoring it finds the screens rendered in that data)."""


class Machine:
    """Runs an `AppSpec`: `reset`, `step`, `observe`, `check`, `snapshot` / `restore`."""

    def __init__(self, spec: AppSpec) -> None:
        check_once(spec)
        self.spec = spec
        self.state = State(spec)
        self._screens = {s.name: s for s in spec.screens}
        self._plans: dict[str, ViewPlan] = {}
        self._on: dict[tuple[str, str, str], list[Transition]] = {}
        self._on_any: dict[tuple[str, str], list[Transition]] = {}
        for t in spec.transitions:
            self._on.setdefault((t.screen, t.widget, t.action), []).append(t)
            # The back key: any `back` transition, or one from a widget named `back`.
            action = "back" if t.widget == "back" else t.action
            self._on_any.setdefault((t.screen, action), []).append(t)
        self._app_names: dict[str, str] = {}
        for n in (spec.title, spec.name, spec.package):  # the first spelling wins
            if n:
                self._app_names.setdefault(n.casefold(), n)
        self._stack: list[Frame] = [Frame(spec.start)]
        self._answer: str | None = None
        self._status: str | None = None
        self.left_app = False
        """Whether the last back/home press left the app (the machine stays on its screen)."""
        self.seed: int | None = None
        self._rendered: Rendering | None = None
        self._pending: weakref.ref[Rendering] | None = None
        self._key: Any = None
        """`screen_key` of the current rendering while it is not in the cache."""
        self.cache: RenderCache = SHARED
        """Screens rendered before, by this and other machines (see `cache`)."""

    # -- properties --------------------------------------------------------------------

    @property
    def screen(self) -> str:
        """The current screen's name."""
        return self._stack[-1].screen

    @property
    def param(self) -> Any:
        """The current screen's parameter (a row, or a value), fresh from the tables."""
        return self._param(self._stack[-1])

    @property
    def answer(self) -> str | None:
        return self._answer

    @property
    def status(self) -> str | None:
        """`complete` or `infeasible` once the agent has said so, else None."""
        return self._status

    @property
    def done(self) -> bool:
        return self._status is not None

    @property
    def depth(self) -> int:
        """How many screens are on the back stack."""
        return len(self._stack)

    # -- episode -------------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> Outcome:
        """Back to the initial state, exactly: data, navigation, typed text, answer."""
        self._freeze()
        self.seed = seed
        self.state.reset()
        self._stack = [Frame(self.spec.start)]
        self._answer = self._status = None
        self.left_app = False
        self.will_change()
        return self._outcome("reset", None)

    def step(self, action: Action | dict[str, Any] | str) -> Outcome:
        """Apply one AndroidWorld JSON action; `InvalidAction` names what is wrong with it."""
        a = Action.parse(action)
        a.check_screen(self.spec.width, self.spec.height)
        if self._status is not None:
            raise InvalidAction(f"the episode is over (status {self._status!r}); reset first",
                                field="action_type")
        self._freeze()
        event, fired = HANDLERS[a.action_type](self, a)
        return self._outcome(event, fired)

    def observe(self, format: ObserveFormat = "elements") -> Any:
        """The current screen as `elements` (list of dicts), `xml`, `html` or `node`."""
        return _form(self.rendered(), format)

    def check(self, condition: Expr | Task, params: Mapping[str, Value] | None = None) -> bool:
        """Whether a task condition (state, screen and answer predicates) holds now;
        `params` gives a task's parameter values by name."""
        bindings = dict(params or {})
        if isinstance(condition, Task):
            missing = [p.name for p in condition.params if p.name not in bindings]
            if missing:
                raise ValueError(f"task {condition.name} needs values for "
                                 f"{', '.join(missing)}")
            condition = condition.condition
        scope = self._scope()
        scope.bindings = bindings
        return holds(condition, scope)

    def rows(self, table: str, where: Expr | None = None) -> list[Row]:
        """The rows of `table` for which `where` holds (all of them without one)."""
        return filter_rows(table, where, self._scope())

    def snapshot(self) -> Snapshot:
        """The whole machine state, to `restore` later (on this or a fresh machine)."""
        return Snapshot(
            image=self.state.image(),
            stack=tuple((f.screen, f.param, f.param_table, tuple(f.inputs.items()),
                         tuple(f.scroll.items()), f.focus) for f in self._stack),
            answer=self._answer, status=self._status, left_app=self.left_app,
            version=self.state.version)

    def restore(self, snap: Snapshot) -> Outcome:
        """Put back a state taken by `snapshot`."""
        self.place(snap)
        return self._outcome("restore", None)

    def place(self, snap: Snapshot) -> None:
        """`restore` without an outcome (a search that restores to step on needs none)."""
        self._freeze()
        self.state.load(snap.image, snap.version)
        stack = []
        for screen, param, table, inputs, scroll, focus in snap.stack:
            f = Frame(screen, param, table)
            f.inputs, f.scroll, f.focus = dict(inputs), dict(scroll), focus
            stack.append(f)
        self._stack = stack
        self._answer, self._status, self.left_app = snap.answer, snap.status, snap.left_app
        self.will_change()

    # -- placing the machine (replay, previews, generated files) ---------------------------

    def outcome(self, event: str = "observe") -> Outcome:
        """The current screen as an `Outcome` (what `step` returns), without acting."""
        return self._outcome(event, None)

    def row_ids(self, table: str) -> list[int]:
        """The SQLite rowids of `table`'s rows, in order (for `jump`)."""
        return list(self.state.rowids(table))

    def jump(self, screen: str, row_id: int | None = None, *,
             under: Sequence[str | tuple] | None = None) -> Outcome:
        """Show `screen` with the row `row_id` of its param table as parameter, as if
        reached from the screens `under` (bottom first, each a name, a (name, row id)
        pair, or a (name, row id, scroll offsets) triple whose offsets are the
        ((list, offset), ...) it was left scrolled at; default: the start screen); data,
        answer and status are left as they are."""
        self._freeze()
        frame = self._frame(screen, row_id)
        if under is None:
            under = [] if screen == self.spec.start else [self.spec.start]
        below = []
        for s in under:
            name, row, scroll = (s, None, ()) if isinstance(s, str) else \
                (s[0], s[1], s[2] if len(s) > 2 else ())
            below.append(self._frame(name, row, first=True))
            below[-1].scroll = dict(scroll)
        self._stack = below + [frame]
        self.left_app = False
        self.will_change()
        return self._outcome(f"jump {screen}", None)

    def preview(self, screen: str, format: ObserveFormat = "html") -> Any:
        """`screen` rendered in the current data, without moving the machine; its parameter
        is the row it was recorded with, else a row a transition opens it with
        (`runtime.opened`), else its table's first."""
        row_id = opened_row(self.spec, self.state, screen, self._param_for) \
            if screen in self._screens else None
        return _form(self._render(self._frame(screen, row_id, first=True)), format)

    def dump_state(self) -> str:
        """The database as SQL statements (deterministic for the same data)."""
        return self.state.sql()

    def _frame(self, screen: str, row_id: int | None, first: bool = False) -> Frame:
        s = self._screens.get(screen)
        if s is None:
            raise ValueError(f"no screen '{screen}'{did_you_mean(screen, list(self._screens))}")
        if s.param is None:
            return Frame(screen)
        ids = self.state.rowids(s.param)
        if row_id is None and first and ids:
            row_id = ids[0]
        if row_id is None:
            return Frame(screen)
        if row_id not in ids:
            raise ValueError(f"table '{s.param}' has no row with rowid {row_id}")
        return Frame(screen, self.state.rows(s.param)[ids.index(row_id)], s.param)

    # -- rendering, lazily ---------------------------------------------------------------

    def _rendering(self) -> Rendering:
        if self._rendered is not None:
            return self._rendered
        r = self._pending() if self._pending is not None else None
        if r is None:
            frame = self._stack[-1]
            state = self.state
            self._key = key = screen_key(state.versions.app, state.version, frame,
                                         self._answer)
            if self.spec.look is not None:  # equal specs may differ in their look (#22);
                # appended, so that `_keep` still finds the data version at key[1]
                self._key = key = (*key, self.spec.look.token)
                under = self._under(frame)
                if under is not None:  # a dialog drawn over the screen under it
                    self._key = key = (*key, screen_key(state.versions.app, state.version,
                                                        under, self._answer))
            r = self.cache.get(key)
            if r is not None:
                self._rendered = r  # computed already, and kept
                self._key = None
                return r
            r = self._render(frame)
            self._pending = weakref.ref(r)
        return r

    def _render(self, frame: Frame) -> Rendering:
        screen = self._screens[frame.screen]
        plan = self._plans.get(screen.name)
        if plan is None:
            plan = self._plans[screen.name] = plan_screen(
                screen, (self.spec.width, self.spec.height))
        scope = Scope(self.state, param=self._param(frame), inputs=frame.inputs,
                      answer=self._answer, screen=frame.screen)

        def compute(r: Rendering) -> list[Box]:
            boxes = render_boxes(plan, frame, scope)
            if self._pending is not None and self._pending() is r:
                self._rendered = r  # read while current: keep it, for the cache
            return boxes

        look = self.spec.look.screens.get(screen.name) if self.spec.look is not None else None
        if look is not None and screen.param is not None and frame.param is None:
            look = look.without_param()  # (#22) the plate's title stays, not an empty bar
        below = self._under(frame)
        return Rendering(screen.name, screen.package or self.spec.package, self.spec.width,
                         self.spec.height, compute, look=look,
                         under=None if below is None else self._render(below))

    def _under(self, frame: Frame) -> Frame | None:
        """The frame under `frame` (the top of the stack) where `frame`'s screen is a
        dialog whose look records its scrim and the one under it has a look of its own
        (drawn around the window, dimmed: `page.render_html`); else None."""
        looks = self.spec.look.screens if self.spec.look is not None else {}
        look = looks.get(frame.screen)
        if look is None or not look.scrim or len(self._stack) < 2 \
                or self._stack[-1] is not frame:
            return None
        below = self._stack[-2]
        return below if below.screen in looks and below.screen != frame.screen else None

    def rendered(self) -> Rendering:
        """The current screen, rendered, its boxes computed (kept until the state changes)."""
        r = self._rendering()
        r.boxes  # noqa: B018 - computes them
        self._rendered = r
        return r

    def _freeze(self) -> None:
        # An outcome handed out earlier may still be read after this step: render it now,
        # from the state it describes. Nobody holding it costs nothing.
        r = self._pending() if self._pending is not None else None
        if r is not None and not r.ready:
            r.boxes  # noqa: B018
        self._keep()

    def _keep(self) -> None:
        """Put the current rendering, if rendered, in the cache (before anything changes)."""
        key = self._key
        if key is None:
            return
        r = self._rendered  # set when the current rendering's boxes are made
        # The version check guards against data written behind the machine's back.
        if r is not None and key[1] == self.state.version:
            self.cache.put(key, r)
            self._key = None

    def will_change(self) -> None:
        """Say that the screen or data are about to change (or have, once `_freeze` has
        run): the current rendering goes to the cache and is no longer the screen's."""
        self._keep()
        self._rendered = None
        self._pending = None
        self._key = None

    def _outcome(self, event: str, fired: Transition | None) -> Outcome:
        return Outcome(self.screen, event, fired, self.done, self._rendering())

    # -- scopes and parameters -------------------------------------------------------------

    def _scope(self, item: Row | None = None) -> Scope:
        frame = self._stack[-1]
        return Scope(self.state, item=item, param=self._param(frame), inputs=frame.inputs,
                     answer=self._answer, screen=frame.screen)

    def _param(self, frame: Frame) -> Any:
        # A row of the screen's param table is looked up again, so edits show.
        if frame.param_table is not None and isinstance(frame.param, dict):
            key = self.state.tables[frame.param_table].columns[0].name
            fresh = self.state.by_key(frame.param_table, frame.param.get(key))
            if fresh is not None:
                return fresh
        return frame.param

    def _param_for(self, screen: str, value: Any) -> tuple[Any, str | None]:
        """What a screen gets as its parameter: the row of its param table that `value`
        names, else `value` itself. `value` names a row by being one (it has all the
        table's columns), by a column named after the table (`cart.product` for a
        `product` screen), by the table's key column, or by being a key."""
        table = self._screens[screen].param
        if table is None or value is None:
            return value, None
        columns = self.state.tables[table].columns
        key = columns[0].name
        if isinstance(value, dict):
            if all(c.name in value for c in columns):
                ref = value[key]
            elif table in value:
                ref = value[table]
            elif key in value:
                ref = value[key]
            else:
                return value, None
        else:
            ref = value
        row = self.state.by_key(table, ref)
        return (row, table) if row is not None else (value, None)

    # -- transitions ------------------------------------------------------------------------

    def transition_for(self, widget: str, action: str, item: Row | None) -> Transition | None:
        """The first transition of `widget` on `action` here whose `when` holds (`item`: the
        list row the widget is in)."""
        candidates = self._on.get((self.screen, widget, action))
        if candidates:
            scope = self._scope(item)
            for t in candidates:
                if holds(t.when, scope):
                    return t
        return None

    def transition_on(self, action: str) -> Transition | None:
        """The first screen-wide transition on `action` (`back`, `home`, `enter`) whose
        `when` holds."""
        candidates = self._on_any.get((self.screen, action))
        if candidates:
            scope = self._scope()
            for t in candidates:
                if holds(t.when, scope):
                    return t
        return None

    def fire(self, t: Transition, item: Row | None) -> str:
        """Run `t`: effects in order, then its parameter, then navigation."""
        self.will_change()
        for eff in t.effects:
            apply_effect(self.state, eff, self._scope(item))
        param = evaluate(t.with_param, self._scope(item)) if t.with_param is not None else None
        where = f"{t.action} {t.screen}" + (f".{t.widget}" if t.widget else "")
        if t.target == "stay":
            return f"{where} -> stay"
        if t.target == "back":
            return f"{where} -> {self.go_back()}"
        value, table = self._param_for(t.target, param)
        if t.action == "wait":
            # A timed screen (a splash, an ad) gives way: the next screen takes its place,
            # so back does not return to it, as a splash activity finishes itself.
            gone = self._stack.pop()
            if not self._stack:
                self._stack.append(Frame(t.target, value, table))
                self.left_app = False
                return f"{where} -> {t.target}"
            if self._stack[-1].screen == t.target and t.with_param is None:
                return f"{where} -> {t.target} (back to it, {gone.screen} gone)"
        top = self._stack[-1]
        if top.screen == t.target and top.param == value:
            return f"{where} -> {t.target} (already there)"  # like singleTop: no duplicate
        below = [f.screen for f in self._stack[:-1]]
        if t.with_param is None and t.target in below:
            # Back to a screen already open (a dialog's choice, "up" to its parent): the
            # screens above it close and it keeps what it showed, as the compiler's back
            # stack has it (`infer.transitions`).
            del self._stack[len(below) - below[::-1].index(t.target):]
            self.left_app = False
            return f"{where} -> {t.target} (back to it)"
        self._stack.append(Frame(t.target, value, table))
        self.left_app = False
        return f"{where} -> {t.target}"

    def go_back(self) -> str:
        """Pop the back stack (or, at its bottom, leave the app); the event's text."""
        if len(self._stack) > 1:
            self._stack.pop()
            return self.screen
        self.left_app = True
        return "left_app"

    # -- what gestures use (`runtime.gestures` is the machine's other half) ------------------

    @property
    def frame(self) -> Frame:
        """The current screen's frame: parameter, typed texts, scroll offsets, focus."""
        return self._stack[-1]

    @property
    def app_names(self) -> Mapping[str, str]:
        """This app's names (name, title, package), casefolded -> as spelt."""
        return self._app_names

    def record_answer(self, text: str | None) -> None:
        """The agent's answer (what `answer` reads in a task's condition)."""
        self._answer = text

    def end(self, status: str) -> None:
        """End the episode with `status` (a step after it is refused until a reset)."""
        self._status = status


    def target_box(self, a: Action) -> int | None:
        """The box an index or x, y names on the current screen."""
        r = self.rendered()
        if a.index is not None:
            index = r.element_boxes
            if a.index >= len(index):
                raise InvalidAction(f"{a.index} is out of range: the screen has "
                                    f"{len(index)} elements (0..{len(index) - 1})",
                                    field="index")
            return index[a.index]
        return r.hit(a.x, a.y)  # type: ignore[arg-type]


def _form(r: Rendering, format: str) -> Any:
    if format not in ("elements", "xml", "html", "node"):
        raise ValueError(f"unknown observation format {format!r}: elements, xml, html or node")
    return getattr(r, format)
