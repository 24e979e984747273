"""What of a recorded plate still holds for a rendered screen, and what to paint on it.

A screen with a recorded look (`look.ScreenLook`) is drawn as its plate, with on top only
what the state changed since the recording:

    c = compose(look, boxes, (1080, 2400))
    c.paints   # rectangles to paint, in order: wipes (a colour), rows (plate cuts,
               # sprites), then wipes of what differs in a cut row
    c.quiet    # boxes whose look the plate (or a cut of it) shows: draw nothing for them
    c.styles   # boxes to draw, with the text style recorded where they lie (or None)

Outside lists, a box with text, a check state or a text field is quiet when the plate
shows the same there (a `Mark` with its bounds, text and check state); else it is drawn
over a wipe of the mark's ink. A mark no box shows any more (a row removed, a text
cleared) is wiped. In a list, a row is quiet where the plate recorded the same row at the
same place; any other row is cut from the recorded row that shares most of its texts (the
list scrolled, a row above removed, a row that shows fewer texts), with what differs
wiped and drawn as in a text outside lists; a row sharing no text with any is drawn on
the list's sprite (a recorded row with its texts wiped) with its texts on top. Recorded
rows no row covers any more are wiped. Where a screen shows other texts than its plate,
its varying pictures (an entity's photo) are covered too. A bar that follows a text
(`look.Gauge`: a seek bar beside the number it sets) whose text no longer reads as on
the plate is painted as a recording showed it beside the new text, or covered where no
recording did; a toggle with no text (a password field's eye) whose state flipped is
painted as a recording showed it in that state, where one did. A check widget to draw
anew that the plate shows elsewhere in its new state (another row's switch, of the same
size and text) is cut from there instead of drawn in the Material look.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from phoneworld.runtime.look import (
    CHECKED,
    UNCHECKED,
    Item,
    ListLook,
    Mark,
    Rect,
    ScreenLook,
    Style,
    signature,
)

if TYPE_CHECKING:
    from phoneworld.runtime.render import Box


PICTURE = "#e8eaed"
"""What covers a recorded picture that is no longer the screen's (a placeholder grey)."""


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
    fixes: list[Paint] = []
    in_lists: set[int] = set()
    for i, b in enumerate(boxes):
        if b.list_key is None or i in in_lists:
            continue
        lst = look.lists_at.get(b.bounds)
        if lst is None:
            continue
        sub = _subtree(boxes, i)
        in_lists.update(sub)
        c.quiet.add(i)
        over = _lists_over(look, boxes, i + len(sub), lst.bounds)
        if over is None:  # under a panel: the plate shows what shows of it
            c.quiet.update(sub)
            continue
        mine: tuple[list[Paint], list[Paint], list[Paint]] = ([], [], [])
        _list(lst, boxes, b, look.plate, size, c, *mine)
        for into, got in zip((wipes, rows, fixes), mine, strict=True):
            into.extend(q for p in got for q in _outside(p, over))
    shown: set[int] = set()
    for i, b in enumerate(boxes):
        if i in in_lists:
            continue
        if not _has_content(b):
            c.quiet.add(i)
            continue
        marks = look.marks_at.get(b.bounds, ())
        hit = [m for m in marks if _shows(m, b)]
        if hit:
            # Every mark showing it there: a recording may hold a view twice (a page
            # and its cross-fading copy), and the mock a box for each or for one.
            shown.update(id(m) for m in hit)
            c.quiet.add(i)
            continue
        if _pictured(look, b):  # a toggle drawn as the app drew its new state
            c.quiet.add(i)
            continue
        if marks and _floating_label(marks[0], b):
            shown.add(id(marks[0]))  # the label stays on the outline, the text goes in
            c.styles[i] = _inside(marks[0], b)
            continue
        c.styles[i] = _typed(marks[0], b) if marks else None
    # Opened without its parameter, the screen hides texts bound to it (a title): the
    # plate's stay where no box lies (`ScreenLook.unbound`).
    placed = {b.bounds for i, b in enumerate(boxes) if i not in in_lists} \
        if look.unbound else set()
    stale = False
    for m in look.marks:
        if id(m) not in shown and (not look.unbound or m.bounds in placed):
            stale = stale or bool(m.text.strip())
            p = _wipe(m)
            if p is not None:
                wipes.append(p)
    if stale:  # other texts than the plate's: its pictures of an entity may be stale too
        wipes.extend(Paint(r, color=PICTURE) for r in look.varying)
    wipes.extend(_gauges(look, boxes, in_lists))
    c.paints = wipes + rows + fixes
    _donated(look, boxes, size, c)
    return c


