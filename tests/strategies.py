"""Hypothesis strategies for specs: `specs()` draws valid `AppSpec`s (they pass `check`)
with nasty strings, keyword-like names and every kind of node."""

from __future__ import annotations

import re
from dataclasses import replace

from hypothesis import strategies as st

from phoneworld.spec.ast import (
    AppSpec,
    BinOp,
    BoolOp,
    Call,
    Column,
    Compare,
    Const,
    Effect,
    Flag,
    ListOf,
    Not,
    Ref,
    Screen,
    Table,
    Task,
    TaskParam,
    Transition,
    View,
)
from phoneworld.spec.names import ROOTS
from phoneworld.spec.parse import keywords

NASTY = ['"', "\\", "\n", "\r\n", "\t", "{", "}", "<script>alert(1)</script>", '"""', "#",
         "# not a comment", "\x00", "\x1f", "\x7f", "\x85", "\u2028", "\u2029", "\ufeff",
         "\u200b", "é", "中文", "😀", "\U000e0001", "\ud800", "\udfff", "`", "'", "->",
         'app x { package "y" }', "\\u0041", "\\n", " ", "", "null", "true", "1e3", "-0"]
CLASSES = ["android.widget.TextView", "android.view.View", "android.widget.View",
           "android.view.TextView", "androidx.recyclerview.widget.RecyclerView",
           "android.widget.Foo$Bar", "com.example.Custom$View", "TextView", "", "a b",
           "android.widget.", "android..widget.X", "view", "P0", "android.widget.9x"]
VIEW_FLAGS = ["clickable", "long_clickable", "checkable", "editable", "scrollable",
              "selected", "password", "focusable", "disabled"]
ACTIONS = ["tap", "long_press", "type", "submit", "scroll", "back", "home", "enter"]
TYPES = ["text", "int", "real", "bool"]

# A spec holds text: an unpaired surrogate (`\ud800`) is refused by `check` and `parse`
# alike (tests/test_spec.py), so valid specs draw none.
_SURROGATE = re.compile("[\ud800-\udfff]")
texts = st.one_of(st.sampled_from(NASTY), st.text(max_size=10),
                  st.lists(st.sampled_from(NASTY) | st.text(max_size=3), max_size=4)
                  .map("".join)).filter(lambda s: not _SURROGATE.search(s))
names = st.from_regex(r"[a-z_][a-z0-9_]{0,5}", fullmatch=True) | st.sampled_from(
    sorted(keywords()))
floats = st.floats(allow_nan=False, allow_infinity=False)
counts = st.integers(0, 10**6)
coords = st.integers(-100, 5000)


def values(type_: str) -> st.SearchStrategy:
    """A value that fits a column or flag of `type_` (sometimes null)."""
    base = {"text": texts, "int": st.integers(), "real": floats | st.integers(),
            "bool": st.booleans()}[type_]
    return st.none() | base


consts = st.builds(Const, st.none() | texts | st.integers() | floats | st.booleans())


def exprs(refs: list[Ref], tables: dict[str, list[str]], depth: int = 2) -> st.SearchStrategy:
    """Expressions over `refs` nested up to `depth`, with `count`/`exists` over `tables`
    (whose `where` may name the table's columns bare)."""
    leaves = consts | st.sampled_from(refs) if refs else consts
    if depth <= 0:
        return leaves
    inner = exprs(refs, tables, depth - 1)
    options = [
        leaves,
        st.builds(Compare, st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "~"]),
                  inner, inner),
        st.builds(BoolOp, st.sampled_from(["and", "or"]),
                  st.lists(inner, min_size=2, max_size=3).map(tuple)),
        st.builds(Not, inner),
        st.builds(BinOp, st.sampled_from(["+", "-"]), inner, inner),
        st.builds(lambda a, f: Call(f, args=(a,)), inner, st.sampled_from(["lower", "len"])),
    ]
    for t, cols in sorted(tables.items()):
        where = exprs(refs + [Ref((c,)) for c in cols], {}, depth - 1)
        options.append(st.builds(Call, st.sampled_from(["count", "exists"]), st.just(t),
                                 st.none() | where))
    return st.one_of(options)


def _rows(cols: list[Column]) -> st.SearchStrategy:
    row = st.tuples(*(values(c.type) for c in cols))
    return st.lists(row, max_size=3, unique_by=lambda r: (type(r[0]), r[0])
                    if r[0] is not None else object()).map(tuple)


