"""Evaluate spec expressions (bindings, `when` conditions, effect values, task checks).

A `Scope` says what the names mean at one point of the app:

    item.<col>    the current list row          param[.<col>]  the screen's parameter
    input.<name>  a text field's current text   answer, screen the agent's answer, screen name
    <flag>        a flag                        <col>          a column of the row being
    <task param>  a task's parameter value                     filtered (inside `where`)

`count(t where c)` / `exists(t where c)` filter the table's rows in Python (same
semantics everywhere, no SQL text built from data); `lower(x)`, `len(x)` are scalar.
How values compare, add up and show (`a ~ b`, `"1,299" == 1299`) is `values`.

An expression is compiled once into nested closures (`_compiled`, kept per expression
object), so evaluating it walks no tree and dispatches on no node type: a task's goal is
judged on every drawing of its parameters, a screen's bindings on every render. What an
expression names wrong is still reported when it is evaluated, as the tree walk did: a
`choose` branch never taken never raises.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from phoneworld.errors import did_you_mean
from phoneworld.runtime.state import Row, State
from phoneworld.runtime.values import (
    ExprError,
    _equal,
    _times_or_fixed,
    arith,
    as_number,
    compare,
    display,
    first_number,
    normalise,
    truthy,
)
from phoneworld.spec.ast import (
    SCALAR_FUNCS,
    TABLE_FUNCS,
    BinOp,
    BoolOp,
    Call,
    Compare,
    Const,
    Expr,
    Not,
    Ref,
    Value,
)
from phoneworld.spec.names import ROOTS

__all__ = ["FUNCS", "ExprError", "Scope", "arith", "as_number", "compare", "display",
           "evaluate", "filter_rows", "first_number", "holds", "normalise", "truthy"]

FUNCS = sorted([*TABLE_FUNCS, *SCALAR_FUNCS])


class Scope:
    """What names mean where an expression is evaluated (see the module docstring)."""

    __slots__ = ("state", "item", "param", "inputs", "answer", "screen", "row", "bindings")

    def __init__(self, state: State, *, item: Row | None = None, param: Any = None,
                 inputs: dict[str, str] | None = None, answer: str | None = None,
                 screen: str = "", row: Row | None = None,
                 bindings: dict[str, Value] | None = None) -> None:
        self.state = state
        self.item = item
        self.param = param
        self.inputs = inputs if inputs is not None else {}
        self.answer = answer
        self.screen = screen
        self.row = row
        self.bindings = bindings
        """A task's parameters, by name (`task t (p: product.name) ... { answer ~ p }`)."""

    def with_item(self, item: Row | None) -> Scope:
        """This scope inside a list item: `item` is its row."""
        return Scope(self.state, item=item, param=self.param, inputs=self.inputs,
                     answer=self.answer, screen=self.screen, bindings=self.bindings)

    def with_row(self, row: Row, *, as_item: bool = False) -> Scope:
        """This scope while filtering `row` of a table: bare names are its columns, and
        with `as_item` (a list's own `where`) `item` is the row too."""
        return Scope(self.state, item=row if as_item else self.item, param=self.param,
                     inputs=self.inputs, answer=self.answer, screen=self.screen, row=row,
                     bindings=self.bindings)


def evaluate(e: Expr, scope: Scope) -> Value | Row:
    """The value of `e` in `scope`; an `ExprError` names anything unknown."""
    return _compiled(e)(scope)


def holds(e: Expr | None, scope: Scope) -> bool:
    """Whether a condition holds; no condition always holds."""
    return e is None or _compiled_test(e)(scope)


def filter_rows(table: str, where: Expr | None, scope: Scope, *,
                as_item: bool = False) -> list[Row]:
    """The rows of `table` for which `where` holds (bare names are the row's columns;
    with `as_item`, `item` is the row too)."""
    rows = _rows(table, scope)
    if where is None:
        return list(rows)
    return _kept(rows, _compiled_test(where), scope, as_item)


def _kept(rows: list[Row], test: Callable[[Scope], bool], scope: Scope,
          as_item: bool = False) -> list[Row]:
    """The rows `test` passes, each judged in `scope` with the row as its row (one scope
    for them all, moved from row to row: nothing keeps a scope past its evaluation)."""
    if not rows:
        return []
    inner = scope.with_row(rows[0], as_item=as_item)
    out = []
    for r in rows:
        inner.row = r
        if as_item:
            inner.item = r
        if test(inner):
            out.append(r)
    return out


