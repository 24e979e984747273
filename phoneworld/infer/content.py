"""Read-only content from lists: one table per list, one row per entity seen.

    RecyclerView#product_list with items ("Oat milk", "$3.49"), ("Bread", "$2.10") over
    three visits  ->  content product_list(id int, ctx int, name text, price text)

The fields of an item are its text-bearing descendants, named by their class/id path
inside the item. An item is a known row when it shows the same texts (a switch's
"ON"/"OFF" aside), when the list's edge cuts it and a row shows all it does, when it is
the one item that changed one text since an earlier recording of the list, or when it
restates the row in its place among the rows around it (several rows changed: another
session's phone; `restated`). See `collect`. A content description that differs from
row to row as a field does ("Remove Oat milk", "Remove Bread") is bound to that field
(`description`), so every row says its own. Rows keep the order in which items were
first seen (top to bottom, then later visits), so rendering the table reproduces the
recorded list and scrolling reveals the rest. `ctx` is the id of the screen's parameter
row the item was seen under (None when the screen has no parameter), so a category
screen shows that category's products.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from phoneworld.infer.layout import identifier, unique
from phoneworld.infer.restated import moved_row, restated_row
from phoneworld.runtime.chars import wide
from phoneworld.spec.ast import BinOp, Const, Expr, Ref
from phoneworld.ui.node import Node, NodePath
from phoneworld.ui.skeleton import app_windows, is_list, node_key, short_id
from phoneworld.ui.widgets import list_key_at

_STATE_TEXTS = ("Switch", "SwitchCompat", "SwitchMaterial", "ToggleButton")
"""Checkable views whose text says their state ("ON"/"OFF"); a check box's is a label."""


@dataclass
class ListContent:
    key: str
    """The list node's class/id path (same in every observation of the screen)."""
    table: str
    fields: list[str] = field(default_factory=list)
    """Inner paths of the item's text nodes, in column order."""
    columns: list[str] = field(default_factory=list)
    rows: list[list] = field(default_factory=list)
    """[id, ctx, *values] per distinct item."""
    checkable: str | None = None
    """Inner path of a checkable node in the item (its state becomes a column)."""
    states: set[str] = field(default_factory=set)
    """Inner paths of switches' texts ("ON"/"OFF"): shown, but not what tells one row
    from another (a switch flipped leaves its row the same row)."""
    checks: dict[int, bool] = field(default_factory=dict)
    """Row id -> the check state first recorded for it, for rows that show a checkable
    node (#21: the others have no state to change)."""
    said: dict[str, dict[bool, set[str]]] = field(default_factory=dict)
    """Inner path of a switch's text -> check state -> the texts it showed in that state,
    over every item seen (a row seen in both states says both)."""
    descs: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    """Inner path of a described node -> (row id, description) per item seen."""
    index: dict[tuple, int] = field(default_factory=dict)
    samples: dict[str, tuple[Node, NodePath]] = field(default_factory=dict)
    """Field (or `DESC` + described node) -> (an item that showed it, its path in that
    item): where the item template finds the views of fields its own item lacks (rows
    of another type)."""
    aliases: list[tuple] = field(default_factory=list)
    """(ctx, values, row id) of rows seen in another state (see `collect`)."""
    partial: set[int] = field(default_factory=set)
    """Rows seen only cut by the list's edge (some of their texts out of view)."""
    shown: dict[tuple, list[tuple[list[tuple], tuple[int, ...]]]] = field(default_factory=dict)
    """(ctx, item count) -> (values, row ids) of every recording of the list so far."""
    recordings: dict[int | None, list[tuple[list[tuple], tuple[int, ...]]]] = field(
        default_factory=dict)
    """ctx -> (values, row ids) of every recording of the list so far, in order."""
    pitch: int = 0
    axis: str = "vertical"
    span: int = 1
    cross: int = 0
    sizes: dict[int, Counter] = field(default_factory=dict)
    """Row id -> how often it was recorded at each (uncut, size along the axis, space
    to the next item or -1); see `extents`."""
    gaps: Counter = field(default_factory=Counter)
    """Space between consecutive items, by how often it was recorded."""

    def ident(self, values: tuple) -> tuple:
        """What tells rows apart: their values, but for checkable nodes' texts."""
        return tuple("" if f in self.states else v for f, v in zip(self.fields, values,
                                                                    strict=False))

    def reindex(self) -> None:
        """New fields were found: earlier rows get empty values for them."""
        n = len(self.fields)
        for r in self.rows:
            r.extend([""] * (2 + n - len(r)))
        self.index = {}
        for r in self.rows:
            self.index.setdefault((r[1], self.ident(tuple(r[2:]))), r[0])
        for ctx, values, rid in self.aliases:
            self.index.setdefault((ctx, self.ident(values + ("",) * (n - len(values)))), rid)

    def find(self, ctx: int, values: tuple, clipped: bool = False) -> int | None:
        """The id of the known row these field values under `ctx` show, or None.

        A clipped item (cut by the list's edge) is the row that shows all its texts
        and more; an item takes the place of a clipped-only row it completes. So a row
        half scrolled out of view is the same entity as its full rendering."""
        k = (ctx, self.ident(values))
        if k in self.index:
            return self.index[k]
        if clipped:
            rid = self._superset(ctx, values)
            if rid is not None:
                return rid
        rid = self._completed(ctx, values)
        if rid is not None:
            row = self.rows[rid - 1]
            del self.index[(ctx, self.ident(tuple(row[2:])))]
            row[2:] = list(values)
            if not clipped:
                self.partial.discard(rid)
            self.index[k] = rid
        return rid

    def add(self, ctx: int, values: tuple, clipped: bool = False) -> int:
        """A new row; its id."""
        rid = len(self.rows) + 1
        self.index[(ctx, self.ident(values))] = rid
        self.rows.append([rid, ctx, *values])
        if clipped:
            self.partial.add(rid)
        return rid

    def _superset(self, ctx: int, values: tuple) -> int | None:
        shown = [(i, v) for i, v in enumerate(values) if v]
        if not shown:
            return None
        for r in self.rows:
            if r[1] == ctx and all(r[2 + i] == v for i, v in shown):
                return r[0]
        return None

    def _completed(self, ctx: int, values: tuple) -> int | None:
        for rid in sorted(self.partial):
            r = self.rows[rid - 1]
            shown = [(i, v) for i, v in enumerate(r[2:]) if v]
            if r[1] == ctx and shown and all(values[i] == v for i, v in shown):
                return rid
        return None


