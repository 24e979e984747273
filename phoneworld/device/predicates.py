"""Success on a real app, judged from its screen: predicates over the view hierarchy.

App databases are out of reach on a real phone, so a task there succeeds when its final
screen shows the goal (LlamaTouch's essential states). The predicates are written in the
spec language's expression syntax, the one the mock apps' checkers use, over one table,
`node` (every view of the hierarchy), and four names:

    exists(node where text ~ "Added to cart")
    count(node where id == "com.example.shop:id/cart_item") >= 2 and package == "com.example.shop"
    screen ~ "com.example.shop.CartActivity" and answer ~ "3.49"

`node` columns: text, desc (content-desc), id (resource-id), class, package, clickable,
long_clickable, checkable, checked, editable, scrollable, selected, enabled, focused,
password, x1, y1, x2, y2, depth. Names: `screen` and `activity` (the foreground
activity's class name), `package`, `answer` (the agent's answer). `ScreenTask` is a task
that carries such a predicate; `Judge` is the pluggable alternative (a model, a person).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from phoneworld.errors import SpecSyntaxError, did_you_mean
from phoneworld.runtime.expr import ExprError, Scope, holds
from phoneworld.spec.ast import Call, Expr, Ref
from phoneworld.spec.parse import parse_expr
from phoneworld.spec.walk import children
from phoneworld.traces.assemble import normalise_activity
from phoneworld.ui.node import Node

TABLE = "node"
COLUMNS = ("text", "desc", "id", "class", "package", "clickable", "long_clickable",
           "checkable", "checked", "editable", "scrollable", "selected", "enabled", "focused",
           "password", "x1", "y1", "x2", "y2", "depth")
NAMES = ("screen", "activity", "package", "answer")


@functools.lru_cache(maxsize=256)
def parse_predicate(text: str, source: str = "<predicate>") -> Expr:
    """A screen predicate's expression; `SpecSyntaxError` (with a caret) when it does not
    parse or names a column or name that does not exist."""
    try:
        expr = parse_expr(text, source)
    except SpecSyntaxError as err:
        raise SpecSyntaxError(f"{err}\na screen predicate is one expression, e.g. "
                              f'exists(node where text ~ "Done")') from err
    _check_names(expr, text, source, inside=False)
    return expr


def _check_names(e: Expr, text: str, source: str, *, inside: bool) -> None:
    if type(e) is Ref:
        head = e.path[0]
        known = [*NAMES, *(COLUMNS if inside else ())]
        if len(e.path) != 1 or head not in known:
            raise SpecSyntaxError(f"{source}: unknown name '{'.'.join(e.path)}' in {text!r}"
                                  f"{did_you_mean(head, known)}; names are "
                                  f"{', '.join(NAMES)}, and inside node where: "
                                  f"{', '.join(COLUMNS)}")
        return
    if type(e) is Call:
        if e.table is not None and e.table != TABLE:
            raise SpecSyntaxError(f"{source}: a screen has one table, '{TABLE}', not "
                                  f"'{e.table}'")
        if e.where is not None:  # the node table's columns are names inside `where`
            _check_names(e.where, text, source, inside=True)
        for a in e.args:
            _check_names(a, text, source, inside=inside)
        return
    for c in children(e):
        _check_names(c, text, source, inside=inside)


class _ScreenData:
    """What a `Scope` needs of an app's data, for one hierarchy: the `node` table."""

    def __init__(self, root: Node, package: str, activity: str) -> None:
        self._root = root
        self._rows: list[dict] | None = None
        self.flags = {"package": package, "activity": activity}
        self.tables = {TABLE: None}

    def rows(self, table: str) -> list[dict]:
        if table != TABLE:
            raise KeyError(table)
        if self._rows is None:
            self._rows = [_row(n, len(p)) for p, n in self._root.walk()
                          if n.class_name != "hierarchy"]
        return self._rows


def _row(n: Node, depth: int) -> dict:
    x1, y1, x2, y2 = n.bounds
    return {"text": n.text, "desc": n.content_desc, "id": n.resource_id,
            "class": n.class_name, "package": n.package, "clickable": n.clickable,
            "long_clickable": n.long_clickable, "checkable": n.checkable, "checked": n.checked,
            "editable": n.editable, "scrollable": n.scrollable, "selected": n.selected,
            "enabled": n.enabled, "focused": n.focused, "password": n.password,
            "x1": x1, "y1": y1, "x2": x2, "y2": y2, "depth": depth}


def holds_on_screen(predicate: str | Expr, root: Node, *, package: str = "",
                    activity: str = "", answer: str | None = None) -> bool:
    """Whether a screen predicate holds on a hierarchy."""
    expr = parse_predicate(predicate) if isinstance(predicate, str) else predicate
    activity = normalise_activity(activity)
    scope = Scope(_ScreenData(root, package, activity), answer=answer,  # type: ignore[arg-type]
                  screen=activity)
    try:
        return holds(expr, scope)
    except ExprError as err:
        raise SpecSyntaxError(f"screen predicate: {err}") from err


@dataclass(frozen=True)
class Verdict:
    """A check's outcome (the shape of `phoneworld.tasks.CheckResult`)."""

    success: bool
    reason: str = ""


@dataclass(frozen=True)
class ScreenTask:
    """A task on a real app: an instruction and the screen predicate that means success."""

    id: str
    instruction: str
    success: str
    """The screen predicate (see the module docstring)."""
    apps: tuple[str, ...] = ()
    kind: str = "screen"

    def __post_init__(self) -> None:
        parse_predicate(self.success, f"task {self.id}")  # fail now, not at the end

    def check(self, target: Any) -> Verdict:
        """Whether the predicate holds on `target`'s last screen (`root`, `package`,
        `activity`) with its `answer`."""
        ok = holds_on_screen(self.success, target.root, package=target.package,
                             activity=target.activity, answer=target.answer)
        return Verdict(ok, f"{'holds' if ok else 'does not hold'} on the final screen: "
                           f"{self.success}")


Judge = Callable[[Any, Any], "Verdict | bool"]
"""`judge(task, target) -> Verdict | bool`: success decided some other way than a
predicate (a vision-language model, a person at a prompt)."""
