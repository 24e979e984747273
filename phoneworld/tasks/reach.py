"""What a person can get to see in an app: one breadth-first walk over its screens.

    explore(spec) -> Reach(screens={"main", "category", ...},
                           views=[{"oat milk", 4.29, "64 fl oz", ...}, ...],
                           rows={("category", "bakery"), ...})

The walk taps, scrolls and goes back from the start (the planner's moves, no typing),
keying states by screen, parameter, scroll offsets and the screen below, with the data
left out: a state change never hides a screen in the example apps, and leaving it out
keeps the walk to a few hundred states. Instances whose subject and answer never share a
screen, or whose screen is never reached, are not drawn (`instances`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from phoneworld.runtime.expr import normalise
from phoneworld.runtime.machine import Machine
from phoneworld.spec.ast import AppSpec
from phoneworld.tasks.planner import World, search

MAX_STATES = 3000


@dataclass(frozen=True)
class Reach:
    screens: frozenset[str]
    views: tuple[frozenset[object], ...]
    """The normalised texts of each state the walk saw."""
    rows: frozenset[tuple[str, object]] = frozenset()
    """(screen, a normalised cell of its parameter row) for each row a screen showed."""

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

    def visit(w: World) -> bool:
        screens.add(m.screen)
        views.append(frozenset(w.texts()))
        if isinstance(m.param, dict):
            rows.update((m.screen, normalise(v)) for v in m.param.values() if v is not None)
        return False
    visit(world)
    search(world, visit, max_states=MAX_STATES)
    return Reach(frozenset(screens), tuple(dict.fromkeys(views)), frozenset(rows))


@lru_cache(maxsize=32)
def _union(views: tuple[frozenset[object], ...]) -> frozenset[object]:
    return frozenset().union(*views)


class _Blind(World):
    """A world whose states differ only by navigation."""

    def __init__(self, m: Machine) -> None:
        super().__init__(m)
        self.relevant = {m.spec.name: ((), ())}
