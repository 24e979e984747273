"""An app's screen graph as SVG: screens as boxes, transitions as arrows, one screen lit.

    screen_graph_svg(spec, current="product")   -> '<svg ...>...</svg>'

Layout is layered, left to right: a screen's column is its distance from the start screen
over forward transitions (unreachable screens go in a last column), and within a column
screens are ordered by where their predecessors sit, which keeps most arrows short. An
arrow to an earlier or the same column bends below the boxes. `back` and `stay`
transitions are not arrows: a box counts its `stay` ones, and its tooltip lists them.
Names and labels come from traces, so every string is XML-escaped.
"""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass
from functools import lru_cache
from html import escape

from phoneworld.spec.ast import AppSpec, Transition

_W, _H = 190, 50          # box size
_COL, _ROW = 300, 78      # column and row pitch
_PAD = 24
_FILL = {"P0": "#d2e3fc", "P1": "#e8f0fe", "P2": "#f8f9fa"}


@dataclass(frozen=True)
class _Edge:
    source: str
    target: str
    labels: tuple[str, ...]


@dataclass(frozen=True)
class _Layout:
    pos: dict[str, tuple[int, int]]
    edges: tuple[_Edge, ...]
    width: int
    height: int


def screen_graph_svg(spec: AppSpec, current: str | None = None) -> str:
    """The screen graph of `spec`, with the screen `current` highlighted."""
    lay = _layout(spec)
    stays: dict[str, list[str]] = defaultdict(list)
    backs: dict[str, int] = defaultdict(int)
    for t in spec.transitions:
        if t.target == "stay":
            stays[t.screen].append(_label(t))
        elif t.target == "back":
            backs[t.screen] += 1
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="screen-graph" '
           f'width="{lay.width}" height="{lay.height}" viewBox="0 0 {lay.width} {lay.height}" '
           f'font-family="Roboto, Noto Sans, sans-serif" font-size="12">',
           f"<title>{escape(spec.title or spec.name)}: screen graph</title>",
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
           'fill="#5f6368"/></marker></defs>']
    for e in lay.edges:
        out.append(_arrow(lay, e))
    for s in spec.screens:
        x, y = lay.pos[s.name]
        lit = s.name == current
        start = s.name == spec.start
        tip = [f"{s.name} ({s.priority}, seen {s.seen})"]
        if s.param:
            tip.append(f"parameter: a row of {s.param}")
        if s.modules:
            tip.append("modules: " + ", ".join(s.modules))
        tip += [f"stays on {a}" for a in stays.get(s.name, [])]
        if backs.get(s.name):
            tip.append(f"{backs[s.name]} back transition(s)")
        stroke = "#e8710a" if lit else "#1a73e8" if start else "#9aa0a6"
        dash = ' stroke-dasharray="5 3"' if s.foreign else ""
        name = s.name if len(s.name) <= 26 else s.name[:25] + "\u2026"
        sub = f"{s.priority} \u00b7 seen {s.seen}"
        if stays.get(s.name):
            sub += f" \u00b7 {len(stays[s.name])} stay"
        cls = "screen current" if lit else "screen"
        out.append(
            f'<g class="{cls}" data-screen="{escape(s.name)}"><title>'
            f'{escape(chr(10).join(tip))}</title>'
            f'<rect x="{x}" y="{y}" width="{_W}" height="{_H}" rx="8" '
            f'fill="{"#fde7c8" if lit else _FILL.get(s.priority, "#fff")}" stroke="{stroke}" '
            f'stroke-width="{3 if lit or start else 1.2}"{dash}/>'
            f'<text x="{x + 10}" y="{y + 21}" font-weight="bold">{escape(name)}</text>'
            f'<text x="{x + 10}" y="{y + 39}" fill="#5f6368">{escape(sub)}</text></g>')
    out.append("</svg>")
    return "".join(out)


