"""Action formats: AndroidWorld JSON actions and PhoneBuddy tool calls, onto one `Action`.

PhoneBuddy's tool calls put points on a 0-1000 grid over the screen, whatever its size;
AndroidWorld's JSON actions use pixels or an element index:

    from_phonebuddy({"name": "click", "arguments": {"coordinate": [500, 250]}}, 1080, 2400)
        -> {"action_type": "click", "x": 540, "y": 600}
    to_phonebuddy({"action_type": "navigate_back"}, 1080, 2400)
        -> {"name": "button_press", "arguments": {"button": "back"}}

The tools: `click`, `long_press` (a point), `type` (text; a point to type into, else the
focused field), `scroll` (direction the content moves, as AndroidWorld's; a point on the
list, optional), `drag` (start and end points: a finger swipe), `button_press` (back, home,
enter), `open_app` (app name), `wait`, `finish` (status success or failure), `output`
(the answer). Every point argument may also be an element `index`. A call comes as
`{"name", "arguments"}` (arguments may be JSON text), `{"function": {...}}`, or flat
`{"action": name, ...}`; common aliases (`tap`, `swipe`, `press_back`, `finished`,
`answer`, ...) are accepted. What cannot be mapped raises `InvalidAction` naming the field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from phoneworld.errors import InvalidAction
from phoneworld.runtime.actions import Action

GRID = 1000
"""PhoneBuddy coordinates run from 0 to GRID on both axes."""

TOOLS = ("click", "long_press", "type", "scroll", "drag", "button_press", "open_app", "wait",
         "finish", "output")

_ALIASES = {
    "tap": "click", "left_click": "click", "double_tap": "click", "double_click": "click",
    "longpress": "long_press", "long_click": "long_press", "long_tap": "long_press",
    "input": "type", "input_text": "type", "type_text": "type", "write": "type",
    "swipe": "drag", "swipe_screen": "drag",
    "press": "button_press", "key": "button_press", "press_key": "button_press",
    "system_button": "button_press", "press_button": "button_press", "button": "button_press",
    "press_back": "back", "navigate_back": "back", "go_back": "back",
    "press_home": "home", "navigate_home": "home", "go_home": "home",
    "press_enter": "enter", "keyboard_enter": "enter",
    "open": "open_app", "launch": "open_app", "launch_app": "open_app", "start_app": "open_app",
    "sleep": "wait", "finished": "finish", "terminate": "finish", "done": "finish",
    "complete": "finish", "status": "finish", "stop": "finish",
    "answer": "output", "respond": "output", "reply": "output", "response": "output",
}
_BUTTONS = {"back": "navigate_back", "home": "navigate_home", "enter": "keyboard_enter",
            "return": "keyboard_enter", "keycode_back": "navigate_back",
            "keycode_home": "navigate_home", "keycode_enter": "keyboard_enter"}
_SUCCESS = {"success", "successful", "succeeded", "complete", "completed", "done", "true",
            "finished", "ok"}
_FAILURE = {"failure", "fail", "failed", "infeasible", "impossible", "abort", "aborted",
            "false", "give_up", "error"}
_DIRECTIONS = ("up", "down", "left", "right")
_STEP = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}

_POINT_KEYS = ("coordinate", "coordinates", "point", "position", "start_box", "box",
               "start", "start_point", "start_coordinate", "from", "coordinate1", "xy")
_END_KEYS = ("coordinate2", "end", "end_point", "end_coordinate", "end_box", "to")
_TEXT_KEYS = ("text", "content", "value", "input", "message", "string")
_NUMBERS = re.compile(r"-?\d+(?:\.\d+)?")


def tool_name(name: str) -> str:
    """The canonical tool for a call's name (`Tap` -> `click`), or the name as given."""
    n = re.sub(r"[\s\-]+", "_", str(name).strip().lower())
    return _ALIASES.get(n, n)


