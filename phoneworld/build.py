"""Assembling a generated app from its spec: what `compile` and `build` share.

    spec (+ what it was inferred from) -> AppBundle -> codegen -> generated/<app>/ files

The values an app holds are worked out here, by running the spec: each screen rendered
in the initial state (its preview, and the skeleton replay recognises it by), the initial
data, the checker cases with verified demos, and the compile report. Codegen only
serialises the bundle.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from phoneworld.codegen.bundle import AppBundle, ScreenIndexEntry
from phoneworld.codegen.generate import REPORT, generate_app, spec_digest
from phoneworld.errors import CodegenError, SpecError
from phoneworld.ir.model import ScreenGraph
from phoneworld.runtime import Machine
from phoneworld.spec.ast import AppSpec
from phoneworld.spec.check import check
from phoneworld.spec.walk import views
from phoneworld.tasks.gentests import checker_cases
from phoneworld.tasks.synthesize import synthesize_tasks
from phoneworld.traces.model import Trace
from phoneworld.ui.bodies import bodies
from phoneworld.ui.dialogs import top_layer
from phoneworld.ui.skeleton import content_texts, selected_tabs, skeleton


def assemble(spec: AppSpec, *, graph: ScreenGraph | None = None, traces: Sequence[Trace] = (),
             provenance: Any = None, look_files: Mapping[str, bytes] | None = None,
             visual: dict | None = None) -> AppBundle:
    """The bundle of one app; `graph`, `traces` and `provenance` (from inference) only
    feed the compile report. `look_files` are the recorded look's files (`spec.look` is
    what they say, for the previews) and `visual` the report's section on them."""
    machine = Machine(spec)
    machine.reset()
    screens = []
    previews = []
    for s in spec.screens:
        node = top_layer(machine.preview(s.name, "node"))  # a dialog's own layer
        screens.append(ScreenIndexEntry(
            name=s.name, package=s.package, activity=s.activity, foreign=s.foreign,
            skeleton=tuple(sorted(skeleton(node))), tabs=tuple(sorted(selected_tabs(node))),
            texts=tuple(sorted(content_texts(node))),
            bodies=tuple(sorted(bodies(node, spec.width, spec.height)))))
        previews.append((s.name, machine.preview(s.name)))
    report = compile_report(spec, graph, traces, provenance)
    if visual is not None:
        report["visual"] = visual
    return AppBundle(spec=spec, screens=tuple(screens), initial_state=machine.dump_state(),
                     previews=tuple(previews), checker_cases=tuple(checker_cases(spec)),
                     report=report, look_files=dict(look_files or {}))


def build_app(spec: AppSpec, *, previous: Path | None = None) -> dict[str, bytes]:
    """The files of the app of a (hand-written or edited) spec.

    A spec without a task section gets the templates the compiler would synthesise for
    it (they are written into the app's spec.pw). A compile report in the `previous` app
    folder that describes this very spec (by its hash) is kept: it says what the spec was
    inferred from, which the spec alone cannot. Any other report is stale and is
    replaced by the spec's own counts.
    """
    if not spec.tasks:
        spec = with_tasks(spec, f"{spec.name} with synthesised tasks")
    files = generate_app(assemble(spec))
    old = _read_report(previous / REPORT) if previous is not None else None
    if old is not None and old.get("spec") == spec_digest(files["spec.pw"]):
        files[REPORT] = (previous / REPORT).read_bytes()
    return files


def with_tasks(spec: AppSpec, what: str) -> AppSpec:
    """`spec` with the task templates synthesised for it, checked; `what` says what the
    spec is ("the spec inferred for shopping") in the error, which is a compiler bug."""
    spec = dataclasses.replace(spec, tasks=synthesize_tasks(spec))
    try:
        check(spec, f"<{what}>")
    except SpecError as err:  # not the user's fault: say so, write nothing
        raise CodegenError(f"{what} is invalid (please report):\n{err}") from err
    return spec


def _read_report(path: Path) -> dict | None:
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def compile_report(spec: AppSpec, graph: ScreenGraph | None, traces: Sequence[Trace],
                   provenance: Any) -> dict:
    """Counts of what the app holds, the traces' warnings, and (after inference) where
    every screen, table, module and effect came from."""
    prio = Counter(s.priority for s in spec.screens)
    effects: Counter[str] = Counter(e.op for t in spec.transitions for e in t.effects)
    modules: Counter[str] = Counter(m for s in spec.screens for m in s.modules)
    warnings = [f"{t.source}: {w}" for t in traces for w in t.warnings]
    if provenance is not None:
        warnings += [f"transition dropped: {d}" for d in provenance.dropped]
    report = {
        "app": spec.name,
        "package": spec.package,
        "counts": {
            "traces": len(traces),
            "observations": sum(len(t.observations) for t in traces),
            "steps": sum(len(t.steps) for t in traces),
            "screens": len(spec.screens),
            "screens_by_priority": {p: prio.get(p, 0) for p in ("P0", "P1", "P2")},
            "foreign_screens": sum(1 for s in spec.screens if s.foreign),
            "transitions": len(spec.transitions),
            "recorded_transitions": len(graph.transitions) if graph else None,
            "content_tables": sum(1 for t in spec.tables if t.kind == "content"),
            "state_tables": sum(1 for t in spec.tables if t.kind == "state"),
            "entities": sum(len(t.rows) for t in spec.tables),
            "flags": len(spec.flags),
            "modules": dict(sorted(modules.items())),
            "effects": dict(sorted(effects.items())),
            "widgets": sum(1 for s in spec.screens for v in views(s.root) if v.name),
        },
        "warnings": warnings,
    }
    if graph is not None:
        # The app's frame as the recordings showed it (`ui.skeleton.chrome`): replay's
        # screen rule weighs it less. From the traces, so the report's, not the spec's.
        report["chrome"] = list(graph.chrome)
    if provenance is not None:
        report["provenance"] = {
            "screens": provenance.screens,
            "tables": provenance.tables,
            "modules": provenance.modules,
            "effects": provenance.effects,
        }
        if provenance.eras:  # what the mock leaves out: replay leaves those steps out too
            report["other_eras"] = [{"trace": source, **era}
                                    for source, era in provenance.eras.items()]
    return report
