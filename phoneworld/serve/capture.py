"""Browser pages that show a painter's pages and capture their pixels (see `painter`).

A capture waits for Chromium's next frames: two at 60 Hz for a clip, however small and
however long after the change it is asked for (the clip is set by emulation and drawn
anew), one or two for a window captured whole. So pages are shown in a window the app's
width and `WINDOW` rows high, scrolled to each clip and captured whole (a clip higher
than the window band by band, a whole page from beyond the window); a page of the same
head is changed by patching its divs, not set anew (`Capturer.show`), and the copy of
the base frame (8 MB at 1080x2400) is made by another thread while the capture waits
(`copy_while`).

Pages are laid out at `zoom` app-pixels per CSS pixel (not a mobile viewport's page
scale), the phone as high as the app whatever the window's height, so that a part of
the window in app pixels is the very pixels a whole capture has there (a clip scaled by
the page scale re-lays the page out). Every pixel captured comes from Chromium at the
device's size: nothing is scaled up.
"""

from __future__ import annotations

import base64
import html as html_lib
import json
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

import numpy as np

from phoneworld.runtime.layers import FRAME_WIDTH, Layer, PageLayers
from phoneworld.serve.frame import Frame, decode_png
from phoneworld.serve.regions import phone_style

Rect = tuple[int, int, int, int]

WINDOW = 256
"""App rows a browser window shows (the page is scrolled to each clip and the window
captured whole): Chromium captures a window in one or two frames (a clip of a larger
window, set by emulation, waits for two however small), and encodes few more pixels
than a clip has. A clip higher than the window is captured band by band; a whole page
beyond the window (`captureBeyondViewport`)."""
DECODED = "Promise.all(Array.from(document.images, i => i.decode().catch(() => 0)))"
"""Waits until a page's images are decoded (evaluated by DevTools: pages run no scripts)."""
_PATCH = """(() => {
  const phone = document.querySelector('.phone'), kids = Array.from(phone.children);
  for (const [i1, i2, html] of %s) {
    for (const k of kids.slice(i1, i2)) k.remove();
    if (!html) continue;
    if (kids[i2]) kids[i2].insertAdjacentHTML('beforebegin', html);
    else phone.insertAdjacentHTML('beforeend', html);
  }
})()"""
"""Replaces runs of the phone's children, last run first (so indexes stay true)."""
_RESTYLE = ";document.querySelector('.phone').setAttribute('style', %s)"
"""Sets the phone's own style (the page's zoom style overrides its height)."""


@dataclass
class Page:
    """One browser page at one window size, and what it shows."""

    cdp: Any
    frame_id: str
    view: tuple[int, int]
    """The window's size in app pixels (at most `WINDOW` high)."""
    doc: str = ""
    scroll: int | None = None
    """Where the window is scrolled to (app pixels from the top; None: not known)."""
    head: str = ""
    divs: tuple[Layer, ...] | None = None
    """The phone's children in the document, where known (a page set by `_show`)."""
    pending: tuple[PageLayers, Frame] | None = None
    """A whole capture whose regions are not kept yet (the page, its frame)."""
    recent: list[tuple[Any, PageLayers, Frame]] = field(default_factory=list)
    """The last frames drawn here (newest last): what each was laid on (a plate and its
    paints, or the page's head and recorded pixels), the page it shows, the frame."""


