"""The view model: one `Node` per view of a hierarchy, as a uiautomator dump describes it.

Recordings, rendered mock screens and real devices all produce trees of these; `Bounds`
and `NodePath` are how the rest of phoneworld points at a view.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

Bounds = tuple[int, int, int, int]
"""(x1, y1, x2, y2) in screen pixels, as in a uiautomator dump's `[x1,y1][x2,y2]`."""

NodePath = tuple[int, ...]
"""Child indices from the root to a node: `()` is the root, `(0, 2)` its first child's third."""


class Node(BaseModel):
    """One view of a hierarchy, with the attributes of a uiautomator dump."""

    model_config = ConfigDict(frozen=True)

    class_name: str = ""
    resource_id: str = ""
    text: str = ""
    content_desc: str = ""
    package: str = ""
    bounds: Bounds = (0, 0, 0, 0)
    clickable: bool = False
    long_clickable: bool = False
    checkable: bool = False
    checked: bool = False
    editable: bool = False
    password: bool = False
    scrollable: bool = False
    selected: bool = False
    enabled: bool = True
    focusable: bool = False
    focused: bool = False
    visible: bool = True
    children: tuple[Node, ...] = ()

    @classmethod
    def trusted(cls, fields: dict) -> Node:
        """Build a node from already-typed values without validation (the parsers' fast
        path: 2x faster, which is what lets readers keep up with large dumps). `fields`
        must hold every field; start from `NODE_DEFAULTS.copy()`."""
        node = cls.__new__(cls)
        _set(node, "__dict__", fields)
        _set(node, "__pydantic_fields_set__", _ALL_FIELDS)
        _set(node, "__pydantic_extra__", None)
        _set(node, "__pydantic_private__", None)
        return node

    def walk(self, path: NodePath = ()):
        """Yield `(path, node)` for this node and every descendant, in document order."""
        stack = [(path, self)]
        while stack:
            p, n = stack.pop()
            yield p, n
            for i in range(len(n.children) - 1, -1, -1):
                stack.append((p + (i,), n.children[i]))

    def at(self, path: NodePath) -> Node:
        node = self
        for i in path:
            node = node.children[i]
        return node

    def find(self, path: NodePath) -> Node | None:
        """The node at `path`, or None where the path leaves the tree (a recorded target
        is untrusted: no negative index counts from the end)."""
        node = self
        for i in path:
            if not 0 <= i < len(node.children):
                return None
            node = node.children[i]
        return node

    @property
    def label(self) -> str:
        """What a person reads on this node: its text, else its content description."""
        return self.text or self.content_desc


_set = object.__setattr__
NODE_DEFAULTS: dict = {name: f.default for name, f in Node.model_fields.items()}
_ALL_FIELDS = set(NODE_DEFAULTS)  # shared; pydantic copies it before any update
