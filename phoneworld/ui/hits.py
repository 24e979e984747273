"""Hit-testing: the view a touch at (x, y) lands on.

`hit_test` answers it on a `Node` tree (a recording, a device's dump), the way Android
dispatches a touch: from the root down, children topmost first (the last drawn is on
top), so a view drawn over another takes the touch even where the one below is nested
deeper (a page pushed over a list), and a clickable view takes it over the labels inside
it. On a rendered screen (a flat list of boxes, each with its children's numbers) the
rule is the same. Finding it means walking the boxes (tens of microseconds on a busy
screen, the largest share of a tap once screens are cached). But the boxes' edges cut
the screen into cells inside which every point lies in the same boxes, so a whole cell
has one answer: a `HitTester` finds a point's cell with two bisections and walks once
per cell it is asked about.

    HitTester(boxes).hit(540, 1200) -> 17 (the box's number), or None
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Protocol

from phoneworld.ui.node import Bounds, Node, NodePath


class Box(Protocol):
    """What hit-testing reads of a rendered view (e.g. `runtime.render.Box`)."""

    bounds: Bounds
    children: Sequence[int]
    clickable: bool
    long_clickable: bool
    checkable: bool

_CELLS = 4096
"""Answers kept per screen (a screen has at most (2 * boxes + 1) ** 2 cells)."""
_GRID_AFTER = 3
"""Touches on one screen answered by a plain scan before its cells are worked out (which
costs a few scans): most screens shown once are touched once."""
_UNKNOWN = -2


class HitTester:
    """Answers `hit(x, y)` for one screen's boxes (see the module docstring)."""

    __slots__ = ("_boxes", "_asked", "_xs", "_ys", "_cells")

    def __init__(self, boxes: Sequence[Box]) -> None:
        self._boxes = boxes
        self._asked = 0
        self._xs: list[int] = []
        self._ys: list[int] = []
        self._cells: dict[tuple[int, int], int | None] | None = None

    def hit(self, x: int, y: int) -> int | None:
        """The number of the box a touch at (x, y) lands on, None where there is none."""
        cells = self._cells
        if cells is None:
            self._asked += 1
            if self._asked <= _GRID_AFTER:
                return scan(self._boxes, x, y)
            cells = self._grid()
        # Points with as many edges at or before them on each axis are inside the same
        # boxes: `x1 <= x < x2` turns on and off only at an edge.
        cell = (bisect_right(self._xs, x), bisect_right(self._ys, y))
        got = cells.get(cell, _UNKNOWN)
        if got == _UNKNOWN:
            if len(cells) >= _CELLS:
                cells.clear()
            got = cells[cell] = scan(self._boxes, x, y)
        return got

    def _grid(self) -> dict[tuple[int, int], int | None]:
        xs: set[int] = set()
        ys: set[int] = set()
        for b in self._boxes:
            x1, y1, x2, y2 = b.bounds
            xs.add(x1)
            xs.add(x2)
            ys.add(y1)
            ys.add(y2)
        self._xs, self._ys = sorted(xs), sorted(ys)
        self._cells = {}
        return self._cells


def scan(boxes: Sequence[Box], x: int, y: int) -> int | None:
    """The hit, by `hit_test`'s rule on the boxes' tree (box 0 is the root; a box's
    `children` are the numbers of its children, in drawing order)."""
    if not boxes:
        return None
    hit = _top_box(boxes, 0, x, y, handling=True)
    return hit if hit is not None else _top_box(boxes, 0, x, y, handling=False)


def _top_box(boxes: Sequence[Box], i: int, x: int, y: int, handling: bool) -> int | None:
    """The topmost deepest box under box `i` holding (x, y); with `handling`, the first
    that handles touches (a box's children before itself)."""
    b = boxes[i]
    if not _contains(b.bounds, x, y):
        return None
    for c in reversed(b.children):
        hit = _top_box(boxes, c, x, y, handling)
        if hit is not None:
            return hit
    return i if not handling or b.clickable or b.long_clickable or b.checkable else None


def _contains(b: Bounds, x: int, y: int) -> bool:
    return b[0] <= x < b[2] and b[1] <= y < b[3]


def hit_test(root: Node, x: int, y: int) -> NodePath | None:
    """The node a touch at (x, y) lands on, the way Android dispatches it.

    Windows and siblings are tried topmost first (later in the dump = drawn later = on
    top); within a view, its children before itself; the first view that contains the
    point and handles touches (clickable, long-clickable or checkable) gets it. A touch
    that no such view takes lands on the deepest topmost visible view containing it.
    Views with inverted bounds contain nothing.
    """
    hit = _dispatch(root, (), x, y)
    if hit is not None:
        return hit
    return _deepest(root, (), x, y)


def _handles(n: Node) -> bool:
    return n.clickable or n.long_clickable or n.checkable


def _dispatch(node: Node, path: NodePath, x: int, y: int) -> NodePath | None:
    if not node.visible or not _contains(node.bounds, x, y):
        return None
    for i in range(len(node.children) - 1, -1, -1):
        hit = _dispatch(node.children[i], path + (i,), x, y)
        if hit is not None:
            return hit
    return path if _handles(node) else None


def _deepest(node: Node, path: NodePath, x: int, y: int) -> NodePath | None:
    if not node.visible or not _contains(node.bounds, x, y):
        return None
    for i in range(len(node.children) - 1, -1, -1):
        hit = _deepest(node.children[i], path + (i,), x, y)
        if hit is not None:
            return hit
    return path
