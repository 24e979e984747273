"""Templates for typing: search for, submit, or add what the recordings typed.

    set search_search_input = input.search_input   (on search.search_input submit)
      ->  task search_search_search_input state (m: search_search_input_typed.text)
              "Search for “{m}”. | ..." { search_search_input == m }
    set checkout_input_name/street/city/zip = input.* (on checkout.place_order_button tap)
      ->  task fill_checkout state (m: ..., m2: ..., m3: ..., m4: ...)
              "On Checkout, fill in Full name “{m}”, ... and tap “Place order”. | ..."
    insert main_items(text = input.add_item_edit_text)   (no row it belongs to)
      ->  task add_to_main_items state (m: main_add_item_edit_text_typed.text)
              "Add “{m}” to 1List. | ..." { exists(main_items where text == m) }

What to type is drawn from the texts the recordings typed into that very field (the
`<screen>_<field>_typed` tables), so a task never asks for text the app was never given;
a field is called by its hint where the recording shows one.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator

from phoneworld.spec.ast import (
    PICKED,
    TYPED,
    AppSpec,
    BoolOp,
    Call,
    Compare,
    Const,
    Ref,
    Task,
    TaskParam,
    View,
)
from phoneworld.spec.walk import views as all_views
from phoneworld.tasks import phrases as P
from phoneworld.tasks import wording as W
from phoneworld.tasks.browse import Template
from phoneworld.tasks.labels import is_name, label_of, screen_labels, views_by_name
from phoneworld.tasks.reach import tables_of
from phoneworld.tasks.schema import Schema

SUFFIX = TYPED
_SEARCH = re.compile(r"search|query|find|filter", re.I)


def typing_templates(spec: AppSpec, schema: Schema, new: Callable[..., str],
                     where: Callable[[str], str]) -> Iterator[Template]:
    """Submitting typed text (a search, a form), and adding typed text to a list that
    belongs to no row; `where` says how a person names a table's list."""
    tables = {t.name: t for t in spec.tables}
    views = views_by_name(spec)
    groups: dict[tuple[str, str, str], list[tuple[str, str]]] = defaultdict(list)
    for t in spec.transitions:
        for e in t.effects:
            if e.op == "set" and len(e.values) == 1 and isinstance(e.values[0][1], Ref) and \
                    e.values[0][1].path[0] == "input" and e.target + SUFFIX in tables:
                key = (t.screen, t.widget, t.action)
                if (e.target, e.values[0][1].path[1]) not in groups[key]:
                    groups[key].append((e.target, e.values[0][1].path[1]))
    done: set[tuple] = set()
    shown = _shown_picks(spec)
    for (screen, _, _), fields in sorted(groups.items()):
        if len(fields) == 1 and fields[0][0] in shown and \
                fields[0][0] + PICKED + SUFFIX in tables and tuple(fields) not in done:
            done.add(tuple(fields))
            yield _pick(fields[0][0], shown[fields[0][0]], screen, new)
    for (screen, widget, action), fields in sorted(groups.items()):
        if tuple(sorted(fields)) not in done:  # enter and a search button: one task
            done.add(tuple(sorted(fields)))
            yield from _submit(spec, schema, screen, widget, action, fields, views, tables,
                               new)
    for ins in schema.inserts:
        if ins.source is not None or len(ins.inputs) != 1:
            continue
        column, field = ins.inputs[0]
        table = _typed_table(ins.screen, field, tables)
        if table is None:
            continue
        m = new("m")
        # Typed on a screen of its own (a file name dialog) and listed on another: by the
        # button that opens where it is typed ("Use “SAVE” to add “{m}” to ...").
        button = "" if _lists(spec, ins.screen, ins.table) else _opener(spec, ins.screen, views)
        fill = {"where": where(ins.table), "button": button,
                "field": _hint(views.get((ins.screen, field)), tables[table])}
        phrases = (P.ADD_TYPED_BY if _says_add(button) else P.ENTER_BY) \
            if button and fill["where"] == P.UNNAMED_LIST else \
            P.ADD_TYPED_VIA if button else \
            P.ADD_TYPED_IN if fill["where"] == P.UNNAMED_LIST and fill["field"] else \
            P.ADD_TYPED
        task = Task(name=f"add_typed_to_{ins.table}", kind="state",
                    instruction=W.join([W.words(p, fill, m=m) for p in phrases]),
                    condition=Call("exists", table=ins.table,
                                   where=Compare("==", Ref((column,)), Ref((m,)))),
                    params=(TaskParam(m, table, "text"),))
        yield Template(task, clauses=tuple(W.lower_first(W.words(p, fill, m=m))
                                           for p in phrases), screen=ins.screen)


_ADDS = re.compile(r"(?:^|\W)(?:add|new|create)(?:\W|$)|^\+$", re.I)


def _says_add(button: str) -> bool:
    """Whether a button's label says it adds what is typed ("Add List", "+", "New"): the
    instruction may then say "add" too."""
    return bool(_ADDS.search(button))


def _hint(view: View | None, typed) -> str:
    """What a field says of itself while empty (onelist's “Add”): its own text, where that
    is a name and no text the recordings typed into it (then it is what it held); ""
    where it says nothing."""
    said = _own_text(view) if view is not None else ""
    return said if said and is_name(said) and \
        said not in {r[2] for r in typed.rows} else ""


