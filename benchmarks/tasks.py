"""Task throughput on the example apps, and the tasks of every shared real app.

    python benchmarks/tasks.py [--n 200] [--demos 60] [--real ../shared/traces] [--show 10]
                               [--budget 60] [--no-examples]

Per app of `generated/` and for the phone of all of them: how long synthesising the
templates and the first draw take (the reachability walk included: a one-off per app),
then tasks/s for `sample_tasks` once warm, and demos/s for `make_demo` (plan, replay,
verify) over the first `--demos` sampled instances, with the share verified.

Then every real app under `--real` (each folder of `../shared/traces/<format>/`, compiled
afresh): its screens, task templates, instances by kind, how many of them get a verified
demo (demos tried in a fixed random order for up to `--budget` seconds per app: the
planner takes seconds per demo on a big app), and `--show` instructions drawn at random
among the verified ones, to be read as the app's user would; at the end the median of
verified instances over the apps, and which apps of five screens or more have fewer than
30 of three kinds.
Single process; numbers vary with the machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from phoneworld.apps import find_apps, load_app  # noqa: E402
from phoneworld.tasks import make_demo, sample_tasks  # noqa: E402


def _measure(name: str, specs: list, n: int, demos: int) -> None:
    start = time.perf_counter()
    sample_tasks(specs, n, 0)  # synthesis, reachability walks and draws: cached after this
    cold = time.perf_counter() - start
    start, rounds, count = time.perf_counter(), 0, 0
    while time.perf_counter() - start < 1.0 or rounds < 3:
        count += len(sample_tasks(specs, n, rounds))
        rounds += 1
    warm = count / (time.perf_counter() - start)
    tasks = sample_tasks(specs, demos, 0)
    start = time.perf_counter()
    verified = sum(bool(d and d.verified) for d in (make_demo(specs, t) for t in tasks))
    took = time.perf_counter() - start
    print(f"{name:<28} first draw {cold:6.2f} s | {warm:8.0f} tasks/s | "
          f"{len(tasks) / took:6.1f} demos/s | verified {verified}/{len(tasks)} "
          f"({100 * verified / max(1, len(tasks)):.0f}%)")


def _real(folder: Path, show: int, budget: float) -> tuple[str, int, int, int] | None:
    """Compile one shared real app and print its tasks; (name, screens, verified, kinds)."""
    from phoneworld.compiler import compile_traces
    from phoneworld.tasks.sample import instances, templates

    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        try:
            (app,) = compile_traces(folder, Path(out))
        except Exception as err:  # noqa: BLE001 - a benchmark reports and goes on
            print(f"{folder.name:<18} does not compile: {type(err).__name__}: {err}")
            return None
        took = time.perf_counter() - start
    spec = app.spec
    screens = sum(1 for s in spec.screens if not s.foreign)
    insts = instances(spec)
    # Demos in a fixed random order until `budget` seconds are spent (a planner search on
    # a big app takes seconds each): "verified N of T tried" says how far it got.
    order = random.Random(0).sample(insts, len(insts))
    start = time.perf_counter()
    verified, tried = [], 0
    for i in order:
        if budget and time.perf_counter() - start > budget:
            break
        tried += 1
        d = make_demo([spec], i)
        if d is not None and d.verified:
            verified.append(i)
    plan_s = time.perf_counter() - start
    kinds = Counter(i.kind for i in verified)
    print(f"{spec.name:<18} {screens:3d} screens | {len(templates(spec)):3d} templates | "
          f"{len(insts):4d} instances ({_by_kind(Counter(i.kind for i in insts))}) | "
          f"verified {len(verified):4d} of {tried} tried ({_by_kind(kinds)}) | "
          f"compile {took:.1f} s, demos {plan_s:.1f} s")
    for i in random.Random(0).sample(verified, min(show, len(verified))):
        print(f"    {i.kind:<12} {i.instruction}")
    return spec.name, screens, len(verified), len(kinds)


def _by_kind(counts: Counter) -> str:
    return ", ".join(f"{k} {n}" for k, n in sorted(counts.items())) or "none"


def _reals(root: Path, show: int, budget: float) -> None:
    print(f"\nreal apps under {root}:")
    results = [r for f in sorted(p for p in root.glob("*/*") if p.is_dir())
               if (r := _real(f, show, budget)) is not None]
    if not results:
        return
    median = statistics.median(v for _, _, v, _ in results)
    short = [n for n, screens, v, k in results if screens >= 5 and (v < 30 or k < 3)]
    print(f"median verified instances per app: {median:g} over {len(results)} apps "
          f"(a floor where the budget stopped the demos); apps of >= 5 screens under 30 "
          f"verified of 3 kinds: {', '.join(short) or 'none'}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=200, help="instances per draw (default 200)")
    p.add_argument("--demos", type=int, default=60, help="demos to plan (default 60)")
    p.add_argument("--real", default=str(ROOT.parent / "shared" / "traces"),
                   help="a folder of real traces, <format>/<app> (default ../shared/traces)")
    p.add_argument("--show", type=int, default=10, help="instructions shown per real app")
    p.add_argument("--budget", type=float, default=60.0,
                   help="seconds of demos per real app, 0 for all (default 60)")
    p.add_argument("--no-examples", action="store_true", help="only the real apps")
    p.add_argument("apps", nargs="?", default=str(ROOT / "generated"))
    args = p.parse_args(argv)
    if args.no_examples:
        _reals(Path(args.real), args.show, args.budget)
        return 0
    specs = [load_app(a).spec for a in find_apps(args.apps)]
    for spec in specs:
        _measure(spec.name, [spec], args.n, args.demos)
    if len(specs) > 1:
        _measure("phone (" + ", ".join(s.name for s in specs) + ")", specs, args.n,
                 args.demos)
    if Path(args.real).is_dir():
        _reals(Path(args.real), args.show, args.budget)
    return 0


if __name__ == "__main__":
    sys.exit(main())
