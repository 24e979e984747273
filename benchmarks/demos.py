"""CPU time of the SFT demos `phoneworld train` makes, per stage, and a digest of them.

    python benchmarks/demos.py [--tasks 2400] [--seed 0] [--apps generated ...]
                               [--workers 0] [--profile 30]

Draws the instances a default `phoneworld train --tasks N --seed S` trains on
(`rl.data.split`, held-out ones left out) and times `rl.data.demo_examples` on them with
the train defaults (`rl.config.TrainConfig`: androidworld, history 6, reason, alone,
task_last). With `--workers 0`
(the default) it runs in this process and splits `time.process_time` into stages:

    planning      phoneworld.tasks.planner.plan (its search: stepping the app, restoring
                  snapshots, keying states, listing candidate actions, testing the goal;
                  "state graph": naming whole states in `tasks.stategraph`, where the
                  steps an earlier search took are found instead of stepped again)
    verification  the rest of tasks.demos.make_demo (two replays on fresh machines)
    staging       rl.data.stage (a task asked in its app alone: found again by its id)
    rendering     rl.data.replay_examples (one chat example per demo step)

With `--workers N` it times the wall clock of N spawned processes, start-up included.
The digest is the sha256 of the examples' JSON: equal digests, equal examples, byte for
byte. `--apps` takes generated app folders (or folders of them), e.g. mocks compiled from
the shared real traces (`phoneworld compile ../shared/traces/droidbot/onelist -o /tmp/o`).
`--profile K` prints cProfile's top K functions by own time (slower).
Numbers vary with the machine and its load.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rl import data  # noqa: E402
from rl.config import TrainConfig  # noqa: E402

SPENT: dict[str, float] = defaultdict(float)
CALLS: dict[str, int] = defaultdict(int)
_open: list[str] = []


def _timed(owner: object, attr: str, stage: str) -> None:
    """Wrap `owner.attr` so its own CPU time (callees timed apart left out) adds to
    `stage`."""
    f = getattr(owner, attr)

    def wrapper(*args, **kwargs):
        start = time.process_time()
        _open.append(stage)
        try:
            return f(*args, **kwargs)
        finally:
            _open.pop()
            took = time.process_time() - start
            SPENT[stage] += took
            CALLS[stage] += 1
            if _open:
                SPENT[_open[-1]] -= took  # own time only: the caller's stage loses it

    wrapper.__wrapped__ = f  # type: ignore[attr-defined]
    setattr(owner, attr, wrapper)


def _instrument() -> None:
    import phoneworld.tasks
    from phoneworld.tasks import demos, planner, world

    _timed(data, "stage", "staging")
    _timed(data, "replay_examples", "rendering")
    _timed(phoneworld.tasks, "make_demo", "verification")
    _timed(demos, "plan", "planning: rest")
    _timed(planner, "search", "planning: search rest")  # the name plan calls it by
    for attr, stage in (("step", "step"), ("restore", "restore"), ("snapshot", "snapshot"),
                        ("key", "key"), ("node", "state graph")):
        _timed(world.World, attr, f"planning: {stage}")
    _timed(world, "candidate_actions", "planning: candidate actions")


TRAIN = TrainConfig()
"""`phoneworld train`'s defaults: how its demos are drawn and played."""


def _draw(apps: list[str], n: int, seed: int) -> tuple[list, list]:
    specs = data.load_specs(apps)
    tasks, _ = data.split(specs, n, TRAIN.eval_tasks, seed)
    return specs, tasks


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tasks", type=int, default=2400)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--apps", nargs="+", default=[str(ROOT / "generated")])
    p.add_argument("--workers", type=int, default=0)
    p.add_argument("--profile", type=int, default=0)
    args = p.parse_args(argv)
    specs, tasks = _draw(args.apps, args.tasks, args.seed)
    print(f"{len(tasks)} instances on {', '.join(s.name for s in specs)}")
    kw = dict(fmt=TRAIN.format, k=TRAIN.history, reason=TRAIN.reason, alone=TRAIN.alone,
              task_last=TRAIN.task_last, anchored=TRAIN.anchored)
    if args.workers == 0 and not args.profile:
        _instrument()
    prof = None
    if args.profile:
        import cProfile

        prof = cProfile.Profile()
        prof.enable()
    wall, cpu = time.perf_counter(), time.process_time()
    examples = data.demo_examples(specs, tasks, workers=args.workers, **kw)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if prof is not None:
        import pstats

        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(args.profile)
    digest = hashlib.sha256(json.dumps(examples, sort_keys=True).encode()).hexdigest()
    print(f"{len(examples)} examples, digest {digest}")
    print(f"wall {wall:.1f} s, CPU of this process {cpu:.1f} s (workers {args.workers})")
    if SPENT:
        for stage in sorted(SPENT):
            print(f"  {stage:<32} {SPENT[stage]:8.2f} s  {CALLS[stage]:9d} calls")
        plan = sum(v for k, v in SPENT.items() if k.startswith("planning"))
        print(f"  {'planning (all)':<32} {plan:8.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
