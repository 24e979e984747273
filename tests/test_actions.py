"""AndroidWorld JSON actions: validated when made, the bad field named, never a crash."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phoneworld.errors import InvalidAction
from phoneworld.runtime import Action, Machine
from tests.shop import shop_spec


@pytest.fixture(scope="module")
def spec():
    return shop_spec()


@pytest.fixture
def m(spec) -> Machine:
    machine = Machine(spec)
    machine.reset()
    return machine


def test_parse_valid_actions():
    a = Action.parse({"action_type": "click", "index": "3"})
    assert a.index == 3 and a.as_dict() == {"action_type": "click", "index": 3}
    assert Action.parse('{"action_type": "click", "x": 10.7, "y": 20}').x == 10
    assert Action.parse({"action_type": "input_text", "text": 42}).text == "42"
    assert Action.parse({"action_type": "scroll", "direction": "up", "index": None}).index is None
    a = Action.parse({"action_type": "status", "goal_status": "infeasible"})
    assert Action.parse(a) is a


@pytest.mark.parametrize("action, field", [
    ({"action_type": "tap", "index": 1}, "action_type"),
    ({"index": 1}, "action_type"),
    ({"action_type": "click"}, "index"),
    ({"action_type": "click", "index": 1, "x": 3, "y": 4}, "index"),
    ({"action_type": "click", "index": -1}, "index"),
    ({"action_type": "click", "index": "two"}, "index"),
    ({"action_type": "click", "index": True}, "index"),
    ({"action_type": "click", "x": 3}, "y"),
    ({"action_type": "click", "x": "3", "y": 4}, "x"),
    ({"action_type": "click", "x": float("nan"), "y": 4}, "x"),
    ({"action_type": "input_text", "index": 1}, "text"),
    ({"action_type": "input_text", "text": ["a"]}, "text"),
    ({"action_type": "answer"}, "text"),
    ({"action_type": "scroll"}, "direction"),
    ({"action_type": "scroll", "direction": "sideways"}, "direction"),
    ({"action_type": "swipe", "direction": "UP"}, "direction"),
    ({"action_type": "open_app"}, "app_name"),
    ({"action_type": "status", "goal_status": "done"}, "goal_status"),
    ({"action_type": "status"}, "goal_status"),
    ({"action_type": "wait", "keycode": "ENTER"}, "keycode"),
    ({"action_type": "wait", "clear_text": "yes"}, "clear_text"),
    ({"action_type": "wait", "speed": 3}, "speed"),
    ("not json", "action"),
    (["click"], "action"),
])
def test_malformed_actions_name_the_bad_field(action, field):
    with pytest.raises(InvalidAction) as err:
        Action.parse(action)
    assert err.value.field == field
    assert str(err.value).startswith(f"{field}: ")


@pytest.mark.parametrize("action, field", [
    ({"action_type": "click", "index": 999}, "index"),
    ({"action_type": "click", "x": 1080, "y": 10}, "x"),
    ({"action_type": "long_press", "x": 10, "y": -1}, "y"),
    ({"action_type": "input_text", "text": "hi", "index": 0}, "index"),  # a label
    ({"action_type": "input_text", "text": "hi"}, "index"),  # nothing focused
    ({"action_type": "open_app", "app_name": "Shopp"}, "app_name"),
])
def test_actions_that_do_not_fit_the_screen_are_refused(m: Machine, action, field):
    before = m.snapshot()
    with pytest.raises(InvalidAction) as err:
        m.step(action)
    assert err.value.field == field
    assert m.snapshot() == before


def test_out_of_range_index_says_how_many_elements(m: Machine):
    with pytest.raises(InvalidAction, match=r"out of range: the screen has \d+ elements"):
        m.step({"action_type": "click", "index": 999})


def test_open_app_suggests_a_close_name(m: Machine):
    with pytest.raises(InvalidAction, match="did you mean 'Shop'"):
        m.step({"action_type": "open_app", "app_name": "Shopp"})
    m.step({"action_type": "open_app", "app_name": "com.shop"})


def test_double_tap_and_unknown_are_accepted(m: Machine):
    out = m.step({"action_type": "unknown"})
    assert out.screen == "home"
    out = m.step({"action_type": "double_tap", "x": 500, "y": 500})
    assert out.screen == "detail"


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=3),
    max_leaves=6)
FIELD = st.sampled_from(["action_type", "index", "x", "y", "text", "direction",
                         "goal_status", "app_name", "keycode", "clear_text", "other"])
TYPE = st.sampled_from(["click", "double_tap", "long_press", "input_text", "keyboard_enter",
                        "scroll", "swipe", "navigate_back", "navigate_home", "open_app",
                        "wait", "answer", "status", "unknown", "bogus"])


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(FIELD, JSONISH | TYPE, max_size=5), TYPE)
def test_arbitrary_json_only_ever_raises_invalid_action(spec, action, action_type):
    action.setdefault("action_type", action_type)
    m = Machine(spec)
    m.reset()
    try:
        m.step(action)
    except InvalidAction as err:
        assert err.field
