"""A text longer than its recorded box takes the room free on its right, as a view whose
width wraps its content grows with its text on a phone.

A recording gives each view the bounds it had for the text it showed then: a title in a
list row is often exactly as wide as that title. Another row's longer title, drawn in
that box, would shrink to a speck or end in an ellipsis at once, where the app would
have widened the view up to what stops it:

    grown(boxes, i, parents, size)  -> box i's bounds, wider where its one line needs it

The room ends at the right edge of the nearest ancestor wider on the right than the box
(the layout it lies in) and short of the first view there that shows something (a text,
a description, a tap target) beside it. Only the page is drawn so; the box's bounds in
the accessibility tree stay as recorded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phoneworld.runtime.advances import advance
from phoneworld.runtime.regions import inside

if TYPE_CHECKING:
    from phoneworld.runtime.render import Box

Rect = tuple[int, int, int, int]

TWO_LINES = 2.4
"""The height, in font sizes, from which a box holds a second line (1.2 each): a text
that would overflow such a box wraps instead of growing."""


def grown(boxes: list[Box], i: int, parents: list[int], size: float, indent: float = 0.0,
          weight: int = 400) -> Rect:
    """Box `i`'s bounds for drawing its text at font `size` (app pixels) after `indent`:
    as recorded where its text fits or is no single line there (a field, a text of
    several lines, a box two lines high), else wider to the right, up to the room free
    there (see the module docstring), as far as the text needs."""
    b = boxes[i]
    x1, y1, x2, y2 = b.bounds
    if not b.text or "\n" in b.text or b.editable or size <= 0 or y2 - y1 >= TWO_LINES * size:
        return b.bounds
    # (a hair more than the advances: the page rounds sizes and places to 0.1 CSS px)
    need = indent + advance(b.text, size, weight) * 1.005 + 1
    if x1 + need <= x2:
        return b.bounds
    limit = x2
    lineage = set()
    p = parents[i]
    while p >= 0:
        lineage.add(p)
        if boxes[p].bounds[2] > x2 and limit == x2:
            limit = boxes[p].bounds[2]
        p = parents[p]
    if limit <= x2:
        return b.bounds
    for j, o in enumerate(boxes):
        if j == i or j in lineage or not (o.text or o.desc or o.clickable):
            continue
        ox1, oy1, ox2, oy2 = o.bounds
        if ox1 >= x2 - 1 and ox1 < limit and oy1 < y2 and oy2 > y1 and ox2 > ox1 \
                and not inside(o.bounds, b.bounds):
            limit = ox1
    return (x1, y1, max(x2, min(limit, x1 + int(need + 0.999))), y2)