class Capturer:
    """The browser pages of one painter, one per window size, and what they captured.

    Args:
        browser: a Playwright `Browser`.
        route: answers the pages' requests (`Screenshotter._answer`).
        origin: the URL the pages lie at.
        window: app rows a browser window shows; 0: the whole page, each part captured
            as a clip (two of Chromium's frames a clip; for comparison).
    """

    def __init__(self, browser: Any, route: Callable[[Any], None], origin: str,
                 window: int) -> None:
        self.browser = browser
        self.route = route
        self.origin = origin
        self.window = window
        self.pages: dict[tuple[int, int, bool], Page] = {}
        self.captured = 0
        """App pixels captured from the browser so far (a measure of its work)."""

    def page(self, width: int, height: int, transparent: bool) -> Page:
        key = (width, height, transparent)
        page = self.pages.get(key)
        if page is None:
            # The window is the app's width (the phone is laid out at its own height,
            # whatever the window's: `set`), and at most `WINDOW` high.
            view = (width, min(height, self.window or height))
            ctx = self.browser.new_context(viewport={"width": view[0], "height": view[1]},
                                           device_scale_factor=1, is_mobile=False,
                                           has_touch=True, java_script_enabled=False)
            p = ctx.new_page()
            p.route(f"{self.origin}**", self.route)
            p.goto(self.origin)
            cdp = ctx.new_cdp_session(p)
            if transparent:
                cdp.send("Emulation.setDefaultBackgroundColorOverride",
                         {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
            frame = cdp.send("Page.getFrameTree")["frameTree"]["frame"]["id"]
            page = self.pages[key] = Page(cdp, frame, view)
        return page

    def show(self, page: Page, pl: PageLayers, html: str, size: tuple[int, int],
              at: int | None = None) -> None:
        """Show `html`, a page whose phone holds `pl.layers` alone: by patching the divs
        that differ from those the page shows, where it shows a page of the same head (a
        new document costs Chromium 20 to 30 ms of CPU, however little changed). The
        window is scrolled to app row `at` (the first clip) by the same evaluation."""
        if page.doc == html:
            return
        shown, style = phone_style(page.head)
        head, new_style = phone_style(pl.head)
        if page.divs is None or shown != head:
            self.set(page, html, size, at)
            page.head, page.divs = pl.head, pl.layers
            return
        ops = SequenceMatcher(None, [x.key for x in page.divs], [x.key for x in pl.layers],
                              autojunk=False).get_opcodes()
        edits = [[i1, i2, "".join(x.div for x in pl.layers[j1:j2])]
                 for tag, i1, i2, j1, j2 in reversed(ops) if tag != "equal"]
        script = _PATCH % json.dumps(edits) if edits else ""
        if style != new_style:
            # Screens of one app differ in the phone's style alone (each its accent).
            script += _RESTYLE % json.dumps(html_lib.unescape(new_style))
        scroll, top = self.scrolling(page, at, size)
        script += scroll
        if any("<img" in e[2] for e in edits):
            # New images load and decode after the patch: one evaluation waits for them.
            page.cdp.send("Runtime.evaluate", {"expression": f"{script};{DECODED}",
                                               "awaitPromise": True})
        elif script:
            page.cdp.send("Runtime.evaluate", {"expression": script})
        page.scroll = top if top is not None else page.scroll
        page.head = pl.head
        page.doc, page.divs = html, pl.layers

    def set(self, page: Page, html: str, size: tuple[int, int],
             at: int | None = None) -> None:
        if page.doc == html:
            return
        page.divs = None
        # The phone exactly as high as the app (the page rounds it to a CSS pixel),
        # so that its plate is drawn 1:1, as `_on_plate` lays it.
        zoom = size[0] / FRAME_WIDTH
        css = (f"html {{ zoom: {zoom:.9f}; }}\n.phone {{ height: {size[1] / zoom:.4f}px "
               "!important; }\n</style>")
        page.cdp.send("Page.setDocumentContent",
                      {"frameId": page.frame_id, "html": html.replace("</style>", css, 1)})
        page.doc, page.scroll = html, None
        if "<img" in html:
            # Images load and decode after the document is set: wait for them (a DevTools
            # evaluation, which runs with the page's own scripts off; it scrolls, too).
            scroll, top = self.scrolling(page, at, size)
            page.cdp.send("Runtime.evaluate", {"expression": f"{scroll};{DECODED}",
                                               "awaitPromise": True})
            page.scroll = top

    @staticmethod
    def scrolling(page: Page, at: int | None,
                   size: tuple[int, int]) -> tuple[str, int | None]:
        """The script that scrolls the window to show app row `at` as near its top as it
        can ("" where it does already), and the row then at its top (None: no `at`, or
        a window as high as the page)."""
        if at is None or page.view == size:
            return "", None
        top = max(0, min(at, size[1] - page.view[1]))
        return ("" if page.scroll == top else f";window.scrollTo(0, {top})"), top

    def png(self, page: Page, clip: Rect, size: tuple[int, int]) -> bytes:
        """The page's pixels in `clip` (app pixels) as Chromium's PNG: the whole page, or
        a part of it that the window holds."""
        x1, y1, x2, y2 = clip
        # optimizeForSpeed: faster zlib settings, a slightly larger PNG.
        params: dict[str, Any] = {"format": "png", "optimizeForSpeed": True}
        whole = clip == (0, 0, *size)
        if page.view != size and not whole:  # the window, scrolled there (`captures`)
            assert clip == (0, page.scroll, page.view[0], (page.scroll or 0) + page.view[1])
        else:  # a window as large as the page (any clip of it), or the page beyond one
            self.captured += (x2 - x1) * (y2 - y1)
            if not whole or page.view != size:
                params["clip"] = {"x": x1, "y": y1, "width": x2 - x1, "height": y2 - y1,
                                  "scale": 1}
                params["captureBeyondViewport"] = whole
        return base64.b64decode(page.cdp.send("Page.captureScreenshot", params)["data"])

    def scroll(self, page: Page, y: int, size: tuple[int, int]) -> int:
        """Scroll the window so that it shows app row `y` as near its top as it can;
        the row at its top."""
        script, top = self.scrolling(page, y, size)
        assert top is not None
        if script:
            page.cdp.send("Runtime.evaluate", {"expression": script})
            page.scroll = top
        return top

    def captures(self, page: Page, clips: list[Rect],
                  size: tuple[int, int]) -> list[np.ndarray]:
        """The page's pixels in each of `clips` (app pixels): RGBA arrays, or RGB where a
        capture is opaque. A window as large as the page is clipped; a smaller one is
        scrolled to each clip and captured whole (a clip higher than the window band by
        band, clips that one window holds from one capture)."""
        if page.view == size:
            return [decode_png(self.png(page, c, size)) for c in clips]
        shown: tuple[int, np.ndarray] | None = None  # the last window captured
        out = []
        for x1, y1, x2, y2 in clips:
            bands = []
            for y in range(y1, y2, page.view[1]):
                end = min(y2, y + page.view[1])
                if shown is None or not shown[0] <= y < end <= shown[0] + page.view[1]:
                    top = self.scroll(page, y, size)
                    shown = top, decode_png(self.png(
                        page, (0, top, page.view[0], top + page.view[1]), size))
                top, img = shown
                bands.append(img[y - top:end - top, x1:x2])
            self.captured += (x2 - x1) * (y2 - y1)
            if len({b.shape[2] for b in bands}) > 1:  # some opaque, some not: all RGBA
                bands = [b if b.shape[2] == 4 else
                         np.dstack([b, np.full(b.shape[:2], 255, np.uint8)]) for b in bands]
            out.append(bands[0] if len(bands) == 1 else np.concatenate(bands))
        return out


def copy_while(capturer: Capturer, frame: Frame, page: Page, clips: list[Rect],
               size: tuple[int, int]) -> tuple[Frame, list[np.ndarray]]:
    """A copy of `frame` to draw on, and the page's pixels in each of `clips`: the
    copy (8 MB at 1080x2400; numpy copies without holding the GIL) is made by
    another thread while this one waits for Chromium's captures, each of which
    waits for its next frames however early it is asked for."""
    if not clips:
        return frame.copy(), []
    copying = copier().submit(frame.copy)
    try:
        imgs = capturer.captures(page, clips, size)
    finally:
        f = copying.result()
    return f, imgs


_COPIER: list[ThreadPoolExecutor] = []
_COPIER_LOCK = threading.Lock()


def copier() -> ThreadPoolExecutor:
    """The process's one thread that copies frames for painters (`copy_while`)."""
    with _COPIER_LOCK:
        if not _COPIER:
            _COPIER.append(ThreadPoolExecutor(1, thread_name_prefix="phoneworld-copy"))
        return _COPIER[0]