def _lists_over(look: ScreenLook, boxes: list[Box], start: int, area: Rect
                ) -> list[Rect] | None:
    """The recorded lists from box `start` on (drawn after a list over `area` that ends
    before it) that meet `area`, or None where one covers most of it: a list drawn over
    another is a panel over it (a drawer, a sheet, a page over the one behind), and the
    plate shows that panel there, and the list under it dimmed or not at all. None of
    such a list is painted; of one partly under a panel, nothing under the panel."""
    x1, y1, x2, y2 = area
    whole = max(1, (x2 - x1) * (y2 - y1))
    out = []
    for b in boxes[start:]:
        r = b.bounds
        if b.list_key is None or r not in look.lists_at:
            continue
        w, h = min(r[2], x2) - max(r[0], x1), min(r[3], y2) - max(r[1], y1)
        if w > 0 and h > 0:
            if 2 * w * h >= whole:
                return None
            out.append(r)
    return out


def _outside(p: Paint, over: list[Rect]) -> list[Paint]:
    """`p` less what the rectangles `over` cover (cut into up to four pieces by each)."""
    parts = [p]
    for o in over:
        nxt = []
        for q in parts:
            x1, y1, x2, y2 = q.rect
            if o[0] >= x2 or o[2] <= x1 or o[1] >= y2 or o[3] <= y1:
                nxt.append(q)
                continue
            cy1, cy2 = max(y1, o[1]), min(y2, o[3])
            for r in ((x1, y1, x2, cy1), (x1, cy2, x2, y2),
                      (x1, cy1, max(x1, o[0]), cy2), (min(x2, o[2]), cy1, x2, cy2)):
                if r[0] < r[2] and r[1] < r[3]:
                    nxt.append(replace(q, rect=r))
        parts = nxt
    return parts


def _donated(look: ScreenLook, boxes: list[Box], size: tuple[int, int],
             c: Composition) -> None:
    """Check widgets to draw anew that the plate shows elsewhere in their new state (a
    settings row's switch turned off, beside another row's switch recorded off, of the
    same size and text): cut from there instead, as the app draws that state."""
    donors: dict[tuple[int, int, str, bool], tuple[int, int]] = {}
    for m in look.marks:
        if m.checked is not None:
            donors.setdefault(_donor_key(m.bounds, m.text, m.checked), m.bounds[:2])
    for lst in look.lists:
        for it in lst.items:
            for m in it.marks:
                if m.checked is not None:
                    donors.setdefault(_donor_key(m.bounds, m.text, m.checked),
                                      (it.bounds[0] + m.bounds[0], it.bounds[1] + m.bounds[1]))
    for i in sorted(c.styles):
        b = boxes[i]
        at = donors.get(_donor_key(b.bounds, b.text, b.checked)) if b.checkable else None
        if at is None:
            continue
        del c.styles[i]
        c.quiet.add(i)
        c.paints.append(Paint(b.bounds, image=look.plate, image_size=size,
                              origin=(b.bounds[0] - at[0], b.bounds[1] - at[1])))


def _donor_key(r: Rect, text: str, checked: bool) -> tuple[int, int, str, bool]:
    return (r[2] - r[0], r[3] - r[1], text, checked)


def _value(b: Box) -> str | None:
    """What a gauge reads of the box it follows: its text, else its check state."""
    if b.text:
        return b.text
    return (CHECKED if b.checked else UNCHECKED) if b.checkable else None


def _recorded(m: Mark) -> str | None:
    """What the plate's mark shows, as `_value` reads a box."""
    if m.text:
        return m.text
    return None if m.checked is None else CHECKED if m.checked else UNCHECKED


def _pictured(look: ScreenLook, b: Box) -> bool:
    """Whether `b` is a toggle that follows itself with a recorded picture of its state."""
    return any(g.follows == g.bounds == b.bounds and _value(b) in dict(g.variants)
               for g in look.gauges)


