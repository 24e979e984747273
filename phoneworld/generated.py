"""Loading a generated app folder (`generated/<app>/`) back: its spec and screen index."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from phoneworld.errors import PhoneworldError
from phoneworld.infer.screens import SAME_SCREEN
from phoneworld.infer.skeleton import selected_tabs, similarity, skeleton
from phoneworld.spec.ast import AppSpec
from phoneworld.traces.model import Observation


@dataclass(frozen=True)
class ScreenEntry:
    name: str
    package: str
    activity: str
    foreign: bool
    skeleton: frozenset[str]
    tabs: frozenset[str] = frozenset()


@dataclass(frozen=True)
class GeneratedApp:
    path: Path
    spec: AppSpec
    screens: tuple[ScreenEntry, ...] = field(default=())
    chrome: frozenset[str] = frozenset()

    def classify(self, obs: Observation) -> str | None:
        """The screen a recorded observation shows (the compiler's grouping rule), or None."""
        skel = skeleton(obs.root)
        tabs = selected_tabs(obs.root)
        best, best_sim = None, -1.0
        for s in self.screens:
            if s.package != obs.package or s.foreign != obs.foreign or s.tabs != tabs:
                continue
            if s.activity and obs.activity and s.activity.rsplit("/", 1)[-1] != \
                    obs.activity.rsplit("/", 1)[-1]:
                continue
            sim = similarity(skel, s.skeleton, frozenset() if s.foreign else self.chrome)
            if sim > best_sim:
                best, best_sim = s.name, sim
        return best if best_sim >= SAME_SCREEN else None


def load_app(path: Path | str) -> GeneratedApp:
    """Read `spec.pw` (parsed and checked) and `screen_index.json` from an app folder."""
    from phoneworld.spec.check import load

    path = Path(path)
    spec_file = path / "spec.pw"
    if not spec_file.is_file():
        raise PhoneworldError(f"{path}: not a generated app (no spec.pw)")
    spec = load(spec_file)
    entries: list[ScreenEntry] = []
    chrome: frozenset[str] = frozenset()
    index = path / "screen_index.json"
    if index.is_file():
        try:
            data = json.loads(index.read_bytes())
            for s in data["screens"]:
                entries.append(ScreenEntry(name=s["name"], package=s["package"],
                                           activity=s["activity"], foreign=s["foreign"],
                                           skeleton=frozenset(s["skeleton"]),
                                           tabs=frozenset(s.get("tabs", ()))))
            chrome = frozenset(data.get("chrome", ()))
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise PhoneworldError(f"{index}: unreadable screen index: {err}") from err
    return GeneratedApp(path=path, spec=spec, screens=tuple(entries), chrome=chrome)


def find_apps(path: Path | str) -> list[Path]:
    """One app folder, or every app folder directly under `path`."""
    path = Path(path)
    if (path / "spec.pw").is_file():
        return [path]
    apps = sorted(p for p in path.iterdir() if (p / "spec.pw").is_file()) \
        if path.is_dir() else []
    if not apps:
        raise PhoneworldError(f"{path}: no generated app here (no spec.pw)")
    return apps
