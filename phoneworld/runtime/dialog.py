"""A dialog whose list grows with its rows, as Android's AlertDialog does.

A screen recorded as a dialog (`Screen.window`: a window smaller than the screen, here
its root, centred on it) with a list of a few rows may show more rows than that (the
same dialog opened for another setting). Android lays the list out at the height its
rows need and the dialog grows with it, staying centred, until it reaches the screen's
usable height; then the list scrolls. The mock does the same:

    window = dialog_list(plan, (1080, 1920), screen.window)  # at planning: the
                                                  # list that may grow
    plan = grown(plan, window, need)              # at rendering: the plan, taller by
                                                  # what the rows need (capped)
    g = growth(boxes)                             # at drawing: (list end, up, down)
    look = grown_look(look, g)                    # the recorded look, moved likewise

Views above the list's recorded end move up by `up`, views from it on down by `down`,
and the list and the views around it stretch by both; the recorded rows move with the
list's top. The usable height is read from where the window was recorded: Android
centres a dialog between the status bar (`s`) and the navigation bar (`2 s`: 24 and
48 dp), so a window centred at `c` on a screen `H` high leaves `s = H - 2 c` above.
A list with the rows it was recorded with, or fewer, lays out as recorded.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from phoneworld.runtime.compose_rows import Paint
from phoneworld.runtime.look import Gauge, ListLook, Mark, Rect, ScreenLook

if TYPE_CHECKING:
    from phoneworld.runtime.layout import ViewPlan
    from phoneworld.runtime.render import Box

Window = tuple[tuple[int, ...], int, int]
"""(the path of the list's plan from the root, the usable area's top and bottom)."""

CENTRED = 0.02
"""How far off the screen's middle across (a share of its width) a dialog may lie."""
MIDDLE = 0.1
"""How far off the screen's middle down (a share of its height) a dialog's centre may lie."""
BARS = 0.06
"""The tallest status bar, as a share of the screen's height."""


def dialog_list(plan: ViewPlan, size: tuple[int, int], window: Rect | None
                ) -> Window | None:
    """Where `plan` (a screen's) is a dialog whose window (`window`: `Screen.window`,
    the compiler's `ui.dialogs`) is its root, centred on the screen, with a vertical
    list outside lists: the first such list and the area the dialog may grow to; else
    None (no dialog; a sheet, a popup off the middle; a window drawn inside the page's
    own: its root does not move)."""
    width, height = size
    x1, y1, x2, y2 = plan.bounds
    if window is None or window != plan.bounds \
            or not (0 < y1 and y2 < height and 0 < x1 and x2 < width) \
            or abs(x1 - (width - x2)) > CENTRED * width \
            or abs(y1 + y2 - height) > 2 * MIDDLE * height:
        return None
    path = _first_list(plan, ())
    if path is None:
        return None
    s = max(0, min(int(BARS * height), height - (y1 + y2)))
    return path, s, height - 2 * s


def _first_list(p: ViewPlan, path: tuple[int, ...]) -> tuple[int, ...] | None:
    if p.items is not None:
        return path if p.items.axis == "vertical" and p.template is not None else None
    for i, c in enumerate(p.children):
        got = _first_list(c, (*path, i))
        if got is not None:
            return got
    return None


def list_plan(plan: ViewPlan, path: tuple[int, ...]) -> ViewPlan:
    for i in path:
        plan = plan.children[i]
    return plan


