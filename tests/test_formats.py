"""Action formats: PhoneBuddy tool calls <-> AndroidWorld JSON, and the tolerant text parser."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from phoneworld.agent.formats import (
    PHONEBUDDY_TOOLS,
    TOOLS,
    from_phonebuddy,
    split_call,
    to_action,
    to_phonebuddy,
)
from phoneworld.agent.parse import parse_action
from phoneworld.errors import InvalidAction
from phoneworld.runtime.actions import Action

W, H = 1080, 2400


# -- PhoneBuddy tool calls ------------------------------------------------------------------------

@pytest.mark.parametrize("call, expected", [
    ({"name": "click", "arguments": {"coordinate": [500, 250]}},
     {"action_type": "click", "x": 540, "y": 600}),
    ({"name": "click", "arguments": {"index": 4}}, {"action_type": "click", "index": 4}),
    ({"name": "long_press", "arguments": {"coordinate": [0, 1000]}},
     {"action_type": "long_press", "x": 0, "y": 2399}),
    ({"name": "type", "arguments": {"text": "oat milk"}},
     {"action_type": "input_text", "text": "oat milk"}),
    ({"name": "type", "arguments": {"text": "x", "coordinate": [100, 100], "clear": False}},
     {"action_type": "input_text", "text": "x", "x": 108, "y": 240, "clear_text": False}),
    ({"name": "scroll", "arguments": {"direction": "down"}},
     {"action_type": "scroll", "direction": "down"}),
    ({"name": "drag", "arguments": {"start": [500, 800], "end": [500, 200]}},
     {"action_type": "swipe", "direction": "up", "x": 540, "y": 1920}),
    ({"name": "drag", "arguments": {"start": [100, 500], "end": [900, 520]}},
     {"action_type": "swipe", "direction": "right", "x": 108, "y": 1200}),
    ({"name": "button_press", "arguments": {"button": "back"}}, {"action_type": "navigate_back"}),
    ({"name": "button_press", "arguments": {"button": "HOME"}}, {"action_type": "navigate_home"}),
    ({"name": "button_press", "arguments": {"button": "enter"}},
     {"action_type": "keyboard_enter"}),
    ({"name": "open_app", "arguments": {"app_name": "Corner Shop"}},
     {"action_type": "open_app", "app_name": "Corner Shop"}),
    ({"name": "wait", "arguments": {}}, {"action_type": "wait"}),
    ({"name": "finish", "arguments": {"status": "success"}},
     {"action_type": "status", "goal_status": "complete"}),
    ({"name": "finish", "arguments": {"status": "failure"}},
     {"action_type": "status", "goal_status": "infeasible"}),
    ({"name": "output", "arguments": {"text": "$3.99"}},
     {"action_type": "answer", "text": "$3.99"}),
    # other shapes and aliases
    ({"function": {"name": "tap", "arguments": '{"coordinate": [500, 500]}'}},
     {"action_type": "click", "x": 540, "y": 1200}),
    ({"type": "function", "function": {"name": "press_back", "arguments": "{}"}},
     {"action_type": "navigate_back"}),
    ({"action": "click", "coordinate": [10, 10]}, {"action_type": "click", "x": 10, "y": 24}),
    ({"name": "mobile_use", "arguments": {"action": "system_button", "button": "Back"}},
     {"action_type": "navigate_back"}),
    ({"tool_calls": [{"function": {"name": "output", "arguments": {"answer": "42"}}}]},
     {"action_type": "answer", "text": "42"}),
    ({"name": "click", "arguments": {"start_box": "(500,500)"}},
     {"action_type": "click", "x": 540, "y": 1200}),
    ({"name": "click", "arguments": {"coordinate": [400, 400, 600, 600]}},
     {"action_type": "click", "x": 540, "y": 1200}),
])
def test_from_phonebuddy(call, expected):
    assert from_phonebuddy(call, W, H) == expected


@pytest.mark.parametrize("call, field", [
    ({"name": "fly", "arguments": {}}, "name"),
    ({"arguments": {}}, "name"),
    ({"name": "click", "arguments": {}}, "coordinate"),
    ({"name": "click", "arguments": {"coordinate": [500, 1200]}}, "coordinate.y"),
    ({"name": "click", "arguments": {"coordinate": "nowhere"}}, "coordinate"),
    ({"name": "scroll", "arguments": {"direction": "sideways"}}, "direction"),
    ({"name": "button_press", "arguments": {"button": "volume_up"}}, "button"),
    ({"name": "drag", "arguments": {"start": [1, 1], "end": [1, 1]}}, "end"),
    ({"name": "type", "arguments": {}}, "text"),
    ({"name": "finish", "arguments": {"status": "maybe"}}, "status"),
    ({"name": "click", "arguments": "{not json"}, "arguments"),
    ({"name": "click", "arguments": {"index": -1}}, "index"),
])
def test_from_phonebuddy_errors_name_the_field(call, field):
    with pytest.raises(InvalidAction) as err:
        from_phonebuddy(call, W, H)
    assert err.value.field == field


def test_grid_points_need_the_screen_size():
    with pytest.raises(InvalidAction, match="width and height"):
        from_phonebuddy({"name": "click", "arguments": {"coordinate": [1, 1]}}, None, None)
    # An element index needs no size.
    assert from_phonebuddy({"name": "click", "arguments": {"index": 1}}, None, None) == \
        {"action_type": "click", "index": 1}


@pytest.mark.parametrize("action, expected", [
    ({"action_type": "click", "x": 540, "y": 600},
     {"name": "click", "arguments": {"coordinate": [500, 250]}}),
    ({"action_type": "click", "index": 3}, {"name": "click", "arguments": {"index": 3}}),
    ({"action_type": "navigate_back"}, {"name": "button_press", "arguments": {"button": "back"}}),
    ({"action_type": "keyboard_enter"},
     {"name": "button_press", "arguments": {"button": "enter"}}),
    ({"action_type": "status", "goal_status": "complete"},
     {"name": "finish", "arguments": {"status": "success"}}),
    ({"action_type": "answer", "text": "7"}, {"name": "output", "arguments": {"text": "7"}}),
    ({"action_type": "open_app", "app_name": "Shop"},
     {"name": "open_app", "arguments": {"app_name": "Shop"}}),
])
def test_to_phonebuddy(action, expected):
    assert to_phonebuddy(action, W, H) == expected


def test_to_phonebuddy_resolves_an_index_with_the_element_list():
    elements = [{"bounds": [0, 0, 10, 10]}, {"bounds": [100, 200, 300, 400]}]
    call = to_phonebuddy({"action_type": "long_press", "index": 1}, W, H, elements=elements)
    assert call == {"name": "long_press", "arguments": {"coordinate": [186, 125]}}
    with pytest.raises(InvalidAction, match="out of range"):
        to_phonebuddy({"action_type": "click", "index": 5}, W, H, elements=elements)


def test_unknown_has_no_tool_call():
    with pytest.raises(InvalidAction) as err:
        to_phonebuddy({"action_type": "unknown"}, W, H)
    assert err.value.field == "action_type"


_actions = st.one_of(
    st.builds(lambda x, y, t: {"action_type": t, "x": x, "y": y}, st.integers(0, W - 1),
              st.integers(0, H - 1), st.sampled_from(["click", "long_press", "double_tap"])),
    st.builds(lambda i: {"action_type": "click", "index": i}, st.integers(0, 500)),
    st.builds(lambda d: {"action_type": "scroll", "direction": d},
              st.sampled_from(["up", "down", "left", "right"])),
    st.builds(lambda d, x, y: {"action_type": "swipe", "direction": d, "x": x, "y": y},
              st.sampled_from(["up", "down", "left", "right"]), st.integers(0, W - 1),
              st.integers(0, H - 1)),
    st.builds(lambda s: {"action_type": "input_text", "text": s}, st.text(max_size=20)),
    st.builds(lambda s: {"action_type": "answer", "text": s}, st.text(max_size=20)),
    st.sampled_from([{"action_type": t} for t in ("navigate_back", "navigate_home",
                                                   "keyboard_enter", "wait")]),
    st.sampled_from([{"action_type": "status", "goal_status": g}
                     for g in ("complete", "infeasible")]),
)


@settings(max_examples=300, deadline=None)
@given(_actions)
def test_phonebuddy_round_trip(action):
    """AndroidWorld -> PhoneBuddy -> AndroidWorld keeps the action, points within the
    grid's rounding (1000 grid steps over 1080 x 2400 pixels)."""
    back = from_phonebuddy(to_phonebuddy(action, W, H), W, H)
    a, b = Action.parse(action), Action.parse(back)
    assert b.action_type == a.action_type
    assert (b.text, b.direction, b.goal_status, b.index) == \
        (a.text, a.direction, a.goal_status, a.index)
    if a.x is not None:
        assert abs(b.x - a.x) <= 2 and abs(b.y - a.y) <= 3