def _shown_picks(spec: AppSpec) -> dict[str, str]:
    """Each text flag a view shows once set (`otherwise(flag, "ASAP")`, see
    `infer.picked`) -> the label beside that view ("Arrive by"): the text of the sibling
    before it, where that is a name."""
    out: dict[str, str] = {}
    for s in spec.screens:
        for parent in all_views(s.root):
            before = ""
            for v in parent.children:
                e = v.text
                if isinstance(e, Call) and e.func == "otherwise" and e.args and \
                        isinstance(e.args[0], Ref) and len(e.args[0].path) == 1 and \
                        before and is_name(before):
                    out.setdefault(e.args[0].path[0], before)
                before = _own_text(v) or before if v.items is None else ""
    return out


def _pick(flag: str, label: str, screen: str, new: Callable[..., str]) -> Template:
    """"Set “Arrive by” to “{m}”.": a value drawn from those the recordings picked."""
    m = new("m")
    texts = [W.words(p, {"label": label}, m=m) for p in P.PICK]
    task = Task(name=f"pick_{flag}", kind="state", instruction=W.join(texts),
                condition=Compare("==", Ref((flag,)), Ref((m,))),
                params=(TaskParam(m, flag + PICKED + SUFFIX, "text"),))
    return Template(task, clauses=tuple(W.lower_first(t) for t in texts), screen=screen,
                    label=label)


def _lists(spec: AppSpec, screen: str, table: str) -> bool:
    """Whether `screen` shows a list of `table`."""
    s = spec.screen(screen)
    return s is not None and table in tables_of(s.root)


def _opener(spec: AppSpec, screen: str, views) -> str:
    """The label of the button that most often opens `screen` from another screen (not a
    list row, not a field); "" where none says anything."""
    votes: Counter[str] = Counter()
    for t in spec.transitions:
        view = views.get((t.screen, t.widget))
        if t.target != screen or t.screen == screen or t.with_param is not None or \
                view is None or "editable" in view.flags:
            continue
        label = label_of(view)
        if label and is_name(label):
            votes[label] += t.count
    return min(votes, key=lambda k: (-votes[k], k)) if votes else ""


def _submit(spec, schema: Schema, screen: str, widget: str, action: str,
            fields: list[tuple[str, str]], views, tables, new) -> Iterator[Template]:
    # A form's fields in the order a person fills them in: top to bottom.
    fields = sorted(fields, key=lambda f: (views[(screen, f[1])].bounds[1::-1]
                                           if (screen, f[1]) in views else (0, 0), f))
    names, labels, conds, params = [], [], [], []
    for flag, field in fields:
        m = new("m", set(names))
        names.append(m)
        view = views.get((screen, field))
        typed = {r[2] for r in tables[flag + SUFFIX].rows}
        hint = label_of(view) if view is not None else ""
        if len(fields) == 1 and view is not None and hint == _own_text(view):
            # A lone field's own text is what it held ("default", a file name to save
            # as), or a hint: no name to call it by, and one field needs none.
            hint = ""
        labels.append(hint if hint and hint not in typed and is_name(hint) else "")
        conds.append(Compare("==", Ref((flag,)), Ref((m,))))
        params.append(TaskParam(m, flag + SUFFIX, "text"))
    if len(fields) > 1 and not all(labels):
        return  # a form whose fields say nothing of what goes where
    button = "" if action == "submit" else label_of(views[(screen, widget)]) \
        if (screen, widget) in views else ""
    place = schema.screen_label(screen)
    search = len(fields) == 1 and (_SEARCH.search(f"{fields[0][1]} {labels[0]}") or
                                   "search" in _modules(spec, screen))
    if search:
        phrases = P.SEARCH
    elif len(fields) == 1 and action == "submit":
        phrases = P.ENTER_SUBMIT
    elif button and is_name(button) and all(labels):
        phrases = P.FILL_IN
    elif button and is_name(button) and (place or _opener(spec, screen, views)):
        # One field that says nothing of itself: named by its form, or the button to it.
        titled = place and screen_labels(spec).get(screen, ("", ""))[1] == "title"
        phrases = P.FILL_IN_ON if titled else P.FILL_IN_VIA
        place = place if titled else _opener(spec, screen, views)
    else:
        return
    what = ", ".join(f"{W.literal(label)} “{{{m}}}”" if label else f"“{{{m}}}”"
                     for label, m in zip(labels, names, strict=True))
    fill = {"button": button, "screen": place}
    texts = [W.words(p, fill, m=names[0]).replace("{fields}", what)
             for p in phrases if place or "{screen}" not in p]
    cond = conds[0] if len(conds) == 1 else BoolOp("and", tuple(conds))
    name = f"search_{fields[0][0]}" if search else f"fill_{screen}"
    task = Task(name=name, kind="state", instruction=W.join(texts), condition=cond,
                params=tuple(params))
    yield Template(task, clauses=tuple(W.lower_first(t) for t in texts), screen=screen)


def _own_text(view: View) -> str:
    e = view.text
    return e.value.strip() if isinstance(e, Const) and isinstance(e.value, str) else ""


def _typed_table(screen: str, field: str, tables) -> str | None:
    """The typed texts of a field, named as `infer.typed` names them (`<screen>_<field>`,
    with `_2`s where that was taken): the first such table there is."""
    from phoneworld.infer.layout import identifier  # the compiler's naming, when synthesising

    base = identifier(f"{screen}_{field}")
    for extra in range(4):
        name = base + "_2" * extra + SUFFIX
        if name in tables:
            return name
    return None


def _modules(spec: AppSpec, screen: str) -> tuple[str, ...]:
    s = spec.screen(screen)
    return s.modules if s is not None else ()
