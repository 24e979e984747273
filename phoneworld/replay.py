"""Replay fidelity: do recorded steps do on the mock app what they did on the real one?

For every recorded step whose action a mock can take (taps, long presses, typing, back,
enter, scrolls) and whose next observation was recorded with a hierarchy, the mock is put
on the screen the step's recorded observation maps to (with the parameter row whose
rendering looks most like the recording, its text fields holding what the recording's
held, scrolled to where it shows most of the recording's texts, above the back stack
the trace had built so far, each screen of it with the row and scroll position it last
had, so that back goes where it went), the recorded action is sent as an AndroidWorld
action at the recorded coordinates, and:
- `reproduced`: the mock is now on the screen the recorded next observation maps to;
- `screen_similarity`: node-level F1 between the mock's hierarchy and the recorded next
  one, over (class, resource-id, text, description) of the app windows' nodes that carry
  a text, a description or an id (empty containers would make any two screens alike);
- `text_recall`: the share of the recorded next observation's visible texts and content
  descriptions that the mock's screen shows.
All are reported, because each alone is cheap to game: one screen for everything
reproduces every step and resembles nothing.

Where the app moved with no event (the next step starts on another observation than the
last one ended on, between two screens of the app), the mock is put on the first and
sent `wait`: `waits` counts these gaps, `waited` those where the mock went to the second
(a timed transition, `infer.timed`), apart from the steps.

A step whose next observation has no hierarchy (DroidBot states with no file) cannot be
judged and is `skipped`, and the back stack is forgotten there; a step the mock has no
action for (the menu key) is skipped too, but its screens keep the stack as the trace
built it. With `known_only`, so is a step whose next observation maps to
no screen of the app: an app compiled from part of a run is judged on the transitions
between screens it knows (`unknown` counts them).

A step taken on an observation of an era the compiler left out (the app in another
language after a recording switched it: the compile report's `other_eras`, see
`infer.eras`) is no step of the mock's app and is left out too: `other_era` counts them,
apart from the steps, and a move the app made by itself from such an observation is not
waited for. The back stack is forgotten there, as the screens the trace built were
another era's.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import PurePosixPath

from phoneworld.apps import GeneratedApp
from phoneworld.errors import InvalidAction
from phoneworld.spec.ast import Ref
from phoneworld.traces.model import Action, Observation, Trace
from phoneworld.ui.node import Node
from phoneworld.ui.skeleton import app_windows
from phoneworld.ui.widgets import widget_ref

_MAX_SCROLLS = 10
_RESCORED = 3
"""How many of a screen's likeliest parameter rows are tried scrolled as recorded."""
_REPLAYABLE = {"tap", "long_press", "type", "key", "scroll", "swipe"}


def node_bag(root: Node | None) -> Counter:
    """(class, resource-id, text, description) of every visible node of the app windows
    that carries a text, a description or an id."""
    bag: Counter = Counter()
    if root is None:
        return bag
    for _, win in app_windows(root):
        for _, n in win.walk():
            if n.visible and (n.text or n.content_desc or n.resource_id):
                bag[(n.class_name, n.resource_id, n.text, n.content_desc)] += 1
    return bag


def shown_texts(root: Node | None) -> set[str]:
    """The texts and content descriptions a screen shows: visible nodes of non-zero size
    in the app windows (never the status bar's clock)."""
    out: set[str] = set()
    if root is None:
        return out
    for _, win in app_windows(root):
        for _, n in win.walk():
            b = n.bounds
            if n.visible and b[2] > b[0] and b[3] > b[1]:
                out.update(t for t in (n.text.strip(), n.content_desc.strip()) if t)
    return out


