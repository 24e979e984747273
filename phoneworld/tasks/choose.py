"""Templates for choosing: a dialog's option written into the row it was opened on.

    on settings.row tap -> settings_theme with item          (the row "Theme")
    on settings_theme.text1 tap -> settings {
      update settings_list set summary = item.text1 where id == param.id }
    settings_theme lists settings_theme_options where item.ctx == param.id
      ->  task choose_summary_settings_list state
              (n: settings_list.title, k: settings_list.id,
               o: settings_theme_options.text1, c: settings_theme_options.ctx)
              "Set {n} to {o}. | Change {n} to {o}. | Choose {o} for {n}."
              { exists(settings_list where id == k and summary == o) and c == k }

`infer.choices` finds such dialogs (a tap on an option goes back to the row's screen, which
then shows the option in the row). One instance per (row, option the dialog shows for that
row): the option's `ctx` is the row it was listed under (the `c == k` conjunct reads the
parameters alone, so drawing keeps only those pairs); an option the row already shows is
no task (its goal holds after a reset), nor is a row or option no list shows.

A single-choice dialog that writes nothing into its row but ticks the option tapped
(`infer.choices`: `update options set checked = id == item.id where ctx == param.id`) is
chosen by its tick: "Select Planets for Planetary hours indicator style." checked on
`exists(options where ctx == k and text1 == o and checked == true)`.

Where a dialog ticks its options (with or without a write into the row) and a recording
showed which one is ticked, which it is is also asked (`selected_questions`): "What is
Planetary hours indicator style set to?", answered "Chakras", the option ticked after a
reset (an option no recording showed ticked or not is never asked about).
"""

from __future__ import annotations

from collections.abc import Iterator

from phoneworld.spec.ast import AppSpec, BoolOp, Call, Compare, Const, Ref, Task, TaskParam
from phoneworld.spec.walk import views
from phoneworld.tasks import phrases as P
from phoneworld.tasks import wording as W
from phoneworld.tasks.browse import NewName, Template
from phoneworld.tasks.labels import row_name
from phoneworld.tasks.reach import tables_of
from phoneworld.tasks.schema import Schema

_PARAM_ROW = Compare("==", Ref(("id",)), Ref(("param", "id")))
_TICK = (("checked", Compare("==", Ref(("id",)), Ref(("item", "id")))),)
_UNDER_ROW = Compare("==", Ref(("ctx",)), Ref(("param", "id")))


def choice_templates(spec: AppSpec, schema: Schema, new: NewName) -> Iterator[Template]:
    """One template per (row table, column) a dialog's options are written into."""
    tables = {t.name: t for t in spec.tables}
    done: set[tuple[str, str]] = set()
    ticked: set[str] = set()
    for t in spec.transitions:
        dialog = spec.screen(t.screen)
        if dialog is None or dialog.param is None or dialog.foreign:
            continue
        ticks = [e for e in t.effects if e.op == "update" and e.values == _TICK and
                 e.where == _UNDER_ROW]
        if len(ticks) == len(t.effects) == 1 and ticks[0].target not in ticked:
            owner = schema.entity(dialog.param)
            options = tables.get(ticks[0].target)
            field = _option_name(dialog, ticks[0].target)
            if owner is not None and options is not None and field is not None and \
                    dialog.param in tables:
                ticked.add(ticks[0].target)
                # (settings' "Font size" row, of another layout, names itself in title_2)
                for name in _names(tables[dialog.param], options, owner.name, ""):
                    yield _tick_template(dialog.param, owner, ticks[0].target, field,
                                         t.target, new, name)
            continue
        for e in t.effects:
            if e.op != "update" or e.target != dialog.param or e.where != _PARAM_ROW or \
                    len(e.values) != 1 or not isinstance(e.values[0][1], Ref) or \
                    len(e.values[0][1].path) != 2 or e.values[0][1].path[0] != "item":
                continue
            column, field = e.values[0][0], e.values[0][1].path[1]
            owner = schema.entity(e.target)
            options = [o for o in sorted(tables_of(dialog.root)) if o in tables and
                       field in {c.name for c in tables[o].columns} and
                       "ctx" in {c.name for c in tables[o].columns}]
            if owner is None or owner.name == column or len(options) != 1 or \
                    (e.target, column) in done:
                continue
            done.add((e.target, column))
            for name in _names(tables[e.target], tables[options[0]], owner.name, column):
                yield _template(e.target, column, owner, options[0], field, t.target, new,
                                name)


def selected_questions(spec: AppSpec, schema: Schema, new: NewName) -> Iterator[Template]:
    """One question per (row table, options table) of a dialog that ticks the option
    tapped: which option is ticked for the row it was opened on."""
    tables = {t.name: t for t in spec.tables}
    done: set[str] = set()
    for t in spec.transitions:
        dialog = spec.screen(t.screen)
        if dialog is None or dialog.param is None or dialog.foreign or \
                dialog.param not in tables:
            continue
        for e in t.effects:
            if e.op != "update" or e.values != _TICK or e.where != _UNDER_ROW or \
                    e.target in done or e.target not in tables:
                continue
            owner, field = schema.entity(dialog.param), _option_name(dialog, e.target)
            if owner is None or field is None:
                continue
            done.add(e.target)
            for name in _names(tables[dialog.param], tables[e.target], owner.name, ""):
                yield _selected(dialog.param, owner, e.target, field, dialog.name, new, name)


