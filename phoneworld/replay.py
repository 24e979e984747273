"""Replay fidelity: do recorded steps do on the mock app what they did on the real one?

For every recorded step whose action a mock can take (taps, long presses, typing, back,
enter, scrolls), the mock is put on the screen the step's recorded observation maps to
(with the parameter row whose rendering looks most like the recording, above the back
stack the trace had built so far, so that back goes where it went), the recorded
action is sent as an AndroidWorld action at the recorded coordinates, and:
- `reproduced`: the mock is now on the screen the recorded next observation maps to;
- `screen_similarity`: node-level F1 between the mock's hierarchy and the recorded next
  one, over (class, resource-id, text) of the app windows' nodes.
Both are reported, because either alone is cheap to game: one screen for everything
reproduces every step and resembles nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from phoneworld.apps import GeneratedApp
from phoneworld.errors import InvalidAction
from phoneworld.traces.model import Action, Observation, Trace
from phoneworld.ui.node import Node
from phoneworld.ui.skeleton import app_windows
from phoneworld.ui.widgets import widget_ref

_MAX_SCROLLS = 10
_REPLAYABLE = {"tap", "long_press", "type", "key", "scroll", "swipe"}


def node_bag(root: Node | None) -> Counter:
    """(class, resource-id, text) of every visible node of the app windows."""
    bag: Counter = Counter()
    if root is None:
        return bag
    for _, win in app_windows(root):
        for _, n in win.walk():
            if n.visible:
                bag[(n.class_name, n.resource_id, n.text)] += 1
    return bag


def f1(a: Counter, b: Counter) -> float:
    if not a and not b:
        return 1.0
    inter = sum((a & b).values())
    if inter == 0:
        return 0.0
    p, r = inter / sum(a.values()), inter / sum(b.values())
    return 2 * p * r / (p + r)


def to_agent_action(action: Action, obs: Observation) -> dict | None:
    """The AndroidWorld JSON action for a recorded action, or None if a mock can't take it."""
    k = action.kind
    if k in ("tap", "long_press") and action.x is not None:
        return {"action_type": "click" if k == "tap" else "long_press",
                "x": action.x, "y": action.y}
    if k == "type":
        x, y = action.x, action.y
        if x is None and action.target is not None and obs.root is not None:
            b = obs.root.at(action.target).bounds
            x, y = (b[0] + b[2]) // 2, (b[1] + b[3]) // 2
        out = {"action_type": "input_text", "text": action.text or ""}
        if x is not None:
            out.update(x=x, y=y)
        return out
    if k == "key":
        key = (action.key or "").lower()
        if key == "back":
            return {"action_type": "navigate_back"}
        if key == "enter":
            return {"action_type": "keyboard_enter"}
        return None
    if k == "scroll" and action.direction:
        return {"action_type": "scroll", "direction": action.direction}
    if k == "swipe" and action.x2 is not None and action.y2 is not None:
        dx, dy = action.x2 - action.x, action.y2 - action.y
        if abs(dy) >= abs(dx):
            return {"action_type": "scroll", "direction": "down" if dy < 0 else "up"}
        return {"action_type": "scroll", "direction": "right" if dx < 0 else "left"}
    return None


def _by_element(act: dict, action: Action, obs: Observation, machine) -> dict:
    """Aim the action at the mock's counterpart of the recorded target, else keep the
    recorded coordinates.

    The counterpart is, in order: the one element with the same class, resource-id and
    label; the view with the same widget key (class/id path), inside lists the item
    whose texts match the recorded item's best. Layouts that grow with their content (a
    dialog listing a folder) or lists scrolled elsewhere put the same widget at other
    coordinates than the app's one layout; an agent reading the screen would act on
    the widget, and so does replay. The mock's list is scrolled as the recording's was
    when the widget is not in view.
    """
    if action.target is None or obs.root is None or "x" not in act:
        return act
    node = obs.root.at(action.target)
    label = node.text or node.content_desc
    ref = widget_ref(obs.root, action.target)
    want_texts = _item_texts(obs.root, action.target, ref)
    snap = machine.snapshot()
    seen: list = []
    for scrolls in range(_MAX_SCROLLS + 1):
        if scrolls:  # scroll the mock on, as the recording had scrolled
            machine.step({"action_type": "scroll", "direction": "down"})
        elements = machine.observe("elements")
        texts = [e["text"] for e in elements]
        if texts in seen:
            break
        seen.append(texts)
        found = [e for e in elements
                 if (e["class"], e["resource_id"], e["text"] or e["content_desc"]) == (
                     node.class_name, node.resource_id, label)]
        if len(found) == 1:
            return _at_element(act, found[0]["bounds"])
        bounds = _same_widget(machine.observe("node"), ref, want_texts)
        if bounds is not None:
            return _at_element(act, bounds)
    machine.restore(snap)
    return act


