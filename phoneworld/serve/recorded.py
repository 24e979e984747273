"""Recorded pixels, laid by the painter itself: a screen's plate (a recorded screenshot)
and the paints on it (colours; cuts of recorded images: rows moved, sprites, switches).

    rec = Recorded(assets.get, LRU(1 << 28))
    base = rec.plate(pl.plate, 1080, 2400)   # decoded once (7-21 ms), kept
    painted = rec.painted(pl, base, (pl.plate, 1080, 2400, pl.paints))

Decoded images, plates and plates with their paints laid are kept in the painter's LRU
(`kept`, shared with its empty phones). Paints on a plate are laid from the last ones
laid on it where they differ in part of the screen (`painted`).

A dialog's paints start with the screen under it, whole, then that screen's own paints,
a scrim (black at an alpha, whole) and the window (`runtime.page._under`). Such paints
are laid from their ground (`ground`: the last whole recorded image, the page's own
plate under it never decoded) dimmed once and kept (`dimmed`): only the under-screen's
paints are dimmed afresh, in their rectangles, each pixel once. The dim is a function
of each pixel alone, so this gives the same bytes as laying every paint in order.
"""

from __future__ import annotations

from collections.abc import Callable
from difflib import SequenceMatcher
from typing import Any

import numpy as np

from phoneworld.runtime.cache import LRU
from phoneworld.runtime.compose import Paint
from phoneworld.runtime.layers import PageLayers
from phoneworld.runtime.regions import inside
from phoneworld.serve.frame import Frame, scrimmed
from phoneworld.serve.plates import PLATES, Plates, Window, decode_image
from phoneworld.serve.regions import area, cut, meets

Rect = tuple[int, int, int, int]


