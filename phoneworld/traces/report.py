"""What `phoneworld inspect` says about a trace: counts a person can check against the recording."""

from __future__ import annotations

from collections import Counter

from phoneworld.traces.model import Trace

_POINTED = {"tap", "long_press", "swipe"}


def summarize(trace: Trace) -> dict:
    """One JSON-ready row per trace (keys in a fixed order)."""
    kinds = Counter(s.action.kind for s in trace.steps)
    unresolved = sum(1 for s in trace.steps
                     if s.action.kind in _POINTED and s.action.target is None)
    return {
        "name": trace.name,
        "format": trace.format,
        "app": trace.app,
        "source": trace.source,
        "observations": len(trace.observations),
        "steps": len(trace.steps),
        "actions": dict(sorted(kinds.items())),
        "unresolved_taps": unresolved,
        "missing_hierarchies": sum(1 for o in trace.observations if o.root is None),
        "foreign_observations": sum(1 for o in trace.observations if o.foreign),
        "instruction": trace.instruction,
        "warnings": list(trace.warnings),
    }


def format_table(rows: list[dict]) -> str:
    """A compact human-readable report."""
    lines = []
    for r in rows:
        acts = ", ".join(f"{k} {v}" for k, v in r["actions"].items()) or "none"
        lines.append(f"{r['source']}  [{r['format']}]  app {r['app'] or '?'}")
        lines.append(f"  {r['observations']} observations ({r['foreign_observations']} foreign, "
                     f"{r['missing_hierarchies']} without hierarchy), {r['steps']} steps: {acts}")
        if r["unresolved_taps"]:
            lines.append(f"  {r['unresolved_taps']} taps resolved to no node")
        if r["instruction"]:
            lines.append(f"  instruction: {r['instruction']}")
        for w in r["warnings"][:10]:
            lines.append(f"  warning: {w}")
        if len(r["warnings"]) > 10:
            lines.append(f"  … and {len(r['warnings']) - 10} more warnings (see --json)")
    total_obs = sum(r["observations"] for r in rows)
    total_steps = sum(r["steps"] for r in rows)
    lines.append(f"{len(rows)} traces, {total_obs} observations, {total_steps} steps")
    return "\n".join(lines)