def _gauges(look: ScreenLook, boxes: list[Box], in_lists: set[int]) -> list[Paint]:
    """Each gauge whose text (or check state) no longer reads as on the plate: drawn as
    recorded beside that text (a seek bar's thumb where the recording had it at that
    number), or, for a bar, covered where no recording showed the text (never a picture
    the state contradicts; a toggle with no picture of its state is drawn as one)."""
    out: list[Paint] = []
    for g in look.gauges:
        box = next((b for i, b in enumerate(boxes) if b.bounds == g.follows
                    and i not in in_lists and _value(b) is not None), None)
        if box is None:
            continue
        value = _value(box)
        plate = next((v for m in look.marks_at.get(g.follows, ())
                      if (v := _recorded(m)) is not None), None)
        if value == plate:
            continue
        name = dict(g.variants).get(value or "")
        x1, y1, x2, y2 = g.bounds
        if name:
            out.append(Paint(g.bounds, image=name, image_size=(x2 - x1, y2 - y1),
                             origin=(x1, y1)))
        elif g.follows != g.bounds:
            out.append(Paint(g.bounds, color=g.bg))
    return out


def _list(lst: ListLook, boxes: list[Box], box: Box, plate: str, size: tuple[int, int],
          c: Composition, wipes: list[Paint], rows: list[Paint], fixes: list[Paint]) -> None:
    at = {it.bounds: it for it in lst.items}
    a = 1 if box.list_axis == "vertical" else 0
    along = {(it.bounds[a], it.bounds[a + 2], it.texts): it for it in reversed(lst.items)}
    covered: set[Rect] = set()
    pending = []
    for r in box.children:
        sub = _subtree(boxes, r)
        row = boxes[r]
        sig = signature((boxes[j].text, boxes[j].checkable, boxes[j].checked) for j in sub)
        it = at.get(row.bounds)
        if it is None or it.texts != sig:
            it = _inset(along.get((row.bounds[a], row.bounds[a + 2], sig)), row.bounds, a)
        if it is not None and it.texts == sig:
            covered.add(it.bounds)
            c.quiet.update(sub)
        else:
            pending.append((row, sub, sig))
    lx1, ly1, lx2, ly2 = lst.bounds
    for it in lst.items:
        if it.bounds not in covered and not _peeking(it, lst, a, box, boxes):
            x1, y1, x2, y2 = it.bounds
            rect = (max(x1, lx1), max(y1, ly1), min(x2, lx2), min(y2, ly2))
            if rect[0] < rect[2] and rect[1] < rect[3]:
                wipes.append(Paint(rect, color=lst.bg))
    for row, sub, sig in pending:
        x1, y1, x2, y2 = row.bounds
        it = _best_item(lst, sig, y2 - y1)
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
                rows.append(Paint(rect, image=plate, image_size=size, origin=(dx, dy)))
            _row_texts(boxes, sub, it.marks, (x1, top), row.bounds, c, fixes)
            continue
        top = y1
        if lst.sprite is not None:
            sw, sh = lst.sprite_size
            if y1 == ly1 and y2 - y1 < sh:
                top = y1 - (sh - (y2 - y1))
            rows.append(Paint(row.bounds, image=lst.sprite, image_size=(sw, sh),
                              origin=(x1, top)))
        # The sprite's texts are wiped already: draw every text of the row.
        for j in sub:
            b = boxes[j]
            if not _has_content(b):
                c.quiet.add(j)
                continue
            bx1, by1, bx2, by2 = b.bounds
            m = next((m for m in lst.sprite_marks
                      if m.bounds == (bx1 - x1, by1 - top, bx2 - x1, by2 - top)), None)
            c.styles[j] = m.style if m is not None else _nearest(lst.sprite_marks, b, x1, top)


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


def _best_item(lst: ListLook, sig: tuple[str, ...], height: int) -> Item | None:
    """The recorded row to show a row with signature `sig` from: one with the same
    signature, else the one sharing most of its texts, check states aside (a row whose
    switch flipped is cut from itself, not from another row recorded in the state it has
    now), then most of its check states, then with fewest texts of its own, then nearest
    in height, then first; None where none shares any."""
    want = set(sig)
    best, key = None, None
    for n, it in enumerate(lst.items):
        shared = want & set(it.texts)
        if it.texts == sig:
            k: tuple[int, ...] = (0, n)  # the same row (also one with no text at all)
        elif not shared:
            continue
        else:
            k = (1, -len(shared - _CHECKS), -len(shared), len(set(it.texts) - want),
                 abs(it.bounds[3] - it.bounds[1] - height), n)
        if key is None or k < key:
            best, key = it, k
    return best


_CHECKS = {CHECKED, UNCHECKED}


