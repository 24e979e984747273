"""LlamaTouch trace folders: numbered screens and one action line per screen.

Screen *i* is `i.xml` (uiautomator dump), `i.vh` (the same views as a flat JSON list,
with a full-screen root), `i.activity` (`pkg/activity` or `null`) and an optional
`i.png`. Line *k* of `eventStructs.txt` is the action taken on screen *k*, leading to
screen *k+1*; clicks are recorded in a reduced resolution and scaled to the screen:

    [Click] Screen Resolution (320, 720), Click Position (204, 170)   on a 1080x2400 screen
    -> Action(kind="tap", x=689, y=567)

The recorder also writes `[Back]`, `[Home]`, `[App Switch]`, `[Long Click] …`,
`[Swipe] … Start Position (x, y), End Position (x, y)`, `[Drag] …` and `[Input] text`;
older traces use the Chinese forms:
`【点击事件】屏幕大小：（w320，h720），触摸位置：（x204，y170）`.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

from phoneworld.errors import TraceError
from phoneworld.traces.assemble import assemble, foreground_package
from phoneworld.traces.files import entries, read_bytes, read_head, refusal, usable
from phoneworld.traces.model import Action, Observation, Step, Trace
from phoneworld.traces.viewlist import ViewTree, build_tree, load_json, split_component
from phoneworld.ui.hierarchy import parse_hierarchy
from phoneworld.ui.node import Node, NodePath

_SCREEN_FILE = re.compile(r"^([0-9]{1,6})\.(xml|vh|activity|png)$")
_TAG = re.compile(r"^\s*(?:\[([^\]]*)\]|【([^】]*)】)\s*(.*)$")
_PAIR = re.compile(r"[(（]\s*[wx]?(-?[0-9]{1,9})\s*[,，]\s*[hy]?(-?[0-9]{1,9})\s*[)）]")
_KINDS = {
    "click": "tap", "点击事件": "tap", "long click": "long_press",
    "swipe": "swipe", "drag": "swipe", "滑动事件": "swipe", "input": "type", "type": "type",
    "键盘输入": "type", "back": "back", "back键": "back", "home": "home", "home键": "home",
    "app switch": "app_switch", "enter": "enter",
}


def detect(path: Path) -> bool:
    """A folder with `eventStructs.txt`, or numbered `.vh` / `.activity` screen files."""
    return path.is_dir() and ((path / "eventStructs.txt").is_file()
                              or (path / "0.vh").is_file() or (path / "0.activity").is_file())


def read(path: Path) -> list[Trace]:
    """Read one LlamaTouch trace folder as one trace."""
    path = Path(path)
    if not path.is_dir():
        raise TraceError(path, "not a folder (expected a LlamaTouch trace: 0.xml, 0.vh, ...)")
    notes: list[str] = []
    listed = entries(path, path, notes, keep=lambda f: bool(_SCREEN_FILE.match(f.name)))
    numbers = sorted({int(m[1]) for f in listed if (m := _SCREEN_FILE.match(f.name))})
    if not numbers:
        raise TraceError(path, "no screens (0.xml, 0.vh, ...) in this LlamaTouch folder")
    if numbers[-1] + 1 > len(numbers):
        present = set(numbers)
        gaps = [n for n in range(min(numbers[-1], 10_000)) if n not in present][:8]
        notes.append(f"{numbers[-1] + 1 - len(numbers)} screens have no files (missing): "
                     f"{', '.join(map(str, gaps))}{', ...' if len(gaps) == 8 else ''}")
    observations: list[Observation] = []
    index: dict[int, int] = {}
    for n in numbers:
        obs = _screen(path, n, notes)
        if obs is not None:
            index[n] = len(observations)
            observations.append(obs)
    if not observations:
        raise TraceError(path, "no screen has a readable hierarchy: " + "; ".join(notes[-3:]))
    steps = _steps(path, observations, index, notes)
    return [assemble(format="llamatouch", name=path.name, source=str(path),
                     observations=observations, steps=steps,
                     instruction=_instruction(path, notes), warnings=notes)]


def _text(file: Path, notes: list[str]) -> str | None:
    """A small text file, or None when absent; undecodable bytes are replaced and reported."""
    why = refusal(file, file.parent)
    if why:
        notes.append(f"{file.name}: skipped, {why}")
        return None
    if not file.is_file():
        return None
    try:
        data = read_bytes(file, file.parent)
    except OSError as err:
        raise TraceError(file, f"cannot read: {err.strerror or err}") from err
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        notes.append(f"{file.name}: not UTF-8 at byte {err.start}; bad bytes replaced")
        return data.decode("utf-8", errors="replace")


def _screen(path: Path, n: int, notes: list[str]) -> Observation | None:
    root: Node | None = None
    source = ""
    xml = path / f"{n}.xml"
    if usable(xml, path):
        try:
            root, attrs = parse_hierarchy(read_bytes(xml, path))
            source = xml.name
        except (OSError, ValueError) as err:  # HierarchyError is a ValueError
            notes.append(f"{xml.name}: {err}; using {n}.vh")
    tree = _view_tree(path / f"{n}.vh", notes, quiet=root is not None)
    if root is None and tree is not None:
        root, source = tree.root, f"{n}.vh"
        if not usable(xml, path):
            notes.append(f"{xml.name}: missing; using {n}.vh")
    if root is None:
        notes.append(f"screen {n}: neither {n}.xml nor {n}.vh is usable (skipped)")
        return None
    width, height = _size(path / f"{n}.png", tree, root)
    package, activity = split_component(_text(path / f"{n}.activity", notes) or "")
    png = path / f"{n}.png"
    return Observation(root=root, width=width, height=height,
                       package=package or foreground_package(root), activity=activity,
                       screenshot=png.name if usable(png, path) else None, source=source)


def _view_tree(file: Path, notes: list[str], *, quiet: bool) -> ViewTree | None:
    """The `.vh` list as a tree; its problems are reported only when it is the hierarchy used."""
    if not usable(file, file.parent):
        return None
    try:
        tree = build_tree(load_json(file, file.parent), file, where=file.name)
    except (ValueError, TraceError) as err:
        if not quiet:
            notes.append(f"{file.name}: {getattr(err, 'message', err)}")
        return None
    if not quiet:
        notes.extend(tree.warnings)
    return tree


def _size(png: Path, tree: ViewTree | None, root: Node) -> tuple[int, int]:
    """The screen size: the `.vh` root spans the whole screen (the XML root may stop above
    the navigation bar); else the screenshot's PNG header; else the hierarchy's extent."""
    if tree is not None and tree.root.bounds[2] > 0 and tree.root.bounds[3] > 0:
        return tree.root.bounds[2], tree.root.bounds[3]
    try:
        head = read_head(png, png.parent, 24)
        if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR":
            w, h = struct.unpack(">II", head[16:24])
            if 0 < w < 1 << 16 and 0 < h < 1 << 16:
                return w, h
    except OSError:
        pass
    return max(root.bounds[2], 0), max(root.bounds[3], 0)


def _instruction(path: Path, notes: list[str]) -> str | None:
    text = _text(path / "instruction.txt", notes)
    if text is None:
        return None
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if len(lines) >= 2:
        return lines[1]
    if lines and not lines[0].isdigit():  # no episode id line: the task alone
        return lines[0]
    notes.append("instruction.txt: no task line (line 2)")
    return None


def _steps(path: Path, observations: list[Observation], index: dict[int, int],
           notes: list[str]) -> list[Step]:
    text = _text(path / "eventStructs.txt", notes)
    if text is None:
        if len(observations) > 1:
            notes.append("eventStructs.txt: missing; screens have no actions between them")
        return []
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    steps: list[Step] = []
    for k, line in enumerate(lines):
        where = f"eventStructs.txt:{k + 1}"
        if not line.strip():
            notes.append(f"{where}: empty line (screen {k} has no action)")
            continue
        if k not in index:
            notes.append(f"{where}: screen {k} it was done on is missing (skipped)")
            continue
        before = observations[index[k]]
        action = _action(line.strip(), before, where, notes)
        if action is None:
            continue
        after = index.get(k + 1)
        if after is None:
            notes.append(f"{where}: no screen {k + 1} after this action (after = None)")
        steps.append(Step(before=index[k], action=action, after=after, source=where))
    if len(lines) < len(observations) - 1:
        notes.append(f"eventStructs.txt: {len(lines)} actions for {len(observations)} screens")
    return steps


def _action(line: str, obs: Observation, where: str, notes: list[str]) -> Action | None:
    m = _TAG.match(line)
    kind = _KINDS.get(m[1 if m[1] is not None else 2].strip().lower()) if m else None
    if m is None or kind is None:
        notes.append(f"{where}: unknown action {line[:60]!r} (skipped)")
        return None
    rest = m[3]
    if kind in {"back", "home", "app_switch", "enter"}:
        return Action(kind="key", key=kind, raw=line)
    if kind == "type":
        return Action(kind="type", text=rest, target=_focused(obs.root), raw=line)
    pairs = [(int(a), int(b)) for a, b in _PAIR.findall(rest)]
    need = 3 if kind == "swipe" else 2
    if len(pairs) < need or pairs[0][0] <= 0 or pairs[0][1] <= 0:
        notes.append(f"{where}: expected a resolution and {need - 1} position(s) in "
                     f"{line[:60]!r} (skipped)")
        return None
    (rw, rh), *points = pairs
    w, h = obs.width or rw, obs.height or rh
    x, y = _scale(points[0], rw, rh, w, h)
    if kind == "swipe":
        x2, y2 = _scale(points[1], rw, rh, w, h)
        return Action(kind="swipe", x=x, y=y, x2=x2, y2=y2, raw=line)
    return Action(kind="tap" if kind == "tap" else "long_press", x=x, y=y, raw=line)


def _scale(p: tuple[int, int], rw: int, rh: int, w: int, h: int) -> tuple[int, int]:
    """A point in the recorder's reduced resolution, in screen pixels (rounded half up)."""
    return (2 * p[0] * w + rw) // (2 * rw), (2 * p[1] * h + rh) // (2 * rh)


def _focused(root: Node | None) -> NodePath | None:
    """Where typed text goes: the focused editable field, else the only editable one."""
    if root is None:
        return None
    editable = [(p, n) for p, n in root.walk() if n.editable]
    focused = [p for p, n in editable if n.focused]
    if focused:
        return focused[0]
    return editable[0][0] if len(editable) == 1 else None
