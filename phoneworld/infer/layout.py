"""Recorded view trees -> spec `View` trees, with widget names and data bindings.

    Node(TextView, text="Oat milk") in a product row  ->  View(TextView, text=item.name)

The layout of a screen is taken from one recorded observation (its representative).
Views that can be acted on get names, unique within the screen; a text that is the same
in every observation of the screen stays a literal; a text that varies is bound to the
screen's parameter when it matches one of its columns, else kept as the representative's.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from phoneworld.spec.ast import Const, Expr, ListOf, View
from phoneworld.ui.node import Node, NodePath
from phoneworld.ui.skeleton import is_system_window, short_class, short_id


def identifier(text: str, fallback: str = "w") -> str:
    """A spec identifier (`[a-z_][a-z0-9_]*`) made from any text."""
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", text)
    s = re.sub(r"[^a-z0-9]+", "_", s.lower()).strip("_")[:40].strip("_")
    if not s:
        s = fallback
    return s if s[0].isalpha() or s[0] == "_" else f"{fallback}_{s}"


def flags_of(node: Node) -> tuple[str, ...]:
    out = []
    for name in ("clickable", "long_clickable", "checkable", "editable", "scrollable",
                 "selected", "password", "focusable"):
        if getattr(node, name):
            out.append(name)
    if not node.enabled:
        out.append("disabled")
    return tuple(out)


def interactive(node: Node) -> bool:
    return node.clickable or node.long_clickable or node.checkable or node.editable \
        or node.scrollable


def unique(base: str, taken: set[str], last: dict[str, int] | None = None) -> str:
    """`base`, or `base_2`, `base_3`, ... : the first not in `taken` (which then holds it).
    Identifiers are cut to 40 characters, so two long texts may give one base. `last`
    remembers each base's last suffix, where names are only ever added (the next free one
    is then never lower: thousands of same-id siblings would otherwise cost n^2 tries)."""
    n = last.get(base, 1) if last is not None else 1
    name = base if n == 1 else f"{base}_{n}"
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    taken.add(name)
    if last is not None:
        last[base] = n
    return name


class Namer:
    """Unique widget names within one screen, from resource ids, labels or classes."""

    def __init__(self) -> None:
        self.taken: set[str] = {"back", "home", "screen", "launch", "item", "param", "input"}
        self._last: dict[str, int] = {}
        """base -> the suffix it last got (see `unique`)."""

    def name(self, node: Node) -> str:
        return unique(identifier(short_id(node.resource_id) or node.content_desc or node.text
                                 or short_class(node.class_name)), self.taken, self._last)


TextBinder = Callable[[NodePath, Node], Expr | None]


def to_view(root: Node, *, names: dict[NodePath, str], text_of: TextBinder,
            checked_of: Callable[[NodePath, Node], Expr | None],
            lists: dict[NodePath, tuple[ListOf, View]],
            desc_of: TextBinder | None = None) -> View:
    """Convert a recorded tree. `lists` maps a list node's path to its binding and item
    template (already converted); the list's recorded children are replaced by it.
    Descriptions are literal unless `desc_of` binds them."""
    desc_of = desc_of or literal_desc

    def conv(path: NodePath, node: Node) -> View:
        if path in lists:
            binding, template = lists[path]
            children: tuple[View, ...] = (template,)
        else:
            binding = None
            children = tuple(conv(path + (i,), c) for i, c in enumerate(node.children)
                             if c.visible)
        return View(
            cls=node.class_name, bounds=node.bounds, name=names.get(path, ""),
            id=node.resource_id, text=text_of(path, node), desc=desc_of(path, node),
            checked=checked_of(path, node), flags=flags_of(node), items=binding,
            children=children,
        )

    if root.class_name == "hierarchy":
        # System windows (status bar, navigation bar, keyboard) are not the app's: the
        # mock shows the app's windows only, as `uiautomator dump` of the app does.
        wins = [(i, w) for i, w in enumerate(root.children) if not is_system_window(w)]
        if len(wins) == 1:
            return conv((wins[0][0],), wins[0][1])
        return View(cls="hierarchy", bounds=root.bounds,
                    children=tuple(conv((i,), w) for i, w in wins))
    return conv((), root)


def view_path(root: Node, path: NodePath) -> tuple[int, ...] | None:
    """Where the node at `path` of a recorded tree is in the view `to_view` makes of it
    (invisible nodes and system windows are left out, a single app window is the root);
    None where it is left out, or inside a list (whose rows are a template)."""
    out: list[int] = []
    node = root
    rest = tuple(path)
    if root.class_name == "hierarchy":
        wins = [i for i, w in enumerate(root.children) if not is_system_window(w)]
        if not rest or rest[0] not in wins:
            return None
        if len(wins) > 1:
            out.append(wins.index(rest[0]))
        node, rest = root.children[rest[0]], rest[1:]
    for i in rest:
        if not 0 <= i < len(node.children) or not node.children[i].visible:
            return None
        out.append(sum(1 for c in node.children[:i] if c.visible))
        node = node.children[i]
    return tuple(out)


def literal_desc(_: NodePath, node: Node) -> Expr | None:
    return Const(node.content_desc) if node.content_desc else None