def recall(shown: set[str], recorded: set[str]) -> float | None:
    """The share of `recorded` that is in `shown` (None when nothing was recorded)."""
    return len(recorded & shown) / len(recorded) if recorded else None


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
    when the widget is not in view: on down first, then back up from where it was (a
    screen placed further down than the widget, where its list's rows differ in size).
    """
    if action.target is None or obs.root is None or "x" not in act:
        return act
    node = obs.root.at(action.target)
    label = node.text or node.content_desc
    ref = widget_ref(obs.root, action.target)
    want_texts = _item_texts(obs.root, action.target, ref)
    snap = machine.snapshot()
    for direction in ("down", "up"):
        machine.restore(snap)
        seen: list = []
        for scrolls in range(_MAX_SCROLLS + 1):
            if scrolls:  # scroll the mock on, as the recording had scrolled
                try:
                    machine.step({"action_type": "scroll", "direction": direction})
                except InvalidAction:
                    break
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
           under: list[tuple[str, int | None, tuple]]) -> tuple[int | None, tuple]:
    """Put the machine on `screen` above the recorded back stack `under` ((screen, row,
    scroll offsets) triples), with its text fields holding what `obs`'s held
    (`_fill_like`), its flags and state lists' rows as `obs` showed them (`_flags_like`,
    `_rows_like`), scrolled to where it shows most of `obs`'s texts (`_scroll_like`),
    and with the parameter row (or none) that then looks most like `obs`, of the
    `_RESCORED` likeliest unscrolled; returns that row and the screen's scroll offsets.
    On a tie a row wins over none (a screen that takes a row was mostly seen showing one,
    and what it shows without one (`otherwise`) is the same frame with less in it), then
    the row that was likelier before the fields were filled (a filled editor looks alike
    whatever row it had)."""
    spec_screen = app.spec.screen(screen)
    if spec_screen is None:
        raise LookupError(f"app {app.spec.name} has no screen {screen!r}")
    want = node_bag(obs.root)
    if obs.root is not None:
        recorded = _by_id(obs.root)
        _flags_like(machine, spec_screen.root, recorded)
        _rows_like(machine, app, spec_screen.root, recorded)

    def put(row_id: int | None) -> None:
        # The screens below as the trace left them: each at its recorded scroll position.
        machine.jump(screen, row_id, under=under)
        _fill_like(machine, obs)
        _scroll_like(machine, obs)

    best = None
    if spec_screen.param is not None:
        scores = []
        for row_id in [*machine.row_ids(spec_screen.param)[:500], None]:
            machine.jump(screen, row_id, under=under)
            scores.append((f1(node_bag(machine.observe("node")), want), row_id))
        # The few likeliest, each as the recording had it scrolled (a list scrolled
        # down shares little with its top, where an empty row's page shares less).
        top = sorted(range(len(scores)), key=lambda i: (-scores[i][0], i))[:_RESCORED]
        best_score = -1.0
        for i in sorted(top, key=lambda i: (scores[i][1] is None, -scores[i][0], i)):
            put(scores[i][1])
            score = f1(node_bag(machine.observe("node")), want)
            if score > best_score:
                best, best_score = scores[i][1], score
    put(best)
    return best, tuple(machine.frame.scroll.items())


def _flags_like(machine, root, recorded: dict[tuple[str, str], list[Node]]) -> None:
    """Set the flags the screen's views show as the recording showed them, as the app
    was when the step was taken: a switch bound to a flag (`checked dim`) checked as
    recorded, a text bound to one number flag (`fixed(size, 0) + "%"`) at the number
    recorded, where it then reads as recorded. Views outside lists, matched by class and
    resource id where each is the only one of its kind on both sides."""
    from phoneworld.runtime.expr import Scope, display, evaluate, first_number
    from phoneworld.spec.walk import walk

    state = machine.state
    types = state.flag_types
    views, stack = [], [root]
    while stack:
        v = stack.pop()
        if v.items is None:
            views.append(v)
            stack.extend(v.children)
    ids = Counter((v.cls, v.id) for v in views if v.id)
    for v in views:
        nodes = recorded.get((v.cls, v.id), [])
        if not v.id or ids[(v.cls, v.id)] != 1 or len(nodes) != 1:
            continue
        node = nodes[0]
        if isinstance(v.checked, Ref) and types.get(v.checked.path[0]) == "bool" and \
                len(v.checked.path) == 1 and node.checkable:
            state.set_flag(v.checked.path[0], node.checked)
        if v.text is None or not node.text:
            continue
        used = {x.path[0] for x in walk(v.text) if isinstance(x, Ref)}
        numbers = [name for name in used if types.get(name) in ("int", "real")]
        value = first_number(node.text)
        if len(numbers) != 1 or value is None:
            continue
        was = state.flag(numbers[0])
        state.set_flag(numbers[0], value)
        if display(evaluate(v.text, Scope(state))) != node.text:
            state.set_flag(numbers[0], was)


def _rows_like(machine, app: GeneratedApp, root,
               recorded: dict[tuple[str, str], list[Node]]) -> None:
    """Put the rows of the screen's state lists as `obs` showed them, as the app was
    when the step was taken: the columns the app's effects change (a summary a choice
    writes, a switch and its "ON"/"OFF") of the one row that a recorded item shows the
    other texts of take what the item showed. Lists and the views of their items are
    matched by class and resource id."""
    changed: dict[str, set[str]] = {}
    for t in app.spec.transitions:
        for e in t.effects:
            if e.op == "update":
                changed.setdefault(e.target, set()).update(c for c, _ in e.values)
    stack = [root]
    while stack:
        v = stack.pop()
        if v.items is None:
            stack.extend(v.children)
            continue
        lists = recorded.get((v.cls, v.id), [])
        if v.items.table in changed and v.id and len(lists) == 1 and v.children:
            _items_like(machine.state, v.items.table, _bound(v.children[0]),
                        changed[v.items.table], lists[0].children)


def _by_id(root: Node) -> dict[tuple[str, str], list[Node]]:
    """(class, resource id) -> the app windows' nodes that have them, in tree order."""
    out: dict[tuple[str, str], list[Node]] = {}
    for _, win in app_windows(root):
        for _, n in win.walk():
            if n.resource_id:
                out.setdefault((n.class_name, n.resource_id), []).append(n)
    return out


