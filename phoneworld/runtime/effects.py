"""What a transition's effects do to the data, in the order they are written.

    toggle wifi                      flag := not flag
    set wifi = false                 flag := value
    insert cart(product = param.id)  one new row (an omitted integer key gets the next one)
    delete cart where product = item.id / clear cart
    update cart set qty = qty + 1 where product = param.id

In `where` and in `update`'s values, bare names are the columns of the row at hand;
`item`, `param` and `input` keep their meaning from the transition's scope. A whole row
given as a column's value (`insert cart(product = item)`) stands for its key.
"""

from __future__ import annotations

from typing import Any

from phoneworld.runtime.expr import Scope, evaluate, holds
from phoneworld.runtime.state import State
from phoneworld.spec.ast import Effect, Value


def apply_effect(state: State, eff: Effect, scope: Scope) -> None:
    """Apply one effect to `state` (names were checked when the machine was made)."""
    op, target = eff.op, eff.target
    if op == "toggle":
        state.set_flag(target, not state.flag(target))
    elif op == "set":
        state.set_flag(target, row_value(evaluate(eff.values[0][1], scope)))
    elif op == "insert":
        state.insert(target, {c: row_value(evaluate(e, scope)) for c, e in eff.values})
    elif op == "clear" or (op == "delete" and eff.where is None):
        state.clear(target)
    elif op == "delete":
        pairs = zip(state.rowids(target), state.rows(target), strict=True)
        state.delete(target, [i for i, r in pairs if holds(eff.where, scope.with_row(r))])
    elif op == "update":
        for rowid, r in list(zip(state.rowids(target), state.rows(target), strict=True)):
            row_scope = scope.with_row(r)
            if holds(eff.where, row_scope):
                state.update(target, rowid, {c: row_value(evaluate(e, row_scope))
                                             for c, e in eff.values})
    else:
        raise ValueError(f"unknown effect {op!r}")


def row_value(v: Any) -> Value:
    """A value to store: a whole row stands for its key (its first column)."""
    if isinstance(v, dict):
        return next(iter(v.values()), None)
    return v
