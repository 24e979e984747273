"""The screen-graph IR: frozen, a stable JSON form, and graph questions through networkx."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from phoneworld.ir.model import AbstractScreen, ObsRef, ScreenGraph, Transition


def _screen(name: str, priority: str = "P0") -> AbstractScreen:
    return AbstractScreen(name=name, package="com.example", activity=".Main", foreign=False,
                          signature="abc", observations=(ObsRef(trace=0, index=0),),
                          priority=priority)


def _graph(names: list[str], edges: list[tuple[str, str]]) -> ScreenGraph:
    return ScreenGraph(app="a", package="com.example", width=1080, height=2400,
                       start=names[0], screens=tuple(_screen(n) for n in names),
                       transitions=tuple(Transition(source=a, widget=f"w{i}", action="tap",
                                                    target=b, count=1)
                                         for i, (a, b) in enumerate(edges)))


def test_the_ir_is_frozen_and_validated():
    g = _graph(["home", "cart"], [("home", "cart")])
    with pytest.raises(ValidationError):
        g.start = "cart"
    with pytest.raises(ValidationError):
        ObsRef(trace="first", index=0)
    with pytest.raises(ValidationError):
        _screen("home", priority="P7")


def test_json_round_trip_is_exact_and_stable():
    g = _graph(["home", "cart", "detail"], [("home", "cart"), ("cart", "detail")])
    text = g.model_dump_json()
    again = ScreenGraph.model_validate_json(text)
    assert again == g and again.model_dump_json() == text
    assert hash(g.screens[0]) == hash(again.screens[0])  # frozen models hash by value


def test_screen_lookup_and_networkx_view():
    g = _graph(["home", "cart"], [("home", "cart"), ("home", "cart")])
    assert g.screen("cart").name == "cart"
    with pytest.raises(KeyError):
        g.screen("nowhere")
    nxg = g.to_networkx()
    assert set(nxg.nodes) == {"home", "cart"} and nxg.number_of_edges("home", "cart") == 2
    assert nxg.nodes["home"]["priority"] == "P0"


def test_reachable_leaves_out_what_no_path_reaches():
    g = _graph(["home", "cart", "orphan", "deep"], [("home", "cart"), ("cart", "deep"),
                                                     ("orphan", "home")])
    assert g.reachable() == {"home", "cart", "deep"}


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 7).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)),
                         max_size=12))))
def test_reachable_is_the_closure_of_the_transitions(case):
    n, pairs = case
    names = [f"s{i}" for i in range(n)]
    g = _graph(names, [(names[a], names[b]) for a, b in pairs])
    seen, todo = {names[0]}, [names[0]]
    while todo:  # breadth first over the edges, by hand
        here = todo.pop()
        for a, b in pairs:
            if names[a] == here and names[b] not in seen:
                seen.add(names[b])
                todo.append(names[b])
    assert g.reachable() == seen