def _bound(template) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """(class, resource id) -> ("text" or "checked", column) of each binding of an item
    template's views to a column of the row (a switch may have both)."""
    out: dict[tuple[str, str], list[tuple[str, str]]] = {}
    stack = [template]
    while stack:
        v = stack.pop()
        stack.extend(v.children)
        for what, e in (("text", v.text), ("checked", v.checked)):
            if v.id and isinstance(e, Ref) and len(e.path) == 2 and e.path[0] == "item":
                out.setdefault((v.cls, v.id), []).append((what, e.path[1]))
    # Views of one class and id bound to different columns (a header's title and a
    # row's, in rows of two types) do not say which column a recorded text is.
    return {k: [b for b in v if b[0] != "text" or [w for w, _ in v].count("text") == 1]
            for k, v in out.items()}


def _items_like(state, table: str, bound: dict, changed: set[str], items) -> None:
    from phoneworld.runtime.expr import display

    for item in items:
        values: dict[str, object] = {}
        for _, n in item.walk():
            for what, column in bound.get((n.class_name, n.resource_id), ()):
                if what == "text" and n.text:
                    values.setdefault(column, n.text)
                elif what == "checked" and n.checkable:
                    values.setdefault(column, n.checked)
        names = {c: v for c, v in values.items() if c not in changed}
        if not names or not changed & set(values):
            continue
        rows, ids = state.rows(table), state.rowids(table)
        found = [i for i, r in enumerate(rows)
                 if all((r.get(c) if isinstance(v, bool) else display(r.get(c))) == v
                        for c, v in names.items())]
        if len(found) == 1:
            row = rows[found[0]]
            state.update(table, ids[found[0]], {c: v for c, v in values.items()
                                                if c in changed and row.get(c) != v})


def _fill_like(machine, obs: Observation) -> None:
    """Put into the machine's text fields what the recording's fields held (a typed
    name, a query), as the screen was when the step was taken: each recorded field
    with a text goes into the one field of the mock with its class and id, without
    firing the field's `type` transition (the recording is already past it)."""
    if obs.root is None:
        return
    recorded: dict[tuple[str, str], set[str]] = {}
    for _, win in app_windows(obs.root):
        for _, n in win.walk():
            if n.visible and n.editable and n.text:
                recorded.setdefault((n.class_name, n.resource_id), set()).add(n.text)
    if not recorded:
        return
    fields: dict[tuple[str, str], list] = {}
    for box in machine.rendered().boxes:
        if box.editable and box.input_key is not None:
            fields.setdefault((box.cls, box.rid), []).append(box)
    changed = False
    for where, texts in recorded.items():
        boxes = fields.get(where, [])
        if len(texts) == 1 and len(boxes) == 1 and boxes[0].text != next(iter(texts)):
            machine.frame.inputs[boxes[0].input_key] = next(iter(texts))
            changed = True
    if changed:
        machine.will_change()


