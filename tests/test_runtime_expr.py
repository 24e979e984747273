"""Expressions compiled once (`runtime.expr`): the same values and errors as read from the
tree, in every scope they are evaluated in."""

from __future__ import annotations

import pytest

from phoneworld.runtime.expr import ExprError, Scope, evaluate, filter_rows, holds, normalise
from phoneworld.spec.ast import BinOp, BoolOp, Call, Compare, Const, Not
from tests.shop import R


def test_a_wrong_name_raises_when_evaluated_not_when_compiled(m) -> None:
    scope = Scope(m.state)
    # a branch never taken never raises, as when the tree was walked
    e = Call("choose", args=(Const(True), Const("on"), R("notification")))
    assert evaluate(e, scope) == "on"
    with pytest.raises(ExprError, match="unknown name 'notification'"):
        evaluate(Call("choose", args=(Const(False), Const("on"), R("notification"))), scope)
    for bad, message in ((Call("count"), r"count\(\) needs a table"),
                         (Call("sum", table="cart"), "sum\\(\\) takes a table"),
                         (Call("lower", args=()), r"lower\(\) takes 1 argument"),
                         (Call("lowr", args=(Const("x"),)), "did you mean 'lower'"),
                         (R("input"), "write input.<field name>"),
                         (R("item", "a", "b"), "not nested fields"),
                         ("not an expression", "not an expression")):
        with pytest.raises(ExprError, match=message):
            evaluate(bad, scope)  # type: ignore[arg-type]
        with pytest.raises(ExprError, match=message):  # compiled already: raises again
            evaluate(bad, scope)  # type: ignore[arg-type]


def test_one_compiled_expression_reads_each_scope_it_is_given(m) -> None:
    e = BoolOp("and", (Compare("~", R("item", "name"), R("n")),
                       Not(Compare("==", R("item", "price"), Const("$0")))))
    oat = {"name": "Oat milk", "price": "$3.49"}
    assert holds(e, Scope(m.state, item=oat, bindings={"n": "oat MILK"}))
    assert not holds(e, Scope(m.state, item=oat, bindings={"n": "Rye bread"}))
    assert not holds(e, Scope(m.state, item={**oat, "price": "$0"},
                              bindings={"n": "oat milk"}))
    # a row's column shadows a task parameter of the same name, inside `where` only
    name_is = Call("count", table="product", where=Compare("==", R("name"), R("name")))
    assert evaluate(name_is, Scope(m.state, bindings={"name": "Apples"})) == 8
    apples = Call("count", table="product", where=Compare("==", R("name"), R("n")))
    assert evaluate(apples, Scope(m.state, bindings={"n": "Apples"})) == 1
    assert evaluate(apples, Scope(m.state, bindings={"n": "Kiwi"})) == 0


def test_where_clauses_see_their_own_row_nested_or_as_an_item(m) -> None:
    scope = Scope(m.state)
    m.state.insert("cart", {"product": 6, "qty": 2})
    m.state.insert("cart", {"product": 1, "qty": 3})
    # a cart row whose product is a fruit: the inner where reads its row and the outer one's
    fruit = Call("exists", table="product", where=BoolOp("and", (
        Compare("==", R("id"), R("item", "product")),
        Compare("==", R("category"), Const("fruit")))))
    kept = filter_rows("cart", fruit, scope, as_item=True)
    assert kept == [{"product": 6, "qty": 2}]
    assert evaluate(Call("sum", table="cart", args=(R("qty"),)), scope) == 5
    assert evaluate(Call("sum", table="cart", where=Compare(">", R("qty"), Const(2)),
                         args=(BinOp("+", R("qty"), Const(1)),)), scope) == 4
    assert evaluate(Call("count", table="cart"), scope) == 2
    assert filter_rows("cart", None, scope) == m.state.rows("cart")
    assert filter_rows("cart", Const(False), scope) == []


def test_normalised_values_are_kept_by_type_and_value() -> None:
    assert normalise(True) == "true" and normalise(1) == 1.0 and normalise(True) == "true"
    assert normalise(" Oat  MILK. ") == "oat milk" == normalise("oat milk")
    assert normalise({"a": 1}) == normalise({"a": 1})  # a row: not kept, the same all the same
