"""Structural skeletons of observations: what stays the same when a screen's content changes.

A skeleton is the set of class + resource-id paths of an observation's app windows:
- child indices are dropped, so repeated siblings collapse into one path;
- texts are left out (they are content: prices, times, names);
- below an adapter list (RecyclerView, ListView, GridView, or any scrollable container
  whose children share one shape) only the list itself counts, so neither the scroll
  position nor the number of items changes the skeleton;
- system windows (status bar, navigation bar, keyboard) are left out.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator

from phoneworld.ui.node import Bounds, Node, NodePath

_ADAPTER_SUFFIXES = ("RecyclerView", "ListView", "GridView", "ExpandableListView",
                     "AbsListView")
_SYSTEM_WINDOWS = ("com.android.systemui",)


def short_class(cls: str) -> str:
    return cls.rsplit(".", 1)[-1] or "View"


def short_id(resource_id: str) -> str:
    return resource_id.split(":id/", 1)[-1] if resource_id else ""


def node_key(node: Node) -> str:
    rid = short_id(node.resource_id)
    return f"{short_class(node.class_name)}#{rid}" if rid else short_class(node.class_name)


def is_system_window(node: Node) -> bool:
    return node.package in _SYSTEM_WINDOWS or "inputmethod" in node.package


def app_windows(root: Node) -> Iterator[tuple[NodePath, Node]]:
    """The windows of an observation that belong to apps (not system UI or the keyboard)."""
    if root.class_name == "hierarchy":
        for i, win in enumerate(root.children):
            if not is_system_window(win):
                yield (i,), win
    else:
        yield (), root


def shape(node: Node, depth: int = 3) -> str:
    """A short structural fingerprint of a subtree (class/id keys, `depth` levels)."""
    if depth == 0 or not node.children:
        return node_key(node)
    return node_key(node) + "(" + ",".join(shape(c, depth - 1) for c in node.children) + ")"


def is_list(node: Node) -> bool:
    """An adapter list: by class, or a scrollable container of look-alike children; a
    child its edge cuts (a carousel's last card, half shown: its title, not the button
    beside it) is alike when it is of the same kind as two or more whole ones."""
    if node.class_name.endswith(_ADAPTER_SUFFIXES):
        return True
    if node.scrollable and len(node.children) >= 2:
        wide = max(c.bounds[2] - c.bounds[0] for c in node.children)
        tall = max(c.bounds[3] - c.bounds[1] for c in node.children)
        whole = [c for c in node.children if not _cut(c, node.bounds, wide, tall)]
        if len(whole) < 2:
            whole = list(node.children)
        shapes = {shape(c, 2) for c in whole}
        kinds = {node_key(c) for c in node.children}
        return len(shapes) == 1 and len(kinds) == 1
    return False


def _cut(child: Node, parent: Bounds, wide: int, tall: int) -> bool:
    """Whether the edge of its parent (bounds `parent`) cuts `child`: it is narrower (or
    shorter) than the widest (`wide`) or tallest (`tall`) of its siblings and reaches
    that edge."""
    x1, y1, x2, y2 = child.bounds
    px1, py1, px2, py2 = parent
    return (x2 - x1 < wide and (x1 <= px1 or x2 >= px2)) or \
        (y2 - y1 < tall and (y1 <= py1 or y2 >= py2))


def skeleton(root: Node | None) -> frozenset[str]:
    """The skeleton of one observation (empty for a missing hierarchy)."""
    if root is None:
        return frozenset()
    out: set[str] = set()
    for _, win in app_windows(root):
        stack = [(node_key(win), win)]
        while stack:
            path, node = stack.pop()
            if not node.visible:
                continue
            out.add(path)
            if is_list(node):
                out.add(path + "/[list]")
                continue
            for child in node.children:
                stack.append((path + "/" + node_key(child), child))
    return frozenset(out)


def signature(skel: frozenset[str]) -> str:
    """A stable digest of a skeleton (sorted, so set order never matters)."""
    return hashlib.sha1("\n".join(sorted(skel)).encode()).hexdigest()[:12]


SAME_SCREEN = 0.7
"""Minimum similarity of skeletons for two observations to be one screen."""
CHROME_SHARE = 0.8
"""A path in at least this share of an activity's distinct skeletons is its chrome."""
CHROME_LEAST = 3
"""An activity seen in fewer distinct skeletons has no chrome."""
CHROME_WEIGHT = 0.5
"""How much a chrome path counts in `similarity`, next to 1 for a content path."""
CONTENT_SHARE, CONTENT_DIFF = 0.3, 3
"""Two observations whose content (their paths not in the chrome) shares less than
`CONTENT_SHARE` of itself, each having at least `CONTENT_DIFF` paths the other lacks,
are never one screen: a fragment swapped for another under a big frame. A snackbar or a
dialog only adds to what was there; a highlighted button changes one path."""


