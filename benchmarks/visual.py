"""How much the mock apps look like the real ones: mock screenshots against the recordings.

    python benchmarks/visual.py [TRACES ...] [--out DIR] [--no-speed]

Each trace folder with screenshots (default: every app under ../shared/traces) is
compiled afresh; each screen the compiler saw in recordings with screenshots is shot by
Chromium at the device's size in its first rendering, and compared with every recording
of it: the edge similarity (gradient-magnitude similarity on pixels where either image
has an edge, grey, 270 px wide; a blank white screen scores about 0.24, another screen
of the same app about 0.36) and SSIM, for the mock as compiled (drawn on its recorded
look), the same mock with its look removed (the Material-like renderer alone), and a
blank white screen. Per app it prints the means over its screens of the means over each
screen's recordings, and `--out` gets `visual.html`: recording | mock | Material, per
screen, with the scores.

A second line per app gives what the edge measure is blind to, region by region of the
recordings' hierarchies (`visual.regions`), for the mock and for the blank screen:
`text` (how alike the height of each text's ink is: a text too small, too large or not
drawn), `icon` (each small leaf's ink matched within 3 pixels: an icon left out or a
wrong one), `fill` (the share of large views whose background colour is the
recording's: a toolbar or a card in the wrong colour).

`--walk N` also shoots the pages of a seeded walk of N steps through each app
(`benchmarks/browser.py`'s) where a step changed the screen's state (it stayed on its
screen, or showed a dialog over it), and compares each with its screen's recordings
(up to five): what a person sees after a row is added, a word typed, a switch flipped,
where the first rendering is mostly the recording itself. `--out` gets them beside the
screen's first recording, five an app.

The speed part times changed screens' screenshots at the device's size (target: 40 ms)
on seeded walks through the example shop and the measured apps (`benchmarks/browser.py`
says how): wall time, and the CPU time all processes spent per shot.
"""

from __future__ import annotations

import argparse
import dataclasses
import html
import io
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from phoneworld.apps import load_app  # noqa: E402
from phoneworld.compiler import compile_traces  # noqa: E402
from phoneworld.runtime import Machine  # noqa: E402
from phoneworld.serve.screenshots import Screenshotter  # noqa: E402
from phoneworld.visual.compare import edge_similarity, ssim  # noqa: E402
from phoneworld.visual.extract import screen_pixels  # noqa: E402
from phoneworld.visual.regions import CLASSES, region_scores  # noqa: E402

SHARED = ROOT.parent / "shared" / "traces"


def app_folders(roots: list[Path]) -> list[Path]:
    """The folders to measure: each given folder, or each app folder two levels under
    the shared traces (`droidbot/qqmusic`)."""
    if roots:
        return roots
    return sorted(p for fmt in SHARED.iterdir() if fmt.is_dir() for p in fmt.iterdir()
                  if p.is_dir())


def measure(folder: Path, shots: Screenshotter, out: Path | None, walk_steps: int = 0
            ) -> dict | None:
    if not any(f.suffix in (".jpg", ".png") and f.parent.name != "views"
               for f in folder.rglob("*")):
        return None  # no whole-screen recordings (DroidBot's views/ crops are not screens)
    with tempfile.TemporaryDirectory() as tmp:
        compiled = compile_traces(folder, Path(tmp))
        rows = []
        walked: list[dict] = []
        for c in compiled:
            app = load_app(Path(tmp) / c.name)
            spec = app.spec
            shots.assets = spec.look.asset if spec.look is not None else None
            recs = c.recordings
            plain = dataclasses.replace(spec, look=None)
            machines = {"look": Machine(spec), "material": Machine(plain)}
            for m in machines.values():
                m.reset()
            white = Image.new("RGB", (spec.width, spec.height), "white")
            for screen, rs in recs.items():
                rs = [r for r in rs if r.screenshot.is_file()]
                if not rs:
                    continue
                mocks = {k: shots.shot(m.preview(screen), width=spec.width, height=spec.height)
                         for k, m in machines.items()}
                recorded = [screen_pixels(Image.open(r.screenshot), spec.width, spec.height)
                            for r in rs]
                score = {}
                for k, img in [*mocks.items(), ("blank", white)]:
                    score[f"edge_{k}"] = statistics.mean(edge_similarity(img, r)
                                                         for r in recorded)
                    score[f"ssim_{k}"] = statistics.mean(ssim(img, r) for r in recorded)
                    if k != "material":
                        score.update({f"{c}_{k}": v for c, v in _regions(
                            _rgb(img, spec), recorded, rs).items()})
                rows.append({"app": c.name, "screen": screen, "recordings": len(rs),
                             "look": screen in (spec.look.screens if spec.look else {}),
                             "first": recorded[0], "mocks": mocks, **score})
            if walk_steps and spec.look is not None:
                walked.extend(_walked(spec, recs, shots, walk_steps))
    if out is not None:
        _write_pairs(out, folder, rows)
        _write_walk(out, folder, walked)
    return {"folder": folder, "rows": rows, "walk": walked}


