"""What an app offers for tasks: its entities, what a person can read about them, its screens'
names, and the state its widgets change.

    content category_product_list(id, ctx, product_name, product_price) shown in a list
    ->  Entity(table="category_product_list", name="product_name", noun="product",
               fields=(Field("product_price", "price"),))

An entity is a table that the app shows: its rows appear in a list or as the parameter of
a detail screen. Its *name* is the column a person would call it by; its *fields* are the
other columns some view shows. State changes come from the transitions' effects (toggles
of flags, of a table's boolean column, inserts and deletes). Everything here is read from
the spec alone; `reach` says which of it can actually be seen.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from phoneworld.spec.ast import (
    AppSpec,
    Call,
    Compare,
    Expr,
    Not,
    Ref,
    View,
)
from phoneworld.spec.walk import views as walk_views
from phoneworld.spec.walk import walk
from phoneworld.tasks.labels import label_of as label_of_view
from phoneworld.tasks.labels import screen_labels

_SYSTEM = re.compile(r"systemui|statusbar|navigationbar|clock|battery", re.I)
_NAME_WORDS = ("name", "title", "label", "query", "number", "text1")
FACTS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((k, re.compile(p)) for k, p in (
    ("unread", r"\bunread\b"),
    ("price", r"^(price|cost)$"),
    ("amount", r"\b(price|cost|amount|total|subtotal|fare|fee)\b"),
    ("count", r"\bcount\b"),
    ("quantity", r"\b(quantity|qty)\b"),
    ("size", r"\b(unit|size|weight|volume)\b"),
    ("status", r"\bstatus\b"),
    ("time", r"\b(date|time|timestamp|when)\b"),
    ("phone", r"\b(number|phone|tel)\b"),
    ("email", r"\bemail\b"),
    ("address", r"\baddress\b"),
    ("snippet", r"\b(snippet|preview|last message)\b"),
    ("summary", r"\b(summary|subtitle|description)\b"),
    ("badge", r"\bbadge\b"),
    ("rating", r"\b(rating|stars|score)\b"),
))
"""The sorts of facts a question can ask about, by the words of a column's name; a column
whose words match none (a button's text, a dialog title) is not asked about."""
_PREFIX = re.compile(r"^(main|sub_settings|d)_")
FACT_WORDS = frozenset(
    "price cost amount total subtotal fare fee count quantity qty unit size weight volume "
    "status date time timestamp phone number tel email address snippet preview last message "
    "summary subtitle description badge rating stars score unread delivery".split())
"""The words a question may call a fact by: a column named otherwise (from a resource id
such as `view_card_header_title`) is asked about by where it is shown instead."""


@dataclass(frozen=True)
class Field:
    """A column some view shows, with the words a person would use for it and what sort
    of fact it holds (`price`, `count`, `time`, ...; see `FACTS`)."""

    column: str
    label: str
    fact: str


@dataclass(frozen=True)
class Entity:
    """A table the app shows, row by row."""

    table: str
    kind: str
    key: str
    name: str
    noun: str
    fields: tuple[Field, ...]


@dataclass(frozen=True)
class RowToggle:
    """`update T set c = not item.c where key == item.key`: a switch per row."""

    table: str
    column: str
    screen: str


@dataclass(frozen=True)
class FlagToggle:
    """`toggle f` fired from a widget (the switch bound to `f`, usually); `label` is what
    the widget says ("" when it says nothing)."""

    flag: str
    label: str
    screen: str


@dataclass(frozen=True)
class RowInsert:
    """`insert T(col = item.x / param.x / input.w, ...)`: a collection that grows."""

    table: str
    screen: str
    source: str | None
    """The table whose row the new row refers to (the list's or the screen's), if any."""
    columns: tuple[tuple[str, str], ...]
    """(column of T, column of `source`) pairs copied from the source row."""
    inputs: tuple[tuple[str, str], ...]
    """(column of T, text field) pairs filled from typed text."""
    label: str


@dataclass(frozen=True)
class RowDelete:
    """`delete T where c == item.x / param.x`: a collection that shrinks."""

    table: str
    screen: str
    column: str
    source: str
    source_column: str
    label: str
    on_row: bool = False
    """Whether the tap is on the row itself (no remove button in it): the row is used
    up (a prompt once answered), so a person taps it, never "removes" it."""
    when: Expr | None = None
    """(#21) The rows of the source whose tap deletes (`item.id == 1 or item.id == 21`:
    the tap of any other row does something else), over `item`; None for every row."""


@dataclass(frozen=True)
class Schema:
    """Everything `synthesize` builds templates from."""

    app: str
    title: str
    entities: tuple[Entity, ...]
    screen_labels: tuple[tuple[str, str], ...]
    row_toggles: tuple[RowToggle, ...]
    flag_toggles: tuple[FlagToggle, ...]
    inserts: tuple[RowInsert, ...]
    deletes: tuple[RowDelete, ...]

    def entity(self, table: str) -> Entity | None:
        return next((e for e in self.entities if e.table == table), None)

    def screen_label(self, screen: str) -> str:
        return dict(self.screen_labels).get(screen, "")


@lru_cache(maxsize=64)
def read_schema(spec: AppSpec) -> Schema:
    """The entities, screen labels and state changes of `spec` (see the module docstring)."""
    tables = {t.name: t for t in spec.tables}
    shown: dict[str, dict[str, str]] = {}  # table -> column -> a view id showing it
    on_detail: dict[tuple[str, str], set[str]] = {}  # (screen, param table) -> columns
    for screen in spec.screens:
        if screen.foreign:
            continue
        for view, item_table in _views(screen.root, None):
            e = view.text
            if not isinstance(e, Ref) or len(e.path) != 2 or _SYSTEM.search(view.id):
                continue
            if e.path[0] == "item" and item_table in tables:
                shown.setdefault(item_table, {}).setdefault(e.path[1], view.id)
            elif e.path[0] == "param" and screen.param in tables:
                on_detail.setdefault((screen.name, screen.param), set()).add(e.path[1])
    for (_, table), cols in sorted(on_detail.items()):
        # A detail screen's field is a fact about its row only where the screen also shows
        # the row's name (a cart screen's total, bound to its parameter, is not).
        if any(_name_column([c]) is not None for c in cols):
            for c in sorted(cols):
                shown.setdefault(table, {}).setdefault(c, "")
    entities = []
    for name, t in tables.items():
        cols = shown.get(name)
        if not cols:
            continue
        types = {c.name: c.type for c in t.columns}
        visible = [c.name for c in t.columns if c.name in cols and types[c.name] == "text"]
        if not visible:
            continue
        entity_name = _name_column(visible) or _first_named(t, visible)
        if entity_name is None:
            continue
        fields = []
        for c in visible:
            label = label_of(c, entity_name)
            fact = next((k for k, rx in FACTS if rx.search(label)), None)
            if c != entity_name and fact is not None and set(label.split()) <= FACT_WORDS:
                fields.append(Field(c, label, fact))
        entities.append(Entity(table=name, kind=t.kind, key=t.columns[0].name,
                               name=entity_name, noun=_noun(entity_name),
                               fields=tuple(fields)))
    return Schema(app=spec.name, title=spec.title or spec.name, entities=tuple(entities),
                  screen_labels=tuple(_screen_labels(spec)),
                  row_toggles=tuple(_row_toggles(spec)), flag_toggles=tuple(_flag_toggles(spec)),
                  inserts=tuple(_inserts(spec)), deletes=tuple(_deletes(spec)))


# -- words ------------------------------------------------------------------------------------

def words(identifier: str) -> str:
    """`product_unit_price` -> `product unit price` (digits and `d_` prefixes dropped)."""
    w = _PREFIX.sub("", identifier)
    w = re.sub(r"_\d+$", "", w)
    return " ".join(p for p in w.split("_") if p and not p.isdigit())


def label_of(column: str, name_column: str) -> str:
    """A column's words without the entity's own prefix: `product_price` -> `price`."""
    w = words(column).split()
    prefix = words(name_column).split()[:-1]
    while prefix and w[:1] == prefix[:1] and len(w) > 1:
        w, prefix = w[1:], prefix[1:]
    return " ".join(w) or words(column)


def _noun(name_column: str) -> str:
    """`product_name` -> `product`; `title` -> `` (no noun to be had)."""
    w = words(name_column).split()
    return " ".join(w[:-1]) if len(w) > 1 else ""


def _name_column(visible: list[str]) -> str | None:
    """The column a row is called by: the first shown one named like a name, a whole
    word first (spoon_live's broadcast rows show `text_title` over `text_nickname`, the
    DJ's: the row is the broadcast, called by its title; a `nickname` or `username` names
    its row only where no column is a name outright)."""
    for whole in (True, False):
        for word in _NAME_WORDS:
            for c in visible:
                if (c == word or c.endswith("_" + word) if whole else c.endswith(word)) \
                        and not c.startswith("d_"):
                    return c
    return None


def _first_named(table, visible: list[str]) -> str | None:
    """Where no column is named like a name (a real app's `text_view`): the first shown
    one that tells most rows apart, as the first line of a row usually does."""
    cols = [c.name for c in table.columns]
    for c in visible:
        i = cols.index(c)
        values = [r[i] for r in table.rows if isinstance(r[i], str) and r[i].strip()]
        if len(values) >= 2 and len(set(values)) * 2 > len(values) and \
                any(ch.isalpha() for v in values for ch in v[:1]):
            return c
    return None


def view_label(view: View, *, fallback: bool = True) -> str:
    """What a person would call a widget (`labels.label_of`, looking inside lists too),
    else, with `fallback`, the words of its name."""
    return label_of_view(view, into_lists=True) or (
        words(view.name) if view.name and fallback else "")


def _views(v: View, table: str | None) -> Iterator[tuple[View, str | None]]:
    """Every view with the table its `item` stands for."""
    yield v, table
    inner = v.items.table if v.items is not None else table
    for c in v.children:
        yield from _views(c, inner)


def named_views(spec: AppSpec) -> dict[tuple[str, str], tuple[View, str | None]]:
    """(screen, widget name) -> the view and the table its list items show (if any)."""
    out = {}
    for s in spec.screens:
        for v, t in _views(s.root, None):
            if v.name:
                out.setdefault((s.name, v.name), (v, t))
    return out


def _screen_labels(spec: AppSpec) -> Iterator[tuple[str, str]]:
    """A screen's name in the app's words (see `labels`), in screen order."""
    found = screen_labels(spec)
    for s in spec.screens:
        if s.name in found:
            yield s.name, found[s.name][0]


# -- state changes ------------------------------------------------------------------------------

def _row_toggles(spec: AppSpec) -> Iterator[RowToggle]:
    seen = set()
    bools = {(t.name, c.name) for t in spec.tables if t.kind == "state" for c in t.columns
             if c.type == "bool"}
    for t in spec.transitions:
        for e in t.effects:
            if e.op != "update":
                continue
            # (the switch's own ON/OFF text may turn with it: `switch_widget = choose(...)`)
            for col, value in e.values:
                if (e.target, col) in bools and isinstance(value, Not) and \
                        isinstance(value.item, Ref) and value.item.path[-1] == col and \
                        (e.target, col) not in seen:
                    seen.add((e.target, col))
                    yield RowToggle(e.target, col, t.screen)


_SWITCH_STATE = re.compile(r"\s+(ON|OFF)$")
"""A switch's own text ends with the state it showed ("Image dimming (in Dark theme) ON"):
not part of its name."""


def _flag_toggles(spec: AppSpec) -> Iterator[FlagToggle]:
    named = named_views(spec)
    seen = set()
    for t in spec.transitions:
        for e in t.effects:
            if e.op == "toggle" and e.target not in seen:
                seen.add(e.target)
                view = named.get((t.screen, t.widget))
                # Only the app's own words name a switch: no label, no task.
                label = view_label(view[0], fallback=False) if view else ""
                if view and "checkable" in view[0].flags:
                    label = _SWITCH_STATE.sub("", label)
                yield FlagToggle(e.target, label, t.screen)


def _source_of(e: Expr, item: str | None, param: str | None) -> tuple[str, str] | None:
    if isinstance(e, Ref) and len(e.path) == 2 and e.path[0] in ("item", "param"):
        table = item if e.path[0] == "item" else param
        return (table, e.path[1]) if table else None
    return None


def _inserts(spec: AppSpec) -> Iterator[RowInsert]:
    named = named_views(spec)
    params = {s.name: s.param for s in spec.screens}
    seen = set()
    for t in spec.transitions:
        view = named.get((t.screen, t.widget))
        item = view[1] if view else None
        for e in t.effects:
            if e.op != "insert" or e.target in seen:
                continue
            cols, inputs, source = [], [], None
            for col, value in e.values:
                src = _source_of(value, item, params.get(t.screen))
                if src and source in (None, src[0]):
                    source = src[0]
                    cols.append((col, src[1]))
                elif isinstance(value, Ref) and len(value.path) == 2 and value.path[0] == "input":
                    inputs.append((col, value.path[1]))
            if cols or inputs:
                seen.add(e.target)
                yield RowInsert(e.target, t.screen, source, tuple(cols), tuple(inputs),
                                view_label(view[0]) if view else words(t.widget))


def _deletes(spec: AppSpec) -> Iterator[RowDelete]:
    named = named_views(spec)
    params = {s.name: s.param for s in spec.screens}
    rows = {(s.name, c.name) for s in spec.screens for v in walk_views(s.root)
            if v.items is not None for c in v.children if c.name}
    seen = set()
    for t in spec.transitions:
        view = named.get((t.screen, t.widget))
        item = view[1] if view else None
        for e in t.effects:
            if e.op != "delete" or not isinstance(e.where, Compare) or e.where.op != "==" or \
                    e.target in seen:
                continue
            left, right = e.where.left, e.where.right
            if isinstance(right, Ref) and len(right.path) == 1:
                left, right = right, left
            src = _source_of(right, item, params.get(t.screen))
            if isinstance(left, Ref) and len(left.path) == 1 and src:
                seen.add(e.target)
                when = t.when if t.when is not None and right.path[0] == "item" and all(
                    x.path[0] == "item" and len(x.path) == 2
                    for x in walk(t.when) if isinstance(x, Ref)) else None
                yield RowDelete(e.target, t.screen, left.path[0], src[0], src[1],
                                view_label(view[0]) if view else words(t.widget),
                                (t.screen, t.widget) in rows, when)


# -- expressions -----------------------------------------------------------------------------------

def reads(e: Expr | None) -> set[str]:
    """The tables and bare names (flags, parameters, `answer`, `screen`) `e` reads."""
    out: set[str] = set()
    for x in walk(e) if e is not None else ():
        if isinstance(x, Ref):
            if len(x.path) == 1:
                out.add(x.path[0])
        elif isinstance(x, Call) and x.table:
            out.add(x.table)
    return out
