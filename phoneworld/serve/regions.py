"""Screen rectangles: where two pages differ, how to clip them, and the pixels the
browser drew in them before, by what draws there.

    changed(before.layers, after.layers)   # rectangles of the divs added, removed, changed
    join(merge(rects, size), size)         # the clips to capture them in

A page's phone is a stack of divs, each clipped to its own rectangle (`layers`), so what
the browser draws in a rectangle depends on the page's head (its styles, the phone's
background) and on the divs that meet the rectangle, and on nothing else. Agents come
back to screens and states all the time (back, a switch flipped twice, every episode's
start screen), so the painter keeps what it captured by that key and asks the browser
only for rectangles it has not seen drawn so:

    regions = Regions()
    key = regions.key(pl, rect, clear=False)  # pl: `layers.PageLayers`
    regions.put(key, pixels)          # what a capture showed there (a copy is kept)
    regions.get(key)                  # those pixels again, or None

The pixels are kept in a least-recently-used store (`runtime.cache.LRU`) of at most
`limit` bytes.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from difflib import SequenceMatcher

import numpy as np

from phoneworld.runtime.cache import LRU
from phoneworld.runtime.layers import Layer, PageLayers

Rect = tuple[int, int, int, int]

CLIP_COST = 0.25
"""What one capture costs Chromium however small (about 11 ms of CPU), in screens' worth
of pixels (a whole 1080x2400 capture costs about 40 ms more than a tiny one): clips are
joined where that captures fewer pixels than it saves in captures, and a page is
captured whole where that costs less than its clips."""
GAP = 24
"""App pixels between two clips under which they are captured as one."""
MAX_CLIPS = 12
"""The most clips one page is captured in."""
LIMIT = 64 << 20
"""Bytes of pixels kept (about six 1080x2400 RGBA screens)."""


_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_CUSTOM = re.compile(r"--[\w-]+\s*:[^;]*;?")
_GROUND = re.compile(r"\bhtml\b|\bbody\b|\.phone\b|:root|\*")
"""Selectors that reach the page itself, not only the divs on the phone."""


def phone_style(head: str) -> tuple[str, str]:
    """A page's head less the phone's style attribute, and that attribute's value (the
    head ends with the phone's opening tag, its style last)."""
    i = head.rfind(' style="')
    if i < 0 or not head.endswith('">'):
        return head, ""
    return head[:i], head[i + len(' style="'):-len('">')]


def ground(head: str) -> str:
    """What an empty phone's pixels depend on, of a page's `head`: the head less the
    custom properties (`--accent`) set on the phone, where no rule for the page itself
    (html, body, the phone) reads one. A custom property paints nothing by itself, only
    through a `var()` that reads it, so screens of one app in different accents have one
    empty phone."""
    bare, style = phone_style(head)
    if "var(" in style or any("var(" in body and _GROUND.search(sel)
                              for sel, body in _RULE.findall(bare)):
        return head
    return f"{bare} {_CUSTOM.sub('', style)}"


def meets(a: Rect, b: Rect) -> bool:
    """Whether two rectangles (x1, y1, x2, y2) share a pixel."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def cut(rects: list[Rect], size: tuple[int, int]) -> list[Rect]:
    """`rects` cut to a `size` = (width, height) screen, the empty ones and repeats
    dropped, in order."""
    w, h = size
    out: dict[Rect, None] = {}
    for x1, y1, x2, y2 in rects:
        r = (max(0, x1), max(0, y1), min(w, x2), min(h, y2))
        if r[0] < r[2] and r[1] < r[3]:
            out[r] = None
    return list(out)


class Regions(LRU[np.ndarray]):
    """A store of captured pixels by (page head, rectangle, divs that meet it), of at
    most `limit` bytes, least recently used dropped first."""

    def __init__(self, limit: int = LIMIT) -> None:
        super().__init__(limit, weigh=lambda px: px.nbytes)

    @staticmethod
    def key(pl: PageLayers, rect: Rect, clear: bool) -> Hashable:
        """What decides the pixels a page `pl` shows in `rect`: its head, the divs that
        draw something there, in paint order (each div with its position), and its
        recorded pixels unless it is drawn without them on a `clear` (transparent)
        background."""
        under = () if clear else (pl.plate, pl.paints)
        return (pl.head, clear, under, rect,
                tuple(lay.key for lay in pl.layers if not lay.blank and meets(lay.rect, rect)))

    def put(self, key: Hashable, value: np.ndarray) -> None:
        """Keep a read-only copy of `value` (pixels) for `key`."""
        if value.nbytes <= self.limit:
            kept = value.copy()
            kept.flags.writeable = False
            super().put(key, kept)


def area(rects: list[Rect]) -> int:
    """Pixels in `rects` (overlaps counted twice)."""
    return sum((r[2] - r[0]) * (r[3] - r[1]) for r in rects)


def changed(before: tuple[Layer, ...], after: tuple[Layer, ...]) -> list[Rect]:
    """The rectangles where two pages' layers differ: those of the divs one page draws
    and the other does not, or draws in another order."""
    a = [lay for lay in before if not lay.blank]
    b = [lay for lay in after if not lay.blank]
    out: list[Rect] = []
    ops = SequenceMatcher(None, [x.key for x in a], [x.key for x in b], autojunk=False)
    for tag, i1, i2, j1, j2 in ops.get_opcodes():
        if tag != "equal":
            out.extend(x.rect for x in a[i1:i2])
            out.extend(x.rect for x in b[j1:j2])
    return out


def merge(rects: list[Rect], size: tuple[int, int], gap: int = GAP,
          most: int = MAX_CLIPS) -> list[Rect]:
    """`rects` cut to the screen and joined where they overlap or lie within `gap` of
    each other (then the two topmost joined until at most `most` remain), sorted."""
    w, h = size
    todo = sorted((max(0, x1), max(0, y1), min(w, x2), min(h, y2)) for x1, y1, x2, y2 in rects)
    out: list[Rect] = []
    while True:
        out = []
        for r in todo:
            if r[0] >= r[2] or r[1] >= r[3]:
                continue
            for i, o in enumerate(out):
                if r[0] - gap <= o[2] and o[0] - gap <= r[2] and \
                        r[1] - gap <= o[3] and o[1] - gap <= r[3]:
                    out[i] = _union(o, r)
                    break
            else:
                out.append(r)
        if len(out) == len(todo):
            break
        todo = sorted(out)
    out.sort(key=lambda r: (r[1], r[0]))
    while len(out) > most:
        out[:2] = [_union(out[0], out[1])]
    return sorted(out)


def join(clips: list[Rect], size: tuple[int, int], cost: float = CLIP_COST) -> list[Rect]:
    """`clips` (apart, as `merge` gives them) with pairs joined into their bounding box
    while that adds fewer pixels than `cost` screens' worth (what a capture costs),
    the pair that adds fewest first; sorted."""
    out = list(clips)
    limit = cost * size[0] * size[1]
    while len(out) > 1:
        extra, i, j = min((area([_union(a, b)]) - area([a]) - area([b]), i, j)
                          for i, a in enumerate(out) for j, b in enumerate(out) if i < j)
        if extra > limit:
            break
        u = _union(out[i], out[j])
        out = merge([u, *(c for k, c in enumerate(out) if k not in (i, j))], size, gap=0)
    return sorted(out)


def _union(a: Rect, b: Rect) -> Rect:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
