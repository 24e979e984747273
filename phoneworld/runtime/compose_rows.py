"""A recorded list on a plate: which of a rendered list's rows the plate shows, and what
to paint for the others (`compose.compose` calls it for each list; the types of what it
gives are here, with the rules for a text that lists and the rest of a screen share).

    rows = compose_list(lst, boxes, box, look.plate, (1080, 2400), c, wipes, rows, fixes)

A row is quiet where the plate recorded the same row at the same place; any other row is
cut from the recorded row of its texts, on this plate or else on another screen's plate
of the same list (`ListLook.elsewhere`: a row this plate never showed), else from the
one that shares most of its texts (the list scrolled, a row above removed, a row that
shows fewer texts), with what differs wiped and drawn as a text
outside lists is (`typed`); a row sharing no text with any is drawn on the list's sprite
(a recorded row with its texts wiped) with its texts on top. Recorded rows no row covers
any more are wiped, but for the edge of a textless row the list's end cut short.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from phoneworld.runtime.checks import Donors, redraw
from phoneworld.runtime.look import (
    CHECKED,
    UNCHECKED,
    Item,
    ListLook,
    Mark,
    Rect,
    Style,
    signature,
)
from phoneworld.runtime.regions import EVERYWHERE, within

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


def subtree(boxes: list[Box], i: int) -> list[int]:
    out, stack = [], [i]
    while stack:
        j = stack.pop()
        out.append(j)
        stack.extend(reversed(boxes[j].children))
    return out


def has_content(b: Box) -> bool:
    return bool(b.text) or b.checkable or b.editable


def shows(m: Mark, b: Box) -> bool:
    return m.text == b.text and (m.checked is None or m.checked == b.checked)


def compose_list(lst: ListLook, boxes: list[Box], box: Box, plate: str, size: tuple[int, int],
                 donors: Donors, c: Composition, wipes: list[Paint], rows: list[Paint],
                 fixes: list[Paint]) -> None:
    at = {it.bounds: it for it in lst.items}
    a = 1 if box.list_axis == "vertical" else 0
    along = {(it.bounds[a], it.bounds[a + 2], it.texts): it for it in reversed(lst.items)}
    covered: set[Rect] = set()
    pending = []
    subs = [subtree(boxes, r) for r in box.children]
    sigs = [signature((boxes[j].text, boxes[j].checkable, boxes[j].checked) for j in sub)
            for sub in subs]
    if _as_recorded(lst, sigs, [boxes[r].bounds for r in box.children], a):
        for sub in subs:
            c.quiet.update(sub)
        return
    for r, sub, sig in zip(box.children, subs, sigs, strict=True):
        row = boxes[r]
        it = at.get(row.bounds)
        if it is None or it.texts != sig:
            it = _inset(along.get((row.bounds[a], row.bounds[a + 2], sig)), row.bounds, a)
        if it is not None and it.texts == sig:
            covered.add(it.bounds)
            c.quiet.update(sub)
            continue
        bare = _bare_row(lst, row.bounds, a, sig)
        if bare is not None:
            covered.add(bare.bounds)
        pending.append((row, sub, sig, bare))
    lx1, ly1, lx2, ly2 = lst.bounds
    for it in lst.items:
        if it.bounds not in covered and not _peeking(it, lst, a, box, boxes):
            if _head(it, lst, a):
                wipes.extend(Paint(m.ink, color=m.bg) for m in it.marks
                             if m.ink[0] < m.ink[2] and m.ink[1] < m.ink[3])
                continue
            x1, y1, x2, y2 = it.bounds
            rect = (max(x1, lx1), max(y1, ly1), min(x2, lx2), min(y2, ly2))
            if rect[0] < rect[2] and rect[1] < rect[3]:
                wipes.append(Paint(rect, color=lst.bg))
    for row, sub, sig, bare in pending:
        x1, y1, x2, y2 = row.bounds
        it = _best_item(lst, sig, y2 - y1, _kind(lst, _shape(boxes, sub, (x1, y1)),
                                                 y2 - y1)) if bare is None else None
        src_plate = plate
        if bare is None and (it is None or it.texts != sig):
            there = _elsewhere(lst, sig, row.bounds)
            if there is not None:
                it, src_plate = there
        if it is not None:
            src = it.bounds
            # Clipped at the list's top: the row's lower part shows.
            sh = src[3] - src[1]
            top = y1 - (sh - (y2 - y1)) if y1 == ly1 and y2 - y1 < sh else y1
            dx, dy = x1 - src[0], top - src[1]
            # Only the recorded row's pixels inside the recorded list (a row that ran
            # past the list's end was covered there by what lies below it).
            rect = (max(x1, max(src[0], lx1) + dx), max(y1, max(src[1], ly1) + dy),
                    min(x2, min(src[2], lx2) + dx), min(y2, min(src[3], ly2) + dy))
            if rect[0] < rect[2] and rect[1] < rect[3]:
                rows.append(Paint(rect, image=src_plate, image_size=size, origin=(dx, dy)))
            _row_texts(boxes, sub, it.marks, (x1, top), row.bounds, c, fixes,
                       (src_plate, size, donors))
            continue
        top = y1
        if lst.sprite is not None and bare is None:
            sw, sh = lst.sprite_size
            if y1 == ly1 and y2 - y1 < sh:
                top = y1 - (sh - (y2 - y1))
            rows.append(Paint(row.bounds, image=lst.sprite, image_size=(sw, sh),
                              origin=(x1, top)))
        # The sprite's texts are wiped already: draw every text of the row.
        for j in sub:
            b = boxes[j]
            if not has_content(b):
                c.quiet.add(j)
                continue
            bx1, by1, bx2, by2 = b.bounds
            m = next((m for m in lst.sprite_marks
                      if m.bounds == (bx1 - x1, by1 - top, bx2 - x1, by2 - top)), None)
            c.styles[j] = m.style if m is not None else _nearest(lst.sprite_marks, b, x1, top)


def _elsewhere(lst: ListLook, sig: tuple[str, ...], bounds: Rect
               ) -> tuple[Item, str] | None:
    """The row of signature `sig` that another screen's plate recorded in this list
    (`ListLook.elsewhere`), of the size of the row at `bounds`, with that plate's asset;
    None where none did (activitylauncher's apps pushed below an expanded group: each
    cut from the list's other plate with its own icon, not from another app's row). A
    row the list's end or start cuts short is cut from a whole one recorded (its part
    that shows: activitylauncher's "Downloads" pushed to the list's end, drawn on the
    sprite with another app's icon before)."""
    w, h = bounds[2] - bounds[0], bounds[3] - bounds[1]
    same = [(it, plate) for it, plate in lst.elsewhere
            if it.texts == sig and it.bounds[2] - it.bounds[0] == w]
    got = next(((it, plate) for it, plate in same if it.bounds[3] - it.bounds[1] == h), None)
    if got is None and (bounds[1] == lst.bounds[1] or bounds[3] == lst.bounds[3]):
        got = next(((it, plate) for it, plate in same if it.bounds[3] - it.bounds[1] > h),
                   None)
    return got


