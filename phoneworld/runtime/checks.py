"""A check widget's label drawn anew on a plate: the recorded check box or radio button kept.

A recorded view that is a check widget with its label (Android's CheckBox, RadioButton,
CheckedTextView) draws its indicator before the text. The compiler's mark of it
(`look.Mark`) has its ink over both and its style's indent where the label starts
(`visual.sample.text_style`), so the indicator lies between the two (`indicator`). A box
drawn there with another text (a dialog's list opened for another setting, its rows cut
from the recorded ones) is drawn as the app draws it:

- in the state recorded there, the plate's indicator stays: only the label is wiped and
  drawn anew, in the recorded style, where it started;
- in the other state, the whole ink is wiped and the indicator is cut from where the
  plate shows one of the same shape in that state (another row's radio button, checked);
  where it shows none, the page draws one in the Material look.

    donors = indicators(look)                 # where the plate shows each, made once
    r = redraw(mark, box, (ox, oy), donors)   # None: not such a widget
    r.wipes, r.cut, r.kept
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from phoneworld.runtime.look import Mark, Rect, ScreenLook

if TYPE_CHECKING:
    from phoneworld.runtime.render import Box

GAP = 4
"""App pixels the label must start past the ink's start for an indicator to lie before it."""

Donors = dict[tuple[int, bool], list[tuple[Rect, tuple[int, int]]]]
"""Indicators the plate shows, by their view's height and their state: each one's
rectangle relative to its view's top-left, and that view's top-left on the plate."""


@dataclass(frozen=True)
class Redraw:
    """What to paint for a check widget drawn anew where `mark` was recorded: `wipes`
    (absolute rectangles, in the mark's background), then `cut` (a rectangle and where the
    plate's pixels come from: the plate's top-left drawn at `origin`), or None; `kept`:
    the plate (or the cut) shows the indicator, so the page draws the label alone."""

    wipes: tuple[Rect, ...]
    cut: tuple[Rect, tuple[int, int]] | None
    kept: bool


def indicator(m: Mark) -> Rect | None:
    """The rectangle of the check box or radio button that `m`'s ink starts with (in
    `m`'s coordinates), or None where it shows none (no check state, no label, a label
    not left-aligned, the label's ink from the start)."""
    if m.checked is None or not m.text.strip() or m.style.align != "left":
        return None
    x1, y1, x2, y2 = m.ink
    start = m.bounds[0] + int(m.style.indent)
    if x2 <= x1 or y2 <= y1 or start <= x1 + GAP or start >= x2:
        return None
    return (x1, y1, start, y2)


def indicators(look: ScreenLook) -> Donors:
    """Where the plate shows an indicator (`Donors`): marks outside lists, then each
    list's recorded rows, in order."""
    out: Donors = {}
    rows = [((0, 0), look.marks)] + [(it.bounds[:2], it.marks) for lst in look.lists
                                     for it in lst.items]
    for (ox, oy), marks in rows:
        for m in marks:
            r = indicator(m)
            if r is not None:
                x, y = m.bounds[:2]
                out.setdefault((m.bounds[3] - y, bool(m.checked)), []).append(
                    ((r[0] - x, r[1] - y, r[2] - x, r[3] - y), (x + ox, y + oy)))
    return out


def redraw(m: Mark, b: Box, origin: tuple[int, int], donors: Donors) -> Redraw | None:
    """How to draw check widget `b` where `m` was recorded (`m`'s coordinates are
    relative to `origin`: a recorded row's top-left on the plate drawn at the row), or
    None where `b` is no check widget or `m` shows no indicator (see the module
    docstring). A donor is an indicator in `b`'s state in a view as high, starting
    where `m`'s does (within `GAP`)."""
    r = indicator(m) if b.checkable else None
    if r is None:
        return None
    ox, oy = origin
    x1, y1, x2, y2 = m.ink
    if m.checked == b.checked:
        return Redraw(((r[2] + ox, y1 + oy, x2 + ox, y2 + oy),), None, True)
    whole = (x1 + ox, y1 + oy, x2 + ox, y2 + oy)
    vx, vy = m.bounds[0] + ox, m.bounds[1] + oy
    left = r[0] - m.bounds[0]
    for rel, (dx, dy) in donors.get((m.bounds[3] - m.bounds[1], b.checked), ()):
        if abs(rel[0] - left) <= GAP:
            place = (vx + rel[0], vy + rel[1], vx + rel[2], vy + rel[3])
            return Redraw((whole,), (place, (vx - dx, vy - dy)), True)
    return Redraw((whole,), None, False)
