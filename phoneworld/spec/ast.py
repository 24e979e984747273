"""The `.pw` spec as plain frozen data: what `parse` returns and `emit` writes.

Class names equal the grammar's rule names (`phoneworld/grammars/phoneworld.lark`), so a parse tree
maps straight onto these dataclasses. Everything is hashable and compares by value, so
`parse(emit(spec)) == spec` is a plain equality.

An app is: metadata; tables (read-only `content` extracted from the traces, and mutable
`state`); flags (mutable scalars); screens, each a tree of views taken from the recorded
layout, where interactive views have names, texts may be bound to data, and lists render
the rows of a table; transitions between screens with their effects on state; tasks.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, Literal

Value = str | int | float | bool | None
ColumnType = Literal["text", "int", "real", "bool"]
Priority = Literal["P0", "P1", "P2"]


# -- data ---------------------------------------------------------------------------
TYPED = "_typed"
"""A content table of the texts the recordings typed into a field ends in this:
`<flag>_typed` (written by `infer.typed`, read by tasks: what a task types)."""
PICKED = "_picked"
"""A field's values a tap confirmed: `<flag>_picked_typed` (`infer.picked`)."""


@dataclass(frozen=True)
class Column:
    name: str
    type: ColumnType = "text"


@dataclass(frozen=True)
class Table:
    """`content product(id int, name text, price text) { (1, "Oat milk", "$3.49") ... }`

    `content` tables are read-only seed data; `state` tables change as the app is used and
    are what state-based checkers query. The first column is the key.
    """

    name: str
    kind: Literal["content", "state"]
    columns: tuple[Column, ...]
    rows: tuple[tuple[Value, ...], ...] = ()


@dataclass(frozen=True)
class Flag:
    """`flag wifi: bool = true` — one mutable scalar (a toggle, a counter, a draft)."""

    name: str
    type: ColumnType
    initial: Value


# -- expressions (bindings, effects, conditions) -----------------------------------------

@dataclass(frozen=True)
class Const:
    value: Value


@dataclass(frozen=True)
class Ref:
    """A name path: `wifi` (a flag), `item.name` (a column of the current list row),
    `param.price` (a column of the screen's parameter row), `input.query` (a text field's
    current value), `answer` (the agent's answer)."""

    path: tuple[str, ...]


@dataclass(frozen=True)
class Call:
    """`count(cart where product = param.id)`, `exists(...)`, `lower(x)`. The `where`
    clause is only allowed for table functions."""

    func: str
    table: str | None = None
    where: Expr | None = None
    args: tuple[Expr, ...] = ()


@dataclass(frozen=True)
class Compare:
    op: Literal["==", "!=", "<", "<=", ">", ">=", "~"]  # `~` = normalised text match
    left: Expr
    right: Expr


@dataclass(frozen=True)
class BoolOp:
    op: Literal["and", "or"]
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class Not:
    item: Expr


@dataclass(frozen=True)
class BinOp:
    """`cart_count + 1`, `qty - 1`: arithmetic on numbers; `"Remove " + item.name`: two
    texts joined (left-associative)."""

    op: Literal["+", "-"]
    left: Expr
    right: Expr


Expr = Const | Ref | Call | Compare | BoolOp | Not | BinOp

TABLE_FUNCS = frozenset({"count", "exists", "sum"})
"""Functions over a table's rows, written `count(cart)` or `count(cart where qty > 1)`:
their `Call` has `table` (and maybe `where`) and no `args`; `sum(cart, qty)` adds up one
expression over the rows (its one arg, where bare names are the row's columns)."""

SCALAR_FUNCS = MappingProxyType({"lower": 1, "len": 1, "number": 1, "times": 2, "fixed": 2,
                                 "otherwise": 2, "choose": 3})
"""The other functions, by how many `args` they take: `lower(input.query)`;
`number("$1.49 each")` is 1.49 (the first number in a text), `times(a, b)` multiplies,
`fixed(8.5, 2)` is the text "8.50" (what derived values show), `otherwise(param.title,
"Files")` is its first value unless that is empty or none, else its second (what a screen
shows when it was opened without a row), `choose(dim, "Dimming ON", "Dimming OFF")` is its
second value where its first holds, else its third (a text that says a switch's state)."""


# -- screens ------------------------------------------------------------------------------

ViewFlag = Literal["clickable", "long_clickable", "checkable", "editable", "scrollable",
                   "selected", "password", "focusable", "disabled"]


@dataclass(frozen=True)
class ListOf:
    """A view whose children repeat one item template per row of `table` (optionally
    filtered), laid out from `offset` with `pitch` pixels between items along `axis`.

    A grid (`span` > 1) puts `span` items on each line, `cross` pixels apart across the
    axis; `pitch` is then the distance between lines.

    Rows differ in size (a title wrapped to two lines, a row with a comment, a section
    header and the divider after a section): `sizes` holds (row key: the table's first
    column, size along the axis, space to the next row) for the rows recorded otherwise
    than the template's size and `pitch`. Such a row is that large, its views stretched
    or moved with it (see `runtime.layout.anchor`), and the next row starts after that
    space; any other row, one added at run time among them, is the template's size,
    `pitch` from the next."""

    table: str
    where: Expr | None = None
    pitch: int = 0
    axis: Literal["vertical", "horizontal"] = "vertical"
    span: int = 1
    cross: int = 0
    sizes: tuple[tuple[int, int, int], ...] = ()