def _as_recorded(lst: ListLook, sigs: list[tuple[str, ...]], bounds: list[Rect],
                 a: int) -> bool:
    """Whether a list's rows are its recorded rows, the same texts (each row's as a set:
    a row's template may show one column where the recording held it twice) in the same
    order, laid out a little off where they were recorded (at most a recorded row's length, all
    within the list): the plate shows the list as recorded. A row of its own size laid
    at the template's pitch (wikipedia's Read | Feedback | View history tabs, the first
    one narrower than the pitch) is not cut to what the list's end leaves of it."""
    if not sigs or len(sigs) != len(lst.items) or any(not s for s in sigs):
        return False
    for sig, b, it in zip(sigs, bounds, lst.items, strict=True):
        n = it.bounds[a + 2] - it.bounds[a]
        if set(it.texts) != set(sig) or abs(b[a] - it.bounds[a]) > n:
            return False
    return True


SPRITE_FIT = 0.25
"""How far (a share of a row's length along the list) the sprite's length may be from a
row's for the row to be drawn on it: a list of rows of several kinds (a course's unit
header, then a lesson's button) has its sprite from one kind."""


def _bare_row(lst: ListLook, bounds: Rect, a: int, sig: tuple[str, ...]) -> Item | None:
    """The recorded row with no text that lies within a row at `bounds` (along the
    list's axis `a`), where that row shares no text with any recorded row and the
    sprite is of another kind (its length off the row's by more than `SPRITE_FIT`): the
    plate shows the row there as recorded (its texts drawn on it), where the sprite
    would paint a row of another kind over it (duolingo's lesson button under a copy of
    the unit header)."""
    n = bounds[a + 2] - bounds[a]
    if lst.sprite is not None and abs(lst.sprite_size[a] - n) <= SPRITE_FIT * n:
        return None
    want = set(sig) - _CHECKS
    if any(want & set(it.texts) for it in lst.items):
        return None
    return next((it for it in lst.items if not it.texts and bounds[a] <= it.bounds[a]
                 and it.bounds[a + 2] <= bounds[a + 2]
                 and bounds[1 - a] <= it.bounds[1 - a]
                 and it.bounds[3 - a] <= bounds[3 - a]), None)


