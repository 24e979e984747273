"""Flat JSON view lists (DroidBot `views[]`, LlamaTouch `i.vh`) -> `Node` trees.

Such a list holds one dict per view; the tree is given by indices: `temp_id` (the
view's own), `parent` (-1 for the root) and `children`. Bounds are `[[x1, y1], [x2, y2]]`:

    [{"temp_id": 0, "parent": -1, "children": [1], "bounds": [[0, 0], [1080, 2400]], ...},
     {"temp_id": 1, "parent": 0, "children": [], "class": "android.widget.Button", ...}]
    -> Node(bounds=(0, 0, 1080, 2400), children=(Node(class_name="android.widget.Button"),))

Real lists are not always well formed, so `build_tree` tolerates inverted bounds (kept
as given, reported), dangling or repeated child indices and cycles (each view is placed
once), and reports every such repair as a warning instead of failing.

The module also holds the small helpers the JSON-based readers share: `load_json`, the
`as_*` coercions (null and wrong types read as defaults), `parse_bounds`, `split_component`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from phoneworld.errors import TraceError
from phoneworld.limits import MAX_CHILDREN, MAX_DEPTH, MAX_NODES, LimitError, check_text
from phoneworld.traces.files import read_bytes
from phoneworld.ui.node import Bounds, Node, NodePath

_FLAGS = {
    "clickable": "clickable", "long_clickable": "long_clickable", "checkable": "checkable",
    "checked": "checked", "editable": "editable", "is_password": "password",
    "scrollable": "scrollable", "selected": "selected", "enabled": "enabled",
    "focusable": "focusable", "focused": "focused", "visible": "visible",
}
_DEFAULT_TRUE = {"enabled", "visible"}
_LISTED = 8
"""How many offending view ids a warning lists before it says 'and N more'."""


@dataclass(frozen=True)
class ViewTree:
    """A view list as a tree, with each view's path in it (for matching recorded views)."""

    root: Node
    paths: dict[int, NodePath] = field(default_factory=dict)
    """temp_id -> path of that view in `root`."""
    warnings: tuple[str, ...] = ()


def load_json(file: Path, root: Path | None = None) -> object:
    """Parse one JSON file; ValueError with a short reason ("empty file", "not JSON (...)").

    With `root`, a file reached by a link out of `root` is not read (see `traces.files`).
    """
    try:
        data = read_bytes(file, root)
    except OSError as err:
        raise ValueError(f"cannot read ({err.strerror or err})") from err
    if not data.strip():
        raise ValueError("empty file")
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as err:  # RecursionError: absurdly deep nesting
        raise ValueError(f"not JSON ({err})") from err