def _walked(spec, recs: dict, shots: Screenshotter, steps: int) -> list[dict]:
    """The changed screens of a seeded walk (`browser.walk`) with recordings, each
    compared with its screen's (up to five)."""
    import re

    from benchmarks.browser import walk

    out = []
    for page, step in walk(spec, steps):
        if step not in ("same screen", "dialog"):
            continue
        screen = re.search(r'data-screen="([^"]*)"', page)
        rs = [r for r in recs.get(screen[1] if screen else "", []) if r.screenshot.is_file()]
        if not rs:
            continue
        mock = Image.open(io.BytesIO(shots.shot(page, width=spec.width, height=spec.height)))
        recorded = [screen_pixels(Image.open(r.screenshot), spec.width, spec.height)
                    for r in rs[:5]]
        out.append({"screen": screen[1], "step": step, "mock": mock, "first": recorded[0],
                    "edge": statistics.mean(edge_similarity(mock, r) for r in recorded),
                    **_regions(_rgb(mock, spec), recorded, rs[:5])})
    return out


def _rgb(img, spec):
    """A screenshot (PNG bytes or an image) as the app's RGB array."""
    import numpy as np

    if isinstance(img, (bytes, bytearray)):
        img = Image.open(io.BytesIO(img))
    return np.asarray(screen_pixels(img, spec.width, spec.height))


def _regions(mock, recorded: list, recs: list) -> dict[str, float]:
    """The mock's region scores (`visual.regions`) per class, the mean over the
    recordings that have a hierarchy; a class no recording has is left out."""
    got: dict[str, list[float]] = {c: [] for c in CLASSES}
    for pixels, rec in zip(recorded, recs, strict=True):
        if rec.observation.root is None:
            continue
        for c, v in region_scores(mock, pixels, rec.observation.root).items():
            if v is not None:
                got[c].append(v)
    return {c: statistics.mean(v) for c, v in got.items() if v}


def _mean(rows: list[dict], key: str) -> float:
    got = [r[key] for r in rows if key in r]
    return statistics.mean(got) if got else float("nan")


def _region_line(rows: list[dict], kind: str) -> str:
    """`text 0.91  icon 0.70  fill 0.95`: the means of rows' region scores of `kind`."""
    sfx = f"_{kind}" if kind else ""
    return "  ".join(f"{c} {_mean(rows, c + sfx):.3f}" for c in CLASSES)


def _over_apps(results: list[dict], key: str) -> float:
    """The mean over apps of each app's mean of `key` (apps without it left out)."""
    got = [m for res in results if (m := _mean(res["rows"], key)) == m]
    return statistics.mean(got) if got else float("nan")


def _write_pairs(out: Path, folder: Path, rows: list[dict]) -> None:
    img_dir = out / "img"
    img_dir.mkdir(parents=True, exist_ok=True)
    for r in rows:
        stem = f"{folder.parent.name}_{folder.name}_{r['screen']}"
        pics = {"recording": Image.fromarray(r["first"])}
        pics.update({k: Image.open(io.BytesIO(v)) for k, v in r["mocks"].items()})
        r["files"] = {}
        for k, im in pics.items():
            name = f"{stem}_{k}.jpg"
            w = 270
            im.convert("RGB").resize((w, round(im.height * w / im.width))).save(
                img_dir / name, quality=85)
            r["files"][k] = f"img/{name}"


def _write_walk(out: Path, folder: Path, walked: list[dict]) -> None:
    """Five of the walk's changed screens (evenly apart), beside their first recordings."""
    img_dir = out / "img"
    img_dir.mkdir(parents=True, exist_ok=True)
    n = len(walked)
    for k in sorted({round(i * (n - 1) / 4) for i in range(5)} if n else ()):
        w = walked[k]
        w["files"] = {}
        for kind, im in (("recording", Image.fromarray(w["first"])), ("walk", w["mock"])):
            name = f"{folder.parent.name}_{folder.name}_walk{k}_{kind}.jpg"
            im.convert("RGB").resize((270, round(im.height * 270 / im.width))).save(
                img_dir / name, quality=85)
            w["files"][kind] = f"img/{name}"


