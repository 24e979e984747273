"""A browser window's pixels as Chromium's screencast sends them, each frame marked.

`Page.captureScreenshot` asks Chromium for a redraw and then copies the frame drawn
after it: two of its 60 Hz frames, 20-35 ms of wall however small the window, whether
or not anything changed. A screencast (`Page.startScreencast`) sends each frame as it
is drawn, the first after a change one frame later (10-15 ms). So a window the painter
scrolls and captures whole casts, and a capture is the first frame sent that shows the
window's last change:

    cast = Cast(tab, cdp, (1080, 256))  # a window that size, and `MARK` columns more
    script += ";" + cast.bump()         # each change of its document marks it anew
    px = cast.pixels()                  # the first frame showing that mark, or None

A frame carries no number that ties it to a change, so the window shows one: a square
`MARK` app pixels wide right of the phone (`capture` lays the phone on the window's
left), its colour the count of the window's changes, set by the same DevTools
evaluation that changes the document; a frame sent before a change shows the count
before it, and one whose mark is the window's count shows every change made before it.

A screencast frame of a page on a transparent background holds premultiplied colour
(PNG's is straight): it is divided back here where the frame is neither clear nor
opaque. Opaque frames are byte for byte a capture's; transparent ones, laid over
recorded pixels, come within a few levels of a capture laid there (Chromium's
screencast rounds its colours by its own path).
"""

from __future__ import annotations

import asyncio
import base64
import time
from typing import Any

import numpy as np

from phoneworld.serve.frame import decode_png

MARK = 8
"""App pixels right of the phone where a casting window shows its mark."""
WAIT = 1.0
"""Seconds to wait for a marked frame before the caller captures the window instead."""
_ID = "pw-mark"


class Cast:
    """The screencast of one browser window (a Playwright page and its CDP session) of
    `view` = (width, height) app pixels plus the mark's `MARK` on the right, and the
    count of its changes. A frame of another size (the view resized for a capture of
    the whole page) is no frame of the window."""

    def __init__(self, tab: Any, cdp: Any, view: tuple[int, int]) -> None:
        self.tab = tab
        self.cdp = cdp
        self.width, self.height = view
        self.count = 0
        """Changes made to the window's document so far (its mark's colour)."""
        self.frame: str | None = None
        """The newest frame sent (base64 PNG)."""
        self.last: tuple[int, np.ndarray] | None = None
        """The count and pixels of the last frame read."""
        self._arrived: asyncio.Future[None] | None = None
        cdp.on("Page.screencastFrame", self._sent)
        cdp.send("Page.startScreencast", {"format": "png", "everyNthFrame": 1})

    def _sent(self, event: dict[str, Any]) -> None:
        self.frame = event["data"]
        if self._arrived is not None and not self._arrived.done():
            self._arrived.set_result(None)
        self.cdp.send("Page.screencastFrameAck", {"sessionId": event["sessionId"]})

    def element(self, zoom: float) -> str:
        """The mark, as the document's last element (its colour: the count now, which
        `bump` raised already for this document)."""
        side = MARK / zoom
        return (f'<div id="{_ID}" style="position:fixed;right:0;top:0;width:{side:.6f}px;'
                f'height:{side:.6f}px;background:{_colour(self.count)}"></div>')

    def bump(self) -> str:
        """A script that sets the mark to a new count (run with the change it marks)."""
        self.count += 1
        return f"document.getElementById('{_ID}').style.background='{_colour(self.count)}'"

    def pixels(self, wait: float = WAIT) -> np.ndarray | None:
        """The window's pixels (the app's `width`, straight alpha where not opaque) in
        the first frame sent that shows the last change, or None where none came
        within `wait` seconds."""
        if self.last is not None and self.last[0] == self.count:
            return self.last[1]
        end = time.monotonic() + wait
        while True:
            data, self.frame = self.frame, None
            if data is not None:
                px = decode_png(base64.b64decode(data))
                if px.shape[:2] == (self.height, self.width + MARK) and \
                        mark_count(px, self.width) == self.count:
                    got = straight(px[:, :self.width])
                    got.flags.writeable = False
                    self.last = (self.count, got)
                    return got
            left = end - time.monotonic()
            if left < 0:
                return None
            self._next(left)

    def _next(self, wait: float) -> None:
        """Wait until a frame is sent or `wait` seconds pass: on Playwright's own event
        loop where its sync API lets a wait run there (no polling), else a millisecond
        at a time (the driver delivers the frames meanwhile)."""
        run, loop = getattr(self.cdp, "_sync", None), getattr(self.cdp, "_loop", None)
        if run is None or loop is None:
            self.tab.wait_for_timeout(1)
            return
        self._arrived = loop.create_future()
        try:
            run(asyncio.wait([self._arrived], timeout=wait))
        finally:
            self._arrived = None


def _colour(count: int) -> str:
    return f"#{count & 0xFFFFFF:06x}"


def mark_count(px: np.ndarray, width: int) -> int:
    """The count a frame's mark shows (-1 where it is not opaque: no mark there)."""
    r, g, b, *a = (int(v) for v in px[MARK // 2, width + MARK // 2])
    return -1 if a and a[0] != 255 else (r << 16 | g << 8 | b)


def straight(px: np.ndarray) -> np.ndarray:
    """A frame's pixels with premultiplied colour divided back by alpha where it is
    neither clear nor opaque (opaque frames, RGB, as they are)."""
    if px.shape[2] == 3:
        return np.ascontiguousarray(px)
    out = px.copy()
    a = px[..., 3]
    at = np.nonzero((a > 0) & (a < 255))
    if at[0].size:
        part = a[at].astype(np.uint32)[:, None]
        out[at[0], at[1], :3] = np.minimum(
            255, (px[at[0], at[1], :3].astype(np.uint32) * 255 + part // 2) // part)
    return out
