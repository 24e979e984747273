"""AndroidWorld JSON actions, validated when they are made.

The same closed set of action types and fields as AndroidWorld's `JSONAction`
(`android_world/env/json_action.py`); a malformed action raises `InvalidAction` naming
the bad field, before anything touches the app:

    Action.parse({"action_type": "click", "index": 3})          -> Action(click, index=3)
    Action.parse({"action_type": "scroll", "direction": "sideways"})
        -> InvalidAction("direction: must be one of up, down, left, right")

What can only be judged on the current screen (an index past the element list, typing
into a view that is not a text field) is reported by the machine, with the same error.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, fields
from typing import Any

from phoneworld.errors import InvalidAction

ACTION_TYPES = ("click", "double_tap", "long_press", "input_text", "keyboard_enter",
                "scroll", "swipe", "navigate_back", "navigate_home", "open_app", "wait",
                "answer", "status", "unknown")
DIRECTIONS = ("up", "down", "left", "right")
GOAL_STATUSES = ("complete", "infeasible")

_TARGETED = ("click", "double_tap", "long_press")
"""Action types that need an element: an index or x, y."""
_REQUIRED = {"input_text": "text", "answer": "text", "scroll": "direction",
             "swipe": "direction", "open_app": "app_name", "status": "goal_status"}


@dataclass(frozen=True)
class Action:
    """One agent action (AndroidWorld's JSON action fields; `None` = not given)."""

    action_type: str
    index: int | None = None
    x: int | None = None
    y: int | None = None
    text: str | None = None
    direction: str | None = None
    goal_status: str | None = None
    app_name: str | None = None
    keycode: str | None = None
    clear_text: bool | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        t = self.action_type
        if t not in ACTION_TYPES:
            raise InvalidAction(f"unknown action type {t!r}; expected one of "
                                f"{', '.join(ACTION_TYPES)}", field="action_type")
        if self.index is not None:
            set_(self, "index", _index(self.index))
            if self.x is not None or self.y is not None:
                raise InvalidAction("give either an index or x, y, not both", field="index")
        for name in ("x", "y"):
            v = getattr(self, name)
            if v is not None:
                set_(self, name, _coordinate(v, name))
        if (self.x is None) != (self.y is None):
            raise InvalidAction("x and y come together", field="y" if self.y is None else "x")
        if self.text is not None and not isinstance(self.text, str):
            if isinstance(self.text, (int, float)) and not isinstance(self.text, bool):
                set_(self, "text", str(self.text))  # as AndroidWorld does
            else:
                raise InvalidAction(f"must be a string, not {type(self.text).__name__}",
                                    field="text")
        if self.direction is not None and self.direction not in DIRECTIONS:
            raise InvalidAction(f"{self.direction!r} must be one of {', '.join(DIRECTIONS)}",
                                field="direction")
        if self.goal_status is not None and self.goal_status not in GOAL_STATUSES:
            raise InvalidAction(f"{self.goal_status!r} must be one of "
                                f"{', '.join(GOAL_STATUSES)}", field="goal_status")
        for name in ("app_name", "keycode"):
            v = getattr(self, name)
            if v is not None and not isinstance(v, str):
                raise InvalidAction("must be a string", field=name)
        if self.keycode is not None and not self.keycode.startswith("KEYCODE_"):
            raise InvalidAction(f"{self.keycode!r} must start with KEYCODE_", field="keycode")
        if self.clear_text is not None and not isinstance(self.clear_text, bool):
            raise InvalidAction("must be true or false", field="clear_text")
        if t in _TARGETED and self.index is None and self.x is None:
            raise InvalidAction(f"{t} needs an element: give index, or x and y", field="index")
        need = _REQUIRED.get(t)
        if need is not None and getattr(self, need) is None:
            raise InvalidAction(f"{t} needs {need}", field=need)

    @property
    def targeted(self) -> bool:
        """Whether the action names an element (by index or by coordinates)."""
        return self.index is not None or self.x is not None

    @classmethod
    def parse(cls, action: Action | dict[str, Any] | str) -> Action:
        """An `Action` from a JSON action (a dict or its JSON text), validated."""
        if isinstance(action, cls):
            return action
        if isinstance(action, (str, bytes)):
            try:
                action = json.loads(action)
            except ValueError as err:
                raise InvalidAction(f"not JSON ({err})", field="action") from err
        if not isinstance(action, dict):
            raise InvalidAction(f"expected a JSON object, not {type(action).__name__}",
                                field="action")
        if "action_type" not in action:
            raise InvalidAction("missing", field="action_type")
        unknown = [k for k in action if k not in _FIELDS]
        if unknown:
            raise InvalidAction(f"unknown field; fields are {', '.join(_FIELDS)}",
                                field=str(unknown[0]))
        return cls(**action)

    def as_dict(self) -> dict[str, Any]:
        """The JSON action, without the fields that are not given."""
        # The instance dict holds the fields in their order (a step's hot path).
        return {f: v for f, v in self.__dict__.items() if v is not None}

    def check_screen(self, width: int, height: int) -> None:
        """Raise `InvalidAction` when x, y lie off a `width` x `height` screen."""
        if self.x is not None and not 0 <= self.x < width:
            raise InvalidAction(f"{self.x} is off the screen (0..{width - 1})", field="x")
        if self.y is not None and not 0 <= self.y < height:
            raise InvalidAction(f"{self.y} is off the screen (0..{height - 1})", field="y")


_FIELDS = tuple(f.name for f in fields(Action))


def _index(v: object) -> int:
    if isinstance(v, bool):
        raise InvalidAction("must be an integer", field="index")
    if isinstance(v, str):
        v = v.strip()
        if not (v.isascii() and v.isdigit()):
            raise InvalidAction(f"{v!r} is not an element index", field="index")
        return int(v)
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if not isinstance(v, int):
        raise InvalidAction("must be an integer", field="index")
    if v < 0:
        raise InvalidAction(f"{v} is negative", field="index")
    return v


def _coordinate(v: object, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise InvalidAction("must be a number of pixels", field=name)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise InvalidAction("must be a finite number", field=name)
        v = int(v)
    return v
