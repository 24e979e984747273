"""Rendered screens kept under what they show, so that a screen met again is not re-rendered.

A screen's rendering is a pure function of the app's data and the top of the back stack:

    (State.version, screen, parameter, typed texts, scroll offsets, focus, answer)
        -> Rendering: its boxes, and the element list, XML and HTML made from them once

`screen_key` builds that key and `RenderCache` keeps the renderings used last. An agent
loop meets the same screens in the same data again and again (every episode starts from
the reset data, and `State.version` comes back to the same number when the same writes
are replayed), so most steps find their screen here and cost no rendering at all; the
profile of a step without it is 80% `render_boxes`. A rendering in the cache is shared
by every outcome that shows that screen: its forms must not be mutated (like
`State.rows`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from phoneworld.runtime.render import Frame, Rendering

SIZE = 128
"""Renderings kept per machine (each holds a few tens of KB once its XML is read)."""


def frozen(v: Any) -> Hashable:
    """`v` as a hashable key that tells apart what renders differently: rows (dicts) and
    lists by content, scalars with their type (1, 1.0 and True display differently)."""
    if isinstance(v, dict):
        return (dict, tuple((k, frozen(x)) for k, x in v.items()))
    if isinstance(v, (list, tuple)):
        return (type(v), tuple(frozen(x) for x in v))
    return (type(v), v)


def screen_key(version: int, frame: Frame, answer: str | None) -> Hashable:
    """What the rendering of `frame`'s screen depends on (see the module docstring)."""
    param = frame.param_key
    if param is None:  # a frame's parameter never changes: freeze it once
        param = frame.param_key = (frozen(frame.param), frame.param_table)
    focus = frame.focus
    return (version, frame.screen, param, tuple(frame.inputs.items()),
            tuple(frame.scroll.items()), None if focus is None else frozen(focus),
            None if answer is None else (type(answer), answer))


class RenderCache:
    """The `size` renderings used last, by `screen_key` (least recently used goes first)."""

    __slots__ = ("size", "_items", "hits", "misses")

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Rendering] = OrderedDict()
        self.hits = self.misses = 0

    def get(self, key: Hashable) -> Rendering | None:
        try:
            r = self._items.get(key)
        except TypeError:  # an unhashable value in a parameter: not cached
            r = None
        if r is None:
            self.misses += 1
            return None
        self.hits += 1
        self._items.move_to_end(key)
        return r

    def put(self, key: Hashable, r: Rendering) -> None:
        """Keep `r` (its boxes computed) under `key`."""
        items = self._items
        try:
            items[key] = r
        except TypeError:
            return
        items.move_to_end(key)
        if len(items) > self.size:
            items.popitem(last=False)

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