def grown(plan: ViewPlan, window: Window, end: int) -> ViewPlan:
    """`plan` with its dialog grown so that its list (`window`'s) ends at `end` or as
    near as the usable area lets it; `plan` itself where its list is long enough."""
    path, top, bottom = window
    lst = list_plan(plan, path)
    extra = min(end - lst.bounds[3], bottom - top - (plan.bounds[3] - plan.bounds[1]))
    if extra <= 0:
        return plan
    y1, y2 = plan.bounds[1], plan.bounds[3]
    down = max(0, min(extra - extra // 2, bottom - y2))
    up = max(0, min(extra - down, y1 - top))
    down = max(0, min(extra - up, bottom - y2))
    if up == down == 0:
        return plan
    cache = plan.grown
    out = cache.get((up, down))
    if out is None:
        out = cache[(up, down)] = _moved(plan, path, lst.bounds[3], up, down)
    return out


def _moved(p: ViewPlan, path: tuple[int, ...] | None, end: int, up: int,
           down: int) -> ViewPlan:
    """A copy of `p` moved as the module docstring says: `path` leads from it to the
    list (None: `p` lies off that path; inside the list, all moves with its top)."""
    q = p.copy()
    x1, y1, x2, y2 = p.bounds
    q.bounds = (x1, _at(y1, end, up, down), x2, _at(y2, end, up, down))
    if q.template is not None:
        q.template = _shifted(q.template, up) if path == () else \
            _moved(q.template, None, end, up, down)
    q.children = tuple(
        _moved(c, path[1:] if path and path[0] == i else None, end, up, down)
        for i, c in enumerate(p.children))
    return q


def _shifted(p: ViewPlan, up: int) -> ViewPlan:
    q = p.copy()
    x1, y1, x2, y2 = p.bounds
    q.bounds = (x1, y1 - up, x2, y2 - up)
    if q.template is not None:
        q.template = _shifted(q.template, up)
    q.children = tuple(_shifted(c, up) for c in p.children)
    return q


def _at(y: int, end: int, up: int, down: int) -> int:
    return y - up if y < end else y + down


# -- the look ---------------------------------------------------------------------------

def growth(boxes: list[Box]) -> tuple[int, int, int] | None:
    """(the grown list's recorded end, up, down) of a rendering whose dialog grew, from
    where its boxes lie against their views' recorded bounds; None where it did not."""
    if not boxes:
        return None
    root = boxes[0]
    up = root.view.bounds[1] - root.bounds[1]
    down = root.bounds[3] - root.view.bounds[3]
    if up == down == 0:
        return None
    for b in boxes:
        if b.list_key is not None and b.bounds[1] == b.view.bounds[1] - up \
                and b.bounds[3] == b.view.bounds[3] + down:
            return b.view.bounds[3], up, down
    return None


def grown_look(look: ScreenLook, g: tuple[int, int, int]) -> ScreenLook:
    """`look` with what it records moved as the boxes moved (`growth`'s `g`)."""
    end, up, down = g

    def rect(r: Rect) -> Rect:
        if r[3] <= end:
            return (r[0], r[1] - up, r[2], r[3] - up)
        if r[1] >= end:
            return (r[0], r[1] + down, r[2], r[3] + down)
        return (r[0], r[1] - up, r[2], r[3] + down)

    def mark(m: Mark) -> Mark:
        return replace(m, bounds=rect(m.bounds), ink=rect(m.ink))

    def lst(v: ListLook) -> ListLook:
        b = v.bounds
        bounds = (b[0], b[1] - up, b[2], b[3] + down) if b[3] == end else rect(b)
        return replace(v, bounds=bounds, items=tuple(
            replace(it, bounds=rect(it.bounds)) for it in v.items))

    return replace(look, marks=tuple(mark(m) for m in look.marks),
                   lists=tuple(lst(v) for v in look.lists),
                   varying=tuple(rect(r) for r in look.varying),
                   gauges=tuple(Gauge(rect(x.bounds), rect(x.follows), x.bg, x.variants)
                                for x in look.gauges))


def grown_window(window: Rect, g: tuple[int, int, int] | None) -> Rect:
    """A dialog's recorded `window` (its card) as it lies once grown (`growth`'s `g`):
    its top moved up, its bottom down."""
    if g is None:
        return window
    _, up, down = g
    return (window[0], window[1] - up, window[2], window[3] + down)


def window_paints(look: ScreenLook, root: Box, g: tuple[int, int, int],
                  size: tuple[int, int], paints: list[Paint]) -> list[Paint]:
    """The paints of a grown dialog: its recorded window (`root`'s view) cut at the
    list's end, the part above moved up, the part below down, the space between filled
    as the list shows it (its background, the window's sides beside it); then `paints`
    (composed on `grown_look`), their cuts of the plate taken from where the plate has
    what they show."""
    end, up, down = g
    plate = look.plate
    x1, y1, x2, y2 = root.view.bounds
    if look.window is not None:
        # The card the recording shows, not the window's margin round it (the screen
        # under it, dimmed, as recorded: moved, it would show that screen out of place;
        # the screen under it as shown now shows there instead, `page._under`).
        wx1, wy1, wx2, wy2 = look.window
        x1, y1, x2, y2 = max(x1, wx1), max(y1, wy1), min(x2, wx2), min(y2, wy2)
    lst = next((v for v in look.lists if v.bounds[3] == end), None)
    lx1, lt, lx2 = (max(x1, lst.bounds[0]), lst.bounds[1], min(x2, lst.bounds[2])) \
        if lst else (x1, y1, x2)
    out = [Paint((x1, y1 - up, x2, end - up), image=plate, image_size=size, origin=(0, -up)),
           Paint((x1, end + down, x2, y2 + down), image=plate, image_size=size,
                 origin=(0, down))]
    g1, g2 = end - up, end + down
    if lx1 < lx2:
        out.append(Paint((lx1, g1, lx2, g2), color=lst.bg if lst else "#ffffff"))
    band = max(1, end - lt)
    for a, b in ((x1, lx1), (lx2, x2)):
        if a >= b:
            continue
        at = g1
        while at < g2:  # the window's side beside the list, repeated down the space
            out.append(Paint((a, at, b, min(g2, at + band)), image=plate, image_size=size,
                             origin=(0, at - lt)))
            at += band
    for p in paints:
        if p.image == plate:
            src = p.rect[1] - p.origin[1]  # where the cut lies on the moved look
            dy = -up if src < g1 else down if src >= g2 else 0
            p = replace(p, origin=(p.origin[0], p.origin[1] + dy))
        out.append(p)
    return out
