"""Pixels of screen rectangles the browser drew before, by what draws in them.

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

The pixels are kept in a least-recently-used store of at most `limit` bytes.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable

import numpy as np

from phoneworld.runtime.layers import PageLayers

Rect = tuple[int, int, int, int]

LIMIT = 96 << 20
"""Bytes of pixels kept (about 3 whole 1080x2400 screens' worth of RGBA)."""


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


class Regions:
    """A bounded store of captured pixels by (page head, rectangle, divs that meet it)."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self._store: OrderedDict[Hashable, np.ndarray] = OrderedDict()
        self._bytes = 0
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(pl: PageLayers, rect: Rect, clear: bool) -> Hashable:
        """What decides the pixels a page `pl` shows in `rect`: its head, the divs that
        draw something there, in paint order (each div with its position), and its
        recorded pixels unless it is drawn without them on a `clear` (transparent)
        background."""
        under = () if clear else (pl.plate, pl.paints)
        return (pl.head, clear, under, rect,
                tuple(lay.key for lay in pl.layers if not lay.blank and meets(lay.rect, rect)))

    def get(self, key: Hashable) -> np.ndarray | None:
        """The pixels kept for `key` (read-only), or None."""
        got = self._store.get(key)
        if got is None:
            self.misses += 1
            return None
        self.hits += 1
        self._store.move_to_end(key)
        return got

    def put(self, key: Hashable, pixels: np.ndarray) -> None:
        """Keep a copy of `pixels` for `key`, dropping the least recently used past
        the limit."""
        if pixels.nbytes > self.limit:
            return
        old = self._store.pop(key, None)
        if old is not None:
            self._bytes -= old.nbytes
        kept = pixels.copy()
        kept.flags.writeable = False
        self._store[key] = kept
        self._bytes += kept.nbytes
        while self._bytes > self.limit:
            _, gone = self._store.popitem(last=False)
            self._bytes -= gone.nbytes

    def __len__(self) -> int:
        return len(self._store)
