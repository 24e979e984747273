"""List content inference: rows from recorded items, descriptions bound to their row."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from phoneworld.infer import content as C
from phoneworld.runtime.expr import Scope, display, evaluate
from phoneworld.spec.ast import BinOp, Const, Ref
from phoneworld.traces.model import Node


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


def _described(lc: C.ListContent) -> str:
    return next(iter(lc.descs))


def test_a_description_that_names_its_row_is_bound_to_that_field():
    lc = _content([_item("Bananas", "$0.59", "Remove Bananas"),
                   _item("Oat Milk", "$4.29", "Remove Oat Milk")])
    assert C.description(lc, _described(lc)) == BinOp("+", Const("Remove "), Ref(("item", "name")))


def test_words_after_the_field_are_kept_too():
    lc = _content([_item("Bananas", "$0.59", "Bananas details"),
                   _item("Oat Milk", "$4.29", "Oat Milk details")])
    assert C.description(lc, _described(lc)) == BinOp("+", Ref(("item", "name")),
                                                      Const(" details"))


def test_a_description_made_of_two_fields_stays_literal():
    lc = _content([_item("Bananas", "$0.59", "Bananas, $0.59"),
                   _item("Oat Milk", "$4.29", "Oat Milk, $4.29")])
    assert C.description(lc, _described(lc)) is None


def test_the_same_description_on_every_row_stays_literal():
    lc = _content([_item("Bananas", "$0.59", "Remove"), _item("Oat Milk", "$4.29", "Remove")])
    assert C.description(lc, _described(lc)) is None


def test_a_description_that_follows_no_field_stays_literal():
    lc = _content([_item("Bananas", "$0.59", "Remove item 1"),
                   _item("Oat Milk", "$4.29", "Remove item 2")])
    assert C.description(lc, _described(lc)) is None


def test_number_fields_are_not_bound():
    """A whole-number field may become an int column, which `+` would add, not join."""
    lc = _content([_item("Bananas", "3", "Quantity 3"), _item("Oat Milk", "12", "Quantity 12")])
    assert C.description(lc, _described(lc)) is None


@given(names=st.lists(st.text(min_size=1, max_size=12).filter(lambda s: not C.is_int(s)),
                      min_size=2, max_size=6, unique=True),
       before=st.text(max_size=8), after=st.text(max_size=8))
def test_a_bound_description_says_what_every_recorded_row_said(names, before, after):
    items = [_item(n, f"${i}.00", before + n + after) for i, n in enumerate(names)]
    lc = _content(items)
    bound = C.description(lc, _described(lc))
    assert bound is not None
    columns = lc.columns
    for row, node in zip(lc.rows, items, strict=True):
        scope = Scope(None, item=dict(zip(["id", "ctx", *columns], row, strict=True)))
        assert display(evaluate(bound, scope)) == node.children[2].content_desc
