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

from phoneworld.errors import OutputError, TraceError
from phoneworld.limits import MAX_TEXT
from phoneworld.traces.assemble import assemble, foreground_package
from phoneworld.traces.files import TooLarge, UnsafeFile, read_bytes
from phoneworld.traces.model import Action, Observation, Step, Trace
from phoneworld.ui.hierarchy import HierarchyError, parse_hierarchy, to_uiautomator_xml
from phoneworld.ui.node import Node

MANIFEST = "trace.json"
FORMAT_TAG = "phoneworld-trace"


def detect(path: Path) -> bool:
    return path.is_dir() and (path / MANIFEST).is_file()


_COORD = 1_000_000
"""Coordinates beyond this many pixels are no screen's."""
_NEEDS = {"tap": ("x", "y"), "long_press": ("x", "y"), "swipe": ("x", "y", "x2", "y2"),
          "scroll": ("direction",), "type": ("text",), "key": ("key",),
          "open_app": ("package",), "stop_app": ("package",), "answer": ("text",)}
"""The fields each action kind cannot do without."""


def read(path: Path) -> list[Trace]:
    manifest_path = path / MANIFEST
    try:
        manifest = json.loads(read_bytes(manifest_path, path))
    except (OSError, UnicodeDecodeError) as err:
        raise TraceError(manifest_path, f"cannot read: {getattr(err, 'strerror', '') or err}"
                         ) from err
    except json.JSONDecodeError as err:
        raise TraceError(manifest_path, f"not JSON: {err.msg}", line=err.lineno) from err
    except RecursionError as err:
        raise TraceError(manifest_path, "not JSON: nested too deeply") from err
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_TAG:
        raise TraceError(manifest_path, f'not a phoneworld trace manifest (need "format": '
                                        f'"{FORMAT_TAG}")')
    field = _Fields(manifest_path)
    entries = manifest.get("steps")
    if not isinstance(entries, list) or not entries:
        raise TraceError(manifest_path, '"steps" must be a non-empty list')
    app, instruction, answer = (field.text(manifest, k, "") for k in ("app", "instruction",
                                                                       "answer"))
    screen = manifest.get("screen")
    if screen is not None and not (isinstance(screen, list) and len(screen) == 2 and all(
            type(v) is int and 0 < v <= _COORD for v in screen)):
        raise TraceError(manifest_path, "screen: expected [width, height] in pixels, or "
                                        "null")
    observations: list[Observation] = []
    steps: list[Step] = []
    notes: list[str] = []
    parsed: dict[Path, Node] = {}
    for k, entry in enumerate(entries):
        record = f"steps[{k}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("observation"), str):
            raise TraceError(manifest_path, 'each step needs "observation": "<file>.xml"',
                             record=record)
        obs = _observation(path, entry, screen, field, record, notes, parsed)
        observations.append(obs)
        action = entry.get("action")
        if action is None:
            continue
        act = _action(action, obs, field, record)
        after = k + 1 if k + 1 < len(entries) else None
        steps.append(Step(before=k, action=act, after=after, source=f"{MANIFEST} {record}"))
    return [assemble(format="phoneworld", name=path.name, source=str(path),
                     observations=observations, steps=steps, app=app, instruction=instruction,
                     answer=answer, warnings=notes)]


class _Fields:
    """Typed access to manifest fields; a wrong type is a TraceError naming the field."""

    def __init__(self, file: Path) -> None:
        self.file = file

    def fail(self, where: str, message: str) -> TraceError:
        record, _, key = where.partition(".") if where.startswith("steps[") else ("", "",
                                                                                 where)
        return TraceError(self.file, f"{key}: {message}", record=record or None)

    def text(self, obj: dict, key: str, record: str) -> str | None:
        """A string field (or null/absent -> None), valid text and within MAX_TEXT."""
        value = obj.get(key)
        where = f"{record}.{key}" if record else key
        if value is None:
            return None
        if not isinstance(value, str):
            raise self.fail(where, f"expected a string or null, got {_json_type(value)}")
        return self.check_text(value, where)

    def check_text(self, value: str, where: str) -> str:
        if len(value) > MAX_TEXT:
            raise self.fail(where, f"{len(value):,} characters, over the limit of "
                                   f"{MAX_TEXT:,}")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as err:
            raise self.fail(where, f"holds an unpaired surrogate "
                                   f"\\u{ord(value[err.start]):04x}, which is not text"
                            ) from err
        return value


