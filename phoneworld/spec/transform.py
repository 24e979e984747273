"""Map a `.pw` parse tree straight onto the AST dataclasses, noting where each node began.

    Tree('transition', [home, item, 'tap', detail, Ref(item), None, 12, None])
      ->  Transition('home', 'item', 'tap', 'detail', with_param=Ref(('item',)), count=12)

Methods are named after the grammar's rules. Problems a grammar cannot express (an
attribute given twice, a number too long) raise `BuildError` with the offending position;
`parse` turns it into a `SpecSyntaxError`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from lark import Token, Transformer, v_args

from phoneworld.spec import ast

ANDROID_VIEW_CLASSES = frozenset({"View", "ViewGroup", "SurfaceView", "TextureView",
                                  "ViewStub"})
"""Short class names that live in `android.view`; every other short name is `android.widget`."""


class BuildError(Exception):
    """A problem found while building the AST, at a 1-based line and column."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


class Positions:
    """Where parsed nodes (and named fields of them) start: `(line, column)`, 1-based.

    Nodes are keyed by identity, since equal nodes can stand in different places;
    `get(transition, "target")` is where that transition's target name was written.
    """

    def __init__(self) -> None:
        self._at: dict[tuple[int, object], tuple[object, int, int]] = {}

    def add(self, node: object, where: Any, field: object = None) -> None:
        """Note `node` (or its `field`) at `where`: a lark Meta or Token, or (line, column)."""
        if isinstance(where, tuple):
            line, column = where
        else:
            line, column = getattr(where, "line", None), getattr(where, "column", None)
        if line is not None and column is not None:
            self._at[(id(node), field)] = (node, line, column)

    def get(self, node: object, field: object = None) -> tuple[int, int] | None:
        hit = self._at.get((id(node), field))
        if hit is None or hit[0] is not node:
            return None if field is None else self.get(node)
        return hit[1], hit[2]


def expand_class(short: str) -> str:
    """`TextView` -> `android.widget.TextView`, `View` -> `android.view.View`; a dotted
    name is already full."""
    if "." in short:
        return short
    package = "android.view." if short in ANDROID_VIEW_CLASSES else "android.widget."
    return package + short


def _name(tok: Token) -> str:
    return str(tok).strip("`")


def _bare_name(e: object) -> bool:
    return isinstance(e, ast.Ref) and len(e.path) == 1


def _string(tok: Token) -> str:
    value = json.loads(str(tok), strict=False)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as err:  # a \ud800 escape with no partner: not text
        code = ord(value[err.start])
        raise BuildError(f"this string holds an unpaired surrogate \\u{code:04x}, which is "
                         f"not text", tok.line, tok.column) from err
    return value


def _int(tok: Token, minus: Token | None = None) -> int:
    if len(tok) > 4000:
        raise BuildError("this number is too long", tok.line, tok.column)
    return -int(tok) if minus is not None else int(tok)


def _fail(message: str, where: Any) -> BuildError:
    return BuildError(message, where.line, where.column)


def _once(items: list[tuple[str, Any, Any]], what: str) -> dict[str, Any]:
    """`[(key, value, where)]` -> `{key: value}`, refusing a key given twice."""
    out: dict[str, Any] = {}
    for key, value, where in items:
        if key in out:
            raise _fail(f"'{key}' is given twice in this {what}", where)
        out[key] = value
    return out


def _item(key: str, convert: Callable[[Token], Any] = lambda tok: tok,
          at_value: bool = False) -> Callable:
    """The method for a rule `keyword VALUE` inside a block: `(key, value, where)`."""
    def method(self: ToAst, meta: Any, ch: list) -> tuple[str, Any, Any]:
        return key, convert(ch[0]), ch[0] if at_value else meta
    return method


def _children(self: ToAst, meta: Any, ch: list) -> list:
    return ch


def _word(self: ToAst, meta: Any, ch: list) -> str:
    return str(ch[0])