def find_lists(root: Node) -> list[tuple[NodePath, str]]:
    """Outermost adapter lists of the app windows, as (path, class/id key)."""
    out: list[tuple[NodePath, str]] = []
    for start, win in app_windows(root):
        stack = [(start, win, node_key(win))]
        while stack:
            path, node, key = stack.pop()
            if not node.visible:
                continue
            if is_list(node):
                out.append((path, list_key_at(root, path, key)))
                continue
            for i in range(len(node.children) - 1, -1, -1):
                c = node.children[i]
                stack.append((path + (i,), c, key + "/" + node_key(c)))
    return sorted(out)


def item_fields(item: Node, *, described: bool = False) -> list[tuple[str, NodePath, Node]]:
    """(inner key, relative path, node) of an item's text-bearing or checkable nodes
    (with `described`, of its nodes with a content description)."""
    seen: Counter[str] = Counter()
    out = []
    for rel, node in item.walk():
        if not (node.content_desc if described else (node.text or node.checkable)):
            continue
        key = "/".join(field_key(n) for n in _chain(item, rel)) or field_key(item)
        seen[key] += 1
        out.append((key if seen[key] == 1 else f"{key}@{seen[key]}", rel, node))
    return out


def field_key(node: Node) -> str:
    """`node_key`, with the counters a web page numbers its elements by left out of a
    DOM id: a WebView's option list ids each option by render and place ("bui27val-0",
    "bui84val-3": the same text view in every row, so one field, not one per row). Only
    ids that are no Android resource name (a `-` or `:` in them) are DOM ids; an app's
    own `text1` and `text2` stay two fields."""
    key = node_key(node)
    rid = short_id(node.resource_id)
    if rid and _DOM_ID.search(rid) and any(c.isdigit() for c in rid):
        return key.removesuffix(rid) + _DIGITS.sub("", rid)
    return key


_DOM_ID = re.compile(r"[^A-Za-z0-9_.]")
_DIGITS = re.compile(r"\d+")


def _chain(root: Node, rel: NodePath) -> list[Node]:
    nodes, n = [], root
    for i in rel:
        n = n.children[i]
        nodes.append(n)
    return nodes


