"""The trace model every reader produces: observations (view hierarchies) and the actions between.

A `Trace` holds its observations once and its steps as links between them
(`Step.before` / `Step.after` are indices into `Trace.observations`), because real
recorders (DroidBot) point many events at one recorded state.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from phoneworld.ui.node import Node, NodePath


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
