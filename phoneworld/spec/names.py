"""Which names an expression may use where it stands, and the check that it uses only those.

    screen detail (param product), `text param.nmae`
      ->  "unknown column 'nmae' of product; did you mean 'name'?"

A `Scope` says what is known at one point of a spec (the same rules the runtime's
evaluator follows): flags everywhere; `item.<col>` inside a list item (and in a
transition from one); `param.<col>` on a screen with a parameter; `input.<widget>` on a
screen; `answer` and `screen` in tasks; a task's parameters; and, inside a table's
`where` (or an `update`'s values), that table's columns as bare names.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from phoneworld.errors import did_you_mean
from phoneworld.spec.ast import (
    SCALAR_FUNCS,
    TABLE_FUNCS,
    AppSpec,
    BinOp,
    BoolOp,
    Call,
    Compare,
    Const,
    Expr,
    Not,
    Ref,
)
from phoneworld.spec.walk import children

ROOTS = ("item", "param", "input", "answer", "screen")
"""Names with a fixed meaning in expressions; no flag or task parameter may take one."""

Report = Callable[[tuple[object, ...], str], None]
"""`report(nodes, message)`: a problem at the first of `nodes` whose position is known."""


@dataclass(frozen=True)
class Scope:
    """What an expression may name at one point of the spec."""

    item: str | None = None
    """The table of the list row `item` stands for."""
    param: str | None = None
    """The table of the screen's parameter row."""
    param_value: bool = False
    """Whether, without a param table, the screen is handed a value as `param`."""
    inputs: frozenset[str] | None = None
    """The widgets `input.<name>` may read (None: no screen here)."""
    columns: str | None = None
    """The table whose columns are bare names (inside its `where`)."""
    task_params: frozenset[str] = frozenset()
    in_task: bool = False
    note: str = field(default="", compare=False)
    """Why there is no `item` here, for messages."""


