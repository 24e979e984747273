"""An app's look from its recordings: the files `look.json` and `assets/`, and a report.

    look, files, report = build_look(spec, recordings)
    # recordings: screen name -> [Recording(observation, screenshot path, source)]

Per screen with recorded screenshots, the recording most like the mock's first rendering
of it (`extract.pick_recording`) gives the plate, marks and lists (`extract`); the
images become deduplicated assets within the byte cap (`assets`); a bar that follows a
text (`gauges`) is cut from one recording per text it was recorded beside. A screenshot that
cannot be read is left out with a warning; a screen with none keeps the Material-like
look. Which recordings show which screen is the compiler's provenance (see
`recordings_by_screen`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from phoneworld.codegen.files import stable_json
from phoneworld.runtime.look import (
    LOOK_FILE,
    Gauge,
    ListLook,
    Look,
    Rect,
    ScreenLook,
    look_to_json,
    rows_elsewhere,
)
from phoneworld.runtime.page import FRAME_WIDTH
from phoneworld.spec.ast import AppSpec
from phoneworld.traces.model import Observation, Trace
from phoneworld.visual.assets import DEFAULT_CAP, encode_assets
from phoneworld.visual.compare import grey, typicality
from phoneworld.visual.extract import (
    borrow_sprites,
    extract_screen,
    pick_recording,
    screen_pixels,
    texts_at,
    varying_pictures,
)
from phoneworld.visual.gauges import GaugeCut, gauge_cut, gauge_views, recorded_texts
from phoneworld.visual.scrim import dialog_scrim


@dataclass(frozen=True)
class Recording:
    observation: Observation
    screenshot: Path
    source: str
    """The observation's name in the compile report (`<trace source>/<file>`)."""


def recordings_by_screen(provenance: Mapping[str, Sequence[str]], traces: Sequence[Trace],
                         folders: Sequence[Path | None]) -> dict[str, list[Recording]]:
    """Screen name -> its recordings that carry a screenshot, from the compiler's
    provenance (screen -> `<trace source>/<observation source>`); `folders[i]` is where
    `traces[i]` was read from."""
    where: dict[str, Recording] = {}
    for trace, folder in zip(traces, folders, strict=True):
        if folder is None:
            continue
        base = Path(folder).resolve()
        for o in trace.observations:
            if o.screenshot and o.root is not None:
                shot = (base / o.screenshot).resolve()
                if not shot.is_relative_to(base):
                    continue  # a trace names files in its own folder only
                key = f"{trace.source}/{o.source}"
                where.setdefault(key, Recording(o, shot, key))
    return {screen: [where[k] for k in refs if k in where]
            for screen, refs in sorted(provenance.items())}


