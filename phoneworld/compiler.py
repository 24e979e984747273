"""`phoneworld compile`: traces in, one generated app per recorded app out.

    traces/shopping/*, traces/messages/*  ->  generated/shopping/, generated/messages/

Reading, abstraction, inference and code generation are pure; every app is generated
into memory first and written only when all of them succeeded, each folder replaced
atomically and all of them or none, so a failure leaves no half-written output.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from phoneworld.build import assemble, with_tasks
from phoneworld.codegen.files import (
    check_app_folder,
    check_output_root,
    clean_leftovers,
    write_tree,
    write_trees,
)
from phoneworld.codegen.generate import generate_app
from phoneworld.infer.app import infer_app
from phoneworld.infer.facts import step_facts
from phoneworld.infer.graph import build_graph
from phoneworld.infer.layout import identifier
from phoneworld.spec.ast import AppSpec
from phoneworld.traces.discover import find_traces, read_trace_folder
from phoneworld.traces.model import Trace
from phoneworld.visual.build import build_look, recordings_by_screen


@dataclass(frozen=True)
class CompiledApp:
    name: str
    spec: AppSpec
    files: dict[str, bytes]
    report: dict
    recordings: dict = field(default_factory=dict, compare=False, repr=False)
    """Screen name -> its recordings with screenshots (`visual.build.Recording`)."""


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


def compile_app(name: str, traces: list[Trace], source: str,
                folders: list[Path | None] | None = None) -> CompiledApp:
    """Compile one app's traces; `folders[i]` is where `traces[i]` was read from (for its
    screenshots)."""
    steps = step_facts(traces)  # read once, for the graph and every inference pass
    graph = build_graph(name, traces, steps)
    spec, prov = infer_app(name, graph, traces, steps)
    spec = with_tasks(dataclasses.replace(spec, source=source), f"the spec inferred for {name}")
    # The recorded look: screens drawn from their screenshots, where there are any.
    recs = recordings_by_screen(prov.screens, traces, folders or [None] * len(traces))
    look, look_files, visual = build_look(spec, recs, origin=source)
    spec = dataclasses.replace(spec, look=look)
    bundle = assemble(spec, graph=graph, traces=traces, provenance=prov, look_files=look_files,
                      visual=visual if any(recs.values()) else None)
    return CompiledApp(name=name, spec=spec, files=generate_app(bundle), report=bundle.report,
                       recordings=recs)


def compile_traces(path: Path, out: Path, *, specs: Path | None = None,
                   progress: Callable[[str], None] | None = None,
                   warn: Callable[[str], None] | None = None) -> list[CompiledApp]:
    """Compile every app recorded under `path` into `out/<app>/`.

    Refuses (`OutputError`) an `out` or `specs` folder that is a file or lies inside the
    input, and an `out/<app>/` that phoneworld did not write, before anything is written.
    """
    path, out = Path(path), Path(out)
    check_output_root(out, [path])
    if specs is not None:
        check_output_root(specs, [path])
    clean_leftovers(out)  # of killed runs: before anything reads or writes `out`
    located = []
    skipped: list[str] = []
    found = find_traces(path, skipped)
    for note in skipped:
        if warn:
            warn(note)
    for fmt, loc in found:
        if progress:
            progress(f"reading {loc}")
        located.append((loc, read_trace_folder(fmt, loc)))
    apps = []
    # Traces are named by where they lie under the input's own name, never by absolute
    # paths, so the output does not depend on where the compiler was run from.
    located = [(loc, [t.model_copy(update={"source": _display(path, loc)}) for t in traces])
               for loc, traces in located]
    groups = group_by_app(path, located)
    for name in groups:  # refuse before the work, not after it
        check_app_folder(out / name, [path])
    folder_of = {id(t): loc for loc, traces in located for t in traces}
    for name, items in groups.items():
        if progress:
            progress(f"compiling {name} ({len(items)} traces)")
        common = _common_folder([r for r, _ in items])
        name_ = path.resolve().name
        source = (PurePosixPath(name_) / common).as_posix() if common not in ("", ".") \
            else name_
        apps.append(compile_app(name, [t for _, t in items], source,
                                [folder_of.get(id(t)) for _, t in items]))
    write_trees({out / app.name: app.files for app in apps}, inputs=[path])
    if specs is not None:
        write_tree(specs, {f"{app.name}.pw": app.files["spec.pw"] for app in apps},
                   replace=False, inputs=[path])
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
        for era in app.report.get("other_eras", ()):  # what the mock leaves out
            lines.append(f"{'':14s} {era['note']}")
        visual = app.report.get("visual")
        if visual:  # the recorded look (#22)
            a = visual["assets"]
            lines.append(f"{'':14s} look: {visual['screens']} of {visual['of']} screens drawn "
                         f"on their screenshots, {a['bytes'] / 1e6:.2f} MB of assets "
                         f"(cap {a['cap'] / 1e6:.0f} MB); see {visual.get('comparison', '-')}")
    lines.append(f"{len(apps)} apps written to {out}; {total_warn} warnings "
                 f"(see each app's compile_report.json)")
    return "\n".join(lines)
