"""How alike a mock's screen is to a recorded one: the measures replay reports.

`node_bag` and `f1` compare two hierarchies node by node (class, id, text, description of
the nodes that carry one); `shown_texts` and `recall` ask whether the mock shows what the
recording showed. Each alone is cheap to game, so replay reports both."""

from __future__ import annotations

from collections import Counter

from phoneworld.ui.node import Node
from phoneworld.ui.skeleton import app_windows


def node_bag(root: Node | None) -> Counter:
    """(class, resource-id, text, description) of every visible node of the app windows
    that carries a text, a description or an id."""
    bag: Counter = Counter()
    if root is None:
        return bag
    for _, win in app_windows(root):
        for _, n in win.walk():
            if n.visible and (n.text or n.content_desc or n.resource_id):
                bag[(n.class_name, n.resource_id, n.text, n.content_desc)] += 1
    return bag


def shown_texts(root: Node | None) -> set[str]:
    """The texts and content descriptions a screen shows: visible nodes of non-zero size
    in the app windows (never the status bar's clock)."""
    out: set[str] = set()
    if root is None:
        return out
    for _, win in app_windows(root):
        for _, n in win.walk():
            b = n.bounds
            if n.visible and b[2] > b[0] and b[3] > b[1]:
                out.update(t for t in (n.text.strip(), n.content_desc.strip()) if t)
    return out


def recall(shown: set[str], recorded: set[str]) -> float | None:
    """The share of `recorded` that is in `shown` (None when nothing was recorded)."""
    return len(recorded & shown) / len(recorded) if recorded else None


def f1(a: Counter, b: Counter) -> float:
    if not a and not b:
        return 1.0
    inter = sum((a & b).values())
    if inter == 0:
        return 0.0
    p, r = inter / sum(a.values()), inter / sum(b.values())
    return 2 * p * r / (p + r)
