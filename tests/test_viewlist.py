from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phoneworld.errors import TraceError
from phoneworld.traces.viewlist import as_str, build_tree, parse_bounds
from tests.conftest import shared


def v(tid, parent, children, bounds=(0, 0, 10, 10), **kw):
    return {"temp_id": tid, "parent": parent, "children": children,
            "bounds": [[bounds[0], bounds[1]], [bounds[2], bounds[3]]], **kw}


def test_flat_list_becomes_tree_with_paths():
    views = [v(0, -1, [1, 2], (0, 0, 100, 200), **{"class": "FrameLayout"}),
             v(1, 0, [3], text="a", clickable=True),
             v(2, 0, [], content_description="b", is_password=True, editable=True),
             v(3, 1, [], text=None, resource_id=None, checked=None, visible=False)]
    tree = build_tree(views, "x.json")
    assert tree.paths == {0: (), 1: (0,), 2: (1,), 3: (0, 0)}
    assert tree.root.bounds == (0, 0, 100, 200) and tree.root.class_name == "FrameLayout"
    assert tree.root.at((0,)).text == "a" and tree.root.at((0,)).clickable
    two = tree.root.at((1,))
    assert two.content_desc == "b" and two.password and two.editable
    three = tree.root.at((0, 0))
    assert three.text == "" and not three.checked and not three.visible and three.enabled
    assert tree.warnings == ()


def test_an_invisible_wrapper_of_visible_views_is_visible():
    """A web page's zero-height block its sidebar is placed from: the dump calls it
    invisible, the recording shows the sidebar (wikipedia's mw-navigation)."""
    views = [v(0, -1, [1, 3], (0, 0, 1080, 2000)),
             v(1, 0, [2], (0, 9000, 1080, 9000), visible=False),
             v(2, 1, [], (0, 90, 176, 1100), text="Home"),
             v(3, 0, [4], (0, 0, 10, 10), visible=False),
             v(4, 3, [], (0, 0, 10, 10), visible=False, text="hidden")]
    tree = build_tree(views, "x.json")
    assert tree.root.at((0,)).visible and tree.root.at((0, 0)).visible
    assert not tree.root.at((1,)).visible and not tree.root.at((1, 0)).visible


def test_inverted_bounds_are_kept_and_reported():
    tree = build_tree([v(0, -1, [1]), v(1, 0, [], (900, 700, 100, 800))], "s.json")
    assert tree.root.at((0,)).bounds == (900, 700, 100, 800)
    assert any("1 views with inverted bounds (kept as given): 1" in w for w in tree.warnings)


def test_dangling_and_repeated_children_and_cycles_terminate():
    views = [v(0, -1, [1, 1, 7, "x"]), v(1, 0, [0, 2]), v(2, 1, [1, 2])]
    tree = build_tree(views, "s.json")
    assert tree.paths == {0: (), 1: (0,), 2: (0, 0)}
    assert len(list(tree.root.walk())) == 3
    assert any("2 child indices name no view" in w for w in tree.warnings)


def test_rootless_cycle_is_rooted_at_first_view():
    tree = build_tree([v(0, 1, [1]), v(1, 0, [0])], "s.json")
    assert tree.paths == {0: (), 1: (0,)}
    assert any("no root view" in w for w in tree.warnings)


def test_children_from_parent_links_when_lists_missing():
    views = [{"temp_id": 0, "parent": -1}, {"temp_id": 1, "parent": 0},
             {"temp_id": 2, "parent": 1}]
    assert build_tree(views, "s.json").paths == {0: (), 1: (0,), 2: (0, 0)}


def test_several_roots_get_a_synthetic_root():
    tree = build_tree([v(0, -1, [], (0, 0, 1080, 100)), v(1, None, [], (0, 100, 1080, 2400))],
                      "s.json")
    assert tree.root.class_name == "hierarchy" and tree.root.bounds == (0, 0, 1080, 2400)
    assert tree.paths == {0: (0,), 1: (1,)}


