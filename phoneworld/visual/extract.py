"""A screen's look from one recording: plate, marks and lists (pure, compile time).

    pixels = screen_pixels(Image.open(shot), 1080, 1920)   # app-sized RGB array
    cut = extract_screen(screen.root, observation.root, pixels, "onelist/states/x.json")
    cut.plate, cut.marks, cut.lists                        # -> `runtime.look` data

The plate is the recording itself; `marks` are its state-dependent views outside lists
(texts, check boxes, text fields) with what they showed, their background and text
style; each list of the screen's spec gets its recorded rows (`Item`: bounds and
signature) and a *sprite*, a recorded row with its texts wiped, for rows the recording
never showed. `pick_recording` chooses, of a screen's recordings, the one most like
what the mock shows first, so that the fewest marks need redrawing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np

from phoneworld.runtime.look import Item, ListLook, Mark, Rect, signature
from phoneworld.spec.ast import View
from phoneworld.ui.node import Node
from phoneworld.visual.sample import (
    accent,
    background_and_ink,
    clip,
    dominant,
    hex_color,
    text_style,
)


@dataclass(frozen=True)
class Cut:
    """What `extract_screen` takes from one recording (images not yet encoded)."""

    plate: np.ndarray | Callable[[], np.ndarray]
    """The recording's pixels (or, once cut, a function that reads them again)."""
    marks: tuple[Mark, ...]
    accent: str
    lists: tuple[tuple[ListLook, np.ndarray | None], ...]
    """Each list's look (its `sprite` still unnamed) and the sprite's pixels."""
    source: str
    varying: tuple[Rect, ...] = ()
    """Pictures outside lists that other recordings of the screen show otherwise."""


def screen_pixels(image, width: int, height: int) -> np.ndarray:
    """A screenshot (PIL image) as the app's `width` x `height` RGB array: scaled to the
    app's width, its top `height` rows (recorders pad short screens below, in black)."""
    from PIL import Image

    img = image.convert("RGB")
    if img.width != width:
        h = max(1, round(img.height * width / img.width))
        img = img.resize((width, h), Image.Resampling.LANCZOS)
    if img.height < height:
        canvas = Image.new("RGB", (width, height), (0, 0, 0))
        canvas.paste(img, (0, 0))
        img = canvas
    return np.asarray(img.crop((0, 0, width, height)), dtype=np.uint8)


def _visible(root: Node) -> Iterator[tuple[Node, tuple[int, ...]]]:
    for path, n in root.walk():
        if n.visible:
            yield n, path


def _lists(view: View) -> Iterator[View]:
    stack = [view]
    while stack:
        v = stack.pop()
        if v.items is not None:
            yield v
            continue  # rows of rows are the outer list's business
        stack.extend(reversed(v.children))


def _find_list(root: Node, view: View) -> tuple[Node, tuple[int, ...]] | None:
    """The recorded node that is `view`'s list: same bounds, the same class if any."""
    same = [(n, p) for n, p in _visible(root) if n.bounds == view.bounds]
    for n, p in same:
        if n.class_name == view.cls:
            return n, p  # an empty list too
    full = [(n, p) for n, p in same if n.children]
    if full:
        return full[-1]
    # The list grew or shrank in this recording: the same view by class and id, or
    # where it has no id, by class and its top edge (a menu holding fewer items).
    x1, y1, x2, y2 = view.bounds
    for n, p in _visible(root):
        b = n.bounds
        if n.class_name == view.cls and view.id and n.resource_id == view.id \
                and b[0] < x2 and b[2] > x1 and b[1] < y2 and b[3] > y1:
            return n, p
    if not view.id:
        for n, p in _visible(root):
            if n.class_name == view.cls and not n.resource_id and n.children \
                    and n.bounds[:3] == (x1, y1, x2):
                return n, p
    return None


def node_signature(node: Node) -> tuple[str, ...]:
    """A recorded row's signature (`runtime.look.signature` of its visible views)."""
    return signature((n.text, n.checkable, n.checked) for n, _ in _visible(node))


@dataclass(frozen=True)
class _Drawn:
    """A recording's leaves with no text (pictures, icons, backgrounds) with their
    place in drawing order (document order: Android draws a later view over an earlier
    one), and every visible view's place in it (by identity)."""

    leaves: tuple[tuple[int, Rect], ...]
    order: dict[int, int]


def _over(n: Node, drawn: _Drawn) -> list[Rect]:
    """Leaf views that overlap `n` without being inside it (drawn over it: its ink is
    not theirs). A leaf that covers all of `n` is none of them: `n` is drawn over it (a
    caption on a picture) or shows through it (a bottom sheet's full-screen scrim, a
    touch interceptor), since the recording shows `n`: the ink there is `n`'s. Nor is a
    leaf drawn before `n` and larger than it both ways, though it covers only part of
    it: the background `n` is drawn on (a panel's picture that ends inside the text of
    a player bar drawn over the panel's edge)."""
    x1, y1, x2, y2 = n.bounds
    at = drawn.order.get(id(n), -1)
    out = []
    for k, b in drawn.leaves:
        if (b[0] <= x1 and b[1] <= y1 and b[2] >= x2 and b[3] >= y2) or \
                (b[0] >= x1 and b[1] >= y1 and b[2] <= x2 and b[3] <= y2 and n.children):
            continue
        if k < at and b[2] - b[0] >= x2 - x1 and b[3] - b[1] >= y2 - y1:
            continue
        if b[0] < x2 and b[2] > x1 and b[1] < y2 and b[3] > y1:
            out.append(b)
    return out


