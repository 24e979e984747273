"""`phoneworld compile`: traces in, one generated app per recorded app out.

    traces/shopping/*, traces/messages/*  ->  generated/shopping/, generated/messages/

Reading, abstraction, inference and code generation are pure; every app is generated
into memory first and written only when all of them succeeded, each folder replaced
atomically, so a failure leaves no half-written output.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from phoneworld.codegen.files import write_tree
from phoneworld.codegen.generate import generate_app
from phoneworld.errors import CodegenError, SpecError
from phoneworld.infer.app import infer_app
from phoneworld.infer.facts import step_facts
from phoneworld.infer.graph import build_graph
from phoneworld.infer.layout import identifier
from phoneworld.spec.ast import AppSpec
from phoneworld.spec.check import check
from phoneworld.traces.discover import find_traces, read_trace_folder
from phoneworld.traces.model import Trace


@dataclass(frozen=True)
class CompiledApp:
    name: str
    spec: AppSpec
    files: dict[str, bytes]
    report: dict


def group_by_app(root: Path, located: list[tuple[Path, list[Trace]]]
                 ) -> dict[str, list[tuple[str, Trace]]]:
    """App name -> [(trace location relative to root, trace)], by package.

    The name is the first folder under `root` that holds the app's traces, or, where
    several apps share that folder, the folder that holds only this app's traces.
    """
    by_pkg: dict[str, list[tuple[str, Trace]]] = defaultdict(list)
    for loc, traces in located:
        rel = _rel(root, loc)
        for t in traces:
            by_pkg[t.app or "unknown"].append((rel, t))
    first: dict[str, set[str]] = defaultdict(set)
    for pkg, items in by_pkg.items():
        for rel, _ in items:
            first[rel.split("/", 1)[0] if rel != "." else root.name].add(pkg)
    names: dict[str, list[tuple[str, Trace]]] = {}
    for pkg in sorted(by_pkg):
        items = by_pkg[pkg]
        rels = [r for r, _ in items]
        top = {r.split("/", 1)[0] if r != "." else root.name for r in rels}
        if len(top) == 1 and len(first[next(iter(top))]) == 1:
            name = next(iter(top))
        else:
            common = _common_folder(rels)
            name = common.rsplit("/", 1)[-1] if common not in ("", ".") else \
                pkg.rsplit(".", 1)[-1]
        name = identifier(name, "app")
        while name in names:
            name += "_2"
        names[name] = items
    return names


def _display(root: Path, loc: Path) -> str:
    rel = _rel(root, loc)
    return root.resolve().name if rel == "." else f"{root.resolve().name}/{rel}"


def _rel(root: Path, loc: Path) -> str:
    try:
        rel = loc.resolve().relative_to(root.resolve())
    except ValueError:
        return loc.name
    return PurePosixPath(*rel.parts).as_posix() if rel.parts else "."


def _common_folder(rels: list[str]) -> str:
    parts = [r.split("/") for r in rels]
    common = []
    for level in zip(*parts, strict=False):
        if len(set(level)) != 1:
            break
        common.append(level[0])
    return "/".join(common)


def compile_app(name: str, traces: list[Trace], source: str) -> CompiledApp:
    steps = step_facts(traces)  # read once, for the graph and every inference pass
    graph = build_graph(name, traces, steps)
    spec, prov = infer_app(name, graph, traces, steps)
    spec = dataclasses.replace(spec, source=source)
    from phoneworld.tasks import synthesize_tasks

    spec = dataclasses.replace(spec, tasks=synthesize_tasks(spec))
    try:
        check(spec, f"<spec inferred for {name}>")
    except SpecError as err:  # a compiler bug, not the user's: say so, write nothing
        raise CodegenError(f"the spec inferred for {name} is invalid (please report):\n{err}"
                           ) from err
    files, report = generate_app(spec, graph=graph, traces=traces, provenance=prov)
    return CompiledApp(name=name, spec=spec, files=files, report=report)


def compile_traces(path: Path, out: Path, *, specs: Path | None = None,
                   progress: Callable[[str], None] | None = None) -> list[CompiledApp]:
    """Compile every app recorded under `path` into `out/<app>/`."""
    path = Path(path)
    located = []
    for fmt, loc in find_traces(path):
        if progress:
            progress(f"reading {loc}")
        located.append((loc, read_trace_folder(fmt, loc)))
    apps = []
    # Traces are named by where they lie under the input's own name, never by absolute
    # paths, so the output does not depend on where the compiler was run from.
    located = [(loc, [t.model_copy(update={"source": _display(path, loc)}) for t in traces])
               for loc, traces in located]
    for name, items in group_by_app(path, located).items():
        if progress:
            progress(f"compiling {name} ({len(items)} traces)")
        common = _common_folder([r for r, _ in items])
        name_ = path.resolve().name
        source = (PurePosixPath(name_) / common).as_posix() if common not in ("", ".") \
            else name_
        apps.append(compile_app(name, [t for _, t in items], source))
    for app in apps:
        write_tree(out / app.name, app.files)
        if specs is not None:
            write_tree(specs, {f"{app.name}.pw": app.files["spec.pw"]}, replace=False)
    return apps


def format_summary(apps: list[CompiledApp], out: Path) -> str:
    """The one-screen summary `phoneworld compile` ends with."""
    lines = []
    total_warn = 0
    for app in apps:
        c = app.report["counts"]
        p = c["screens_by_priority"]
        mods = ", ".join(f"{k} {v}" for k, v in c["modules"].items()) or "none"
        warn = len(app.report["warnings"])
        total_warn += warn
        lines.append(f"{app.name:14s} {c['screens']:3d} screens (P0 {p['P0']}, P1 {p['P1']}, "
                     f"P2 {p['P2']}), {c['transitions']} transitions, {c['entities']} "
                     f"entities, {c['flags']} flags, {warn} warnings")
        lines.append(f"{'':14s} modules: {mods}")
    lines.append(f"{len(apps)} apps written to {out}; {total_warn} warnings "
                 f"(see each app's compile_report.json)")
    return "\n".join(lines)
