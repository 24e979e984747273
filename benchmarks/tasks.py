"""Task throughput on the example apps: instances drawn per second, verified demos per second.

    python benchmarks/tasks.py [--n 200] [--demos 60]

Per app of `generated/` and for the phone of all of them: how long synthesising the
templates and the first draw take (the reachability walk included: a one-off per app),
then tasks/s for `sample_tasks` once warm, and demos/s for `make_demo` (plan, replay,
verify) over the first `--demos` sampled instances, with the share verified.
Single process; numbers vary with the machine.
"""

from __future__ import annotations

import argparse
import sys
import time
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


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=200, help="instances per draw (default 200)")
    p.add_argument("--demos", type=int, default=60, help="demos to plan (default 60)")
    p.add_argument("apps", nargs="?", default=str(ROOT / "generated"))
    args = p.parse_args(argv)
    specs = [load_app(a).spec for a in find_apps(args.apps)]
    for spec in specs:
        _measure(spec.name, [spec], args.n, args.demos)
    if len(specs) > 1:
        _measure("phone (" + ", ".join(s.name for s in specs) + ")", specs, args.n,
                 args.demos)
    return 0


if __name__ == "__main__":
    sys.exit(main())