def build_look(spec: AppSpec, recordings: Mapping[str, Sequence[Recording]], *,
               cap: int = DEFAULT_CAP, origin: str = ""
               ) -> tuple[Look | None, dict[str, bytes], dict]:
    """The look of `spec`'s screens from their `recordings`, the files that carry it, and
    the compile report's `visual` section. (None, {}, report) where nothing was recorded."""
    if not any(recordings.values()):
        return None, {}, {"screens": 0, "of": len(spec.screens), "warnings": [],
                          "assets": {"files": 0, "bytes": 0, "cap": cap}}
    from phoneworld.runtime import Machine

    machine = Machine(spec)
    machine.reset()
    warnings: list[str] = []
    cuts = {}
    gauges: dict[str, list[GaugeCut]] = {}
    for screen in spec.screens:
        recs = [r for r in recordings.get(screen.name, ()) if r.observation.root is not None]
        if not recs:
            continue
        shown = texts_at(machine.preview(screen.name, "node"))
        order = list(range(len(recs)))
        first = pick_recording(shown, [r.observation.root for r in recs],
                               _typical(recs, spec) if len(recs) > 2 else None)
        order.remove(first)
        cut, tries, plate = None, 0, None
        for i in [first, *order]:  # the best one that can be read
            if cut is not None and tries >= _BORROW:
                break
            tries += cut is not None
            rec = recs[i]
            pixels = _pixels(rec, spec, warnings)
            if pixels is None:
                continue
            if cut is None:
                cut = extract_screen(screen.root, rec.observation.root, pixels, rec.source)
                plate = (rec.observation.root, pixels)
            else:
                # A list the plate shows empty: a row of it from another recording. A
                # screen shown for several entities: the pictures that differ.
                cut = borrow_sprites(cut, screen.root, rec.observation.root, pixels)
                if screen.param is not None:
                    cut = varying_pictures(cut, *plate, rec.observation.root, pixels)
            if all(sprite is not None for _, sprite in cut.lists) and \
                    (screen.param is None or tries >= 2):
                break
        if cut is not None:
            # Keep how to read the plate again, not its pixels (7 MB a screen): the
            # assets are encoded one at a time.
            src = next(r for r in recs if r.source == cut.source)
            cuts[screen.name] = replace(cut, plate=_reader(src, spec))
            gauges[screen.name] = _gauges(screen.root, recs, spec)
    report: dict = {"screens": len(cuts), "of": len(spec.screens), "warnings": warnings}
    if not cuts:
        report["assets"] = {"files": 0, "bytes": 0, "cap": cap}
        return None, {}, report
    images = {}
    for name, cut in cuts.items():
        images[f"plate:{name}"] = cut.plate
        for k, (_, sprite) in enumerate(cut.lists):
            if sprite is not None and sprite.size:
                images[f"sprite:{name}:{k}"] = sprite
        for k, g in enumerate(gauges.get(name, ())):
            for j, (_, px) in enumerate(g.variants):
                images[f"gauge:{name}:{k}:{j}"] = px
    store = encode_assets(images, cap)
    dialogs = _dialogs(spec, cuts)
    screens = {}
    for name, cut in sorted(cuts.items()):
        plate = store.names.get(f"plate:{name}")
        if plate is None:
            continue  # left out to keep within the cap: this screen looks Material-like
        lists: list[ListLook] = []
        for k, (lst, _) in enumerate(cut.lists):
            sprite = store.names.get(f"sprite:{name}:{k}")
            lists.append(replace(lst, sprite=sprite) if sprite else lst)
        kept = []
        for k, g in enumerate(gauges.get(name, ())):
            variants = tuple((t, store.names[f"gauge:{name}:{k}:{j}"])
                             for j, (t, _) in enumerate(g.variants)
                             if f"gauge:{name}:{k}:{j}" in store.names)
            kept.append(Gauge(bounds=g.bounds, follows=g.follows, bg=g.bg, variants=variants))
        window, scrim = dialogs.get(name, (None, 0.0))
        screens[name] = ScreenLook(plate=plate, marks=cut.marks, lists=tuple(lists),
                                   source=cut.source, accent=cut.accent, varying=cut.varying,
                                   gauges=tuple(kept), window=window, scrim=scrim)
    look = Look(screens=rows_elsewhere(screens),
                data={k.split("/", 1)[1]: v for k, v in store.files.items()})
    origin = origin or spec.source or spec.name
    files = {LOOK_FILE: stable_json(look_to_json(look), origin), **store.files,
             COMPARISON: comparison_page(spec, look, origin).encode()}
    report.update(screens=len(screens), assets=store.report, comparison=COMPARISON)
    return look, files, report


def _dialogs(spec: AppSpec, cuts: Mapping[str, Any]) -> dict[str, tuple[Rect, float]]:
    """Each dialog screen's window (`Screen.window`) and recorded dim (`scrim`), fitted
    against the plate of the screen it opens over (`Screen.over`; where that is not
    known, of the screens its transitions open it from)."""
    out: dict[str, tuple[Rect, float]] = {}
    for screen in spec.screens:
        if screen.name not in cuts or screen.window is None:
            continue
        froms = [screen.over] if screen.over in cuts else sorted(
            {t.screen for t in spec.transitions
             if t.target == screen.name and t.screen != screen.name and t.screen in cuts})
        if not froms:
            continue
        got = dialog_scrim(screen.window, cuts[screen.name].plate(),
                           [cuts[f].plate() for f in froms])
        if got is not None:
            out[screen.name] = got
    return out


def _gauges(root, recs: Sequence[Recording], spec: AppSpec) -> list[GaugeCut]:
    """The screen's bars that follow a text (`gauges`), each cut from the first
    recording (in provenance order) that showed each text beside it."""
    out = []
    for bar, text in gauge_views(root):
        first: dict[str, Recording] = {}
        for rec, t in zip(recs, recorded_texts(bar, text, [r.observation.root for r in recs]),
                          strict=True):
            if t is not None:
                first.setdefault(t, rec)
        if len(first) < 2:
            continue
        got = gauge_cut(bar, text, [(t, lambda rec=rec: _pixels(rec, spec, []))
                                    for t, rec in first.items()])
        if got is not None:
            out.append(got)
    return out


