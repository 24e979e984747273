"""How alike two screenshots are: SSIM, and gradient-magnitude similarity on the edges.

Both compare grey images scaled to `WIDTH` (270) pixels wide, the size at which a
screen's layout (bars, rows, icons, blocks of text) shows and single glyphs do not:

    edge_similarity(mock_png, recorded_jpg)   # 1.0: the same structure
    ssim(mock_png, recorded_jpg)

`edge_similarity` is the mean gradient-magnitude similarity (GMS, Xue et al. 2014) over
the pixels where either image has an edge. SSIM alone cannot tell a screen from a blank
one (most of a phone screen is flat background, which SSIM counts as a match); the edge
measure scores a blank white image about 0.2 against a real screen, another screen of
the same app about 0.35.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import numpy as np

WIDTH = 270
EDGE = 8.0
"""Gradient magnitude (grey levels per pixel, Sobel / 4) above which a pixel is an edge."""
_C = 400.0
"""GMS's stability constant (grey levels squared, as in the paper for 0-255 images)."""


def grey(image: Any, width: int = WIDTH, height: int | None = None) -> np.ndarray:
    """`image` (PNG/JPEG bytes, a path, a PIL image or an RGB array) as a float grey array
    `width` pixels wide (its height kept in proportion unless given)."""
    from PIL import Image

    if isinstance(image, (bytes, bytearray)):
        image = Image.open(io.BytesIO(image))
    elif isinstance(image, np.ndarray):
        image = Image.fromarray(image)
    elif not isinstance(image, Image.Image):
        image = Image.open(image)
    g = image.convert("L")
    h = height or max(1, round(g.height * width / max(1, g.width)))
    g = g.resize((width, h), Image.Resampling.BOX)
    return np.asarray(g, dtype=np.float64)


def pair(a: Any, b: Any, width: int = WIDTH) -> tuple[np.ndarray, np.ndarray]:
    """`a` and `b` as grey arrays of one size (`b` scaled to `a`'s aspect)."""
    ga = grey(a, width)
    return ga, grey(b, width, ga.shape[0])


def gradient(g: np.ndarray) -> np.ndarray:
    """Sobel gradient magnitude of a grey array, divided by 4 (a step of k grey levels
    gives about k), same shape (edges replicated)."""
    p = np.pad(g, 1, mode="edge")
    gx = (p[:-2, 2:] + 2 * p[1:-1, 2:] + p[2:, 2:]) - (p[:-2, :-2] + 2 * p[1:-1, :-2] + p[2:, :-2])
    gy = (p[2:, :-2] + 2 * p[2:, 1:-1] + p[2:, 2:]) - (p[:-2, :-2] + 2 * p[:-2, 1:-1] + p[:-2, 2:])
    return np.hypot(gx, gy) / 4.0


def edge_similarity(a: Any, b: Any) -> float:
    """Mean gradient-magnitude similarity of `a` and `b` where either has an edge (1.0 when
    both are flat everywhere)."""
    ga, gb = pair(a, b)
    return _gms(gradient(ga), gradient(gb))


def typicality(greys: Sequence[np.ndarray], among: Sequence[int] | None = None
               ) -> list[float]:
    """Each of `greys` (grey arrays of one size) scored by its mean edge similarity to
    the others (or to those of indexes `among`): how typical a picture of them all it
    is (1.0 where there is no other)."""
    edges = [gradient(g) for g in greys]
    pool = range(len(edges)) if among is None else among
    sims: dict[tuple[int, int], float] = {}
    out = []
    for i, e in enumerate(edges):
        got = []
        for j in pool:
            if j != i:
                key = (min(i, j), max(i, j))
                if key not in sims:
                    sims[key] = _gms(e, edges[j])
                got.append(sims[key])
        out.append(sum(got) / len(got) if got else 1.0)
    return out


def _gms(ma: np.ndarray, mb: np.ndarray) -> float:
    mask = (ma > EDGE) | (mb > EDGE)
    if not mask.any():
        return 1.0
    x, y = ma[mask], mb[mask]
    return float(np.mean((2 * x * y + _C) / (x * x + y * y + _C)))


def ssim(a: Any, b: Any, window: int = 7) -> float:
    """Mean structural similarity (Wang et al. 2004) of `a` and `b` over `window`-pixel
    square windows, on 0-255 grey levels."""
    x, y = pair(a, b)
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2

    def mean(z: np.ndarray) -> np.ndarray:
        s = np.lib.stride_tricks.sliding_window_view(z, (window, window))
        return s.mean(axis=(-1, -2))

    if min(x.shape) < window:
        window = min(x.shape)
    mx, my = mean(x), mean(y)
    vx = mean(x * x) - mx * mx
    vy = mean(y * y) - my * my
    cov = mean(x * y) - mx * my
    s = ((2 * mx * my + c1) * (2 * cov + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2))
    return float(s.mean())