def _scroll_like(machine, obs: Observation) -> None:
    """Scroll the machine's screen down (up to `_MAX_SCROLLS` times, while its rendering
    changes) to where it shows most of the texts `obs` shows (ties: the least scrolled):
    a recording taken further down a list is compared with the same part of the list."""
    want = shown_texts(obs.root)
    shown = shown_texts(machine.observe("node"))
    if not want or want <= shown:
        return
    start = machine.snapshot()
    best, best_hits, seen = start, len(want & shown), [shown]
    for _ in range(_MAX_SCROLLS):
        try:
            machine.step({"action_type": "scroll", "direction": "down"})
        except InvalidAction:
            break
        shown = shown_texts(machine.observe("node"))
        if shown in seen:
            break
        seen.append(shown)
        if len(want & shown) > best_hits:
            best, best_hits = machine.snapshot(), len(want & shown)
    machine.restore(best)


def replay(traces: Sequence[Trace], app: GeneratedApp, *, known_only: bool = False) -> dict:
    """Fidelity of `app` on `traces` (one JSON-ready object with per-trace rows)."""
    from phoneworld.runtime import Machine

    machine = Machine(app.spec)
    rows = []
    totals = Counter()
    mismatches: Counter = Counter()
    sims: list[float] = []
    recalls: list[float] = []
    eras = app.other_eras
    for trace in traces:
        if trace.app != app.spec.package:
            continue
        left = _left_out(eras, trace)
        row = Counter()
        tsims: list[float] = []
        trecalls: list[float] = []
        # The recorded back stack, kept as the compiler keeps it: each screen with the
        # parameter row it showed when the trace was last on it, so that going back
        # shows what the app showed (the album the share sheet was opened on).
        stack: list[tuple[str, int | None, tuple]] = []
        prev = None
        for step in trace.steps:
            gap = _gap(app, trace, prev, step)
            prev = step
            if gap is not None and trace.observations[gap[2]].source in left:
                gap = None  # another era's screen moved on: no screen of the mock
            if trace.observations[step.before].source in left:
                row["other_era"] += 1
                stack.clear()  # the screens the trace built are another era's
                continue
            if gap is not None:  # the app moved by itself: does waiting move the mock?
                row["waits"] += 1
                machine.reset()
                names = [s for s, _, _ in stack]
                under = stack[:names.index(gap[0])] if gap[0] in names else stack
                _place(machine, app, gap[0], trace.observations[gap[2]], under)
                if machine.step({"action_type": "wait"}).screen == gap[1]:
                    row["waited"] += 1
            if step.after is None or step.action.kind not in _REPLAYABLE:
                continue
            before, after = trace.observations[step.before], trace.observations[step.after]
            act = to_agent_action(step.action, before)
            src, dst = app.classify(before), app.classify(after)
            if src is None or after.root is None:
                row["skipped"] += 1
                stack.clear()  # where the app went is not known
                continue
            names = [s for s, _, _ in stack]
            if src in names:
                del stack[names.index(src) + 1:]
            else:
                stack.append((src, None, ()))
            if act is None:  # a key the mock has no action for (menu): both ends known
                row["skipped"] += 1
                continue
            if dst is None and known_only:
                row["unknown"] += 1
                continue
            row["steps"] += 1
            machine.reset()
            stack[-1] = (src, *_place(machine, app, src, before, stack[:-1]))
            act = _by_element(act, step.action, before, machine)
            wanted = shown_texts(after.root)
            try:
                machine.step(act)
            except InvalidAction:
                tsims.append(0.0)
                if wanted:
                    trecalls.append(0.0)
                continue
            if machine.screen == dst:
                row["reproduced"] += 1
            else:
                mismatches[(src, act["action_type"], dst or "?", machine.screen)] += 1
            mock = machine.observe("node")
            tsims.append(f1(node_bag(mock), node_bag(after.root)))
            got = recall(shown_texts(mock), wanted)
            if got is not None:
                trecalls.append(got)
        totals.update(row)
        sims.extend(tsims)
        recalls.extend(trecalls)
        rows.append({"trace": trace.source, "steps": row["steps"],
                     "reproduced": row["reproduced"], "skipped": row["skipped"],
                     "unknown": row["unknown"], "other_era": row["other_era"],
                     "waits": row["waits"],
                     "waited": row["waited"],
                     "fidelity": _ratio(row["reproduced"], row["steps"]),
                     "screen_similarity": _mean(tsims), "text_recall": _mean(trecalls)})
    return {"app": app.spec.name, "steps": totals["steps"], "reproduced": totals["reproduced"],
            "skipped": totals["skipped"], "unknown": totals["unknown"],
            "other_era": totals["other_era"], "waits": totals["waits"], "waited": totals["waited"],
            "fidelity": _ratio(totals["reproduced"], totals["steps"]),
            "screen_similarity": _mean(sims), "text_recall": _mean(recalls),
            "screens": len(app.spec.screens), "traces": rows,
            "mismatches": [{"screen": a, "action": b, "expected": c, "got": d, "count": n}
                           for (a, b, c, d), n in sorted(mismatches.items(),
                                                         key=lambda kv: (-kv[1], kv[0]))[:20]]}