@v_args(meta=True)
class ToAst(Transformer):
    """The parse tree -> `AppSpec`; `positions` holds where each node was written."""

    def __init__(self) -> None:
        super().__init__()
        self.positions = Positions()

    def _at(self, node: Any, where: Any, field: object = None) -> Any:
        self.positions.add(node, where, field)
        return node

    # -- app ----------------------------------------------------------------------------
    def start(self, meta, ch):
        app, decls = ch[0], ch[1:]
        name, items, where = app
        spec = ast.AppSpec(
            name=name, package=items["package"], start=items["start"],
            width=items.get("screen_size", (1080, 2400))[0],
            height=items.get("screen_size", (1080, 2400))[1],
            title=items.get("title", ""), source=items.get("source", ""),
            tables=tuple(d for d in decls if isinstance(d, ast.Table)),
            flags=tuple(d for d in decls if isinstance(d, ast.Flag)),
            screens=tuple(d for d in decls if isinstance(d, ast.Screen)),
            transitions=tuple(d for d in decls if isinstance(d, ast.Transition)),
            tasks=tuple(d for d in decls if isinstance(d, ast.Task)),
            notes=tuple(items.get("notes", ())))
        self._at(spec, where)
        for key in ("start", "package"):
            self._at(spec, items["where"].get(key, where), key)
        return spec

    def app(self, meta, ch):
        notes = [value for key, value, _ in ch[1:] if key == "note"]
        items = _once([i for i in ch[1:] if i[0] != "note"], "app")
        for key in ("package", "start"):
            if key not in items:
                raise _fail(f"app '{_name(ch[0])}' needs a '{key}'", meta)
        items["notes"] = notes
        items["where"] = {key: where for key, _, where in ch[1:]}
        return _name(ch[0]), items, meta

    app_package = screen_package = _item("package", _string)
    app_title = _item("title", _string)
    app_start = _item("start", _name, at_value=True)
    app_source = _item("source", _string)
    app_note = _item("note", _string)

    def app_size(self, meta, ch):
        return "screen_size", (_int(ch[0]), _int(ch[1])), meta

    # -- data -------------------------------------------------------------------------------
    def table(self, meta, ch):
        kind, name, columns, rows = ch[0], ch[1], ch[2] or [], ch[3:]
        node = ast.Table(_name(name), kind, tuple(columns), tuple(r for r, _ in rows))
        for j, (_, where) in enumerate(rows):
            self._at(node, where, ("rows", j))
        return self._at(self._at(node, meta), name, "name")

    def column(self, meta, ch):
        return self._at(ast.Column(_name(ch[0]), ch[1] or "text"), meta)

    def row(self, meta, ch):
        return tuple(ch[0] or ()), meta

    def flag(self, meta, ch):
        node = ast.Flag(_name(ch[0]), ch[1], ch[2])
        return self._at(self._at(node, meta), ch[0], "name")

    columns = literals = args = children = effects = assigns = task_params = _children
    table_kind = column_type = task_kind = action = axis = compare_op = add_op = _word

    def lit_str(self, meta, ch):
        return _string(ch[0])

    def lit_int(self, meta, ch):
        return _int(ch[1], ch[0])

    def lit_real(self, meta, ch):
        value = float(ch[1])
        if not math.isfinite(value):
            raise _fail("this number is too large", ch[1])
        return -value if ch[0] is not None else value

    def lit_true(self, meta, ch):
        return True

    def lit_false(self, meta, ch):
        return False

    def lit_null(self, meta, ch):
        return None

    # -- screens ------------------------------------------------------------------------------
    def screen_opened(self, meta, ch):
        (tok,) = ch
        return _string(tok) if tok.type == "STRING" else _int(tok)

    def screen(self, meta, ch):
        name, priority, foreign, param, opened, seen = ch[:6]
        items = _once(ch[6:-1], "screen")
        node = ast.Screen(name=_name(name), priority=str(priority), root=ch[-1],
                      package=items.get("package", ""), activity=items.get("activity", ""),
                      foreign=foreign is not None, param=_name(param) if param else None,
                      modules=tuple(items.get("modules", ())),
                      seen=_int(seen) if seen is not None else 0, opened=opened,
                      window=items.get("dialog", (None, None, ()))[1],
                      over=items.get("dialog", (None, None, ()))[0],
                      layer=items.get("dialog", (None, None, ()))[2])
        self._at(node, priority, "priority")
        if param is not None:
            self._at(node, param, "param")
        return self._at(self._at(node, meta), name, "name")

    screen_activity = _item("activity", _string)

    def screen_modules(self, meta, ch):
        return "modules", tuple(_name(t) for t in ch), meta

    def screen_dialog(self, meta, ch):
        over, window, layer = ch
        return "dialog", (_name(over) if over is not None else None, window,
                          layer or ()), meta

    def dialog_layer(self, meta, ch):
        return tuple(_int(t) for t in ch)

    def view(self, meta, ch):
        cls, bounds, attrs, children = ch[0], ch[1], ch[2:-1], ch[-1]
        flags = tuple(value for key, value, _ in attrs if key == "flag")
        items = _once([a for a in attrs if a[0] != "flag"], "view")
        node = ast.View(cls=cls, bounds=bounds, name=items.get("as", ""), id=items.get("id", ""),
                    text=items.get("text"), desc=items.get("desc"),
                    checked=items.get("checked"), flags=flags, items=items.get("list"),
                    children=tuple(children or ()))
        for key, _, where in attrs:
            if key == "as":
                self._at(node, where, "name")
        return self._at(node, meta)

    def view_class(self, meta, ch):
        tok = ch[0]
        return _string(tok) if tok.type == "STRING" else expand_class(str(tok))

    def bounds(self, meta, ch):
        return tuple(ch)

    def coord(self, meta, ch):
        return _int(ch[1], ch[0])

    view_name = _item("as", _name, at_value=True)
    view_id = _item("id", _string)
    view_text = _item("text")
    view_desc = _item("desc")
    view_checked = _item("checked")
    view_flag = _item("flag", str)

    def list_of(self, meta, ch):
        table, where, pitch, axis, span, cross, sizes = ch
        node = ast.ListOf(_name(table), where, _int(pitch) if pitch is not None else 0,
                          axis or "vertical", _int(span) if span is not None else 1,
                          _int(cross) if cross is not None else 0, sizes or ())
        return "list", self._at(self._at(node, meta), table, "table"), meta

    def row_sizes(self, meta, ch):
        return tuple(ch)

    def row_size(self, meta, ch):
        return _int(ch[0]), _int(ch[1]), _int(ch[2])

    # -- behaviour ---------------------------------------------------------------------------
    def transition(self, meta, ch):
        screen, widget, action, target, with_param, when, count, effects = ch
        node = ast.Transition(screen=_name(screen), widget=_name(widget) if widget else "",
                          action=action, target=_name(target), with_param=with_param,
                          when=when, effects=tuple(effects or ()),
                          count=_int(count) if count is not None else 0)
        self._at(node, screen, "screen")
        self._at(node, widget or screen, "widget")
        self._at(node, target, "target")
        return self._at(node, meta)

    def _effect(self, meta, op, target, values=(), where=None):
        node = ast.Effect(op, _name(target), tuple((c, e) for c, e, _ in values), where)
        for i, (_, _, tok) in enumerate(values):
            self._at(node, tok, ("values", i))
        return self._at(self._at(node, meta), target, "target")

    def effect_toggle(self, meta, ch):
        return self._effect(meta, "toggle", ch[0])

    def effect_set(self, meta, ch):
        return self._effect(meta, "set", ch[0], [(_name(ch[0]), ch[1], ch[0])])

    def effect_insert(self, meta, ch):
        return self._effect(meta, "insert", ch[0], ch[1] or ())

    def effect_delete(self, meta, ch):
        return self._effect(meta, "delete", ch[0], where=ch[1])

    def effect_update(self, meta, ch):
        return self._effect(meta, "update", ch[0], ch[1], ch[2])

    def effect_clear(self, meta, ch):
        return self._effect(meta, "clear", ch[0])

    def assign(self, meta, ch):
        return _name(ch[0]), ch[1], ch[0]

    # -- tasks ---------------------------------------------------------------------------------
    def task(self, meta, ch):
        name, kind, params, instruction, condition = ch
        node = ast.Task(_name(name), kind, _string(instruction), condition, tuple(params or ()))
        self._at(node, instruction, "instruction")
        return self._at(self._at(node, meta), name, "name")

    def task_param(self, meta, ch):
        node = ast.TaskParam(*(_name(t) for t in ch))
        for field, tok in zip(("name", "table", "column"), ch, strict=True):
            self._at(node, tok, field)
        return self._at(node, meta)

    # -- expressions -------------------------------------------------------------------------
    def or_test(self, meta, ch):
        return self._at(ast.BoolOp("or", tuple(ch)), meta)

    def and_test(self, meta, ch):
        return self._at(ast.BoolOp("and", tuple(ch)), meta)

    def not_test(self, meta, ch):
        return self._at(ast.Not(ch[0]), meta)

    def compare(self, meta, ch):
        return self._at(ast.Compare(ch[1], ch[0], ch[2]), meta)

    def bin_op(self, meta, ch):
        return self._at(ast.BinOp(ch[1], ch[0], ch[2]), meta)

    def const(self, meta, ch):
        return self._at(ast.Const(ch[0]), meta)

    def ref(self, meta, ch):
        return self._at(ast.Ref(tuple(_name(t) for t in ch)), meta)

    def call(self, meta, ch):
        func, args = _name(ch[0]), tuple(ch[1] or ())
        if func in ast.TABLE_FUNCS and len(args) == 1 and _bare_name(args[0]):
            node = ast.Call(func, table=args[0].path[0])
            self._at(node, self.positions.get(args[0]), "table")
        elif func == "sum" and len(args) == 2 and _bare_name(args[0]):
            node = ast.Call(func, table=args[0].path[0], args=args[1:])
            self._at(node, self.positions.get(args[0]), "table")
        else:
            node = ast.Call(func, args=args)
        return self._at(self._at(node, meta), ch[0], "func")

    def table_call(self, meta, ch):
        node = ast.Call(_name(ch[0]), table=_name(ch[1]), where=ch[2])
        self._at(node, ch[1], "table")
        return self._at(self._at(node, meta), ch[0], "func")

