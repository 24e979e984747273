"""Browser pages that show a painter's pages and capture their pixels (see `painter`).

A capture waits for Chromium's next frames: two at 60 Hz for a clip, however small and
however long after the change it is asked for (the clip is set by emulation and drawn
anew), one or two for a window captured whole. So pages are shown in a window the app's
width and `WINDOW` rows high, scrolled to each clip and captured whole (a clip higher
than the window in a window up to four times as high, where one capture of it costs
less than the bands of the low one; a whole page from beyond the window); a page of the same
head is changed by patching its divs, not set anew (`Capturer.show`), and the recorded
pixels are laid and the base frame (8 MB at 1080x2400) copied by another thread while
the capture waits (`while_capturing`).

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
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any, TypeVar

import numpy as np

from phoneworld.runtime.layers import FRAME_WIDTH, Layer, PageLayers
from phoneworld.serve.frame import Frame, decode_png
from phoneworld.serve.regions import CLIP_COST, phone_style

Rect = tuple[int, int, int, int]
T = TypeVar("T")

WINDOW = 256
"""App rows a browser window shows (the page is scrolled to each clip and the window
captured whole): Chromium captures a window in one or two frames (a clip of a larger
window, set by emulation, waits for two however small), and encodes few more pixels
than a clip has. A clip higher than the window is captured band by band; a whole page
beyond the window (`captureBeyondViewport`); clips that a window this high would take
in several bands, in a window up to `2 ** TALLER` times as high (`Capturer.window_rows`)."""
TALLER = 2
"""How many times a page's window may double for clips higher than `WINDOW` (a 443-row
text field: one capture of 512 rows, not two bands; a list whose rows all moved, 967
rows: one of 1024, not four)."""
OPEN_AFTER = 24
"""Clips a taller window would capture in fewer captures than the page's open windows
before the page opens it: opening one (a browser context, its renderer, its first
document) costs Chromium 0.3 to 1.5 s of CPU, about what two dozen extra captures of
a band cost (11 ms or more each), so a taller window is opened only where tall clips
recur, and until then they are captured band by band in the windows open (a rental
bought once it would have paid for itself). The first window is opened when needed."""
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
class Window:
    """One browser window of a page size, and what it shows."""

    cdp: Any
    frame_id: str
    view: tuple[int, int]
    """Its size in app pixels (the app's width; at most the app's height)."""
    doc: str = ""
    scroll: int | None = None
    """Where it is scrolled to (app pixels from the top; None: not known)."""
    head: str = ""
    divs: tuple[Layer, ...] | None = None
    """The phone's children in the document, where known (a page set by `show`)."""


@dataclass
class Page:
    """One page size (and background), shown in browser windows of one or more heights,
    and what was drawn there."""

    size: tuple[int, int]
    transparent: bool
    windows: dict[int, Window] = field(default_factory=dict)
    """The windows made so far, by height (app rows)."""
    wanted: dict[int, int] = field(default_factory=dict)
    """How many times each height not made yet would have been the cheapest window for
    the clips asked for (`OPEN_AFTER`)."""
    shown: Window | None = None
    """The window the page was last shown in: captures come from it."""
    pending: tuple[PageLayers, Frame] | None = None
    """A whole capture whose regions are not kept yet (the page, its frame)."""
    recent: list[tuple[Any, PageLayers, Frame]] = field(default_factory=list)
    """The last frames drawn here (newest last): what each was laid on (a plate and its
    paints, or the page's head and recorded pixels), the page it shows, the frame."""


def window_tops(clips: Sequence[Rect], rows: int, height: int) -> list[int]:
    """Where a window `rows` high is scrolled to (app rows at its top), capture by
    capture, to capture `clips` of a page `height` rows high: a clip higher than the
    window band by band, clips that one window holds from one capture."""
    tops: list[int] = []
    for _, y1, _, y2 in clips:
        for y in range(y1, y2, rows):
            end = min(y2, y + rows)
            if not tops or not tops[-1] <= y < end <= tops[-1] + rows:
                tops.append(max(0, min(y, height - rows)))
    return tops


