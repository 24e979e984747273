"""How far a list's rows reach along its axis, worked out from its rows before they are
laid out: each row's size where the spec gives rows of other sizes, and where a list's
last row ends (what a dialog grows to, `dialog.grown`).

    steps = row_sizes(plan, rows, scope, pitch)   # per row (larger by, step), or None
    end = list_end(plan, rows, scope)             # where a vertical list's last row ends
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phoneworld.runtime.layout import list_pitch, rows_end

if TYPE_CHECKING:
    from phoneworld.runtime.expr import Scope
    from phoneworld.runtime.layout import ViewPlan
    from phoneworld.runtime.state import Row


def row_sizes(p: ViewPlan, rows: list[Row], scope: Scope, pitch: int
              ) -> list[tuple[int, int]] | None:
    """Each row's (larger by, step to the next) where list `p` has rows of other sizes
    (`ListOf.sizes`, by the table's key, its first column, as the spec gives them); None
    where it has none (or lays rows out in a grid: every row `pitch` apart)."""
    lst = p.items
    assert lst is not None
    if not p.sizes or max(1, lst.span) != 1:
        return None
    key = scope.state.tables[lst.table].columns[0].name
    plain = (0, pitch)
    return [p.sizes.get(r.get(key), plain) for r in rows]


def list_end(p: ViewPlan, rows: list[Row], scope: Scope) -> int:
    """Where the last of `rows` (those list `p` shows, outside lists, vertical) ends,
    laid out from its first row's place."""
    lst, t = p.items, p.template
    assert lst is not None and t is not None
    if not rows:
        return t.bounds[1]
    pitch = list_pitch(lst, t.bounds[3] - t.bounds[1])
    steps = row_sizes(p, rows, scope, pitch)
    if steps is None:
        return t.bounds[3] + pitch * (-(-len(rows) // max(1, lst.span)) - 1)
    return rows_end(steps, t.bounds[3])