def _left_out(eras: Sequence[dict], trace: Trace) -> frozenset[str]:
    """The sources of `trace`'s observations the compiler left out as another era: the
    report's entry for the trace's source, else the one entry whose source ends the
    trace's (`compile` names a trace from the folder it was given: "traces/x/run1" for
    "/home/me/traces/x/run1"), else the one entry with its name."""
    parts = PurePosixPath(trace.source.replace("\\", "/")).parts
    for found in ([e for e in eras if e["trace"] == trace.source],
                  [e for e in eras if _ends(parts, PurePosixPath(e["trace"]).parts)],
                  [e for e in eras if e.get("name") == trace.name]):
        if len(found) == 1:
            return frozenset(o for o in found[0]["observations"] if isinstance(o, str))
        if found:
            break
    return frozenset()


def _ends(parts: tuple[str, ...], tail: tuple[str, ...]) -> bool:
    return 0 < len(tail) <= len(parts) and parts[len(parts) - len(tail):] == tail


def _gap(app: GeneratedApp, trace: Trace, prev, step) -> tuple[str, str, int] | None:
    """(screen, next screen, observation) where the app moved between two recorded steps
    with no event (the next step starts on another observation than the last ended on),
    between two screens of the app; else None."""
    if prev is None or prev.after is None or prev.after == step.before:
        return None
    last, first = trace.observations[prev.after], trace.observations[step.before]
    if last.root is None or first.root is None:
        return None
    src, dst = app.classify(last), app.classify(first)
    if src is None or dst is None or src == dst or last.foreign or first.foreign:
        return None
    return src, dst, prev.after


def split_trace(trace: Trace, share: float = 0.7) -> tuple[Trace, Trace]:
    """The trace of its first `share` of steps, and the trace of the rest, each holding
    only the observations its own steps show (for judging a mock compiled from the first
    part on the second)."""
    k = round(len(trace.steps) * share)
    return _part(trace, trace.steps[:k], "head"), _part(trace, trace.steps[k:], "tail")


def _part(trace: Trace, steps, name: str) -> Trace:
    used = sorted({s.before for s in steps} | {s.after for s in steps if s.after is not None})
    new = {old: i for i, old in enumerate(used)}
    steps = tuple(s.model_copy(update={"before": new[s.before], "after": None if s.after is None
                                       else new[s.after]}) for s in steps)
    return trace.model_copy(update={"name": f"{trace.name}-{name}", "steps": steps,
                                    "observations": tuple(trace.observations[i] for i in used)})


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def format_replay(result: dict) -> str:
    """A short human-readable report of `replay`'s result."""
    lines = [f"{r['trace']}: {r['reproduced']}/{r['steps']} steps reproduced"
             f" ({r['skipped']} skipped{_era(r)}), similarity {r['screen_similarity']}, "
             f"text recall {r['text_recall']}" for r in result["traces"]]
    lines.append(f"fidelity {result['fidelity']} ({result['reproduced']}/{result['steps']} "
                 f"steps), mean screen similarity {result['screen_similarity']}, mean text "
                 f"recall {result['text_recall']}{_era(result)}")
    if result.get("waits"):
        lines.append(f"{result['waited']}/{result['waits']} moves the app made by itself "
                     "followed by waiting")
    return "\n".join(lines)


def _era(result: dict) -> str:
    n = result.get("other_era", 0)
    return f", other era: {n} steps left out" if n else ""
