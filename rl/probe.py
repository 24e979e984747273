"""Which training tasks RL should play: those the SFT policy half-solves, measured first.

    found = probe(tasks, n=48, samples=4, seed=0, play=lambda groups, size, seed: episodes)
    found.pool       # the probed tasks with 0 < p < 1 (each played `samples` times)
    found.success    # {task id: p}

A group teaches only when its episodes disagree, so before the first RL iteration `n`
training tasks (one per template in turn, `spread`) are each played `samples` times as
the rollouts will play them, and the pool RL draws its mock groups from is those the
policy solved sometimes but not always; the measured results also prime the
`rl.grpo.Curriculum`. When fewer than `least` tasks are half-solved, every probed task
the policy solved at least once is kept, then every training task (a policy that
solves nothing gives RL nothing to reinforce either way).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rl.grpo import template_of
from rl.rollout import Episode


def kind_of(task: Any) -> str:
    """A task's kind (`navigation`, `information`, ...), or "" when it has none."""
    return str(getattr(task, "kind", "") or "")


def spread(tasks: Sequence[Any], n: int, seed: int) -> list[Any]:
    """`n` of `tasks`, a template at a time: one instance of every template (kinds taking
    turns) before a second of any, each template's instances in a seeded order."""
    rng = random.Random(f"probe/{seed}")
    by: dict[str, list[Any]] = {}
    for t in tasks:
        by.setdefault(template_of(t), []).append(t)
    for v in by.values():
        rng.shuffle(v)
    kinds: dict[str, list[str]] = {}
    for name in sorted(by):
        kinds.setdefault(kind_of(by[name][0]), []).append(name)
    for v in kinds.values():
        rng.shuffle(v)
    order = []  # templates, kinds taking turns
    while any(kinds.values()):
        for k in sorted(kinds):
            if kinds[k]:
                order.append(kinds[k].pop())
    out: list[Any] = []
    depth = 0
    while len(out) < n and any(len(by[t]) > depth for t in order):
        out += [by[t][depth] for t in order if len(by[t]) > depth][:n - len(out)]
        depth += 1
    return out


@dataclass
class Probed:
    """What a probe found: the RL pool, success per probed task id, the probed tasks (in
    the order of their episodes' groups) and the episodes."""

    pool: list[Any]
    success: dict[str, float] = field(default_factory=dict)
    chosen: list[Any] = field(default_factory=list)
    episodes: list[Episode] = field(default_factory=list)


def probe(tasks: Sequence[Any], *, n: int, samples: int, seed: int,
          play: Callable[[list[tuple[Any, int]], int, int], list[Episode]],
          least: int = 1) -> Probed:
    """Measure and choose (see the module docstring). `play(groups, size, seed)` plays
    `size` episodes of every (task, group)."""
    chosen = spread(tasks, n, seed)
    if not chosen or samples < 1:
        return Probed(list(tasks))
    eps = play([(t, g) for g, t in enumerate(chosen)], samples, seed)
    wins: dict[int, list[float]] = {}
    for e in eps:
        wins.setdefault(e.group, []).append(e.reward)
    p = {chosen[g].id: sum(r) / len(r) for g, r in sorted(wins.items())}
    half = [t for t in chosen if 0.0 < p.get(t.id, 0.0) < 1.0]
    some = [t for t in chosen if p.get(t.id, 0.0) > 0.0]
    pool = half if len(half) >= least else some if len(some) >= least else list(tasks)
    return Probed(pool, p, chosen, eps)


def balanced(weight: Callable[[Any], float] | None, pool: Sequence[Any]
             ) -> Callable[[Any], float]:
    """`weight` divided by how many tasks of the pool share a task's kind: every kind
    draws the same share of groups whatever its number of tasks (a curriculum across
    kinds, the templates the policy half-solves first within each)."""
    count: dict[str, int] = {}
    for t in pool:
        count[kind_of(t)] = count.get(kind_of(t), 0) + 1

    def w(task: Any) -> float:
        return (weight(task) if weight else 1.0) / max(1, count.get(kind_of(task), 1))

    return w


def save(path: Path, pool: Sequence[Any], p: dict[str, float]) -> None:
    """Write the probe's results (`probe.json`): success per task and the pool's ids."""
    path.write_text(json.dumps({"success": p, "pool": [t.id for t in pool]}, indent=1,
                               sort_keys=True))


def load(path: Path, tasks: Sequence[Any]) -> list[Any] | None:
    """The pool a saved probe chose (a resumed run plays what it would have), if any."""
    if not path.is_file():
        return None
    ids = json.loads(path.read_text())["pool"]
    by = {t.id: t for t in tasks}
    return [by[i] for i in ids if i in by] or None
