"""Loading a generated app folder (`generated/<app>/`) back: its spec and screen index."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from phoneworld.errors import PhoneworldError
from phoneworld.spec.ast import AppSpec
from phoneworld.traces.model import Observation
from phoneworld.ui.bodies import bodies, other_pages
from phoneworld.ui.dialogs import top_layer
from phoneworld.ui.skeleton import (
    SAME_SCREEN,
    content_texts,
    same_texts,
    selected_tabs,
    similarity,
    skeleton,
)


@dataclass(frozen=True)
class ScreenEntry:
    name: str
    package: str
    activity: str
    foreign: bool
    skeleton: frozenset[str]
    tabs: frozenset[str] = frozenset()
    texts: frozenset[str] = frozenset()
    bodies: frozenset[str] = frozenset()


@dataclass(frozen=True)
class GeneratedApp:
    path: Path
    spec: AppSpec
    screens: tuple[ScreenEntry, ...] = field(default=())
    chrome: frozenset[str] = frozenset()
    other_eras: tuple[dict[str, Any], ...] = field(default=(), hash=False)
    """What the compiler left out as another era of the app (the compile report's
    `other_eras`: per trace, its source, name and the observations' sources)."""

    def classify(self, obs: Observation) -> str | None:
        """The screen a recorded observation shows (the compiler's grouping rule), or None.
        A screen whose labels differ (`skeleton.same_texts`) is taken only when no screen
        with like labels has the layout: a screen's rendering may label its buttons with
        its row's texts. A screen of the app's own that fills the display with a body
        the observation lacks, while it has one the screen lacks, is another page in
        the same frame (`ui.bodies.other_pages`), as the compiler has it."""
        layer = top_layer(obs.root)  # a dialog's own layer, as the compiler has it
        skel = skeleton(layer)
        tabs = selected_tabs(layer)
        texts = content_texts(layer)
        big = bodies(layer, obs.width, obs.height)
        best, best_sim = None, (False, -1.0)
        for s in self.screens:
            if s.package != obs.package or s.foreign != obs.foreign or s.tabs != tabs:
                continue
            if not s.foreign and other_pages(skel, big, s.skeleton, s.bodies, self.chrome):
                continue
            if s.activity and obs.activity and s.activity.rsplit("/", 1)[-1] != \
                    obs.activity.rsplit("/", 1)[-1]:
                continue
            sim = similarity(skel, s.skeleton, frozenset() if s.foreign else self.chrome)
            if sim < SAME_SCREEN:
                continue
            score = (s.foreign or same_texts(texts, s.texts), sim)
            if score > best_sim:
                best, best_sim = s.name, score
        return best


def load_app(path: Path | str) -> GeneratedApp:
    """Read `spec.pw` (parsed and checked) and `screen_index.json` from an app folder."""
    from phoneworld.spec.check import load

    path = Path(path)
    spec_file = path / "spec.pw"
    if not spec_file.is_file():
        raise PhoneworldError(f"{path}: not a generated app (no spec.pw)")
    spec = load(spec_file)
    entries: list[ScreenEntry] = []
    index = path / "screen_index.json"
    if index.is_file():
        try:
            data = json.loads(index.read_bytes())
            for s in data["screens"]:
                entries.append(ScreenEntry(name=s["name"], package=s["package"],
                                           activity=s["activity"], foreign=s["foreign"],
                                           skeleton=frozenset(s["skeleton"]),
                                           tabs=frozenset(s.get("tabs", ())),
                                           texts=frozenset(s.get("texts", ())),
                                           bodies=frozenset(s.get("bodies", ()))))
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise PhoneworldError(f"{index}: unreadable screen index: {err}") from err
    chrome, eras = _report(path / "compile_report.json")
    from phoneworld.runtime.look import load_look

    look = load_look(path)  # the recorded look (#22), where the traces had screenshots
    if look is not None:
        spec = dataclasses.replace(spec, look=look)
    return GeneratedApp(path=path, spec=spec, screens=tuple(entries), chrome=chrome,
                        other_eras=eras)


def _report(report: Path) -> tuple[frozenset[str], tuple[dict[str, Any], ...]]:
    """What the compile report keeps of the recordings (they come from the traces, not
    the spec): the app's frame as they showed it, and the eras of them the compiler left
    out (`infer.eras`); none of either for an app built from a spec alone."""
    try:
        data = json.loads(report.read_bytes())
    except (OSError, ValueError):
        return frozenset(), ()
    data = data if isinstance(data, dict) else {}
    chrome, eras = data.get("chrome", ()), data.get("other_eras", ())
    return (frozenset(p for p in chrome if isinstance(p, str)) if isinstance(chrome, list)
            else frozenset(),
            tuple(e for e in eras if isinstance(e, dict) and isinstance(e.get("trace"), str)
                  and isinstance(e.get("observations"), list))
            if isinstance(eras, list) else ())


def find_apps(path: Path | str) -> list[Path]:
    """One app folder, or every app folder directly under `path`.

    Hidden folders (a writer's `.APP.pw-tmp-*` leftovers among them) are skipped; two
    folders whose manifests name the same app are refused.
    """
    path = Path(path)
    if (path / "spec.pw").is_file():
        return [path]
    apps = sorted(p for p in path.iterdir() if not p.name.startswith(".")
                  and (p / "spec.pw").is_file()) if path.is_dir() else []
    if not apps:
        raise PhoneworldError(f"{path}: no generated app here (no spec.pw)")
    seen: dict[str, Path] = {}
    for app in apps:
        name = _manifest_name(app) or app.name
        if name in seen:
            raise PhoneworldError(f"{path}: {seen[name].name}/ and {app.name}/ are both the "
                                  f"app {name!r}; keep one")
        seen[name] = app
    return apps


_MANIFEST_LIMIT = 16 << 20


def _manifest_name(folder: Path) -> str | None:
    """The app name a generated folder's manifest gives, if it has a readable one."""
    manifest = folder / "manifest.json"
    try:
        if not manifest.is_file() or manifest.stat().st_size > _MANIFEST_LIMIT:
            return None  # a FIFO would block; a giant is no manifest
        data = json.loads(manifest.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    name = data.get("app") if isinstance(data, dict) else None
    return name if isinstance(name, str) else None
