"""What of a recorded plate still holds for a rendered screen, and what to paint on it.

A screen with a recorded look (`look.ScreenLook`) is drawn as its plate, with on top only
what the state changed since the recording:

    c = compose(look, boxes)
    c.paints   # rectangles to paint, in order: wipes (a colour), then rows (plate cuts,
               # sprites)
    c.quiet    # boxes whose look the plate (or a cut of it) shows: draw nothing for them
    c.styles   # boxes to draw, with the text style recorded where they lie (or None)

Outside lists, a box with text, a check state or a text field is quiet when the plate
shows the same there (a `Mark` with its bounds, text and check state); else it is drawn
over a wipe of the mark's ink. A mark no box shows any more (a row removed, a text
cleared) is wiped. In a list, a row is quiet where the plate recorded the same row at the
same place; a row recorded elsewhere (the list scrolled, a row above removed) is cut from
where it was recorded; any other row is drawn on the list's sprite (a recorded row with
its texts wiped) with its texts on top. Recorded rows no row covers any more are wiped.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from phoneworld.runtime.look import ListLook, Mark, Rect, ScreenLook, Style, signature

if TYPE_CHECKING:
    from phoneworld.runtime.render import Box


@dataclass(frozen=True)
class Paint:
    """A rectangle (app pixels) painted under the boxes: a colour, or part of an image.

    `image` is an asset shown at `image_size` with its top-left at `origin` (so a plate's
    row at (x, y) drawn at `rect` has origin (rect.x - x, rect.y - y))."""

    rect: Rect
    color: str = ""
    image: str = ""
    image_size: tuple[int, int] = (0, 0)
    origin: tuple[int, int] = (0, 0)


@dataclass
class Composition:
    paints: list[Paint] = field(default_factory=list)
    quiet: set[int] = field(default_factory=set)
    styles: dict[int, Style | None] = field(default_factory=dict)


def _subtree(boxes: list[Box], i: int) -> list[int]:
    out, stack = [], [i]
    while stack:
        j = stack.pop()
        out.append(j)
        stack.extend(reversed(boxes[j].children))
    return out


def _has_content(b: Box) -> bool:
    return bool(b.text) or b.checkable or b.editable


def _shows(m: Mark, b: Box) -> bool:
    return m.text == b.text and (m.checked is None or m.checked == b.checked)


def _wipe(m: Mark) -> Paint | None:
    x1, y1, x2, y2 = m.ink
    return Paint((x1, y1, x2, y2), color=m.bg) if x2 > x1 and y2 > y1 else None


def compose(look: ScreenLook, boxes: list[Box], size: tuple[int, int]) -> Composition:
    """How to draw `boxes` (a rendering's, in document order) on `look`'s plate, which
    covers `size` (the app's width and height)."""
    c = Composition()
    wipes: list[Paint] = []
    rows: list[Paint] = []
    in_lists: set[int] = set()
    for i, b in enumerate(boxes):
        if b.list_key is None or i in in_lists:
            continue
        lst = look.lists_at.get(b.bounds)
        if lst is None:
            continue
        in_lists.update(_subtree(boxes, i))
        c.quiet.add(i)
        _list(lst, boxes, b, look.plate, size, c, wipes, rows)
    shown: set[int] = set()
    for i, b in enumerate(boxes):
        if i in in_lists:
            continue
        if not _has_content(b):
            c.quiet.add(i)
            continue
        marks = look.marks_at.get(b.bounds, ())
        hit = next((m for m in marks if _shows(m, b)), None)
        if hit is not None:
            shown.add(id(hit))
            c.quiet.add(i)
            continue
        c.styles[i] = _typed(marks[0], b) if marks else None
    for m in look.marks:
        if id(m) not in shown:
            p = _wipe(m)
            if p is not None:
                wipes.append(p)
    c.paints = wipes + rows
    return c


def _list(lst: ListLook, boxes: list[Box], box: Box, plate: str, size: tuple[int, int],
          c: Composition, wipes: list[Paint], rows: list[Paint]) -> None:
    at = {it.bounds: it for it in lst.items}
    first: dict[tuple[str, ...], Rect] = {}
    for it in lst.items:
        first.setdefault(it.texts, it.bounds)
    covered: set[Rect] = set()
    pending = []
    for r in box.children:
        sub = _subtree(boxes, r)
        row = boxes[r]
        sig = signature((boxes[j].text, boxes[j].checkable, boxes[j].checked) for j in sub)
        it = at.get(row.bounds)
        if it is not None and it.texts == sig:
            covered.add(it.bounds)
            c.quiet.update(sub)
        else:
            pending.append((row, sub, sig))
    lx1, ly1, lx2, ly2 = lst.bounds
    for it in lst.items:
        if it.bounds not in covered:
            x1, y1, x2, y2 = it.bounds
            rect = (max(x1, lx1), max(y1, ly1), min(x2, lx2), min(y2, ly2))
            if rect[0] < rect[2] and rect[1] < rect[3]:
                wipes.append(Paint(rect, color=lst.bg))
    for row, sub, sig in pending:
        x1, y1, x2, y2 = row.bounds
        src = first.get(sig)
        if src is not None:
            # Clipped at the list's top: the row's lower part shows.
            sh = src[3] - src[1]
            top = y1 - (sh - (y2 - y1)) if y1 == ly1 and y2 - y1 < sh else y1
            dx, dy = x1 - src[0], top - src[1]
            # Only the recorded row's pixels inside the recorded list (a row that ran
            # past the list's end was covered there by what lies below it).
            rect = (max(x1, max(src[0], lx1) + dx), max(y1, max(src[1], ly1) + dy),
                    min(x2, min(src[2], lx2) + dx), min(y2, min(src[3], ly2) + dy))
            if rect[0] < rect[2] and rect[1] < rect[3]:
                rows.append(Paint(rect, image=plate, image_size=size, origin=(dx, dy)))
            c.quiet.update(sub)
            continue
        top = y1
        if lst.sprite is not None:
            sw, sh = lst.sprite_size
            if y1 == ly1 and y2 - y1 < sh:
                top = y1 - (sh - (y2 - y1))
            rows.append(Paint(row.bounds, image=lst.sprite, image_size=(sw, sh),
                              origin=(x1, top)))
        marks = {m.bounds: m for m in lst.sprite_marks}
        for j in sub:
            b = boxes[j]
            if not _has_content(b):
                c.quiet.add(j)
                continue
            bx1, by1, bx2, by2 = b.bounds
            m = marks.get((bx1 - x1, by1 - top, bx2 - x1, by2 - top))
            c.styles[j] = m.style if m is not None else _nearest(lst.sprite_marks, b, x1, top)


def _typed(m: Mark, b: Box) -> Style:
    """The style to draw `b` in where `m` was recorded: `m`'s, but typed text in a field
    whose recording showed its hint gets the colour of text, not of the hint."""
    if not b.editable or not b.text:
        return m.style
    r, g, bl = (int(m.bg[i:i + 2], 16) for i in (1, 3, 5))
    dark = 0.299 * r + 0.587 * g + 0.114 * bl < 128
    return replace(m.style, color="#ffffff" if dark else "#202124")


def _nearest(marks: tuple[Mark, ...], b: Box, x: int, y: int) -> Style | None:
    """The style of the sprite's text whose top-left is nearest `b`'s (row-relative)."""
    if not marks:
        return None
    bx, by = b.bounds[0] - x, b.bounds[1] - y
    best = min(marks, key=lambda m: abs(m.bounds[0] - bx) + abs(m.bounds[1] - by))
    return best.style
