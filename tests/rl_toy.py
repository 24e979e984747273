"""Stand-in navigation tasks for the rl tests: small, fast, and one kind only.

    tasks = sample_tasks(specs, 50, seed=0)   # "Open Cart." ... checked by the screen shown
    make_demo(specs, tasks[0]).steps          # shortest clicks there, then status complete

A breadth-first search over clicks (at most `DEPTH` deep) from each app's start screen
finds the screens one can reach; a task asks to open one, in words taken from the element
clicked last. Same contract as `phoneworld.tasks` (`id, kind, instruction, apps, params,
template, check(target)`), much smaller.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

DEPTH = 2
PHRASES = ("Open {x}.", "Go to {x}.", "Show me {x}.", "Navigate to {x}.")


@dataclass(frozen=True)
class Verdict:
    success: bool
    reason: str = ""


@dataclass(frozen=True)
class ToyTask:
    """Open the screen `params["screen"]` of app `apps[0]`."""

    id: str
    instruction: str
    apps: tuple[str, ...]
    params: dict[str, Any] = field(default_factory=dict, hash=False)
    kind: str = "navigation"
    template: str = "open_screen"

    def check(self, target: Any) -> Verdict:
        app, want = self.apps[0], self.params["screen"]
        machines = getattr(target, "machines", None)
        if machines is not None:
            ok = target.foreground == app and machines[app].screen == want
            now = target.screen
        else:
            ok, now = target.screen == want, target.screen
        return Verdict(ok, f"screen is {now}, wanted {app}:{want}")


@dataclass(frozen=True)
class ToyDemo:
    steps: tuple[dict[str, Any], ...]
    verified: bool = True


@lru_cache(maxsize=16)
def _routes(spec: Any) -> tuple[tuple[str, str, tuple[dict[str, Any], ...]], ...]:
    """(screen, label, clicks) for each screen reachable by clicks from the start."""
    from phoneworld.runtime import Machine

    m = Machine(spec)
    start = m.reset(0)
    seen = {m.screen}
    frontier = [(m.snapshot(), (), start.elements)]
    out = []
    for _ in range(DEPTH):
        nxt = []
        for snap, path, els in frontier:
            for e in els:
                if not e.get("clickable"):
                    continue
                m.restore(snap)
                o = m.step({"action_type": "click", "index": e["index"]})
                label = _label(e, els)
                if m.screen in seen or not label or m.left_app:
                    continue
                seen.add(m.screen)
                p = (*path, {"action_type": "click", "index": e["index"]})
                out.append((m.screen, label, p))
                nxt.append((m.snapshot(), p, o.elements))
        frontier = nxt
    return tuple(out)


def _label(e: dict[str, Any], els: list[dict[str, Any]]) -> str:
    """The words on a clickable element: its own, or those of the first text inside it."""
    own = e.get("text") or e.get("content_desc")
    if own:
        return str(own)
    b = e.get("bounds") or [0, 0, 0, 0]
    for o in els:
        ob = o.get("bounds") or [0, 0, 0, 0]
        if o.get("text") and b[0] <= ob[0] and ob[2] <= b[2] and b[1] <= ob[1] and ob[3] <= b[3]:
            return str(o["text"])
    return ""


def all_tasks(specs: list[Any]) -> list[ToyTask]:
    out = []
    for spec in specs:
        for screen, label, _ in _routes(spec):
            for i, p in enumerate(PHRASES):
                out.append(ToyTask(f"{spec.name}/open_{screen}#{i}", p.format(x=label),
                                   (spec.name,), {"screen": screen}))
    return out


def sample_tasks(specs: list[Any], n: int, seed: int) -> list[ToyTask]:
    """`n` instances drawn with `seed` (with repetition when there are fewer)."""
    pool = all_tasks(specs)
    rng = random.Random(seed)
    return [pool[rng.randrange(len(pool))] for _ in range(n)] if pool else []


def make_demo(specs: list[Any], task: ToyTask) -> ToyDemo | None:
    by_name = {s.name: s for s in specs}
    spec = by_name[task.apps[0]]
    for screen, _, clicks in _routes(spec):
        if screen == task.params["screen"]:
            steps = list(clicks)
            if len(specs) > 1:
                steps.insert(0, {"action_type": "open_app", "app_name": spec.name})
            return ToyDemo((*steps, {"action_type": "status", "goal_status": "complete"}))
    return None
