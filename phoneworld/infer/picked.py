"""Picked values: what a field held when a tap confirmed it, shown afterwards elsewhere.

    uber's arrival time: a picker's field shows "3:15 PM"; OK is tapped, and "Arrive by"
    then reads "3:15 PM" (it read "ASAP")
      ->  "3:15 PM" joins the field's typed texts (content), OK submits the field:
          on store.destination_time_picker_confirm tap -> stay {
            set store_numberpicker_input = input.numberpicker_input }
          and the text under "Arrive by" shows
            otherwise(store_numberpicker_input, "ASAP")

A tap (not a cancel) on an observation with a filled field, after which a text outside
lists and fields that showed something else (or was not there) shows that field's text,
word for word: the tap set that text from the field. What was typed and what was picked
are kept alike (`typed`), so a task can check what was picked, not only where it ended.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from phoneworld.infer.keys import name_in, resolve_key
from phoneworld.infer.transitions import classify_step, touch_target
from phoneworld.ir.model import ObsRef
from phoneworld.spec.ast import Call, Const, Ref, Screen, View
from phoneworld.traces.model import Trace
from phoneworld.ui.node import Node
from phoneworld.ui.widgets import widget_ref

_LONGEST = 80
"""A value longer than this is a text, not something picked."""


@dataclass(frozen=True)
class Pick:
    """One recorded pick: `field` of `screen` held `value` when `widget` was tapped (step
    `step` of trace `trace`), and the view `shows` of screen `on` (its resource id and
    bounds in the screen's layout) read it afterwards."""

    screen: str
    field: str
    widget: str
    value: str
    trace: int
    step: int
    on: str
    shows: tuple[str, tuple[int, int, int, int]]


def recorded_picks(traces: Sequence[Trace], where, infos, obs,
                   cancel) -> Iterator[Pick]:
    """Every recorded pick, in trace order; `cancel` matches a cancel's label."""
    for t, trace in enumerate(traces):
        for k, step in enumerate(trace.steps):
            if step.action.kind != "tap" or step.after is None:
                continue
            a, b = ObsRef(trace=t, index=step.before), ObsRef(trace=t, index=step.after)
            src, dst = where.get(a), where.get(b)
            if src is None or dst is None or obs[a].root is None or obs[b].root is None:
                continue
            before, after = obs[a].root, obs[b].root
            target = touch_target(before, step.action)
            if target is not None and cancel.match(before.at(target).label.strip()):
                continue
            widget = name_in(infos[src], classify_step(before, step)[0])
            if not widget:
                continue
            fields = _fields(before, infos[src])
            if not fields:
                continue
            was = _texts(before)
            for path, node in after.walk():
                value = node.text.strip()
                if node.editable or value not in fields or was.get(value, 0) > 1:
                    continue
                ref = widget_ref(after, path)
                if "[item]" in ref.key or _texts_at(before, ref.key) == value:
                    continue
                laid = resolve_key(ref.key, infos[dst].keys)
                if laid is not None and infos[dst].root is not None:
                    v = infos[dst].root.at(laid)
                    yield Pick(src, fields[value], widget, value, t, k, dst,
                               (v.resource_id, v.bounds))


def _fields(root: Node, info) -> dict[str, str]:
    """A filled field's text -> its widget name, for the named fields of an observation
    outside lists (a text two fields hold names neither)."""
    out: dict[str, str] = {}
    seen: set[str] = set()
    for path, node in root.walk():
        value = node.text.strip()
        if not node.editable or not value or len(value) > _LONGEST:
            continue
        ref = widget_ref(root, path)
        name = name_in(info, ref.key) if "[item]" not in ref.key else ""
        if value in seen:
            out.pop(value, None)
        elif name:
            out[value] = name
        seen.add(value)
    return out


def _texts(root: Node) -> dict[str, int]:
    """How many views of an observation show each text (stripped)."""
    out: dict[str, int] = {}
    for _, node in root.walk():
        if node.text.strip():
            out[node.text.strip()] = out.get(node.text.strip(), 0) + 1
    return out


def _texts_at(root: Node, key: str) -> str | None:
    """The text of the view with widget key `key` in `root`, None where there is none."""
    for path, node in root.walk():
        if widget_ref(root, path).key == key:
            return node.text.strip()
    return None


Shown = tuple[str, tuple[str, tuple[int, int, int, int]]]
"""(screen, (resource id, bounds)): a view of a screen's layout."""


def show_picked(screens: Sequence[Screen], shown: dict[Shown, str]) -> tuple[Screen, ...]:
    """Screens whose views in `shown` (-> flag) show the flag once it holds a pick, what
    they showed before until then: `otherwise(flag, "ASAP")`."""
    def swap(v: View, here: dict) -> View:
        kids = tuple(swap(c, here) for c in v.children) if v.items is None else v.children
        flag = here.get((v.id, tuple(v.bounds)))
        if flag is not None and isinstance(v.text, Const):
            return replace(v, children=kids, text=Call("otherwise", args=(
                Ref((flag,)), v.text)))
        return v if kids == v.children else replace(v, children=kids)
    out = []
    for s in screens:
        here = {view: flag for (screen, view), flag in shown.items() if screen == s.name}
        out.append(replace(s, root=swap(s.root, here)) if here else s)
    return tuple(out)
