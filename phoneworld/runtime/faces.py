"""The faces Chromium draws a page's texts in, as fontconfig resolves them.

The page's font list (`FONTS`) names families in order; Chromium takes each character
from the first installed family that has its glyph, and a weight by CSS's matching rules
(a bold asked of a family without one is made bold). `advances` measures texts and
`serve.texts` draws them in the same faces:

    faces = system_faces()                     # every upright face fontconfig knows
    face, synthetic = pick(faces, "Liberation Sans", 500)   # its Regular: no Medium
    ord("a") in cmap(face.file, face.index)    # whether it has a glyph
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache

from phoneworld.errors import PhoneworldError

FONTS = ('Roboto, "Liberation Sans", Arimo, "Noto Sans", "Noto Sans CJK SC", '
         '"Noto Sans CJK JP", "DejaVu Sans", "Noto Color Emoji", sans-serif')
"""The page's font list. Android's Roboto where it is installed, else a face of its
widths (Liberation Sans, Arimo: within 1% of Roboto's on Latin labels, where Noto Sans
CJK's Latin is 4% wider and DejaVu Sans 14%, so a text drawn at its recorded size spans
what the recording's did); CJK and emoji from Noto, glyph by glyph. Debian's
`fonts-liberation`, `fonts-noto-cjk` and `fonts-noto-color-emoji` install them."""


class FontsMissing(PhoneworldError):
    """No family of the page's font list is installed (or fontconfig is missing), so no
    text can be measured as the page draws it."""

    exit_code = 9


@dataclass(frozen=True)
class Face:
    family: str
    file: str
    index: int
    weight: int
    """CSS weight (fontconfig's 80: 400, 100: 500, 200: 700)."""


def families(fonts: str = FONTS) -> list[str]:
    """The families of a CSS font-family list, in order (generic names dropped)."""
    out = []
    for part in fonts.split(","):
        name = part.strip().strip('"')
        if name and name not in ("sans-serif", "serif", "monospace"):
            out.append(name)
    return out


_FC_WEIGHT = {0: 100, 40: 200, 50: 300, 55: 350, 75: 400, 80: 400, 100: 500, 180: 600,
              200: 700, 205: 800, 210: 900}


def system_faces() -> list[Face] | None:
    """The upright faces fontconfig knows (None: no `fc-list`)."""
    exe = shutil.which("fc-list")
    if exe is None:
        return None
    try:
        out = subprocess.run([exe, "--format", "%{family[0]}\t%{file}\t%{index}\t%{weight}"
                              "\t%{slant}\n"], capture_output=True, text=True, timeout=30,
                             check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    faces = []
    for line in sorted(set(out.splitlines())):
        parts = line.split("\t")
        if len(parts) != 5 or parts[4] != "0" or not parts[2].isdigit():
            continue
        try:
            w = int(float(parts[3]))
        except ValueError:
            continue
        faces.append(Face(parts[0], parts[1], int(parts[2]), _FC_WEIGHT.get(w, 400)))
    return faces


def pick(faces: list[Face], family: str, weight: int) -> tuple[Face, bool] | None:
    """The face of `family` CSS matching gives for `weight`, and whether it must be made
    bold (a bold asked of a family without one, as Chromium synthesises it); None where
    the family is not installed."""
    mine = [f for f in faces if f.family.lower() == family.lower()]
    if not mine:
        return None
    ws = sorted({f.weight for f in mine})
    if weight in ws:
        w = weight
    elif 400 <= weight <= 500:  # CSS: up to 500 first, then down, then up
        up = [x for x in ws if weight < x <= 500]
        down = [x for x in ws if x < weight]
        w = up[0] if up else down[-1] if down else ws[0]
    elif weight > 500:
        up = [x for x in ws if x > weight]
        w = up[0] if up else ws[-1]
    else:
        down = [x for x in ws if x < weight]
        w = down[-1] if down else ws[0]
    face = min((f for f in mine if f.weight == w), key=lambda f: (f.file, f.index))
    return face, weight >= 600 and w < 600


@lru_cache(maxsize=64)
def vertical(file: str, index: int) -> tuple[int, int, int]:
    """A face's ascent, descent (font units, as FreeType reads them: hhea's, else the
    OS/2 typographic ones) and units per em."""
    from fontTools.ttLib import TTFont

    with TTFont(file, fontNumber=index, lazy=True) as font:
        hhea, upem = font["hhea"], font["head"].unitsPerEm
        asc, desc = hhea.ascent, -hhea.descent
        if asc == 0 and desc == 0 and "OS/2" in font:
            asc, desc = font["OS/2"].sTypoAscender, -font["OS/2"].sTypoDescender
        return asc, desc, upem


@lru_cache(maxsize=64)
def cmap(file: str, index: int) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    with TTFont(file, fontNumber=index, lazy=True) as font:
        return frozenset(font.getBestCmap() or ())
