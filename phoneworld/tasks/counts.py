"""Questions of how many rows a row's own list shows: a folder's files, a dialog's options.

    ajsha's file dialog opened on "examples/" lists the nine files under it
    (`list edit_storage_emulated_select_dialog_list where item.ctx == param.id`)
      ->  task count_edit_storage_emulated_1 information
              "How many entries does “examples/” list? | ..."
              { answer ~ count(edit_storage_emulated_select_dialog_list where ctx == 1) }

Asked only where the count is one a person can see and that stays so: a screen opened
on a row (a person gets there with that row: the walk saw it) lists the rows recorded
under that row, two or more, every one of them shown by some list and all of one kind
(the same texts filled in: a settings page's headings among its rows make "entries" a
matter of opinion), all in view at once
(no scrolling: a settings page of fourteen rows and headings is counted by nobody), and
no action of the app adds rows to that list or takes any away (an insert under another
row, or at the top, leaves it as it is). A list of single-choice
options is asked for its options ("How many options does “Planetary hours indicator
style” offer?"). The list is called by the row it was opened on where its screen shows
that row (the dialog's title, the folder's path) or is the row's alone (no name of its
own, no button of the row to open it), else by the screen's title, else not asked
(`_head`). The same question with two answers (one name on two screens) is asked of
neither.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from phoneworld.runtime.expr import normalise
from phoneworld.runtime.layout import list_pitch, row_steps, rows_end
from phoneworld.spec.ast import AppSpec, BoolOp, Call, Compare, Const, Ref, Task, TaskParam, View
from phoneworld.spec.walk import own_root, views
from phoneworld.tasks import phrases as P
from phoneworld.tasks import wording as W
from phoneworld.tasks.browse import NewName, Template, reads_param
from phoneworld.tasks.labels import is_name, row_name, screen_labels
from phoneworld.tasks.reach import Reach
from phoneworld.tasks.schema import Schema
from phoneworld.tasks.screentexts import row_button

_UNDER_ROW = Compare("==", Ref(("item", "ctx")), Ref(("param", "id")))


def count_questions(spec: AppSpec, schema: Schema, reach: Reach) -> Iterator[Template]:
    """One question per (screen, opening row) whose own list is counted (see above)."""
    found = [(screen, table, head, key, n, options)
             for screen, table, name, key, n, options in _counted(spec, schema, reach)
             if (head := _head(spec, schema, screen, name))]
    answers: dict[str, set[int]] = {}
    for _, _, name, _, n, _ in found:
        answers.setdefault(name, set()).add(n)
    done: set[str] = set()
    for screen, table, name, key, _, options in found:
        if len(answers[name]) > 1 or name in done:
            continue
        done.add(name)
        questions, obj = P.COUNT_OPTIONS if options else \
            P.COUNT_IN_FOLDER if is_folder(name) else P.COUNT_ENTRIES
        fill = {"head": name}
        task = Task(name=f"count_{table}_{len(done)}", kind="information",
                    instruction=W.join([W.words(q, fill) for q in questions]),
                    condition=Compare("~", Ref(("answer",)), Call(
                        "count", table=table,
                        where=Compare("==", Ref(("ctx",)), Const(key)))))
        yield Template(task, asks=W.words(obj, fill), screen=screen)


def parent_questions(spec: AppSpec, schema: Schema, reach: Reach,
                     new: NewName) -> Iterator[Template]:
    """The other way round, for entries (not a dialog's options): "Which entry lists
    “calculation”?", answered by the row whose own list shows it ("examples/"); one
    template per such row (its rows may be of its own table, as a folder's files are),
    one instance per row listed under it and under no other, where two rows or more
    list some."""
    tables = {t.name: t for t in spec.tables}
    found = [f for f in _counted(spec, schema, reach)
             if not f[5] and _head(spec, schema, f[0], f[2]) == f[2]]
    under: dict[str, dict[object, set[str]]] = {}  # table -> name -> the rows listing it
    for _, table, _, key, _, _ in found:
        e, t = schema.entity(table), tables[table]
        if e is None:
            continue
        cols = [c.name for c in t.columns]
        for r in t.rows:
            if r[cols.index("ctx")] == key and isinstance(r[cols.index(e.name)], str):
                under.setdefault(table, {}).setdefault(r[cols.index(e.name)].strip(),
                                                       set()).add(key)
    done: set[tuple[str, object]] = set()
    for screen, table, name, key, _, _ in found:
        e = schema.entity(table)
        if e is None or (table, key) in done or \
                len({k for _, t, _, k, _, _ in found if t == table}) < 2:
            continue  # (one row that lists any: the question has one answer, asks nothing)
        done.add((table, key))
        x, c = new("x"), new("c")
        # A name another row lists too: which of them is meant, nobody can say.
        twice = sorted(n for n, keys in under.get(table, {}).items() if len(keys) > 1)
        folders = all(is_folder(n) for _, t, n, _, _, _ in found if t == table)
        questions, obj = P.IN_FOLDER if folders else P.LISTED_UNDER
        task = Task(name=f"ask_parent_{table}_{len(done)}", kind="information",
                    instruction=W.join([W.rename_holes(q, {"x": x}) for q in questions]),
                    condition=BoolOp("and", (
                        Compare("~", Ref(("answer",)), Const(name)),
                        Compare("==", Ref((c,)), Const(key)),
                        *(Compare("!=", Ref((x,)), Const(n)) for n in twice))),
                    params=(TaskParam(x, table, e.name), TaskParam(c, table, "ctx")))
        yield Template(task, asks=W.rename_holes(obj, {"x": x}), screen=screen)


def _counted(spec: AppSpec, schema: Schema, reach: Reach
             ) -> list[tuple[str, str, str, object, int, bool]]:
    """(screen, listed table, opening row's name, its key, how many it lists, whether
    they are options) for each row whose own list a person can count (see above)."""
    tables = {t.name: t for t in spec.tables}
    changed, changed_under = _changed(spec)
    # (screen, table, name, row id, how many, options)
    found: list[tuple[str, str, str, object, int, bool]] = []
    for s in spec.screens:
        if s.foreign or s.param is None or s.name not in reach.screens:
            continue
        e = schema.entity(s.param)
        if e is None or s.param not in tables:
            continue
        for v in views(own_root(s)):  # (a dialog's own, not the page under it)
            if v.items is None or v.items.where != _UNDER_ROW or not v.children or \
                    v.items.table in changed or v.items.table not in tables:
                continue
            listed = tables[v.items.table]
            ctx = [c.name for c in listed.columns].index("ctx")
            shown = [r for r in listed.rows if reach.shown(listed.name, r[0])]
            under = Counter(r[ctx] for r in shown)
            seen = _item_columns(v.children[0])
            at = [i for i, c in enumerate(listed.columns) if c.name in seen]
            kinds: dict[object, set[tuple[bool, ...]]] = {}
            for r in shown:  # which of the texts the row shows are filled in
                kinds.setdefault(r[ctx], set()).add(tuple(
                    isinstance(r[i], str) and bool(r[i].strip()) for i in at))
            owner = tables[s.param]
            cols = [c.name for c in owner.columns]
            for r in owner.rows:
                name = row_name(cols, r, e.name)[1]
                if r[0] in changed_under.get(v.items.table, ()):
                    continue  # an action adds rows under it (a file saved there)
                if isinstance(name, str) and is_name(name) and under[r[0]] >= 2 and \
                        len(kinds.get(r[0], ())) == 1 and \
                        _fits(v, [x[0] for x in shown if x[ctx] == r[0]]) and \
                        (s.name, normalise(name)) in reach.rows:
                    found.append((s.name, listed.name, name.strip(), r[0], under[r[0]],
                                  _options(v.children[0])))
    return found


def _head(spec: AppSpec, schema: Schema, screen: str, name: str) -> str:
    """What a count question calls the list it counts: the name of the row it was opened
    on where the screen is that row's (it shows the row: a dialog titled “Theme”, a
    folder's path; or it has no name of its own and no button of the row opens it: a
    popup of the row's options), else the screen's own title; "" for neither. uber's
    "Uber Pro" page, opened by the driver's rating beside "Hiroshi" (reached by its
    button "Learn about Uber Pro"), shows nothing of him: "How many entries does
    “Hiroshi” list?" names a person, not a list."""
    s = spec.screen(screen)
    if s is None:
        return ""
    if any(e is not None and reads_param(e) for v in views(own_root(s))
           for e in (v.text, v.desc)):
        return name
    own = screen_labels(spec).get(screen)
    if own is None:
        return "" if row_button(spec, schema, s) else name
    return own[0] if own[1] == "title" else ""


def _changed(spec: AppSpec) -> tuple[set[str], dict[str, set[object]]]:
    """The tables some action adds rows to or removes rows from anywhere, and per table
    the `ctx`s of the rows others add under a fixed row (none: at the top, as ajsha's
    saved file is): a count under another row stays what it is."""
    anywhere: set[str] = set()
    under: dict[str, set[object]] = {}
    for t in spec.transitions:
        for e in t.effects:
            ctx = dict(e.values).get("ctx", Const(None))
            if e.op == "insert" and isinstance(ctx, Const):
                under.setdefault(e.target, set()).add(ctx.value)
            elif e.op in ("insert", "delete"):
                anywhere.add(e.target)
    return anywhere, under


def _item_columns(item: View) -> set[str]:
    """The columns an item template shows (its texts and descriptions)."""
    return {x.path[1] for v in views(item) for x in (v.text, v.desc)
            if isinstance(x, Ref) and len(x.path) == 2 and x.path[0] == "item"}


def _fits(lst: View, ids: list) -> bool:
    """Whether the rows `ids` of a list are all in its view at once, at their sizes
    (`ListOf.sizes`) as the runtime lays them out."""
    items, b, first = lst.items, lst.bounds, lst.children[0].bounds
    assert items is not None
    a = 1 if items.axis == "vertical" else 0
    size = first[a + 2] - first[a]
    if items.sizes and items.span == 1 and ids:
        pitch = list_pitch(items, size)
        sizes = row_steps(items, size)
        return rows_end([sizes.get(i, (0, pitch)) for i in ids], first[a] + size) <= b[a + 2]
    lines = -(-len(ids) // max(1, items.span))
    return first[a] - b[a] + (lines - 1) * items.pitch + size <= b[a + 2] - b[a]


def _options(item: View) -> bool:
    """Whether a list's rows are options ticked one at a time (`CheckedTextView`s)."""
    return any("checkable" in v.flags and "CheckedTextView" in v.cls for v in views(item))


def is_folder(name: object) -> bool:
    """Whether a row's name marks it a folder as file lists do: a trailing "/"
    ("examples/"), after a name."""
    return isinstance(name, str) and len(name.strip()) > 1 and name.strip().endswith("/")
