"""A page at the device's pixel size, with the browser drawing as few pixels as it can.

Capturing a whole 1080x2400 page costs Chromium about 50 ms of CPU however little
changed (compositing, reading back and encoding 2.6 million pixels); a clip of it costs
in proportion to its area. So `Painter.draw` keeps the pixels it already has and asks
Chromium only for what they cannot give:

- On a recorded look (a plate), the plate and the paints on it are recorded pixels:
  they are decoded and laid down here (`recorded`); the page less them, on a
  transparent background, is set in the browser, and only the rectangles of the divs
  that draw something (texts, check marks) are captured and laid over them; a
  rectangle where only texts draw (`texts`: divs of the template's text classes, in
  faces this machine has) is drawn here instead, with no browser round trip at all.
  A plate prepared ahead (`plates`: decoded and encoded once per process, in the
  background) is drawn on as its PNG bands, only the bands a change touches inflated.
- Elsewhere (the Material look) the page is set whole and compared, div by div
  (`layers.page_layers`), with the one the page's last frame shows: only the
  rectangles of divs added, removed or changed are captured and pasted on a copy of
  that frame; a screen no recent frame shows is laid on the empty phone (captured
  once for all screens of one `regions.ground`: accents differ), only its divs that
  draw captured. A page of another shape, or one whose clips would cost more than a
  whole capture (`CLIP_COST`), is captured whole.

Either way a frame starts from whichever of the last few frames (`RECENT`) needs the
fewest pixels drawn (back on a screen, the frame that showed it), and a rectangle the
browser drew before with the same divs in it is taken from `regions` instead of being
captured again: only what was never drawn costs Chromium anything.

The browser's side, its pages shown and captured in a window `WINDOW` rows high (or
one up to four times as high, for a tall clip), is `capture`'s; the page is changed
first (Chromium lays it out while the recorded pixels are laid here, and captures while
another thread lays them). Every pixel of a result comes from Chromium at the device's
size, from a recording, or from FreeType at the device's size in Chromium's faces (texts
over a plate, within `tests/test_texts.py`'s tolerance of Chromium's): nothing is
scaled up.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np

from phoneworld.runtime.cache import LRU, megabytes
from phoneworld.runtime.layers import FRAME_WIDTH, PageLayers, page_layers
from phoneworld.serve.capture import WINDOW, Capturer, Page, copy_while, while_capturing
from phoneworld.serve.frame import Frame, over, tint
from phoneworld.serve.inks import Ink
from phoneworld.serve.recorded import Recorded
from phoneworld.serve.regions import (
    CLIP_COST,
    Regions,
    area,
    changed,
    cut,
    ground,
    join,
    meets,
    merge,
)
from phoneworld.serve.textdivs import text_div
from phoneworld.serve.texts import TextDrawer

Rect = tuple[int, int, int, int]

RECENT = 4
"""Frames kept per page size as bases for the next ones (8 MB each at 1080x2400)."""
MEMORY = 256
"""Megabytes of pixels a painter keeps by default ($PHONEWORLD_PAINTER_MB sets it): a
quarter for `regions`, the rest for decoded recorded images, plates with their paints
laid and empty phones (8 MB each at 1080x2400), least recently used dropped first. The
`RECENT` frames of each window size come on top (about 35 MB at 1080x2400)."""
MEMORY_ENV = "PHONEWORLD_PAINTER_MB"
_TAIL = "</div></body></html>"
"""What closes a page after the phone's divs (`layers`)."""


def small_pages() -> None:
    """Stop numpy advising the kernel to back large arrays with huge pages (unless
    $NUMPY_MADVISE_HUGEPAGE chooses): where Linux's transparent huge pages are "madvise"
    with defrag "madvise" (its default), each fresh 8 MB frame then waits while the
    kernel compacts memory, 10-50 ms of CPU a frame here (measured), more than drawing
    it takes. Process-wide; it changes no result."""
    if "NUMPY_MADVISE_HUGEPAGE" in os.environ:
        return
    try:
        from numpy._core.multiarray import _set_madvise_hugepage
    except ImportError:  # pragma: no cover - numpy < 2 names it numpy.core
        return
    _set_madvise_hugepage(False)


