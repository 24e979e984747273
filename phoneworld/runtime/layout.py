"""A screen's views worked out once: all that does not depend on the data, ahead of rendering.

    plan_screen(screen) -> ViewPlan(root view: bounds, flags, literal text, field key,
                                    children: ViewPlan, ...)

Rendering runs on every new screen state, and most of a view never changes: its bounds,
its flags, a literal label, the key its typed text and scroll offset are kept under.
A `ViewPlan` holds these for one view at its place in the tree, so that rendering only
evaluates bindings, reads typed text and places list items; it is about twice as fast
as working them out from the `View` each time.
"""

from __future__ import annotations

from typing import Any

from phoneworld.runtime.dialog import Window, dialog_list
from phoneworld.runtime.expr import display, truthy
from phoneworld.runtime.flow import FLOW
from phoneworld.spec.ast import Const, Expr, ListOf, Screen, View


def view_key(view: View, vpath: tuple[int, ...]) -> str:
    """The key a view's typed text and scroll offset are kept under: its name, else its path."""
    return view.name or "@" + ".".join(map(str, vpath))


class ViewPlan:
    """One view of a screen at its place in the tree (see the module docstring)."""

    __slots__ = ("view", "bounds", "static", "editable", "password", "text", "text_expr",
                 "desc_expr", "checked", "checked_expr", "key", "children", "items",
                 "template", "anchor", "sizes", "window", "grown", "flow")

    def __init__(self, view: View, vpath: tuple[int, ...]) -> None:
        flags = view.flags
        self.view = view
        self.bounds = view.bounds
        self.editable = "editable" in flags
        self.password = "password" in flags
        desc, self.desc_expr = _literal(view.desc, display, "")
        self.static: tuple[Any, ...] = (
            view.cls, view.id, desc, "clickable" in flags, "long_clickable" in flags,
            "checkable" in flags, self.editable, self.password,
            "scrollable" in flags or view.items is not None, "selected" in flags,
            "disabled" not in flags, "focusable" in flags or self.editable)
        """Box attributes that are the same wherever the view shows (see `Box`); a
        bound description is evaluated per row (`desc_expr`)."""
        self.text, self.text_expr = _literal(view.text, display, "")
        self.checked, self.checked_expr = _literal(view.checked, truthy, False)
        self.items: ListOf | None = view.items
        self.key = view_key(view, vpath) if self.editable or self.items is not None else None
        """Where the view's typed text (a field) or scroll offset (a list) is kept."""
        self.children: tuple[ViewPlan, ...] = ()
        self.template: ViewPlan | None = None
        """A list's item template (its first child); a list shows no other children."""
        self.anchor = KEEP
        """How the view follows a list row's size (see `anchor`); KEEP outside templates."""
        self.sizes: dict[Any, tuple[int, int]] = {}
        """A list's row id -> (how much larger along its axis than the template it is,
        where the next row starts from its start), for rows of `ListOf.sizes`."""
        if self.items is None:
            self.children = tuple(ViewPlan(c, (*vpath, i)) for i, c in enumerate(view.children))
        elif view.children:
            self.template = t = ViewPlan(view.children[0], (*vpath, 0))
            a = 1 if self.items.axis == "vertical" else 0
            lo, hi = t.bounds[a], t.bounds[a + 2]
            _anchor(t, lo, hi, a)
            self.sizes = row_steps(self.items, hi - lo)
        self.flow = self.template is not None and self.items is not None \
            and self.items.axis == "horizontal" and self.items.span <= 1 \
            and self.bounds[3] - self.bounds[1] >= FLOW * (
                self.template.bounds[3] - self.template.bounds[1])
        """A horizontal list as tall as several of its rows: inline content (a web page's
        links), its rows wrapping onto lines (`runtime.flow`)."""
        self.window: Window | None = None
        """A dialog's list that grows with its rows (`dialog`), on a screen's root."""
        self.grown: dict[tuple[int, int], ViewPlan] = {}
        """This root's plans grown by (up, down) (`dialog.grown`), made once each."""

    def copy(self) -> ViewPlan:
        """A copy of this view's plan, sharing its children (to move, in `dialog`)."""
        q = ViewPlan.__new__(ViewPlan)
        for name in ViewPlan.__slots__:
            setattr(q, name, getattr(self, name))
        q.grown = {}
        return q


