"""Read-only content from lists: one table per list, one row per distinct item seen.

    RecyclerView#product_list with items ("Oat milk", "$3.49"), ("Bread", "$2.10") over
    three visits  ->  content product_list(id int, ctx int, name text, price text)

The fields of an item are its text-bearing descendants, named by their class/id path
inside the item. A content description that differs from row to row as a field does
("Remove Oat milk", "Remove Bread") is bound to that field (`description`), so every
row says its own. Rows keep the order in which items were first seen (top to bottom, then
later visits), so rendering the table reproduces the recorded list and scrolling reveals
the rest. `ctx` is the id of the screen's parameter row the item was seen under (0 when the
screen has no parameter), so a category screen shows that category's products.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from phoneworld.infer.layout import identifier
from phoneworld.infer.skeleton import app_windows, is_list, node_key, short_id
from phoneworld.spec.ast import BinOp, Const, Expr, Ref
from phoneworld.traces.model import Node, NodePath


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
    checks: dict[int, bool] = field(default_factory=dict)
    """Row id -> the check state first recorded for it, for rows that show a checkable
    node (#21: the others have no state to change)."""
    descs: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    """Inner path of a described node -> (row id, description) per item seen."""
    index: dict[tuple, int] = field(default_factory=dict)
    pitch: int = 0
    axis: str = "vertical"
    span: int = 1
    cross: int = 0

    def widen(self) -> None:
        """New fields were found: earlier rows get empty values for them."""
        n = len(self.fields)
        self.index = {(c, v + ("",) * (n - len(v))): rid for (c, v), rid in self.index.items()}
        for r in self.rows:
            r.extend([""] * (2 + n - len(r)))

    def row_of(self, ctx: int, values: tuple, checked: bool | None = None) -> int:
        """The id of the row with these field values under `ctx`, added when new. A row
        seen with its switch flipped is the same row where its first text agrees (#21: a
        summary such as "Off" follows the switch; it does not make another row)."""
        k = (ctx, values)
        if k not in self.index and checked is not None:
            name = next((v for v in values if v), "")
            for (c, vs), rid in self.index.items():
                if c == ctx and name and next((v for v in vs if v), "") == name and \
                        self.checks.get(rid, checked) != checked:
                    self.index[k] = rid
                    break
        if k not in self.index:
            rid = len(self.rows) + 1
            self.index[k] = rid
            self.rows.append([rid, ctx, *values])
        return self.index[k]


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
                out.append((path, key))
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
        key = "/".join(node_key(n) for n in _chain(item, rel)) or node_key(item)
        seen[key] += 1
        out.append((key if seen[key] == 1 else f"{key}@{seen[key]}", rel, node))
    return out


def _chain(root: Node, rel: NodePath) -> list[Node]:
    nodes, n = [], root
    for i in rel:
        n = n.children[i]
        nodes.append(n)
    return nodes


def collect(lc: ListContent, lst: Node, ctx: int) -> list[int]:
    """Add the items of one recorded list to `lc`; returns the row id of each child."""
    ids = []
    for item in lst.children:
        fields = item_fields(item)
        known = len(lc.fields)
        for key, _, node in fields:
            if node.checkable:
                lc.checkable = lc.checkable or key
            if node.text and key not in lc.fields and not is_switch(node):
                lc.fields.append(key)
        if len(lc.fields) > known:
            lc.widen()
        by_key = {k: n for k, _, n in fields}
        values = tuple(by_key[k].text if k in by_key else "" for k in lc.fields)
        checked = next((n.checked for _, _, n in fields if n.checkable), None)
        rid = lc.row_of(ctx, values, checked)
        ids.append(rid)
        if checked is not None:
            lc.checks.setdefault(rid, checked)
        for key, _, node in item_fields(item, described=True):
            lc.descs.setdefault(key, []).append((rid, node.content_desc))
    return ids


def is_switch(node: Node) -> bool:
    """Whether a node is a switch, whose text ("ON", "AAN") says its state, not what the
    row is: the same row with the switch flipped is the same row."""
    return node.checkable and node.class_name.rsplit(".", 1)[-1].endswith(
        ("Switch", "SwitchCompat", "SwitchMaterial", "ToggleButton"))


def description(lc: ListContent, key: str) -> Expr | None:
    """The binding of the described node `key` of `lc`'s items: `"Remove " + item.name`
    where every item seen said its own field's text with the same words around it; None
    where the description is the same on every row or follows no one field. Number
    fields are passed over: they may become whole-number columns, which `+` adds."""
    seen = lc.descs.get(key, [])
    if len({d for _, d in seen}) < 2:
        return None
    for j, column in enumerate(lc.columns):
        values = [(lc.rows[rid - 1][2 + j], d) for rid, d in seen]
        if not all(v and not is_int(v) for v, _ in values):
            continue
        first, said = values[0]
        for at in _places(said, first):
            before, after = said[:at], said[at + len(first):]
            if all(d == before + v + after for v, d in values):
                e: Expr = Ref(("item", column))
                if before:
                    e = BinOp("+", Const(before), e)
                if after:
                    e = BinOp("+", e, Const(after))
                return e
    return None


def is_int(v: object) -> bool:
    """Whether a recorded text is a whole number ("3", "-1")."""
    return isinstance(v, str) and v.strip().lstrip("-").isdigit()


def _places(text: str, part: str) -> list[int]:
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
        first = kids[0].bounds
        dx = kids[1].bounds[0] - first[0]
        dy = kids[1].bounds[1] - first[1]
        axis = 0 if abs(dx) > abs(dy) else 1
        # Items of different heights (chat bubbles, headers): the median step between
        # consecutive items, not just the first one.
        pairs = zip(kids, kids[1:], strict=False)
        steps = sorted(b.bounds[axis] - a.bounds[axis] for a, b in pairs)
        steps = [d for d in steps if d > 0] or [1]
        pitch = steps[len(steps) // 2]
        return pitch, "horizontal" if axis == 0 else "vertical", 1, 0
    if kids:
        return max(1, kids[0].bounds[3] - kids[0].bounds[1]), "vertical", 1, 0
    return 1, "vertical", 1, 0
