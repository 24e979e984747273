"""Traces of one app -> its screen graph (abstract screens, priorities, transitions)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from phoneworld.errors import CodegenError as CompileError
from phoneworld.infer.facts import StepFacts
from phoneworld.infer.screens import app_chrome, group_observations, rank, visited
from phoneworld.infer.transitions import build_transitions
from phoneworld.ir.model import ObsRef, ScreenGraph
from phoneworld.traces.model import Trace


def build_graph(app: str, traces: Sequence[Trace],
                steps: Sequence[StepFacts] | None = None) -> ScreenGraph:
    """The screen graph of one app from all its traces (pure; deterministic); `steps`
    are the steps' facts when already read (`facts.step_facts`)."""
    chrome = app_chrome(traces)
    screens, where = group_observations(traces, chrome)
    transitions = build_transitions(traces, where, steps)
    start = _start_screen(app, traces, where)
    screens = rank(screens, start)
    sizes = Counter((o.width, o.height) for t in traces for o in t.observations
                    if not o.foreign and o.width and o.height)
    width, height = sizes.most_common(1)[0][0] if sizes else (1080, 2400)
    package = Counter(t.app for t in traces).most_common(1)[0][0]
    return ScreenGraph(app=app, package=package, width=width, height=height, start=start,
                       screens=tuple(screens), transitions=tuple(transitions),
                       chrome=tuple(sorted(chrome)))


def _start_screen(app: str, traces: Sequence[Trace], where: dict[ObsRef, str]) -> str:
    """Where most traces first show the app: the first own observation its steps go
    through (`visited`), not the first one stored (a recording cut out of a longer one
    may store, first, a state it revisits later: qqmusic's second half holds the share
    sheet as its first state, but starts on the feedback page and goes back to it)."""
    firsts: Counter[str] = Counter()
    for t, trace in enumerate(traces):
        order = [i for i in visited(trace) if i is not None]
        for i in (*order, *range(len(trace.observations))):
            obs = trace.observations[i]
            if not obs.foreign and obs.root is not None:
                firsts[where[ObsRef(trace=t, index=i)]] += 1
                break
    if firsts:
        return min(firsts, key=lambda s: (-firsts[s], s))
    if not where:
        why = next((w for t in traces for w in t.warnings), None)  # e.g. a limit passed
        raise CompileError(f"{app}: no observation has a view hierarchy; nothing to compile"
                           + (f" (first warning: {why})" if why else ""))
    return min(where.items(), key=lambda kv: (kv[0].trace, kv[0].index))[1]