def _head(it: Item, lst: ListLook, a: int) -> bool:
    """Whether `it` is a list's head: its first row, of another kind than the rows the
    sprite was cut from (longer by more than `SPRITE_FIT`), with texts (qqmusic's album
    header, in one list with its songs). No row of the rendering covers it (an album
    opened that the traces hold no header or songs of): its texts are wiped, not the
    whole of it, so the page keeps its header (and the status bar it lies under) rather
    than going blank."""
    n = it.bounds[a + 2] - it.bounds[a]
    return bool(it.texts) and lst.sprite is not None and bool(lst.items) \
        and it is lst.items[0] and n - lst.sprite_size[a] > SPRITE_FIT * n


def _peeking(it: Item, lst: ListLook, a: int, box: Box, boxes: list[Box]) -> bool:
    """Whether `it` is the edge of a row the list's end cut short, showing nothing of
    the state (no text, no check), that no row of the list's rendering lies over: the
    plate keeps it as recorded (a wipe there would cut into what is drawn over the
    list's end: a player bar, a panel over the page)."""
    size = lst.sprite_size[a]
    if it.texts or it.bounds[a + 2] < lst.bounds[a + 2] or not 0 < \
            it.bounds[a + 2] - it.bounds[a] < size:
        return False
    x1, y1, x2, y2 = it.bounds
    return not any(r[0] < x2 and r[2] > x1 and r[1] < y2 and r[3] > y1
                   for r in (boxes[j].bounds for j in box.children))


def _inset(it: Item | None, bounds: Rect, a: int) -> Item | None:
    """`it` (a recorded row at the same place along the list's axis `a` as a row at
    `bounds`, showing the same) where it lies within that row across the list, else None.
    The mock's row spans its item template, which spans every recorded row type; a row
    type recorded narrower (inset from the list's sides) is still that row where it was
    recorded: the plate shows it, not a cut of it moved to the row's edge."""
    if it is None:
        return None
    c = 1 - a
    return it if bounds[c] <= it.bounds[c] and it.bounds[c + 2] <= bounds[c + 2] else None


def _best_item(lst: ListLook, sig: tuple[str, ...], height: int,
               shape: tuple[tuple[Rect, str], ...] = ()) -> Item | None:
    """The recorded row to show a row with signature `sig` from: one with the same
    signature; else, of those sharing any of its texts or of its `shape` (where its
    views that show something lie, with their texts: `_fits`), the one showing most of
    its texts where the row shows them (their recorded glyphs kept), then one of its
    shape (a group's child row is cut from a recorded child, not from the group row
    that shares its name elsewhere in it: the icon, the indent, the sizes of its two
    lines are a child's), then the one sharing most of its texts, check states aside
    (a row whose switch flipped is cut from itself, not from another row recorded in
    the state it has now), then most of its check states, then with fewest texts of
    its own, then nearest in height, then first; None where none shares any (the
    sprite draws it)."""
    want = set(sig)
    best, key = None, None
    for n, it in enumerate(lst.items):
        shared = want & set(it.texts)
        fits = bool(shape) and _fits(it, shape, height)
        if it.texts == sig:
            k: tuple[int, ...] = (0, n)  # the same row (also one with no text at all)
        elif not shared and not fits:
            continue
        else:
            placed = sum(1 for r, text in shape if text in shared and any(
                m.text == text and (m.bounds == r or _covers(r, m.bounds)) for m in it.marks))
            k = (1, -placed, 0 if fits else 1, -len(shared - _CHECKS), -len(shared),
                 len(set(it.texts) - want), abs(it.bounds[3] - it.bounds[1] - height), n)
        if key is None or k < key:
            best, key = it, k
    return best


