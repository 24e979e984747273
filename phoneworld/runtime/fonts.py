"""Which face draws each character of a text, as Chromium chooses, and those faces' fonts.

A page's font list (`faces.FONTS`) names families in order; Chromium takes each
character from the first installed family that has its glyph (a combining mark from its
letter's face where that has it), at the weight CSS matching gives (`faces.pick`).
`advances` measures texts in the runs this module cuts, `serve.texts` draws them:

    fonts = Fonts(system_faces())
    fonts.runs("Zebra 中文", 400)   # [("Zebra ", Roboto, False), ("中文", Noto CJK, False)]
    fonts.width(runs, 42.0)          # shaped widths (raqm), app pixels
    fonts.font(face, 42.0)           # its FreeType font (Pillow, raqm layout)
    fonts.metrics(42.0)              # a line's ascent and descent (the first family's)
    page_fonts()                     # this machine's (made once; `FontsMissing` if none)
"""

from __future__ import annotations

import threading
import unicodedata
from functools import lru_cache
from typing import Any

from phoneworld.runtime.faces import (
    FONTS,
    Face,
    FontsMissing,
    cmap,
    families,
    pick,
    system_faces,
    vertical,
)

Run = tuple[str, Face, bool]
"""A run of a text in one face: its characters, the face, whether made bold (`pick`)."""

KEPT = 4096
"""Entries a memo of `kept` holds (texts' runs, a drawer's layouts)."""


def kept(memo: dict, key: Any, make: Any) -> Any:
    """`memo[key]`, made by `make()` the first time; past `KEPT` entries the oldest goes."""
    if key in memo:
        return memo[key]
    got = memo[key] = make()
    if len(memo) > KEPT:
        memo.pop(next(iter(memo)))
    return got


def is_rtl(c: str) -> bool:
    """Whether `c` is a right-to-left letter or an Arabic number."""
    return unicodedata.bidirectional(c) in ("R", "AL", "AN")


def is_mark(c: str) -> bool:
    """Whether `c` is a combining mark (drawn with the letter before it)."""
    return unicodedata.category(c)[0] == "M"


class Fonts:
    """The faces of `fonts` (a CSS font-family list) among `faces`, chosen per character
    and weight as Chromium chooses them, and their FreeType fonts by size."""

    def __init__(self, faces: list[Face], fonts: str = FONTS) -> None:
        self.faces = faces
        self.families = families(fonts)
        self._fonts: dict[tuple[str, int, float], Any] = {}
        self._chosen: dict[int, list[tuple[Face, bool]]] = {}
        self._runs: dict[tuple[str, int], list[Run] | None] = {}

    def chosen(self, weight: int) -> list[tuple[Face, bool]]:
        """The face of each installed family for `weight`, in the families' order."""
        got = self._chosen.get(weight)
        if got is None:
            got = self._chosen[weight] = [
                p for fam in self.families if (p := pick(self.faces, fam, weight))]
        return got

    def runs(self, text: str, weight: int) -> list[Run] | None:
        """`text` cut into runs of one face each (each character from the first family
        that has it), or None where a character has none."""
        return kept(self._runs, (text, weight), lambda: self._cut_runs(text, weight))

    def _cut_runs(self, text: str, weight: int) -> list[Run] | None:
        out: list[Run] = []
        chosen = self.chosen(weight)
        if chosen and text and cmap(chosen[0][0].file, chosen[0][0].index).issuperset(
                map(ord, text)):
            return [(text, *chosen[0])]  # (most texts: every character in the first face)
        for c in text:
            got = None
            o = ord(c)
            if out and is_mark(c) and o in cmap(out[-1][1].file, out[-1][1].index):
                got = (out[-1][1], out[-1][2])  # a mark in its letter's face
            if got is None:
                got = next((p for p in chosen if o in cmap(p[0].file, p[0].index)), None)
            if got is None:
                if c == " " and out:
                    got = (out[-1][1], out[-1][2])
                else:
                    return None
            if out and out[-1][1] is got[0] and out[-1][2] == got[1]:
                out[-1] = (out[-1][0] + c, got[0], got[1])
            else:
                out.append((c, got[0], got[1]))
        return out

    def font(self, face: Face, size: float):
        """`face` at `size` pixels as a Pillow FreeType font laid out by raqm (made once)."""
        from PIL import ImageFont

        key = (face.file, face.index, size)
        f = self._fonts.get(key)
        if f is None:
            f = self._fonts[key] = ImageFont.truetype(
                face.file, size, index=face.index, layout_engine=ImageFont.Layout.RAQM)
        return f

    def width(self, runs: list, size: float) -> float:
        """How wide `runs` are at `size` (shaped, run by run): (text, face, bold) each, or
        (text, face, bold, right-to-left) as `TextDrawer.layout` lays them."""
        return sum(self._length(r[0], r[1], size, len(r) > 3 and r[3]) for r in runs)

    @lru_cache(maxsize=8192)  # noqa: B019 - one drawer's fonts a process (`TextDrawer.system`)
    def _length(self, s: str, face: Face, size: float, rtl: bool = False) -> float:
        return self.font(face, size).getlength(s, direction="rtl" if rtl else None)

    def metrics(self, size: float) -> tuple[int, int]:
        """A line's ascent and descent at `size`, from its primary face (the first
        family's): the fallback faces of a mixed line lie on its baseline."""
        face = self.chosen(400)[0][0]
        asc, desc, upem = vertical(face.file, face.index)
        return round(asc * size / upem), round(desc * size / upem)


_PAGE: list[Fonts] = []
_PAGE_LOCK = threading.Lock()


def page_fonts() -> Fonts:
    """The fonts of this machine's faces for the page's font list (made once): what
    Chromium draws the page's texts in. Raises `FontsMissing` where fontconfig is missing
    or knows no family of the list (no guess stands in for the faces: every width the
    runtime and the compiler work out is read from them)."""
    with _PAGE_LOCK:
        if not _PAGE:
            faces = system_faces()
            if faces is None:
                raise FontsMissing("cannot list the installed fonts: fontconfig's fc-list "
                                   "is missing (Debian: apt-get install fontconfig)")
            fonts = Fonts(faces)
            if not fonts.chosen(400):
                raise FontsMissing(
                    "none of the page's font families is installed ("
                    + ", ".join(fonts.families) + "): texts cannot be measured as the "
                    "page draws them (Debian: apt-get install fonts-liberation "
                    "fonts-noto-cjk fonts-noto-color-emoji)")
            _PAGE.append(fonts)
        return _PAGE[0]
