"""Tasks, checkers and verified demos for mock apps.

    from phoneworld.tasks import sample_tasks, find_task, make_demo, export_sft
    tasks = sample_tasks([spec], n=200, seed=0)         # TaskInstance: id, kind, instruction
    tasks[0].check(machine)                             # CheckResult(success, reason)
    demo = make_demo([spec], tasks[0])                  # planned, replayed, .verified
    export_sft([demo], format="phonebuddy")             # chat-format SFT examples

Modules, one concept each: `schema` (what a spec offers: entities, facts, toggles),
`phrases` (how instructions are worded), `synthesize` (templates for the spec's task
section), `reach` (what a person can get to see), `instances` (templates drawn on real
rows), `sample` (seeded sampling, phones and cross-app tasks, ids), `checkers` (judging a
task on a machine or phone), `sql` (state checks as SQL with bound values), `planner`
(shortest action sequences by search), `stategraph` (where each action led from each
whole state a search met, per process), `demos` (replayed and verified), `export` (chat
SFT data), `properties` (the oracle and the properties of checkers), `gentests` (the
cases of an app's own property tests), `commands` (the CLI).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from phoneworld.tasks.checkers import CheckResult, Goal
    from phoneworld.tasks.demos import Demo, make_demo
    from phoneworld.tasks.export import export_sft
    from phoneworld.tasks.gentests import checker_cases
    from phoneworld.tasks.instances import TaskInstance
    from phoneworld.tasks.sample import find_task, sample_tasks, templates
    from phoneworld.tasks.synthesize import synthesize_tasks

__all__ = ["CheckResult", "Demo", "Goal", "TaskInstance", "checker_cases", "export_sft",
           "find_task", "make_demo", "sample_tasks", "synthesize_tasks", "templates"]


def __getattr__(name: str) -> Any:
    # Loaded on first use, so that `phoneworld --help` (which imports `commands`) stays
    # fast; plain imports, so that what this package reaches is plain to see.
    if name in ("CheckResult", "Goal"):
        from phoneworld.tasks import checkers as module
    elif name in ("Demo", "make_demo"):
        from phoneworld.tasks import demos as module
    elif name == "export_sft":
        from phoneworld.tasks import export as module
    elif name == "checker_cases":
        from phoneworld.tasks import gentests as module
    elif name == "TaskInstance":
        from phoneworld.tasks import instances as module
    elif name in ("find_task", "sample_tasks", "templates"):
        from phoneworld.tasks import sample as module
    elif name == "synthesize_tasks":
        from phoneworld.tasks import synthesize as module
    else:
        raise AttributeError(f"module 'phoneworld.tasks' has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value
    return value
