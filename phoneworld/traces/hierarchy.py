"""uiautomator / Appium hierarchy XML <-> `Node` trees, and hit-testing.

Both dialects are read by one parser: a uiautomator dump names every element `node`
and gives its class in `class`; an Appium page source names each element after its
class and may omit empty attributes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from xml.sax.saxutils import quoteattr

from lxml import etree

from phoneworld.traces.model import Bounds, Node, NodePath

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False,
                          remove_comments=True, remove_pis=True)
_FLAGS = {
    "clickable": "clickable", "long-clickable": "long_clickable", "checkable": "checkable",
    "checked": "checked", "password": "password", "scrollable": "scrollable",
    "selected": "selected", "enabled": "enabled", "focusable": "focusable",
    "focused": "focused",
}


class HierarchyError(ValueError):
    """A dump that is not a view hierarchy; readers wrap it into a TraceError with the file."""


def parse_bounds(text: str) -> Bounds:
    m = _BOUNDS.fullmatch(text.strip())
    if not m:
        raise HierarchyError(f"bad bounds {text!r}: expected '[x1,y1][x2,y2]'")
    return (int(m[1]), int(m[2]), int(m[3]), int(m[4]))


def parse_hierarchy(data: bytes) -> tuple[Node, dict[str, str]]:
    """Parse a uiautomator dump or Appium page source.

    Returns the root node (a synthetic `hierarchy` root holding the top-level windows
    is collapsed when it holds exactly one) and the `<hierarchy>` element's attributes
    (`rotation`, and Appium's `width`/`height`).
    """
    if not data.strip():
        raise HierarchyError("empty file")
    try:
        doc = etree.fromstring(data, _PARSER)
    except etree.XMLSyntaxError as err:
        raise HierarchyError(f"not well-formed XML: {err}") from err
    attrs = {k: v for k, v in doc.attrib.items()}
    if doc.tag != "hierarchy":
        if doc.get("bounds") is None:
            raise HierarchyError(f"root element <{doc.tag}> is neither <hierarchy> nor a view")
        tops = [doc]
    else:
        tops = [el for el in doc if isinstance(el.tag, str)]
    if not tops:
        raise HierarchyError("the hierarchy holds no views")
    nodes = tuple(_node(el) for el in tops)
    if len(nodes) == 1:
        return nodes[0], attrs
    # Several windows (e.g. app + keyboard + system bars): one synthetic root spanning them.
    x1 = min(n.bounds[0] for n in nodes)
    y1 = min(n.bounds[1] for n in nodes)
    x2 = max(n.bounds[2] for n in nodes)
    y2 = max(n.bounds[3] for n in nodes)
    return Node(class_name="hierarchy", bounds=(x1, y1, x2, y2), children=nodes,
                package=nodes[0].package), attrs


def _node(el) -> Node:
    a = dict(el.items())
    get = a.get
    cls = get("class") or ("" if el.tag == "node" else el.tag)
    b = get("bounds")
    bounds = parse_bounds(b) if b else (0, 0, 0, 0)
    kw = {attr: a[name] == "true" for name, attr in _FLAGS.items() if name in a}
    if "enabled" not in kw:
        kw["enabled"] = True
    displayed = get("displayed", get("visible-to-user"))
    return Node(
        class_name=cls,
        resource_id=get("resource-id", ""),
        text=get("text", ""),
        content_desc=get("content-desc", ""),
        package=get("package", ""),
        bounds=bounds,
        editable=cls.endswith("EditText") or get("editable") == "true",
        visible=displayed != "false",
        children=tuple(_node(c) for c in el if isinstance(c.tag, str)),
        **kw,
    )


def to_uiautomator_xml(root: Node, rotation: int = 0) -> str:
    """Serialise a tree as `adb shell uiautomator dump` writes it (one line, same attributes).

    All text is attribute-escaped, so trace strings stay data.
    """
    out = ["<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>",
           f'<hierarchy rotation="{int(rotation)}">']
    # A synthetic root (several windows) is the <hierarchy> element itself.
    windows = root.children if root.class_name == "hierarchy" else (root,)
    for i, win in enumerate(windows):
        _emit(win, i, out)
    out.append("</hierarchy>")
    return "".join(out)


def _b(v: bool) -> str:
    return "true" if v else "false"


def _emit(n: Node, index: int, out: list[str]) -> None:
    x1, y1, x2, y2 = n.bounds
    out.append(
        f"<node index=\"{index}\" text={quoteattr(n.text)} resource-id={quoteattr(n.resource_id)}"
        f" class={quoteattr(n.class_name)} package={quoteattr(n.package)}"
        f" content-desc={quoteattr(n.content_desc)} checkable=\"{_b(n.checkable)}\""
        f" checked=\"{_b(n.checked)}\" clickable=\"{_b(n.clickable)}\""
        f" enabled=\"{_b(n.enabled)}\" focusable=\"{_b(n.focusable)}\""
        f" focused=\"{_b(n.focused)}\" scrollable=\"{_b(n.scrollable)}\""
        f" long-clickable=\"{_b(n.long_clickable)}\" password=\"{_b(n.password)}\""
        f" selected=\"{_b(n.selected)}\" bounds=\"[{x1},{y1}][{x2},{y2}]\""
    )
    if n.children:
        out.append(">")
        for i, c in enumerate(n.children):
            _emit(c, i, out)
        out.append("</node>")
    else:
        out.append(" />")


def _contains(b: Bounds, x: int, y: int) -> bool:
    return b[0] <= x < b[2] and b[1] <= y < b[3]


def hit_test(root: Node, x: int, y: int) -> NodePath | None:
    """The node a touch at (x, y) lands on.

    The deepest visible node whose bounds contain the point; when a clickable node
    contains it, the deepest such one wins over a deeper non-clickable label inside
    it (Android dispatches the tap to the clickable ancestor). Later siblings are
    drawn on top, so they win ties. Nodes with inverted bounds never match.
    """
    best: NodePath | None = None
    best_depth = -1
    best_click: NodePath | None = None
    click_depth = -1
    for path, node in _walk_visible(root):
        if not _contains(node.bounds, x, y):
            continue
        d = len(path)
        if d >= best_depth:
            best, best_depth = path, d
        if (node.clickable or node.long_clickable or node.checkable) and d >= click_depth:
            best_click, click_depth = path, d
    return best_click if best_click is not None else best


def _walk_visible(root: Node) -> Iterable[tuple[NodePath, Node]]:
    stack: list[tuple[NodePath, Node]] = [((), root)]
    while stack:
        path, node = stack.pop()
        if not node.visible:
            continue
        yield path, node
        # Push in reverse so iteration follows document order (later siblings last).
        for i in range(len(node.children) - 1, -1, -1):
            stack.append((path + (i,), node.children[i]))