def split_call(call: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """`(name, arguments)` of a tool call in any of the accepted shapes."""
    if not isinstance(call, Mapping):
        raise InvalidAction(f"a tool call is a JSON object, not {type(call).__name__}",
                            field="call")
    if "tool_calls" in call and isinstance(call["tool_calls"], Sequence) and call["tool_calls"]:
        return split_call(call["tool_calls"][0])
    if isinstance(call.get("function"), Mapping):
        return split_call(call["function"])
    name: Any = None
    args: Any = None
    for key in ("name", "tool", "tool_name", "action", "action_type", "type"):
        if isinstance(call.get(key), str):
            name = call[key]
            rest = {k: v for k, v in call.items() if k != key}
            break
    else:
        raise InvalidAction("a tool call needs a name: {\"name\": ..., \"arguments\": {...}}",
                            field="name")
    for key in ("arguments", "args", "parameters", "params"):
        if isinstance(rest.get(key), Mapping) or (key == "arguments"
                                                  and isinstance(rest.get(key), str)):
            args = rest.pop(key)
            break
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except ValueError as err:
            raise InvalidAction(f"arguments are not JSON ({err})", field="arguments") from err
    if args is None:
        args = rest
    elif not isinstance(args, Mapping):
        raise InvalidAction("must be a JSON object", field="arguments")
    args = dict(args)
    # A wrapper tool (`{"name": "mobile_use", "arguments": {"action": "click", ...}}`).
    if tool_name(name) not in (*TOOLS, "back", "home", "enter") and isinstance(
            args.get("action"), str):
        return split_call(args)
    return name, args


def from_phonebuddy(call: Mapping[str, Any], width: int | None,
                    height: int | None) -> dict[str, Any]:
    """The AndroidWorld JSON action for a PhoneBuddy tool call on a `width` x `height`
    screen (points scaled from the 0-1000 grid); validated."""
    name, args = split_call(call)
    tool = tool_name(name)
    a = map_call(tool, str(name), args, width, height)
    return Action.parse(a).as_dict()


def map_call(tool: str, name: str, args: dict[str, Any], width: int | None,
              height: int | None) -> dict[str, Any]:
    if tool == "click":
        count = args.get("count", args.get("clicks", 2 if "double" in name.lower() else 1))
        kind = "double_tap" if count == 2 or args.get("double") is True else "click"
        return {"action_type": kind, **_target(args, width, height, required=True)}
    if tool == "long_press":
        return {"action_type": "long_press", **_target(args, width, height, required=True)}
    if tool == "type":
        text = _text(args)
        out: dict[str, Any] = {"action_type": "input_text", "text": text,
                               **_target(args, width, height)}
        clear = args.get("clear", args.get("clear_text"))
        if isinstance(clear, bool):
            out["clear_text"] = clear
        return out
    if tool == "scroll":
        direction = _direction(args)
        return {"action_type": "scroll", "direction": direction, **_target(args, width, height)}
    if tool == "drag":
        return _drag(args, width, height)
    if tool == "button_press":
        button = args.get("button", args.get("key", args.get("keycode", args.get("name"))))
        if not isinstance(button, str) or button.strip().lower() not in _BUTTONS:
            raise InvalidAction(f"{button!r} is not a button: back, home or enter",
                                field="button")
        return {"action_type": _BUTTONS[button.strip().lower()]}
    if tool in ("back", "home", "enter"):
        return {"action_type": _BUTTONS[tool]}
    if tool == "open_app":
        app = args.get("app_name", args.get("app", args.get("name", args.get("text"))))
        if not isinstance(app, str) or not app.strip():
            raise InvalidAction("open_app needs the app's name", field="app_name")
        return {"action_type": "open_app", "app_name": app.strip()}
    if tool == "wait":
        return {"action_type": "wait"}
    if tool == "finish":
        content = next((args[k] for k in ("answer", *_TEXT_KEYS) if isinstance(args.get(k), str)
                        and args[k].strip()), None)
        status = args.get("status", args.get("goal_status", args.get("success")))
        if content is not None and status is None:
            return {"action_type": "answer", "text": content}  # UI-TARS' finished(content=...)
        return {"action_type": "status", "goal_status": _status(status)}
    if tool == "output":
        return {"action_type": "answer", "text": _text(args, ("answer", *_TEXT_KEYS))}
    raise InvalidAction(f"unknown tool {name!r}; tools are {', '.join(TOOLS)}", field="name")


def _status(v: Any) -> str:
    if v is None:
        return "complete"
    s = str(v).strip().lower()
    if s in _SUCCESS:
        return "complete"
    if s in _FAILURE:
        return "infeasible"
    raise InvalidAction(f"{v!r} must be success or failure", field="status")


def _text(args: Mapping[str, Any], keys: Sequence[str] = _TEXT_KEYS) -> str:
    for k in keys:
        v = args.get(k)
        if isinstance(v, str):
            return v
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return str(v)
    raise InvalidAction("needs the text", field="text")


def _direction(args: Mapping[str, Any]) -> str:
    d = args.get("direction", args.get("dir"))
    if not isinstance(d, str) or d.strip().lower() not in _DIRECTIONS:
        raise InvalidAction(f"{d!r} must be one of up, down, left, right", field="direction")
    return d.strip().lower()


def _target(args: Mapping[str, Any], width: int | None, height: int | None, *,
            required: bool = False) -> dict[str, Any]:
    """`{"index": i}` or `{"x", "y"}` in pixels from a call's point arguments."""
    for k in ("index", "element", "element_index", "element_id", "idx"):
        if k in args and args[k] is not None:
            return {"index": args[k]}
    p = point(args, _POINT_KEYS)
    if p is None:
        if required:
            raise InvalidAction("needs a point: \"coordinate\": [x, y] on the 0-1000 grid, "
                                "or an element \"index\"", field="coordinate")
        return {}
    x, y = to_pixels(p, width, height)
    return {"x": x, "y": y}


def point(args: Mapping[str, Any], keys: Sequence[str]) -> tuple[float, float] | None:
    """A point from the first of `keys` present: `[x, y]`, `"x,y"`, `"(x, y)"`,
    `"<point>x y</point>"`, `{"x": .., "y": ..}`, or a box `[x1, y1, x2, y2]` (its
    centre); else from `x` and `y` arguments."""
    for k in keys:
        if k in args and args[k] is not None:
            return _as_point(args[k], k)
    if "x" in args or "y" in args:
        return _as_point([args.get("x"), args.get("y")], "x")
    return None


def _as_point(v: Any, field: str) -> tuple[float, float]:
    if isinstance(v, Mapping):
        v = [v.get("x"), v.get("y")]
    if isinstance(v, str):
        v = [float(n) for n in _NUMBERS.findall(v)]
    if isinstance(v, Sequence) and len(v) == 1 and isinstance(v[0], Sequence):
        v = v[0]  # [[x, y]]
    if isinstance(v, Sequence) and len(v) in (2, 4):
        nums = []
        for n in v:
            if isinstance(n, str):
                try:
                    n = float(n.strip())
                except ValueError:
                    n = None
            if isinstance(n, bool) or not isinstance(n, (int, float)) or n != n:
                raise InvalidAction(f"{v!r} is not a point: write [x, y]", field=field)
            nums.append(float(n))
        if len(nums) == 4:  # a box: its centre
            return (nums[0] + nums[2]) / 2, (nums[1] + nums[3]) / 2
        return nums[0], nums[1]
    raise InvalidAction(f"{v!r} is not a point: write [x, y]", field=field)


def to_pixels(p: tuple[float, float], width: int | None,
              height: int | None) -> tuple[int, int]:
    """A 0-1000 grid point as pixels of a `width` x `height` screen."""
    if width is None or height is None:
        raise InvalidAction(f"PhoneBuddy points are on a 0-{GRID} grid: give the screen's "
                            f"width and height to map them to pixels", field="coordinate")
    for v, name in zip(p, ("x", "y"), strict=True):
        if not 0 <= v <= GRID:
            raise InvalidAction(f"{v:g} is off the 0-{GRID} grid that PhoneBuddy points use "
                                f"(for pixels, write an AndroidWorld JSON action)",
                                field=f"coordinate.{name}")
    return (min(int(p[0] * width / GRID), width - 1), min(int(p[1] * height / GRID), height - 1))


def to_grid(x: int, y: int, width: int, height: int) -> list[int]:
    """Pixels as a 0-1000 grid point (the centre of the pixel, rounded)."""
    return [min(GRID, round((x + 0.5) * GRID / width)), min(GRID, round((y + 0.5) * GRID / height))]


def _drag(args: Mapping[str, Any], width: int | None, height: int | None) -> dict[str, Any]:
    start = point(args, _POINT_KEYS)
    end = point(args, _END_KEYS)
    if start is not None and end is not None:
        (x1, y1), (x2, y2) = to_pixels(start, width, height), to_pixels(end, width, height)
        dx, dy = x2 - x1, y2 - y1
        if dx == 0 and dy == 0:
            raise InvalidAction("the drag starts and ends at the same point", field="end")
        if abs(dy) >= abs(dx):
            direction = "down" if dy > 0 else "up"
        else:
            direction = "right" if dx > 0 else "left"
        return {"action_type": "swipe", "direction": direction, "x": x1, "y": y1}
    if "direction" in args:  # a swipe given by its direction only
        out: dict[str, Any] = {"action_type": "swipe", "direction": _direction(args)}
        if start is not None:
            out["x"], out["y"] = to_pixels(start, width, height)
        return out
    raise InvalidAction("a drag needs a start and an end point: \"start\": [x, y], "
                        "\"end\": [x, y] on the 0-1000 grid", field="end")


def to_phonebuddy(action: Action | Mapping[str, Any] | str, width: int, height: int, *,
                  elements: Sequence[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """The PhoneBuddy tool call `{"name", "arguments"}` for an AndroidWorld action.

    An element index becomes the element's centre when `elements` (the screen's element
    list, with `bounds`) is given, else stays an `index` argument. A swipe becomes a drag
    over half the screen from its point (default: the centre).
    """
    a = Action.parse(dict(action) if isinstance(action, Mapping) else action)
    t = a.action_type

    def where() -> dict[str, Any]:
        if a.index is not None:
            if elements is None:
                return {"index": a.index}
            if a.index >= len(elements):
                raise InvalidAction(f"{a.index} is out of range: the screen has "
                                    f"{len(elements)} elements", field="index")
            x1, y1, x2, y2 = elements[a.index]["bounds"]
            return {"coordinate": to_grid((x1 + x2) // 2, (y1 + y2) // 2, width, height)}
        if a.x is not None and a.y is not None:
            return {"coordinate": to_grid(a.x, a.y, width, height)}
        return {}

    if t in ("click", "long_press"):
        return {"name": t, "arguments": where()}
    if t == "double_tap":
        return {"name": "click", "arguments": {**where(), "count": 2}}
    if t == "input_text":
        args = {"text": a.text, **where()}
        if a.clear_text is False:
            args["clear"] = False
        return {"name": "type", "arguments": args}
    if t == "scroll":
        return {"name": "scroll", "arguments": {"direction": a.direction, **where()}}
    if t == "swipe":
        x, y = (a.x, a.y) if a.x is not None else (width // 2, height // 2)
        if a.index is not None and elements is not None:
            x1, y1, x2, y2 = elements[a.index]["bounds"]
            x, y = (x1 + x2) // 2, (y1 + y2) // 2
        dx, dy = _STEP[a.direction or "up"]
        ex = min(max(0, x + dx * width // 2), width - 1)
        ey = min(max(0, y + dy * height // 2), height - 1)
        start, end = to_grid(x, y, width, height), to_grid(ex, ey, width, height)
        if start == end:  # at the screen's edge: no room to move, say the direction
            return {"name": "drag", "arguments": {"start": start, "direction": a.direction}}
        return {"name": "drag", "arguments": {"start": start, "end": end}}
    if t in ("navigate_back", "navigate_home", "keyboard_enter"):
        button = {"navigate_back": "back", "navigate_home": "home", "keyboard_enter": "enter"}[t]
        return {"name": "button_press", "arguments": {"button": button}}
    if t == "open_app":
        return {"name": "open_app", "arguments": {"app_name": a.app_name}}
    if t == "wait":
        return {"name": "wait", "arguments": {}}
    if t == "answer":
        return {"name": "output", "arguments": {"text": a.text}}
    if t == "status":
        status = "success" if a.goal_status == "complete" else "failure"
        return {"name": "finish", "arguments": {"status": status}}
    raise InvalidAction(f"{t} has no PhoneBuddy tool call", field="action_type")


def is_tool_call(d: Mapping[str, Any]) -> bool:
    """Whether a dict is a PhoneBuddy-style tool call (not an AndroidWorld JSON action)."""
    return "action_type" not in d and any(
        k in d for k in ("name", "function", "tool", "tool_calls", "action"))


def to_action(action: Any, width: int, height: int) -> Action:
    """One `Action` from any accepted form: an `Action`, an AndroidWorld dict, a PhoneBuddy
    tool call, or model output text (see `phoneworld.agent.parse.parse_action`)."""
    if isinstance(action, Action):
        return action
    if isinstance(action, Mapping):
        if is_tool_call(action):
            return Action.parse(from_phonebuddy(action, width, height))
        return Action.parse(dict(action))
    if isinstance(action, (str, bytes)):
        from phoneworld.agent.parse import parse_action

        text = action.decode("utf-8", "replace") if isinstance(action, bytes) else action
        return Action.parse(parse_action(text, width=width, height=height))
    raise InvalidAction(f"an action is a JSON object or text, not {type(action).__name__}",
                        field="action")


PHONEBUDDY_TOOLS: list[dict[str, Any]] = [
    {"type": "function", "function": {"name": name, "description": desc,
                                      "parameters": {"type": "object", "properties": props,
                                                     "required": req}}}
    for name, desc, props, req in [
        ("click", "Tap a point (0-1000 grid) or an element.",
         {"coordinate": {"type": "array", "items": {"type": "integer"}}}, ["coordinate"]),
        ("long_press", "Press and hold a point (0-1000 grid).",
         {"coordinate": {"type": "array", "items": {"type": "integer"}}}, ["coordinate"]),
        ("type", "Type text into the field at a point, or the focused field.",
         {"text": {"type": "string"}, "coordinate": {"type": "array",
                                                     "items": {"type": "integer"}}}, ["text"]),
        ("scroll", "Scroll the list at a point (or the screen) so the content moves on "
                   "in a direction.",
         {"direction": {"type": "string", "enum": list(_DIRECTIONS)},
          "coordinate": {"type": "array", "items": {"type": "integer"}}}, ["direction"]),
        ("drag", "Drag a finger from start to end (0-1000 grid).",
         {"start": {"type": "array", "items": {"type": "integer"}},
          "end": {"type": "array", "items": {"type": "integer"}}}, ["start", "end"]),
        ("button_press", "Press a system button.",
         {"button": {"type": "string", "enum": ["back", "home", "enter"]}}, ["button"]),
        ("open_app", "Open an app by name.", {"app_name": {"type": "string"}}, ["app_name"]),
        ("wait", "Wait for the screen to change.", {}, []),
        ("finish", "End the task.",
         {"status": {"type": "string", "enum": ["success", "failure"]}}, ["status"]),
        ("output", "Give the answer to the user's question.", {"text": {"type": "string"}},
         ["text"]),
    ]
]
"""The tools as OpenAI-style function schemas, for a model's prompt."""