def chrome(skeletons: list[frozenset[str]]) -> frozenset[str]:
    """The paths most of an activity's distinct skeletons share: the window's decor, a
    toolbar, a drawer or a bottom bar that stay while fragments, tabs and pages swap the
    content. Each distinct skeleton counts once, so the screen visited most does not
    make its own content chrome."""
    counts: dict[str, int] = {}
    distinct = set(skeletons)
    if len(distinct) < CHROME_LEAST:
        return frozenset()  # too few layouts to tell their frame from their content
    for skel in distinct:
        for p in skel:
            counts[p] = counts.get(p, 0) + 1
    least = CHROME_SHARE * len(distinct)
    return frozenset(p for p, n in counts.items() if n >= least)


def similarity(a: frozenset[str], b: frozenset[str],
               chrome: frozenset[str] = frozenset()) -> float:
    """Jaccard similarity of two skeletons (1.0 for two empty ones), where a path of the
    app's `chrome` counts `CHROME_WEIGHT`: two observations that share the app's frame
    but show other content under it are told apart by that content."""
    if not a and not b:
        return 1.0
    inter, union = a & b, a | b
    if not chrome:
        return len(inter) / len(union)
    shared = len(inter & chrome)
    outer = len(union & chrome)
    same, either = len(inter) - shared, len(union) - outer  # content paths
    only_a, only_b = len(a - b - chrome), len(b - a - chrome)
    if min(only_a, only_b) >= CONTENT_DIFF and same < CONTENT_SHARE * either:
        return 0.0  # the frame is the same, what it frames is not
    return (len(inter) - shared + CHROME_WEIGHT * shared) / (
        len(union) - outer + CHROME_WEIGHT * outer)


_DIGITS = re.compile(r"\d+")


def selected_tabs(root: Node | None) -> frozenset[str]:
    """The selected tabs of an observation (bottom navigation, tab bars): selected views
    outside lists that are, or sit in, something tappable, or sit among tappable
    siblings of their class (a bottom navigation's current item takes no tap); labels
    without digits, so a badge count ("Cart, 3 new") does not matter. Two observations
    with different selected tabs show different screens even where their chrome is the
    same."""
    out: set[str] = set()
    current: set[int] | None = None
    for node, tappable in _tapped_views(root, long=False):
        if node.selected and not tappable and current is None:
            current = {id(n) for n in _untappable_tabs(root)}
        if node.selected and (tappable or id(node) in (current or ())):
            label = _DIGITS.sub("#", " ".join((node.text or node.content_desc).split()))
            out.add(f"{node_key(node)}={label}")
    return frozenset(out)


def _untappable_tabs(root: Node | None) -> list[Node]:
    """Selected views that are not tappable themselves but sit among tappable siblings
    of their class: the current item of a bottom navigation, which takes no tap."""
    out: list[Node] = []
    if root is None:
        return out
    for _, win in app_windows(root):
        for _, node in win.walk():
            kids = node.children
            for c in kids:
                if c.selected and not c.clickable and any(
                        o is not c and o.clickable and o.class_name == c.class_name
                        for o in kids):
                    out.append(c)
    return out


SAME_TEXTS, TEXTS_LEAST = 0.3, 3
"""Two observations whose labels (see `content_texts`) share less than `SAME_TEXTS` of
them (Jaccard), each showing at least `TEXTS_LEAST`, show different content even where
their layouts agree."""


def content_texts(root: Node | None) -> frozenset[str]:
    """The labels of what a screen lets one do: texts and descriptions of visible views
    that are, or sit in, something tappable, in the app windows, outside lists and text
    fields (rows and typed text are data, not identity), digits masked (a clock, a count
    or a price is not what the screen is). A detail page shows another item's texts but
    the same buttons; a web page that swapped its panel, or an app that switched its
    language, shows other buttons."""
    out: set[str] = set()
    for node, tappable in _tapped_views(root, long=True):
        if tappable and not node.editable:
            for t in (node.text, node.content_desc):
                if t.strip():
                    out.add(_DIGITS.sub("#", " ".join(t.split())))
    return frozenset(out)


def _tapped_views(root: Node | None, *, long: bool) -> Iterator[tuple[Node, bool]]:
    """Each visible view of the app windows outside lists, with whether it is, or sits
    in, something tappable (clickable; with `long`, long-clickable too)."""
    if root is None:
        return
    for _, win in app_windows(root):
        stack: list[tuple[Node, bool]] = [(win, False)]
        while stack:
            node, tappable = stack.pop()
            if not node.visible or is_list(node):
                continue
            tappable = tappable or node.clickable or (long and node.long_clickable)
            yield node, tappable
            stack.extend((c, tappable) for c in node.children)


def same_texts(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two observations' content texts are alike enough to be one screen's."""
    if len(a) < TEXTS_LEAST or len(b) < TEXTS_LEAST:
        return True
    return len(a & b) >= SAME_TEXTS * len(a | b)
