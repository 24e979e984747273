"""Templates for browsing an app: open a list's row, read what a row or a screen shows.

    on main.package_row tap -> package with item        (a list of packages)
      ->  task open_package navigation (n: packages.name)
              "Open {n}. | Tap {n} to open it. | ..." { screen == "package" and param.name == n }
    list row template: TextView item.title above TextView item.summary
      ->  task read_summary_settings information (n: settings.title, v: settings.summary)
              "What is written under {n}? | ..." { answer ~ v }

    fixed texts on About: "License" and, right under it, "Source code available on ..."
      ->  task read_about_1 information "What is written under “License” on About? | ..."
              { answer ~ "Source code available on ..." }

These need nothing but what every recorded app has, lists, taps on their rows and fixed
texts, and they word a task only with what the screen itself shows (a row's name, the
label of a button on it, a heading) and with where a text sits ("under", "next to"):
never with the names of columns or screens, which come from resource ids.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from phoneworld.runtime.expr import Scope, filter_rows
from phoneworld.runtime.state import State
from phoneworld.spec.ast import (
    AppSpec,
    BoolOp,
    Call,
    Compare,
    Const,
    Effect,
    Expr,
    Ref,
    Screen,
    Task,
    TaskParam,
    View,
)
from phoneworld.spec.walk import views, walk
from phoneworld.tasks import phrases as P
from phoneworld.tasks.labels import (
    const_text,
    fixed_texts,
    is_heading,
    is_name,
    is_placeholder,
    label_of,
    marked_title,
    row_name,
    screen_labels,
)
from phoneworld.tasks.planner import slipped
from phoneworld.tasks.schema import Schema

NewName = Callable[..., str]
"""`Names.new` of `composite`: a parameter name no column or keyword uses."""
_SWITCH = re.compile(r"(?<!Text)(CheckBox|Switch|Toggle)", re.I)
"""A checkable that is on or off (not a choice in a list: a `CheckedTextView`)."""
_SWITCH_WORDS = re.compile(r"\s+(ON|OFF)$")
_STATE_WORDS = frozenset({"on", "off", "true", "false", "yes", "no", "checked", "unchecked"})


@dataclass(frozen=True)
class Template:
    """A template with the clauses a composite joins it by ("open {n}"), or for a
    question, the thing asked for ("the text under {n}"), and the screen it ends on."""

    task: Task
    clauses: tuple[str, ...] = ()
    asks: str = ""
    screen: str = ""
    label: str = ""
    """What a question is about, in the app's words, where a state change may share it
    (a switch's label: no composite switches “Show password” and asks about its twin)."""
    about: str = ""
    """The table a question with no parameters reads (a row's cell: "what is under
    “Theme”" is about the row a choice of Theme changes)."""


# -- opening a row ---------------------------------------------------------------------------

def open_rows(spec: AppSpec, schema: Schema, new: NewName) -> Iterator[Template]:
    """One template per screen that a tap on a list row (or a swipe across it) opens for
    that row: "Open {n}." (the row itself) or "Open “Menu” for {n}." (a button on the
    row)."""
    screens = {s.name: s for s in spec.screens}
    in_items = _item_views(spec)
    done: set[tuple[str, str]] = set()
    slips = slipped(spec)
    for t in spec.transitions:
        if t.action == "swipe" and (t.screen, t.widget) in slips:
            continue  # a tap opens it: a swipe that did too was a slip of the finger
        target = screens.get(t.target)
        if target is None or target.foreign or t.action not in ("tap", "swipe") or \
                t.with_param != Ref(("item",)) or \
                target.param is None or (t.screen, t.widget) not in in_items:
            continue
        e = schema.entity(target.param)
        view, table = in_items[(t.screen, t.widget)]
        if e is None or table != target.param or (not _shows_row(spec, target) and (
                t.when is None or not _a_place(spec, target))):
            continue  # (one row that opens a page of its own names it, as a tab does)
        button = label_of(view) if t.action == "tap" else ""
        button = button if button and is_name(button) else ""
        if (target.name, button) in done:
            continue
        done.add((target.name, button))
        phrases = P.OPEN_ROW_BY if button else _open_phrases(spec, target, e.table, e.name)
        if t.action != "tap":  # opened by a swipe ("swipe an item to edit it"): no "Tap"
            phrases = tuple(p for p in phrases if not p.startswith("Tap "))
        # (only a popup that lists options under its row is known to be that row's: a
        # page any row's tap opens would be "opened" by headings and switches too)
        under = _only_rows_under(spec, target)
        names = _name_columns(spec, e.table, e.name) if under is not None else [e.name]
        for column in names:
            yield _open_row(target, e, column, under, phrases, {"button": button}, new)


def _open_phrases(spec: AppSpec, target: Screen, table: str, name: str) -> tuple[str, ...]:
    """How opening a row reads: "Open {n}." for a row with a name; for one shown in a form
    to change it (an editable field reads the row), "Open {n} for editing."; for a row
    whose name is mostly a sentence (onelist's tips, "Swipe an item left to delete it"),
    "Open the entry {n}." (a sentence is no place to go to)."""
    if "form" in target.modules and any("editable" in v.flags and v.text is not None and
                                        _reads_param(v.text) for v in views(target.root)):
        return P.EDIT_ROW
    t = next(x for x in spec.tables if x.name == table)
    i = [c.name for c in t.columns].index(name)
    names = [str(r[i]) for r in t.rows if _usable(r[i])]
    if names and 2 * sum(P.is_sentence(n) for n in names) > len(names):
        return P.OPEN_ENTRY
    return P.OPEN_ROW


def _name_columns(spec: AppSpec, table: str, name: str) -> list[str]:
    """The name column, then those of its kind that name rows of another layout
    (`labels.row_name`: onelist's "Theme" in `title_2`)."""
    t = next(x for x in spec.tables if x.name == table)
    cols = [c.name for c in t.columns]
    other = {row_name(cols, r, name)[0] for r in t.rows} - {name, ""}
    return [name, *sorted(c for c in other if c.startswith(f"{name}_"))]


def _open_row(target: Screen, e, column: str, under: str | None, phrases: tuple,
              fill: dict[str, str], new: NewName) -> Template:
    """"Open {n}." for the rows `column` names; `under` is `_only_rows_under(target)`."""
    n = new("n")
    items = [Compare("==", Ref(("screen",)), Const(target.name)),
             Compare("==", Ref(("param", column)), Ref((n,)))]
    params = [TaskParam(n, e.table, column)]
    if under is not None:
        # A popup that shows nothing of its row but the rows listed under it (a
        # dialog's options) is that row's only where it lists some: "Open App
        # Version" opened onelist's Theme dialog, empty, by the same tap.
        k, c = new("k", {n}), new("c", {n})
        items.append(Compare("==", Ref((c,)), Ref((k,))))
        params += [TaskParam(k, e.table, e.key), TaskParam(c, under, "ctx")]
    suffix = "" if column == e.name else f"_by_{column}"
    task = Task(name=f"open_{target.name}{suffix}", kind="navigation",
                instruction=P.join([P.words(p, fill, n=n) for p in phrases]),
                condition=BoolOp("and", tuple(items)), params=tuple(params))
    return Template(task, clauses=tuple(P.lower_first(P.words(p, fill, n=n))
                                        for p in phrases), screen=target.name)


def _shows_row(spec: AppSpec, target: Screen) -> bool:
    """Whether a screen shows something of the row it was opened for: a text bound to
    `param`, or a list of the row's own rows where most rows have some. A page that
    looks the same whichever row opened it (each target of a share sheet opening one
    "Download QQ" page; a row's menu recorded for one row only, empty for the others)
    is no place a person can tell they reached."""
    filtered = []
    for v in views(target.root):
        for e in (v.text, v.desc):
            if e is not None and _reads_param(e):
                return True
        if v.items is not None and v.items.where is not None and _reads_param(v.items.where):
            filtered.append(v.items)
    if any(t.screen == target.name and any(_reads_param(x) for e in t.effects
                                           for x in _effect_exprs(e))
           for t in spec.transitions):
        return True  # what is done there is done to the row (a message sent to it)
    if not filtered or target.param is None:
        return False
    state = State(spec)
    rows = state.rows(target.param)
    shown = sum(any(filter_rows(lst.table, lst.where, Scope(state, param=r), as_item=True)
                    for lst in filtered) for r in rows)
    return shown * 2 > len(rows)


def _only_rows_under(spec: AppSpec, target: Screen) -> str | None:
    """The table of the rows a popup lists under its row (`where item.ctx == param.id`)
    when that list is all it shows of the row (no text bound to it), else None. (A full
    page is a place of its own even with nothing listed: a conversation yet to start.)"""
    b = target.root.bounds
    if (b[2] - b[0]) * (b[3] - b[1]) >= 0.8 * spec.width * spec.height:
        return None
    under = None
    for v in views(target.root):
        if any(e is not None and _reads_param(e) for e in (v.text, v.desc)):
            return None
        if v.items is not None and v.items.where == Compare(
                "==", Ref(("item", "ctx")), Ref(("param", "id"))):
            under = v.items.table
    return under


def _effect_exprs(e: Effect) -> list[Expr]:
    return [x for x in (e.where, *(v for _, v in e.values)) if x is not None]


def _a_place(spec: AppSpec, target: Screen) -> bool:
    """Whether a screen is a place of its own: filling the display, or named (a title),
    but not a popup named by its first line only (qqmusic's "Download WeChat" over a share
    sheet: "Go to 下载微信." is a goal, "Open 朋友圈." that leads there is not)."""
    b = target.root.bounds
    if (b[2] - b[0]) * (b[3] - b[1]) >= 0.8 * spec.width * spec.height:
        return True
    # A popup called by its first line ("下载微信") has a name, but is no row's place.
    label = screen_labels(spec).get(target.name)
    return label is not None and (label[1] != "title" or bool(marked_title(target, spec)))


def _reads_param(e: Expr) -> bool:
    return any(isinstance(x, Ref) and x.path[0] == "param" for x in walk(e))


def _item_views(spec: AppSpec) -> dict[tuple[str, str], tuple[View, str]]:
    """(screen, widget name) -> (the view, the table of the list it repeats in), for the
    named views inside list items."""
    out: dict[tuple[str, str], tuple[View, str]] = {}
    for s in spec.screens:
        stack: list[tuple[View, str | None]] = [(s.root, None)]
        while stack:
            v, table = stack.pop()
            if v.name and table is not None:
                out.setdefault((s.name, v.name), (v, table))
            inner = v.items.table if v.items is not None else table
            stack.extend((c, inner) for c in v.children)
    return out


# -- what a row shows ------------------------------------------------------------------------

def row_questions(spec: AppSpec, schema: Schema, new: NewName,
                  asked: set[tuple[str, str]]) -> Iterator[Template]:
    """A question per text a list row shows beside its name, worded by where it sits:
    under the name, or next to it. `asked` holds the (table, column) pairs other
    templates already ask about."""
    tables = {t.name: t for t in spec.tables}
    done = set(asked)
    for table, name_view, other, column, rivals in _row_texts(spec, schema):
        if (table, column) in done:
            continue
        t = tables[table]
        cols = [c.name for c in t.columns]
        e = schema.entity(table)
        types = {c.name: c.type for c in t.columns}
        if e is None or types.get(column) != "text":
            continue
        place = "rank" if _numbers_rows(t.rows, cols.index(e.name), cols.index(column)) else \
            _place(name_view.bounds, other.bounds)
        byline = place == "under" and not ({"clickable", "editable"} & set(other.flags))
        if not _informative(t.rows, cols.index(e.name), cols.index(column), byline):
            continue
        if place != "rank" and not _nearest(name_view, other, rivals):
            continue
        done.add((table, column))
        n, v = new("n"), new("v")
        yield _ask_row(P.ROW_TEXT[place], f"read_{column}_{table}", n,
                       Compare("~", Ref(("answer",)), Ref((v,))),
                       (TaskParam(n, table, e.name), TaskParam(v, table, column)))
        where = _list_label(spec, schema, table)
        if place == "rank" and where:
            # and the other way round: "What is number 3 in the list on 专辑?"
            r, v = new("r"), new("v")
            questions, obj = P.AT_RANK
            yield _ask_row(([P.words(q, {"screen": where}) for q in questions],
                            P.words(obj, {"screen": where})),
                           f"read_{e.name}_{table}_at_{column}", r,
                           Compare("~", Ref(("answer",)), Ref((v,))),
                           (TaskParam(r, table, column), TaskParam(v, table, e.name)))
    pairs: set[frozenset[tuple[str, str]]] = set()
    for table, key_view, key, other, column, rivals in _keyed_rows(spec, schema):
        t = tables[table]
        cols = [c.name for c in t.columns]
        place = _place(key_view.bounds, other.bounds)
        if place not in ("under", "next") or (table, f"{column}>{key}") in done or \
                not _informative(t.rows, cols.index(key), cols.index(column)) or \
                not _nearest(key_view, other, rivals):
            continue
        said = frozenset((str(r[cols.index(key)]), str(r[cols.index(column)])) for r in t.rows)
        if said in pairs:
            continue  # the same rows in another table (a screen recorded twice): asked
        pairs.add(said)
        done.add((table, f"{column}>{key}"))
        n, v = new("n"), new("v")
        e = schema.entity(table)
        # A text that also names a row of the list (activitylauncher's "AndroFish", an
        # app and its activity) calls two rows: asked of neither.
        names = sorted({str(r[cols.index(e.name)]).strip() for r in t.rows
                        if e is not None and _usable(r[cols.index(e.name)])} &
                       {str(r[cols.index(key)]).strip() for r in t.rows})
        yield _ask_row(P.ROW_TEXT[place], f"read_{column}_{table}_by_{key}", n,
                       BoolOp("and", (Compare("~", Ref(("answer",)), Ref((v,))), *(
                           Compare("!=", Ref((n,)), Const(x)) for x in names)))
                       if names else Compare("~", Ref(("answer",)), Ref((v,))),
                       (TaskParam(n, table, key), TaskParam(v, table, column)))


def _list_label(spec: AppSpec, schema: Schema, table: str) -> str:
    """The label of the one screen that lists `table`, "" where none or several do."""
    shown = [s.name for s in spec.screens if not s.foreign and
             any(v.items is not None and v.items.table == table for v in views(s.root))]
    return schema.screen_label(shown[0]) if len(shown) == 1 else ""


def _keyed_rows(spec: AppSpec, schema: Schema
                ) -> Iterator[tuple[str, View, str, View, str, list[View]]]:
    """(table, the view of the text that tells some rows apart, that text's column, a view
    of another text of the row, its column, the views of the row's other texts) for the
    rows a list's name column cannot call: where the rows mostly share their names
    (aeondroid's planetary hours: "Jupiter", "Mars", ... twice a day), and rows of
    another layout that leave it empty (activitylauncher's activities under each app's
    row). Such rows are called by the first other text that every one of them shows, a
    name on most, that differs on most ("Starts at: 2023-10-19 00:48:07"), as a person
    points at them; drawing drops a text two rows share."""
    tables = {t.name: t for t in spec.tables}
    seen: set[str] = set()
    for table, name_view, _, _, _ in _row_texts(spec, schema):
        e, t = schema.entity(table), tables[table]
        if table in seen or e is None:
            continue
        seen.add(table)
        cols = [c.name for c in t.columns]
        named = [r for r in t.rows if _usable(r[cols.index(e.name)])]
        names = [str(r[cols.index(e.name)]).strip() for r in named]
        unnamed = [r for r in t.rows if not _usable(r[cols.index(e.name)]) and
                   any(_usable(v) for v in r[2:])]
        groups = [g for g in (named if 2 * sum(names.count(x) == 1 for x in names) <
                              len(names) else [], unnamed) if len(g) >= 2]
        bound = [b for b in _bound_texts(_item_of(spec, table, name_view)) if b[1] != e.name]
        for rows in groups:
            for view, key in bound:
                keys = [str(r[cols.index(key)]).strip() for r in rows]
                if all(_usable(k) for k in keys) and 2 * len(set(keys)) >= len(keys) and \
                        2 * sum(is_name(k) for k in keys) > len(keys):
                    for other, column in bound:
                        if column != key:
                            yield table, view, key, other, column, [
                                b for b, c in bound if c not in (key, column)]
                    break


def _item_of(spec: AppSpec, table: str, inside: View) -> View:
    """The item template of a list of `table` that holds view `inside`."""
    for s in spec.screens:
        for v in views(s.root):
            if v.items is not None and v.items.table == table and v.children and \
                    any(x is inside for x in views(v.children[0])):
                return v.children[0]
    raise LookupError(table)


def switch_states(spec: AppSpec, schema: Schema, new: NewName) -> Iterator[Template]:
    """A question per list whose rows' switches say their state ("ON", "OFF"): "Is {n}
    on or off?", answered by that text."""
    tables = {t.name: t for t in spec.tables}
    done: set[str] = set()
    for table, _, other, column, _ in _row_texts(spec, schema):
        t, e = tables[table], schema.entity(table)
        if table in done or e is None or "checkable" not in other.flags:
            continue
        cols = [c.name for c in t.columns]
        name, value = cols.index(e.name), cols.index(column)
        states = {str(r[value]).strip().lower() for r in t.rows
                  if _usable(r[name]) and _usable(r[value])}
        if not states or not states <= {"on", "off"}:
            continue
        done.add(table)
        n, v = new("n"), new("v")
        yield _ask_row(P.SWITCH_STATE, f"ask_switch_{table}", n,
                       Compare("~", Ref(("answer",)), Ref((v,))),
                       (TaskParam(n, table, e.name), TaskParam(v, table, column)))


def switch_checks(spec: AppSpec, schema: Schema, new: NewName,
                  said: set[str]) -> Iterator[Template]:
    """For a list whose rows' switches say nothing of their state (a checkbox; not the
    choices of a single-choice list), "Is {n} on or off?", answered "on" or "off" by
    what the switch shows: one template per answer, for the rows whose switch shows it.
    `said` holds the tables whose switches say it in words (`switch_states`)."""
    tables = {t.name: t for t in spec.tables}
    done = set(said)
    for s in spec.screens:
        if s.foreign:
            continue
        for v in views(s.root):
            if v.items is None or not v.children or v.items.table in done:
                continue
            table, e = v.items.table, schema.entity(v.items.table)
            column = next((c.checked.path[1] for c in views(v.children[0])
                           if "checkable" in c.flags and _SWITCH.search(c.cls) and
                           isinstance(c.checked, Ref) and
                           len(c.checked.path) == 2 and c.checked.path[0] == "item"), None)
            types = {c.name: c.type for c in tables[table].columns}
            if e is None or column is None or types.get(column) != "bool":
                continue
            done.add(table)
            for on in (True, False):
                n, k = new("n"), new("k")
                cond = BoolOp("and", (Compare("~", Ref(("answer",)), Const("on" if on else "off")),
                                      Compare("==", Ref((k,)), Const(on))))
                yield _ask_row(P.SWITCH_STATE, f"ask_{'on' if on else 'off'}_{table}", n, cond,
                               (TaskParam(n, table, e.name), TaskParam(k, table, column)))


def flag_states(spec: AppSpec, schema: Schema, reached: frozenset[str]) -> Iterator[Template]:
    """A question per switch outside lists that a recorded tap flips (ajsha's “check
    this”), on a screen a person gets to: "Is “check this” on or off?", answered by the
    flag as it is when asked. Where one screen shows two switches that say the same, the
    question is asked only when they are in one state after a reset (then it has one
    answer whichever of them is read)."""
    flags = {f.name: f for f in spec.flags if f.type == "bool"}
    shown: dict[tuple[str, str], set[bool]] = {}  # (screen, label) -> initial states
    for sc in spec.screens:
        for v in views(sc.root):
            if "checkable" in v.flags and isinstance(v.checked, Ref) and \
                    v.checked.path[0] in flags:
                label = _SWITCH_WORDS.sub("", label_of(v))
                shown.setdefault((sc.name, label), set()).add(
                    bool(flags[v.checked.path[0]].initial))
    done: set[str] = set()
    for ft in schema.flag_toggles:
        flag = flags.get(ft.flag)
        if flag is None or not ft.label or ft.flag in done or ft.screen not in reached or \
                len(shown.get((ft.screen, ft.label), ())) != 1:
            continue
        # A label on two screens (wikipedia's “Show password” on Log in and on Create an
        # account) is asked with the screen's name, or not at all.
        twin = any(label == ft.label and sc != ft.screen for sc, label in shown)
        where = schema.screen_label(ft.screen) if twin else ""
        if twin and not where:
            continue
        done.add(ft.flag)
        questions, obj = P.FLAG_STATE_ON if where else P.FLAG_STATE
        fill = {"label": ft.label, "screen": where}
        said = Call("choose", args=(Ref((ft.flag,)), Const("on"), Const("off")))
        task = Task(name=f"ask_{ft.flag}", kind="information",
                    instruction=P.join([P.words(q, fill) for q in questions]),
                    condition=Compare("~", Ref(("answer",)), said))
        yield Template(task, asks=P.words(obj, fill), screen=ft.screen, label=ft.label)


def _ask_row(phrases: tuple, name: str, n: str, condition: Expr,
             params: tuple[TaskParam, ...]) -> Template:
    """An information question about the row named by hole `n`: `phrases` is (questions,
    what the question asks), as in `phrases.ROW_TEXT`."""
    questions, obj = phrases
    task = Task(name=name, kind="information", condition=condition, params=params,
                instruction=P.join([P.rename_holes(q, {"n": n}) for q in questions]))
    return Template(task, asks=P.rename_holes(obj, {"n": n}))


def screen_texts(spec: AppSpec, reach_labels: dict[str, str],
                 reached: frozenset[str]) -> Iterator[Template]:
    """A question per fixed heading of a screen a person gets to (`reached`) with a fixed
    text right under it (About: "License", then the licence): "What is written under
    “License”?". `reach_labels` names the screens (a heading alone may be on several).
    The same question with two answers (“Arrive by” on two unnamed pages) is asked of
    neither; with one, once. A page's own title is no heading to ask about (a dialog's
    is: its message is what the dialog says)."""
    found = []
    for s in spec.screens:
        if s.foreign or s.name not in reached:
            continue
        where = reach_labels.get(s.name, "")
        # A page's own heading is asked of nothing ("What does “Profile” say?" on the
        # Profile page: its subtitle); a dialog's title is ("What does “Disclaimer” say?").
        found += [(s.name, i, head, text, where)
                  for i, (head, text) in enumerate(_headed(s.root), 1)
                  if head.casefold() != where.casefold() or "dialog" in s.modules]
    answers: dict[tuple[str, str], set[str]] = {}
    for _, _, head, text, where in found:
        answers.setdefault((head, where), set()).add(text)
    done: set[tuple[str, str]] = set()
    for name, i, head, text, where in found:
        if len(answers[(head, where)]) > 1 or (head, where) in done:
            continue
        done.add((head, where))
        fill = {"head": head, "screen": where}
        questions, obj = P.HEADED if where and where.casefold() != head.casefold() else \
            P.TITLED if where else P.HEADED_ANYWHERE
        task = Task(name=f"read_{name}_{i}", kind="information",
                    instruction=P.join([P.words(q, fill) for q in questions]),
                    condition=Compare("~", Ref(("answer",)), Const(text)))
        yield Template(task, asks=P.words(obj, fill), screen=name)


def _headed(root: View) -> Iterator[tuple[str, str]]:
    """(heading, text) for each fixed, short text with another fixed text right under it
    (closer than half the heading's height), neither of them an input or a button, the
    heading no value (`labels.is_heading`: About's "Version 1.0.3" over its web address
    heads nothing)."""
    fixed = [v for v in fixed_texts(root) if "editable" not in v.flags and
             "button" not in v.cls.lower() and "button" not in v.id.lower()]
    for a, b in zip(fixed, fixed[1:], strict=False):
        head, text = _text(a), _text(b)
        gap = b.bounds[1] - a.bounds[3]
        overlap = min(a.bounds[2], b.bounds[2]) - max(a.bounds[0], b.bounds[0])
        if is_heading(head) and head != text and _usable(head) and _usable(text) and \
                overlap > 0 and \
                -4 <= gap <= (a.bounds[3] - a.bounds[1]) // 2:
            yield head, text


def _text(v: View) -> str:
    return const_text(v.text)


def _row_texts(spec: AppSpec, schema: Schema
               ) -> Iterator[tuple[str, View, View, str, list[View]]]:
    """(table, the view showing a row's name, a view showing another of its texts, that
    text's column, the views of the row's other texts) for every list row template of the
    app's own screens."""
    for s in spec.screens:
        if s.foreign:
            continue
        stack = [s.root]
        while stack:
            v = stack.pop()
            stack.extend(v.children)
            if v.items is None or not v.children:
                continue
            e = schema.entity(v.items.table)
            if e is None:
                continue
            bound = _bound_texts(v.children[0])
            name_view = next((b for b, c in bound if c == e.name), None)
            if name_view is None:
                continue
            for b, c in bound:
                if c != e.name:
                    yield v.items.table, name_view, b, c, [
                        b2 for b2, c2 in bound if c2 not in (e.name, c)]


def _bound_texts(item: View) -> list[tuple[View, str]]:
    """The views of an item template whose text is a column of its row, in tree order."""
    out, stack = [], [item]
    while stack:
        v = stack.pop()
        if v.items is not None:
            continue  # a list inside the row shows other rows
        if isinstance(v.text, Ref) and len(v.text.path) == 2 and v.text.path[0] == "item":
            out.append((v, v.text.path[1]))
        stack.extend(reversed(v.children))
    return out


def _place(name: tuple[int, int, int, int], other: tuple[int, int, int, int]) -> str:
    """Where `other` sits from `name`: "under", "next" (to the right) or "row" (elsewhere
    on the row)."""
    overlap_x = min(name[2], other[2]) - max(name[0], other[0])
    overlap_y = min(name[3], other[3]) - max(name[1], other[1])
    if other[1] >= name[3] - 4 and overlap_x > 0:
        return "under"
    if other[0] >= name[2] - 4 and overlap_y > 0:
        return "next"
    return "row"


def _informative(rows: tuple, name: int, value: int, byline: bool = False) -> bool:
    """Whether a column says something about its rows: some row has both texts, and the
    value is not a switch's on/off (state, asked by other tasks) nor the same on every
    row (a fixed label), but for a byline: a name under each of three rows or more, in
    no button (qqmusic's songs, every one by 王有道: who sings it is still asked)."""
    both = [str(r[value]).strip() for r in rows if _usable(r[name]) and _usable(r[value])]
    values = set(both)
    if {v.lower() for v in values} <= _STATE_WORDS:
        return False
    return len(values) >= 2 or (byline and len(both) >= 3 and is_heading(both[0]))


def _nearest(name: View, other: View, rivals: list[View]) -> bool:
    """Whether `other` is the text its place names (`_place`): the first line under the
    name, the first text right of it, the one other text of the row. "What is written
    under Greenlight Oakland?" is the address, not the availability below it."""
    where = _place(name.bounds, other.bounds)
    same = [r for r in rivals if _place(name.bounds, r.bounds) == where]
    if where == "under":
        return all(r.bounds[1] > other.bounds[1] for r in same)
    if where == "next":
        return all(r.bounds[0] > other.bounds[0] for r in same)
    return not same


def _numbers_rows(rows: tuple, name: int, column: int) -> bool:
    """Whether a column numbers the named rows as they are listed (1, 2, 3, ... or from
    another start): asked as a row's number in the list, not as "what else the row
    shows"."""
    values = [str(r[column]).strip() for r in rows if _usable(r[name]) and _usable(r[column])]
    return len(values) >= 3 and all(v.isdigit() for v in values) and \
        [int(v) for v in values] == list(range(int(values[0]), int(values[0]) + len(values)))


def _usable(v: object) -> bool:
    return isinstance(v, (str, int, float)) and not isinstance(v, bool) and \
        str(v).strip() != "" and not str(v).rstrip().endswith(("…", "...")) and \
        not (isinstance(v, str) and is_placeholder(v))