def _shape(boxes: list[Box], sub: list[int], origin: tuple[int, int]
           ) -> tuple[tuple[Rect, str], ...]:
    """Where a row's views that show something (a text, a check, a field) lie, relative
    to the row's top-left `origin`, with their texts."""
    ox, oy = origin
    return tuple(((b.bounds[0] - ox, b.bounds[1] - oy, b.bounds[2] - ox, b.bounds[3] - oy),
                  b.text) for b in (boxes[j] for j in sub) if has_content(b))


def _kind(lst: ListLook, shape: tuple[tuple[Rect, str], ...], height: int
          ) -> tuple[tuple[Rect, str], ...]:
    """`shape` where the list's sprite is of another kind of row than one `height` long
    whose views that show something lie there (`_fits`: a list of group rows and their
    children, its sprite a group row), else () (the row is cut from the row sharing most
    of its texts, or drawn on the sprite, by the texts alone)."""
    if lst.sprite is not None and _fits(Item((0, 0, *lst.sprite_size), (), lst.sprite_marks),
                                        shape, height):
        return ()
    return shape


def _fits(it: Item, shape: tuple[tuple[Rect, str], ...], height: int) -> bool:
    """Whether recorded row `it` is of the kind of a row `height` long whose views that
    show something lie at `shape`: as long (within `SPRITE_FIT`), with as many recorded
    texts, one where each of those views lies."""
    n = it.bounds[3] - it.bounds[1]
    if abs(n - height) > SPRITE_FIT * height or len(it.marks) != len(shape):
        return False
    return all(any(m.bounds == r or _covers(r, m.bounds) for m in it.marks)
               for r, _ in shape)


_CHECKS = {CHECKED, UNCHECKED}


def _row_texts(boxes: list[Box], sub: list[int], marks: tuple[Mark, ...],
               origin: tuple[int, int], clip: Rect, c: Composition,
               fixes: list[Paint], on: tuple[str, tuple[int, int], Donors]) -> None:
    """A row cut from a recorded one: its boxes that show what the recording shows
    there are quiet; the rest are drawn (in the style recorded there, over a wipe of
    it; a check widget's label beside the recorded indicator, `checks`), and recorded
    texts no box shows any more are wiped. `on`: the plate, its size, its indicators."""
    ox, oy = origin
    at: dict[Rect, list[Mark]] = {}
    for m in marks:
        at.setdefault(m.bounds, []).append(m)
    shown: set[int] = set()
    kept: list[Mark] = []  # the marks quiet boxes show: the plate keeps their glyphs
    for j in sub:
        b = boxes[j]
        if not has_content(b):
            c.quiet.add(j)
            continue
        bx1, by1, bx2, by2 = b.bounds
        here = at.get((bx1 - ox, by1 - oy, bx2 - ox, by2 - oy), ()) or [
            m for m in marks if within(_moved(m.bounds, origin), clip) == b.bounds]
        # (a box the list's end cuts short lies where its mark does, cut likewise)
        hit = next((m for m in here if shows(m, b) and id(m) not in shown), None)
        if hit is None and b.text:
            # The same text elsewhere in the recorded row (the mock's item template came
            # from another row): its recorded glyphs are truer than a redrawing, where
            # the box lies over them (else they would show where the row has none).
            rel = (bx1 - ox, by1 - oy, bx2 - ox, by2 - oy)
            hit = next((m for m in marks if m.text == b.text and shows(m, b)
                        and id(m) not in shown and _covers(rel, m.bounds)), None)
        if hit is not None:
            shown.add(id(hit))
            kept.append(hit)
            c.quiet.add(j)
            continue
        if here:
            c.styles[j] = redrawn(here[0], b, origin, on, shown, fixes, clip)
        else:
            c.styles[j] = _nearest(marks, b, ox, oy)
    cx1, cy1, cx2, cy2 = clip
    for m in marks:
        if id(m) in shown or echoes(m, kept):
            continue
        x1, y1, x2, y2 = m.ink
        rect = (max(cx1, x1 + ox), max(cy1, y1 + oy), min(cx2, x2 + ox), min(cy2, y2 + oy))
        if x2 > x1 and y2 > y1 and rect[0] < rect[2] and rect[1] < rect[3]:
            fixes.append(Paint(rect, color=m.bg))


