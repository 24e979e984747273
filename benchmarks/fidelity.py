"""How faithful compiled mocks of real apps are: every folder of ../shared/traces (or the
folders given), one line each, then the pooled figures.

    python benchmarks/fidelity.py [FOLDER ...]

Per folder: compile seconds (read + infer + generate, in process), screens (P0/P1/P2),
replay fidelity, mean screen similarity and mean text recall of the mock compiled from
the whole run, and the 70/30 prediction: the fidelity of a mock compiled from the first
70% of each trace's steps on the last 30%, over the steps between screens it knows ("-"
where that 70% holds too little to compile: spoon_live's two dumps, no action between).
`era` counts the steps left out as taken in another era of the app than the mock keeps
(activitylauncher's steps after it switched to Afrikaans: `infer.eras`), which replay
does not judge; the figures are over the rest.
Targets (issue #20): pooled fidelity >= 0.95, no folder under 0.85, mean similarity >=
0.85, mean text recall >= 0.90, 70/30 >= 0.80 pooled, compile < 5 s per 300 events.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from phoneworld.apps import find_apps, load_app
from phoneworld.compiler import compile_app, compile_traces
from phoneworld.errors import CodegenError
from phoneworld.replay import replay, split_trace
from phoneworld.traces import read_traces

SHARED = Path(__file__).resolve().parents[2] / "shared" / "traces"


def measure(folder: Path) -> dict:
    """Every figure of one folder (see the module's docstring)."""
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        (app,) = compile_traces(folder, Path(tmp))
        seconds = time.perf_counter() - t
        traces = read_traces(folder)
        whole = replay(traces, load_app(Path(tmp) / app.name))
        ahead = _ahead(traces, app, Path(tmp) / "head")
    p = app.report["counts"]["screens_by_priority"]
    return {"folder": f"{folder.parent.name}/{folder.name}", "seconds": seconds,
            "events": sum(len(tr.steps) for tr in traces),
            "screens": f"{p['P0']}/{p['P1']}/{p['P2']}", "steps": whole["steps"],
            "reproduced": whole["reproduced"], "fidelity": whole["fidelity"],
            "other_era": whole["other_era"],
            "similarity": whole["screen_similarity"], "recall": whole["text_recall"],
            "ahead_steps": ahead["steps"], "ahead_reproduced": ahead["reproduced"],
            "ahead": ahead["fidelity"], "unknown": ahead["unknown"]}


def _ahead(traces: list, app, out: Path) -> dict:
    """The 70/30 replay: a mock of each trace's first 70% replayed on the rest; no
    steps when the first 70% has nothing to compile."""
    heads, tails = zip(*(split_trace(tr) for tr in traces), strict=True)
    try:
        part = compile_app(app.name, list(heads), app.spec.source)
    except CodegenError:
        return {"steps": 0, "reproduced": 0, "fidelity": None, "unknown": 0}
    for name, data in part.files.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    (head_dir,) = find_apps(out)
    return replay(list(tails), load_app(head_dir), known_only=True)


def _f(v) -> str:
    return "   -" if v is None else f"{v:.3f}"


def main(argv: list[str]) -> int:
    folders = [Path(a) for a in argv] or sorted(
        p for fmt in SHARED.iterdir() if fmt.is_dir() for p in fmt.iterdir() if p.is_dir())
    print(f"{'folder':28s} {'events':>6s} {'compile':>7s} {'P0/P1/P2':>9s} {'fidelity':>8s} "
          f"{'simil.':>6s} {'recall':>6s} {'era':>4s} {'70/30':>6s} (steps, unknown)")
    rows = []
    for folder in folders:
        r = measure(folder)
        rows.append(r)
        print(f"{r['folder']:28s} {r['events']:6d} {r['seconds']:6.2f}s {r['screens']:>9s} "
              f"{_f(r['fidelity']):>8s} {_f(r['similarity']):>6s} {_f(r['recall']):>6s} "
              f"{r['other_era']:4d} "
              f"{_f(r['ahead']):>6s} ({r['ahead_steps']}, {r['unknown']})", flush=True)
    steps = sum(r["steps"] for r in rows) or 1
    ahead = sum(r["ahead_steps"] for r in rows) or 1

    def mean(k: str) -> float:  # over the folders with a figure (a run of screens alone
        # has no step to replay)
        got = [r[k] for r in rows if r[k] is not None]
        return sum(got) / max(len(got), 1)

    print(f"pooled fidelity {sum(r['reproduced'] for r in rows) / steps:.3f}; lowest "
          f"{min((r['fidelity'] for r in rows if r['fidelity'] is not None), default=0):.3f}; "
          f"mean similarity "
          f"{mean('similarity'):.3f}; mean text recall {mean('recall'):.3f}; 70/30 pooled "
          f"{sum(r['ahead_reproduced'] for r in rows) / ahead:.3f}; slowest compile "
          f"{max(r['seconds'] for r in rows):.2f}s; other era: "
          f"{sum(r['other_era'] for r in rows)} steps left out")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
