"""Widget keys and paths in a recorded view tree: what the app inference looks nodes up by.

    widget_keys(root)      -> {"LinearLayout#toolbar/TextView#title": (0, 1, 0), ...}
    resolve_key(key, keys) -> the path of a widget key (a tap inside a list item falls back
                              to the item itself)

Keys come from `phoneworld.ui.widgets.widget_ref`; inside lists only the nodes of the
item the template is built from are keyed (see `templates.template_index`).
"""

from __future__ import annotations

from collections.abc import Iterator

from phoneworld.infer import content as C
from phoneworld.infer import templates as T
from phoneworld.ui.node import Node, NodePath
from phoneworld.ui.widgets import widget_ref


def list_items(root: Node, key: str | None) -> set[tuple[str, ...]]:
    for path, k in C.find_lists(root):
        if k == key:
            return {tuple(n.text for _, _, n in C.item_fields(item) if n.text)
                    for item in root.at(path).children}
    return set()


def list_key(widget: str) -> str:
    return widget.split("/[item]", 1)[0]


def last_part(key: str) -> str:
    part = key.split("/")[-1].split("@")[0]
    return part.split("#", 1)[1] if "#" in part else part


def list_label(node: Node) -> str:
    from phoneworld.ui.skeleton import short_class, short_id
    return short_id(node.resource_id) or short_class(node.class_name)


def resolve_key(widget: str, keys: dict[str, NodePath]) -> NodePath | None:
    """The path of a widget key in a representative; a tap inside a list item that the
    item template lacks falls back to the item itself (tapping the row)."""
    if widget in keys:
        return keys[widget]
    if "/[item]" in widget:
        return keys.get(widget.split("/[item]", 1)[0] + "/[item]")
    return None


def name_in(info, key: str) -> str:
    """The name of the widget with key `key` in a screen's representative (`info.keys`,
    `info.names`); "" for none. Unlike `ScreenFacts.name_of`, a key of a row of another
    template is not looked up in `info.inner`."""
    path = resolve_key(key, info.keys)
    return info.names.get(path, "") if path is not None else ""


def widget_keys(root: Node) -> dict[str, NodePath]:
    """Widget key -> path of every node (inside lists: the item the template is made
    from only, see `templates.template_index`)."""
    template = {key: T.template_index(root.at(path)) for path, key in C.find_lists(root)}
    out: dict[str, NodePath] = {}
    for path in visible_paths(root):
        ref = widget_ref(root, path)
        if ref.system or (ref.item is not None and ref.item != template.get(ref.list_key, 0)):
            continue
        out.setdefault(ref.key, path)
    return out


def visible_paths(root: Node) -> list[NodePath]:
    """Paths of the views that are shown: visible, and under visible ancestors only."""
    out: list[NodePath] = []
    stack: list[tuple[NodePath, Node]] = [((), root)]
    while stack:
        path, node = stack.pop()
        if not node.visible:
            continue
        out.append(path)
        stack.extend((path + (i,), c) for i, c in reversed(list(enumerate(node.children))))
    return out


def texts_by_key(root: Node) -> dict[str, str]:
    """Texts outside lists, by widget key, in the app's windows (never the status bar's
    clock or battery)."""
    out: dict[str, str] = {}
    for path, text in _texts_outside_lists(root):
        out.setdefault(widget_ref(root, path).key, text)
    return out


def texts_by_place(root: Node, said: str = "text") -> dict[str, tuple[str, str]]:
    """`texts_by_key` keyed by place (look-alikes told apart by position, not by label:
    see `widget_ref`): place -> (widget key, text); `said="content_desc"`: the content
    descriptions instead."""
    out: dict[str, tuple[str, str]] = {}
    for path, text in _texts_outside_lists(root, said):
        place = widget_ref(root, path, by_label=False).key
        out.setdefault(place, (widget_ref(root, path).key, text))
    return out


def _texts_outside_lists(root: Node, said: str = "text") -> Iterator[tuple[NodePath, str]]:
    from phoneworld.ui.skeleton import app_windows, is_list
    for start, win in app_windows(root):
        for rel, node in win.walk():
            path = start + rel
            if getattr(node, said) and not inside_list(root, path, is_list):
                yield path, getattr(node, said)


def inside_list(root: Node, path: NodePath, is_list) -> bool:
    n = root
    for i in path:
        if is_list(n):
            return True
        n = n.children[i]
    return False
