"""Lists' rows -> the spec's tables: read-only content, or state where actions change them.

    ListContent(home_list, rows [1, None, "Milk", "2"]…)  ->  content home_list(id, ctx, …)
"""

from __future__ import annotations

from phoneworld.infer import content as C
from phoneworld.infer.facts import Facts
from phoneworld.spec.ast import Column, Table


def build_tables(f: Facts) -> Facts:
    """One table per list, in screen order. A list is state (mutable) when its items
    are checkable, or rows were created or edited by recorded actions; rows that only
    exist because of such an action are left out of the initial state."""
    edited = {f.lists[src][e[1]].table for (src, _, _), e in f.edits.items()}
    tables: list[Table] = []
    notes: dict[str, tuple[str, ...]] = {}
    for sname in sorted(f.lists):
        for lc in f.lists[sname].values():
            created = f.created.get(lc.table, frozenset())
            mutable = lc.checkable is not None or lc.table in f.created or lc.table in edited
            rows = [tuple(r) for r in lc.rows if r[0] not in created]
            if lc.table in edited:
                rows = _first_of_each(rows)
            numeric = [i for i in range(len(lc.columns)) if lc.table in edited and rows
                       and all(C.is_int(r[2 + i]) for r in rows)]
            cols = [Column("id", "int"), Column("ctx", "int")] + [
                Column(c, "int" if i in numeric else "text") for i, c in enumerate(lc.columns)]
            rows = [r[:2] + tuple(int(v) if i in numeric else v for i, v in enumerate(r[2:]))
                    for r in rows]
            if lc.checkable is not None:
                cols.append(Column("checked", "bool"))
                # (#21) the recorded state of each row's switch; none where a row has none
                rows = [r + (lc.checks.get(r[0]),) for r in rows]
            tables.append(Table(name=lc.table, kind="state" if mutable else "content",
                                columns=tuple(cols), rows=tuple(rows)))
            notes[lc.table] = (f"{sname}: {lc.key}",)
    return f.with_(tables=tuple(tables)).noted(tables=notes)


def _first_of_each(rows: list[tuple]) -> list[tuple]:
    """A list whose rows are removed and stepped holds one row per thing (a cart line
    per product): later sightings of the same thing with other numbers were made by
    actions in the traces, not the initial state."""
    seen: set = set()
    out = []
    for r in rows:
        if (r[1], r[2]) not in seen:
            seen.add((r[1], r[2]))
            out.append(r)
    return out
