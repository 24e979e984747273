"""Which row a parameterised screen is shown with when nothing has opened it yet.

A screen with a `param` table (an album, a product, a chat) shows one of its rows. For a
preview (the generated `screens/*.html`, the texts the compiler expects a screen to show)
that row must be one the app opens the screen with: the first row of the table may be one
no transition ever passes (qqmusic's album page is opened from the cards whose `cch` is set,
`when item.cch != ""`; its first row, "已播歌曲", is a card without one, and the page would
show nothing bound).

    opened_row(spec, state, "album", param_for) -> rowid, or None

The answer is the row the screen was recorded with (the screen's `opened`, the key of
that row, where the spec records it and the table still holds it): a transition
that admits any row may admit rows that never open it (a swipe on activitylauncher's
Settings list admits its "Settings" heading, and the Theme dialog would list no choices;
onelist's New folder dialog is the default of a menu whose first entry is "Sort by...").

Else it is the lowest rowid of the table among the rows some transition into the screen
passes as its parameter: for each transition into it with a `with` clause, each row of
the list its widget sits in (no row where it sits in none) whose `when` holds gives the
row its `with` names. The source screen's own parameter, typed text and answer are unknown
here and read as empty. None where no transition passes a row of the table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from phoneworld.runtime.expr import Scope, evaluate, holds
from phoneworld.runtime.state import Row, State
from phoneworld.spec.ast import AppSpec, View

ParamFor = Callable[[str, Any], tuple[Any, "str | None"]]
"""`Machine._param_for`: (screen, value) -> (row, its table) or (value, None)."""


def opened_row(spec: AppSpec, state: State, screen: str, param_for: ParamFor) -> int | None:
    """The rowid of the row `screen` was recorded with, else the lowest rowid of its
    param table that a transition opens it with."""
    target = spec.screen(screen)
    if target is None or target.param is None:
        return None
    table = target.param
    key = state.tables[table].columns[0].name
    rowids = state.rowids(table)
    if target.opened is not None:
        for rowid, row in zip(rowids, state.rows(table), strict=True):
            if row.get(key) == target.opened and type(row.get(key)) is type(target.opened):
                return rowid
    position = {row.get(key): i for i, row in reversed(list(enumerate(state.rows(table))))}
    roots = {s.name: s.root for s in spec.screens}
    best: int | None = None
    for t in spec.transitions:
        if t.target != screen or t.with_param is None or t.screen not in roots:
            continue
        source = _list_table(roots[t.screen], t.widget)
        items: list[Row | None] = list(state.rows(source)) if source is not None else [None]
        for item in items:
            scope = Scope(state, item=item, screen=t.screen)
            if not holds(t.when, scope):
                continue
            row, got = param_for(screen, evaluate(t.with_param, scope))
            if got != table or not isinstance(row, dict):
                continue
            i = position.get(row.get(key))
            if i is not None and (best is None or i < best):
                best = i
            if best == 0:
                return rowids[0]
    return rowids[best] if best is not None else None


def _list_table(root: View, widget: str) -> str | None:
    """The table of the innermost list holding the view named `widget` (or being it)."""
    found: list[str | None] = []

    def walk(v: View, table: str | None) -> bool:
        if v.items is not None:
            table = v.items.table
        if v.name == widget:
            found.append(table)
            return True
        return any(walk(c, table) for c in v.children)

    walk(root, None)
    return found[0] if found else None
