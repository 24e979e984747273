"""DroidBot output folders: `utg.js`, `states/state_<tag>.json`, `events/event_<tag>.json`.

Each state file becomes one observation (in file order, which is chronological); each
event file one step, ordered by its tag. An event names its screens by `state_str`, which
is matched against the `state_str` inside the state files, not their names:

    events/event_T.json {"event": {"event_type": "touch", "view": {...}},
                         "start_state": "548a…", "stop_state": "788a…"}
    -> Step(before=<obs whose state_str is 548a…>, after=<… 788a…>,
            action=Action(kind="tap", x=<view centre>, target=<that view's path>))

A state file is written once per `state_str` and run, so an event links to the latest
file of its state recorded up to it. Real quirks (empty event files, events whose state
has no file, inverted bounds, foreign screens) become warnings.
"""

from __future__ import annotations

import bisect
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from phoneworld.errors import TraceError
from phoneworld.traces.assemble import assemble, foreground_package
from phoneworld.traces.files import UnsafeFile, entries, read_bytes, refusal, usable
from phoneworld.traces.model import Action, Observation, Step, Trace
from phoneworld.traces.viewlist import (
    ViewTree,
    as_int,
    as_str,
    build_tree,
    centre,
    load_json,
    parse_bounds,
    split_component,
)
from phoneworld.ui.hits import hit_test
from phoneworld.ui.node import Bounds, NodePath

_PREFIX = re.compile(r"^\s*(?:var|let|const)\s+\w+\s*=\s*")
_COMPONENT = re.compile(r"([A-Za-z]\w*(?:\.\w+)+)/[\w.$]+")
_FORCE_STOP = re.compile(r"\bam\s+force-stop\s+([A-Za-z]\w*(?:\.\w+)+)")
_DIRECTIONS = {"up", "down", "left", "right"}


@dataclass(frozen=True)
class _Screen:
    """A state's tree, and its views' temp_ids by DroidBot's `view_str`."""

    tree: ViewTree
    by_view_str: dict[str, list[int]]


def detect(path: Path) -> bool:
    """A folder with `utg.js`, or with both `states/` and `events/`."""
    return path.is_dir() and ((path / "utg.js").is_file() or (
        (path / "states").is_dir() and (path / "events").is_dir()))


