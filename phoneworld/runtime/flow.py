"""A flow: a horizontal list as tall as several of its rows (inline content, a web page's
language links), its rows one after another, wrapping onto lines.

    places = flow(steps, 300, 40, 1040)        # (start along the line, line) per row
    gap = line_pitch(3, 60, 280)               # how far apart the lines lie
    bands = flow_bands(plan, dx, dy, bounds, steps)   # per row: where it is drawn

The lines are spread over the list's height, as the list spans them, all in view (a
flow does not scroll); rows past its end are cut off. A row is drawn clipped to its own
size (`ListOf.sizes`: a longer name, a wider link) and to the list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from phoneworld.runtime.layout import ViewPlan

Rect = tuple[int, int, int, int]

FLOW = 2
"""How many of its rows' heights a horizontal list that wraps them must be tall."""


def flow(steps: list[tuple[int, int]], size: int, t_lo: int, hi: int
         ) -> list[tuple[int, int]]:
    """(start along its line from the template's place, line) of each row of a flow
    whose template starts at `t_lo` and is `size` long, each row (larger by, step to the
    next) of `steps`: one after another, a row going onto the next line where it would
    pass the list's end `hi` (a row alone on its line stays there, cut short)."""
    out, at, line = [], 0, 0
    for grow, step in steps:
        if at and t_lo + at + size + grow > hi:
            at, line = 0, line + 1
        out.append((at, line))
        at += step
    return out


def line_pitch(lines: int, row: int, room: int) -> int:
    """How far apart a flow's `lines` lines of rows `row` high lie in `room` (from the
    first line's top to the list's end): spread evenly over it, as a flow's list spans
    its lines, but between one and two rows' heights."""
    if lines <= 1:
        return row
    return max(row, min(2 * row, (room - row) // (lines - 1)))


def flow_bands(p: ViewPlan, dx: int, dy: int, bounds: Rect, steps: list[tuple[int, int]]
               ) -> list[tuple[int, int, int, Rect | None]]:
    """Where each row of flow `p` (moved by `dx`, `dy`; its box at `bounds`) is drawn,
    each row (larger by, step to the next) of `steps`: (larger by, its template's move
    across and down, the band it is clipped to, or None where nothing of it shows)."""
    template = p.template
    assert template is not None
    x1, y1, x2, y2 = bounds
    tx1, ty1, tx2, ty2 = template.bounds
    tx1, tx2, ty1, ty2 = tx1 + dx, tx2 + dx, ty1 + dy, ty2 + dy
    places = flow(steps, tx2 - tx1, tx1, x2)
    lines = places[-1][1] + 1 if places else 0
    gap = line_pitch(lines, ty2 - ty1, p.bounds[3] + dy - ty1)
    out: list[tuple[int, int, int, Rect | None]] = []
    for (grow, step), (start, line) in zip(steps, places, strict=True):
        down = line * gap
        band = (max(x1, tx1 + start), max(y1, ty1 + down),
                min(x2, tx2 + start + grow, tx1 + start + step), min(y2, ty2 + down))
        ok = band[0] < band[2] and band[1] < band[3]
        out.append((grow, dx + start, dy + down, band if ok else None))
    return out
