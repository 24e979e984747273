"""Compiler speed: observations/s through screen abstraction, seconds per app end to end,
and the compiled runtime's step rate and reset time.

    python benchmarks/compile.py [PATH ...]   (default: traces/ and each ../shared/traces folder)

Targets (issue: compiler): >= 2,000 observations/s per core through abstraction; < 5 s
per example app and per shared trace folder; runtime step >= 10,000/s in-process;
reset <= 1 ms. Single process, so figures are per core.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

from phoneworld.apps import find_apps, load_app
from phoneworld.compiler import compile_traces
from phoneworld.infer.screens import group_observations
from phoneworld.runtime import Machine
from phoneworld.traces import read_traces

ROOT = Path(__file__).resolve().parents[1]


def _best(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def bench_runtime(app_dir: Path, steps: int = 20000) -> tuple[float, float]:
    spec = load_app(app_dir).spec
    m = Machine(spec)
    m.reset()
    rng = random.Random(0)
    actions = [{"action_type": "navigate_back"}, {"action_type": "scroll", "direction": "down"}]
    t = time.perf_counter()
    for i in range(steps):
        if i % 50 == 0:
            m.reset()
        els = m.observe("elements") if i % 10 == 0 else None
        if els:
            m.step({"action_type": "click", "index": rng.randrange(len(els))})
        else:
            m.step(rng.choice(actions))
    rate = steps / (time.perf_counter() - t)
    n = 2000
    t = time.perf_counter()
    for _ in range(n):
        m.reset()
    return rate, (time.perf_counter() - t) / n * 1000


def main(argv: list[str]) -> int:
    shared = ROOT.parent / "shared" / "traces"
    paths = [Path(p) for p in argv] or [ROOT / "traces"] + (
        sorted(p for p in shared.glob("*/*") if p.is_dir()) if shared.is_dir() else [])
    for path in paths:
        traces = read_traces(path)
        n_obs = sum(len(t.observations) for t in traces)
        secs = _best(lambda traces=traces: group_observations(traces))
        with tempfile.TemporaryDirectory() as tmp:
            whole = _best(lambda path=path, tmp=tmp: compile_traces(path, Path(tmp)), 1)
            apps = find_apps(tmp)
            print(f"{path}: {len(apps)} app(s), {n_obs} observations; abstraction "
                  f"{n_obs / secs:,.0f} obs/s; compile {whole:.2f} s end to end")
            for app in apps:
                rate, reset_ms = bench_runtime(app)
                print(f"   {app.name}: runtime {rate:,.0f} steps/s (a tenth of them read the "
                      f"element list), reset {reset_ms:.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