class Capturer:
    """The browser pages of one painter, one per page size, and what they captured.

    A page is shown in a window `window` rows high, or, for clips that one would capture
    in several bands, in one `2 ** k` times as high (`k <= taller`; below the page's
    height) where that costs fewer captures for the pixels (`window_rows`): a window
    is made when first used (a browser context: 0.2 to 1 s, once), a taller one once
    clips that want it have recurred (`open_after`, `OPEN_AFTER`), and each keeps its
    own document, patched when shown.

    Args:
        browser: a Playwright `Browser`.
        route: answers the pages' requests (`Screenshotter._answer`).
        origin: the URL the pages lie at.
        window: app rows a browser window shows; 0: the whole page, each part captured
            as a clip (two of Chromium's frames a clip; for comparison).
        taller: how many times a window may double for tall clips (0: never).
        open_after: how many times a page's clips must want a taller window not yet
            opened before it is (0 or 1: the first time).
    """

    def __init__(self, browser: Any, route: Callable[[Any], None], origin: str,
                 window: int, taller: int = TALLER, open_after: int = OPEN_AFTER) -> None:
        self.browser = browser
        self.route = route
        self.origin = origin
        self.window = window
        self.taller = taller
        self.open_after = open_after
        self.pages: dict[tuple[int, int, bool], Page] = {}
        self.captured = 0
        """App pixels captured from the browser so far (a measure of its work)."""

    def page(self, width: int, height: int, transparent: bool) -> Page:
        key = (width, height, transparent)
        page = self.pages.get(key)
        if page is None:
            page = self.pages[key] = Page((width, height), transparent)
        return page

    def heights(self, height: int) -> list[int]:
        """The heights of the windows a page `height` rows high is shown in: `window`
        and its doublings below `height` (`taller` at most), or the page's own."""
        if not self.window or self.window >= height:
            return [height]
        return [self.window << k for k in range(self.taller + 1)
                if k == 0 or self.window << k < height]

    def window_rows(self, page: Page, clips: Sequence[Rect]) -> int:
        """The height of the window to capture `clips` of `page` in: of `window` and
        its doublings, the one whose captures cost least (each `CLIP_COST` screens'
        worth of pixels, and its pixels), the lowest where they tie; but a taller
        window not opened yet only once clips have wanted it `open_after` times: until
        then the cheapest of those open (the lowest, where none is)."""
        height = page.size[1]
        heights = self.heights(height)

        def cheapest(among: Sequence[int]) -> int:
            best, rows = None, among[0]
            for h in among:
                n = len(window_tops(clips, h, height)) if clips else 1
                cost = n * (CLIP_COST + h / height)
                if best is None or cost < best - 1e-9:
                    best, rows = cost, h
            return rows

        rows = cheapest(heights)
        if rows in page.windows or rows == heights[0] or self.open_after <= 1:
            return rows
        page.wanted[rows] = page.wanted.get(rows, 0) + 1
        if page.wanted[rows] >= self.open_after:
            return rows
        if not page.windows:
            return heights[0]  # the first window: the lowest, which most clips fit
        opened = [h for h in heights if h in page.windows]
        return cheapest(opened) if opened else rows

    def open(self, page: Page) -> None:
        """Open `page`'s first window (the lowest) now, if it has none: a browser context
        costs Chromium 0.3 to 1.5 s of CPU, better spent once, before the screenshots a
        caller waits for, than on the first of them to need it."""
        if not page.windows:
            self._window(page, self.heights(page.size[1])[0])

    def _window(self, page: Page, rows: int) -> Window:
        win = page.windows.get(rows)
        if win is None:
            # The window is the app's width (the phone is laid out at its own height,
            # whatever the window's: `_set`), and `rows` high.
            view = (page.size[0], rows)
            ctx = self.browser.new_context(viewport={"width": view[0], "height": view[1]},
                                           device_scale_factor=1, is_mobile=False,
                                           has_touch=True, java_script_enabled=False)
            p = ctx.new_page()
            p.route(f"{self.origin}**", self.route)
            p.goto(self.origin)
            cdp = ctx.new_cdp_session(p)
            if page.transparent:
                cdp.send("Emulation.setDefaultBackgroundColorOverride",
                         {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
            frame = cdp.send("Page.getFrameTree")["frameTree"]["frame"]["id"]
            win = page.windows[rows] = Window(cdp, frame, view)
        return win

    def _pick(self, page: Page, clips: Sequence[Rect]) -> Window:
        """The window to show `page` in for `clips` (none: the one it was last shown in)."""
        if not clips and page.shown is not None:
            return page.shown
        win = page.shown = self._window(page, self.window_rows(page, clips))
        return win

    def show(self, page: Page, pl: PageLayers, html: str, size: tuple[int, int],
             clips: Sequence[Rect] = ()) -> None:
        """Show `html`, a page whose phone holds `pl.layers` alone, in the window for
        `clips` (`window_rows`): by patching the divs that differ from those the window
        shows, where it shows a page of the same head (a new document costs Chromium 20
        to 30 ms of CPU, however little changed). The window is scrolled to the first
        clip by the same evaluation."""
        win = self._pick(page, clips)
        at = clips[0][1] if clips else None
        if win.doc == html:
            return
        shown, style = phone_style(win.head)
        head, new_style = phone_style(pl.head)
        if win.divs is None or shown != head:
            self._set(win, html, size, at)
            win.head, win.divs = pl.head, pl.layers
            return
        ops = SequenceMatcher(None, [x.key for x in win.divs], [x.key for x in pl.layers],
                              autojunk=False).get_opcodes()
        edits = [[i1, i2, "".join(x.div for x in pl.layers[j1:j2])]
                 for tag, i1, i2, j1, j2 in reversed(ops) if tag != "equal"]
        script = _PATCH % json.dumps(edits) if edits else ""
        if style != new_style:
            # Screens of one app differ in the phone's style alone (each its accent).
            script += _RESTYLE % json.dumps(html_lib.unescape(new_style))
        scroll, top = self.scrolling(win, at, size)
        script += scroll
        if any("<img" in e[2] for e in edits):
            # New images load and decode after the patch: one evaluation waits for them.
            win.cdp.send("Runtime.evaluate", {"expression": f"{script};{DECODED}",
                                              "awaitPromise": True})
        elif script:
            win.cdp.send("Runtime.evaluate", {"expression": script})
        win.scroll = top if top is not None else win.scroll
        win.head = pl.head
        win.doc, win.divs = html, pl.layers

    def set(self, page: Page, html: str, size: tuple[int, int]) -> None:
        """Show `html` (a page not in the painter's shape) as a new document."""
        self._set(self._pick(page, []), html, size)

    def _set(self, win: Window, html: str, size: tuple[int, int],
             at: int | None = None) -> None:
        if win.doc == html:
            return
        win.divs = None
        # The phone exactly as high as the app (the page rounds it to a CSS pixel),
        # so that its plate is drawn 1:1, as `_on_plate` lays it.
        zoom = size[0] / FRAME_WIDTH
        css = (f"html {{ zoom: {zoom:.9f}; }}\n.phone {{ height: {size[1] / zoom:.4f}px "
               "!important; }\n</style>")
        win.cdp.send("Page.setDocumentContent",
                     {"frameId": win.frame_id, "html": html.replace("</style>", css, 1)})
        win.doc, win.scroll = html, None
        if "<img" in html:
            # Images load and decode after the document is set: wait for them (a DevTools
            # evaluation, which runs with the page's own scripts off; it scrolls, too).
            scroll, top = self.scrolling(win, at, size)
            win.cdp.send("Runtime.evaluate", {"expression": f"{scroll};{DECODED}",
                                              "awaitPromise": True})
            win.scroll = top

    @staticmethod
    def scrolling(win: Window, at: int | None,
                  size: tuple[int, int]) -> tuple[str, int | None]:
        """The script that scrolls the window to show app row `at` as near its top as it
        can ("" where it does already), and the row then at its top (None: no `at`, or
        a window as high as the page)."""
        if at is None or win.view == size:
            return "", None
        top = max(0, min(at, size[1] - win.view[1]))
        return ("" if win.scroll == top else f";window.scrollTo(0, {top})"), top

    def png(self, page: Page, clip: Rect, size: tuple[int, int]) -> bytes:
        """The pixels in `clip` (app pixels) of the window `page` was last shown in, as
        Chromium's PNG: the whole page, or a part of it that the window holds."""
        win = page.shown
        assert win is not None
        x1, y1, x2, y2 = clip
        # optimizeForSpeed: faster zlib settings, a slightly larger PNG.
        params: dict[str, Any] = {"format": "png", "optimizeForSpeed": True}
        whole = clip == (0, 0, *size)
        if win.view != size and not whole:  # the window, scrolled there (`captures`)
            assert clip == (0, win.scroll, win.view[0], (win.scroll or 0) + win.view[1])
        else:  # a window as large as the page (any clip of it), or the page beyond one
            self.captured += (x2 - x1) * (y2 - y1)
            if not whole or win.view != size:
                params["clip"] = {"x": x1, "y": y1, "width": x2 - x1, "height": y2 - y1,
                                  "scale": 1}
                params["captureBeyondViewport"] = whole
        return base64.b64decode(win.cdp.send("Page.captureScreenshot", params)["data"])

    def scroll(self, win: Window, y: int, size: tuple[int, int]) -> int:
        """Scroll the window so that it shows app row `y` as near its top as it can;
        the row at its top."""
        script, top = self.scrolling(win, y, size)
        assert top is not None
        if script:
            win.cdp.send("Runtime.evaluate", {"expression": script})
            win.scroll = top
        return top

    def captures(self, page: Page, clips: list[Rect],
                 size: tuple[int, int]) -> list[np.ndarray]:
        """The pixels in each of `clips` (app pixels) of the window `page` was shown in
        for them (`show`): RGBA arrays, or RGB where a capture is opaque. A window as
        large as the page is clipped; a lower one is scrolled to each clip and captured
        whole (`window_tops`)."""
        win = page.shown
        assert win is not None
        if win.view == size:
            return [decode_png(self.png(page, c, size)) for c in clips]
        shown: tuple[int, np.ndarray] | None = None  # the last window captured
        out = []
        for x1, y1, x2, y2 in clips:
            bands = []
            for y in range(y1, y2, win.view[1]):
                end = min(y2, y + win.view[1])
                if shown is None or not shown[0] <= y < end <= shown[0] + win.view[1]:
                    top = self.scroll(win, y, size)
                    shown = top, decode_png(self.png(
                        page, (0, top, win.view[0], top + win.view[1]), size))
                top, img = shown
                bands.append(img[y - top:end - top, x1:x2])
            self.captured += (x2 - x1) * (y2 - y1)
            if len({b.shape[2] for b in bands}) > 1:  # some opaque, some not: all RGBA
                bands = [b if b.shape[2] == 4 else
                         np.dstack([b, np.full(b.shape[:2], 255, np.uint8)]) for b in bands]
            out.append(bands[0] if len(bands) == 1 else np.concatenate(bands))
        return out


def while_capturing(capturer: Capturer, job: Callable[[], T], page: Page,
                    clips: list[Rect], size: tuple[int, int]) -> tuple[T, list[np.ndarray]]:
    """What `job` returns, and the page's pixels in each of `clips`: `job` (the
    recorded pixels laid, a frame copied to draw on: 8 MB at 1080x2400, numpy copies
    without holding the GIL) runs in another thread while this one waits for
    Chromium's captures, each of which waits for its next frames however early it is
    asked for. Without clips, `job` runs here."""
    if not clips:
        return job(), []
    doing = copier().submit(job)
    try:
        imgs = capturer.captures(page, clips, size)
    finally:
        got = doing.result()
    return got, imgs


def copy_while(capturer: Capturer, frame: Frame, page: Page, clips: list[Rect],
               size: tuple[int, int]) -> tuple[Frame, list[np.ndarray]]:
    """A copy of `frame` to draw on, and the page's pixels in each of `clips`
    (`while_capturing`)."""
    return while_capturing(capturer, frame.copy, page, clips, size)


_COPIER: list[ThreadPoolExecutor] = []
_COPIER_LOCK = threading.Lock()


def copier() -> ThreadPoolExecutor:
    """The process's one thread that lays recorded pixels and copies frames for painters
    while their captures wait (`while_capturing`)."""
    with _COPIER_LOCK:
        if not _COPIER:
            _COPIER.append(ThreadPoolExecutor(1, thread_name_prefix="phoneworld-copy"))
        return _COPIER[0]
