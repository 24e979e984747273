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


@pytest.mark.parametrize("rows", [
    [("Bananas", "$0.59", "Remove item 1"), ("Oat Milk", "$4.29", "Remove item 2")],
    [("WeChat", "$0.59", "Share to WeChat"), ("Card", "$4.29", "Generate a share card")],
], ids=["no-field", "free"])
def test_a_description_following_no_field_is_a_column_of_its_own(rows):
    lc = _content([_item(*r) for r in rows])
    C.desc_columns(lc)
    key = next(iter(lc.descs))
    assert C.description(lc, key) == Ref(("item", "remove_desc"))
    assert [r[-1] for r in lc.rows] == [d for _, _, d in rows]


@pytest.mark.parametrize("rows", [
    [("Bananas", "$0.59", "Remove"), ("Oat Milk", "$4.29", "Remove")],  # a literal
    [("Bananas", "$0.59", "Remove Bananas"), ("Oat Milk", "$4.29", "Remove Oat Milk")],
], ids=["same", "bound"])
def test_a_literal_or_field_bound_description_gets_no_column(rows):
    lc = _content([_item(*r) for r in rows])
    columns = list(lc.columns)
    C.desc_columns(lc)
    assert lc.columns == columns


@given(descs=st.lists(st.text(min_size=1, max_size=12), min_size=2, max_size=6))
def test_every_row_shows_the_description_it_was_recorded_with(descs):
    items = [_item(f"n{i}", f"${i}.00", d) for i, d in enumerate(descs)]
    lc = _content(items)
    C.desc_columns(lc)
    bound = C.description(lc, next(iter(lc.descs)))
    for row, node in zip(lc.rows, items, strict=True):
        if bound is None:  # the same on every row: the template's literal says it
            assert len(set(descs)) == 1
            continue
        scope = Scope(None, item=dict(zip(["id", "ctx", *lc.columns], row, strict=True)))
        assert display(evaluate(bound, scope)) == node.children[2].content_desc


@given(heights=st.lists(st.integers(20, 400), min_size=2, max_size=12))
def test_the_pitch_fits_as_many_items_as_the_recording_showed(heights):
    """Rows of mixed heights (headers over taller rows): the mock's one template, laid
    out at the pitch, starts its last recorded item where the recording did (to within
    rounding), so the same number of items shows in the list."""
    tops = [sum(heights[:i]) for i in range(len(heights))]
    kids = tuple(Node(class_name="android.widget.LinearLayout", bounds=(0, t, 1080, t + h))
                 for t, h in zip(tops, heights, strict=True))
    lst = Node(class_name="androidx.recyclerview.widget.RecyclerView",
               bounds=(0, 0, 1080, sum(heights)), children=kids)
    pitch, axis, span, _ = C.layout_pitch(lst)
    assert axis == "vertical" and span == 1
    assert abs(pitch * (len(kids) - 1) - tops[-1]) <= len(kids) / 2


def test_a_narrow_header_centred_over_the_rows_does_not_turn_the_list_sideways():
    """A chat's date header, centred above full-width message rows: the items advance
    down the list, and the row template keeps its own column, moved down only."""
    from phoneworld.infer.templates import template_item

    header = Node(class_name="android.widget.TextView", text="Today",
                  bounds=(494, 1129, 586, 1176))
    msgs = tuple(Node(class_name="android.widget.LinearLayout", bounds=(0, t, 1080, t + 189),
                      children=(Node(class_name="android.widget.TextView", text=f"m{t}",
                                     bounds=(47, t + 16, 847, t + 170)),))
                 for t in (1203, 1392, 1581, 1770))
    lst = Node(class_name="androidx.recyclerview.widget.RecyclerView",
               bounds=(0, 210, 1080, 2148), children=(header, *msgs))
    pitch, axis, _, _ = C.layout_pitch(lst)
    assert axis == "vertical" and 150 < pitch < 200
    base, _ = template_item(C.ListContent(key="k", table="t"), lst)
    assert base.bounds == (0, 1129, 1080, 1318)


def test_a_description_only_some_row_types_have_joins_the_template_bound():
    """Songs, and the one song with an "expand" arrow: the template is a plain song row,
    and gains the arrow as an image whose description is the arrow's column."""
    from phoneworld.infer.templates import template_item

    def song(name: str, arrow: bool) -> Node:
        kids = [Node(class_name="android.widget.TextView", resource_id="m:id/name",
                     text=name, bounds=(0, 0, 800, 100))]
        if arrow:
            kids.append(Node(class_name="android.widget.ImageView", resource_id="m:id/more",
                             content_desc="Expand item", bounds=(900, 0, 1000, 100)))
        return Node(class_name="android.widget.LinearLayout", children=tuple(kids),
                    bounds=(0, 0, 1080, 100))

    items = [song(n, n in ("b", "d")) for n in "abcde"]
    lst = Node(class_name="android.widget.ListView", children=tuple(items))
    lc = C.ListContent(key="list", table="songs")
    C.collect(lc, lst, 0)
    C.name_columns(lc)
    C.desc_columns(lc)
    assert [r[-1] for r in lc.rows] == ["", "Expand item", "", "Expand item", ""]
    item, added = template_item(lc, lst)
    assert len(item.children) == 2 and item.children[1].content_desc == "Expand item"
    assert not item.children[1].clickable
    assert list(added.values()) == [C.DESC + "ImageView#more"]


def _option(y: int, rid: str, text: str) -> Node:
    return Node(class_name="android.view.View", bounds=(0, y, 1080, y + 100), clickable=True,
                children=(Node(class_name="android.view.View", resource_id=rid, text=text,
                               bounds=(0, y, 1080, y + 100)),))


def test_a_web_list_numbering_its_options_by_render_has_one_field():
    # uber's place suggestions: "bui84val-3", "bui11val-0", ... the same view per option
    lst = Node(class_name="android.widget.ListView", bounds=(0, 0, 1080, 2000), children=(
        _option(0, "bui84val-3", "50 Oak St"), _option(100, "bui11val-0", "Rickshaw Stop"),
        _option(200, "bui27val-12", "Cafe Creme")))
    lc = C.ListContent(key="list", table="places")
    C.collect(lc, lst, None)
    assert len(lc.fields) == 1
    assert [r[2:] for r in lc.rows] == [["50 Oak St"], ["Rickshaw Stop"], ["Cafe Creme"]]
    # an app's own ids with numbers (android's text1 and text2) stay two fields
    item = Node(class_name="android.widget.LinearLayout", bounds=(0, 0, 1080, 100),
                children=tuple(Node(class_name="android.widget.TextView",
                                    resource_id=f"android:id/text{i}", text=t,
                                    bounds=(0, 0, 1080, 50)) for i, t in ((1, "A"), (2, "B"))))
    assert [k for k, _, _ in C.item_fields(item)] == ["TextView#text1", "TextView#text2"]
    assert C.field_key(Node(class_name="android.view.View", resource_id="bui27val-0",
                            bounds=(0, 0, 1, 1))) == "View#buival-"