def read(path: Path) -> list[Trace]:
    """Read one DroidBot output folder as one trace."""
    path = Path(path)
    if not path.is_dir():
        raise TraceError(path, "not a folder (expected DroidBot output: utg.js, states/, events/)")
    notes: list[str] = []
    utg = _read_utg(path, notes)
    state_files = _listing(path, "states", "state_", notes)
    event_files = _listing(path, "events", "event_", notes)
    if not state_files and not event_files:
        raise TraceError(path, "no DroidBot states (states/state_*.json) and no events "
                               "(events/event_*.json)")
    app = as_str(utg.get("app_package")) or None
    nodes = utg.get("nodes") if isinstance(utg.get("nodes"), list) else []
    known = {as_str(n.get("state_str")): n for n in nodes if isinstance(n, dict)}

    observations: list[Observation] = []
    screens: list[_Screen | None] = []
    by_state: dict[str, list[tuple[str, int]]] = {}
    for file in state_files:
        got = _read_state(path, file, known, notes)
        if got is None:
            continue
        state_str, tag, obs, screen = got
        by_state.setdefault(state_str, []).append((tag, len(observations)))
        observations.append(obs)
        screens.append(screen)
    if not observations:
        raise TraceError(path / "states", "no usable state file (state_*.json with a "
                                          "state_str)" + "".join(f"; {n}" for n in notes[-3:]))
    observations = _fix_sizes(observations, notes)

    events = [e for e in (_read_event(path, f, notes) for f in event_files) if e is not None]
    events.sort(key=lambda e: (e[0], e[1]))
    steps: list[Step] = []
    moved: list[str] = []
    size = Counter((o.width, o.height) for o in observations).most_common(1)[0][0]
    missing: dict[str, int] = {}
    settled_at: list[str] = []
    resumed_at: list[str] = []
    stood_at: list[str] = []
    late_at: list[str] = []
    last: int | None = None  # where the previous event left the device
    holders = _holders(screens, by_state)

    def stand_in(record: dict, tag: str) -> int | None:
        """The state file that stands for an event's start state that has none: the one
        (latest up to the event, else the first after it) holding the very view the event
        touched (DroidBot's view_str names a view by its activity, its own and its
        ancestors' and children's class, id and text): uber's legal page, caught loading
        after a link on How Uber Pro works, is known only this way."""
        view = record["event"].get("view")
        return _pick(holders.get(as_str(view.get("view_str"))), tag) \
            if isinstance(view, dict) and as_str(view.get("view_str")) else None

    def began(record: dict, tag: str) -> int | None:
        """Where an event began: its start state's latest file up to it, or a stand-in."""
        got = _pick(by_state.get(as_str(record.get("start_state"))), tag)
        return got if got is not None else stand_in(record, tag)

    def placeholder(state_str: str, rel: str, which: str) -> int:
        """An observation without hierarchy for a state the recorder wrote no file for."""
        if state_str not in missing:
            node = known.get(state_str, {})
            act = as_str(node.get("activity"))
            pkg = as_str(node.get("package"))
            missing[state_str] = len(observations)
            observations.append(Observation(
                root=None, width=size[0], height=size[1], package=pkg,
                activity=f"{pkg}/{act}" if pkg and act else act,
                source=f"utg.js node {state_str[:12]}"))
            screens.append(None)
            notes.append(f"{rel}: {which} state {state_str[:12] or '?'} has no state file "
                         f"(kept as an observation without hierarchy)")
        return missing[state_str]

    for i, (tag, rel, record) in enumerate(events):
        start = as_str(record.get("start_state"))
        before = _pick(by_state.get(start), tag)
        if before is None and _holds(screens[last] if last is not None else None,
                                     record["event"].get("view")):
            # No file for where the event started, but the screen the previous event
            # left holds the very view it touched (DroidBot's view_str: class, ids,
            # text, parents and children): the touch was made there (uber's Uber Pro
            # -> "Cancellation rate" -> How Uber Pro works is only known this way).
            before = last
            resumed_at.append(rel)
        if before is None and (before := stand_in(record, tag)) is not None:
            stood_at.append(rel)
        if before is None:
            before = placeholder(start, rel, "start")
        upto = events[i + 1][0] if i + 1 < len(events) else None
        stop = as_str(record.get("stop_state"))
        after = _pick(by_state.get(stop), upto)
        if after is None and upto is not None and app:
            # No file for where the event left the app (DroidBot caught it mid-way, a
            # page loading): where the next event started stands for where it settled,
            # if that is in the app (uber's Ratings -> Help is only known this way); one
            # outside it may be where DroidBot went after the app was left.
            settled = began(events[i + 1][2], upto)
            if settled is not None and observations[settled].package == app:
                after = settled
                settled_at.append(rel)
        if after is not None and stop == start and upto is not None and app and \
                isinstance(record["event"].get("view"), dict):
            # A touch after which DroidBot saw no change, while the next event began in
            # another state of the app that it wrote no file for, a file holding the view
            # touched there standing for it, with no event between: the touch's page
            # came late (uber's "For details see terms and conditions" opens its legal
            # page). A state with a file of its own may be a timer's (an ad giving way
            # to the app's first page): that is left to the screens' timers.
            nxt = events[i + 1][2]
            went = stand_in(nxt, upto) if as_str(nxt.get("start_state")) not in (
                stop, "") and not by_state.get(as_str(nxt.get("start_state"))) else None
            if went is not None and went != before and observations[went].package == app:
                after = went
                late_at.append(rel)
        if after is None:
            after = placeholder(stop, rel, "stop")
        last = after
        action = _action(record, screens[before], app, rel, notes, moved)
        if action is not None:
            steps.append(Step(before=before, action=action, after=after, source=rel))
    if settled_at:
        notes.append(f"{len(settled_at)} events left no state file of where they stopped; "
                     f"the next event's start state stands for it ({settled_at[0]}, ...)")
    if resumed_at:
        notes.append(f"{len(resumed_at)} events started in a state with no file; the view "
                     f"they touched is on the screen the event before left, which stands "
                     f"for it ({resumed_at[0]}, ...)")
    if stood_at:
        notes.append(f"{len(stood_at)} events started in a state with no file; a state file "
                     f"holding the view they touched stands for it ({stood_at[0]}, ...)")
    if late_at:
        notes.append(f"{len(late_at)} touches changed nothing DroidBot saw, and the next event "
                     f"began in the app in a state with no file, which a state file holding "
                     f"the view it touched stands for: they led there ({late_at[0]}, ...)")
    if moved:
        notes.append(f"{len(moved)} touches hit a view that the state file recorded elsewhere "
                     f"(the screen changed within one state_str); moved to the view's centre "
                     f"there ({moved[0]}, ...)")
    return [assemble(format="droidbot", name=path.name, source=str(path),
                     observations=observations, steps=steps, app=app, warnings=notes)]


