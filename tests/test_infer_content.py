"""List content inference: rows from recorded items, descriptions bound to their row."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phoneworld.infer import content as C
from phoneworld.runtime.expr import Scope, display, evaluate
from phoneworld.spec.ast import BinOp, Const, Ref
from phoneworld.ui.node import Node


def _item(name: str, price: str, desc: str) -> Node:
    return Node(class_name="android.widget.LinearLayout", resource_id="shop:id/row", children=(
        Node(class_name="android.widget.TextView", resource_id="shop:id/name", text=name),
        Node(class_name="android.widget.TextView", resource_id="shop:id/price", text=price),
        Node(class_name="android.widget.ImageButton", resource_id="shop:id/remove",
             content_desc=desc, clickable=True)))


def _content(items: list[Node]) -> C.ListContent:
    lc = C.ListContent(key="list", table="cart")
    C.collect(lc, Node(class_name="android.widget.ListView", children=tuple(items)), 0)
    C.name_columns(lc)
    return lc


def _bound(*rows: tuple[str, str, str]):
    """The binding of the remove button's description over items (name, price, desc)."""
    lc = _content([_item(*r) for r in rows])
    return C.description(lc, next(iter(lc.descs)))


def test_a_description_that_names_its_row_is_bound_to_that_field():
    assert _bound(("Bananas", "$0.59", "Remove Bananas"), ("Oat Milk", "$4.29", "Remove Oat Milk")
                  ) == BinOp("+", Const("Remove "), Ref(("item", "name")))
    assert _bound(("Bananas", "$0.59", "Bananas details"),
                  ("Oat Milk", "$4.29", "Oat Milk details")
                  ) == BinOp("+", Ref(("item", "name")), Const(" details"))


@pytest.mark.parametrize("rows", [
    # the same on every row
    [("Bananas", "$0.59", "Remove"), ("Oat Milk", "$4.29", "Remove")],
    # made of two fields
    [("Bananas", "$0.59", "Bananas, $0.59"), ("Oat Milk", "$4.29", "Oat Milk, $4.29")],
    # following no field
    [("Bananas", "$0.59", "Remove item 1"), ("Oat Milk", "$4.29", "Remove item 2")],
    # a whole-number field may become an int column, which `+` would add, not join
    [("Bananas", "3", "Quantity 3"), ("Oat Milk", "12", "Quantity 12")],
], ids=["same", "two-fields", "no-field", "number"])
def test_other_descriptions_stay_literal(rows):
    assert _bound(*rows) is None


@given(names=st.lists(st.text(min_size=1, max_size=12).filter(lambda s: not C.is_int(s)),
                      min_size=2, max_size=6, unique=True),
       before=st.text(max_size=8), after=st.text(max_size=8))
def test_a_bound_description_says_what_every_recorded_row_said(names, before, after):
    items = [_item(n, f"${i}.00", before + n + after) for i, n in enumerate(names)]
    lc = _content(items)
    bound = C.description(lc, next(iter(lc.descs)))
    assert bound is not None
    columns = lc.columns
    for row, node in zip(lc.rows, items, strict=True):
        scope = Scope(None, item=dict(zip(["id", "ctx", *columns], row, strict=True)))
        assert display(evaluate(bound, scope)) == node.children[2].content_desc
