"""Pictures that follow state: a seek bar beside the number it sets, an icon toggle's
picture of its check state (compile time, pure).

    pairs = gauge_views(screen.root)                  # [(picture view, text view)]
    cut = gauge_cut(picture, text, recordings)        # recordings: [(root, pixels)]
    cut.variants                                      # ((recorded text, pixels), ...)

A plate is one recording: a seek bar, progress bar or rating bar on it shows the value
of that moment, and when the number beside it changes (the font size steps from 100% to
130%) the plate's bar contradicts it. The state does not hold the bar's position (no
view attribute binds it), but the recordings do: each recording of the screen shows
the bar as it was while the text read what it read. So a bar outside lists, with no
text of its own, whose nearest state-bound text (`text` not a literal) shares its
parent or grandparent, is cut from one recording per text it was seen beside; where
the cuts differ (the bar follows the text), the runtime paints the cut recorded with
the text the screen shows (`runtime.compose`), or covers the bar where none was.

A toggle with no text (a password field's eye) shows its check state by its picture
alone: it follows itself, cut once per state it was recorded in (`CHECKED`,
`UNCHECKED`), so the flipped state is drawn as the app drew it, not as a check box.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from phoneworld.runtime.look import CHECKED, UNCHECKED, Rect
from phoneworld.spec.ast import Const, View
from phoneworld.ui.node import Node
from phoneworld.visual.sample import clip, dominant, hex_color

BARS = ("seekbar", "progressbar", "ratingbar", "slider")
"""Class names (lower-cased, short) of views that picture a value."""
DIFFER = 40
"""Levels (of 255) beyond which two recordings' pixels differ (JPEG noise stays below)."""
SHARE = 0.005
"""Share of a bar's pixels that must differ between two cuts for it to follow its text."""


@dataclass(frozen=True)
class GaugeCut:
    """A bar (`bounds`) as recorded beside each text of the view at `follows`."""

    bounds: Rect
    follows: Rect
    bg: str
    variants: tuple[tuple[str, np.ndarray], ...]


def _short(cls: str) -> str:
    return cls.rsplit(".", 1)[-1].rsplit("$", 1)[-1].lower()


def _bound_text(v: View) -> bool:
    return v.text is not None and not isinstance(v.text, Const) and v.items is None


def _walk(v: View, path: tuple[View, ...] = ()) -> Iterator[tuple[View, tuple[View, ...]]]:
    """Views outside lists, each with its ancestors (nearest last)."""
    yield v, path
    if v.items is None:
        for c in v.children:
            yield from _walk(c, (*path, v))


def gauge_views(root: View) -> list[tuple[View, View]]:
    """(bar, text) pairs of a screen's spec: each bar outside lists with no text, and
    the state-bound text nearest it under its parent or grandparent; and (toggle,
    toggle) for each toggle outside lists with no text whose check state is bound."""
    views = list(_walk(root))
    out = []
    for v, path in views:
        if v.text is None and "checkable" in v.flags and v.checked is not None \
                and not isinstance(v.checked, Const):
            out.append((v, v))
            continue
        if v.text is not None or not any(b in _short(v.cls) for b in BARS) or not path:
            continue
        near = path[-2] if len(path) >= 2 else path[-1]
        texts = [t for t, p in views if _bound_text(t) and (near in p)]
        if texts:
            cx, cy = (v.bounds[0] + v.bounds[2]) / 2, (v.bounds[1] + v.bounds[3]) / 2
            out.append((v, min(texts, key=lambda t: (
                abs((t.bounds[0] + t.bounds[2]) / 2 - cx)
                + abs((t.bounds[1] + t.bounds[3]) / 2 - cy), t.bounds))))
    return out


def _at(root: Node, bounds: Rect, text: bool) -> Node | None:
    for _, n in root.walk():
        if n.visible and n.bounds == bounds and (bool(n.text) or not text):
            return n
    return None


def recorded_texts(bar: View, text: View, roots: Sequence[Node]) -> list[str | None]:
    """For each recorded hierarchy, the text shown at `text`'s place while `bar` was
    there too, or a toggle's check state (`CHECKED`, `UNCHECKED`) where the toggle
    follows itself; None where either is missing."""
    out: list[str | None] = []
    for root in roots:
        if text is bar:
            n = _at(root, bar.bounds, text=False)
            out.append(None if n is None or not n.checkable
                       else CHECKED if n.checked else UNCHECKED)
            continue
        t = _at(root, text.bounds, text=True)
        out.append(t.text if t is not None and _at(root, bar.bounds, text=False) else None)
    return out


def gauge_cut(bar: View, text: View, seen: Sequence[tuple[str, Callable[[], np.ndarray | None]]]
              ) -> GaugeCut | None:
    """The bar as recorded beside each text (`seen`: a text and a reader of the pixels
    of a recording that showed it, first one per text), or None where the bar looks
    the same beside every text (it does not follow it) or fewer than two were seen."""
    variants: list[tuple[str, np.ndarray]] = []
    for t, read in seen:
        pixels = read()
        if pixels is None:
            continue
        r = clip(bar.bounds, pixels.shape[1], pixels.shape[0])
        if r != bar.bounds:
            return None  # a bar partly off the screen: not one picture
        variants.append((t, np.ascontiguousarray(pixels[r[1]:r[3], r[0]:r[2]])))
    if len(variants) < 2:
        return None
    first = variants[0][1].astype(np.int16)
    if not any((np.abs(v.astype(np.int16) - first).max(axis=2) > DIFFER).mean() > SHARE
               for _, v in variants[1:]):
        return None
    edge = np.concatenate([first[0], first[-1], first[:, 0], first[:, -1]]).astype(np.uint8)
    return GaugeCut(bounds=bar.bounds, follows=text.bounds,
                    bg=hex_color(dominant(edge)), variants=tuple(variants))
