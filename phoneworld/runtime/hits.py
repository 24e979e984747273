"""Hit-testing a rendered screen: the box a touch at (x, y) lands on.

The rule is `traces.hierarchy.hit_test`'s: the deepest box containing the point, a
clickable one winning over labels inside it, later siblings winning ties. Finding it
means scanning every box (tens of microseconds on a busy screen, the largest share of a
tap once screens are cached). But the boxes' edges cut the screen into cells inside
which every point lies in the same boxes, so a whole cell has one answer: a `HitTester`
finds a point's cell with two bisections and scans once per cell it is asked about.

    HitTester(boxes).hit(540, 1200) -> 17 (the box's number), or None
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from phoneworld.runtime.render import Box

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
    """The hit, by looking at every box."""
    best = best_click = -1
    depth = click_depth = -1
    for i, b in enumerate(boxes):
        x1, y1, x2, y2 = b.bounds
        if x1 <= x < x2 and y1 <= y < y2:
            d = b.depth
            if d >= depth:
                best, depth = i, d
            if (b.clickable or b.long_clickable or b.checkable) and d >= click_depth:
                best_click, click_depth = i, d
    if best_click >= 0:
        return best_click
    return best if best >= 0 else None
