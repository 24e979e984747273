"""What the inference passes read and write: one frozen `Facts` value, passed along.

    Facts(graph, traces, steps)  --pass-->  Facts(..., lists=...)  --pass-->  ...

`step_facts` computes, once for every recorded step, what the passes would otherwise each
work out again: the view the touch hit, its widget key (and list row), and how the
step reads as (widget, action). A pass takes a `Facts` and returns a new one with the
fields it fills (`dataclasses.replace`); it never changes the value it was given, so a
pass can be run, tested and swapped on its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from phoneworld.infer.content import layout_pitch
from phoneworld.infer.keys import resolve_key
from phoneworld.infer.transitions import classify_step, touch_target
from phoneworld.ir.model import AbstractScreen, ObsRef, ScreenGraph
from phoneworld.spec.ast import Effect, Flag, Ref, Screen, Table, Transition
from phoneworld.traces.model import Observation, Step, Trace
from phoneworld.ui.hits import hit_test
from phoneworld.ui.node import Node, NodePath
from phoneworld.ui.skeleton import is_list
from phoneworld.ui.widgets import WidgetRef, widget_ref

_EMPTY: Mapping = MappingProxyType({})


def _empty() -> Mapping:
    return _EMPTY


@dataclass(frozen=True)
class StepFacts:
    """One recorded step, read once: `trace`/`index` name it, `before`/`after` its ends."""

    trace: int
    index: int
    step: Step
    before: ObsRef
    after: ObsRef | None
    target: NodePath | None
    """The view that received the touch (see `transitions.touch_target`)."""
    ref: WidgetRef | None
    """The widget key of `target` (with the list row when it is inside a list)."""
    widget: str
    action: str
    item: bool
    key: str | None


@dataclass(frozen=True)
class ScreenFacts:
    """A screen, the observation its layout is taken from, and its widgets' names."""

    screen: AbstractScreen
    rep: ObsRef | None
    root: Node | None
    keys: Mapping[str, NodePath] = field(default_factory=_empty)
    """Widget key -> path in the representative."""
    names: Mapping[NodePath, str] = field(default_factory=_empty)
    """Path in the representative -> widget name (unique in the screen)."""
    inner: Mapping[str, tuple[NodePath, str, str]] = field(default_factory=_empty)
    """(#21) Widget key of a tapped view in a list row of another type than the list's
    template -> (the path of the template's view that stands for it, as the item template
    will have it, its name, the column of a text in it or ""); see `templates`."""

    def name_of(self, key: str) -> str:
        """The name of the widget with key `key` (see `keys.resolve_key`); "" for none."""
        if key not in self.keys and key in self.inner:
            return self.inner[key][1]
        path = resolve_key(key, self.keys)
        return self.names.get(path, "") if path is not None else ""


@dataclass(frozen=True)
class Provenance:
    """Where each inference came from (for the compile report)."""

    screens: Mapping[str, tuple[str, ...]] = field(default_factory=_empty)
    tables: Mapping[str, tuple[str, ...]] = field(default_factory=_empty)
    effects: Mapping[str, tuple[str, ...]] = field(default_factory=_empty)
    modules: Mapping[str, Mapping[str, str]] = field(default_factory=_empty)
    dropped: tuple[str, ...] = ()
    eras: Mapping[str, Mapping[str, Any]] = field(default_factory=_empty)
    """Trace source -> what its other eras left out (`eras.main_era`): its name, the
    observations' sources, a note."""


