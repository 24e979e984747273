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
cleared) is wiped. A list's rows are `compose_rows`' (quiet where recorded so, else cut
from the recorded row most like them, or drawn on the list's sprite); a list drawn over
another is a panel, and nothing of the one under it is painted there. Where a screen
shows other texts than its plate, its varying pictures (an entity's photo) are covered
too. A bar that follows a text (`look.Gauge`: a seek bar beside the number it sets)
whose text no longer reads as on the plate is painted as a recording showed it beside
the new text, or covered where no recording did; a toggle with no text (a password
field's eye) whose state flipped is painted as a recording showed it in that state,
where one did. A check widget to draw anew that the plate shows elsewhere in its new
state (another row's switch, of the same size and text) is cut from there instead of
drawn in the Material look.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from phoneworld.runtime.checks import indicators
from phoneworld.runtime.compose_rows import (
    Composition,
    Paint,
    compose_list,
    echoes,
    has_content,
    redrawn,
    shows,
    subtree,
    text_on,
)
from phoneworld.runtime.dialog import grown_look, growth, window_paints
from phoneworld.runtime.look import CHECKED, UNCHECKED, Mark, Rect, ScreenLook, Style
from phoneworld.runtime.regions import EVERYWHERE, regions, within

if TYPE_CHECKING:
    from phoneworld.runtime.render import Box


PICTURE = "#e8eaed"
"""What covers a recorded picture that is no longer the screen's (a placeholder grey)."""


def _wipe(m: Mark) -> Paint | None:
    x1, y1, x2, y2 = m.ink
    return Paint((x1, y1, x2, y2), color=m.bg) if x2 > x1 and y2 > y1 else None


def compose(look: ScreenLook, boxes: list[Box], size: tuple[int, int]) -> Composition:
    """How to draw `boxes` (a rendering's, in document order) on `look`'s plate, which
    covers `size` (the app's width and height)."""
    g = growth(boxes)
    if g is None:
        return _compose(look, boxes, size)
    # A dialog grown with its list: composed on its look moved likewise (`dialog`).
    c = _compose(grown_look(look, g), boxes, size)
    c.paints = window_paints(look, boxes[0], g, size, c.paints)
    return c


def _compose(look: ScreenLook, boxes: list[Box], size: tuple[int, int]) -> Composition:
    c = Composition()
    wipes: list[Paint] = []
    rows: list[Paint] = []
    fixes: list[Paint] = []
    in_lists: set[int] = set()
    drawn: list[tuple[int, tuple[list[Paint], ...]]] = []  # per list: (its end, paints)
    on = (look.plate, size, indicators(look))
    region = regions(boxes)
    for i, b in enumerate(boxes):
        if b.list_key is None or i in in_lists:
            continue
        lst = look.lists_at.get(b.bounds)
        if lst is None:
            continue
        sub = subtree(boxes, i)
        in_lists.update(sub)
        c.quiet.add(i)
        over = _lists_over(look, boxes, i + len(sub), lst.bounds)
        if over is None:  # under a panel: the plate shows what shows of it
            c.quiet.update(sub)
            continue
        mine: tuple[list[Paint], list[Paint], list[Paint]] = ([], [], [])
        compose_list(lst, boxes, b, look.plate, size, on[2], c, *mine)
        inside = region[b.children[0]] if b.children else EVERYWHERE
        drawn.append((i + len(sub), tuple(
            [r for p in got for q in _outside(p, over)
             if (r := _inside_region(q, inside)) is not None] for got in mine)))
    shown: set[int] = set()
    kept: list[Mark] = []  # the marks quiet boxes show (`echoes`)
    over_lists: list[tuple[int, Rect]] = []  # (box, bounds) of those outside lists
    relabelled = False  # a check widget's label drawn anew beside its indicator
    for i, b in enumerate(boxes):
        if i in in_lists:
            continue
        if not has_content(b):
            c.quiet.add(i)
            continue
        marks = look.marks_at.get(b.bounds, ())
        hit = [m for m in marks if shows(m, b)]
        if hit:
            # Every mark showing it there: a recording may hold a view twice (a page
            # and its cross-fading copy), and the mock a box for each or for one.
            shown.update(id(m) for m in hit)
            kept.extend(hit)
            over_lists.append((i, b.bounds))
            c.quiet.add(i)
            continue
        if _pictured(look, b):  # a toggle drawn as the app drew its new state
            c.quiet.add(i)
            continue
        if marks and _floating_label(marks[0], b):
            shown.add(id(marks[0]))  # the label stays on the outline, the text goes in
            c.styles[i] = _inside(marks[0], b)
            continue
        if not marks:
            c.styles[i] = None
            continue
        n = len(shown)
        c.styles[i] = redrawn(marks[0], b, (0, 0), on, shown, fixes)
        relabelled = relabelled or (len(shown) > n and marks[0].text != b.text)
    # Opened without its parameter, the screen hides texts bound to it (a title): the
    # plate's stay where no box lies (`ScreenLook.unbound`).
    # A list's paints (wipes of rows gone, rows cut from elsewhere) lie under the views
    # drawn after it: a text outside lists the plate keeps over it (a title over a
    # page-long list) keeps its pixels.
    for end, got in drawn:
        on_top = [r for j, r in over_lists if j >= end]
        for into, ps in zip((wipes, rows, fixes), got, strict=True):
            into.extend(q for p in ps for q in _outside(p, on_top))
    placed = {b.bounds for i, b in enumerate(boxes) if i not in in_lists} \
        if look.unbound else set()
    stale = relabelled
    for m in look.marks:
        if id(m) not in shown and (not look.unbound or m.bounds in placed) \
                and not echoes(m, kept):
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


def _inside_region(p: Paint, region: Rect) -> Paint | None:
    """`p` cut to `region` (a list's, `regions`: its rows never paint over what lies
    past its ancestors, a toolbar over a web page's end), or None where none is left."""
    r = within(p.rect, region)
    if r is None or r == p.rect:
        return p if r is not None else None
    return replace(p, rect=r)


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
    return Style(size=0.0, color=text_on(m.bg), indent=m.style.indent)
