"""A state condition as an SQL query over the app's SQLite state (PhoneWorld's verifiers).

    to_sql(exists(setting where id == k and checked == true), {"k": 2}, spec)
      -> ('SELECT ((EXISTS (SELECT 1 FROM "setting" WHERE (("id" IS ?) AND '
          '("checked" IS ?)))))', [2, True])

Names (tables, columns, the `flags` table) are quoted identifiers; every value, parameter
and constant alike, is a bound parameter, never SQL text. Only state predicates translate:
`exists`/`count` over a table with comparisons of its columns, flags, `and`/`or`/`not`,
`+`/`-`; a condition that reads `answer` or `screen`, calls `lower`/`len`, or compares
with `~` (a normalised match) has no SQL form and gives None. `holds_sql` runs the query
on a machine's database, read-only; tests hold it equal to the checker's own verdict.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from phoneworld.runtime.machine import Machine
from phoneworld.runtime.state import quote
from phoneworld.spec.ast import AppSpec, BinOp, BoolOp, Call, Compare, Const, Expr, Not, Ref, Value

_OPS = {"==": "IS", "!=": "IS NOT", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


class _NoSql(Exception):
    pass


def to_sql(condition: Expr, params: Mapping[str, Value], spec: AppSpec
           ) -> tuple[str, list[Any]] | None:
    """`SELECT (<condition>)` with its bound values, or None when it has no SQL form.

    Bare names resolve as the checker resolves them: inside a table's `where`, its columns
    first; then the task's parameters; then the app's flags."""
    values: list[Any] = []
    names = _Names(dict(params), frozenset(f.name for f in spec.flags),
                   {t.name: frozenset(c.name for c in t.columns) for t in spec.tables})
    try:
        body = _expr(condition, names, None, values)
    except _NoSql:
        return None
    return f"SELECT ({body})", values


def holds_sql(m: Machine, condition: Expr, params: Mapping[str, Value]) -> bool | None:
    """The query's verdict on `m`'s state, or None when the condition has no SQL form."""
    q = to_sql(condition, params, m.spec)
    if q is None:
        return None
    (value,) = m.state.conn.execute(*q).fetchone()
    return bool(value)


@dataclass(frozen=True)
class _Names:
    params: dict[str, Value]
    flags: frozenset[str]
    columns: dict[str, frozenset[str]]


def _expr(e: Expr, names: _Names, table: str | None, out: list[Any]) -> str:
    if isinstance(e, Const):
        out.append(e.value)
        return "?"
    if isinstance(e, Ref):
        if len(e.path) != 1:
            raise _NoSql
        name = e.path[0]
        if table is not None and name in names.columns.get(table, ()):
            return quote(name)  # a column of the table being filtered
        if name in names.params:
            out.append(names.params[name])
            return "?"
        if name in names.flags:
            out.append(name)
            return f"(SELECT value FROM {quote('flags')} WHERE name = ?)"
        raise _NoSql
    if isinstance(e, Compare):
        if e.op not in _OPS:
            raise _NoSql
        left = _expr(e.left, names, table, out)
        right = _expr(e.right, names, table, out)
        return f"({left} {_OPS[e.op]} {right})"
    if isinstance(e, BoolOp):
        return "(" + f" {e.op.upper()} ".join(_expr(i, names, table, out)
                                              for i in e.items) + ")"
    if isinstance(e, Not):
        return f"(NOT {_expr(e.item, names, table, out)})"
    if isinstance(e, BinOp):
        left = _expr(e.left, names, table, out)
        right = _expr(e.right, names, table, out)
        return f"({left} {e.op} {right})"
    if isinstance(e, Call) and e.func in ("exists", "count") and e.table is not None:
        where = ""
        if e.where is not None:
            where = " WHERE " + _expr(e.where, names, e.table, out)
        inner = f"FROM {quote(e.table)}{where}"
        if e.func == "exists":
            return f"(EXISTS (SELECT 1 {inner}))"
        return f"(SELECT COUNT(*) {inner})"
    raise _NoSql


def state_queries(goal_app: str, condition: Expr, params: Mapping[str, Value],
                  spec: AppSpec) -> list[dict[str, Any]]:
    """The SQL form of each state part of a condition (its top-level `and` items that do
    not read `answer` or `screen`): `{"app", "sql", "values"}` each."""
    from phoneworld.tasks.checkers import conjuncts
    from phoneworld.tasks.schema import reads

    out = []
    for c in conjuncts(condition):
        if reads(c) & {"answer", "screen"}:
            continue
        q = to_sql(c, params, spec)
        if q is not None:
            out.append({"app": goal_app, "sql": q[0], "values": q[1]})
    return out
