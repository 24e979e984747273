"""Evaluate spec expressions (bindings, `when` conditions, effect values, task checks).

A `Scope` says what the names mean at one point of the app:

    item.<col>    the current list row          param[.<col>]  the screen's parameter
    input.<name>  a text field's current text   answer, screen the agent's answer, screen name
    <flag>        a flag                        <col>          a column of the row being
    <task param>  a task's parameter value                     filtered (inside `where`)

`count(t where c)` / `exists(t where c)` filter the table's rows in Python (same
semantics everywhere, no SQL text built from data); `lower(x)`, `len(x)` are scalar.
`a ~ b` is a normalised text match: case-folded, whitespace collapsed, trailing
punctuation dropped, and numbers compared as numbers (`"$3.49" ~ "3.49"`,
`"1,299" ~ 1299`). Comparisons never raise on mixed types: a numeric string meets a
number as a number, and an order between incomparable values is simply false.
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Any

from phoneworld.errors import SpecError, did_you_mean
from phoneworld.runtime.state import Row, State
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

FUNCS = sorted([*TABLE_FUNCS, *SCALAR_FUNCS])


class ExprError(SpecError):
    """An expression that names something the app does not have."""


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
    t = type(e)
    if t is Const:
        return e.value
    if t is Ref:
        return _ref(e.path, scope)
    if t is Compare:
        return compare(e.op, evaluate(e.left, scope), evaluate(e.right, scope))
    if t is BoolOp:
        if e.op == "and":
            return all(truthy(evaluate(i, scope)) for i in e.items)
        return any(truthy(evaluate(i, scope)) for i in e.items)
    if t is Not:
        return not truthy(evaluate(e.item, scope))
    if t is Call:
        return _call(e, scope)
    if t is BinOp:
        return arith(e.op, evaluate(e.left, scope), evaluate(e.right, scope))
    raise ExprError(f"not an expression: {e!r}")


def holds(e: Expr | None, scope: Scope) -> bool:
    """Whether a condition holds; no condition always holds."""
    return e is None or truthy(evaluate(e, scope))


def truthy(v: object) -> bool:
    """Truth of a value as a person reads it: "", "0", "false", "no", "off" are false."""
    if isinstance(v, str):
        return v.strip().lower() not in ("", "0", "false", "no", "off")
    return bool(v)


def filter_rows(table: str, where: Expr | None, scope: Scope, *,
                as_item: bool = False) -> list[Row]:
    """The rows of `table` for which `where` holds (bare names are the row's columns;
    with `as_item`, `item` is the row too)."""
    rows = _rows(table, scope)
    if where is None:
        return list(rows)
    return [r for r in rows if truthy(evaluate(where, scope.with_row(r, as_item=as_item)))]


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


def _call(e: Call, scope: Scope) -> Value:
    f = e.func
    if f in TABLE_FUNCS:
        if e.table is None:
            raise ExprError(f"{f}() needs a table: {f}(<table> where ...)")
        if f == "exists":
            if e.where is None:
                return bool(_rows(e.table, scope))
            return any(truthy(evaluate(e.where, scope.with_row(r)))
                       for r in _rows(e.table, scope))
        if f == "sum":
            if len(e.args) != 1:
                raise ExprError("sum() takes a table and what to add up: sum(<table>, <column>)")
            total: Value = 0
            for r in filter_rows(e.table, e.where, scope):
                total = arith("+", total, evaluate(e.args[0], scope.with_row(r)))
                if total is None:
                    return None
            return total
        return len(filter_rows(e.table, e.where, scope))
    if f in SCALAR_FUNCS:
        if e.table is not None or e.where is not None or len(e.args) != SCALAR_FUNCS[f]:
            raise ExprError(f"{f}() takes {SCALAR_FUNCS[f]} argument(s) and no table")
        v = evaluate(e.args[0], scope)
        if f == "choose":
            return evaluate(e.args[1] if truthy(v) else e.args[2], scope)
        if f == "otherwise":
            return v if v is not None and v != "" else evaluate(e.args[1], scope)
        if f == "number":
            return first_number(v)
        if f in ("times", "fixed"):
            return _times_or_fixed(f, v, evaluate(e.args[1], scope))
        s = "" if v is None else display(v)
        return s.lower() if f == "lower" else len(s)
    raise ExprError(f"unknown function '{f}'{did_you_mean(f, FUNCS)}")


_FIRST_NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?")


def first_number(v: object) -> float | int | None:
    """The first number in a value: `"$1.49 each"` -> 1.49, `"2"` -> 2; None if none."""
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (int, float)):
        return v
    m = _FIRST_NUMBER.search(str(v))
    n = as_number(m.group(0)) if m else None
    return int(n) if n is not None and n.is_integer() and "." not in m.group(0) else n


def _times_or_fixed(f: str, a: object, b: object) -> Value:
    """`times(a, b)`: a * b; `fixed(x, d)`: x as text with d decimals. None where a value
    is not a number."""
    na, nb = first_number(a), first_number(b)
    if na is None or nb is None:
        return None
    if f == "times":
        r = na * nb
        return int(r) if isinstance(na, int) and isinstance(nb, int) else r
    d = max(0, min(int(nb), 12))
    return f"{float(na):.{d}f}"


# -- values ----------------------------------------------------------------------------------

def display(v: object) -> str:
    """A value as a screen shows it: "" for none, `3` not `3.0`, true/false for flags."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if v.is_integer() and abs(v) < 1e16:
            return str(int(v))
        return repr(v)
    return str(v)