def _listing(path: Path, sub: str, prefix: str, notes: list[str]) -> list[Path]:
    folder = path / sub
    if not folder.is_dir() or refusal(folder, path):
        return []
    return entries(folder, path, notes, keep=lambda f: f.name.startswith(prefix)
                   and f.suffix == ".json" and not f.is_dir())


def _read_utg(path: Path, notes: list[str]) -> dict:
    file = path / "utg.js"
    if not file.is_file():
        return {}
    try:
        text = read_bytes(file, path).decode("utf-8")
        utg = json.loads(_PREFIX.sub("", text, count=1).strip().rstrip(";"))
        if not isinstance(utg, dict):
            raise ValueError(f"expected an object, got {type(utg).__name__}")
    except (OSError, ValueError, RecursionError) as err:
        reason = f"not read: {err.strerror}" if isinstance(err, UnsafeFile) else \
            f"not a JSON object after the 'var utg =' prefix ({err})"
        if not (path / "states").is_dir() and not (path / "events").is_dir():
            raise TraceError(file, reason) from err
        notes.append(f"utg.js: {reason}; ignored")
        return {}
    return utg


def _read_state(path: Path, file: Path, known: dict[str, dict],
                notes: list[str]) -> tuple[str, str, Observation, _Screen | None] | None:
    rel = file.relative_to(path).as_posix()
    try:
        state = load_json(file, path)
    except ValueError as err:
        notes.append(f"{rel}: {err} (skipped)")
        return None
    state_str = as_str(state.get("state_str")) if isinstance(state, dict) else ""
    if not isinstance(state, dict) or not state_str:
        notes.append(f"{rel}: no state_str (skipped)")
        return None
    tag = as_str(state.get("tag")) or file.stem.removeprefix("state_")
    tree: ViewTree | None = None
    try:
        tree = build_tree(state.get("views"), file, where=rel)
        notes.extend(tree.warnings)
    except TraceError as err:
        notes.append(f"{rel}: {err.message} (observation kept without hierarchy)")
    root = tree.root if tree else None
    package, activity = split_component(as_str(state.get("foreground_activity")))
    node = known.get(state_str, {})
    package = package or as_str(node.get("package")) or foreground_package(root)
    activity = activity or split_component(f"{package}/{as_str(node.get('activity'))}")[1]
    width, height = as_int(state.get("width")) or 0, as_int(state.get("height")) or 0
    shot = next((f"states/screen_{tag}{ext}" for ext in (".jpg", ".png")
                 if usable(path / "states" / f"screen_{tag}{ext}", path)), None)
    obs = Observation(root=root, width=width, height=height, package=package,
                      activity=activity, screenshot=shot, source=rel)
    if tree is None:
        return state_str, tag, obs, None
    by_view_str: dict[str, list[int]] = {}
    for view in state["views"]:
        vid = as_int(view.get("temp_id")) if isinstance(view, dict) else None
        if vid is not None and vid in tree.paths and as_str(view.get("view_str")):
            by_view_str.setdefault(as_str(view.get("view_str")), []).append(vid)
    return state_str, tag, obs, _Screen(tree, by_view_str)