class Recorded:
    """The recorded images of one painter, decoded, and what is laid of them.

    Args:
        assets: asset bytes by name (or None: no recorded images).
        kept: where decoded images, plates and plates with paints laid are kept, by
            ("image" | "plate" | "painted", ...).
    """

    def __init__(self, assets: Callable[[str], bytes | None] | None,
                 kept: LRU[Frame | np.ndarray], plates: Plates = PLATES) -> None:
        self.assets = assets
        self.kept = kept
        self.plates = plates
        """Plates prepared ahead (`plates`: the process's)."""
        self._lent: dict[tuple[Any, ...], None] = {}
        """Keys of kept frames handed out since `settle` (copies drawn on them copy
        their rows from them, and inflate them there: they grow)."""
        self.last_paints: dict[tuple[Any, ...], tuple[Paint, ...]] = {}
        """The paints last laid on each plate (by plate, width, height): where the next
        paints on it are laid from (`painted`)."""

    def painted(self, pl: PageLayers, base: Frame, key: tuple[Any, ...]) -> Frame | None:
        """The plate `base` with `pl.paints` laid, kept by `key` (None: an image that
        cannot be read). Drawn from the last one laid on this plate where its paints
        differ in a part of the screen (a row removed, a switch flipped): only the
        rectangles of the paints that differ are restored to the plate and have the
        paints that meet them laid again, in order, each cut to the rectangle (the
        paints are opaque, so what shows elsewhere is the same paint on either). The
        frames laid share the rows and encoded bands they do not change (`Frame.copy`)."""
        painted = self.kept.get(("painted", key))
        if painted is not None:
            assert isinstance(painted, Frame)
            self._lent["painted", key] = None
            return painted
        plate, size = key[:3], base.size
        old = self.last_paints.get(plate)
        start = None if old is None else self.kept.get(("painted", (*plate, old)))
        if start is not None:
            self._lent["painted", (*plate, old)] = None
        rects: list[Rect | None] = [None]  # None: the whole screen
        if start is not None and old is not None:
            ops = SequenceMatcher(None, old, pl.paints, autojunk=False).get_opcodes()
            differ = cut([p.rect for tag, i1, i2, j1, j2 in ops if tag != "equal"
                          for p in (*old[i1:i2], *pl.paints[j1:j2])], size)
            if area(differ) < size[0] * size[1] // 2:
                rects = list(differ)
        assert start is None or isinstance(start, Frame)
        if rects == [None] or start is None:
            painted = self._whole(pl.paints, base, pl.plate)
            if painted is None:
                return None
        else:
            painted = start.copy()
        for r in rects:
            if r is None:
                break
            if not self._relay(painted, base, r, pl.paints):
                return None
        # Steps that change only texts keep the paints (and their encoded bands).
        self.kept.put(("painted", key), painted)
        self._lent["painted", key] = None
        self.last_paints[plate] = pl.paints
        return painted

    def _whole(self, paints: tuple[Paint, ...], base: Frame, plate: str) -> Frame | None:
        """`paints` laid on a copy of `base` (`plate`, or the ground `ground` names), each
        in order (less those that change nothing: `unchanged`); from the ground dimmed
        where a scrim follows it (`dimmed`)."""
        size = base.size
        g = _ground_at(paints, size)
        k = _scrim_at(paints, size, g)
        ground = base if g < 0 else self.plate(paints[g].image, *size, load=False)
        if ground is None:
            return None
        name = plate if g < 0 else paints[g].image
        if k is None:
            painted = ground.copy()
            return painted if self._strips(painted, ground, unchanged(
                paints[g + 1:], name, size)) else None
        # The ground dimmed whole, kept for every state laid on it (a
        # dialog's window may move from state to state: onelist's grows with its list),
        # with the window laid on it where that was prepared (`plates.plates_of`).
        hole = _cover(paints[k + 1], size) if k + 1 < len(paints) else None
        dim = None if hole is None else self.dimmed(
            paints[g].image, *size, paints[k].color, (paints[k + 1].image, hole))
        rest = k + 1 if dim is None else k + 2  # (the paints laid on it)
        if dim is None:
            dim = self.dimmed(paints[g].image, *size, paints[k].color)
        if dim is None:
            return None
        painted = dim.copy()
        # The under-screen's paints: each rectangle they meet restored to the ground,
        # they laid there, then dimmed (the rectangles do not overlap: once each), the
        # parts under the window left out (it covers them).
        below = unchanged(paints[g + 1:k], name, size)
        for r in cut([p.rect for p in below], size):
            for part in _less(r, hole):
                if not self._relay(painted, ground, part, (*below, paints[k])):
                    return None
        return painted if self._strips(painted, painted, paints[rest:]) else None

    def _strips(self, f: Frame, base: Frame, paints: tuple[Paint, ...]) -> bool:
        """`paints` laid on `f` (which shows `base` where they lie), in order, strip by
        strip: the paints whose rows overlap, joined, laid on a copy of their strip,
        put in `f` once (a screen of many small wipes: each costs a slice, not a change
        to the frame). Paints in different strips share no pixel, so this is the frame
        that laying each in turn gives. False: an image that cannot be read."""
        w, h = f.size
        spans = sorted((max(0, p.rect[1]), min(h, p.rect[3]), i) for i, p in enumerate(paints)
                       if max(0, p.rect[0]) < min(w, p.rect[2])
                       and max(0, p.rect[1]) < min(h, p.rect[3]))
        groups: list[list[int]] = []
        end = -1
        for y1, y2, i in spans:
            if y1 >= end:
                groups.append([])
            groups[-1].append(i)
            end = max(end, y2) if y1 < end else y2
        for group in groups:
            group.sort()  # (in paint order)
            mine = tuple(paints[i] for i in group)
            r = (max(0, min(p.rect[0] for p in mine)), max(0, min(p.rect[1] for p in mine)),
                 min(w, max(p.rect[2] for p in mine)), min(h, max(p.rect[3] for p in mine)))
            # From the last paint that covers the whole strip with opaque pixels (a list
            # row's background): nothing under it read (nor inflated) or laid.
            start = next((j for j in range(len(mine) - 1, -1, -1)
                          if _opaque(mine[j], (w, h)) and inside(r, mine[j].rect)), None)
            if not self._relay_from(f, base, r, mine, start or 0,
                                    covered=start is not None):
                return False
        return True

    def _relay(self, f: Frame, base: Frame, r: Rect, paints: tuple[Paint, ...]) -> bool:
        """Rectangle `r` of `f` restored to `base`, then the `paints` that meet it laid
        there again, in order, each cut to it (False: an image that cannot be read).
        They are laid on a copy of the rectangle, put in `f` once: where rows moved
        (most of a list), `f`'s pixels are written and compared once, not once a paint.
        Where a paint covers part of `r` with opaque recorded pixels (a dialog's window
        over the screen under it), that part is laid from that paint on (what lies
        under it is never shown), the rest as the rest."""
        for i in range(len(paints) - 1, 0, -1):
            c = _cover(paints[i], f.size)
            if c is not None and meets(c, r):
                inner = (max(r[0], c[0]), max(r[1], c[1]), min(r[2], c[2]), min(r[3], c[3]))
                return all(self._relay_from(f, base, q, paints, 0) for q in _less(r, c)) \
                    and self._relay_from(f, base, inner, paints, i)
        return self._relay_from(f, base, r, paints, 0)

    def _relay_from(self, f: Frame, base: Frame, r: Rect, paints: tuple[Paint, ...],
                    start: int, covered: bool | None = None) -> bool:
        """`_relay` of `r` from `paints[start]` on (from `base` unless that paint covers
        `r`: `covered`, by default where `start` is not 0)."""
        x1, y1, x2, y2 = r
        if covered is None:
            covered = start > 0
        canvas = _Canvas(np.empty((y2 - y1, x2 - x1, 3), np.uint8) if covered else
                         base.rows(y1, y2)[y1:y2, x1:x2].copy())
        whole = (0, 0, *canvas.size)
        for p in paints[start:]:
            if meets(p.rect, r):
                q = p.rect
                moved = Paint((q[0] - x1, q[1] - y1, q[2] - x1, q[3] - y1), color=p.color,
                              image=p.image, image_size=p.image_size,
                              origin=(p.origin[0] - x1, p.origin[1] - y1))
                if not self.lay(canvas, moved, whole):  # type: ignore[arg-type]
                    return False
        f.paste(x1, y1, canvas.pixels)
        return True

    def ground(self, plate: str, paints: tuple[Paint, ...], size: tuple[int, int]) -> str:
        """The recorded image a frame of `plate` with `paints` starts from: the last
        paint that covers the whole screen with a recorded image where there is one (a
        dialog's screen under it), else the plate."""
        g = _ground_at(paints, size)
        return paints[g].image if g >= 0 else plate

    def dimmed(self, name: str, w: int, h: int, color: str, window: Window | None = None
               ) -> Frame | None:
        """Recorded image `name` (as `plate` has it) under `color` (#rrggbbaa), kept
        (its bands encoded when a frame laid on it first needs them); None where it
        cannot be read. With a dialog's `window` laid on it: only where `plates`
        prepared that (else None)."""
        key = ("dimmed", name, w, h, color, window)
        f = self.kept.get(key)
        if f is None:
            f = self.plates.get(name, w, h, color, window)  # (`plates.plates_of`)
            if f is not None:
                self.kept.put(key, f)
            elif window is not None:
                return None
        if f is None:
            base = self.plate(name, w, h)
            if base is None:
                return None
            # Made whole by one table look-up a pixel, not laid as a paint: no copy of
            # the plate, no comparison with it (7-8 ms here, where laying it took 50).
            f = Frame(scrimmed(base.pixels, color))
            self.kept.put(key, f)
        self._lent[key] = None
        assert isinstance(f, Frame)
        return f

    def decode(self, name: str, w: int, h: int, keep: bool = True) -> np.ndarray | None:
        """Recorded image `name` as w x h RGB pixels (None where it cannot be read),
        kept unless not to `keep` (a plate: kept as a frame)."""
        key = ("image", name, w, h)
        img = self.kept.get(key) if keep else None
        plate = self.kept.get(("plate", name, w, h)) if keep and img is None else None
        if plate is not None:  # (a screen under a dialog: decoded once, as its plate)
            assert isinstance(plate, Frame)
            return self._loaded(("plate", name, w, h), plate).pixels
        if img is None:
            data = self.assets(name) if self.assets is not None else None
            if data is None:
                return None
            img = decode_image(data, w, h)
            if keep:
                self.kept.put(key, img)
        assert isinstance(img, np.ndarray)
        return img

    def plate(self, name: str, w: int, h: int, load: bool = True) -> Frame | None:
        """Recorded image `name` as a w x h frame, kept (its bands encoded when a frame
        laid on it first needs them); None where it cannot be read. Where `plates`
        prepared it, it is that compact frame: unless to `load` its pixels now, its rows
        are inflated only where read (then `settle`)."""
        key = ("plate", name, w, h)
        f = self.kept.get(key)
        if f is None:
            f = self.plates.get(name, w, h)
            if f is None and not load and self.assets is not None:
                # (Not prepared yet: prepared now, here, for later painters too.)
                f = self.plates.take(self.assets, name, w, h)
            if f is None:
                img = self.decode(name, w, h, keep=False)
                if img is None:
                    return None
                f = Frame(img)  # never changed: frames are drawn on copies
            self.kept.put(key, f)
        self._lent[key] = None
        if load:
            self._loaded(key, f)
        assert isinstance(f, Frame)
        return f

    def _loaded(self, key: tuple, f: Frame) -> Frame:
        """Kept frame `f` with its pixels decoded (and weighed again where they were not)."""
        if not f.loaded:
            f.pixels  # noqa: B018 - decoded now, once for every frame drawn on it
            self.kept.put(key, f)
        return f

    def settle(self) -> None:
        """Weigh again what was handed out of `kept` since the last call (a compact
        plate or ground, or frames laid on one, whose rows copies drawn on them
        inflated there)."""
        for key in self._lent:
            f = self.kept.get(key)
            if f is not None:
                self.kept.put(key, f)
        self._lent.clear()

    def lay(self, f: Frame, p: Paint, within: Rect | None = None) -> bool:
        """Lay a paint on `f` (the part of it `within` a rectangle, and on it: a see-through
        colour off its left or top edge was laid nowhere): a colour, or the part of an
        image inside its rectangle."""
        x1, y1, x2, y2 = p.rect
        if within is None:
            within = (0, 0, *f.size)
        x1, y1 = max(x1, within[0], 0), max(y1, within[1], 0)
        x2, y2 = min(x2, within[2], f.size[0]), min(y2, within[3], f.size[1])
        if x1 >= x2 or y1 >= y2:
            return True
        if p.color:
            rgb = tuple(int(p.color[i:i + 2], 16) for i in (1, 3, 5))
            if len(p.color) == 9:  # #rrggbbaa: laid over what is there (a scrim)
                f.paste(x1, y1, scrimmed(f.rows(y1, y2)[y1:y2, x1:x2], p.color))
                return True
            f.fill((x1, y1, x2, y2), rgb)  # type: ignore[arg-type]
            return True
        (iw, ih), (ox, oy) = p.image_size, p.origin
        x1, y1 = max(x1, ox), max(y1, oy)
        x2, y2 = min(x2, ox + iw), min(y2, oy + ih)
        img = self._image_rows(p.image, iw, ih, max(0, y1 - oy), max(0, y2 - oy))
        if img is None:
            return False
        if x1 < x2 and y1 < y2:
            f.paste(x1, y1, img[y1 - oy:y2 - oy, x1 - ox:x2 - ox])
        return True

    def _image_rows(self, name: str, w: int, h: int, y1: int, y2: int
                    ) -> np.ndarray | None:
        """Recorded image `name` as w x h pixels, of which rows y1 to y2 are sure to be
        decoded (None where it cannot be read): a plate `plates` prepared (a row cut
        from the screen's own recording) inflates only the bands they lie in."""
        key = ("plate", name, w, h)
        f = self.kept.get(key)
        if f is None and self.kept.get(("image", name, w, h)) is None:
            f = self.plates.get(name, w, h)
            if f is not None:
                self.kept.put(key, f)
        if not isinstance(f, Frame):
            return self.decode(name, w, h)
        self._lent[key] = None  # (weighed again when the draw ends: `settle`)
        return f.rows(y1, y2)


