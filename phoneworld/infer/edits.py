"""Effects on list rows, read from what a tap did to the list on the same screen.

    type "See you" + tap send, and a new row "See you" appears  ->  insert
    tap remove in a row, and that row is gone                    ->  delete
    tap + in a row, and its one number went 1 -> 2              ->  update n = n + 1
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from phoneworld.infer import content as C
from phoneworld.infer.transitions import classify_step, focused_editable, touch_target
from phoneworld.ir.model import ObsRef
from phoneworld.spec.ast import Const, Effect, Ref
from phoneworld.traces.model import Trace
from phoneworld.ui.widgets import widget_ref


def sent_rows(traces: Sequence[Trace], where, infos, obs, row_ids):
    """Rows that a send created: text typed on a screen, then a tap (or enter) after
    which a list on the same screen holds a new item showing that text (a message sent,
    a comment posted, a note added).

    Returns (screen, widget, action) -> (list key, field index, input field key, row id),
    for the `insert` effect; the rows so created are not part of the initial state.
    """
    out: dict[tuple, tuple] = {}
    for t, trace in enumerate(traces):
        typed: dict[str, tuple[str, str]] = {}
        for step in trace.steps:
            a = ObsRef(trace=t, index=step.before)
            if a not in where:
                continue
            src, act, root = where[a], step.action, obs[a].root
            if act.kind == "type" and act.text:
                field = act.target if act.target is not None else focused_editable(root)
                if field is not None:
                    typed[src] = (widget_ref(root, field).key, act.text)
                continue
            b = ObsRef(trace=t, index=step.after) if step.after is not None else None
            if b is None or where.get(b) != src or src not in typed or act.kind not in (
                    "tap", "key"):
                continue
            field_key, text = typed[src]
            for lkey, before in row_ids.get(a, {}).items():
                lc = infos[src].lists[lkey]
                new = [r for r in row_ids.get(b, {}).get(lkey, []) if r not in set(before)]
                for rid in new:
                    values = lc.rows[rid - 1][2:]
                    hits = [i for i, v in enumerate(values)
                            if isinstance(v, str) and v.strip() == text.strip()]
                    if hits:
                        widget, action, _, _ = classify_step(root, step)
                        out[(src, widget, action)] = (lkey, hits[0], field_key, rid)
                        typed.pop(src)
                        break
                if src not in typed:
                    break
    return out


def row_edits(traces: Sequence[Trace], where, infos, obs, row_ids, tapped):
    """Taps inside a list item that changed that very row, on the same screen:
    the row vanished and nothing else changed (a remove button -> `delete`), or one of
    its numbers moved by a step (a quantity stepper -> `update ... set n = n + step`).

    Returns (screen, widget, action) -> ("delete", list key) | ("update", list key,
    field index, step), and the ids of rows that only exist after such an update.
    """
    out: dict[tuple, tuple] = {}
    after_update: dict[str, set[int]] = defaultdict(set)
    for t, trace in enumerate(traces):
        for k, step in enumerate(trace.steps):
            a = ObsRef(trace=t, index=step.before)
            b = ObsRef(trace=t, index=step.after) if step.after is not None else None
            row = tapped.get((t, k))
            if row is None or b is None or a not in where or where.get(b) != where[a]:
                continue
            src = where[a]
            target = touch_target(obs[a].root, step.action)
            lkey = widget_ref(obs[a].root, target).list_key if target is not None else None
            before, after = row_ids.get(a, {}).get(lkey), row_ids.get(b, {}).get(lkey)
            if not before or after is None or row not in before:
                continue
            lc = infos[src].lists[lkey]

            def values(r: int, lc=lc) -> tuple:
                return tuple(lc.rows[r - 1][2:])  # by what it shows, whatever its ctx

            old, new = [values(r) for r in before], [values(r) for r in after]
            at = before.index(row)
            rest = old[:at] + old[at + 1:]
            widget, action, _, _ = classify_step(obs[a].root, step)
            if new == rest:
                out.setdefault((src, widget, action), ("delete", lkey))
            elif len(new) == len(old) and new[:at] + new[at + 1:] == rest and new[at] != old[at]:
                diffs = [i for i, (x, y) in enumerate(zip(old[at], new[at], strict=False))
                         if x != y]
                # The counter is the one plain number that changed (a line total beside
                # it changes too, and stays as recorded).
                counters = [i for i in diffs if C.is_int(old[at][i]) and C.is_int(new[at][i])]
                if len(counters) == 1:
                    i = counters[0]
                    delta = int(new[at][i]) - int(old[at][i])
                    out.setdefault((src, widget, action), ("update", lkey, i, delta))
                    after_update[lc.table].add(after[at])
    return out, after_update


def insert_effect(info, lc: C.ListContent, field: int, field_key: str,
                   row_id: int) -> Effect | None:
    """`insert <list table>(<column> = input.<field>, ctx = param.id, ...)` for a send."""
    path = info.keys.get(field_key)
    name = info.names.get(path) if path is not None else None
    if not name:
        return None
    row = lc.rows[row_id - 1]
    values: list[tuple[str, object]] = []
    if info.param_list is not None:  # the new row belongs to the row the screen shows
        values.append(("ctx", Ref(("param", "id"))))
    for i, col in enumerate(lc.columns):
        if i == field:
            values.append((col, Ref(("input", name))))
        elif i < len(row) - 2 and isinstance(row[2 + i], str) and row[2 + i]:
            values.append((col, Const(row[2 + i])))  # e.g. the time shown on the new row
    return Effect(op="insert", target=lc.table, values=tuple(values))
