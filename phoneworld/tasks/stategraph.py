"""The concrete states searches have met, and where each action led from them, per process.

    node = state_of(target, target.snapshot())   # the same Node for the same whole state
    node.edges[action_key]                        # -> the Node it led to, or None (no move)

A machine's step is a function of its whole state (its data's `State.version`, the back
stack with parameters, typed texts, scroll offsets and focus, the answer, the status and
whether it left the app; on a phone, every app's and the one in front) and the action.
So what one search learnt by stepping (the state an action leads to, the actions worth
trying on a screen, the search key of a state) holds for every later search that meets
the same state: the instances of one template start from the same reset state and try
the same actions on the same screens, and most of a planner's steps are ones an earlier
search of this process took already (84% of them over 800 instances of the default
apps). A search that finds an edge here does not step: it places the target at the
state the edge leads to only when it must look at it (a goal, a fact of its key).

A node is named by its state's content, never by a machine: `State.version` numbers are
unique in the process and the same number means the same rows and flags. The table is
cleared past `LIMIT` nodes, between searches; a node kept by a search in progress stays
valid (what it says is true of its state whatever the table holds).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from phoneworld.runtime.cache import frozen
from phoneworld.runtime.machine import Machine, Snapshot
from phoneworld.runtime.phone import Phone, PhoneSnapshot

LIMIT = 60_000
"""Nodes kept per process (a node holds a snapshot: its data is shared with the version's
other snapshots where it was taken from them)."""


class Node:
    """One whole state of a target: its snapshot, and what searches learnt there."""

    __slots__ = ("snap", "edges", "choices", "part")

    def __init__(self, snap: Any) -> None:
        self.snap = snap
        self.edges: dict[Any, Node | None] = {}
        """action key -> the node the action led to; None where it moved nothing a
        search keeps (refused, a no-op, out of the app)."""
        self.choices: dict[tuple, list[tuple[dict[str, Any], Any, Any]]] = {}
        """(typed texts, apps) -> the actions worth trying here, each with its key and
        its parsed form (`planner.candidate_actions`)."""
        self.part: tuple | None = None
        """The part of a search key that the state alone decides (screens, data)."""


_NODES: dict[Any, Node] = {}


def state_of(target: Machine | Phone, snap: Any) -> Node:
    """The node of the state `snap` (taken of `target` just now)."""
    key = _whole(target, snap)
    node = _NODES.get(key)
    if node is None:
        node = _NODES[key] = Node(_shared(target, snap))
    return node


def trim() -> None:
    """Forget every node past `LIMIT` (call it between searches only)."""
    if len(_NODES) > LIMIT:
        _NODES.clear()
        _IMAGES.clear()


_IMAGES: dict[tuple[int, int], bytes] = {}
"""(app, data version) -> the database image kept for it: the nodes of one data share it
(a step that writes serialises a new image, the same bytes as an earlier one's)."""


def _shared(target: Machine | Phone, snap: Any) -> Any:
    """`snap` holding the image kept for its data (`_IMAGES`)."""
    if isinstance(snap, PhoneSnapshot):
        ms = target.machines  # type: ignore[union-attr]
        return replace(snap, machines=tuple((n, _shared(ms[n], s)) for n, s in snap.machines))
    image = _IMAGES.setdefault((target.state.versions.app, snap.version), snap.image)
    return snap if image is snap.image else replace(snap, image=image)


def _whole(target: Machine | Phone, snap: Any) -> tuple:
    if isinstance(snap, PhoneSnapshot):
        ms = target.machines  # type: ignore[union-attr]
        return ("phone", tuple(_machine(ms[n], s) for n, s in snap.machines),
                snap.foreground, snap.answer, snap.status)
    return _machine(target, snap)  # type: ignore[arg-type]


def _machine(m: Machine, snap: Snapshot) -> tuple:
    spec = m.spec
    # Equal specs share their versions; their looks may differ (`AppSpec.look`).
    look = spec.look.token if spec.look is not None else None
    # Typed texts and scroll offsets are strings and numbers: hashable as they are.
    stack = tuple((screen, _value(param), table, inputs, scroll,
                   None if focus is None else (focus[0], _value(focus[1])))
                  for screen, param, table, inputs, scroll, focus in snap.stack)
    return (m.state.versions.app, look, snap.version, stack, snap.answer, snap.status,
            snap.left_app)


def _value(v: Any) -> Any:
    """A screen's parameter or a focused row as a key (`cache.frozen`), a row made once:
    rows are shared by every frame that shows them (`State.rows`), never changed."""
    if type(v) is not dict:
        return (type(v), v) if type(v) in _SCALARS else frozen(v)
    got = _ROWS.get(id(v))
    if got is None or got[0] is not v:
        if len(_ROWS) >= LIMIT:
            _ROWS.clear()
        got = _ROWS[id(v)] = (v, frozen(v))
    return got[1]


_SCALARS = frozenset({str, int, float, bool, type(None)})
_ROWS: dict[int, tuple[dict, Any]] = {}
"""id(row) -> (the row, kept so that its id is not reused, its key)."""