def _leaves(root: Node) -> _Drawn:
    order: dict[int, int] = {}
    leaves = []
    for k, (n, _) in enumerate(_visible(root)):
        order[id(n)] = k
        if not n.children and not n.text.strip():
            leaves.append((k, n.bounds))
    return _Drawn(tuple(leaves), order)


def _mark(pixels: np.ndarray, n: Node, leaves: _Drawn,
          offset: tuple[int, int] = (0, 0)) -> Mark:
    over = _over(n, leaves)
    style, bg, ink = text_style(pixels, n.bounds, n.text, over, field=n.editable,
                                check=n.checkable)
    if ink is None and n.checkable:
        bg, ink = background_and_ink(pixels, n.bounds, over)
    dx, dy = offset
    b = n.bounds
    i = ink or (0, 0, 0, 0)
    return Mark(bounds=(b[0] - dx, b[1] - dy, b[2] - dx, b[3] - dy), text=n.text,
                checked=n.checked if n.checkable else None,
                ink=(i[0] - dx, i[1] - dy, i[2] - dx, i[3] - dy) if ink else (0, 0, 0, 0),
                bg=hex_color(bg), style=style)


def _marked(n: Node) -> bool:
    return bool(n.text.strip()) or n.checkable or n.editable


def extract_screen(view: View, root: Node, pixels: np.ndarray, source: str) -> Cut:
    """The look of the screen whose spec root is `view`, from a recording of it: its
    hierarchy `root` and its `pixels` (see `screen_pixels`)."""
    h, w = pixels.shape[:2]
    in_lists: set[tuple[int, ...]] = set()
    leaves = _leaves(root)
    lists = []
    for lv in _lists(view):
        found = _find_list(root, lv)
        if found is None:
            continue
        node, path = found
        in_lists.add(path)
        lists.append(_list_look(pixels, lv, node, leaves))
    marks = []
    for n, path in _visible(root):
        if any(path[:len(p)] == p for p in in_lists):
            continue
        if _marked(n) and clip(n.bounds, w, h) is not None:
            marks.append(_mark(pixels, n, leaves))
    return Cut(plate=pixels, marks=tuple(marks), accent=accent(pixels), lists=tuple(lists),
               source=source)


def _rows(lv: View, node: Node) -> list[Node]:
    """The recorded list node's visible rows that meet the list's bounds."""
    lx1, ly1, lx2, ly2 = lv.bounds
    return [c for c in node.children if c.visible and c.bounds[0] < lx2
            and c.bounds[2] > lx1 and c.bounds[1] < ly2 and c.bounds[3] > ly1]


def _list_look(pixels: np.ndarray, lv: View, node: Node, leaves: _Drawn
               ) -> tuple[ListLook, np.ndarray | None]:
    h, w = pixels.shape[:2]
    region = clip(lv.bounds, w, h)
    bg = hex_color(dominant(pixels[region[1]:region[3], region[0]:region[2]])) \
        if region else "#ffffff"
    rows = _rows(lv, node)
    items = tuple(Item(bounds=r.bounds, texts=node_signature(r),
                       marks=tuple(_mark(pixels, n, leaves, r.bounds[:2])
                                   for n, _ in _visible(r) if _marked(n)))
                  for r in rows)
    look = ListLook(bounds=lv.bounds, bg=bg, items=items)
    found = _sprite(pixels, lv, rows, leaves)
    if found is None:
        return look, None
    sprite, size, marks = found
    return replace(look, sprite_size=size, sprite_marks=marks), sprite


def _sprite(pixels: np.ndarray, lv: View, rows: Sequence[Node], leaves: _Drawn
            ) -> tuple[np.ndarray, tuple[int, int], tuple[Mark, ...]] | None:
    """A recorded row with its texts wiped (the whole row most like the item template
    in size), its size, and its texts' marks relative to it; None without a whole row."""
    h, w = pixels.shape[:2]
    lx1, ly1, lx2, ly2 = lv.bounds
    whole = [r for r in rows if r.bounds[0] >= lx1 and r.bounds[1] >= ly1
             and r.bounds[2] <= min(lx2, w) and r.bounds[3] <= min(ly2, h)
             and r.bounds[0] < r.bounds[2] and r.bounds[1] < r.bounds[3]]
    if not whole:
        return None
    if lv.children:
        t = lv.children[0].bounds
        tw, th = t[2] - t[0], t[3] - t[1]
        whole.sort(key=lambda r: abs(r.bounds[2] - r.bounds[0] - tw)
                   + abs(r.bounds[3] - r.bounds[1] - th))
    row = whole[0]
    x1, y1, x2, y2 = row.bounds
    sprite = pixels[y1:y2, x1:x2].copy()
    marks = tuple(_mark(pixels, n, leaves, (x1, y1)) for n, _ in _visible(row) if _marked(n))
    for m in marks:
        ix1, iy1, ix2, iy2 = m.ink
        if ix2 > ix1 and iy2 > iy1:
            sprite[iy1:iy2, ix1:ix2] = _rgb(m.bg)
    return sprite, (x2 - x1, y2 - y1), marks


