"""The cases of an app's own property tests (`generated/<app>/tests/`).

    checker_cases(spec) -> [{"id": "shopping/add_to_cart#…", "actions": [...], ...}, ...]

The cases are task instances (one per template, kinds in turn, at most `MAX_CASES`) with
their verified demos and what each demo achieved (`properties.record_case`). Codegen
writes them with a test module (`codegen.checker_tests`) that holds every case's
checker, as the spec on disk states it, to the properties of `properties`: complete,
sound against the oracle on hypothesis-drawn walks, deterministic, false after a reset.
The cases are the same for the same spec.
"""

from __future__ import annotations

from phoneworld.spec.ast import AppSpec
from phoneworld.tasks.demos import make_demo
from phoneworld.tasks.instances import KINDS, TaskInstance, draw
from phoneworld.tasks.properties import record_case
from phoneworld.tasks.sample import templates

MAX_CASES = 18
COMPOSITES = 4


def checker_cases(spec: AppSpec) -> list[dict]:
    """The cases of the app's own checker tests: picked instances whose demos verified,
    with what each demo achieved (`properties.record_case`), as JSON-ready dicts."""
    cases = []
    for inst in pick_cases(spec):
        demo = make_demo([spec], inst)
        if demo is not None and demo.verified:
            cases.append(record_case(spec, inst, demo).as_dict())
    return cases


def pick_cases(spec: AppSpec, limit: int = MAX_CASES) -> list[TaskInstance]:
    """One instance per template (its first), at most `limit`: the single goals first,
    kinds taking turns, then up to `COMPOSITES` composite ones."""
    by_kind: dict[str, list[TaskInstance]] = {}
    for t in templates(spec):
        found = draw(spec, t)
        if found:
            by_kind.setdefault(t.kind, []).append(found[0])
    composite = by_kind.pop("composite", [])[:COMPOSITES]
    out: list[TaskInstance] = []
    while len(out) < limit - len(composite) and any(by_kind.values()):
        for kind in KINDS:
            if by_kind.get(kind) and len(out) < limit - len(composite):
                out.append(by_kind[kind].pop(0))
    return out + composite
