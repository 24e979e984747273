"""What a person can get to see in an app: one breadth-first walk over its screens.

    explore(spec) -> Reach(screens={"main", "category", ...},
                           views=[{"oat milk", 4.29, "64 fl oz", ...}, ...],
                           rows={("category", "bakery"), ...},
                           items={("category_product_list", 3), ...})

The walk taps, scrolls and goes back from the start (the planner's moves, no typing),
keying states by screen, parameter, scroll offsets and the screen below, with the data
left out: a state change never hides a screen in the example apps, and leaving it out
keeps the walk to a few hundred states. Instances whose subject and answer never share a
screen, or whose screen is never reached, are not drawn (`instances`); nor are rows of a
list that no list ever shows (a recording's row kept without the screen it was on).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from phoneworld.runtime.expr import normalise
from phoneworld.runtime.machine import Machine
from phoneworld.spec.ast import AppSpec, View
from phoneworld.spec.walk import views as walk_views
from phoneworld.tasks.planner import World, search

MAX_STATES = 3000


@dataclass(frozen=True)
class Reach:
    screens: frozenset[str]
    views: tuple[frozenset[object], ...]
    """The normalised texts of each state the walk saw."""
    rows: frozenset[tuple[str, object]] = frozenset()
    """(screen, a normalised cell of its parameter row) for each row a screen showed."""
    items: frozenset[tuple[str, object]] = frozenset()
    """(table, key) of each row a list showed."""
    listed: frozenset[str] = frozenset()
    """The tables some list of the app's own screens shows."""

    def shown(self, table: str, key: object) -> bool:
        """Whether a row can be seen: a list showed it, or no list shows its table."""
        return table not in self.listed or (table, key) in self.items

    def together(self, values: list[object]) -> bool:
        """Whether some screen shows all of `values` at once."""
        want = {normalise(v) for v in values}
        return any(want <= v for v in self.views)

    def anywhere(self, value: object) -> bool:
        """Whether some screen shows `value`."""
        return normalise(value) in self.everything

    @property
    def everything(self) -> frozenset[object]:
        return _union(self.views)


@lru_cache(maxsize=32)
def explore(spec: AppSpec) -> Reach:
    """Walk `spec` from its start screen (see the module docstring); cached per spec."""
    m = Machine(spec)
    m.reset()
    world = _Blind(m)
    screens: set[str] = set()
    views: list[frozenset[object]] = []
    rows: set[tuple[str, object]] = set()
    items: set[tuple[str, object]] = set()
    tables = _item_tables(spec)

    def visit(w: World) -> bool:
        screens.add(m.screen)
        views.append(frozenset(w.texts()))
        if isinstance(m.param, dict):
            rows.update((m.screen, normalise(v)) for v in m.param.values() if v is not None)
        for box in m.rendered().boxes:
            table = tables.get((m.screen, box.view)) if box.row is not None else None
            if table is not None:
                items.add((table, next(iter(box.row.values()))))
        return False
    visit(world)
    search(world, visit, max_states=MAX_STATES)
    listed = frozenset(t for s in spec.screens if not s.foreign for t in tables_of(s.root))
    return Reach(frozenset(screens), tuple(dict.fromkeys(views)), frozenset(rows),
                 frozenset(items), listed)


def _item_tables(spec: AppSpec) -> dict[tuple[str, View], str]:
    """(screen, view) -> the table whose rows it repeats, for the views inside list items
    (the innermost list's; a rendered box holds its spec view). By value, not by `id`: a
    rendering kept from an equal spec (the runtime's cache) holds that spec's views."""
    out: dict[tuple[str, View], str] = {}
    for s in spec.screens:
        stack: list[tuple[View, str | None]] = [(s.root, None)]
        while stack:
            v, table = stack.pop()
            if table is not None:
                out[(s.name, v)] = table
            inner = v.items.table if v.items is not None else table
            stack.extend((c, inner) for c in v.children)
    return out


def tables_of(root: View) -> set[str]:
    """The tables the lists under `root` show."""
    return {v.items.table for v in walk_views(root) if v.items is not None}


@lru_cache(maxsize=32)
def _union(views: tuple[frozenset[object], ...]) -> frozenset[object]:
    return frozenset().union(*views)


class _Blind(World):
    """A world whose states differ only by navigation."""

    def __init__(self, m: Machine) -> None:
        super().__init__(m)
        self.relevant = {m.spec.name: ((), ())}