def _at_element(act: dict, b) -> dict:
    return {**act, "x": (b[0] + b[2]) // 2, "y": (b[1] + b[3]) // 2}


def _item_texts(root: Node, path, ref) -> frozenset[str]:
    if ref.item is None:
        return frozenset()
    # The item is the list's child on the path to the target.
    for cut in range(len(path), -1, -1):
        ref_here = widget_ref(root, path[:cut])
        if ref_here.key.endswith("[item]"):
            return frozenset(n.text for _, n in root.at(path[:cut]).walk() if n.text)
    return frozenset()


def _same_widget(mock: Node, ref, want_texts: frozenset[str]):
    """Bounds of the mock view with the recorded target's widget key (see above): the
    one such view outside lists, or the item whose texts match best inside one. Keys
    told apart only by position (`@2`) are not trusted across layouts."""
    if re.search(r"@\d+$", ref.key):
        return None
    best, best_score, hits = None, -1, 0
    for path, n in mock.walk():
        if not n.visible or n.bounds[2] <= n.bounds[0] or n.bounds[3] <= n.bounds[1]:
            continue
        r = widget_ref(mock, path)
        if r.key != ref.key:
            continue
        score = len(want_texts & _item_texts(mock, path, r)) if ref.item is not None else 0
        if ref.item is not None and want_texts and score == 0:
            continue
        hits += 1
        if score > best_score:
            best, best_score = n.bounds, score
    if ref.item is None and hits != 1:
        return None
    return best


def _place(machine, app: GeneratedApp, screen: str, obs: Observation,
           under: list[str]) -> None:
    """Put the machine on `screen` above the recorded back stack `under`, choosing the
    parameter row (or none) whose rendering looks most like `obs`."""
    spec_screen = next(s for s in app.spec.screens if s.name == screen)
    if spec_screen.param is None:
        machine.jump(screen, under=under)
        return
    want = node_bag(obs.root)
    best, best_score = None, -1.0
    for row_id in [None, *machine.row_ids(spec_screen.param)[:500]]:
        machine.jump(screen, row_id, under=under)
        score = f1(node_bag(machine.observe("node")), want)
        if score > best_score:
            best, best_score = row_id, score
    machine.jump(screen, best, under=under)


def replay(traces: Sequence[Trace], app: GeneratedApp) -> dict:
    """Fidelity of `app` on `traces` (one JSON-ready object with per-trace rows)."""
    from phoneworld.runtime import Machine

    machine = Machine(app.spec)
    rows = []
    totals = Counter()
    mismatches: Counter = Counter()
    sims: list[float] = []
    for trace in traces:
        if trace.app != app.spec.package:
            continue
        row = Counter()
        tsims: list[float] = []
        stack: list[str] = []  # the recorded back stack, kept as the compiler keeps it
        for step in trace.steps:
            if step.after is None or step.action.kind not in _REPLAYABLE:
                continue
            before, after = trace.observations[step.before], trace.observations[step.after]
            act = to_agent_action(step.action, before)
            src, dst = app.classify(before), app.classify(after)
            if act is None or src is None:
                row["skipped"] += 1
                stack.clear()
                continue
            if src in stack:
                del stack[stack.index(src) + 1:]
            else:
                stack.append(src)
            row["steps"] += 1
            machine.reset()
            _place(machine, app, src, before, stack[:-1])
            act = _by_element(act, step.action, before, machine)
            try:
                machine.step(act)
            except InvalidAction:
                tsims.append(0.0)
                continue
            if machine.screen == dst:
                row["reproduced"] += 1
            else:
                mismatches[(src, act["action_type"], dst or "?", machine.screen)] += 1
            tsims.append(f1(node_bag(machine.observe("node")), node_bag(after.root)))
        totals.update(row)
        sims.extend(tsims)
        rows.append({"trace": trace.source, "steps": row["steps"],
                     "reproduced": row["reproduced"], "skipped": row["skipped"],
                     "fidelity": _ratio(row["reproduced"], row["steps"]),
                     "screen_similarity": round(sum(tsims) / len(tsims), 4) if tsims else None})
    return {"app": app.spec.name, "steps": totals["steps"], "reproduced": totals["reproduced"],
            "skipped": totals["skipped"], "fidelity": _ratio(totals["reproduced"], totals["steps"]),
            "screen_similarity": round(sum(sims) / len(sims), 4) if sims else None,
            "screens": len(app.spec.screens), "traces": rows,
            "mismatches": [{"screen": a, "action": b, "expected": c, "got": d, "count": n}
                           for (a, b, c, d), n in sorted(mismatches.items(),
                                                         key=lambda kv: (-kv[1], kv[0]))[:20]]}


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def format_replay(result: dict) -> str:
    """A short human-readable report of `replay`'s result."""
    lines = [f"{r['trace']}: {r['reproduced']}/{r['steps']} steps reproduced"
             f" ({r['skipped']} skipped), similarity {r['screen_similarity']}"
             for r in result["traces"]]
    lines.append(f"fidelity {result['fidelity']} ({result['reproduced']}/{result['steps']} "
                 f"steps), mean screen similarity {result['screen_similarity']}")
    return "\n".join(lines)