def test_the_tool_schemas_cover_every_tool():
    assert [t["function"]["name"] for t in PHONEBUDDY_TOOLS] == list(TOOLS)
    json.dumps(PHONEBUDDY_TOOLS)


def test_split_call_shapes():
    assert split_call({"name": "click", "arguments": {"index": 1}}) == ("click", {"index": 1})
    assert split_call({"action": "wait"}) == ("wait", {})
    with pytest.raises(InvalidAction):
        split_call(["click"])  # type: ignore[arg-type]


def test_to_action_takes_every_form():
    want = Action(action_type="navigate_back")
    assert to_action(want, W, H) is want
    assert to_action({"action_type": "navigate_back"}, W, H) == want
    assert to_action({"name": "button_press", "arguments": {"button": "back"}}, W, H) == want
    assert to_action("Action: back", W, H) == want
    assert to_action(b'{"action_type": "navigate_back"}', W, H) == want
    with pytest.raises(InvalidAction):
        to_action(42, W, H)


# -- model output text -----------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ('{"action_type": "click", "index": 7}', {"action_type": "click", "index": 7}),
    ('Reason: the cart icon.\nAction: {"action_type": "click", "index": 7}',
     {"action_type": "click", "index": 7}),
    ("<think>maybe {\"action_type\": \"wait\"}</think>\n<tool_call>\n{'name': 'click', "
     "'arguments': {'coordinate': [500, 250]}}\n</tool_call>",
     {"action_type": "click", "x": 540, "y": 600}),
    ('```json\n{"action_type": "input_text", "text": "hi", "index": 2,}\n```',
     {"action_type": "input_text", "text": "hi", "index": 2}),
    ("```\ntype(text='oat milk', coordinate=(500, 80))\n```",
     {"action_type": "input_text", "text": "oat milk", "x": 540, "y": 192}),
    ("{action_type: 'scroll', direction: 'down'}", {"action_type": "scroll", "direction": "down"}),
    ('{{"action_type": "navigate_home"}}', {"action_type": "navigate_home"}),
    ("{'action_type': 'status', 'goal_status': 'complete', 'x': None}",
     {"action_type": "status", "goal_status": "complete"}),
    ("\u201caction_type\u201d", None),
    ("navigate_back", {"action_type": "navigate_back"}),
    ("Action: back.", {"action_type": "navigate_back"}),
    ("**Action:** `enter`", {"action_type": "keyboard_enter"}),
    ("click(540, 500)", {"action_type": "click", "x": 583, "y": 1200}),
    ('click(start_box="<|box_start|>(500,500)<|box_end|>")',
     {"action_type": "click", "x": 540, "y": 1200}),
    ("long_press(point='<point>500 500</point>')",
     {"action_type": "long_press", "x": 540, "y": 1200}),
    ("scroll(direction=down)", {"action_type": "scroll", "direction": "down"}),
    ("drag(start=[500, 800], end=[500, 200])",
     {"action_type": "swipe", "direction": "up", "x": 540, "y": 1920}),
    ('finished(content="The price is $3.99")',
     {"action_type": "answer", "text": "The price is $3.99"}),
    ('do(action="Tap", element=[500, 500])', {"action_type": "click", "x": 540, "y": 1200}),
    ("I'll go back. press_back()", {"action_type": "navigate_back"}),
    ("Thought: don't know. Action: open_app(app_name='Shop')",
     {"action_type": "open_app", "app_name": "Shop"}),
    ('output("42")', {"action_type": "answer", "text": "42"}),
    ("click(index=3)", {"action_type": "click", "index": 3}),
    ("navigate_back() then click(index=3)", {"action_type": "click", "index": 3}),
    ('First {"action_type": "wait"}, then {"action_type": "click", "index": 1}.',
     {"action_type": "click", "index": 1}),
    ('{"name": "finish", "arguments": {"status": "success"}}',
     {"action_type": "status", "goal_status": "complete"}),
])
def test_parse_action(text, expected):
    if expected is None:
        with pytest.raises(InvalidAction):
            parse_action(text, width=W, height=H)
    else:
        assert parse_action(text, width=W, height=H) == expected


