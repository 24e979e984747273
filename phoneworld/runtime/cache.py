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

`LRU`, the store under `RenderCache`, bounds by entries or by bytes; the screenshot
painter keeps its pixels in it too (`serve.regions`, `serve.painter`).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from phoneworld.errors import PhoneworldError
from phoneworld.runtime.render import Frame, Rendering

V = TypeVar("V")

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


class LRU(Generic[V]):
    """A least-recently-used store of at most `limit` units, each value weighing what
    `weigh` says (1 by default: `limit` entries; `nbytes`: a byte budget); safe to share
    between threads. A value heavier than the whole limit is not kept, and a key that
    cannot be hashed (an unhashable parameter) is neither found nor kept."""

    __slots__ = ("limit", "weigh", "_items", "_lock", "weight", "hits", "misses")

    def __init__(self, limit: int, weigh: Callable[[V], int] | None = None) -> None:
        self.limit = limit
        self.weigh = weigh
        self._items: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.weight = 0
        """What the values kept weigh together."""
        self.hits = self.misses = 0

    def get(self, key: Hashable) -> V | None:
        """The value kept under `key` (now the most recently used), or None."""
        with self._lock:
            try:
                got = self._items.get(key)
            except TypeError:
                got = None
            if got is None:
                self.misses += 1
                return None
            self.hits += 1
            self._items.move_to_end(key)
            return got[0]

    def put(self, key: Hashable, value: V) -> None:
        """Keep `value` under `key` (weighed now: put it again when it grew), dropping
        the least recently used values past the limit."""
        w = 1 if self.weigh is None else self.weigh(value)
        gone: list[tuple[V, int]] = []
        with self._lock:
            try:
                old = self._items.pop(key, None)
            except TypeError:
                return
            if old is not None:
                self.weight -= old[1]
            if w > self.limit:
                return
            self._items[key] = (value, w)
            self.weight += w
            while self.weight > self.limit:
                gone.append(self._items.popitem(last=False)[1])
                self.weight -= gone[-1][1]
        del gone  # freed outside the lock

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.weight = 0

    def __len__(self) -> int:
        return len(self._items)


class RenderCache(LRU[Rendering]):
    """The `size` renderings used last, by `screen_key` (least recently used goes first);
    safe to share between threads."""

    def __init__(self, size: int = SIZE) -> None:
        super().__init__(size)

    @property
    def size(self) -> int:
        return self.limit


SHARED = RenderCache()
"""The cache every `Machine` uses unless given another."""


def megabytes(env: str, default: float, what: str, example: int) -> int:
    """A cache's byte budget: `$env` in megabytes, else `default`; a value that is not a
    number of megabytes is an error naming the variable and `what` it bounds."""
    got = os.environ.get(env, "").strip()
    try:
        mb = float(got) if got else default
    except ValueError:
        raise PhoneworldError(f"${env} is {got!r}: give {what} in megabytes, "
                              f"e.g. {example}") from None
    if mb < 0:
        raise PhoneworldError(f"${env} is {got!r}: megabytes cannot be negative")
    return int(mb * (1 << 20))
