"""The traces played on an inferred app's state: the rows behind every observation.

    steps_of(traces, ...)  ->  [[Step(obs 0, "category", "product_item", "tap", item=...), ...]]
    states_at(spec, steps) ->  {obs 0: {"cart": [Bananas, Oat Milk]}, obs 5: {"cart": [...3]}}

Each trace starts from a reset; each recorded step fires the transition the spec has for
its widget and action (the first whose `when` holds), with the tapped row, the screen's
row and what had been typed, and its effects change the state. A pass that infers a
value from the screens (`derived`) checks it against the state each screen was showing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from phoneworld.infer.keys import list_key
from phoneworld.infer.transitions import classify_step
from phoneworld.ir.model import ObsRef
from phoneworld.runtime.effects import apply_effect
from phoneworld.runtime.expr import Scope, holds
from phoneworld.runtime.state import State
from phoneworld.spec.ast import AppSpec, Expr, Transition
from phoneworld.traces.model import Trace


@dataclass(frozen=True)
class Step:
    """One recorded step, as the inferred app sees it."""

    before: object
    """The observation it was taken on (an `ObsRef`)."""
    screen: str
    widget: str
    action: str
    item: tuple[str, dict] | None = None
    """The tapped list row: its table and its recorded values by column."""
    param: tuple[str, int] | None = None
    """The screen's parameter row: its table and id."""
    inputs: tuple[tuple[str, str], ...] = ()


def steps_of(traces: Sequence[Trace], where, infos, obs, tapped, ctx_of) -> list[list[Step]]:
    """Each trace's steps as the inferred app sees them: the spec's widget name, the
    tapped row, the screen's parameter row and what had been typed into each field."""
    out = []
    for t, trace in enumerate(traces):
        steps: list[Step] = []
        inputs: dict[str, str] = {}
        for k, step in enumerate(trace.steps):
            a = ObsRef(trace=t, index=step.before)
            src = where.get(a)
            if src is None or obs[a].root is None:
                continue
            info = infos[src]
            widget, action, _, _ = classify_step(obs[a].root, step)
            name = "back" if action == "back" else info.name_of(widget)
            if action == "type" and step.action.text is not None and name:
                inputs[name] = step.action.text
            item = None
            lc = info.lists.get(list_key(widget))
            if (t, k) in tapped and lc is not None:
                row = lc.rows[tapped[(t, k)] - 1]
                item = (lc.table, dict(zip(["id", "ctx", *lc.columns], row, strict=False)))
            param = None
            if info.param_list is not None and ctx_of.get(a):
                plc = infos[info.param_list[0]].lists[info.param_list[1]]
                param = (plc.table, ctx_of[a])
            steps.append(Step(a, src, name, action, item, param, tuple(sorted(inputs.items()))))
        out.append(steps)
    return out


def states_at(spec: AppSpec, traces: Sequence[Sequence[Step]]) -> dict[object, dict]:
    """Observation -> the state tables' rows when it was recorded (each trace from a
    reset, each step's effects applied as the inferred transitions say)."""
    on: dict[tuple[str, str, str], list[Transition]] = defaultdict(list)
    for t in spec.transitions:
        on[(t.screen, t.widget, t.action)].append(t)
    tables = [t.name for t in spec.tables if t.kind == "state"]
    out: dict[object, dict] = {}
    for steps in traces:
        state = State(spec)
        for step in steps:
            out.setdefault(step.before, {t: state.rows(t) for t in tables})
            scope = Scope(state, item=_item(state, step.item), param=_param(state, step.param),
                          inputs=dict(step.inputs))
            for t in on.get((step.screen, step.widget, step.action), []):
                if _holds(t.when, scope):
                    for eff in t.effects:
                        try:
                            apply_effect(state, eff, scope)
                        except Exception:  # noqa: BLE001 - an effect the recording defeats
                            pass
                    break
    return out


def _holds(e: Expr | None, scope: Scope) -> bool:
    try:
        return holds(e, scope)
    except Exception:  # noqa: BLE001 - a condition on what the step cannot say
        return False


def _item(state: State, item: tuple[str, dict] | None) -> dict | None:
    """The row a tap was on, in the played state: by its key where the row is the same,
    else by its first text (a row added in play has another key)."""
    if item is None:
        return None
    table, values = item
    rows = state.rows(table)
    key = next(iter(values.items()), None)
    same = [r for r in rows if key is not None and r.get(key[0]) == key[1] and
            all(r.get(c) == v for c, v in values.items() if isinstance(v, str))]
    if same:
        return same[0]
    name = next(((c, v) for c, v in values.items() if c not in ("id", "ctx") and
                 isinstance(v, str) and v), None)
    return next((r for r in rows if name is not None and r.get(name[0]) == name[1]), None)


def _param(state: State, param: tuple[str, int] | None) -> dict | None:
    if param is None:
        return None
    return state.by_key(*param)