def collect(lc: ListContent, lst: Node, ctx: int) -> tuple[list[int], list[tuple]]:
    """Add the items of one recorded list to `lc`; returns the row id of each child and
    the texts each shows (one per field known so far).

    An item is a known row when it shows the same texts (checkable views' "ON"/"OFF"
    aside), when the list's edge cuts it and a row shows all it does, or when it is the
    one item that changed in one text since an earlier recording of the same list (a
    preference's summary after a choice, a quantity after a step), or when it restates
    the row in its place among the rows around it in an earlier recording
    (`restated.restated_row`: several rows changed, another session's phone state), or
    when it is such a row moved to the top, the others in their order (`restated.
    moved_row`: a chat a message was just sent in): the same entity, in another state.
    Anything else is a new row."""
    fields = [item_fields(item) for item in lst.children]
    known, states = len(lc.fields), len(lc.states)
    for item, found in zip(lst.children, fields, strict=True):
        for key, rel, node in found:
            if node.text:
                lc.samples.setdefault(key, (item, rel))
            if node.checkable:
                lc.checkable = lc.checkable or key
                if node.text and node.class_name.endswith(_STATE_TEXTS):
                    lc.states.add(key)
            if node.text and key not in lc.fields:
                lc.fields.append(key)
    if len(lc.fields) > known or len(lc.states) > states:
        lc.reindex()
    values = []
    for found in fields:
        by_key = {k: n for k, _, n in found}
        values.append(tuple(by_key[k].text if k in by_key else "" for k in lc.fields))
    earlier = lc.shown.setdefault((ctx, len(values)), [])
    ids: list[int] = []
    is_state = [f in lc.states for f in lc.fields]

    def row_of(v: tuple) -> int | None:
        return lc.index.get((ctx, lc.ident(v)))

    for i, item in enumerate(lst.children):
        cut = clipped(item, lst, lc.axis)
        rid = lc.find(ctx, values[i], cut)
        if rid is None:
            rid = _in_place(lc, earlier, values, i)
            if rid is None:  # several rows changed, or another scroll of the list (#21)
                rid = restated_row(values, ids, i, row_of, lc.recordings.get(ctx, []),
                                  is_state)
            if rid is None:  # moved to the top: a chat a message was just sent in
                rid = moved_row(values, ids, i, row_of, lc.recordings.get(ctx, []),
                                is_state)
            if rid is not None:  # its other state: the same row from now on
                lc.aliases.append((ctx, values[i], rid))
                lc.index.setdefault((ctx, lc.ident(values[i])), rid)
        if rid is None:
            rid = lc.add(ctx, values[i], cut)
        ids.append(rid)
        checked = next((n.checked for _, _, n in fields[i] if n.checkable), None)
        if checked is not None:  # (#21) each row's own recorded state
            lc.checks.setdefault(rid, checked)
            for f, v in zip(lc.fields, values[i], strict=True):
                if v and f in lc.states:
                    lc.said.setdefault(f, {}).setdefault(checked, set()).add(v)
        for key, rel, node in item_fields(item, described=True):
            lc.descs.setdefault(key, []).append((rid, node.content_desc))
            lc.samples.setdefault(DESC + key, (item, rel))
    earlier.append((values, tuple(ids)))
    lc.recordings.setdefault(ctx, []).append((values, tuple(ids)))
    return ids, values


def _in_place(lc: ListContent, earlier, values: list[tuple], i: int) -> int | None:
    """The row of item `i` in an earlier recording of the list that differs from this
    one only in that item, and there in one text (others equal, at least one shown)."""
    n = len(lc.fields)
    mine = lc.ident(values[i])
    for seq, ids in earlier:
        seq = [v + ("",) * (n - len(v)) for v in seq]
        if any(seq[j] != values[j] for j in range(len(values)) if j != i):
            continue
        theirs = lc.ident(seq[i])
        diff = sum(1 for a, b in zip(mine, theirs, strict=True) if a != b)
        if diff == 1 and any(a and a == b for a, b in zip(mine, theirs, strict=True)):
            return ids[i]
    return None


def clipped(item: Node, lst: Node, axis: str) -> bool:
    """Whether the list's edge cuts the item (uiautomator clips bounds to what shows)."""
    a, b = (1, 3) if axis == "vertical" else (0, 2)
    return item.bounds[a] <= lst.bounds[a] or item.bounds[b] >= lst.bounds[b]


def description(lc: ListContent, key: str) -> Expr | None:
    """The binding of the described node `key` of `lc`'s items: `"Remove " + item.name`
    where every item seen said its own field's text with the same words around it; None
    where the description is the same on every row or follows no one field. Number
    fields are passed over: they may become whole-number columns, which `+` adds."""
    if DESC + key in lc.fields:  # a column of its own (see `desc_columns`)
        return Ref(("item", lc.columns[lc.fields.index(DESC + key)]))
    seen = lc.descs.get(key, [])
    if len({d for _, d in seen}) < 2:
        return None
    for j, column in enumerate(lc.columns):
        values = [(lc.rows[rid - 1][2 + j], d) for rid, d in seen]
        if not all(v and not is_int(v) for v, _ in values):
            continue
        e = around(values, Ref(("item", column)))
        if e is not None:
            return e
    return None