class _Canvas:
    """Pixels that paints are laid on as on a frame (`Recorded.lay`), written as they
    come: no bands to mark stale, nothing compared."""

    __slots__ = ("pixels", "size")

    def __init__(self, pixels: np.ndarray) -> None:
        self.pixels = pixels
        self.size = (pixels.shape[1], pixels.shape[0])

    def fill(self, rect: Rect, rgb: tuple[int, int, int]) -> None:
        x1, y1 = max(0, rect[0]), max(0, rect[1])
        x2, y2 = min(self.size[0], rect[2]), min(self.size[1], rect[3])
        if x1 < x2 and y1 < y2:
            row = np.empty((x2 - x1, 3), np.uint8)  # (from a row: `Frame.fill`)
            row[:] = rgb
            self.pixels[y1:y2, x1:x2] = row

    def rows(self, y1: int, y2: int) -> np.ndarray:
        return self.pixels

    def paste(self, x: int, y: int, rgb: np.ndarray) -> None:
        x1, y1 = max(0, x), max(0, y)
        x2 = min(self.size[0], x + rgb.shape[1])
        y2 = min(self.size[1], y + rgb.shape[0])
        if x1 < x2 and y1 < y2:
            self.pixels[y1:y2, x1:x2] = rgb[y1 - y:y2 - y, x1 - x:x2 - x, :3]


