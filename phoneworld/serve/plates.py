"""Recorded plates prepared ahead: decoded and PNG-encoded once per process, off the
request path, so that a screen's first screenshot costs neither.

    PLATES.prepare(assets.get, plates_of(spec), 1080, 2400)    # a background thread
    f = PLATES.get("3f2a9c0e5b7d1a4c.webp", 1080, 2400)       # a compact frame, or None
    f = PLATES.take(assets.get, "3f2a...webp", 1080, 2400)    # not prepared yet: now
    f.png()              # the plate's PNG, from bands encoded ahead: nothing deflated
    f.rows(400, 600)     # those rows inflated from their bands (0.2 ms a band of 32)

A first visit to a recorded screen used to decode its plate (a WebP: 10-15 ms of CPU at
1080x1920, more on a loaded machine) and deflate it whole (8-12 ms) before anything was
drawn on it. Here one thread, at the lowest CPU priority, does both for every plate of
an app when the app is served (`Screenshotter.prepare`), P0 screens first, and keeps
only the PNG bands (`Frame.compact`: 0.3-0.7 MB a 1080x1920 plate, not its 6 MB of
pixels), within `MEMORY` MB for the whole process (an app of 100 recorded states at
1080x1920: 35-70 MB), least recently used dropped first. A screen shown as recorded is
then served from its bands as they are; where something is drawn over it, only the
bands it touches are inflated (none where it covers them whole: a list's rows laid
anew) and deflated again. A compact frame's bands are those `Frame(pixels).png()`
gives, and its rows those pixels: the same decoding (`decode_image`) makes both.

A screenshot that needs a plate before the background reached it does not wait for it
(that thread runs at the lowest priority): it prepares it itself (`take`: decoded and
encoded once, in its own thread), keeps it here for later screenshots, and the
background skips its job. Such a first visit costs the decoding and the deflating
(20-30 ms of CPU at 1080x1920) once per process.

A dialog's frames are laid on the screen under it dimmed whole, its window cut from
the dialog's own recording laid on that (`Recorded.dimmed`): for each screen a
transition opens a dialog over, that ground is prepared too, dimmed by the dialog's
scrim with the dialog's window on it (`plates_of`), so that a dialog's first frame
neither decodes, dims nor deflates a whole screen, nor inflates the rows of two images
(the dimmed screen's and the dialog's) to lay the window: only the rows that its texts
and paints change are inflated, from one. A dialog's grounds keep their pixels too
(`Plates.decoded`: half as many megabytes again), so that a first frame inflates
nothing of them (a card grown past the recorded window relays most of its rows).
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from phoneworld.runtime.cache import LRU, megabytes
from phoneworld.serve.frame import Frame, decode_rgb, scrimmed

MEMORY = 64
"""Megabytes of encoded plates the process keeps ($PHONEWORLD_PLATES_MB sets it; 0: none
prepared)."""
MEMORY_ENV = "PHONEWORLD_PLATES_MB"

Assets = Callable[[str], "bytes | None"]
Window = tuple[str, tuple[int, int, int, int]]
"""A dialog's window laid on a dimmed ground: the dialog's plate, and the rectangle (x1,
y1, x2, y2) of it laid there, where it lies on that plate."""
Job = tuple[str, str, "Window | None"]
"""What `Plates.prepare` prepares: a plate, the scrim colour (#rrggbbaa) it is dimmed by
or "", and the dialog window laid on it or None."""
_Key = tuple[str, int, int, str, "Window | None"]


def decode_image(data: bytes, w: int, h: int) -> np.ndarray:
    """A recorded image's bytes as w x h RGB pixels, stretched as the page stretches it
    where it has another size (the one decoding both the painter and `Plates` use)."""
    img = decode_rgb(data)
    if img.shape[:2] != (h, w):
        from PIL import Image

        img = np.asarray(Image.fromarray(np.ascontiguousarray(img)).resize(
            (w, h), Image.Resampling.BILINEAR))
    return img


def plate_names(spec: Any) -> list[str]:
    """The plates of `spec`'s recorded look (none without one), P0 screens' first, each
    once, in a stable order."""
    look = getattr(spec, "look", None)
    if look is None:
        return []
    rank = {s.name: s.priority for s in spec.screens}
    out: list[str] = []
    for name in sorted(look.screens, key=lambda n: (rank.get(n, "P9"), n)):
        plate = look.screens[name].plate
        if plate not in out:
            out.append(plate)
    return out


def plates_of(spec: Any) -> list[Job]:
    """What to prepare for `spec`: (plate, "", None) for each of its plates
    (`plate_names`), then (plate, scrim colour, None) for each screen a transition opens
    a dialog over, and for the start screen under each dialog (where `Machine.jump`
    puts a screen by default: a task or a replay that starts on a dialog) (its plate
    dimmed as the dialog dims it: the ground a dialog's frames are laid on), then
    (plate, scrim colour, window) for each such pair (that ground with the dialog's
    window, cut from the dialog's plate, laid on it: where its frames start from while
    its window is where the recording has it)."""
    out: list[Job] = [(name, "", None) for name in plate_names(spec)]
    if not out:
        return out
    looks = spec.look.screens
    pairs = [(t.screen, t.target) for t in getattr(spec, "transitions", ())]
    start = getattr(spec, "start", None)
    pairs += [(start, name) for name in sorted(looks)]
    dims: set[Job] = set()
    windows: set[Job] = set()
    for below, above in pairs:
        under, dialog = looks.get(below), looks.get(above)
        if under is not None and dialog is not None and dialog.window is not None \
                and dialog.scrim > 0 and below != above:
            color = f"#000000{round(dialog.scrim * 255):02x}"
            dims.add((under.plate, color, None))
            windows.add((under.plate, color, (dialog.plate, tuple(dialog.window))))
    return out + sorted(dims) + sorted(windows)


class Plates:
    """Encoded plates, by (asset name, width, height), prepared by one background thread
    (see the module docstring). Asset names are content hashes: one name is one image,
    whichever app or painter asks."""

    def __init__(self, limit: int) -> None:
        self.kept: LRU[Frame] = LRU(limit, weigh=lambda f: f.nbytes)
        self.decoded: LRU[np.ndarray] = LRU(limit // 2, weigh=lambda a: a.nbytes)
        """The pixels of dialogs' grounds prepared (read-only), within half as many
        bytes again, the last prepared first kept: a dialog's first frame lays its window
        and texts on rows it would otherwise inflate (50-80 bands of two images where
        its card grew past the recorded window: activitylauncher's language list)."""
        self._queue: queue.Queue[tuple[Assets, _Key]] = queue.Queue()
        self._queued: set[_Key] = set()
        self._running: _Key | None = None
        """What the background thread is preparing now."""
        self._taken: set[_Key] = set()
        """What callers are preparing now (`take`): the background skips it."""
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        self.cpu = 0.0
        """CPU seconds the preparing thread has spent (decoding, deflating)."""
        self.prepared = 0
        """Plates prepared so far."""
        self.taken_cpu = 0.0
        """CPU seconds spent preparing plates that screenshots needed first (`take`)."""

    def get(self, name: str, w: int, h: int, color: str = "",
            window: Window | None = None) -> Frame | None:
        """A frame of plate `name` at w x h (dimmed by `color`, #rrggbbaa, where one is
        given, and `window` laid on it where one is) with its PNG bands encoded and no
        pixels yet (its rows are inflated where read or changed; a dialog's ground with
        its pixels where `decoded` keeps them), or None where it is not prepared."""
        key = (name, w, h, color, window)
        f = self.kept.get(key)
        if f is None:
            return None
        px = self.decoded.get(key) if color else None
        # (Its own: rows inflated are not kept here; decoded ones shared, read-only.)
        return f.compact() if px is None else f.with_pixels(px)

    def take(self, assets: Assets, name: str, w: int, h: int) -> Frame | None:
        """Plate `name` at w x h for a screenshot that needs it now, where it is not
        prepared yet: decoded and encoded in the caller's thread, at its priority, not
        left behind the queue (its job there dropped: the background does not prepare
        it again), and kept for later callers. A loaded frame of its own (its pixels,
        and the bands the kept one shares), or None where none is kept (no memory), the
        background is preparing it this moment (the caller decodes its own), or it
        cannot be read."""
        key: _Key = (name, w, h, "", None)
        if self.kept.limit <= 0:
            return None
        with self._lock:
            if key == self._running or key in self._taken:
                return None
            self._taken.add(key)
        t = time.thread_time()
        f: Frame | None = None
        try:
            got = self.kept.get(key)
            if got is not None:
                return got.compact()
            data = assets(name)
            if data is None:
                return None
            f = Frame(decode_image(data, w, h))
            f.encode()
            self.kept.put(key, f.compact())
        except Exception:  # noqa: BLE001 - unreadable: the painter says so when drawing
            f = None
        finally:
            with self._idle:
                self.taken_cpu += time.thread_time() - t
                self._taken.discard(key)
                self._queued.discard(key)  # (the background skips it: done, or unreadable)
                self._idle.notify_all()
        return f

    def prepare(self, assets: Assets, jobs: Iterable[Job], w: int, h: int) -> None:
        """Have the background thread decode and encode each (name, colour, window) of
        `jobs` (`plates_of`: the image `assets` gives, at w x h, dimmed by the colour
        where there is one, the window laid on it where there is one), in order, unless
        kept or queued already."""
        if self.kept.limit <= 0:
            return
        with self._lock:
            for name, color, window in jobs:
                key: _Key = (name, w, h, color, window)
                if key not in self._queued and self.kept.get(key) is None:
                    self._queued.add(key)
                    self._queue.put((assets, key))
            if self._queued and (self._thread is None or not self._thread.is_alive()):
                self._thread = threading.Thread(target=self._run, daemon=True,
                                                name="phoneworld-plates")
                self._thread.start()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until every plate asked for is prepared (or found unreadable); False
        where `timeout` seconds passed first."""
        end = None if timeout is None else time.monotonic() + timeout
        with self._idle:
            while self._queued:
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._idle.wait(left)
        return True

    def _run(self) -> None:
        try:  # the lowest priority: a screenshot asked for now comes first
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        except (AttributeError, OSError):  # pragma: no cover - not Linux
            pass
        while True:
            try:
                assets, key = self._queue.get(timeout=1.0)
            except queue.Empty:
                with self._lock:
                    if self._queue.empty():
                        self._thread = None
                        return
                continue
            t = time.thread_time()
            with self._lock:
                if key in self._taken:  # a screenshot needed it first (`take`)
                    continue
                if key not in self._queued or self.kept.get(key) is not None:
                    self._queued.discard(key)
                    self._idle.notify_all()
                    continue
                self._running = key
            try:
                got = self._encoded(assets, *key)
                if got is not None:
                    self.kept.put(key, got.compact())
                    if key[3]:  # a dialog's ground: its pixels too, where they fit
                        px = got.pixels
                        px.flags.writeable = False
                        self.decoded.put(key, px)
                    self.prepared += 1
            except Exception:  # noqa: BLE001 - unreadable: the painter says so when drawing
                pass
            finally:
                self.cpu += time.thread_time() - t
                with self._idle:
                    self._running = None
                    self._queued.discard(key)
                    self._idle.notify_all()

    @staticmethod
    def _encoded(assets: Assets, name: str, w: int, h: int, color: str,
                 window: Window | None) -> Frame | None:
        data = assets(name)
        if data is None:
            return None
        px = decode_image(data, w, h)
        if color:
            px = scrimmed(px, color)
        if window is not None:
            top = assets(window[0])
            if top is None:
                return None
            x1, y1, x2, y2 = window[1]
            px = np.array(px)  # (its own: a decoded image may be read-only)
            px[y1:y2, x1:x2] = decode_image(top, w, h)[y1:y2, x1:x2]
        return Frame(px)


def memory_budget() -> int:
    """The plates' byte budget: $PHONEWORLD_PLATES_MB megabytes, else `MEMORY`."""
    return megabytes(MEMORY_ENV, MEMORY, "the prepared plates' memory", 64)


PLATES = Plates(memory_budget())
"""The process's prepared plates."""
