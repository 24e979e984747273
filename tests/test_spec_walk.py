"""The spec walker: children, walk, map_expr and views agree with each other and with the
AST's own fields, on hypothesis-drawn expressions."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from phoneworld.spec.ast import BinOp, BoolOp, Call, Compare, Const, Not, Ref, View
from phoneworld.spec.parse import parse_expr
from phoneworld.spec.walk import children, map_expr, views, walk
from tests.strategies import exprs

EXPRS = exprs([Ref(("wifi",)), Ref(("item", "name")), Ref(("answer",))],
              {"cart": ["qty", "name"]}, depth=3)


def _size(e) -> int:
    """Nodes of `e`, counted from the dataclass fields themselves (not through `children`)."""
    n = 1
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        for x in v if isinstance(v, tuple) else (v,):
            if isinstance(x, (Const, Ref, Call, Compare, BoolOp, Not, BinOp)):
                n += _size(x)
    return n


def test_walk_is_pre_order_left_to_right():
    e = parse_expr('count(cart where qty > 1) >= 2 and not wifi')
    assert [type(x).__name__ for x in walk(e)] == [
        "BoolOp", "Compare", "Call", "Compare", "Ref", "Const", "Const", "Not", "Ref"]
    # `enter` prunes below a node, never the node itself
    assert [type(x).__name__ for x in walk(e, enter=lambda x: not isinstance(x, Call))] == [
        "BoolOp", "Compare", "Call", "Const", "Not", "Ref"]


@settings(max_examples=200, deadline=None)
@given(EXPRS)
def test_walk_visits_every_node_once(e):
    nodes = list(walk(e))
    assert nodes[0] is e and len(nodes) == _size(e)
    assert sum(len(children(x)) for x in nodes) == len(nodes) - 1


@settings(max_examples=200, deadline=None)
@given(EXPRS)
def test_map_with_the_identity_rebuilds_an_equal_tree(e):
    assert map_expr(e, lambda x: x) == e
    seen = []
    map_expr(e, lambda x: seen.append(x) or x)
    assert seen[-1] == e and len(seen) == _size(e)  # bottom-up: the root comes last


@settings(max_examples=200, deadline=None)
@given(EXPRS)
def test_map_replaces_every_matching_node(e):
    renamed = map_expr(e, lambda x: Ref(("on",)) if x == Ref(("wifi",)) else x)
    assert Ref(("wifi",)) not in list(walk(renamed))
    assert sum(x == Ref(("wifi",)) for x in walk(e)) == sum(
        x == Ref(("on",)) for x in walk(renamed))


def test_views_in_document_order():
    leaf = lambda n: View(cls="TextView", bounds=(0, 0, 1, 1), name=n)  # noqa: E731
    root = View(cls="FrameLayout", bounds=(0, 0, 9, 9), name="root", children=(
        View(cls="LinearLayout", bounds=(0, 0, 9, 9), name="a", children=(leaf("a1"),
                                                                           leaf("a2"))),
        leaf("b")))
    assert [v.name for v in views(root)] == ["root", "a", "a1", "a2", "b"]


@given(st.sampled_from(["x == 1", "not (a or b)", "lower(x) ~ \"y\"", "-1 + len(x)"]))
def test_children_of_parsed_expressions_are_their_operands(text):
    e = parse_expr(text)
    assert all(c in list(walk(e))[1:] for c in children(e))