def _reader(rec: Recording, spec: AppSpec):
    def read():
        pixels = _pixels(rec, spec, [])
        if pixels is None:  # it was read a moment ago: changed under our feet
            raise OSError(f"{rec.screenshot} can no longer be read")
        return pixels
    return read


_BORROW = 6
"""Other recordings of a screen looked at for a row of a list its plate shows empty."""


TYPICAL_SIZE = 96
"""Width of the grey thumbnails recordings are compared at for `_typical` (layout
blocks show; the 270-px measure costs 8 times as much for a recording's score)."""
TYPICAL_MAX = 24
"""Recordings each one is compared with for `_typical` (evenly spaced, when more)."""


def _typical(recs: Sequence[Recording], spec: AppSpec) -> list[float]:
    """How like the other recordings of its screen each recording's picture is
    (`compare.typicality` on small grey thumbnails; 0 for one that cannot be read)."""
    from PIL import Image, UnidentifiedImageError

    height = max(1, round(TYPICAL_SIZE * spec.height / spec.width))
    greys: list[np.ndarray] = []
    read: list[int] = []
    for i, rec in enumerate(recs):
        try:
            with Image.open(rec.screenshot) as img:
                img.draft("RGB", (img.width // 4, img.height // 4))  # JPEG: decoded small
                px = screen_pixels(img, TYPICAL_SIZE, height)
        except (OSError, UnidentifiedImageError, ValueError):
            continue
        greys.append(grey(px, TYPICAL_SIZE))
        read.append(i)
    step = max(1, -(-len(greys) // TYPICAL_MAX))
    out = [0.0] * len(recs)
    for i, score in zip(read, typicality(greys, range(0, len(greys), step)), strict=True):
        out[i] = score
    return out


def _pixels(rec: Recording, spec: AppSpec, warnings: list[str]):
    """A recording's screenshot as the app's RGB array, or None (with a warning) where it
    cannot be read or is not of the screen (a landscape shot of a portrait app)."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(rec.screenshot) as img:
            if (img.width > img.height) != (spec.width > spec.height):
                warnings.append(f"{rec.source}: screenshot {rec.screenshot.name} is "
                                f"{img.width}x{img.height}, the screen {spec.width}x"
                                f"{spec.height}; left out")
                return None
            return screen_pixels(img, spec.width, spec.height)
    except (OSError, UnidentifiedImageError, ValueError) as err:
        warnings.append(f"{rec.source}: screenshot {rec.screenshot.name} unreadable "
                        f"({err}); left out")
        return None


COMPARISON = "visual.html"
_PAGE = """<!doctype html>
<!-- generated by phoneworld from {{ origin }}; do not edit -->
<html lang="en"><head><meta charset="utf-8"><title>{{ app }}: recording | mock</title>
<style>body { font-family: sans-serif; margin: 16px; } .row { display: flex; gap: 12px;
margin: 0 0 24px; align-items: flex-start; } img, iframe { width: {{ width }}px; border: 1px solid
#ccc; } iframe { height: {{ height }}px; } h2 { font-size: 15px; }</style></head><body>
<h1>{{ app }}: each screen's recording (left) and the mock's first rendering (right)</h1>
{% for name, s in screens %}<h2>{{ name }} <small>({{ s.source }})</small></h2>
<div class="row"><img src="assets/{{ s.plate }}" alt="recording of {{ name }}">
<iframe src="screens/{{ name }}.html" title="mock of {{ name }}"></iframe></div>
{% endfor %}</body></html>
"""


def comparison_page(spec: AppSpec, look: Look, origin: str) -> str:
    """A page of each screen's recording beside the mock's preview (`screens/*.html`),
    which the compile report names; `benchmarks/visual.py` measures the same pairs."""
    from jinja2 import Environment

    env = Environment(autoescape=True)
    return env.from_string(_PAGE).render(
        app=spec.name, origin=" ".join(origin.split()).replace("--", "- -"),
        screens=sorted(look.screens.items()),
        width=FRAME_WIDTH, height=round(FRAME_WIDTH * spec.height / max(1, spec.width)))
