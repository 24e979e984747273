"""The trace model every reader produces: observations (view hierarchies) and the actions between.

A `Trace` holds its observations once and its steps as links between them
(`Step.before` / `Step.after` are indices into `Trace.observations`), because real
recorders (DroidBot) point many events at one recorded state.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

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

    @property
    def label(self) -> str:
        """What a person reads on this node: its text, else its content description."""
        return self.text or self.content_desc


_set = object.__setattr__
NODE_DEFAULTS: dict = {name: f.default for name, f in Node.model_fields.items()}
_ALL_FIELDS = set(NODE_DEFAULTS)  # shared; pydantic copies it before any update


class Observation(BaseModel):
    """One recorded screen: a hierarchy (or None where the recorder lost it) plus context."""

    model_config = ConfigDict(frozen=True)

    root: Node | None
    width: int
    height: int
    package: str = ""
    activity: str = ""
    screenshot: str | None = None
    source: str = ""
    """The file this observation was read from, relative to the trace folder."""
    foreign: bool = False
    """True when the screen belongs to another package than the trace's app."""


ActionKind = Literal[
    "tap", "long_press", "swipe", "scroll", "type", "key", "open_app", "intent",
    "answer", "wait", "stop_app",
]


class Action(BaseModel):
    """What was done on one observation.

    Coordinates are screen pixels of the observation it was done on. `target` is the
    node the action hit (a path into that observation's root), resolved by hit-testing
    for taps, kept from the recording for typed text and keys.
    """

    model_config = ConfigDict(frozen=True)

    kind: ActionKind
    x: int | None = None
    y: int | None = None
    x2: int | None = None
    y2: int | None = None
    direction: Literal["up", "down", "left", "right"] | None = None
    text: str | None = None
    key: str | None = None
    package: str | None = None
    target: NodePath | None = None
    raw: str = ""
    """The recorder's own text for this event, for provenance."""


class Step(BaseModel):
    """`action` done on `observations[before]`, leading to `observations[after]`."""

    model_config = ConfigDict(frozen=True)

    before: int
    action: Action
    after: int | None = None
    source: str = ""


TraceFormat = Literal["phoneworld", "uiautomator", "appium", "llamatouch", "droidbot", "rico"]


class Trace(BaseModel):
    """One recorded session of one app."""

    model_config = ConfigDict(frozen=True)

    format: TraceFormat
    name: str
    app: str
    source: str
    observations: tuple[Observation, ...]
    steps: tuple[Step, ...] = ()
    instruction: str | None = None
    answer: str | None = None
    warnings: tuple[str, ...] = Field(default=())

    def to_json(self) -> str:
        """The stable JSON form: fixed key order, no whitespace variance."""
        return self.model_dump_json()

    @classmethod
    def from_json(cls, text: str | bytes) -> Trace:
        return cls.model_validate_json(text)
