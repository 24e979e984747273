"""The spec's transitions: for each recorded (screen, widget, action), where it goes.

    graph: home.list/[item] tap -> detail (x5, item)  ->  on home.list tap -> detail with item
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import replace

from phoneworld.infer.backdrops import (
    SPEC_ACTIONS,
    backdrop,
    reached_without,
    taps_that_leave,
)
from phoneworld.infer.edits import id_is_item
from phoneworld.infer.facts import Facts
from phoneworld.infer.keys import list_key, resolve_key
from phoneworld.infer.layout import interactive
from phoneworld.infer.toggles import state_pair
from phoneworld.spec.ast import BoolOp, Call, Compare, Const, Effect, Not, Ref, Transition


def choose_transitions(f: Facts) -> Facts:
    """Per (screen, widget, action): the most frequent recorded target; where taps on
    different list rows went to different screens (a folder vs a file), a transition
    with a `when` on the row for each other target, tried before the default. Each
    carries the toggles and row effects found for it.

        home.list/[item] tap -> detail x5, -> folder x2 (rows 4, 9)
          ->  on home.list tap -> folder when item.id == 4 or item.id == 9
              on home.list tap -> detail with item
    """
    groups: dict[tuple, list] = defaultdict(list)
    dropped: list[str] = []
    for t in f.graph.transitions:
        if t.action in SPEC_ACTIONS:
            groups[(t.source, t.widget, t.action)].append(t)
    out = []
    leaves = {(src, w) for (src, w, a), ts in groups.items()
              if a == "tap" and any(t.target != "stay" for t in ts)}
    like_row: dict[tuple[str, str], str] = {}  # (screen, child name) -> its row's name
    for (src, widget, action), ts in sorted(groups.items()):
        if action == "scroll":
            ts = _scrolls_that_leave(f, src, widget, ts)
        elif action == "swipe":  # a swipe that moved nothing is no rule; one that left is
            ts = [t for t in ts if t.target != "stay"]
        elif action == "tap" and backdrop(f, src, widget):
            ts = taps_that_leave(ts, reached_without(f, src, widget))
        if not ts:
            continue
        info = f.screens[src]
        if action == "back":
            name = "back"
        else:
            name = info.name_of(widget)
            if not name:
                dropped.append(f"{src}: {action} on {widget} (not in the layout)")
                continue
        flips = tuple(_effects(f, src, widget, f.toggles.get((src, widget, action), ())))
        effects = flips
        if (src, widget, action) in f.effects:
            effects += (f.effects[(src, widget, action)],)
        row = _row_that_leaves(widget, src, leaves) if action == "tap" and not effects \
            and all(t.target == "stay" for t in ts) else None
        if row is not None and info.name_of(row) and info.name_of(row) != name and \
                not _a_control(info, widget):
            # (#21) A label inside a row whose tap did nothing (a tap on a heading row)
            # takes the press first in the mock: it does what the row does, or it would
            # shadow the row (onelist's "Show last release note" never opened).
            like_row[(src, name)] = info.name_of(row)
            continue
        stays = any(t.target == "stay" for t in ts)
        ts = sorted(ts, key=lambda t: (stays and _row_dialog(f, t), -t.count, t.target))
        default = ts[0]
        lc = f.lists.get(src, {}).get(list_key(widget))
        rows = lc.rows if lc is not None else []
        # (#21) A row edit was seen where the tap stayed on its screen (a row gone, a
        # number stepped): the rows whose tap opens another screen do not do it too
        # (uber's place suggestions: one vanished once tapped; the others open a page).
        edit = (src, widget, action) in f.edits and any(t.target in ("stay", src) for t in ts)

        for target, when, count in _row_variants(ts, default.target, f.tapped, rows):
            out.append(_transition(f, src, name, widget, action, target, True, when,
                                   _own(effects, flips, edit, target, src), count))
        kind = _row_kind(default, f.tapped, rows, lc.columns) if lc is not None and \
            default.item and default.target != "stay" and widget not in info.inner else None
        out.append(_transition(f, src, name, widget, action, default.target,
                               default.item, kind,
                               _own(effects, flips, edit, default.target, src), default.count))
    out += [replace(t, widget=child) for (src, child), row in sorted(like_row.items())
            for t in out if t.screen == src and t.widget == row and t.action == "tap"]
    return f.with_(transitions=tuple(_on_own_rows(f, out))).noted(dropped=dropped)


def _own(effects: tuple, flips: tuple, edit: bool, target: str, src: str) -> tuple:
    """The effects of a transition to `target`: all of them, but a row edit (`edit`)
    only where the tap stays on its screen `src`, where it was seen (`flips` without)."""
    return effects if not edit or target in ("stay", src) else flips


def _on_own_rows(f: Facts, transitions: list[Transition]) -> list[Transition]:
    """(#21) A tapped view that only rows of another type have (`templates`) acts only on
    a row that shows its text: on a row without it there is nothing to tap."""
    guards = {(src, name): Compare("!=", Ref(("item", col)), Const(""))
              for src, info in f.screens.items() for _, name, col in info.inner.values()
              if col}
    out = []
    for t in transitions:
        guard = guards.get((t.screen, t.widget))
        if guard is not None:
            t = replace(t, when=guard if t.when is None else BoolOp("and", (guard, t.when)))
        out.append(t)
    return out


def _row_dialog(f: Facts, t) -> bool:
    """Whether `t` opens a dialog on the list row tapped (a setting's choices): such a
    dialog belongs to the rows recorded opening it, so it is never the default of a
    widget whose other rows were recorded doing nothing, however often it was opened
    (the first half of activitylauncher's recording opens Theme and Language 12 times
    and taps a heading 9 times: "Open the choices for “Enable privileged mode”", "...
    for Settings")."""
    target = f.screens.get(t.target)
    return bool(t.item) and target is not None and target.screen.window is not None


def _a_control(info, widget: str) -> bool:
    """Whether `widget` is a control of its own (a switch, a button): not a label."""
    path = resolve_key(widget, info.keys)
    return path is None or interactive(info.root.at(path))


def _row_that_leaves(widget: str, src: str, leaves: set[tuple[str, str]]) -> str | None:
    """The key of the nearest list row (or view in one) around `widget` whose tap was
    recorded going somewhere; None where there is none."""
    head, found, rest = widget.partition("/[item]")
    parts = rest.split("/")  # "/RelativeLayout/TextView#title" -> "", "RelativeLayout", ...
    for n in range(len(parts) - 1, 0, -1) if found else ():
        key = head + found + "/".join(parts[:n])
        if (src, key) in leaves:
            return key
    return None


def _scrolls_that_leave(f: Facts, src: str, widget: str, ts: list) -> list:
    """The recorded scrolls of a list that went elsewhere, when they outnumber the ones
    that stayed; counted along the list's axis only, as the mock scrolls (a sideways
    swipe on a vertical list moves no list: it swipes a row)."""
    lc = f.lists.get(src, {}).get(widget)
    along = {"vertical": ("up", "down"), "horizontal": ("left", "right")}.get(
        lc.axis if lc is not None else "", ())
    ts = [t for t in ts if not along or t.key in along] or ts
    stayed = sum(t.count for t in ts if t.target == "stay")
    left = [t for t in ts if t.target != "stay"]
    if not left or max(t.count for t in left) <= stayed:
        return []
    return left


def _row_variants(ts, default: str, tapped, rows) -> list[tuple[str, object, int]]:
    if not any(t.item for t in ts) or len({t.target for t in ts}) < 2:
        return []
    per_row: dict[int, Counter] = defaultdict(Counter)
    for t in ts:
        for ex in t.examples:
            row = tapped.get(ex)
            if row is not None:
                per_row[row][t.target] += 1
    by_target: dict[str, list[int]] = defaultdict(list)
    counts: Counter = Counter()
    for row, c in sorted(per_row.items()):
        target = min(c, key=lambda x: (-c[x], x))
        if target != default:
            by_target[target].append(row)
            counts[target] += c[target]
    out = []
    for target, ids in sorted(by_target.items()):
        ids = sorted({*ids, *_twins(ids, rows, set(per_row))})
        tests = tuple(Compare("==", Ref(("item", "id")), Const(r)) for r in ids)
        out.append((target, tests[0] if len(tests) == 1 else BoolOp("or", tests),
                    counts[target]))
    return out


def _row_kind(default, tapped, rows, columns) -> Compare | None:
    """(#21) `item.c != ""` where the rows recorded going to the default target share
    no text column with some rows of the list (headings, of another layout): those do
    not go there (a heading of onelist's Settings opened the Theme dialog). `c` is filled
    in every recorded row and in every row that shares a column with them; None where
    no row is of another layout, or no column tells them apart."""
    recorded = {tapped[ex] for ex in default.examples if ex in tapped}
    filled = {r[0]: frozenset(i for i, v in enumerate(r[2:]) if isinstance(v, str) and
                              v.strip()) for r in rows}
    mine = [filled[r] for r in sorted(recorded) if r in filled]
    if not mine:
        return None
    theirs = frozenset().union(*mine)
    others = [c for c in filled.values() if c and not c & theirs]
    alike = [c for c in filled.values() if c & theirs]
    if not others:
        return None
    for i in sorted(frozenset.intersection(*mine)):
        if all(i in c for c in alike):
            return Compare("!=", Ref(("item", columns[i])), Const(""))
    return None


def _twins(ids: list[int], rows, tapped: set[int]) -> list[int]:
    """(#21) The untapped rows that read exactly as a tapped one: the same row recorded
    under another parent (onelist's Settings, opened on a list and without one, lists
    "Show last release note" twice); a tap on either opens the same screen."""
    values = {tuple(r[2:]) for r in rows if r[0] in ids and any(r[2:])}
    return [r[0] for r in rows if r[0] not in tapped and tuple(r[2:]) in values]


def _transition(f: Facts, src, name, widget, action, target, item, when, effects,
                count) -> Transition:
    lkey = list_key(widget)
    if target == "stay" and item and f.params.get(src) == (src, lkey):
        target = src  # a drill-down: the same screen, one level deeper
    with_param = None
    if item and target in f.screens and f.params.get(target) == (src, lkey):
        with_param = Ref(("item",))
    return Transition(screen=src, widget=name, action=action, target=target,
                      with_param=with_param, when=when, effects=effects, count=count)


def _effects(f: Facts, src: str, widget: str, toggles) -> list[Effect]:
    out = []
    for kind, what in toggles:
        if kind == "flag":
            out.append(Effect(op="toggle", target=what))
            continue
        lc = f.lists[src].get(list_key(widget))
        if lc is not None and lc.checkable is not None:
            # (#21) only a row that has a switch: the others have no state to flip
            has_switch = Compare("!=", Ref(("checked",)), Const(None))
            # a switch's "ON"/"OFF" text turns with it (the other one of the pair)
            said = tuple((col, Call("choose", args=(Ref(("item", "checked")), Const(off),
                                                    Const(on))))
                         for col, (on, off) in state_texts(lc).items())
            out.append(Effect(op="update", target=lc.table,
                              values=(("checked", Not(Ref(("item", "checked")))), *said),
                              where=BoolOp("and", (id_is_item(), has_switch))))
    return out


def state_texts(lc) -> dict[str, tuple[str, str]]:
    """Column -> (text when checked, text when not) of a list's switch texts ("ON" /
    "OFF") where every item recorded with a switch showed one text per state, and both
    states were recorded (on one row seen in both, or on several)."""
    if lc.checkable is None:
        return {}
    out = {}
    for k in sorted(lc.states):
        if k not in lc.fields:
            continue
        i = lc.fields.index(k)
        pair = state_pair(lc.said.get(k, {}))
        if pair is not None:
            out[lc.columns[i]] = pair
    return out