def test_unreachable_views_and_bad_entries_are_reported():
    views = [v(0, -1, []), v(1, 0, []), "junk", v(0, -1, []), {"temp_id": 5, "parent": 0,
                                                               "children": [], "bounds": "?"}]
    tree = build_tree(views, "s.json")
    text = " | ".join(tree.warnings)
    assert "not reachable from the root (dropped): 1, 5" in text
    assert "1 entries of the view list are not objects" in text
    assert "1 views repeat an earlier temp_id" in text


@pytest.mark.parametrize("bad", [{}, "views", None, [], ["a", 1]])
def test_no_views_is_an_error_naming_the_file(bad):
    with pytest.raises(TraceError, match=r"^s\.json: "):
        build_tree(bad, "s.json")


def test_bounds_forms():
    assert parse_bounds([[1, 2], [3, 4]]) == (1, 2, 3, 4)
    assert parse_bounds([1, 2, 3.7, 4]) == (1, 2, 3, 4)
    assert parse_bounds([[1, 2], [3]]) is None
    assert parse_bounds([[1, 2], [3, float("nan")]]) is None
    assert parse_bounds([True, 2, 3, 4]) is None


def test_lone_surrogates_become_replacement_characters():
    assert as_str("a\ud800b") == "a\ufffdb" and as_str("a?b") == "a?b"


def test_real_droidbot_state_and_llamatouch_vh():
    state = json.loads(shared("droidbot", "qqmusic", "states",
                              "state_2021-12-06_204625.json").read_bytes())
    tree = build_tree(state["views"], "state.json")
    assert len(tree.paths) == len(state["views"])
    assert any("76 views with inverted bounds" in w for w in tree.warnings)
    vh = json.loads(shared("llamatouch", "duolingo", "0.vh").read_bytes())
    tree = build_tree(vh, "0.vh")
    assert tree.root.bounds == (0, 0, 1080, 2400) and len(tree.paths) == len(vh)
    assert tree.warnings == ("0.vh: 13 views with inverted bounds (kept as given): "
                             "86, 87, 88, 89, 90, 91, 92, 93 and 5 more",)


_ids = st.one_of(st.integers(-2, 12), st.none(), st.text(max_size=2))
_view = st.fixed_dictionaries({}, optional={
    "temp_id": _ids, "parent": _ids, "children": st.one_of(st.lists(_ids, max_size=5), _ids),
    "bounds": st.one_of(st.lists(st.lists(st.integers(-50, 50), max_size=3), max_size=3),
                        st.lists(st.integers(), max_size=5), st.text(max_size=3)),
    "text": st.one_of(st.none(), st.text(max_size=4), st.integers()),
    "clickable": st.one_of(st.none(), st.booleans(), st.text(max_size=5)),
})


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(st.one_of(_view, st.integers(), st.none()), max_size=14),
                 st.dictionaries(st.text(max_size=3), st.integers(), max_size=3)))
def test_any_view_list_gives_a_tree_or_a_trace_error(views):
    try:
        tree = build_tree(views, "s.json")
    except TraceError:
        return
    nodes = list(tree.root.walk())
    assert len(nodes) <= max(len(views), 1) + 1  # each view at most once (+ synthetic root)
    for path in tree.paths.values():
        tree.root.at(path)


def test_fields_of_the_wrong_type_are_read_as_defaults_and_said():
    views = [{"temp_id": 0, "parent": -1, "children": [], "class": "android.view.View",
              "bounds": [[0, 0], [10, 10]], "text": {"a": 1}, "clickable": "maybe",
              "enabled": None, "content_description": None}]
    tree = build_tree(views, "s.json")
    assert tree.root.text == "" and tree.root.clickable is False and tree.root.enabled
    assert any("2 view fields of the wrong type" in w and "0.text" in w and "0.clickable" in w
               for w in tree.warnings)
