"""Item templates: the one recorded row a list's rows are all drawn from.

    RecyclerView of (album header, song, song, song)  ->  a song row, with the header's
    text as a label bound to its field (shown on the rows that have it)

A list repeats one template per row of its table (see `spec.ast.ListOf`); real lists mix
row types, so the template is the typical row and the texts of the other types join it.
"""

from __future__ import annotations

from collections import Counter

from phoneworld.infer import content as C
from phoneworld.ui.node import Node, NodePath
from phoneworld.ui.skeleton import shape


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


def template_item(lc: C.ListContent, lst: Node) -> tuple[Node, dict[NodePath, str]]:
    """The item template's recorded view tree, and the fields of the views added to it.

    The template is the typical row (`template_index`) moved along the list to where
    its first item starts; each field it lacks that other row types show in a text view of its own
    (a category header among preferences, a comment under some items) joins it as that
    text view, a label at its place in its own row, bound to the field, so every row
    shows its texts (a label bound to an empty value is not shown); so does a view whose
    description has a column of its own (`content.desc_columns`), bound to it. A field
    seen in one row only (a feed's one message card) joins too: bound, it shows on that
    row alone."""
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
    extra: list[Node] = []
    bound: dict[NodePath, str] = {}
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
        bound[(len(base.children) + len(extra),)] = key
        extra.append(shifted(label, base.bounds[0] - other.bounds[0],
                             base.bounds[1] - other.bounds[1]))
    if extra:
        base = base.model_copy(update={"children": base.children + tuple(extra)})
    return base, bound


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
