"""phoneworld's own recording format: one folder per trace.

    <trace>/trace.json   the manifest (below)
    <trace>/000.xml      one uiautomator dump per observation
    <trace>/000.png      optional screenshot

`trace.json`::

    {"format": "phoneworld-trace", "version": 1,
     "app": "com.example.shop", "instruction": "Add milk to the cart", "answer": null,
     "screen": [1080, 2400],
     "steps": [
       {"observation": "000.xml", "activity": "com.example.shop/.Main", "screenshot": null,
        "action": {"kind": "tap", "x": 540, "y": 1200}},
       ...
       {"observation": "007.xml", "activity": "...", "action": null}]}

Entry k is observation k and the action done on it, which leads to observation k+1; the
last entry's action is null (or an `answer`). Action objects use the fields of
`phoneworld.traces.model.Action`; a tap's target is found by hit-testing when omitted.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from phoneworld.errors import TraceError
from phoneworld.traces.assemble import assemble, foreground_package
from phoneworld.traces.model import Action, Observation, Step, Trace
from phoneworld.ui.hierarchy import HierarchyError, parse_hierarchy, to_uiautomator_xml

MANIFEST = "trace.json"
FORMAT_TAG = "phoneworld-trace"


def detect(path: Path) -> bool:
    return path.is_dir() and (path / MANIFEST).is_file()


def read(path: Path) -> list[Trace]:
    manifest_path = path / MANIFEST
    try:
        manifest = json.loads(manifest_path.read_bytes())
    except (OSError, UnicodeDecodeError) as err:
        raise TraceError(manifest_path, f"cannot read: {err}") from err
    except json.JSONDecodeError as err:
        raise TraceError(manifest_path, f"not JSON: {err.msg}", line=err.lineno) from err
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_TAG:
        raise TraceError(manifest_path, f'not a phoneworld trace manifest (need "format": '
                                        f'"{FORMAT_TAG}")')
    entries = manifest.get("steps")
    if not isinstance(entries, list) or not entries:
        raise TraceError(manifest_path, '"steps" must be a non-empty list')
    screen = manifest.get("screen")
    observations: list[Observation] = []
    steps: list[Step] = []
    for k, entry in enumerate(entries):
        record = f"steps[{k}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("observation"), str):
            raise TraceError(manifest_path, 'each step needs "observation": "<file>.xml"',
                             record=record)
        observations.append(_observation(path, entry, screen, manifest_path, record))
        action = entry.get("action")
        if action is None:
            continue
        try:
            act = Action.model_validate(action)
        except ValidationError as err:
            first = err.errors()[0]
            loc = ".".join(str(p) for p in first["loc"])
            raise TraceError(manifest_path, f"action.{loc}: {first['msg']}",
                             record=record) from err
        after = k + 1 if k + 1 < len(entries) else None
        steps.append(Step(before=k, action=act, after=after, source=f"{MANIFEST} {record}"))
    return [assemble(format="phoneworld", name=path.name, source=str(path),
                     observations=observations, steps=steps, app=manifest.get("app"),
                     instruction=manifest.get("instruction"), answer=manifest.get("answer"))]


def _observation(folder: Path, entry: dict, screen, manifest_path: Path,
                 record: str) -> Observation:
    name = entry["observation"]
    file = folder / name
    if Path(name).is_absolute() or ".." in Path(name).parts:
        raise TraceError(manifest_path, f"observation path {name!r} leaves the trace folder",
                         record=record)
    try:
        root, _ = parse_hierarchy(file.read_bytes())
    except OSError as err:
        raise TraceError(file, f"cannot read observation: {err.strerror or err}") from err
    except HierarchyError as err:
        raise TraceError(file, str(err)) from err
    if isinstance(screen, list) and len(screen) == 2 and all(isinstance(v, int) for v in screen):
        width, height = screen
    else:
        width, height = root.bounds[2], root.bounds[3]
    activity = entry.get("activity") or ""
    package = activity.split("/", 1)[0] if "/" in activity else foreground_package(root)
    shot = entry.get("screenshot")
    return Observation(root=root, width=width, height=height, package=package,
                       activity=activity, source=name,
                       screenshot=shot if isinstance(shot, str) else None)


def write(trace: Trace, folder: Path) -> None:
    """Write `trace` as a phoneworld trace folder (the recorder's output).

    Observations must form a chain (step k goes from observation k to k+1), as a
    recorder produces them. Files are written to a temporary folder first and moved
    into place, so a failure leaves no half-written trace.
    """
    import shutil
    import tempfile

    by_before = {s.before: s for s in trace.steps}
    entries = []
    for k, obs in enumerate(trace.observations):
        if obs.root is None:
            raise TraceError(folder, f"observation {k} has no hierarchy to write")
        step = by_before.get(k)
        action = None
        if step is not None:
            action = step.action.model_dump(exclude_defaults=True)
            if "target" in action:
                action["target"] = list(action["target"])
        entries.append({"observation": f"{k:03d}.xml", "activity": obs.activity,
                        "screenshot": obs.screenshot, "action": action})
    width, height = (trace.observations[0].width, trace.observations[0].height)
    manifest = {"format": FORMAT_TAG, "version": 1, "app": trace.app,
                "instruction": trace.instruction, "answer": trace.answer,
                "screen": [width, height], "steps": entries}
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=folder.parent))
    tmp.chmod(0o755)  # mkdtemp makes it private; a trace folder is ordinary data
    try:
        for k, obs in enumerate(trace.observations):
            (tmp / f"{k:03d}.xml").write_text(to_uiautomator_xml(obs.root), encoding="utf-8")
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n",
                                    encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        tmp.rename(folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
