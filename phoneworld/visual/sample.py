"""Reading text from pixels: a recorded view's background, ink, text colour, size and weight.

Pure functions of an RGB array (height x width x 3, uint8) and a rectangle in it:

    bg, ink = background_and_ink(pixels, (45, 116, 250, 189))
    style = text_style(pixels, (45, 116, 250, 189), "1List")
    -> Style(size=52.0, color="#202124", weight=400, align="left")

The background is the rectangle's most common colour; ink is what differs from it
clearly, looked for inside a small inset so that a chip's or a field's outline at the
rectangle's edge is not taken for text. The size is worked out from the ink's height per
line and what the text's letters reach (capitals, descenders, CJK ideographs).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

import numpy as np

from phoneworld.runtime.advances import advance
from phoneworld.runtime.chars import wide
from phoneworld.runtime.look import Rect, Style

INK = 48.0
"""Colour distance (RGB, Euclidean) beyond which a pixel is ink rather than background."""



def hex_color(rgb: np.ndarray | tuple[float, float, float]) -> str:
    r, g, b = (int(round(float(c))) for c in rgb)
    return f"#{min(255, max(0, r)):02x}{min(255, max(0, g)):02x}{min(255, max(0, b)):02x}"


def clip(rect: Rect, width: int, height: int) -> Rect | None:
    """`rect` cut to a width x height image, or None if nothing of it is inside."""
    x1, y1, x2, y2 = rect
    x1, y1, x2, y2 = max(0, x1), max(0, y1), min(width, x2), min(height, y2)
    return (x1, y1, x2, y2) if x1 < x2 and y1 < y2 else None


def dominant(pixels: np.ndarray) -> np.ndarray:
    """The most common colour of an (n, 3) or (h, w, 3) array: the mean of the pixels in
    the fullest 16-level colour bin (so JPEG noise does not split it)."""
    if pixels.ndim == 3 and pixels.shape[0] * pixels.shape[1] > 40_000:
        pixels = pixels[::2, ::2]  # a quarter of a large area says the same
    flat = pixels.reshape(-1, 3).astype(np.int32)
    bins = (flat[:, 0] >> 4) * 256 + (flat[:, 1] >> 4) * 16 + (flat[:, 2] >> 4)
    counts = np.bincount(bins, minlength=4096)
    top = int(np.argmax(counts))
    return flat[bins == top].mean(axis=0)


def distances(crop: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The background colour of `crop` (`dominant`) and each pixel's squared colour
    distance from it (squared: no root needed to compare with `INK`)."""
    bg = dominant(crop)
    diff = crop.astype(np.int32) - np.round(bg).astype(np.int32)
    return bg, np.einsum("ijk,ijk->ij", diff, diff)


def background_and_ink(pixels: np.ndarray, rect: Rect, exclude: Sequence[Rect] = ()
                       ) -> tuple[np.ndarray, Rect | None]:
    """The background colour inside `rect` and the box of the ink on it (absolute
    coordinates, padded by 2 pixels, within `rect`), or None where there is no ink.

    A frame along an edge (a chip's outline, a field's underline: a line of ink across
    most of a side, near it) is not ink, nor is what lies under `exclude` (views drawn
    over this one, such as the icons inside a row's text), nor specks apart from the
    lines of text (the corner of an outline)."""
    bg, box, _, _ = _ink(pixels, rect, exclude)
    return bg, box


def _ink(pixels: np.ndarray, rect: Rect, exclude: Sequence[Rect], field: bool = False,
         text: str = "") -> tuple[np.ndarray, Rect | None, np.ndarray, np.ndarray]:
    """(background, ink box or None, the ink mask and the squared colour distance, both
    cut to the ink box)."""
    h, w = pixels.shape[:2]
    c = clip(rect, w, h)
    empty = np.zeros((0, 0), dtype=bool)
    if c is None:
        return np.array([255.0, 255.0, 255.0]), None, empty, empty
    x1, y1, x2, y2 = c
    bg, dist = distances(pixels[y1:y2, x1:x2])
    for e in exclude:
        ex = clip(e, w, h)
        if ex is not None:
            dist[max(0, ex[1] - y1):max(0, ex[3] - y1), max(0, ex[0] - x1):max(0, ex[2] - x1)] \
                = 0
    far = dist > INK * INK
    _drop_frame(far)
    lines = _lines(far)
    if field and len(lines) == 1:
        start = _after_icon(far[lines[0][0]:lines[0][1] + 1], text)
        if start:
            far[:, :start] = False
            lines = _lines(far)
    if not lines:
        return bg, None, empty, empty
    r1, r2 = lines[0][0], lines[-1][1] + 1
    far[:r1] = False
    far[r2:] = False
    cols = np.flatnonzero(far.any(axis=0))
    c1, c2 = max(0, int(cols[0]) - 2), min(x2 - x1, int(cols[-1]) + 3)
    r1, r2 = max(0, r1 - 2), min(y2 - y1, r2 + 2)
    box = (x1 + c1, y1 + r1, x1 + c2, y1 + r2)
    return bg, box, far[r1:r2, c1:c2], dist[r1:r2, c1:c2]


