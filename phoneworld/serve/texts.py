"""Texts over a recorded plate, drawn in this process: no browser round trip.

On a screen drawn over its recorded plate, what changes with the state is mostly text
(a row's label, a typed word, a counter): `page.render_html` writes each as a div of
the template's `.x` classes with one `<span>` in it (`textdivs` reads them). Chromium
lays such a div out by rules simple enough to follow here (a flex box that centres one
block; one line cut with an ellipsis, lines wrapped and clamped, or one line showing its
end), so the painter draws them with FreeType (Pillow, HarfBuzz-shaped through raqm) in
the faces Chromium would pick, and asks the browser only for divs of any other kind:

    t = text_div(layer.div)           # None: not such a div (the browser draws it)
    drawer = TextDrawer.system()      # None: fontconfig or a face is missing
    drawer.draw(frame, t, zoom)       # the text laid over the frame's pixels
    drawer.inks([t, ...], rect, zoom) # or what texts draw in rect, as boxes of ink (`inks`)

The faces come from `faces.FONTS`, resolved through fontconfig as Chromium does: each
character from the first family that has its glyph (a combining mark from its letter's
where that has it; `fonts` chooses them). Right-to-left texts (Arabic, Hebrew) and texts
with combining marks are laid out as Chromium lays them: a line's runs ordered by the
Unicode bidirectional algorithm (`bidi`: FriBiDi, a left-to-right paragraph, as the page
sets none), each shaped by raqm in its direction; where raqm or FriBiDi is missing
(`complex_support` says why; the painter's first drawer logs which way it went), and
where a right-to-left line must be cut with an ellipsis or shows its end in a field, the
browser draws them. A text with a character no family has, or one this module does not
follow (emoji, controls and bidi embeddings), is not drawn here. Glyphs are Chromium's
faces at Chromium's sizes; their rasterisation (hinting, antialiasing) is FreeType's
own, so a text differs from Chromium's capture by a few levels at glyph edges, and a
line cut with an ellipsis may end a character earlier or later (`tests/test_texts.py`
measures both on the shared traces).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

import numpy as np

from phoneworld.runtime.cache import LRU
from phoneworld.runtime.chars import wide
from phoneworld.runtime.faces import FONTS, Face, cmap, families, pick, system_faces, vertical
from phoneworld.runtime.fonts import Fonts, is_mark, is_rtl, kept
from phoneworld.serve import bidi
from phoneworld.serve.inks import Box, Ink, Rect, apart, ink_box, laid
from phoneworld.serve.textdivs import DEFAULT_COLOR, LINE_HEIGHT, TextDiv, complex_text

ELLIPSIS = "\u2026"
WHOLE_MASK = 1080 * 400
"""App pixels of a text's box up to which its coverage is drawn whole (`TextDrawer.rgba`)."""
WARM_WEIGHTS = (400, 500, 700)
"""Weights whose faces a drawer reads ahead, in the background (`TextDrawer._read_maps`)."""
MASKS = 16 << 20
"""Bytes of glyph coverages a drawer keeps (`TextDrawer.mask`): a few thousand texts."""

_log = logging.getLogger("phoneworld.serve")


def complex_support() -> str | None:
    """Why right-to-left and complex-script texts cannot be drawn here (raqm or FriBiDi
    missing), or None where they can."""
    try:
        from PIL import features
    except ImportError:
        return "no Pillow"
    if not features.check("raqm"):
        return "Pillow without raqm"
    if not features.version("fribidi") or not bidi.available():
        return "no FriBiDi (libfribidi0)"
    return None