def borrow_sprites(cut: Cut, view: View, root: Node, pixels: np.ndarray) -> Cut:
    """`cut` with sprites, for its lists that had none (their recording showed no whole
    row), taken from another recording of the same screen (`root`, `pixels`)."""
    if all(sprite is not None for _, sprite in cut.lists):
        return cut
    views = {lv.bounds: lv for lv in _lists(view)}
    leaves = _leaves(root)
    lists = []
    for lst, sprite in cut.lists:
        lv = views.get(lst.bounds)
        found = _find_list(root, lv) if sprite is None and lv is not None else None
        got = _sprite(pixels, lv, _rows(lv, found[0]), leaves) if found else None
        if got is not None:
            sprite, size, marks = got
            lst = replace(lst, sprite_size=size, sprite_marks=marks)
        lists.append((lst, sprite))
    return replace(cut, lists=tuple(lists))


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


PICTURE = 64
"""The least width and height (app pixels) of a view taken for a picture, not an icon."""


def varying_pictures(cut: Cut, root: Node, pixels: np.ndarray, other: Node,
                     other_pixels: np.ndarray) -> Cut:
    """`cut` (of the recording `root`, `pixels`) with the pictures outside its lists that
    another recording of the screen (`other`, `other_pixels`) shows otherwise added to
    its `varying` ones: an entity's photo on a screen shown for several entities. Not a
    text field or a check widget (empty, it is a leaf without text too), nor a leaf
    lying exactly over one or over a text (wikipedia's Email field has an empty view on
    it): what differs there is the text or the state, drawn anew, not a picture."""
    h, w = pixels.shape[:2]
    lists = [lst.bounds for lst, _ in cut.lists]
    there = {n.bounds for n, _ in _visible(other)}
    texts = {n.bounds for n, _ in _visible(root) if _marked(n)}
    found = set(cut.varying)
    for n, _ in _visible(root):
        b = n.bounds
        x1, y1, x2, y2 = b
        if n.children or n.text.strip() or n.editable or n.checkable or b in found \
                or b not in there or b in texts:
            continue
        if x2 - x1 < PICTURE or y2 - y1 < PICTURE or (x2 - x1) * (y2 - y1) > w * h / 2:
            continue
        if any(lx1 <= x1 and ly1 <= y1 and x2 <= lx2 and y2 <= ly2
               for lx1, ly1, lx2, ly2 in lists) or clip(b, w, h) != b:
            continue
        a = pixels[y1:y2, x1:x2].astype(np.int16)
        o = other_pixels[y1:y2, x1:x2].astype(np.int16)
        if a.shape == o.shape and float(np.abs(a - o).mean()) > 25:
            found.add(b)
    return replace(cut, varying=tuple(sorted(found)))


def texts_at(root: Node) -> set[tuple[tuple[int, int, int, int], str]]:
    """(bounds, text) of every visible text of a hierarchy."""
    return {(n.bounds, n.text) for n, _ in _visible(root) if n.text.strip()}


TYPICAL_WEIGHT = 0.5
"""What a recording's typicality (`compare.typicality`, 0-1) weighs beside its texts'
likeness (0-1.5) in `pick_recording`: enough to choose, of recordings whose texts are
about as like the mock's, the one whose picture is most like the others (a light dialog
over a dark one recorded once; a screen whose first rendering shares no text with any),
not enough to choose a picture of other texts over one of the mock's own."""


def pick_recording(shown: set[tuple[Rect, str]], candidates: Sequence[Node],
                   typical: Sequence[float] | None = None) -> int:
    """The index of the candidate hierarchy whose texts (bounds and words) are most like
    `shown`, the mock's first rendering of the screen, with each candidate's `typical`
    score (how like the other recordings its picture is) weighed in (`TYPICAL_WEIGHT`);
    the first of equals."""
    best, best_score = 0, -1.0
    words = {t for _, t in shown}
    for i, root in enumerate(candidates):
        rec = texts_at(root)
        union = len(shown | rec)
        score = len(shown & rec) / union if union else 1.0
        # Texts shown elsewhere count too: a list row can be cut from where it lies.
        rwords = {t for _, t in rec}
        either = len(words | rwords)
        score += 0.5 * (len(words & rwords) / either if either else 1.0)
        if typical is not None:
            score += TYPICAL_WEIGHT * typical[i]
        if score > best_score:
            best, best_score = i, score
    return best
