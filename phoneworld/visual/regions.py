"""How alike two screenshots are region by region, by what the region shows: what the
edge measure (`compare.edge_similarity`, a whole screen at 270 pixels) is blind to.

The regions are a recording's views (its hierarchy, in app pixels), in three classes:

    text   a view with a text: the height of its tallest line of ink, as a share of the
           taller of the two (a text drawn too small or too large, or not at all)
    icon   a small leaf without text (16-240 pixels a side): its ink matched with the
           other's within 3 pixels (an F-score: an icon left out, or a wrong one)
    fill   a view 96 pixels a side or more without a text of its own: whether the two
           have the same background colour there (a toolbar drawn white, a dark card
           drawn light)

    scores = region_scores(mock_rgb, recorded_rgb, recorded_root)
    -> {"text": 0.93, "icon": 0.71, "fill": 1.0}   (None where a class has no region)

A blank white screen scores 0 on texts and icons and what the recording's share of
white backgrounds is on fills; a region where neither image shows ink is left out.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator

import numpy as np

from phoneworld.runtime.look import Rect
from phoneworld.ui.node import Node
from phoneworld.visual.sample import INK, clip, distances

CLASSES = ("text", "icon", "fill")
ICON = (16, 240)
"""Least and most pixels a side of an icon region (app pixels, a 1080-wide screen)."""
FILL = 96
"""Least pixels a side of a fill region."""
NEAR = 3
"""Pixels within which an icon's ink matches the other's."""


def regions(root: Node, width: int, height: int) -> Iterator[tuple[str, Rect]]:
    """The visible views of `root` inside a width x height screen, each with its class
    (`CLASSES`); a rectangle appears once per class."""
    seen: set[tuple[str, Rect]] = set()
    scale = width / 1080
    for node in _visible(root):
        r = clip(tuple(node.bounds), width, height)
        if r is None:
            continue
        w, h = r[2] - r[0], r[3] - r[1]
        if node.text.strip():
            got = "text"
        elif not node.children and ICON[0] * scale <= min(w, h) \
                and max(w, h) <= ICON[1] * scale:
            got = "icon"
        elif min(w, h) >= FILL * scale:
            got = "fill"
        else:
            continue
        if (got, r) not in seen:
            seen.add((got, r))
            yield got, r


def _visible(node: Node) -> Iterator[Node]:
    if not node.visible:
        return
    yield node
    for c in node.children:
        yield from _visible(c)


def _ink(pixels: np.ndarray, r: Rect) -> tuple[np.ndarray, np.ndarray]:
    """The background colour of `r` and its ink mask (far from that colour)."""
    bg, dist = distances(pixels[r[1]:r[3], r[0]:r[2]])
    return bg, dist > INK * INK


def line_height(mask: np.ndarray) -> int:
    """The height of the tallest run of rows holding ink (gaps of two rows or less do not
    split a run: the dot of an i, JPEG noise); 0 where there is none."""
    rows = np.flatnonzero(mask.any(axis=1))
    if rows.size == 0:
        return 0
    splits = np.flatnonzero(np.diff(rows) > 3)
    starts = np.concatenate(([rows[0]], rows[splits + 1]))
    ends = np.concatenate((rows[splits], [rows[-1]]))
    return int((ends - starts).max()) + 1


def _grown(mask: np.ndarray, k: int) -> np.ndarray:
    """`mask` dilated by `k` pixels (a square)."""
    out = mask.copy()
    for axis in (0, 1):
        src = out.copy()
        n = src.shape[axis]
        for d in range(1, k + 1):
            if d >= n:
                break
            sl_a = [slice(None)] * 2
            sl_b = [slice(None)] * 2
            sl_a[axis], sl_b[axis] = slice(d, None), slice(None, -d)
            out[tuple(sl_a)] |= src[tuple(sl_b)]
            out[tuple(sl_b)] |= src[tuple(sl_a)]
    return out


def ink_match(a: np.ndarray, b: np.ndarray, near: int = NEAR) -> float | None:
    """The F-score of two ink masks of one size, a pixel matching where the other has
    ink within `near` pixels; None where neither has ink."""
    na, nb = int(a.sum()), int(b.sum())
    if na == 0 and nb == 0:
        return None
    if na == 0 or nb == 0:
        return 0.0
    p = float((a & _grown(b, near)).sum()) / na
    r = float((b & _grown(a, near)).sum()) / nb
    return 2 * p * r / (p + r) if p + r else 0.0


def region_scores(mock: np.ndarray, recorded: np.ndarray, root: Node
                  ) -> dict[str, float | None]:
    """Per class, the mean agreement of `mock` with `recorded` (RGB arrays of one size)
    over the recording's regions (`root`: its hierarchy); see the module docstring."""
    h, w = recorded.shape[:2]
    got: dict[str, list[float]] = {c: [] for c in CLASSES}
    for cls, r in regions(root, w, h):
        bg_m, ink_m = _ink(mock, r)
        bg_r, ink_r = _ink(recorded, r)
        if cls == "text":
            hm, hr = line_height(ink_m), line_height(ink_r)
            if hm or hr:
                got[cls].append(min(hm, hr) / max(hm, hr))
        elif cls == "icon":
            s = ink_match(ink_m, ink_r)
            if s is not None:
                got[cls].append(s)
        else:
            got[cls].append(float(np.linalg.norm(bg_m - bg_r) <= INK))
    return {c: statistics.mean(v) if v else None for c, v in got.items()}
