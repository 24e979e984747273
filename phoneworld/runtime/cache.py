"""Rendered screens kept under what they show, so that a screen met again is not re-rendered.

A screen's rendering is a pure function of the app, its data and the top of the back stack:

    (app, State.version, screen, parameter, typed texts, scroll offsets, focus, answer)
        -> Rendering: its boxes, and the element list, XML and HTML made from them once

`screen_key` builds that key and `RenderCache` keeps the renderings used last. An agent
loop meets the same screens in the same data again and again (every episode starts from
the reset data, and `State.version` comes back to the same number when the same writes
are replayed), so most steps find their screen here and cost no rendering at all; the
profile of a step without it is 80% `render_boxes`. One cache (`SHARED`) serves every
machine in the process, so its memory is bounded however many machines there are (a
server's sessions, a vector env's copies), and machines of one app share their screens.
A rendering in the cache is shared by every outcome that shows that screen: its forms
must not be mutated (like `State.rows`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from phoneworld.runtime.render import Frame, Rendering

SIZE = 512
"""Renderings kept in all (each holds 50-100 KB once its element list, XML and HTML are
read, so about 50 MB at most)."""


def frozen(v: Any) -> Hashable:
    """`v` as a hashable key that tells apart what renders differently: rows (dicts) and
    lists by content, scalars with their type (1, 1.0 and True display differently)."""
    if isinstance(v, dict):
        return (dict, tuple((k, frozen(x)) for k, x in v.items()))
    if isinstance(v, (list, tuple)):
        return (type(v), tuple(frozen(x) for x in v))
    return (type(v), v)


def screen_key(app: int, version: int, frame: Frame, answer: str | None) -> Hashable:
    """What the rendering of `frame`'s screen depends on (see the module docstring);
    `app` names the app (`Versions.app`), `version` its data."""
    param = frame.param_key
    if param is None:  # a frame's parameter never changes: freeze it once
        param = frame.param_key = (frozen(frame.param), frame.param_table)
    focus = frame.focus
    return (app, version, frame.screen, param, tuple(frame.inputs.items()),
            tuple(frame.scroll.items()), None if focus is None else frozen(focus),
            None if answer is None else (type(answer), answer))


class RenderCache:
    """The `size` renderings used last, by `screen_key` (least recently used goes first);
    safe to share between threads."""

    __slots__ = ("size", "_items", "_lock", "hits", "misses")

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Rendering] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: Hashable) -> Rendering | None:
        with self._lock:
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
        with self._lock:
            try:
                items[key] = r
            except TypeError:
                return
            items.move_to_end(key)
            old = items.popitem(last=False) if len(items) > self.size else None
        del old  # freed outside the lock

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


SHARED = RenderCache()
"""The cache every `Machine` uses unless given another."""