def as_int(value: object) -> int | None:
    """An integer from a JSON number (or numeric string); None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return int(value)
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            return None
    return None


def as_str(value: object) -> str:
    """A string attribute; null (and any non-scalar) reads as empty.

    Lone surrogates (valid in JSON escapes, invalid in UTF-8) become U+FFFD, so that
    every string read can be written out again.
    """
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in value)
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return ""


def as_bool(value: object, default: bool) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in {"true", "false"}:
        return value.lower() == "true"
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    return default


def split_component(name: str) -> tuple[str, str]:
    """An activity as recorded -> (package, fully qualified activity class).

    `pkg/.Main` -> (`pkg`, `pkg.Main`); a name without `/` keeps no package; `null` -> empty.
    """
    name = name.strip()
    if name in {"", "null", "None"}:
        return "", ""
    if "/" not in name:
        return "", name
    package, activity = name.split("/", 1)
    return package, package + activity if activity.startswith(".") else activity


def parse_bounds(value: object) -> Bounds | None:
    """`[[x1, y1], [x2, y2]]` (or flat `[x1, y1, x2, y2]`) -> a tuple; None when malformed."""
    if isinstance(value, list) and len(value) == 2 and all(
            isinstance(p, list) and len(p) == 2 for p in value):
        flat = [value[0][0], value[0][1], value[1][0], value[1][1]]
    elif isinstance(value, list) and len(value) == 4:
        flat = value
    else:
        return None
    x1, y1, x2, y2 = (as_int(v) for v in flat)
    if x1 is None or y1 is None or x2 is None or y2 is None:
        return None
    return (x1, y1, x2, y2)


def centre(bounds: Bounds) -> tuple[int, int]:
    return ((bounds[0] + bounds[2]) // 2, (bounds[1] + bounds[3]) // 2)


def view_node(view: dict, children: tuple[Node, ...] = ()) -> Node:
    """One view dict as a `Node` (bounds (0, 0, 0, 0) when they are missing or malformed).
    A view the list calls invisible that holds a visible one is visible: the recording
    shows its child, so it is no hidden view but a wrapper with no area of its own (a
    web page's zero-height block its sidebar and tabs are placed from)."""
    flags = {attr: as_bool(view.get(key), attr in _DEFAULT_TRUE) for key, attr in _FLAGS.items()}
    if not flags["visible"] and any(c.visible for c in children):
        flags["visible"] = True
    cls = as_str(view.get("class"))
    if cls.endswith("EditText"):
        flags["editable"] = True
    return Node(
        class_name=check_text(cls, "a view's class"),
        resource_id=check_text(as_str(view.get("resource_id")), "a view's resource_id"),
        text=check_text(as_str(view.get("text")), "a view's text"),
        content_desc=check_text(as_str(view.get("content_description")),
                                "a view's content_description"),
        package=check_text(as_str(view.get("package")), "a view's package"),
        bounds=parse_bounds(view.get("bounds")) or (0, 0, 0, 0),
        children=children,
        **flags,
    )


def build_tree(views: object, file: Path | str, *, where: str = "") -> ViewTree:
    """Turn a flat view list into a tree.

    Args:
        views: the parsed JSON array.
        file: the file it came from, named in errors.
        where: the short name warnings start with (default: `file`).

    Raises:
        TraceError: when `views` is not a list or holds no view at all.
    """
    where = where or str(file)
    if not isinstance(views, list):
        raise TraceError(file, f"views: expected a JSON array, got {type(views).__name__}")
    notes: list[str] = []
    by_id: dict[int, dict] = {}
    order: list[int] = []
    skipped = duplicate = 0
    for index, view in enumerate(views):
        if not isinstance(view, dict):
            skipped += 1
            continue
        vid = as_int(view.get("temp_id"))
        vid = index if vid is None else vid
        if vid in by_id:
            duplicate += 1
            continue
        by_id[vid] = view
        order.append(vid)
    if skipped:
        notes.append(f"{where}: {skipped} entries of the view list are not objects (skipped)")
    if duplicate:
        notes.append(f"{where}: {duplicate} views repeat an earlier temp_id (skipped)")
    if not by_id:
        raise TraceError(file, "the view list holds no views")
    if len(by_id) > MAX_NODES:
        raise TraceError(file, f"{len(by_id):,} views, over the limit of {MAX_NODES:,} per "
                               f"observation")

    kids = _children(by_id, order, notes, where)
    roots = [v for v in order if as_int(by_id[v].get("parent")) not in by_id]
    if not roots:  # every view has a parent: a cycle at the top; start at the first view
        notes.append(f"{where}: no root view (parents form a cycle); rooted at view {order[0]}")
        roots = [order[0]]
    placed: set[int] = set()
    try:
        trees = [t for t in (_assemble(r, by_id, kids, placed) for r in roots)
                 if t is not None]
    except LimitError as err:
        raise TraceError(file, str(err)) from err
    lost = [v for v in order if v not in placed]
    if lost:
        notes.append(f"{where}: {len(lost)} views are not reachable from the root "
                     f"(dropped): {_listing(lost)}")
    odd = [f"{v}.{key}" for v in order if v in placed for key in _odd_fields(by_id[v])]
    if odd:  # read as defaults, as real lists' nulls are; said, never silent
        notes.append(f"{where}: {len(odd)} view fields of the wrong type (read as empty or "
                     f"the default): {_listing(odd)}")
    inverted = [v for v in order if v in placed and _inverted(by_id[v].get("bounds"))]
    if inverted:
        notes.append(f"{where}: {len(inverted)} views with inverted bounds (kept as given): "
                     f"{_listing(inverted)}")
    bad = [v for v in order if v in placed and parse_bounds(by_id[v].get("bounds")) is None]
    if bad:
        notes.append(f"{where}: {len(bad)} views without valid bounds (read as [0,0][0,0]): "
                     f"{_listing(bad)}")

    nodes = [node for node, _ in trees]
    paths: dict[int, NodePath] = {}
    if len(nodes) == 1:
        root = nodes[0]
        paths.update(trees[0][1])
    else:  # several top-level views (windows): one synthetic root spanning them
        root = Node(class_name="hierarchy", package=nodes[0].package, children=tuple(nodes),
                    bounds=(min(n.bounds[0] for n in nodes), min(n.bounds[1] for n in nodes),
                            max(n.bounds[2] for n in nodes), max(n.bounds[3] for n in nodes)))
        for i, (_, sub) in enumerate(trees):
            paths.update({vid: (i,) + p for vid, p in sub.items()})
    return ViewTree(root=root, paths=paths, warnings=tuple(notes))


def _children(by_id: dict[int, dict], order: list[int], notes: list[str],
              where: str) -> dict[int, list[int]]:
    """Each view's child ids: its `children` list, else the views naming it as `parent`."""
    by_parent: dict[int, list[int]] = {}
    for v in order:
        p = as_int(by_id[v].get("parent"))
        if p is not None and p in by_id and p != v:
            by_parent.setdefault(p, []).append(v)
    kids: dict[int, list[int]] = {}
    dangling = 0
    for v in order:
        listed = by_id[v].get("children")
        if not isinstance(listed, list):
            kids[v] = by_parent.get(v, [])
            continue
        ids = [as_int(c) for c in listed]
        dangling += sum(1 for c in ids if c is None or c not in by_id)
        kids[v] = [c for c in ids if c is not None and c in by_id]
    if dangling:
        notes.append(f"{where}: {dangling} child indices name no view (ignored)")
    return kids


def _assemble(top: int, by_id: dict[int, dict], kids: dict[int, list[int]],
              placed: set[int]) -> tuple[Node, dict[int, NodePath]] | None:
    """Build the subtree under `top` without recursion; a view already placed is skipped,
    which breaks cycles and repeated child indices."""
    if top in placed:
        return None
    placed.add(top)
    # Pass 1 (pre-order): fix each view's place; pass 2 (reverse): build bottom-up.
    paths: dict[int, NodePath] = {top: ()}
    child_ids: dict[int, list[int]] = {}
    visit = [top]
    stack = [top]
    while stack:
        v = stack.pop()
        mine = []
        if len(paths[v]) + 1 >= MAX_DEPTH and kids.get(v):  # root: path (), depth 1
            raise LimitError(f"views nest deeper than {MAX_DEPTH} levels (the limit)")
        if len(kids.get(v, ())) > MAX_CHILDREN:
            raise LimitError(f"view {v} has more than {MAX_CHILDREN:,} children (the limit)")
        for c in kids.get(v, []):
            if c in placed:
                continue
            placed.add(c)
            paths[c] = paths[v] + (len(mine),)
            mine.append(c)
        child_ids[v] = mine
        visit.extend(mine)
        stack.extend(reversed(mine))
    built: dict[int, Node] = {}
    for v in reversed(visit):
        built[v] = view_node(by_id[v], tuple(built.pop(c) for c in child_ids[v]))
    return built[top], paths


_STRINGS = ("class", "resource_id", "text", "content_description", "package")


def _odd_fields(view: dict) -> list[str]:
    """The keys of `view` whose value is of a type no recorder writes there (bounds are
    reported on their own)."""
    odd = [k for k in _STRINGS if view.get(k) is not None and not isinstance(view[k], str)]
    return odd + [k for k in _FLAGS if view.get(k) is not None
                  and as_bool(view[k], True) != as_bool(view[k], False)]  # unreadable


def _inverted(value: object) -> bool:
    b = parse_bounds(value)
    return b is not None and (b[0] > b[2] or b[1] > b[3])


def _listing(ids: Iterable[int]) -> str:
    ids = list(ids)
    shown = ", ".join(str(i) for i in ids[:_LISTED])
    return shown + (f" and {len(ids) - _LISTED} more" if len(ids) > _LISTED else "")
