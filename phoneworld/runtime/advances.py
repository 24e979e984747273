"""How wide a text draws on the page: read from the faces Chromium draws it in.

    advance("3 / 200", 50.0)          # 152.9: what the line spans at 50 px
    advance("Save", 14.0, weight=700)
    ems("中文 Zebra")                  # the same in ems (font sizes)

The one width measure of phoneworld: the runtime fits texts to their boxes by it
(`widgets.fit`, `wrap.grown`) and the compiler's sampler reads recorded texts by it
(`visual.sample`). Each character is measured in the face Chromium takes it from for the
page's font list (`fonts`: the first installed family that has its glyph; Liberation
Sans for Latin where Roboto is not installed, Noto Sans CJK for ideographs), the run of
one face shaped as the browser shapes it (HarfBuzz through Pillow's raqm layout:
kerning, ligatures, marks on their letters) at `REFERENCE` pixels and scaled: a line's
width is linear in its size, as with the browser's unhinted advances.

The measure is deterministic for the faces installed (the same font files give the same
widths); a machine without fontconfig or without any family of the list raises
`faces.FontsMissing` at the first measure, naming the packages to install, rather than
guessing. A character no family has is measured in the first family's face (the box of
a missing glyph: Chromium would draw it in some system face), a control character (a
line break) takes no room.
"""

from __future__ import annotations

import threading
import unicodedata
from functools import lru_cache

from phoneworld.runtime.fonts import Fonts, Run, page_fonts

REFERENCE = 1000.0
"""The size, in pixels, at which widths are read (FreeType's 1/64 pixel is 1/64000 em
there, and hinting rounds an advance to a thousandth of an em at most)."""
_LOCK = threading.Lock()
"""One measure at a time: the page's fonts and their memos are shared by every thread
that renders a page (a server's sessions); a text is measured once, then cached."""


def advance(text: str, size: float, weight: int = 400) -> float:
    """How wide `text` draws on one line at font `size` (pixels) and `weight`."""
    return ems(text, weight) * size


@lru_cache(maxsize=16384)
def ems(text: str, weight: int = 400) -> float:
    """How wide `text` draws on one line, in ems (font sizes), at `weight`."""
    shown = "".join(c for c in text if unicodedata.category(c) != "Cc")
    if not shown:
        return 0.0
    fonts = page_fonts()
    out = 0.0
    with _LOCK:
        for run in _runs(fonts, shown, weight):
            size = _strike(run[1].file, run[1].index) or REFERENCE
            out += fonts.width([run], size) / size
    return out


@lru_cache(maxsize=64)
def _strike(file: str, index: int) -> int | None:
    """The pixel size of a face made of bitmaps only (a colour emoji face: FreeType opens
    it at its strike's size alone, the browser scales its glyphs), its largest strike's;
    None for a face of outlines."""
    from fontTools.ttLib import TTFont

    with TTFont(file, fontNumber=index, lazy=True) as font:
        if any(t in font for t in ("glyf", "CFF ", "CFF2")):
            return None
        if "sbix" in font:
            return max(font["sbix"].strikes, default=None)
        for tag in ("CBLC", "EBLC"):
            if tag in font:
                return max((s.bitmapSizeTable.ppemY for s in font[tag].strikes), default=None)
    return None


def _runs(fonts: Fonts, text: str, weight: int) -> list[Run]:
    """`text` in runs of one face each (`Fonts.runs`); a character no family has goes
    in the first family's face."""
    runs = fonts.runs(text, weight)
    if runs is not None:
        return runs
    first = fonts.chosen(weight)[0]
    out: list[Run] = []
    for c in text:
        got = fonts.runs(c, weight)
        face, bold = (got[0][1], got[0][2]) if got else first
        if out and out[-1][1] is face and out[-1][2] == bold:
            out[-1] = (out[-1][0] + c, face, bold)
        else:
            out.append((c, face, bold))
    return out