class Painter:
    """Draws pages of one browser at the device's size (see the module docstring).

    What it draws on (recorded images decoded, 7-21 ms a plate; plates with their paints
    laid; empty phones) and what the browser drew (`regions`) is kept within `memory`
    bytes (`MEMORY`): an app with more recorded screens than that holds decodes them
    again when it comes back to them.

    Args:
        browser: a Playwright `Browser`.
        route: answers the pages' requests (`Screenshotter._answer`).
        origin: the URL the pages lie at.
        assets: asset bytes by name (or None: pages without a look only).
        memory: bytes of pixels kept (default: $PHONEWORLD_PAINTER_MB, else `MEMORY` MB).
        window: app rows a browser window shows (None: `WINDOW`); 0: the whole page, each
            part captured as a clip (two of Chromium's frames a clip; for comparison).
        texts: draw the texts over plates here (`texts`), not in the browser, where
            fontconfig and the faces are there (False: every pixel from Chromium or a
            recording).
    """

    def __init__(self, browser: Any, route: Callable[[Any], None], origin: str,
                 assets: Callable[[str], bytes | None] | None, *,
                 memory: int | None = None, window: int | None = None,
                 texts: bool = True) -> None:
        small_pages()
        self.capture = Capturer(browser, route, origin, WINDOW if window is None else window)
        """The browser's pages, and what they captured (`capture`)."""
        self.assets = assets
        if memory is None:
            memory = memory_budget()
        self.regions = Regions(memory // 4)
        """What the browser drew in rectangles before (`regions`)."""
        self.kept: LRU[Frame | np.ndarray] = LRU(memory - memory // 4, weigh=_nbytes)
        """Decoded recorded images, plates (laid with their paints) and empty phones,
        by ("image" | "plate" | "painted" | "blank", ...)."""
        self.reused = 0
        """App pixels taken from `regions` instead of the browser so far."""
        self.recorded = Recorded(assets, self.kept)
        """The recorded images, decoded, and what is laid of them (`recorded`)."""
        self._sizes: set[tuple[int, int]] = set()
        """Page sizes whose windows are open (`draw`)."""
        self.texts = TextDrawer.system() if texts else None
        """What draws texts over plates here, not in the browser (None: the browser
        draws every div)."""
        self.drawn = 0
        """App pixels of texts over plates drawn here instead of by the browser so far."""

    @property
    def captured(self) -> int:
        """App pixels captured from the browser so far (a measure of its work)."""
        return self.capture.captured

    def draw(self, html: str, width: int, height: int, *, png: bool = True) -> Frame:
        """`html` (a page of a `width` x `height` app) as a frame of that many pixels;
        with `png`, one that will be PNG-encoded (a plate's rows are then inflated only
        where drawn on; the frames drawn on one plate share its encoded bands)."""
        if (width, height) not in self._sizes:
            # Both pages of a size open at its first frame (a screen on its plate is
            # drawn in the see-through one, any other in the opaque one): a session's
            # first state change does not wait for the other's browser context.
            self._sizes.add((width, height))
            for transparent in (True, False):
                self.capture.open(self.capture.page(width, height, transparent))
        pl = page_layers(html, (width, height))
        if pl is not None and pl.plate:
            # (A dialog's frame starts from the screen under it: its own plate, which
            # that screen covers, is never decoded.)
            # (A plate `plates` prepared is served from its PNG bands as they are where
            # nothing is drawn over it: its pixels are decoded only where read.)
            name = self.recorded.ground(pl.plate, pl.paints, (width, height))
            base = self.recorded.plate(name, width, height, load=not png)
            if base is not None:
                f = self._on_plate(pl, base, width, height, png)
                # (Weighed again: rows of a compact plate may have been inflated.)
                self.recorded.settle()
                return f
        return self._changed(pl, html, width, height)

    # -- the two ways ------------------------------------------------------------------------

    def _on_plate(self, pl: PageLayers, base: Frame, width: int, height: int,
                  png: bool) -> Frame:
        key = (pl.plate, width, height, pl.paints)
        page = self.capture.page(width, height, transparent=True)
        size = (width, height)
        # From the recent frame on these paints that needs the fewest pixels drawn, or
        # from the paints alone: the divs that changed laid anew, each rectangle first
        # restored to the paints.
        # (Texts drawn here are drawn only for the way chosen.)
        last, rects = None, [lay.rect for lay in pl.layers if not lay.blank]
        best = self._reuse(pl, rects, size, clear=True, draw=False)
        for laid, was, frame in reversed(page.recent):
            if laid == key:
                diff = changed(was.layers, pl.layers)
                got = self._reuse(pl, diff, size, clear=True, draw=False)
                if _cost(got) < _cost(best):
                    last, rects, best = frame, diff, got
        hits, clips, misses = self._reuse(pl, rects, size, clear=True)
        if clips:
            # The page first: Chromium lays out and rasters the new divs in its own
            # processes while the recorded pixels are laid here.
            self.capture.show(page, pl, pl.overlay(), size, clips)

        def recorded() -> tuple[Frame, Frame] | None:
            # The recorded pixels: laid (by another thread while Chromium captures the
            # clips), and the frame to draw on copied. Frames are never changed once
            # drawn: a plate without paints is its own.
            painted = self.recorded.painted(pl, base, key) if pl.paints else base
            if painted is None:
                return None
            start = last or painted
            return painted, (start.copy() if hits or clips else start)

        got, imgs = while_capturing(self.capture, recorded, page, clips, size)
        if got is None:
            # An image that cannot be read: the browser draws the page whole.
            return self._changed(None, pl.html, width, height)
        painted, f = got
        self.reused += sum(area([r]) for r, _ in hits)
        # (A frame copied from the paints shows them but where something was laid on
        # it: a rectangle is restored only there, not whole.)
        laid: list[Rect] | None = None if last is not None else []
        for r, img in [*hits, *zip(clips, imgs, strict=True)]:
            restore = [r] if laid is None else [_inside_of(r, q) for q in laid if meets(r, q)]
            boxes = self._lay_over(f, painted, r, img, restore)
            if laid is not None:
                laid.extend(boxes)
        for c, img in zip(clips, imgs, strict=True):
            self._keep_regions(pl, misses, c, img, clear=True)
        _remember(page, key, pl, f)
        return f

    def _changed(self, pl: PageLayers | None, html: str, width: int, height: int) -> Frame:
        page = self.capture.page(width, height, transparent=False)
        if page.recent and page.recent[-1][1].html == html:
            return page.recent[-1][2]
        size = (width, height)
        if page.pending is not None:  # the last whole capture's regions, kept now
            was, f = page.pending
            page.pending = None
            self._keep_regions(was, cut([lay.rect for lay in was.layers if not lay.blank],
                                        size), (0, 0, width, height), f.pixels, clear=False)
        # From the recent frame of this head (and recorded pixels, where a plate the
        # painter cannot read is drawn by the browser) that needs the fewest pixels drawn.
        under = None if pl is None else (pl.head, pl.plate, pl.paints)
        last: Frame | None = None
        hits: list[tuple[Rect, np.ndarray]] = []
        clips: list[Rect] = []
        misses: list[Rect] = []
        for laid, was, frame in reversed(page.recent):
            if pl is not None and laid == under:
                got = self._reuse(pl, changed(was.layers, pl.layers), size, clear=False)
                if last is None or _cost(got) < _cost((hits, clips)):
                    last, (hits, clips, misses) = frame, got
        if pl is not None and not pl.plate and not pl.paints:
            # Or from the empty phone (captured once for all screens that share it): a
            # screen never drawn before costs the browser only the divs that draw.
            blank = self._blank(page, pl, size, need=last is None)
            if blank is not None:
                got = self._reuse(pl, [lay.rect for lay in pl.layers if not lay.blank],
                                  size, clear=False)
                if last is None or _cost(got) < _cost((hits, clips)):
                    last, (hits, clips, misses) = blank, got
        if last is None or len(clips) * CLIP_COST + area(clips) / (width * height) \
                > CLIP_COST + 1:
            if pl is None:
                self.capture.set(page, html, size)
            else:
                self.capture.show(page, pl, html, size)
            f = Frame.from_png(self.capture.png(page, (0, 0, width, height), size))
            if pl is not None:
                # Its divs' rectangles are kept for later pages when the next page comes
                # (which mostly decodes this frame anyway): a PNG asked for now is
                # Chromium's, never decoded.
                page.pending = (pl, f)
        else:
            assert pl is not None
            if clips:
                self.capture.show(page, pl, html, size, clips)
            f, imgs = last, []
            if hits or clips:
                f, imgs = copy_while(self.capture, last, page, clips, size)
            self.reused += sum(area([r]) for r, _ in hits)
            for r, img in hits:
                f.paste(r[0], r[1], img)
            for c, img in zip(clips, imgs, strict=True):
                f.paste(c[0], c[1], img)
                self._keep_regions(pl, misses, c, img, clear=False)
        if pl is None:
            page.recent.clear()
        else:
            _remember(page, under, pl, f)
        return f

    def _blank(self, page: Page, pl: PageLayers, size: tuple[int, int],
               need: bool) -> Frame | None:
        """The empty phone of `pl`'s page (its head, no divs), captured whole once per
        `ground` and size where `need`ed (None where not kept and not needed)."""
        key = ("blank", ground(pl.head), size)
        f = self.kept.get(key)
        if f is None and need:
            html = pl.html[:pl.cut[0]] + _TAIL
            empty = page_layers(html, size)
            assert empty is not None and not empty.layers
            self.capture.show(page, empty, html, size)
            f = Frame.from_png(self.capture.png(page, (0, 0, *size), size))
            f.pixels  # noqa: B018 - decoded once, not by each frame drawn on it
            self.kept.put(key, f)
        assert f is None or isinstance(f, Frame)
        return f

    @staticmethod
    def _lay_over(f: Frame, painted: Frame, r: Rect, img: np.ndarray | list[Ink],
                  restore: list[Rect]) -> list[Rect]:
        """Lay `img` (the overlay's pixels in `r`, or the inks of its texts drawn here) on
        `f`, the rectangles `restore` (in `r`) first restored to `painted`: `f` may hold
        overlay pixels there already (an older frame's, or a rectangle laid before that
        meets this one), which the see-through overlay must not be laid over twice. A
        see-through overlay is blended and pasted only in the box of its pixels not clear
        (a line of text in a list row's rectangle), inks each in its box. The rectangles
        where it laid pixels (the next ones restore them where they meet)."""
        if not isinstance(img, list) and img.shape[2] != 4:
            f.paste(r[0], r[1], img)  # (the bands of only the rows that change go stale)
            return [r]
        for q in restore:
            f.paste(q[0], q[1], painted.rows(q[1], q[3])[q[1]:q[3], q[0]:q[2]])
        if isinstance(img, list):
            out = []
            for ink in img:
                h, w = ink.pixels.shape[:2]
                x, y = ink.x, ink.y
                under = painted.rows(y, y + h)[y:y + h, x:x + w]
                f.paste(x, y, over(under, ink.pixels) if ink.color is None
                        else tint(under, ink.pixels, ink.color))
                out.append((x, y, x + w, y + h))
            return out
        alpha = img[..., 3]
        rows = np.flatnonzero(alpha.any(axis=1))
        if not rows.size:
            return []
        cols = np.flatnonzero(alpha[rows[0]:rows[-1] + 1].any(axis=0))
        y1, y2, x1, x2 = int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1
        x, y = r[0] + x1, r[1] + y1
        under = painted.rows(y, r[1] + y2)[y:r[1] + y2, x:r[0] + x2]
        f.paste(x, y, over(under, img[y1:y2, x1:x2]))
        return [(x, y, r[0] + x2, r[1] + y2)]

    # -- regions drawn before ----------------------------------------------------------------

    def _reuse(self, pl: PageLayers, rects: list[Rect], size: tuple[int, int],
               clear: bool, draw: bool = True
               ) -> tuple[list[tuple[Rect, np.ndarray | list[Ink]]], list[Rect], list[Rect]]:
        """Of the rectangles where `pl` differs from the last frame: those drawn before
        or drawn here (`texts`: over a plate, where only texts draw), with their pixels,
        the clips to capture for the others, and the others. Without `draw`, what would
        be drawn here is not (its inks: none), for weighing ways."""
        hits: list[tuple[Rect, np.ndarray | list[Ink]]] = []
        misses: list[Rect] = []
        for r in cut(rects, size):
            key = self.regions.key(pl, r, clear)
            got = self.regions.get(key)
            if got is None and clear and self.texts is not None:
                # (Not kept in `regions`: from the glyphs the drawer keeps, its inks cost
                # a few slices.)
                got = self._texts_in(pl, r, size, draw)
            if got is None:
                misses.append(r)
            else:
                hits.append((r, got))
        return hits, join(merge(misses, size), size), misses

    def _texts_in(self, pl: PageLayers, r: Rect, size: tuple[int, int],
                  draw: bool = True) -> list[Ink] | None:
        """What the see-through overlay of `pl` shows in `r`, drawn here (`texts`: the
        inks of its texts) where every div that draws there is a text; else None (the
        browser draws it)."""
        assert self.texts is not None
        divs = []
        for lay in pl.layers:
            if not lay.blank and meets(lay.rect, r):
                t = text_div(lay.div)
                if t is None:
                    return None
                divs.append(t)
        if not draw:
            return []
        got = self.texts.inks(divs, r, size[0] / FRAME_WIDTH)
        if got is not None:
            self.drawn += area([r])
        return got

    def _keep_regions(self, pl: PageLayers, rects: list[Rect], clip: Rect, img: np.ndarray,
                      clear: bool) -> None:
        """Keep what `img` (captured in `clip`) shows in each of `rects` inside it."""
        x0, y0, x3, y3 = clip
        for r in rects:
            if x0 <= r[0] and y0 <= r[1] and r[2] <= x3 and r[3] <= y3:
                self.regions.put(self.regions.key(pl, r, clear),
                                 img[r[1] - y0:r[3] - y0, r[0] - x0:r[2] - x0])

def memory_budget() -> int:
    """The painter's byte budget: $PHONEWORLD_PAINTER_MB megabytes, else `MEMORY`."""
    return megabytes(MEMORY_ENV, MEMORY, "the painter's memory", 256)


def _nbytes(v: Frame | np.ndarray) -> int:
    return v.nbytes


def _cost(got: tuple[Any, ...]) -> int:
    """What drawing a frame costs: pixels captured, and (far cheaper) pixels reused."""
    hits, clips = got[0], got[1]
    return 8 * area(clips) + area([r for r, _ in hits])


def _inside_of(r: Rect, q: Rect) -> Rect:
    """The part of `q` inside `r` (they meet)."""
    return (max(r[0], q[0]), max(r[1], q[1]), min(r[2], q[2]), min(r[3], q[3]))


def _remember(page: Page, base: Any, pl: PageLayers, f: Frame) -> None:
    """Keep `f` (showing `pl`, laid on `base`) as the page's newest recent frame."""
    kept = [r for r in page.recent if r[1].html != pl.html]
    page.recent = [*kept[max(0, len(kept) - RECENT + 1):], (base, pl, f)]