def _fix_sizes(observations: list[Observation], notes: list[str]) -> list[Observation]:
    """Keep a state's recorded width/height when its root fits in it, else use the screen
    the full-screen roots of this trace span.

    DroidBot sometimes records the other orientation's size (2340x1080 with 1080x1920
    roots), and older versions record none; a dialog's root covers only the dialog.
    """
    def extent(o: Observation) -> tuple[int, int]:
        return (o.root.bounds[2], o.root.bounds[3]) if o.root else (0, 0)

    def fits(o: Observation) -> bool:
        w, h = extent(o)
        return o.width > 0 and o.height > 0 and w <= o.width and h <= o.height

    full = Counter(extent(o) for o in observations
                   if o.root and o.root.bounds[:2] == (0, 0) and min(extent(o)) > 0)
    screen = full.most_common(1)[0][0] if full else None
    fixed: list[Observation] = []
    changed: list[str] = []
    for o in observations:
        size = (o.width, o.height) if fits(o) else screen or extent(o)
        if size != (o.width, o.height):
            changed.append(f"{o.source}: {o.width}x{o.height} -> {size[0]}x{size[1]}")
            o = o.model_copy(update={"width": max(size[0], 0), "height": max(size[1], 0)})
        fixed.append(o)
    if changed:
        notes.append(f"{len(changed)} states record no screen size or one their root view does "
                     f"not fit in; sized from the roots ({changed[0]}, ...)")
    return fixed


def _read_event(path: Path, file: Path, notes: list[str]) -> tuple[str, str, dict] | None:
    rel = file.relative_to(path).as_posix()
    try:
        record = load_json(file, path)
    except ValueError as err:
        notes.append(f"{rel}: {err} (skipped)")
        return None
    if not isinstance(record, dict) or not isinstance(record.get("event"), dict):
        notes.append(f"{rel}: no 'event' object (skipped)")
        return None
    tag = as_str(record.get("tag")) or file.stem.removeprefix("event_")
    return tag, rel, record


def _holders(screens: list[_Screen | None],
             by_state: dict[str, list[tuple[str, int]]]) -> dict[str, list[tuple[str, int]]]:
    """view_str -> (tag, observation) of every state file that holds such a view, in
    tag order."""
    out: dict[str, list[tuple[str, int]]] = {}
    for files in by_state.values():
        for tag, i in files:
            if screens[i] is not None:
                for view_str in screens[i].by_view_str:
                    out.setdefault(view_str, []).append((tag, i))
    return {k: sorted(v) for k, v in out.items()}


def _pick(files: list[tuple[str, int]] | None, upto: str | None) -> int | None:
    """The latest file of a state recorded up to `upto` (any, when None), else the first."""
    if not files:
        return None
    if upto is None:
        return files[-1][1]
    k = bisect.bisect_right([t for t, _ in files], upto)
    return files[k - 1][1] if k else files[0][1]


def _takes_text(screen: _Screen | None, target: NodePath | None) -> bool:
    """Whether text typed at `target` can land: an editable view, or a view holding one
    (unknown screen or target: assume it can)."""
    if screen is None or target is None:
        return True
    return any(n.editable for _, n in screen.tree.root.at(target).walk())


