"""What a changed screen's screenshot costs at the device's size (target: 40 ms).

    python benchmarks/browser.py [TRACES ...] [--steps 40] [--whole] [--check] [--window N]

For the example shop (no look: the Material renderer) and each app compiled from TRACES
(default: the shared traces with screenshots, drawn on their recorded looks), a seeded
walk goes to each screen in turn and taps, types or goes back there a few times; every
step's page is new to the screenshotter's cache, and is shot as the API shoots it
(`shot`: PNG bytes) and as the env does (`pixels`: an RGB array), each pass with its own
browser. Steps that stay on their screen (a state change), go back to a screen shown
before, go to a screen never shown, or show a dialog over the screen under it are
timed apart (the painter reuses what it drew before: first visits are the cold
figures; the app's plates are prepared ahead as a server prepares them, unless
`--unprepared`, and what that cost is printed). Wall times depend on the machine's load
(`uptime` is printed), so each line also gives the CPU time all processes spent per
shot: the browser, its driver, and this one. `--whole` draws every page whole in
Chromium instead (what screenshots cost before the painter), for comparison; `--check`
also compares every array with an independent whole capture of its page (pixels more
than 24 levels off: text laid over recorded pixels differs by alpha rounding alone).
`--window N` draws in browser windows N app rows high (`painter.WINDOW` by default; 0: as
high as the page, each clip captured as such), for comparison. `--stages` also prints,
per kind of step, the CPU time this process spent per shot in each of the painter's
stages (`STAGES`, thread time, nested stages counted in each), and those of the
slowest shot, to tell what to cut. Last, a table per app of the PNG shots' CPU (all
processes) p50 and p90 by kind of step, so that no kind is tuned to one folder.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from phoneworld.apps import load_app  # noqa: E402
from phoneworld.runtime import Machine  # noqa: E402
from phoneworld.serve.plates import PLATES  # noqa: E402
from phoneworld.serve.screenshots import Screenshotter  # noqa: E402

SHARED = ROOT.parent / "shared" / "traces"


def children_cpu() -> float:
    """CPU seconds used so far by this process's descendants (the browser, its driver),
    from each thread's scheduler statistics (nanoseconds, where /proc/PID/stat counts
    10 ms ticks): a figure the machine's other load does not inflate, unlike wall time
    (Linux only)."""
    parent: dict[int, int] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    parent[int(d)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    me, total = os.getpid(), 0
    for pid in parent:
        p = parent.get(pid)
        while p and p != me:
            p = parent.get(p)
        if p != me:
            continue
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                    total += int(f.read().split()[0])
        except OSError:
            continue
    return total / 1e9


def walk(spec, steps: int, seed: int = 0) -> list[tuple[str, str]]:
    """Pages of a seeded walk, each new, with what its step did: stayed on the screen
    before it ("same screen"), went to a screen shown before ("back to a screen") or
    to one never shown ("first visit"); from each screen in turn (reached directly), a
    few taps, typing or back."""
    rng = random.Random(seed)
    m = Machine(spec)
    m.reset(seed)
    seen = {m.observe("html")}
    visited = {m.screen}
    out: list[tuple[str, str]] = []
    screens = sorted(spec.look.screens) if spec.look is not None else \
        [s.name for s in spec.screens]
    for n in range(steps * 4):
        if len(out) >= steps:
            break
        before = m.screen
        try:
            if n % 4 == 0:
                m.jump(screens[n // 4 % len(screens)])
            else:
                m.step(_action(m, rng))
        except Exception:  # a screen that needs a parameter, an invalid action
            continue
        page = m.observe("html")
        if page not in seen:
            seen.add(page)
            out.append((page, "dialog" if m.rendered().under is not None else
                        "same screen" if m.screen == before else
                        "back to a screen" if m.screen in visited else "first visit"))
            visited.add(m.screen)
    return out


STAGES = (("painter", "page_layers"), ("recorded", "Recorded.painted"),
          ("recorded", "Recorded.plate"), ("recorded", "Recorded.dimmed"),
          ("recorded", "scrimmed"), ("painter", "Painter._texts_in"),
          ("texts", "TextDrawer._layout"), ("texts", "TextDrawer._draw_mask"),
          ("painter", "while_capturing"), ("painter", "copy_while"),
          ("capture", "Capturer.show"), ("frame", "Frame.copy"), ("frame", "Frame.encode"),
          ("frame", "Frame.png"), ("recorded", "decode_image"), ("painter", "Painter._changed"),
          ("painter", "over"), ("recorded", "Recorded._relay"), ("frame", "Frame._inflate"),
          ("recorded", "Recorded._whole"), ("recorded", "Recorded.lay"), ("frame", "Frame._put"))
"""(module of phoneworld.serve, function) timed by `--stages`."""


def stage_timers() -> dict[str, float]:
    """Wrap each of `STAGES` to add its thread CPU seconds to the dict returned (by
    name; for the process's life)."""
    import functools
    import importlib

    spent: dict[str, float] = {}
    for mod, name in STAGES:
        owner = importlib.import_module(f"phoneworld.serve.{mod}")
        *cls, fn = name.split(".")
        obj = getattr(owner, cls[0]) if cls else owner
        f = getattr(obj, fn)

        def timed(*a, _f=f, _name=name, **k):
            t = time.thread_time()
            try:
                return _f(*a, **k)
            finally:
                spent[_name] = spent.get(_name, 0.0) + time.thread_time() - t

        setattr(obj, fn, functools.wraps(f)(timed))
    return spent


def _action(m: Machine, rng: random.Random) -> dict:
    els = m.observe()
    edits = [e for e in els if e["editable"]]
    taps = [e for e in els if e["clickable"]]
    r = rng.random()
    if edits and r < 0.3:
        return {"action_type": "input_text", "index": rng.choice(edits)["index"],
                "text": rng.choice(["milk", "Zebra 42", "\u4f60\u597d", "ok"])}
    if taps and r < 0.9:
        return {"action_type": "click", "index": rng.choice(taps)["index"]}
    return {"action_type": "navigate_back"}


def cases(traces: list[Path]) -> list[tuple[str, object]]:
    from phoneworld.compiler import compile_traces
    from tests.test_runtime import shop_spec

    out: list[tuple[str, object]] = [("example shop (Material)", shop_spec())]
    for folder in traces:
        with tempfile.TemporaryDirectory() as tmp:
            for c in compile_traces(folder, Path(tmp)):
                spec = load_app(Path(tmp) / c.name).spec
                if spec.look is None:
                    continue
                # Keep the assets in memory: the folder goes away.
                look = dataclasses.replace(spec.look, data={
                    n: spec.look.asset(n) for n in spec.look.names()})
                out.append((f"{folder.parent.name}/{folder.name} (recorded look)",
                            dataclasses.replace(spec, look=look)))
    return out


def time_walk(label: str, spec, steps: int, whole: bool, check: bool = False,
              window: int | None = None, stages: dict[str, float] | None = None,
              prepare: bool = True) -> dict:
    """Shoot the walk's pages as PNGs, then (with a new browser: nothing kept from the
    first pass) as arrays; print the medians per kind of step. With `check`, compare
    each array with a whole capture of its page by a browser of its own. With
    `prepare`, the app's plates are prepared (`plates`) before the first shot is timed."""
    pages = walk(spec, steps)
    w, h = spec.width, spec.height
    rows = {}
    arrays = []
    by_stage: dict[tuple[str, str], list[dict[str, float]]] = {}
    for kind in ("png", "pixels"):
        shots = Screenshotter(timeout=120, window=window)
        shots.assets = spec.look.asset if spec.look is not None else None
        try:
            m = Machine(spec)
            m.reset(0)
            shots.shot(m.observe("html"), width=w, height=h)  # warm: the browser, the start
            if prepare:  # the plates decoded and encoded ahead, as a server does
                cpu0 = PLATES.cpu
                t0 = time.perf_counter()
                shots.prepare([spec])
                PLATES.wait()
                if PLATES.cpu > cpu0:
                    print(f"  {label}: plates prepared in {time.perf_counter() - t0:.2f} s "
                          f"({(PLATES.cpu - cpu0) * 1e3:.0f} ms CPU, in the background; "
                          f"{PLATES.kept.weight / 1e6:.1f} MB kept)", flush=True)
            time.sleep(1.0)  # the last pass's browser gone, this one's start-up settled
            for page, step in pages:
                if whole:
                    page += "<!-- whole -->"  # not in the painter's shape: drawn whole
                was = dict(stages or {})
                c0, p0, t0 = children_cpu(), time.process_time(), time.perf_counter()
                if kind == "png":
                    shots.shot(page, width=w, height=h)
                else:
                    got = shots.pixels(page, width=w, height=h)
                    if check:
                        arrays.append(got)
                wall = (time.perf_counter() - t0) * 1e3
                p1 = time.process_time()  # before reading /proc: that costs 2-5 ms of CPU
                cpu = (children_cpu() - c0 + p1 - p0) * 1e3
                rows.setdefault((kind, step), []).append((wall, cpu, (p1 - p0) * 1e3))
                if stages is not None:
                    by_stage.setdefault((kind, step), []).append(
                        {k: (v - was.get(k, 0.0)) * 1e3 for k, v in stages.items()})
        finally:
            shots.close()
    if check:
        faithful(label, spec, [p for p, _ in pages], arrays)
    for (kind, step), got in sorted(rows.items()):
        walls, cpus, mine = [g[0] for g in got], [g[1] for g in got], [g[2] for g in got]
        print(f"  {label}: {step:16s} {kind:6s} "
              f"{len(got):3d} shots: wall median {statistics.median(walls):6.1f} ms "
              f"(p90 {p90(walls):6.1f}); CPU (all processes) median "
              f"{statistics.median(cpus):6.1f} (p90 {p90(cpus):6.1f}), "
              f"mean {statistics.mean(cpus):6.1f} ms; this process median "
              f"{statistics.median(mine):6.1f} (p90 {p90(mine):6.1f})", flush=True)
        shots_ = by_stage.get((kind, step))
        if shots_:
            means = {k: statistics.mean(s.get(k, 0.0) for s in shots_)
                     for k in {k for s in shots_ for k in s}}
            print("      stages (mean ms a shot): " + ", ".join(
                f"{k} {v:.1f}" for k, v in sorted(means.items(), key=lambda kv: -kv[1])
                if v >= 0.05), flush=True)
            worst = max(range(len(got)), key=lambda i: got[i][2])  # this process's CPU
            print(f"      its slowest shot ({got[worst][2]:.1f} ms): " + ", ".join(
                f"{k} {v:.1f}" for k, v in sorted(shots_[worst].items(),
                                                  key=lambda kv: -kv[1])
                if v >= 0.05), flush=True)
    return rows


def p90(values: list[float]) -> float:
    """The 90th percentile of `values` (the nearest rank)."""
    ranked = sorted(values)
    return ranked[max(0, -(-9 * len(ranked) // 10) - 1)]


def faithful(label: str, spec, pages: list[str], arrays: list) -> None:
    """Print how far the painter's arrays are from whole captures of the same pages."""
    import numpy as np

    shots = Screenshotter(timeout=120, window=0)  # a window as high as the page
    shots.assets = spec.look.asset if spec.look is not None else None
    worst, off = 0, []
    try:
        for page, got in zip(pages, arrays, strict=True):
            ref = shots.pixels(page + "<!-- whole -->", width=spec.width, height=spec.height)
            diff = np.abs(got.astype(np.int16) - ref.astype(np.int16)).max(axis=2)
            worst = max(worst, int(diff.max()))
            off.append(float((diff > 24).mean()))
    finally:
        shots.close()
    print(f"  {label}: {len(pages)} arrays vs whole captures: pixels > 24 levels off: "
          f"max {max(off):.5%}, mean {statistics.mean(off):.5%} (largest difference "
          f"{worst} levels)", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("traces", nargs="*", type=Path)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--whole", action="store_true", help="draw every page whole")
    ap.add_argument("--check", action="store_true",
                    help="compare every array with a whole capture of its page")
    ap.add_argument("--window", type=int, default=None,
                    help="app rows of the browser's window (0: the page's height)")
    ap.add_argument("--stages", action="store_true",
                    help="print the CPU time of each of the painter's stages")
    ap.add_argument("--unprepared", action="store_true",
                    help="do not prepare the plates ahead (first visits decode them)")
    args = ap.parse_args(argv)
    stages = stage_timers() if args.stages else None
    probe = Screenshotter()
    if not probe.available:
        print(f"cannot take screenshots: {probe.unavailable_reason}", file=sys.stderr)
        return 1
    traces = args.traces or sorted(
        p for fmt in SHARED.iterdir() if fmt.is_dir() for p in fmt.iterdir() if p.is_dir()
        and any(f.suffix in (".jpg", ".png") and f.parent.name != "views"
                for f in p.rglob("*")))
    print(f"uptime: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
          f"{os.getloadavg()[2]:.2f} on {os.cpu_count()} cores; "
          f"{'whole pages' if args.whole else 'painter'}"
          f"{'' if args.window is None else f'; window {args.window}'}")
    table = {}
    for label, spec in cases(traces):
        table[label] = time_walk(label, spec, args.steps, args.whole, args.check,
                                 args.window, stages, prepare=not args.unprepared)
    summary(table)
    return 0


KINDS = ("first visit", "back to a screen", "same screen", "dialog")


def summary(table: dict[str, dict]) -> None:
    """Print, per app, the PNG shots' CPU (all processes) p50/p90 in ms by kind of step
    (`time_walk`'s rows), and the worst p90 of each kind over the apps."""
    print(f"\nPNG shots, CPU (all processes) p50/p90 ms (shots) by kind of step:\n"
          f"{'app':46s}" + "".join(f"{k:>22s}" for k in KINDS))
    worst: dict[str, float] = {}
    for label, rows in table.items():
        cells = []
        for k in KINDS:
            got = [g[1] for g in rows.get(("png", k), [])]
            if not got:
                cells.append(f"{'-':>22s}")
                continue
            worst[k] = max(worst.get(k, 0.0), p90(got))
            cells.append(f"{statistics.median(got):9.1f}/{p90(got):6.1f} ({len(got):3d})")
        print(f"{label[:46]:46s}" + "".join(cells))
    print(f"{'worst p90':46s}" + "".join(
        f"{worst[k]:>22.1f}" if k in worst else f"{'-':>22s}" for k in KINDS), flush=True)


if __name__ == "__main__":
    sys.exit(main())