_NUMBER = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")
_THOUSANDS = re.compile(r"[-+]?\d{1,3}(,\d{3})+(\.\d+)?")
_SPACE = re.compile(r"\s+")


def as_number(v: object) -> float | None:
    """`v` as a number when it is one or reads as one ("3.49", "$3.49", "1,299", "12 %")."""
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if not isinstance(v, str):
        return None
    s = v.strip()
    # A currency sign or percent on either side, as prices and ratios are written.
    while s and unicodedata.category(s[0]) == "Sc":
        s = s[1:].lstrip()
    while s and (unicodedata.category(s[-1]) == "Sc" or s[-1] == "%"):
        s = s[:-1].rstrip()
    if _THOUSANDS.fullmatch(s):
        s = s.replace(",", "")
    if not _NUMBER.fullmatch(s):
        return None
    f = float(s)
    return f if math.isfinite(f) else None


def normalise(v: object) -> float | str:
    """The form `~` compares: a number, else case-folded text with collapsed whitespace."""
    n = as_number(v)
    if n is not None:
        return n
    s = unicodedata.normalize("NFKC", display(v)).casefold()
    return _SPACE.sub(" ", s).strip().rstrip(".!?。").rstrip()


def compare(op: str, a: object, b: object) -> bool:
    """`a op b` without raising: see the module docstring for the mixed-type rules."""
    if op == "~":
        return normalise(a) == normalise(b)
    if op == "==" or op == "!=":
        return _equal(a, b) == (op == "==")
    if a is None or b is None:
        return False
    na, nb = as_number(a), as_number(b)
    if na is not None and nb is not None:
        a, b = na, nb
    elif type(a) is not type(b) or not isinstance(a, (str, bool)):
        return False
    if op == "<":
        return a < b  # type: ignore[operator]
    if op == "<=":
        return a <= b  # type: ignore[operator]
    if op == ">":
        return a > b  # type: ignore[operator]
    if op == ">=":
        return a >= b  # type: ignore[operator]
    raise ExprError(f"unknown comparison '{op}'")


def _equal(a: object, b: object) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, bool) or isinstance(b, bool):
        return _as_bool(a) is not None and _as_bool(a) == _as_bool(b)
    if type(a) is type(b) or (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        return a == b
    na = as_number(a)
    return na is not None and na == as_number(b)


def _as_bool(v: object) -> bool | None:
    if isinstance(v, (bool, int, float)):
        return bool(v)
    if isinstance(v, str):
        s = v.strip().lower()
        if s in ("true", "1", "yes", "on"):
            return True
        if s in ("false", "0", "no", "off"):
            return False
    return None


def arith(op: str, a: object, b: object) -> Value:
    """`a + b` / `a - b` on numbers (a numeric string next to a number counts as one);
    `+` of two texts joins them; anything else has no value."""
    if op not in ("+", "-"):
        raise ExprError(f"unknown operator '{op}'")
    if isinstance(a, str) and isinstance(b, str):
        return a + b if op == "+" else None
    if type(a) is int and type(b) is int:
        return a + b if op == "+" else a - b
    na, nb = as_number(a), as_number(b)
    if na is None or nb is None:
        return None
    r = na + nb if op == "+" else na - nb
    if _is_integer(a) and _is_integer(b) and abs(r) < 2**63:
        return int(r)
    return r


_INTEGER = re.compile(r"\s*[-+]?\d+\s*")


def _is_integer(v: object) -> bool:
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or (isinstance(v, str) and _INTEGER.fullmatch(v) is not None)
