"""Semantic checks of an `AppSpec`: every name resolves, every row fits its table, ...

    on home.serch tap -> detial
      ->  SpecError("shop.pw:9:9: no widget 'serch' on screen 'home'; did you mean 'search'?
                     shop.pw:9:23: unknown screen 'detial'; did you mean 'detail'?")

All problems are collected first and raised together as one `SpecError` (one per line,
`file:line:col: message` where the position is known, in source order). A spec that
passes `check` is one `emit` can write and `parse` reads back equal.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import fields, is_dataclass, replace
from pathlib import Path
from typing import get_args

from phoneworld.errors import SpecError, did_you_mean
from phoneworld.limits import MAX_DEPTH, MAX_FILE_BYTES
from phoneworld.spec.ast import (
    ActionName,
    AppSpec,
    ColumnType,
    Effect,
    Screen,
    Table,
    Task,
    Transition,
    Value,
    View,
    ViewFlag,
)
from phoneworld.spec.names import ROOTS, NameChecker, Scope
from phoneworld.spec.parse import parse_with_positions
from phoneworld.spec.transform import Positions

NAME = re.compile(r"[a-z_][a-z0-9_]*")
_HOLE = re.compile(r"\{\{|\}\}|\{([a-z_][a-z0-9_]*)\}")  # `{p}` a hole, `{{` a brace
_KEYS = ("back", "home", "wait")  # actions with no widget: `on detail back -> back`
_TARGETS = ("stay", "back")
_SQLITE_COLUMNS = ("rowid", "_rowid_", "oid")  # names SQLite gives every row
_SHAPES = {  # effect: (may set columns, must set some, may have `where`)
    "toggle": (False, False, False), "set": (True, True, False),
    "insert": (True, False, False), "delete": (False, False, True),
    "update": (True, True, True), "clear": (False, False, False)}


def check(spec: AppSpec, filename: str = "<spec>", text: str | None = None,
          positions: Positions | None = None) -> None:
    """Raise one `SpecError` listing every semantic problem of `spec`, or return None.

    Positions come from `positions` (see `parse_with_positions`), or from re-parsing
    `text` when that is the text `spec` was parsed from.
    """
    if positions is None and text is not None:
        try:
            again, positions = parse_with_positions(text, filename)
        except SpecError:
            again = None
        if again == spec:
            spec = again  # walk the nodes the positions belong to
        else:
            positions = None
    problems = _Checker(spec, positions or Positions()).run()
    if problems:
        lines = [f"{filename}:{at[0]}:{at[1]}: {m}" if at else f"{filename}: {m}"
                 for at, m in problems]
        err = SpecError("\n".join(lines))
        err.problems = lines
        raise err


@functools.lru_cache(maxsize=64)
def check_once(spec: AppSpec) -> None:
    """`check` a spec built in Python, once per (equal) spec: the runtime's guard, so that
    an app never fails halfway through an episode over a name it does not define."""
    check(spec, f"<app {spec.name}>")


def load(path: str | Path) -> AppSpec:
    """Read, parse and check one `.pw` file."""
    p = Path(path)
    try:
        if p.exists() and not p.is_file():  # a FIFO would block the read, a device never end
            raise SpecError(f"{p}: cannot read this spec: not a regular file")
        if p.exists() and p.stat().st_size > MAX_FILE_BYTES:
            raise SpecError(f"{p}: cannot read this spec: {p.stat().st_size:,} bytes is over "
                            f"the limit of {MAX_FILE_BYTES >> 20} MiB")
        text = p.read_text(encoding="utf-8-sig")  # a BOM is not part of the spec
    except (OSError, UnicodeDecodeError) as err:
        reason = getattr(err, "strerror", None) or str(err)
        raise SpecError(f"{p}: cannot read this spec: {reason}") from err
    spec, positions = parse_with_positions(text, str(p))
    check(spec, str(p), positions=positions)
    return spec


class _Checker:
    def __init__(self, spec: AppSpec, positions: Positions) -> None:
        self.spec, self.positions = spec, positions
        self.problems: list[tuple[tuple[int, int] | None, str]] = []
        self.names = NameChecker(spec, self._report)
        self.tables = {t.name: t for t in reversed(spec.tables)}  # the first one wins
        self.screens = {s.name: s for s in reversed(spec.screens)}
        self.flags = {f.name: f for f in reversed(spec.flags)}
        # Screens without a param table that a transition hands a value (`with
        # input.query`): their `param` is that value.
        self.valued = {t.target for t in spec.transitions
                       if t.with_param is not None and not _is_row(t.with_param)}

    def run(self) -> list[tuple[tuple[int, int] | None, str]]:
        s = self.spec
        self._ident(s, s.name, "app")
        self._text(s, s.package, s.title, s.source, *s.notes)
        if s.start not in self.screens:
            self.at(s, f"start screen '{s.start}' is not a screen"
                       f"{did_you_mean(s.start, self.screens)}", "start")
        for n in (s.width, s.height):
            if not _is_int(n) or n <= 0:
                self.at(s, f"screen_size needs two positive numbers, got {n!r}")
        self._unique(s.tables, "table")
        self._unique(s.flags, "flag")
        self._unique(s.screens, "screen")
        self._unique(s.tasks, "task")
        for t in s.tables:
            self._table(t)
        for f in s.flags:
            self._ident(f, f.name, "flag", roots=True)
            if _among(f, f.type, ColumnType, "column type", self) and not _fits(f.initial,
                                                                                f.type):
                self.at(f, f"flag '{f.name}' is {f.type}, its initial value is {f.initial!r}")
        self._unpaired(s)
        for sc in s.screens:
            self._screen(sc)
        for t in s.transitions:
            self._transition(t)
        for t in s.tasks:
            self._task(t)
        return sorted(self.problems, key=lambda p: p[0] or (1 << 30, 0))

    # -- reporting -------------------------------------------------------------------------
    def at(self, node: object, message: str, field: object = None) -> None:
        self.problems.append((self.positions.get(node, field), message))

    def _report(self, nodes: tuple[object, ...], message: str) -> None:
        at = next((p for p in map(self.positions.get, nodes) if p), None)
        self.problems.append((at, message))

    def _ident(self, node: object, name: object, what: str, field: object = "name",
               roots: bool = False) -> None:
        if not isinstance(name, str) or not NAME.fullmatch(name):
            self.at(node, f"{what} name {name!r} is not lowercase letters, digits and _",
                    field)
        elif roots and name in ROOTS:
            self.at(node, f"'{name}' has a fixed meaning in expressions; "
                          f"call this {what} something else", field)

    def _text(self, node: object, *values: object) -> None:
        for v in values:
            if not isinstance(v, str):
                self.at(node, f"not text: {v!r}")

    def _unpaired(self, spec: AppSpec) -> None:
        """Strings that hold an unpaired surrogate (`\\ud800`), which no file can store."""
        stack: list[tuple[object, object]] = [(spec, spec)]
        while stack:
            value, owner = stack.pop()
            kind = type(value)
            if kind is str:
                if _SURROGATE.search(value):  # type: ignore[arg-type]
                    self.at(owner, f"not text: {value!r} holds an unpaired surrogate")
            elif kind is tuple:
                stack.extend((v, owner) for v in value)  # type: ignore[attr-defined]
            else:
                names = _FIELDS.get(kind)
                if names is None:  # numbers and None have none
                    names = _FIELDS[kind] = tuple(f.name for f in fields(value)) \
                        if is_dataclass(value) else ()
                stack.extend((getattr(value, n), value) for n in names)

    def _unique(self, items: tuple, what: str) -> None:
        first: dict[str, object] = {}
        for item in items:
            if item.name in first:
                at = self.positions.get(first[item.name])
                since = f" (first at line {at[0]})" if at else ""
                self.at(item, f"{what} '{item.name}' is declared twice{since}", "name")
            first.setdefault(item.name, item)

    # -- data -------------------------------------------------------------------------------
    def _table(self, t: Table) -> None:
        self._ident(t, t.name, "table")
        if isinstance(t.name, str) and (t.name == "flags" or t.name.startswith("sqlite_")):
            self.at(t, f"table name '{t.name}' is reserved (the app's SQLite uses it)",
                    "name")
        _among(t, t.kind, ("content", "state"), "table kind", self)
        if not t.columns:
            self.at(t, f"table '{t.name}' needs at least one column (its key)")
        seen: set[str] = set()
        for c in t.columns:
            self._ident(c, c.name, "column")
            if c.name in _SQLITE_COLUMNS:
                self.at(c, f"column name '{c.name}' is reserved by SQLite", "name")
            _among(c, c.type, ColumnType, "column type", self)
            if c.name in seen:
                self.at(c, f"column '{c.name}' of '{t.name}' is declared twice")
            seen.add(c.name)
        keys: dict[Value, int] = {}
        for j, row in enumerate(t.rows):
            where = ("rows", j)
            if len(row) != len(t.columns):
                self.at(t, f"row {j + 1} of '{t.name}' has {len(row)} values for "
                           f"{len(t.columns)} columns ({', '.join(c.name for c in t.columns)})",
                        where)
                continue
            for c, v in zip(t.columns, row, strict=True):
                if not _fits(v, c.type):
                    self.at(t, f"row {j + 1} of '{t.name}': '{c.name}' is {c.type}, got {v!r}",
                            where)
            if row and row[0] is not None:
                key = (type(row[0]), row[0])
                if key in keys:
                    self.at(t, f"row {j + 1} of '{t.name}' repeats the key {row[0]!r} "
                               f"of row {keys[key] + 1}", where)
                keys.setdefault(key, j)

    # -- screens ------------------------------------------------------------------------------
    def _opened(self, s: Screen) -> None:
        """`opened K` names a row of the screen's param table by its key."""
        table = self.tables.get(s.param) if s.param is not None else None
        if s.param is None:
            self.at(s, f"screen '{s.name}' is opened with a row but has no param", "opened")
        elif table is not None and not any(
                row and type(row[0]) is type(s.opened) and row[0] == s.opened
                for row in table.rows):
            self.at(s, f"screen '{s.name}' is opened with row {s.opened!r}, which table "
                       f"'{s.param}' does not have", "opened")

    def _over(self, s: Screen) -> None:
        """`dialog over S` names another screen of the app, and only a dialog has one."""
        if s.window is None:
            self.at(s, f"screen '{s.name}' opens over '{s.over}' but is not a dialog", "over")
        elif s.over == s.name:
            self.at(s, f"dialog '{s.name}' opens over itself", "over")
        elif s.over not in self.screens:
            self.at(s, f"dialog '{s.name}' opens over unknown screen '{s.over}'"
                       f"{did_you_mean(s.over, self.screens)}", "over")

    def _layer(self, s: Screen) -> None:
        """`layer [i,j]` is a dialog's, and leads to a view of its tree."""
        if s.window is None:
            self.at(s, f"screen '{s.name}' has a dialog layer but is not a dialog", "name")
            return
        v = s.root
        for depth, i in enumerate(s.layer):
            if not _is_int(i) or not 0 <= i < len(v.children):
                self.at(s, f"dialog '{s.name}': layer {list(s.layer)} has no view at step "
                           f"{depth + 1} (a view with {len(v.children)} children)", "name")
                return
            v = v.children[i]

    def _screen(self, s: Screen) -> None:
        self._ident(s, s.name, "screen")
        self._text(s, s.package, s.activity)
        if s.name in _TARGETS:
            self.at(s, f"'{s.name}' is a transition target of its own; "
                       "call this screen something else", "name")
        if s.priority not in ("P0", "P1", "P2"):
            self.at(s, f"priority is P0, P1 or P2, not '{s.priority}'", "priority")
        if s.param is not None:
            self.names.table(s.param, lambda m: self.at(s, m, "param"))
        if s.opened is not None:
            self._opened(s)
        if not _is_int(s.seen) or s.seen < 0:
            self.at(s, f"seen is a count, not {s.seen!r}")
        for m in s.modules:
            self._ident(s, m, "module")
        if s.over is not None:
            self._over(s)
        if s.layer:
            self._layer(s)
        deepest = _depth(s.root)
        if deepest > MAX_VIEW_DEPTH:  # what compiles must render: the pipeline's one cap
            self.at(s, f"views nest {deepest} levels deep in screen '{s.name}'; the limit "
                       f"is {MAX_VIEW_DEPTH}", "name")
            return
        named: dict[str, View] = {}
        for view, _ in _walk(s.root, None):
            if view.name and view.name in named:
                at = self.positions.get(named[view.name])
                since = f" (first at line {at[0]})" if at else ""
                self.at(view, f"widget '{view.name}' is named twice in screen "
                              f"'{s.name}'{since}", "name")
            elif view.name:
                self._ident(view, view.name, "widget")
                named[view.name] = view
        scope = Scope(param=s.param, inputs=frozenset(named),
                      param_value=s.param is None and s.name in self.valued)
        for view, table in _walk(s.root, None):
            self._view(view, replace(scope, item=table))

    def _view(self, v: View, scope: Scope) -> None:
        self._text(v, v.cls, v.id)
        if len(v.bounds) != 4 or not all(_is_int(b) for b in v.bounds):
            self.at(v, f"bounds are four whole numbers, not {v.bounds!r}")
        for e in (v.text, v.desc, v.checked):
            if e is not None:
                self.names.expr(e, scope, (v,))
        for f in v.flags:
            _among(v, f, ViewFlag, "view flag", self)
        if len(set(v.flags)) != len(v.flags):
            self.at(v, "a view flag is given twice")
        lst = v.items
        if lst is None:
            return
        say = lambda m: self.at(lst, m, "table")  # noqa: E731
        if self.names.table(lst.table, say) and lst.where is not None:
            self.names.expr(lst.where, replace(scope, item=lst.table, columns=lst.table),
                            (lst, v))
        if len(v.children) != 1:
            self.at(v, f"a list view has one child, its item template ({len(v.children)} here)")
        if not _is_int(lst.pitch) or lst.pitch < 0:
            self.at(lst, f"pitch is 0 or more pixels, not {lst.pitch!r}")
        ids = [s[0] for s in lst.sizes]
        if any(len(s) != 3 or not all(_is_int(x) for x in s) or min(s[:2]) < 1 or s[2] < 0
               for s in lst.sizes):
            self.at(lst, "a row's size is its id:size+space, the id and size 1 or more")
        elif len(set(ids)) != len(ids) or ids != sorted(ids):
            self.at(lst, "row sizes are given once per row, in row id order")
        elif lst.sizes and lst.span != 1:
            self.at(lst, "a grid's rows all take its pitch (no row sizes)")
        _among(lst, lst.axis, ("vertical", "horizontal"), "axis", self)

    # -- behaviour -----------------------------------------------------------------------------
    def _transition(self, t: Transition) -> None:
        _among(t, t.action, ActionName, "action", self)
        if not _is_int(t.count) or t.count < 0:
            self.at(t, f"x{t.count!r}: a count is 0 or more")
        source = self.screens.get(t.screen)
        if source is None:
            self.at(t, f"unknown screen '{t.screen}'{did_you_mean(t.screen, self.screens)}",
                    "screen")
            return
        widgets = {v.name: table for v, table in _walk(source.root, None) if v.name}
        if t.action == "wait" and t.widget not in ("", "wait"):
            self.at(t, "a timed transition belongs to its screen: write "
                       f"`on {t.screen} wait -> ...`, with no widget", "widget")
        if t.action == "wait" and t.target == "stay":
            self.at(t, "a timed transition goes somewhere: 'stay' is waiting for nothing",
                    "target")
        if t.widget not in widgets and not (t.action in _KEYS and t.widget in ("", t.action)):
            what = f"no widget '{t.widget}'" if t.widget else "a widget is needed"
            self.at(t, f"{what} on screen '{t.screen}'{did_you_mean(t.widget, widgets)}",
                    "widget")
        target = self.screens.get(t.target)
        if target is None and t.target not in _TARGETS:
            known = [*self.screens, *_TARGETS]
            self.at(t, f"unknown screen '{t.target}'{did_you_mean(t.target, known)}",
                    "target")
        scope = Scope(item=widgets.get(t.widget), param=source.param,
                      param_value=source.param is None and source.name in self.valued,
                      inputs=frozenset(w for w in widgets if w),
                      note=f" (widget '{t.widget}' is not in a list)")
        for e in (t.with_param, t.when):
            if e is not None:
                self.names.expr(e, scope, (t,))
        self._passes(t, scope, target)
        for e in t.effects:
            self._effect(e, scope)

    def _passes(self, t: Transition, scope: Scope, target: Screen | None) -> None:
        """`with item` / `with param` must hand the target the row it shows."""
        if t.with_param is None:
            return
        if t.target in _TARGETS:
            self.at(t, f"'{t.target}' takes no parameter; drop `with`", "target")
            return
        row = {("item",): scope.item, ("param",): scope.param}.get(
            getattr(t.with_param, "path", None), "")
        if target is None or not row or target.param not in (*self.tables, None):
            return
        if target.param is None:
            self.at(t, f"screen '{target.name}' takes no parameter (it has no `param`)",
                    "target")
        elif row != target.param and target.param not in _column_names(self.tables.get(row)):
            self.at(t, f"screen '{target.name}' shows a {target.param} row, not a {row} row "
                       f"(nor does {row} name one in a column '{target.param}')", "target")

    def _effect(self, e: Effect, scope: Scope) -> None:
        def say(m: str) -> None:
            self.at(e, m, "target")

        if e.op not in _SHAPES:
            say(f"unknown effect '{e.op}'{did_you_mean(e.op, _SHAPES)}")
            return
        may_set, must_set, may_filter = _SHAPES[e.op]
        if (e.values and not may_set) or (must_set and not e.values) or (
                e.where is not None and not may_filter) or (
                e.op == "set" and [c for c, _ in e.values] != [e.target]):
            say(f"malformed {e.op} effect: {e!r}")
        if e.op in ("toggle", "set"):
            flag = self.flags.get(e.target)
            if flag is None:
                say(f"unknown flag '{e.target}'{did_you_mean(e.target, self.flags)}")
            elif e.op == "toggle" and flag.type != "bool":
                say(f"flag '{e.target}' is {flag.type}; only a bool flag can be toggled")
            for _, value in e.values:
                self.names.expr(value, scope, (e,))
            return
        table = self.tables.get(e.target)
        if table is None:
            self.names.table(e.target, say)
            return
        if table.kind != "state":
            say(f"table '{e.target}' is content (read-only); effects change state tables")
        columns = {c.name for c in table.columns}
        rows = replace(scope, columns=e.target)  # bare names are the changed row's columns
        for i, (col, value) in enumerate(e.values):
            if col not in columns:
                self.at(e, f"unknown column '{col}' of {e.target}"
                           f"{did_you_mean(col, columns)}", ("values", i))
            self.names.expr(value, rows if e.op == "update" else scope, (e,))
        if len({c for c, _ in e.values}) != len(e.values):
            say(f"a column is given twice in this {e.op}")
        if e.where is not None:
            self.names.expr(e.where, rows, (e,))

    # -- tasks -----------------------------------------------------------------------------------
    def _task(self, t: Task) -> None:
        self._ident(t, t.name, "task")
        self._text(t, t.instruction)
        _among(t, t.kind, ("state", "information", "navigation", "composite", "cross_app"),
               "task kind", self)
        params: set[str] = set()
        for p in t.params:
            self._ident(p, p.name, "task parameter", roots=True)
            if p.name in params:
                self.at(p, f"task parameter '{p.name}' is declared twice", "name")
            params.add(p.name)
            table = self.tables.get(p.table)
            if table is None:
                self.names.table(p.table, lambda m, p=p: self.at(p, m, "table"))
            elif p.column not in (cols := [c.name for c in table.columns]):
                self.at(p, f"unknown column '{p.column}' of {p.table}"
                           f"{did_you_mean(p.column, cols)}", "column")
        for hole in _HOLE.findall(t.instruction if isinstance(t.instruction, str) else ""):
            if hole and hole not in params:
                self.at(t, f"the instruction's {{{hole}}} is not a parameter of task "
                           f"'{t.name}'{did_you_mean(hole, params)}", "instruction")
        scope = Scope(task_params=frozenset(params), in_task=True)
        self.names.expr(t.condition, scope, (t,))