def _json_type(value: object) -> str:
    return {dict: "an object", list: "a list", bool: "true/false", int: "a number",
            float: "a number", str: "a string"}.get(type(value), type(value).__name__)


def _action(action: object, obs: Observation, field: _Fields, record: str) -> Action:
    where = f"{record}.action"
    if not isinstance(action, dict):
        raise field.fail(where, f"expected an object or null, got {_json_type(action)}")
    for key, value in action.items():
        if isinstance(value, str):
            field.check_text(value, f"{where}.{key}")
    try:  # strict: "540" or true is no coordinate; JSON lists are fine for the target
        act = Action.model_validate_json(json.dumps(action), strict=True)
    except ValidationError as err:
        first = err.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise TraceError(field.file, f"action.{loc}: {first['msg']}", record=record) from err
    missing = [k for k in _NEEDS.get(act.kind, ()) if getattr(act, k) is None]
    if missing:
        raise field.fail(f"{where}.{missing[0]}", f"a {act.kind} needs it")
    for k in ("x", "y", "x2", "y2"):
        v = getattr(act, k)
        if v is not None and abs(v) > _COORD:
            raise field.fail(f"{where}.{k}", f"{v} is not a screen coordinate")
    if act.target is not None and (obs.root is None or obs.root.find(act.target) is None):
        raise field.fail(f"{where}.target", f"{list(act.target)} is no node of {obs.source}")
    return act


def _parsed(file: Path, folder: Path, parsed: dict[Path, Node]) -> Node:
    """The hierarchy in `file`, parsed once however many steps name it."""
    try:
        key = file.resolve()
    except (OSError, RuntimeError):  # a link loop: `read_bytes` says so
        key = file
    if key not in parsed:
        parsed[key] = parse_hierarchy(read_bytes(file, folder))[0]
    return parsed[key]


def _observation(folder: Path, entry: dict, screen, field: _Fields, record: str,
                 notes: list[str], parsed: dict[Path, Node]) -> Observation:
    name = field.text(entry, "observation", record) or ""
    activity = field.text(entry, "activity", record) or ""
    shot = field.text(entry, "screenshot", record)
    if "\x00" in name or not Path(name).parts:
        raise TraceError(field.file, f"observation: {name!r} is not a file name",
                         record=record)
    if Path(name).is_absolute() or ".." in Path(name).parts:
        raise TraceError(field.file, f"observation path {name!r} leaves the trace folder",
                         record=record)
    file = folder / name
    try:
        root = _parsed(file, folder, parsed)
    except TooLarge as err:
        raise TraceError(file, err.strerror) from err
    except UnsafeFile as err:  # a link out of the folder, a FIFO: not read, not fatal
        notes.append(f"{name}: skipped, {err.strerror} (observation kept without hierarchy)")
        root = None
    except OSError as err:
        raise TraceError(file, f"cannot read observation: {err.strerror or err}") from err
    except HierarchyError as err:
        raise TraceError(file, str(err)) from err
    if isinstance(screen, list):
        width, height = screen
    elif root is not None:
        width, height = root.bounds[2], root.bounds[3]
    else:
        width, height = 0, 0
    package = activity.split("/", 1)[0] if "/" in activity else foreground_package(root)
    return Observation(root=root, width=width, height=height, package=package,
                       activity=activity, source=name, screenshot=shot)


def write(trace: Trace, folder: Path) -> None:
    """Write `trace` as a phoneworld trace folder (the recorder's output).

    Observations must form a chain (step k goes from observation k to k+1), as a
    recorder produces them. Files are written to a temporary folder first and moved
    into place, so a failure leaves no half-written trace; an existing folder is
    replaced only when it is empty or a trace folder itself.
    """
    import shutil
    import tempfile

    if folder.exists() and (not folder.is_dir() or folder.is_symlink() or (
            any(folder.iterdir()) and not (folder / MANIFEST).is_file())):
        raise OutputError(f"refusing to replace {folder}: it is not a phoneworld trace "
                          f"folder (no {MANIFEST}); choose a new or empty folder")
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