def write_html(out: Path, results: list[dict]) -> Path:
    parts = ["<!doctype html><meta charset=utf-8><title>phoneworld: recording | mock"
             "</title><style>body{font-family:sans-serif;margin:16px}.row{display:flex;"
             "gap:8px;margin:4px 0 20px}img{width:270px;border:1px solid #ccc}"
             "figure{margin:0}figcaption{font-size:12px}</style>",
             "<h1>Recording | mock (recorded look) | mock (Material only)</h1>"]
    for res in results:
        parts.append(f"<h2>{html.escape(str(res['folder']))}</h2>")
        for r in res["rows"]:
            parts.append(f"<h3>{html.escape(r['screen'])} ({r['recordings']} recordings)"
                         "</h3><div class=row>")
            for k in ("recording", "look", "material"):
                cap = "first recording" if k == "recording" else \
                    f"edge {r[f'edge_{k}']:.2f}, SSIM {r[f'ssim_{k}']:.2f}"
                if k == "look":
                    cap += "; " + ", ".join(f"{c} {r[f'{c}_look']:.2f}" for c in CLASSES
                                            if f"{c}_look" in r)
                parts.append(f"<figure><img src='{html.escape(r['files'][k])}'>"
                             f"<figcaption>{k}: {cap}</figcaption></figure>")
            parts.append("</div>")
        shown = [w for w in res.get("walk", []) if "files" in w]
        if shown:
            parts.append("<h3>after changes (a seeded walk): first recording | mock</h3>"
                         "<div class=row>")
            for w in shown:
                parts.append(f"<figure><img src='{html.escape(w['files']['recording'])}'>"
                             f"<img src='{html.escape(w['files']['walk'])}'><figcaption>"
                             f"{html.escape(w['screen'])} ({w['step']}): edge "
                             f"{w['edge']:.2f}; " + ", ".join(
                                 f"{c} {w[c]:.2f}" for c in CLASSES if c in w)
                             + "</figcaption></figure>")
            parts.append("</div>")
    page = out / "visual.html"
    page.write_text("\n".join(parts), encoding="utf-8")
    return page


def speed(results: list[dict], steps: int = 30) -> None:
    """`benchmarks/browser.py`'s walks on the example shop and the measured apps."""
    from benchmarks.browser import cases, time_walk

    for label, spec in cases([res["folder"] for res in results]):
        time_walk(label, spec, steps, whole=False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("traces", nargs="*", type=Path)
    ap.add_argument("--out", type=Path, help="write visual.html (and its images) here")
    ap.add_argument("--no-speed", action="store_true")
    ap.add_argument("--walk", type=int, default=0, metavar="N",
                    help="also compare the changed screens of a seeded N-step walk")
    args = ap.parse_args(argv)
    shots = Screenshotter(timeout=120)  # a loaded machine: slow, not failed
    if not shots.available:
        print(f"cannot take screenshots: {shots.unavailable_reason}")
        return 1
    results = []
    keys = ("edge_look", "edge_material", "edge_blank", "ssim_look", "ssim_material",
            "ssim_blank")
    print(f"{'app':28s} {'screens':>7s} {'recs':>5s}  edge: look  material blank"
          "   SSIM: look  material blank")
    try:
        for folder in app_folders(args.traces):
            t0 = time.perf_counter()
            res = measure(folder, shots, args.out, args.walk)
            if res is None:
                continue
            results.append(res)
            rows = res["rows"]
            m = [_mean(rows, k) for k in keys]
            print(f"{folder.parent.name + '/' + folder.name:28s} {len(rows):7d} "
                  f"{sum(r['recordings'] for r in rows):5d}  {m[0]:10.3f} {m[1]:9.3f} "
                  f"{m[2]:5.3f}   {m[3]:10.3f} {m[4]:9.3f} {m[5]:5.3f}  "
                  f"({time.perf_counter() - t0:.0f} s)")
            print(f"{'  regions':28s} {_region_line(rows, 'look')}   blank: "
                  f"{_region_line(rows, 'blank')}")
            if res["walk"]:
                print(f"{'  after changes (walk)':28s} {len(res['walk']):7d} shots  edge "
                      f"{statistics.mean(w['edge'] for w in res['walk']):.3f}   "
                      f"{_region_line(res['walk'], '')}")
        if results:
            every = [r for res in results for r in res["rows"]]
            apps = [[_mean(res["rows"], k) for k in keys] for res in results]
            means = [statistics.mean(a[i] for a in apps) for i in range(len(keys))]
            print(f"{'mean over apps':28s} {len(every):7d} "
                  f"{sum(r['recordings'] for r in every):5d}  {means[0]:10.3f} "
                  f"{means[1]:9.3f} {means[2]:5.3f}   {means[3]:10.3f} {means[4]:9.3f} "
                  f"{means[5]:5.3f}")
            for k in ("look", "blank"):
                print(f"{'  regions, ' + k:28s} " + "  ".join(
                    f"{c} {_over_apps(results, f'{c}_{k}'):.3f}" for c in CLASSES))
        if args.out is not None:
            print(f"side by side: {write_html(args.out, results)}")
        if not args.no_speed:
            print("speed (target: a changed screen's screenshot in <= 40 ms):")
            print(f"  load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
            speed(results)
    finally:
        shots.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