def _column_names(table: Table | None) -> set[str]:
    return {c.name for c in table.columns} if table is not None else set()


def _is_row(e: object) -> bool:
    """`item` or `param`: a whole row handed on (else a value, `input.query`)."""
    return getattr(e, "path", None) in (("item",), ("param",))


_SURROGATE = re.compile("[\ud800-\udfff]")
_FIELDS: dict[type, tuple[str, ...]] = {}
MAX_VIEW_DEPTH = MAX_DEPTH + 1
"""A recorded hierarchy's depth, plus the root that holds several windows."""


def _depth(root: View) -> int:
    deepest, stack = 0, [(root, 1)]
    while stack:
        view, d = stack.pop()
        deepest = max(deepest, d)
        stack.extend((c, d + 1) for c in view.children)
    return deepest


def _walk(view: View, table: str | None) -> Iterator[tuple[View, str | None]]:
    """Every view with the table its `item` stands for (the innermost enclosing list)."""
    yield view, table
    inner = view.items.table if view.items is not None else table
    for child in view.children:
        yield from _walk(child, inner)


def _fits(v: object, type_: str) -> bool:
    if v is None:
        return True
    if type_ == "bool":
        return isinstance(v, bool)
    if type_ == "int":
        return _is_int(v)
    if type_ == "real":
        return (_is_int(v) or isinstance(v, float)) and v == v and abs(v) != float("inf")
    return isinstance(v, str)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _among(node: object, word: object, options: object, what: str, checker: _Checker) -> bool:
    allowed = get_args(options) or options
    if word in allowed:
        return True
    checker.at(node, f"unknown {what} '{word}'{did_you_mean(str(word), allowed)}")
    return False
