"""Walking the spec's trees: the one place that knows which fields hold sub-expressions.

    e = parse_expr('count(cart where qty > 1) >= 2 and not wifi')
    children(e)                    -> (Compare(...), Not(Ref(('wifi',))))
    [type(x).__name__ for x in walk(e)]
        -> ['BoolOp', 'Compare', 'Call', 'Compare', 'Ref', 'Const', 'Const', 'Not', 'Ref']
    map_expr(e, lambda x: Ref(('on',)) if x == Ref(('wifi',)) else x)
        -> the same condition with `not on`
    [v.name for v in views(screen.root) if v.name]   -> every named view, in document order

A pass that looks at expressions walks them with these (or, when where it stands changes
what a name means, recurses over `children` itself), so a new kind of node is taught to
every pass here, once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from phoneworld.spec.ast import BinOp, BoolOp, Call, Compare, Expr, Not, Screen, View


def children(e: Expr) -> tuple[Expr, ...]:
    """The direct sub-expressions of `e`, left to right (a call's `where`, then its args)."""
    t = type(e)
    if t is Compare or t is BinOp:
        return (e.left, e.right)  # type: ignore[union-attr]
    if t is BoolOp:
        return e.items  # type: ignore[union-attr]
    if t is Not:
        return (e.item,)  # type: ignore[union-attr]
    if t is Call:
        return ((e.where,) if e.where is not None else ()) + e.args  # type: ignore[union-attr]
    return ()


def walk(e: Expr, enter: Callable[[Expr], bool] | None = None) -> Iterator[Expr]:
    """`e` and every node below it, pre-order, left to right. With `enter`, the nodes
    below a node are visited only where `enter(node)` is true (the node itself is)."""
    stack = [e]
    while stack:
        x = stack.pop()
        yield x
        if enter is None or enter(x):
            stack.extend(reversed(children(x)))


def map_expr(e: Expr, f: Callable[[Expr], Expr]) -> Expr:
    """A copy of `e` rebuilt bottom-up: every node is passed to `f` with its children
    already mapped, and replaced by what `f` returns."""
    t = type(e)
    if t is Compare or t is BinOp:
        e = replace(e, left=map_expr(e.left, f), right=map_expr(e.right, f))  # type: ignore
    elif t is BoolOp:
        e = replace(e, items=tuple(map_expr(i, f) for i in e.items))  # type: ignore
    elif t is Not:
        e = Not(map_expr(e.item, f))  # type: ignore[union-attr]
    elif t is Call:
        e = replace(e, where=None if e.where is None else map_expr(e.where, f),  # type: ignore
                    args=tuple(map_expr(a, f) for a in e.args))  # type: ignore[union-attr]
    return f(e)


def views(root: View) -> Iterator[View]:
    """`root` and every view below it, in document order."""
    stack = [root]
    while stack:
        v = stack.pop()
        yield v
        stack.extend(reversed(v.children))


def own_root(s: Screen) -> View:
    """The views that are the screen's own: its whole tree, but for a dialog drawn over
    the page it was opened on (a sheet over a scrim, `ui.dialogs`), the view its spec's
    `layer` leads to; the page under the scrim is the screen under the dialog, not the
    dialog (uber's store page under its time picker: "What is written under “Humanoid
    Headoffice” on “Arrive by”?"). The compiler finds the layer once (`ui.dialogs`, the
    one detector); a hand-written dialog without one is its whole tree."""
    if s.window is None or not s.layer:
        return s.root
    v = s.root
    for i in s.layer:
        if not 0 <= i < len(v.children):
            return s.root  # (`check` says so; a spec that is not checked reads the whole)
        v = v.children[i]
    return v
