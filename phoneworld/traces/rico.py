"""Rico interaction traces: `gestures.json` and `view_hierarchies/<id>.json`.

`gestures.json` maps each UI id to the normalised touch points of the gesture done on
that screen; the next screen is the next larger id. One point is a tap, several a swipe
from the first to the last. Screens are 1440x2560:

    {"74": [[0.35, 0.38]], "677": [[0.5, 0.8], [0.5, 0.7], [0.5, 0.2]]}
    -> Step(before=<74>, after=<677>, action=Action(kind="tap", x=504, y=972)),
       Step(before=<677>, after=None, action=Action(kind="swipe", x=720, y=2048, x2=720, y2=512))

Most hierarchies of the published traces are missing: such a screen is an observation
without a hierarchy (`root=None`), and the gaps are reported in one warning.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path

from phoneworld.errors import TraceError
from phoneworld.limits import MAX_CHILDREN, MAX_DEPTH, MAX_NODES, LimitError, check_text
from phoneworld.traces.assemble import assemble
from phoneworld.traces.files import entries, refusal, usable
from phoneworld.traces.model import Action, Observation, Step, Trace
from phoneworld.traces.viewlist import as_bool, as_str, load_json, parse_bounds, split_component
from phoneworld.ui.node import Node

WIDTH, HEIGHT = 1440, 2560
_ID = re.compile(r"[0-9]{1,9}")
_LISTED = 12


def detect(path: Path) -> bool:
    """A folder holding `gestures.json`."""
    return path.is_dir() and (path / "gestures.json").is_file()


def read(path: Path) -> list[Trace]:
    """Read one Rico trace folder as one trace."""
    path = Path(path)
    file = path / "gestures.json"
    if not file.is_file():
        raise TraceError(path, "no gestures.json (expected a Rico interaction trace)")
    notes: list[str] = []
    gestures = _gestures(file, notes)
    folder = path / "view_hierarchies"
    files = {}
    if folder.is_dir() and not refusal(folder, path):
        files = {int(f.stem): f for f in entries(
            folder, path, notes, keep=lambda f: f.suffix == ".json" and bool(_ID.fullmatch(
                f.stem)) and not f.is_dir())}
    ids = sorted(set(gestures) | set(files))
    if not ids:
        raise TraceError(file, "no gestures and no view hierarchies")
    observations = [_screen(path, n, files.get(n), notes) for n in ids]
    missing = [n for n, o in zip(ids, observations, strict=True) if o.root is None]
    if missing:
        shown = ", ".join(map(str, missing[:_LISTED]))
        more = f" and {len(missing) - _LISTED} more" if len(missing) > _LISTED else ""
        notes.append(f"view_hierarchies: {len(missing)} of {len(ids)} screens have no "
                     f"hierarchy (ids {shown}{more}); kept without one")
    steps: list[Step] = []
    for i, n in enumerate(ids):
        points = gestures.get(n)
        if not points:
            continue
        after = i + 1 if i + 1 < len(ids) else None
        steps.append(Step(before=i, action=_action(points), after=after,
                          source=f"gestures.json#{n}"))
    return [assemble(format="rico", name=path.name, source=str(path),
                     observations=observations, steps=steps, warnings=notes)]


def _load(file: Path, root: Path) -> object:
    try:
        return load_json(file, root)
    except ValueError as err:
        raise TraceError(file, str(err)) from err


def _gestures(file: Path, notes: list[str]) -> dict[int, list[tuple[float, float]]]:
    """id -> points, each clamped into [0, 1]; malformed entries are reported and skipped."""
    data = _load(file, file.parent)
    if not isinstance(data, dict):
        raise TraceError(file, f"expected an object mapping UI ids to points, "
                               f"got {type(data).__name__}")
    out: dict[int, list[tuple[float, float]]] = {}
    clamped = []
    for key, value in data.items():
        if not _ID.fullmatch(key):
            notes.append(f"gestures.json [{key[:20]!r}]: not a UI id (skipped)")
            continue
        if not isinstance(value, list):
            notes.append(f"gestures.json [{key}]: expected a list of [x, y] points (skipped)")
            continue
        points = [p for p in (_point(v) for v in value) if p is not None]
        if len(points) != len(value):
            notes.append(f"gestures.json [{key}]: {len(value) - len(points)} malformed "
                         f"points ignored")
        if any(not (0 <= c <= 1) for p in points for c in p):
            clamped.append(key)
            points = [(min(max(x, 0.0), 1.0), min(max(y, 0.0), 1.0)) for x, y in points]
        out[int(key)] = points
    if clamped:
        notes.append(f"gestures.json: points outside the screen clamped to its edge "
                     f"(ids {', '.join(clamped[:_LISTED])})")
    return out


def _point(value: object) -> tuple[float, float] | None:
    if not isinstance(value, list) or len(value) != 2:
        return None
    x, y = value
    if isinstance(x, bool) or isinstance(y, bool) or not isinstance(x, int | float) \
            or not isinstance(y, int | float) or not math.isfinite(x) or not math.isfinite(y):
        return None
    return float(x), float(y)


def _action(points: list[tuple[float, float]]) -> Action:
    x, y = _pixels(points[0])
    if len(points) == 1:
        return Action(kind="tap", x=x, y=y, raw=json.dumps([list(points[0])]))
    x2, y2 = _pixels(points[-1])
    return Action(kind="swipe", x=x, y=y, x2=x2, y2=y2,
                   raw=json.dumps([list(points[0]), list(points[-1])]))


def _pixels(p: tuple[float, float]) -> tuple[int, int]:
    return min(int(p[0] * WIDTH), WIDTH - 1), min(int(p[1] * HEIGHT), HEIGHT - 1)


def _screen(path: Path, n: int, file: Path | None, notes: list[str]) -> Observation:
    shot = next((f"screenshots/{n}{ext}" for ext in (".jpg", ".png")
                 if usable(path / "screenshots" / f"{n}{ext}", path)), None)
    if file is None:
        return Observation(root=None, width=WIDTH, height=HEIGHT, screenshot=shot,
                           source=f"gestures.json#{n}")
    rel = f"view_hierarchies/{file.name}"
    try:
        data = _load(file, path)
    except TraceError as err:
        notes.append(f"{rel}: {err.message} (kept without hierarchy)")
        data = None
    root_view = data.get("activity") if isinstance(data, dict) else None
    root_view = root_view.get("root") if isinstance(root_view, dict) else None
    name = as_str(data.get("activity_name")) if isinstance(data, dict) else ""
    package, activity = split_component(name)
    if data is not None and not isinstance(root_view, dict):
        notes.append(f"{rel}: no activity.root view (kept without hierarchy)")
    root = None
    if isinstance(root_view, dict):
        odd: list[str] = []
        try:
            root = _tree(root_view, package, odd)
        except LimitError as err:
            notes.append(f"{rel}: {err} (kept without hierarchy)")
        if odd and root is not None:
            kinds = Counter(odd)
            notes.append(f"{rel}: {len(odd)} view fields of the wrong type (read as empty or "
                         f"the default): " + ", ".join(f"{k} x{n}" for k, n in sorted(
                             kinds.items())))
    return Observation(root=root, width=WIDTH, height=HEIGHT, package=package,
                       activity=activity, screenshot=shot, source=rel)


def _tree(top: dict, package: str, odd: list[str]) -> Node:
    """Rico's nested views as `Node`s, built without recursion (hierarchies can be deep);
    fields of a type Rico never writes are named in `odd` (and read as defaults)."""
    order: list[tuple[dict, str, list[dict]]] = []
    stack = [(top, package, 1)]
    while stack:
        view, inherited, depth = stack.pop()
        odd.extend(_odd_fields(view))
        pkg = as_str(view.get("package")) or inherited
        kids = [c for c in view.get("children") or [] if isinstance(c, dict)] \
            if isinstance(view.get("children"), list) else []
        if kids and depth >= MAX_DEPTH:
            raise LimitError(f"views nest deeper than {MAX_DEPTH} levels (the limit)")
        if len(kids) > MAX_CHILDREN:
            raise LimitError(f"a view has more than {MAX_CHILDREN:,} children (the limit)")
        order.append((view, pkg, kids))
        if len(order) + len(stack) > MAX_NODES:
            raise LimitError(f"more than {MAX_NODES:,} views (the limit per observation)")
        stack.extend((c, pkg, depth + 1) for c in kids)
    built: dict[int, Node] = {}
    for view, pkg, kids in reversed(order):
        built[id(view)] = _node(view, pkg, tuple(built.pop(id(c)) for c in kids))
    return built[id(top)]


_STRINGS = ("class", "resource-id", "text", "package")
_BOOLS = ("clickable", "long-clickable", "checkable", "checked", "password", "selected",
          "enabled", "focusable", "focused", "visible-to-user", "scrollable-vertical",
          "scrollable-horizontal")


def _odd_fields(view: dict) -> list[str]:
    odd = [k for k in _STRINGS if view.get(k) is not None and not isinstance(view[k], str)]
    odd += [k for k in _BOOLS if view.get(k) is not None
            and as_bool(view[k], True) != as_bool(view[k], False)]
    desc = view.get("content-desc")
    if desc is not None and not isinstance(desc, str) and not (
            isinstance(desc, list) and all(d is None or isinstance(d, str) for d in desc)):
        odd.append("content-desc")
    return odd


def _node(view: dict, package: str, children: tuple[Node, ...]) -> Node:
    cls = as_str(view.get("class"))
    ancestors = view.get("ancestors") if isinstance(view.get("ancestors"), list) else []
    desc = view.get("content-desc")
    desc = desc if isinstance(desc, list) else [desc]
    visible = view.get("visible-to-user")
    if visible is None:
        visible = as_str(view.get("visibility")) in {"", "visible"}
    return Node(
        class_name=check_text(cls, "a view's class"),
        resource_id=check_text(as_str(view.get("resource-id")), "a view's resource-id"),
        text=check_text(as_str(view.get("text")), "a view's text"),
        content_desc=check_text(" ".join(s for s in map(as_str, desc) if s),
                                "a view's content-desc"),
        package=package,
        bounds=parse_bounds(view.get("bounds")) or (0, 0, 0, 0),
        clickable=as_bool(view.get("clickable"), False),
        long_clickable=as_bool(view.get("long-clickable"), False),
        checkable=as_bool(view.get("checkable"), False),
        checked=as_bool(view.get("checked"), False),
        editable=cls.endswith("EditText") or "android.widget.EditText" in ancestors,
        password=as_bool(view.get("password"), False),
        scrollable=as_bool(view.get("scrollable-vertical"), False)
        or as_bool(view.get("scrollable-horizontal"), False),
        selected=as_bool(view.get("selected"), False),
        enabled=as_bool(view.get("enabled"), True),
        focusable=as_bool(view.get("focusable"), False),
        focused=as_bool(view.get("focused"), False),
        visible=as_bool(visible, True),
        children=children,
    )