class NameChecker:
    """Checks expressions against one spec's tables, flags and screens."""

    def __init__(self, spec: AppSpec, report: Report) -> None:
        self.tables = {t.name: {c.name for c in t.columns} for t in reversed(spec.tables)}
        self.flags = {f.name for f in spec.flags}
        self.screens = {s.name for s in spec.screens}
        self.report = report

    def expr(self, e: Expr, scope: Scope, at: tuple[object, ...]) -> None:
        """Report every unknown name and malformed node in `e`, at `e` or else the nearest
        of `at` (the nodes around it) whose position is known."""
        where = (e, *at)

        def say(message: str) -> None:
            self.report(where, message)

        if isinstance(e, Const):
            if not _is_value(e.value):
                say(f"not a value (text, number, true/false or null): {e.value!r}")
        elif isinstance(e, Ref):
            self._ref(e.path, scope, say)
        elif isinstance(e, Call):
            self._call(e, scope, say, at)  # its `where` sees the table's columns
            return
        elif isinstance(e, Compare):
            if e.op not in ("==", "!=", "<", "<=", ">", ">=", "~"):
                say(f"unknown comparison '{e.op}'")
            self._screen_compare(e, scope, say)
        elif isinstance(e, BoolOp):
            if e.op not in ("and", "or") or len(e.items) < 2:
                say(f"'{e.op}' needs 'and' or 'or' and two or more items")
        elif isinstance(e, BinOp):
            if e.op not in ("+", "-"):
                say(f"unknown operator '{e.op}'")
        elif not isinstance(e, Not):
            say(f"not an expression: {e!r}")
            return
        for c in children(e):
            self.expr(c, scope, where)

    def table(self, name: str, say: Callable[[str], None]) -> bool:
        """Whether table `name` exists (reporting it when not)."""
        if name in self.tables:
            return True
        say(f"unknown table '{name}'{did_you_mean(name, self.tables)}")
        return False

    def _ref(self, path: tuple[str, ...], scope: Scope, say: Callable[[str], None]) -> None:
        if not path:
            say("an empty name")
            return
        head, rest = path[0], path[1:]
        columns = self.tables.get(scope.columns or "", set())
        if not rest and head in columns:
            return  # inside a table's `where`, its columns come first
        if head == "param" and scope.param is None and scope.param_value:
            if rest:
                say(f"'{'.'.join(path)}': param is the value handed to this screen, not a row")
            return
        if head == "param" and scope.in_task:
            # A task's `param.c` is the current screen's row, whichever table that is.
            known = sorted({c for cols in self.tables.values() for c in cols})
            if len(rest) != 1:
                say(f"'{'.'.join(path)}': write param.<column>")
            elif rest[0] not in known:
                say(f"no table has a column '{rest[0]}'{did_you_mean(rest[0], known)}")
            return
        if head in ("item", "param"):
            table = scope.item if head == "item" else scope.param
            if table is None:
                known = f"inside a list item, or in a transition from one{scope.note}" \
                    if head == "item" else "on a screen declared with `param <table>`"
                say(f"'{head}' is only known {known}")
            elif len(rest) > 1:
                say(f"'{'.'.join(path)}': a row has columns, not nested fields")
            elif rest and rest[0] not in self.tables.get(table, {rest[0]}):
                say(f"unknown column '{rest[0]}' of {table}"
                    f"{did_you_mean(rest[0], self.tables[table])}")
            return
        if head == "input":
            if scope.inputs is None:
                say("'input' is only known on a screen")
            elif len(rest) != 1:
                say(f"'{'.'.join(path)}': write input.<widget name>")
            elif rest[0] not in scope.inputs:
                say(f"no widget '{rest[0]}' on this screen{did_you_mean(rest[0], scope.inputs)}")
            return
        known = columns | self.flags | scope.task_params
        if rest:
            say(f"'{'.'.join(path)}': only item, param and input have fields")
        elif head in ("answer", "screen") and not scope.in_task:
            say(f"'{head}' is only known in a task's condition")
        elif head not in known and head not in ("answer", "screen"):
            roots = [r for r in ROOTS if r != "screen" or scope.in_task]
            say(f"unknown name '{head}'{did_you_mean(head, [*known, *roots])}")

    def _call(self, c: Call, scope: Scope, say: Callable[[str], None],
              at: tuple[object, ...]) -> None:
        if c.func == "sum":
            if c.table is None or len(c.args) != 1 or c.where is not None:
                say("sum() takes a table and what to add up: sum(<table>, <column>)")
            elif self.table(c.table, say):
                self.expr(c.args[0], replace(scope, columns=c.table), (c, *at))
            return
        if c.func in TABLE_FUNCS:
            if c.table is None or c.args:
                say(f"{c.func}() takes a table: {c.func}(<table> where ...)")
            elif self.table(c.table, say) and c.where is not None:
                self.expr(c.where, replace(scope, columns=c.table), (c, *at))
            return
        if c.func in SCALAR_FUNCS:
            if c.table is not None or c.where is not None:
                say(f"{c.func}() takes no table")
            if len(c.args) != SCALAR_FUNCS[c.func]:
                say(f"{c.func}() takes {SCALAR_FUNCS[c.func]} argument(s), "
                    f"got {len(c.args)}")
        else:
            say(f"unknown function '{c.func}'"
                f"{did_you_mean(c.func, [*TABLE_FUNCS, *SCALAR_FUNCS])}")
        for a in c.args:
            self.expr(a, scope, (c, *at))

    def _screen_compare(self, e: Compare, scope: Scope, say: Callable[[str], None]) -> None:
        """`screen == "cart"`: the text must name a screen."""
        for a, b in ((e.left, e.right), (e.right, e.left)):
            if scope.in_task and a == Ref(("screen",)) and isinstance(b, Const) \
                    and isinstance(b.value, str) and b.value not in self.screens:
                say(f"no screen '{b.value}'{did_you_mean(b.value, self.screens)}")


def _is_value(v: object) -> bool:
    if isinstance(v, float):
        return math.isfinite(v)
    return v is None or isinstance(v, (str, int))