@st.composite
def tables(draw) -> list[Table]:
    out = []
    for name in draw(st.lists(names, max_size=3, unique=True)):
        cols = [Column(n, draw(st.sampled_from(TYPES)))
                for n in draw(st.lists(names, min_size=1, max_size=4, unique=True))]
        kind = draw(st.sampled_from(["content", "state"]))
        out.append(Table(name, kind, tuple(cols), draw(_rows(cols))))
    return out


def _view(draw, depth: int, refs: list[Ref], item: str | None, ctx: dict) -> View:
    """One view (and its subtree); named widgets go into `ctx["widgets"]` with their list."""
    name = draw(st.none() | names)
    if name is not None and name not in ctx["widgets"]:
        ctx["widgets"][name] = item
    else:
        name = ""
    scope = refs + ([Ref(("item",))] + [Ref(("item", c)) for c in ctx["tables"][item]]
                    if item else [])
    opt = lambda s: draw(st.none() | s)  # noqa: E731
    items, children = None, []
    if ctx["tables"] and depth < 2 and draw(st.booleans()):
        t = draw(st.sampled_from(sorted(ctx["tables"])))
        # In a list's own `where`, `item` is the list's row (the outer one is out of reach).
        inner = refs + [Ref((c,)) for c in ctx["tables"][t]] + [
            Ref(("item", c)) for c in ctx["tables"][t]]
        span = draw(st.integers(1, 5))
        # Row sizes (a list row by row): one per row id, in id order.
        sizes = tuple((i, *s) for i, s in sorted(draw(st.dictionaries(
            st.integers(1, 50), st.tuples(st.integers(1, 400), st.integers(0, 60)),
            max_size=3)).items())) if span == 1 else ()
        items = ListOf(t, opt(exprs(inner, {}, 0)), draw(counts),
                       draw(st.sampled_from(["vertical", "horizontal"])), span, draw(counts),
                       sizes)
        children = [_view(draw, depth + 1, refs, t, ctx)]
    elif depth < 2:
        children = [_view(draw, depth + 1, refs, item, ctx)
                    for _ in range(draw(st.integers(0, 2)))]
    return View(cls=draw(st.sampled_from(CLASSES) | texts),
                bounds=draw(st.tuples(coords, coords, coords, coords)), name=name,
                id=draw(texts), text=opt(exprs(scope, {}, 0)), desc=opt(exprs(scope, {}, 0)),
                checked=opt(exprs(scope, {}, 0)),
                flags=tuple(draw(st.lists(st.sampled_from(VIEW_FLAGS), max_size=3,
                                          unique=True))),
                items=items, children=tuple(children))


def _effect(draw, spec_tables: list[Table], flags: list[Flag], refs: list[Ref]) -> Effect:
    state = [t for t in spec_tables if t.kind == "state"]
    ops = (["toggle"] if any(f.type == "bool" for f in flags) else []) + \
        (["set"] if flags else []) + (["insert", "delete", "update", "clear"] if state else [])
    op = draw(st.sampled_from(ops))
    if op in ("toggle", "set"):
        f = draw(st.sampled_from([f for f in flags if op == "set" or f.type == "bool"]))
        return Effect(op, f.name, ((f.name, draw(exprs(refs, {}, 0))),) if op == "set" else ())
    t = draw(st.sampled_from(state))
    cols = [c.name for c in t.columns]
    inner = refs + [Ref((c,)) for c in cols]
    chosen = draw(st.lists(st.sampled_from(cols), min_size=op == "update", unique=True))
    values = tuple((c, draw(exprs(inner if op == "update" else refs, {}, 0))) for c in chosen)
    where = draw(st.none() | exprs(inner, {}, 0))
    return {"insert": Effect("insert", t.name, values), "clear": Effect("clear", t.name),
            "delete": Effect("delete", t.name, where=where),
            "update": Effect("update", t.name, values, where)}[op]