def row_steps(items: ListOf, size: int) -> dict[int, tuple[int, int]]:
    """Row id -> (how much larger along the axis than the template's `size` it is, where
    the next row starts from its start), for the rows of `items.sizes`."""
    return {i: (n - size, max(1, n + g)) for i, n, g in items.sizes}


def list_pitch(items: ListOf, size: int) -> int:
    """How far apart `items`' rows start: its pitch, or where the spec gives none, the
    template's `size` along the axis."""
    return items.pitch if items.pitch > 0 else max(1, size)


def rows_end(steps: list[tuple[int, int]], t_end: int) -> int:
    """Where the last row of a list ends along its axis, its first row (the template)
    ending at `t_end` and each row (larger by, step to the next) of `steps` (not empty)."""
    return t_end + sum(step for _, step in steps[:-1]) + steps[-1][0]


KEEP, STRETCH, CENTRE, END = 0, 1, 2, 3
"""How a template's view follows its row being `d` pixels larger along the list's axis:
stays (KEEP: top-aligned, or outside the row), grows by `d` at its end (STRETCH: it fills
the row, or the row's middle), moves by `d // 2` (CENTRE: a centred icon) or by `d`
(END: aligned to the row's end)."""


def anchor(start: int, end: int, lo: int, hi: int) -> int:
    """How a view over [start, end) of a row over [lo, hi) follows the row's size."""
    if start >= hi or end <= lo:
        return KEEP
    tol = max(3, (hi - lo) // 20)
    before, after = start - lo, hi - end
    if before <= tol and after <= tol:
        return STRETCH
    if abs(before - after) <= tol:
        return STRETCH if 2 * (end - start) >= hi - lo else CENTRE
    return END if after <= tol else KEEP


def _anchor(p: ViewPlan, lo: int, hi: int, a: int) -> None:
    p.anchor = anchor(p.bounds[a], p.bounds[a + 2], lo, hi)
    for c in p.children:
        _anchor(c, lo, hi, a)


def fit(steps: list[tuple[int, int]] | None, lines: int, pitch: int, t_lo: int, t_hi: int,
        hi: int) -> tuple[int, int]:
    """(lines wholly in view from the first, the largest scroll offset in lines) of a
    list whose template spans [t_lo, t_hi) along its axis, which ends at `hi`: `lines`
    lines `pitch` apart, or, with `steps`, one (larger by, step to the next) per row
    (`ListOf.sizes`). The largest offset shows the last row whole, as early as it can;
    the page counts rows of the template's size after the last."""
    if not steps:
        page = max(1, (hi - t_hi) // pitch + 1) if t_hi <= hi else 1
        return page, max(0, lines - page)
    size = t_hi - t_lo
    page, at = 0, t_lo
    for grow, step in steps:
        if at + size + grow > hi:
            break
        page += 1
        at += step
    else:
        page += (hi - at - size) // pitch + 1 if at + size <= hi else 0
    k = len(steps) - 1
    end = t_lo + size + steps[k][0]
    while k > 0 and end + steps[k - 1][1] <= hi:
        end += steps[k - 1][1]
        k -= 1
    return max(1, page), k


def _literal(e: Expr | None, convert: Any, none: Any) -> tuple[Any, Expr | None]:
    """(the converted value of a literal, None), or (`none`, the expression) for a binding;
    (`none`, None) for no expression."""
    if e is None:
        return none, None
    if type(e) is Const:
        return convert(e.value), None
    return none, e


def plan_screen(screen: Screen, size: tuple[int, int] | None = None) -> ViewPlan:
    """The plan of `screen`'s view tree (make it once per screen and keep it); on a
    screen of `size`, a dialog's list grows with its rows (`dialog`)."""
    plan = ViewPlan(screen.root, ())
    if size is not None:
        plan.window = dialog_list(plan, size, screen.window)
    return plan
