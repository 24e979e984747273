"""Specs for the task tests: the example apps and the test shop, with their task sections.

The compiler does not write task sections yet, so each spec gets its synthesised templates
here, as `compile_app` will give them (a spec that has a task section keeps it).
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

from phoneworld.apps import load_app
from phoneworld.spec.ast import AppSpec
from phoneworld.spec.check import load
from phoneworld.tasks import synthesize_tasks
from tests.conftest import DATA, ROOT

EXAMPLES = ("shopping", "messages", "settings")
GENERATED = ROOT / "generated"


def with_tasks(spec: AppSpec) -> AppSpec:
    return spec if spec.tasks else dataclasses.replace(spec, tasks=synthesize_tasks(spec))


@lru_cache(maxsize=8)
def example(app: str) -> AppSpec:
    """An example app of `generated/`, with its task templates."""
    return with_tasks(load_app(GENERATED / app).spec)


@lru_cache(maxsize=1)
def tiny_shop() -> AppSpec:
    """tests/data/specs/tasks_shop.pw: a cart, switches and flags, with its templates."""
    return with_tasks(load(DATA / "specs" / "tasks_shop.pw"))


def phone_specs() -> list[AppSpec]:
    return [example(a) for a in EXAMPLES]