# -- compiling -------------------------------------------------------------------------------

Compiled = Callable[[Scope], Any]

_COMPILED: dict[int, tuple[object, Compiled]] = {}
_TESTS: dict[int, tuple[object, Callable[[Scope], bool]]] = {}
_KEPT = 1 << 15
"""Compiled expressions kept (a spec has a few thousand); past that, the cache starts over."""


def _compiled(e: Expr) -> Compiled:
    """`e` compiled, once per expression object."""
    return _once(_COMPILED, e, _compile)


def _compiled_test(e: Expr) -> Callable[[Scope], bool]:
    """`e` compiled as a condition (`truthy` of its value), once per expression object."""
    return _once(_TESTS, e, _test)


def _once(cache: dict[int, tuple[Any, Any]], e: Expr, make: Callable[[Expr], Any]) -> Any:
    """`make(e)`, kept in `cache` by the object (the cache holds it, so its id names no
    other while it is there); the cache is emptied when it holds `_KEPT`."""
    hit = cache.get(id(e))
    if hit is not None and hit[0] is e:
        return hit[1]
    fn = make(e)
    if len(cache) >= _KEPT:
        cache.clear()
    cache[id(e)] = (e, fn)
    return fn


def _test(e: Expr) -> Callable[[Scope], bool]:
    """`e` compiled as a condition: comparisons and their combinations give a bool already."""
    fn = _compile(e)
    if type(e) in (Compare, BoolOp, Not):
        return fn
    return lambda s: truthy(fn(s))


def _raising(message: str) -> Compiled:
    def fail(s: Scope) -> Any:
        raise ExprError(message)
    return fail


def _compile(e: Expr) -> Compiled:
    t = type(e)
    if t is Const:
        value = e.value
        return lambda s: value
    if t is Ref:
        return _compile_ref(e.path)
    if t is Compare:
        return _compile_compare(e)
    if t is BoolOp:
        tests = tuple(_test(i) for i in e.items)
        if e.op == "and":
            def every(s: Scope) -> bool:
                for test in tests:
                    if not test(s):
                        return False
                return True
            return every

        def some(s: Scope) -> bool:
            for test in tests:
                if test(s):
                    return True
            return False
        return some
    if t is Not:
        test = _test(e.item)
        return lambda s: not test(s)
    if t is Call:
        return _compile_call(e)
    if t is BinOp:
        op, left, right = e.op, _compile(e.left), _compile(e.right)
        return lambda s: arith(op, left(s), right(s))
    return _raising(f"not an expression: {e!r}")


def _compile_compare(e: Compare) -> Compiled:
    op, left, right = e.op, _compile(e.left), _compile(e.right)
    if op == "~":
        return lambda s: normalise(left(s)) == normalise(right(s))
    if op == "==":
        return lambda s: _equal(left(s), right(s))
    if op == "!=":
        return lambda s: not _equal(left(s), right(s))
    return lambda s: compare(op, left(s), right(s))


_SCOPE_NAMES: dict[str, Compiled] = {
    "item": lambda s: s.item, "param": lambda s: s.param,
    "answer": lambda s: s.answer, "screen": lambda s: s.screen}


def _compile_ref(path: tuple[str, ...]) -> Compiled:
    """A name (see `_ref`, which says what is wrong with one it cannot find)."""
    head = path[0]
    if len(path) == 1:
        named = _SCOPE_NAMES.get(head)
        if named is None:
            def named(s: Scope) -> Any:
                flags = s.state.flags
                if head in flags:
                    return flags[head]
                return _ref(path, s)  # "input" alone, or an unknown name: raises

        def name(s: Scope) -> Any:
            row = s.row
            if row is not None and head in row:
                return row[head]
            bindings = s.bindings
            if bindings is not None and head in bindings:
                return bindings[head]
            return named(s)
        return name
    if len(path) == 2 and head in ("item", "param"):
        column = path[1]
        get = _SCOPE_NAMES[head]

        def field(s: Scope) -> Any:
            value = get(s)
            return value.get(column) if isinstance(value, dict) else None
        return field
    if len(path) == 2 and head == "input":
        field_name = path[1]
        return lambda s: s.inputs.get(field_name, "")
    return lambda s: _ref(path, s)  # raises


