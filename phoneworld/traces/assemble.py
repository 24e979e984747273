"""Turn what a reader found into a `Trace`: app package, foreign screens, tap targets.

Every reader ends here, so these rules hold for every format alike:
- the app is the package the recorder names, else the most frequent foreground package
  that is not part of the system (launcher, system UI, permission dialogs);
- an observation of another package is marked `foreign`;
- a tap, long press or swipe with coordinates and no recorded target is hit-tested on the
  observation it was done on; one that lands on no node is reported as a warning.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from phoneworld.traces.model import Observation, Step, Trace
from phoneworld.ui.hits import hit_test
from phoneworld.ui.node import Node

SYSTEM_PACKAGES = frozenset({
    "android", "com.android.systemui", "com.android.permissioncontroller",
    "com.google.android.permissioncontroller", "com.android.packageinstaller",
    "com.google.android.packageinstaller", "com.android.launcher", "com.android.launcher3",
    "com.google.android.apps.nexuslauncher", "com.sec.android.app.launcher",
    "com.miui.home", "com.huawei.android.launcher", "com.android.inputmethod.latin",
    "com.google.android.inputmethod.latin", "com.android.chrome", "com.android.settings",
})
"""Packages that are never the app under test unless the recorder says so."""


def _is_system(package: str) -> bool:
    return package in SYSTEM_PACKAGES or "launcher" in package or "inputmethod" in package


def foreground_package(root: Node | None) -> str:
    """The package of the largest window that is not the system UI (status/navigation bars)."""
    if root is None:
        return ""
    if root.class_name != "hierarchy" or not root.children:
        return root.package
    best, best_area = "", -1
    for win in root.children:
        x1, y1, x2, y2 = win.bounds
        area = max(0, x2 - x1) * max(0, y2 - y1)
        if win.package and win.package != "com.android.systemui" and area > best_area:
            best, best_area = win.package, area
    return best or root.children[0].package


def choose_app(observations: Sequence[Observation], named: str | None = None) -> str:
    if named:
        return named
    counts = Counter(o.package for o in observations if o.package)
    for package, _ in counts.most_common():
        if not _is_system(package):
            return package
    return counts.most_common(1)[0][0] if counts else ""


_POINTED = {"tap", "long_press", "swipe"}


def normalise_activity(activity: str) -> str:
    """One spelling for every format: the activity's full class name.

    `com.x/.ui.Main` and `com.x/com.x.ui.Main` (component names) and `com.x.ui.Main`
    all become `com.x.ui.Main`; a literal `null` becomes empty.
    """
    activity = activity.strip()
    if activity in ("", "null", "None"):
        return ""
    if "/" in activity:
        pkg, _, cls = activity.partition("/")
        return pkg + cls if cls.startswith(".") else cls
    return activity


def _normalise(o: Observation, app_package: str) -> Observation:
    shown = foreground_package(o.root)
    # The views say whose window is shown; a recorder's foreground activity can lag behind
    # (DroidBot names the app while the launcher is still on screen after a restart).
    foreign = (bool(o.package) and o.package != app_package) or \
        (bool(shown) and shown not in (app_package, "android") and _is_system(shown))
    activity = normalise_activity(o.activity)
    if o.foreign == foreign and o.activity == activity:
        return o
    return o.model_copy(update={"foreign": foreign, "activity": activity})


def assemble(
    *, format: str, name: str, source: str, observations: Sequence[Observation],
    steps: Sequence[Step], app: str | None = None, instruction: str | None = None,
    answer: str | None = None, warnings: Sequence[str] = (),
) -> Trace:
    """Build the `Trace`, marking foreign screens and resolving action targets."""
    app_package = choose_app(observations, app)
    obs = tuple(_normalise(o, app_package) for o in observations)
    notes = list(warnings)
    resolved: list[Step] = []
    for i, step in enumerate(steps):
        a = step.action
        root = obs[step.before].root
        if a.target is not None and root is not None and root.find(a.target) is None:
            notes.append(f"{step.source or f'step {i}'}: target {list(a.target)} is no view "
                         f"of its observation (ignored)")
            a = a.model_copy(update={"target": None})
            step = step.model_copy(update={"action": a})
        if a.kind in _POINTED and a.target is None and a.x is not None and a.y is not None:
            root = obs[step.before].root
            target = hit_test(root, a.x, a.y) if root is not None else None
            if target is None and root is None:
                pass  # the reader reports missing hierarchies itself, once
            elif target is None:
                where = step.source or f"step {i}"
                why = "no hierarchy" if root is None else "no node there"
                notes.append(f"{where}: {a.kind} at ({a.x}, {a.y}) resolved to no node ({why})")
            else:
                step = step.model_copy(update={"action": a.model_copy(update={"target": target})})
        resolved.append(step)
    foreign = sum(o.foreign for o in obs)
    if foreign:
        notes.append(f"{foreign} of {len(obs)} observations belong to other packages than "
                     f"{app_package} (kept as foreign screens)")
    return Trace(format=format, name=name, app=app_package, source=source, observations=obs,
                 steps=tuple(resolved), instruction=instruction, answer=answer,
                 warnings=tuple(notes))