class TextDrawer:
    """Draws `TextDiv`s in the faces `fonts` resolves to among `faces`."""

    _SYSTEM: list[TextDrawer | None] = []
    _LOCK = threading.Lock()

    def __init__(self, faces: list[Face], fonts: str = FONTS,
                 complex_scripts: bool | None = None) -> None:
        self.faces = faces
        self.fonts = Fonts(faces, fonts)
        """The faces its texts' characters are drawn in, and their fonts (`fonts`)."""
        self.complex = complex_support() is None if complex_scripts is None \
            else complex_scripts
        """Whether right-to-left texts and texts with combining marks are drawn here
        (raqm shapes them, FriBiDi orders their runs); else the browser draws them."""
        self._laid: dict[tuple[TextDiv, float], Any] = {}
        self._masks: LRU[np.ndarray] = LRU(MASKS, weigh=lambda a: a.nbytes)
        """Glyph coverages drawn (`mask`), by what they depend on."""

    @classmethod
    def system(cls) -> TextDrawer | None:
        """The drawer of this machine's faces (made once), or None where fontconfig is
        missing or knows none of `faces.FONTS`."""
        with cls._LOCK:
            if not cls._SYSTEM:
                faces = system_faces()
                ok = faces is not None and any(
                    pick(faces, f, 400) for f in families())
                try:
                    from PIL import features

                    ok = ok and bool(features.check("raqm"))
                except ImportError:
                    ok = False
                drawer = cls(faces) if ok and faces is not None else None
                why = complex_support() if drawer is not None else \
                    "no fontconfig, faces or raqm"
                _log.info("texts over recorded screens: right-to-left and complex-script "
                          "texts drawn %s", "here (raqm, FriBiDi)" if why is None else
                          f"by the browser ({why})")
                if drawer is not None:
                    # The faces' character maps read by another thread (a CJK face's:
                    # half a second to three on a busy machine), not on the browser's
                    # first screenshot nor on the first text that needs one; a text
                    # that needs one before it is read reads it itself (the same map).
                    threading.Thread(target=drawer._read_maps, name="phoneworld-faces",
                                     daemon=True).start()
                cls._SYSTEM.append(drawer)
            return cls._SYSTEM[0]

    def _read_maps(self) -> None:
        """Read the faces' tables and import what drawing a text needs (Pillow's font and
        drawing modules: 50-100 ms of a first text's CPU on a busy machine), by drawing
        a few letters with a drawer of its own (this one's memos are left alone)."""
        for weight in WARM_WEIGHTS:
            for face, _ in self.fonts.chosen(weight):
                cmap(face.file, face.index)
                vertical(face.file, face.index)
        spare = TextDrawer(self.faces, complex_scripts=False)
        spare.fonts.families = self.fonts.families
        for weight in WARM_WEIGHTS:
            spare.rgba([TextDiv(box=(0.0, 0.0, 40.0, 20.0), text="Ag", lines="one", clamp=1,
                                size=14.0, color=DEFAULT_COLOR, weight=weight,
                                align="left", pad=(0.0, 0.0, -1.0), clip=(0.0, 0.0, 0.0, 0.0))],
                       (0, 0, 40, 20), 1.0)

    def draw(self, frame, t: TextDiv, zoom: float) -> bool:
        """Lay `t` over `frame` (a `frame.Frame` of the app's pixels, the page laid out
        at `zoom` app pixels a CSS pixel); False (and nothing drawn) where a character
        has no face."""
        plan = self.layout(t, zoom) if t.text else None
        if plan is None:
            return not t.text
        w, h = frame.size
        x1, y1, x2, y2 = plan[2]
        r = (max(0, x1), max(0, y1), min(w, x2), min(h, y2))
        if r[0] >= r[2] or r[1] >= r[3]:
            return True
        img = self.rgba([t], r, zoom)
        assert img is not None
        from phoneworld.serve.frame import over

        frame.paste(r[0], r[1], over(frame.pixels[r[1]:r[3], r[0]:r[2]], img))
        return True

    def rgba(self, texts: list[TextDiv], rect: Rect, zoom: float) -> np.ndarray | None:
        """What `texts` (in paint order) draw inside `rect` (app pixels) on a transparent
        ground, as straight-alpha RGBA (what Chromium's capture of a see-through page
        gives there); None where a character has no face. (`inks` laid on clear pixels.)"""
        inks = self.inks(texts, rect, zoom)
        return None if inks is None else laid(inks, rect)

    def inks(self, texts: list[TextDiv], rect: Rect, zoom: float) -> list[Ink] | None:
        """What `texts` (in paint order) draw inside `rect` (app pixels), as the boxes of
        their ink, apart (what `rgba` is, less its clear pixels): a list row's label is a
        few percent of its rectangle, and laying it costs only its box. None where a
        character has no face."""
        x1, y1, x2, y2 = rect
        boxes: list[Box] = []
        for t in texts:
            if not t.text:
                continue  # an empty field: the div draws nothing
            plan = self.layout(t, zoom)
            if plan is None:
                return None
            lines, size, clip = plan
            c = (max(x1, clip[0]), max(y1, clip[1]), min(x2, clip[2]), min(y2, clip[3]))
            if c[0] >= c[2] or c[1] >= c[3]:
                continue
            # The text's coverage over its whole box where that is not much more than
            # the part asked for (kept: the same text in another rectangle, as the
            # rectangles that change from frame to frame cut it, costs no drawing).
            whole = (clip[2] - clip[0]) * (clip[3] - clip[1])
            if whole <= max(WHOLE_MASK, 4 * (c[2] - c[0]) * (c[3] - c[1])):
                a = self.mask(lines, size, clip)[c[1] - clip[1]:c[3] - clip[1],
                                                 c[0] - clip[0]:c[2] - clip[0]]
            else:
                a = self.mask(lines, size, c)
            box = ink_box(c[0], c[1], a, t.color, t.opacity)
            if box is not None:
                boxes.append(box)
        return apart(boxes)

    def layout(self, t: TextDiv, zoom: float):
        """`_layout`, kept by the div and the zoom (a page drawn again lays its texts out
        once)."""
        return kept(self._laid, (t, zoom), lambda: self._layout(t, zoom))

    def _layout(self, t: TextDiv, zoom: float):
        """The lines of `t` ((runs, x, baseline) each, app pixels; a line's runs in the
        order they show, left to right, each (text, face, bold, right-to-left)), the font
        size, and the rectangle the div clips to; None where a character has no face,
        or where the text's drawing is not followed here: right-to-left or complex text
        where raqm or FriBiDi is missing, and right-to-left text cut with an ellipsis or
        in a field that shows its end (the browser draws those)."""
        left, top, bw, bh = (v * zoom for v in t.box)
        pl, pr, pt = (v * zoom if v > 0 else v for v in t.pad)
        size = t.size * zoom
        # Blink's line box: a number line-height computes to whole pixels (truncated),
        # the font's ascent and descent are rounded, the half-leading above floored.
        lh = float(int(LINE_HEIGHT * size + 1e-6))
        runs = self.fonts.runs(t.text, t.weight)
        if runs is None:
            return None
        rtl = False
        if complex_text(t.text):
            rtl = any(is_rtl(c) for c in t.text)
            if not self.complex or (rtl and t.lines == "end"):
                return None
        content_w = max(0.0, bw - pl - pr)
        if t.lines == "many":
            lines = self._wrap(runs, size, content_w, t.clamp)
        else:
            lines = [runs]
        shown = []
        for line in lines:
            wid = self.fonts.width(line, size)
            if t.lines != "end" and (wid > content_w + 0.01 or isinstance(line, _Cut)):
                if rtl:  # cut where it overflows on the line's right: not followed here
                    return None
                line, wid = self._ellipsis(line, size, content_w, t.weight)
            line = _visual(line) if rtl else [(s, f, b, False) for s, f, b in line]
            if rtl:
                wid = self.fonts.width(line, size)
            if t.lines == "end" and wid > content_w:
                x = left + pl + content_w - wid
            elif t.align == "center":
                x = left + pl + (content_w - wid) / 2
            elif t.align == "right":
                x = left + pl + content_w - wid
            else:
                x = left + pl
            shown.append((line, x))
        n = len(shown)
        span_h = n * lh
        ct, ch = (top + pt, bh - pt) if pt >= 0 else (top, bh)
        span_top = ct if pt >= 0 else ct + (ch - span_h) / 2
        asc, desc = self.fonts.metrics(size)
        half = (lh - (asc + desc)) // 2
        out = [(line, x, round(span_top + k * lh + half + asc)) for k, (line, x) in
               enumerate(shown)]
        ct_, cr, cb, cl = (v * zoom for v in t.clip)
        clip = (int(np.floor(left + cl)), int(np.floor(top + ct_)),
                int(np.ceil(left + bw - cr)), int(np.ceil(top + bh - cb)))
        return out, size, clip

    def _wrap(self, runs, size: float, width: float, clamp: int) -> list:
        """Lines of `runs` wrapped at spaces, hyphens and CJK characters (a word wider
        than the line broken where it must: overflow-wrap anywhere), at most `clamp`
        (0: any); the last a `_Cut` where more text followed."""
        chars = [(c, face, bold) for s, face, bold in runs for c in s]
        lines: list = []
        i = 0
        while i < len(chars):
            if clamp and len(lines) == clamp:
                lines[-1] = _Cut(lines[-1])
                break
            j = i + max(1, self._fits(chars[i:], size, width))
            while i + 1 < j < len(chars) and is_mark(chars[j][0]):
                j -= 1  # (a mark stays with its letter)
            end = j
            if j < len(chars):  # the last break opportunity in the part that fits
                for k in range(j, i, -1):
                    if chars[k][0] == " " or chars[k - 1][0] in " -" or \
                            wide(chars[k - 1][0]) or wide(chars[k][0]):
                        end = k
                        break
            line = _join(chars[i:end])
            if line:
                line[-1] = (line[-1][0].rstrip(" "), line[-1][1], line[-1][2])
            lines.append(line)
            i = end
            while i < len(chars) and chars[i][0] == " ":
                i += 1
        return lines

    def _fits(self, chars, size: float, width: float, extra: float = 0.0) -> int:
        """How many of `chars` (from the first) fit in `width` with `extra` after them."""
        if self.fonts.width(_join(chars), size) + extra <= width + 0.01:
            return len(chars)
        lo, hi = 0, len(chars)  # fits lo, not hi
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self.fonts.width(_join(chars[:mid]), size) + extra <= width + 0.01:
                lo = mid
            else:
                hi = mid
        return lo

    def _ellipsis(self, line, size: float, width: float, weight: int):
        """`line` cut at the last character after which it and an ellipsis fit."""
        chars = [(c, f, b) for s, f, b in line for c in s]
        ell = self.fonts.runs(ELLIPSIS, weight) or [(ELLIPSIS, chars[0][1], chars[0][2])]
        n = self._fits(chars, size, width, self.fonts.width(ell, size))
        while 0 < n < len(chars) and is_mark(chars[n][0]):
            n -= 1  # (a mark goes with its letter)
        head = chars[:n]
        while head and head[-1][0] == " ":
            head = head[:-1]
        out = _join(head) + ell
        return out, self.fonts.width(out, size)

    def mask(self, lines, size: float, clip: Rect) -> np.ndarray:
        """The glyphs' coverage (0-255) inside `clip`, lines laid as `layout` gives them
        (each line's start in FreeType's 1/64 px), read-only: kept by what it depends
        on, so that a row moved by whole pixels (a list scrolled, a row removed above
        it) costs no drawing."""
        key = self.mask_key(lines, size, clip)
        got = self._masks.get(key)
        if got is None:
            got = self._draw_mask(key)
            self._masks.put(key, got)
        return got

    @staticmethod
    def mask_key(lines, size: float, clip: Rect) -> tuple:
        """What `mask` depends on: the size, the clip's width and height, and each
        line's runs and start inside it (to FreeType's 1/64 px)."""
        x1, y1, x2, y2 = clip
        return (size, x2 - x1, y2 - y1, tuple(
            (tuple(runs), _64th(x - x1), _64th(base - y1)) for runs, x, base in lines))

    def _draw_mask(self, key) -> np.ndarray:
        """`mask`, drawn from its key alone (the same key, the same pixels)."""
        from PIL import Image, ImageDraw

        size, w, h, lines = key
        img = Image.new("L", (w, h), 0)
        d = ImageDraw.Draw(img)
        for runs, x, base in lines:
            at = x
            for s, face, bold, rtl in runs:
                font = self.fonts.font(face, size)
                way = "rtl" if rtl else None
                if s:
                    d.text((at, base), s, fill=255, font=font, anchor="ls",
                           stroke_width=0, features=None, direction=way)
                    if bold:  # Chromium's synthetic bold: the glyphs emboldened
                        d.text((at + size / 24, base), s, fill=255, font=font, anchor="ls",
                               direction=way)
                at += font.getlength(s, direction=way)
        out = np.asarray(img)
        out.flags.writeable = False
        return out


