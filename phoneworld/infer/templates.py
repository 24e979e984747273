"""Item templates: the one recorded row a list's rows are all drawn from.

    RecyclerView of (album header, song, song, song)  ->  a song row, with the header's
    text as a label bound to its field (shown on the rows that have it)

A list repeats one template per row of its table (see `spec.ast.ListOf`); real lists mix
row types, so the template is the typical row and the texts of the other types join it.
A text that sits in a view of its own row that the recordings tapped (qqmusic's album
header: "分享" in its share button) joins inside a copy of that view, which keeps the
tap: the tap's transition has a view to go on (`item_controls`), not the whole row.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import TYPE_CHECKING

from phoneworld.infer import content as C
from phoneworld.infer.layout import identifier, unique
from phoneworld.ui.node import Node, NodePath
from phoneworld.ui.skeleton import shape
from phoneworld.ui.widgets import widget_ref

if TYPE_CHECKING:
    from phoneworld.infer.facts import Facts


def template_index(lst: Node) -> int:
    """The child of a recorded list that its item template is made from: of the row
    type most items have (their class/id shape: songs, not the album header above
    them; rows with a checkable view first), the one with the most fields shown, uncut
    by the list's edge where one is (ties: the first)."""
    axis = C.layout_pitch(lst)[1]
    shown = [[n for _, _, n in C.item_fields(c) + C.item_fields(c, described=True) if n.visible]
             for c in lst.children]
    shapes = [shape(c) for c in lst.children]
    common = Counter(s for s, f in zip(shapes, shown, strict=True) if f)
    # A row with a switch or a check box comes first: the template must keep it for
    # the rows that have one, as a label would not toggle.
    checks = [any(n.checkable for _, n in c.walk()) for c in lst.children]

    def score(i: int) -> tuple:
        return (checks[i], common[shapes[i]], len(shown[i]),
                not C.clipped(lst.children[i], lst, axis), -i)

    return max(range(len(lst.children)), key=score) if lst.children else 0


def find_row_controls(f: Facts) -> Facts:
    """(#21) The views of list rows of another type than a list's template whose
    recorded taps did something (went to another screen, or changed state), by the
    template's view that stands for each (`item_controls`): widget key -> (path of that
    view, its name, the column of a text in it). A tap that stayed and changed nothing
    is the row's tap as far as the mock can tell, and stays so.

        album: tap .../[item]/.../LinearLayout#bpn ("分享" in the header row, a song
        row's template)  ->  inner{".../[item]/.../LinearLayout#bpn": (path, "bpn", "emq")}
    """
    tapped: dict[tuple[str, str], set[str]] = {}
    for t in f.graph.transitions:
        w = (t.source, t.widget, t.action)
        if t.action not in ("tap", "long_press") or "/[item]" not in t.widget or \
                t.source not in f.screens or t.widget in f.screens[t.source].keys:
            continue
        if t.target != "stay" or w in f.toggles or w in f.effects or w in f.adds:
            lkey, _, suffix = t.widget.partition("/[item]")
            tapped.setdefault((t.source, lkey), set()).add(suffix)
    screens = dict(f.screens)
    for (src, lkey), suffixes in sorted(tapped.items()):
        info = screens[src]
        lc = f.lists.get(src, {}).get(lkey)
        lpath = next((p for p, k in C.find_lists(info.root) if k == lkey), None)
        if lc is None or lpath is None or not info.root.at(lpath).children:
            continue
        lst = info.root.at(lpath)
        at = lpath + (template_index(lst),)
        taken = {"back", "home", "screen", "launch", "item", "param", "input",
                 *info.names.values()} | {n for _, n, _ in info.inner.values()}
        inner = dict(info.inner)
        for suffix, (rel, field) in item_controls(lc, lst, frozenset(suffixes)).items():
            cls, _, rid = suffix.rsplit("/", 1)[-1].split("@")[0].partition("#")
            text_id = field.rsplit("/", 1)[-1].split("@")[0].partition("#")[2]
            name = unique(identifier(rid or text_id or cls), taken)
            column = lc.columns[lc.fields.index(field)] if field in lc.fields else ""
            inner[f"{lkey}/[item]{suffix}"] = (at + rel, name, column)
        screens[src] = dataclasses.replace(info, inner=inner)
    return f.with_(screens=screens)


def template_item(lc: C.ListContent, lst: Node, tapped: frozenset[str] = frozenset()
                  ) -> tuple[Node, dict[NodePath, str]]:
    """The item template's recorded view tree, and the fields of the views added to it.

    The template is the typical row (`template_index`) moved along the list to where
    its first item starts; each field it lacks that other row types show in a text view of its own
    (a category header among preferences, a comment under some items) joins it as that
    text view, a label at its place in its own row, bound to the field, so every row
    shows its texts (a label bound to an empty value is not shown); so does a view whose
    description has a column of its own (`content.desc_columns`), bound to it. A field
    seen in one row only (a feed's one message card) joins too: bound, it shows on that
    row alone. A field inside a view of its row whose key (after `[item]`) is in
    `tapped` joins inside a copy of that view, clickable as it was (see the module)."""
    base, bound, _ = _template(lc, lst, tapped)
    return base, bound


