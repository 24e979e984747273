"""Leave-one-out proxy: the tasks of every shared real app compiled from part of its recording.

    python benchmarks/halves.py [--real ../shared/traces] [--budget 0] [--only NAME]
                                [--parts N]

The acceptance is judged on apps nobody here has seen; a rule that holds on a whole
recording and breaks on a shorter one (a count, a title, a list seen once) will break
there too. Per folder of `--real` (`<format>/<app>`), the app is compiled from its whole
recording and from each of `--parts` (default 2: halves; 3, thirds, is a harder proxy)
equal parts of each trace's steps (the observations those steps touch, renumbered; a
trace without steps is cut by its observations), and for each the line says its screens,
task instances, their kinds and how many get a verified demo (demos tried in a fixed
random order for up to `--budget` seconds, 0 for all); under it, what was left out and
why (`dropped`: the observations, steps and breaks in them, each screen with no task and
why, each proposed template with no instance by the rule that dropped its drawings, demos
that failed). Screenshots are left out (the look does not change the tasks). Single
process; numbers, not timings, are the point.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from phoneworld.compiler import compile_app  # noqa: E402
from phoneworld.infer.screens import visited  # noqa: E402
from phoneworld.spec.ast import AppSpec  # noqa: E402
from phoneworld.tasks import make_demo  # noqa: E402
from phoneworld.tasks.instances import why_not  # noqa: E402
from phoneworld.tasks.labels import screen_labels  # noqa: E402
from phoneworld.tasks.reach import explore  # noqa: E402
from phoneworld.tasks.sample import instances  # noqa: E402
from phoneworld.tasks.synthesize import proposed  # noqa: E402
from phoneworld.traces.discover import find_traces, read_trace_folder  # noqa: E402
from phoneworld.traces.model import Trace  # noqa: E402


def part(trace: Trace, k: int, n: int) -> Trace:
    """The `k`-th of `n` parts of `trace` (0-based): its steps cut in `n` runs of near
    equal length (the earlier ones a step longer), with the observations they were taken
    on and led to, renumbered in their order; a trace with no steps is cut by its
    observations. Only the first part keeps the trace's instruction; none its answer."""
    if not trace.steps:
        return trace.model_copy(update={"observations": _cut(trace.observations, k, n)})
    steps = _cut(trace.steps, k, n)
    keep = sorted({i for s in steps for i in (s.before, s.after) if i is not None})
    new = {old: j for j, old in enumerate(keep)}
    steps = tuple(s.model_copy(update={"before": new[s.before],
                                       "after": new[s.after] if s.after is not None
                                       else None}) for s in steps)
    return trace.model_copy(update={"observations": tuple(trace.observations[i] for i in keep),
                                    "steps": steps,
                                    "instruction": trace.instruction if k == 0 else None,
                                    "answer": None})


def half(trace: Trace, second: bool) -> Trace:
    """The first (or second) half of `trace` (`part` of two)."""
    return part(trace, int(second), 2)


def _cut(seq: tuple, k: int, n: int) -> tuple:
    """The `k`-th of `n` runs of `seq`, near equal, the earlier ones longer (halves of
    five: three, then two)."""
    size, extra = divmod(len(seq), n)
    start = k * size + min(k, extra)
    return tuple(seq[start:start + size + (k < extra)])


def measure(name: str, traces: list[Trace], source: str, budget: float) -> str:
    """One line: screens, instances by kind and verified demos of the app `traces` make;
    then what was left out and why (`dropped`)."""
    if not any(t.observations for t in traces):
        return "empty: the recording has fewer observations than parts"
    try:
        app = compile_app(name, traces, source)
    except Exception as err:  # noqa: BLE001 - a benchmark reports and goes on
        return f"does not compile: {type(err).__name__}: {err}"
    spec = app.spec
    insts = instances(spec)
    start, verified, tried, failed = time.perf_counter(), Counter(), 0, Counter()
    for i in random.Random(0).sample(insts, len(insts)):
        if budget and time.perf_counter() - start > budget:
            break
        tried += 1
        d = make_demo([spec], i)
        if d is not None and d.verified:
            verified[i.kind] += 1
        else:
            failed["no plan found" if d is None else "replay not verified"] += 1
    screens = sum(1 for s in spec.screens if not s.foreign)
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(verified.items())) or "none"
    return (f"{screens:3d} screens | {len(insts):4d} instances | verified "
            f"{sum(verified.values()):4d} of {tried} ({len(verified)} kinds: {kinds})\n"
            + dropped(spec, traces, failed))


def dropped(spec: AppSpec, traces: list[Trace], failed: Counter) -> str:
    """What the recording holds and what of it yields no task, and why: observations,
    steps and breaks in them (a step that does not start where the last one ended: the
    recording enters the app again with no known way in); each screen of the app that no
    template is about (not reached from the start, no words a person would call it by);
    each proposed template with no instance, by the rule that left its drawings out
    (`instances.why_not`); demos that failed."""
    obs = sum(len(t.observations) for t in traces)
    steps = sum(len(t.steps) for t in traces)
    breaks = sum(visited(t).count(None) for t in traces)
    reach = explore(spec).screens
    labels = screen_labels(spec)
    offered = proposed(spec)
    kept = {t.name for t in spec.tasks}
    about = {screen for t, screen in offered if screen and t.name in kept}
    screens: Counter[str] = Counter()
    for s in spec.screens:
        if s.foreign or s.name in about:
            continue
        screens["the start" if s.name == spec.start else
                "not reached from the start" if s.name not in reach else
                "no label" if s.name not in labels else "named, no template kept"] += 1
    why: Counter[str] = Counter()
    for t, _ in offered:
        if t.name not in kept:
            for reason in why_not(spec, t) or Counter({"no drawing": 1}):
                why[f"{t.kind}: {reason}"] += 1
    said = lambda c: ", ".join(f"{k} {n}" for k, n in sorted(c.items())) or "none"  # noqa: E731
    return (f"{'':25}{obs} observations, {steps} steps, {breaks} breaks | screens with "
            f"no task: {said(screens)}\n{'':25}templates with no instance (by rule): "
            f"{said(why)} | demos failed: {said(failed)}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--real", default=str(ROOT.parent / "shared" / "traces"),
                   help="a folder of real traces, <format>/<app> (default ../shared/traces)")
    p.add_argument("--budget", type=float, default=0.0,
                   help="seconds of demos per app and part, 0 for all (default 0)")
    p.add_argument("--only", default="", help="only the folder of this name")
    p.add_argument("--parts", type=int, default=2,
                   help="cut each recording in this many parts (default 2: halves)")
    args = p.parse_args(argv)
    if args.parts < 1:
        p.error("--parts must be 1 or more")
    for folder in sorted(q for q in Path(args.real).glob("*/*") if q.is_dir()):
        if args.only and folder.name != args.only:
            continue
        traces = [t for fmt, loc in find_traces(folder, []) for t in
                  read_trace_folder(fmt, loc)]
        source = folder.name
        names = {2: ("first", "second"), 3: ("first", "second", "third")}.get(
            args.parts, tuple(f"{k + 1}/{args.parts}" for k in range(args.parts)))
        for name, ts in (("whole", traces), *((names[k], [part(t, k, args.parts)
                                                          for t in traces])
                                               for k in range(args.parts))):
            print(f"{folder.name:<18} {name:<6} {measure(folder.name, ts, source, args.budget)}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
