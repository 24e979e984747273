"""Effects on list rows, read from what a step did to the list on the same screen.

    type "See you" + tap send, and a new row "See you" appears  ->  insert
    tap remove in a row, and that row is gone                    ->  delete
    tap + in a row, and its one number went 1 -> 2              ->  update n = n + 1
"""

from __future__ import annotations

from collections import defaultdict

from phoneworld.infer import content as C
from phoneworld.infer.facts import Facts, ScreenFacts
from phoneworld.infer.transitions import focused_editable
from phoneworld.spec.ast import BinOp, Compare, Const, Effect, Ref
from phoneworld.ui.widgets import widget_ref


def find_sends(f: Facts) -> Facts:
    """Rows that a send created: text typed on a screen, then a tap (or enter) after
    which a list on the same screen holds a new item showing that text (a message sent,
    a comment posted, a note added).

        type "See you" into msg, tap send, row 7 "See you" appears
          ->  sends{(chat, send, tap): (list key, field 0, msg, 7)}; created{chat_list: {7}}

    The rows so created are not part of the initial state.
    """
    out: dict[tuple, tuple] = {}
    typed: dict[str, tuple[str, str]] = {}
    for sf in f.steps:
        if sf.index == 0:
            typed = {}
        a, step = sf.before, sf.step
        if a not in f.where:
            continue
        src, act, root = f.where[a], step.action, f.obs[a].root
        if act.kind == "type" and act.text:
            field = act.target if act.target is not None else focused_editable(root)
            if field is not None:
                typed[src] = (widget_ref(root, field).key, act.text)
            continue
        b = sf.after
        if b is None or f.where.get(b) != src or src not in typed or act.kind not in (
                "tap", "key"):
            continue
        field_key, text = typed[src]
        for lkey, before in f.row_ids.get(a, {}).items():
            lc = f.lists[src][lkey]
            new = [r for r in f.row_ids.get(b, {}).get(lkey, ()) if r not in set(before)]
            for rid in new:
                values = lc.rows[rid - 1][2:]
                hits = [i for i, v in enumerate(values)
                        if isinstance(v, str) and v.strip() == text.strip()]
                if hits:
                    out[(src, sf.widget, sf.action)] = (lkey, hits[0], field_key, rid)
                    typed.pop(src)
                    break
            if src not in typed:
                break
    created: dict[str, set[int]] = defaultdict(set)
    for k, v in f.created.items():
        created[k] |= v
    for (src, _, _), (lkey, _, _, rid) in out.items():
        created[f.lists[src][lkey].table].add(rid)
    return f.with_(sends=out, created={k: frozenset(v) for k, v in created.items()})


def find_row_edits(f: Facts) -> Facts:
    """Taps inside a list item that changed that very row, on the same screen:
    the row vanished and nothing else changed (a remove button -> `delete`; not the
    only row of a list tapped itself: `_row_itself`), or one of
    its numbers moved by a step (a quantity stepper -> `update ... set n = n + step`).

        tap remove in row 3, rows (1, 3, 5) -> (1, 5)  ->  edits{(cart, remove, tap):
                                                              ("delete", list key)}

    Edits are (screen, widget, action) -> ("delete", list key) | ("update", list key,
    field index, step); the rows that only exist after such an update are `created`.
    """
    out: dict[tuple, tuple] = {}
    after_update: dict[str, set[int]] = defaultdict(set)
    for sf in f.steps:
        a, b = sf.before, sf.after
        row = f.tapped.get((sf.trace, sf.index))
        if row is None or b is None or a not in f.where or f.where.get(b) != f.where[a]:
            continue
        src = f.where[a]
        lkey = sf.ref.list_key if sf.ref is not None else None
        before, after = f.row_ids.get(a, {}).get(lkey), f.row_ids.get(b, {}).get(lkey)
        if not before or after is None or row not in before:
            continue
        lc = f.lists[src][lkey]
        # By what the items showed, whatever their rows' ctx or first-seen texts.
        old, new = list(f.shown[a][lkey]), list(f.shown[b][lkey])
        at = before.index(row)
        rest = old[:at] + old[at + 1:]
        key = (src, sf.widget, sf.action)
        if new == rest and (rest or not _row_itself(sf.ref.key if sf.ref else "")):
            out.setdefault(key, ("delete", lkey))
        elif len(new) == len(old) and new[:at] + new[at + 1:] == rest and new[at] != old[at]:
            diffs = [i for i, (x, y) in enumerate(zip(old[at], new[at], strict=False))
                     if x != y]
            # The counter is the one plain number that changed (a line total beside
            # it changes too, and stays as recorded).
            counters = [i for i in diffs if C.is_int(old[at][i]) and C.is_int(new[at][i])]
            if len(counters) == 1:
                i = counters[0]
                delta = int(new[at][i]) - int(old[at][i])
                out.setdefault(key, ("update", lkey, i, delta))
                if after[at] != row:  # a row of its own, made by the step
                    after_update[lc.table].add(after[at])
    created: dict[str, set[int]] = defaultdict(set)
    for k, v in f.created.items():
        created[k] |= v
    for k, v in after_update.items():
        created[k] |= v
    return f.with_(edits=out, created={k: frozenset(v) for k, v in created.items()})