def echoes(m: Mark, kept: list[Mark]) -> bool:
    """Whether `m` (a recorded text no box shows any more) holds the glyphs of a mark in
    `kept` (one the plate still shows): the same text where the two meet. A text is often
    recorded by two views, a row and its label, a web page's link and the text inside it,
    while the mock's template gives it to one of them: wiping the other's ink would wipe
    the text the plate keeps (a language link cut to its first letter, a sidebar's rows
    left blank)."""
    if not m.text.strip():
        return False
    x1, y1, x2, y2 = m.bounds
    return any(k.text == m.text and k.bounds[0] < x2 and x1 < k.bounds[2]
               and k.bounds[1] < y2 and y1 < k.bounds[3] for k in kept)


def redrawn(m: Mark, b: Box, origin: tuple[int, int], on: tuple[str, tuple[int, int], Donors],
            shown: set[int], into: list[Paint], clip: Rect = EVERYWHERE) -> Style:
    """The style to draw `b` in where `m` was recorded (`typed`), `m` being relative to
    `origin`; a check widget whose indicator the plate shows (`checks.redraw`) has its
    paints added to `into` (within `clip`) and `m` to `shown` (its wipe is among them)."""
    style = typed(m, b)
    got = redraw(m, b, origin, on[2])
    if got is None:
        return style
    shown.add(id(m))
    for r in got.wipes:
        r = within(r, clip)
        if r is not None:
            into.append(Paint(r, color=m.bg))
    if got.cut is not None:
        r = within(got.cut[0], clip)
        if r is not None:
            into.append(Paint(r, image=on[0], image_size=on[1], origin=got.cut[1]))
    return replace(style, plate_check=got.kept)


def _moved(r: Rect, by: tuple[int, int]) -> Rect:
    return (r[0] + by[0], r[1] + by[1], r[2] + by[0], r[3] + by[1])


def _covers(box: Rect, mark: Rect) -> bool:
    """Whether `box` lies over `mark`: they meet across, and share at least half the
    height of the lower of the two (a text on the same line, a few pixels off, not one
    a line above or below)."""
    w = min(box[2], mark[2]) - max(box[0], mark[0])
    h = min(box[3], mark[3]) - max(box[1], mark[1])
    return w > 0 and 2 * h >= min(box[3] - box[1], mark[3] - mark[1])


def typed(m: Mark, b: Box) -> Style:
    """The style to draw `b` in where `m` was recorded: `m`'s, at the top of the view
    where the recorded text lay there (a multi-line field's hint: typed text replaces it
    there, not in the middle); typed text in a field whose recording showed its hint
    gets the colour of text, not of the hint."""
    style = m.style
    height, top, ink = m.bounds[3] - m.bounds[1], m.ink[1] - m.bounds[1], m.ink[3] - m.ink[1]
    if 0 < ink and 2.5 * ink <= height and top + ink <= height / 2 and \
            b.bounds[3] - b.bounds[1] == height:
        style = replace(style, top=float(top))
    if not b.editable or not b.text:
        return style
    return replace(style, color=text_on(m.bg))


def text_on(bg: str) -> str:
    """The colour of typed text on a field's background `bg` ("#rrggbb"): white on a
    dark one, the body text's on a light one."""
    r, g, bl = (int(bg[i:i + 2], 16) for i in (1, 3, 5))
    return "#ffffff" if 0.299 * r + 0.587 * g + 0.114 * bl < 128 else "#202124"


def _nearest(marks: tuple[Mark, ...], b: Box, x: int, y: int) -> Style | None:
    """The style of the row's recorded text whose top-left is nearest `b`'s (marks are
    relative to (x, y))."""
    if not marks:
        return None
    bx, by = b.bounds[0] - x, b.bounds[1] - y
    best = min(marks, key=lambda m: abs(m.bounds[0] - bx) + abs(m.bounds[1] - by))
    return best.style
