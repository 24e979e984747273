"""The mock put where a recorded step was taken (`place`): on the step's screen, above the
back stack the trace had built, with the parameter row, text fields, flags, state rows and
scroll position that make it look most like the recording."""

from __future__ import annotations

from collections import Counter

from phoneworld.apps import GeneratedApp
from phoneworld.errors import InvalidAction
from phoneworld.replay.measures import f1, node_bag, shown_texts
from phoneworld.spec.ast import Ref
from phoneworld.traces.model import Observation
from phoneworld.ui.node import Node
from phoneworld.ui.skeleton import app_windows

MAX_SCROLLS = 10
"""Scrolls tried to find what a recording showed further down a list."""
_RESCORED = 3
"""How many of a screen's likeliest parameter rows are tried scrolled as recorded."""


def place(machine, app: GeneratedApp, screen: str, obs: Observation,
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
    """Scroll the machine's screen down (up to `MAX_SCROLLS` times, while its rendering
    changes) to where it shows most of the texts `obs` shows (ties: the least scrolled):
    a recording taken further down a list is compared with the same part of the list."""
    want = shown_texts(obs.root)
    shown = shown_texts(machine.observe("node"))
    if not want or want <= shown:
        return
    start = machine.snapshot()
    best, best_hits, seen = start, len(want & shown), [shown]
    for _ in range(MAX_SCROLLS):
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
