"""Trace reading speed: observations read per second, per format, on the shared traces.

    python benchmarks/read.py [PATH ...]      (default: ../shared/traces and traces/)

Prints one line per trace folder and a line per format; the uiautomator-XML figure is the
one the foundation issue targets (>= 2,000 observations/s per core). Single process, so
the figures are per core.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path

from phoneworld.traces.discover import find_traces, read_trace_folder
from phoneworld.ui.hierarchy import parse_hierarchy

ROOT = Path(__file__).resolve().parents[1]


def _time(fn, min_seconds: float = 1.0) -> tuple[float, int]:
    """Run fn repeatedly for at least min_seconds; return (seconds per call, calls)."""
    calls, start = 0, time.perf_counter()
    while True:
        fn()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return elapsed / calls, calls


def main(argv: list[str]) -> int:
    paths = [Path(p) for p in argv] or [p for p in (ROOT.parent / "shared" / "traces",
                                                    ROOT / "traces") if p.is_dir()]
    per_format: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    for base in paths:
        for fmt, loc in find_traces(base):
            traces = read_trace_folder(fmt, loc)
            n_obs = sum(len(t.observations) for t in traces)
            secs, _ = _time(lambda fmt=fmt, loc=loc: read_trace_folder(fmt, loc), 0.5)
            acc = per_format[traces[0].format if traces else fmt]
            acc[0] += n_obs
            acc[1] += secs
            print(f"{loc}: {fmt}, {n_obs} observations in {secs * 1000:.1f} ms "
                  f"= {n_obs / secs:,.0f} obs/s")
    print()
    for fmt, (n, secs) in sorted(per_format.items()):
        print(f"{fmt:12s} {n:6d} observations  {n / secs:10,.0f} obs/s (whole reader)")
    # The parser alone on every XML dump we have: the hot path of the uiautomator format.
    dumps = [f.read_bytes() for base in paths for f in sorted(base.rglob("*.xml"))]
    if dumps:
        def parse_all():
            for d in dumps:
                parse_hierarchy(d)
        secs, _ = _time(parse_all, 1.0)
        kb = sum(len(d) for d in dumps) / len(dumps) / 1024
        print(f"uiautomator XML parse: {len(dumps)} dumps (mean {kb:.0f} KB): "
              f"{len(dumps) / secs:,.0f} obs/s per core")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
