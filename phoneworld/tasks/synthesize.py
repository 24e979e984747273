"""Task templates from an app's schema: what the spec's `task` section holds.

    synthesize_tasks(spec) ->
      task ask_product_price_category_product_list information
          (n: category_product_list.product_name, v: category_product_list.product_price)
          "How much does {n} cost? | What is the price of {n}? | ..." { answer ~ v }
      task turn_on_sub_settings_network_recycler_view state
          (n: sub_settings_network_recycler_view.title, k: sub_settings_network_recycler_view.id)
          "Turn on {n}. | Switch {n} on. | ..."
          { exists(sub_settings_network_recycler_view where id == k and checked == true) }
      task open_main_cart navigation "Open Cart. | Go to Cart. | ..." { screen == "main_cart" }

One template per goal the app supports: *information* (a fact a list or detail screen
shows about a named row), *state* (a toggle of a flag or of a row's switch, adding a row
to a collection, removing one), *navigation* (reaching a named screen, or pressing a
form's submit button) and *composite* (two of those at once, at most `MAX_COMPOSITE`).
Parameters drawn from the same table come from the same row (see `instances`); a
parameter the instruction does not show (the expected answer, a row's key) is hidden.
Cross-app templates combine two apps' templates when a phone is sampled (`instances`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

from phoneworld.spec.ast import (
    AppSpec,
    BinOp,
    BoolOp,
    Call,
    Compare,
    Const,
    Expr,
    Not,
    Ref,
    Screen,
    Task,
    TaskParam,
)
from phoneworld.spec.walk import map_expr, own_root, views, walk
from phoneworld.tasks import (
    browse,
    cells,
    choose,
    counts,
    entries,
    patterns,
    positions,
    rowswitches,
    rowtexts,
    screentexts,
)
from phoneworld.tasks import phrases as P
from phoneworld.tasks import wording as W
from phoneworld.tasks.composite import Base, Names, composites, entered_screens, step_pairs
from phoneworld.tasks.instances import typed_texts
from phoneworld.tasks.labels import (
    const_text,
    fixed_texts,
    is_name,
    label_of,
    place_label,
    readable,
    row_title,
    screen_labels,
    title_of,
    views_by_name,
)
from phoneworld.tasks.reach import explore, tables_of
from phoneworld.tasks.schema import (
    Entity,
    RowInsert,
    Schema,
    named_views,
    read_schema,
    view_label,
)

MAX_COMPOSITE = 24
"""Composite templates per app (each has many instances); more, up to twice as many, while
their instances are fewer than the other kinds' (as many composites as other instances
are drawn: `sample.instances`), where the first ones pair goals with one row each."""
_UNIT = re.compile(r"^\s*\d[\d,]*\s+([A-Za-z][A-Za-z ]*?)\s*$")


def synthesize_tasks(spec: AppSpec) -> tuple[Task, ...]:
    """The task templates for `spec`, in a fixed order (information, state, navigation,
    composite), each with at least one instance to draw; deterministic for the same spec."""
    from phoneworld.tasks.instances import draw

    bare = replace(spec, tasks=())
    bases = [_placed(bare, b) for b in _unique(_bases(bare)) if draw(bare, b.task)]
    room = sum(len(draw(bare, b.task)) for b in bases)
    pairs: list[Task] = []
    over = {s.name: s.over for s in bare.screens if s.over}
    for t in composites(bases, Names(bare), screen_labels(bare), step_pairs(bare),
                        typed_texts(bare), over, entered_screens(bare)):
        if len(pairs) >= MAX_COMPOSITE and room <= 0 or len(pairs) >= 2 * MAX_COMPOSITE:
            break
        if found := draw(bare, t):
            pairs.append(t)
            room -= len(found)
    return tuple(b.task for b in bases) + tuple(pairs)


def proposed(spec: AppSpec) -> tuple[tuple[Task, str], ...]:
    """Every single-goal template the schema proposes, with the screen it is about (""
    for none), those with no instance to draw too (`synthesize_tasks` keeps the others):
    what `instances.why_not` explains."""
    bare = replace(spec, tasks=())
    return tuple((b.task, b.screen or "") for b in _unique(_bases(bare)))


def _unique(bases: Iterator[Base]) -> Iterator[Base]:
    """The templates with names made unique (`open_settings`, `open_settings_2`)."""
    taken: set[str] = set()
    for b in bases:
        name, i = b.task.name, 2
        while name in taken:
            name, i = f"{b.task.name}_{i}", i + 1
        taken.add(name)
        yield b if name == b.task.name else replace(b, task=replace(b.task, name=name))


def _bases(spec: AppSpec) -> Iterator[Base]:
    schema = read_schema(spec)
    names = Names(spec)
    asked: set[tuple[str, str]] = set()
    for b in _information(spec, schema, names):
        asked.add((b.task.params[0].table, b.task.params[1].column))
        yield b
    for t in rowtexts.row_questions(spec, schema, names.new, asked):
        yield Base(t.task, asks=t.asks, touches="answer")
    for t in positions.position_questions(spec, schema, names.new):
        yield Base(t.task, asks=t.asks, touches="answer")
    said = set()
    for t in rowswitches.switch_states(spec, schema, names.new):
        said.add(t.task.params[0].table)
        yield Base(t.task, asks=t.asks, touches="answer")
    for t in rowswitches.switch_checks(spec, schema, names.new, said):
        yield Base(t.task, asks=t.asks, touches="answer")
    for t in screentexts.flag_states(spec, schema, explore(spec).screens):
        yield Base(t.task, asks=t.asks, touches="answer", screen=t.screen,
                    label=t.label)
    for t in screentexts.screen_texts(spec, dict(schema.screen_labels), explore(spec).screens):
        yield Base(t.task, asks=t.asks, touches="answer", screen=t.screen, label=t.label)
    for t in patterns.form_questions(spec, dict(schema.screen_labels), explore(spec)):
        yield Base(t.task, asks=t.asks, touches="answer", screen=t.screen)
    for t in cells.cell_texts(spec, schema, explore(spec)):
        yield Base(t.task, asks=t.asks, touches="answer", screen=t.screen, about=t.about)
    for t in choose.selected_questions(spec, schema, names.new):
        yield Base(t.task, asks=t.asks, touches="answer", screen=t.screen)
    for t in counts.count_questions(spec, schema, explore(spec)):
        yield Base(t.task, asks=t.asks, touches="answer", screen=t.screen)
    for t in counts.parent_questions(spec, schema, explore(spec), names.new):
        yield Base(t.task, asks=t.asks, touches="answer", screen=t.screen)
    yield from _state(spec, schema, names)
    for t in entries.typing_templates(spec, schema, names.new,
                                     lambda table: _collection(spec, schema, table)):
        yield Base(t.task, clauses=t.clauses, touches=t.task.name, screen=t.screen,
                    alone=len(t.task.params) > 1, label=t.label)
    yield from _navigation(spec, schema)
    for t in browse.open_rows(spec, schema, names.new):
        yield Base(t.task, clauses=t.clauses, touches="screen", screen=t.screen)


# -- information --------------------------------------------------------------------------

def _information(spec: AppSpec, schema: Schema, names: Names) -> Iterator[Base]:
    tables = {t.name: t for t in spec.tables}
    for e in schema.entities:
        t = tables[e.table]
        cols = [c.name for c in t.columns]
        for f in e.fields:
            questions, obj = P.QUESTIONS[f.fact]
            unit = _unit(t.rows, cols.index(f.column)) if f.fact == "count" else ""
            if f.fact == "count" and not unit:  # "7", not "7 products": no unit to name
                questions, obj = P.QUESTIONS["amount"]
            if not _answerable(t.rows, cols.index(e.name), cols.index(f.column)):
                continue
            n, v = names.new("n"), names.new("v")
            fill = {"label": f.label, "unit": unit}
            task = Task(
                name=f"ask_{f.column}_{e.table}", kind="information",
                instruction=W.join([W.words(q, fill, n=n) for q in questions]),
                condition=Compare("~", Ref(("answer",)), Ref((v,))),
                params=(TaskParam(n, e.table, e.name), TaskParam(v, e.table, f.column)))
            yield Base(task, asks=W.words(obj, fill, n=n), touches="answer")


def _answerable(rows: tuple, name: int, value: int) -> bool:
    return any(readable(r[name]) and readable(r[value]) for r in rows)



def _unit(rows: tuple, i: int) -> str:
    units = [m.group(1).lower() for r in rows if isinstance(r[i], str)
             for m in [_UNIT.match(r[i])] if m]
    return max(sorted(set(units)), key=units.count) if units else ""


# -- state ------------------------------------------------------------------------------------

def _state(spec: AppSpec, schema: Schema, names: Names) -> Iterator[Base]:
    flags = {f.name: f for f in spec.flags}
    # Two switches that say the same on one screen ("Show password" by each password
    # field) are told apart by nothing a person reads: neither is asked for.
    said = Counter((ft.label, ft.screen) for ft in schema.flag_toggles)
    for ft in schema.flag_toggles:
        flag = flags.get(ft.flag)
        if flag is None or flag.type != "bool" or not ft.label or said[(ft.label, ft.screen)] > 1:
            continue
        screen = schema.screen_label(ft.screen)
        row = "" if screen else screentexts.under_row(spec, schema, ft.screen)
        fill = {"label": ft.label, "screen": screen, "row": row}
        on_off = ((True, P.FLAG_ON), (False, P.FLAG_OFF)) if screen else \
            ((True, P.FLAG_ON_UNDER), (False, P.FLAG_OFF_UNDER)) if row else \
            ((True, P.FLAG_ON_HERE), (False, P.FLAG_OFF_HERE))
        for on, phr in on_off:
            if bool(flag.initial) == on:
                continue  # already so after a reset: nothing to do
            task = Task(name=f"turn_{'on' if on else 'off'}_{ft.flag}", kind="state",
                        instruction=W.join([W.words(p, fill) for p in phr]),
                        condition=Compare("==", Ref((ft.flag,)), Const(on)))
            yield Base(task, clauses=tuple(W.lower_first(W.words(p, fill)) for p in phr),
                        touches=ft.flag, screen=ft.screen, label=ft.label)
    yield from _steps(spec, schema)
    for t in choose.choice_templates(spec, schema, names.new):
        yield Base(t.task, clauses=t.clauses, touches=t.task.params[0].table,
                    screen=t.screen)
    for rt in schema.row_toggles:
        e = schema.entity(rt.table)
        if e is None:
            continue
        for on, phr in ((True, P.TURN_ON), (False, P.TURN_OFF)):
            n, k = names.new("n"), names.new("k")
            suffix = "" if rt.column == "checked" else f"{rt.column}_"
            # The key and the name: a key alone may come back on another row later.
            cond = _exists(rt.table, [(e.key, Ref((k,))), (e.name, Ref((n,))),
                                      (rt.column, Const(on))])
            # The switch's state, hidden: a row with none (no switch was recorded on it)
            # is never drawn.
            c = names.new("c", {n, k})
            task = Task(name=f"turn_{'on' if on else 'off'}_{suffix}{rt.table}", kind="state",
                        instruction=W.join([W.words(p, {}, n=n) for p in phr]),
                        condition=cond,
                        params=(TaskParam(n, e.table, e.name), TaskParam(k, e.table, e.key),
                                TaskParam(c, e.table, rt.column)))
            yield Base(task, clauses=tuple(W.lower_first(W.words(p, {}, n=n)) for p in phr),
                        touches=rt.table, screen=rt.screen)
    for ins in schema.inserts:
        src = schema.entity(ins.source) if ins.source else None
        if src is None or not ins.columns:
            continue
        if ins.inputs:
            yield from _send(spec, ins, src, names)
            continue
        n = names.new("n")
        keys, used = [], {n}
        for col, scol in ins.columns:
            k = n if scol == src.name else names.new("k", used)
            used.add(k)
            keys.append((col, k, scol))
        where = _collection(spec, schema, ins.table)
        task = Task(
            name=f"add_to_{ins.table}", kind="state",
            instruction=W.join([W.words(p, {"where": where}, n=n) for p in P.ADD]),
            condition=_exists(ins.table, [(col, Ref((k,))) for col, k, _ in keys]),
            params=(TaskParam(n, src.table, src.name),
                    *(TaskParam(k, src.table, scol) for _, k, scol in keys if k != n)))
        yield Base(task, clauses=tuple(W.lower_first(W.words(p, {"where": where}, n=n))
                                        for p in P.ADD), touches=ins.table,
                        screen=ins.screen)
    for de in schema.deletes:
        src = schema.entity(de.source)
        if src is None:
            continue
        n, k = names.new("n"), names.new("k")
        where = _collection(spec, schema, de.table)
        if de.source == de.table:
            # A row of the collection itself: gone when no row of that name is left (its
            # key may be given to a new row later).
            gone, params = _exists(de.table, [(src.name, Ref((n,)))]), \
                (TaskParam(n, src.table, src.name),)
        else:
            gone, params = _exists(de.table, [(de.column, Ref((k,)))]), \
                (TaskParam(n, src.table, src.name), TaskParam(k, src.table, de.source_column))
        cond: Expr = Not(gone)
        if de.when is not None:
            # (#21) Only the rows whose tap deletes: the rule, read of hidden parameters
            # of the row (`k2 == 1 or k2 == 21`), says which rows the template is for.
            hidden: dict[str, str] = {}
            for c in sorted({x.path[1] for x in walk(de.when) if isinstance(x, Ref)}):
                hidden[c] = names.new("k", {n, k, *hidden.values()})
            rule = map_expr(de.when, lambda x, hidden=hidden: Ref((hidden[x.path[1]],))
                            if isinstance(x, Ref) and x.path[0] == "item" else x)
            cond = BoolOp("and", (cond, rule))
            params += tuple(TaskParam(v, src.table, c) for c, v in hidden.items())
        said = P.REMOVE if not de.on_row else \
            P.TAP_AWAY_ALONE if where == P.UNNAMED_LIST else P.TAP_AWAY
        task = Task(
            name=f"remove_from_{de.table}", kind="state",
            instruction=W.join([W.words(p, {"where": where}, n=n) for p in said]),
            condition=cond, params=params)
        yield Base(task, clauses=tuple(W.lower_first(W.words(p, {"where": where}, n=n))
                                        for p in said), touches=de.table,
                        screen=de.screen)


def _steps(spec: AppSpec, schema: Schema) -> Iterator[Base]:
    """A number flag the app steps by a constant toward a recorded bound (`when f + 10
    <= 180`: wikipedia's font size), brought to each value on the way: "Set “Font size”
    to 120%.", in the words the screen shows it with, named by the heading above it."""
    flags = {f.name: f for f in spec.flags if f.type == "int" and isinstance(f.initial, int)}
    for name, flag in flags.items():
        for t in spec.transitions:
            step = next((_step_of(e, name) for e in t.effects if e.op == "set" and
                         e.target == name and _step_of(e, name)), 0)
            bound = _bound_of(t.when, name, step) if step else None
            if bound is None:
                continue
            shown = _shown_by(spec, t.screen, name)
            if shown is None:
                continue
            view, label = shown
            value = flag.initial + step
            row = "" if schema.screen_label(t.screen) else \
                screentexts.under_row(spec, schema, t.screen)
            said = P.STEP_TO_UNDER if row else P.STEP_TO
            while (value - bound) * step <= 0:
                words = _show(spec, view.text, name, value)
                fill = {"label": label, "value": words, "row": row}
                task = Task(name=f"set_{name}_{value}".replace("-", "minus_"), kind="state",
                            instruction=W.join([W.words(p, fill) for p in said]),
                            condition=Compare("==", Ref((name,)), Const(value)))
                yield Base(task, clauses=tuple(W.lower_first(W.words(p, fill))
                                                for p in said),
                            touches=name, screen=t.screen, label=label)
                value += step
            break  # one direction with a bound is enough


def _step_of(e, name: str) -> int:
    """`set f = f + 10` -> 10 (`- 10` -> -10); 0 for any other effect."""
    v = e.values[0][1] if e.values else None
    if isinstance(v, BinOp) and v.left == Ref((name,)) and isinstance(v.right, Const) and \
            isinstance(v.right.value, int) and not isinstance(v.right.value, bool):
        return v.right.value if v.op == "+" else -v.right.value
    return 0


def _bound_of(when: Expr | None, name: str, step: int) -> int | None:
    """`f + 10 <= 180` -> 180 (`f - 10 >= 50` -> 50): the last value a step reaches."""
    if not isinstance(when, Compare) or when.op not in ("<=", ">=") or \
            not isinstance(when.right, Const) or not isinstance(when.right.value, int):
        return None
    if (when.op == "<=") != (step > 0) or not isinstance(when.left, BinOp) or \
            when.left.left != Ref((name,)):
        return None
    return when.right.value


def _shown_by(spec: AppSpec, screen: str, name: str):
    """The view of `screen` whose text shows flag `name`, with the fixed heading right
    above it; None where there is none."""
    s = spec.screen(screen)
    if s is None:
        return None
    shown = [v for v in views(own_root(s)) if v.text is not None and
             Ref((name,)) in list(walk(v.text))]
    if len(shown) != 1:
        return None
    v = shown[0]
    heads = [h for h in fixed_texts(own_root(s)) if is_name(const_text(h.text)) and
             0 <= v.bounds[1] - h.bounds[3] <= (h.bounds[3] - h.bounds[1]) // 2 + 8 and
             min(h.bounds[2], v.bounds[2]) > max(h.bounds[0], v.bounds[0])]
    return (v, const_text(heads[-1].text)) if heads else None


def _show(spec: AppSpec, text: Expr | None, name: str, value: int) -> str:
    """What the view shows when the flag holds `value` ("120%")."""
    from phoneworld.runtime.expr import Scope, display, evaluate
    from phoneworld.runtime.state import State

    bound = map_expr(text, lambda x: Const(value) if x == Ref((name,)) else x) \
        if text is not None else Const(str(value))
    return display(evaluate(bound, Scope(State(spec))))  # type: ignore[arg-type]


def _send(spec: AppSpec, ins: RowInsert, src: Entity, names: Names) -> Iterator[Base]:
    """An insert of typed text (a message, a comment): write a text the app already holds
    elsewhere (the table's own rows) to a row of the source (a contact, a post)."""
    if len(ins.inputs) != 1:
        return
    n, m = names.new("n"), names.new("m")
    keys, used = [], {n, m}
    for col, scol in ins.columns:
        k = n if scol == src.name else names.new("k", used)
        used.add(k)
        keys.append((col, k, scol))
    text_column = ins.inputs[0][0]
    phrases = P.SEND if re.search(r"send|reply|message|chat", f"{ins.label} {ins.table}",
                                  re.I) else P.POST
    task = Task(
        name=f"send_to_{ins.table}", kind="state",
        instruction=W.join([W.words(p, {}, n=n, m=m) for p in phrases]),
        condition=_exists(ins.table, [*((col, Ref((k,))) for col, k, _ in keys),
                                      (text_column, Ref((m,)))]),
        params=(TaskParam(n, src.table, src.name),
                *(TaskParam(k, src.table, scol) for _, k, scol in keys if k != n),
                TaskParam(m, ins.table, text_column)))
    yield Base(task, clauses=tuple(W.lower_first(W.words(p, {}, n=n, m=m)) for p in phrases),
                touches=ins.table, screen=ins.screen)


def _collection(spec: AppSpec, schema: Schema, table: str) -> str:
    """How a person names a collection: the label of a screen that lists it (`place_label`:
    not a button's words), else "the list" (never a table's name: it comes from resource
    ids)."""
    kinds = screen_labels(spec)
    for s in spec.screens:
        if table in tables_of(own_root(s)) and (place := place_label(spec, s.name)):
            if kinds[s.name][1] != "title":  # named by the tab or entry to it
                if "dialog" in s.modules:
                    continue  # a popup's button says what it does: ajsha's "LOAD" list
                return f"the “{place}” list"
            return f"the {place}"
    for s in spec.screens:  # a title that is also the name of the row that opens it
        if table in tables_of(own_root(s)) and is_name(title_of(s, spec)):
            return f"the {title_of(s, spec)}"
    for s in spec.screens:  # every row under one parent row, named as it titles its page
        if _under_opened(spec, s, table) and (title := row_title(s, spec)):
            return f"the {title}"
    return P.UNNAMED_LIST


def _under_opened(spec: AppSpec, s: Screen, table: str) -> bool:
    """Whether `s` lists `table`'s rows of its parameter row (`where item.ctx ==
    param.id`) and every row of the table, at first, is of the row `s` was recorded with
    (the shopping favourites, all under the account row “Favourites”)."""
    rows = next((t for t in spec.tables if t.name == table), None)
    if rows is None or s.opened is None:
        return False
    columns = [c.name for c in rows.columns]
    for v in views(s.root):
        w = v.items.where if v.items is not None and v.items.table == table else None
        if isinstance(w, Compare) and w.op == "==" and isinstance(w.left, Ref) and \
                isinstance(w.right, Ref) and len(w.left.path) == 2 and \
                w.left.path[0] == "item" and w.left.path[1] in columns and \
                w.right.path[:1] == ("param",):
            at = columns.index(w.left.path[1])
            return all(r[at] == s.opened for r in rows.rows)
    return False


def _exists(table: str, pairs: list[tuple[str, Expr]]) -> Call:
    items = tuple(Compare("==", Ref((col,)), value) for col, value in pairs)
    where = items[0] if len(items) == 1 else BoolOp("and", items)
    return Call("exists", table=table, where=where)


# -- navigation ------------------------------------------------------------------------------

def _navigation(spec: AppSpec, schema: Schema) -> Iterator[Base]:
    forms = {s.name for s in spec.screens if "form" in s.modules}
    dialogs = {s.name for s in spec.screens if "dialog" in s.modules}
    kinds = screen_labels(spec)
    seen_labels = set()
    for s in spec.screens:
        label = schema.screen_label(s.name)
        # A dialog is no place to go to, but the button that opens it is one to press
        # (onelist's "Tap “Add List”.", ajsha's "Tap “LOAD”."): not one titled alone.
        popup = "dialog" in s.modules
        if popup and not label:
            label = _asks_for_text(spec, s)  # ajsha's "SAVE", which asks for a file name
        # A row's page with no name, opened by a button of one row (qqmusic's "分享"):
        # pressing it is the goal.
        button = "" if label or s.foreign else screentexts.row_button(spec, schema, s)
        label = label or button
        if s.name == spec.start or s.foreign or not label or label == schema.title or \
                popup and kinds.get(s.name, ("", ""))[1] == "title":
            continue
        if s.param is not None and not button and \
                not any(t.target == s.name and t.with_param is None and
                        t.screen not in dialogs for t in spec.transitions) and \
                (kinds.get(s.name, ("", ""))[1] != "title" or _shows_param(s)):
            # It only ever shows a row: which row, a condition cannot say. Unless it is a
            # page of its own, titled, on which nothing of the row shows (qqmusic's share
            # sheet opens 下载QQ whichever QQ row is tapped): going there is a goal.
            continue
        cond = Compare("==", Ref(("screen",)), Const(s.name))
        into = [t for t in spec.transitions if t.target == s.name and t.screen != s.name]
        submit = [t for t in into if t.screen in forms]
        if into and len(submit) == len(into):
            view = named_views(spec).get((submit[0].screen, submit[0].widget))
            button = view_label(view[0], fallback=False) \
                if view and "editable" not in view[0].flags else ""  # a field is no button
            form = schema.screen_label(submit[0].screen)
            if button and form:
                fill = {"button": button, "form": form}
                task = Task(name=f"submit_{submit[0].screen}", kind="navigation",
                            instruction=W.join([W.words(p, fill) for p in P.SUBMIT]),
                            condition=cond)
                yield Base(task, clauses=tuple(W.lower_first(W.words(p, fill))
                                                for p in P.SUBMIT), touches="screen",
                            screen=s.name)
                continue
        if label in seen_labels:
            continue
        seen_labels.add(label)
        # A label that says what a button does ("START +10 XP") names no screen, nor does
        # the button of a menu that pops up over the screen (aeondroid's "More options"):
        # press it.
        kind = kinds.get(s.name, ("", ""))[1]
        pressed = popup or bool(button) or kind == "button" or \
            kind == "opener" and _pops_up(spec, s)
        fill = {"button": label} if pressed else {"screen": label}
        phrases = P.PRESS if pressed else P.OPEN_CALLED if isinstance(label, W.Called) \
            else P.OPEN
        task = Task(name=f"open_{s.name}", kind="navigation",
                    instruction=W.join([W.words(p, fill) for p in phrases]), condition=cond)
        yield Base(task, clauses=tuple(W.lower_first(W.words(p, fill)) for p in phrases),
                    touches="screen", screen=s.name)


def _asks_for_text(spec: AppSpec, s: Screen) -> str:
    """The label of the button that opens dialog `s` where `s` asks for text (a field to
    type a name in: ajsha's "SAVE"): pressing it is a goal. Told by what the button
    does, not by its word: a label such as "SAVE" or "OK" names no place (`labels`
    leaves it out), but opening a dialog to type into is a step a person asks for; a
    dialog with nothing to type in ("OK" before a confirmation) is no goal that way."""
    if not any("editable" in v.flags for v in views(s.root)):
        return ""
    named = views_by_name(spec)
    dialogs = {x.name for x in spec.screens if "dialog" in x.modules}
    for t in spec.transitions:
        v = named.get((t.screen, t.widget))
        if t.target == s.name and t.screen != s.name and t.with_param is None and \
                t.screen not in dialogs and v is not None and "editable" not in v.flags and \
                is_name(label_of(v)):
            return label_of(v)
    return ""


def _pops_up(spec: AppSpec, s: Screen) -> bool:
    """Whether `s` covers only part of the display (a menu, a popup), or is a sheet drawn
    over the page it came from: a full-size window whose every label and button, but a
    backdrop that closes it (as large as the display, say), lies in its lower part
    (wikipedia's “More”: a sheet of Log in, Settings, Donate, About, Help under a
    `touch_outside` backdrop, tapped open rather than gone to)."""
    b = s.root.bounds
    area = spec.width * spec.height
    if (b[2] - b[0]) * (b[3] - b[1]) < 0.8 * area:
        return True
    said = [v for v in views(s.root)
            if (const_text(v.text) or const_text(v.desc) or "clickable" in v.flags) and
            (v.bounds[2] - v.bounds[0]) * (v.bounds[3] - v.bounds[1]) < 0.8 * area]
    return bool(said) and min(v.bounds[1] for v in said) > spec.height * 0.4


def _shows_param(s: Screen) -> bool:
    """Whether anything on `s` is bound to its parameter (the row it was opened for)."""
    return any(isinstance(e, Ref) and e.path[:1] == ("param",)
               for v in views(s.root) for x in (v.text, v.desc, v.checked) if x is not None
               for e in walk(x))


def _placed(spec: AppSpec, b: Base) -> Base:
    """`b` with the screen a question is answered on, where it has none: the first
    screen that lists the question's row, or shows it as its parameter."""
    if b.screen or b.task.kind != "information" or not b.task.params:
        return b
    table = b.task.params[0].table
    for s in spec.screens:
        if not s.foreign and (s.param == table or table in tables_of(own_root(s))):
            return replace(b, screen=s.name)
    return b