def _selected(table: str, owner, options: str, field: str, dialog: str, new: NewName,
              name: str) -> Template:
    """"What is {n} set to?", answered by the option `o` listed under row `k` (`c == k`)
    and ticked after a reset (`x == true`): both read the parameters alone, so drawing
    keeps only the ticked option of each row."""
    n, k = new("n"), new("k")
    o = new("o", {n, k})
    c = new("c", {n, k, o})
    x = new("x", {n, k, o, c})
    questions, obj = P.SELECTED
    suffix = "" if name == owner.name else f"_by_{name}"
    task = Task(name=f"ask_selected_{options}{suffix}", kind="information",
                instruction=W.join([W.rename_holes(q, {"n": n}) for q in questions]),
                condition=BoolOp("and", (Compare("~", Ref(("answer",)), Ref((o,))),
                                         Compare("==", Ref((c,)), Ref((k,))),
                                         Compare("==", Ref((x,)), Const(True)))),
                params=(TaskParam(n, table, name), TaskParam(k, table, owner.key),
                        TaskParam(o, options, field), TaskParam(c, options, "ctx"),
                        TaskParam(x, options, "checked")))
    return Template(task, asks=W.rename_holes(obj, {"n": n}), screen=dialog)


def _names(table, options, name: str, column: str) -> list[str]:
    """The columns that name the rows a dialog lists options under: the table's name
    column, or where such a row leaves it empty, its first text (onelist's "Theme" row,
    of another layout, names itself in `title_2`)."""
    cols = [c.name for c in table.columns]
    under = {r[[c.name for c in options.columns].index("ctx")] for r in options.rows}
    found = []
    for r in table.rows:
        pick = row_name(cols, [v if c != column else "" for c, v in zip(cols, r, strict=False)],
                        name)[0]
        if r[0] in under and pick and pick not in found:
            found.append(pick)
    return sorted(found, key=lambda c: c != name) or [name]


def _option_name(dialog, table: str) -> str | None:
    """The column the options of `table` show as their text on `dialog`, or None."""
    for v in views(dialog.root):
        if v.items is not None and v.items.table == table and v.children:
            for c in views(v.children[0]):
                if isinstance(c.text, Ref) and len(c.text.path) == 2 and \
                        c.text.path[0] == "item":
                    return c.text.path[1]
    return None


def _tick_template(table: str, owner, options: str, field: str, screen: str,
                   new: NewName, name: str) -> Template:
    """"Select {o} for {n}.": the option ticked among those listed under row `k`;
    `screen` is where the tap on it leads (back to the row's)."""
    n, k = new("n"), new("k")
    o = new("o", {n, k})
    c = new("c", {n, k, o})
    ticked = Call("exists", table=options, where=BoolOp("and", (
        Compare("==", Ref(("ctx",)), Ref((k,))), Compare("==", Ref((field,)), Ref((o,))),
        Compare("==", Ref(("checked",)), Const(True)))))
    texts = [W.rename_holes(p, {"n": n, "o": o}) for p in P.SELECT]
    suffix = "" if name == owner.name else f"_by_{name}"
    task = Task(name=f"select_{options}{suffix}", kind="state", instruction=W.join(texts),
                condition=BoolOp("and", (ticked, Compare("==", Ref((c,)), Ref((k,))))),
                params=(TaskParam(n, table, name), TaskParam(k, table, owner.key),
                        TaskParam(o, options, field), TaskParam(c, options, "ctx")))
    return Template(task, clauses=tuple(W.lower_first(x) for x in texts), screen=screen)


def _template(table: str, column: str, owner, options: str, field: str, screen: str,
              new: NewName, name: str) -> Template:
    """The template; `screen` is where the chosen option then shows (the row's)."""
    n, k = new("n"), new("k")
    o = new("o", {n, k})
    c = new("c", {n, k, o})
    chosen = Call("exists", table=table, where=BoolOp("and", (
        Compare("==", Ref((owner.key,)), Ref((k,))), Compare("==", Ref((column,)), Ref((o,))))))
    # Which row an option was listed under: it reads the parameters alone, so drawing
    # keeps the (row, option) pairs the dialog shows and drops the others.
    under = Compare("==", Ref((c,)), Ref((k,)))
    texts = [W.rename_holes(p, {"n": n, "o": o}) for p in P.CHOOSE]
    suffix = "" if name == owner.name else f"_by_{name}"
    task = Task(name=f"choose_{column}_{table}{suffix}", kind="state",
                instruction=W.join(texts), condition=BoolOp("and", (chosen, under)),
                params=(TaskParam(n, table, name), TaskParam(k, table, owner.key),
                        TaskParam(o, options, field), TaskParam(c, options, "ctx")))
    return Template(task, clauses=tuple(W.lower_first(x) for x in texts), screen=screen)
