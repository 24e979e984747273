"""Render a screen of an app: its View tree + data -> a flat list of boxes -> a `Node` tree.

Bindings are evaluated (`text`, `desc`, `checked`), an editable view shows what was typed into
it (its recorded text is the hint shown while it is empty), and a list view repeats its
item template once per row of its table that passes the list's `where`, one row after
another from the scroll offset (a row count) along the list's axis: `pitch` apart, or,
a row recorded at another size (`ListOf.sizes`) that large, its views stretched or
moved with it (`layout.anchor`) and kept to it, then its own space (`measure`). A grid
steps by line; a flow's rows wrap onto lines (`flow`); a dialog's list grows with its
rows, filtered once to measure and to draw (`dialog`):

    View(list, items=ListOf("product", pitch=200, sizes=((2, 300, 0),)), children=(row,))
    -> list box, then one row box per product whose bounds meet the list's bounds:
       row 1 at [0, 200), row 2 at [200, 500), row 3 at [500, 700) ...

Like Android's uiautomator dump, a partly visible list item is kept with its bounds
clipped to the list (and so are its descendants); items and views left with nothing
visible are dropped. Every box remembers its view and list row, so a tap on it maps
back to (view name, row). A `Rendering` computes its boxes once, on first use, and
derives the element list, the `Node` tree, the XML and the HTML from them on demand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from phoneworld.runtime.dialog import grown, list_plan
from phoneworld.runtime.expr import Scope, display, evaluate, filter_rows, truthy
from phoneworld.runtime.flow import flow_bands
from phoneworld.runtime.layout import CENTRE, END, STRETCH, ViewPlan, fit, list_pitch
from phoneworld.runtime.look import ScreenLook
from phoneworld.runtime.measure import list_end, row_sizes
from phoneworld.runtime.state import Row
from phoneworld.spec.ast import Ref
from phoneworld.ui.hierarchy import to_uiautomator_xml
from phoneworld.ui.hits import HitTester
from phoneworld.ui.node import Bounds, Node, NodePath

Element = dict[str, Any]


class Box:
    """One rendered view: its attributes, where it came from, and its place in the tree."""

    __slots__ = ("view", "row", "path", "depth", "children", "cls", "rid", "text", "desc",
                 "bounds", "clickable", "long_clickable", "checkable", "checked", "editable",
                 "password", "scrollable", "selected", "enabled", "focusable", "focused",
                 "input_key", "list_key", "list_axis", "list_page", "list_max")

    def __init__(self, plan: ViewPlan, row: Row | None, path: NodePath, bounds: Bounds) -> None:
        self.view = plan.view
        self.row = row
        self.path = path
        self.depth = len(path)
        self.children: list[int] = []
        (self.cls, self.rid, self.desc, self.clickable, self.long_clickable, self.checkable,
         self.editable, self.password, self.scrollable, self.selected, self.enabled,
         self.focusable) = plan.static
        self.text = plan.text
        self.bounds = bounds
        self.checked = plan.checked
        self.focused = False
        self.input_key: str | None = None
        self.list_key: str | None = None
        self.list_axis = "vertical"
        self.list_page = 1
        self.list_max = 0

    @property
    def interactive(self) -> bool:
        return (self.clickable or self.long_clickable or self.checkable or self.editable
                or self.scrollable)


class Frame:
    """One entry of the back stack: a screen, its parameter, and what it shows now."""

    __slots__ = ("screen", "param", "param_table", "inputs", "scroll", "focus", "param_key")

    def __init__(self, screen: str, param: Any = None, param_table: str | None = None) -> None:
        self.screen = screen
        self.param = param
        self.param_table = param_table
        self.param_key: Any = None
        """The parameter as a hashable key, made once by `cache.screen_key`."""
        self.inputs: dict[str, str] = {}
        self.scroll: dict[str, int] = {}
        self.focus: tuple[str, Row | None] | None = None
        """(input key, list row) of the focused text field."""

    def copy(self) -> Frame:
        f = Frame(self.screen, self.param, self.param_table)
        f.inputs = dict(self.inputs)
        f.scroll = dict(self.scroll)
        f.focus = self.focus
        f.param_key = self.param_key
        return f


def render_boxes(plan: ViewPlan, frame: Frame, scope: Scope) -> list[Box]:
    """Render a screen (its `plan_screen` plan) in `frame`'s state: boxes in document
    order, the root first."""
    out: list[Box] = []
    given = None
    if plan.window is not None:
        # A dialog grown with its list's rows: filtered once, to measure and to draw.
        lp = list_plan(plan, plan.window[0])
        assert lp.items is not None
        rows = filter_rows(lp.items.table, lp.items.where, scope, as_item=True)
        plan = grown(plan, plan.window, list_end(lp, rows, scope))
        given = (list_plan(plan, plan.window[0]), rows)
    _render(plan, scope, frame, 0, 0, None, None, out, given=given)
    return out


def _bare(p: ViewPlan) -> bool:
    """A leaf that shows only its text: no children, list, description or typed text."""
    return not p.children and p.items is None and p.desc_expr is None and not p.static[2] \
        and not p.editable


def _render(p: ViewPlan, scope: Scope, frame: Frame, dx: int, dy: int, clip: Bounds | None,
            parent: Box | None, out: list[Box], grow: int = 0, a: int = 1,
            given: tuple[ViewPlan, list[Row]] | None = None) -> None:
    """Render view `p` and its subtree into `out` (see the module docstring): moved by
    `dx`, `dy`, cut to `clip`, a child of `parent`, larger by `grow` along axis `a` (a
    list row of another size); `given`: a list's plan outside lists and its rows,
    filtered already (a grown dialog's)."""
    x1, y1, x2, y2 = p.bounds
    x1 += dx
    y1 += dy
    x2 += dx
    y2 += dy
    if grow and p.anchor:  # a list row larger than its template along axis `a`
        move = grow if p.anchor == END else grow // 2 if p.anchor == CENTRE else 0
        if a:
            y1 += move
            y2 += grow if p.anchor == STRETCH else move
        else:
            x1 += move
            x2 += grow if p.anchor == STRETCH else move
    if clip is not None:
        cx1, cy1, cx2, cy2 = clip
        if x1 < cx1:
            x1 = cx1
        if y1 < cy1:
            y1 = cy1
        if x2 > cx2:
            x2 = cx2
        if y2 > cy2:
            y2 = cy2
        if x1 >= x2 or y1 >= y2:
            return
    b = (x1, y1, x2, y2)
    if parent is None:
        path: NodePath = ()
    else:
        siblings = parent.children
        path = (*parent.path, len(siblings))
        siblings.append(len(out))
    checked = evaluate(p.checked_expr, scope) if p.checked_expr is not None else None
    if checked is None and isinstance(p.checked_expr, Ref) and not p.children \
            and p.items is None:
        # A check widget bound to a state its row does not have (null: a row type the
        # recordings showed with no switch) is not drawn, as the app has none there.
        if parent is not None:
            parent.children.pop()
        return
    box = Box(p, scope.item, path, b)
    out.append(box)
    if p.text_expr is not None:
        box.text = display(evaluate(p.text_expr, scope))
        if not box.text and isinstance(p.text_expr, Ref) and _bare(p) and not box.interactive:
            # A label bound to data that is empty for this row or parameter is not shown,
            # as an app hides an empty field (a row type without a subtitle, a header).
            out.pop()
            if parent is not None:
                parent.children.pop()
            return
    if p.desc_expr is not None:
        box.desc = display(evaluate(p.desc_expr, scope))
        if not box.desc and isinstance(p.desc_expr, Ref) and p.text_expr is None \
                and not p.children and p.items is None and not box.interactive:
            # Likewise an image bound to a description its row lacks (a row type
            # without the "expand" arrow other rows have).
            out.pop()
            if parent is not None:
                parent.children.pop()
            return
    if p.checked_expr is not None:
        box.checked = truthy(checked)
    if p.editable:
        key = box.input_key = p.key
        typed = frame.inputs.get(key)  # type: ignore[arg-type]
        if typed:
            box.text = "\u2022" * len(typed) if p.password else typed
        focus = frame.focus
        box.focused = focus is not None and focus[0] == key and focus[1] == scope.item
    lst = p.items
    if lst is None:
        for child in p.children:
            _render(child, scope, frame, dx, dy, clip, box, out, grow, a, given)
        return
    box.list_key = p.key
    template = p.template
    if template is None:
        return
    rows = given[1] if given is not None and given[0] is p else \
        filter_rows(lst.table, lst.where, scope, as_item=True)
    vertical = lst.axis == "vertical"
    box.list_axis = lst.axis
    lo, hi = (y1, y2) if vertical else (x1, x2)
    t = template.bounds
    t_lo, t_hi = (t[1] + dy, t[3] + dy) if vertical else (t[0] + dx, t[2] + dx)
    pitch = list_pitch(lst, t_hi - t_lo)
    span = max(1, lst.span)
    lines = -(-len(rows) // span)
    plain = (0, pitch)
    steps = row_sizes(p, rows, scope, pitch)
    if p.flow:  # on lines, all in view (`flow`)
        box.list_page, box.list_max = max(1, len(rows)), 0
        for row, (grow, fx, fy, band) in zip(
                rows, flow_bands(p, dx, dy, b, steps or [plain] * len(rows)), strict=True):
            if band is not None:
                _render(template, scope.with_item(row), frame, fx, fy, band, box, out, grow, 0)
        return
    box.list_page, box.list_max = fit(steps, lines, pitch, t_lo, t_hi, hi)
    offset = min(frame.scroll.get(p.key, 0), box.list_max)  # type: ignore[arg-type]
    if span > 1:
        for i, row in enumerate(rows):
            d = pitch * (i // span - offset)
            across = lst.cross * (i % span)
            if t_hi + d <= lo or t_lo + d >= hi:
                continue
            _render(template, scope.with_item(row), frame,
                    dx + across if vertical else dx + d, dy + across if not vertical else dy + d,
                    b, box, out)
        return
    # One row after another, its views kept to its own size, and short of the next row.
    steps = steps or [plain] * len(rows)
    at = -sum(step for _, step in steps[:offset])
    a = 1 if vertical else 0
    for row, (grow, step) in zip(rows, steps, strict=True):
        start = at
        at += step
        if t_lo + start >= hi:
            break
        if t_hi + start + grow <= lo:
            continue
        band = list(b)
        band[a] = max(lo, t_lo + start)
        band[a + 2] = min(hi, t_hi + start + grow, t_lo + at)
        if band[a] >= band[a + 2]:
            continue
        _render(template, scope.with_item(row), frame, dx if vertical else dx + start,
                dy + start if vertical else dy, tuple(band), box, out,  # type: ignore[arg-type]
                grow, a)


class Rendering:
    """One screen as rendered at one moment; every form but the `Node` tree is computed
    once, on first use."""

    __slots__ = ("screen", "package", "width", "height", "look", "under", "_compute",
                 "_boxes",
                 "_index", "_elements", "_xml", "_html", "_derived", "_hits", "__weakref__")

    def __init__(self, screen: str, package: str, width: int, height: int,
                 compute: Callable[[Rendering], list[Box]],
                 look: ScreenLook | None = None, under: Rendering | None = None) -> None:
        self.screen = screen
        self.package = package
        self.width = width
        self.height = height
        self.look = look
        """The screen's recorded look, which the HTML page is drawn on, or None."""
        self.under = under
        """The screen under a dialog whose look records its scrim (`ScreenLook.scrim`),
        as it is shown now: drawn around the dialog's window, dimmed; else None."""
        self._compute: Callable[[Rendering], list[Box]] | None = compute
        """Renders the boxes (given this rendering, to learn that it has been)."""
        self._boxes: list[Box] | None = None
        self._index: list[int] | None = None
        self._elements: list[Element] | None = None
        self._xml: str | None = None
        self._html: str | None = None
        self._derived: dict[str, Any] | None = None
        self._hits: HitTester | None = None

    def derived(self, name: str, make: Callable[[Rendering], Any]) -> Any:
        """`make(self)`, computed once per rendering under `name`: for forms made outside
        the runtime (the env's element list as text), kept as long as the rendering."""
        d = self._derived
        if d is None:
            d = self._derived = {}
        v = d.get(name, d)
        if v is d:
            v = d[name] = make(self)
        return v

    @property
    def ready(self) -> bool:
        """Whether the boxes are computed (and so independent of the machine's state)."""
        return self._boxes is not None

    @property
    def boxes(self) -> list[Box]:
        if self._boxes is None:
            assert self._compute is not None
            self._boxes = self._compute(self)
            self._compute = None
        return self._boxes

    @property
    def element_boxes(self) -> list[int]:
        """Box numbers of the indexed elements: interactive or labelled views, in order."""
        if self._index is None:
            self._index = [i for i, b in enumerate(self.boxes)
                           if b.interactive or b.text or b.desc]
        return self._index

    @property
    def elements(self) -> list[Element]:
        """The indexed UI-element list for text agents."""
        if self._elements is None:
            boxes = self.boxes
            self._elements = [_element(n, boxes[i]) for n, i in enumerate(self.element_boxes)]
        return self._elements

    @property
    def node(self) -> Node:
        """The screen as a `Node` tree, attributes as in a uiautomator dump. Made afresh
        on each read and not kept: it takes several times the memory of all the other
        forms together, and renderings are kept (see `cache`)."""
        return _node(self.boxes, 0, self.package)

    @property
    def xml(self) -> str:
        """The screen as `adb shell uiautomator dump` would write it."""
        if self._xml is None:
            self._xml = to_uiautomator_xml(self.node)
        return self._xml

    @property
    def html(self) -> str:
        """The screen as a phone-sized HTML page (all text escaped)."""
        if self._html is None:
            from phoneworld.runtime.page import render_html

            self._html = render_html(self)
        return self._html

    def hit(self, x: int, y: int) -> int | None:
        """The box a touch at (x, y) lands on, by `ui.hits.hit_test`'s rule: Android's
        dispatch, topmost children first, a clickable box winning over labels inside it
        (see `hits`)."""
        hits = self._hits
        if hits is None:
            hits = self._hits = HitTester(self.boxes)
        return hits.hit(x, y)

    def ancestors(self, i: int) -> list[int]:
        """Box `i` and its ancestors, innermost first."""
        boxes = self.boxes
        path = boxes[i].path
        chain = [0]
        for k in path:
            chain.append(boxes[chain[-1]].children[k])
        return chain[::-1]


def _element(index: int, b: Box) -> Element:
    return {"index": index, "text": b.text, "class": b.cls, "resource_id": b.rid,
            "content_desc": b.desc, "bounds": list(b.bounds), "clickable": b.clickable,
            "editable": b.editable, "checkable": b.checkable, "checked": b.checked,
            "scrollable": b.scrollable}


def _node(boxes: list[Box], i: int, package: str) -> Node:
    b = boxes[i]
    # Trusted values of the right types: skip validation (this is the hot path of observe).
    return Node.model_construct(
        class_name=b.cls, resource_id=b.rid, text=b.text, content_desc=b.desc,
        package=package, bounds=b.bounds, clickable=b.clickable,
        long_clickable=b.long_clickable, checkable=b.checkable, checked=b.checked,
        editable=b.editable, password=b.password, scrollable=b.scrollable,
        selected=b.selected, enabled=b.enabled, focusable=b.focusable, focused=b.focused,
        visible=True, children=tuple(_node(boxes, c, package) for c in b.children))