def around(values: list[tuple[str, str]], ref: Ref, *, whole: bool = False) -> Expr | None:
    """`before + ref + after` where every (value, description) pair says the value with
    the same words around it ("Remove " + name), else None; with `whole`, the value
    stands as whole words there (not "Ann" inside "Annual")."""
    first, said = values[0]
    for at in places(said, first):
        before, after = said[:at], said[at + len(first):]
        if whole and (_joined(before[-1:], first[0]) or _joined(first[-1], after[:1])):
            continue
        if all(d == before + v + after for v, d in values):
            e: Expr = ref
            if before:
                e = BinOp("+", Const(before), e)
            if after:
                e = BinOp("+", e, Const(after))
            return e
    return None


def _joined(a: str, b: str) -> bool:
    """Whether two neighbouring characters belong to one word: letters or digits of a
    script that spaces its words (a CJK character stands alone)."""
    return bool(a and b) and all(c.isalnum() and not wide(c) for c in (a, b))


def is_int(v: object) -> bool:
    """Whether a recorded text is a whole number ("3", "-1")."""
    return isinstance(v, str) and v.strip().lstrip("-").isdigit()


def places(text: str, part: str) -> list[int]:
    """Where `part` starts in `text`, first to last."""
    out, at = [], text.find(part)
    while at >= 0:
        out.append(at)
        at = text.find(part, at + 1)
    return out


def name_columns(lc: ListContent) -> None:
    """Column names from the fields' ids (`title`, `price`), unique, never reserved."""
    taken = {"id", "ctx", "checked"}
    lc.columns = []
    for f in lc.fields:
        last = f.split("/")[-1].split("@")[0]
        base = identifier(short_id(last.split("#", 1)[1]) if "#" in last else last, "f")
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}_{n}"
        taken.add(name)
        lc.columns.append(name)


DESC = "desc:"
"""Prefix of the field of a description that is a column of its own."""


def desc_columns(lc: ListContent) -> None:
    """A content description that differs from row to row but says no field's text
    ("Share to WeChat" on the row "Moments", "Generate a card" on "Music card"), or
    that only some rows show ("Expand item" on items with a comment), becomes a column
    of its own (`<id>_desc`) holding what each row first said, so every row shows its
    own description rather than the template row's; rows seen without one get none.
    One the same on every row stays a literal; one that follows a field
    (`description`) stays bound to it. Call after `name_columns`."""
    taken = {"id", "ctx", "checked", *lc.columns}
    for key in sorted(lc.descs):
        first: dict[int, str] = {}
        for rid, d in lc.descs[key]:
            first.setdefault(rid, d)
        said = {first.get(r[0], "") for r in lc.rows}  # "": a row without the view
        if len(said) < 2 or description(lc, key) is not None:
            continue
        last = key.split("/")[-1].split("@")[0]
        base = short_id(last.split("#", 1)[1]) if "#" in last else last
        name = unique(identifier(f"{base}_desc", "f"), taken)
        lc.fields.append(DESC + key)
        lc.columns.append(name)
        for r in lc.rows:
            r.append(first.get(r[0], ""))


def layout_pitch(lst: Node) -> tuple[int, str, int, int]:
    """How the items are laid out: (pitch between lines, axis, items per line, pixels
    between items across the axis). A grid has several items on a line."""
    kids = [c for c in lst.children if c.visible]
    if len(kids) >= 2 and not lst.class_name.endswith("ListView"):
        first = kids[0].bounds
        same_row = [k for k in kids if k.bounds[1] == first[1]]
        same_col = [k for k in kids if k.bounds[0] == first[0]]
        if len(same_row) >= 2 and len(same_col) >= 2:  # a grid, laid out in rows
            cross = same_row[1].bounds[0] - first[0]
            pitch = same_col[1].bounds[1] - first[1]
            if cross > 0 and pitch > 0:
                return pitch, "vertical", len(same_row), cross
    if len(kids) >= 2:
        # The axis the items advance along, over all of them: a narrow header centred
        # over full-width rows (a chat's date) steps sideways to the first row.
        dx = sum(abs(b.bounds[0] - a.bounds[0]) for a, b in zip(kids, kids[1:], strict=False))
        dy = sum(abs(b.bounds[1] - a.bounds[1]) for a, b in zip(kids, kids[1:], strict=False))
        axis = 0 if dx > dy else 1
        # Items of different heights (chat bubbles, category headers over taller
        # rows): the mean step between consecutive items, so the mock's one template
        # fits as many items in the list as the recording showed (the median would fit
        # the tall rows only, leaving the last recorded rows out of view).
        pairs = zip(kids, kids[1:], strict=False)
        steps = [d for a, b in pairs if (d := b.bounds[axis] - a.bounds[axis]) > 0] or [1]
        pitch = max(1, round(sum(steps) / len(steps)))
        return pitch, "horizontal" if axis == 0 else "vertical", 1, 0
    if kids:
        return max(1, kids[0].bounds[3] - kids[0].bounds[1]), "vertical", 1, 0
    return 1, "vertical", 1, 0
