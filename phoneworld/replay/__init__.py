"""Replay fidelity: do recorded steps do on the mock app what they did on the real one?

For every recorded step whose action a mock can take (taps, long presses, typing, back,
enter, scrolls) and whose next observation was recorded with a hierarchy, the mock is put
on the screen the step's recorded observation maps to (with the parameter row whose
rendering looks most like the recording, its text fields holding what the recording's
held, scrolled to where it shows most of the recording's texts, above the back stack
the trace had built so far, each screen of it with the row and scroll position it last
had, so that back goes where it went), the recorded action is sent as an AndroidWorld
action at the recorded coordinates, and:
- `reproduced`: the mock is now on the screen the recorded next observation maps to;
- `screen_similarity`: node-level F1 between the mock's hierarchy and the recorded next
  one, over (class, resource-id, text, description) of the app windows' nodes that carry
  a text, a description or an id (empty containers would make any two screens alike);
- `text_recall`: the share of the recorded next observation's visible texts and content
  descriptions that the mock's screen shows.
All are reported, because each alone is cheap to game: one screen for everything
reproduces every step and resembles nothing.

Where the app moved with no event (the next step starts on another observation than the
last one ended on, between two screens of the app), the mock is put on the first and
sent `wait`: `waits` counts these gaps, `waited` those where the mock went to the second
(a timed transition, `infer.timed`), apart from the steps.

A step whose next observation has no hierarchy (DroidBot states with no file) cannot be
judged and is `skipped`, and the back stack is forgotten there; a step the mock has no
action for (the menu key) is skipped too, but its screens keep the stack as the trace
built it. With `known_only`, so is a step whose next observation maps to
no screen of the app: an app compiled from part of a run is judged on the transitions
between screens it knows (`unknown` counts them).

A step taken on an observation of an era the compiler left out (the app in another
language after a recording switched it: the compile report's `other_eras`, see
`infer.eras`) is no step of the mock's app and is left out too: `other_era` counts them,
apart from the steps, and a move the app made by itself from such an observation is not
waited for. The back stack is forgotten there, as the screens the trace built were
another era's.
"""


from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import PurePosixPath

from phoneworld.apps import GeneratedApp
from phoneworld.errors import InvalidAction
from phoneworld.replay.aim import aim, to_agent_action
from phoneworld.replay.measures import f1, node_bag, recall, shown_texts
from phoneworld.replay.place import place
from phoneworld.traces.model import Trace

__all__ = ["f1", "format_replay", "node_bag", "recall", "replay", "shown_texts",
           "split_trace", "to_agent_action"]

_REPLAYABLE = {"tap", "long_press", "type", "key", "scroll", "swipe"}


def replay(traces: Sequence[Trace], app: GeneratedApp, *, known_only: bool = False) -> dict:
    """Fidelity of `app` on `traces` (one JSON-ready object with per-trace rows)."""
    from phoneworld.runtime import Machine

    machine = Machine(app.spec)
    rows = []
    totals = Counter()
    mismatches: Counter = Counter()
    sims: list[float] = []
    recalls: list[float] = []
    eras = app.other_eras
    for trace in traces:
        if trace.app != app.spec.package:
            continue
        left = _left_out(eras, trace)
        row = Counter()
        tsims: list[float] = []
        trecalls: list[float] = []
        # The recorded back stack, kept as the compiler keeps it: each screen with the
        # parameter row it showed when the trace was last on it, so that going back
        # shows what the app showed (the album the share sheet was opened on).
        stack: list[tuple[str, int | None, tuple]] = []
        prev = None
        for step in trace.steps:
            gap = _gap(app, trace, prev, step)
            prev = step
            if gap is not None and trace.observations[gap[2]].source in left:
                gap = None  # another era's screen moved on: no screen of the mock
            if trace.observations[step.before].source in left:
                row["other_era"] += 1
                stack.clear()  # the screens the trace built are another era's
                continue
            if gap is not None:  # the app moved by itself: does waiting move the mock?
                row["waits"] += 1
                machine.reset()
                names = [s for s, _, _ in stack]
                under = stack[:names.index(gap[0])] if gap[0] in names else stack
                place(machine, app, gap[0], trace.observations[gap[2]], under)
                if machine.step({"action_type": "wait"}).screen == gap[1]:
                    row["waited"] += 1
            if step.after is None or step.action.kind not in _REPLAYABLE:
                continue
            before, after = trace.observations[step.before], trace.observations[step.after]
            act = to_agent_action(step.action, before)
            src, dst = app.classify(before), app.classify(after)
            if src is None or after.root is None:
                row["skipped"] += 1
                stack.clear()  # where the app went is not known
                continue
            names = [s for s, _, _ in stack]
            if src in names:
                del stack[names.index(src) + 1:]
            else:
                stack.append((src, None, ()))
            if act is None:  # a key the mock has no action for (menu): both ends known
                row["skipped"] += 1
                continue
            if dst is None and known_only:
                row["unknown"] += 1
                continue
            row["steps"] += 1
            machine.reset()
            stack[-1] = (src, *place(machine, app, src, before, stack[:-1]))
            act = aim(act, step.action, before, machine)
            wanted = shown_texts(after.root)
            try:
                machine.step(act)
            except InvalidAction:
                tsims.append(0.0)
                if wanted:
                    trecalls.append(0.0)
                continue
            if machine.screen == dst:
                row["reproduced"] += 1
            else:
                mismatches[(src, act["action_type"], dst or "?", machine.screen)] += 1
            mock = machine.observe("node")
            tsims.append(f1(node_bag(mock), node_bag(after.root)))
            got = recall(shown_texts(mock), wanted)
            if got is not None:
                trecalls.append(got)
        totals.update(row)
        sims.extend(tsims)
        recalls.extend(trecalls)
        rows.append({"trace": trace.source, "steps": row["steps"],
                     "reproduced": row["reproduced"], "skipped": row["skipped"],
                     "unknown": row["unknown"], "other_era": row["other_era"],
                     "waits": row["waits"],
                     "waited": row["waited"],
                     "fidelity": _ratio(row["reproduced"], row["steps"]),
                     "screen_similarity": _mean(tsims), "text_recall": _mean(trecalls)})
    return {"app": app.spec.name, "steps": totals["steps"], "reproduced": totals["reproduced"],
            "skipped": totals["skipped"], "unknown": totals["unknown"],
            "other_era": totals["other_era"], "waits": totals["waits"], "waited": totals["waited"],
            "fidelity": _ratio(totals["reproduced"], totals["steps"]),
            "screen_similarity": _mean(sims), "text_recall": _mean(recalls),
            "screens": len(app.spec.screens), "traces": rows,
            "mismatches": [{"screen": a, "action": b, "expected": c, "got": d, "count": n}
                           for (a, b, c, d), n in sorted(mismatches.items(),
                                                         key=lambda kv: (-kv[1], kv[0]))[:20]]}


