"""Verified demos as chat-format SFT data: one example per step.

    export_sft([demo], format="androidworld") ->
      [{"messages": [{"role": "system", "content": "You operate an Android phone. ..."},
                     {"role": "user", "content": "Task: Open Cart.\\nScreen:\\n[0] TextView
                         \\"Corner Shop\\" ...\\nPrevious actions:\\nnone"},
                     {"role": "assistant", "content": '{"action_type": "click", "index": 6}'}],
        "id": "shopping/open_main_cart#97d170e1", "step": 0}, ...]

Two action formats: AndroidWorld's JSON actions (element indexes, as the env takes them)
and PhoneBuddy's tool calls (`<tool_call>{"name": "click", "arguments": {"coordinate":
[500, 250]}}</tool_call>`, points on a 0-1000 grid; the screen lists each element's
centre on that grid). A tap's point is the element's centre, which the demo's replay
checked lands on the same element; where it did not, the call names the element's index.
Each prompt stands alone: the task, the current screen, the last few actions.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from phoneworld.tasks.demos import Demo

FORMATS = ("androidworld", "phonebuddy")
HISTORY = 3
"""How many earlier actions each prompt shows."""

SYSTEM = {
    "androidworld": (
        "You operate an Android phone to do the user's task. Each turn you see the task, "
        "the screen as a numbered list of elements and your last actions. Reply with "
        "exactly one JSON action: {\"action_type\": \"click\"|\"long_press\", \"index\": i}, "
        "{\"action_type\": \"input_text\", \"index\": i, \"text\": ...}, "
        "{\"action_type\": \"scroll\", \"direction\": \"up\"|\"down\"|\"left\"|\"right\", "
        "\"index\": i}, {\"action_type\": \"navigate_back\"}, {\"action_type\": "
        "\"keyboard_enter\"}, {\"action_type\": \"open_app\", \"app_name\": ...}, "
        "{\"action_type\": \"answer\", \"text\": ...} or {\"action_type\": \"status\", "
        "\"goal_status\": \"complete\"|\"infeasible\"}."),
    "phonebuddy": (
        "You operate an Android phone to do the user's task. Each turn you see the task, "
        "the screen as a list of elements with their centres on a 0-1000 grid (@x,y) and "
        "your last actions. Reply with exactly one tool call in <tool_call></tool_call>: "
        "click, long_press (coordinate), type (text, coordinate), scroll (direction, "
        "coordinate), drag, button_press (back, home, enter), open_app (app_name), wait, "
        "output (text: your answer) or finish (status: success or failure)."),
}


def export_sft(demos: Iterable[Demo], format: str = "androidworld", *,
               history: int = HISTORY) -> list[dict[str, Any]]:
    """Chat examples, one per step of every verified demo (unverified ones are skipped)."""
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; choose from {', '.join(FORMATS)}")
    out: list[dict[str, Any]] = []
    for d in demos:
        if not d.verified:
            continue
        w, h = d.screen_size
        done: list[str] = []
        for n, step in enumerate(d.steps):
            els = step.get("elements", [])
            reply = action_text(step["action"], format, els, w, h,
                                points=d.points_verified)
            recent = done[-history:] if history > 0 else []
            user = (f"Task: {d.task.instruction}\nScreen:\n{screen_text(els, format, w, h)}\n"
                    f"Previous actions:\n" + ("\n".join(recent) if recent else "none"))
            out.append({"messages": [{"role": "system", "content": SYSTEM[format]},
                                     {"role": "user", "content": user},
                                     {"role": "assistant", "content": reply}],
                        "id": d.task.id, "step": n, "format": format})
            done.append(reply)
    return out


def action_text(action: Mapping[str, Any], format: str, elements: Sequence[Mapping[str, Any]],
                width: int, height: int, *, points: bool = True) -> str:
    """What the model should reply for `action` in `format`."""
    a = {k: v for k, v in action.items() if v is not None}
    if format == "androidworld":
        return json.dumps(a, ensure_ascii=False)
    from phoneworld.agent.formats import to_phonebuddy

    by_index = {e.get("index"): e for e in elements}
    els = [by_index.get(i, {"bounds": [0, 0, 0, 0]}) for i in range(max(by_index, default=-1)
                                                                         + 1)]
    call = to_phonebuddy(a, width, height, elements=els if points else None)
    return "<tool_call>" + json.dumps(call, ensure_ascii=False) + "</tool_call>"


def screen_text(elements: Sequence[Mapping[str, Any]], format: str = "androidworld",
                width: int = 1080, height: int = 2400) -> str:
    """The element list as lines: index, class, text, description, id, flags, and for
    PhoneBuddy the centre on the 0-1000 grid."""
    from phoneworld.agent.elements import format_elements

    if format == "androidworld":
        return format_elements(elements)
    lines = []
    for e, line in zip(elements, format_elements(elements).splitlines(), strict=False):
        b = e.get("bounds")
        line = line.rsplit(" [", 1)[0] if b else line  # pixel bounds out, grid centre in
        if b and len(b) == 4:
            cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
            line += f" @{round(cx * 1000 / max(width, 1))},{round(cy * 1000 / max(height, 1))}"
        lines.append(line)
    return "\n".join(lines)
