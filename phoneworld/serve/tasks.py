"""Tasks for sessions, drawn by `phoneworld.tasks`.

    resolve_task(specs, "shopping/add_to_cart#3")   -> the TaskInstance (find_task)
    sample(specs, n=5, seed=0)                        -> [{"id", "kind", "instruction", ...}]
    check_task(task, machine_or_phone)                -> {"success", "reason", "task", ...}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from phoneworld.errors import PhoneworldError
from phoneworld.serve.errors import ApiError
from phoneworld.spec.ast import AppSpec
from phoneworld.tasks.sample import find_task, sample_tasks

MAX_SAMPLE = 1000


def resolve_task(specs: Sequence[AppSpec], value: object) -> Any:
    """The task instance a session asks for by id (a string, as `GET /api/tasks` lists)."""
    if not isinstance(value, str) or not value.strip():
        raise ApiError("give a task id, a string as listed by GET /api/tasks", field="task")
    try:
        task = find_task(list(specs), value)
    except (LookupError, ValueError, PhoneworldError) as err:
        raise ApiError(f"no task {value!r} for these apps: {err}", field="task") from err
    if task is None:
        raise ApiError(f"no task {value!r} for these apps", field="task")
    return task


def sample(specs: Sequence[AppSpec], n: int, seed: int) -> list[dict[str, Any]]:
    """`n` task instances drawn with `seed`, described as JSON."""
    if not 1 <= n <= MAX_SAMPLE:
        raise ApiError(f"{n} is out of range (1..{MAX_SAMPLE})", field="n")
    try:
        tasks = sample_tasks(list(specs), n, seed)
    except (ValueError, PhoneworldError) as err:
        raise ApiError(f"cannot draw tasks: {err}", field="n") from err
    return [describe(t) for t in tasks]


def describe(task: Any) -> dict[str, Any]:
    """A task instance as JSON: id, kind, instruction, apps, template, params."""
    return {"id": str(task.id), "kind": str(task.kind), "instruction": str(task.instruction),
            "apps": [str(a) for a in task.apps], "template": str(task.template),
            "params": _jsonable(dict(task.params))}


def check_task(task: Any, target: Any) -> dict[str, Any]:
    """Run the task's checker on the session's machine or phone."""
    try:
        result = task.check(target)
    except PhoneworldError as err:
        raise ApiError(f"the checker of task {task.id!r} cannot judge this state: {err}",
                       409) from err
    return {"success": bool(result.success), "reason": str(result.reason),
            "task": str(task.id), "instruction": str(task.instruction)}


def _jsonable(v: Any) -> Any:
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, set, frozenset)):
        return [_jsonable(x) for x in v]
    return str(v)