def _64th(v: float) -> float:
    """`v` to the nearest 1/64 (FreeType's unit of position)."""
    return round(v * 64) / 64


def _visual(line: list[tuple[str, Face, bool]]) -> list[tuple[str, Face, bool, bool]]:
    """`line`'s runs (logical order) as they show, left to right: cut where the embedding
    level (`bidi.levels`, the line as one left-to-right paragraph) changes, in the order
    rule L2 gives, each right-to-left one still in logical order (raqm shapes it right to
    left)."""
    text = "".join(s for s, _, _ in line)
    lv = bidi.levels(text)
    assert lv is not None  # (`TextDrawer.complex`: FriBiDi is here)
    items: list[tuple[str, Face, bool, int]] = []
    k = 0
    for s, f, b in line:
        for c in s:
            if items and items[-1][1] is f and items[-1][2] == b and items[-1][3] == lv[k]:
                items[-1] = (items[-1][0] + c, f, b, lv[k])
            else:
                items.append((c, f, b, lv[k]))
            k += 1
    return [(s, f, b, bool(v % 2)) for s, f, b, v in
            (items[i] for i in bidi.visual([it[3] for it in items]))]


class _Cut(list):
    """A line after which more text was clamped away: drawn with an ellipsis."""


def _join(chars) -> list[tuple[str, Face, bool]]:
    out: list[tuple[str, Face, bool]] = []
    for c, f, b in chars:
        if out and out[-1][1] is f and out[-1][2] == b:
            out[-1] = (out[-1][0] + c, f, b)
        else:
            out.append((c, f, b))
    return out