def unchanged(paints: tuple[Paint, ...], ground: str, size: tuple[int, int]
              ) -> tuple[Paint, ...]:
    """`paints` (laid in order on recorded image `ground`) less those that change no
    pixel: a cut of `ground` where it lies (a list row laid where the recording has it,
    after a wipe) shows the ground there, so the paints before it that lie inside it
    are left out, and it too where no paint left before it meets it. Laid on the
    ground, the same pixels; only the rest are laid (and dimmed, under a dialog).

        (wipe row 3, row 3 cut from the ground at (0, 0), wipe x)  ->  (wipe x)
    """
    w, h = size
    out: list[Paint] = []
    for p in paints:
        if p.image == ground and p.image_size == size and p.origin == (0, 0):
            out = [q for q in out if not inside(
                (max(0, q.rect[0]), max(0, q.rect[1]), min(w, q.rect[2]), min(h, q.rect[3])),
                p.rect)]
            if not any(meets(q.rect, p.rect) for q in out):
                continue
        out.append(p)
    return tuple(out)


def _whole_image(p: Paint, size: tuple[int, int]) -> bool:
    return bool(p.image) and p.rect == (0, 0, *size) and p.image_size == size \
        and p.origin == (0, 0)


def _less(r: Rect, hole: Rect | None) -> list[Rect]:
    """`r` less `hole`: up to four rectangles (above, below, left, right of it)."""
    if hole is None or not meets(r, hole):
        return [r]
    x1, y1, x2, y2 = r
    hx1, hy1, hx2, hy2 = hole
    parts = [(x1, y1, x2, min(y2, hy1)), (x1, max(y1, hy2), x2, y2),
             (x1, max(y1, hy1), min(x2, hx1), min(y2, hy2)),
             (max(x1, hx2), max(y1, hy1), x2, min(y2, hy2))]
    return [p for p in parts if p[0] < p[2] and p[1] < p[3]]