def _arrow(lay: _Layout, e: _Edge) -> str:
    sx, sy = lay.pos[e.source]
    tx, ty = lay.pos[e.target]
    label = e.labels[0] if len(e.labels) == 1 else f"{e.labels[0]} +{len(e.labels) - 1}"
    anchor = "middle"
    if len(label) > 30:
        label = label[:29] + "\u2026"
    if tx > sx:  # forward: right side to left side
        x1, y1, x2, y2 = sx + _W, sy + _H // 2, tx, ty + _H // 2
        mx = (x1 + x2) // 2
        d = f"M{x1},{y1} C{mx},{y1} {mx},{y2} {x2},{y2}"
        # The label sits 70% along, where arrows fanning out of one box have parted.
        lx, ly = _cubic(0.7, x1, mx, mx, x2), _cubic(0.7, y1, y1, y2, y2) - 4
    elif tx == sx:  # within a column: bulge out to the right
        x1, y1, x2, y2 = sx + _W, sy + _H // 2 - 6, tx + _W, ty + _H // 2 + 6
        bulge = x1 + 26 + min(40, abs(ty - sy) // 8)
        d = f"M{x1},{y1} C{bulge},{y1} {bulge},{y2} {x2},{y2}"
        lx, ly, anchor = bulge - 4, (y1 + y2) // 2 + 3, "start"
    else:  # back to an earlier column: bend below the boxes
        x1, y1, x2, y2 = sx + _W // 2, sy + _H, tx + _W // 2 + 12, ty + _H
        dip = max(y1, y2) + 34
        d = f"M{x1},{y1} C{x1},{dip} {x2},{dip} {x2},{y2}"
        lx, ly = (x1 + x2) // 2, dip - 2
    return (f'<g class="edge"><title>{escape(e.source)} \u2192 {escape(e.target)}: '
            f'{escape(", ".join(e.labels))}</title>'
            f'<path d="{d}" fill="none" stroke="#5f6368" stroke-width="1.2" '
            f'marker-end="url(#arrow)"/>'
            f'<text x="{lx}" y="{ly}" text-anchor="{anchor}" fill="#3c4043" font-size="10" '
            f'stroke="#fff" stroke-width="3" paint-order="stroke">'
            f'{escape(label)}</text></g>')


def _cubic(t: float, a: float, b: float, c: float, d: float) -> int:
    u = 1 - t
    return round(u * u * u * a + 3 * u * u * t * b + 3 * u * t * t * c + t * t * t * d)


def _label(t: Transition) -> str:
    """"tap add_button"; a timed transition has no widget: "wait"."""
    return f"{t.action} {t.widget}".rstrip()


@lru_cache(maxsize=32)
def _layout(spec: AppSpec) -> _Layout:
    names = [s.name for s in spec.screens]
    labels: dict[tuple[str, str], list[str]] = defaultdict(list)
    for t in spec.transitions:
        if t.target not in ("stay", "back") and t.target in names and t.screen in names \
                and t.target != t.screen:
            labels[(t.screen, t.target)].append(_label(t))
    succ: dict[str, list[str]] = defaultdict(list)
    pred: dict[str, list[str]] = defaultdict(list)
    for a, b in labels:
        succ[a].append(b)
        pred[b].append(a)
    layer: dict[str, int] = {}
    if spec.start in names:
        layer[spec.start] = 0
        todo = deque([spec.start])
        while todo:
            a = todo.popleft()
            for b in succ[a]:
                if b not in layer:
                    layer[b] = layer[a] + 1
                    todo.append(b)
    last = max(layer.values(), default=-1) + 1
    for n in names:
        layer.setdefault(n, last)
    columns: dict[int, list[str]] = defaultdict(list)
    for n in names:
        columns[layer[n]].append(n)
    row: dict[str, float] = {}
    for c in sorted(columns):
        def rank(n: str) -> tuple[float, str]:
            ps = [row[p] for p in pred[n] if p in row]
            return (sum(ps) / len(ps) if ps else float("inf"), n)
        for i, n in enumerate(sorted(columns[c], key=rank)):
            row[n] = i
    pos = {n: (_PAD + layer[n] * _COL, _PAD + int(row[n]) * _ROW) for n in names}
    edges = tuple(_Edge(a, b, tuple(ls)) for (a, b), ls in sorted(labels.items()))
    width = _PAD * 2 + (max(columns, default=0)) * _COL + _W
    height = _PAD * 2 + max((len(v) for v in columns.values()), default=1) * _ROW + 40
    return _Layout(pos, edges, width, height)
