"""Templates for opening a list's row (what a screen or a row shows: `screentexts`,
`rowtexts`).

    on main.package_row tap -> package with item        (a list of packages)
      ->  task open_package navigation (n: packages.name)
              "Open {n}. | Tap {n} to open it. | ..." { screen == "package" and param.name == n }

These need nothing but what every recorded app has, lists and taps on their rows, and
they word a task only with what the screen itself shows (a row's name, the label of a
button on it): never with the names of columns or screens, which come from resource ids.
`Template` is what every template maker here yields.
"""

from __future__ import annotations

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
from phoneworld.tasks import wording as W
from phoneworld.tasks.labels import (
    is_name,
    label_of,
    marked_title,
    readable,
    row_name,
    screen_labels,
)
from phoneworld.tasks.planner import slipped
from phoneworld.tasks.schema import Schema

NewName = Callable[..., str]
"""`Names.new` of `composite`: a parameter name no column or keyword uses."""


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
    in_items = item_views(spec)
    done: set[tuple[str, str]] = set()
    slips = slipped(spec)
    for t in spec.transitions:
        if t.action == "swipe" and (t.screen, t.widget) in slips:
            continue  # a tap opens it: a swipe that did too was a slip of the finger
        target = spec.screen(t.target)
        if target is None or target.foreign or t.action not in ("tap", "swipe") or \
                t.with_param != Ref(("item",)) or \
                target.param is None or (t.screen, t.widget) not in in_items:
            continue
        e = schema.entity(target.param)
        view, table = in_items[(t.screen, t.widget)]
        folder = _folder(target) if t.screen == target.name else None
        if e is None or table != target.param or (not shows_row(spec, target) and (
                t.when is None or not _a_place(spec, target)) and folder is None):
            continue  # (one row that opens a page of its own names it, as a tab does)
        button = label_of(view) if t.action == "tap" else ""
        button = button if button and is_name(button) else ""
        if (target.name, button) in done:
            continue
        done.add((target.name, button))
        phrases = P.OPEN_ROW_BY if button else _open_phrases(spec, target, e.table, e.name,
                                                             t.screen == target.name)
        if t.action != "tap":  # opened by a swipe ("swipe an item to edit it"): no "Tap"
            phrases = tuple(p for p in phrases if not p.startswith("Tap "))
        # (only a popup that lists options under its row is known to be that row's: a
        # page any row's tap opens would be "opened" by headings and switches too)
        under = _only_rows_under(spec, target) or \
            (folder if not shows_row(spec, target) else None)
        names = _name_columns(spec, e.table, e.name) if under is not None else [e.name]
        for column in names:
            yield _open_row(target, e, column, under, phrases, {"button": button}, new)


def _open_phrases(spec: AppSpec, target: Screen, table: str, name: str,
                  within: bool = False) -> tuple[str, ...]:
    """How opening a row reads: "Open {n}." for a row with a name; for one shown in a form
    to change it (an editable field reads the row), "Open {n} for editing."; for a row
    whose name is mostly a sentence (onelist's tips, "Swipe an item left to delete it"),
    "Open the entry {n}." and "Open the entry {n} for editing." (a sentence is no place
    to go to, nor a name: "Open “Access the settings from the ⌄ button at the top of the
    screen” for editing" reads as an order of its own). Any other dialog
    (`Screen.window`) is opened, never gone to: "Open the choices for {n}." where it
    lists options, else "Tap {n}."; but a row that opens its own dialog one level
    deeper (`within`: ajsha's folder “examples/” in its file dialog) is gone into."""
    t = next(x for x in spec.tables if x.name == table)
    i = [c.name for c in t.columns].index(name)
    names = [str(r[i]) for r in t.rows if readable(r[i])]
    entry = bool(names) and 2 * sum(W.is_sentence(n) for n in names) > len(names)
    if "form" in target.modules and any("editable" in v.flags and v.text is not None and
                                        reads_param(v.text) for v in views(target.root)):
        return P.EDIT_ENTRY if entry else P.EDIT_ROW
    if target.window is not None and not entry and not within:  # opened, not gone to
        return P.OPEN_CHOICES if any(v.items is not None for v in views(target.root)) \
            else P.OPEN_DIALOG
    return P.OPEN_ENTRY if entry else P.OPEN_ROW


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
    if under == e.table:  # a folder of its own rows: those with some under them
        k = new("k", {n})
        items.append(Call("exists", table=under, where=Compare("==", Ref(("ctx",)),
                                                               Ref((k,)))))
        params.append(TaskParam(k, e.table, e.key))
    elif under is not None:
        # A popup that shows nothing of its row but the rows listed under it (a
        # dialog's options) is that row's only where it lists some: "Open App
        # Version" opened onelist's Theme dialog, empty, by the same tap.
        k, c = new("k", {n}), new("c", {n})
        items.append(Compare("==", Ref((c,)), Ref((k,))))
        params += [TaskParam(k, e.table, e.key), TaskParam(c, under, "ctx")]
    suffix = "" if column == e.name else f"_by_{column}"
    task = Task(name=f"open_{target.name}{suffix}", kind="navigation",
                instruction=W.join([W.words(p, fill, n=n) for p in phrases]),
                condition=BoolOp("and", tuple(items)), params=tuple(params))
    return Template(task, clauses=tuple(W.lower_first(W.words(p, fill, n=n))
                                        for p in phrases), screen=target.name)


def shows_row(spec: AppSpec, target: Screen) -> bool:
    """Whether a screen shows something of the row it was opened for: a text bound to
    `param`, or a list of the row's own rows where most rows have some. A page that
    looks the same whichever row opened it (each target of a share sheet opening one
    "Download QQ" page; a row's menu recorded for one row only, empty for the others)
    is no place a person can tell they reached."""
    filtered = []
    for v in views(target.root):
        for e in (v.text, v.desc):
            if e is not None and reads_param(e):
                return True
        if v.items is not None and v.items.where is not None and reads_param(v.items.where):
            filtered.append(v.items)
    if any(t.screen == target.name and any(reads_param(x) for e in t.effects
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
        if any(e is not None and reads_param(e) for e in (v.text, v.desc)):
            return None
        if v.items is not None and v.items.where == Compare(
                "==", Ref(("item", "ctx")), Ref(("param", "id"))):
            under = v.items.table
    return under


def _folder(target: Screen) -> str | None:
    """The table of the rows a list shows under the row its own screen was opened on (a
    drill-down: a folder's files, an expanded group's activities), else None. Such a row
    is opened where it lists some: a person sees them (activitylauncher's "Open Android
    System" shows its activities; a package none was recorded under shows nothing new)."""
    for v in views(target.root):
        if v.items is not None and v.items.where == Compare(
                "==", Ref(("item", "ctx")), Ref(("param", "id"))):
            return v.items.table
    return None


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


def reads_param(e: Expr) -> bool:
    """Whether an expression reads the screen's row (`param.…`)."""
    return any(isinstance(x, Ref) and x.path[0] == "param" for x in walk(e))


def item_views(spec: AppSpec) -> dict[tuple[str, str], tuple[View, str]]:
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