def item_controls(lc: C.ListContent, lst: Node, tapped: frozenset[str]
                  ) -> dict[str, tuple[NodePath, str]]:
    """(#21) The tapped views of other row types that `template_item` adds: their key
    after `[item]` -> (their path in the template, the field of a text in them, else of
    a description)."""
    return _template(lc, lst, tapped)[2]


def _template(lc: C.ListContent, lst: Node, tapped: frozenset[str]):
    base = lst.children[template_index(lst)]
    first = lst.children[0].bounds
    _, axis, per_line, _ = C.layout_pitch(lst)
    # Along the list's axis only (both in a grid): a narrow header centred over the
    # rows (a chat's date) starts the list, but the rows keep their own column.
    dx = first[0] - base.bounds[0] if axis == "horizontal" or per_line > 1 else 0
    dy = first[1] - base.bounds[1] if axis == "vertical" or per_line > 1 else 0
    base = shifted(base, dx, dy)
    have = {k for k, _, _ in C.item_fields(base)} | {
        C.DESC + k for k, _, _ in C.item_fields(base, described=True)}
    own = {_in_item(lst, base, rel) for rel, _ in base.walk() if rel} if tapped else set()
    extra: list[Node] = []
    bound: dict[NodePath, str] = {}
    boxes: dict[str, int] = {}  # a tapped view's key -> its place among `extra`
    controls: dict[str, tuple[NodePath, str]] = {}
    for key in lc.fields:
        if key in have or key not in lc.samples:
            continue
        other, rel = lc.samples[key]
        node = other.at(rel)
        at = lc.fields.index(key)
        if node.children or not any(r[2 + at] for r in lc.rows):
            continue
        # A described view (an "expand" arrow) joins as a plain image whose
        # description is bound; a text view as a label.
        said = {"text": ""} if key.startswith(C.DESC) else {"content_desc": ""}
        label = node.model_copy(update={"children": (), **said, **_PLAIN})
        dx, dy = base.bounds[0] - other.bounds[0], base.bounds[1] - other.bounds[1]
        tap = _tapped_view(lst, other, rel, tapped - own) if tapped else None
        if tap is not None and tap[1] == rel and tap[0] in controls:
            tap = None  # its text joined as it was already; its description as a label
        if tap is None:
            bound[(len(base.children) + len(extra),)] = key
            extra.append(shifted(label, dx, dy))
            continue
        suffix, trel = tap
        if trel == rel:  # the tapped view is the text's own: it joins as it was
            controls[suffix] = ((len(base.children) + len(extra),), key)
            bound[controls[suffix][0]] = key
            extra.append(shifted(node.model_copy(update={"children": (), **said}), dx, dy))
            continue
        if suffix not in boxes:  # the tapped view, emptied: its texts join it one by one
            view = other.at(trel).model_copy(update={"children": (), "text": "",
                                                     "content_desc": ""})
            boxes[suffix] = len(extra)
            extra.append(shifted(view, dx, dy))
            controls[suffix] = ((len(base.children) + boxes[suffix],), "")
        i = boxes[suffix]
        box = extra[i]
        bound[(len(base.children) + i, len(box.children))] = key
        extra[i] = box.model_copy(update={"children": box.children + (shifted(label, dx, dy),)})
        if not controls[suffix][1] or controls[suffix][1].startswith(C.DESC):
            controls[suffix] = (controls[suffix][0], key)  # a text's column, else a desc's
    if extra:
        base = base.model_copy(update={"children": base.children + tuple(extra)})
    return base, bound, controls


def _tapped_view(lst: Node, row: Node, rel: NodePath, tapped: frozenset[str]
                 ) -> tuple[str, NodePath] | None:
    """The innermost view around `rel` in `row` (itself included, the row not) whose key
    after `[item]` is in `tapped`: (that key, its path in the row)."""
    for n in range(len(rel), 0, -1):
        suffix = _in_item(lst, row, rel[:n])
        if suffix in tapped:
            return suffix, rel[:n]
    return None


def _in_item(lst: Node, row: Node, rel: NodePath) -> str:
    """The widget key of the view at `rel` in `row` after the list's `/[item]` (as
    `widget_ref` makes it in a recording: look-alikes in the row by position)."""
    alone = lst.model_copy(update={"children": (row, row)})
    return widget_ref(alone, (0, *rel)).key.partition("/[item]")[2]


_PLAIN = {"clickable": False, "long_clickable": False, "checkable": False, "focusable": False,
          "scrollable": False}


def shifted(node: Node, dx: int, dy: int) -> Node:
    """`node` and its subtree moved by (dx, dy)."""
    if not dx and not dy:
        return node
    b = node.bounds
    return node.model_copy(update={
        "bounds": (b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy),
        "children": tuple(shifted(c, dx, dy) for c in node.children)})
