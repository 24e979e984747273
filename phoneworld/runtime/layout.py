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

from phoneworld.runtime.expr import display, truthy
from phoneworld.spec.ast import Const, Expr, ListOf, Screen, View


def view_key(view: View, vpath: tuple[int, ...]) -> str:
    """The key a view's typed text and scroll offset are kept under: its name, else its path."""
    return view.name or "@" + ".".join(map(str, vpath))


class ViewPlan:
    """One view of a screen at its place in the tree (see the module docstring)."""

    __slots__ = ("view", "bounds", "static", "editable", "password", "text", "text_expr",
                 "desc_expr", "checked", "checked_expr", "key", "children", "items",
                 "template")

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
        if self.items is None:
            self.children = tuple(ViewPlan(c, (*vpath, i)) for i, c in enumerate(view.children))
        elif view.children:
            self.template = ViewPlan(view.children[0], (*vpath, 0))


def _literal(e: Expr | None, convert: Any, none: Any) -> tuple[Any, Expr | None]:
    """(the converted value of a literal, None), or (`none`, the expression) for a binding;
    (`none`, None) for no expression."""
    if e is None:
        return none, None
    if type(e) is Const:
        return convert(e.value), None
    return none, e


def plan_screen(screen: Screen) -> ViewPlan:
    """The plan of `screen`'s view tree (make it once per screen and keep it)."""
    return ViewPlan(screen.root, ())
