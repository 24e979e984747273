"""Taps on a backdrop: a view as large as half the display or more (a map, a web page, the
frame behind them), where a recording's taps land when the view under the finger is not in
the hierarchy; such a tap does what is there, so only the taps on it that led somewhere
make a rule.

    page.web_view tap -> stay x4, -> map x1 (no other recorded step reaches map)
      ->  on page.web_view tap -> map
"""

from __future__ import annotations

from collections import Counter, defaultdict

import networkx as nx

from phoneworld.infer.facts import Facts
from phoneworld.infer.keys import resolve_key

SPEC_ACTIONS = {"tap", "long_press", "type", "submit", "scroll", "swipe", "back"}
"""The recorded actions a spec's transitions are made of."""


def backdrop(f: Facts, src: str, widget: str) -> bool:
    """Whether `widget` covers half the display or more (a map, a page drawn in a web
    view, a frame behind them: where the recording's hits land when the view under the
    finger is not in the hierarchy); a tap on it lands anywhere, and does what is there."""
    info = f.screens[src]
    path = resolve_key(widget, info.keys)
    if path is None or info.root is None:
        return False
    x1, y1, x2, y2 = info.root.at(path).bounds
    return 2 * max(0, x2 - x1) * max(0, y2 - y1) >= f.graph.width * f.graph.height


def taps_that_leave(ts: list, reached: set[str]) -> list:
    """The recorded taps on a backdrop (`backdrop`) that went to one other screen: a tap
    that changed nothing there was no event, and one that led somewhere is a way (uber's
    legal page, left for the map and its trip screens only by such taps: six screens no
    walk reached). The way kept is to a screen nothing else reaches (`reached`: the
    screens recorded steps reach without this view), else the one taken at least twice
    and more often than all others together; none where neither is (a tap that left once
    stays the exception it was)."""
    if any(t.item for t in ts):
        return ts  # a list's rows: each row's own way (`_row_variants`)
    left: Counter = Counter()
    for t in ts:
        if t.target not in ("stay", "back"):
            left[t.target] += t.count
    if not left:
        return ts
    top = min(left, key=lambda x: (x in reached, -left[x], x))
    if top in reached and (left[top] < 2 or 2 * left[top] <= sum(left.values())):
        return ts
    return [t for t in ts if t.target == top]


def reached_without(f: Facts, src: str, widget: str) -> set[str]:
    """The app's screens its own recorded steps lead to from the start, as the mock will
    take them (each view's most frequent outcome; every outcome of a list's rows; none
    of a view the layout lacks), but for those on `widget` of `src`."""
    foreign = {s.name for s in f.graph.screens if s.foreign}
    outcomes: dict[tuple[str, str, str], Counter] = defaultdict(Counter)
    ways: dict[str, set[str]] = defaultdict(set)
    for t in f.graph.transitions:
        if t.action in SPEC_ACTIONS and t.source not in foreign and \
                (t.source, t.widget) != (src, widget) and t.source in f.screens and \
                (t.action == "back" or f.screens[t.source].name_of(t.widget)):
            outcomes[(t.source, t.widget, t.action)][t.target] += t.count
            if t.item and t.target not in ("stay", "back"):
                ways[t.source].add(t.target)
    for (source, _, _), c in outcomes.items():
        top = min(c, key=lambda x: (-c[x], x))
        if top not in ("stay", "back"):
            ways[source].add(top)
    g = nx.DiGraph()
    g.add_node(f.graph.start)
    g.add_edges_from((a, b) for a, bs in ways.items() for b in bs if b not in foreign)
    return nx.descendants(g, f.graph.start) | {f.graph.start}