def _compile_call(e: Call) -> Compiled:
    f = e.func
    if f in TABLE_FUNCS:
        return _compile_table_call(e)
    if f not in SCALAR_FUNCS:
        return _raising(f"unknown function '{f}'{did_you_mean(f, FUNCS)}")
    if e.table is not None or e.where is not None or len(e.args) != SCALAR_FUNCS[f]:
        return _raising(f"{f}() takes {SCALAR_FUNCS[f]} argument(s) and no table")
    args = [_compile(a) for a in e.args]
    first = args[0]
    if f == "choose":
        _, yes, no = args
        return lambda s: yes(s) if truthy(first(s)) else no(s)
    if f == "otherwise":
        other = args[1]

        def otherwise(s: Scope) -> Any:
            v = first(s)
            return v if v is not None and v != "" else other(s)
        return otherwise
    if f == "number":
        return lambda s: first_number(first(s))
    if f in ("times", "fixed"):
        second = args[1]
        return lambda s: _times_or_fixed(f, first(s), second(s))
    if f == "lower":
        return lambda s: _shown(first(s)).lower()
    return lambda s: len(_shown(first(s)))


def _shown(v: object) -> str:
    return "" if v is None else display(v)


def _compile_table_call(e: Call) -> Compiled:
    f, table = e.func, e.table
    if table is None:
        return _raising(f"{f}() needs a table: {f}(<table> where ...)")
    test = None if e.where is None else _test(e.where)
    if f == "exists":
        if test is None:
            return lambda s: bool(_rows(table, s))

        def exists(s: Scope) -> bool:
            rows = _rows(table, s)
            if not rows:
                return False
            inner = s.with_row(rows[0])
            for r in rows:
                inner.row = r
                if test(inner):
                    return True
            return False
        return exists
    if f == "sum":
        if len(e.args) != 1:
            return _raising("sum() takes a table and what to add up: sum(<table>, <column>)")
        add = _compile(e.args[0])

        def total(s: Scope) -> Value:
            rows = _rows(table, s)
            out: Value = 0
            for r in (rows if test is None else _kept(rows, test, s)):
                out = arith("+", out, add(s.with_row(r)))
                if out is None:
                    return None
            return out
        return total
    if test is None:
        return lambda s: len(_rows(table, s))
    return lambda s: len(_kept(_rows(table, s), test, s))


# -- names ----------------------------------------------------------------------------------

def _ref(path: tuple[str, ...], scope: Scope) -> Value | Row:
    head = path[0]
    row = scope.row
    if len(path) == 1:
        if row is not None and head in row:
            return row[head]
        if scope.bindings is not None and head in scope.bindings:
            return scope.bindings[head]
    if head == "item":
        return _field(scope.item, path)
    if head == "param":
        return _field(scope.param, path)
    if head == "input":
        if len(path) != 2:
            raise ExprError(f"'{'.'.join(path)}': write input.<field name>")
        return scope.inputs.get(path[1], "")
    if len(path) == 1:
        if head == "answer":
            return scope.answer
        if head == "screen":
            return scope.screen
        flags = scope.state.flags
        if head in flags:
            return flags[head]
    known = [*ROOTS, *scope.state.flags, *(row or ()), *(scope.bindings or ())]
    raise ExprError(f"unknown name '{'.'.join(path)}'{did_you_mean(head, known)}")


def _field(value: Any, path: tuple[str, ...]) -> Value | Row:
    if len(path) == 1:
        return value
    if len(path) > 2:
        raise ExprError(f"'{'.'.join(path)}': a row has columns, not nested fields")
    if isinstance(value, dict):
        # A column missing from this row (or no row at all) is no value, as in SQL.
        return value.get(path[1])
    return None


def _rows(table: str, scope: Scope) -> list[Row]:
    try:
        return scope.state.rows(table)
    except KeyError:
        known = list(scope.state.tables)
        raise ExprError(f"unknown table '{table}'{did_you_mean(table, known)}") from None
