"""Expert demos: a planned action sequence, replayed on a fresh machine and verified.

    demo = make_demo([shopping], task)
    demo.verified                      -> True: a fresh replay made the checker true
    demo.steps[0]                      -> {"observation": '[0] TextView "Corner Shop" ...',
                                           "elements": [...], "screen": "main",
                                           "action": {"action_type": "click", "index": 6}}

The planner works on one machine (or phone) with snapshots; a demo is only written once
its actions, replayed from a reset on a new machine, end with the task's checker true,
and it ends with `status complete`. The replay also taps each element's centre instead
of its index (`points_verified`), which is what a coordinate-based agent would do. The
first step of a single-app task starts inside its app, as the env's reset does; a
cross-app task starts on the launcher.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from phoneworld.runtime.machine import Machine
from phoneworld.runtime.phone import Phone
from phoneworld.spec.ast import AppSpec
from phoneworld.tasks.instances import TaskInstance
from phoneworld.tasks.planner import MAX_STATES, plan

DONE = {"action_type": "status", "goal_status": "complete"}
_KEEP = ("index", "text", "class", "resource_id", "content_desc", "bounds", "clickable",
         "editable", "checkable", "checked", "scrollable")


@dataclass
class Demo:
    """A task with its step-by-step observations and actions."""

    task: TaskInstance
    steps: list[dict[str, Any]]
    verified: bool
    points_verified: bool = False
    screen_size: tuple[int, int] = (1080, 2400)
    collateral: tuple[str, ...] = ()
    """State outside the task's own that the demo changed (on the way, say)."""
    planner_states: int = 0

    @property
    def actions(self) -> list[dict[str, Any]]:
        return [s["action"] for s in self.steps]

    def as_dict(self) -> dict[str, Any]:
        """One JSON line of `phoneworld demos`."""
        return {"task": self.task.as_dict(), "verified": self.verified,
                "points_verified": self.points_verified,
                "screen_size": list(self.screen_size), "collateral": list(self.collateral),
                "steps": self.steps}


def new_target(specs: Sequence[AppSpec], task: TaskInstance) -> Machine | Phone:
    """A fresh, reset machine (one app) or phone (several) placed where the task starts."""
    specs = list(specs)
    if len(specs) == 1:
        m = Machine(specs[0])
        m.reset()
        return m
    phone = Phone(specs)
    phone.reset(app=task.apps[0] if len(task.apps) == 1 else None)
    return phone


def make_demo(specs: Sequence[AppSpec], instance: TaskInstance, *,
              max_states: int = MAX_STATES, described: bool = True) -> Demo | None:
    """A verified demo of `instance` on `specs` (one app, or a phone of several), or None
    when the planner finds no plan within its limits. Without `described`, its steps
    hold the screen, the action and the point tapped but not the screen's elements and
    their text (a trainer that replays the actions itself reads none of them)."""
    specs = list(specs)
    missing = [a for a in instance.apps if a not in {s.name for s in specs}]
    if missing:
        raise ValueError(f"task {instance.id} needs app {missing[0]!r}, which is not given")
    found = None
    for in_order in (True, False):  # as worded; else in whichever order a plan exists
        found = plan(new_target(specs, instance), instance.goals, show=instance.show,
                     typed=instance.typed, max_states=max_states, in_order=in_order)
        if found is not None:
            break
    if found is None:
        return None
    actions = [*found.actions, DONE]
    steps, ok, collateral = _replay(specs, instance, actions, points=False,
                                    described=described)
    _, points_ok, _ = _replay(specs, instance, [_as_point(s) for s in steps], points=True)
    return Demo(task=instance, steps=steps, verified=ok, points_verified=points_ok,
                screen_size=(specs[0].width, specs[0].height), collateral=collateral,
                planner_states=found.states)


def _replay(specs: Sequence[AppSpec], instance: TaskInstance, actions: list[dict[str, Any]],
            points: bool, described: bool = True
            ) -> tuple[list[dict[str, Any]], bool, tuple[str, ...]]:
    from phoneworld.agent.elements import format_elements

    target = new_target(specs, instance)
    steps: list[dict[str, Any]] = []
    try:
        for a in actions:
            els = target.observe("elements")
            step: dict[str, Any] = {"screen": target.screen, "action": a}
            if not points:
                if described:
                    step["observation"] = format_elements(els)
                    step["elements"] = [{k: e[k] for k in _KEEP if k == "index" or (
                        e.get(k) is not None and e.get(k) is not False and e.get(k) != "")}
                        for e in els]
                if "index" in a and a["index"] < len(els):
                    x1, y1, x2, y2 = els[a["index"]]["bounds"]
                    step["point"] = [(x1 + x2) // 2, (y1 + y2) // 2]
            target.step(a)
            steps.append(step)
    except Exception:  # noqa: BLE001 - a replay that breaks is simply not verified
        return steps, False, ()
    done = instance.check(target).success
    collateral = instance.check(target, collateral=True).collateral if done else ()
    return steps, done, collateral


def _as_point(step: dict[str, Any]) -> dict[str, Any]:
    a = dict(step["action"])
    if "point" in step and "index" in a:
        del a["index"]
        a["x"], a["y"] = step["point"]
    return a