def _drop_frame(far: np.ndarray, band: int = 8, share: float = 0.6) -> None:
    """Clear, in place, lines of ink that run along an edge within `band` pixels of it
    (over `share` of that side): that side's band (a rounded corner's arc lies in it).
    Frames nest (a margin of another colour, then a chip's outline), so this repeats
    inward until no side has one."""
    h, w = far.shape
    top, bottom, left, right = 0, h, 0, w
    for _ in range(4):
        win = far[top:bottom, left:right]
        wh, ww = win.shape
        if wh < 4 or ww < 4:
            return
        rows, cols = win.mean(axis=1) > share, win.mean(axis=0) > share
        bh, bw = min(band, wh // 3), min(band, ww // 3)
        moved = False
        if rows[:bh].any():
            top += max(bh, int(np.flatnonzero(rows[:bh])[-1]) + 2)
            moved = True
        if rows[wh - bh:].any():
            bottom -= max(bh, bh - int(np.flatnonzero(rows[wh - bh:])[0]) + 1)
            moved = True
        if cols[:bw].any():
            left += max(bw, int(np.flatnonzero(cols[:bw])[-1]) + 2)
            moved = True
        if cols[ww - bw:].any():
            right -= max(bw, bw - int(np.flatnonzero(cols[ww - bw:])[0]) + 1)
            moved = True
        if not moved:
            break
        far[:top] = False
        far[max(top, bottom):] = False
        far[:, :left] = False
        far[:, max(left, right):] = False


def _after_icon(line: np.ndarray, text: str) -> int:
    """The column where a one-line field's `text` starts after an icon its ink begins
    with, or 0 where it begins with none: the first run of ink columns (gaps of a few
    pixels within it) is an icon where it is no wider than 1.5 times the line is high,
    more ink follows past a gap of half the height of that ink at least, and that ink
    alone is nearer the width `text` takes at the size its height gives than the whole
    is (a first word, "a" of "a b", is part of the text's width)."""
    cols = np.flatnonzero(line.any(axis=0))
    if line.shape[0] < 4 or cols.size == 0 or not text.strip():
        return 0
    gaps = np.flatnonzero(np.diff(cols) > 3)
    if not gaps.size:
        return 0
    first_end, start = int(cols[gaps[0]]) + 1, int(cols[gaps[0] + 1])
    rows = np.flatnonzero(line[:, start:].any(axis=1))
    height = int(rows[-1]) - int(rows[0]) + 1
    if first_end - int(cols[0]) > 1.5 * line.shape[0] or start - first_end < 0.5 * height:
        return 0
    expect = advance(text, height / _em_share(text))
    end = int(cols[-1]) + 1
    return start if abs(end - start - expect) < abs(end - int(cols[0]) - expect) else 0


def _lines(far: np.ndarray) -> list[tuple[int, int]]:
    """Runs of rows holding ink, as (first, last) row; gaps of a row or two (the dot of
    an i, JPEG noise) do not split a line."""
    rows = np.flatnonzero(far.any(axis=1))
    if rows.size == 0:
        return []
    runs = [[int(rows[0]), int(rows[0])]]
    for r in rows[1:]:
        if r - runs[-1][1] <= 2:
            runs[-1][1] = int(r)
        else:
            runs.append([int(r), int(r)])
    tallest = max(b - a + 1 for a, b in runs)
    # Specks (an accent alone, a stray pixel) are no line of their own.
    return [(a, b) for a, b in runs if b - a + 1 >= tallest * 0.35]


def _em_share(text: str) -> float:
    """The share of the font size that `text`'s ink spans from top to bottom: from the
    highest top and the lowest bottom of its characters in Roboto (Android's face)."""
    if any(ord(ch) >= 0x1F000 or 0x2600 <= ord(ch) <= 0x27BF for ch in text):
        return 1.15  # colour emoji stand taller than letters
    if any(wide(ch) for ch in text):
        return 0.9
    top = max((_top(ch) for ch in text if not ch.isspace()), default=_X_HEIGHT)
    bottom = max((_BOTTOMS.get(ch, 0.0) for ch in text), default=0.0)
    return top + bottom


_X_HEIGHT = 0.54
_TOPS = {**dict.fromkeys("bdfhkl'\"", 0.75), **dict.fromkeys("()[]{}$", 0.8),
         **dict.fromkeys("t", 0.66),
         **dict.fromkeys("0123456789ij!?%&#@/\\|", 0.72)}
_BOTTOMS = {**dict.fromkeys("gjpqy@", 0.21), **dict.fromkeys("()[]{}", 0.2),
            **dict.fromkeys(",;", 0.14), **dict.fromkeys("Q|$", 0.11)}


def _top(ch: str) -> float:
    """How high `ch` reaches above the baseline, in em (Roboto: a capital 0.72, a lowercase
    ascender 0.75, an accented capital 0.9)."""
    base = unicodedata.normalize("NFD", ch)
    if len(base) > 1 and unicodedata.combining(base[1]):  # an accent above or below
        return 0.9 if base[0].isupper() else max(0.75, _top(base[0]))
    if ch in _TOPS:
        return _TOPS[ch]
    return 0.72 if ch.isupper() else _X_HEIGHT


def text_style(pixels: np.ndarray, rect: Rect, text: str, exclude: Sequence[Rect] = (),
               field: bool = False, check: bool = False
               ) -> tuple[Style, np.ndarray, Rect | None]:
    """How `text` is drawn in `rect`: its `Style`, the background colour, the ink box
    (see `background_and_ink` for `exclude`). In a text `field`, an icon its ink starts
    with (an add field's plus, a search field's magnifier) is not the text's
    (`_after_icon`): typed text replaces the text beside it, and the icon stays. In a
    `check` widget (a radio button's or a check box's view with its label), the
    indicator its ink starts with is not the text's either: the style (size, indent)
    is the label's alone, and the ink box holds both (what a changed state wipes), so
    that the runtime finds the indicator between the ink's start and the indent."""
    if check and not field:
        style, bg, _ = text_style(pixels, rect, text, exclude, field=True)
        return style, bg, _ink(pixels, rect, exclude)[1]
    bg, ink, far, dist = _ink(pixels, rect, exclude, field, text)
    if ink is None or not text.strip():
        return Style(), bg, ink
    x1, y1, x2, y2 = ink
    crop = pixels[y1:y2, x1:x2].astype(np.float32)
    lines = _lines(far)
    if not lines:
        return Style(), bg, ink
    share = _em_share(text if len(lines) == 1 else text.split("\n")[0])
    heights = sorted(_half_height(dist[a:b + 1]) for a, b in lines)
    size = heights[len(heights) // 2] / share
    if len(lines) > 1:  # the line pitch is about 1.17 em (Roboto's line height)
        pitch = (lines[-1][0] - lines[0][0]) / (len(lines) - 1)
        size = min(size, pitch / 1.1)
    # The text colour: the ink pixels farthest from the background (glyph cores, not
    # their anti-aliased edges).
    core = dist >= max(INK * INK, float(dist.max()) * 0.49)  # 0.7 of the farthest
    color = np.median(crop[core], axis=0)
    # Weight from stroke width: the median run of ink along a row, against the size.
    runs = _runs(far)
    weight = 700 if runs and float(np.median(runs)) > 0.13 * size else 400
    rx1, _, rx2, _ = rect
    left, right = x1 - rx1, rx2 - x2
    width = max(1, rx2 - rx1)
    align = "left"
    if abs(left - right) <= max(6, width * 0.06) and left > width * 0.08:
        align = "center"
    elif right < left / 3 and left > width * 0.1:
        align = "right"
    indent = float(max(0, left - 2)) if align == "left" else 0.0  # the box's pad: 2
    return Style(size=round(size, 1), color=hex_color(color), weight=weight,
                 align=align, indent=indent), bg, ink


def _half_height(dist: np.ndarray) -> int:
    """How many rows of a line of text (`dist`: its squared colour distances from the
    background) its glyphs cover: those reaching half its contrast. A glyph's edge lies
    where its pixel is half covered; the rows past it that anti-aliasing or a JPEG's blur
    tints beyond `INK` are not the glyph's (counting them made sizes read from JPEG
    recordings 6-8% large: rows drawn anew outgrew the recorded ones beside them)."""
    reach = dist.max(axis=1)
    rows = np.flatnonzero(reach >= 0.25 * float(reach.max()))  # half the distance, squared
    return int(rows[-1] - rows[0] + 1) if rows.size else dist.shape[0]


def _runs(far: np.ndarray) -> list[int]:
    out: list[int] = []
    for row in far[:: max(1, far.shape[0] // 12)]:
        d = np.diff(np.concatenate(([0], row.astype(np.int8), [0])))
        starts, ends = np.flatnonzero(d == 1), np.flatnonzero(d == -1)
        out.extend((ends - starts).tolist())
    return out


def accent(pixels: np.ndarray) -> str:
    """The most used strong colour of a screen (saturated, neither dark nor pale), as
    `#rrggbb`, or "" where it has none worth the name (under 0.2% of its pixels)."""
    flat = pixels[::4, ::4].reshape(-1, 3).astype(np.int32)
    hi, lo = flat.max(axis=1), flat.min(axis=1)
    strong = flat[(hi - lo > 0.4 * hi) & (hi > 90) & (hi - lo > 60)]
    if len(strong) < 0.002 * len(flat):
        return ""
    return hex_color(dominant(strong))