@pytest.mark.parametrize("text, field", [
    ("", "action"),
    ("I am not sure what to do.", "action"),
    ('{"action_type": "tap", "index": 1}', "action_type"),
    ('{"action_type": "click"}', "index"),
    ('{"action_type": "scroll", "direction": "sideways"}', "direction"),
    ('{"action_type": "click", "index": 1, "colour": "red"}', "colour"),
    ("click(coordinate=[500, 1200])", "coordinate.y"),
])
def test_parse_action_errors(text, field):
    with pytest.raises(InvalidAction) as err:
        parse_action(text, width=W, height=H)
    assert err.value.field == field


def test_parse_action_without_a_screen_size():
    assert parse_action('{"action_type": "click", "x": 5, "y": 9}') == \
        {"action_type": "click", "x": 5, "y": 9}
    with pytest.raises(InvalidAction, match="width and height"):
        parse_action("click(coordinate=[5, 9])")


def test_parse_action_error_quotes_the_text():
    with pytest.raises(InvalidAction, match="no action found in 'I give up'"):
        parse_action("I give up")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_parse_action_never_crashes(text):
    try:
        out = parse_action(text, width=W, height=H)
    except InvalidAction:
        return
    Action.parse(out)


@settings(max_examples=200, deadline=None)
@example({"action_type": "input_text", "text": "</REASONING>"}, "{}")  # a closing tag typed
@given(_actions, st.sampled_from(["{}", "Action: {}", "```json\n{}\n```",
                                  "<tool_call>{}</tool_call>", "Reason: ok.\n{}", "{}\n"]))
def test_parse_action_reads_json_actions_in_noise(action, wrap):
    text = wrap.replace("{}", json.dumps(action))
    assert parse_action(text, width=W, height=H) == Action.parse(action).as_dict()