def _row_itself(key: str) -> bool:
    """Whether a widget key is a list row's own (a tap on the row, no control in it).
    A tap on its only row after which the list shows none is no delete: a list of
    choices closes once one is picked (uber's place suggestions, a drop-down's options);
    a remove button in a row, or a row gone from among others, is one."""
    inner = key.partition("/[item]")[2]
    return "/[item]" in key and (not inner or inner.startswith("@"))


def row_effects(f: Facts) -> Facts:
    """The effects of sends and row edits, by (screen, widget, action).

        sends{(chat, send, tap): …}  ->  insert chat_list(text = input.msg, ctx = param.id)
        edits{(cart, minus, tap): ("update", list, 1, -1)}  ->  update cart set n = n - 1
    """
    out: dict[tuple, Effect] = {}
    notes: dict[str, tuple[str, ...]] = {}
    for (src, widget, action), (lkey, column, field_key, rid) in f.sends.items():
        eff = insert_effect(f.screens[src], f.params.get(src), f.lists[src][lkey], column,
                            field_key, rid)
        if eff is not None:
            out[(src, widget, action)] = eff
            notes[f"{src}.{widget}"] = (
                f"typed text appeared as a new row of {eff.target} (row {rid})",)
    types = {t.name: {c.name: c.type for c in t.columns} for t in f.tables}
    for (src, widget, action), edit in f.edits.items():
        lc = f.lists[src][edit[1]]
        where_row = id_is_item()
        if edit[0] == "delete":
            eff = Effect(op="delete", target=lc.table, where=where_row)
        else:
            col = lc.columns[edit[2]]
            if types[lc.table][col] != "int":
                continue
            eff = Effect(op="update", target=lc.table, where=where_row, values=(
                (col, BinOp("+" if edit[3] >= 0 else "-", Ref((col,)), Const(abs(edit[3])))),))
        out.setdefault((src, widget, action), eff)
        notes[f"{src}.{widget}"] = (f"the tapped row of {lc.table} "
                                    f"{'vanished' if edit[0] == 'delete' else 'changed'}",)
    return f.with_(effects=out).noted(effects=notes)


def id_is_item() -> Compare:
    """`id == item.id`: the row that was acted on."""
    return Compare("==", Ref(("id",)), Ref(("item", "id")))


def insert_effect(info: ScreenFacts, param: tuple[str, str] | None, lc: C.ListContent,
                  field: int, field_key: str, row_id: int) -> Effect | None:
    """`insert <list table>(<column> = input.<field>, ctx = param.id, ...)` for a send."""
    path = info.keys.get(field_key)
    name = info.names.get(path) if path is not None else None
    if not name:
        return None
    row = lc.rows[row_id - 1]
    values: list[tuple[str, object]] = []
    if param is not None:  # the new row belongs to the row the screen shows
        values.append(("ctx", Ref(("param", "id"))))
    for i, col in enumerate(lc.columns):
        if i == field:
            values.append((col, Ref(("input", name))))
        elif i < len(row) - 2 and isinstance(row[2 + i], str) and row[2 + i]:
            values.append((col, Const(row[2 + i])))  # e.g. the time shown on the new row
    return Effect(op="insert", target=lc.table, values=tuple(values))