def _action(record: dict, screen: _Screen | None, app: str | None, rel: str,
            notes: list[str], moved: list[str]) -> Action | None:
    ev: dict = record["event"]
    kind = as_str(ev.get("event_type"))
    raw = as_str(record.get("event_str"))
    view = ev.get("view") if isinstance(ev.get("view"), dict) else None
    x, y = _point(ev.get("x"), ev.get("y"), view)
    target = _match(view, screen)
    if target is not None and x is not None and y is not None and screen is not None:
        bounds = _upright(screen.tree.root.at(target).bounds)
        if not (bounds[0] <= x <= bounds[2] and bounds[1] <= y <= bounds[3]):
            moved.append(rel)
            x, y = centre(bounds)
    if kind in {"touch", "long_touch"}:
        if x is None or y is None:
            notes.append(f"{rel}: {kind} without coordinates or view (skipped)")
            return None
        return Action(kind="tap" if kind == "touch" else "long_press", x=x, y=y,
                      target=target, raw=raw)
    if kind in {"set_text", "scroll"}:
        if target is None and screen is not None and x is not None and y is not None:
            target = hit_test(screen.tree.root, x, y)
        if kind == "set_text":
            if x is not None and y is not None and not _takes_text(screen, target):
                # DroidBot touches the view before it types: into a view that takes no
                # text, that touch is all the app saw.
                return Action(kind="tap", x=x, y=y, target=target, raw=raw)
            return Action(kind="type", x=x, y=y, text=as_str(ev.get("text")), target=target,
                          raw=raw)
        direction = as_str(ev.get("direction")).lower()
        return Action(kind="scroll", x=x, y=y, target=target, raw=raw,
                      direction=direction if direction in _DIRECTIONS else None)
    if kind == "swipe":
        x, y = _point(ev.get("start_x"), ev.get("start_y"), ev.get("start_view"))
        x2, y2 = _point(ev.get("end_x"), ev.get("end_y"), ev.get("end_view"))
        if x is None or y is None or x2 is None or y2 is None:
            notes.append(f"{rel}: swipe without start or end (skipped)")
            return None
        return Action(kind="swipe", x=x, y=y, x2=x2, y2=y2, raw=raw)
    if kind == "key":
        name = as_str(ev.get("name"))
        if not name:
            notes.append(f"{rel}: key event without a name (skipped)")
            return None
        return Action(kind="key", key=name.lower().removeprefix("keycode_"), raw=raw)
    if kind == "intent":
        intent = as_str(ev.get("intent"))
        if m := _FORCE_STOP.search(intent):
            return Action(kind="stop_app", package=m[1], raw=raw or intent)
        words = intent.split()
        if words[:2] == ["am", "start"] and (
                m := next(filter(None, map(_COMPONENT.fullmatch, words[2:])), None)):
            return Action(kind="open_app", package=m[1], raw=raw or intent)
        return Action(kind="intent", text=intent, raw=raw or intent)
    if kind == "kill_app":
        m = _FORCE_STOP.search(as_str(ev.get("stop_intent")))
        return Action(kind="stop_app", package=m[1] if m else app, raw=raw)
    notes.append(f"{rel}: event type {kind or '?'!r} is not a GUI action (skipped)")
    return None


def _point(x: object, y: object, view: object) -> tuple[int | None, int | None]:
    """Explicit coordinates, else the centre of the view's bounds (as DroidBot sends it)."""
    xi, yi = as_int(x), as_int(y)
    if xi is not None and yi is not None:
        return xi, yi
    b = parse_bounds(view.get("bounds")) if isinstance(view, dict) else None
    return centre(b) if b else (None, None)


def _holds(screen: _Screen | None, view: object) -> bool:
    """Whether `screen` has a view with the recorded view's `view_str`."""
    return screen is not None and isinstance(view, dict) and \
        bool(as_str(view.get("view_str"))) and as_str(view.get("view_str")) in screen.by_view_str


def _upright(b: Bounds) -> Bounds:
    return (min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3]))


def _match(view: dict | None, screen: _Screen | None) -> NodePath | None:
    """The recorded view's path in the start state's tree.

    A state_str leaves out positions, so the state file may be an earlier capture with
    another layout: match by `view_str` (DroidBot's id of a view), the same temp_id among
    equal view_strs first; else by temp_id with the same class and resource id; else by
    equal bounds and class.
    """
    if view is None or screen is None:
        return None
    tree = screen.tree
    bounds = parse_bounds(view.get("bounds"))
    cls, rid = as_str(view.get("class")), as_str(view.get("resource_id"))
    vid = as_int(view.get("temp_id"))
    same = screen.by_view_str.get(as_str(view.get("view_str")), [])
    if same:
        exact = [t for t in same if t == vid] or [
            t for t in same if tree.root.at(tree.paths[t]).bounds == bounds]
        if exact or len(same) == 1:
            return tree.paths[(exact or same)[0]]
    if vid is not None and vid in tree.paths:
        node = tree.root.at(tree.paths[vid])
        if node.class_name == cls and node.resource_id == rid:
            return tree.paths[vid]
    if bounds is None:
        return None
    for p, node in tree.root.walk():
        if node.bounds == bounds and node.class_name == cls:
            return p
    return None
