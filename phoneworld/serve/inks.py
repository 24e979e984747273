"""The boxes of texts' ink: what the painter lays over a frame for the texts drawn here.

A list row's label is a few percent of its row's rectangle, so a text is handed on as
the box of its ink alone (`Ink`: its coverage, 0-255, of one colour); texts whose boxes
meet (rarely: their glyphs seldom do) become one box of their RGBA, summed in paint
order where both draw:

    box = ink_box(x, y, coverage, "#202124", 1.0)   # None: no ink at all
    inks = apart([box, ...])                         # boxes that do not meet
    rgba = laid(inks, rect)                          # on clear pixels, as Chromium's
                                                     # capture of a see-through page
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

Rect = tuple[int, int, int, int]
Box = tuple[int, int, np.ndarray, np.ndarray]
"""A text's ink: x, y (app pixels), its coverage (h x w, 0-255), its colour (3 uint8)."""


@dataclass(frozen=True, eq=False)
class Ink:
    """What texts draw in one box (app pixels, its top left at x, y): one text's coverage
    (`pixels` h x w, 0-255) of `color` (3 uint8), or where the boxes of texts meet,
    their straight-alpha RGBA summed in paint order (`pixels` h x w x 4, `color` None)."""

    x: int
    y: int
    pixels: np.ndarray
    color: np.ndarray | None


def ink_box(x: int, y: int, a: np.ndarray, color: str, opacity: float) -> Box | None:
    """Coverage `a` (its top left at x, y) cut to the box of its ink (what is clear stays
    clear), at `opacity`, in `color` ("#rrggbb"); None where it has no ink."""
    rows = np.flatnonzero(a.any(axis=1))
    if not rows.size:
        return None
    a = a[rows[0]:rows[-1] + 1]
    cols = np.flatnonzero(a.any(axis=0))
    a = a[:, cols[0]:cols[-1] + 1]
    if opacity < 1:
        a = (a.astype(np.float32) * opacity + 0.5).astype(np.uint8)
    col = np.array([int(color[i:i + 2], 16) for i in (1, 3, 5)], np.uint8)
    return x + int(cols[0]), y + int(rows[0]), a, col


def laid(inks: list[Ink], rect: Rect) -> np.ndarray:
    """`inks` inside `rect` (app pixels) on a transparent ground, as straight-alpha RGBA."""
    x1, y1, x2, y2 = rect
    out = np.zeros((y2 - y1, x2 - x1, 4), np.uint8)
    for ink in inks:
        h, w = ink.pixels.shape[:2]
        box = out[ink.y - y1:ink.y - y1 + h, ink.x - x1:ink.x - x1 + w]
        if ink.color is None:
            box[...] = ink.pixels
        else:
            box[..., :3] = ink.color
            box[..., 3] = ink.pixels
    return out


def over_straight(below: np.ndarray, a: np.ndarray, col: np.ndarray) -> None:
    """Coverage `a` of colour `col` laid over `below` (straight-alpha RGBA, in place):
    premultiplied sums, divided back, rounded. Worked out only where both draw (boxes
    of texts meet where their glyphs rarely do): where `a` is clear `below` stays,
    where `below` is clear it takes `col` at `a`, as the sums give there."""
    ba8 = below[..., 3]
    mine, both = a > 0, (a > 0) & (ba8 > 0)
    alone = mine & ~both
    if alone.any():
        below[alone, :3] = col.astype(np.uint8)
        below[alone, 3] = a[alone]
    if not both.any():
        return
    fa = a[both].astype(np.float32) / 255.0
    ba = ba8[both].astype(np.float32) / 255.0
    out_a = fa + ba * (1 - fa)
    premul = col * fa[:, None] + below[both][:, :3] * (ba * (1 - fa))[:, None]
    rgb = premul / out_a[:, None]  # (out_a >= ba > 0)
    below[both, :3] = np.clip(rgb + 0.5, 0, 255)
    below[both, 3] = np.clip(out_a * 255 + 0.5, 0, 255)


def apart(boxes: list[Box]) -> list[Ink]:
    """Texts' ink boxes (x, y, coverage, colour; in paint order) as inks that do not
    meet: boxes that meet (texts rarely do) joined into one box of their RGBA, laid in
    paint order (`over_straight` where both draw), as `laid` lays them."""
    groups: list[list[int]] = []
    spans: list[Rect] = []
    for i, (x, y, a, _) in enumerate(boxes):
        r = (x, y, x + a.shape[1], y + a.shape[0])
        hit = [g for g, q in enumerate(spans) if _meet(r, q)]
        if not hit:
            groups.append([i])
            spans.append(r)
            continue
        # (joined with every group it meets; a box that grew may meet more: again)
        merged = sorted(i2 for g in hit for i2 in groups[g]) + [i]
        for g in reversed(hit):
            del groups[g], spans[g]
        while True:
            u = _span([boxes[k] for k in merged])
            more = [g for g, q in enumerate(spans) if _meet(u, q)]
            if not more:
                break
            merged = sorted([*merged, *(k for g in more for k in groups[g])])
            for g in reversed(more):
                del groups[g], spans[g]
        groups.append(merged)
        spans.append(u)
    out: list[Ink] = []
    for g, span in sorted(zip(groups, spans, strict=True), key=lambda gs: gs[0][0]):
        if len(g) == 1:
            x, y, a, col = boxes[g[0]]
            out.append(Ink(x, y, a, col))
            continue
        px = np.zeros((span[3] - span[1], span[2] - span[0], 4), np.uint8)
        for k in g:
            x, y, a, col = boxes[k]
            below = px[y - span[1]:y - span[1] + a.shape[0], x - span[0]:x - span[0] + a.shape[1]]
            if not below[..., 3].any():  # nothing drawn there yet
                below[..., :3] = col
                below[..., 3] = a
                continue
            over_straight(below, a, col.astype(np.float32))
        out.append(Ink(span[0], span[1], px, None))
    return out


def _meet(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _span(boxes: list[Box]) -> Rect:
    return (min(x for x, _, _, _ in boxes), min(y for _, y, _, _ in boxes),
            max(x + a.shape[1] for x, _, a, _ in boxes),
            max(y + a.shape[0] for _, y, a, _ in boxes))