def _left_out(eras: Sequence[dict], trace: Trace) -> frozenset[str]:
    """The sources of `trace`'s observations the compiler left out as another era: the
    report's entry for the trace's source, else the one entry whose source ends the
    trace's (`compile` names a trace from the folder it was given: "traces/x/run1" for
    "/home/me/traces/x/run1"), else the one entry with its name."""
    parts = PurePosixPath(trace.source.replace("\\", "/")).parts
    for found in ([e for e in eras if e["trace"] == trace.source],
                  [e for e in eras if _ends(parts, PurePosixPath(e["trace"]).parts)],
                  [e for e in eras if e.get("name") == trace.name]):
        if len(found) == 1:
            return frozenset(o for o in found[0]["observations"] if isinstance(o, str))
        if found:
            break
    return frozenset()


def _ends(parts: tuple[str, ...], tail: tuple[str, ...]) -> bool:
    return 0 < len(tail) <= len(parts) and parts[len(parts) - len(tail):] == tail


def _gap(app: GeneratedApp, trace: Trace, prev, step) -> tuple[str, str, int] | None:
    """(screen, next screen, observation) where the app moved between two recorded steps
    with no event (the next step starts on another observation than the last ended on),
    between two screens of the app; else None."""
    if prev is None or prev.after is None or prev.after == step.before:
        return None
    last, first = trace.observations[prev.after], trace.observations[step.before]
    if last.root is None or first.root is None:
        return None
    src, dst = app.classify(last), app.classify(first)
    if src is None or dst is None or src == dst or last.foreign or first.foreign:
        return None
    return src, dst, prev.after


def split_trace(trace: Trace, share: float = 0.7) -> tuple[Trace, Trace]:
    """The trace of its first `share` of steps, and the trace of the rest, each holding
    only the observations its own steps show (for judging a mock compiled from the first
    part on the second)."""
    k = round(len(trace.steps) * share)
    return _part(trace, trace.steps[:k], "head"), _part(trace, trace.steps[k:], "tail")


def _part(trace: Trace, steps, name: str) -> Trace:
    used = sorted({s.before for s in steps} | {s.after for s in steps if s.after is not None})
    new = {old: i for i, old in enumerate(used)}
    steps = tuple(s.model_copy(update={"before": new[s.before], "after": None if s.after is None
                                       else new[s.after]}) for s in steps)
    return trace.model_copy(update={"name": f"{trace.name}-{name}", "steps": steps,
                                    "observations": tuple(trace.observations[i] for i in used)})


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def format_replay(result: dict) -> str:
    """A short human-readable report of `replay`'s result."""
    lines = [f"{r['trace']}: {r['reproduced']}/{r['steps']} steps reproduced"
             f" ({r['skipped']} skipped{_era(r)}), similarity {r['screen_similarity']}, "
             f"text recall {r['text_recall']}" for r in result["traces"]]
    lines.append(f"fidelity {result['fidelity']} ({result['reproduced']}/{result['steps']} "
                 f"steps), mean screen similarity {result['screen_similarity']}, mean text "
                 f"recall {result['text_recall']}{_era(result)}")
    if result.get("waits"):
        lines.append(f"{result['waited']}/{result['waits']} moves the app made by itself "
                     "followed by waiting")
    return "\n".join(lines)


def _era(result: dict) -> str:
    n = result.get("other_era", 0)
    return f", other era: {n} steps left out" if n else ""