@dataclass(frozen=True)
class Facts:
    """Everything known about one app so far; each pass fills some fields."""

    name: str
    graph: ScreenGraph
    traces: tuple[Trace, ...]
    obs: Mapping[ObsRef, Observation]
    where: Mapping[ObsRef, str]
    """The screen of every observation that has one."""
    steps: tuple[StepFacts, ...]
    screens: Mapping[str, ScreenFacts] = field(default_factory=_empty)
    lists: Mapping[str, Mapping[str, Any]] = field(default_factory=_empty)
    """Screen -> list key -> `content.ListContent` (its rows, once collected)."""
    params: Mapping[str, tuple[str, str]] = field(default_factory=_empty)
    """Screen -> (screen, list key) of the list whose tapped row it shows."""
    ctx_of: Mapping[ObsRef, int | None] = field(default_factory=_empty)
    """The parameter row each observation shows (None: none)."""
    tapped: Mapping[tuple[int, int], int] = field(default_factory=_empty)
    """(trace, step) -> the row id of the list item the step touched."""
    row_ids: Mapping[ObsRef, Mapping[str, tuple[int, ...]]] = field(default_factory=_empty)
    """Observation -> list key -> the row id of each item it shows."""
    shown: Mapping[ObsRef, Mapping[str, tuple[tuple[str, ...], ...]]] = field(
        default_factory=_empty)
    """Observation -> list key -> the texts of each item it shows, field by field."""
    sends: Mapping[tuple, tuple] = field(default_factory=_empty)
    edits: Mapping[tuple, tuple] = field(default_factory=_empty)
    saves: Mapping[tuple, tuple] = field(default_factory=_empty)
    """(screen, widget, action) -> (list's screen, list key, column, field key, row id): a
    typed text that tap saved into a list shown elsewhere (`saves`)."""
    created: Mapping[str, frozenset[int]] = field(default_factory=_empty)
    """Table -> rows that only exist because of an action in the traces."""
    details: Mapping[str, Mapping[str, Ref]] = field(default_factory=_empty)
    """Screen -> widget key -> the parameter column its text shows."""
    flags: tuple[Flag, ...] = ()
    flag_of: Mapping[tuple[str, str], str] = field(default_factory=_empty)
    toggles: Mapping[tuple, tuple] = field(default_factory=_empty)
    """(screen, widget, action) -> (("flag", name) | ("item", "checked"), ...)."""
    tables: tuple[Table, ...] = ()
    views: tuple[Screen, ...] = ()
    effects: Mapping[tuple, Effect] = field(default_factory=_empty)
    """(screen, widget, action) -> the row effect (insert, delete, update) it has."""
    transitions: tuple[Transition, ...] = ()
    # (#21) state coherence, see `coherent`
    adds: Mapping[tuple, Any] = field(default_factory=_empty)
    """(screen, widget, action) -> the `effects.CrossAdd` row it adds to another screen."""
    member: Mapping[str, Any] = field(default_factory=_empty)
    """Flag -> the expression for whether the screen's row is in a list (it replaces it)."""
    searches: tuple[Any, ...] = ()
    """The `search.QueryFilter`s: results lists that show the rows of the typed query."""
    picked: Mapping[tuple[str, str], str] = field(default_factory=_empty)
    """(#21) (screen, view) -> the text flag of the field whose submitted value it shows
    (`picked`)."""
    provenance: Provenance = field(default_factory=Provenance)

    def with_(self, **changes: Any) -> Facts:
        """A copy with `changes` (mappings are frozen on the way in)."""
        frozen = {k: MappingProxyType(dict(v)) if isinstance(v, dict) else v
                  for k, v in changes.items()}
        return dataclasses.replace(self, **frozen)

    def noted(self, **notes: Mapping) -> Facts:
        """A copy whose provenance has `notes` added (per field, later keys win)."""
        prov = self.provenance
        changes = {}
        for k, v in notes.items():
            if k == "dropped":
                changes[k] = prov.dropped + tuple(v)
            else:
                changes[k] = MappingProxyType({**getattr(prov, k), **v})
        return dataclasses.replace(self, provenance=dataclasses.replace(prov, **changes))


Pass = Callable[[Facts], Facts]


def step_facts(traces: Sequence[Trace]) -> tuple[StepFacts, ...]:
    """Every recorded step with its touch target, widget and action, read once."""
    out = []
    for t, trace in enumerate(traces):
        for k, step in enumerate(trace.steps):
            root = trace.observations[step.before].root
            across = swipe_across(root, step.action) if root is not None else None
            if across is not None:  # a row swiped aside: it takes the gesture
                target, ref = across
                widget, action, item, key = (f"{ref.list_key}/[item]", "swipe", True,
                                             step.action.direction)
            else:
                target = touch_target(root, step.action) if root is not None else None
                ref = widget_ref(root, target) if target is not None else None
                widget, action, item, key = classify_step(root, step, target=target,
                                                          ref=ref)
            out.append(StepFacts(
                trace=t, index=k, step=step, before=ObsRef(trace=t, index=step.before),
                after=None if step.after is None else ObsRef(trace=t, index=step.after),
                target=target, ref=ref, widget=widget, action=action, item=item, key=key))
    return tuple(out)


def swipe_across(root: Node, action) -> tuple[NodePath, WidgetRef] | None:
    """For a scroll across a list's axis (a row swiped left to edit or delete it): the
    view under the list's centre, where the gesture starts, and its widget in its row."""
    if action.kind != "scroll" or action.target is None or action.direction is None:
        return None
    lst = action.target
    while lst and not is_list(root.at(lst)):
        lst = lst[:-1]
    node = root.at(lst)
    if not is_list(node) or not node.children:
        return None
    vertical = layout_pitch(node)[1] == "vertical"
    if (action.direction in ("left", "right")) != vertical:
        return None
    b = node.bounds
    hit = hit_test(root, (b[0] + b[2]) // 2, (b[1] + b[3]) // 2)
    if hit is None or hit[:len(lst)] != lst or len(hit) == len(lst):
        return None
    ref = widget_ref(root, hit)
    return (hit, ref) if ref.item is not None else None


def initial_facts(name: str, graph: ScreenGraph, traces: Sequence[Trace],
                  steps: Sequence[StepFacts] | None = None) -> Facts:
    """The facts before any pass: observations, their screens, the steps read once."""
    obs = {ObsRef(trace=t, index=i): o for t, tr in enumerate(traces)
           for i, o in enumerate(tr.observations)}
    where = {ref: s.name for s in graph.screens for ref in s.observations}
    prov = Provenance(screens=MappingProxyType({
        s.name: tuple(f"{traces[r.trace].source}/{obs[r].source}" for r in s.observations)
        for s in graph.screens}))
    return Facts(name=name, graph=graph, traces=tuple(traces), obs=MappingProxyType(obs),
                 where=MappingProxyType(where),
                 steps=tuple(steps) if steps is not None else step_facts(traces),
                 provenance=prov)
