"""Stable names for the widgets of a screen, the same across observations of that screen.

    tap (540, 1210) -> target (0, 0, 2, 1, 0) -> "FrameLayout/…/RecyclerView#list/[item]"

A widget key is the class + resource-id path from the app window down to the node, with
child indices dropped. Inside an adapter list, the path continues from `[item]` (the item
template) so every item of one list shares one key and the tapped row is the entity.
Where several nodes outside lists share a path, their label (text or description) tells
them apart, else their position among the look-alikes; inside one list item, only their
position does (labels change from row to row): uber's profile header holds three
unnamed stat columns, and a tap on each opens a page of its own.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from phoneworld.ui.node import Node, NodePath
from phoneworld.ui.skeleton import is_list, is_system_window, node_key


@dataclass(frozen=True)
class WidgetRef:
    key: str
    item: int | None = None
    """Index of the tapped row among the list's children, when inside a list."""
    list_key: str | None = None
    system: bool = False


def widget_ref(root: Node, target: NodePath, *, by_label: bool = True) -> WidgetRef:
    """The widget key of the node at `target` (the look-alikes of a tree are indexed once,
    for the many widgets callers ask about in a row). Without `by_label`, look-alikes are
    told apart by their position only: a detail page's title and subtitle (two TextViews
    without ids) keep their keys whichever row the page shows."""
    path = target
    node = root
    parts: list[str] = []
    system = False
    if root.class_name == "hierarchy" and path:
        node = root.children[path[0]]
        system = is_system_window(node)
        path = path[1:]
    parts.append(node_key(node))
    item = None
    list_key = None
    at: NodePath = target[:len(target) - len(path)]
    for i in path:
        if is_list(node) and item is None:
            list_key = list_key_at(root, at, "/".join(parts))
            parts = [list_key]
            item = i
            node = node.children[i]
            parts.append("[item]")
            continue
        node = node.children[i]
        at += (i,)
        parts.append(node_key(node))
    key = "/".join(parts)
    if item is None and not system:
        key = _disambiguate(root, target, key, by_label)
    elif not system and (nth := _in_items(root).get(target)) is not None:
        key = f"{key}@{nth}"
    if system:
        key = "sys:" + key + (f"@{node.content_desc or node.text}" if node.label else "")
    return WidgetRef(key=key, item=item, list_key=list_key, system=system)


def list_key_at(root: Node, at: NodePath, key: str) -> str:
    """The key of the list at `at` whose class + resource-id path is `key`: that path, or,
    where other nodes outside lists share it (a home page's sections, each a carousel of
    one id), the path and its position among them (`key@1` for the second): two lists
    are two tables, and a tap on a row of one is no tap on the other."""
    same = _outside_lists(root).get(key)
    if same is None or len(same.paths) <= 1 or at not in same.ordinal:
        return key
    return f"{key}@{same.ordinal[at]}"


def _disambiguate(root: Node, target: NodePath, key: str, by_label: bool = True) -> str:
    """Add the label (or an ordinal) when other nodes outside lists share this key."""
    same = _outside_lists(root).get(key)
    if same is None or len(same.paths) <= 1:
        return key
    label = root.at(target).label
    if by_label and label and same.labels[label] == 1:
        return f"{key}@{label}"
    return f"{key}@{same.ordinal.get(target, 0)}"


@dataclass(frozen=True)
class _SameKey:
    """The nodes outside lists that share one key: paths in document order, their labels."""

    paths: list[NodePath]
    labels: Counter
    ordinal: dict[NodePath, int]


_INDEX: list[tuple[Node, dict[str, _SameKey]]] = []
_INDEXED = 4
"""How many trees' indexes are kept: callers ask about many widgets of one tree in a row,
so rebuilding the index per widget made compile time quadratic in a screen's nodes."""


def _outside_lists(root: Node) -> dict[str, _SameKey]:
    for tree, index in _INDEX:
        if tree is root:
            return index
    grouped: dict[str, list[NodePath]] = {}
    for p, k in _keys_outside_lists(root):
        grouped.setdefault(k, []).append(p)
    index = {k: _SameKey(paths=ps, labels=Counter(root.at(p).label for p in ps),
                         ordinal={p: i for i, p in enumerate(ps)})
             for k, ps in grouped.items()}
    _INDEX.insert(0, (root, index))
    del _INDEX[_INDEXED:]
    return index


_ITEMS: list[tuple[Node, dict[NodePath, int]]] = []


def _in_items(root: Node) -> dict[NodePath, int]:
    """Path -> position among its look-alikes (same key from the item down) inside its
    list item, for the nodes in items that have look-alikes there (indexed once per
    tree, as `_outside_lists`)."""
    for tree, index in _ITEMS:
        if tree is root:
            return index
    index: dict[NodePath, int] = {}
    stack: list[tuple[NodePath, Node]] = [((), root)]
    while stack:
        p, n = stack.pop()
        if not is_list(n):
            stack.extend((p + (i,), c) for i, c in enumerate(n.children))
            continue
        for i, item in enumerate(n.children):
            grouped: dict[str, list[NodePath]] = {}
            inner = [(p + (i,), item, "")]
            while inner:
                q, m, k = inner.pop()
                grouped.setdefault(k, []).append(q)
                for j in range(len(m.children) - 1, -1, -1):
                    inner.append((q + (j,), m.children[j], k + "/" + node_key(m.children[j])))
            for paths in grouped.values():
                if len(paths) > 1:
                    index.update((q, nth) for nth, q in enumerate(paths))
    _ITEMS.insert(0, (root, index))
    del _ITEMS[_INDEXED:]
    return index


def _keys_outside_lists(root: Node) -> list[tuple[NodePath, str]]:
    out = []
    windows = (list(enumerate(root.children)) if root.class_name == "hierarchy"
               else [(None, root)])
    for wi, win in windows:
        if is_system_window(win):
            continue
        start: NodePath = () if wi is None else (wi,)
        stack = [(start, win, node_key(win))]
        while stack:
            p, n, k = stack.pop()
            out.append((p, k))
            if is_list(n):
                continue
            for i in range(len(n.children) - 1, -1, -1):
                c = n.children[i]
                stack.append((p + (i,), c, k + "/" + node_key(c)))
    return out
