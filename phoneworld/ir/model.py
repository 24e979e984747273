"""The screen-graph IR: abstract screens, and transitions between them, with provenance.

Plain frozen pydantic data with a stable JSON form. Graph algorithms go through
`to_networkx()`; networkx is never the storage format.
"""

from __future__ import annotations

from typing import Literal

import networkx as nx
from pydantic import BaseModel, ConfigDict

Priority = Literal["P0", "P1", "P2"]


class ObsRef(BaseModel):
    """Observation `index` of trace `trace` (indices into the compiler's input list)."""

    model_config = ConfigDict(frozen=True)

    trace: int
    index: int


class AbstractScreen(BaseModel):
    """A group of observations that show the same screen of one package."""

    model_config = ConfigDict(frozen=True)

    name: str
    package: str
    activity: str
    foreign: bool
    signature: str
    """Hex digest of the structural skeleton the group was formed around."""
    observations: tuple[ObsRef, ...]
    priority: Priority = "P2"
    window: tuple[int, int, int, int] | None = None
    """A dialog's window (`ui.dialogs`: smaller than the screen); None: not a dialog."""
    over: str | None = None
    """The screen a dialog opens over (and closes back to), where a recording shows it."""


class Transition(BaseModel):
    """(screen, widget, action) -> screen, seen `count` times.

    `widget` is the widget's key in the source screen (see `ui.widgets`); `item` marks
    a parameterised transition (a tap on a list item carries that item's entity).
    """

    model_config = ConfigDict(frozen=True)

    source: str
    widget: str
    action: str
    target: str
    count: int
    item: bool = False
    key: str | None = None
    examples: tuple[tuple[int, int], ...] = ()
    """(trace, step) pairs this transition was seen in."""
    returns: int = 0
    """How many of them went to a screen already on the trace's back stack (a dialog's
    choice, an up button): a return there, not a new screen opened with the item."""


class ScreenGraph(BaseModel):
    model_config = ConfigDict(frozen=True)

    app: str
    package: str
    width: int
    height: int
    start: str
    screens: tuple[AbstractScreen, ...]
    transitions: tuple[Transition, ...] = ()
    warnings: tuple[str, ...] = ()
    chrome: tuple[str, ...] = ()
    """Skeleton paths most of the app's observations share (they weigh less when
    screens are told apart, see `infer.skeleton.similarity`)."""

    def screen(self, name: str) -> AbstractScreen:
        for s in self.screens:
            if s.name == name:
                return s
        raise KeyError(name)

    def to_networkx(self) -> nx.MultiDiGraph:
        g = nx.MultiDiGraph()
        for s in self.screens:
            g.add_node(s.name, priority=s.priority, foreign=s.foreign)
        for t in self.transitions:
            g.add_edge(t.source, t.target, widget=t.widget, action=t.action, count=t.count)
        return g

    def reachable(self) -> set[str]:
        """Screens reachable from the start screen."""
        return {self.start} | nx.descendants(self.to_networkx(), self.start)
