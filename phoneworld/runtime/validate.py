"""What the runtime needs of a spec before it runs it, checked once, all problems at once.

A machine must never fail halfway through an episode because the spec names a table,
flag, column or screen that does not exist; so `check_runnable` walks every expression
and effect up front and raises one `SpecError` listing everything it found:

    check_runnable(spec)
    -> SpecError("transition home.add tap: effect insert: unknown table 'cart'; did you
       mean 'carts'?\n...")

The spec checker (`phoneworld.spec.check`) reports the same with source positions; this
is the runtime's own guard, for specs built in Python.
"""

from __future__ import annotations

from dataclasses import dataclass

from phoneworld.errors import SpecError
from phoneworld.runtime.expr import FUNCS, ROOTS, did_you_mean
from phoneworld.spec import ast
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
    View,
)

_RESERVED_COLUMNS = {"rowid", "_rowid_", "oid"}
_ACTIONS = {"tap", "long_press", "type", "submit", "scroll", "back", "home", "enter"}
_COMPARE = {"==", "!=", "<", "<=", ">", ">=", "~"}


@dataclass(frozen=True)
class _Ctx:
    """Names an expression may use: list-row columns (`item`) and filtered-row columns."""

    item: frozenset[str] | None = None
    row: frozenset[str] | None = None
    bound: frozenset[str] = frozenset()
    """A task's parameter names."""


