"""Rows of their recorded sizes: how large each list row was drawn, and the space after it.

    RecyclerView: "Theme / Auto" [105, 153) +25, "Storage" [178, 200) +11, ...
      ->  ListOf(pitch = template size + usual space,
                 sizes = ((1, 48, 25), (2, 22, 11), ...))

Real lists mix rows of different sizes: a title wrapped to two lines, a row with a
comment shown, a section header over its rows, a divider drawn after the last row of a
section. One pitch for all of them overlaps the tall rows and spreads the short ones;
so each row the recordings showed keeps the size it was drawn at and the space to the
item after it (`spec.ast.ListOf.sizes`), and the runtime lays rows out one after
another (`runtime.layout.fit`). Sizes are measured, not derived from the row's text:
the recordings say how the app wrapped it, with fonts, margins and item decorations no
estimate from characters would get right; a row the recordings never showed whole (one
added at run time) takes the template's size and the usual space.
"""

from __future__ import annotations

from collections import Counter

from phoneworld.infer.content import ListContent, clipped
from phoneworld.ui.node import Node

Size = tuple[int, int, int]
"""(row id, size along the list's axis, space to the next row)."""


def measure(lc: ListContent, lst: Node, ids: list[int]) -> None:
    """Record the size of each item of one recorded list (row `ids[i]` is item i) and
    the space after it, where the next item shows where it starts.

    An item at the end of a list that scrolls is most often cut, and is passed over
    (one at the end of a list that does not scroll is whole: a web page's tabs and
    sidebar links, their last one as long as its text); one at its start is most often
    the list's first, whole (a list recorded from its top): it counts, after sizes seen
    uncut (see `row_sizes`). A grid's items all take its pitch."""
    if lc.span != 1:
        return
    a = 1 if lc.axis == "vertical" else 0
    kids = lst.children
    for i, item in enumerate(kids):
        if not item.visible or i >= len(ids) or (
                item.bounds[a + 2] >= lst.bounds[a + 2] and lst.scrollable):
            continue
        nxt = kids[i + 1] if i + 1 < len(kids) else None
        gap = -1
        if nxt is not None and nxt.visible and nxt.bounds[a] >= item.bounds[a + 2]:
            gap = nxt.bounds[a] - item.bounds[a + 2]
            lc.gaps[gap] += 1
        size = item.bounds[a + 2] - item.bounds[a]
        lc.sizes.setdefault(ids[i], Counter())[(not clipped(item, lst, lc.axis), size, gap)] += 1


def row_sizes(lc: ListContent, template: Node) -> tuple[int, tuple[Size, ...]]:
    """(pitch, sizes) of a list laid out row by row (`spec.ast.ListOf`): the template's
    size along the axis plus the space recorded most often between items, and each row
    recorded at another size or with another space after it, as recorded most often
    (uncut where it was, with a space where one was seen; ties: the first seen). A
    grid, or a list with no row recorded, keeps its mean pitch (`layout_pitch`)."""
    if lc.span != 1 or not lc.sizes:
        return lc.pitch, ()
    a = 1 if lc.axis == "vertical" else 0
    size = template.bounds[a + 2] - template.bounds[a]
    if lc.gaps:
        gap = min(lc.gaps.items(), key=lambda g: (-g[1], g[0]))[0]
    else:
        gap = max(0, lc.pitch - size)
    # A size seen only at the list's start that no row had uncut is of a cut item (a
    # chat recorded at its end shows a sliver of an earlier message at its top).
    least = min((n for seen in lc.sizes.values() for whole, n, _ in seen if whole), default=0)
    out = []
    for rid in sorted(lc.sizes):
        (whole, n, after), _ = max(lc.sizes[rid].items(),
                                   key=lambda kv: (kv[0][0], kv[0][2] >= 0, kv[1]))
        if n < 1 or (not whole and n < least):
            continue
        after = gap if after < 0 else after
        if (n, after) != (size, gap):
            out.append((rid, n, after))
    return max(1, size + gap), tuple(out)