@dataclass(frozen=True)
class View:
    """One view of a screen's recorded layout.

    `text` and `desc` (the content description) are literal (`Const`) or bound to data
    (`desc "Remove " + item.name` on a list row); `checked` is a literal or bound to a
    flag/column. `name` marks an interactive view that transitions refer to.
    A view with `items` is a list: its single child is the item template.
    """

    cls: str
    bounds: tuple[int, int, int, int]
    name: str = ""
    id: str = ""
    text: Expr | None = None
    desc: Expr | None = None
    checked: Expr | None = None
    flags: tuple[ViewFlag, ...] = ()
    items: ListOf | None = None
    children: tuple[View, ...] = ()


@dataclass(frozen=True)
class Screen:
    """`screen product_detail P0 (param product) { package ... activity ... view ... }`."""

    name: str
    priority: Priority
    root: View
    package: str = ""
    activity: str = ""
    foreign: bool = False
    param: str | None = None
    modules: tuple[str, ...] = ()
    seen: int = 0
    """How many recorded observations this screen was abstracted from (provenance)."""
    opened: int | str | None = None
    """The key (first column) of the `param` row it was recorded with (by the compiler:
    the row its layout's observation shows): what it shows when nothing has opened it
    yet (`runtime.opened`); None: not recorded."""
    window: tuple[int, int, int, int] | None = None
    """A dialog's window, smaller than the screen (`ui.dialogs`): `dialog over store
    [0,1015,1080,2148]`; None: the screen is not a dialog."""
    over: str | None = None
    """The screen a dialog opens over and closes back to, as recorded (None: unknown)."""
    layer: tuple[int, ...] = ()
    """Where in `root` a dialog's own views are: the child indices down to the view that
    holds them (`dialog ... layer [0,1]`: a sheet drawn over a scrim, in the page's own
    window, with the page under it), found by `ui.dialogs` when compiled; () for the
    root itself (a dialog whose window is the hierarchy). `walk.own_root` follows it."""


# -- behaviour ------------------------------------------------------------------------------

ActionName = Literal["tap", "long_press", "type", "submit", "scroll", "swipe", "back", "home",
                     "enter", "wait"]
"""`wait` is a timed transition: `on splash wait -> home` fires by itself, with no event,
when the agent waits (an ad or splash screen that gives way to the next one)."""


@dataclass(frozen=True)
class Effect:
    """What a transition does to state.

    - `toggle wifi` / `set wifi = false` (flags)
    - `insert cart(product = param.id, qty = 1)` / `delete cart where product = item.id`
    - `update cart set qty = qty + 1 where product = param.id`
    - `clear cart`
    """

    op: Literal["toggle", "set", "insert", "delete", "update", "clear"]
    target: str
    values: tuple[tuple[str, Expr], ...] = ()
    where: Expr | None = None


@dataclass(frozen=True)
class Transition:
    """`on home.search tap -> results with param = item when ... { effects } x3`.

    `target` is a screen name, `back` (pop the back stack) or `stay`. `with_param`
    passes the tapped list row (`item`), the current parameter (`param`) or a text
    field's value into the target screen. `count` is how often the traces show it.
    """

    screen: str
    widget: str
    action: ActionName
    target: str
    with_param: Expr | None = None
    when: Expr | None = None
    effects: tuple[Effect, ...] = ()
    count: int = 0


@dataclass(frozen=True)
class TaskParam:
    name: str
    table: str
    column: str


@dataclass(frozen=True)
class Task:
    """A task template: typed parameters drawn from content, an instruction with
    `{param}` holes, and a success condition (state, screen and answer predicates)."""

    name: str
    kind: Literal["state", "information", "navigation", "composite", "cross_app"]
    instruction: str
    condition: Expr
    params: tuple[TaskParam, ...] = ()


_CACHES = frozenset({"_hash", "_by_name"})
"""What an `AppSpec` computes once and keeps beside its fields (never compared, never
pickled)."""


@dataclass(frozen=True)
class AppSpec:
    """One app. `start` is the screen a reset lands on."""

    name: str
    package: str
    start: str
    width: int = 1080
    height: int = 2400
    title: str = ""
    source: str = ""
    tables: tuple[Table, ...] = ()
    flags: tuple[Flag, ...] = ()
    screens: tuple[Screen, ...] = ()
    transitions: tuple[Transition, ...] = ()
    tasks: tuple[Task, ...] = ()
    notes: tuple[str, ...] = field(default=())
    look: Any = field(default=None, compare=False, repr=False)
    """How the screens look (a `runtime.look.Look`, from the app's recorded screenshots),
    or None; data the generated app carries beside its spec, not part of the spec text."""

    @property
    def label(self) -> str:
        """The app's name as people see it, on the launcher and in task wording: its title
        (else its name), capitalised when all lower case (`shopping` -> `Shopping`)."""
        t = self.title or self.name
        return t[:1].upper() + t[1:] if t.islower() else t

    def __hash__(self) -> int:
        """The hash of the compared fields, as the dataclass's own, computed once: an app
        is a key of caches looked up many times (task sampling), and walking its whole tree
        each time cost two thirds of `rl.data.split`."""
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash(tuple(getattr(self, f.name) for f in fields(self) if f.compare))
            object.__setattr__(self, "_hash", h)
        return h

    def screen(self, name: str) -> Screen | None:
        """The screen called `name` (the first, as a walk of `screens` finds it), or None:
        from a name -> screen map built once per app."""
        by_name = self.__dict__.get("_by_name")
        if by_name is None:
            by_name = {}
            for s in self.screens:
                by_name.setdefault(s.name, s)
            object.__setattr__(self, "_by_name", by_name)
        return by_name.get(name)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without its caches: another process hashes strings its own way, and
        the screen map is rebuilt from `screens` on demand."""
        return {k: v for k, v in self.__dict__.items() if k not in _CACHES}