def _row_texts(boxes: list[Box], sub: list[int], marks: tuple[Mark, ...],
               origin: tuple[int, int], clip: Rect, c: Composition,
               fixes: list[Paint]) -> None:
    """A row cut from a recorded one: its boxes that show what the recording shows
    there are quiet; the rest are drawn (in the style recorded there, over a wipe of
    it), and recorded texts no box shows any more are wiped."""
    ox, oy = origin
    at: dict[Rect, list[Mark]] = {}
    for m in marks:
        at.setdefault(m.bounds, []).append(m)
    shown: set[int] = set()
    for j in sub:
        b = boxes[j]
        if not _has_content(b):
            c.quiet.add(j)
            continue
        bx1, by1, bx2, by2 = b.bounds
        here = at.get((bx1 - ox, by1 - oy, bx2 - ox, by2 - oy), ())
        hit = next((m for m in here if _shows(m, b) and id(m) not in shown), None)
        if hit is None and b.text:
            # The same text elsewhere in the recorded row (the mock's item template came
            # from another row): its recorded glyphs are truer than a redrawing, where
            # the box lies over them (else they would show where the row has none).
            rel = (bx1 - ox, by1 - oy, bx2 - ox, by2 - oy)
            hit = next((m for m in marks if m.text == b.text and _shows(m, b)
                        and id(m) not in shown and _covers(rel, m.bounds)), None)
        if hit is not None:
            shown.add(id(hit))
            c.quiet.add(j)
            continue
        c.styles[j] = _typed(here[0], b) if here else _nearest(marks, b, ox, oy)
    cx1, cy1, cx2, cy2 = clip
    for m in marks:
        if id(m) in shown:
            continue
        x1, y1, x2, y2 = m.ink
        rect = (max(cx1, x1 + ox), max(cy1, y1 + oy), min(cx2, x2 + ox), min(cy2, y2 + oy))
        if x2 > x1 and y2 > y1 and rect[0] < rect[2] and rect[1] < rect[3]:
            fixes.append(Paint(rect, color=m.bg))


def _covers(box: Rect, mark: Rect) -> bool:
    """Whether `box` lies over `mark`: they meet across, and share at least half the
    height of the lower of the two (a text on the same line, a few pixels off, not one
    a line above or below)."""
    w = min(box[2], mark[2]) - max(box[0], mark[0])
    h = min(box[3], mark[3]) - max(box[1], mark[1])
    return w > 0 and 2 * h >= min(box[3] - box[1], mark[3] - mark[1])


def _typed(m: Mark, b: Box) -> Style:
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
    return replace(style, color=_text_on(m.bg))


def _text_on(bg: str) -> str:
    """The colour of typed text on a field's background `bg` ("#rrggbb"): white on a
    dark one, the body text's on a light one."""
    r, g, bl = (int(bg[i:i + 2], 16) for i in (1, 3, 5))
    return "#ffffff" if 0.299 * r + 0.587 * g + 0.114 * bl < 128 else "#202124"


LABEL_EDGE = 8
"""How far below a text field's top the ink of a label floating on its outline starts
(the view's top edge cuts the label: Material's outlined field)."""


def _floating_label(m: Mark, b: Box) -> bool:
    """Whether `m` is the label of an outlined field `b` (editable, showing another text
    now) floating on its outline: its ink starts at the field's top edge and is short
    beside the field's height. Typed text goes inside the box, the label stays."""
    if not b.editable or not b.text or m.text == b.text:
        return False
    x1, y1, x2, y2 = m.ink
    height = m.bounds[3] - m.bounds[1]
    return x2 > x1 and y2 > y1 and y1 - m.bounds[1] <= LABEL_EDGE and 2.5 * (y2 - y1) <= height


def _inside(m: Mark, b: Box) -> Style:
    """The style of typed text in an outlined field whose label `m` floats on its
    outline: in the text's colour (on the field's background), at the body size (size
    0: the renderer's for the box, not the label's), from where the label starts,
    centred in the box."""
    return Style(size=0.0, color=_text_on(m.bg), indent=m.style.indent)


def _nearest(marks: tuple[Mark, ...], b: Box, x: int, y: int) -> Style | None:
    """The style of the row's recorded text whose top-left is nearest `b`'s (marks are
    relative to (x, y))."""
    if not marks:
        return None
    bx, by = b.bounds[0] - x, b.bounds[1] - y
    best = min(marks, key=lambda m: abs(m.bounds[0] - bx) + abs(m.bounds[1] - by))
    return best.style