def _opaque(p: Paint, size: tuple[int, int]) -> bool:
    """Whether paint `p` covers its rectangle with opaque pixels (a colour without alpha,
    or a cut of a recorded image of the screen's size inside it)."""
    return (bool(p.color) and len(p.color) == 7) or _cover(p, size) is not None


def _cover(p: Paint, size: tuple[int, int]) -> Rect | None:
    """The rectangle paint `p` covers whole with opaque pixels (a cut of a recorded
    image of the screen's size, inside the screen), or None."""
    x1, y1, x2, y2 = p.rect
    if not p.image or p.image_size != size or p.origin != (0, 0) or \
            not (0 <= x1 < x2 <= size[0] and 0 <= y1 < y2 <= size[1]):
        return None
    return p.rect


def _ground_at(paints: tuple[Paint, ...], size: tuple[int, int]) -> int:
    """The index of the last paint that covers the whole screen with a recorded image
    (what shows under every later paint), or -1."""
    for i in range(len(paints) - 1, -1, -1):
        if _whole_image(paints[i], size):
            return i
    return -1


def _scrim_at(paints: tuple[Paint, ...], size: tuple[int, int], g: int) -> int | None:
    """The index of the first whole-screen see-through colour after the ground `g` (a
    dialog's scrim), or None (or no ground)."""
    if g < 0:
        return None
    for i in range(g + 1, len(paints)):
        p = paints[i]
        if len(p.color) == 9 and p.rect == (0, 0, *size):
            return i
    return None
