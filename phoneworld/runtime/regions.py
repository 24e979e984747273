"""Where a rendered box may draw: a list's rows inside all the list's ancestors, as
Android clips a view's children to it.

A native app's dump gives each view its visible bounds, already inside its parents';
but a web page's nodes (a WebView's accessibility tree) keep bounds past the WebView's
end, under the browser's toolbar, and the mock lays out rows where the recording had
none (a flow's lines, a grown list). Such a row keeps its bounds (the dump and the
element list show them, as a recording does) but draws only inside its region:

    rs = regions(boxes)     # per box: where it may draw
    rs[i]                   # (x1, y1, x2, y2); EVERYWHERE outside lists

A list's rows (and all inside them) draw inside the bounds of every ancestor of the list
that clips (the list's own bounds cut them already, `render`): the app's views, the
WebView among them, but not a web page's nodes inside it (HTML lets an element show
past its parent: a drop-down's menu under its field), nor an ancestor with no area (a
zero-width wrapper the recording shows children of). Views outside lists are drawn
where the recording had them, and so are the views inside a row, wherever the mock's
template puts them in it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from phoneworld.runtime.render import Box

Rect = tuple[int, int, int, int]

EVERYWHERE: Rect = (-(1 << 30), -(1 << 30), 1 << 30, 1 << 30)
WEB_VIEW = "WebView"
"""How a WebView's class name ends (`android.webkit.WebView`, a browser's own)."""


def regions(boxes: list[Box]) -> list[Rect]:
    """Each box's region (see the module docstring), for `boxes` in document order."""
    n = len(boxes)
    out: list[Rect] = [EVERYWHERE] * n
    inside: list[Rect] = [EVERYWHERE] * n  # the clipping ancestors' bounds intersected
    web = [False] * n  # inside a WebView
    for i, b in enumerate(boxes):
        a = inside[i]
        x1, y1, x2, y2 = b.bounds
        if x1 < x2 and y1 < y2 and not web[i]:
            a = (max(a[0], x1), max(a[1], y1), min(a[2], x2), min(a[3], y2))
        rows = inside[i] if b.list_key is not None else out[i]
        page = web[i] or b.cls.endswith(WEB_VIEW)
        for c in b.children:
            inside[c] = a
            out[c] = rows
            web[c] = page
    return out


def inside(r: Rect, q: Rect) -> bool:
    """Whether rectangle `r` lies inside `q`."""
    return q[0] <= r[0] and q[1] <= r[1] and r[2] <= q[2] and r[3] <= q[3]


def within(r: Rect, region: Rect) -> Rect | None:
    """`r` cut to `region`, or None where nothing of it is left."""
    got = (max(r[0], region[0]), max(r[1], region[1]), min(r[2], region[2]),
           min(r[3], region[3]))
    return got if got[0] < got[2] and got[1] < got[3] else None
