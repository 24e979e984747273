"""What a run shows its user: progress on stderr, success tables and the PNG plots.

    say("demos for 2400 task instances ...")            # one line on stderr
    for it in bar(range(30), "RL"): ...                   # a tqdm bar (plain loop without it)
    print(table(result))                                  # success overall and per kind
    plot_rates(result, "eval.png")                        # bars: overall, per app, per kind
    plot_curve(curve, "curve.png")                        # held-out success by stage and
                                                          # rollout success per RL iteration
    with phases("sft"): ...                               # wall and CPU seconds per phase

A curve is `{"held_out": [{"stage": "before" | "sft" | "rl N", "success_rate": ...}],
"rl": [{"iteration": i, "success": {"mock": 0.5, "device": 0.25}}]}`; the plots are drawn
by matplotlib (the `train` extra) on its file-only backend.
"""

from __future__ import annotations

import resource
import sys
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

COLOURS = {"mock": "#4a7ebb", "device": "#d9822b", "held_out": "#2e8b57"}


class Phases:
    """Wall and CPU seconds of a run's phases: `with phases("sft"): ...` adds to "sft".
    CPU seconds are this process's and its finished children's (the demo planners)."""

    def __init__(self) -> None:
        self.wall: dict[str, float] = {}
        self.cpu: dict[str, float] = {}

    @staticmethod
    def _cpu() -> float:
        return sum(r.ru_utime + r.ru_stime for r in (resource.getrusage(resource.RUSAGE_SELF),
                                                      resource.getrusage(resource.RUSAGE_CHILDREN)))

    @contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        wall, cpu = time.monotonic(), self._cpu()
        try:
            yield
        finally:
            self.wall[name] = self.wall.get(name, 0.0) + time.monotonic() - wall
            self.cpu[name] = self.cpu.get(name, 0.0) + self._cpu() - cpu

    def report(self) -> dict[str, dict[str, float]]:
        return {"seconds": {k: round(v, 1) for k, v in self.wall.items()},
                "cpu_seconds": {k: round(v, 1) for k, v in self.cpu.items()}}


def say(msg: str) -> None:
    """One progress line on stderr (stdout stays for results)."""
    print(msg, file=sys.stderr, flush=True)


def bar(it: Iterable[Any], desc: str) -> Iterable[Any]:
    """`it` with a progress bar on stderr (tqdm, which transformers brings)."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return it
    return tqdm(it, desc=desc, file=sys.stderr)


def table(result: Mapping[str, Any], title: str = "held-out success") -> str:
    """`result`'s success overall and per task kind (and per app), one line each."""
    lines = [f"{title}: {result['success_rate']:.1%} of {result['episodes']} instances "
             f"(valid actions {result['valid_rate']:.1%})"]
    for key, name in (("per_kind", "kind"), ("per_app", "app")):
        for k, r in result.get(key, {}).items():
            lines.append(f"  {name} {k:<12} {r['success_rate']:6.1%} of {r['episodes']}")
    return "\n".join(lines)


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # draw into files only: no display, no GUI toolkit
    import matplotlib.pyplot as plt

    return plt


def plot_rates(result: Mapping[str, Any], path: str | Path) -> Path:
    """Bar chart of `result`'s success rates: overall, per app, per kind."""
    bars = [("overall", result["success_rate"], result["episodes"])]
    bars += [(f"app {a}", r["success_rate"], r["episodes"])
             for a, r in result.get("per_app", {}).items()]
    bars += [(f"kind {k}", r["success_rate"], r["episodes"])
             for k, r in result.get("per_kind", {}).items()]
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(max(5.0, 0.9 * len(bars) + 1.5), 3.6))
    xs = range(len(bars))
    ax.bar(xs, [v for _, v, _ in bars], color=COLOURS["mock"])
    for x, (_, v, n) in zip(xs, bars, strict=True):
        ax.annotate(f"{v:.0%}\n(n={n})", (x, v), ha="center", va="bottom", fontsize=8,
                    xytext=(0, 2), textcoords="offset points")
    ax.set_xticks(list(xs), [b for b, _, _ in bars], rotation=30, ha="right")
    ax.set_ylim(0, 1.18)
    ax.set_ylabel("success rate")
    ax.set_title(f"success of {result.get('model', 'the policy')}", fontsize=9)
    return _save(fig, plt, path)


def plot_curve(curve: Mapping[str, Any], path: str | Path) -> Path:
    """Held-out success before training, after SFT and after RL iterations, with the
    rollouts' success per RL iteration, one line per source (mock apps, devices)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.0, 3.8))
    held = list(curve.get("held_out", []))
    rl = list(curve.get("rl", []))

    def x_of(stage: str) -> float:  # before: -1, after SFT: 0, after RL iteration i: i
        if stage == "before":
            return -1.0
        return 0.0 if stage == "sft" else float(stage.split()[-1])

    if held:
        xs = [x_of(h["stage"]) for h in held]
        ys = [h["success_rate"] for h in held]
        ax.plot(xs, ys, "o-", color=COLOURS["held_out"], label="held-out (greedy)")
        for x, y in zip(xs, ys, strict=True):
            ax.annotate(f"{y:.0%}", (x, y), xytext=(0, 6), textcoords="offset points",
                        ha="center", fontsize=8)
    for src in sorted({s for r in rl for s in r.get("success", {})}):
        pts = [(r["iteration"] + 1, r["success"][src]) for r in rl if src in r["success"]]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], ".-", alpha=0.6,
                color=COLOURS.get(src), label=f"RL rollouts on {src} (sampled)")
    last = max([x_of(h["stage"]) for h in held] + [len(rl)] + [1.0])
    ticks = [-1.0, 0.0] + [t for t in _ticks(int(last)) if t > 0]
    ax.set_xticks(ticks, ["before", "SFT"] + [str(int(t)) for t in ticks[2:]])
    ax.set_xlabel("stage / RL iteration")
    ax.set_ylim(0, 1.08)
    ax.set_ylabel("success rate")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    return _save(fig, plt, path)


def _ticks(last: int, most: int = 8) -> list[float]:
    step = max(1, -(-last // most))
    return [float(t) for t in range(step, last + 1, step)]


def _save(fig: Any, plt: Any, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def per_source(rl_log: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The curve's `rl` part from an RL log: iteration and success per source."""
    return [{"iteration": r["iteration"], "success": dict(r["success"])} for r in rl_log]
