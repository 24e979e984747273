"""What a generated app holds, as the compiler assembles it for codegen to serialise.

    AppBundle(spec, screens=(...), initial_state="INSERT ...", previews=(("main", "<html>"),),
              checker_cases=({...},), report={...})

Codegen turns a bundle into bytes and nothing else: working out the values (rendering
screens, planning demos, reading traces) is the compiler's (`phoneworld.build`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from phoneworld.spec.ast import AppSpec


@dataclass(frozen=True)
class ScreenIndexEntry:
    """How replay recognises one of the app's screens in a recording."""

    name: str
    package: str
    activity: str
    foreign: bool
    skeleton: tuple[str, ...]
    """The structural skeleton of the screen's rendering, sorted."""
    tabs: tuple[str, ...] = ()
    """The selected tabs it shows, sorted."""
    texts: tuple[str, ...] = ()
    """The labels it shows (`ui.skeleton.content_texts`), sorted."""
    bodies: tuple[str, ...] = ()
    """The skeleton paths of its big views (`ui.bodies`), sorted."""


@dataclass(frozen=True)
class AppBundle:
    """Everything `generated/<app>/` holds, as values."""

    spec: AppSpec
    screens: tuple[ScreenIndexEntry, ...]
    initial_state: str
    """The SQLite content and state a reset restores, as SQL statements."""
    previews: tuple[tuple[str, str], ...]
    """(screen name, HTML of the screen in its initial state), in the spec's order."""
    checker_cases: tuple[dict, ...]
    """Task instances with verified demos (`tasks.gentests.checker_cases`)."""
    report: dict
    """Counts, warnings and provenance of the inference (see `phoneworld.build`)."""
    look_files: Mapping[str, bytes] = field(default_factory=dict)
    """The recorded look, where the traces had screenshots: `look.json`, `assets/<hash>`
    and the side-by-side `visual.html` (`phoneworld.visual`); written as they are."""