class _Checker:
    def __init__(self, spec: AppSpec) -> None:
        self.spec = spec
        self.tables = {t.name: t for t in spec.tables}
        self.columns = {t.name: frozenset(c.name for c in t.columns) for t in spec.tables}
        self.flags = {f.name for f in spec.flags}
        self.screens = {s.name for s in spec.screens}
        self.problems: list[str] = []

    def bad(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")

    def run(self) -> list[str]:
        spec = self.spec
        if spec.start not in self.screens:
            self.bad("app", f"start screen '{spec.start}' does not exist"
                     f"{did_you_mean(spec.start, sorted(self.screens))}")
        for t in spec.tables:
            self.table(t)
        for s in spec.screens:
            if s.param is not None and s.param not in self.tables:
                self.bad(f"screen {s.name}", f"param table '{s.param}' does not exist")
            self.view(s.root, f"screen {s.name}", _Ctx())
        for tr in spec.transitions:
            self.transition(tr)
        for task in spec.tasks:
            where = f"task {task.name}"
            for p in task.params:
                cols = self.columns.get(p.table)
                if cols is None or p.column not in cols:
                    self.bad(where, f"parameter {p.name}: no column {p.table}.{p.column}")
            self.expr(task.condition, where, _Ctx(bound=frozenset(p.name for p in task.params)))
        return self.problems

    def table(self, t: ast.Table) -> None:
        where = f"table {t.name}"
        if t.name.lower() == "flags" or t.name.lower().startswith("sqlite_"):
            self.bad(where, "this table name is reserved")
        if not t.columns:
            self.bad(where, "a table needs at least one column")
        names = [c.name for c in t.columns]
        for n in names:
            if n.lower() in _RESERVED_COLUMNS:
                self.bad(where, f"column name '{n}' is reserved by SQLite")
        if len(set(n.lower() for n in names)) != len(names):
            self.bad(where, "duplicate column names")
        for i, row in enumerate(t.rows):
            if len(row) != len(names):
                self.bad(where, f"row {i + 1} has {len(row)} values for {len(names)} columns")

    def view(self, v: View, where: str, ctx: _Ctx) -> None:
        here = f"{where} view {v.name or v.cls}"
        for e in (v.text, v.checked):
            if e is not None:
                self.expr(e, here, ctx)
        if v.items is not None:
            cols = self.columns.get(v.items.table)
            if cols is None:
                self.bad(here, f"list table '{v.items.table}' does not exist"
                         f"{did_you_mean(v.items.table, sorted(self.tables))}")
                return
            if v.items.where is not None:
                self.expr(v.items.where, here, _Ctx(item=cols, row=cols))
            ctx = _Ctx(item=cols)
        for c in v.children:
            self.view(c, where, ctx)

    def transition(self, tr: ast.Transition) -> None:
        where = f"transition {tr.screen}.{tr.widget} {tr.action}"
        if tr.screen not in self.screens:
            self.bad(where, f"screen '{tr.screen}' does not exist"
                     f"{did_you_mean(tr.screen, sorted(self.screens))}")
        if tr.target not in self.screens and tr.target not in ("back", "stay"):
            self.bad(where, f"target '{tr.target}' is not a screen, 'back' or 'stay'"
                     f"{did_you_mean(tr.target, sorted(self.screens))}")
        if tr.action not in _ACTIONS:
            self.bad(where, f"unknown action '{tr.action}'")
        for e in (tr.when, tr.with_param):
            if e is not None:
                self.expr(e, where, _Ctx())
        for eff in tr.effects:
            self.effect(eff, f"{where}: effect {eff.op} {eff.target}")

    def effect(self, eff: ast.Effect, where: str) -> None:
        if eff.op in ("toggle", "set"):
            if eff.target not in self.flags:
                self.bad(where, f"unknown flag '{eff.target}'"
                         f"{did_you_mean(eff.target, sorted(self.flags))}")
            if eff.op == "set" and len(eff.values) != 1:
                self.bad(where, "set needs exactly one value")
            for _, e in eff.values:
                self.expr(e, where, _Ctx())
            return
        table = self.tables.get(eff.target)
        if table is None:
            self.bad(where, f"unknown table '{eff.target}'"
                     f"{did_you_mean(eff.target, sorted(self.tables))}")
            return
        if table.kind != "state":
            self.bad(where, "content tables are read-only")
        cols = self.columns[eff.target]
        for col, e in eff.values:
            if col not in cols:
                self.bad(where, f"table '{eff.target}' has no column '{col}'"
                         f"{did_you_mean(col, sorted(cols))}")
            # `update t set c = c + 1`: the row's own columns are in reach.
            self.expr(e, where, _Ctx(row=cols if eff.op == "update" else None))
        if eff.where is not None:
            self.expr(eff.where, where, _Ctx(row=cols))

    def expr(self, e: Expr, where: str, ctx: _Ctx) -> None:
        if isinstance(e, Const):
            return
        if isinstance(e, Ref):
            self.ref(e.path, where, ctx)
        elif isinstance(e, Compare):
            if e.op not in _COMPARE:
                self.bad(where, f"unknown comparison '{e.op}'")
            self.expr(e.left, where, ctx)
            self.expr(e.right, where, ctx)
        elif isinstance(e, BoolOp):
            for i in e.items:
                self.expr(i, where, ctx)
        elif isinstance(e, Not):
            self.expr(e.item, where, ctx)
        elif isinstance(e, Call):
            self.call(e, where, ctx)
        elif isinstance(e, BinOp):
            if e.op not in ("+", "-"):
                self.bad(where, f"unknown operator '{e.op}'")
            self.expr(e.left, where, ctx)
            self.expr(e.right, where, ctx)
        else:
            self.bad(where, f"not an expression: {e!r}")

    def ref(self, path: tuple[str, ...], where: str, ctx: _Ctx) -> None:
        name = ".".join(path)
        if not path:
            self.bad(where, "empty name")
            return
        head = path[0]
        if len(path) == 1 and (head in ctx.bound or (ctx.row is not None and head in ctx.row)):
            return
        if head in ("item", "param"):
            if len(path) > 2:
                self.bad(where, f"'{name}': a row has columns, not nested fields")
            elif head == "item" and ctx.item is not None and len(path) == 2 \
                    and path[1] not in ctx.item:
                self.bad(where, f"'{name}': the list row has no column '{path[1]}'"
                         f"{did_you_mean(path[1], sorted(ctx.item))}")
        elif head == "input":
            if len(path) != 2:
                self.bad(where, f"'{name}': write input.<field name>")
        elif len(path) == 1 and (head in ("answer", "screen") or head in self.flags):
            return
        else:
            known = [*ROOTS, *self.flags, *(ctx.row or ()), *ctx.bound]
            self.bad(where, f"unknown name '{name}'{did_you_mean(head, known)}")

    def call(self, e: Call, where: str, ctx: _Ctx) -> None:
        if e.func in TABLE_FUNCS:
            if e.table is None or e.table not in self.tables:
                self.bad(where, f"{e.func}() needs a known table, not {e.table!r}"
                         f"{did_you_mean(e.table or '', sorted(self.tables))}")
                return
            if e.where is not None:
                self.expr(e.where, where, _Ctx(item=ctx.item, row=self.columns[e.table],
                                               bound=ctx.bound))
            for a in e.args:  # sum(t, x): x per row
                self.expr(a, where, _Ctx(item=ctx.item, row=self.columns[e.table],
                                         bound=ctx.bound))
        elif e.func in SCALAR_FUNCS:
            n = SCALAR_FUNCS[e.func]
            if e.table is not None or e.where is not None or len(e.args) != n:
                self.bad(where, f"{e.func}() takes {n} argument(s) and no table")
            for a in e.args:
                self.expr(a, where, ctx)
        else:
            self.bad(where, f"unknown function '{e.func}'{did_you_mean(e.func, FUNCS)}")


def check_runnable(spec: AppSpec) -> None:
    """Raise one `SpecError` listing every name the spec uses but does not define."""
    problems = _Checker(spec).run()
    if problems:
        raise SpecError(f"{spec.name}: the app cannot run:\n  " + "\n  ".join(problems))