@st.composite
def specs(draw) -> AppSpec:
    """A valid `AppSpec`: every name resolves, every row fits its table."""
    spec_tables = draw(tables())
    cols = {t.name: [c.name for c in t.columns] for t in spec_tables}
    flags = [Flag(n, ty, draw(values(ty))) for n in draw(st.lists(
        names.filter(lambda n: n not in ROOTS), max_size=3, unique=True))
        for ty in [draw(st.sampled_from(TYPES))]]
    flag_refs = [Ref((f.name,)) for f in flags]
    screens, widgets = [], {}
    for name in draw(st.lists(names.filter(lambda n: n not in ("stay", "back")),
                              min_size=1, max_size=3, unique=True)):
        param = draw(st.none() | st.sampled_from(sorted(cols))) if cols else None
        refs = flag_refs + ([Ref(("param",))] + [Ref(("param", c)) for c in cols[param]]
                            if param else [])
        keys = [r[0] for t in spec_tables if t.name == param for r in t.rows
                if isinstance(r[0], str) or (isinstance(r[0], int) and not
                                             isinstance(r[0], bool) and r[0] >= 0)]
        opened = draw(st.none() | st.sampled_from(keys)) if keys else None
        ctx = {"widgets": {}, "tables": cols}
        root = _view(draw, 0, refs, None, ctx)
        widgets[name] = ctx["widgets"]
        screens.append(Screen(name, draw(st.sampled_from(["P0", "P1", "P2"])), root,
                              package=draw(texts), activity=draw(texts),
                              foreign=draw(st.booleans()), param=param,
                              modules=tuple(draw(st.lists(names, max_size=2))),
                              seen=draw(counts), opened=opened))
    # A dialog's window, and the screen it opens over (an earlier one, where there is one).
    for i, s in enumerate(screens):
        if draw(st.booleans()):
            window = tuple(draw(st.lists(st.integers(-5, 3000), min_size=4, max_size=4)))
            over = draw(st.none() | st.sampled_from([x.name for x in screens[:i]])) \
                if i else None
            screens[i] = replace(s, window=window, over=over)
    by_name = {s.name: s for s in screens}
    transitions = []
    for _ in range(draw(st.integers(0, 4))):
        s = draw(st.sampled_from(screens))
        named = sorted(widgets[s.name])
        widget = draw(st.sampled_from(named)) if named else ""
        action = draw(st.sampled_from(ACTIONS if named else ["back", "home", "wait"]))
        item = widgets[s.name].get(widget)
        refs = flag_refs + [Ref(("input", w)) for w in named] + (
            [Ref(("param",))] + [Ref(("param", c)) for c in cols[s.param]] if s.param else []) \
            + ([Ref(("item",))] + [Ref(("item", c)) for c in cols[item]] if item else [])
        target = draw(st.sampled_from([*by_name, "stay", "back"]))
        if action == "wait" and target == "stay":  # a timed screen goes somewhere
            target = "back"
        passes = [None]
        if target in by_name:
            tp = by_name[target].param
            passes += [Ref(("item",))] if item and item == tp else []
            passes += [Ref(("param",))] if s.param and s.param == tp else []
            passes += [Ref(("input", w)) for w in named] if tp is None else []
        can_change = flags or any(t.kind == "state" for t in spec_tables)
        effects = [_effect(draw, spec_tables, flags, refs)
                   for _ in range(draw(st.integers(0, 3)))] if can_change else []
        transitions.append(Transition(s.name, widget, action, target,
                                      draw(st.sampled_from(passes)),
                                      draw(st.none() | exprs(refs, cols, 1)),
                                      tuple(effects), draw(counts)))
    tasks = []
    for name in draw(st.lists(names, max_size=3, unique=True)):
        params = [TaskParam(n, t, draw(st.sampled_from(cols[t])))
                  for n in draw(st.lists(names.filter(lambda n: n not in ROOTS), max_size=2,
                                         unique=True)) if cols
                  for t in [draw(st.sampled_from(sorted(cols)))]]
        refs = flag_refs + [Ref((p.name,)) for p in params] + [Ref(("answer",))]
        at_screen = st.sampled_from(sorted(by_name)).map(
            lambda n: Compare("==", Ref(("screen",)), Const(n)))
        instruction = draw(texts).replace("{", "{{").replace("}", "}}") + "".join(
            f" {{{p.name}}}" for p in params)
        tasks.append(Task(name, draw(st.sampled_from(
            ["state", "information", "navigation", "composite", "cross_app"])),
            instruction, draw(exprs(refs, cols, 1) | at_screen), tuple(params)))
    size = st.integers(1, 5000)
    return AppSpec(name=draw(names), package=draw(texts), start=draw(st.sampled_from(
        sorted(by_name))), width=draw(size), height=draw(size), title=draw(texts),
        source=draw(texts), tables=tuple(spec_tables), flags=tuple(flags),
        screens=tuple(screens), transitions=tuple(transitions), tasks=tuple(tasks),
        notes=tuple(draw(st.lists(texts, max_size=2))))

